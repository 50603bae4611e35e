//! A fresh deno_core runtime with the codemode bootstrap loaded, and the host's handles on it.
//!
//! Creating one takes the bulk of a run's setup (deno_core's own JS bootstrap, then ours), so
//! the pool creates them ahead of time. The bootstrap (the files of `js-runtime/`, one strict
//! function body) captures what it needs, installs `console` and the timers, deletes every
//! host global, and returns the host API, which only this module holds:
//! `prepareRun`, `checkLossless`, `describeThrown`.
//!
//! This module owns runtime creation and calls into the host API; it must not know about
//! pools, budgets or outcomes.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, LazyLock};

use deno_core::{JsRuntime, RuntimeOptions, v8};

use super::budget::{RunStop, StopReason};
use super::ops::codemode_runtime;
use crate::runtime::strip::{PROGRAM_FILE, program_position};

/// The bootstrap source: the fragments of `js-runtime/`, in order, inside one strict function
/// that is called at once and returns the host API.
static BOOTSTRAP: LazyLock<String> = LazyLock::new(|| {
    // The wrapper head's length, as strip.rs defines it: column 1 + head = column 1 as written.
    let (_, mapped) = program_position(1, 1000);
    let head_length = 1000 - mapped;
    format!(
        "(function () {{\n\"use strict\";\nconst PROGRAM_FILE = {file:?};\nconst PROGRAM_HEAD_LENGTH = {head_length};\n{parts}\n}})()",
        file = PROGRAM_FILE,
        parts = [
            include_str!("../../../js-runtime/00_capture.js"),
            include_str!("../../../js-runtime/10_inspect.js"),
            include_str!("../../../js-runtime/20_json.js"),
            include_str!("../../../js-runtime/30_errors.js"),
            include_str!("../../../js-runtime/40_bindings.js"),
            include_str!("../../../js-runtime/50_console.js"),
            include_str!("../../../js-runtime/90_seal.js"),
        ]
        .join("\n"),
    )
});

/// The name the bootstrap carries in stack traces (its frames are dropped from messages).
const BOOTSTRAP_FILE: &str = "codemode:runtime";

/// A never-used runtime, ready for one program.
pub(crate) struct FreshRuntime {
    pub(crate) runtime: JsRuntime,
    api: HostApi,
    /// The run the heap callback stops (set while a program runs).
    pub(crate) heap_watch: Rc<RefCell<Option<Arc<RunStop>>>>,
}

struct HostApi {
    prepare_run: v8::Global<v8::Function>,
    check_lossless: v8::Global<v8::Function>,
    describe_thrown: v8::Global<v8::Function>,
}

/// A host API call did not return: the program's code it ran threw or was terminated.
#[derive(Debug)]
pub(crate) struct CallFailed;

impl FreshRuntime {
    /// Creates a runtime with a heap limit of `heap_bytes`.
    pub(crate) fn create(heap_bytes: usize) -> Result<FreshRuntime, String> {
        let mut runtime = JsRuntime::try_new(RuntimeOptions {
            extensions: vec![codemode_runtime::init()],
            create_params: Some(v8::CreateParams::default().heap_limits(0, heap_bytes)),
            ..Default::default()
        })
        .map_err(|err| format!("the JavaScript runtime could not be created: {err}"))?;

        let heap_watch: Rc<RefCell<Option<Arc<RunStop>>>> = Rc::default();
        let watched = heap_watch.clone();
        runtime.add_near_heap_limit_callback(move |current, _initial| {
            if let Ok(watched) = watched.try_borrow()
                && let Some(stop) = watched.as_ref()
            {
                stop.request(StopReason::Heap);
            }
            // Room for the terminated program to unwind; it is stopped at its next check.
            current.saturating_add((current / 2).max(16 << 20))
        });

        let api = runtime
            .execute_script(BOOTSTRAP_FILE, BOOTSTRAP.as_str())
            .map_err(|err| format!("the runtime bootstrap failed: {err}"))?;
        let api = {
            deno_core::scope!(scope, runtime);
            let api = v8::Local::new(scope, api);
            let api = v8::Local::<v8::Object>::try_from(api)
                .map_err(|_| "the runtime bootstrap returned no API".to_owned())?;
            let function = |name: &str| -> Result<v8::Global<v8::Function>, String> {
                let key = v8::String::new(scope, name).ok_or("out of memory")?;
                let value = api
                    .get(scope, key.into())
                    .ok_or_else(|| format!("the bootstrap API has no {name}"))?;
                let function = v8::Local::<v8::Function>::try_from(value)
                    .map_err(|_| format!("the bootstrap API's {name} is not a function"))?;
                Ok(v8::Global::new(scope, function))
            };
            HostApi {
                prepare_run: function("prepareRun")?,
                check_lossless: function("checkLossless")?,
                describe_thrown: function("describeThrown")?,
            }
        };
        Ok(FreshRuntime {
            runtime,
            api,
            heap_watch,
        })
    }

    /// Prepares the run of a program of `program_lines` lines: defines the namespaces
    /// (`spec`: JSON text of `[{global, errorClass, memberProperty, members}]`); the argument
    /// JSON of a call may be at most `argument_limit` bytes.
    pub(crate) fn prepare_run(
        &mut self,
        spec: &str,
        argument_limit: u64,
        program_lines: u32,
    ) -> Result<(), CallFailed> {
        let function = self.api.prepare_run.clone();
        self.call_api(
            &function,
            &[
                Arg::Text(spec),
                Arg::Number(argument_limit as f64),
                Arg::Number(f64::from(program_lines)),
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

    /// Calls a host API function and returns its string result (empty for `undefined`).
    fn call_api(
        &mut self,
        function: &v8::Global<v8::Function>,
        args: &[Arg<'_>],
    ) -> Result<String, CallFailed> {
        deno_core::scope!(scope, self.runtime);
        v8::tc_scope!(let scope, scope);
        let mut locals: Vec<v8::Local<v8::Value>> = Vec::with_capacity(args.len());
        for arg in args {
            locals.push(match arg {
                Arg::Value(value) => v8::Local::new(scope, *value),
                Arg::Text(text) => v8::String::new(scope, text).ok_or(CallFailed)?.into(),
                Arg::Number(number) => v8::Number::new(scope, *number).into(),
            });
        }
        let function = v8::Local::new(scope, function);
        let receiver = v8::undefined(scope).into();
        let result = function.call(scope, receiver, &locals).ok_or(CallFailed)?;
        if result.is_undefined() {
            return Ok(String::new());
        }
        Ok(result.to_rust_string_lossy(scope))
    }
}

/// An argument of a host API call.
enum Arg<'a> {
    Value(&'a v8::Global<v8::Value>),
    Text(&'a str),
    Number(f64),
}
