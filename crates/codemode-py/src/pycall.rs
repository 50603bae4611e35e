//! Calling Python callables from the pipeline.
//!
//! Every callable the Rust side holds is an adapter the Python half built
//! (`codemode._bridge`): it takes one argument and answers one value, so conversions
//! between Python objects and the tool's own types stay in Python (where the type hints
//! are). The argument is JSON text ([`CallArg::Text`]), or for a tool its arguments as
//! plain Python data when they are ([`CallArg::Data`], [`crate::pyjson`]); the answer is
//! JSON text or plain JSON data, read here.
//!
//! - A sync callable runs with the GIL on a worker thread ([`PyFn::call`],
//!   [`crate::sync_threads`]): a slow tool never blocks the runtime's workers or the caller's
//!   event loop. It runs in a copy of the top-level call's contextvars (as an async one
//!   does). It cannot be interrupted: when the call's signal fires (a timeout, a
//!   cancelled run) the call is answered at once and the function finishes on its
//!   thread, unread.
//! - An async callable is scheduled on the event loop of the top-level call it belongs to
//!   (`codemode._bridge.schedule`, with the caller's contextvars) and awaited here through
//!   a [`Completion`]; when the call's signal fires, or this side stops waiting, the Python
//!   task is cancelled. Without a known loop (a call that did not come from this package)
//!   it runs to completion on a private loop on a worker thread.
//! - [`PyFn::call_blocking`] is for the pipeline's synchronous hooks (guards, observers):
//!   it takes the GIL on the current thread, telling tokio first.
//!
//! This module owns how Python is entered; it must not know what the callables mean.

use std::sync::{Arc, Mutex, PoisonError};

use codemode::JsonValue;
use codemode::tool::Signal;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use tokio::sync::oneshot;

use crate::describe_py_err;

/// A Python callable of one argument ([`CallArg`]) answering JSON text or plain JSON data.
#[derive(Debug, Clone)]
pub(crate) struct PyFn {
    func: Arc<Py<PyAny>>,
    is_async: bool,
}

/// What a call of a Python callable gave instead of an answer: the Python exception
/// (`ExcType: message`) or why it could not be made.
pub(crate) type CallFailure = String;

/// The argument of an adapter.
#[derive(Debug, Clone)]
pub(crate) enum CallArg {
    /// JSON text (the listeners' adapters).
    Text(String),
    /// A tool's arguments: passed as plain Python data when they are, else as JSON text
    /// (the tool adapter takes either).
    Data(Arc<JsonValue>),
}

impl CallArg {
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            CallArg::Text(text) => PyString::new(py, text).into_any(),
            CallArg::Data(value) => match crate::pyjson::to_python(py, value)? {
                Some(data) => data,
                None => PyString::new(py, &codemode::json::to_text(value)).into_any(),
            },
        })
    }
}

/// An adapter's answer as JSON data: JSON text parsed, plain data converted, anything else
/// written by `codemode._json.dumps` first.
fn read_answer(answer: &Bound<'_, PyAny>) -> Result<JsonValue, CallFailure> {
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    if let Ok(text) = answer.cast::<PyString>() {
        let text = text
            .to_str()
            .map_err(|err| describe_py_err(answer.py(), &err))?;
        return parse_answer(text);
    }
    if let Some(value) = crate::pyjson::to_json(answer) {
        return Ok(value);
    }
    let py = answer.py();
    let text: String = DUMPS
        .import(py, "codemode._json", "dumps")
        .and_then(|dumps| dumps.call1((answer,)))
        .and_then(|text| text.extract())
        .map_err(|err| describe_py_err(py, &err))?;
    parse_answer(&text)
}

impl PyFn {
    /// `func`, called as a coroutine function when `is_async`.
    pub(crate) fn new(func: Py<PyAny>, is_async: bool) -> Self {
        PyFn {
            func: Arc::new(func),
            is_async,
        }
    }

    /// Calls the function with `arg`, for the call tree rooted at `root_call_id` (whose
    /// event loop runs an async function); `signal` cancels an async function's task.
    pub(crate) async fn call(
        &self,
        root_call_id: &str,
        arg: CallArg,
        signal: &Signal,
    ) -> Result<JsonValue, CallFailure> {
        if self.is_async {
            return self.call_async(root_call_id, arg, signal).await;
        }
        let func = self.func.clone();
        // In a copy of the context of the call that awaits the tree (its contextvars: an
        // OpenTelemetry span, a request id), as an async function's task runs; a copy, so
        // that sync functions running at once do not enter one context together.
        let locals = crate::tokio_runtime::loop_of(root_call_id);
        let call = blocking(move |py| {
            let arg = arg.to_python(py)?;
            let answer = match &locals {
                Some(locals) => locals
                    .context(py)
                    .call_method0("copy")?
                    .call_method1("run", (func.bind(py), arg))?
                    .unbind(),
                None => func.call1(py, (arg,))?,
            };
            Ok(read_answer(answer.bind(py)))
        });
        // A Python function cannot be interrupted: on cancellation (a timeout, a
        // cancelled run) the call is answered at once and the function finishes on
        // its worker thread, its answer unread.
        tokio::select! {
            answer = call => answer?,
            () = signal.cancelled() => {
                Err("the call was cancelled while the sync function ran".to_owned())
            }
        }
    }

