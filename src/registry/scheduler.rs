//! The ordered lane: the one scheduling discipline of the library.
//!
//! Calls are admitted in submission order, one start at a time: a call's turn to start
//! comes when every earlier call has started (or was abandoned), and it passes the turn on
//! with [`Admission::started`]. A parallel call is admitted while fewer than `limit`
//! parallel calls hold a slot and no exclusive call holds the lane; an exclusive call waits
//! until every earlier call has finished, runs alone, and is a barrier until it finishes.
//! [`Lane::commit_turn`] orders the commits of admitted calls by submission.
//!
//! The agent loop uses the lane through [`run_batch`] for one model turn's native calls;
//! Code Mode's bridge uses the same lane for a program's sub-calls, with separate start,
//! slot and commit points.

use std::collections::{BTreeMap, BTreeSet};
use std::future::poll_fn;
use std::sync::Arc;
use std::task::{Poll, Waker};

use parking_lot::Mutex;

use crate::tool::{ToolExecutionInput, ToolExecutionResult};

use super::{ExecutionMode, Registry};

/// Submission-ordered admission with bounded overlap and exclusive barriers.
#[derive(Debug)]
pub struct Lane {
    limit: usize,
    state: Mutex<LaneState>,
}

#[derive(Debug, Default)]
struct LaneState {
    /// The next ticket to hand out.
    issued: u64,
    /// The ticket whose turn it is to start.
    next_start: u64,
    /// Admitted calls that hold a parallel slot (or the exclusive barrier).
    slots: BTreeSet<u64>,
    /// Admitted calls that have not finished.
    unfinished: BTreeSet<u64>,
    /// Whether an exclusive call holds the lane.
    exclusive: bool,
    /// Tickets whose callers gave up before their turn came; the turn passes over them.
    abandoned: BTreeSet<u64>,
    /// Who waits for what. Each change wakes only the waiters it can have made ready: a
    /// program may queue thousands of calls, and waking every waiter on every change
    /// (one shared `Notify`) cost time quadratic in the queue.
    waiters: Waiters,
}

/// Wakers of the calls waiting in the lane, by ticket.
#[derive(Debug, Default)]
struct Waiters {
    /// Tickets waiting for their turn to start.
    start: BTreeMap<u64, Waker>,
    /// The ticket whose turn it is, waiting for a slot (starts are one at a time, so
    /// there is at most one).
    slot: Option<(u64, Waker)>,
    /// Admitted calls waiting for every earlier call to finish.
    commit: BTreeMap<u64, Waker>,
}

/// What a call waits for.
#[derive(Debug, Clone, Copy)]
enum Wait {
    Start,
    Slot,
    Commit,
}

impl LaneState {
    /// Passes the start turn to the ticket after `ticket`, skipping abandoned ones.
    fn pass_turn_after(&mut self, ticket: u64) {
        self.next_start = self.next_start.max(ticket + 1);
        while self.abandoned.remove(&self.next_start) {
            self.next_start += 1;
        }
    }

    fn may_start(&self, ticket: u64) -> bool {
        self.next_start >= ticket
    }

    fn slot_free(&self, mode: ExecutionMode, limit: usize) -> bool {
        match mode {
            ExecutionMode::Parallel => !self.exclusive && self.slots.len() < limit,
            ExecutionMode::Exclusive => self.unfinished.is_empty(),
        }
    }

    fn may_commit(&self, ticket: u64) -> bool {
        self.unfinished.range(..ticket).next().is_none()
    }

    /// Wakes the waiters the last change may have made ready (they check again).
    fn wake_ready(&mut self) {
        let next_start = self.next_start;
        let later_starts = self.waiters.start.split_off(&(next_start + 1));
        let ready_starts = std::mem::replace(&mut self.waiters.start, later_starts);
        ready_starts.into_values().for_each(Waker::wake);
        if let Some((_, waker)) = self.waiters.slot.take() {
            waker.wake();
        }
        let ready_commits = match self.unfinished.first() {
            Some(&first) => {
                let later = self.waiters.commit.split_off(&(first + 1));
                std::mem::replace(&mut self.waiters.commit, later)
            }
            None => std::mem::take(&mut self.waiters.commit),
        };
        ready_commits.into_values().for_each(Waker::wake);
    }

