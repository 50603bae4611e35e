//! The native functions the bootstrap holds, the isolate's callbacks, and the per-run state
//! they reach.
//!
//! The bootstrap receives one `host` object of natives and keeps them in its closure (a
//! program never sees it):
//! - `log(line)`: one console call; goes into the run's ledger at once, and stops the run
//!   when the logs exceed the output cap.
//! - `call(namespace, member, argsJson)`: one binding call. The host's
//!   [`BindingHost::call`](crate::runtime::BindingHost::call) is invoked synchronously, in
//!   submission order; its future is polled by the run's event loop on this thread (the
//!   seam's contract: hosts do their real work elsewhere) and dropped if the run ends first.
//!   Returns the call's id (a number; the bootstrap keeps the promise it hands the program
//!   and the host settles it by id through the host API's `settleCall`), or `E<message>`
//!   for a call refused at once. No engine handle is kept per call: a run may hold many
//!   thousands, and the bootstrap's map frees them with the heap.
//! - `uncaught(message)`: a failure outside the program's own promise (a throwing
//!   `queueMicrotask` callback); the first one fails the run.
//! - `createTimer(delay, repeat)` (the timer's id; the bootstrap keeps its callback and the
//!   event loop fires it by id through `fireTimer`), `cancelTimer(id)`, `enqueueMicrotask(fn)`.
//! - `kindsOf(value, mask)`: every type check the inspector and the JSON check need (`isProxy`,
//!   `isDate`, ...) as one bit each ([`KINDS`]), read by the engine from the value itself;
//!   `getPromiseDetails`, `getProxyDetails`.
//! - `loadInspector()`: the inspector ([`scripts`](super::scripts)) evaluated in the run's
//!   realm, on its first use.
//!
//! Isolate callbacks: unhandled promise rejections are recorded for the event loop (which
//! fails the run with the first one still unhandled after a microtask checkpoint), and the
//! near-heap-limit callback stops the run and, on QuickJS, raises the limit once by 8 MiB
//! for the unwinding: the heap stays within its budget plus about 9 MiB whatever the
//! program allocates (see `sandbox::engine_heap_limit`). On V8 the limit grows by at most
//! 32 MiB in a run, and an operation that needs more holds its thread (`out_of_memory`).
//!
//! This module owns the natives and [`RunState`]; it must not know how runs are driven.

use std::cell::RefCell;
use std::ffi::c_void;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use deno_core::v8;
use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;

use super::budget::{RunStop, StopReason};
use super::timers::Timers;
use crate::json::parse_lossless_within;
use crate::runtime::ledger::Ledger;
use crate::runtime::{BindingHost, CallAnswer, CallError};

/// What the natives of a running program reach (an isolate slot, set for the run).
pub(crate) struct RunState {
    /// Per namespace: the host and the member names, indexed as the bootstrap numbers them.
    pub(crate) namespaces: Vec<(Arc<dyn BindingHost>, Vec<String>)>,
    pub(crate) ledger: Arc<Mutex<Ledger>>,
    pub(crate) stop: Arc<RunStop>,
    /// Host calls not answered yet.
    pub(crate) calls: RefCell<FuturesUnordered<PendingCall>>,
    /// The id the next call gets (the bootstrap's key for the call's promise; below 2^53,
    /// so it is exact as a JavaScript number, and never reused within a run).
    pub(crate) next_call: std::cell::Cell<u64>,
    /// Host memory the pending calls hold, as charged by [`call_charge`].
    pub(crate) host_bytes: std::cell::Cell<u64>,
    /// The most host memory the pending calls may hold (the heap budget).
    pub(crate) host_budget: u64,
    /// How deep values crossing the run may nest (`max_json_depth`).
    pub(crate) depth_limit: usize,
    /// The most bytes of JSON one call's arguments may have (`max_call_bytes`; the
    /// bootstrap counts UTF-16 units, this counts the UTF-8 bytes).
    pub(crate) call_limit: u64,
    /// The timers, each known by its id (the bootstrap holds the callbacks).
    pub(crate) timers: RefCell<Timers>,
    /// The first failure outside the program's promise.
    pub(crate) uncaught: RefCell<Option<String>>,
    /// Rejected promises that had no handler when they were rejected, with their reasons.
    pub(crate) rejections: RefCell<Vec<(v8::Global<v8::Promise>, v8::Global<v8::Value>)>>,
}

