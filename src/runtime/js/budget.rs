//! Stopping a run: why it stopped, and the watchdog that enforces the time budgets.
//!
//! Every run has one [`RunStop`]. Whoever ends the run early (the watchdog for compute and
//! wall time, the heap callback, the output ledger, the caller's signal) calls
//! [`RunStop::request`]: the first reason wins, the isolate is told to terminate (which stops
//! a hot loop at its next back-edge) and the engine thread is woken (which ends an idle wait).
//!
//! The [`Watchdog`] is one thread per engine. It sleeps until the earliest moment a watched
//! run could exhaust a budget (CPU time cannot advance faster than wall time), reads the run's
//! engine-thread CPU clock, and stops the run when compute or wall time is spent. A new run
//! wakes it only when that run could expire before the watchdog's next wake-up.
//!
//! This module owns stop reasons and time enforcement; it must not know how a run executes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use deno_core::v8;

use super::clock::ThreadCpuClock;

/// Why a run was stopped before it settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum StopReason {
    /// The compute (CPU) budget is spent.
    Compute = 1,
    /// The wall-clock budget is spent.
    Wall = 2,
    /// The caller's signal fired, or the caller dropped the run.
    Abort = 3,
    /// The heap reached its limit.
    Heap = 4,
    /// The logs alone exceeded the output cap.
    Output = 5,
    /// The engine is shutting down.
    Shutdown = 6,
    /// The pending binding calls hold more host memory than the heap budget.
    HostMemory = 7,
}

impl StopReason {
    fn from_u8(value: u8) -> Option<StopReason> {
        Some(match value {
            1 => StopReason::Compute,
            2 => StopReason::Wall,
            3 => StopReason::Abort,
            4 => StopReason::Heap,
            5 => StopReason::Output,
            6 => StopReason::Shutdown,
            7 => StopReason::HostMemory,
            _ => return None,
        })
    }
}

/// The stop switch of one run.
#[derive(Default)]
pub(crate) struct RunStop {
    reason: AtomicU8,
    /// The isolate running the program, while it runs.
    isolate: Mutex<Option<v8::IsolateHandle>>,
    wake: tokio::sync::Notify,
    /// The caller gave up waiting for the run to stop (see `Pool::write_off`).
    written_off: std::sync::atomic::AtomicBool,
    /// The engine thread will never come back from the run (V8 ran out of heap inside one
    /// operation and its thread is held: see `natives::out_of_memory`).
    held: std::sync::atomic::AtomicBool,
}

impl RunStop {
    /// Stops the run for `reason` unless it was already stopped; returns whether this call
    /// decided the reason.
    pub(crate) fn request(&self, reason: StopReason) -> bool {
        let decided = self
            .reason
            .compare_exchange(0, reason as u8, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if decided {
            tracing::debug!(?reason, "stopping a code run");
            if let Some(isolate) = lock(&self.isolate).as_ref() {
                isolate.terminate_execution();
            }
            // Every waiter: the engine thread's event loop and the caller's grace timer.
            self.wake.notify_waiters();
        }
        decided
    }

    /// Marks the run's engine thread as held for good, and wakes the run's waiters.
    #[cfg(feature = "v8")]
    pub(crate) fn hold(&self) {
        self.held.store(true, Ordering::Release);
        self.wake.notify_waiters();
    }

    /// Whether the run's engine thread is held for good (see [`RunStop::hold`]).
    pub(crate) fn held(&self) -> bool {
        self.held.load(Ordering::Acquire)
    }

    /// Marks the run written off; `false` if it already was.
    pub(crate) fn write_off(&self) -> bool {
        !self.written_off.swap(true, Ordering::AcqRel)
    }

    /// Whether the run was written off.
    pub(crate) fn written_off(&self) -> bool {
        self.written_off.load(Ordering::Acquire)
    }

    /// The reason the run was stopped, if it was.
    pub(crate) fn reason(&self) -> Option<StopReason> {
        StopReason::from_u8(self.reason.load(Ordering::Acquire))
    }

    /// Connects the isolate that runs the program. A stop requested before this call is
    /// seen by the caller's next [`RunStop::reason`] check.
    pub(crate) fn attach(&self, isolate: v8::IsolateHandle) {
        *lock(&self.isolate) = Some(isolate);
        if self.reason().is_some()
            && let Some(isolate) = lock(&self.isolate).as_ref()
        {
            isolate.terminate_execution();
        }
    }

    /// Disconnects the isolate (the run is over; the runtime is about to be dropped).
    pub(crate) fn detach(&self) {
        *lock(&self.isolate) = None;
    }

    /// Completes when the run is stopped.
    pub(crate) async fn stopped(&self) {
        loop {
            // Created before the check: `notify_waiters` reaches a `Notified` from its creation.
            let notified = self.wake.notified();
            if self.reason().is_some() {
                return;
            }
            notified.await;
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock only means a panic elsewhere; the data (a handle, a list) stays valid.
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}

/// The time budgets of one run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimeBudget {
    pub(crate) compute: Duration,
    pub(crate) wall: Duration,
}

struct Watched {
    stop: Arc<RunStop>,
    clock: Option<ThreadCpuClock>,
    cpu_at_start: Duration,
    started: Instant,
    budget: TimeBudget,
}

impl Watched {
    /// CPU time the run has used; wall time where the thread's CPU clock is unreadable.
    fn compute_used(&self, now: Instant) -> Duration {
        match self.clock.and_then(|clock| clock.elapsed()) {
            Some(cpu) => cpu.saturating_sub(self.cpu_at_start),
            None => now - self.started,
        }
    }
}

#[derive(Default)]
struct WatchState {
    runs: HashMap<u64, Watched>,
    next_id: u64,
    shutdown: bool,
    /// When the watchdog next wakes by itself (`None` while it is between wake-ups): a new
    /// run that cannot expire before then does not wake it.
    next_wake: Option<Instant>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<WatchState>,
    changed: Condvar,
}

/// The watchdog thread of an engine.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// Keeps a run watched; dropping it stops watching.
pub(crate) struct WatchGuard {
    shared: Arc<Shared>,
    id: u64,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        lock(&self.shared.state).runs.remove(&self.id);
    }
}

impl Watchdog {
    /// Starts the watchdog thread.
    pub(crate) fn start() -> std::io::Result<Watchdog> {
        let shared = Arc::new(Shared::default());
        let thread_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("codemode-watchdog".to_owned())
            .spawn(move || watch_loop(&thread_shared))?;
        Ok(Watchdog {
            shared,
            thread: Some(thread),
        })
    }

