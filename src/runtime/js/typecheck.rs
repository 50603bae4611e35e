//! The TypeScript type checker: TypeScript's own compiler (`vendor/typescript/`, the npm
//! `typescript` package, unmodified) and its glue (`js-checker/`), running in the engine in
//! long-lived checkers, one per declarations text.
//!
//! A checker is an isolate on its own engine thread. Its first job loads the compiler (one
//! script: `typescript.js` then `checker.js`; on QuickJS compiled to bytecode once per
//! process, like the bootstrap) and parses the lib files, the runtime's globals and the
//! declarations once; every job checks one program against those kept source files. Jobs
//! of one checker run one at a time, in order; checkers of different declarations run on
//! different threads, so a slow check never delays a check against other declarations.
//! At most [`CheckerConfig::checkers`] are kept, the least recently used dropped first.
//!
//! A check has its own budgets: compute time (the first job of a checker gets the start-up
//! budget on top) and heap. A check that exhausts one is stopped and reported as
//! [`CheckReport::Unchecked`] with the reason, and that checker is discarded (the compiler's
//! state after an interruption is not trusted); the next check starts a fresh one.
//!
//! This module owns the checkers and their budgets; it must not know about tools, scopes or
//! what the caller does with the diagnostics.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use deno_core::v8;
use parking_lot::Mutex;
use serde::Deserialize;
use tokio::sync::oneshot;

use super::budget::{RunStop, StopReason, TimeBudget, Watchdog};
use super::natives;
use super::scripts::EngineScript;
use super::threads::spawn_engine_thread;
use crate::error::{Error, ErrorCode};

/// The budgets of a [`TypeChecker`] and how many checkers it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckerConfig {
    /// CPU time one check may take, in milliseconds. Default 10,000 (a warm check of a
    /// model's program takes tens of milliseconds).
    pub check_ms: u64,
    /// CPU time a new checker may take to load the compiler and parse the lib files and the
    /// declarations, on top of its first check, in milliseconds. Default 60,000 (about
    /// 2.5 s on QuickJS, unloaded).
    pub start_ms: u64,
    /// The heap limit of one checker, in MiB. Default 512.
    pub heap_mb: u64,
    /// Checkers kept at once (each holds the compiler and its source files). Default 4.
    pub checkers: usize,
}

impl Default for CheckerConfig {
    fn default() -> Self {
        CheckerConfig {
            check_ms: 10_000,
            start_ms: 60_000,
            heap_mb: 512,
            checkers: 4,
        }
    }
}

impl CheckerConfig {
    /// The same configuration with another check budget.
    pub const fn with_check_ms(mut self, check_ms: u64) -> Self {
        self.check_ms = check_ms;
        self
    }

    /// The same configuration with another start-up budget.
    pub const fn with_start_ms(mut self, start_ms: u64) -> Self {
        self.start_ms = start_ms;
        self
    }

    /// The same configuration with another heap limit.
    pub const fn with_heap_mb(mut self, heap_mb: u64) -> Self {
        self.heap_mb = heap_mb;
        self
    }

    /// The same configuration with another number of kept checkers.
    pub const fn with_checkers(mut self, checkers: usize) -> Self {
        self.checkers = checkers;
        self
    }

    /// Checks the values: budgets of 1 ms to a day, a heap of 64 MiB to 64 GiB, 1 to 64
    /// checkers.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] naming the field and its value when one is out of range.
    pub fn validate(&self) -> Result<(), Error> {
        const DAY_MS: u64 = 24 * 60 * 60 * 1000;
        let ranges: [(&str, u64, u64, u64); 4] = [
            ("check_ms", self.check_ms, 1, DAY_MS),
            ("start_ms", self.start_ms, 1, DAY_MS),
            ("heap_mb", self.heap_mb, 64, 64 * 1024),
            ("checkers", self.checkers as u64, 1, 64),
        ];
        for (field, value, min, max) in ranges {
            if !(min..=max).contains(&value) {
                return Err(Error::new(
                    ErrorCode::InvalidConfig,
                    format!("type checker {field} must be between {min} and {max}, got {value}"),
                ));
            }
        }
        Ok(())
    }
}

