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
//! the `run_code` bridge uses the same lane for a program's sub-calls, with separate start,
//! slot and commit points.

use std::collections::BTreeSet;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::Notify;

use crate::tool::{ToolExecutionInput, ToolExecutionResult};

use super::{ExecutionMode, Registry};

/// Submission-ordered admission with bounded overlap and exclusive barriers.
#[derive(Debug)]
pub struct Lane {
    limit: usize,
    state: Mutex<LaneState>,
    changed: Notify,
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
}

impl LaneState {
    /// Passes the start turn to the ticket after `ticket`, skipping abandoned ones.
    fn pass_turn_after(&mut self, ticket: u64) {
        self.next_start = self.next_start.max(ticket + 1);
        while self.abandoned.remove(&self.next_start) {
            self.next_start += 1;
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
            self.lane.state.lock().pass_turn_after(self.ticket.0);
            self.lane.changed.notify_waiters();
        }
    }

    /// A parallel call no longer needs its slot (its dispatch is over; it may still be
    /// waiting to commit). An exclusive call keeps the barrier until it finishes.
    pub fn release_slot(&mut self) {
        if self.slot_held && self.mode == ExecutionMode::Parallel {
            self.slot_held = false;
            self.lane.state.lock().slots.remove(&self.ticket.0);
            self.lane.changed.notify_waiters();
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
        drop(state);
        self.lane.changed.notify_waiters();
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
            if state.next_start == self.ticket.0 {
                state.pass_turn_after(self.ticket.0);
            } else if state.next_start < self.ticket.0 {
                state.abandoned.insert(self.ticket.0);
            }
            drop(state);
            self.lane.changed.notify_waiters();
        }
    }
}

impl Lane {
    /// A lane where at most `limit` parallel calls overlap (`limit` ≥ 1).
    pub fn new(limit: usize) -> Arc<Lane> {
        Arc::new(Lane {
            limit: limit.max(1),
            state: Mutex::new(LaneState::default()),
            changed: Notify::new(),
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
        loop {
            let notified = self.changed.notified();
            if self.state.lock().next_start >= ticket.0 {
                break;
            }
            notified.await;
        }
        let mode = classify();
        loop {
            let notified = self.changed.notified();
            {
                let mut state = self.state.lock();
                let free = match mode {
                    ExecutionMode::Parallel => !state.exclusive && state.slots.len() < self.limit,
                    ExecutionMode::Exclusive => state.unfinished.is_empty(),
                };
                if free {
                    state.slots.insert(ticket.0);
                    state.unfinished.insert(ticket.0);
                    state.exclusive = mode == ExecutionMode::Exclusive;
                    guard.admitted = true;
                    return Admission {
                        lane: self.clone(),
                        ticket,
                        mode,
                        turn_passed: false,
                        slot_held: true,
                        finished: false,
                    };
                }
            }
            notified.await;
        }
    }

    /// Waits until every call admitted before `admission` has finished, so commits happen
    /// in submission order.
    pub async fn commit_turn(&self, admission: &Admission) {
        loop {
            let notified = self.changed.notified();
            if self
                .state
                .lock()
                .unfinished
                .range(..admission.ticket.0)
                .next()
                .is_none()
            {
                return;
            }
            notified.await;
        }
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
