//! The engine's own scripts: the bootstrap (the parts of `js-runtime/`, one strict function
//! of the host's natives) and the inspector it loads on first use (`js-runtime/lazy/`), and
//! how a context evaluates them.
//!
//! On QuickJS each is compiled once per process, to bytecode without its source text, and a
//! context reads and evaluates that bytecode: no parse per sandbox, and none of the
//! per-source work of v8x's `Script::Compile`/`Script::Run` (rewrites, the stack-trace
//! source registry, cache keys), which cost about as much again as reading the bytecode.
//! On V8 they are compiled from source (V8 caches compilations itself).
//!
//! This module owns the scripts' text and evaluation; it must not know about runs, pools
//! or budgets.

use std::sync::LazyLock;

use deno_core::v8;

use super::strip::{PROGRAM_FILE, program_position};

/// The name the bootstrap carries in stack traces (its frames are dropped from messages).
const BOOTSTRAP_FILE: &str = "codemode:runtime";

/// The name the inspector carries in stack traces.
const INSPECTOR_FILE: &str = "codemode:inspector";

/// The bootstrap's names the inspector uses, handed to it when it is loaded (it has no other
/// way to reach them: it is a script of its own). A unit test below checks that every name
/// the bootstrap declares and the inspector uses is here.
const INSPECTOR_IMPORTS: &[&str] = &[
    "ArrayIsArray",
    "BigIntPrototypeValueOf",
    "BooleanPrototypeValueOf",
    "DatePrototypeGetTime",
    "DatePrototypeToISOString",
    "ErrorPrototype",
    "FunctionPrototypeToString",
    "Map",
    "MapIteratorPrototypeNext",
    "MapPrototypeEntries",
    "MapPrototypeGet",
    "MapPrototypeGetSize",
    "MapPrototypeSet",
    "NumberParseFloat",
    "NumberParseInt",
    "NumberPrototypeValueOf",
    "ObjectGetOwnPropertyDescriptor",
    "ObjectGetPrototypeOf",
    "ObjectPrototypeHasOwnProperty",
    "ObjectPrototypeIsPrototypeOf",
    "ReflectGet",
    "ReflectOwnKeys",
    "RegExpPrototypeToString",
    "SetIteratorPrototypeNext",
    "SetPrototypeGetSize",
    "SetPrototypeValues",
    "StringPrototypeCharCodeAt",
    "StringPrototypeIndexOf",
    "StringPrototypeSlice",
    "StringPrototypeValueOf",
    "SymbolPrototypeToString",
    "SymbolPrototypeValueOf",
    "TypedArrayPrototypeGetLength",
    "TypedArrayPrototypeGetSymbolToStringTag",
    "Uint8Array",
    "checkLossless",
    "getPromiseDetails",
    "getProxyDetails",
    "isBootstrapClass",
    "isIdentifier",
    "isProxy",
    "kindsOf",
    "listJoin",
    "listPush",
    "newList",
    "ownDataValue",
    "programLineCount",
    "repeat",
];

/// The imports the bootstrap captures raw, as `<name>Raw` (the builtin method or getter
/// itself), and hands to the inspector uncurried: only the inspector calls them.
const INSPECTOR_UNCURRIED: &[&str] = &[
    "BigIntPrototypeValueOf",
    "BooleanPrototypeValueOf",
    "DatePrototypeGetTime",
    "DatePrototypeToISOString",
    "FunctionPrototypeToString",
    "MapIteratorPrototypeNext",
    "MapPrototypeEntries",
    "MapPrototypeGetSize",
    "NumberPrototypeValueOf",
    "ObjectPrototypeIsPrototypeOf",
    "RegExpPrototypeToString",
    "SetIteratorPrototypeNext",
    "SetPrototypeGetSize",
    "SetPrototypeValues",
    "StringPrototypeValueOf",
    "SymbolPrototypeValueOf",
    "TypedArrayPrototypeGetLength",
    "TypedArrayPrototypeGetSymbolToStringTag",
];