impl RunState {
    pub(crate) fn new(
        namespaces: Vec<(Arc<dyn BindingHost>, Vec<String>)>,
        ledger: Arc<Mutex<Ledger>>,
        stop: Arc<RunStop>,
        host_budget: u64,
        depth_limit: usize,
        call_limit: u64,
    ) -> RunState {
        RunState {
            host_bytes: std::cell::Cell::new(0),
            host_budget,
            depth_limit,
            call_limit,
            namespaces,
            ledger,
            stop,
            calls: RefCell::new(FuturesUnordered::new()),
            next_call: std::cell::Cell::new(1),
            timers: RefCell::new(Timers::new()),
            uncaught: RefCell::new(None),
            rejections: RefCell::new(Vec::new()),
        }
    }
}

/// What a pending call is charged against the host budget: its argument text (held as
/// parsed JSON by the host, about twice the text) plus what the host keeps per call (the
/// call's future, its place in the bridge's lane, its record; measured in the benches'
/// `promise_all` figure).
pub(crate) fn call_charge(argument_bytes: usize) -> u64 {
    /// Host bytes per pending call besides its arguments.
    const PER_CALL: u64 = 2048;
    (argument_bytes as u64)
        .saturating_mul(2)
        .saturating_add(PER_CALL)
}

/// A host call in flight: its future, the id of the program's promise, and its charge.
pub(crate) struct PendingCall {
    id: u64,
    charge: u64,
    answer: BoxFuture<'static, CallAnswer>,
}

/// A call's id, its charge and its answer.
pub(crate) type Answered = (u64, u64, CallAnswer);

impl Future for PendingCall {
    type Output = Answered;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let polled = catch_unwind(AssertUnwindSafe(|| this.answer.as_mut().poll(cx)));
        match polled {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(answer)) => Poll::Ready((this.id, this.charge, answer)),
            Err(_) => Poll::Ready((
                this.id,
                this.charge,
                Err(CallError::host("the call failed (its host panicked)")),
            )),
        }
    }
}

/// The run's state, from a scope of its isolate.
pub(crate) fn run_state(scope: &v8::PinScope<'_, '_>) -> Option<Rc<RunState>> {
    scope.get_slot::<Rc<RunState>>().cloned()
}

/// What the near-heap-limit callback of this thread's isolate knows of the run.
struct HeapWatch {
    stop: Arc<RunStop>,
    /// How much the heap limit has grown in this run.
    raised: usize,
    /// A program's run (its heap budget, in bytes), which V8's heap exhaustion may hold; or
    /// the type checker's run, which it may not (the limit grows as V8 embedders do).
    #[cfg_attr(not(feature = "v8"), allow(dead_code))]
    budget: Option<usize>,
}

thread_local! {
    /// The run the near-heap-limit callback stops: one isolate runs per engine thread.
    static HEAP_WATCH: RefCell<Option<HeapWatch>> = const { RefCell::new(None) };
}

/// Room the heap limit grows by once per run when it is reached, so the engine can settle
/// the out-of-memory error (rejecting a promise allocates) while the termination takes
/// effect at its next interrupt poll.
#[cfg(not(feature = "v8"))]
const UNWIND_HEADROOM: usize = 8 << 20;

/// On V8, how much the heap limit grows each time it is reached in a run ...
#[cfg(feature = "v8")]
const V8_HEAP_STEP: usize = 8 << 20;

/// ... and how much at most in all: past it V8 declares the heap exhausted (see
/// [`out_of_memory`]).
#[cfg(feature = "v8")]
const V8_HEAP_OVERRUN: usize = 32 << 20;

/// Sets (or clears) the run the heap callback of this thread's isolate stops.
///
/// `budget`: the program's heap budget in bytes; `None` for the type checker, whose thread
/// is never held (on V8 its limit grows by half each time it is reached).
pub(crate) fn watch_heap(stop: Option<Arc<RunStop>>, budget: Option<usize>) {
    HEAP_WATCH.with(|watch| {
        *watch.borrow_mut() = stop.map(|stop| HeapWatch {
            stop,
            raised: 0,
            budget,
        });
    });
}