    fn register(&mut self, wait: Wait, ticket: u64, waker: &Waker) {
        match wait {
            Wait::Start => {
                self.waiters.start.insert(ticket, waker.clone());
            }
            Wait::Slot => self.waiters.slot = Some((ticket, waker.clone())),
            Wait::Commit => {
                self.waiters.commit.insert(ticket, waker.clone());
            }
        }
    }

    fn unregister(&mut self, wait: Wait, ticket: u64) {
        match wait {
            Wait::Start => {
                self.waiters.start.remove(&ticket);
            }
            Wait::Slot => {
                if self
                    .waiters
                    .slot
                    .as_ref()
                    .is_some_and(|(t, _)| *t == ticket)
                {
                    self.waiters.slot = None;
                }
            }
            Wait::Commit => {
                self.waiters.commit.remove(&ticket);
            }
        }
    }
}

/// A place in the lane's submission order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ticket(u64);

impl Ticket {
    /// The 0-based submission index.
    pub fn index(self) -> u64 {
        self.0
    }
}

/// An admitted call. Dropping it (or [`Admission::finish`]) finishes the call: the start
/// turn passes on, its slot is freed, and an exclusive call lifts its barrier.
#[derive(Debug)]
pub struct Admission {
    lane: Arc<Lane>,
    ticket: Ticket,
    mode: ExecutionMode,
    turn_passed: bool,
    slot_held: bool,
    finished: bool,
}

impl Admission {
    /// How the call was classified when its turn came.
    pub fn mode(&self) -> ExecutionMode {
        self.mode
    }

    /// The call's ticket.
    pub fn ticket(&self) -> Ticket {
        self.ticket
    }

    /// The call's start phase is over: the next ticket may start.
    pub fn started(&mut self) {
        if !self.turn_passed {
            self.turn_passed = true;
            let mut state = self.lane.state.lock();
            state.pass_turn_after(self.ticket.0);
            state.wake_ready();
        }
    }

    /// A parallel call no longer needs its slot (its dispatch is over; it may still be
    /// waiting to commit). An exclusive call keeps the barrier until it finishes.
    pub fn release_slot(&mut self) {
        if self.slot_held && self.mode == ExecutionMode::Parallel {
            self.slot_held = false;
            let mut state = self.lane.state.lock();
            state.slots.remove(&self.ticket.0);
            state.wake_ready();
        }
    }

    /// The call is done (committed).
    pub fn finish(mut self) {
        self.release();
    }

    fn release(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        let mut state = self.lane.state.lock();
        if !self.turn_passed {
            state.pass_turn_after(self.ticket.0);
        }
        state.slots.remove(&self.ticket.0);
        state.unfinished.remove(&self.ticket.0);
        if self.mode == ExecutionMode::Exclusive {
            state.exclusive = false;
        }
        state.wake_ready();
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.release();
    }
}

/// Passes the start turn over a ticket whose admission future was dropped before it was
/// admitted (its caller gave up), so the lane never stalls behind it.
struct TurnGuard<'a> {
    lane: &'a Lane,
    ticket: Ticket,
    admitted: bool,
}

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        if !self.admitted {
            let mut state = self.lane.state.lock();
            state.unregister(Wait::Start, self.ticket.0);
            state.unregister(Wait::Slot, self.ticket.0);
            if state.next_start == self.ticket.0 {
                state.pass_turn_after(self.ticket.0);
            } else if state.next_start < self.ticket.0 {
                state.abandoned.insert(self.ticket.0);
            }
            state.wake_ready();
        }
    }
}

