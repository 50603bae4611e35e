//! One program on one worker, driven by the host: the `run` frame out; binding calls in, in
//! submission order, to the namespaces' hosts and their answers back; logs counted against
//! the output cap; the budgets checked every few milliseconds and enforced by killing the
//! worker; the outcome built from the `done` frame or from why the worker was stopped.
//!
//! Every frame is hostile input: ids must count up from 1, namespaces and members must be
//! the ones offered, arguments are checked again as lossless JSON, pending calls are charged
//! against the heap budget on the host. A violation kills the worker (`worker-exit`). This
//! module owns a run's life on the host side; it must not spawn workers.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use futures::StreamExt;
use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;

use crate::error::ErrorCode;
use crate::json::{JsonValue, check_lossless};
use crate::runtime::ledger::{Ending, Ledger, failed, settle_output};
use crate::runtime::{
    BindingNamespace, CallAnswer, CodeRunErrorKind, CodeRunOutcome, CodeRunRequest, EngineConfig,
};

use super::process::{Worker, lock};
use super::protocol::{FromWorker, ReadError, ToWorker, WireNamespace};

/// How often the budgets are checked.
const TICK: Duration = Duration::from_millis(5);

/// Why the host stopped a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Compute,
    Wall,
    Abort,
    Output,
    HostMemory,
}

fn stopped(stop: Stop, config: &EngineConfig) -> Ending {
    use CodeRunErrorKind::*;
    match stop {
        Stop::Compute => failed(
            Timeout,
            format!(
                "compute budget exceeded: the program ran Python for {} ms of CPU time (an endless loop, or too much work for one run)",
                config.compute_ms
            ),
        ),
        Stop::Wall => failed(
            Timeout,
            format!(
                "wall-time budget exceeded: the run took longer than {} ms (it was still waiting on tool calls or sleeping)",
                config.wall_ms
            ),
        ),
        Stop::Abort => failed(Abort, "the run was cancelled by its caller"),
        Stop::Output => failed(OutputLimit, "the logs exceeded the output cap"),
        Stop::HostMemory => failed(
            WorkerExit,
            format!(
                "the program ran out of memory: its pending tool calls hold more than the {} MiB heap limit on the host; await the calls in smaller batches",
                config.heap_mb
            ),
        ),
    }
}

/// Host memory charged for one pending call: its arguments twice (the frame and the
/// parsed value) and some bookkeeping.
fn charge(args: &JsonValue) -> u64 {
    let bytes = crate::json::to_text(args).len() as u64;
    2 * bytes + 2048
}

/// Runs `request` on `worker` (which has sent `ready`) and returns its outcome. The worker
/// is killed before this returns.
pub(crate) async fn drive(
    mut worker: Worker,
    request: CodeRunRequest,
    config: EngineConfig,
) -> CodeRunOutcome {
    let ledger =
        Mutex::new(Ledger::new(config.max_output_bytes).with_sink(request.on_line.clone()));
    let ending = run(&mut worker, &request, &config, &ledger).await;
    worker.kill();
    settle_output(ending, &ledger)
}

/// The run's loop: frames from the worker, answers to its calls and the budget ticks, until
/// the worker reports `done`, breaks the protocol, dies, or a budget or the caller stops it.
async fn run(
    worker: &mut Worker,
    request: &CodeRunRequest,
    config: &EngineConfig,
    ledger: &Mutex<Ledger>,
) -> Ending {
    let mut calls = Calls::offered(&request.namespaces, config);
    worker.send(&run_frame(request, config));
    let mut budgets = Budgets::start(worker, config);
    let mut pending = FuturesUnordered::new();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let signal = request.signal.clone();
    loop {
        tokio::select! {
            biased;
            () = signal.cancelled() => return stopped(Stop::Abort, config),
            frame = worker.next_frame() => {
                let frame = match frame {
                    Some(Ok(frame)) => frame,
                    Some(Err(ReadError::Closed)) | None => return died(worker, config).await,
                    Some(Err(err)) => return unreadable(&err, config),
                };
                // A worker that keeps the socket busy must not starve the budget checks or
                // the runtime's other tasks.
                if let Some(stop) = budgets.check_due(worker) {
                    return stopped(stop, config);
                }
                tokio::task::consume_budget().await;
                match calls.take(frame, ledger, config) {
                    ControlFlow::Continue(Some((id, cost, call))) => {
                        pending.push(async move { (id, cost, call.await) });
                    }
                    ControlFlow::Continue(None) => {}
                    ControlFlow::Break(ending) => return ending,
                }
            }
            Some((id, cost, answer)) = pending.next(), if !pending.is_empty() => {
                if let Some(stop) = calls.answer(worker, id, cost, answer) {
                    return stopped(stop, config);
                }
            }
            _ = tick.tick() => {
                if let Some(stop) = budgets.check(worker) {
                    return stopped(stop, config);
                }
            }
        }
    }
}

