//! `edit_file`: replace an exact piece of text in a file (opt-in, exclusive).
//!
//! Owns the replacement rules (the text must occur exactly once unless `replace_all`; a
//! missing or ambiguous text is refused with what to do instead; `\n` in the arguments
//! matches a CRLF file's `\r\n`) and the `diff` card of the applied hunks. The path is
//! resolved by [`super::root`] first.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::presentation::{FileDiff, ToolCallKind, ToolCallView, ToolResultView};
use crate::schema::{ParameterSchema, ValueSchema};
use crate::tool::{ToolDefinition, define_tool};

use super::diff::{Hunk, hunks};
use super::root::Root;
use super::text::looks_binary;
use super::{blocking, card_from_meta, card_meta, io_failure, location, not_found, plural};

/// Lines of changed regions shown to the model after an edit.
const MAX_SHOWN_LINES: usize = 60;
/// Line numbers listed when the text is ambiguous.
const MAX_LISTED_LINES: usize = 10;

/// The arguments of `edit_file`.
#[derive(Debug, Deserialize)]
pub(crate) struct EditArgs {
    path: String,
    old_text: String,
    new_text: String,
    #[serde(default)]
    replace_all: Option<bool>,
}

/// The value of `edit_file`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EditOutput {
    /// The root-relative path edited.
    pub path: String,
    /// How many occurrences were replaced.
    pub replacements: u64,
    /// The changed regions, with context lines.
    pub hunks: Vec<Hunk>,
}

const DESCRIPTION: &str = "Edit a text file in the workspace by replacing `old_text` with `new_text`. `old_text` must match the file exactly, whitespace and indentation included (read the file first and copy from it, without the line-number prefixes), \
and must occur exactly once: include enough surrounding lines to make it unique, or set `replace_all` to replace every occurrence. `path` is relative to the workspace root. \
To create a file or replace all of it, use write_file. Returns the number of replacements and the changed regions.";

pub(super) fn definition(root: Arc<Root>) -> Result<ToolDefinition, Error> {
    let output_schema = ValueSchema::object(false)
        .required(
            "path",
            ValueSchema::string().description("The file, relative to the workspace root"),
        )
        .required(
            "replacements",
            ValueSchema::integer().description("Occurrences replaced"),
        )
        .required(
            "hunks",
            ValueSchema::array(Hunk::schema())
                .description("The changed regions, with context lines"),
        );
    let parameters = ParameterSchema::new()
        .required(
            "path",
            ValueSchema::string().description("The file, relative to the workspace root"),
        )
        .required(
            "old_text",
            ValueSchema::string()
                .description("The exact text to replace (unique in the file unless replace_all)"),
        )
        .required(
            "new_text",
            ValueSchema::string().description("The text to put in its place"),
        )
        .optional(
            "replace_all",
            ValueSchema::boolean().description("Replace every occurrence (default false)"),
        );
    let call_root = root.clone();
    let meta_root = root.clone();
    define_tool::<EditArgs, EditOutput>("edit_file")
        .description(DESCRIPTION)
        .closed_parameters(parameters)
        .output(output_schema, |_, out| {
            vec![ContentBlock::text(render(out))]
        })
        .presentation_meta(move |_, out| card_meta(&result_card(&meta_root, out)))
        .present_call(move |args| Some(call_card(&call_root, args)))
        .present_result(|_, result| card_from_meta(result))
        .execute(move |args, ctx| {
            let root = root.clone();
            async move { blocking(ctx.signal(), move |_| edit(&root, args)).await }
        })
        .build()
}

fn edit(root: &Root, args: EditArgs) -> Result<EditOutput, Error> {
    if args.old_text.is_empty() {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            "`old_text` is empty; give the exact text to replace (to create a file or replace all of it, use write_file)",
        ));
    }
    if args.old_text == args.new_text {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            "`old_text` and `new_text` are the same, so there is nothing to change",
        ));
    }
    let resolved = root.resolve(&args.path)?;
    let display = resolved.display;
    if !resolved.exists {
        return Err(not_found(&display));
    }
    let meta =
        std::fs::metadata(&resolved.path).map_err(|err| io_failure("edit", &display, &err))?;
    if !meta.is_file() {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!("`{display}` is not a regular file; edit_file edits text files"),
        ));
    }
    let bytes = std::fs::read(&resolved.path).map_err(|err| io_failure("read", &display, &err))?;
    if looks_binary(&bytes) {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!("`{display}` looks like a binary file; edit_file only edits text"),
        ));
    }
    let Ok(before) = String::from_utf8(bytes) else {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!(
                "`{display}` is not valid UTF-8 text, so it cannot be edited without damaging it; write_file can replace it whole"
            ),
        ));
    };

    let (old_text, new_text) = adapt_line_endings(&before, &args.old_text, &args.new_text);
    let starts: Vec<usize> = before
        .match_indices(old_text.as_str())
        .map(|(at, _)| at)
        .collect();
    let replace_all = args.replace_all.unwrap_or(false);
    match starts.len() {
        0 => return Err(not_found_error(&display, &before, &args.old_text)),
        1 => {}
        count if !replace_all => {
            let lines = line_numbers(&before, &starts);
            let listed: Vec<String> = lines
                .iter()
                .take(MAX_LISTED_LINES)
                .map(u64::to_string)
                .collect();
            let more = if lines.len() > MAX_LISTED_LINES {
                ", …"
            } else {
                ""
            };
            return Err(Error::new(
                ErrorCode::ToolFailed,
                format!(
                    "`old_text` occurs {count} times in `{display}` (at lines {}{more}); include more surrounding lines so it matches exactly one place, or set `replace_all` to true to replace every occurrence",
                    listed.join(", ")
                ),
            ));
        }
        _ => {}
    }
    let after = if replace_all {
        before.replace(old_text.as_str(), &new_text)
    } else {
        before.replacen(old_text.as_str(), &new_text, 1)
    };
    std::fs::write(&resolved.path, after.as_bytes())
        .map_err(|err| io_failure("write", &display, &err))?;
    Ok(EditOutput {
        path: display,
        replacements: starts.len() as u64,
        hunks: hunks(&before, &after),
    })
}

