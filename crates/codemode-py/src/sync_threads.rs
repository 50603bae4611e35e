//! The threads sync Python functions run on, and the hand-off to them.
//!
//! A sync tool runs on a thread of its own so that a slow one never blocks the caller's
//! event loop or the runtime's workers. The hand-off is the cost of such a call when the
//! tool is quick: a sleeping thread woken on a virtual machine's idle CPU takes tens of
//! microseconds to run, once to start the call and once more to wake whoever waits for the
//! answer. So both sides spin for a moment before they sleep, as work-stealing schedulers
//! do:
//!
//! - a worker that finished a call looks for the next one for up to [`SPIN`] before it
//!   sleeps (and a sleeping worker ends after [`KEEP_ALIVE`] without work);
//! - an event loop's thread waiting for a call it polls ([`Pending::wait`]) looks for the
//!   answer for up to [`SPIN`] before it awaits it, when a worker was there for the call
//!   (spinning, or asleep and woken by it), so a quick call's answer is taken on the spot,
//!   with no wake-up (runtime threads await at once).
//!
//! Both spins yield the CPU between looks, so on a busy machine the thread they wait for
//! runs. A call that takes longer than the spin costs the waiter [`SPIN`] of CPU once.
//! Each call is taken by a spinning worker, or claims a sleeping one, or starts a thread
//! (calls beyond the spinners never count on the same idle worker), so no call waits
//! behind a busy one (a tool that never returns keeps its thread), up to
//! [`MAX_THREADS`]; past that calls queue until a thread is free.
//!
//! Each worker keeps a Python thread state for its life (attached once, then the GIL
//! released while it works): taking the GIL on a thread without one creates and destroys
//! a thread state every time, which cost ~50 µs a call, more than the call. The exit
//! protocol of [`crate::tokio_runtime`] covers a worker's first and last attach; once the
//! interpreter is exiting a worker never takes the GIL again: calls made from then on
//! answer at once that the interpreter is exiting, and the worker stays until the process
//! ends.
//!
//! This module owns those threads and their thread states; it must not know what the
//! functions do.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

/// How long a worker looks for more work, and a waiter for its answer, before sleeping:
/// longer than a quick call's round trip through a program (engine thread, pipeline,
/// worker and back: 50–100 µs on a virtual machine), so a program's calls in a row find
/// the worker awake.
const SPIN: Duration = Duration::from_micros(100);
/// How long a sleeping worker waits for work before its thread ends.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// The most threads at once (as tokio's blocking pool bounds its own).
const MAX_THREADS: usize = 512;

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Pool {
    state: Mutex<State>,
    wake: Condvar,
    /// Jobs in the queue (read without the lock by spinning workers).
    queued: AtomicUsize,
    /// Workers looking for work without sleeping.
    spinning: AtomicUsize,
}

/// What the pool's lock guards.
#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    /// Workers asleep on `wake` that no job has claimed yet.
    sleeping: usize,
    /// Wake-ups handed out by [`spawn`] and not yet taken by a sleeper: each one claimed a
    /// sleeper for one job, so two jobs never count on the same sleeper.
    wakeups: usize,
    /// Worker threads alive (counted while they start; uncounted when they end).
    threads: usize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(Pool::default)
}

fn lock(pool: &Pool) -> std::sync::MutexGuard<'_, State> {
    pool.state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The answer of a function handed to a worker: `Err` with the panic's payload text when
/// it panicked, or when no thread could be started for it.
pub(crate) type Answer<T> = Result<T, String>;

/// A call handed to a worker, not yet answered.
#[derive(Debug)]
pub(crate) struct Pending<T> {
    rx: oneshot::Receiver<Answer<T>>,
    /// Whether a worker was there for it at once: a spinning one, or a sleeping one it
    /// woke (only then does the waiter spin: a call that waits for a thread to start, or
    /// for a busy one, is not quick).
    quick: bool,
}

/// Runs `f` on a worker thread.
pub(crate) fn spawn<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Pending<T> {
    let (tx, rx) = oneshot::channel();
    let job: Job = Box::new(move || {
        let answer = std::panic::catch_unwind(AssertUnwindSafe(f))
            .map_err(|panic| crate::panic_text(panic.as_ref()));
        // Nobody reads the answer of an abandoned call.
        let _ = tx.send(answer);
    });
    if crate::tokio_runtime::exiting() {
        // No worker takes the GIL any more: the job answers at once that the interpreter
        // is exiting, on this thread.
        job();
        return Pending { rx, quick: true };
    }
    let pool = pool();
    let mut state = lock(pool);
    state.queue.push_back(job);
    pool.queued.fetch_add(1, Ordering::SeqCst);
    // Spinning workers take queued jobs as they look (one that stops spinning looks at the
    // queue under the lock before it sleeps); past them, each job claims a sleeper or
    // starts a thread, so no job waits behind a busy worker.
    let spinning = pool.spinning.load(Ordering::SeqCst);
    if state.queue.len() <= spinning {
        return Pending { rx, quick: true };
    }
    if state.sleeping > 0 {
        state.sleeping -= 1;
        state.wakeups += 1;
        drop(state);
        pool.wake.notify_one();
        // A woken worker answers a quick call within the spin: the waiter taking it there
        // keeps the next call's worker awake (an answer through the event loop's selector
        // takes longer than the worker's spin, so one late call made every next one late).
        return Pending { rx, quick: true };
    }
    if state.threads >= MAX_THREADS {
        // Queued for the next worker that frees up; the caller's timeout bounds the wait.
        return Pending { rx, quick: false };
    }
    state.threads += 1;
    drop(state);
    let started = std::thread::Builder::new()
        .name("codemode-py-call".into())
        // As big as the runtime's threads (tokio's blocking pool ran these calls before):
        // a tool's C-level recursion (the json module's encoder over a deep value, with the
        // recursion limit raised) that fits a Python thread's 8 MiB must fit here too.
        .stack_size(crate::tokio_runtime::STACK_BYTES)
        .spawn(move || thread_main(pool));
    if started.is_err() {
        // The job stays queued for a worker that frees up; the caller's timeout bounds the
        // wait. A machine out of threads has nothing better to offer.
        lock(pool).threads -= 1;
    }
    Pending { rx, quick: false }
}

