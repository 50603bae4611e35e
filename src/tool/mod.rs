//! Tools: definitions (raw and typed), the identity of a call, results and pipeline
//! decisions, cancellation signals, progress reports.
//!
//! This module owns the data a tool is made of; it must not know how the registry
//! resolves, orders or runs calls.

mod definition;
mod execution;
mod progress;
mod result;
mod signal;
mod typed;

pub use definition::{
    Concurrency, MAX_JSON_INDENT, MAX_TOOL_NAME, ToolAnnotations, ToolBuilder, ToolDefinition,
    ToolFuture, ToolOutput, ToolSchema, render_json, tool_name_problem,
};
pub use execution::{
    CallId, ExecutionToken, ScopeId, ToolExecution, ToolExecutionInput, ToolRunContext,
};
pub use progress::{
    MAX_PROGRESS_MESSAGE_CHARS, MAX_QUEUED_REPORTS, PROGRESS_INTERVAL, Progress, ProgressRelay,
    ProgressSink,
};
pub use result::{
    ApprovalAnswer, PostToolDecision, PreToolDecision, Replacement, ToolExecutionResult,
    ToolFailure, ToolResult, ToolStatus,
};
pub use signal::Signal;
pub use typed::{TypedToolBuilder, define_tool};
