//! `codemode serve` end to end, driven by a real MCP client this project did not write: the
//! Python MCP SDK's client (`tests/tools/mcp_driver.py`, installed by `.ci/tools`), over
//! stdio and over streamable HTTP. Plus raw JSON-RPC over stdio for malformed input, and
//! raw HTTP for the streamable HTTP endpoint's protocol edges.

mod auth;
mod balance;
mod bounds;
mod elicitation;
mod http_edges;
mod lifecycle;
mod memory;
mod metrics;
mod progress;
mod protocol;
mod store;
mod tools;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Python of the test tools' virtual environment, or a failure that says how to get it.
fn python() -> PathBuf {
    let path = root().join("tests/tools/venv/bin/python");
    assert!(
        path.exists(),
        "{} is missing: run `.ci/tools` to install the test tools (the Python MCP client)",
        path.display()
    );
    path
}

/// A workspace: a few files, and `codemode.toml` with `config` (TOML text) below a
/// `[builtin]` table rooted at the workspace and an `add` command tool.
pub struct Workspace {
    pub dir: tempfile::TempDir,
}

impl Workspace {
    pub fn new(config: &str) -> Workspace {
        let dir = tempfile::tempdir().expect("a temp dir");
        let write = |path: &str, text: &str| {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("a parent")).expect("mkdir");
            std::fs::write(full, text).expect("write");
        };
        write("hello.txt", "hello\nworld\n");
        write("src/lib.rs", "// TODO one\npub fn f() {}\n");
        let tools = root().join("fixtures/command-tools");
        let text = format!(
            r#"{config}

[[tools]]
name = "add"
description = "Add two numbers."
command = ["python3", "{add}"]
parameters = {{ type = "object", properties = {{ a = {{ type = "number" }}, b = {{ type = "number" }} }}, required = ["a", "b"] }}
output = {{ type = "number" }}
concurrency_safe = true

[[tools]]
name = "crash"
description = "Always fails."
command = ["python3", "{fail}"]

[[tools]]
name = "hang"
description = "Never finishes."
command = ["python3", "{hang}", "{marker}"]
"#,
            add = tools.join("add.py").display(),
            fail = tools.join("fail.py").display(),
            hang = tools.join("hang.py").display(),
            marker = dir.path().join("hang-marker").display(),
        );
        write("codemode.toml", &text);
        Workspace { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn config(&self) -> String {
        self.path().join("codemode.toml").display().to_string()
    }

    /// Runs the driver with `plan` (binary, args and cwd are filled in) and returns its
    /// JSON report.
    pub fn drive(&self, mut plan: Value) -> Value {
        plan["binary"] = json!(env!("CARGO_BIN_EXE_codemode"));
        plan["cwd"] = json!(self.path());
        let mut args = vec![json!("--config"), json!(self.config())];
        if let Some(extra) = plan.get("args").and_then(Value::as_array) {
            args.extend(extra.iter().cloned());
        }
        plan["args"] = json!(args);
        let output = Command::new(python())
            .arg(root().join("tests/tools/mcp_driver.py"))
            .arg(plan.to_string())
            .output()
            .expect("the MCP driver runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "the MCP driver failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("driver output: {err}\n{stdout}"))
    }

    /// What `codemode run` prints for `program` with this configuration.
    pub fn codemode_run(&self, program: &str) -> String {
        let output = crate::cli::codemode(
            self.path(),
            &["run", "-", "--config", &self.config()],
            program,
        );
        crate::cli::stdout(&output)
            .trim_end_matches('\n')
            .to_owned()
    }
}

/// `codemode serve --http ADDR FLAGS` over a workspace, with `env` added; killed when
/// dropped.
pub struct Served {
    child: Child,
    /// The endpoint URL the server printed.
    pub url: String,
    /// Its port.
    pub port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends the server `signal` (e.g. `"TERM"`).
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} failed");
    }

    /// The server's exit status once it exited, waiting at most `within`.
    pub fn exited_within(
        &mut self,
        within: std::time::Duration,
    ) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// The URL with the host replaced (a listener on 0.0.0.0 is reached on loopback).
    pub fn url_at(&self, host: &str) -> String {
        let (scheme, _) = self.url.split_once("://").expect("a scheme");
        format!("{scheme}://{host}:{}/mcp", self.port)
    }
}

/// Starts `codemode serve --http ADDR FLAGS` and waits for the URL it prints.
pub fn serve_http(
    workspace: &Workspace,
    addr: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["serve", "--config", &workspace.config(), "--http", addr])
        .args(flags)
        .envs(env.iter().copied())
        .current_dir(workspace.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let mut seen = String::new();
    let url = loop {
        let Some(Ok(line)) = lines.next() else {
            panic!("the server did not say where it listens:\n{seen}");
        };
        if let Some((_, url)) = line.split_once("streamable HTTP at ") {
            break url.trim().to_owned();
        }
        seen.push_str(&line);
        seen.push('\n');
    };
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || lines.for_each(drop));
    let port = url
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.trim_end_matches("/mcp").parse().ok())
        .expect("a port in the URL");
    Served { child, url, port }
}

/// The calls' results of a driver report (`steps` in order).
pub fn steps(report: &Value) -> &Vec<Value> {
    report["steps"].as_array().expect("steps")
}

/// The one text block of a result.
pub fn text(result: &Value) -> &str {
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{result}");
    content[0]["text"].as_str().expect("a text block")
}

pub fn is_error(result: &Value) -> bool {
    result["isError"].as_bool().unwrap_or(false)
}

pub fn tool_names(list: &Value) -> Vec<&str> {
    list["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("a name"))
        .collect()
}

pub fn run_code(code: &str) -> Value {
    json!({"op": "call", "name": "run_code", "arguments": {"code": code, "description": "a test program"}})
}

pub fn call(name: &str, arguments: Value) -> Value {
    json!({"op": "call", "name": name, "arguments": arguments})
}

#[test]
fn the_example_configuration_parses() {
    let config = codemode::config::Config::load(&root().join("codemode.example.toml"))
        .unwrap_or_else(|err| panic!("codemode.example.toml: {err}"));
    assert_eq!(config.mode, codemode::code::PresentationMode::Code);
    assert_eq!(config.command_tools.len(), 1);
}

/// A child process killed (and reaped) when dropped.
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A loopback port free now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A POST to a streamable-HTTP MCP endpoint as its clients send one: `accept` for both
/// kinds of answer, `content_type`, and `session` (with the protocol version) when given.
pub fn mcp_post(
    client: &reqwest::Client,
    url: &str,
    content_type: &str,
    session: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = client
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", content_type);
    match session {
        Some(session) => request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18"),
        None => request,
    }
}

/// A response's status, headers and text.
pub async fn status_headers_text(
    response: reqwest::Response,
) -> (u16, reqwest::header::HeaderMap, String) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}
