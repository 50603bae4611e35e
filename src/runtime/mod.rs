//! The code runtime seam: what Code Mode needs from an engine that runs model-written programs.
//!
//! A [`CodeRuntime`] runs one program per [`CodeRunRequest`]: the program is the body of an
//! async function; it reaches the host only through the [`BindingNamespace`]s of the request
//! (for Code Mode: the global `tools`, whose members re-enter the tool pipeline) and the
//! console. The answer is always a [`CodeRunOutcome`] — a failed program is an outcome with a
//! [`CodeRunError`] of one of six kinds, never an `Err`.
//!
//! The shipped runtime is [`JsEngine`] (deno_core; QuickJS by default, V8 by feature), with
//! TypeScript erased by [`js::strip`] and budgets set by [`EngineConfig`].
//!
//! This module owns the seam's types; the JavaScript engine lives in [`js`], the Python one in `python`. It must not know about
//! tools, the registry or Code Mode (Code Mode's bridge builds on this seam).

use std::fmt;
use std::sync::Arc;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use crate::error::ErrorCode;
use crate::json::JsonValue;

pub mod config;
pub mod js;
mod ledger;
#[cfg(feature = "python")]
pub mod python;

pub use config::EngineConfig;
pub use js::{ENGINE, JsEngine};

/// The largest program a runtime accepts, in bytes (model-written programs are far smaller):
/// a limit of the seam, so that every runtime refuses the same programs (the JavaScript
/// engine's TypeScript stripping and the Python runtime both check it before any work).
pub const MAX_PROGRAM_BYTES: usize = 512 * 1024;

/// The language a runtime executes (it selects the SDK renderer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Language {
    /// TypeScript, type-stripped before it runs.
    TypeScript,
    /// Python.
    Python,
}

impl Language {
    /// The stable string form: `"typescript"` or `"python"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Language::TypeScript => "typescript",
            Language::Python => "python",
        }
    }
}

impl Language {
    /// Parses `text` as the language of `what` (`runtime`, `SDK`: the word the error
    /// names it by).
    pub(crate) fn parse_as(text: &str, what: &str) -> Result<Language, crate::error::Error> {
        match text {
            "typescript" => Ok(Language::TypeScript),
            "python" => Ok(Language::Python),
            other => Err(crate::error::Error::new(
                crate::error::ErrorCode::InvalidConfig,
                format!("unknown {what} language `{other}` (expected `typescript` or `python`)"),
            )),
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Language {
    type Err = crate::error::Error;

    /// Parses a language's stable string form ([`Language::as_str`]) as the code runtime's
    /// language (`[runtime] language`).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`](crate::ErrorCode::InvalidConfig) for any text but
    /// `typescript` or `python` (exact, lowercase); the message names it as the runtime's
    /// language and quotes the text.
    ///
    /// # Examples
    ///
    /// ```
    /// use codemode::runtime::Language;
    /// assert_eq!("python".parse::<Language>().unwrap(), Language::Python);
    /// let err = "ruby".parse::<Language>().unwrap_err();
    /// assert_eq!(err.message(), "unknown runtime language `ruby` (expected `typescript` or `python`)");
    /// ```
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Language::parse_as(text, "runtime")
    }
}

/// An engine that runs model-written programs.
pub trait CodeRuntime: Send + Sync + 'static {
    /// The language programs are written in.
    fn language(&self) -> Language;

    /// A short label of how runs are isolated, e.g. `"deno_core/quickjs isolate, fresh per
    /// run"` (for logs and diagnostics).
    fn isolation(&self) -> &'static str;

    /// How many sandboxes the engine made ahead and holds for the next runs, for
    /// monitoring; `None` (the default) for an engine without a warm pool.
    fn warm(&self) -> Option<usize> {
        None
    }

    /// Runs one program. Every failure (the program threw, a budget expired, the signal
    /// fired, ...) is an outcome with an error, never a panic or an `Err`.
    fn run(&self, request: CodeRunRequest) -> BoxFuture<'static, CodeRunOutcome>;
}

/// One program to run.
#[derive(Clone)]
#[non_exhaustive]
pub struct CodeRunRequest {
    /// The program: the body of an async function (top-level `await` and `return` work).
    pub program: String,
    /// The host functions the program can call, each namespace a global object.
    pub namespaces: Vec<BindingNamespace>,
    /// Cancels the run: it ends promptly as [`CodeRunErrorKind::Abort`].
    pub signal: CancellationToken,
    /// Called with each line the program prints, as it prints it (the lines are in the
    /// outcome's logs too), on the engine's thread: it must return at once.
    pub on_line: Option<LineSink>,
}

/// What a run hands each printed line to ([`CodeRunRequest::on_line`]).
pub type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

impl CodeRunRequest {
    /// A request to run `program` (the body of an async function) with `namespaces`, never
    /// cancelled unless [`CodeRunRequest::with_signal`] gives it a token.
    ///
    /// # Examples
    ///
    /// ```
    /// use codemode::runtime::CodeRunRequest;
    /// let request = CodeRunRequest::new("return 1 + 1", Vec::new());
    /// assert_eq!(request.program, "return 1 + 1");
    /// assert!(!request.signal.is_cancelled());
    /// ```
    pub fn new(program: impl Into<String>, namespaces: Vec<BindingNamespace>) -> Self {
        CodeRunRequest {
            program: program.into(),
            namespaces,
            signal: CancellationToken::new(),
            on_line: None,
        }
    }