/// Takes the next job without waiting.
fn take(pool: &Pool) -> Option<Job> {
    if pool.queued.load(Ordering::SeqCst) == 0 {
        return None;
    }
    pop(pool, &mut lock(pool))
}

fn pop(pool: &Pool, state: &mut State) -> Option<Job> {
    let job = state.queue.pop_front();
    if job.is_some() {
        pool.queued.fetch_sub(1, Ordering::SeqCst);
    }
    job
}

/// A worker thread: attached once (its thread state kept), then [`work`] with the GIL
/// released; the last attach, when `work` ends, is covered by the exit protocol too.
fn thread_main(pool: &'static Pool) {
    let Some(first) = crate::tokio_runtime::hold_exit() else {
        // The interpreter is exiting: no thread state; the jobs answer without the GIL.
        lock(pool).threads -= 1;
        exited(pool);
    };
    let last = pyo3::Python::attach(|py| {
        drop(first);
        py.detach(|| work(pool))
    });
    // Released only now that the thread's state is gone.
    drop(last);
}

/// Runs jobs; between them spins, then sleeps; ends (holding off the interpreter's exit,
/// for the attach that follows) when idle long. Once the interpreter is exiting it never
/// returns.
fn work(pool: &'static Pool) -> crate::tokio_runtime::HoldingExit {
    loop {
        if let Some(job) = next_job(pool) {
            job();
            continue;
        }
        // `next_job` uncounted this thread.
        match crate::tokio_runtime::hold_exit() {
            Some(holding) => return holding,
            None => exited(pool),
        }
    }
}

/// The life of a worker once the interpreter is exiting: it never takes the GIL again
/// (doing so while the interpreter finalizes ends the thread mid-way, which crashes the
/// process), so it runs what is queued, whose calls answer without the GIL that the
/// interpreter is exiting, until the process ends.
fn exited(pool: &Pool) -> ! {
    loop {
        while let Some(job) = take(pool) {
            job();
        }
        std::thread::park_timeout(Duration::from_millis(10));
    }
}

/// The next job: taken, found by spinning, or waited for (`None`: idle for [`KEEP_ALIVE`];
/// this thread is no longer counted).
fn next_job(pool: &Pool) -> Option<Job> {
    if let Some(job) = take(pool) {
        return Some(job);
    }
    pool.spinning.fetch_add(1, Ordering::SeqCst);
    let found = spin_for(|| take(pool));
    pool.spinning.fetch_sub(1, Ordering::SeqCst);
    if found.is_some() {
        return found;
    }
    // Sleep until a job claims this thread or it is idle too long; the queue is looked at
    // under the lock first.
    let mut state = lock(pool);
    let deadline = Instant::now() + KEEP_ALIVE;
    loop {
        if let Some(job) = pop(pool, &mut state) {
            return Some(job);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            state.threads -= 1;
            return None;
        }
        state.sleeping += 1;
        state = pool
            .wake
            .wait_timeout(state, left)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
        if state.wakeups > 0 {
            // Claimed by a job (which took this thread off `sleeping`).
            state.wakeups -= 1;
        } else {
            state.sleeping -= 1;
        }
    }
}

/// Calls `look` until it finds something or [`SPIN`] has passed, yielding the CPU between
/// looks after the first few.
fn spin_for<T>(mut look: impl FnMut() -> Option<T>) -> Option<T> {
    let started = Instant::now();
    let mut looks = 0u32;
    loop {
        if let Some(found) = look() {
            return Some(found);
        }
        if started.elapsed() >= SPIN {
            return None;
        }
        looks += 1;
        if looks < 16 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

impl<T> Pending<T> {
    /// The answer: looked for for up to [`SPIN`] when a worker was there for the call and
    /// this is an event loop's thread polling its call (a quick call's answer is then taken
    /// with no trip through the loop's selector); then awaited. A runtime thread does not
    /// spin: on a busy machine it would take the CPU from the threads the answer needs
    /// (measured: a program's sub-calls into a sync tool 197–206 µs without its spin,
    /// 279 µs with it, both cores busy).
    pub(crate) async fn wait(mut self) -> Answer<T> {
        let lost = || Err("the worker thread dropped the call".to_owned());
        if self.quick && crate::driver::polling_loop().is_some() {
            let early = spin_for(|| match self.rx.try_recv() {
                Err(oneshot::error::TryRecvError::Empty) => None,
                received => Some(received),
            });
            if let Some(received) = early {
                return received.unwrap_or_else(|_| lost());
            }
        }
        self.rx.await.unwrap_or_else(|_| lost())
    }
}
