//! The server's life after a stop was asked for: draining, then stopping.
//!
//! - **Serving**: everything is accepted.
//! - **Draining** ([`Lifecycle::drain`]): new sessions and new calls are refused (HTTP
//!   `503` with `Retry-After`; over stdio an `isError` result) and `/readyz` answers not
//!   ready, while the calls already in flight go on.
//! - **Stopping** (the grace is over): every call still in flight has its signal
//!   cancelled, and its client gets a result saying the server is stopping
//!   ([`STOPPING`]).
//!
//! [`Lifecycle::shutdown`] walks through the three and returns when no call is in flight
//! and no answer is being written (or a bounded time after the stop, for a call that does
//! not end when cancelled), then gives clients up to [`SESSION_LINGER`] to close their
//! sessions (a client that just got its last answer sends its `DELETE` next).
//!
//! This module owns the state and the counting of calls in flight; it must not answer
//! requests (the HTTP edge and the session do) or handle signals (the command does).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How long calls get to return after they were cancelled at the end of the grace.
pub const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// How long a drained server waits for its clients to close their sessions.
pub const SESSION_LINGER: Duration = Duration::from_secs(2);

/// The text of a call refused or cancelled because the server is stopping.
pub const STOPPING: &str = "the server is stopping (it was asked to shut down)";

/// The drain state and the calls in flight of one server.
#[derive(Debug, Default)]
pub struct Lifecycle {
    draining: CancellationToken,
    stopping: CancellationToken,
    /// Calls running (or waiting for a slot).
    in_flight: AtomicUsize,
    /// HTTP answers of calls not yet written.
    answers: AtomicUsize,
    /// Sessions open.
    sessions: AtomicUsize,
    /// The signals of the calls in flight, cancelled when the grace ends.
    signals: parking_lot::Mutex<std::collections::HashMap<u64, CancellationToken>>,
    next_signal: std::sync::atomic::AtomicU64,
    settled: Notify,
}

/// What a [`Counted`] counts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Call,
    Answer,
    Session,
}

/// One call in flight, one answer being written or one open session; dropping it counts
/// it out.
#[derive(Debug)]
pub(crate) struct Counted(Arc<Lifecycle>, Kind);

/// One call in flight, with its signal (cancelled when the grace ends); dropping it counts
/// it out.
#[derive(Debug)]
pub(crate) struct Call {
    _counted: Counted,
    lifecycle: Arc<Lifecycle>,
    key: u64,
}

impl Drop for Call {
    fn drop(&mut self) {
        self.lifecycle.signals.lock().remove(&self.key);
    }
}

/// What the HTTP edge holds for a call until its answer was written.
pub(crate) type InFlight = Counted;

impl Lifecycle {
    fn counter(&self, kind: Kind) -> &AtomicUsize {
        match kind {
            Kind::Call => &self.in_flight,
            Kind::Answer => &self.answers,
            Kind::Session => &self.sessions,
        }
    }

    /// Counts one more of `kind` (sessions are counted whether or not the server drains).
    pub(crate) fn count(self: &Arc<Self>, kind: Kind) -> Counted {
        self.counter(kind).fetch_add(1, Ordering::AcqRel);
        Counted(self.clone(), kind)
    }

    /// Whether nothing of `kinds` is counted.
    fn none_of(&self, kinds: &[Kind]) -> bool {
        kinds
            .iter()
            .all(|kind| self.counter(*kind).load(Ordering::Acquire) == 0)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        if self.0.counter(self.1).fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.settled.notify_waiters();
        }
    }
}

/// What a shutdown saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Drained {
    /// Calls in flight when the drain began.
    pub in_flight: usize,
    /// Calls still in flight when the grace ended (their signals were cancelled).
    pub cancelled: usize,
    /// Calls still in flight after the cancellation grace (they did not return).
    pub abandoned: usize,
}

impl Lifecycle {
    /// Whether new sessions and calls are refused.
    pub fn is_draining(&self) -> bool {
        self.draining.is_cancelled()
    }

    /// Starts draining (idempotent).
    pub fn drain(&self) {
        self.draining.cancel();
    }

    /// Whether the grace is over (calls still in flight were cancelled).
    pub(crate) fn is_stopping(&self) -> bool {
        self.stopping.is_cancelled()
    }

