//! Sources that misbehave do not flood: junk on a stdio server's standard output is
//! reported once with a count, every warning once, and transport failures in words that
//! name the server and the problem (no SDK type names).

use std::path::Path;

use super::{fixture_entry, quoted};
use crate::cli::{codemode, stderr, stdout};

/// The lines of `text` that are warnings.
fn warnings(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| line.starts_with("codemode: warning: "))
        .collect()
}

#[test]
fn a_server_printing_100000_junk_lines_works_and_is_reported_once_with_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let config = fixture_entry("junk", &["--junk", "100000"], "");
    std::fs::write(dir.path().join("codemode.toml"), &config).unwrap();
    let run = codemode(
        dir.path(),
        &["run", "-"],
        "return await tools.echo({text: 'still works'});",
    );
    let err = stderr(&run);
    assert!(run.status.success(), "{err}");
    assert_eq!(stdout(&run), "still works\n");
    assert!(err.lines().count() <= 2, "stderr floods:\n{err}");
    assert_eq!(
        warnings(&err),
        [
            "codemode: warning: MCP server `junk` wrote 100000 lines that are not JSON-RPC on its standard output; they were ignored (the first: \"garbage\")"
        ],
        "{err}"
    );
}

/// A local port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Answers every HTTP request with 404 and an HTML page, until the test ends.
fn not_found_server() -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut buffer = [0u8; 65536];
            let _ = stream.read(&mut buffer);
            let body = "<html>\n<body>no MCP here</body>\n</html>\n";
            let _ = write!(
                stream,
                "HTTP/1.1 404 Not Found\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    port
}

fn http_entry(name: &str, url: &str) -> String {
    format!("[[mcp]]\nname = {}\nurl = {}\n", quoted(name), quoted(url))
}

#[test]
fn http_failures_name_the_server_and_the_problem_once_without_type_names() {
    let dir = tempfile::tempdir().unwrap();
    let refused = format!("http://127.0.0.1:{}/mcp", closed_port());
    let missing = format!("http://127.0.0.1:{}/mcp", not_found_server());
    let config = format!(
        "{}{}",
        http_entry("refused", &refused),
        http_entry("missing", &missing)
    );
    std::fs::write(dir.path().join("codemode.toml"), &config).unwrap();
    check_messages(dir.path(), &refused, &missing);
}

fn check_messages(dir: &Path, refused: &str, missing: &str) {
    let tools = codemode(dir, &["tools"], "");
    let err = stderr(&tools);
    assert!(tools.status.success(), "{err}");
    let out = stdout(&tools);
    let expected_refused =
        format!("MCP server `refused` ({refused}) failed to initialize: connection refused");
    let expected_missing = format!(
        "MCP server `missing` ({missing}) failed to initialize: it answered HTTP 404 Not Found"
    );
    assert!(
        out.contains(&format!("failed: {expected_refused}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!("failed: {expected_missing}\n")),
        "{out}"
    );
    // Each failure is one warning line; nothing from the SDK, no Rust type names.
    assert_eq!(
        warnings(&err),
        [
            format!("codemode: warning: {expected_refused}"),
            format!("codemode: warning: {expected_missing}")
        ],
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
    for text in [&out, &err] {
        assert!(
            !text.contains("rmcp::") && !text.contains("Worker"),
            "{text}"
        );
        assert!(!text.contains("reqwest") && !text.contains('<'), "{text}");
    }
}
