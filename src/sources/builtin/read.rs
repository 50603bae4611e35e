//! `read_file`: a window of numbered lines of a text file.
//!
//! Owns windowing (1-based `offset` and `limit`, a default window, a byte cap, long lines
//! shortened), binary refusal and the `read` card; must not write anything.

use std::fs::File;
use std::io::{BufReader, Read};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::ContentBlock;
use crate::error::{Error, ErrorCode};
use crate::presentation::{ReadFileLine, ToolCallKind, ToolCallView, ToolResultView};
use crate::schema::{ParameterSchema, ValueSchema};
use crate::tool::{Signal, ToolDefinition, define_tool};

use super::root::Root;
use super::text::{BINARY_PROBE_BYTES, Lines, language_of, looks_binary, lossy, take_chars};
use super::{aborted, blocking, card_from_meta, card_meta, io_failure, location, not_found};

/// Lines returned when no `limit` is given.
pub(crate) const DEFAULT_LIMIT: u64 = 2000;
/// The most bytes of text one window holds; a window stops before the line that would pass it.
pub(crate) const MAX_WINDOW_BYTES: usize = 256 * 1024;
/// Lines longer than this many characters are shortened.
pub(crate) const MAX_LINE_CHARS: usize = 2000;
/// Bytes of a line kept in memory: enough for [`MAX_LINE_CHARS`] characters of any width.
const LINE_CAP_BYTES: usize = MAX_LINE_CHARS * 4;

/// The arguments of `read_file`.
#[derive(Debug, Deserialize)]
pub(crate) struct ReadArgs {
    path: String,
    #[serde(default)]
    offset: Option<u64>,
    #[serde(default)]
    limit: Option<u64>,
}

/// The value of `read_file`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReadOutput {
    /// The root-relative path read.
    pub path: String,
    /// The window's text, line endings included.
    pub content: String,
    /// The 1-based first line asked for.
    pub offset: u64,
    /// How many lines `content` holds.
    pub lines_returned: u64,
    /// How many lines the file has.
    pub total_lines: u64,
    /// Whether the file goes on past the window, or a long line was shortened.
    pub truncated: bool,
}

const DESCRIPTION: &str = "Read a text file in the workspace, as numbered lines. `path` is relative to the workspace root. \
Reads up to 2000 lines (and at most 256 KiB) from `offset` (1-based, default 1); `limit` sets how many lines. \
When `truncated` is true the file goes on: read the next window with `offset` = offset + lines_returned. \
Lines over 2000 characters are shortened. Binary files are refused. Use grep to find the lines you need in large files.";

pub(super) fn definition(root: Arc<Root>) -> Result<ToolDefinition, Error> {
    let output_schema = ValueSchema::object(false)
        .required(
            "path",
            ValueSchema::string().description("The path read, relative to the root"),
        )
        .required(
            "content",
            ValueSchema::string().description("The text of the window, line endings included"),
        )
        .required(
            "offset",
            ValueSchema::integer().description("The 1-based first line of the window"),
        )
        .required(
            "lines_returned",
            ValueSchema::integer().description("Lines in `content`"),
        )
        .required(
            "total_lines",
            ValueSchema::integer().description("Lines in the whole file"),
        )
        .required(
            "truncated",
            ValueSchema::boolean().description(
                "True when the file continues past the window or a long line was shortened",
            ),
        );
    let parameters = ParameterSchema::new()
        .required(
            "path",
            ValueSchema::string()
                .description("The file, relative to the workspace root (e.g. `src/main.rs`)"),
        )
        .optional(
            "offset",
            ValueSchema::integer().description("1-based line to start at (default 1)"),
        )
        .optional(
            "limit",
            ValueSchema::integer().description("How many lines to read (default 2000)"),
        );
    let call_root = root.clone();
    let meta_root = root.clone();
    define_tool::<ReadArgs, ReadOutput>("read_file")
        .description(DESCRIPTION)
        .closed_parameters(parameters)
        .output(output_schema, |_, out| {
            vec![ContentBlock::text(render(out))]
        })
        .presentation_meta(move |_, out| card_meta(&result_card(&meta_root, out)))
        .always_concurrency_safe()
        .present_call(move |args| Some(call_card(&call_root, args)))
        .present_result(|_, result| card_from_meta(result))
        .execute(move |args, ctx| {
            let root = root.clone();
            async move { blocking(ctx.signal(), move |signal| read(&root, args, signal)).await }
        })
        .build()
}