    /// The same request, stopped (as `aborted`) when `signal` is cancelled.
    pub fn with_signal(mut self, signal: CancellationToken) -> Self {
        self.signal = signal;
        self
    }

    /// The same request, handing each printed line to `sink` as it is printed.
    pub fn with_line_sink(mut self, sink: LineSink) -> Self {
        self.on_line = Some(sink);
        self
    }
}

impl fmt::Debug for CodeRunRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CodeRunRequest")
            .field("program", &self.program)
            .field("namespaces", &self.namespaces)
            .field("cancelled", &self.signal.is_cancelled())
            .field("on_line", &self.on_line.is_some())
            .finish()
    }
}

/// Why a binding call failed: the program's error carries the stable `code` (`e.code`
/// in both languages) and the human-readable `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallError {
    /// The stable code a program can branch on (`TOOL_DENIED`, `TOOL_FAILED`,
    /// `INVALID_ARGS`, ...).
    pub code: ErrorCode,
    /// Why, for the model.
    pub message: String,
}

impl CallError {
    /// A failure with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        CallError {
            code,
            message: message.into(),
        }
    }

    /// Arguments the runtime refused before the host saw them (not lossless JSON, over
    /// the per-call limit): `INVALID_ARGS`.
    pub(crate) fn invalid_args(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgs, message)
    }

    /// A failure of the host's side, not of the tool (a panic, an interrupted task, the
    /// run's host memory spent): `HOST_FAILED`.
    pub(crate) fn host(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::HostFailed, message)
    }
}

/// A binding call's answer: the JSON value, or why it failed.
pub type CallAnswer = Result<JsonValue, CallError>;

/// A global object of host functions, e.g. `tools` with one async function per tool.
#[derive(Clone)]
#[non_exhaustive]
pub struct BindingNamespace {
    /// The global's name, e.g. `"tools"`. Must be an identifier.
    pub global: String,
    /// The error class injected as a global, e.g. `"ToolCallError"`: a failed call rejects
    /// with an instance whose `.name` is this, with `.message` and the member-name property.
    /// Must be an identifier.
    pub error_class: String,
    /// The property of error instances that names the member, e.g. `"toolName"`.
    pub member_property: String,
    /// The member names. Any string: `"__proto__"`, `"constructor"`, `"路径"` are ordinary
    /// own properties of a null-prototype object.
    pub members: Vec<String>,
    /// How members take their arguments and give their results.
    pub style: CallStyle,
    /// Who answers the calls.
    pub host: Arc<dyn BindingHost>,
}

