//! `grep`: the lines of the workspace's text files that match a regular expression.
//!
//! Owns the search (files in path order, binary files skipped, long lines shortened around
//! the match), the match cap and the `search` (matches) card; the walker and pattern rules
//! are [`super::walk`]'s. Must not write.

use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use regex::bytes::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::presentation::{
    ReadFileLine, SearchFileMatches, SearchResults, ToolCallKind, ToolCallView, ToolResultView,
};
use crate::schema::{ParameterSchema, ValueSchema};
use crate::tool::{Signal, ToolDefinition, define_tool};

use super::root::Root;
use super::text::{BINARY_PROBE_BYTES, Lines, looks_binary, lossy};
use super::walk::{PathPattern, walk_files};
use super::{aborted, blocking, card_from_meta, card_meta, location, not_found};

/// Matching lines returned when `max_matches` is not given.
pub(crate) const DEFAULT_MAX_MATCHES: u64 = 200;
/// The largest `max_matches` honoured.
pub(crate) const MAX_MATCHES: u64 = 2000;
/// A matching line longer than this many bytes is shown as a window around its match.
pub(crate) const MAX_LINE_BYTES: usize = 400;
/// Bytes of context kept before the match in a shortened line.
const LEAD_BYTES: usize = 100;
/// Bytes of each line searched (a longer line is searched in its first MiB).
const SEARCH_CAP_BYTES: usize = 1024 * 1024;

/// The arguments of `grep`.
#[derive(Debug, Deserialize)]
pub(crate) struct GrepArgs {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    glob: Option<String>,
    #[serde(default)]
    case_insensitive: Option<bool>,
    #[serde(default)]
    max_matches: Option<u64>,
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GrepMatch {
    /// The file, relative to the root.
    pub path: String,
    /// The 1-based line number.
    pub line: u64,
    /// The line (shortened around the match when long).
    pub text: String,
}

/// The value of `grep`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GrepOutput {
    /// Matching lines, by path then line number.
    pub matches: Vec<GrepMatch>,
    /// Whether matching lines were left out.
    pub truncated: bool,
    /// How many lines match in all.
    pub total: u64,
}

const DESCRIPTION: &str = "Search the workspace's text files for lines matching a regular expression (Rust regex syntax: escape `( ) [ ] { } . * + ? | \\ ^ $` with a backslash to match them literally; a match never spans lines). \
`path` is a directory or file to search, relative to the workspace root (default: the root); `glob` keeps only files matching a pattern (`*.rs` matches names at any depth, `src/**/*.ts` whole paths). \
Files ignored by .gitignore, the .git directory and binary files are skipped; symbolic links are not followed. \
Returns matching lines by path and line number, at most `max_matches` (default 200, at most 2000); `truncated` and `total` say when there are more. Long lines are shortened around the match.";

pub(super) fn definition(root: Arc<Root>) -> Result<ToolDefinition, Error> {
    let found = ValueSchema::object(false)
        .required(
            "path",
            ValueSchema::string().description("The file, relative to the workspace root"),
        )
        .required(
            "line",
            ValueSchema::integer().description("1-based line number"),
        )
        .required(
            "text",
            ValueSchema::string().description("The line, shortened around the match when long"),
        );
    let output_schema = ValueSchema::object(false)
        .required(
            "matches",
            ValueSchema::array(found).description("Matching lines by path, then line"),
        )
        .required(
            "truncated",
            ValueSchema::boolean().description("True when more lines match than are listed"),
        )
        .required(
            "total",
            ValueSchema::integer().description("How many lines match in all"),
        );
    let parameters = ParameterSchema::new()
        .required(
            "pattern",
            ValueSchema::string().description("The regular expression"),
        )
        .optional(
            "path",
            ValueSchema::string().description(
                "Directory or file to search, relative to the workspace root (default `.`)",
            ),
        )
        .optional(
            "glob",
            ValueSchema::string()
                .description("Only search files matching this pattern, e.g. `*.rs`"),
        )
        .optional(
            "case_insensitive",
            ValueSchema::boolean().description("Ignore case (default false)"),
        )
        .optional(
            "max_matches",
            ValueSchema::integer()
                .description("The most matching lines to return (default 200, at most 2000)"),
        );
    let call_root = root.clone();
    define_tool::<GrepArgs, GrepOutput>("grep")
        .description(DESCRIPTION)
        .closed_parameters(parameters)
        .output(output_schema, |args, out| {
            vec![ContentBlock::text(render(args, out))]
        })
        .presentation_meta(|args, out| card_meta(&result_card(args, out)))
        .always_concurrency_safe()
        .present_call(move |args| Some(call_card(&call_root, args)))
        .present_result(|_, result| card_from_meta(result))
        .execute(move |args, ctx| {
            let root = root.clone();
            async move { blocking(ctx.signal(), move |signal| grep(&root, args, signal)).await }
        })
        .build()
}