/// One diagnostic of the compiler, in the program as written.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct Diagnostic {
    /// 1-based line in the program.
    pub line: u32,
    /// 1-based column, in characters (as the static check counts).
    pub column: u32,
    /// The compiler's diagnostic code (`TS2339` is 2339).
    pub code: u32,
    /// The compiler's message (its chain flattened, one line per link).
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    /// `line:col - error TS<code>: <message>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{} - error TS{}: {}",
            self.line, self.column, self.code, self.message
        )
    }
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckReport {
    /// The program was checked: `total` errors, the first of them (at most
    /// [`MAX_DIAGNOSTICS`]) in `diagnostics`, in the order of their positions.
    Checked {
        /// How many errors there were.
        total: usize,
        /// The first errors.
        diagnostics: Vec<Diagnostic>,
    },
    /// The program could not be checked (a budget ran out, the checker failed to start).
    Unchecked {
        /// Why, for the model and the log.
        reason: String,
    },
}

/// At most this many diagnostics are reported per check (the glue's cap).
pub const MAX_DIAGNOSTICS: usize = 10;

/// The compiler and its glue, one script defining the global `codemodeChecker`.
static CHECKER_SOURCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let mut source = String::with_capacity(TYPESCRIPT.len() + GLUE.len() + 1);
    source.push_str(TYPESCRIPT);
    source.push('\n');
    source.push_str(GLUE);
    source
});

const TYPESCRIPT: &str = include_str!("../../../vendor/typescript/typescript.js");
const GLUE: &str = include_str!("../../../js-checker/checker.js");
const GLOBALS: &str = include_str!("../../../js-checker/globals.d.ts");

/// The lib files the checker's programs see (`vendor/typescript/libs.txt`: ES2023 and what
/// it references).
macro_rules! lib {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../vendor/typescript/", $name)),
        )
    };
}

const LIBS: &[(&str, &str)] = &[
    lib!("lib.decorators.d.ts"),
    lib!("lib.decorators.legacy.d.ts"),
    lib!("lib.es2015.collection.d.ts"),
    lib!("lib.es2015.core.d.ts"),
    lib!("lib.es2015.d.ts"),
    lib!("lib.es2015.generator.d.ts"),
    lib!("lib.es2015.iterable.d.ts"),
    lib!("lib.es2015.promise.d.ts"),
    lib!("lib.es2015.proxy.d.ts"),
    lib!("lib.es2015.reflect.d.ts"),
    lib!("lib.es2015.symbol.d.ts"),
    lib!("lib.es2015.symbol.wellknown.d.ts"),
    lib!("lib.es2016.array.include.d.ts"),
    lib!("lib.es2016.d.ts"),
    lib!("lib.es2016.intl.d.ts"),
    lib!("lib.es2017.arraybuffer.d.ts"),
    lib!("lib.es2017.d.ts"),
    lib!("lib.es2017.date.d.ts"),
    lib!("lib.es2017.intl.d.ts"),
    lib!("lib.es2017.object.d.ts"),
    lib!("lib.es2017.sharedmemory.d.ts"),
    lib!("lib.es2017.string.d.ts"),
    lib!("lib.es2017.typedarrays.d.ts"),
    lib!("lib.es2018.asyncgenerator.d.ts"),
    lib!("lib.es2018.asynciterable.d.ts"),
    lib!("lib.es2018.d.ts"),
    lib!("lib.es2018.intl.d.ts"),
    lib!("lib.es2018.promise.d.ts"),
    lib!("lib.es2018.regexp.d.ts"),
    lib!("lib.es2019.array.d.ts"),
    lib!("lib.es2019.d.ts"),
    lib!("lib.es2019.intl.d.ts"),
    lib!("lib.es2019.object.d.ts"),
    lib!("lib.es2019.string.d.ts"),
    lib!("lib.es2019.symbol.d.ts"),
    lib!("lib.es2020.bigint.d.ts"),
    lib!("lib.es2020.d.ts"),
    lib!("lib.es2020.date.d.ts"),
    lib!("lib.es2020.intl.d.ts"),
    lib!("lib.es2020.number.d.ts"),
    lib!("lib.es2020.promise.d.ts"),
    lib!("lib.es2020.sharedmemory.d.ts"),
    lib!("lib.es2020.string.d.ts"),
    lib!("lib.es2020.symbol.wellknown.d.ts"),
    lib!("lib.es2021.d.ts"),
    lib!("lib.es2021.intl.d.ts"),
    lib!("lib.es2021.promise.d.ts"),
    lib!("lib.es2021.string.d.ts"),
    lib!("lib.es2021.weakref.d.ts"),
    lib!("lib.es2022.array.d.ts"),
    lib!("lib.es2022.d.ts"),
    lib!("lib.es2022.error.d.ts"),
    lib!("lib.es2022.intl.d.ts"),
    lib!("lib.es2022.object.d.ts"),
    lib!("lib.es2022.regexp.d.ts"),
    lib!("lib.es2022.string.d.ts"),
    lib!("lib.es2023.array.d.ts"),
    lib!("lib.es2023.collection.d.ts"),
    lib!("lib.es2023.d.ts"),
    lib!("lib.es2023.intl.d.ts"),
    lib!("lib.es5.d.ts"),
];