/// The parts of the bootstrap, in order.
const BOOTSTRAP_PARTS: &[&str] = &[
    include_str!("../../../js-runtime/00_capture.js"),
    include_str!("../../../js-runtime/10_inspect.js"),
    include_str!("../../../js-runtime/20_json.js"),
    include_str!("../../../js-runtime/30_errors.js"),
    include_str!("../../../js-runtime/40_bindings.js"),
    include_str!("../../../js-runtime/50_console.js"),
    include_str!("../../../js-runtime/90_seal.js"),
];

/// The inspector's source, as written.
const INSPECTOR_PART: &str = include_str!("../../../js-runtime/lazy/inspect.js");

/// The bootstrap source: the parts of `js-runtime/`, in order, inside one strict function of
/// the host's natives, the engine's globals to delete and whether to check for others (see
/// `90_seal.js`) that returns the host API, followed by `inspectorImports` (hoisted, so
/// `10_inspect.js` can call it; it is only called once every part has run).
static BOOTSTRAP: LazyLock<String> = LazyLock::new(|| {
    // An import the bootstrap holds raw (see 00_capture.js) is handed uncurried.
    let imports: Vec<String> = INSPECTOR_IMPORTS
        .iter()
        .map(|name| {
            if INSPECTOR_UNCURRIED.contains(name) {
                format!("{name}: uncurryThis({name}Raw)")
            } else {
                (*name).to_owned()
            }
        })
        .collect();
    format!(
        "(function (host, engineGlobals, checkSeal) {{\n\"use strict\";\n{parts}\nfunction inspectorImports() {{\n  return {{ __proto__: null, {imports} }};\n}}\n}})",
        parts = BOOTSTRAP_PARTS.join("\n"),
        imports = imports.join(", "),
    )
});

/// The names the inspector's wrapper declares (see [`program_constants`]).
#[cfg(test)]
const WRAPPER_CONSTANTS: &[&str] = &["PROGRAM_FILE", "PROGRAM_HEAD_LENGTH"];

/// Declarations of the program's file name and the length of the wrapper head on its first
/// line (column 1 + head = column 1 as written, as strip.rs defines it), one per line: what
/// the inspector maps an error's positions with.
fn program_constants() -> String {
    let (_, mapped) = program_position(1, 1000);
    let head_length = 1000 - mapped;
    format!(
        "const PROGRAM_FILE = {file:?};\nconst PROGRAM_HEAD_LENGTH = {head_length};\n",
        file = PROGRAM_FILE
    )
}

/// The inspector source: a strict function of the imports that returns `inspect`,
/// `formatLogArgs`, `describeThrown`, `describeNonPlain` and `conversionHint`.
static INSPECTOR: LazyLock<String> = LazyLock::new(|| {
    format!(
        "(function (imports) {{\n\"use strict\";\n{constants}const {{ {imports} }} = imports;\n{INSPECTOR_PART}\nreturn {{ __proto__: null, inspect, formatLogArgs, describeNonPlain, conversionHint, describeThrown }};\n}})",
        constants = program_constants(),
        imports = INSPECTOR_IMPORTS.join(", "),
    )
});

/// A script of the engine's own, evaluated in any context.
pub(crate) struct EngineScript {
    name: &'static str,
    source: &'static LazyLock<String>,
    #[cfg(not(feature = "v8"))]
    bytecode: std::sync::OnceLock<Vec<u8>>,
    /// Held while the bytecode is compiled.
    #[cfg(not(feature = "v8"))]
    compiling: std::sync::Mutex<()>,
}

/// The bootstrap: evaluates to the function of the host's natives (and the seal's arguments).
pub(crate) static BOOTSTRAP_SCRIPT: EngineScript = EngineScript::new(BOOTSTRAP_FILE, &BOOTSTRAP);