fn grep(root: &Root, args: GrepArgs, signal: &Signal) -> Result<GrepOutput, Error> {
    let regex = RegexBuilder::new(&args.pattern)
        .case_insensitive(args.case_insensitive.unwrap_or(false))
        .build()
        .map_err(|err| {
            Error::new(
                ErrorCode::InvalidArgs,
                format!(
                    "invalid regular expression: {err}\n(to match special characters literally, escape them with a backslash, e.g. `fn main\\(`)"
                ),
            )
        })?;
    let filter = args.glob.as_deref().map(PathPattern::new).transpose()?;
    let limit = match args.max_matches {
        Some(0) => {
            return Err(Error::new(
                ErrorCode::InvalidArgs,
                "`max_matches` must be at least 1",
            ));
        }
        Some(max) => max.min(MAX_MATCHES),
        None => DEFAULT_MAX_MATCHES,
    };
    let resolved = root.resolve(args.path.as_deref().unwrap_or("."))?;
    if !resolved.exists {
        return Err(not_found(&resolved.display));
    }

    // Files first, sorted by path, so the matches kept are the first in path order.
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    walk_files(root, &resolved.path, signal, |file| {
        if filter
            .as_ref()
            .is_none_or(|filter| filter.is_match(file.below))
        {
            files.push((file.display, file.path.to_path_buf()));
        }
        ControlFlow::Continue(())
    })?;
    files.sort();

    let mut matches = Vec::new();
    let mut total = 0u64;
    for (display, path) in files {
        if signal.is_cancelled() {
            return Err(aborted());
        }
        search_file(&regex, &path, signal, |line, text| {
            total += 1;
            if (matches.len() as u64) < limit {
                matches.push(GrepMatch {
                    path: display.clone(),
                    line,
                    text: text(),
                });
            }
        })?;
    }
    Ok(GrepOutput {
        truncated: (matches.len() as u64) < total,
        matches,
        total,
    })
}

/// Calls `found(line_number, text)` for each matching line of a text file; binary and
/// unreadable files are skipped.
fn search_file(
    regex: &Regex,
    path: &std::path::Path,
    signal: &Signal,
    mut found: impl FnMut(u64, &dyn Fn() -> String),
) -> Result<(), Error> {
    let Ok(mut file) = File::open(path) else {
        return Ok(());
    };
    let mut head = Vec::with_capacity(BINARY_PROBE_BYTES);
    if (&mut file)
        .take(BINARY_PROBE_BYTES as u64)
        .read_to_end(&mut head)
        .is_err()
        || looks_binary(&head)
    {
        return Ok(());
    }
    let mut lines = Lines::new(
        BufReader::new(std::io::Cursor::new(head).chain(file)),
        SEARCH_CAP_BYTES,
    );
    let mut number = 0u64;
    // A file that fails mid-way keeps the matches found so far.
    while let Ok(Some(line)) = lines.next_line() {
        number += 1;
        if number.is_multiple_of(65_536) && signal.is_cancelled() {
            return Err(aborted());
        }
        // A CRLF line is searched without its `\r`, so `$` matches at its end.
        let cut = line.is_cut();
        let bytes = match line.bytes.strip_suffix(b"\r") {
            Some(stripped) if line.newline && !cut => stripped,
            _ => line.bytes,
        };
        if let Some(hit) = regex.find(bytes) {
            found(number, &|| snippet(bytes, hit.start(), cut));
        }
    }
    Ok(())
}