    /// Watches a run whose program runs on the calling thread, from now on.
    pub(crate) fn watch(&self, stop: Arc<RunStop>, budget: TimeBudget) -> WatchGuard {
        let clock = ThreadCpuClock::current();
        let cpu_at_start = clock.and_then(|clock| clock.elapsed()).unwrap_or_default();
        let started = Instant::now();
        let mut state = lock(&self.shared.state);
        let id = state.next_id;
        state.next_id += 1;
        state.runs.insert(
            id,
            Watched {
                stop,
                clock,
                cpu_at_start,
                started,
                budget,
            },
        );
        // CPU time advances at most as fast as wall time: the run cannot expire before the
        // smaller budget has passed. Waking the watchdog for every run cost a cross-thread
        // wake-up per run (most runs end long before any budget).
        let soonest = started + budget.compute.min(budget.wall);
        let wake = state.next_wake.is_none_or(|next| soonest < next);
        drop(state);
        if wake {
            self.shared.changed.notify_one();
        }
        WatchGuard {
            shared: self.shared.clone(),
            id,
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.changed.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The longest the watchdog sleeps when nothing is watched (it is woken on every change).
const IDLE_WAIT: Duration = Duration::from_secs(3600);
/// The shortest sleep, so a run close to its budget is not polled in a spin.
const MIN_WAIT: Duration = Duration::from_millis(1);

fn watch_loop(shared: &Shared) {
    let mut state = lock(&shared.state);
    while !state.shutdown {
        let now = Instant::now();
        let mut wait = IDLE_WAIT;
        state.runs.retain(|_, run| {
            let used = run.compute_used(now);
            if used >= run.budget.compute {
                run.stop.request(StopReason::Compute);
                return false;
            }
            let elapsed = now - run.started;
            if elapsed >= run.budget.wall {
                run.stop.request(StopReason::Wall);
                return false;
            }
            // CPU time advances at most as fast as wall time: nothing can expire sooner.
            let soonest = (run.budget.compute - used).min(run.budget.wall - elapsed);
            wait = wait.min(soonest);
            true
        });
        let wait = wait.max(MIN_WAIT);
        state.next_wake = now.checked_add(wait);
        state = match shared.changed.wait_timeout(state, wait) {
            Ok((guard, _)) => guard,
            Err(poison) => poison.into_inner().0,
        };
        state.next_wake = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(compute_ms: u64, wall_ms: u64) -> TimeBudget {
        TimeBudget {
            compute: Duration::from_millis(compute_ms),
            wall: Duration::from_millis(wall_ms),
        }
    }

    #[test]
    fn the_first_reason_wins() {
        let stop = RunStop::default();
        assert_eq!(stop.reason(), None);
        assert!(stop.request(StopReason::Abort));
        assert!(!stop.request(StopReason::Compute));
        assert_eq!(stop.reason(), Some(StopReason::Abort));
    }

    #[test]
    fn a_busy_thread_is_stopped_for_compute_and_an_idle_one_for_wall_time() {
        let watchdog = Watchdog::start().unwrap();
        let busy = Arc::new(RunStop::default());
        let idle = Arc::new(RunStop::default());
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _guard = watchdog.watch(busy.clone(), budget(100, 10_000));
                let start = Instant::now();
                while busy.reason().is_none() && start.elapsed() < Duration::from_secs(10) {
                    std::hint::spin_loop();
                }
            });
            scope.spawn(|| {
                let _guard = watchdog.watch(idle.clone(), budget(100, 300));
                let start = Instant::now();
                while idle.reason().is_none() && start.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
        });
        assert_eq!(busy.reason(), Some(StopReason::Compute));
        assert_eq!(idle.reason(), Some(StopReason::Wall));
    }

    #[test]
    fn a_short_budget_after_a_long_one_still_wakes_the_watchdog() {
        let watchdog = Watchdog::start().unwrap();
        // The watchdog now sleeps until this run's budget, a minute away.
        let long = Arc::new(RunStop::default());
        let _long_guard = watchdog.watch(long.clone(), budget(60_000, 60_000));
        std::thread::sleep(Duration::from_millis(50));
        // A run that can expire sooner wakes it; one that cannot leaves it asleep.
        let short = Arc::new(RunStop::default());
        let _short_guard = watchdog.watch(short.clone(), budget(10_000, 200));
        let later = Arc::new(RunStop::default());
        let _later_guard = watchdog.watch(later.clone(), budget(60_000, 60_000));
        let start = Instant::now();
        while short.reason().is_none() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(short.reason(), Some(StopReason::Wall));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(long.reason(), None);
        assert_eq!(later.reason(), None);
    }

    #[tokio::test]
    async fn stopped_completes_after_a_request() {
        let stop = Arc::new(RunStop::default());
        let waiter = tokio::spawn({
            let stop = stop.clone();
            async move { stop.stopped().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        stop.request(StopReason::Output);
        tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("woken")
            .unwrap();
    }
}
