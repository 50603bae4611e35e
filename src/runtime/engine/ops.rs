//! The three ops the bootstrap uses, and the per-run state they reach.
//!
//! - `op_codemode_log(line)`: one console call; goes into the run's ledger at once, and stops
//!   the run when the logs exceed the output cap.
//! - `op_codemode_call(namespace, member, argsJson)`: one binding call. The host's
//!   [`BindingHost::call`] is invoked synchronously, in submission order; its future is
//!   spawned onto the caller's tokio runtime (never polled here, so tool time is not compute
//!   time) and aborted if the run ends first. Resolves to `J<json>` or `E<message>`.
//! - `op_codemode_uncaught(message)`: a failure outside the program's own promise (an
//!   unhandled rejection, a throwing timer callback); the first one fails the run.
//!
//! Only the bootstrap holds these functions: it deletes `Deno` before a program runs.
//! This module owns the ops and [`RunContext`]; it must not know how runs are driven.

use std::cell::RefCell;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use deno_core::{OpState, op2};
use tokio::task::{AbortHandle, JoinHandle};

use super::budget::{RunStop, StopReason};
use super::ledger::Ledger;
use crate::json::{JsonValue, check_lossless, parse_lossless};
use crate::runtime::BindingHost;

/// What the ops of a running program reach (stored in the runtime's `OpState`).
pub(crate) struct RunContext {
    /// Per namespace: the host and the member names, indexed as the bootstrap numbers them.
    pub(crate) namespaces: Vec<(Arc<dyn BindingHost>, Vec<String>)>,
    /// The tokio runtime that called `run`: host futures run there.
    pub(crate) handle: tokio::runtime::Handle,
    pub(crate) ledger: Arc<Mutex<Ledger>>,
    pub(crate) stop: Arc<RunStop>,
    /// Host futures still running; aborted when the run ends.
    pub(crate) in_flight: Vec<AbortHandle>,
    /// The first failure outside the program's promise.
    pub(crate) uncaught: Option<String>,
}

impl RunContext {
    /// Drops every host future that has not completed.
    pub(crate) fn abort_in_flight(&mut self) {
        for call in self.in_flight.drain(..) {
            call.abort();
        }
    }
}

deno_core::extension!(
    codemode_runtime,
    ops = [op_codemode_log, op_codemode_call, op_codemode_uncaught],
);

#[op2(fast)]
fn op_codemode_log(state: &mut OpState, #[string] line: String) {
    let Some(run) = state.try_borrow::<RunContext>() else {
        return;
    };
    let accepted = run
        .ledger
        .lock()
        .map(|mut ledger| ledger.push(line))
        .unwrap_or(false);
    if !accepted {
        run.stop.request(StopReason::Output);
    }
}

#[op2(fast)]
fn op_codemode_uncaught(state: &mut OpState, #[string] message: String) {
    if let Some(run) = state.try_borrow_mut::<RunContext>()
        && run.uncaught.is_none()
    {
        run.uncaught = Some(message);
    }
}

#[op2]
#[string]
fn op_codemode_call(
    state: Rc<RefCell<OpState>>,
    #[smi] namespace: u32,
    #[smi] member: u32,
    #[string] args: String,
) -> impl Future<Output = String> {
    let started = start_call(&state, namespace as usize, member as usize, &args);
    async move {
        match started {
            Err(message) => rejected(&message),
            Ok(call) => match call.await {
                Ok(Ok(value)) => match check_lossless(&value) {
                    Ok(()) => match serde_json::to_string(&value) {
                        Ok(text) => format!("J{text}"),
                        Err(err) => rejected(&format!("the result could not be serialized: {err}")),
                    },
                    Err(err) => rejected(&format!("the result is not lossless JSON: {err}")),
                },
                Ok(Err(message)) => rejected(&message),
                Err(join) if join.is_panic() => rejected("the call failed (its host panicked)"),
                Err(_) => rejected("the call was cancelled"),
            },
        }
    }
}

fn rejected(message: &str) -> String {
    format!("E{message}")
}

type HostCall = JoinHandle<Result<JsonValue, String>>;

/// The synchronous part of a call: check the arguments, invoke the host, spawn its future.
fn start_call(
    state: &Rc<RefCell<OpState>>,
    namespace: usize,
    member: usize,
    args: &str,
) -> Result<HostCall, String> {
    let (host, name, handle) = {
        let state = state.borrow();
        let run = state
            .try_borrow::<RunContext>()
            .ok_or_else(|| "no program is running".to_owned())?;
        let (host, members) = run
            .namespaces
            .get(namespace)
            .ok_or_else(|| "unknown binding namespace".to_owned())?;
        let name = members
            .get(member)
            .ok_or_else(|| "unknown binding".to_owned())?;
        (host.clone(), name.clone(), run.handle.clone())
    };
    let args = parse_lossless(args)
        .map_err(|err| format!("the arguments are not lossless JSON: {err}"))?;
    let future = catch_unwind(AssertUnwindSafe(|| host.call(&name, args)))
        .map_err(|_| "the call failed (its host panicked)".to_owned())?;
    let call = handle.spawn(future);
    if let Some(run) = state.borrow_mut().try_borrow_mut::<RunContext>() {
        if run.in_flight.len() >= 64 {
            run.in_flight.retain(|call| !call.is_finished());
        }
        run.in_flight.push(call.abort_handle());
    }
    Ok(call)
}