fn read(root: &Root, args: ReadArgs, signal: &Signal) -> Result<ReadOutput, Error> {
    let offset = args.offset.unwrap_or(1);
    if offset == 0 {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            "`offset` is 1-based: the first line is 1",
        ));
    }
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 {
        return Err(Error::new(
            ErrorCode::InvalidArgs,
            "`limit` must be at least 1 (omit it to read up to 2000 lines)",
        ));
    }
    let resolved = root.resolve(&args.path)?;
    let display = resolved.display;
    if !resolved.exists {
        return Err(not_found(&display));
    }
    let meta =
        std::fs::metadata(&resolved.path).map_err(|err| io_failure("read", &display, &err))?;
    if meta.is_dir() {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!("`{display}` is a directory; use list_dir to see what it holds"),
        ));
    }
    if !meta.is_file() {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!(
                "`{display}` is not a regular file (a device, socket or pipe); it cannot be read"
            ),
        ));
    }
    let mut file = File::open(&resolved.path).map_err(|err| io_failure("read", &display, &err))?;
    let mut head = Vec::with_capacity(BINARY_PROBE_BYTES);
    (&mut file)
        .take(BINARY_PROBE_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|err| io_failure("read", &display, &err))?;
    if looks_binary(&head) {
        return Err(Error::new(
            ErrorCode::ToolFailed,
            format!(
                "`{display}` looks like a binary file ({} bytes, with NUL bytes); read_file only shows text",
                meta.len()
            ),
        ));
    }
    let reader = BufReader::new(std::io::Cursor::new(head).chain(file));
    let window = read_window(reader, offset, limit, signal).map_err(|failure| match failure {
        WindowError::Io(err) => io_failure("read", &display, &err),
        WindowError::Aborted => aborted(),
    })?;
    Ok(ReadOutput {
        path: display,
        content: window.content,
        offset,
        lines_returned: window.lines_returned,
        total_lines: window.total_lines,
        truncated: window.truncated,
    })
}

/// A window of a file, and the count of all its lines.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub content: String,
    pub lines_returned: u64,
    pub total_lines: u64,
    pub truncated: bool,
}

#[derive(Debug)]
pub(crate) enum WindowError {
    Io(std::io::Error),
    Aborted,
}

/// Reads lines `offset..offset + limit` (1-based) of `reader` within [`MAX_WINDOW_BYTES`],
/// counting every line to the end. Memory stays bounded by the window, whatever the file.
pub(crate) fn read_window(
    reader: impl std::io::BufRead,
    offset: u64,
    limit: u64,
    signal: &Signal,
) -> Result<Window, WindowError> {
    let mut lines = Lines::new(reader, LINE_CAP_BYTES);
    let mut content = String::new();
    let mut number = 0u64;
    let mut returned = 0u64;
    let mut full = false;
    let mut truncated = false;
    while let Some(line) = lines.next_line().map_err(WindowError::Io)? {
        number += 1;
        if number.is_multiple_of(65_536) && signal.is_cancelled() {
            return Err(WindowError::Aborted);
        }
        if number < offset || full {
            continue;
        }
        if returned == limit {
            full = true;
            truncated = true;
            continue;
        }
        let decoded = lossy(line.bytes);
        let (kept, cut) = take_chars(&decoded, MAX_LINE_CHARS);
        let mut text = kept.to_owned();
        if cut || line.is_cut() {
            text.push_str(&format!(" … [line shortened: {} bytes in all]", line.len));
        }
        if line.newline {
            text.push('\n');
        }
        if returned > 0 && content.len() + text.len() > MAX_WINDOW_BYTES {
            full = true;
            truncated = true;
            continue;
        }
        truncated |= cut || line.is_cut();
        content.push_str(&text);
        returned += 1;
    }
    Ok(Window {
        content,
        lines_returned: returned,
        total_lines: number,
        truncated,
    })
}

/// The model-facing text: `cat -n` style numbered lines, then a note on where the file goes.
fn render(out: &ReadOutput) -> String {
    let mut text = String::new();
    for (index, line) in out.content.lines().enumerate() {
        text.push_str(&format!("{:>6}\t{line}\n", out.offset + index as u64));
    }
    let last = out.offset + out.lines_returned.saturating_sub(1);
    let note = if out.total_lines == 0 {
        format!("(`{}` is empty)", out.path)
    } else if out.lines_returned == 0 {
        format!(
            "(`{}` has {} lines; offset {} is past the end)",
            out.path, out.total_lines, out.offset
        )
    } else if last < out.total_lines {
        format!(
            "(lines {}-{last} of {}; read on with offset {})",
            out.offset,
            out.total_lines,
            last + 1
        )
    } else if out.truncated {
        format!(
            "(lines {}-{last} of {}; long lines were shortened)",
            out.offset, out.total_lines
        )
    } else {
        text.pop();
        return text;
    };
    text.push_str(&note);
    text
}