/// Registers the isolate-wide callbacks: unhandled rejections, the heap limit and the
/// formatting of `error.stack`.
pub(crate) fn install_isolate_callbacks(isolate: &mut v8::Isolate) {
    isolate.set_promise_reject_callback(promise_rejected);
    isolate.set_prepare_stack_trace_callback(prepare_stack_trace);
    isolate.add_near_heap_limit_callback(near_heap_limit, std::ptr::null_mut());
    #[cfg(feature = "v8")]
    {
        isolate.set_oom_error_handler(out_of_memory);
        isolate.add_gc_prologue_callback(
            before_collection,
            std::ptr::null_mut(),
            v8::GCType::kGCTypeAll,
        );
    }
}

/// Near the heap limit: stop the run, and grow the limit a little for the unwinding.
///
/// On QuickJS the limit grows once per run, by [`UNWIND_HEADROOM`], and never again: after
/// that the allocation that reaches it fails, and the termination the stop requests takes
/// effect at the engine's next interrupt poll, so a program that catches the out-of-memory
/// error cannot go on allocating. (Raising the limit by half on every call, as V8 embedders
/// do, let such a program grow the heap without bound on QuickJS.)
///
/// V8 cannot fail an allocation: when the limit is not raised it declares the heap
/// exhausted. The termination takes effect at V8's next stack-guard check, which a program's
/// loop reaches at once but a single builtin filling a huge array does not; so the limit
/// grows by [`V8_HEAP_STEP`] a call, at most [`V8_HEAP_OVERRUN`] past the budget in a run.
/// Past that, returning the limit unchanged would not bound the heap either (V8 collects once
/// more, then lets the allocation through whatever its size, and declares the heap exhausted
/// at the next collection: [`out_of_memory`]), so the engine thread is held here, as there.
unsafe extern "C" fn near_heap_limit(_data: *mut c_void, current: usize, _initial: usize) -> usize {
    HEAP_WATCH.with(|watch| {
        let Ok(mut watch) = watch.try_borrow_mut() else {
            return current;
        };
        let Some(watch) = watch.as_mut() else {
            return current;
        };
        watch.stop.request(StopReason::Heap);
        #[cfg(feature = "v8")]
        if watch.budget.is_none() {
            return current.saturating_add((current / 2).max(16 << 20));
        }
        #[cfg(feature = "v8")]
        let room = V8_HEAP_STEP.min(V8_HEAP_OVERRUN.saturating_sub(watch.raised));
        // Past the overrun V8 would collect once more and then let the allocation through
        // anyway (its last resort), however large: the thread is held here instead.
        #[cfg(feature = "v8")]
        if room == 0 {
            watch.stop.request(StopReason::Heap);
            watch.stop.hold();
            loop {
                std::thread::park();
            }
        }
        #[cfg(not(feature = "v8"))]
        let room = if watch.raised == 0 {
            UNWIND_HEADROOM
        } else {
            0
        };
        watch.raised += room;
        current.saturating_add(room)
    })
}

/// Before each collection of a program's isolate, while it runs: V8 checks its heap limit
/// only when a full collection leaves the heap over it, so a program that allocates fast
/// inside one builtin (a dictionary doubling in `Array.prototype.fill` over a huge array)
/// can take far past the limit between two. Each collection compares the heap with the
/// budget plus the overrun, and past it holds the thread, as [`out_of_memory`] does.
#[cfg(feature = "v8")]
unsafe extern "C" fn before_collection(
    isolate: v8::UnsafeRawIsolatePtr,
    _type: v8::GCType,
    _flags: v8::GCCallbackFlags,
    _data: *mut c_void,
) {
    let Some(budget) = HEAP_WATCH.with(|watch| {
        watch
            .try_borrow()
            .ok()
            .and_then(|watch| watch.as_ref().and_then(|watch| watch.budget))
    }) else {
        return;
    };
    // SAFETY: V8 passes the isolate being collected, on its own thread, and it stays alive
    // for the whole callback; `Isolate` is a non-owning handle (dropping it disposes
    // nothing), and reading the heap's statistics neither allocates on the heap nor runs
    // JavaScript, which is what a collection callback may not do.
    let mut isolate = unsafe { v8::Isolate::from_raw_isolate_ptr_unchecked(isolate) };
    let used = isolate.get_heap_statistics().used_heap_size();
    if used > budget.saturating_add(V8_HEAP_OVERRUN) {
        hold_watched_run();
    }
}

