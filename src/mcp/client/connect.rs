//! Connecting to one MCP server: starting a stdio server's process (in its own process
//! group, its standard error kept for messages, its standard output screened for
//! malformed lines) or opening a streamable HTTP session, then the `initialize` handshake.
//! The session's client side passes the server's `notifications/tools/list_changed` on
//! to a [`ToolsChanged`] signal.
//!
//! Lines on standard output that are not JSON-RPC are counted, not logged one by one: the
//! ones written while the server starts are reported once (with the count and the first
//! line) when `initialize` is answered, later ones at most once a minute (and when the
//! stream ends). Transport failures are described by what went wrong ("connection
//! refused", "it answered HTTP 404 Not Found"), never by the SDK's type names.
//!
//! This module owns the processes it starts: a [`Connection`] kills its server's whole
//! process group when dropped. It must not know about tools or the registry.

use std::collections::VecDeque;
use std::process::ExitStatus;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use rmcp::ClientHandler;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{
    ClientInitializeError, NotificationContext, Peer, RoleClient, RunningService, ServiceError,
    ServiceExt,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

use super::http::{SessionWatch, WatchedClient, status_text};
use crate::config::mcp::{McpServerConfig, McpTransport};
use crate::error::{Error, ErrorCode};

/// How much of a server's standard error is kept for failure messages.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// The longest line a stdio server may send (one JSON-RPC message).
const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// The longest line of a server's standard error kept (longer ones are shown shortened).
const MAX_STDERR_LINE_BYTES: usize = 64 * 1024;
/// How often, at most, lines that are not JSON-RPC are reported once a server runs.
const NOISE_REPORT_INTERVAL: Duration = Duration::from_secs(60);

/// Counts the server's `notifications/tools/list_changed`; shared by every session of one
/// server, watched by whoever follows its tools.
pub(crate) type ToolsChanged = tokio::sync::watch::Sender<u64>;

/// The client side of a session: codemode's identity, and the server's
/// `notifications/tools/list_changed` passed on.
#[derive(Clone)]
pub(crate) struct Handler {
    info: ClientConfig,
    changed: Arc<ToolsChanged>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        self.changed
            .send_modify(|count| *count = count.wrapping_add(1));
        std::future::ready(())
    }
}

/// Lines on a server's standard output that are not JSON-RPC, waiting to be reported.
#[derive(Debug, Default)]
struct Noise {
    /// Every such line so far.
    total: u64,
    /// Those not reported yet.
    unreported: u64,
    /// The first unreported one (shortened).
    sample: Option<String>,
    /// When the last report was made.
    last_report: Option<Instant>,
    /// Whether `initialize` was answered (before, lines are only counted).
    started: bool,
    /// Whether a report is scheduled for the end of the interval.
    scheduled: bool,
}

/// What is known about a server process while and after it runs: its exit status and the
/// end of its standard error. Shared by the connection and the calls made over it.
#[derive(Debug, Default)]
pub(crate) struct ProcessReport {
    exit: Mutex<Option<ExitStatus>>,
    stderr: Mutex<VecDeque<String>>,
    noise: Mutex<Noise>,
}

impl ProcessReport {
    /// Counts one line that is not JSON-RPC (`sample` shows it), reporting it now when no
    /// report was made within the interval and the server has started, else later.
    fn noise(self: &Arc<Self>, server: &str, sample: impl FnOnce() -> String) {
        let mut noise = self.noise.lock();
        noise.total += 1;
        noise.unreported += 1;
        if noise.sample.is_none() {
            noise.sample = Some(sample());
        }
        if !noise.started || noise.scheduled {
            return;
        }
        let due = noise.last_report.map_or(Duration::ZERO, |last| {
            NOISE_REPORT_INTERVAL.saturating_sub(last.elapsed())
        });
        if due.is_zero() {
            report_noise(server, &mut noise);
        } else if tokio::runtime::Handle::try_current().is_ok() {
            noise.scheduled = true;
            let report = Arc::downgrade(self);
            let server = server.to_owned();
            tokio::spawn(async move {
                tokio::time::sleep(due).await;
                if let Some(report) = report.upgrade() {
                    let mut noise = report.noise.lock();
                    noise.scheduled = false;
                    report_noise(&server, &mut noise);
                }
            });
        }
    }