/// The inspector: evaluates to the function of its imports.
pub(crate) static INSPECTOR_SCRIPT: EngineScript = EngineScript::new(INSPECTOR_FILE, &INSPECTOR);

impl EngineScript {
    pub(crate) const fn new(name: &'static str, source: &'static LazyLock<String>) -> EngineScript {
        EngineScript {
            name,
            source,
            #[cfg(not(feature = "v8"))]
            bytecode: std::sync::OnceLock::new(),
            #[cfg(not(feature = "v8"))]
            compiling: std::sync::Mutex::new(()),
        }
    }

    /// Evaluates the script in the scope's context: its completion value, or `None` with an
    /// exception pending in `scope`.
    #[cfg(not(feature = "v8"))]
    pub(crate) fn evaluate<'s>(
        &self,
        scope: &mut v8::PinScope<'s, '_>,
    ) -> Option<v8::Local<'s, v8::Value>> {
        let bytecode = match self.bytecode.get() {
            Some(bytecode) => bytecode,
            None => {
                // One compile per process: threads booting at once (a warm pool filling)
                // wait for the first instead of each compiling it. A failed compile (out of
                // memory) leaves the next caller to try again.
                let _compiling = self
                    .compiling
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                match self.bytecode.get() {
                    Some(bytecode) => bytecode,
                    None => {
                        let compiled = v8::script_bytecode::compile(scope, self.source, self.name)?;
                        self.bytecode.get_or_init(|| compiled)
                    }
                }
            }
        };
        v8::script_bytecode::evaluate(scope, bytecode)
    }

    /// Evaluates the script in the scope's context: its completion value, or `None` with an
    /// exception pending in `scope`.
    #[cfg(feature = "v8")]
    pub(crate) fn evaluate<'s>(
        &self,
        scope: &mut v8::PinScope<'s, '_>,
    ) -> Option<v8::Local<'s, v8::Value>> {
        compile_and_run(scope, self.name, self.source)
    }
}