/// Holds this engine thread for good if it runs a watched program (see [`out_of_memory`]);
/// returns otherwise.
#[cfg(feature = "v8")]
fn hold_watched_run() {
    let held = HEAP_WATCH.with(|watch| {
        let Ok(watch) = watch.try_borrow() else {
            return None;
        };
        // A program's run only: the type checker's caller does not expect its thread held.
        let stop = watch
            .as_ref()
            .filter(|watch| watch.budget.is_some())?
            .stop
            .clone();
        stop.request(StopReason::Heap);
        stop.hold();
        Some(())
    });
    if held.is_none() {
        return;
    }
    loop {
        std::thread::park();
    }
}

/// V8's heap is exhausted: past the budget and the overrun, inside one operation the
/// termination did not interrupt. V8 aborts the process when this handler returns, so it
/// does not return while a run is being watched: the run is marked held (its caller answers
/// `worker-exit` at once and the pool replaces the thread) and this engine thread sleeps for
/// good, keeping the isolate's memory (the budget plus the overrun; the engine refuses runs
/// after [`MAX_HELD`](super::pool::MAX_HELD) such threads). Outside a run (no program is
/// running) V8's own abort follows, as without the handler.
#[cfg(feature = "v8")]
unsafe extern "C" fn out_of_memory(_location: *const std::ffi::c_char, _details: &v8::OomDetails) {
    hold_watched_run();
}

/// An `ArrayBuffer` was refused for the isolate's buffer budget (V8; see
/// [`buffers`](super::buffers)): the run on this thread ends as a heap exhaustion. Called on
/// the isolate's thread when the program allocates; a refusal on another thread (none is
/// known) finds no run here and only fails the allocation.
#[cfg(feature = "v8")]
pub(crate) fn buffers_exhausted() {
    HEAP_WATCH.with(|watch| {
        if let Ok(watch) = watch.try_borrow()
            && let Some(watch) = watch.as_ref()
        {
            watch.stop.request(StopReason::Heap);
        }
    });
}

/// Records a promise rejected with no handler, and forgets it when a handler comes later.
unsafe extern "C" fn promise_rejected(message: v8::PromiseRejectMessage) {
    // SAFETY: `message` is the one the engine passed to this callback, valid for its whole
    // duration, and the engine calls it on the isolate's own thread while the isolate is
    // entered: exactly what a callback scope requires.
    v8::callback_scope!(unsafe scope, &message);
    let Some(run) = run_state(scope) else {
        return;
    };
    let promise = message.get_promise();
    match message.get_event() {
        v8::PromiseRejectEvent::PromiseRejectWithNoHandler => {
            let reason = message
                .get_value()
                .unwrap_or_else(|| v8::undefined(scope).into());
            let entry = (
                v8::Global::new(scope, promise),
                v8::Global::new(scope, reason),
            );
            run.rejections.borrow_mut().push(entry);
        }
        v8::PromiseRejectEvent::PromiseHandlerAddedAfterReject => {
            run.rejections
                .borrow_mut()
                .retain(|(rejected, _)| v8::Local::new(scope, rejected) != promise);
        }
        _ => {}
    }
}

