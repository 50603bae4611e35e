//! A sandbox: a bare isolate with one context, the codemode bootstrap loaded, ready for one
//! program.
//!
//! No `deno_core::JsRuntime` is involved: the isolate is created through the V8 API that
//! deno_core re-exports, and the host functions the bootstrap needs are our own native
//! callbacks ([`natives`](super::natives)), handed to the bootstrap as the argument of its
//! function. deno_core's runtime loads its built-in ES modules into every runtime, and on the
//! QuickJS backend a dropped runtime's module state kept its whole context alive (see
//! "What a host can rely on" in docs/guarantees.md); a bare isolate loads no module and is released in full
//! when dropped.
//!
//! The bootstrap (the files of `js-runtime/`, one strict function body; its text and how it
//! is evaluated: [`scripts`](super::scripts)) captures what it
//! needs, installs `console`, the timers and `queueMicrotask`, deletes every global that is not
//! ECMAScript's, and returns the host API, which only this module holds: `prepareRun`,
//! `checkLossless`, `describeThrown`, `missingMember` (the last key a namespace was asked
//! for that it does not have), `settleCall` (a binding call's answer, by id) and
//! `fireTimer` (a due timer's callback, by id); the first bootstrap of the process also
//! returns the names of the engine's globals it deleted, which every later one is handed.
//!
//! This module owns isolate creation and calls into the host API; it must not know about
//! pools, budgets or outcomes.

use std::sync::OnceLock;

use deno_core::v8;

use super::natives;
use super::scripts::{self, compile_and_run};
use super::strip::{PROGRAM_FILE, program_position};
use crate::error::ErrorCode;
use crate::runtime::CallError;

/// A never-used isolate and context, ready for one program.
///
/// Field order is drop order: the handles go before the isolate they belong to.
pub(crate) struct Sandbox {
    api: HostApi,
    pub(crate) context: v8::Global<v8::Context>,
    pub(crate) isolate: v8::OwnedIsolate,
}

struct HostApi {
    prepare_run: v8::Global<v8::Function>,
    check_lossless: v8::Global<v8::Function>,
    describe_thrown: v8::Global<v8::Function>,
    missing_member: v8::Global<v8::Function>,
    settle_call: v8::Global<v8::Function>,
    fire_timer: v8::Global<v8::Function>,
}

/// A host API call (a timer callback among them) did not return.
pub(crate) enum Thrown {
    /// It threw this value.
    Threw(v8::Global<v8::Value>),
    /// The isolate was terminated while it ran.
    Terminated,
    /// It returned nothing and nothing is pending (an argument could not be made).
    Nothing,
}

/// A host API call did not return: the program's code it ran threw or was terminated.
#[derive(Debug)]
pub(crate) struct CallFailed;

/// The program did not compile or its first synchronous part threw.
pub(crate) enum ScriptFailure {
    /// A description of the thrown value, with the program's positions as written.
    Threw(String),
    /// The isolate was terminated while it ran.
    Terminated,
}

/// The first half of a sandbox: the isolate, before its context and bootstrap (the two
/// halves cost about the same; a caller may let other threads run in between).
pub(crate) struct BareIsolate {
    isolate: v8::OwnedIsolate,
    /// Made from the startup snapshot (V8): its default context is already bootstrapped.
    from_snapshot: bool,
}

impl BareIsolate {
    /// Creates an isolate whose heap allocations fail past `heap_bytes`; on V8, from the
    /// process's startup snapshot (made by the first call).
    pub(crate) fn create(heap_bytes: usize) -> BareIsolate {
        #[cfg(feature = "v8")]
        if let Some(blob) = super::snapshot::blob(snapshot_bootstrap) {
            return BareIsolate::with(heap_bytes, Some(blob));
        }
        BareIsolate::with(heap_bytes, None)
    }

    /// Creates an isolate that runs the bootstrap itself, even on V8.
    #[cfg(test)]
    fn create_plain(heap_bytes: usize) -> BareIsolate {
        BareIsolate::with(heap_bytes, None)
    }

