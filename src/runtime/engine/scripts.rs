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

use crate::runtime::strip::{PROGRAM_FILE, program_position};

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
    "MathFloor",
    "MathMin",
    "NumberParseFloat",
    "NumberParseInt",
    "NumberPrototypeValueOf",
    "ObjectGetOwnPropertyDescriptor",
    "ObjectPrototypeHasOwnProperty",
    "ObjectPrototypeIsPrototypeOf",
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
    "describeError",
    "getPromiseDetails",
    "getProxyDetails",
    "isArrayBuffer",
    "isAsyncFunction",
    "isBigIntObject",
    "isBooleanObject",
    "isBoxedPrimitive",
    "isDate",
    "isGeneratorFunction",
    "isIdentifier",
    "isMap",
    "isNativeError",
    "isNumberObject",
    "isPromise",
    "isProxy",
    "isRegExp",
    "isSet",
    "isSharedArrayBuffer",
    "isStringObject",
    "isTypedArray",
    "isWeakMap",
    "isWeakSet",
    "listJoin",
    "listPush",
    "nameOfConstructor",
    "newList",
    "ownDataValue",
    "repeat",
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
/// the host's natives that returns the host API, followed by `inspectorImports` (hoisted, so
/// `10_inspect.js` can call it; it is only called once every part has run).
static BOOTSTRAP: LazyLock<String> = LazyLock::new(|| {
    // The wrapper head's length, as strip.rs defines it: column 1 + head = column 1 as written.
    let (_, mapped) = program_position(1, 1000);
    let head_length = 1000 - mapped;
    format!(
        "(function (host) {{\n\"use strict\";\nconst PROGRAM_FILE = {file:?};\nconst PROGRAM_HEAD_LENGTH = {head_length};\n{parts}\nfunction inspectorImports() {{\n  return {{ __proto__: null, {imports} }};\n}}\n}})",
        file = PROGRAM_FILE,
        parts = BOOTSTRAP_PARTS.join("\n"),
        imports = INSPECTOR_IMPORTS.join(", "),
    )
});

/// The inspector source: a strict function of the imports that returns `inspect` and
/// `formatLogArgs`.
static INSPECTOR: LazyLock<String> = LazyLock::new(|| {
    format!(
        "(function (imports) {{\n\"use strict\";\nconst {{ {imports} }} = imports;\n{INSPECTOR_PART}\nreturn {{ __proto__: null, inspect, formatLogArgs }};\n}})",
        imports = INSPECTOR_IMPORTS.join(", "),
    )
});

/// A script of the engine's own, evaluated in any context.
pub(crate) struct EngineScript {
    name: &'static str,
    source: &'static LazyLock<String>,
    #[cfg(not(feature = "v8"))]
    bytecode: std::sync::OnceLock<Vec<u8>>,
}

/// The bootstrap: evaluates to the function of the host's natives.
pub(crate) static BOOTSTRAP_SCRIPT: EngineScript = EngineScript::new(BOOTSTRAP_FILE, &BOOTSTRAP);

/// The inspector: evaluates to the function of its imports.
pub(crate) static INSPECTOR_SCRIPT: EngineScript = EngineScript::new(INSPECTOR_FILE, &INSPECTOR);

impl EngineScript {
    const fn new(name: &'static str, source: &'static LazyLock<String>) -> EngineScript {
        EngineScript {
            name,
            source,
            #[cfg(not(feature = "v8"))]
            bytecode: std::sync::OnceLock::new(),
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
                let compiled = v8::script_bytecode::compile(scope, self.source, self.name)?;
                self.bytecode.get_or_init(|| compiled)
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

    /// `source` without comments and with every string and template literal emptied.
    fn code_only(source: &str) -> String {
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
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            } else {
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
        out
    }

    /// The identifiers of `code` that are not property names after a `.`.
    fn identifiers(code: &str) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let mut previous = ' ';
        let mut chars = code.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if c.is_ascii_alphabetic() || c == '_' || c == '$' {
                let mut end = start + c.len_utf8();
                while let Some(&(at, next)) = chars.peek() {
                    if next.is_ascii_alphanumeric() || next == '_' || next == '$' {
                        end = at + next.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                if previous != '.' {
                    found.insert(code[start..end].to_owned());
                }
                previous = 'a';
            } else if c.is_ascii_digit() {
                previous = '0';
            } else {
                if !c.is_whitespace() {
                    previous = c;
                }
            }
        }
        found
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

    #[test]
    fn every_bootstrap_name_the_inspector_uses_is_imported() {
        let mut bootstrap = BTreeSet::from(["PROGRAM_FILE".to_owned(), "host".to_owned()]);
        for part in BOOTSTRAP_PARTS {
            bootstrap.extend(top_level_names(&code_only(part)));
        }
        let inspector = code_only(INSPECTOR_PART);
        let own = top_level_names(&inspector);
        let imports: BTreeSet<String> = INSPECTOR_IMPORTS
            .iter()
            .map(|name| (*name).to_owned())
            .collect();
        let used = identifiers(&inspector);
        let missing: Vec<&String> = used
            .iter()
            .filter(|name| bootstrap.contains(*name) && !own.contains(*name))
            .filter(|name| !imports.contains(*name))
            .collect();
        assert!(
            missing.is_empty(),
            "the inspector uses bootstrap names it is not handed: {missing:?}"
        );
        // And nothing is imported that the bootstrap does not declare (a typo would be a
        // ReferenceError only when the inspector first loads).
        let unknown: Vec<&String> = imports
            .iter()
            .filter(|name| !bootstrap.contains(*name))
            .collect();
        assert!(
            unknown.is_empty(),
            "imports the bootstrap does not declare: {unknown:?}"
        );
    }

    #[test]
    fn the_checks_helpers_see_through_comments_strings_and_properties() {
        let code = code_only("a.b(c, 'd') // e\n/* f */ g`h` + $i");
        assert_eq!(
            identifiers(&code),
            BTreeSet::from(["a", "c", "g", "$i"].map(str::to_owned))
        );
        assert_eq!(
            top_level_names(
                "const x = 1;\n  const y = 2;\nfunction z() {}\nconst {\n  p,\n  q,\n} = host;"
            ),
            BTreeSet::from(["x", "z", "p", "q"].map(str::to_owned))
        );
    }
}
