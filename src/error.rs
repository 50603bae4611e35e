//! The one error vocabulary of the library: stable codes and human-readable messages.
//!
//! Every failure that reaches a host, a model or the journal carries an [`ErrorCode`]
//! whose string form is stable (`INVALID_ARGS`, `UNKNOWN_TOOL`, ...). Tool-call failures
//! travel inside results (see the registry); programming errors of the host (registering a
//! duplicate tool, a malformed schema) are returned as `Err(Error)`.
//!
//! This module owns the codes and their texts; it must not know about tools, schemas or
//! the engine.

use std::fmt;

/// A stable, machine-readable failure class.
///
/// The string form ([`ErrorCode::as_str`]) is part of the public contract: it appears in
/// tool results, journal events and the command's JSON output, and never changes.
///
/// ```
/// use codemode::ErrorCode;
/// assert_eq!(ErrorCode::UnknownTool.as_str(), "UNKNOWN_TOOL");
/// assert_eq!("TOOL_TIMEOUT".parse::<ErrorCode>(), Ok(ErrorCode::ToolTimeout));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The arguments of a call do not match the tool's parameters (or are not lossless JSON).
    InvalidArgs,
    /// A tool body (or a post-execute replacement) produced a value its output schema refuses.
    InvalidToolOutput,
    /// The named tool does not exist or is not visible to the caller.
    UnknownTool,
    /// The caller cancelled after the tool body had started.
    Aborted,
    /// The caller cancelled before the tool body started.
    AbortedBeforeDispatch,
    /// The tool exceeded its `timeout_ms` budget.
    ToolTimeout,
    /// A Code Mode program failed (threw, timed out, was aborted, ...).
    CodeRunFailed,
    /// A schema uses a keyword or combination outside the supported subset.
    UnsupportedSchema,
    /// A `tools/pre-execute` listener denied the call.
    ToolDenied,
    /// A registered guard denied the call.
    GuardDenied,
    /// The call needed approval and did not receive `allowed-once`.
    ApprovalDenied,
    /// A `tools/post-execute` listener blocked the result (its feedback is the content).
    ResultBlocked,
    /// The tool body failed: it returned an error or panicked.
    ToolFailed,
    /// A pipeline listener failed: it returned an error, panicked or answered malformed data.
    ListenerFailed,
    /// A tool definition, restriction or registration request is invalid.
    InvalidDefinition,
    /// A configuration value is invalid.
    InvalidConfig,
    /// The host could not do what was asked of it: a thread or process failed to start,
    /// an I/O error outside any tool.
    HostFailed,
    /// A write to a session's store would pass one of its bounds (the value's size, the
    /// number of keys, the session's bytes, the server's or the token's share); nothing
    /// stored before was lost.
    StoreLimit,
    /// A program used the session store, but its run has no session (the host passed none).
    NoSession,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 19] = [
        ErrorCode::InvalidArgs,
        ErrorCode::InvalidToolOutput,
        ErrorCode::UnknownTool,
        ErrorCode::Aborted,
        ErrorCode::AbortedBeforeDispatch,
        ErrorCode::ToolTimeout,
        ErrorCode::CodeRunFailed,
        ErrorCode::UnsupportedSchema,
        ErrorCode::ToolDenied,
        ErrorCode::GuardDenied,
        ErrorCode::ApprovalDenied,
        ErrorCode::ResultBlocked,
        ErrorCode::ToolFailed,
        ErrorCode::ListenerFailed,
        ErrorCode::InvalidDefinition,
        ErrorCode::InvalidConfig,
        ErrorCode::HostFailed,
        ErrorCode::StoreLimit,
        ErrorCode::NoSession,
    ];

    /// The stable string form of the code.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgs => "INVALID_ARGS",
            ErrorCode::InvalidToolOutput => "INVALID_TOOL_OUTPUT",
            ErrorCode::UnknownTool => "UNKNOWN_TOOL",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::AbortedBeforeDispatch => "ABORTED_BEFORE_DISPATCH",
            ErrorCode::ToolTimeout => "TOOL_TIMEOUT",
            ErrorCode::CodeRunFailed => "CODE_RUN_FAILED",
            ErrorCode::UnsupportedSchema => "UNSUPPORTED_SCHEMA",
            ErrorCode::ToolDenied => "TOOL_DENIED",
            ErrorCode::GuardDenied => "GUARD_DENIED",
            ErrorCode::ApprovalDenied => "APPROVAL_DENIED",
            ErrorCode::ResultBlocked => "RESULT_BLOCKED",
            ErrorCode::ToolFailed => "TOOL_FAILED",
            ErrorCode::ListenerFailed => "LISTENER_FAILED",
            ErrorCode::InvalidDefinition => "INVALID_DEFINITION",
            ErrorCode::InvalidConfig => "INVALID_CONFIG",
            ErrorCode::HostFailed => "HOST_FAILED",
            ErrorCode::StoreLimit => "STORE_LIMIT",
            ErrorCode::NoSession => "NO_SESSION",
        }
    }

    /// A one-line human-readable description of what the code means.
    pub const fn describe(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgs => "the call's arguments do not match the tool's parameters",
            ErrorCode::InvalidToolOutput => "the tool produced a value its output schema refuses",
            ErrorCode::UnknownTool => "no tool of that name is visible to the caller",
            ErrorCode::Aborted => "the call was cancelled after the tool started",
            ErrorCode::AbortedBeforeDispatch => "the call was cancelled before the tool started",
            ErrorCode::ToolTimeout => "the tool exceeded its time budget",
            ErrorCode::CodeRunFailed => "the Code Mode program failed",
            ErrorCode::UnsupportedSchema => "the schema is outside the supported subset",
            ErrorCode::ToolDenied => "a policy denied the call",
            ErrorCode::GuardDenied => "a guard denied the call",
            ErrorCode::ApprovalDenied => "the call needed approval and was not approved",
            ErrorCode::ResultBlocked => "a policy blocked the result",
            ErrorCode::ToolFailed => "the tool failed",
            ErrorCode::ListenerFailed => "a pipeline listener failed",
            ErrorCode::InvalidDefinition => "the definition or registration request is invalid",
            ErrorCode::InvalidConfig => "the configuration is invalid",
            ErrorCode::HostFailed => "the host could not do what was asked of it",
            ErrorCode::StoreLimit => "a write to the session store would pass one of its bounds",
            ErrorCode::NoSession => "the run has no session, so it has no store",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The string did not name a known [`ErrorCode`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown error code `{0}`")]
pub struct UnknownErrorCode(pub String);

impl std::str::FromStr for ErrorCode {
    type Err = UnknownErrorCode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .into_iter()
            .find(|code| code.as_str() == s)
            .ok_or_else(|| UnknownErrorCode(s.to_owned()))
    }
}

impl serde::Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The library's error: a stable [`ErrorCode`] plus a message written for a person
/// (or a model) to act on.
///
/// ```
/// use codemode::{Error, ErrorCode};
/// let err = Error::new(ErrorCode::UnknownTool, "unknown tool `frobnicate`");
/// assert_eq!(err.code(), ErrorCode::UnknownTool);
/// assert_eq!(err.to_string(), "unknown tool `frobnicate`");
/// ```
///
/// An error may keep its cause ([`Error::with_source`]), reachable through
/// [`std::error::Error::source`]; two errors are equal when their code and message are.
#[derive(Debug, Clone)]
pub struct Error {
    code: ErrorCode,
    message: String,
    source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
}

impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        self.code == other.code && self.message == other.message
    }
}

