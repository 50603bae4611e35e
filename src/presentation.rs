//! Tool-owned UI presentation: provider-neutral, card-tagged render intents.
//!
//! A tool describes how a UI (an editor's tool-call card, a CLI log line) should show its
//! calls, without knowing any client protocol. [`ToolCallView`] is the pending state,
//! [`ToolResultView`] the completed one; both serialize with a `card` tag and the spec's
//! field names (`rawInput`, `exitCode`, `oldText`, `totalLines`, ...).
//!
//! This module owns the vocabulary only; tools produce views, UIs consume them.

use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::json::JsonValue;

/// The icon/treatment of a generic card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolCallKind {
    /// Reads something.
    Read,
    /// Edits something.
    Edit,
    /// Deletes something.
    Delete,
    /// Moves or renames something.
    Move,
    /// Searches.
    Search,
    /// Executes something.
    Execute,
    /// Fetches from a network.
    Fetch,
    /// Anything else.
    Other,
}

/// A file a call reads or modifies, so a capable UI can follow along.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileLocation {
    /// The file's path.
    pub path: String,
    /// A 1-based line, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
}

/// One file change: old and new text (`oldText: null` for a new file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    /// The file's path.
    pub path: String,
    /// The text before (`None` when the file is new).
    pub old_text: Option<String>,
    /// The text after.
    pub new_text: String,
}

/// One numbered line of a read window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadFileLine {
    /// The 1-based line number.
    pub number: u64,
    /// The line's text.
    pub text: String,
}

/// How to present a call while it is pending.
///
/// ```
/// use codemode::presentation::{ToolCallKind, ToolCallView};
/// let view = ToolCallView::Generic {
///     title: "Read src/main.rs".into(),
///     kind: Some(ToolCallKind::Read),
///     raw_input: None,
///     content: None,
///     locations: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&view).unwrap(),
///     serde_json::json!({"card": "generic", "title": "Read src/main.rs", "kind": "read"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "card", rename_all = "lowercase")]
pub enum ToolCallView {
    /// The default card.
    #[serde(rename_all = "camelCase")]
    Generic {
        /// A human-readable title.
        title: String,
        /// Icon/treatment (default `other`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<ToolCallKind>,
        /// The salient input for a detail view (not necessarily all arguments).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        raw_input: Option<JsonValue>,
        /// Extra UI content.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Vec<ContentBlock>>,
        /// Files the call reads or modifies.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        locations: Option<Vec<FileLocation>>,
    },
    /// A shell command.
    Terminal {
        /// The command.
        title: String,
        /// Shown above the command.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// The working directory.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// A file creation or modification.
    Diff {
        /// A human-readable title.
        title: String,
        /// The changes.
        diffs: Vec<FileDiff>,
        /// Files the call modifies.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        locations: Option<Vec<FileLocation>>,
    },
}

/// How a search card's results are shaped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "lowercase")]
pub enum SearchResults {
    /// Matches grouped by file (grep).
    Matches {
        /// One group per file.
        files: Vec<SearchFileMatches>,
    },
    /// A flat list of paths (glob, directory listings).
    Paths {
        /// The paths.
        paths: Vec<String>,
    },
}

/// The matches in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchFileMatches {
    /// The file's path.
    pub path: String,
    /// The matching lines.
    pub matches: Vec<ReadFileLine>,
}

/// One source of a web search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebSource {
    /// The page's URL.
    pub url: String,
    /// The page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A snippet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
}

/// What a web card shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum WebResults {
    /// A web search.
    Search {
        /// The sources found.
        sources: Vec<WebSource>,
        /// A synthesized answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer: Option<String>,
        /// Whether the list was cut short.
        truncated: bool,
    },
    /// A page fetch.
    #[serde(rename_all = "camelCase")]
    Fetch {
        /// The URL fetched.
        url: String,
        /// The HTTP status.
        status_code: u16,
        /// Whether the body was cut short.
        truncated: bool,
    },
}

