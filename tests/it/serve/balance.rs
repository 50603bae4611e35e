//! Two `codemode serve --http` instances behind HAProxy with the README's configuration
//! (`examples/deploy/haproxy.cfg`): sessions are spread over both, and every request of a
//! session reaches the instance that holds it (affinity by `Mcp-Session-Id`), driven by the
//! Python MCP SDK's client with a bearer token. Skipped, saying so, where `haproxy` is not
//! installed (`.ci/run` installs it).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Killed, Workspace, call, free_port, run_code, serve_http as serve, steps, text};

const TOKEN: &str = "balance-secret-0123456789-abcdefghijklm";

#[test]
fn sessions_stick_to_their_instance_behind_haproxy() {
    if Command::new("haproxy").arg("-v").output().is_err() {
        eprintln!("SKIPPED: haproxy is not installed (apt-get install haproxy)");
        return;
    }
    let workspace = Workspace::new("mode = \"both\"");
    let env = [("T", TOKEN)];
    let a = serve(&workspace, "127.0.0.1:0", &["--token-env", "T"], &env);
    let b = serve(&workspace, "127.0.0.1:0", &["--token-env", "T"], &env);
    let authority = |url: &str| {
        url.trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_owned()
    };
    let port = free_port();
    let config = super::root().join("examples/deploy/haproxy.cfg");
    let proxy = Killed(
        Command::new("haproxy")
            .arg("-f")
            .arg(&config)
            .arg("-db")
            .env("CODEMODE_LB_BIND", format!("127.0.0.1:{port}"))
            .env("CODEMODE_A", authority(&a.url))
            .env("CODEMODE_B", authority(&b.url))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts"),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "haproxy did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    // Each session: its list, then calls and a program, each a request naming the session;
    // with round-robin alone every other one would reach the other instance (404).
    for session in 0..4 {
        let report = workspace.drive(json!({
            "transport": "http",
            "url": url,
            "headers": {"Authorization": format!("Bearer {TOKEN}")},
            "steps": [
                {"op": "list"},
                call("add", json!({"a": session, "b": 1})),
                call("add", json!({"a": session, "b": 2})),
                run_code("const r = await tools.add({a: 40, b: 2}); return r;"),
                call("add", json!({"a": session, "b": 3})),
            ],
        }));
        let seen = steps(&report);
        assert_eq!(text(&seen[1]), (session + 1).to_string());
        assert_eq!(text(&seen[2]), (session + 2).to_string());
        assert!(text(&seen[3]).contains("42"), "{}", text(&seen[3]));
        assert_eq!(text(&seen[4]), (session + 3).to_string());
    }
    drop(proxy);
}
