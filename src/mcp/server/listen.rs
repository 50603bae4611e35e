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
//! - Refusals and accept failures (out of descriptors) are logged counted: the first,
//!   then at every power of two, never once per connection.
//!
//! This module owns connections (accepting, the cap, the header timeout); it must not
//! look at requests (the guard and rmcp do).

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

/// The connection settings.
#[derive(Clone)]
pub(crate) struct ConnectionLimits {
    pub(crate) max_connections: usize,
    pub(crate) header_timeout: Duration,
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
        let service = TowerToHyperService::new(router.clone());
        let shutdown = shutdown.clone();
        let header_timeout = limits.header_timeout;
        let tls = limits.tls.clone();
        let handshakes = handshakes.clone();
        tokio::spawn(async move {
            let _permit = permit;
            match tls {
                None => {
                    serve_connection(TokioIo::new(stream), service, header_timeout, shutdown).await
                }
                Some(acceptor) => {
                    match tokio::time::timeout(header_timeout, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            serve_connection(
                                TokioIo::new(stream),
                                service,
                                header_timeout,
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

/// Serves one connection's HTTP/1.1 requests until it closes or `shutdown` fires (then it
/// gets [`SHUTDOWN_GRACE`] to finish).
async fn serve_connection<I>(
    io: TokioIo<I>,
    service: TowerToHyperService<axum::Router>,
    header_timeout: Duration,
    shutdown: CancellationToken,
) where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);
    tokio::select! {
        served = connection.as_mut() => {
            if let Err(err) = served {
                tracing::debug!(error = %err, "an HTTP connection ended with an error");
            }
        }
        () = shutdown.cancelled() => {
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
        }
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