static CHECKER_SCRIPT: EngineScript = EngineScript::new("codemode:typescript", &CHECKER_SOURCE);

/// The lib files as the glue's `init` takes them: JSON text of `{name: text}`.
static LIBS_JSON: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let map: serde_json::Map<String, serde_json::Value> = LIBS
        .iter()
        .map(|(name, text)| ((*name).to_owned(), serde_json::Value::from(*text)))
        .collect();
    serde_json::Value::Object(map).to_string()
});

/// Type-checks TypeScript programs against declarations texts. Cheap to clone; the checkers
/// end when the last clone is dropped (after the check they are running).
#[derive(Clone)]
pub struct TypeChecker {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for TypeChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypeChecker")
            .field("config", &self.shared.config)
            .field("checkers", &self.shared.checkers.lock().len())
            .finish()
    }
}

struct Shared {
    config: CheckerConfig,
    watchdog: Arc<Watchdog>,
    /// The kept checkers, least recently used first.
    checkers: Mutex<Vec<Checker>>,
}

/// The caller's handle of one checker thread.
struct Checker {
    declarations: Arc<str>,
    jobs: mpsc::Sender<Job>,
}

struct Job {
    program: String,
    answer: oneshot::Sender<CheckReport>,
}

impl TypeChecker {
    /// A checker service with `config`'s budgets; no checker starts before the first check.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] for a value out of range ([`CheckerConfig::validate`]);
    /// [`ErrorCode::HostFailed`] when the watchdog thread cannot start.
    pub fn new(config: CheckerConfig) -> Result<TypeChecker, Error> {
        config.validate()?;
        let watchdog = Watchdog::start().map_err(|err| {
            Error::new(
                ErrorCode::HostFailed,
                format!("the type checker's watchdog thread could not start: {err}"),
            )
        })?;
        Ok(TypeChecker {
            shared: Arc::new(Shared {
                config,
                watchdog: Arc::new(watchdog),
                checkers: Mutex::new(Vec::new()),
            }),
        })
    }

    /// The budgets this service checks with.
    pub fn config(&self) -> CheckerConfig {
        self.shared.config
    }

    /// Checks `program` (the body of an async function) against `declarations` (a
    /// TypeScript declarations text: the SDK's). Never fails: what could not be checked is
    /// [`CheckReport::Unchecked`].
    pub async fn check(&self, declarations: &Arc<str>, program: &str) -> CheckReport {
        // A checker discarded while this job waited in its queue (an earlier job ran out of
        // a budget) drops the job unanswered: it is handed once more, to a fresh checker.
        for _ in 0..2 {
            let (answer, answered) = oneshot::channel();
            let job = Job {
                program: program.to_owned(),
                answer,
            };
            if let Err(reason) = self.submit(declarations, job) {
                return CheckReport::Unchecked { reason };
            }
            if let Ok(report) = answered.await {
                return report;
            }
        }
        CheckReport::Unchecked {
            reason: "the type checker stopped before it answered".to_owned(),
        }
    }

