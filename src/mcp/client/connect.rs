//! Connecting to one MCP server: starting a stdio server's process (in its own process
//! group, its standard error kept for messages, its standard output screened for
//! malformed lines) or opening a streamable HTTP session, then the `initialize` handshake.
//!
//! This module owns the processes it starts: a [`Connection`] kills its server's whole
//! process group when dropped. It must not know about tools or the registry.

use std::collections::VecDeque;
use std::process::ExitStatus;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{Peer, RoleClient, RunningService, ServiceExt};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

use crate::config::mcp::{McpServerConfig, McpTransport};
use crate::error::{Error, ErrorCode};

/// How much of a server's standard error is kept for failure messages.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// The longest line a stdio server may send (one JSON-RPC message).
const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// What is known about a server process while and after it runs: its exit status and the
/// end of its standard error. Shared by the connection and the calls made over it.
#[derive(Debug, Default)]
pub(crate) struct ProcessReport {
    exit: Mutex<Option<ExitStatus>>,
    stderr: Mutex<VecDeque<String>>,
    malformed: AtomicU64,
}

impl ProcessReport {
    fn push_stderr(&self, line: String) {
        let mut tail = self.stderr.lock();
        tail.push_back(line);
        let mut size: usize = tail.iter().map(String::len).sum();
        while size > STDERR_TAIL_BYTES && tail.len() > 1 {
            if let Some(dropped) = tail.pop_front() {
                size -= dropped.len();
            }
        }
    }

    /// " (it exited with status 3; its last error output: ...)" or "".
    pub(crate) fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(status) = *self.exit.lock() {
            parts.push(match status.code() {
                Some(code) => format!("it exited with status {code}"),
                None => "it was killed by a signal".to_owned(),
            });
        }
        let tail: Vec<String> = self.stderr.lock().iter().cloned().collect();
        let tail = tail.join("\n");
        let tail = tail.trim();
        if !tail.is_empty() {
            parts.push(format!("its last error output:\n{tail}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    /// Whether the process has exited.
    pub(crate) fn exited(&self) -> bool {
        self.exit.lock().is_some()
    }

    /// How many malformed lines the server sent (and were dropped).
    pub(crate) fn malformed(&self) -> u64 {
        self.malformed.load(Ordering::Relaxed)
    }
}

/// A stdio server's process group; dropping it kills the group.
#[derive(Debug)]
struct ProcessGuard {
    pid: Option<u32>,
    stop: CancellationToken,
}

impl Drop for ProcessGuard {
    fn drop(&mut self) {
        self.stop.cancel();
        crate::process::kill_group(self.pid);
    }
}

/// A live session with a server.
pub(crate) struct Connection {
    service: RunningService<RoleClient, ClientConfig>,
    report: Arc<ProcessReport>,
    // Declared last: the session shuts down before the process is killed.
    _process: Option<ProcessGuard>,
}

impl Connection {
    /// The handle requests are sent through.
    pub(crate) fn peer(&self) -> Peer<RoleClient> {
        self.service.peer().clone()
    }

    /// What is known about the server's process.
    pub(crate) fn report(&self) -> Arc<ProcessReport> {
        self.report.clone()
    }

    /// Whether the session is over (the process exited, the stream closed).
    pub(crate) fn is_closed(&self) -> bool {
        self.service.is_transport_closed() || self.report.exited()
    }
}

fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("codemode", env!("CARGO_PKG_VERSION")),
    )
}

fn failed(server: &str, message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ToolFailed,
        format!("MCP server `{server}` {message}"),
    )
}

/// Starts (or opens) the server and completes `initialize`, within the startup timeout.
pub(crate) async fn connect(config: &McpServerConfig) -> Result<Connection, Error> {
    let timeout = Duration::from_secs_f64(config.startup_timeout_ms / 1000.0);
    match &config.transport {
        McpTransport::Stdio { command, env, cwd } => {
            connect_stdio(config, command, env, cwd, timeout).await
        }
        McpTransport::Http { url, headers } => connect_http(config, url, headers, timeout).await,
    }
}

async fn connect_stdio(
    config: &McpServerConfig,
    command: &[String],
    env: &std::collections::BTreeMap<String, String>,
    cwd: &std::path::Path,
    timeout: Duration,
) -> Result<Connection, Error> {
    let server = &config.name;
    let Some((program, args)) = command.split_first() else {
        return Err(failed(server, "has an empty `command`"));
    };
    let mut process = crate::sources::command::piped_process(program, args, cwd, env);
    let mut child = process.spawn().map_err(|err| {
        failed(
            server,
            format_args!(
                "could not be started: `{program}` in {}: {err}",
                cwd.display()
            ),
        )
    })?;
    let report = Arc::new(ProcessReport::default());
    let stop = CancellationToken::new();
    let guard = ProcessGuard {
        pid: child.id(),
        stop: stop.clone(),
    };
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(failed(server, "was started without its standard streams"));
    };
    tokio::spawn(keep_stderr(server.clone(), stderr, report.clone()));
    let (reader, writer) = tokio::io::duplex(256 * 1024);
    tokio::spawn(screen_stdout(
        server.clone(),
        stdout,
        writer,
        report.clone(),
    ));
    {
        let report = report.clone();
        tokio::spawn(async move {
            tokio::select! {
                status = child.wait() => {
                    if let Ok(status) = status {
                        *report.exit.lock() = Some(status);
                    }
                }
                () = stop.cancelled() => {
                    let _ = child.kill().await;
                }
            }
        });
    }
    let handshake = client_config().serve((reader, stdin));
    let service = match tokio::time::timeout(timeout, handshake).await {
        Ok(Ok(service)) => service,
        Ok(Err(err)) => {
            // Give the exit status a moment to arrive: it usually explains the failure.
            settle(&report).await;
            return Err(failed(
                server,
                format_args!("failed to initialize: {err}{}", report.describe()),
            ));
        }
        Err(_) => {
            return Err(failed(
                server,
                format_args!(
                    "did not finish initializing within {} ms{}",
                    timeout.as_millis(),
                    report.describe()
                ),
            ));
        }
    };
    Ok(Connection {
        service,
        report,
        _process: Some(guard),
    })
}

