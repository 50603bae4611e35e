//! The streamable HTTP listener: accepts connections up to a cap and serves each with
//! hyper's HTTP/1.1 connection, whose request headers must arrive within a timeout.
//!
//! - At most `max_connections` connections are open at once. One accepted past the cap is
//!   answered at once with `503` (a JSON-RPC error naming the cap, `Connection: close`,
//!   written without waiting) and closed; the connections within the cap are served as
//!   before.
//! - A connection whose request line and headers do not arrive within `header_timeout`
//!   (hyper's header read timeout, also between the requests of a kept-alive connection)
//!   is closed.
//! - With TLS, the handshake must end within `header_timeout` too; a connection whose
//!   handshake fails or stalls is closed (counted in the log).
//! - A connection whose client stops reading (an answer's bytes wait to be written for
//!   longer than `write_timeout`) is closed, and the answer it held released: a reader
//!   that does not read cannot keep the server's memory.
//! - The bytes of answers handed to a connection but not yet written are counted, per
//!   connection and across the server. While the server-wide count is over
//!   [`SERVER_UNWRITTEN_BUDGET`], a connection stalled for [`STALL_CHECK`] that holds more
//!   than [`CONNECTION_UNWRITTEN_BUDGET`] is closed at once instead of at its write timeout.
//! - When a connection that wrote a large answer ends, the allocator's free memory is
//!   given back to the system (at most once a second).
//! - Refusals and accept failures (out of descriptors) are logged counted: the first,
//!   then at every power of two, never once per connection.
//!
//! This module owns connections (accepting, the cap, the header timeout); it must not
//! look at requests (the HTTP edge and rmcp do).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// The JSON-RPC code of a refusal because a cap is reached (the implementation-defined
/// server error range).
pub(crate) const SERVER_BUSY: i64 = -32000;

/// How long open connections get to finish after shutdown fired.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How long to pause accepting after `accept` failed (out of descriptors).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// The bytes of unwritten answers the server holds for stalled readers before it closes
/// the stalled connections that hold the most.
pub const SERVER_UNWRITTEN_BUDGET: u64 = 64 * 1024 * 1024;

/// The bytes of unwritten answers a stalled connection may hold while the server is over
/// its budget.
pub const CONNECTION_UNWRITTEN_BUDGET: u64 = 4 * 1024 * 1024;

/// The bytes of answers handed to connections and not yet written, across the server.
static UNWRITTEN: AtomicU64 = AtomicU64::new(0);

/// How many bytes a connection must have written for its end to give memory back.
const LARGE_ANSWERS: u64 = 1024 * 1024;

/// The connection settings.
#[derive(Clone)]
pub(crate) struct ConnectionLimits {
    pub(crate) max_connections: usize,
    pub(crate) header_timeout: Duration,
    /// How long an answer's bytes may wait for a client that does not read.
    pub(crate) write_timeout: Duration,
    /// Connections speak TLS first.
    pub(crate) tls: Option<tokio_rustls::TlsAcceptor>,
}

/// A count of one kind of event whose warning is logged the first time and then at every
/// power of two.
#[derive(Debug, Default)]
pub(crate) struct Counted(AtomicU64);

impl Counted {
    pub(crate) const fn new() -> Self {
        Counted(AtomicU64::new(0))
    }

    /// Counts one more; the count when it should be logged now.
    pub(crate) fn bump(&self) -> Option<u64> {
        let count = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        count.is_power_of_two().then_some(count)
    }
}

/// Serves `router` on `listener` until `shutdown` fires.
pub(crate) async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: ConnectionLimits,
    shutdown: CancellationToken,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let refused = Counted::default();
    let failed = Counted::default();
    let handshakes = Arc::new(Counted::default());
    loop {
        let accepted = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) => {
                if let Some(count) = failed.bump() {
                    tracing::warn!(error = %err, count, "cannot accept an HTTP connection (out of descriptors?); pausing briefly");
                }
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            if let Some(count) = refused.bump() {
                tracing::warn!(
                    cap = limits.max_connections,
                    count,
                    "HTTP connections refused: the connection cap is reached"
                );
            }
            refuse(&stream, limits.max_connections);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let meter = Arc::new(Meter::default());
        let service = TowerToHyperService::new(Counting {
            router: router.clone(),
            meter: meter.clone(),
        });
        let shutdown = shutdown.clone();
        let (header_timeout, write_timeout) = (limits.header_timeout, limits.write_timeout);
        let tls = limits.tls.clone();
        let handshakes = handshakes.clone();
        tokio::spawn(async move {
            let _permit = permit;
            match tls {
                None => {
                    serve_connection(
                        stream,
                        service,
                        meter,
                        header_timeout,
                        write_timeout,
                        shutdown,
                    )
                    .await
                }
                Some(acceptor) => {
                    match tokio::time::timeout(header_timeout, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            serve_connection(
                                stream,
                                service,
                                meter,
                                header_timeout,
                                write_timeout,
                                shutdown,
                            )
                            .await;
                        }
                        Ok(Err(err)) => {
                            if let Some(count) = handshakes.bump() {
                                tracing::warn!(error = %err, count, "TLS handshakes failed (a client without TLS, or one that does not trust the certificate)");
                            }
                        }
                        Err(_) => {
                            if let Some(count) = handshakes.bump() {
                                tracing::warn!(
                                    count,
                                    "TLS handshakes failed: not done within the header timeout"
                                );
                            }
                        }
                    }
                }
            }
        });
    }
}