    fn with(heap_bytes: usize, snapshot: Option<&'static [u8]>) -> BareIsolate {
        let limit = engine_heap_limit(heap_bytes);
        let params = v8::CreateParams::default().heap_limits(0, limit);
        // V8 keeps ArrayBuffers outside its heap: they get a budget of their own, the same
        // size (QuickJS counts them in its heap).
        #[cfg(feature = "v8")]
        let params = params.array_buffer_allocator(super::buffers::allocator(heap_bytes));
        #[cfg(feature = "v8")]
        let params = match snapshot {
            Some(blob) => params
                .snapshot_blob(v8::StartupData::from(blob))
                .external_references(super::snapshot::external_references()),
            None => params,
        };
        let mut isolate = v8::Isolate::new(params);
        isolate.set_microtasks_policy(v8::MicrotasksPolicy::Explicit);
        natives::install_isolate_callbacks(&mut isolate);
        BareIsolate {
            isolate,
            from_snapshot: snapshot.is_some(),
        }
    }

    /// Creates the context and loads the bootstrap (or, made from the snapshot, finds it
    /// loaded).
    pub(crate) fn boot(self) -> Result<Sandbox, String> {
        // Debug builds (every test) check that the names are still all there is to delete.
        self.boot_sealing(
            ENGINE_GLOBALS.get().map(String::as_str),
            cfg!(debug_assertions),
        )
    }

    /// [`boot`](Self::boot) with the names of the engine's globals to delete (`None`: list
    /// the global object) and whether to check that nothing else is left.
    fn boot_sealing(
        self,
        engine_globals: Option<&str>,
        check_seal: bool,
    ) -> Result<Sandbox, String> {
        let BareIsolate {
            mut isolate,
            from_snapshot,
        } = self;
        let (context, api) = {
            v8::scope!(let scope, &mut isolate);
            let context = v8::Context::new(scope, Default::default());
            let scope = &mut v8::ContextScope::new(scope, context);
            v8::tc_scope!(let scope, scope);
            let functions = if from_snapshot {
                #[cfg(feature = "v8")]
                super::snapshot::reseal(scope, context, check_seal)?;
                snapshot_api(scope)
                    .ok_or_else(|| "the startup snapshot's context has no host API".to_owned())?
            } else {
                bootstrap(scope, engine_globals, check_seal, true)
                    .ok_or_else(|| {
                        bootstrap_failure(scope.exception().map(|e| e.to_rust_string_lossy(scope)))
                    })?
                    .0
            };
            // In the order of `API_FUNCTIONS`, which is the order of the fields.
            let mut globals = functions
                .into_iter()
                .map(|function| v8::Global::new(scope, function));
            let mut next = || {
                globals
                    .next()
                    .ok_or_else(|| "the host API is incomplete".to_owned())
            };
            let api = HostApi {
                prepare_run: next()?,
                check_lossless: next()?,
                describe_thrown: next()?,
                missing_member: next()?,
                settle_call: next()?,
                fire_timer: next()?,
            };
            (v8::Global::new(scope, context), api)
        };
        Ok(Sandbox {
            api,
            context,
            isolate,
        })
    }
}

/// Why the bootstrap failed, from the exception it left pending (if any).
fn bootstrap_failure(exception: Option<String>) -> String {
    let reason = exception.unwrap_or_else(|| "no exception".to_owned());
    format!("the runtime bootstrap failed: {reason}")
}

/// The host API's functions, in the order of [`HostApi`]'s fields.
const API_FUNCTIONS: [&str; 6] = [
    "prepareRun",
    "checkLossless",
    "describeThrown",
    "missingMember",
    "settleCall",
    "fireTimer",
];

