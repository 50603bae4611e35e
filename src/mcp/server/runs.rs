//! The cap on concurrent calls across the server: at most `max_runs` `tools/call`s run at
//! once (a `run_code` program holds a thread and up to `heap_mb` while it runs), at most
//! `run_queue` more wait for a slot in arrival order, and a call past both is refused at
//! once with a "busy" failure naming the caps. A queued call the client cancels leaves
//! the queue.
//!
//! Over authenticated HTTP each token also has its own lane: at most its share of running
//! calls (`runs`) and of waiting ones (`queue`, see `tenants`). A call first gets a place
//! in its token's lane, then one of the server's slots, so a token's calls past its share
//! wait in that token's lane (or are refused) and never take the slots or the queue the
//! other tokens need.
//!
//! This module owns the counting; it must not run anything (the session does).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::listen::Counted;
use super::tenants::Share;

/// Why a call did not get a slot.
#[derive(Debug)]
pub(crate) enum Refused {
    /// Every slot is taken and the queue is full.
    Busy(String),
    /// The client cancelled the call while it waited.
    Cancelled,
}

/// Slots and a queue: the server's, or one token's lane.
#[derive(Debug)]
struct Lane {
    slots: Arc<Semaphore>,
    max_runs: usize,
    max_queue: usize,
    queued: AtomicUsize,
}

/// The server's run slots and queue, and each token's lane.
#[derive(Debug)]
pub(crate) struct RunGate {
    server: Lane,
    lanes: parking_lot::Mutex<HashMap<[u8; 32], Arc<Lane>>>,
    busy: Counted,
}

/// A call's run slot (and its place in its token's lane); dropping it frees both.
#[derive(Debug)]
pub(crate) struct Slot {
    _server: OwnedSemaphorePermit,
    _lane: Option<OwnedSemaphorePermit>,
}

/// Who a call belongs to, for its token's lane: the token's key and share.
pub(crate) type Tenant = ([u8; 32], Share);

/// A queued call's place; leaving (a slot, a cancellation) frees it.
struct Queued<'a>(&'a AtomicUsize);

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Lane {
    fn new(max_runs: usize, max_queue: usize) -> Self {
        Lane {
            slots: Arc::new(Semaphore::new(max_runs)),
            max_runs,
            max_queue,
            queued: AtomicUsize::new(0),
        }
    }

    /// The calls holding a slot and the calls waiting.
    fn load(&self) -> (usize, usize) {
        let running = self.max_runs.saturating_sub(self.slots.available_permits());
        (running, self.queued.load(Ordering::Acquire))
    }

    /// A slot at once, after waiting in the queue, `Ok(None)` when the queue is full, or
    /// `Err` when cancelled.
    async fn enter(
        &self,
        cancelled: &CancellationToken,
    ) -> Result<Option<OwnedSemaphorePermit>, Refused> {
        if let Ok(permit) = self.slots.clone().try_acquire_owned() {
            return Ok(Some(permit));
        }
        let reserved = self
            .queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |queued| {
                (queued < self.max_queue).then_some(queued + 1)
            });
        if reserved.is_err() {
            return Ok(None);
        }
        let _queued = Queued(&self.queued);
        tokio::select! {
            permit = self.slots.clone().acquire_owned() => permit.map(Some).map_err(|_| Refused::Cancelled),
            () = cancelled.cancelled() => Err(Refused::Cancelled),
        }
    }
}

impl RunGate {
    pub(crate) fn new(max_runs: usize, max_queue: usize) -> Self {
        RunGate {
            server: Lane::new(max_runs, max_queue),
            lanes: parking_lot::Mutex::default(),
            busy: Counted::default(),
        }
    }

    /// The calls holding a slot and the calls waiting, across the server.
    pub(crate) fn load(&self) -> (usize, usize) {
        self.server.load()
    }

    /// The calls holding a slot and the calls waiting, of each token that called.
    pub(crate) fn load_by_token(&self) -> HashMap<[u8; 32], (usize, usize)> {
        self.lanes
            .lock()
            .iter()
            .map(|(key, lane)| (*key, lane.load()))
            .collect()
    }

