//! The cap on concurrent calls across the server: at most `max_runs` `tools/call`s run at
//! once (a `run_code` program holds a thread and up to `heap_mb` while it runs), at most
//! `run_queue` more wait for a slot in arrival order, and a call past both is refused at
//! once with a "busy" failure naming the caps. A queued call the client cancels leaves
//! the queue.
//!
//! This module owns the counting; it must not run anything (the session does).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::listen::Counted;

/// Why a call did not get a slot.
#[derive(Debug)]
pub(crate) enum Refused {
    /// Every slot is taken and the queue is full.
    Busy(String),
    /// The client cancelled the call while it waited.
    Cancelled,
}

/// The server's run slots and queue.
#[derive(Debug)]
pub(crate) struct RunGate {
    slots: Arc<Semaphore>,
    max_runs: usize,
    max_queue: usize,
    queued: AtomicUsize,
    busy: Counted,
}

/// A queued call's place; leaving (a slot, a cancellation) frees it.
struct Queued<'a>(&'a AtomicUsize);

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl RunGate {
    pub(crate) fn new(max_runs: usize, max_queue: usize) -> Self {
        RunGate {
            slots: Arc::new(Semaphore::new(max_runs)),
            max_runs,
            max_queue,
            queued: AtomicUsize::new(0),
            busy: Counted::default(),
        }
    }

    /// A slot for one call: at once, after waiting in the queue, or refused.
    pub(crate) async fn enter(
        &self,
        cancelled: &CancellationToken,
    ) -> Result<OwnedSemaphorePermit, Refused> {
        if let Ok(permit) = self.slots.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let reserved = self
            .queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |queued| {
                (queued < self.max_queue).then_some(queued + 1)
            });
        if reserved.is_err() {
            if let Some(count) = self.busy.bump() {
                tracing::warn!(
                    max_runs = self.max_runs,
                    run_queue = self.max_queue,
                    count,
                    "calls refused: every run slot is taken and the queue is full"
                );
            }
            return Err(Refused::Busy(format!(
                "the server is busy: {} calls are running (the cap `--max-runs`) and {} are waiting (the cap `--run-queue`); try again shortly",
                self.max_runs, self.max_queue
            )));
        }
        let _queued = Queued(&self.queued);
        tokio::select! {
            permit = self.slots.clone().acquire_owned() => permit.map_err(|_| Refused::Cancelled),
            () = cancelled.cancelled() => Err(Refused::Cancelled),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn calls_past_the_slots_queue_and_past_the_queue_are_refused() {
        let gate = Arc::new(RunGate::new(1, 1));
        let never = CancellationToken::new();
        let first = gate.enter(&never).await.ok().unwrap();
        let waiting = {
            let gate = gate.clone();
            tokio::spawn(async move { gate.enter(&CancellationToken::new()).await.is_ok() })
        };
        while gate.queued.load(Ordering::Acquire) == 0 {
            tokio::task::yield_now().await;
        }
        match gate.enter(&never).await {
            Err(Refused::Busy(text)) => {
                assert!(
                    text.contains("--max-runs") && text.contains("--run-queue"),
                    "{text}"
                )
            }
            other => panic!("{other:?}"),
        }
        drop(first);
        assert!(waiting.await.unwrap());
        assert_eq!(gate.queued.load(Ordering::Acquire), 0);

        // A queued call that is cancelled leaves the queue.
        let held = gate.enter(&never).await.ok().unwrap();
        let cancel = CancellationToken::new();
        cancel.cancel();
        assert!(matches!(gate.enter(&cancel).await, Err(Refused::Cancelled)));
        assert_eq!(gate.queued.load(Ordering::Acquire), 0);
        drop(held);
    }
}