    /// Hands `job` to the checker of `declarations`, starting one if none is kept (or the
    /// kept one has ended).
    fn submit(&self, declarations: &Arc<str>, job: Job) -> Result<(), String> {
        let mut checkers = self.shared.checkers.lock();
        let job = match checkers
            .iter()
            .position(|checker| *checker.declarations == **declarations)
        {
            Some(index) => {
                let checker = checkers.remove(index);
                match checker.jobs.send(job) {
                    Ok(()) => {
                        checkers.push(checker);
                        return Ok(());
                    }
                    // That checker ended (a budget stopped it): start another.
                    Err(mpsc::SendError(job)) => job,
                }
            }
            None => job,
        };
        let (jobs, incoming) = mpsc::channel();
        jobs.send(job)
            .map_err(|_| "the type checker could not take the job".to_owned())?;
        let config = self.shared.config;
        let watchdog = self.shared.watchdog.clone();
        let thread_declarations = declarations.clone();
        // A thread that cannot start drops `incoming` with the job in it: the caller's
        // answer channel closes and the check is reported unchecked.
        spawn_engine_thread(
            "codemode-typecheck",
            move || serve(&config, &watchdog, &thread_declarations, incoming),
            |reason| tracing::warn!(%reason, "the type checker thread did not start"),
        );
        if checkers.len() >= self.shared.config.checkers {
            checkers.remove(0);
        }
        checkers.push(Checker {
            declarations: declarations.clone(),
            jobs,
        });
        Ok(())
    }
}

/// What ended a job other than an answer of the glue.
enum Failure {
    /// A budget stopped it (the checker must go).
    Stopped(StopReason),
    /// The glue threw, or a value could not be made (the checker must go).
    Threw(String),
}

/// The checker thread: one isolate, the compiler loaded by the first job, then one check per
/// job until the caller's handle is dropped or a job fails.
fn serve(
    config: &CheckerConfig,
    watchdog: &Watchdog,
    declarations: &str,
    jobs: mpsc::Receiver<Job>,
) {
    let heap_bytes = usize::try_from(config.heap_mb << 20).unwrap_or(usize::MAX);
    let mut isolate = v8::Isolate::new(v8::CreateParams::default().heap_limits(0, heap_bytes));
    natives::install_isolate_callbacks(&mut isolate);
    let context = {
        v8::scope!(let scope, &mut isolate);
        let context = v8::Context::new(scope, Default::default());
        v8::Global::new(scope, context)
    };
    let mut check: Option<v8::Global<v8::Function>> = None;
    while let Ok(job) = jobs.recv() {
        let mut compute = Duration::from_millis(config.check_ms);
        if check.is_none() {
            compute += Duration::from_millis(config.start_ms);
        }
        let stop = Arc::new(RunStop::default());
        stop.attach(isolate.thread_safe_handle());
        natives::watch_heap(Some(stop.clone()), None);
        let guard = watchdog.watch(
            stop.clone(),
            TimeBudget {
                compute,
                wall: compute.saturating_mul(4),
            },
        );
        let result = check_one(
            &mut isolate,
            &context,
            &mut check,
            declarations,
            &job.program,
        );
        drop(guard);
        natives::watch_heap(None, None);
        stop.detach();
        let result = match (result, stop.reason()) {
            (_, Some(reason)) => Err(Failure::Stopped(reason)),
            (result, None) => result,
        };
        match result {
            Ok(report) => {
                let _ = job.answer.send(report);
            }
            Err(failure) => {
                let reason = match failure {
                    Failure::Stopped(StopReason::Heap) => format!(
                        "the type check ran out of its heap of {} MiB",
                        config.heap_mb
                    ),
                    Failure::Stopped(_) => format!(
                        "the type check took longer than its budget of {} ms",
                        compute.as_millis()
                    ),
                    Failure::Threw(message) => format!("the type checker failed: {message}"),
                };
                tracing::warn!(%reason, "a type check did not finish; its checker is discarded");
                // Closed before the answer: the caller's next check starts a fresh checker,
                // and the jobs queued behind this one go back to their callers.
                drop(jobs);
                let _ = job.answer.send(CheckReport::Unchecked { reason });
                return;
            }
        }
    }
}

