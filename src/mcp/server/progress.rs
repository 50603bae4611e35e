//! A call's progress to its client: when a `tools/call` carries `_meta.progressToken`, the
//! call's progress reports (for `run_code`, each line its program prints) become
//! `notifications/progress` for that request. They are coalesced — at most one every
//! [`PROGRESS_INTERVAL`], the latest report at that moment — and the last report is always sent,
//! before the call's answer. A message is cut to [`MAX_PROGRESS_MESSAGE_CHARS`].
//!
//! This module owns the relay from reports to notifications; it must not decide what a
//! call reports (the tool and `run_code` do).

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::tool::{Progress, ProgressSink};

/// The shortest time between two notifications of one call.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// The longest message a notification carries, in characters (a longer line is cut, and
/// says so with `…`).
pub const MAX_PROGRESS_MESSAGE_CHARS: usize = 1000;

/// How long the call's answer waits for its last notification to be written.
const FLUSH: Duration = Duration::from_secs(2);

/// The relay of one call's progress.
pub(crate) struct Relay {
    done: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

/// The latest report not yet sent, and the wake-up of the relay.
#[derive(Default)]
struct Latest {
    report: parking_lot::Mutex<Option<Progress>>,
    changed: Notify,
}

/// A sink for a call's reports and the relay that sends them to `peer` as
/// `notifications/progress` with `token`.
pub(crate) fn relay(peer: Peer<RoleServer>, token: ProgressToken) -> (ProgressSink, Relay) {
    let latest = Arc::new(Latest::default());
    let sink = {
        let latest = latest.clone();
        ProgressSink::new(move |report| {
            *latest.report.lock() = Some(report);
            latest.changed.notify_one();
        })
    };
    let done = CancellationToken::new();
    let task = tokio::spawn(send_reports(peer, token, latest, done.clone()));
    (sink, Relay { done, task })
}

impl Relay {
    /// The call ended: sends the last report not sent yet, and returns once it is written
    /// (or after a bounded wait for a client that does not read).
    pub(crate) async fn finish(self) {
        self.done.cancel();
        let _ = tokio::time::timeout(FLUSH, self.task).await;
    }
}

async fn send_reports(
    peer: Peer<RoleServer>,
    token: ProgressToken,
    latest: Arc<Latest>,
    done: CancellationToken,
) {
    loop {
        let finished = tokio::select! {
            () = latest.changed.notified() => false,
            () = done.cancelled() => true,
        };
        let report = latest.report.lock().take();
        if let Some(report) = report
            && peer
                .notify_progress(notification(&token, report))
                .await
                .is_err()
        {
            // The client is gone: nothing more to send.
            return;
        }
        if finished {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(PROGRESS_INTERVAL) => {}
            () = done.cancelled() => {}
        }
    }
}

fn notification(token: &ProgressToken, report: Progress) -> ProgressNotificationParam {
    let mut param = ProgressNotificationParam::new(token.clone(), report.done);
    if let Some(total) = report.total {
        param = param.with_total(total);
    }
    if let Some(message) = report.message {
        param = param.with_message(cut(message));
    }
    param
}

/// `message` cut to [`MAX_PROGRESS_MESSAGE_CHARS`] characters (with `…` when cut).
fn cut(message: String) -> String {
    match message.char_indices().nth(MAX_PROGRESS_MESSAGE_CHARS) {
        None => message,
        Some((end, _)) => format!("{}…", &message[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        assert_eq!(cut("short".to_owned()), "short");
        let long = "é".repeat(MAX_PROGRESS_MESSAGE_CHARS + 5);
        let cut = cut(long);
        assert_eq!(cut.chars().count(), MAX_PROGRESS_MESSAGE_CHARS + 1);
        assert!(cut.ends_with('…'));
    }
}
