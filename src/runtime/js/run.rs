//! One run, on its engine thread: from a program and a fresh runtime to an outcome.
//!
//! The program is stripped and wrapped ([`crate::runtime::strip`]), the namespaces installed,
//! the script evaluated (its completion value is the program's promise), and the event loop
//! driven until the promise settles, a failure escapes it, the event loop runs dry with the
//! promise still pending (it can never settle), or the run is stopped. The settled value
//! crosses the lossless-JSON check; the output ledger decides whether it fits.
//!
//! This module owns the sequence of a run and the failure messages; it must not know about
//! threads or the pool.

use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deno_core::v8;
use tokio::sync::oneshot;

use super::budget::{RunStop, StopReason, TimeBudget, Watchdog};
use super::event_loop::{self, Settled};
use super::natives::{RunState, watch_heap};
use super::sandbox::{Sandbox, ScriptFailure};
use super::strip::{PROGRAM_FILE, PreparedProgram, prepare_program};
use crate::json::parse_lossless_within;
use crate::runtime::ledger::{Ending, Ledger, failed, settle_output};
use crate::runtime::{BindingNamespace, CallStyle, CodeRunErrorKind, CodeRunOutcome, EngineConfig};

/// A run handed to an engine thread.
pub(crate) struct Job {
    pub(crate) program: String,
    pub(crate) namespaces: Vec<BindingNamespace>,
    pub(crate) stop: Arc<RunStop>,
    /// Shared with the caller, so logs survive even if the engine thread dies.
    pub(crate) ledger: Arc<Mutex<Ledger>>,
    pub(crate) reply: oneshot::Sender<CodeRunOutcome>,
}

/// What a run leaves behind for its thread to free after the answer is sent (its pending
/// calls and timers); drop it before the sandbox it ran in.
pub(crate) struct Leftovers {
    run: Option<Rc<RunState>>,
}

impl Leftovers {
    /// Whether binding calls are still pending: dropping them runs the host's code (its call
    /// futures), whose cost the engine cannot bound.
    pub(crate) fn holds_host_calls(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|run| !run.calls.borrow().is_empty())
    }
}

/// Runs `job` in `sandbox` (which is spent afterwards) and returns the outcome, with what
/// the run left behind.
pub(crate) async fn execute(
    sandbox: &mut Sandbox,
    job: &Job,
    watchdog: &Watchdog,
    config: &EngineConfig,
) -> (CodeRunOutcome, Leftovers) {
    let (ending, leftovers) = match prepare_program(&job.program) {
        Err(error) => (failed(CodeRunErrorKind::Exception, error.message), None),
        Ok(prepared) => {
            let run = Rc::new(RunState::new(
                job.namespaces
                    .iter()
                    .map(|namespace| (namespace.host.clone(), namespace.members.clone()))
                    .collect(),
                job.ledger.clone(),
                job.stop.clone(),
                config.heap_bytes() as u64,
                config.max_json_depth,
                config.max_call_bytes,
            ));
            sandbox.isolate.set_slot(run.clone());
            watch_heap(Some(job.stop.clone()), Some(config.heap_bytes()));
            job.stop.attach(sandbox.isolate.thread_safe_handle());
            let budget = TimeBudget {
                compute: Duration::from_millis(config.compute_ms),
                wall: Duration::from_millis(config.wall_ms),
            };
            let watch = watchdog.watch(job.stop.clone(), budget);
            let ending = drive(sandbox, &run, prepared, job, config).await;
            drop(watch);
            job.stop.detach();
            watch_heap(None, None);
            // Host calls still in flight are dropped with the run's state, after the answer
            // and before the isolate their handles belong to.
            sandbox.isolate.remove_slot::<Rc<RunState>>();
            (ending, Some(run))
        }
    };
    (
        settle_output(ending, &job.ledger),
        Leftovers { run: leftovers },
    )
}

/// The outcome of a run its caller stopped waiting for: what it printed, and why it was
/// stopped. The same text as a run the engine ended itself: the model's view does not
/// depend on which side was first (the pool's log says it).
pub(crate) fn written_off_outcome(
    stop: &RunStop,
    ledger: &Mutex<Ledger>,
    config: &EngineConfig,
) -> CodeRunOutcome {
    settle_output(stop_ending(stop, config), ledger)
}

/// Installs the namespaces, evaluates the program and drives the event loop until its
/// promise settles (or the run ends otherwise); the ending that follows.
async fn drive(
    sandbox: &mut Sandbox,
    run: &RunState,
    prepared: PreparedProgram,
    job: &Job,
    config: &EngineConfig,
) -> Ending {
    let promise = match start_program(sandbox, &prepared, job, config) {
        Ok(promise) => promise,
        Err(ending) => return ending,
    };
    let settled = event_loop::run_until_settled(sandbox, run, &promise).await;
    settled_ending(sandbox, settled, job, config)
}