/// Runs the bootstrap in the snapshot creator's context and keeps the host API's functions,
/// in order, as the context's snapshot data.
#[cfg(feature = "v8")]
fn snapshot_bootstrap(
    scope: &mut v8::PinScope<'_, '_>,
    context: v8::Local<'_, v8::Context>,
) -> Result<(), String> {
    v8::tc_scope!(let scope, scope);
    // The creator's context lists its own globals (V8 leaves `WebAssembly` out of it): the
    // list is not the one a context made without the snapshot would need.
    let Some((functions, api)) = bootstrap(scope, None, cfg!(debug_assertions), false) else {
        return Err(bootstrap_failure(
            scope.exception().map(|e| e.to_rust_string_lossy(scope)),
        ));
    };
    let receiver = v8::undefined(scope).into();
    let kept = api_function(scope, api, "keptGlobals")
        .and_then(|kept_globals| kept_globals.call(scope, receiver, &[]))
        .and_then(|names| v8::Local::<v8::Array>::try_from(names).ok())
        .ok_or_else(|| "the bootstrap did not list the kept globals".to_owned())?;
    let mut names = Vec::with_capacity(kept.length() as usize);
    for index in 0..kept.length() {
        let name = kept
            .get_index(scope, index)
            .ok_or_else(|| "the bootstrap did not list the kept globals".to_owned())?;
        names.push(name.to_rust_string_lossy(scope));
    }
    super::snapshot::keep_globals(names);
    for function in functions {
        scope.add_context_data(context, function);
    }
    Ok(())
}

/// The host API's functions from the snapshot data of a context made from the snapshot.
fn snapshot_api<'s>(scope: &v8::PinScope<'s, '_>) -> Option<[v8::Local<'s, v8::Function>; 6]> {
    #[cfg(feature = "v8")]
    {
        let mut functions = Vec::with_capacity(API_FUNCTIONS.len());
        for index in 0..API_FUNCTIONS.len() {
            functions.push(super::snapshot::take_function(scope, index)?);
        }
        functions.try_into().ok()
    }
    #[cfg(not(feature = "v8"))]
    {
        let _ = scope;
        None
    }
}

impl Sandbox {
    /// Prepares the run of a program of `program_lines` lines: defines the namespaces
    /// (`spec`: JSON text of `[{global, errorClass, memberProperty, members}]`); the argument
    /// JSON of a call may be at most `argument_limit` bytes, and values nest at most
    /// `depth_limit` levels.
    pub(crate) fn prepare_run(
        &mut self,
        spec: &str,
        argument_limit: u64,
        program_lines: u32,
        depth_limit: usize,
    ) -> Result<(), CallFailed> {
        let function = self.api.prepare_run.clone();
        self.call_api(
            &function,
            &[
                Arg::Text(spec),
                Arg::Number(argument_limit as f64),
                Arg::Number(f64::from(program_lines)),
                Arg::Number(depth_limit as f64),
            ],
        )
        .map(|_| ())
    }

    /// The lossless-JSON check of a value: `J<json>`, `E<path: reason>` or `L<reason>` (the
    /// text would exceed `limit` bytes).
    pub(crate) fn check_lossless(
        &mut self,
        value: &v8::Global<v8::Value>,
        limit: u64,
    ) -> Result<String, CallFailed> {
        let function = self.api.check_lossless.clone();
        self.call_api(&function, &[Arg::Value(value), Arg::Number(limit as f64)])
    }

    /// What a failed run reports for a thrown value (its stack, or `Uncaught <value>`).
    pub(crate) fn describe_thrown(
        &mut self,
        value: &v8::Global<v8::Value>,
    ) -> Result<String, CallFailed> {
        let function = self.api.describe_thrown.clone();
        self.call_api(&function, &[Arg::Value(value)])
    }

    /// The last key the program asked namespace `index` for that is not one of its
    /// members, if any.
    pub(crate) fn missing_member(&mut self, index: usize) -> Result<Option<String>, CallFailed> {
        let function = self.api.missing_member.clone();
        let answer = self.call_api(&function, &[Arg::Number(index as f64)])?;
        Ok(answer.strip_prefix('M').map(str::to_owned))
    }