/// The `run` frame: the program, the namespaces as the worker installs them, and the limits
/// it checks on its side.
fn run_frame(request: &CodeRunRequest, config: &EngineConfig) -> ToWorker {
    ToWorker::Run {
        program: request.program.clone(),
        namespaces: request
            .namespaces
            .iter()
            .map(|ns| WireNamespace {
                global: ns.global.clone(),
                error_class: ns.error_class.clone(),
                member_property: ns.member_property.clone(),
                members: ns.members.clone(),
                positional: ns.style.is_positional(),
                callable: ns.style == crate::runtime::CallStyle::Function,
            })
            .collect(),
        depth: config.max_json_depth,
        call_limit: config.max_call_bytes,
        frame_cap: super::frame_cap(config),
    }
}

/// The ending for a frame that could not be read (other than the worker closing the stream).
fn unreadable(err: &ReadError, config: &EngineConfig) -> Ending {
    match err {
        // The bridge never sends a frame over the cap (it sends `over` instead): this head
        // was written to the protocol descriptor by something else, the program.
        ReadError::TooLong(bytes) => violated(&format!(
            "a frame head announced {bytes} bytes, over the cap of {} (not the bridge's: written to the protocol descriptor by the program)",
            super::frame_cap(config)
        )),
        err => violated(&format!("{err}")),
    }
}

/// One log, value or tool argument larger than the frame cap: as the JS engine, the output
/// limit (the logs before it are kept).
fn over_cap(bytes: u64, config: &EngineConfig) -> Ending {
    failed(
        CodeRunErrorKind::OutputLimit,
        format!(
            "the output exceeded the cap of {} bytes (one log, value or tool argument of {bytes} bytes); the logs that fit are kept: print less, or return a smaller value",
            config.max_output_bytes
        ),
    )
}

/// A binding call started on the host: its id, the host memory charged for it, and the
/// host's answer to come.
type PendingCall = (u64, u64, BoxFuture<'static, CallAnswer>);

/// The binding calls of one run: what the worker may call, the id it must use next, and the
/// host memory its pending calls (and unread answers) may hold.
struct Calls<'r> {
    namespaces: &'r [BindingNamespace],
    /// Each namespace's members, to look a call up.
    members: Vec<HashSet<&'r str>>,
    next_id: u64,
    pending_bytes: u64,
    host_budget: u64,
}

impl<'r> Calls<'r> {
    /// No call made yet, on the members of `namespaces`, within the heap limit.
    fn offered(namespaces: &'r [BindingNamespace], config: &EngineConfig) -> Self {
        Calls {
            namespaces,
            members: namespaces
                .iter()
                .map(|ns| ns.members.iter().map(String::as_str).collect())
                .collect(),
            next_id: 1,
            pending_bytes: 0,
            host_budget: config.heap_mb.saturating_mul(1024 * 1024),
        }
    }

    /// What a frame during the run asks for: a call to start, nothing more (a log that
    /// fits), or the end of the run.
    fn take(
        &mut self,
        frame: FromWorker,
        ledger: &Mutex<Ledger>,
        config: &EngineConfig,
    ) -> ControlFlow<Ending, Option<PendingCall>> {
        match frame {
            FromWorker::Call { id, ns, m, args } => match self.start(id, ns, &m, args, config) {
                Ok(call) => ControlFlow::Continue(Some(call)),
                Err(ending) => ControlFlow::Break(ending),
            },
            FromWorker::Log { s } => {
                let fits = lock(ledger).push(s);
                if fits {
                    ControlFlow::Continue(None)
                } else {
                    ControlFlow::Break(stopped(Stop::Output, config))
                }
            }
            FromWorker::Done { value, error } => ControlFlow::Break(done(value, error)),
            FromWorker::Over { bytes } => ControlFlow::Break(over_cap(bytes, config)),
            FromWorker::Confined { .. } | FromWorker::Ready {} | FromWorker::Spawned { .. } => {
                ControlFlow::Break(violated("a handshake frame during the run"))
            }
        }
    }

    /// Checks a call frame (its id next, its namespace and member offered, its arguments
    /// lossless, its cost within the heap limit) and starts the call on the host.
    fn start(
        &mut self,
        id: u64,
        ns: usize,
        m: &str,
        args: JsonValue,
        config: &EngineConfig,
    ) -> Result<PendingCall, Ending> {
        if id != self.next_id {
            return Err(violated(&format!(
                "call id {id} where {} was next",
                self.next_id
            )));
        }
        self.next_id += 1;
        let (Some(namespace), Some(offered)) = (self.namespaces.get(ns), self.members.get(ns))
        else {
            return Err(violated(&format!(
                "a call in namespace {ns}, which does not exist"
            )));
        };
        if !offered.contains(m) {
            return Err(violated(&format!("a call of `{m}`, which is not a member")));
        }
        // The worker checks arguments before it sends them: one that is not lossless was
        // forged.
        if let Err(err) = check_lossless(&args) {
            return Err(violated(&format!(
                "call {id} with arguments that are not lossless JSON: {err}"
            )));
        }
        let cost = charge(&args);
        self.pending_bytes += cost;
        if self.pending_bytes > self.host_budget {
            return Err(stopped(Stop::HostMemory, config));
        }
        Ok((id, cost, namespace.host.call(m, args)))
    }

