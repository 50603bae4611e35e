//! `glob`: the files under a directory whose paths match a pattern.
//!
//! Owns the result cap and the `search` (paths) card; the walker rules and the pattern
//! rules are [`super::walk`]'s. Must not read file contents.

use std::ops::ControlFlow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::presentation::{SearchResults, ToolCallKind, ToolCallView, ToolResultView};
use crate::schema::{ParameterSchema, ValueSchema};
use crate::tool::{Signal, ToolDefinition, define_tool};

use super::root::Root;
use super::walk::{PathPattern, walk_files};
use super::{blocking, card_from_meta, card_meta, location, not_found};

/// The most paths one call returns.
pub(crate) const MAX_PATHS: usize = 500;

/// The arguments of `glob`.
#[derive(Debug, Deserialize)]
pub(crate) struct GlobArgs {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
}

/// The value of `glob`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GlobOutput {
    /// The matching files, relative to the root, sorted (at most [`MAX_PATHS`]).
    pub paths: Vec<String>,
    /// Whether matches were left out.
    pub truncated: bool,
    /// How many files match in all.
    pub total: u64,
}

const DESCRIPTION: &str = "Find files in the workspace by path pattern. A pattern without `/` matches file names at any depth (`*.rs`, `Cargo.toml`); \
a pattern with `/` matches the whole path relative to `path` (`src/**/*.ts`, `docs/*.md`); `*` and `?` stay within one directory, `**` spans any number, `{a,b}` lists alternatives. \
`path` is the directory to search, relative to the workspace root (default: the root). Files ignored by .gitignore and the .git directory are skipped; symbolic links are not followed. \
Returns sorted root-relative paths, at most 500 (`truncated` and `total` say when there are more).";

pub(super) fn definition(root: Arc<Root>) -> Result<ToolDefinition, Error> {
    let output_schema = ValueSchema::object(false)
        .required(
            "paths",
            ValueSchema::array(ValueSchema::string())
                .description("Matching files, relative to the workspace root, sorted"),
        )
        .required(
            "truncated",
            ValueSchema::boolean().description("True when more files match than are listed"),
        )
        .required(
            "total",
            ValueSchema::integer().description("How many files match in all"),
        );
    let parameters = ParameterSchema::new()
        .required(
            "pattern",
            ValueSchema::string().description("The path pattern, e.g. `**/*.rs` or `*.md`"),
        )
        .optional(
            "path",
            ValueSchema::string().description(
                "The directory to search, relative to the workspace root (default `.`)",
            ),
        );
    let call_root = root.clone();
    define_tool::<GlobArgs, GlobOutput>("glob")
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
            async move { blocking(ctx.signal(), move |signal| glob(&root, args, signal)).await }
        })
        .build()
}

fn glob(root: &Root, args: GlobArgs, signal: &Signal) -> Result<GlobOutput, Error> {
    let pattern = PathPattern::new(&args.pattern)?;
    let resolved = root.resolve(args.path.as_deref().unwrap_or("."))?;
    if !resolved.exists {
        return Err(not_found(&resolved.display));
    }
    if !resolved.path.is_dir() {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            format!(
                "`{}` is not a directory; `path` is the directory to search",
                resolved.display
            ),
        ));
    }
    let mut paths = Vec::new();
    walk_files(root, &resolved.path, signal, |file| {
        if pattern.is_match(file.below) {
            paths.push(file.display);
        }
        ControlFlow::Continue(())
    })?;
    // Sorted before the cut, so the first MAX_PATHS are the first in path order.
    paths.sort();
    let total = paths.len() as u64;
    paths.truncate(MAX_PATHS);
    Ok(GlobOutput {
        truncated: (paths.len() as u64) < total,
        paths,
        total,
    })
}

/// The model-facing text: one path a line, then a note when the list is cut.
fn render(args: &GlobArgs, out: &GlobOutput) -> String {
    if out.paths.is_empty() {
        return format!("No files match `{}`.", args.pattern);
    }
    let mut text = out.paths.join("\n");
    if out.truncated {
        text.push_str(&format!(
            "\n(showing the first {} of {} matching files; use a narrower pattern or path)",
            out.paths.len(),
            out.total
        ));
    }
    text
}

fn call_card(root: &Root, args: &GlobArgs) -> ToolCallView {
    let input = args.path.as_deref().unwrap_or(".");
    let display = root.lexical_display(input);
    let title = match display.as_deref() {
        Some(".") | None => format!("Find `{}`", args.pattern),
        Some(dir) => format!("Find `{}` in {dir}", args.pattern),
    };
    ToolCallView::Generic {
        title,
        kind: Some(ToolCallKind::Search),
        raw_input: None,
        content: None,
        locations: display.map(|display| vec![location(root, &display, None)]),
    }
}

fn result_card(args: &GlobArgs, out: &GlobOutput) -> ToolResultView {
    ToolResultView::Search {
        title: Some(format!("Find `{}`", args.pattern)),
        truncated: out.truncated,
        total: out.total,
        results: SearchResults::Paths {
            paths: out.paths.clone(),
        },
    }
}
