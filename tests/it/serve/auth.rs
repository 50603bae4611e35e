//! Serving beyond loopback, through the binary: an address other than loopback only with
//! bearer tokens; no token and a wrong token `401` with `WWW-Authenticate` naming the
//! protected-resource metadata (which is served); the right token works for raw HTTP and
//! for the Python MCP SDK's client, over TLS too; a session belongs to the token that
//! opened it; a token's tool scope limits what its sessions see; configuration mistakes
//! are named at their place; `codemode token new` and `hash` agree.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::{Workspace, call, is_error, serve_http as serve, steps, text, tool_names};

const ALPHA: &str = "alpha-secret-0123456789-abcdefghijklmnop";
const BETA: &str = "beta-secret-0123456789-abcdefghijklmnopq";

fn client() -> reqwest::Client {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// A POST of `body` with `token` (if any) and `session` (if any).
async fn post(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    session: Option<&str>,
    body: &str,
) -> reqwest::Response {
    let mut request =
        super::mcp_post(client, url, "application/json", session).body(body.to_owned());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

fn www_authenticate(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[test]
fn an_address_beyond_loopback_is_refused_without_tokens() {
    let workspace = Workspace::new("");
    let output = crate::cli::codemode(
        workspace.path(),
        &[
            "serve",
            "--config",
            &workspace.config(),
            "--http",
            "0.0.0.0:0",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = crate::cli::stderr(&output);
    assert!(stderr.contains("without authentication"), "{stderr}");
    assert!(stderr.contains("[[serve.tokens]]"), "{stderr}");
    // Token flags need `--http`.
    let output = crate::cli::codemode(
        workspace.path(),
        &["serve", "--config", &workspace.config(), "--token-env", "X"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = crate::cli::stderr(&output);
    assert!(
        stderr.contains("required arguments were not provided") && stderr.contains("--http <ADDR>"),
        "{stderr}"
    );
    // Counts and durations are positive.
    let output = crate::cli::codemode(
        workspace.path(),
        &["serve", "--config", &workspace.config(), "--max-runs", "0"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = crate::cli::stderr(&output);
    assert!(
        stderr.contains("'--max-runs <N>': must be a positive whole number"),
        "{stderr}"
    );
}

#[tokio::test]
async fn requests_need_a_token_the_server_accepts() {
    let workspace = Workspace::new("");
    let served = serve(
        &workspace,
        "0.0.0.0:0",
        &["--token-env", "CODEMODE_TEST_TOKEN"],
        &[("CODEMODE_TEST_TOKEN", ALPHA)],
    );
    let url = served.url_at("127.0.0.1");
    let origin = url.trim_end_matches("/mcp").to_owned();
    let client = client();

    let missing = post(&client, &url, None, None, INITIALIZE).await;
    assert_eq!(missing.status().as_u16(), 401);
    let challenge = www_authenticate(&missing);
    assert!(
        challenge.starts_with("Bearer ")
            && challenge.contains(&format!(
                r#"resource_metadata="{origin}/.well-known/oauth-protected-resource/mcp""#
            ))
            && !challenge.contains("invalid_token"),
        "{challenge}"
    );
    let body: Value = missing.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("needs a bearer token"),
        "{body}"
    );

    let wrong = post(&client, &url, Some(BETA), None, INITIALIZE).await;
    assert_eq!(wrong.status().as_u16(), 401);
    assert!(
        www_authenticate(&wrong).contains(r#"error="invalid_token""#),
        "{}",
        www_authenticate(&wrong)
    );
    // A DELETE and a GET are checked too, before anything else.
    let delete = client
        .delete(&url)
        .header("mcp-session-id", "whatever")
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status().as_u16(), 401);

    // The metadata document is public.
    let metadata: Value = client
        .get(format!("{origin}/.well-known/oauth-protected-resource/mcp"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(metadata["resource"], url, "{metadata}");
    assert_eq!(metadata["bearer_methods_supported"], json!(["header"]));

    let right = post(&client, &url, Some(ALPHA), None, INITIALIZE).await;
    assert_eq!(right.status().as_u16(), 200);
    assert!(right.headers().contains_key("mcp-session-id"));
}

#[tokio::test]
async fn a_session_belongs_to_the_token_that_opened_it() {
    let workspace = Workspace::new("");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tokens");
    std::fs::write(&file, format!("alpha {ALPHA}\nbeta {BETA}\n")).unwrap();
    let served = serve(
        &workspace,
        "127.0.0.1:0",
        &["--token-file", file.to_str().unwrap()],
        &[],
    );
    let client = client();
    let opened = post(&client, &served.url, Some(ALPHA), None, INITIALIZE).await;
    assert_eq!(opened.status().as_u16(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let stolen = post(&client, &served.url, Some(BETA), Some(&session), list).await;
    assert_eq!(stolen.status().as_u16(), 404, "another token's session");
    let stolen_delete = client
        .delete(&served.url)
        .bearer_auth(BETA)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(stolen_delete.status().as_u16(), 404);
    let own = post(&client, &served.url, Some(ALPHA), Some(&session), list).await;
    assert_eq!(own.status().as_u16(), 200, "the session is still there");
    let deleted = client
        .delete(&served.url)
        .bearer_auth(ALPHA)
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status().as_u16(), 204);
}

/// A self-signed certificate for `localhost` and its key, made by `openssl`.
fn certificate(dir: &Path) -> (String, String) {
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    let status = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl runs (the Debian package openssl)");
    assert!(status.success());
    (cert.display().to_string(), key.display().to_string())
}

#[test]
fn the_python_mcp_client_works_over_tls_with_its_token_and_sees_its_scope() {
    let beta_hash = codemode::mcp::server::sha256_hex(BETA);
    let alpha_hash = codemode::mcp::server::sha256_hex(ALPHA);
    let workspace = Workspace::new(&format!(
        "[[serve.tokens]]\nname = \"limited\"\nsha256 = \"{beta_hash}\"\nallow = [\"add\", \"read_file\"]\n\n[[serve.tokens]]\nname = \"full\"\nsha256 = \"{alpha_hash}\"\n"
    ));
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(dir.path());
    let plan = |token: &str| {
        json!({
            "transport": "http",
            "http": "0.0.0.0:0",
            "url_host": "localhost",
            "ca": cert,
            "headers": {"Authorization": format!("Bearer {token}")},
            "args": ["--tls-cert", cert, "--tls-key", key],
            "steps": [
                {"op": "list"},
                call("add", json!({"a": 2, "b": 3})),
                call("list_dir", json!({})),
            ],
        })
    };
    let limited = workspace.drive(plan(BETA));
    let steps_seen = steps(&limited);
    assert_eq!(tool_names(&steps_seen[0]), ["add", "read_file"]);
    assert_eq!(text(&steps_seen[1]), "5");
    assert!(is_error(&steps_seen[2]), "outside the token's scope");
    assert!(
        limited["url"]
            .as_str()
            .unwrap()
            .starts_with("https://localhost:")
    );

    let full = workspace.drive(plan(ALPHA));
    let names = tool_names(&steps(&full)[0]);
    assert!(
        names.contains(&"list_dir") && names.contains(&"hang"),
        "{names:?}"
    );
    assert!(!is_error(&steps(&full)[2]));
}

#[test]
fn over_tls_a_wrong_token_is_401_and_plain_http_gets_no_answer() {
    let workspace = Workspace::new("");
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(dir.path());
    let served = serve(
        &workspace,
        "127.0.0.1:0",
        &["--tls-cert", &cert, "--tls-key", &key, "--token-env", "T"],
        &[("T", ALPHA)],
    );
    let url = served.url_at("localhost");
    assert!(url.starts_with("https://"), "{url}");
    let curl = |token: &str, url: &str| {
        let output = Command::new("curl")
            .args([
                "-s",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "--max-time",
                "20",
            ])
            .args(["--cacert", &cert, "-X", "POST"])
            .args(["-H", "content-type: application/json"])
            .args(["-H", "accept: application/json, text/event-stream"])
            .args(["-H", &format!("authorization: Bearer {token}")])
            .args(["--data", INITIALIZE, url])
            .output()
            .expect("curl runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert_eq!(curl(BETA, &url), "401");
    assert_eq!(curl(ALPHA, &url), "200");
    assert_eq!(curl(ALPHA, &url.replace("https://", "http://")), "000");
    // The server is still serving after the failed handshake.
    assert_eq!(curl(ALPHA, &url), "200");
}

#[test]
fn token_mistakes_are_named_at_their_place() {
    let workspace = Workspace::new("[[serve.tokens]]\nname = \"ci\"\nsha256 = \"abc\"\n");
    let output = crate::cli::codemode(
        workspace.path(),
        &[
            "serve",
            "--config",
            &workspace.config(),
            "--http",
            "127.0.0.1:0",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = crate::cli::stderr(&output);
    assert!(
        stderr.contains("codemode.toml:3:10: token `ci`: `sha256` must be"),
        "{stderr}"
    );

    let hash = codemode::mcp::server::sha256_hex(ALPHA);
    let workspace = Workspace::new(&format!(
        "[[serve.tokens]]\nname = \"ci\"\nsha256 = \"{hash}\"\nallow = [\"read_flie\"]\n"
    ));
    let output = crate::cli::codemode(
        workspace.path(),
        &[
            "serve",
            "--config",
            &workspace.config(),
            "--http",
            "127.0.0.1:0",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = crate::cli::stderr(&output);
    assert!(
        stderr.contains("codemode.toml:2:8: the tool scope of token `ci`")
            && stderr.contains("read_flie"),
        "{stderr}"
    );

    let output = crate::cli::codemode(
        workspace.path(),
        &["serve", "--http", "127.0.0.1:0", "--token-env", "T"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(crate::cli::stderr(&output).contains("`T` is not set"));
}

#[test]
fn token_new_prints_a_token_whose_hash_is_the_entry_it_prints() {
    let dir = tempfile::tempdir().unwrap();
    let made = crate::cli::codemode(dir.path(), &["token", "new", "--name", "ci"], "");
    assert!(made.status.success());
    let token = crate::cli::stdout(&made).trim().to_owned();
    assert_eq!(token.len(), 43, "{token}");
    let entry = crate::cli::stderr(&made);
    assert!(entry.contains("name = \"ci\""), "{entry}");
    let hashed = crate::cli::codemode(dir.path(), &["token", "hash"], &format!("{token}\n"));
    assert!(hashed.status.success());
    let digest = crate::cli::stdout(&hashed).trim().to_owned();
    assert!(
        entry.contains(&format!("sha256 = \"{digest}\"")),
        "{entry}\n{digest}"
    );
    let weak = crate::cli::codemode(dir.path(), &["token", "hash"], "short\n");
    assert_eq!(weak.status.code(), Some(2));
}

#[test]
fn a_scoped_token_in_code_mode_gets_the_sdk_and_programs_of_its_tools_only() {
    let hash = codemode::mcp::server::sha256_hex(ALPHA);
    let workspace = Workspace::new(&format!(
        "mode = \"code\"\n\n[[serve.tokens]]\nname = \"reader\"\nsha256 = \"{hash}\"\nallow = [\"read_file\"]\n"
    ));
    let report = workspace.drive(json!({
        "transport": "http",
        "headers": {"Authorization": format!("Bearer {ALPHA}")},
        "steps": [
            {"op": "list"},
            super::run_code("const r = await tools.read_file({path: 'hello.txt'}); return r.content;"),
            super::run_code("return await tools.add({a: 1, b: 2});"),
        ],
    }));
    let seen = steps(&report);
    assert_eq!(tool_names(&seen[0]), ["run_code"]);
    let sdk = seen[0]["tools"][0]["description"].as_str().unwrap();
    assert!(
        sdk.contains("read_file") && !sdk.contains("list_dir") && !sdk.contains("Add two numbers"),
        "{sdk}"
    );
    assert!(text(&seen[1]).contains("hello"), "{}", text(&seen[1]));
    assert!(
        is_error(&seen[2]) && text(&seen[2]).contains("the tools are read_file"),
        "{}",
        text(&seen[2])
    );
}