/// `error.stack` as V8 writes it: `<name>: <message>`, then one `    at <frame>` line per call
/// site. Registering it matters on the QuickJS backend too: only with a callback registered
/// does the backend correct its call sites to V8's positions (a `new Error(...)` frame points
/// at `new`, as on V8), and hand them here.
fn prepare_stack_trace<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    error: v8::Local<'s, v8::Value>,
    sites: v8::Local<'s, v8::Array>,
) -> v8::Local<'s, v8::Value> {
    let text = {
        v8::tc_scope!(let scope, scope);
        let mut text = String::new();
        if let Ok(error) = v8::Local::<v8::Object>::try_from(error) {
            let property = |name: &str| -> Option<String> {
                let key = v8::String::new(scope, name)?;
                let value = error.get(scope, key.into())?;
                if value.is_undefined() {
                    return None;
                }
                Some(value.to_string(scope)?.to_rust_string_lossy(scope))
            };
            let name = property("name").unwrap_or_else(|| "Error".to_owned());
            let message = property("message").unwrap_or_default();
            text = match (name.is_empty(), message.is_empty()) {
                (false, false) => format!("{name}: {message}"),
                (true, _) => message,
                (false, true) => name,
            };
        }
        for index in 0..sites.length() {
            // A call site formats itself (`fn (file:line:col)`); one that cannot ends the list.
            let frame = sites
                .get_index(scope, index)
                .and_then(|site| v8::Local::<v8::Object>::try_from(site).ok())
                .and_then(|site| {
                    let key = v8::String::new(scope, "toString")?;
                    let format = site.get(scope, key.into())?;
                    let format = v8::Local::<v8::Function>::try_from(format).ok()?;
                    let frame = format.call(scope, site.into(), &[])?;
                    Some(frame.to_rust_string_lossy(scope))
                });
            let Some(frame) = frame else {
                break;
            };
            text.push_str("\n    at ");
            text.push_str(&frame);
        }
        text
    };
    match v8::String::new(scope, &text) {
        Some(text) => text.into(),
        None => v8::undefined(scope).into(),
    }
}

/// The natives of the `host` object: each name and its callback.
macro_rules! natives {
    ($callback:ident) => {
        $callback!(
            "log" => log,
            "call" => call,
            "uncaught" => uncaught,
            "createTimer" => create_timer,
            "cancelTimer" => cancel_timer,
            "enqueueMicrotask" => enqueue_microtask,
            "getPromiseDetails" => promise_details,
            "getProxyDetails" => proxy_details,
            "loadInspector" => load_inspector,
            "kindsOf" => kinds_of,
        )
    };
}

/// The `host` object handed to the bootstrap.
pub(crate) fn host_object<'s>(
    scope: &mut v8::PinScope<'s, '_>,
) -> Option<v8::Local<'s, v8::Object>> {
    let host = v8::Object::new(scope);
    #[cfg(feature = "v8")]
    for (name, callback) in native_callbacks() {
        let function = v8::Function::new_raw(scope, callback)?;
        let key = v8::String::new(scope, name)?;
        host.set(scope, key.into(), function.into())?;
    }
    #[cfg(not(feature = "v8"))]
    {
        macro_rules! set_natives {
            ($($name:literal => $callback:expr),* $(,)?) => {
                $(
                    let function = v8::Function::new(scope, $callback)?;
                    let key = v8::String::new(scope, $name)?;
                    host.set(scope, key.into(), function.into())?;
                )*
            };
        }
        natives!(set_natives);
    }
    Some(host)
}

/// The natives as V8 calls them: each name and the one address of its callback, which the
/// `host` object's functions hold and the startup snapshot's external references name (a
/// snapshot refers to a native by its address; each is taken once, here).
#[cfg(feature = "v8")]
pub(crate) fn native_callbacks() -> Vec<(&'static str, v8::FunctionCallback)> {
    use deno_core::v8::MapFnTo;
    macro_rules! callbacks {
        ($($name:literal => $callback:expr),* $(,)?) => {
            vec![$(($name, $callback.map_fn_to())),*]
        };
    }
    natives!(callbacks)
}

/// A predicate of [`KINDS`].
pub(crate) type KindTest = fn(&v8::Value) -> bool;

/// The predicates `kindsOf` answers, in bit order: `kindsOf(value, 1 << i)` is nonzero when
/// `KINDS[i].1(value)` holds. `js-runtime/` defines each predicate by its bit (`isProxy` in
/// the bootstrap, the others in the inspector; a test in `scripts.rs` checks the two sides
/// agree). One native for all of them: each native function costs a sandbox about as much to
/// make and to free as twenty of the bootstrap's own.
pub(crate) const KINDS: &[(&str, KindTest)] = &[
    ("isArrayBuffer", v8::Value::is_array_buffer),
    ("isAsyncFunction", v8::Value::is_async_function),
    ("isBigIntObject", v8::Value::is_big_int_object),
    ("isBooleanObject", v8::Value::is_boolean_object),
    ("isDate", v8::Value::is_date),
    ("isGeneratorFunction", v8::Value::is_generator_function),
    ("isMap", v8::Value::is_map),
    ("isNativeError", v8::Value::is_native_error),
    ("isNumberObject", v8::Value::is_number_object),
    ("isPromise", v8::Value::is_promise),
    ("isProxy", v8::Value::is_proxy),
    ("isRegExp", v8::Value::is_reg_exp),
    ("isSet", v8::Value::is_set),
    ("isSharedArrayBuffer", v8::Value::is_shared_array_buffer),
    ("isStringObject", v8::Value::is_string_object),
    ("isSymbolObject", v8::Value::is_symbol_object),
    ("isTypedArray", v8::Value::is_typed_array),
    ("isWeakMap", v8::Value::is_weak_map),
    ("isWeakSet", v8::Value::is_weak_set),
];