/// Waits briefly for a dying process's exit status.
pub(crate) async fn settle(report: &ProcessReport) {
    for _ in 0..20 {
        if report.exited() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Keeps the end of the server's standard error (and logs it at debug level).
async fn keep_stderr(server: String, stderr: impl AsyncRead + Unpin, report: Arc<ProcessReport>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(server = %server, "{line}");
        report.push_stderr(line);
    }
}

/// Forwards the server's standard output line by line, dropping (and reporting) lines
/// that are not a JSON object or array, so noise on the stream never reaches the
/// protocol layer.
async fn screen_stdout(
    server: String,
    stdout: impl AsyncRead + Unpin,
    mut writer: tokio::io::DuplexStream,
    report: Arc<ProcessReport>,
) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(&mut reader, &mut line).await {
            Ok(LineEnd::Eof) => break,
            Ok(LineEnd::TooLong) => {
                report.malformed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(server = %server, "MCP server `{server}` sent a message over {} MiB; it was dropped", MAX_LINE_BYTES / (1024 * 1024));
                continue;
            }
            Ok(LineEnd::Line) => {}
            Err(err) => {
                tracing::warn!(server = %server, "reading from MCP server `{server}` failed: {err}");
                break;
            }
        }
        let text = trim_line(&line);
        if text.is_empty() {
            continue;
        }
        let well_formed = matches!(text.first(), Some(b'{' | b'['))
            && serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok();
        if !well_formed {
            report.malformed.fetch_add(1, Ordering::Relaxed);
            let preview: String = String::from_utf8_lossy(text).chars().take(200).collect();
            tracing::warn!(server = %server, "MCP server `{server}` sent a malformed message (not JSON-RPC); it was ignored: {preview:?}");
            continue;
        }
        if writer.write_all(text).await.is_err() || writer.write_all(b"\n").await.is_err() {
            break;
        }
    }
    let _ = writer.shutdown().await;
}

enum LineEnd {
    Line,
    TooLong,
    Eof,
}

async fn read_line(
    reader: &mut (impl tokio::io::AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<LineEnd> {
    let mut too_long = false;
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(if too_long || line.is_empty() {
                LineEnd::Eof
            } else {
                LineEnd::Line
            });
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..=end], true),
            None => (buffer, false),
        };
        let used = chunk.len();
        if !too_long {
            if line.len() + used > MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if done {
            return Ok(if too_long {
                LineEnd::TooLong
            } else {
                LineEnd::Line
            });
        }
    }
}

fn trim_line(line: &[u8]) -> &[u8] {
    let mut text = line;
    while let Some((last, rest)) = text.split_last() {
        if last.is_ascii_whitespace() {
            text = rest;
        } else {
            break;
        }
    }
    while let Some((first, rest)) = text.split_first() {
        if first.is_ascii_whitespace() {
            text = rest;
        } else {
            break;
        }
    }
    text
}

async fn connect_http(
    config: &McpServerConfig,
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
    timeout: Duration,
) -> Result<Connection, Error> {
    let server = &config.name;
    // TLS through rustls with the ring provider (installed once; a host that installed
    // its own provider keeps it).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|err| failed(server, format_args!("cannot set up HTTP: {err}")))?;
    let mut custom = std::collections::HashMap::new();
    for (name, value) in headers {
        let name = http::HeaderName::try_from(name.as_str())
            .map_err(|err| failed(server, format_args!("header {name:?}: {err}")))?;
        let value = http::HeaderValue::try_from(value.as_str())
            .map_err(|err| failed(server, format_args!("header {name:?}: {err}")))?;
        custom.insert(name, value);
    }
    let transport_config =
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).custom_headers(custom);
    let transport = StreamableHttpClientTransport::with_client(client, transport_config);
    let handshake = client_config().serve(transport);
    let service = match tokio::time::timeout(timeout, handshake).await {
        Ok(Ok(service)) => service,
        Ok(Err(err)) => {
            return Err(failed(
                server,
                format_args!("at {url} failed to initialize: {err}"),
            ));
        }
        Err(_) => {
            return Err(failed(
                server,
                format_args!(
                    "at {url} did not finish initializing within {} ms",
                    timeout.as_millis()
                ),
            ));
        }
    };
    Ok(Connection {
        service,
        report: Arc::new(ProcessReport::default()),
        _process: None,
    })
}