    /// Ends the start: what was counted so far is reported (once), later lines as they
    /// come.
    pub(crate) fn started(&self, server: &str) {
        let mut noise = self.noise.lock();
        noise.started = true;
        report_noise(server, &mut noise);
    }

    /// Reports what is still unreported (the stream ended).
    fn flush_noise(&self, server: &str) {
        report_noise(server, &mut self.noise.lock());
    }

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
}

/// One warning for the unreported lines of `noise`, if any.
fn report_noise(server: &str, noise: &mut Noise) {
    if noise.unreported == 0 {
        return;
    }
    let sample = noise.sample.take().unwrap_or_default();
    let count = noise.unreported;
    let earlier = noise.total - count;
    let more = if earlier > 0 { " more" } else { "" };
    if count == 1 {
        tracing::warn!(server = %server, "MCP server `{server}` wrote a{more} line that is not JSON-RPC on its standard output; it was ignored: {sample}");
    } else {
        tracing::warn!(server = %server, "MCP server `{server}` wrote {count}{more} lines that are not JSON-RPC on its standard output; they were ignored (the first: {sample})");
    }
    noise.unreported = 0;
    noise.last_report = Some(Instant::now());
}

/// A stdio server's process group; dropping it kills the group.
#[derive(Debug)]
struct ProcessGuard {
    group: crate::process::ProcessGroup,
    stop: CancellationToken,
}

impl Drop for ProcessGuard {
    fn drop(&mut self) {
        self.stop.cancel();
        self.group.kill();
    }
}

/// A live session with a server.
pub(crate) struct Connection {
    service: RunningService<RoleClient, Handler>,
    report: Arc<ProcessReport>,
    /// A streamable-HTTP session's watch (see [`super::http`]); `None` over stdio.
    watch: Option<Arc<SessionWatch>>,
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

    /// Whether the session is over (the process exited, the stream closed, an HTTP server
    /// answered that the session is gone).
    pub(crate) fn is_closed(&self) -> bool {
        self.service.is_transport_closed()
            || self.report.exited()
            || self.watch.as_ref().is_some_and(|watch| watch.is_lost())
    }

    /// Why an HTTP server's session was lost, once it is.
    pub(crate) fn lost_reason(&self) -> Option<String> {
        self.watch.as_ref().and_then(|watch| watch.reason())
    }

    /// Completes with the reason when an HTTP server's session is lost; never over stdio.
    pub(crate) async fn lost(&self) -> String {
        match &self.watch {
            Some(watch) => {
                watch.lost().await;
                watch.reason().unwrap_or_default()
            }
            None => std::future::pending().await,
        }
    }
}

fn handler(changed: &Arc<ToolsChanged>) -> Handler {
    Handler {
        info: ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("codemode", env!("CARGO_PKG_VERSION")),
        ),
        changed: changed.clone(),
    }
}

/// What went wrong in `initialize`, in words (no SDK type names).
fn init_problem(err: &ClientInitializeError) -> String {
    match err {
        ClientInitializeError::TransportError { error, .. } => transport_problem(&*error.error),
        ClientInitializeError::ConnectionClosed(_) => {
            "the connection closed before `initialize` was answered".to_owned()
        }
        ClientInitializeError::JsonRpcError(error) => format!(
            "it refused `initialize`: {} (error {})",
            error.message, error.code.0
        ),
        ClientInitializeError::ExpectedInitResponse(_)
        | ClientInitializeError::ExpectedInitResult(_) => {
            "it did not answer `initialize` with an initialize result".to_owned()
        }
        other => other.to_string(),
    }
}