    /// Sends the host's answer to call `id` (which was charged `cost`) to the worker; the
    /// stop when the answers it has not read yet, with the pending calls, exceed the heap
    /// limit.
    fn answer(
        &mut self,
        worker: &mut Worker,
        id: u64,
        cost: u64,
        answer: CallAnswer,
    ) -> Option<Stop> {
        self.pending_bytes = self.pending_bytes.saturating_sub(cost);
        let frame = match answer {
            Ok(value) => match check_lossless(&value) {
                Ok(()) => ToWorker::Ok { id, ok: value },
                Err(err) => ToWorker::Err {
                    id,
                    err: format!("the tool's result is not lossless JSON: {err}"),
                    code: ErrorCode::InvalidToolOutput.as_str(),
                },
            },
            Err(error) => ToWorker::Err {
                id,
                err: error.message,
                code: error.code.as_str(),
            },
        };
        worker.send(&frame);
        // Answers the worker does not read yet stay on the host: charged like pending
        // calls.
        (self.pending_bytes + worker.queued_bytes() > self.host_budget).then_some(Stop::HostMemory)
    }
}

/// The time budgets of one run, measured from its start, and when they were last checked.
struct Budgets {
    started: Instant,
    /// The worker's CPU time before the run.
    baseline: Duration,
    compute: Duration,
    wall: Duration,
    last_check: Instant,
}

impl Budgets {
    /// Starts measuring now, from the CPU time `worker` used so far.
    fn start(worker: &Worker, config: &EngineConfig) -> Self {
        let started = Instant::now();
        Budgets {
            started,
            baseline: worker.cpu_time().unwrap_or_default(),
            compute: Duration::from_millis(config.compute_ms),
            wall: Duration::from_millis(config.wall_ms),
            last_check: started,
        }
    }

    /// Like [`Budgets::check`], when the last check is a tick ago or more.
    #[inline]
    fn check_due(&mut self, worker: &Worker) -> Option<Stop> {
        if self.last_check.elapsed() >= TICK {
            self.check(worker)
        } else {
            None
        }
    }

    /// Which budget, if any, the run is over; a check that passes is remembered.
    fn check(&mut self, worker: &Worker) -> Option<Stop> {
        let over = self.over(worker);
        if over.is_none() {
            self.last_check = Instant::now();
        }
        over
    }

    /// Which budget, if any, the run is over.
    fn over(&self, worker: &Worker) -> Option<Stop> {
        if self.started.elapsed() > self.wall {
            return Some(Stop::Wall);
        }
        match worker.cpu_time() {
            Some(used) if used.saturating_sub(self.baseline) > self.compute => Some(Stop::Compute),
            _ => None,
        }
    }
}

/// The ending a `done` frame reports.
fn done(value: Option<JsonValue>, error: Option<super::protocol::DoneError>) -> Ending {
    match (value, error) {
        (_, Some(error)) => {
            let kind = match error.kind.as_str() {
                "invalid-output" => CodeRunErrorKind::InvalidOutput,
                _ => CodeRunErrorKind::Exception,
            };
            failed(kind, error.message)
        }
        (Some(value), None) => match check_lossless(&value) {
            Ok(()) => {
                let bytes = crate::json::to_text(&value).len() as u64;
                Ending::Value {
                    value: Some(value),
                    bytes,
                }
            }
            Err(err) => failed(
                CodeRunErrorKind::InvalidOutput,
                format!("the return value is not lossless JSON: {err}"),
            ),
        },
        (None, None) => Ending::Value {
            value: None,
            bytes: 0,
        },
    }
}

fn violated(what: &str) -> Ending {
    failed(
        CodeRunErrorKind::WorkerExit,
        format!("the Python worker broke the protocol ({what}) and was stopped"),
    )
}

/// The ending of a worker that stopped talking: how it died (waiting up to 200 ms for the
/// process to end, without blocking the runtime), and its last words.
async fn died(worker: &mut Worker, config: &EngineConfig) -> Ending {
    let deadline = Instant::now() + Duration::from_millis(200);
    let how = loop {
        if let Some(how) = worker.exit_status(Duration::ZERO) {
            break how;
        }
        if Instant::now() >= deadline {
            break "stopped answering".to_owned();
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    // SIGXCPU: the CPU backstop fired (the host's own check normally stops it first).
    if how == format!("was killed by signal {}", libc::SIGXCPU) {
        return stopped(Stop::Compute, config);
    }
    let tail = worker.stderr_tail();
    let tail = tail.lines().rev().take(5).collect::<Vec<_>>();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    let mut message = format!(
        "the Python worker {how} during the run (a crash, or a C-level stack overflow; the heap limit is {} MiB)",
        config.heap_mb
    );
    if !tail.is_empty() {
        message.push_str(": ");
        message.push_str(&tail.join("\n"));
    }
    failed(CodeRunErrorKind::WorkerExit, message)
}