/// In a CRLF file, `\n`-only arguments (as models write them) stand for `\r\n`.
fn adapt_line_endings(file: &str, old_text: &str, new_text: &str) -> (String, String) {
    let crlf_file = file.contains("\r\n");
    let bare_newlines = old_text.contains('\n') && !old_text.contains("\r\n");
    if crlf_file && bare_newlines && !file.contains(old_text) {
        (
            old_text.replace('\n', "\r\n"),
            new_text.replace("\r\n", "\n").replace('\n', "\r\n"),
        )
    } else {
        (old_text.to_owned(), new_text.to_owned())
    }
}

/// The 1-based line of each byte offset (offsets ascending).
fn line_numbers(text: &str, starts: &[usize]) -> Vec<u64> {
    let mut line = 1u64;
    let mut scanned = 0usize;
    starts
        .iter()
        .map(|&at| {
            line += text[scanned..at].matches('\n').count() as u64;
            scanned = at;
            line
        })
        .collect()
}

/// `old_text` is not in the file: say so, and where its first line appears, if anywhere.
fn not_found_error(display: &str, file: &str, old_text: &str) -> Error {
    let mut message = format!(
        "`old_text` was not found in `{display}`. It must match the file exactly, including whitespace, indentation and line breaks; read the file again (read_file) and copy the text from it, without the line-number prefixes."
    );
    if let Some(first) = old_text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
    {
        let near: Vec<String> = file
            .lines()
            .enumerate()
            .filter(|(_, line)| line.trim() == first)
            .take(5)
            .map(|(index, _)| (index + 1).to_string())
            .collect();
        if !near.is_empty() {
            message.push_str(&format!(
                " Its first line appears (ignoring indentation) at line {}: compare the lines around it.",
                near.join(", ")
            ));
        }
    }
    Error::new(ErrorCode::ToolFailed, message)
}

/// The model-facing text: what was replaced, and the changed regions as they now read.
fn render(out: &EditOutput) -> String {
    let mut text = format!(
        "Edited `{}` ({}).",
        out.path,
        plural(out.replacements, "replacement", "replacements")
    );
    if out.hunks.is_empty() {
        return text;
    }
    text.push_str(" The changed region now reads:\n");
    let mut shown = 0usize;
    let mut hidden = 0usize;
    for (index, hunk) in out.hunks.iter().enumerate() {
        if index > 0 && shown < MAX_SHOWN_LINES {
            text.push_str("   ...\n");
        }
        for (offset, line) in hunk.new_text.lines().enumerate() {
            if shown < MAX_SHOWN_LINES {
                text.push_str(&format!("{:>6}\t{line}\n", hunk.new_start + offset as u64));
                shown += 1;
            } else {
                hidden += 1;
            }
        }
    }
    if hidden > 0 {
        text.push_str(&format!(
            "({hidden} more changed lines not shown; read_file shows them)\n"
        ));
    }
    text.pop();
    text
}

fn call_card(root: &Root, args: &EditArgs) -> ToolCallView {
    match root.lexical_display(&args.path) {
        Some(display) => ToolCallView::Diff {
            title: format!("Edit {display}"),
            diffs: vec![FileDiff {
                path: root.absolute_display(&display),
                old_text: Some(args.old_text.clone()),
                new_text: args.new_text.clone(),
            }],
            locations: Some(vec![location(root, &display, None)]),
        },
        None => ToolCallView::Generic {
            title: format!("Edit {}", args.path.escape_default()),
            kind: Some(ToolCallKind::Edit),
            raw_input: None,
            content: None,
            locations: None,
        },
    }
}

fn result_card(root: &Root, out: &EditOutput) -> ToolResultView {
    let path = root.absolute_display(&out.path);
    ToolResultView::Diff {
        title: Some(format!("Edit {}", out.path)),
        diffs: out
            .hunks
            .iter()
            .map(|hunk| hunk.to_file_diff(&path))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_files_take_lf_arguments() {
        let (old, new) = adapt_line_endings("a\r\nb\r\n", "a\nb", "x\ny");
        assert_eq!((old.as_str(), new.as_str()), ("a\r\nb", "x\r\ny"));
        let (old, _) = adapt_line_endings("a\nb\n", "a\nb", "x");
        assert_eq!(old, "a\nb");
    }

    #[test]
    fn occurrences_are_located_by_line() {
        let text = "x\ny\nx\n\nx";
        let starts: Vec<usize> = text.match_indices('x').map(|(at, _)| at).collect();
        assert_eq!(line_numbers(text, &starts), vec![1, 3, 5]);
    }

    #[test]
    fn a_missing_text_points_at_a_near_line() {
        let err = not_found_error("a.rs", "fn a() {\n    body();\n}\n", "  body();\n  more();");
        assert!(err.message().contains("at line 2"), "{err}");
        assert_eq!(err.code(), ErrorCode::ToolFailed);
    }

    #[test]
    fn the_rendering_numbers_the_new_lines() {
        let out = EditOutput {
            path: "a.rs".into(),
            replacements: 1,
            hunks: vec![Hunk {
                old_start: 4,
                new_start: 4,
                old_text: "a\nb\n".into(),
                new_text: "a\nc\n".into(),
            }],
        };
        assert_eq!(
            render(&out),
            "Edited `a.rs` (1 replacement). The changed region now reads:\n     4\ta\n     5\tc"
        );
    }
}
