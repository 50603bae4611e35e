//! The process-wide tokio runtime and the asyncio bridge.
//!
//! - One multi-thread tokio runtime per process, built on first use (not at import, so a
//!   process that forks before using codemode has no runtime threads to lose), with the
//!   stack the library wants for deep values, and handed to `pyo3-async-runtimes`.
//! - [`awaitable`]: a top-level call (`execute`, `run_code`) as an asyncio awaitable. The
//!   call itself runs as a tokio task of its own; the awaitable only waits for it. When
//!   the awaitable is cancelled (asyncio cancellation of the awaiting task), the call's
//!   cancellation token fires and the pipeline winds the call (and a run's sub-calls)
//!   down through its own cancellation path instead of being dropped mid-flight.
//! - Which event loop a call came from ([`register_loop`], [`loop_of`]): async Python tools
//!   and listeners run on the loop of the top-level call they belong to, found by the root
//!   call id every nested call carries.
//!
//! This module owns threads and loops; it must not know about tools or results.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use pyo3::prelude::*;
use pyo3_async_runtimes::TaskLocals;
use tokio_util::sync::CancellationToken;

/// Each thread's stack: `serde_json::Value`'s clone, drop and serialization recurse over
/// deep values (the command gives its threads the same).
const STACK_BYTES: usize = 16 << 20;

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

/// Runs `work` as a tokio task and returns an asyncio awaitable of its result, bound to the
/// running event loop (and the caller's contextvars). Cancelling the awaitable cancels the
/// token `work` got; the task then finishes on its own. A panic in the task is
/// `codemode.PanicError`.
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
    let token = CancellationToken::new();
    let registration = register_loop(call_id, locals.clone());
    let fut = work(token.clone());
    let task = runtime.spawn(async move {
        // The loop stays known until the call is over, also after a cancelled awaitable.
        let _registration = registration;
        fut.await
    });
    pyo3_async_runtimes::tokio::future_into_py_with_locals(py, locals, async move {
        // Fires when the awaitable is cancelled (this future is dropped) — and, harmlessly,
        // after the task is done.
        let _cancel = token.drop_guard();
        match task.await {
            Ok(result) => result,
            Err(join) => {
                let what = if join.is_panic() {
                    crate::panic_text(join.into_panic().as_ref())
                } else {
                    "the call's task was cancelled".to_owned()
                };
                Err(Python::attach(|py| crate::panic_error(py, &what)))
            }
        }
    })
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