/// How a namespace's members take their arguments and give their results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallStyle {
    /// `tools.name(args)`: one argument (none: `{}`; Python also takes keyword arguments as
    /// that object), passed to the host as it is; the host's value is the call's result.
    #[default]
    Object,
    /// `store.set(key, value)`: any number of arguments, passed to the host as the JSON
    /// array of them (an argument JSON cannot carry, `undefined` included, refuses the
    /// call); the host answers an array of at most one value: `[]` resolves the call to
    /// `undefined` (Python: `None`), `[value]` to `value`.
    Positional,
    /// `progress(done, total, message)`: the global is the namespace's one member itself (a
    /// function, not an object), taking and answering as [`CallStyle::Positional`]; its
    /// error class is not a global.
    Function,
}

impl CallStyle {
    /// Whether the members take the list of their arguments.
    pub fn is_positional(self) -> bool {
        matches!(self, CallStyle::Positional | CallStyle::Function)
    }
}

impl BindingNamespace {
    /// A namespace: the global `global` whose members in `members` call `host`; a failed
    /// call rejects with an instance of the class `error_class`, which names the member in
    /// its property `member_property`.
    pub fn new(
        global: impl Into<String>,
        error_class: impl Into<String>,
        member_property: impl Into<String>,
        members: Vec<String>,
        host: Arc<dyn BindingHost>,
    ) -> Self {
        BindingNamespace {
            global: global.into(),
            error_class: error_class.into(),
            member_property: member_property.into(),
            members,
            style: CallStyle::Object,
            host,
        }
    }

    /// The same namespace, its members called in `style`.
    pub fn with_style(mut self, style: CallStyle) -> Self {
        self.style = style;
        self
    }

    /// Code Mode's namespace: the global `tools`, failures as `ToolCallError` naming the
    /// tool in `toolName`.
    pub fn tools(members: Vec<String>, host: Arc<dyn BindingHost>) -> Self {
        Self::new("tools", "ToolCallError", "toolName", members, host)
    }
}

impl fmt::Debug for BindingNamespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BindingNamespace")
            .field("global", &self.global)
            .field("error_class", &self.error_class)
            .field("member_property", &self.member_property)
            .field("members", &self.members)
            .field("style", &self.style)
            .finish_non_exhaustive()
    }
}

/// Answers a namespace's calls.
pub trait BindingHost: Send + Sync + 'static {
    /// Invoked synchronously on the engine thread, once per binding call, in the program's
    /// submission order, with the call's arguments already checked as lossless JSON (Code
    /// Mode's host checks again and refuses a value that is not, without numbering it). The
    /// host assigns ordering at invocation time (not at first poll).
    ///
    /// The returned future is polled **on the engine thread**, by the run's event loop, and
    /// its polls count as the program's compute time. So a host must not do real work in it:
    /// `call` starts the work elsewhere (e.g. spawns it onto the host's tokio runtime) and
    /// returns a future that only waits for the answer (e.g. a oneshot receiver). The future
    /// needs no tokio context of its own beyond what a current-thread runtime with time and
    /// I/O enabled offers, and it is dropped when the run ends before it completes (the host
    /// cancels its work then). A panic while it is polled rejects that call alone.
    ///
    /// `Ok(value)` resolves the program's promise with that JSON value (it must be lossless
    /// JSON, or the call rejects with `INVALID_TOOL_OUTPUT`); `Err(error)` rejects it with
    /// an instance of the namespace's error class carrying the member name, the error's
    /// message and its code (`e.code`).
    ///
    /// # Errors
    ///
    /// Not a [`crate::Error`]: an implementation resolves to `Err(CallError)` to make the
    /// program's call reject (catchable by the program) — the run goes on. Code Mode's host
    /// does so with a failed sub-call's code and message (`UNKNOWN_TOOL`, `TOOL_DENIED`,
    /// `TOOL_FAILED`, ...), for arguments that are not lossless JSON (`INVALID_ARGS`), and
    /// when the call's task was interrupted (`HOST_FAILED`).
    fn call(&self, member: &str, args: JsonValue) -> BoxFuture<'static, CallAnswer>;

    /// What a failed run adds after `tools has no member "NAME"` when the program called
    /// `name`, a member the namespace does not have (its members are `members`), through a
    /// computed name (`tools[name](...)`): the nearest members, say (`did you mean
    /// list_issues?`). Asked at most once per run, on the engine thread, when the run
    /// fails with the engine's "is not a function" error for the namespace and `name` is
    /// the last member the program asked the namespace for that it does not have. The
    /// default adds nothing. Code Mode's host answers with the static check's suggestion.
    fn unknown_member(&self, name: &str, members: &[String]) -> Option<String> {
        let _ = (name, members);
        None
    }
}