/// `kindsOf(value, mask)`: the bits of `mask` whose [`KINDS`] predicate holds for `value`
/// (none for a primitive); only the asked predicates are tested.
fn kinds_of(_: &mut v8::PinScope, args: v8::FunctionCallbackArguments, mut rv: v8::ReturnValue) {
    let value = args.get(0);
    // The bootstrap passes a number literal; nothing is converted (no valueOf can run).
    let mask = v8::Local::<v8::Uint32>::try_from(args.get(1)).map_or(0, |mask| mask.value());
    let mut bits = 0u32;
    if value.is_object() {
        for (bit, (_, holds)) in KINDS.iter().enumerate() {
            if mask & (1 << bit) != 0 && holds(&value) {
                bits |= 1 << bit;
            }
        }
    }
    rv.set_uint32(bits);
}

/// `loadInspector()`: evaluates the inspector in the caller's realm and returns its function
/// (of the imports); throws what the evaluation threw (out of memory, a stop).
fn load_inspector(
    scope: &mut v8::PinScope,
    _args: v8::FunctionCallbackArguments,
    mut rv: v8::ReturnValue,
) {
    if let Some(function) = super::scripts::INSPECTOR_SCRIPT.evaluate(scope) {
        rv.set(function);
    }
}

fn log(scope: &mut v8::PinScope, args: v8::FunctionCallbackArguments, _rv: v8::ReturnValue) {
    let Some(run) = run_state(scope) else {
        return;
    };
    let line = args.get(0).to_rust_string_lossy(scope);
    let accepted = run
        .ledger
        .lock()
        .map(|mut ledger| ledger.push(line))
        .unwrap_or(false);
    if !accepted {
        run.stop.request(StopReason::Output);
    }
}

fn uncaught(scope: &mut v8::PinScope, args: v8::FunctionCallbackArguments, _rv: v8::ReturnValue) {
    let Some(run) = run_state(scope) else {
        return;
    };
    let mut uncaught = run.uncaught.borrow_mut();
    if uncaught.is_none() {
        *uncaught = Some(args.get(0).to_rust_string_lossy(scope));
    }
}

fn call(scope: &mut v8::PinScope, args: v8::FunctionCallbackArguments, mut rv: v8::ReturnValue) {
    let started = match run_state(scope) {
        None => Err(CallError::host("no program is running")),
        Some(run) => start_call(scope, &run, &args).map(|answer| (run, answer)),
    };
    match started {
        Ok((run, (charge, answer))) => {
            let id = run.next_call.get();
            run.next_call.set(id + 1);
            run.calls
                .borrow_mut()
                .push(PendingCall { id, charge, answer });
            // Exact: a run cannot make 2^53 calls (at a microsecond each, 285 years).
            rv.set_double(id as f64);
        }
        Err(error) => {
            if let Some(text) = v8::String::new(scope, &rejected(&error)) {
                rv.set(text.into());
            }
        }
    }
}