/// Forgets a commit waiter whose future was dropped before its turn came.
struct CommitGuard<'a> {
    lane: &'a Lane,
    ticket: Ticket,
}

impl Drop for CommitGuard<'_> {
    fn drop(&mut self) {
        self.lane
            .state
            .lock()
            .unregister(Wait::Commit, self.ticket.0);
    }
}

impl Lane {
    /// A lane where at most `limit` parallel calls overlap (`limit` ≥ 1).
    pub fn new(limit: usize) -> Arc<Lane> {
        Arc::new(Lane {
            limit: limit.max(1),
            state: Mutex::new(LaneState::default()),
        })
    }

    /// The overlap limit.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Takes the next place in submission order.
    pub fn ticket(&self) -> Ticket {
        let mut state = self.state.lock();
        let ticket = Ticket(state.issued);
        state.issued += 1;
        ticket
    }

    /// Waits until `ready` holds (it may act on the state when it does, under the same
    /// lock), registered as `wait` for `ticket` in the meantime.
    async fn wait_until(
        &self,
        wait: Wait,
        ticket: Ticket,
        mut ready: impl FnMut(&mut LaneState) -> bool,
    ) {
        poll_fn(|cx| {
            let mut state = self.state.lock();
            if ready(&mut state) {
                return Poll::Ready(());
            }
            // Registered under the same lock the change takes: no wake-up is lost.
            state.register(wait, ticket.0, cx.waker());
            Poll::Pending
        })
        .await;
    }

    /// Waits until `ticket` may start and admits it. `classify` is called once, when it is
    /// this ticket's turn (every earlier ticket has started), so the classification is as
    /// fresh as possible. Dropping the returned future before it completes gives the
    /// ticket up without stalling later ones.
    pub async fn admit(
        self: &Arc<Self>,
        ticket: Ticket,
        classify: impl FnOnce() -> ExecutionMode,
    ) -> Admission {
        let mut guard = TurnGuard {
            lane: self,
            ticket,
            admitted: false,
        };
        self.wait_until(Wait::Start, ticket, |state| state.may_start(ticket.0))
            .await;
        let mode = classify();
        let limit = self.limit;
        self.wait_until(Wait::Slot, ticket, |state| {
            if !state.slot_free(mode, limit) {
                return false;
            }
            state.slots.insert(ticket.0);
            state.unfinished.insert(ticket.0);
            state.exclusive = mode == ExecutionMode::Exclusive;
            true
        })
        .await;
        guard.admitted = true;
        Admission {
            lane: self.clone(),
            ticket,
            mode,
            turn_passed: false,
            slot_held: true,
            finished: false,
        }
    }

    /// Waits until every call admitted before `admission` has finished, so commits happen
    /// in submission order.
    pub async fn commit_turn(&self, admission: &Admission) {
        let ticket = admission.ticket;
        let _guard = CommitGuard { lane: self, ticket };
        self.wait_until(Wait::Commit, ticket, |state| state.may_commit(ticket.0))
            .await;
    }
}

/// Runs one model turn's native calls through `registry`: starts in submission order,
/// consecutive parallel calls overlap up to `limit`, an exclusive call waits for the pool
/// to drain, runs alone and is a barrier. Results come back in submission order.
pub async fn run_batch(
    registry: &Registry,
    calls: Vec<ToolExecutionInput>,
    limit: usize,
) -> Vec<Arc<ToolExecutionResult>> {
    let lane = Lane::new(limit);
    let runs = calls.into_iter().map(|input| {
        let ticket = lane.ticket();
        let lane = lane.clone();
        let registry = registry.clone();
        async move {
            let mut admission = lane.admit(ticket, || registry.execution_mode(&input)).await;
            admission.started();
            let result = registry.execute(input).await;
            admission.finish();
            result
        }
    });
    futures::future::join_all(runs).await
}