/// One job: the compiler loaded if it is not yet, then the program checked.
fn check_one(
    isolate: &mut v8::OwnedIsolate,
    context: &v8::Global<v8::Context>,
    check: &mut Option<v8::Global<v8::Function>>,
    declarations: &str,
    program: &str,
) -> Result<CheckReport, Failure> {
    v8::scope_with_context!(let scope, isolate, context);
    v8::tc_scope!(let scope, scope);
    // What the glue threw, while `what` was being done.
    macro_rules! threw {
        ($scope:expr, $what:literal) => {{
            let detail = $scope
                .exception()
                .map(|exception| exception.to_rust_string_lossy($scope))
                .unwrap_or_else(|| "no exception".to_owned());
            Failure::Threw(format!("{}: {detail}", $what))
        }};
    }
    let function = match check {
        Some(function) => v8::Local::new(scope, &*function),
        None => {
            if CHECKER_SCRIPT.evaluate(scope).is_none() {
                return Err(threw!(scope, "loading the compiler"));
            }
            let global = scope.get_current_context().global(scope);
            let name = text(scope, "codemodeChecker")?;
            let api = global
                .get(scope, name.into())
                .and_then(|api| v8::Local::<v8::Object>::try_from(api).ok())
                .ok_or_else(|| Failure::Threw("the glue defined no codemodeChecker".to_owned()))?;
            let init = member_function(scope, api, "init")?;
            let args = [
                text(scope, &LIBS_JSON)?.into(),
                text(scope, GLOBALS)?.into(),
                text(scope, declarations)?.into(),
            ];
            if init.call(scope, api.into(), &args).is_none() {
                return Err(threw!(scope, "parsing the declarations"));
            }
            let function = member_function(scope, api, "check")?;
            *check = Some(v8::Global::new(scope, function));
            function
        }
    };
    let receiver = v8::undefined(scope).into();
    let program = text(scope, program)?;
    let Some(result) = function.call(scope, receiver, &[program.into()]) else {
        return Err(threw!(scope, "checking the program"));
    };
    let result = result.to_rust_string_lossy(scope);
    parse_report(&result).map_err(Failure::Threw)
}

fn text<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    value: &str,
) -> Result<v8::Local<'s, v8::String>, Failure> {
    v8::String::new(scope, value)
        .ok_or_else(|| Failure::Threw("a text is too large for the engine".to_owned()))
}

fn member_function<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    object: v8::Local<'s, v8::Object>,
    name: &str,
) -> Result<v8::Local<'s, v8::Function>, Failure> {
    let key = text(scope, name)?;
    object
        .get(scope, key.into())
        .and_then(|value| v8::Local::<v8::Function>::try_from(value).ok())
        .ok_or_else(|| Failure::Threw(format!("the glue has no function `{name}`")))
}

#[derive(Deserialize)]
struct GlueReport {
    total: usize,
    diagnostics: Vec<Diagnostic>,
}

/// The glue's answer (`{"total": N, "diagnostics": [...]}`) as a report.
fn parse_report(text: &str) -> Result<CheckReport, String> {
    let report: GlueReport = serde_json::from_str(text)
        .map_err(|err| format!("the glue answered with malformed JSON ({err})"))?;
    Ok(CheckReport::Checked {
        total: report.total.max(report.diagnostics.len()),
        diagnostics: report.diagnostics,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lib_files_are_those_vendor_typescript_lists() {
        let listed: Vec<&str> = include_str!("../../../vendor/typescript/libs.txt")
            .lines()
            .filter(|line| !line.is_empty())
            .collect();
        let names: Vec<&str> = LIBS.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, listed);
    }

    #[test]
    fn the_glue_answer_is_read_and_a_malformed_one_is_an_error() {
        let report = parse_report(
            r#"{"total": 3, "diagnostics": [{"line": 2, "column": 7, "code": 2339, "message": "m"}]}"#,
        )
        .unwrap();
        let CheckReport::Checked { total, diagnostics } = report else {
            panic!("checked");
        };
        assert_eq!(total, 3);
        assert_eq!(diagnostics[0].to_string(), "2:7 - error TS2339: m");
        assert!(parse_report("{\"total\": 1}").is_err());
        assert!(parse_report("not json").is_err());
    }

    #[test]
    fn budgets_out_of_range_are_refused_by_name() {
        let err = CheckerConfig::default()
            .with_checkers(0)
            .validate()
            .unwrap_err();
        assert!(err.message().contains("checkers"), "{}", err.message());
        let err = CheckerConfig::default()
            .with_heap_mb(1)
            .validate()
            .unwrap_err();
        assert!(err.message().contains("heap_mb"), "{}", err.message());
        assert!(CheckerConfig::default().validate().is_ok());
    }
}