/// A matching line for display: without a trailing `\r`, and when longer than
/// [`MAX_LINE_BYTES`], a window around the match marked with `…` where it was cut.
pub(crate) fn snippet(line: &[u8], match_start: usize, cut: bool) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() <= MAX_LINE_BYTES && !cut {
        return lossy(line);
    }
    let is_continuation = |at: usize| line.get(at).is_some_and(|b| b & 0xC0 == 0x80);
    let mut start = match_start.saturating_sub(LEAD_BYTES).min(line.len());
    while start < line.len() && is_continuation(start) {
        start += 1;
    }
    let mut end = (start + MAX_LINE_BYTES).min(line.len());
    while end > start && end < line.len() && is_continuation(end) {
        end -= 1;
    }
    format!(
        "{}{}{}",
        if start > 0 { "…" } else { "" },
        lossy(&line[start..end]),
        if end < line.len() || cut { "…" } else { "" }
    )
}

/// The model-facing text: matches grouped under their file, then a note when cut.
fn render(args: &GrepArgs, out: &GrepOutput) -> String {
    if out.matches.is_empty() {
        return format!("No lines match `{}`.", args.pattern);
    }
    let mut text = String::new();
    let mut current: Option<&str> = None;
    for found in &out.matches {
        if current != Some(found.path.as_str()) {
            if current.is_some() {
                text.push('\n');
            }
            text.push_str(&found.path);
            text.push('\n');
            current = Some(&found.path);
        }
        text.push_str(&format!("{}: {}\n", found.line, found.text));
    }
    if out.truncated {
        text.push_str(&format!(
            "(showing {} of {} matching lines; narrow the pattern, path or glob, or raise max_matches)",
            out.matches.len(),
            out.total
        ));
    } else {
        text.pop();
    }
    text
}

fn call_card(root: &Root, args: &GrepArgs) -> ToolCallView {
    let input = args.path.as_deref().unwrap_or(".");
    let display = root.lexical_display(input);
    let mut title = format!("Search `{}`", args.pattern);
    if let Some(dir) = display.as_deref().filter(|dir| *dir != ".") {
        title.push_str(&format!(" in {dir}"));
    }
    if let Some(glob) = &args.glob {
        title.push_str(&format!(" ({glob})"));
    }
    ToolCallView::Generic {
        title,
        kind: Some(ToolCallKind::Search),
        raw_input: None,
        content: None,
        locations: display.map(|display| vec![location(root, &display, None)]),
    }
}

fn result_card(args: &GrepArgs, out: &GrepOutput) -> ToolResultView {
    let mut files: Vec<SearchFileMatches> = Vec::new();
    for found in &out.matches {
        let line = ReadFileLine {
            number: found.line,
            text: found.text.clone(),
        };
        match files.last_mut() {
            Some(group) if group.path == found.path => group.matches.push(line),
            _ => files.push(SearchFileMatches {
                path: found.path.clone(),
                matches: vec![line],
            }),
        }
    }
    ToolResultView::Search {
        title: Some(format!("Search `{}`", args.pattern)),
        truncated: out.truncated,
        total: out.total,
        results: SearchResults::Matches { files },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_shown_whole() {
        assert_eq!(snippet(b"let x = 1;\r", 4, false), "let x = 1;");
    }

    #[test]
    fn long_lines_are_windowed_around_the_match() {
        let mut line = "a".repeat(1000).into_bytes();
        line.extend_from_slice(b"NEEDLE");
        line.extend(std::iter::repeat_n(b'b', 1000));
        let shown = snippet(&line, 1000, false);
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert!(shown.contains("NEEDLE"));
        assert_eq!(shown.len(), MAX_LINE_BYTES + 2 * '…'.len_utf8());
        assert!(snippet(&line[..300], 0, true).ends_with('…'));
    }

    #[test]
    fn windows_never_split_a_character() {
        let line = "é".repeat(1000);
        let shown = snippet(line.as_bytes(), 901, false);
        assert!(!shown.contains('\u{FFFD}'), "{shown}");
        assert!(shown.trim_matches('…').chars().all(|c| c == 'é'));
    }
}
