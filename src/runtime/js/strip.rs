//! From the program the model wrote to the JavaScript the engine runs.
//!
//! A program is the body of an async function written in TypeScript. This module wraps it in
//! that function and erases its types with `swc_ts_fast_strip` in strip-only mode (the mode
//! Node uses): every type annotation becomes whitespace, so every line and column of the
//! JavaScript the engine sees is the line and column the model wrote. The wrapper's head sits
//! on the program's first line; [`program_position`] undoes that offset for messages.
//!
//! Syntax that has no erasable form (`enum`, `namespace`, parameter properties, ...) and
//! syntax errors are refused with a message naming the line and column in the program as
//! written.
//!
//! This module owns the wrapper and the position mapping; it must not know about the engine.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use swc_common::errors::{DiagnosticBuilder, Emitter, HANDLER, Handler};
use swc_common::sync::Lrc;
use swc_common::{GLOBALS, Globals, SourceMap};
use swc_ts_fast_strip::{Mode, Options, operate};

use crate::runtime::MAX_PROGRAM_BYTES;

/// The file name the program carries in stack traces and messages.
pub const PROGRAM_FILE: &str = "program.ts";

/// Text placed before the program, on its first line: an async function expression that is
/// called at once, so the script's completion value is the program's promise.
const WRAPPER_HEAD: &str = "(async function () {";

/// Text placed after the program: on a line of its own, so a trailing `//` comment in the
/// program cannot swallow it.
const WRAPPER_TAIL: &str = "\n})()";

/// Stack reserved for stripping, per byte of program. The stripper's parser, its
/// type-erasing visitor and the syntax tree's drop recurse once per nesting level, and a stack
/// overflow aborts the process. Measured: about 1.3 KiB per byte for the worst construct
/// (nested parentheses) with optimized dependencies; this leaves room for unoptimized builds.
/// The reservation is virtual address space: only the pages used are touched.
const STACK_PER_PROGRAM_BYTE: usize = 6 * 1024;

/// Stack reserved for stripping on top of the per-byte part.
const STACK_BASE: usize = 1024 * 1024;

/// The program, wrapped and stripped of types: a script whose completion value is the
/// promise of the program's async function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedProgram {
    /// JavaScript source, positions identical to the TypeScript the model wrote (the first
    /// line is shifted right by the wrapper head, see [`program_position`]).
    pub script: String,
    /// The number of lines of the program as written (the wrapper's tail is on the next).
    pub lines: u32,
}

/// The program cannot run: a syntax error or TypeScript that cannot be erased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripError {
    /// What is wrong and where, e.g. `TypeScript enum is not supported in strip-only mode
    /// (at 3:1)`.
    pub message: String,
}

