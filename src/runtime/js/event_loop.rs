//! The event loop of one run: microtasks, unhandled rejections, timers and host calls, until
//! the program's promise settles.
//!
//! Each turn: run the microtask queue to its end; stop if the run was stopped; read the
//! program's promise; fail the run on the first failure outside that promise (a rejection
//! nobody handled by the end of the checkpoint, a throwing timer callback); fire one due
//! timer; and when nothing can run, wait on this thread for a host call's answer, the next
//! timer or a stop. With no host call and no timer pending and the promise still pending,
//! nothing can ever settle it: the loop says so at once.
//!
//! The futures of host calls are polled here, on the engine thread: the seam's contract is
//! that a host does its real work elsewhere and its future only waits for the answer (polls
//! count as the program's compute time).
//!
//! This module owns the turn order; it must not know about budgets' numbers or outcomes.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;

use deno_core::v8;
use futures::StreamExt;

use super::natives::{Answered, RunState, rejected};
use super::sandbox::{Sandbox, Thrown};
use crate::error::ErrorCode;
use crate::json::{JsonValue, check_lossless_within, write_text};
use crate::runtime::CallError;

/// How the event loop left the program.
pub(crate) enum Settled {
    Fulfilled(v8::Global<v8::Value>),
    Rejected(v8::Global<v8::Value>),
    Uncaught(String),
    NeverSettles,
    Stopped,
}

/// Drives the run until `promise` settles, the run fails outside it, can never settle, or is
/// stopped.
pub(crate) async fn run_until_settled(
    sandbox: &mut Sandbox,
    run: &RunState,
    promise: &v8::Global<v8::Promise>,
) -> Settled {
    loop {
        if let Some(settled) = checkpoint(sandbox, run, promise) {
            return settled;
        }
        match fire_due_timer(sandbox, run) {
            Timer::Over(settled) => return settled,
            Timer::Fired => continue,
            Timer::NoneDue => {}
        }
        if run.calls.borrow().is_empty() && run.timers.borrow().is_empty() {
            return Settled::NeverSettles;
        }
        // Unconstrained: under tokio's cooperative budget, a host future that is a tokio
        // channel returns Pending once the task's budget is spent and wakes itself at once,
        // so each turn re-polled every pending call: quadratic for a large Promise.all.
        match tokio::task::unconstrained(wait(run)).await {
            None => return Settled::Stopped,
            Some(answers) => answer_calls(sandbox, run, answers),
        }
    }
}

/// Runs the microtasks; how things stand afterwards, if the run is over.
fn checkpoint(
    sandbox: &mut Sandbox,
    run: &RunState,
    promise: &v8::Global<v8::Promise>,
) -> Option<Settled> {
    let unhandled = {
        v8::scope_with_context!(let scope, &mut sandbox.isolate, &sandbox.context);
        scope.perform_microtask_checkpoint();
        if run.stop.reason().is_some() {
            return Some(Settled::Stopped);
        }
        let promise = v8::Local::new(scope, promise);
        match promise.state() {
            v8::PromiseState::Pending => {}
            v8::PromiseState::Fulfilled => {
                return Some(Settled::Fulfilled(v8::Global::new(
                    scope,
                    promise.result(scope),
                )));
            }
            v8::PromiseState::Rejected => {
                return Some(Settled::Rejected(v8::Global::new(
                    scope,
                    promise.result(scope),
                )));
            }
        }
        if let Some(message) = run.uncaught.borrow_mut().take() {
            return Some(Settled::Uncaught(message));
        }
        let mut rejections = run.rejections.borrow_mut();
        let first = rejections.drain(..).next();
        first.map(|(_, reason)| reason)
    };
    let reason = unhandled?;
    Some(match sandbox.describe_thrown(&reason) {
        Ok(message) => Settled::Uncaught(format!("Uncaught (in promise) {message}")),
        Err(_) => Settled::Stopped,
    })
}

enum Timer {
    NoneDue,
    Fired,
    /// The callback threw, or the run was stopped while it ran.
    Over(Settled),
}

/// Calls the callback of one due timer, if one is due; a throwing callback fails the run.
fn fire_due_timer(sandbox: &mut Sandbox, run: &RunState) -> Timer {
    let due = run.timers.borrow_mut().take_due(std::time::Instant::now());
    let Some((id, repeats)) = due else {
        return Timer::NoneDue;
    };
    let thrown = match sandbox.fire_timer(id, repeats) {
        // Nothing thrown and nothing pending: the callback is done with.
        Ok(()) | Err(Thrown::Nothing) => return Timer::Fired,
        Err(Thrown::Terminated) => return Timer::Over(Settled::Stopped),
        Err(Thrown::Threw(_)) if run.stop.reason().is_some() => {
            return Timer::Over(Settled::Stopped);
        }
        Err(Thrown::Threw(thrown)) => thrown,
    };
    Timer::Over(match sandbox.describe_thrown(&thrown) {
        Ok(message) => Settled::Uncaught(message),
        Err(_) => Settled::Stopped,
    })
}

/// Waits for host answers (all that are ready), the next timer, or a stop (`None`).
async fn wait(run: &RunState) -> Option<Vec<Answered>> {
    let deadline = run.timers.borrow().next_deadline();
    let mut timer = deadline.map(|due| Box::pin(tokio::time::sleep_until(due.into())));
    let mut stopped = pin!(run.stop.stopped());
    poll_fn(|cx| {
        if stopped.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        let mut answers = Vec::new();
        {
            let mut calls = run.calls.borrow_mut();
            while let Poll::Ready(Some(answer)) = calls.poll_next_unpin(cx) {
                answers.push(answer);
            }
        }
        if !answers.is_empty() {
            return Poll::Ready(Some(answers));
        }
        if let Some(timer) = timer.as_mut()
            && timer.as_mut().poll(cx).is_ready()
        {
            return Poll::Ready(Some(answers));
        }
        Poll::Pending
    })
    .await
}

/// Settles the program's promises of answered calls with `J<json>` or `E<CODE>:<message>`, and
/// releases their charge on the host budget.
fn answer_calls(sandbox: &mut Sandbox, run: &RunState, answers: Vec<Answered>) {
    let released: u64 = answers.iter().map(|(_, charge, _)| charge).sum();
    run.host_bytes
        .set(run.host_bytes.get().saturating_sub(released));
    sandbox.settle_calls(answers.into_iter().map(|(id, _, answer)| {
        let text = match answer {
            Ok(value) => accepted(&value, run.depth_limit),
            Err(error) => rejected(&error),
        };
        (id, text)
    }));
}

/// `J<json>` for a lossless value, `E<why not>` otherwise.
fn accepted(value: &JsonValue, depth_limit: usize) -> String {
    if let Err(err) = check_lossless_within(value, depth_limit) {
        return rejected(&CallError::new(
            ErrorCode::InvalidToolOutput,
            format!("the result is not lossless JSON: {err}"),
        ));
    }
    let mut text = String::with_capacity(64);
    text.push('J');
    write_text(value, &mut text);
    text
}