/// Serves one connection's HTTP/1.1 requests until it closes, its client stops reading for
/// `write_timeout`, or `shutdown` fires (then it gets [`SHUTDOWN_GRACE`] to finish).
async fn serve_connection<I>(
    io: I,
    service: TowerToHyperService<Counting>,
    meter: Arc<Meter>,
    header_timeout: Duration,
    write_timeout: Duration,
    shutdown: CancellationToken,
) where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let io = TokioIo::new(Metered {
        io,
        meter: meter.clone(),
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection(io, service);
    serve_until_closed(connection, &meter, write_timeout, shutdown).await;
    // Whatever the connection held unwritten was released with it.
    meter.release();
    if meter.written.load(Ordering::Relaxed) >= LARGE_ANSWERS {
        give_back_memory();
    }
}

/// Drives `connection` until it ends, its client stops reading (see the module's doc), or
/// `shutdown` fires; the connection is dropped (and what it held released) on return.
async fn serve_until_closed<C>(
    connection: C,
    meter: &Meter,
    write_timeout: Duration,
    shutdown: CancellationToken,
) where
    C: std::future::Future<Output = Result<(), hyper::Error>> + GracefulShutdown,
{
    tokio::pin!(connection);
    let mut watch = tokio::time::interval(
        STALL_CHECK
            .min(write_timeout)
            .max(Duration::from_millis(10)),
    );
    watch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(err) = served {
                    tracing::debug!(error = %err, "an HTTP connection ended with an error");
                }
                break;
            }
            _ = watch.tick() => {
                let stalled = meter.stalled_for();
                if stalled > write_timeout {
                    if let Some(count) = STALLED.bump() {
                        tracing::warn!(
                            timeout_ms = write_timeout.as_millis() as u64,
                            count,
                            "HTTP connections closed: their clients did not read an answer"
                        );
                    }
                    break;
                }
                if stalled >= STALL_CHECK
                    && meter.unwritten.load(Ordering::Relaxed) > CONNECTION_UNWRITTEN_BUDGET
                    && UNWRITTEN.load(Ordering::Relaxed) > SERVER_UNWRITTEN_BUDGET
                {
                    if let Some(count) = OVER_BUDGET.bump() {
                        tracing::warn!(
                            budget = SERVER_UNWRITTEN_BUDGET,
                            count,
                            "HTTP connections closed: their clients did not read, and the server's budget for unread answers is spent"
                        );
                    }
                    break;
                }
            }
            () = shutdown.cancelled() => {
                connection.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection.as_mut()).await;
                break;
            }
        }
    }
}

/// A connection that can be asked to finish its requests and close.
trait GracefulShutdown {
    fn graceful_shutdown(self: std::pin::Pin<&mut Self>);
}

impl<I, S> GracefulShutdown for hyper::server::conn::http1::Connection<I, S>
where
    S: hyper::service::HttpService<hyper::body::Incoming>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    S::ResBody: hyper::body::Body + 'static,
    <S::ResBody as hyper::body::Body>::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    fn graceful_shutdown(self: std::pin::Pin<&mut Self>) {
        hyper::server::conn::http1::Connection::graceful_shutdown(self);
    }
}

/// The router, with each answer's bytes counted as handed to the connection.
#[derive(Clone)]
struct Counting {
    router: axum::Router,
    meter: Arc<Meter>,
}

impl<B> tower::Service<axum::http::Request<B>> for Counting
where
    B: hyper::body::Body<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        tower::Service::<axum::http::Request<B>>::poll_ready(&mut self.router, cx)
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        let answer = self.router.call(request);
        let meter = self.meter.clone();
        Box::pin(async move { answer.await.map(|response| meter.count(response)) })
    }
}

/// Connections closed early because the server's budget for unread answers was spent.
static OVER_BUDGET: Counted = Counted::new();

/// How often a connection checks whether its client stopped reading.
const STALL_CHECK: Duration = Duration::from_secs(1);