/// Wraps `program` as the body of an async function and erases its TypeScript types.
///
/// Strips with stack room sized for the program (see [`MAX_PROGRAM_BYTES`]): the caller's
/// own stack when enough of it is known to be left, else a segment mapped for the call
/// (always, on a thread whose stack bounds cannot be read), so no nesting depth can overflow
/// a thread's stack. Call it on a thread's own stack, not on a fiber or coroutine stack of
/// a different size: the room left is measured against the thread's stack.
///
/// # Errors
///
/// A [`StripError`] (not a [`crate::Error`]: it has no [`ErrorCode`](crate::ErrorCode);
/// [`JsEngine`](super::JsEngine) reports it as an `exception` outcome, which Code Mode's
/// `run_code` turns into `CODE_RUN_FAILED`) when
///
/// - `program` is longer than [`MAX_PROGRAM_BYTES`];
/// - it has a syntax error, or TypeScript with no erasable form (`enum`, `namespace`,
///   parameter properties, ...): the message names the problem and its `line:column` in
///   the program as written;
/// - the stripper itself panics on the program (the message asks to simplify the syntax).
///
/// # Examples
///
/// ```
/// use codemode::runtime::js::strip::prepare_program;
/// let prepared = prepare_program("const n: number = 1;\nreturn n")?;
/// assert_eq!(prepared.lines, 2);
/// assert!(!prepared.script.contains("number"));
///
/// let refused = prepare_program("enum Color { Red }");
/// assert!(refused.is_err_and(|err| err.message.contains("enum")));
/// # Ok::<(), codemode::runtime::js::strip::StripError>(())
/// ```
pub fn prepare_program(program: &str) -> Result<PreparedProgram, StripError> {
    if program.len() > MAX_PROGRAM_BYTES {
        return Err(StripError {
            message: format!(
                "the program is {} bytes; the limit is {MAX_PROGRAM_BYTES} bytes",
                program.len()
            ),
        });
    }
    // A leading `#!` line (a program saved as an executable script) is blanked, not
    // removed, so every later line keeps its number.
    let program = match program.strip_prefix("#!") {
        Some(rest) => &rest[rest.find('\n').unwrap_or(rest.len())..],
        None => program,
    };
    let wrapped = format!("{WRAPPER_HEAD}{program}{WRAPPER_TAIL}");
    let program_lines = program.split('\n').count();
    let stack = STACK_BASE + wrapped.len() * STACK_PER_PROGRAM_BYTE;
    // On the caller's stack when that has `stack` left (an engine thread's has room for
    // programs of a few KiB), otherwise on a segment of its own (mapped, not a thread: a
    // thread costs far more to start). A mapped segment is not free: unmapping it makes the
    // kernel flush the TLB of every core running one of the process's threads.
    let stripped = stacker::maybe_grow(stack, stack, || {
        catch_unwind(AssertUnwindSafe(|| strip_types(&wrapped)))
    });
    match stripped {
        Ok(Ok(script)) => Ok(PreparedProgram {
            script,
            lines: u32::try_from(program_lines).unwrap_or(u32::MAX),
        }),
        Ok(Err(diagnostics)) => Err(StripError {
            message: describe(&wrapped, program_lines, &diagnostics),
        }),
        Err(_) => Err(StripError {
            message: "the TypeScript stripper failed on this program; simplify the syntax"
                .to_owned(),
        }),
    }
}

/// Maps a 1-based `line:column` of the wrapped script to the program as written. Only the
/// first line moves (by the wrapper head); columns count UTF-16 code units, as JavaScript
/// engines do.
pub fn program_position(line: u32, column: u32) -> (u32, u32) {
    if line == 1 {
        let head = WRAPPER_HEAD.len() as u32;
        (1, column.saturating_sub(head).max(1))
    } else {
        (line, column)
    }
}

/// Rewrites every `program.ts:1:<column>` in `text` (a stack, an engine message) to the
/// column as written.
pub fn map_stack_positions(text: &str) -> String {
    let needle = format!("{PROGRAM_FILE}:1:");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let digits_start = at + needle.len();
        let digits_len = rest[digits_start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        out.push_str(&rest[..digits_start]);
        match rest[digits_start..digits_start + digits_len].parse::<u32>() {
            Ok(column) => out.push_str(&program_position(1, column).1.to_string()),
            Err(_) => out.push_str(&rest[digits_start..digits_start + digits_len]),
        }
        rest = &rest[digits_start + digits_len..];
    }
    out.push_str(rest);
    out
}

/// A diagnostic of the stripper: its message and the byte offset it points at.
#[derive(Debug, Clone)]
struct Diagnostic {
    message: String,
    offset: Option<usize>,
}

/// A diagnostic as the emitter sees it: message and source position.
type Emitted = (String, Option<swc_common::BytePos>);

/// Collects diagnostics instead of printing them.
#[derive(Clone, Default)]
struct Collector(Arc<Mutex<Vec<Emitted>>>);

impl Emitter for Collector {
    fn emit(&mut self, db: &mut DiagnosticBuilder<'_>) {
        let position = db.span.primary_span().map(|span| span.lo);
        if let Ok(mut all) = self.0.lock() {
            all.push((db.message(), position));
        }
    }
}

