//! Rust futures driven by the asyncio event loop that awaits them.
//!
//! A top-level call (`execute`, `run_code`) is a Rust future; its caller is a coroutine on
//! an asyncio loop. Driving the future on a tokio thread and answering the loop from there
//! costs a thread hand-off each way, and on a virtual machine a thread woken on an idle
//! CPU costs tens of microseconds. Here the loop's own thread polls the future (with the
//! GIL released), and wakers need no GIL: a wake queues the task and writes one byte to a
//! socket the loop watches (`loop.add_reader`); the loop then polls the queued tasks and
//! sets each finished one's asyncio future directly. A call thus crosses only the threads
//! its work needs (a sync Python tool's worker thread, the JavaScript engine's thread).
//!
//! - [`Driver`]: one per event loop, kept on the loop object (attribute
//!   `_codemode_driver`), so it lives and dies with the loop; a loop that cannot carry an
//!   attribute (uvloop) has none, and [`crate::tokio_runtime::awaitable`] falls back to a tokio
//!   task.
//! - [`LoopTask`]: one call's future and its asyncio future. When the asyncio future is
//!   cancelled the call's token fires and the Rust future moves to a tokio task, which
//!   winds it down whether or not the loop keeps running.
//!
//! This module owns the polling of call futures on event loops; it must not know what the
//! calls are.

use std::future::Future;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

use futures::FutureExt;
use pyo3::{IntoPyObjectExt, intern, prelude::*};
use tokio_util::sync::CancellationToken;

/// The attribute of an event loop that holds its driver.
const ATTRIBUTE: &str = "_codemode_driver";

/// A boxed call future.
pub(crate) type CallFuture<T> = Pin<Box<dyn Future<Output = PyResult<T>> + Send>>;

