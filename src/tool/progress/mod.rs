//! Progress a call reports while it runs: [`Progress`] (how far, of how much, and a line
//! saying what is happening) and the [`ProgressSink`] a caller passes with a call
//! ([`ToolExecutionInput::with_progress`](super::ToolExecutionInput::with_progress)) to
//! receive it. A tool reports through its context
//! ([`ToolRunContext::progress`](super::ToolRunContext::progress)); Code Mode's `run_code`
//! reports each line its program prints.
//!
//! A sink is called on whatever thread reports (the engine's thread for a program's
//! lines): it must return at once (queue, coalesce, drop), never block.
//!
//! [`ProgressRelay`] paces reports for a consumer slower than the reporter (an MCP client, a
//! Python callback): reports made on purpose in order, printed lines coalesced.
//!
//! This module owns the vocabulary and the pacing; it must not decide where progress goes
//! (the caller's sink, or the relay's `deliver`, does).

mod relay;

use std::sync::Arc;

pub use relay::{MAX_PROGRESS_MESSAGE_CHARS, MAX_QUEUED_REPORTS, PROGRESS_INTERVAL, ProgressRelay};

/// One report of progress.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// How far the call is (increasing from report to report).
    pub done: f64,
    /// How much there is in all, when known.
    pub total: Option<f64>,
    /// What is happening, for a person to read.
    pub message: Option<String>,
    /// A line the program printed (reported as it went by: a consumer may keep only the
    /// latest), not a report made on purpose (which a consumer should pass on).
    pub printed: bool,
}

impl Progress {
    /// A report made on purpose: `done` of `total` (if known), with `message` (if any).
    pub fn new(done: f64, total: Option<f64>, message: Option<String>) -> Progress {
        Progress {
            done,
            total,
            message,
            printed: false,
        }
    }

    /// A line a program printed, at `done` of `total` (if known).
    pub fn line(done: f64, total: Option<f64>, line: String) -> Progress {
        Progress {
            done,
            total,
            message: Some(line),
            printed: true,
        }
    }
}

/// Where a call's progress goes. Cheap to clone.
#[derive(Clone)]
pub struct ProgressSink(Arc<dyn Fn(Progress) + Send + Sync>);

impl ProgressSink {
    /// A sink calling `report` with each report (on the reporting thread: it must not
    /// block).
    pub fn new(report: impl Fn(Progress) + Send + Sync + 'static) -> ProgressSink {
        ProgressSink(Arc::new(report))
    }

    /// Hands `progress` to the sink.
    pub fn report(&self, progress: Progress) {
        (self.0)(progress);
    }
}

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}