fn strip_types(wrapped: &str) -> Result<String, Vec<Diagnostic>> {
    let source_map: Lrc<SourceMap> = Default::default();
    let collector = Collector::default();
    let handler = Handler::with_emitter(true, false, Box::new(collector.clone()));
    let options = Options {
        module: Some(false),
        filename: Some(PROGRAM_FILE.to_owned()),
        mode: Mode::StripOnly,
        ..Default::default()
    };
    let result = GLOBALS.set(&Globals::new(), || {
        HANDLER.set(&handler, || {
            operate(&source_map, &handler, wrapped.to_owned(), options)
        })
    });
    match result {
        Ok(output) => Ok(output.code),
        Err(error) => {
            let collected = collector
                .0
                .lock()
                .map(|all| all.clone())
                .unwrap_or_default();
            let mut diagnostics: Vec<Diagnostic> = collected
                .into_iter()
                .map(|(message, position)| Diagnostic {
                    message,
                    offset: position.map(|pos| source_map.lookup_byte_offset(pos).pos.0 as usize),
                })
                .collect();
            // The parser reports its fatal error first; the earliest position is the cause.
            diagnostics.sort_by_key(|d| d.offset.unwrap_or(usize::MAX));
            if diagnostics.is_empty() {
                diagnostics.push(Diagnostic {
                    message: error.message,
                    offset: None,
                });
            }
            Err(diagnostics)
        }
    }
}

/// One message for all diagnostics, each with its position in the program as written.
fn describe(wrapped: &str, program_lines: usize, diagnostics: &[Diagnostic]) -> String {
    let kind = if diagnostics
        .iter()
        .any(|d| d.message.contains("not supported in strip-only mode"))
    {
        "TypeScript syntax that cannot be erased (only type annotations are allowed: use plain objects or union types instead of enum, functions or objects instead of namespace)"
    } else {
        "syntax error"
    };
    let mut lines = Vec::new();
    for diagnostic in diagnostics.iter().take(3) {
        let place = match diagnostic.offset {
            Some(offset) => {
                let (line, column) = line_column(wrapped, offset);
                if line as usize > program_lines {
                    "at the end of the program".to_owned()
                } else {
                    let (line, column) = program_position(line, column);
                    format!("at {line}:{column}")
                }
            }
            None => "at an unknown position".to_owned(),
        };
        lines.push(format!("{} ({place})", diagnostic.message));
    }
    if diagnostics.len() > 3 {
        lines.push(format!("... and {} more", diagnostics.len() - 3));
    }
    format!("{kind}: {}", lines.join("; "))
}

