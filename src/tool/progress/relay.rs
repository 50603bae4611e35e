//! A call's progress, paced for a consumer slower than the program reporting it (an MCP
//! client, a Python callback): [`ProgressRelay::start`] turns an async `deliver` into a
//! [`ProgressSink`] that returns at once on the reporting thread, and a task that hands the
//! reports to `deliver` in order. Reports made on purpose are each delivered, in order (up
//! to [`MAX_QUEUED_REPORTS`] waiting; past that the newest replaces the last waiting one);
//! printed lines are coalesced — at most one every [`PROGRESS_INTERVAL`], the latest line at
//! that moment. The last report is delivered before [`ProgressRelay::finish`] returns, which
//! waits at most 2 s for a slow consumer: past half of that, the reports still waiting give
//! way to the newest. A message is cut to [`MAX_PROGRESS_MESSAGE_CHARS`].
//!
//! This module owns the pacing; it must not decide what a call reports (the tool and
//! `run_code` do) or where it goes (`deliver` does).

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::{Progress, ProgressSink};

/// The shortest time between two deliveries of one call's progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// The longest message a delivered report carries, in characters (a longer line is cut,
/// and says so with `…`).
pub const MAX_PROGRESS_MESSAGE_CHARS: usize = 1000;

/// How many reports made on purpose may wait to be delivered.
pub const MAX_QUEUED_REPORTS: usize = 64;

/// How long [`ProgressRelay::finish`] waits for the last delivery.
const FLUSH: Duration = Duration::from_secs(2);

/// The task delivering one call's progress ([`ProgressRelay::start`]).
#[derive(Debug)]
pub struct ProgressRelay {
    done: CancellationToken,
    task: Option<tokio::task::JoinHandle<()>>,
}

/// The reports not yet delivered, and the wake-up of the relay.
#[derive(Default)]
struct Latest {
    waiting: parking_lot::Mutex<Waiting>,
    changed: Notify,
}

/// Reports made on purpose, in order, and the latest printed line.
#[derive(Default)]
struct Waiting {
    reports: VecDeque<Progress>,
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

    /// Drops every waiting report made on purpose but the newest.
    fn keep_newest_report(&mut self) {
        if self.reports.len() > 1 {
            let newest = self.reports.pop_back();
            self.reports.clear();
            self.reports.extend(newest);
        }
    }
}

impl ProgressRelay {
    /// A sink for a call's reports and the relay (a task on the current tokio runtime) that
    /// hands them to `deliver`, paced as the module says. `deliver` answers `false` when its
    /// consumer is gone: nothing more is delivered.
    ///
    /// # Panics
    ///
    /// Outside a tokio runtime (it spawns the relay's task).
    pub fn start<D, F>(deliver: D) -> (ProgressSink, ProgressRelay)
    where
        D: FnMut(Progress) -> F + Send + 'static,
        F: Future<Output = bool> + Send + 'static,
    {
        let latest = Arc::new(Latest::default());
        let sink = {
            let latest = latest.clone();
            ProgressSink::new(move |report| {
                latest.waiting.lock().add(report);
                latest.changed.notify_one();
            })
        };
        let done = CancellationToken::new();
        let task = tokio::spawn(deliver_reports(deliver, latest, done.clone()));
        (
            sink,
            ProgressRelay {
                done,
                task: Some(task),
            },
        )
    }

    /// The call ended: delivers the last report not delivered yet, and returns once it is
    /// (or after a bounded wait for a consumer that does not take it).
    pub async fn finish(mut self) {
        self.done.cancel();
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(FLUSH, task).await;
        }
    }
}

impl Drop for ProgressRelay {
    /// A relay dropped unfinished (its call's future dropped) still ends its task: it
    /// delivers what is waiting and stops.
    fn drop(&mut self) {
        self.done.cancel();
    }
}