    /// Settles the promises of answered binding calls: each `(id, answer)` with the answer
    /// text `J<json>` or `E<CODE>:<message>`.
    pub(crate) fn settle_calls(&mut self, answers: impl IntoIterator<Item = (u64, String)>) {
        v8::scope_with_context!(let scope, &mut self.isolate, &self.context);
        v8::tc_scope!(let scope, scope);
        let function = v8::Local::new(scope, &self.api.settle_call);
        let receiver = v8::undefined(scope).into();
        for (id, answer) in answers {
            let text = v8::String::new(scope, &answer).or_else(|| {
                v8::String::new(
                    scope,
                    &natives::rejected(&CallError::new(
                        ErrorCode::InvalidToolOutput,
                        "the result is too large for the program",
                    )),
                )
            });
            let Some(text) = text else {
                continue;
            };
            let id = v8::Number::new(scope, id as f64).into();
            // The bootstrap's settle function only resolves a promise; it throws only when
            // the run is being terminated, and then the next checkpoint sees the stop.
            if function.call(scope, receiver, &[id, text.into()]).is_none()
                && scope.has_terminated()
            {
                return;
            }
        }
    }

    /// Calls the callback of the due timer `id` (an interval if `repeats`).
    pub(crate) fn fire_timer(&mut self, id: u32, repeats: bool) -> Result<(), Thrown> {
        let function = self.api.fire_timer.clone();
        self.invoke(&function, &[Arg::Number(f64::from(id)), Arg::Bool(repeats)])
            .map(|_| ())
    }

    /// The bytes the isolate's heap holds now (V8).
    #[cfg(feature = "v8")]
    pub(crate) fn heap_used(&mut self) -> usize {
        self.isolate.get_heap_statistics().used_heap_size()
    }

    /// Compiles and runs `script` as the file `name`; its completion value.
    pub(crate) fn run_script(
        &mut self,
        name: &str,
        script: &str,
    ) -> Result<v8::Global<v8::Value>, ScriptFailure> {
        let failure = {
            v8::scope_with_context!(let scope, &mut self.isolate, &self.context);
            v8::tc_scope!(let scope, scope);
            if let Some(completion) = compile_and_run(scope, name, script) {
                return Ok(v8::Global::new(scope, completion));
            }
            if scope.has_terminated() {
                return Err(ScriptFailure::Terminated);
            }
            let position = scope.message().and_then(|message| {
                let line = message.get_line_number(scope)?;
                let column = message.get_start_column() + 1;
                Some((line, column))
            });
            let exception = scope
                .exception()
                .map(|exception| v8::Global::new(scope, exception));
            (exception, position)
        };
        let (exception, position) = failure;
        let Some(exception) = exception else {
            return Err(ScriptFailure::Threw(
                "the program could not be compiled".to_owned(),
            ));
        };
        let mut description = match self.describe_thrown(&exception) {
            Ok(description) => description,
            Err(CallFailed) => return Err(ScriptFailure::Terminated),
        };
        // A syntax error has no stack frame: the position comes from the engine's message.
        if !description.contains(&format!("{PROGRAM_FILE}:"))
            && let Some((line, column)) = position
        {
            let (line, column) = program_position(
                u32::try_from(line).unwrap_or(u32::MAX),
                u32::try_from(column).unwrap_or(u32::MAX),
            );
            description = format!("{description}\n    at {PROGRAM_FILE}:{line}:{column}");
        }
        Err(ScriptFailure::Threw(description))
    }