/// What went wrong with a request, in words (no SDK type names).
pub(crate) fn service_problem(err: &ServiceError) -> String {
    match err {
        ServiceError::TransportSend(error) => transport_problem(&*error.error),
        ServiceError::TransportClosed => "the connection is closed".to_owned(),
        ServiceError::McpError(error) => format!("{} (error {})", error.message, error.code.0),
        ServiceError::UnexpectedResponse => "it answered with an unexpected result".to_owned(),
        other => other.to_string(),
    }
}

/// What a transport error means: "connection refused", "it answered HTTP 404 Not Found".
fn transport_problem(err: &(dyn std::error::Error + 'static)) -> String {
    if let Some(http) = err.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        return match http {
            StreamableHttpError::Client(err) => request_problem(err),
            StreamableHttpError::Io(err) => io_problem(err),
            StreamableHttpError::HttpStatus(status) => {
                format!("it answered HTTP {}", status_text(status.status))
            }
            StreamableHttpError::UnexpectedServerResponse(text) => {
                // "HTTP 404 Not Found: BODY": an HTML page says nothing an HTTP status
                // does not.
                let text = match text.split_once(": ") {
                    Some((status, body)) if body.trim_start().starts_with('<') => status,
                    _ => text,
                };
                format!("it answered {}", one_line(text))
            }
            StreamableHttpError::UnexpectedContentType(kind) => format!(
                "it answered with the content type {}, not JSON or an event stream",
                kind.as_deref().unwrap_or("(none)")
            ),
            other => one_line(&other.to_string()),
        };
    }
    if let Some(err) = err.downcast_ref::<std::io::Error>() {
        return io_problem(err);
    }
    if let Some(err) = err.downcast_ref::<reqwest::Error>() {
        return request_problem(err);
    }
    one_line(&err.to_string())
}

/// An HTTP request's failure: the operating system's reason when there is one.
fn request_problem(err: &reqwest::Error) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
    let mut innermost = None;
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return match io.kind() {
                std::io::ErrorKind::ConnectionRefused
                | std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::TimedOut => io_problem(io),
                _ if err.is_connect() => format!("cannot connect: {}", io_problem(io)),
                _ => io_problem(io),
            };
        }
        innermost = Some(cause);
        source = cause.source();
    }
    if err.is_timeout() {
        return "the request timed out".to_owned();
    }
    if let Some(status) = err.status() {
        return format!("it answered HTTP {}", status_text(status.as_u16()));
    }
    let reason = innermost.map_or_else(|| err.to_string(), ToString::to_string);
    if err.is_connect() {
        format!("cannot connect: {}", one_line(&reason))
    } else {
        one_line(&reason)
    }
}

fn io_problem(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::ConnectionRefused => "connection refused".to_owned(),
        std::io::ErrorKind::ConnectionReset => "the connection was reset".to_owned(),
        std::io::ErrorKind::TimedOut => "the connection timed out".to_owned(),
        _ => one_line(&err.to_string()),
    }
}

/// `text` on one line, at most 200 characters.
fn one_line(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() > 200 {
        let mut cut: String = joined.chars().take(200).collect();
        cut.push('…');
        cut
    } else {
        joined
    }
}

fn failed(server: &str, message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ToolFailed,
        format!("MCP server `{server}` {message}"),
    )
}

/// Starts (or opens) the server and completes `initialize`, within the startup timeout;
/// the server's `tools/list_changed` notifications are counted in `changed`.
pub(crate) async fn connect(
    config: &McpServerConfig,
    changed: &Arc<ToolsChanged>,
) -> Result<Connection, Error> {
    let timeout = Duration::from_secs_f64(config.startup_timeout_ms / 1000.0);
    match &config.transport {
        McpTransport::Stdio { command, env, cwd } => {
            connect_stdio(config, command, env, cwd, timeout, handler(changed)).await
        }
        McpTransport::Http { url, headers } => {
            connect_http(config, url, headers, timeout, handler(changed)).await
        }
    }
}