    /// The lane of a token with `share` (made, or remade when its share changed).
    fn lane(&self, key: [u8; 32], share: Share) -> Arc<Lane> {
        let mut lanes = self.lanes.lock();
        let lane = lanes
            .entry(key)
            .or_insert_with(|| Arc::new(Lane::new(share.runs, share.queue)));
        if lane.max_runs != share.runs || lane.max_queue != share.queue {
            *lane = Arc::new(Lane::new(share.runs, share.queue));
        }
        lane.clone()
    }

    fn busy(&self, text: String) -> Refused {
        if let Some(count) = self.busy.bump() {
            tracing::warn!(
                max_runs = self.server.max_runs,
                run_queue = self.server.max_queue,
                count,
                "calls refused: every run slot is taken and the queue is full"
            );
        }
        Refused::Busy(text)
    }

    /// A slot for one call (of `tenant`'s token, over authenticated HTTP): at once, after
    /// waiting in the queue, or refused.
    pub(crate) async fn enter(
        &self,
        cancelled: &CancellationToken,
        tenant: Option<Tenant>,
    ) -> Result<Slot, Refused> {
        let lane = match tenant {
            None => None,
            Some((key, share)) => {
                let lane = self.lane(key, share);
                match lane.enter(cancelled).await? {
                    Some(permit) => Some(permit),
                    None => {
                        return Err(self.busy(format!(
                            "the server is busy for this token: {} of its calls are running (its share of `--max-runs`) and {} are waiting (its share of `--run-queue`); try again shortly",
                            share.runs, share.queue
                        )));
                    }
                }
            }
        };
        match self.server.enter(cancelled).await? {
            Some(permit) => Ok(Slot {
                _server: permit,
                _lane: lane,
            }),
            None => Err(self.busy(format!(
                "the server is busy: {} calls are running (the cap `--max-runs`) and {} are waiting (the cap `--run-queue`); try again shortly",
                self.server.max_runs, self.server.max_queue
            ))),
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
        let first = gate.enter(&never, None).await.ok().unwrap();
        let waiting = {
            let gate = gate.clone();
            tokio::spawn(async move { gate.enter(&CancellationToken::new(), None).await.is_ok() })
        };
        while gate.server.queued.load(Ordering::Acquire) == 0 {
            tokio::task::yield_now().await;
        }
        match gate.enter(&never, None).await {
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
        assert_eq!(gate.server.queued.load(Ordering::Acquire), 0);

        // A queued call that is cancelled leaves the queue.
        let held = gate.enter(&never, None).await.ok().unwrap();
        let cancel = CancellationToken::new();
        cancel.cancel();
        assert!(matches!(
            gate.enter(&cancel, None).await,
            Err(Refused::Cancelled)
        ));
        assert_eq!(gate.server.queued.load(Ordering::Acquire), 0);
        drop(held);
    }

    #[tokio::test]
    async fn a_token_past_its_share_waits_in_its_own_lane() {
        let gate = Arc::new(RunGate::new(2, 4));
        let never = CancellationToken::new();
        let share = Share {
            sessions: 1,
            streams: 1,
            runs: 1,
            queue: 1,
        };
        let (a, b) = (([1u8; 32], share), ([2u8; 32], share));
        let a_running = gate.enter(&never, Some(a)).await.ok().unwrap();
        // A's second call waits in A's lane, not in the server's queue.
        let a_waiting = {
            let gate = gate.clone();
            tokio::spawn(
                async move { gate.enter(&CancellationToken::new(), Some(a)).await.is_ok() },
            )
        };
        while gate.lanes.lock()[&[1u8; 32]].queued.load(Ordering::Acquire) == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(gate.server.queued.load(Ordering::Acquire), 0);
        match gate.enter(&never, Some(a)).await {
            Err(Refused::Busy(text)) => assert!(text.contains("for this token"), "{text}"),
            other => panic!("{other:?}"),
        }
        // B still gets the server's other slot at once.
        let b_running = gate.enter(&never, Some(b)).await;
        assert!(b_running.is_ok());
        drop(a_running);
        assert!(a_waiting.await.unwrap());
    }
}
