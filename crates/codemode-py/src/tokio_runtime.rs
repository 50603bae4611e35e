//! The process-wide tokio runtime and the asyncio bridge.
//!
//! - One multi-thread tokio runtime per process, built on first use (not at import, so a
//!   process that forks before using codemode has no runtime threads to lose), with the
//!   stack the library wants for deep values, and handed to `pyo3-async-runtimes`.
//! - [`awaitable`]: a top-level call (`execute`, `run_code`) as an asyncio future. The
//!   call is polled once on the caller's thread and, if it must wait, runs on as a tokio
//!   task of its own; the future only reports its end. When the future is cancelled
//!   (asyncio cancellation of the awaiting task), the call's cancellation token fires and
//!   the pipeline winds the call (and a run's sub-calls) down through its own cancellation
//!   path instead of being dropped mid-flight.
//! - At interpreter exit (`atexit`), values kept off the Python thread are no longer
//!   dropped (see [`OffThread`]).
//! - Which event loop a call came from ([`register_loop`], [`loop_of`]): async Python tools
//!   and listeners run on the loop of the top-level call they belong to, found by the root
//!   call id every nested call carries.
//!
//! This module owns threads and loops; it must not know about tools or results.

use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use futures::FutureExt;
use pyo3::types::PyDict;
use pyo3::{IntoPyObjectExt, intern, prelude::*};
use pyo3_async_runtimes::TaskLocals;
use tokio_util::sync::CancellationToken;

use crate::driver::CallFuture;

/// Each thread's stack: `serde_json::Value`'s clone, drop and serialization recurse over
/// deep values (the command gives its threads the same).
pub(crate) const STACK_BYTES: usize = 16 << 20;

static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();

/// The runtime, built on first use.
pub(crate) fn runtime() -> PyResult<&'static tokio::runtime::Runtime> {
    let built = RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .thread_name("codemode")
            .thread_stack_size(STACK_BYTES)
            .enable_all()
            .build()
            .map_err(|err| format!("cannot start codemode's tokio runtime: {err}"))
    });
    match built {
        Ok(runtime) => {
            // Err only when it was handed over already (by an earlier call of this).
            let _ = pyo3_async_runtimes::tokio::init_with_runtime(runtime);
            Ok(runtime)
        }
        Err(message) => Err(Python::attach(|py| {
            crate::exception(py, "HOST_FAILED", message)
        })),
    }
}

/// Set by `atexit` (registered when the module is imported): the interpreter is exiting.
static EXITING: AtomicBool = AtomicBool::new(false);

/// How many threads are inside [`attach_unless_exiting`].
static ATTACHING: AtomicUsize = AtomicUsize::new(0);

/// How long the exit waits for threads that are answering calls.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Registers with `atexit` the callback that sets [`EXITING`].
pub(crate) fn register_at_exit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let callback = wrap_pyfunction!(at_exit, m)?;
    m.py()
        .import("atexit")?
        .call_method1("register", (callback,))?;
    Ok(())
}