    /// How many calls are in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }

    /// Counts a call whose signal is `signal` in (the end of the grace cancels it), or
    /// `None` when the server drains (the call must be refused).
    pub(crate) fn enter(self: &Arc<Self>, signal: &CancellationToken) -> Option<Call> {
        let counted = self.enter_as(Kind::Call)?;
        let key = self.next_signal.fetch_add(1, Ordering::Relaxed);
        self.signals.lock().insert(key, signal.clone());
        // A stop that began meanwhile has already cancelled the others: this one too.
        if self.is_stopping() {
            signal.cancel();
        }
        Some(Call {
            _counted: counted,
            lifecycle: self.clone(),
            key,
        })
    }

    /// How many of `kind` are counted.
    pub(crate) fn counted(&self, kind: Kind) -> usize {
        self.counter(kind).load(Ordering::Acquire)
    }

    /// Counts an HTTP answer of a call in, or `None` when the server drains.
    pub(crate) fn enter_as(self: &Arc<Self>, kind: Kind) -> Option<Counted> {
        let entered = self.count(kind);
        (!self.is_draining()).then_some(entered)
    }

    /// Waits until nothing of `kinds` is counted, at most `limit`; whether nothing is.
    async fn settle(&self, kinds: &[Kind], limit: Duration) -> bool {
        let wait = async {
            loop {
                let settled = self.settled.notified();
                tokio::pin!(settled);
                settled.as_mut().enable();
                if self.none_of(kinds) {
                    return;
                }
                settled.await;
            }
        };
        tokio::time::timeout(limit, wait).await.is_ok()
    }

    /// Drains: refuses new work at once, lets the calls in flight run for up to `grace`,
    /// then cancels those left and waits up to [`CANCEL_GRACE`] for them to return.
    pub async fn shutdown(&self, grace: Duration) -> Drained {
        self.drain();
        let in_flight = self.in_flight();
        let mut drained = Drained {
            in_flight,
            cancelled: 0,
            abandoned: 0,
        };
        let work = [Kind::Call, Kind::Answer];
        if !self.settle(&work, grace).await {
            drained.cancelled = self.in_flight();
            self.stopping.cancel();
            for signal in self.signals.lock().values() {
                signal.cancel();
            }
            if !self.settle(&work, CANCEL_GRACE).await {
                drained.abandoned = self.in_flight();
            }
        }
        self.settle(&[Kind::Session], SESSION_LINGER).await;
        drained
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_drain_waits_for_calls_then_cancels_those_left() {
        let life = Arc::new(Lifecycle::default());
        let quick = life.enter(&CancellationToken::new()).map(|_| ());
        assert!(quick.is_some());
        assert_eq!(life.in_flight(), 0);

        // One call ends within the grace: nothing is cancelled.
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
        let call = {
            let life = life.clone();
            tokio::spawn(async move {
                let _entered = life.enter(&CancellationToken::new());
                let _ = done_rx.await;
            })
        };
        while life.in_flight() == 0 {
            tokio::task::yield_now().await;
        }
        let shutdown = {
            let life = life.clone();
            tokio::spawn(async move { life.shutdown(Duration::from_secs(30)).await })
        };
        while !life.is_draining() {
            tokio::task::yield_now().await;
        }
        assert!(
            life.enter(&CancellationToken::new()).is_none(),
            "a new call is refused while draining"
        );
        let _ = done_tx.send(());
        call.await.unwrap();
        let drained = shutdown.await.unwrap();
        assert_eq!((drained.in_flight, drained.cancelled), (1, 0));
        assert!(!life.is_stopping());
    }

    #[tokio::test]
    async fn calls_past_the_grace_are_cancelled() {
        let life = Arc::new(Lifecycle::default());
        let entered = Arc::new(Notify::new());
        let call = {
            let life = life.clone();
            let entered = entered.clone();
            tokio::spawn(async move {
                let signal = CancellationToken::new();
                let _in = life.enter(&signal);
                entered.notify_one();
                signal.cancelled().await;
            })
        };
        entered.notified().await;
        let drained = life.shutdown(Duration::from_millis(100)).await;
        call.await.unwrap();
        assert_eq!(
            (drained.in_flight, drained.cancelled, drained.abandoned),
            (1, 1, 0)
        );
    }
}