/// Connections closed because their client did not read (for counted warnings).
static STALLED: Counted = Counted::new();

/// Gives the allocator's free memory back to the system, at most once a second (the
/// released answers of several connections are given back together).
fn give_back_memory() {
    static LAST: std::sync::Mutex<Option<std::time::Instant>> = std::sync::Mutex::new(None);
    let Ok(mut last) = LAST.lock() else { return };
    if last.is_some_and(|at| at.elapsed() < Duration::from_secs(1)) {
        return;
    }
    *last = Some(std::time::Instant::now());
    drop(last);
    crate::process::give_back_free_memory();
}

/// What a connection's writes tell: the bytes written, and since when a write waits for
/// the client to read.
#[derive(Debug, Default)]
pub(crate) struct Meter {
    written: AtomicU64,
    /// Bytes of answers handed to the connection and not yet written.
    unwritten: AtomicU64,
    /// Milliseconds since [`Meter::epoch`] at which a write first waited, plus one (0: no
    /// write waits).
    stalled_since: AtomicU64,
    epoch: std::sync::OnceLock<std::time::Instant>,
}

impl Meter {
    fn now(&self) -> u64 {
        let epoch = self.epoch.get_or_init(std::time::Instant::now);
        u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn waited(&self) {
        if self.stalled_since.load(Ordering::Relaxed) == 0 {
            self.stalled_since.store(self.now() + 1, Ordering::Relaxed);
        }
    }

    fn wrote(&self, bytes: usize) {
        self.stalled_since.store(0, Ordering::Relaxed);
        self.written.fetch_add(bytes as u64, Ordering::Relaxed);
        // Headers are written too: never count below zero.
        let before = self
            .unwritten
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                Some(held.saturating_sub(bytes as u64))
            })
            .unwrap_or(0);
        UNWRITTEN.fetch_sub(before.min(bytes as u64), Ordering::AcqRel);
    }

    /// Counts `bytes` of an answer handed to the connection.
    fn handed(&self, bytes: usize) {
        self.unwritten.fetch_add(bytes as u64, Ordering::AcqRel);
        UNWRITTEN.fetch_add(bytes as u64, Ordering::AcqRel);
    }

    /// The connection ended: what it held unwritten is gone.
    fn release(&self) {
        let held = self.unwritten.swap(0, Ordering::AcqRel);
        UNWRITTEN.fetch_sub(held, Ordering::AcqRel);
    }

    /// `response` whose body's bytes are counted as handed to this connection.
    fn count(self: &Arc<Self>, response: axum::response::Response) -> axum::response::Response {
        let (parts, body) = response.into_parts();
        let meter = self.clone();
        let body = futures::StreamExt::inspect(body.into_data_stream(), move |chunk| {
            if let Ok(chunk) = chunk {
                meter.handed(chunk.len());
            }
        });
        axum::response::Response::from_parts(parts, axum::body::Body::from_stream(body))
    }

    /// How long a write has been waiting (zero when none waits).
    fn stalled_for(&self) -> Duration {
        match self.stalled_since.load(Ordering::Relaxed) {
            0 => Duration::ZERO,
            since => Duration::from_millis(self.now().saturating_sub(since - 1)),
        }
    }
}

/// A connection's stream, its writes metered.
struct Metered<I> {
    io: I,
    meter: Arc<Meter>,
}

impl<I: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Metered<I> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<I: tokio::io::AsyncWrite + Unpin> Metered<I> {
    fn note(
        &self,
        polled: std::task::Poll<std::io::Result<usize>>,
    ) -> std::task::Poll<std::io::Result<usize>> {
        match &polled {
            std::task::Poll::Pending => self.meter.waited(),
            std::task::Poll::Ready(Ok(bytes)) => self.meter.wrote(*bytes),
            std::task::Poll::Ready(Err(_)) => {}
        }
        polled
    }
}

impl<I: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Metered<I> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let polled = std::pin::Pin::new(&mut self.io).poll_write(cx, buf);
        self.note(polled)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let polled = std::pin::Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.note(polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// The answer to a connection past the cap: `503`, written without waiting (a fresh
/// socket's send buffer takes it), then the connection is closed.
fn refuse(stream: &TcpStream, cap: usize) {
    let body = super::envelope::error(
        serde_json::Value::Null,
        SERVER_BUSY,
        format!(
            "Server busy: the server has reached its cap of {cap} open HTTP connections (`--max-connections`); retry when one closes"
        ),
    )
    .to_string();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(response.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_counted_not_repeated() {
        let counted = Counted::default();
        let logged: Vec<u64> = (0..100).filter_map(|_| counted.bump()).collect();
        assert_eq!(logged, [1, 2, 4, 8, 16, 32, 64]);
    }
}