/// Installs the namespaces and evaluates the script: the program's promise, or the ending
/// when it cannot start.
fn start_program(
    sandbox: &mut Sandbox,
    prepared: &PreparedProgram,
    job: &Job,
    config: &EngineConfig,
) -> Result<v8::Global<v8::Promise>, Ending> {
    let stop = &*job.stop;
    install_namespaces(sandbox, prepared, job, config)?;
    let completion = match sandbox.run_script(PROGRAM_FILE, &prepared.script) {
        Ok(completion) => completion,
        Err(ScriptFailure::Threw(message)) => {
            let message = with_member_hint(sandbox, job, message);
            return Err(stopped_or(stop, config, thrown(message, config)));
        }
        Err(ScriptFailure::Terminated) => {
            return Err(stopped_or(
                stop,
                config,
                failed(
                    CodeRunErrorKind::WorkerExit,
                    "the engine terminated the program",
                ),
            ));
        }
    };
    completion_promise(sandbox, &completion)
}

/// Installs the run's binding namespaces (the bootstrap's `prepareRun`), or the ending when
/// they cannot be installed.
fn install_namespaces(
    sandbox: &mut Sandbox,
    prepared: &PreparedProgram,
    job: &Job,
    config: &EngineConfig,
) -> Result<(), Ending> {
    let spec = namespace_spec(&job.namespaces);
    if sandbox
        .prepare_run(
            &spec,
            config.max_call_bytes,
            prepared.lines,
            config.max_json_depth,
        )
        .is_err()
    {
        return Err(stopped_or(
            &job.stop,
            config,
            failed(
                CodeRunErrorKind::Exception,
                "the binding namespaces could not be installed",
            ),
        ));
    }
    Ok(())
}

/// The script's completion value as the program's promise (marked handled), or the ending
/// when it is not one.
fn completion_promise(
    sandbox: &mut Sandbox,
    completion: &v8::Global<v8::Value>,
) -> Result<v8::Global<v8::Promise>, Ending> {
    v8::scope_with_context!(let scope, &mut sandbox.isolate, &sandbox.context);
    let completion = v8::Local::new(scope, completion);
    match v8::Local::<v8::Promise>::try_from(completion) {
        Ok(promise) => {
            // The host reads the outcome from the promise itself: no handler is needed.
            promise.mark_as_handled();
            Ok(v8::Global::new(scope, promise))
        }
        Err(_) => Err(failed(
            CodeRunErrorKind::Exception,
            "the program closed the function it runs in (an unbalanced `}`)",
        )),
    }
}

/// The ending for how the program's promise settled.
fn settled_ending(
    sandbox: &mut Sandbox,
    settled: Settled,
    job: &Job,
    config: &EngineConfig,
) -> Ending {
    let stop = &*job.stop;
    match settled {
        Settled::Stopped => stop_ending(stop, config),
        // On V8 the heap limit is soft (it grows for the unwinding, and V8 lets one last
        // allocation through after its last-resort collection): a program can finish after
        // it passed its heap budget, and still failed it.
        Settled::Fulfilled(_) if stop.reason() == Some(StopReason::Heap) => {
            stop_ending(stop, config)
        }
        // V8 checks its limit at collections, and the first object of its young
        // large-object space is allocated whatever its size: a program that made one huge
        // value (a 100 MiB `JSON.stringify`) and finished before a collection passed its
        // budget unseen. It failed it all the same.
        #[cfg(feature = "v8")]
        Settled::Fulfilled(_) if sandbox.heap_used() > config.heap_bytes() => {
            stop.request(StopReason::Heap);
            stop_ending(stop, config)
        }
        Settled::Fulfilled(value) => fulfilled_ending(sandbox, &value, job, config),
        Settled::Rejected(error) => match sandbox.describe_thrown(&error) {
            Ok(message) => thrown(with_member_hint(sandbox, job, message), config),
            Err(_) => stopped_or(
                stop,
                config,
                failed(
                    CodeRunErrorKind::Exception,
                    "the program threw a value that could not be described",
                ),
            ),
        },
        Settled::Uncaught(message) => {
            let message = with_member_hint(sandbox, job, message);
            stopped_or(stop, config, thrown(message, config))
        }
        Settled::NeverSettles => failed(
            CodeRunErrorKind::Exception,
            "the program can never finish: it awaits a promise that nothing will settle (no binding call, timer or other work is pending). Resolve or remove that promise.",
        ),
    }
}