async fn connect_stdio(
    config: &McpServerConfig,
    command: &[String],
    env: &std::collections::BTreeMap<String, String>,
    cwd: &std::path::Path,
    timeout: Duration,
    handler: Handler,
) -> Result<Connection, Error> {
    let server = &config.name;
    let Some((program, args)) = command.split_first() else {
        return Err(failed(server, "has an empty `command`"));
    };
    let mut process = crate::process::piped(program, args, cwd, env);
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
        group: crate::process::ProcessGroup::led_by(child.id()),
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
    let handshake = handler.serve((reader, stdin));
    let handshake = tokio::time::timeout(timeout, handshake).await;
    report.started(server);
    let service = match handshake {
        Ok(Ok(service)) => service,
        Ok(Err(err)) => {
            // Give the exit status a moment to arrive: it usually explains the failure.
            settle(&report).await;
            return Err(failed(
                server,
                format_args!(
                    "failed to initialize: {}{}",
                    init_problem(&err),
                    report.describe()
                ),
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
        watch: None,
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
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        // Bounded and lossy: a server's endless line or bytes that are not UTF-8 are
        // shown shortened, and the stream is read to its end (never left to block it).
        let text = match read_line(&mut reader, &mut line, MAX_STDERR_LINE_BYTES).await {
            Ok(LineEnd::Eof) | Err(_) => break,
            Ok(LineEnd::TooLong) => format!("(a line over {} KiB)", MAX_STDERR_LINE_BYTES / 1024),
            Ok(LineEnd::Line) => {
                let end = line
                    .iter()
                    .rposition(|b| !matches!(b, b'\n' | b'\r'))
                    .map_or(0, |last| last + 1);
                String::from_utf8_lossy(&line[..end]).into_owned()
            }
        };
        tracing::debug!(server = %server, "{text}");
        report.push_stderr(text);
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
        match read_line(&mut reader, &mut line, MAX_LINE_BYTES).await {
            Ok(LineEnd::Eof) => break,
            Ok(LineEnd::TooLong) => {
                report.noise(&server, || {
                    format!("(a line over {} MiB)", MAX_LINE_BYTES / (1024 * 1024))
                });
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
            report.noise(&server, || {
                let preview: String = String::from_utf8_lossy(text).chars().take(200).collect();
                format!("{preview:?}")
            });
            continue;
        }
        if writer.write_all(text).await.is_err() || writer.write_all(b"\n").await.is_err() {
            break;
        }
    }
    report.flush_noise(&server);
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
    max: usize,
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
            if line.len() + used > max {
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
    handler: Handler,
) -> Result<Connection, Error> {
    let server = &config.name;
    // TLS through rustls with its default provider, aws-lc-rs, which offers post-quantum
    // key exchange (installed once; a host that installed its own provider keeps it).
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
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
    // A lost session is replaced by a new connection (and its tools listed again), not
    // re-initialized inside the transport: one path for the 400 and the 404 a restarted
    // server answers.
    let transport_config = StreamableHttpClientTransportConfig::with_uri(url.to_owned())
        .custom_headers(custom)
        .reinit_on_expired_session(false);
    let watch = Arc::new(SessionWatch::default());
    let client = WatchedClient {
        inner: client,
        watch: watch.clone(),
    };
    let transport = StreamableHttpClientTransport::with_client(client, transport_config);
    let handshake = handler.serve(transport);
    let service = match tokio::time::timeout(timeout, handshake).await {
        Ok(Ok(service)) => service,
        Ok(Err(err)) => {
            return Err(failed(
                server,
                format_args!("({url}) failed to initialize: {}", init_problem(&err)),
            ));
        }
        Err(_) => {
            return Err(failed(
                server,
                format_args!(
                    "({url}) did not finish initializing within {} ms",
                    timeout.as_millis()
                ),
            ));
        }
    };
    Ok(Connection {
        service,
        report: Arc::new(ProcessReport::default()),
        watch: Some(watch),
        _process: None,
    })
}