/// Compiles `source` as the classic script file `name` and runs it: its completion value,
/// or `None` with an exception pending in `scope`.
pub(crate) fn compile_and_run<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    name: &str,
    source: &str,
) -> Option<v8::Local<'s, v8::Value>> {
    let source = v8::String::new(scope, source)?;
    let name = v8::String::new(scope, name)?;
    let origin = v8::ScriptOrigin::new(
        scope,
        name.into(),
        0,
        0,
        false,
        0,
        None,
        false,
        false,
        false,
        None,
    );
    v8::Script::compile(scope, source, Some(&origin))?.run(scope)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// `source` without comments and with every string literal emptied. With `strict`,
    /// panics on what the free-name check cannot read: a template literal with a
    /// substitution, a regular expression literal, a spread or rest parameter (`...`).
    fn code_only(source: &str, strict: bool) -> String {
        let bytes = source.as_bytes();
        let mut out = String::with_capacity(source.len());
        let mut i = 0;
        while i < bytes.len() {
            let rest = &source[i..];
            if rest.starts_with("//") {
                i += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                i += rest.find("*/").map_or(rest.len(), |end| end + 2);
                out.push(' ');
            } else if matches!(bytes[i], b'"' | b'\'' | b'`') {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    assert!(
                        !(strict && quote == b'`' && source[i..].starts_with("${")),
                        "a template substitution, which this check cannot read"
                    );
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            } else if bytes[i] == b'/' {
                let before = out.trim_end();
                let regex = before.is_empty()
                    || before
                        .ends_with(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';'])
                    || before.ends_with("return");
                assert!(
                    !(strict && regex),
                    "a regular expression literal, which this check cannot read"
                );
                out.push('/');
                i += 1;
            } else {
                assert!(
                    !(strict && rest.starts_with("...")),
                    "a spread, which this check cannot read"
                );
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
        out
    }

    /// Each identifier of `code` with the character before it and after it (whitespace
    /// skipped), in order.
    fn tokens(code: &str) -> Vec<(char, String, char)> {
        let chars: Vec<char> = code.chars().collect();
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
        let mut found = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if (chars[i].is_ascii_alphabetic() || chars[i] == '_' || chars[i] == '$')
                && (i == 0 || !word(chars[i - 1]))
            {
                let start = i;
                while i < chars.len() && word(chars[i]) {
                    i += 1;
                }
                let before = chars[..start]
                    .iter()
                    .rev()
                    .find(|c| !c.is_whitespace())
                    .copied()
                    .unwrap_or(' ');
                let after = chars[i..]
                    .iter()
                    .find(|c| !c.is_whitespace())
                    .copied()
                    .unwrap_or(' ');
                found.push((before, chars[start..i].iter().collect(), after));
            } else {
                i += 1;
            }
        }
        found
    }

    /// Every name `code` declares, at any depth: after `const`/`let`/`var`/`function`/
    /// `class`, in the braces of a destructuring declaration, as a function's or an arrow's
    /// parameter, or a `catch` binding.
    fn declared(code: &str) -> BTreeSet<String> {
        let all = tokens(code);
        let mut names = BTreeSet::new();
        for (at, (_, name, _)) in all.iter().enumerate() {
            let previous = at.checked_sub(1).map(|p| all[p].1.as_str());
            if matches!(
                previous,
                Some("const" | "let" | "var" | "function" | "class")
            ) {
                names.insert(name.clone());
            }
            // `x => ...`
            if code.contains(&format!("{name} =>")) {
                names.insert(name.clone());
            }
        }
        // Parameter lists and destructuring patterns: the names inside `function f(...)`,
        // `function (...)`, `catch (...)`, `(...) =>` and `const { ... } =`.
        let mut rest = code;
        while let Some(open) = rest.find(['(', '{']) {
            let close = if rest.as_bytes()[open] == b'(' {
                ')'
            } else {
                '}'
            };
            let head = rest[..open].trim_end();
            let Some(length) = rest[open + 1..].find(close) else {
                break;
            };
            let inner = &rest[open + 1..open + 1 + length];
            let tail = rest[open + 2 + length..].trim_start();
            let words: Vec<String> = tokens(head)
                .into_iter()
                .rev()
                .take(2)
                .map(|t| t.1)
                .collect();
            let named_function =
                words.len() == 2 && words[1] == "function" && head.ends_with(&words[0]);
            let parameters = close == ')'
                && (head.ends_with("function")
                    || head.ends_with("catch")
                    || named_function
                    || tail.starts_with("=>"));
            let pattern = close == '}'
                && (head.ends_with("const") || head.ends_with("let"))
                && tail.starts_with('=');
            if parameters || pattern {
                for (_, name, after) in tokens(inner) {
                    if after != ':' {
                        names.insert(name);
                    }
                }
            }
            rest = &rest[open + 1..];
        }
        names
    }

    /// The names declared at the top level of `code` (a declaration at column 0), and those
    /// destructured from the host's natives.
    fn top_level_names(code: &str) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for line in code.lines() {
            for keyword in [
                "const ",
                "let ",
                "var ",
                "function ",
                "async function ",
                "class ",
            ] {
                if let Some(rest) = line.strip_prefix(keyword) {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                        .collect();
                    if !name.is_empty() {
                        names.insert(name);
                    }
                }
            }
        }
        if let Some(start) = code.find("const {")
            && let Some(length) = code[start..].find("} = host;")
        {
            for name in code[start + "const {".len()..start + length].split(',') {
                let name = name.trim();
                if !name.is_empty() {
                    names.insert(name.to_owned());
                }
            }
        }
        names
    }

    /// JavaScript's reserved words and literals that read like identifiers, and the global
    /// values no program can change (`undefined`, `NaN` and `Infinity` are non-writable and
    /// non-configurable).
    const KEYWORDS: &[&str] = &[
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "in",
        "instanceof",
        "let",
        "new",
        "null",
        "of",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "undefined",
        "NaN",
        "Infinity",
    ];

    /// The identifiers of the inspector that are neither its own nor handed to it: each
    /// would resolve to a global, which a program may have replaced.
    fn free_names(inspector: &str, imports: &BTreeSet<String>) -> Vec<String> {
        let own = declared(inspector);
        tokens(inspector)
            .into_iter()
            .filter(|(before, _, after)| *before != '.' && *after != ':')
            .map(|(_, name, _)| name)
            .filter(|name| {
                !own.contains(name) && !imports.contains(name) && !KEYWORDS.contains(&name.as_str())
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    #[test]
    fn the_inspector_uses_only_its_imports_and_its_own_names() {
        let imports: BTreeSet<String> = INSPECTOR_IMPORTS
            .iter()
            .map(|name| (*name).to_owned())
            .collect();
        let given: BTreeSet<String> = imports
            .iter()
            .cloned()
            .chain(WRAPPER_CONSTANTS.iter().map(|name| (*name).to_owned()))
            .collect();
        let free = free_names(&code_only(INSPECTOR_PART, true), &given);
        assert!(
            free.is_empty(),
            "the inspector uses names it is not handed (they would be the program's globals): {free:?}"
        );
        // Every import is a name the bootstrap declares (a typo would be a ReferenceError
        // only when the inspector first loads).
        let mut bootstrap = BTreeSet::new();
        for part in BOOTSTRAP_PARTS {
            bootstrap.extend(top_level_names(&code_only(part, false)));
        }
        let unknown: Vec<&String> = imports
            .iter()
            .filter(|name| {
                let held = if INSPECTOR_UNCURRIED.contains(&name.as_str()) {
                    format!("{name}Raw")
                } else {
                    (*name).clone()
                };
                !bootstrap.contains(&held)
            })
            .collect();
        assert!(
            unknown.is_empty(),
            "imports the bootstrap does not declare: {unknown:?}"
        );
    }

    #[test]
    fn each_kind_predicate_reads_the_bit_the_native_sets_for_it() {
        // Each predicate is defined once, in the bootstrap or the inspector, by its bit.
        let scripts = format!("{}\n{INSPECTOR_PART}", BOOTSTRAP_PARTS.join("\n"));
        for (bit, (name, _)) in super::super::natives::KINDS.iter().enumerate() {
            let definition = format!(
                "function {name}(value) {{ return kindsOf(value, {}) !== 0; }}",
                1u32 << bit
            );
            assert_eq!(
                scripts.matches(&definition).count(),
                1,
                "`{definition}` must be in js-runtime/ once"
            );
        }
        assert_eq!(
            scripts.matches("kindsOf(value, ").count(),
            super::super::natives::KINDS.len(),
            "js-runtime/ reads a bit natives.rs does not set"
        );
    }

    #[test]
    fn the_checks_helpers_find_free_names() {
        let imports = BTreeSet::from(["given".to_owned()]);
        let code = code_only(
            "function f(a, b = 1) {\n  const { c, d: e } = a;\n  try { g(c) } catch (err) { return Object.keys(err) }\n  const h = (x, y) => x + y + given;\n  return { k: b, e, h, s: 'Symbol' } // Symbol\n}",
            true,
        );
        assert_eq!(free_names(&code, &imports), ["Object", "g"]);
        assert_eq!(
            top_level_names(
                "const x = 1;\n  const y = 2;\nfunction z() {}\nconst {\n  p,\n  q,\n} = host;"
            ),
            BTreeSet::from(["x", "z", "p", "q"].map(str::to_owned))
        );
    }

    #[test]
    #[should_panic(expected = "template substitution")]
    fn the_check_refuses_what_it_cannot_read() {
        code_only("const t = `a${b}`;", true);
    }
}