/// What a run produced.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct CodeRunOutcome {
    /// The returned value; `None` when the program returned nothing (`undefined`) or failed.
    pub value: Option<JsonValue>,
    /// One string per console call, in order, including those printed before a failure.
    pub logs: Vec<String>,
    /// Why the run failed, if it did.
    pub error: Option<CodeRunError>,
}

impl CodeRunOutcome {
    /// A program that returned `value` (`None`: it returned nothing) after printing `logs`.
    pub fn success(value: Option<JsonValue>, logs: Vec<String>) -> Self {
        CodeRunOutcome {
            value,
            logs,
            error: None,
        }
    }

    /// A program that failed with `error` after printing `logs`.
    pub fn failure(error: CodeRunError, logs: Vec<String>) -> Self {
        CodeRunOutcome {
            value: None,
            logs,
            error: Some(error),
        }
    }
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRunError {
    /// The failure class.
    pub kind: CodeRunErrorKind,
    /// What happened, written for the model to act on.
    pub message: String,
}

impl CodeRunError {
    /// A failure of `kind` with `message`.
    pub fn new(kind: CodeRunErrorKind, message: impl Into<String>) -> Self {
        CodeRunError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for CodeRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

/// The six ways a run fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CodeRunErrorKind {
    /// The program threw, or failed to parse or strip.
    Exception,
    /// A budget expired (compute or wall time; the message says which).
    Timeout,
    /// The caller's signal fired.
    Abort,
    /// The engine died under the program: heap exhausted, an uncatchable stack overflow.
    WorkerExit,
    /// The completion value is not lossless JSON.
    InvalidOutput,
    /// The logs plus the value or failure message exceeded the output cap.
    OutputLimit,
}

impl CodeRunErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [CodeRunErrorKind; 6] = [
        CodeRunErrorKind::Exception,
        CodeRunErrorKind::Timeout,
        CodeRunErrorKind::Abort,
        CodeRunErrorKind::WorkerExit,
        CodeRunErrorKind::InvalidOutput,
        CodeRunErrorKind::OutputLimit,
    ];

    /// The stable string form: `"exception"`, `"timeout"`, `"abort"`, `"worker-exit"`,
    /// `"invalid-output"`, `"output-limit"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CodeRunErrorKind::Exception => "exception",
            CodeRunErrorKind::Timeout => "timeout",
            CodeRunErrorKind::Abort => "abort",
            CodeRunErrorKind::WorkerExit => "worker-exit",
            CodeRunErrorKind::InvalidOutput => "invalid-output",
            CodeRunErrorKind::OutputLimit => "output-limit",
        }
    }
}

impl fmt::Display for CodeRunErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for dyn CodeRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CodeRuntime")
            .field("language", &self.language())
            .field("isolation", &self.isolation())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_have_their_stable_spelling() {
        let spelled: Vec<&str> = CodeRunErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            spelled,
            [
                "exception",
                "timeout",
                "abort",
                "worker-exit",
                "invalid-output",
                "output-limit"
            ]
        );
        assert_eq!(Language::TypeScript.as_str(), "typescript");
        assert_eq!(Language::Python.to_string(), "python");
    }
}
