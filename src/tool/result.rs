//! Results of tool calls, and the decisions pipeline listeners return.

use serde::{Deserialize, Serialize};

use crate::content::{ContentBlock, UserMessage};
use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;

/// Why a call failed: a message for people and models (no `Error: ` envelope) and the
/// stable failure class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFailure {
    /// Human-readable failure message.
    pub message: String,
    /// The failure class.
    pub code: ErrorCode,
}

impl From<Error> for ToolFailure {
    fn from(err: Error) -> Self {
        ToolFailure {
            message: err.message().to_owned(),
            code: err.code(),
        }
    }
}

impl From<&ToolFailure> for Error {
    fn from(failure: &ToolFailure) -> Self {
        Error::new(failure.code, failure.message.clone())
    }
}

/// Success or failure of a call. A failure never carries a value; only a success can end
/// the turn.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolStatus {
    /// The tool produced its canonical value.
    Success {
        /// The execution-local canonical value (never persisted in journal events).
        value: JsonValue,
        /// The agent loop stops after committing this result's batch.
        concludes_turn: bool,
    },
    /// The call failed.
    Failure(ToolFailure),
}

/// The outcome of one call, as the registry returns it and result observers see it.
///
/// ```
/// use codemode::tool::ToolExecutionResult;
/// use codemode::{ContentBlock, Error, ErrorCode};
/// let failed = ToolExecutionResult::failure(Error::new(ErrorCode::UnknownTool, "unknown tool `x`"));
/// assert!(failed.is_error());
/// assert_eq!(failed.content, vec![ContentBlock::text("unknown tool `x`")]);
/// assert_eq!(failed.model_text(), "Error: unknown tool `x`");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolExecutionResult {
    /// Success (with the value) or failure (with the error).
    pub status: ToolStatus,
    /// The model-facing content.
    pub content: Vec<ContentBlock>,
    /// Replayable presentation metadata (top-level successful calls of tools that declare
    /// a projector).
    pub meta: Option<JsonValue>,
    /// Contexts appended after the result, in order.
    pub additional_contexts: Vec<UserMessage>,
}

impl ToolExecutionResult {
    /// A success with `value` and its rendered `content`.
    pub fn success(value: JsonValue, content: Vec<ContentBlock>) -> Self {
        ToolExecutionResult {
            status: ToolStatus::Success {
                value,
                concludes_turn: false,
            },
            content,
            meta: None,
            additional_contexts: Vec::new(),
        }
    }

    /// A failure whose content is the error's message.
    pub fn failure(error: Error) -> Self {
        let content = vec![ContentBlock::text(error.message())];
        ToolExecutionResult {
            status: ToolStatus::Failure(error.into()),
            content,
            meta: None,
            additional_contexts: Vec::new(),
        }
    }

    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        matches!(self.status, ToolStatus::Failure(_))
    }

    /// The value of a success.
    pub fn value(&self) -> Option<&JsonValue> {
        match &self.status {
            ToolStatus::Success { value, .. } => Some(value),
            ToolStatus::Failure(_) => None,
        }
    }

    /// The failure of a failed call.
    pub fn failure_info(&self) -> Option<&ToolFailure> {
        match &self.status {
            ToolStatus::Failure(failure) => Some(failure),
            ToolStatus::Success { .. } => None,
        }
    }

    /// Whether a success ends the turn.
    pub fn concludes_turn(&self) -> bool {
        matches!(
            self.status,
            ToolStatus::Success {
                concludes_turn: true,
                ..
            }
        )
    }

    /// The text a model sees for this result: the text blocks joined by newlines, and for a
    /// failure `Error: <message>`.
    pub fn model_text(&self) -> String {
        match &self.status {
            ToolStatus::Failure(failure) => format!("Error: {}", failure.message),
            ToolStatus::Success { .. } => crate::content::text_of(&self.content),
        }
    }

    /// The durable projection (what journal events and `present_result` see): content,
    /// failure state and meta — never the value.
    pub fn durable(&self) -> ToolResult {
        ToolResult {
            content: self.content.clone(),
            is_error: self.is_error(),
            error: self.failure_info().cloned(),
            meta: self.meta.clone(),
        }
    }
}

/// The durable projection of a result: what is logged and replayed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    /// The model-facing content.
    pub content: Vec<ContentBlock>,
    /// Whether the call failed.
    pub is_error: bool,
    /// The failure, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ToolFailure>,
    /// Presentation metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonValue>,
}

/// A `tools/pre-execute` decision. Arguments cannot be rewritten: they were already logged
/// and presented.
#[derive(Debug, Clone, PartialEq)]
pub enum PreToolDecision {
    /// Run the call.
    Allow,
    /// Refuse it with a reason (`TOOL_DENIED`).
    Deny {
        /// Why.
        reason: String,
    },
    /// Run it only if the approval service answers `allowed-once`; otherwise deny.
    Ask {
        /// What to tell the approver.
        reason: Option<String>,
    },
}

/// A `tools/post-execute` decision.
#[derive(Debug, Clone, PartialEq)]
pub enum PostToolDecision {
    /// Keep the outcome, optionally replacing ONE projection and attaching contexts.
    Accept {
        /// What to replace, if anything.
        replace: Option<Replacement>,
        /// Contexts to append after the result.
        additional_contexts: Vec<UserMessage>,
    },
    /// Turn the outcome into a failure whose content is the corrective feedback.
    Block {
        /// The feedback the model sees.
        feedback: Vec<ContentBlock>,
        /// Contexts to append after the result.
        additional_contexts: Vec<UserMessage>,
    },
}

impl PostToolDecision {
    /// Accept unchanged.
    pub fn accept() -> Self {
        PostToolDecision::Accept {
            replace: None,
            additional_contexts: Vec::new(),
        }
    }
}

/// What an accepting post-execute listener replaces: the content (presentation only; the
/// value and meta stay) or the value (validated again, then re-rendered) — never both.
#[derive(Debug, Clone, PartialEq)]
pub enum Replacement {
    /// New model-facing content.
    Content(Vec<ContentBlock>),
    /// A new canonical value.
    Value(JsonValue),
}

/// An approval service's answer to an `ask`. Only [`ApprovalAnswer::AllowedOnce`]
/// proceeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovalAnswer {
    /// Run this call, once.
    AllowedOnce,
    /// The approver said no.
    Rejected,
    /// The request was cancelled before an answer.
    Cancelled,
    /// The approver could not be reached.
    Unavailable,
}
