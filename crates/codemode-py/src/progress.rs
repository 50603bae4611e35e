//! A run's progress to a Python host: `run_code(..., on_progress=...)` hands the Rust side
//! a callable (`codemode._registry` wraps the host's callback so that it runs on the
//! caller's event loop), and [`relay`] paces the run's reports for it
//! ([`ProgressRelay`]: reports made on purpose in order, printed lines coalesced, the last
//! one delivered before the run's answer).
//!
//! This module owns the hand-off of reports to Python; it must not decide their pace (the
//! relay does) or what the host does with them.

use std::sync::Arc;

use codemode::tool::{Progress, ProgressRelay, ProgressSink};
use pyo3::prelude::*;

/// A sink for the run's reports, delivered to `deliver(done, total, message, printed)` on a
/// worker thread with the GIL; a `deliver` that raises gets no more reports.
pub(crate) fn relay(deliver: Py<PyAny>) -> (ProgressSink, ProgressRelay) {
    let deliver = Arc::new(deliver);
    ProgressRelay::start(move |report: Progress| {
        let deliver = deliver.clone();
        async move {
            crate::pycall::blocking(move |py| {
                deliver.call1(
                    py,
                    (report.done, report.total, report.message, report.printed),
                )?;
                Ok(())
            })
            .await
            .is_ok()
        }
    })
}
