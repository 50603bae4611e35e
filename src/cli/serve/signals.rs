//! The signals `codemode serve` handles, so that a deploy loses no call and leaves nothing
//! running:
//!
//! - `SIGTERM` (what `docker stop` and Kubernetes send) and `SIGINT`: drain, then stop
//!   ([`McpServer::shutdown`] with `--shutdown-grace`), then end serving; the process
//!   exits 0. A second one stops at once: every tool process group is killed and the
//!   process exits with 128 + the signal's number.
//! - `SIGHUP`: the bearer tokens are read again (the token file, the configuration's
//!   `[[serve.tokens]]`, `--token-env`), so a team rotates tokens without a restart; a file
//!   that does not read keeps the tokens in use, saying why. Nothing stops, nothing is
//!   orphaned. Without a token file it is logged and ignored.
//!
//! This module owns the signal handling of the command; it must not decide how a drain
//! proceeds (the server's lifecycle does).

use std::time::Duration;

use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

use crate::mcp::server::{BearerAuth, McpServer};

/// Installs the handlers and watches for the signals for as long as the runtime runs.
///
/// # Errors
///
/// When a handler cannot be installed.
pub(super) fn watch<R>(
    server: McpServer,
    grace: Duration,
    shutdown: CancellationToken,
    reload: Option<R>,
) -> std::io::Result<()>
where
    R: Fn() -> Result<BearerAuth, String> + Send + 'static,
{
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    let mut hup = signal(SignalKind::hangup())?;
    tokio::spawn(async move {
        let mut draining = false;
        loop {
            let (name, number) = tokio::select! {
                Some(()) = term.recv() => ("SIGTERM", libc::SIGTERM),
                Some(()) = int.recv() => ("SIGINT", libc::SIGINT),
                Some(()) = hup.recv() => {
                    reread(&server, reload.as_ref());
                    continue;
                }
                else => break,
            };
            if draining {
                eprintln!("codemode: {name} again: stopping now");
                crate::process::kill_every_group();
                std::process::exit(128 + number);
            }
            draining = true;
            eprintln!(
                "codemode: {name}: draining (new sessions and calls are refused; calls in flight get {} s)",
                grace.as_secs()
            );
            let (server, shutdown) = (server.clone(), shutdown.clone());
            tokio::spawn(async move {
                let drained = server.shutdown(grace).await;
                eprintln!(
                    "codemode: drained: {} calls were in flight, {} cancelled at the end of the grace; stopping",
                    drained.in_flight, drained.cancelled
                );
                shutdown.cancel();
            });
        }
    });
    Ok(())
}

/// `SIGHUP`: reads the tokens again, or says why not.
fn reread<R>(server: &McpServer, reload: Option<&R>)
where
    R: Fn() -> Result<BearerAuth, String>,
{
    let Some(reload) = reload else {
        eprintln!("codemode: SIGHUP: no token file to read again (`--token-file`); ignored");
        return;
    };
    match reload().and_then(|auth| {
        let count = auth.len();
        server.replace_tokens(auth).map(|()| count)
    }) {
        Ok(count) => eprintln!("codemode: SIGHUP: tokens read again ({count} accepted)"),
        Err(err) => eprintln!("codemode: SIGHUP: the tokens in use are kept: {err}"),
    }
}