/// How to present a completed call.
///
/// ```
/// use codemode::presentation::{SearchResults, ToolResultView};
/// let view = ToolResultView::Search {
///     title: None,
///     truncated: false,
///     total: 2,
///     results: SearchResults::Paths { paths: vec!["a.rs".into(), "b.rs".into()] },
/// };
/// assert_eq!(
///     serde_json::to_value(&view).unwrap(),
///     serde_json::json!({"card": "search", "truncated": false, "total": 2, "shape": "paths", "paths": ["a.rs", "b.rs"]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "card", rename_all = "lowercase")]
pub enum ToolResultView {
    /// A replacement title and reformatted content.
    Generic {
        /// Replacement title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// Reformatted content.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Vec<ContentBlock>>,
    },
    /// A terminal run's output and exit status.
    #[serde(rename_all = "camelCase")]
    Terminal {
        /// Replacement title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// Captured output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<String>,
        /// Exit code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
        /// The signal that ended the process.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<String>,
    },
    /// A completed file change.
    Diff {
        /// Replacement title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The applied changes.
        diffs: Vec<FileDiff>,
    },
    /// A completed search.
    Search {
        /// Replacement title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// Whether the inline results were cut short.
        truncated: bool,
        /// How many results exist in all.
        total: u64,
        /// The results.
        #[serde(flatten)]
        results: SearchResults,
    },
    /// A completed file read.
    #[serde(rename_all = "camelCase")]
    Read {
        /// Replacement title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The file read.
        path: String,
        /// The 1-based first line the window asked for (kept when `lines` is empty).
        offset: u64,
        /// The numbered lines of the window.
        lines: Vec<ReadFileLine>,
        /// The file's total number of lines.
        total_lines: u64,
        /// A language hint from the extension.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lang: Option<String>,
        /// The plain text for UIs without read support.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
    },
    /// A completed web search or fetch.
    Web {
        /// Replacement title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// What was done.
        #[serde(flatten)]
        results: WebResults,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(
        value: T,
        expected: JsonValue,
    ) {
        let json = serde_json::to_value(&value).unwrap();
        assert_eq!(json, expected);
        assert_eq!(serde_json::from_value::<T>(json).unwrap(), value);
    }

    #[test]
    fn call_views_use_the_spec_field_names() {
        round_trip(
            ToolCallView::Generic {
                title: "t".into(),
                kind: Some(ToolCallKind::Execute),
                raw_input: Some(json!({"id": 1})),
                content: Some(vec![ContentBlock::text("x")]),
                locations: Some(vec![FileLocation {
                    path: "a".into(),
                    line: Some(3),
                }]),
            },
            json!({"card": "generic", "title": "t", "kind": "execute", "rawInput": {"id": 1},
                   "content": [{"type": "text", "text": "x"}], "locations": [{"path": "a", "line": 3}]}),
        );
        round_trip(
            ToolCallView::Terminal {
                title: "ls".into(),
                description: Some("list".into()),
                cwd: Some("/".into()),
            },
            json!({"card": "terminal", "title": "ls", "description": "list", "cwd": "/"}),
        );
        round_trip(
            ToolCallView::Diff {
                title: "Write a".into(),
                diffs: vec![FileDiff {
                    path: "a".into(),
                    old_text: None,
                    new_text: "x".into(),
                }],
                locations: None,
            },
            json!({"card": "diff", "title": "Write a", "diffs": [{"path": "a", "oldText": null, "newText": "x"}]}),
        );
    }

    #[test]
    fn result_views_use_the_spec_field_names() {
        round_trip(
            ToolResultView::Terminal {
                title: None,
                output: Some("ok".into()),
                exit_code: Some(0),
                signal: None,
            },
            json!({"card": "terminal", "output": "ok", "exitCode": 0}),
        );
        round_trip(
            ToolResultView::Search {
                title: Some("grep".into()),
                truncated: true,
                total: 10,
                results: SearchResults::Matches {
                    files: vec![SearchFileMatches {
                        path: "a.rs".into(),
                        matches: vec![ReadFileLine {
                            number: 4,
                            text: "TODO".into(),
                        }],
                    }],
                },
            },
            json!({"card": "search", "title": "grep", "truncated": true, "total": 10, "shape": "matches",
                   "files": [{"path": "a.rs", "matches": [{"number": 4, "text": "TODO"}]}]}),
        );
        round_trip(
            ToolResultView::Read {
                title: None,
                path: "a.rs".into(),
                offset: 5,
                lines: vec![],
                total_lines: 3,
                lang: Some("rust".into()),
                content: None,
            },
            json!({"card": "read", "path": "a.rs", "offset": 5, "lines": [], "totalLines": 3, "lang": "rust"}),
        );
        round_trip(
            ToolResultView::Web {
                title: None,
                results: WebResults::Fetch {
                    url: "u".into(),
                    status_code: 200,
                    truncated: false,
                },
            },
            json!({"card": "web", "kind": "fetch", "url": "u", "statusCode": 200, "truncated": false}),
        );
        round_trip(
            ToolResultView::Web {
                title: Some("q".into()),
                results: WebResults::Search {
                    sources: vec![WebSource {
                        url: "u".into(),
                        title: None,
                        snippet: Some("s".into()),
                    }],
                    answer: None,
                    truncated: false,
                },
            },
            json!({"card": "web", "title": "q", "kind": "search", "sources": [{"url": "u", "snippet": "s"}], "truncated": false}),
        );
        round_trip(
            ToolResultView::Diff {
                title: None,
                diffs: vec![],
            },
            json!({"card": "diff", "diffs": []}),
        );
        round_trip(
            ToolResultView::Generic {
                title: None,
                content: None,
            },
            json!({"card": "generic"}),
        );
    }
}