impl Eq for Error {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|source| source as &(dyn std::error::Error + 'static))
    }
}

impl Error {
    /// Creates an error with `code` and a human-readable `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            source: None,
        }
    }

    /// Creates an error that keeps its cause: `message` says what failed (and usually the
    /// cause's text), `source` is the cause itself.
    ///
    /// ```
    /// use codemode::{Error, ErrorCode};
    /// let io = std::io::Error::other("disk on fire");
    /// let err = Error::with_source(ErrorCode::HostFailed, format!("cannot start: {io}"), io);
    /// assert_eq!(std::error::Error::source(&err).map(|s| s.to_string()).as_deref(), Some("disk on fire"));
    /// ```
    pub fn with_source(
        code: ErrorCode,
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error {
            code,
            message: message.into(),
            source: Some(std::sync::Arc::new(source)),
        }
    }

    /// Whether the error is the caller's to fix in what it asked for — a usage, definition
    /// or configuration problem — rather than a failure while doing it.
    pub fn is_usage(&self) -> bool {
        matches!(
            self.code,
            ErrorCode::InvalidConfig | ErrorCode::InvalidDefinition | ErrorCode::UnsupportedSchema
        )
    }

    /// The stable failure class.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The human-readable message (no code prefix, no `Error: ` envelope).
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Shorthand for results of this library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_through_their_string_form() {
        for code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).unwrap(), code);
            assert!(!code.describe().is_empty());
        }
    }

    #[test]
    fn spec_codes_have_the_spec_spelling() {
        let spec = [
            "INVALID_ARGS",
            "INVALID_TOOL_OUTPUT",
            "UNKNOWN_TOOL",
            "ABORTED",
            "ABORTED_BEFORE_DISPATCH",
            "TOOL_TIMEOUT",
            "CODE_RUN_FAILED",
            "UNSUPPORTED_SCHEMA",
        ];
        for text in spec {
            assert_eq!(text.parse::<ErrorCode>().unwrap().as_str(), text);
        }
    }

    #[test]
    fn unknown_codes_are_refused_with_the_text() {
        let err = "NOPE".parse::<ErrorCode>().unwrap_err();
        assert_eq!(err.to_string(), "unknown error code `NOPE`");
    }
}
