//! The fixed prose and skeleton of both SDK sections: handlebars templates from
//! `sdk-templates/`, compiled into the binary.
//!
//! The templates are the only source of the fixed text. Each is rendered once per variant
//! of its conditionals (whether there are aliases; whether `JsonValue` is used), with a
//! mark in place of every block, and cut at the marks into a [`Skeleton`]: fixed text and
//! the places of the blocks. A renderer walks the skeleton and writes each block straight
//! into the one output buffer, so a large SDK is neither copied into handlebars' data nor
//! through its output. The blocks are inserted verbatim (HTML escaping is off), exactly
//! as a handlebars render would; a test checks that both give the same text.
//!
//! This module owns loading and cutting the templates; it must not build type text.

use std::sync::LazyLock;

use handlebars::Handlebars;
use serde::Serialize;

const TYPESCRIPT: &str = "typescript";
const PYTHON: &str = "python";

/// Stands around the index of a block in a template rendered to be cut. The templates
/// contain no NUL (tested), so a mark cannot be confused with their text.
const MARK: char = '\u{0}';

static TEMPLATES: LazyLock<Handlebars<'static>> = LazyLock::new(|| {
    let mut registry = Handlebars::new();
    registry.set_strict_mode(true);
    registry.register_escape_fn(handlebars::no_escape);
    // The templates are part of the crate, so a failure here is a bug caught by every test
    // that renders an SDK, never a property of the input.
    registry
        .register_template_string(
            TYPESCRIPT,
            include_str!("../../../sdk-templates/typescript.md.hbs"),
        )
        .expect("sdk-templates/typescript.md.hbs is a valid template");
    registry
        .register_template_string(PYTHON, include_str!("../../../sdk-templates/python.md.hbs"))
        .expect("sdk-templates/python.md.hbs is a valid template");
    registry
});

/// The blocks of the TypeScript section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypeScriptBlock {
    /// `type` declarations of named aliases (only in the skeleton for a model with aliases).
    Aliases,
    /// Members of `ToolArgsMap`.
    Args,
    /// Members of `ToolOutputMap`.
    Outputs,
}

/// The blocks of the Python section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PythonBlock {
    /// The import lines: `from typing import Any, Literal, Protocol, ...`, and
    /// `from typing_extensions import ...` for the names Python 3.10's `typing` lacks.
    Imports,
    /// Type declarations, each followed by a blank line.
    Definitions,
    /// The body of `class Tools(Protocol)`.
    Methods,
}

/// A section with holes: fixed text from a template and the places of the blocks.
pub(crate) type Skeleton<B> = Vec<Piece<B>>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece<B> {
    Text(String),
    Block(B),
}

/// The TypeScript skeletons: without, then with, alias declarations.
static TYPESCRIPT_SKELETONS: LazyLock<[Skeleton<TypeScriptBlock>; 2]> = LazyLock::new(|| {
    [false, true].map(|aliases| {
        let section = TypeScriptSection {
            aliases: if aliases { mark(0) } else { String::new() },
            args: mark(1),
            outputs: mark(2),
        };
        let blocks = [
            TypeScriptBlock::Aliases,
            TypeScriptBlock::Args,
            TypeScriptBlock::Outputs,
        ];
        cut(&render(TYPESCRIPT, &section), &blocks)
    })
});

/// The Python skeletons: without, then with, the `JsonValue` alias.
static PYTHON_SKELETONS: LazyLock<[Skeleton<PythonBlock>; 2]> = LazyLock::new(|| {
    [false, true].map(|json_value| {
        let section = PythonSection {
            imports: mark(0),
            json_value,
            definitions: mark(1),
            methods: mark(2),
        };
        let blocks = [
            PythonBlock::Imports,
            PythonBlock::Definitions,
            PythonBlock::Methods,
        ];
        cut(&render(PYTHON, &section), &blocks)
    })
});

/// The skeleton of the TypeScript section; `aliases`: whether the model declares any.
pub(crate) fn typescript(aliases: bool) -> &'static [Piece<TypeScriptBlock>] {
    &TYPESCRIPT_SKELETONS[usize::from(aliases)]
}

/// The skeleton of the Python section; `json_value`: whether the `JsonValue` alias is used.
pub(crate) fn python(json_value: bool) -> &'static [Piece<PythonBlock>] {
    &PYTHON_SKELETONS[usize::from(json_value)]
}

/// How many bytes of fixed text a skeleton has (to size the output buffer).
pub(crate) fn fixed_len<B>(skeleton: &[Piece<B>]) -> usize {
    skeleton
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => text.len(),
            Piece::Block(_) => 0,
        })
        .sum()
}

fn mark(index: usize) -> String {
    format!("{MARK}{index}{MARK}")
}

