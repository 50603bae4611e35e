//! A call's progress to its client: when a `tools/call` carries `_meta.progressToken`, the
//! call's progress reports (for `run_code`, its `progress(...)` calls and each line its
//! program prints) become `notifications/progress` for that request. Reports made on
//! purpose are each sent, in order (up to `MAX_QUEUED_REPORTS` waiting; past that the
//! newest replaces the last waiting one); printed lines are coalesced — at most one every
//! [`PROGRESS_INTERVAL`], the latest line at that moment. The last report is always sent,
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

/// How many reports made on purpose may wait to be sent.
const MAX_QUEUED_REPORTS: usize = 64;

/// The reports not yet sent, and the wake-up of the relay.
#[derive(Default)]
struct Latest {
    waiting: parking_lot::Mutex<Waiting>,
    changed: Notify,
}

/// Reports made on purpose, in order, and the latest printed line.
#[derive(Default)]
struct Waiting {
    reports: std::collections::VecDeque<Progress>,
    line: Option<Progress>,
}

impl Waiting {
    fn add(&mut self, report: Progress) {
        if report.printed {
            self.line = Some(report);
            return;
        }
        // A report made on purpose is newer than any line before it.
        self.line = None;
        if self.reports.len() == MAX_QUEUED_REPORTS {
            self.reports.pop_back();
        }
        self.reports.push_back(report);
    }
}

/// A sink for a call's reports and the relay that sends them to `peer` as
/// `notifications/progress` with `token`.
pub(crate) fn relay(peer: Peer<RoleServer>, token: ProgressToken) -> (ProgressSink, Relay) {
    let latest = Arc::new(Latest::default());
    let sink = {
        let latest = latest.clone();
        ProgressSink::new(move |report| {
            latest.waiting.lock().add(report);
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
        // Every report made on purpose, then the latest line (if one came after them).
        loop {
            let next = {
                let mut waiting = latest.waiting.lock();
                waiting.reports.pop_front().or_else(|| waiting.line.take())
            };
            let Some(report) = next else { break };
            if peer
                .notify_progress(notification(&token, report))
                .await
                .is_err()
            {
                // The client is gone: nothing more to send.
                return;
            }
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
    fn reports_made_on_purpose_wait_in_order_and_lines_keep_the_latest() {
        let mut waiting = Waiting::default();
        waiting.add(Progress::line(1.0, None, "a".into()));
        waiting.add(Progress::new(1.0, Some(3.0), None));
        waiting.add(Progress::line(1.0, Some(3.0), "b".into()));
        waiting.add(Progress::line(1.0, Some(3.0), "c".into()));
        waiting.add(Progress::new(2.0, Some(3.0), None));
        let dones: Vec<f64> = waiting.reports.iter().map(|r| r.done).collect();
        assert_eq!(dones, [1.0, 2.0]);
        // The lines before the last report are older than it.
        assert!(waiting.line.is_none());
        waiting.add(Progress::line(2.0, Some(3.0), "d".into()));
        assert_eq!(
            waiting.line.as_ref().and_then(|l| l.message.as_deref()),
            Some("d")
        );
        for i in 0..(2 * MAX_QUEUED_REPORTS) {
            waiting.add(Progress::new(i as f64, None, None));
        }
        assert_eq!(waiting.reports.len(), MAX_QUEUED_REPORTS);
        assert_eq!(
            waiting.reports.back().map(|r| r.done),
            Some((2 * MAX_QUEUED_REPORTS - 1) as f64)
        );
    }

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        assert_eq!(cut("short".to_owned()), "short");
        let long = "é".repeat(MAX_PROGRESS_MESSAGE_CHARS + 5);
        let cut = cut(long);
        assert_eq!(cut.chars().count(), MAX_PROGRESS_MESSAGE_CHARS + 1);
        assert!(cut.ends_with('…'));
    }
}