    /// Calls a host API function and returns its string result (empty for `undefined`).
    fn call_api(
        &mut self,
        function: &v8::Global<v8::Function>,
        args: &[Arg<'_>],
    ) -> Result<String, CallFailed> {
        self.invoke(function, args).map_err(|_| CallFailed)
    }

    /// Calls a host API function: its string result (empty for `undefined`), or what it
    /// threw, or that the isolate was terminated.
    fn invoke(
        &mut self,
        function: &v8::Global<v8::Function>,
        args: &[Arg<'_>],
    ) -> Result<String, Thrown> {
        v8::scope_with_context!(let scope, &mut self.isolate, &self.context);
        v8::tc_scope!(let scope, scope);
        let mut locals: Vec<v8::Local<v8::Value>> = Vec::with_capacity(args.len());
        for arg in args {
            locals.push(match arg {
                Arg::Value(value) => v8::Local::new(scope, *value),
                Arg::Text(text) => v8::String::new(scope, text).ok_or(Thrown::Nothing)?.into(),
                Arg::Number(number) => v8::Number::new(scope, *number).into(),
                Arg::Bool(flag) => v8::Boolean::new(scope, *flag).into(),
            });
        }
        let function = v8::Local::new(scope, function);
        let receiver = v8::undefined(scope).into();
        let Some(result) = function.call(scope, receiver, &locals) else {
            if scope.has_terminated() {
                return Err(Thrown::Terminated);
            }
            return match scope.exception() {
                Some(exception) => Err(Thrown::Threw(v8::Global::new(scope, exception))),
                None => Err(Thrown::Nothing),
            };
        };
        if result.is_undefined() {
            return Ok(String::new());
        }
        Ok(result.to_rust_string_lossy(scope))
    }
}

/// The limit to give the engine so that its allocations fail at `heap_bytes`.
///
/// On QuickJS the engine's allocator refuses allocations past the limit plus the headroom it
/// adds for the near-heap-limit callback: an eighth of the limit, at least 2 MiB (v8x's
/// `near_heap_limit_headroom`). So allocations fail at `heap_bytes`; the callback (see
/// natives) raises the limit once per run by 8 MiB for the unwinding, which moves that point
/// to `heap_bytes` + 9 MiB. V8's limit is its old-space size and is kept.
fn engine_heap_limit(heap_bytes: usize) -> usize {
    const MIN_HEADROOM: usize = 2 << 20;
    if cfg!(feature = "v8") {
        return heap_bytes;
    }
    let limit = heap_bytes / 9 * 8;
    if limit / 8 >= MIN_HEADROOM {
        limit
    } else {
        heap_bytes.saturating_sub(MIN_HEADROOM)
    }
}

/// The names of the globals the engine defines and the bootstrap deletes, one per line, as
/// the first bootstrap of this process found them (every context is made the same way; see
/// `js-runtime/90_seal.js`). Unset until a bootstrap has listed them, and for good if one
/// could not name them.
static ENGINE_GLOBALS: OnceLock<String> = OnceLock::new();

/// Runs the bootstrap function with the natives and the seal's arguments; the host API, or
/// `None` with an exception pending in `scope`. A bootstrap that listed the engine's globals
/// leaves their names in [`ENGINE_GLOBALS`] when `record_globals`.
fn bootstrap<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    engine_globals: Option<&str>,
    check_seal: bool,
    record_globals: bool,
) -> Option<Bootstrapped<'s>> {
    let function = scripts::BOOTSTRAP_SCRIPT.evaluate(scope)?;
    let function = v8::Local::<v8::Function>::try_from(function).ok()?;
    let host = natives::host_object(scope)?;
    let receiver = v8::undefined(scope).into();
    let names: v8::Local<v8::Value> = match engine_globals {
        Some(names) => v8::String::new(scope, names)?.into(),
        None => v8::undefined(scope).into(),
    };
    let check_seal = v8::Boolean::new(scope, check_seal).into();
    let api = function.call(scope, receiver, &[host.into(), names, check_seal])?;
    let api = v8::Local::<v8::Object>::try_from(api).ok()?;
    if record_globals && engine_globals.is_none() && ENGINE_GLOBALS.get().is_none() {
        let key = v8::String::new(scope, "engineGlobals")?;
        let found = api.get(scope, key.into())?;
        if found.is_string() {
            let _ = ENGINE_GLOBALS.set(found.to_rust_string_lossy(scope));
        }
    }
    let mut functions = Vec::with_capacity(API_FUNCTIONS.len());
    for name in API_FUNCTIONS {
        functions.push(api_function(scope, api, name)?);
    }
    Some((functions.try_into().ok()?, api))
}

/// What a bootstrap returns: the host API's functions (in the order of [`API_FUNCTIONS`])
/// and the host API object itself (the V8 snapshot's maker asks it for `keptGlobals`).
type Bootstrapped<'s> = ([v8::Local<'s, v8::Function>; 6], v8::Local<'s, v8::Object>);