/// Called by `atexit`, before the interpreter finalizes: from now on no thread of ours
/// takes the GIL (a thread that does so while the interpreter finalizes is ended by it
/// mid-call, which crashed the process at exit) and [`OffThread`] values are not dropped.
/// Waits (the GIL released, at most [`EXIT_GRACE`]) for the threads already on their way
/// in: one answering a call may have been let go of the GIL inside
/// `call_soon_threadsafe` after the loop already had the answer.
#[pyfunction]
#[pyo3(name = "_at_exit")]
fn at_exit(py: Python<'_>) {
    EXITING.store(true, Ordering::SeqCst);
    py.detach(|| {
        let deadline = Instant::now() + EXIT_GRACE;
        while ATTACHING.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

/// Runs `f` attached to the interpreter, unless the interpreter is exiting (`None`).
pub(crate) fn attach_unless_exiting<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> Option<R> {
    let _holding = hold_exit()?;
    Some(Python::attach(f))
}

/// While it lives, the interpreter's exit waits (at most [`EXIT_GRACE`]) before it
/// finalizes: held by a thread on its way to take the GIL.
#[derive(Debug)]
pub(crate) struct HoldingExit(());

impl Drop for HoldingExit {
    fn drop(&mut self) {
        ATTACHING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether the interpreter is exiting (`atexit` ran): no thread of ours takes the GIL.
pub(crate) fn exiting() -> bool {
    EXITING.load(Ordering::SeqCst)
}

/// A [`HoldingExit`], unless the interpreter is exiting (`None`: do not take the GIL).
pub(crate) fn hold_exit() -> Option<HoldingExit> {
    // Counted before the check: `at_exit` sets the flag before it reads the count.
    ATTACHING.fetch_add(1, Ordering::SeqCst);
    let holding = HoldingExit(());
    if exiting() {
        return None;
    }
    Some(holding)
}

/// A value dropped on tokio's blocking pool (when the runtime exists) instead of where it
/// is dropped: the last handle of a registry stops its engine threads and waits for them,
/// which a Python object's deallocation (holding the GIL) should not do.
#[derive(Debug)]
pub(crate) struct OffThread<T: Send + 'static>(Option<T>);

impl<T: Send + 'static> OffThread<T> {
    pub(crate) fn new(value: T) -> Self {
        OffThread(Some(value))
    }
}

impl<T: Send + 'static> std::ops::Deref for OffThread<T> {
    type Target = T;

    fn deref(&self) -> &T {
        // Taken only by `drop`, after which nothing derefs.
        #[allow(clippy::expect_used)]
        self.0
            .as_ref()
            .expect("an OffThread value is present until it is dropped")
    }
}

impl<T: Send + 'static> Drop for OffThread<T> {
    fn drop(&mut self) {
        if let Some(value) = self.0.take() {
            if EXITING.load(Ordering::SeqCst) {
                // The interpreter is finalizing (its module globals, and the registries
                // in them, are being freed): a thread that takes the GIL now is ended by
                // the interpreter mid-drop, which crashed the process at exit. The
                // process is ending; the value is left to it.
                std::mem::forget(value);
                return;
            }
            match RUNTIME.get() {
                Some(Ok(runtime)) => drop(runtime.spawn_blocking(move || drop(value))),
                _ => drop(value),
            }
        }
    }
}

/// A fresh id for a top-level call (`py-<n>`): the key of its event loop.
pub(crate) fn next_call_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("py-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Runs `work` and returns an asyncio future of its result, bound to the running event loop
/// (and the caller's contextvars). Cancelling the future cancels the token `work` got; the
/// work then winds down on its own. A panic in the work is `codemode.PanicError`.
///
/// The work is driven by the loop's own thread ([`crate::driver`]): polled once here (the
/// GIL released) and again whenever it is woken, so a call that needs no waiting (a Rust
/// tool, a refusal by the pipeline) is answered with a future that is already done, and
/// any other crosses only the threads its work needs. A loop that cannot hold a driver
/// gets the work polled once here and then run as a tokio task, whose end sets the future
/// through the loop's `call_soon_threadsafe`.
pub(crate) fn awaitable<'py, F, T>(
    py: Python<'py>,
    call_id: String,
    work: impl FnOnce(CancellationToken) -> F,
) -> PyResult<Bound<'py, PyAny>>
where
    F: Future<Output = PyResult<T>> + Send + 'static,
    T: for<'a> IntoPyObject<'a> + Send + 'static,
{
    let runtime = runtime()?;
    let locals = pyo3_async_runtimes::tokio::get_current_locals(py)?;
    let event_loop = locals.event_loop(py);
    let token = CancellationToken::new();
    let registration = register_loop(call_id, locals.clone());
    let work = work(token.clone());
    let task: CallFuture<T> = Box::pin(async move {
        // The loop stays known until the work is over, also after a cancelled future.
        let _registration = registration;
        work.await
    });
    let mut task = match crate::driver::drive(&event_loop, runtime, token.clone(), task)? {
        Ok(future) => return Ok(future),
        Err(task) => task,
    };
    let future = event_loop.call_method0(intern!(py, "create_future"))?;
    let first = py.detach(|| {
        let _context = runtime.enter();
        let mut cx = Context::from_waker(Waker::noop());
        std::panic::catch_unwind(AssertUnwindSafe(|| task.as_mut().poll(&mut cx)))
    });
    match first {
        Ok(Poll::Ready(result)) => {
            match result.and_then(|value| value.into_bound_py_any(py)) {
                Ok(value) => future.call_method1(intern!(py, "set_result"), (value,))?,
                Err(err) => future.call_method1(intern!(py, "set_exception"), (err,))?,
            };
            return Ok(future);
        }
        Ok(Poll::Pending) => {}
        Err(panic) => return Err(crate::panic_error(py, &crate::panic_text(panic.as_ref()))),
    }
    future.call_method1(
        intern!(py, "add_done_callback"),
        (CancelOnDone {
            token: token.clone(),
        },),
    )?;
    let target: Py<PyAny> = future.clone().unbind();
    let context = locals.context(py).unbind();
    let event_loop = event_loop.unbind();
    // Polled again by tokio: a wake-up that came before the spawn is not lost.
    runtime.spawn(async move {
        let outcome = AssertUnwindSafe(task).catch_unwind().await;
        // At exit nobody awaits the answer any more.
        attach_unless_exiting(|py| {
            let result = match outcome {
                Ok(result) => result.and_then(|value| value.into_bound_py_any(py)),
                Err(panic) => Err(crate::panic_error(py, &crate::panic_text(panic.as_ref()))),
            };
            let (ok, value) = match result {
                Ok(value) => (true, value),
                Err(err) => (false, err.into_value(py).into_bound(py).into_any()),
            };
            let kwargs = PyDict::new(py);
            // A closed loop cannot be answered: nobody awaits the future any more.
            let _ = kwargs
                .set_item(intern!(py, "context"), context.bind(py))
                .and_then(|()| {
                    event_loop.bind(py).call_method(
                        intern!(py, "call_soon_threadsafe"),
                        (Complete, target.bind(py), ok, value),
                        Some(&kwargs),
                    )
                });
        });
    });
    Ok(future)
}

/// Sets an asyncio future's result (or exception) unless it was cancelled meanwhile; called
/// on the future's loop.
#[pyclass(module = "codemode._native", frozen)]
struct Complete;

#[pymethods]
impl Complete {
    fn __call__(
        &self,
        future: &Bound<'_, PyAny>,
        ok: bool,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let py = future.py();
        if future.call_method0(intern!(py, "cancelled"))?.is_truthy()? {
            return Ok(());
        }
        let method = if ok {
            intern!(py, "set_result")
        } else {
            intern!(py, "set_exception")
        };
        future.call_method1(method, (value,))?;
        Ok(())
    }
}

/// Fires a call's cancellation token when its asyncio future is cancelled.
#[pyclass(module = "codemode._native", frozen)]
struct CancelOnDone {
    token: CancellationToken,
}

#[pymethods]
impl CancelOnDone {
    fn __call__(&self, future: &Bound<'_, PyAny>) -> PyResult<()> {
        if future
            .call_method0(intern!(future.py(), "cancelled"))?
            .is_truthy()?
        {
            self.token.cancel();
        }
        Ok(())
    }
}

type Loops = Mutex<HashMap<String, TaskLocals>>;

fn loops() -> &'static Loops {
    static LOOPS: OnceLock<Loops> = OnceLock::new();
    LOOPS.get_or_init(Loops::default)
}

/// Records that the call `call_id` (and every call nested in it) belongs to the event loop
/// of `locals`, until the returned value is dropped.
pub(crate) fn register_loop(call_id: String, locals: TaskLocals) -> LoopRegistration {
    loops()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(call_id.clone(), locals);
    LoopRegistration { call_id }
}

/// The event loop (and contextvars) of the top-level call `root_call_id`, if it is one of
/// ours and still running.
pub(crate) fn loop_of(root_call_id: &str) -> Option<TaskLocals> {
    loops()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(root_call_id)
        .cloned()
}

/// Forgets a call's event loop when dropped.
#[derive(Debug)]
pub(crate) struct LoopRegistration {
    call_id: String,
}

impl Drop for LoopRegistration {
    fn drop(&mut self) {
        let removed = loops()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.call_id);
        // The loop's objects are released without the GIL: pyo3 defers the decrefs.
        drop(removed);
    }
}