/// Cuts a template rendered with [`mark`]s into fixed text and blocks.
fn cut<B: Copy>(rendered: &str, blocks: &[B]) -> Skeleton<B> {
    let mut pieces = Vec::new();
    for (index, part) in rendered.split(MARK).enumerate() {
        if index % 2 == 0 {
            if !part.is_empty() {
                pieces.push(Piece::Text(part.to_owned()));
            }
        } else {
            // The marks are this module's own, so this holds short of a bug the tests catch.
            let block = part
                .parse::<usize>()
                .ok()
                .and_then(|block| blocks.get(block))
                .expect("a mark names a block of its section");
            pieces.push(Piece::Block(*block));
        }
    }
    pieces
}

/// The data of the TypeScript template.
#[derive(Serialize)]
struct TypeScriptSection {
    aliases: String,
    args: String,
    outputs: String,
}

/// The data of the Python template.
#[derive(Serialize)]
struct PythonSection {
    imports: String,
    json_value: bool,
    definitions: String,
    methods: String,
}

fn render(name: &str, data: &impl Serialize) -> String {
    // Every field the templates name is a plain string or bool of these structs, so
    // rendering cannot fail short of a template bug, which the tests catch.
    TEMPLATES
        .render(name, data)
        .expect("the built-in SDK templates render their own section structs")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill<B: Copy>(skeleton: &[Piece<B>], block: impl Fn(B) -> String) -> String {
        let mut out = String::new();
        for piece in skeleton {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Block(b) => out.push_str(&block(*b)),
            }
        }
        out
    }

    #[test]
    fn the_templates_contain_no_mark() {
        for template in [
            include_str!("../../../sdk-templates/typescript.md.hbs"),
            include_str!("../../../sdk-templates/python.md.hbs"),
        ] {
            assert!(!template.contains(MARK));
        }
    }

    #[test]
    fn filled_skeletons_are_what_handlebars_renders() {
        // Blocks that look like template syntax, with braces and blank lines, stay verbatim.
        let text = |tag: &str| format!("{tag} {{{{x}}}} <&> \"q\"\n\n  {tag}\n");
        for aliases in ["", "type A = {{b}};\n"] {
            let section = TypeScriptSection {
                aliases: aliases.to_owned(),
                args: text("args"),
                outputs: text("outputs"),
            };
            let expected = render(TYPESCRIPT, &section);
            let filled = fill(typescript(!aliases.is_empty()), |block| match block {
                TypeScriptBlock::Aliases => aliases.to_owned(),
                TypeScriptBlock::Args => text("args"),
                TypeScriptBlock::Outputs => text("outputs"),
            });
            assert_eq!(filled, expected);
        }
        for json_value in [false, true] {
            let section = PythonSection {
                imports: "from typing import Any, Protocol".to_owned(),
                json_value,
                definitions: text("definitions"),
                methods: text("methods"),
            };
            let expected = render(PYTHON, &section);
            let filled = fill(python(json_value), |block| match block {
                PythonBlock::Imports => "from typing import Any, Protocol".to_owned(),
                PythonBlock::Definitions => text("definitions"),
                PythonBlock::Methods => text("methods"),
            });
            assert_eq!(filled, expected);
        }
    }

    #[test]
    fn every_block_has_one_place() {
        let count = |skeleton: &[Piece<TypeScriptBlock>], block| {
            skeleton
                .iter()
                .filter(|p| **p == Piece::Block(block))
                .count()
        };
        assert_eq!(count(typescript(false), TypeScriptBlock::Aliases), 0);
        assert_eq!(count(typescript(true), TypeScriptBlock::Aliases), 1);
        for aliases in [false, true] {
            assert_eq!(count(typescript(aliases), TypeScriptBlock::Args), 1);
            assert_eq!(count(typescript(aliases), TypeScriptBlock::Outputs), 1);
        }
        for json_value in [false, true] {
            for block in [
                PythonBlock::Imports,
                PythonBlock::Definitions,
                PythonBlock::Methods,
            ] {
                let places = python(json_value)
                    .iter()
                    .filter(|p| **p == Piece::Block(block))
                    .count();
                assert_eq!(places, 1);
            }
        }
    }

    #[test]
    fn tool_call_error_declares_every_code_a_sub_call_can_carry() {
        let codes: Vec<&str> = crate::code::SUB_CALL_CODES
            .iter()
            .map(|code| code.as_str())
            .collect();
        let typescript = codes
            .iter()
            .map(|code| format!("\"{code}\""))
            .collect::<Vec<_>>();
        assert!(
            include_str!("../../../sdk-templates/typescript.md.hbs")
                .contains(&format!("  readonly code: {};\n", typescript.join(" | ")))
        );
        assert!(
            include_str!("../../../sdk-templates/python.md.hbs")
                .contains(&format!("    code: Literal[{}]\n", typescript.join(", ")))
        );
    }
}