    /// Calls a sync function with `arg` on this thread (the pipeline's synchronous hooks).
    pub(crate) fn call_blocking(&self, arg: String) -> Result<JsonValue, CallFailure> {
        let func = self.func.clone();
        let call = move || {
            Python::attach(|py| {
                func.call1(py, (arg,))
                    .and_then(|answer| answer.extract::<String>(py))
                    .map_err(|err| describe_py_err(py, &err))
            })
        };
        let on_worker = tokio::runtime::Handle::try_current().is_ok_and(|handle| {
            handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread
        });
        let text = if on_worker {
            tokio::task::block_in_place(call)?
        } else {
            call()?
        };
        parse_answer(&text)
    }

    async fn call_async(
        &self,
        root_call_id: &str,
        arg: CallArg,
        signal: &Signal,
    ) -> Result<JsonValue, CallFailure> {
        let func = self.func.clone();
        let Some(locals) = crate::tokio_runtime::loop_of(root_call_id) else {
            return blocking(move |py| {
                let coroutine = func.call1(py, (arg.to_python(py)?,))?;
                let answer = py
                    .import("codemode._bridge")?
                    .call_method1("run_alone", (coroutine,))?;
                Ok(read_answer(&answer))
            })
            .await?;
        };
        let (tx, mut rx) = oneshot::channel();
        let completion = Completion {
            tx: Mutex::new(Some(tx)),
        };
        // Polled by the thread of the call's own loop (crate::driver): schedule it from
        // here, with no worker thread in between.
        let on_its_loop = crate::driver::polling_loop().is_some_and(|address| {
            Python::attach(|py| locals.event_loop(py).as_ptr() as usize == address)
        });
        let schedule = move |py: Python<'_>| -> PyResult<Py<PyAny>> {
            let coroutine = func.call1(py, (arg.to_python(py)?,))?;
            let scheduled = py.import("codemode._bridge")?.call_method1(
                "schedule",
                (
                    locals.event_loop(py),
                    locals.context(py),
                    coroutine,
                    completion,
                ),
            )?;
            Ok(scheduled.unbind())
        };
        let handle = if on_its_loop {
            Python::attach(|py| schedule(py).map_err(|err| describe_py_err(py, &err)))?
        } else {
            blocking(schedule).await?
        };
        let mut task = CancelOnDrop {
            handle: Some(handle),
        };
        let answer = tokio::select! {
            answer = &mut rx => answer,
            () = signal.cancelled() => {
                task.cancel();
                // The task ends with CancelledError (or whatever it does about it); the
                // pipeline abandons a body that ignores cancellation after its grace.
                rx.await
            }
        };
        task.handle = None;
        answer.unwrap_or_else(|_| Err("the event loop dropped the call".to_owned()))
    }
}

/// Runs `f` with the GIL on a worker thread ([`crate::sync_threads`]); a Python exception is
/// `ExcType: message`.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce(Python<'_>) -> PyResult<T> + Send + 'static,
) -> Result<T, CallFailure> {
    let answer = crate::sync_threads::spawn(move || {
        crate::tokio_runtime::attach_unless_exiting(|py| {
            f(py).map_err(|err| describe_py_err(py, &err))
        })
        .unwrap_or_else(|| Err("the Python interpreter is exiting".to_owned()))
    })
    .wait()
    .await;
    match answer {
        Ok(result) => result,
        Err(panic) => Err(format!("calling Python panicked: {panic}")),
    }
}

fn parse_answer(text: &str) -> Result<JsonValue, CallFailure> {
    // Iterative (serde_json's own parser stops at 128 levels); the depth is the registry's
    // business, checked where the value is used.
    codemode::json::parse_within(text, usize::MAX)
        .map_err(|err| format!("codemode's Python adapter answered malformed JSON: {err}"))
}

/// Cancels a scheduled Python task (a `codemode._bridge.Scheduled`) when dropped before it
/// finished: the call's future was dropped (the pipeline abandoned it, a timeout, a
/// cancelled run).
struct CancelOnDrop {
    handle: Option<Py<PyAny>>,
}

impl CancelOnDrop {
    /// Asks the loop to cancel the task (thread-safe; does not wait).
    fn cancel(&mut self) {
        if let Some(handle) = self.handle.take() {
            cancel_scheduled(handle);
        }
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.cancel();
    }
}

fn cancel_scheduled(handle: Py<PyAny>) {
    let cancel = move || {
        Python::attach(|py| {
            // A loop that is already closed has nothing left to cancel.
            let _ = handle.call_method0(py, "cancel");
        });
    };
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => drop(runtime.spawn_blocking(cancel)),
        Err(_) => cancel(),
    }
}

/// The done-callback of a scheduled Python task: `completion(ok, value)` with the
/// adapter's JSON text, or `ok=False` and the exception.
#[pyclass(module = "codemode._native", frozen)]
pub(crate) struct Completion {
    tx: Mutex<Option<oneshot::Sender<Result<JsonValue, CallFailure>>>>,
}

#[pymethods]
impl Completion {
    fn __call__(&self, ok: bool, value: &Bound<'_, PyAny>) {
        let outcome = if ok {
            read_answer(value)
        } else {
            Err(describe_exception(value))
        };
        let tx = self
            .tx
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(tx) = tx {
            // Nobody waits any more when the call was abandoned.
            let _ = tx.send(outcome);
        }
    }
}

/// `ExcType: message` of an exception instance.
fn describe_exception(value: &Bound<'_, PyAny>) -> String {
    describe_py_err(value.py(), &PyErr::from_value(value.clone()))
}
