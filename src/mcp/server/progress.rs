//! A call's progress to its client: when a `tools/call` carries `_meta.progressToken`, the
//! call's progress reports (for `run_code`, its `progress(...)` calls and each line its
//! program prints) become `notifications/progress` for that request, paced by
//! [`ProgressRelay`] (reports made on purpose each sent in order, printed lines at most
//! one every [`PROGRESS_INTERVAL`](crate::tool::PROGRESS_INTERVAL), the last report sent
//! before the call's answer, messages cut to
//! [`MAX_PROGRESS_MESSAGE_CHARS`](crate::tool::MAX_PROGRESS_MESSAGE_CHARS)).
//!
//! This module owns the mapping from reports to notifications; it must not decide what a
//! call reports (the tool and `run_code` do) or how often (the relay does).

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

use crate::tool::{Progress, ProgressRelay, ProgressSink};

/// A sink for a call's reports and the relay that sends them to `peer` as
/// `notifications/progress` with `token`, paced by [`ProgressRelay`].
pub(crate) fn relay(peer: Peer<RoleServer>, token: ProgressToken) -> (ProgressSink, ProgressRelay) {
    ProgressRelay::start(move |report| {
        let peer = peer.clone();
        let param = notification(&token, report);
        // The client is gone when a notification cannot be written: nothing more to send.
        async move { peer.notify_progress(param).await.is_ok() }
    })
}

fn notification(token: &ProgressToken, report: Progress) -> ProgressNotificationParam {
    let mut param = ProgressNotificationParam::new(token.clone(), report.done);
    if let Some(total) = report.total {
        param = param.with_total(total);
    }
    if let Some(message) = report.message {
        param = param.with_message(message);
    }
    param
}
