//! Code Mode: the model writes a program against a generated SDK of its tools and runs it
//! with one `run_code` tool.
//!
//! - [`CodeMode`]: the layer installed in a registry — its configuration, the code runtime,
//!   and the resolution hook that reserves `run_code`, provides it to scopes presenting in
//!   `code` or `both`, and refuses direct calls of the other tools in pure Code Mode.
//! - [`mode`](PresentationMode): the modes and each scope's `present_as` declaration.
//! - [`assembly`]: what each scope's model is given (wire schemas, prompt sections,
//!   advertised outputs, instructions).
//! - [`sdk`]: the SDK text (the `tools:sdk` prompt section) in TypeScript and Python, and
//!   the tool-list reader the `codemode sdk` command uses.
//! - `run`: the `run_code` transport tool, whose program's binding calls re-enter the
//!   registry's staged pipeline through a bounded, ordered per-run lane (its bridge), and
//!   whose `store` calls reach the session's store; the `tools/code-dispatch-log`
//!   waterfall, the sub-call records and events, and [`output`], the model-facing text of
//!   a run.
//! - [`store`]: a session's store ([`SessionStore`]): JSON values a session's programs keep
//!   between runs (the global `store`), bounded ([`StoreLimits`], [`StoreBudget`]); a host
//!   passes it with a run ([`Program::with_session`]) or attaches it to the session's scope.
//! - `checks`: what a program passes before it runs. `static_check` refuses it when it
//!   calls a tool the scope does not have (with the nearest names), so no call before that
//!   one has a side effect; with [`CodeModeConfig::typecheck`] a TypeScript program is then
//!   type-checked by TypeScript's own compiler (`typecheck`: [`TypeCheck`] `warn` or
//!   `refuse`).
//! - `index` (with `describe` and [`answer`]) and [`search`]: tool sets of any size. Over
//!   [`CodeModeConfig::sdk_max_tokens`] the SDK in `run_code`'s description is replaced by
//!   a compact index degrading in [`IndexStep`]s ([`estimate_tokens`] measures), and
//!   `describe_tools` (beside `run_code`) returns the declarations of the tools a model
//!   names or of a query's best matches (fielded BM25, fused with an embedder's ranking
//!   when one is configured), fitted within [`CodeModeConfig::describe_max_tokens`].
//!
//! This module owns what the model reads about its tools and the `run_code` transport. It
//! uses the registry only through its public API (scopes, providers, the staged pipeline)
//! and must not decide which tools are visible (the registry does) or how programs execute
//! (the runtime does).

pub mod assembly;
mod checks;
mod index;
mod layer;
mod mode;
mod run;
pub mod sdk;
pub mod search;
pub mod store;
mod text;

pub use assembly::{Assembly, PromptSection, advertised_output, assemble, sdk_tools};
pub use checks::typecheck::{TYPE_ERROR, TypeCheck};
pub use index::answer;
pub use index::{
    DESCRIBE_TOOLS, DescribeRequest, IndexStep, SdkPlan, SourcedTool, ToolIndex, estimate_tokens,
    first_sentence, plan as plan_sdk,
};
pub use layer::{CodeMode, CodeModeConfig, MIN_DESCRIBE_MAX_TOKENS, Program, ProgramRun};
pub use mode::{PresentationMode, ScopePresentation};
pub use run::dispatch_log::{CodeDispatchLog, CodeLogNext, ScopeDispatchLog};
pub use run::output;
pub use run::record::{SubCallObserver, SubCallRecord};
pub use run::run_code_description;
pub use store::{SessionStore, StoreBudget, StoreLimits};

/// The name of Code Mode's transport tool, reserved in every registry Code Mode is
/// installed in.
pub const RUN_CODE: &str = "run_code";

/// The codes a program's failed tool call carries (`e.code`), as the SDK's `ToolCallError`
/// declares them: what the pipeline answers a sub-call with (its arguments, the tool's
/// visibility, policy, guards, approval, the result's checks, the tool's body and time
/// budget, a listener's failure) and `HOST_FAILED` when the host could not carry the call.
/// A sub-call cancelled because its run ended (`ABORTED`, `ABORTED_BEFORE_DISPATCH`) is
/// never seen by the program, and `run_code` is not one of its tools.
pub const SUB_CALL_CODES: [crate::ErrorCode; 11] = {
    use crate::ErrorCode::*;
    [
        InvalidArgs,
        InvalidToolOutput,
        UnknownTool,
        ToolDenied,
        GuardDenied,
        ApprovalDenied,
        ResultBlocked,
        ToolFailed,
        ToolTimeout,
        ListenerFailed,
        HostFailed,
    ]
};

/// The global a program reaches its tools through.
pub(crate) const TOOLS: &str = "tools";

/// The smallest accepted [`CodeModeConfig::sdk_max_tokens`]: below it not even the SDK's
/// instructions and the smallest index step fit.
pub const MIN_SDK_MAX_TOKENS: usize = 1_000;