/// The function `name` of the host API object.
fn api_function<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    api: v8::Local<'s, v8::Object>,
    name: &str,
) -> Option<v8::Local<'s, v8::Function>> {
    let key = v8::String::new(scope, name)?;
    let value = api.get(scope, key.into())?;
    v8::Local::<v8::Function>::try_from(value).ok()
}

/// An argument of a host API call.
enum Arg<'a> {
    Value(&'a v8::Global<v8::Value>),
    Text(&'a str),
    Number(f64),
    Bool(bool),
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::runtime::js::threads::spawn_engine_thread;

    /// Runs `body` on an engine thread (where the platform is initialized, with the
    /// engine's flags) and waits for its value; `Err` when no thread ran it or it panicked.
    pub(super) fn on_engine_thread<T: Send + 'static>(
        body: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, String> {
        let (send, receive) = mpsc::channel();
        let failed = send.clone();
        spawn_engine_thread(
            "codemode-test",
            move || drop(send.send(Ok(body()))),
            move |reason| drop(failed.send(Err(reason))),
        );
        receive.recv().unwrap_or_else(|_| {
            Err("the engine thread ended without an answer (it panicked)".to_owned())
        })
    }

    /// Boots a sandbox on an engine thread with the seal's arguments; the bootstrap's failure.
    fn boot_failure(engine_globals: Option<&'static str>, check_seal: bool) -> Option<String> {
        on_engine_thread(move || {
            BareIsolate::create_plain(64 << 20)
                .boot_sealing(engine_globals, check_seal)
                .err()
        })
        .unwrap_or_else(Some)
    }

    #[test]
    fn a_bootstrap_given_the_engine_globals_checks_that_nothing_else_is_left() {
        // Listing the global object finds what to delete: each engine defines globals a
        // program does not keep (QuickJS `InternalError`, V8 `WebAssembly`; on QuickJS
        // `WebAssembly` is never installed, see threads.rs).
        assert_eq!(boot_failure(None, false), None);
        let names = ENGINE_GLOBALS
            .get()
            .expect("the first bootstrap named the engine's globals");
        let engine_own = if cfg!(feature = "v8") {
            "WebAssembly"
        } else {
            "InternalError"
        };
        assert!(names.lines().any(|name| name == engine_own), "{names:?}");
        // Handed the names, a checking bootstrap finds nothing else ...
        assert_eq!(boot_failure(Some(names.as_str()), true), None);
        // ... and handed too few, it fails instead of leaving a global to the program.
        let failure = boot_failure(Some(""), true).expect("the check fails");
        assert!(
            failure.contains("which the first sandbox of this process did not have"),
            "{failure}"
        );
    }

    #[test]
    fn sandboxes_are_made_run_and_freed_on_several_threads_at_once() {
        // Isolate creation and disposal take no process-wide lock (vendor/README.md): four
        // threads make, run and free sandboxes at the same time, each with its own values.
        const THREADS: usize = 4;
        const ROUNDS: usize = 25;
        let (send, receive) = mpsc::channel();
        for thread in 0..THREADS {
            let send = send.clone();
            let failed = send.clone();
            spawn_engine_thread(
                "codemode-test",
                move || {
                    let mut results = Vec::new();
                    for round in 0..ROUNDS {
                        let result = BareIsolate::create(64 << 20).boot().and_then(|mut sandbox| {
                            let script = format!(
                                "const a = []; for (let i = 0; i < 2000; i++) a.push({{ i }}); \
                                 String({thread} * 1000 + {round} + a.length)"
                            );
                            let value = sandbox
                                .run_script("stress.js", &script)
                                .map_err(|_| "the script failed".to_owned())?;
                            v8::scope_with_context!(let scope, &mut sandbox.isolate, &sandbox.context);
                            let value = v8::Local::new(scope, &value);
                            Ok(value.to_rust_string_lossy(scope))
                        });
                        results.push(result);
                    }
                    let _ = send.send((thread, results));
                },
                move |reason| {
                    let _ = failed.send((usize::MAX, vec![Err(reason)]));
                },
            );
        }
        drop(send);
        let mut answered = 0;
        for (thread, results) in receive {
            assert_ne!(thread, usize::MAX, "no engine thread: {results:?}");
            for (round, result) in results.into_iter().enumerate() {
                assert_eq!(result, Ok((thread * 1000 + round + 2000).to_string()));
            }
            answered += 1;
        }
        assert_eq!(answered, THREADS);
    }
}

/// The binding crossing on V8, measured both ways the design names: a call's answer as JSON
/// text parsed by the engine (what the engine does) against `serde_v8` building the value
/// from the host's `serde_json` value, and back. Run by hand:
/// `cargo test --release --no-default-features --features v8,cli,python --lib crossing -- --ignored --nocapture`.
#[cfg(all(test, feature = "v8"))]
mod crossing {
    use std::time::Instant;

    use deno_core::serde_v8;

    use super::*;

    /// A typical tool result: 100 issues of a tracker, about 40 KB of JSON.
    fn sample() -> serde_json::Value {
        let issues: Vec<serde_json::Value> = (0..100)
            .map(|i| {
                serde_json::json!({
                    "number": i, "title": format!("Issue {i}: something is off"),
                    "state": if i % 3 == 0 { "closed" } else { "open" },
                    "labels": ["bug", "triage"], "comments": i * 2, "locked": false,
                    "user": { "login": format!("user{i}"), "id": 1000 + i },
                    "body": "A longer body of text that describes the problem in a sentence or two."
                })
            })
            .collect();
        serde_json::Value::Array(issues)
    }

    #[test]
    #[ignore = "a measurement, run by hand"]
    fn crossing_json_text_against_serde_v8() {
        match super::tests::on_engine_thread(measure) {
            Ok(report) => println!("{report}"),
            Err(reason) => panic!("{reason}"),
        }
    }

    fn measure() -> String {
        const ROUNDS: u32 = 2_000;
        let value = sample();
        let text = serde_json::to_string(&value).unwrap_or_default();
        let mut sandbox = match BareIsolate::create_plain(256 << 20).boot() {
            Ok(sandbox) => sandbox,
            Err(reason) => panic!("{reason}"),
        };
        v8::scope_with_context!(let scope, &mut sandbox.isolate, &sandbox.context);
        let time = |f: &mut dyn FnMut()| {
            for _ in 0..50 {
                f();
            }
            let started = Instant::now();
            for _ in 0..ROUNDS {
                f();
            }
            started.elapsed() / ROUNDS
        };
        let into_text = time(&mut || {
            v8::scope!(let scope, scope);
            let string = v8::String::new(scope, &text).unwrap_or_else(|| v8::String::empty(scope));
            assert!(v8::json::parse(scope, string).is_some());
        });
        let into_serde = time(&mut || {
            v8::scope!(let scope, scope);
            assert!(serde_v8::to_v8(scope, &value).is_ok());
        });
        let object = {
            let string = v8::String::new(scope, &text).unwrap_or_else(|| v8::String::empty(scope));
            v8::Global::new(
                scope,
                v8::json::parse(scope, string).unwrap_or_else(|| v8::undefined(scope).into()),
            )
        };
        let out_text = time(&mut || {
            v8::scope!(let scope, scope);
            let local = v8::Local::new(scope, &object);
            let string = v8::json::stringify(scope, local).map(|s| s.to_rust_string_lossy(scope));
            assert!(
                string
                    .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
                    .is_some()
            );
        });
        let out_serde = time(&mut || {
            v8::scope!(let scope, scope);
            let local = v8::Local::new(scope, &object);
            assert!(serde_v8::from_v8::<serde_json::Value>(scope, local).is_ok());
        });
        format!(
            "CROSSING {} bytes: into the engine: JSON text {into_text:?}, serde_v8 {into_serde:?} ({:.2}x); out: JSON text + serde_json {out_text:?}, serde_v8 {out_serde:?} ({:.2}x)",
            text.len(),
            into_serde.as_secs_f64() / into_text.as_secs_f64(),
            out_serde.as_secs_f64() / out_text.as_secs_f64(),
        )
    }
}