/// The synchronous part of a call: check the arguments, charge the call against the host
/// budget (a run over it is stopped) and invoke the host; the charge and the answer.
fn start_call(
    scope: &mut v8::PinScope,
    run: &RunState,
    args: &v8::FunctionCallbackArguments,
) -> Result<(u64, BoxFuture<'static, CallAnswer>), CallError> {
    let index = |value: v8::Local<v8::Value>| {
        v8::Local::<v8::Int32>::try_from(value)
            .ok()
            .and_then(|number| usize::try_from(number.value()).ok())
    };
    let (host, members) = index(args.get(0))
        .and_then(|namespace| run.namespaces.get(namespace))
        .ok_or_else(|| CallError::host("unknown binding namespace"))?;
    let name = index(args.get(1))
        .and_then(|member| members.get(member))
        .ok_or_else(|| CallError::host("unknown binding"))?;
    let text = args.get(2).to_rust_string_lossy(scope);
    if text.len() as u64 > run.call_limit {
        return Err(CallError::invalid_args(format!(
            "the arguments are over the per-call limit: their JSON text is {} bytes, more than {} (runtime.max_call_bytes)",
            text.len(),
            run.call_limit
        )));
    }
    let charge = call_charge(text.len());
    let held = run.host_bytes.get().saturating_add(charge);
    if held > run.host_budget {
        run.stop.request(StopReason::HostMemory);
        return Err(CallError::host(
            "the run holds too much host memory in pending calls",
        ));
    }
    let arguments = parse_lossless_within(&text, run.depth_limit).map_err(|err| {
        CallError::invalid_args(format!("the arguments are not lossless JSON: {err}"))
    })?;
    let answer = catch_unwind(AssertUnwindSafe(|| host.call(name, arguments)))
        .map_err(|_| CallError::host("the call failed (its host panicked)"))?;
    run.host_bytes.set(held);
    Ok((charge, answer))
}

/// The answer text of a rejected call: `E<CODE>:<message>` (a code is `[A-Z_]+`).
pub(crate) fn rejected(error: &CallError) -> String {
    let code = error.code.as_str();
    let mut text = String::with_capacity(code.len() + error.message.len() + 2);
    text.push('E');
    text.push_str(code);
    text.push(':');
    text.push_str(&error.message);
    text
}

fn create_timer(
    scope: &mut v8::PinScope,
    args: v8::FunctionCallbackArguments,
    mut rv: v8::ReturnValue,
) {
    let Some(run) = run_state(scope) else {
        return;
    };
    let delay = v8::Local::<v8::Number>::try_from(args.get(0))
        .map(|number| number.value())
        .unwrap_or(0.0);
    let repeat = args.get(1).is_true();
    let id = run.timers.borrow_mut().start(delay, repeat);
    rv.set_uint32(id);
}

fn cancel_timer(
    scope: &mut v8::PinScope,
    args: v8::FunctionCallbackArguments,
    _rv: v8::ReturnValue,
) {
    let Some(run) = run_state(scope) else {
        return;
    };
    if let Ok(id) = v8::Local::<v8::Uint32>::try_from(args.get(0)) {
        run.timers.borrow_mut().cancel(id.value());
    }
}

fn enqueue_microtask(
    scope: &mut v8::PinScope,
    args: v8::FunctionCallbackArguments,
    _rv: v8::ReturnValue,
) {
    if let Ok(callback) = v8::Local::<v8::Function>::try_from(args.get(0)) {
        scope.enqueue_microtask(callback);
    }
}

/// `[state, result]`: state 0 pending, 1 fulfilled, 2 rejected.
fn promise_details(
    scope: &mut v8::PinScope,
    args: v8::FunctionCallbackArguments,
    mut rv: v8::ReturnValue,
) {
    let Ok(promise) = v8::Local::<v8::Promise>::try_from(args.get(0)) else {
        return;
    };
    let (state, result) = match promise.state() {
        v8::PromiseState::Pending => (0, v8::undefined(scope).into()),
        v8::PromiseState::Fulfilled => (1, promise.result(scope)),
        v8::PromiseState::Rejected => (2, promise.result(scope)),
    };
    let state = v8::Integer::new(scope, state).into();
    rv.set(v8::Array::new_with_elements(scope, &[state, result]).into());
}

/// `[target, handler]`, or `null` for a revoked proxy.
fn proxy_details(
    scope: &mut v8::PinScope,
    args: v8::FunctionCallbackArguments,
    mut rv: v8::ReturnValue,
) {
    let Ok(proxy) = v8::Local::<v8::Proxy>::try_from(args.get(0)) else {
        return;
    };
    if proxy.is_revoked() {
        rv.set_null();
        return;
    }
    let target = proxy.get_target(scope);
    let handler = proxy.get_handler(scope);
    rv.set(v8::Array::new_with_elements(scope, &[target, handler]).into());
}
