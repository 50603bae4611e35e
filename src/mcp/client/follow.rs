//! Following a server's tools: when it says they changed (`notifications/tools/list_changed`,
//! or it was started again), they are listed again and the new list is handed on.
//!
//! Race-free and bounded: a change that arrives while a list is in flight causes one more
//! list (the signal is read before listing); a burst of changes becomes one list (a short
//! settle time), and lists are at least [`MIN_RELIST_INTERVAL`] apart, so a server that
//! spams notifications cannot make codemode list in a hot loop. This module must not touch
//! the registry (the caller's `apply` does).

use std::sync::Weak;
use std::time::Duration;

use tokio::time::Instant;

use super::{McpToolSpec, ServerConnection, SkippedTool, relist};

/// The shortest time between two lists of one server's tools.
pub const MIN_RELIST_INTERVAL: Duration = Duration::from_millis(500);
/// How long changes are gathered before a list.
const SETTLE: Duration = Duration::from_millis(50);

/// Lists `server`'s tools again after each change and calls `apply(server, tools,
/// skipped)`; returns when the server is gone or `apply` returns `false`. A list that
/// fails is a warning (the same failure is not repeated) and the tools stay as they were.
pub async fn follow(
    server: Weak<ServerConnection>,
    apply: impl Fn(&str, Vec<McpToolSpec>, Vec<SkippedTool>) -> bool,
) {
    let Some(mut changes) = server.upgrade().map(|server| {
        let mut changes = server.tools_changed();
        // A change announced after the first list and before this point is not lost.
        if server.changed_since_listed() {
            changes.mark_changed();
        }
        changes
    }) else {
        return;
    };
    let mut last: Option<Instant> = None;
    let mut failure: Option<String> = None;
    loop {
        if changes.changed().await.is_err() {
            return;
        }
        let now = Instant::now();
        let at = last
            .map_or(now, |last| last + MIN_RELIST_INTERVAL)
            .max(now + SETTLE);
        tokio::time::sleep_until(at).await;
        // Read before listing: a change during the list is seen by the next `changed`.
        changes.borrow_and_update();
        last = Some(Instant::now());
        let Some(server) = server.upgrade() else {
            return;
        };
        match relist(&server).await {
            Ok((tools, skipped)) => {
                failure = None;
                if !apply(server.name(), tools, skipped) {
                    return;
                }
            }
            Err(err) => {
                if failure.as_deref() != Some(err.message()) {
                    tracing::warn!(server = %server.name(), "{}; its tools stay as they were", err.message());
                    failure = Some(err.message().to_owned());
                }
            }
        }
    }
}