fn call_card(root: &Root, args: &ReadArgs) -> ToolCallView {
    let display = root.lexical_display(&args.path);
    let shown = display.as_deref().unwrap_or(&args.path);
    let title = match (args.offset, args.limit) {
        (Some(offset), Some(limit)) if offset > 0 && limit > 0 => {
            format!("Read {shown} (lines {offset}-{})", offset + limit - 1)
        }
        (Some(offset), _) => format!("Read {shown} (from line {offset})"),
        _ => format!("Read {shown}"),
    };
    ToolCallView::Generic {
        title,
        kind: Some(ToolCallKind::Read),
        raw_input: None,
        content: None,
        locations: display.map(|display| vec![location(root, &display, args.offset.or(Some(1)))]),
    }
}

fn result_card(root: &Root, out: &ReadOutput) -> ToolResultView {
    ToolResultView::Read {
        title: None,
        path: root.absolute_display(&out.path),
        offset: out.offset,
        lines: out
            .content
            .lines()
            .enumerate()
            .map(|(index, text)| ReadFileLine {
                number: out.offset + index as u64,
                text: text.to_owned(),
            })
            .collect(),
        total_lines: out.total_lines,
        lang: language_of(&out.path).map(str::to_owned),
        content: Some(out.content.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(input: &str, offset: u64, limit: u64) -> Window {
        read_window(input.as_bytes(), offset, limit, &Signal::never()).unwrap()
    }

    #[test]
    fn windows_count_every_line() {
        let text = "a\nb\nc\n";
        assert_eq!(
            window(text, 1, 2),
            Window {
                content: "a\nb\n".into(),
                lines_returned: 2,
                total_lines: 3,
                truncated: true
            }
        );
        assert_eq!(
            window(text, 2, 10),
            Window {
                content: "b\nc\n".into(),
                lines_returned: 2,
                total_lines: 3,
                truncated: false
            }
        );
        assert_eq!(
            window(text, 9, 10),
            Window {
                content: String::new(),
                lines_returned: 0,
                total_lines: 3,
                truncated: false
            }
        );
        assert_eq!(window("", 1, 10).total_lines, 0);
        assert_eq!(window("no newline", 1, 10).content, "no newline");
        assert_eq!(window("x\r\ny\r\n", 1, 10).content, "x\r\ny\r\n");
    }

    #[test]
    fn long_lines_are_shortened_and_flagged() {
        let long = "é".repeat(MAX_LINE_CHARS + 5);
        let got = window(&format!("{long}\nnext\n"), 1, 10);
        let first = got.content.lines().next().unwrap();
        assert!(first.starts_with(&"é".repeat(MAX_LINE_CHARS)));
        assert!(first.ends_with(&format!("[line shortened: {} bytes in all]", long.len())));
        assert_eq!(got.lines_returned, 2);
        assert!(got.truncated);
    }

    #[test]
    fn a_window_stops_at_the_byte_cap() {
        let line = format!("{}\n", "x".repeat(1000));
        let text = line.repeat(1000);
        let got = window(&text, 1, 1000);
        assert_eq!(got.lines_returned as usize, MAX_WINDOW_BYTES / line.len());
        assert!(got.content.len() <= MAX_WINDOW_BYTES);
        assert!(got.truncated);
        assert_eq!(got.total_lines, 1000);
    }

    #[test]
    fn the_note_says_how_to_go_on() {
        let out = ReadOutput {
            path: "a.txt".into(),
            content: "one\ntwo\n".into(),
            offset: 1,
            lines_returned: 2,
            total_lines: 5,
            truncated: true,
        };
        assert_eq!(
            render(&out),
            "     1\tone\n     2\ttwo\n(lines 1-2 of 5; read on with offset 3)"
        );
        let past = ReadOutput {
            content: String::new(),
            offset: 9,
            lines_returned: 0,
            truncated: false,
            ..out
        };
        assert_eq!(
            render(&past),
            "(`a.txt` has 5 lines; offset 9 is past the end)"
        );
    }
}