/// The ending for a fulfilled promise: no value for `undefined`, else the value as checked
/// lossless JSON within what the ledger has left.
fn fulfilled_ending(
    sandbox: &mut Sandbox,
    value: &v8::Global<v8::Value>,
    job: &Job,
    config: &EngineConfig,
) -> Ending {
    let undefined = {
        v8::scope_with_context!(let scope, &mut sandbox.isolate, &sandbox.context);
        v8::Local::new(scope, value).is_undefined()
    };
    if undefined {
        return Ending::Value {
            value: None,
            bytes: 0,
        };
    }
    let remaining = job
        .ledger
        .lock()
        .map(|ledger| ledger.remaining())
        .unwrap_or(0);
    match sandbox.check_lossless(value, remaining) {
        Err(_) => stopped_or(
            &job.stop,
            config,
            failed(
                CodeRunErrorKind::InvalidOutput,
                "the return value could not be checked",
            ),
        ),
        Ok(checked) => completion_value(&checked, config.max_json_depth),
    }
}

/// The value from the bootstrap's check: `J<json>`, `E<path: reason>` or `L<reason>`.
fn completion_value(checked: &str, depth_limit: usize) -> Ending {
    let (tag, rest) = checked.split_at(checked.len().min(1));
    match tag {
        "J" => match parse_lossless_within(rest, depth_limit) {
            Ok(value) => Ending::Value {
                value: Some(value),
                bytes: rest.len() as u64,
            },
            Err(error) => failed(
                CodeRunErrorKind::InvalidOutput,
                format!("the return value is not lossless JSON: {error}"),
            ),
        },
        "L" => Ending::Oversized,
        _ => failed(
            CodeRunErrorKind::InvalidOutput,
            format!("the return value is not lossless JSON: {rest}"),
        ),
    }
}

/// The ending for a stopped run, or `otherwise` when nothing stopped it.
fn stopped_or(stop: &RunStop, config: &EngineConfig, otherwise: Ending) -> Ending {
    if stop.reason().is_some() {
        stop_ending(stop, config)
    } else {
        otherwise
    }
}

fn stop_ending(stop: &RunStop, config: &EngineConfig) -> Ending {
    use CodeRunErrorKind::*;
    match stop.reason() {
        Some(StopReason::Compute) => failed(
            Timeout,
            format!(
                "compute budget exceeded: the program ran JavaScript for {} ms of CPU time (an endless loop, or too much work for one run)",
                config.compute_ms
            ),
        ),
        Some(StopReason::Wall) => failed(
            Timeout,
            format!(
                "wall-time budget exceeded: the run took longer than {} ms (it was still waiting on binding calls or timers)",
                config.wall_ms
            ),
        ),
        Some(StopReason::Abort) => failed(Abort, "the run was cancelled by its caller"),
        Some(StopReason::Shutdown) => failed(Abort, "the engine shut down during the run"),
        Some(StopReason::Heap) => failed(
            WorkerExit,
            format!(
                "the program ran out of memory: the JavaScript heap limit is {} MiB",
                config.heap_mb
            ),
        ),
        Some(StopReason::HostMemory) => failed(
            WorkerExit,
            format!(
                "the program ran out of memory: its pending binding calls hold more than the {} MiB heap limit on the host; await the calls in smaller batches",
                config.heap_mb
            ),
        ),
        // The ledger reports this one (settle_output).
        Some(StopReason::Output) => failed(OutputLimit, "the logs exceeded the output cap"),
        None => failed(WorkerExit, "the engine stopped the program"),
    }
}

/// The engine's own out-of-memory errors (QuickJS, V8): an allocation the heap limit refused.
const OUT_OF_MEMORY: [&str; 2] = [
    "InternalError: out of memory",
    "RangeError: Array buffer allocation failed",
];

/// The ending for an uncaught thrown value: an exception, except that the engine's own
/// out-of-memory error means the program exhausted its heap.
fn thrown(message: String, config: &EngineConfig) -> Ending {
    let unprefixed = message
        .strip_prefix("Uncaught (in promise) ")
        .unwrap_or(&message);
    if OUT_OF_MEMORY.iter().any(|oom| unprefixed.starts_with(oom)) {
        return failed(
            CodeRunErrorKind::WorkerExit,
            format!(
                "the program ran out of memory: the JavaScript heap limit is {} MiB ({unprefixed})",
                config.heap_mb
            ),
        );
    }
    failed(CodeRunErrorKind::Exception, message)
}