/// What the driver's queue holds: a task it can poll.
trait Pollable: Send + Sync {
    /// Polls the task on the loop's thread (attached); sets its asyncio future when done.
    fn poll_on_loop(self: Arc<Self>, py: Python<'_>);
    /// Moves the future to a tokio task (its asyncio future was cancelled).
    fn hand_off(&self);
}

thread_local! {
    /// While this thread polls a call for an event loop: that loop's address.
    static POLLING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The address of the event loop this thread is polling a call for right now (the loop's
/// own thread, the GIL released), if any: work for that loop can be handed to it here,
/// without another thread.
pub(crate) fn polling_loop() -> Option<usize> {
    match POLLING.with(std::cell::Cell::get) {
        0 => None,
        address => Some(address),
    }
}

/// Sets [`POLLING`] for its life.
struct Polling(usize);

impl Polling {
    fn enter(address: usize) -> Polling {
        Polling(POLLING.with(|polling| polling.replace(address)))
    }
}

impl Drop for Polling {
    fn drop(&mut self) {
        POLLING.with(|polling| polling.set(self.0));
    }
}

/// The shared part of a loop's driver.
struct Shared {
    /// The loop's address (the loop holds the driver, so it outlives every poll).
    event_loop: usize,
    read: UnixStream,
    write: UnixStream,
    ready: Mutex<Vec<Arc<dyn Pollable>>>,
    signaled: AtomicBool,
}

impl Shared {
    fn push(&self, task: Arc<dyn Pollable>) {
        self.ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(task);
        if !self.signaled.swap(true, Ordering::SeqCst) {
            // A full socket already holds a wake-up; a closed one has no loop to wake.
            let _ = (&self.write).write(&[1]);
        }
    }
}

/// The driver of one event loop (kept on the loop object).
#[pyclass(module = "codemode._native", frozen)]
pub(crate) struct Driver {
    shared: Arc<Shared>,
}

/// The loop's reader callback: polls the queued tasks.
#[pyclass(module = "codemode._native", frozen)]
struct Drain {
    shared: Arc<Shared>,
}

#[pymethods]
impl Drain {
    fn __call__(&self, py: Python<'_>) {
        // The order is what keeps wake-ups from being lost: empty the socket first, then
        // clear `signaled`, then take the queue. A push that lands before the clear saw
        // `signaled` set and wrote nothing, but its task is queued before the take; a push
        // after the clear writes a byte this call has not read, so the loop comes back.
        // (Clearing first let a push's byte be read here while `signaled` stayed set: no
        // later push wrote, and the loop never drained again.)
        let mut bytes = [0u8; 64];
        while let Ok(n) = (&self.shared.read).read(&mut bytes) {
            if n < bytes.len() {
                break;
            }
        }
        self.shared.signaled.store(false, Ordering::SeqCst);
        let tasks = std::mem::take(
            &mut *self
                .shared
                .ready
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for task in tasks {
            task.poll_on_loop(py);
        }
    }
}

/// The driver of `event_loop` (the running loop, on its thread): the one it holds, or a
/// new one registered with `add_reader`. `None` when the loop cannot hold one.
fn driver_of(event_loop: &Bound<'_, PyAny>) -> PyResult<Option<Arc<Shared>>> {
    let py = event_loop.py();
    if let Ok(held) = event_loop.getattr(intern!(py, ATTRIBUTE))
        && let Ok(driver) = held.cast::<Driver>()
    {
        return Ok(Some(driver.get().shared.clone()));
    }
    let (read, write) = UnixStream::pair()
        .map_err(|err| crate::exception(py, "HOST_FAILED", &format!("socketpair: {err}")))?;
    for end in [&read, &write] {
        end.set_nonblocking(true).map_err(|err| {
            crate::exception(py, "HOST_FAILED", &format!("a non-blocking socket: {err}"))
        })?;
    }
    let shared = Arc::new(Shared {
        event_loop: event_loop.as_ptr() as usize,
        read,
        write,
        ready: Mutex::new(Vec::new()),
        signaled: AtomicBool::new(false),
    });
    let driver = Bound::new(
        py,
        Driver {
            shared: shared.clone(),
        },
    )?;
    if event_loop.setattr(intern!(py, ATTRIBUTE), driver).is_err() {
        return Ok(None);
    }
    let fd = shared.read.as_raw_fd();
    let registered = event_loop.call_method1(
        intern!(py, "add_reader"),
        (
            fd,
            Drain {
                shared: shared.clone(),
            },
        ),
    );
    if registered.is_err() {
        let _ = event_loop.delattr(intern!(py, ATTRIBUTE));
        return Ok(None);
    }
    Ok(Some(shared))
}

/// One call's future, polled on its loop.
struct LoopTask<T> {
    future: Mutex<Option<CallFuture<T>>>,
    target: Py<PyAny>,
    shared: Arc<Shared>,
    queued: AtomicBool,
    runtime: &'static tokio::runtime::Runtime,
}

impl<T: Send + 'static> Wake for LoopTask<T>
where
    T: for<'a> IntoPyObject<'a>,
{
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if !self.queued.swap(true, Ordering::SeqCst) {
            self.shared.push(self.clone());
        }
    }
}

impl<T: Send + 'static> Pollable for LoopTask<T>
where
    T: for<'a> IntoPyObject<'a>,
{
    fn poll_on_loop(self: Arc<Self>, py: Python<'_>) {
        self.queued.store(false, Ordering::SeqCst);
        let waker = Waker::from(self.clone());
        let mut slot = self.future.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(future) = slot.as_mut() else {
            return; // finished, or handed to tokio
        };
        let runtime = self.runtime;
        let event_loop = self.shared.event_loop;
        let polled = py.detach(|| {
            let _context = runtime.enter();
            let _polling = Polling::enter(event_loop);
            let mut cx = Context::from_waker(&waker);
            std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(&mut cx)))
        });
        let result = match polled {
            Ok(Poll::Pending) => return,
            Ok(Poll::Ready(result)) => result.and_then(|value| value.into_bound_py_any(py)),
            Err(panic) => Err(crate::panic_error(py, &crate::panic_text(panic.as_ref()))),
        };
        *slot = None;
        drop(slot);
        // The error of a cancelled or closed future has nobody to go to.
        let _ = settle(self.target.bind(py), result);
    }

    fn hand_off(&self) {
        let taken = self
            .future
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(future) = taken {
            self.runtime.spawn(async move {
                // Nobody reads the outcome of a cancelled call; it only has to end.
                let _ = AssertUnwindSafe(future).catch_unwind().await;
            });
        }
    }
}

/// Sets `future`'s result (or exception) unless it is cancelled.
fn settle(future: &Bound<'_, PyAny>, result: PyResult<Bound<'_, PyAny>>) -> PyResult<()> {
    let py = future.py();
    if future.call_method0(intern!(py, "done"))?.is_truthy()? {
        return Ok(());
    }
    match result {
        Ok(value) => future.call_method1(intern!(py, "set_result"), (value,))?,
        Err(err) => future.call_method1(intern!(py, "set_exception"), (err,))?,
    };
    Ok(())
}

/// When its asyncio future is cancelled: fires the call's token and moves the call to tokio.
#[pyclass(module = "codemode._native", frozen)]
struct OnCancel {
    token: CancellationToken,
    task: Arc<dyn Pollable>,
}

#[pymethods]
impl OnCancel {
    fn __call__(&self, future: &Bound<'_, PyAny>) -> PyResult<()> {
        if future
            .call_method0(intern!(future.py(), "cancelled"))?
            .is_truthy()?
        {
            self.token.cancel();
            self.task.hand_off();
        }
        Ok(())
    }
}

/// Drives `future` on `event_loop` (the running loop; this is its thread) and returns the
/// asyncio future of its result; polled once now. `Err(future)` back when the loop cannot
/// hold a driver.
pub(crate) fn drive<'py, T>(
    event_loop: &Bound<'py, PyAny>,
    runtime: &'static tokio::runtime::Runtime,
    token: CancellationToken,
    future: CallFuture<T>,
) -> PyResult<Result<Bound<'py, PyAny>, CallFuture<T>>>
where
    T: for<'a> IntoPyObject<'a> + Send + 'static,
{
    let py = event_loop.py();
    let Some(shared) = driver_of(event_loop)? else {
        return Ok(Err(future));
    };
    let target = event_loop.call_method0(intern!(py, "create_future"))?;
    let task = Arc::new(LoopTask {
        future: Mutex::new(Some(future)),
        target: target.clone().unbind(),
        shared,
        queued: AtomicBool::new(false),
        runtime,
    });
    task.clone().poll_on_loop(py);
    if !target.call_method0(intern!(py, "done"))?.is_truthy()? {
        target.call_method1(
            intern!(py, "add_done_callback"),
            (OnCancel { token, task },),
        )?;
    }
    Ok(Ok(target))
}