async fn deliver_reports<D, F>(mut deliver: D, latest: Arc<Latest>, done: CancellationToken)
where
    D: FnMut(Progress) -> F,
    F: Future<Output = bool>,
{
    // When the call ended ([`ProgressRelay::finish`]), as this task first saw it.
    let mut finishing: Option<std::time::Instant> = None;
    loop {
        let finished = tokio::select! {
            () = latest.changed.notified() => false,
            () = done.cancelled() => true,
        };
        // Every report made on purpose, then the latest line (if one came after them) once:
        // lines printed while a delivery is awaited wait for the next interval (taking
        // them in this loop would deliver as fast as the consumer takes them).
        loop {
            let next = {
                let mut waiting = latest.waiting.lock();
                // Finishing for half the flush bound already (a slow consumer): the
                // newest report made on purpose goes next, so that the last one arrives.
                if done.is_cancelled()
                    && finishing
                        .get_or_insert_with(std::time::Instant::now)
                        .elapsed()
                        > FLUSH / 2
                {
                    waiting.keep_newest_report();
                }
                waiting.reports.pop_front()
            };
            let Some(report) = next else { break };
            if !deliver(cut_message(report)).await {
                // The consumer is gone: nothing more to deliver.
                return;
            }
        }
        let line = latest.waiting.lock().line.take();
        if let Some(line) = line
            && !deliver(cut_message(line)).await
        {
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

/// `report` with its message cut ([`cut`]).
fn cut_message(mut report: Progress) -> Progress {
    report.message = report.message.map(cut);
    report
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

    type Seen = Arc<parking_lot::Mutex<Vec<Progress>>>;

    /// A relay whose consumer takes `delay` for each report and records it.
    fn recording(delay: Duration) -> (Seen, ProgressSink, ProgressRelay) {
        let seen: Seen = Arc::default();
        let (sink, relay) = {
            let seen = seen.clone();
            ProgressRelay::start(move |report: Progress| {
                let seen = seen.clone();
                async move {
                    if !delay.is_zero() {
                        tokio::time::sleep(delay).await;
                    }
                    seen.lock().push(report);
                    true
                }
            })
        };
        (seen, sink, relay)
    }

    /// At most one delivery per interval since `started`, and the last report.
    fn assert_paced(deliveries: usize, started: std::time::Instant) {
        let intervals = started.elapsed().as_millis() / PROGRESS_INTERVAL.as_millis();
        assert!(
            deliveries as u128 <= intervals + 2,
            "{deliveries} deliveries in {intervals} intervals"
        );
    }

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

    #[tokio::test(flavor = "current_thread")]
    async fn the_last_line_is_delivered_before_finish_returns_and_lines_are_paced() {
        let started = std::time::Instant::now();
        let (seen, sink, relay) = recording(Duration::ZERO);
        for i in 0..10_000 {
            sink.report(Progress::line(0.0, None, format!("line {i}")));
            if i % 1000 == 0 {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        sink.report(Progress::new(1.0, Some(1.0), Some("x".repeat(5000))));
        relay.finish().await;
        let seen = seen.lock();
        // About 1 s of reporting (longer on a loaded machine).
        assert_paced(seen.len(), started);
        let last = seen.last().and_then(|r| r.message.as_deref()).unwrap_or("");
        assert_eq!(last.chars().count(), MAX_PROGRESS_MESSAGE_CHARS + 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_consumer_gets_lines_at_the_pace_not_as_fast_as_it_takes_them() {
        let started = std::time::Instant::now();
        // A consumer that takes 20 ms a report (a thread hop, a busy loop).
        let (seen, sink, relay) = recording(Duration::from_millis(20));
        // Lines printed without a pause for about a second, from another thread.
        let printer = std::thread::spawn(move || {
            let mut n = 0;
            while started.elapsed() < Duration::from_secs(1) {
                sink.report(Progress::line(f64::from(n), None, format!("line {n}")));
                n += 1;
            }
            sink.report(Progress::line(f64::from(n), None, "last".to_owned()));
        });
        while !printer.is_finished() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        relay.finish().await;
        let seen = seen.lock();
        assert_paced(seen.len(), started);
        assert_eq!(seen.last().and_then(|r| r.message.as_deref()), Some("last"));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_slow_consumer_still_gets_the_last_report_before_finish_returns() {
        // 64 reports at 100 ms each would take 6.4 s, past finish's bound.
        let (seen, sink, relay) = recording(Duration::from_millis(100));
        for i in 1..=200 {
            sink.report(Progress::new(f64::from(i), Some(200.0), None));
        }
        relay.finish().await;
        let seen: Vec<f64> = seen.lock().iter().map(|report| report.done).collect();
        assert_eq!(seen.last(), Some(&200.0), "{seen:?}");
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_consumer_that_is_gone_stops_the_relay() {
        let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (sink, relay) = {
            let calls = calls.clone();
            ProgressRelay::start(move |_| {
                calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                async { false }
            })
        };
        sink.report(Progress::new(1.0, None, None));
        sink.report(Progress::new(2.0, None, None));
        relay.finish().await;
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}