/// `message` (what a failed run reports) with the hint of a member the program called but
/// the namespace does not have: when it is the engine's `TypeError` for calling something
/// of a namespace that is not a function (`tools is not a function` on QuickJS,
/// `tools[name] is not a function` on V8) and the program asked that namespace for a key it
/// does not have, the first line ends with `(tools has no member "list_issue"; did you mean
/// list_issues?)`: the last such key, and what the namespace's host suggests
/// ([`BindingHost::unknown_member`](crate::runtime::BindingHost::unknown_member)).
fn with_member_hint(sandbox: &mut Sandbox, job: &Job, message: String) -> String {
    let globals: Vec<&str> = job.namespaces.iter().map(|n| n.global.as_str()).collect();
    let Some((index, at)) = not_a_function_of(&message, &globals) else {
        return message;
    };
    let Ok(Some(name)) = sandbox.missing_member(index) else {
        return message;
    };
    let namespace = &job.namespaces[index];
    let suggestion = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        namespace.host.unknown_member(&name, &namespace.members)
    }))
    .ok()
    .flatten();
    let quoted = serde_json::Value::String(name).to_string();
    let hint = match suggestion {
        Some(suggestion) => format!(
            " ({} has no member {quoted}; {suggestion})",
            namespace.global
        ),
        None => format!(" ({} has no member {quoted})", namespace.global),
    };
    let mut message = message;
    message.insert_str(at, &hint);
    message
}

/// Whether the first line of `message` is the engine's `TypeError` for calling something of
/// the namespace `globals[i]` that is not a function: `i` and where the line ends.
fn not_a_function_of(message: &str, globals: &[&str]) -> Option<(usize, usize)> {
    let end = message.find('\n').unwrap_or(message.len());
    let line = &message[..end];
    let line = line.strip_prefix("Uncaught (in promise) ").unwrap_or(line);
    let callee = line
        .strip_prefix("TypeError: ")?
        .strip_suffix(" is not a function")?;
    let index = globals.iter().position(|global| {
        callee
            .strip_prefix(global)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[', '?']))
    })?;
    Some((index, end))
}

/// The namespaces as the bootstrap's `prepareRun` reads them.
fn namespace_spec(namespaces: &[BindingNamespace]) -> String {
    /// One namespace, written straight from borrowed fields (no `Value` tree per run).
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Spec<'a> {
        global: &'a str,
        error_class: &'a str,
        member_property: &'a str,
        members: &'a [String],
        positional: bool,
        callable: bool,
    }
    let spec: Vec<Spec<'_>> = namespaces
        .iter()
        .map(|namespace| Spec {
            global: &namespace.global,
            error_class: &namespace.error_class,
            member_property: &namespace.member_property,
            members: &namespace.members,
            positional: namespace.style.is_positional(),
            callable: namespace.style == CallStyle::Function,
        })
        .collect();
    // Strings and a list of them: serializing cannot fail.
    serde_json::to_string(&spec).unwrap_or_else(|_| "[]".to_owned())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use futures::future::BoxFuture;

    use super::*;
    use crate::json::JsonValue;
    use crate::runtime::{BindingHost, CallAnswer, CallError};

    struct NoHost;

    impl BindingHost for NoHost {
        fn call(&self, _: &str, _: JsonValue) -> BoxFuture<'static, CallAnswer> {
            Box::pin(async { Err(CallError::host("no host")) })
        }
    }

    #[test]
    fn only_the_engines_not_a_function_error_of_a_namespace_gets_the_member_hint() {
        let globals = ["files", "tools"];
        let found = |message: &str| not_a_function_of(message, &globals);
        // QuickJS names the namespace, V8 the expression.
        let message = "TypeError: tools is not a function\n    at program.ts:2:7";
        assert_eq!(found(message), Some((1, 34)));
        assert_eq!(
            found("TypeError: tools[name] is not a function"),
            Some((1, 40))
        );
        assert_eq!(found("TypeError: files.x is not a function"), Some((0, 36)));
        assert_eq!(
            found("Uncaught (in promise) TypeError: tools[n] is not a function"),
            Some((1, 59))
        );
        for other in [
            "TypeError: toolsy is not a function",
            "TypeError: f is not a function",
            "TypeError: tools is not iterable",
            "RangeError: tools is not a function",
            "Error: x\nTypeError: tools is not a function",
        ] {
            assert_eq!(found(other), None, "{other}");
        }
    }

    #[test]
    fn the_namespace_spec_is_the_text_prepare_run_reads() {
        let namespace = |global: &str, members: &[&str]| BindingNamespace {
            global: global.to_owned(),
            error_class: "ToolCallError".to_owned(),
            member_property: "toolName".to_owned(),
            members: members.iter().map(|m| (*m).to_owned()).collect(),
            style: CallStyle::Object,
            host: Arc::new(NoHost),
        };
        let spec = namespace_spec(&[
            namespace("tools", &["read_file", "__proto__", "路径"]),
            namespace("other", &[]).with_style(CallStyle::Positional),
        ]);
        assert_eq!(
            spec,
            r#"[{"global":"tools","errorClass":"ToolCallError","memberProperty":"toolName","members":["read_file","__proto__","路径"],"positional":false,"callable":false},{"global":"other","errorClass":"ToolCallError","memberProperty":"toolName","members":[],"positional":true,"callable":false}]"#
        );
        assert_eq!(namespace_spec(&[]), "[]");
    }
}