/// The 1-based line and column (in UTF-16 code units) of a byte offset.
fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let mut line_start = 0;
    let mut line = 1u32;
    for (index, byte) in text.as_bytes()[..offset].iter().enumerate() {
        if *byte == b'\n' {
            line += 1;
            line_start = index + 1;
        }
    }
    // Snap to a character boundary: an offset inside a multi-byte character counts it.
    let mut end = offset;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let column = text[line_start..end].encode_utf16().count() as u32 + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stripped(program: &str) -> String {
        let script = prepare_program(program).expect("strips").script;
        script
            .strip_prefix(WRAPPER_HEAD)
            .and_then(|rest| rest.strip_suffix(WRAPPER_TAIL))
            .expect("wrapper intact")
            .to_owned()
    }

    fn error(program: &str) -> String {
        prepare_program(program).expect_err("refused").message
    }

    #[test]
    fn types_become_whitespace_and_positions_stay() {
        let program = "const x: number = 1;\nfunction f(a: string): string { return a }\nreturn f(`${x}`) as string;";
        let js = stripped(program);
        assert_eq!(js.len(), program.len());
        assert_eq!(js.lines().count(), program.lines().count());
        assert!(js.starts_with("const x         = 1;"), "{js}");
        assert!(js.contains("return f(`${x}`)"), "{js}");
        assert!(!js.contains("as string"), "{js}");
        for (a, b) in js.lines().zip(program.lines()) {
            assert_eq!(a.len(), b.len());
        }
    }

    #[test]
    fn top_level_await_and_return_are_the_function_body() {
        let js = stripped("const v = await Promise.resolve(1);\nreturn v;");
        assert_eq!(js, "const v = await Promise.resolve(1);\nreturn v;");
    }

    #[test]
    fn interfaces_and_type_aliases_vanish() {
        let js = stripped("interface A { x: number }\ntype B = A[];\nreturn 1;");
        // The stripper may keep a `;` where a declaration was, for automatic semicolon insertion.
        assert!(
            js.trim_start_matches([';', ' ', '\n'])
                .starts_with("return 1;"),
            "{js:?}"
        );
    }

    #[test]
    fn enum_is_refused_with_its_position() {
        let message = error("const a = 1;\n  enum Color { Red }\nreturn a;");
        assert!(message.contains("cannot be erased"), "{message}");
        assert!(message.contains("at 2:3"), "{message}");
    }

    #[test]
    fn namespace_is_refused_with_its_position() {
        let message = error("namespace N { export const x = 1 }\nreturn 1;");
        assert!(message.contains("cannot be erased"), "{message}");
        assert!(message.contains("at 1:1"), "{message}");
    }

    #[test]
    fn parameter_properties_are_refused() {
        let message = error("class A {\n  constructor(private x: number) {}\n}\nreturn 1;");
        assert!(message.contains("cannot be erased"), "{message}");
        assert!(message.contains("at 2:"), "{message}");
    }

    #[test]
    fn syntax_errors_name_the_line_and_column_as_written() {
        let message = error("const a = 1;\nconst b = ;\nreturn a;");
        assert!(message.starts_with("syntax error"), "{message}");
        assert!(message.contains("at 2:11"), "{message}");
        let message = error("return 1 +* 2;");
        assert!(
            message.starts_with("syntax error: Expression expected (at 1:11)"),
            "{message}"
        );
    }

    #[test]
    fn an_unclosed_block_points_at_the_end_of_the_program() {
        let message = error("if (true) {\n  return 1;");
        assert!(message.contains("at the end of the program"), "{message}");
    }

    #[test]
    fn a_trailing_line_comment_does_not_swallow_the_wrapper() {
        let js = stripped("return 1 // done");
        assert_eq!(js, "return 1 // done");
    }

    #[test]
    fn deep_nesting_cannot_overflow_the_stack() {
        // 40,000 levels of the deepest-recursing constructs, from a thread with a small stack.
        let programs = [
            format!("return {}1{};", "(".repeat(40_000), ")".repeat(40_000)),
            format!("return {}1{};", "[".repeat(40_000), "]".repeat(40_000)),
            format!("return {}1;", "() => ".repeat(40_000)),
            format!(
                "let v: {}number{} = [];",
                "Array<".repeat(40_000),
                ">".repeat(40_000)
            ),
            format!("{}{}", "{".repeat(40_000), "}".repeat(40_000)),
        ];
        let prepared = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                programs
                    .iter()
                    .map(|p| prepare_program(p).map(|_| ()))
                    .collect::<Vec<_>>()
            })
            .unwrap()
            .join()
            .unwrap();
        // Reaching this line is the test (an overflow aborts the process); each is prepared.
        assert_eq!(prepared.len(), 5);
        assert!(prepared.iter().all(Result::is_ok), "{prepared:?}");
    }

    #[test]
    fn programs_over_the_size_limit_are_refused() {
        let message = error(&"x;".repeat(MAX_PROGRAM_BYTES));
        assert!(message.contains("the limit is 524288 bytes"), "{message}");
    }

    #[test]
    fn columns_count_utf16_units() {
        assert_eq!(line_column("a\n路径x", 2 + "路径".len()), (2, 3));
        assert_eq!(line_column("😀x", 4), (1, 3));
    }

    #[test]
    fn stack_positions_on_the_first_line_are_shifted_back() {
        let head = WRAPPER_HEAD.len();
        let stack = format!(
            "Error: x\n    at f (program.ts:1:{})\n    at program.ts:12:3",
            head + 4
        );
        assert_eq!(
            map_stack_positions(&stack),
            "Error: x\n    at f (program.ts:1:4)\n    at program.ts:12:3"
        );
        assert_eq!(map_stack_positions("program.ts:1:"), "program.ts:1:");
    }

    #[test]
    fn first_line_positions_drop_the_wrapper_head() {
        let head = WRAPPER_HEAD.len() as u32;
        assert_eq!(program_position(1, head + 5), (1, 5));
        assert_eq!(program_position(3, 7), (3, 7));
    }
}
