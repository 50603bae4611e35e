//! Small text helpers shared by both renderers: identifier checks, string literals,
//! one-line documentation, type names and the registry that keeps names unique.
//!
//! This module owns how a name or a description becomes safe source text. It must not
//! know about schemas or about the layout of either SDK.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

/// Whether `name` can be written bare as a TypeScript property key or after `tools.`.
///
/// JavaScript identifiers are Unicode `ID_Start`/`ID_Continue` plus `$` and `_`; the
/// XID sets used here are a subset of those, so a `true` here is always right. Reserved
/// words are fine as property names (`tools.class` is valid JavaScript).
pub(crate) fn is_ts_identifier(name: &str) -> bool {
    let bytes = name.as_bytes();
    match bytes.first() {
        // The common case, ASCII, without a Unicode table lookup per character: ASCII's
        // XID_Start is the letters and its XID_Continue adds the digits and `_`.
        Some(first) if ASCII_IDENTIFIER_START[usize::from(*first)] => {
            if bytes.iter().all(|&b| ASCII_IDENTIFIER_PART[usize::from(b)]) {
                return true;
            }
            if bytes.is_ascii() {
                return false;
            }
        }
        Some(first) if first.is_ascii() => return false,
        Some(_) => {}
        None => return false,
    }
    let mut chars = name.chars();
    match chars.next() {
        Some(first) if first == '$' || first == '_' || unicode_ident::is_xid_start(first) => {
            chars.all(|c| c == '$' || unicode_ident::is_xid_continue(c))
        }
        _ => false,
    }
}

/// The ASCII bytes that may start a JavaScript identifier: letters, `$` and `_`.
const ASCII_IDENTIFIER_START: [bool; 256] = identifier_table(false);

/// The ASCII bytes that may continue a JavaScript identifier: also the digits.
const ASCII_IDENTIFIER_PART: [bool; 256] = identifier_table(true);

/// A table over every byte value (a load per byte instead of a chain of comparisons).
const fn identifier_table(with_digits: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphabetic()
            || b == b'$'
            || b == b'_'
            || (with_digits && b.is_ascii_digit());
        byte += 1;
    }
    table
}

/// Python's hard keywords: never usable as names.
const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Python's soft keywords: names in most places, but the SDK keeps them off attributes so
/// a program never reads like a `match`/`type` statement.
const PYTHON_SOFT_KEYWORDS: [&str; 4] = ["_", "case", "match", "type"];

/// Whether `name` is an ASCII Python identifier that is not a hard keyword.
///
/// Non-ASCII identifiers are refused on purpose: Python NFKC-normalizes identifiers in
/// source, so `ﬁle` written in a program would name `file`; a quoted key never changes.
pub(crate) fn is_python_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let starts_well = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_');
    starts_well
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !PYTHON_KEYWORDS.contains(&name)
}

/// Whether `name` can be a key in a class-syntax `TypedDict`: an identifier that Python
/// does not name-mangle (a leading `__` inside a class body would be rewritten).
pub(crate) fn is_python_class_key(name: &str) -> bool {
    is_python_identifier(name) && !name.starts_with("__")
}

/// Whether `name` can be a method of the `Tools` protocol and be called as
/// `tools.name(...)`: an identifier, no soft keyword, and no leading `_` (Python's
/// private names, dunder and mangled ones included): those are `tools["_name"]`.
pub(crate) fn is_python_attribute(name: &str) -> bool {
    is_python_class_key(name) && !name.starts_with('_') && !PYTHON_SOFT_KEYWORDS.contains(&name)
}

/// A double-quoted string literal that TypeScript and Python both read back as `text`:
/// JSON escaping, plus `\u2028`/`\u2029` (legal raw in JSON, confusing in a prompt).
pub(crate) fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_string_literal(&mut out, text);
    out
}

/// Appends [`string_literal`]`(text)` to `out`: runs that need no escaping are copied
/// whole.
pub(crate) fn push_string_literal(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let mut copied = 0;
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        // (bytes of the escape, bytes of input it replaces)
        let (escape, width): (&str, usize) = match byte {
            b'"' => ("\\\"", 1),
            b'\\' => ("\\\\", 1),
            b'\n' => ("\\n", 1),
            b'\r' => ("\\r", 1),
            b'\t' => ("\\t", 1),
            0x00..=0x1f | 0x7f => ("", 1),
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
            0xe2 if bytes.get(index + 1) == Some(&0x80)
                && matches!(bytes.get(index + 2), Some(0xa8 | 0xa9)) =>
            {
                ("", 3)
            }
            _ => {
                index += 1;
                continue;
            }
        };
        out.push_str(&text[copied..index]);
        if escape.is_empty() {
            let code = text[index..].chars().next().map_or(0, |c| c as u32);
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                out.push(char::from(HEX[((code >> shift) & 0xf) as usize]));
            }
        } else {
            out.push_str(escape);
        }
        index += width;
        copied = index;
    }
    out.push_str(&text[copied..]);
    out.push('"');
}

/// Collapses every run of whitespace and control characters to one space and trims, so
/// a description fits on one line of a comment. Borrows when `text` is already one line
/// once its ends are trimmed (nearly every description). Idempotent.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if is_one_clean_line(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    // One line once its ends are trimmed (trailing newlines are common).
    let trimmed = text.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    if is_one_clean_line(trimmed.as_bytes()) {
        return Cow::Borrowed(trimmed);
    }
    if text.is_ascii() {
        // Word by word over the bytes for ASCII (nearly every description): ASCII
        // whitespace and control characters are exactly the bytes up to space, and DEL.
        let is_gap = |byte: u8| byte <= b' ' || byte == 0x7f;
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut index = 0;
        while index < bytes.len() {
            while index < bytes.len() && is_gap(bytes[index]) {
                index += 1;
            }
            let start = index;
            while index < bytes.len() && !is_gap(bytes[index]) {
                index += 1;
            }
            if start < index {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&text[start..index]);
            }
        }
        return Cow::Owned(out);
    }
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`one_line`] of an owned string: no copy when it already is one line.
pub(crate) fn one_line_owned(text: String) -> String {
    match one_line(&text) {
        Cow::Borrowed(line) if line.len() == text.len() => {}
        other => return other.into_owned(),
    }
    text
}

/// Whether `bytes` is already what [`one_line`] makes of it, for ASCII: printable
/// characters only, no two spaces in a row, no space at either end. Non-ASCII text answers
/// `false` (the caller takes the general path).
///
/// Branch-free over blocks of bytes, which the compiler turns into vector instructions:
/// this runs over every description of every tool, and a byte-at-a-time search for a
/// double space was a fifth of the time of an SDK.
fn is_one_clean_line(bytes: &[u8]) -> bool {
    const BLOCK: usize = 64;
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return true;
    };
    let printable = |b: u8| (b > b' ') & (b < 0x7f);
    if !printable(first) || !printable(last) {
        return false;
    }
    // Pairs of neighbours: every byte is the left one of a pair once, except the last,
    // which was checked above.
    let lefts = &bytes[..bytes.len() - 1];
    let rights = &bytes[1..];
    lefts
        .chunks(BLOCK)
        .zip(rights.chunks(BLOCK))
        .all(|(lefts, rights)| {
            let bad = lefts
                .iter()
                .zip(rights)
                .fold(false, |bad, (&left, &right)| {
                    bad | !(b' '..0x7f).contains(&left) | ((left == b' ') & (right == b' '))
                });
            !bad
        })
}

/// Appends one-line `text` (see [`one_line`]) as the inside of a `/** ... */` comment:
/// `*/` escaped.
pub(crate) fn push_jsdoc_text(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut copied = 0;
    // `/` is rare in descriptions and `memchr` finds it a block at a time.
    for slash in memchr::memchr_iter(b'/', bytes) {
        if slash > copied && bytes[slash - 1] == b'*' {
            out.push_str(&text[copied..slash - 1]);
            out.push_str("*\\/");
            copied = slash + 1;
        }
    }
    out.push_str(&text[copied..]);
}

/// One-line `text` (see [`one_line`]) as the inside of a `/** ... */` comment: `*/` escaped.
#[cfg(test)]
pub(crate) fn jsdoc_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_jsdoc_text(&mut out, text);
    out
}

/// Appends one-line `text` (see [`one_line`]) as the inside of a `"""..."""` docstring:
/// backslashes and quotes escaped so the docstring cannot end early.
pub(crate) fn push_docstring_text(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = rest.find(['\\', '"']) {
        out.push_str(&rest[..at]);
        out.push('\\');
        out.push_str(&rest[at..at + 1]);
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// [`push_docstring_text`] into a new string.
#[cfg(test)]
pub(crate) fn docstring_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_docstring_text(&mut out, text);
    out
}

/// `text` in PascalCase from its ASCII letters and digits (`my-tool` -> `MyTool`,
/// `get_me` -> `GetMe`); other characters separate words. May be empty.
pub(crate) fn pascal_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    let mut word_start = true;
    for &byte in text.as_bytes() {
        if !byte.is_ascii_alphanumeric() {
            word_start = true;
        } else if word_start {
            out.push(char::from(byte.to_ascii_uppercase()));
            word_start = false;
        } else {
            out.push(char::from(byte));
        }
    }
    // A type name cannot start with a digit.
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// Names of both SDKs' fixed declarations and of the library types they use: a generated
/// type name never takes one of them.
const RESERVED_TYPE_NAMES: [&str; 32] = [
    "Any",
    "Array",
    "Awaitable",
    "Boolean",
    "Callable",
    "Date",
    "Error",
    "Exception",
    "Function",
    "JsonValue",
    "Literal",
    "Map",
    "Never",
    "NotRequired",
    "Number",
    "Object",
    "Omit",
    "Partial",
    "Pick",
    "Promise",
    "Protocol",
    "Readonly",
    "Record",
    "Required",
    "Set",
    "String",
    "Symbol",
    "ToolArgsMap",
    "ToolCallError",
    "ToolName",
    "ToolOutputMap",
    "Tools",
];

/// Hands out unique type names in a deterministic way: the first claim of a base name
/// gets it, later claims get `Name2`, `Name3`, ... Claims happen in tool order, so the
/// same tool set always gets the same names.
#[derive(Debug, Clone)]
pub(crate) struct NameRegistry {
    taken: BTreeSet<String>,
}

impl Default for NameRegistry {
    fn default() -> Self {
        NameRegistry {
            taken: RESERVED_TYPE_NAMES
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
        }
    }
}

impl NameRegistry {
    /// A registry with nothing reserved (for stems that always get a suffix).
    pub(crate) fn empty() -> Self {
        NameRegistry {
            taken: BTreeSet::new(),
        }
    }

    /// Claims a unique name built from `base` (which must already be a valid name).
    pub(crate) fn claim(&mut self, base: &str) -> String {
        let name = first_free(base, |name| self.taken.contains(name));
        self.taken.insert(name.clone());
        name
    }
}

/// Names claimed on top of a registry that is left as it is: claims as a clone of the
/// registry would, without copying it.
#[derive(Debug)]
pub(crate) struct NameLayer<'a> {
    below: &'a NameRegistry,
    taken: BTreeSet<String>,
    /// For a base claimed more than once, the number its next claim tries first: every
    /// smaller one is taken (names are never given back), so claiming one base many times
    /// (as names cut to a maximum length are) costs linear time, not quadratic.
    next_number: HashMap<String, usize>,
}

impl<'a> NameLayer<'a> {
    pub(crate) fn new(below: &'a NameRegistry) -> Self {
        NameLayer {
            below,
            taken: BTreeSet::new(),
            next_number: HashMap::new(),
        }
    }

    /// Claims a unique name built from `base`, as [`NameRegistry::claim`].
    pub(crate) fn claim(&mut self, base: &str) -> String {
        let start = self.next_number.get(base).copied().unwrap_or(2);
        let (name, number) = first_free_from(base, start, |name| {
            self.below.taken.contains(name) || self.taken.contains(name)
        });
        if let Some(number) = number {
            self.next_number.insert(base.to_owned(), number + 1);
        }
        self.taken.insert(name.clone());
        name
    }
}

/// `base` (`Type` when empty), else the first of `base2`, `base3`, ... not `taken`.
fn first_free(base: &str, taken: impl Fn(&str) -> bool) -> String {
    first_free_from(base, 2, taken).0
}

/// [`first_free`], trying numbers from `start` (every smaller one must be taken); with
/// the number used, if any.
fn first_free_from(
    base: &str,
    start: usize,
    taken: impl Fn(&str) -> bool,
) -> (String, Option<usize>) {
    let base = if base.is_empty() { "Type" } else { base };
    if !taken(base) {
        return (base.to_owned(), None);
    }
    let mut candidate = String::with_capacity(base.len() + 2);
    let mut n = start.max(2);
    loop {
        candidate.clear();
        candidate.push_str(base);
        // Writing to a `String` cannot fail.
        let _ = write!(candidate, "{n}");
        if !taken(&candidate) {
            return (candidate, Some(n));
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typescript_identifiers_include_unicode_and_dollar() {
        for name in ["get_me", "$x", "_", "路径", "class", "__proto__"] {
            assert!(is_ts_identifier(name), "{name}");
        }
        for name in ["my-tool", "", "1a", "a b", "say \"hi\"", "line\nbreak"] {
            assert!(!is_ts_identifier(name), "{name}");
        }
    }

    #[test]
    fn python_attributes_avoid_keywords_soft_keywords_and_mangling() {
        assert!(is_python_attribute("get_me"));
        for name in [
            "class",
            "from",
            "match",
            "type",
            "_",
            "_private",
            "_x_",
            "__proto__",
            "__x",
            "路径",
            "my-tool",
        ] {
            assert!(!is_python_attribute(name), "{name}");
        }
        assert!(is_python_class_key("type"));
        assert!(!is_python_class_key("from"));
    }

    #[test]
    fn string_literals_escape_quotes_newlines_and_separators() {
        assert_eq!(
            string_literal("a\"b\\c\nd\u{2028}\u{1}"),
            r#""a\"b\\c\nd\u2028\u0001""#
        );
    }

    #[test]
    fn docs_are_one_line_and_cannot_close_the_comment() {
        assert_eq!(one_line("  a\n\n b\u{2028}*/ c\t"), "a b */ c");
        assert_eq!(
            one_line("\nplain words, one line.\n"),
            "plain words, one line."
        );
        assert_eq!(one_line("two  spaces\u{7f}and del"), "two spaces and del");
        assert_eq!(one_line("路径\u{3000}文件"), "路径 文件");
        assert_eq!(jsdoc_text("a b */ c"), "a b *\\/ c");
        assert_eq!(
            docstring_text("say \"\"\"hi\"\"\" \\ ok"),
            "say \\\"\\\"\\\"hi\\\"\\\"\\\" \\\\ ok"
        );
    }

    #[test]
    fn pascal_case_keeps_ascii_words() {
        assert_eq!(pascal_case("my-tool"), "MyTool");
        assert_eq!(pascal_case("get_me"), "GetMe");
        assert_eq!(pascal_case("__proto__"), "Proto");
        assert_eq!(pascal_case("路径"), "");
        assert_eq!(pascal_case("2fa"), "T2fa");
    }

    #[test]
    fn the_registry_suffixes_collisions_and_reserved_names() {
        let mut names = NameRegistry::default();
        assert_eq!(names.claim("MyTool"), "MyTool");
        assert_eq!(names.claim("MyTool"), "MyTool2");
        assert_eq!(names.claim("JsonValue"), "JsonValue2");
        assert_eq!(names.claim(""), "Type");
        let mut layer = NameLayer::new(&names);
        assert_eq!(layer.claim("MyTool"), "MyTool3");
        assert_eq!(layer.claim("MyTool"), "MyTool4");
        assert_eq!(layer.claim("Other"), "Other");
        assert_eq!(layer.claim("Other"), "Other2");
        assert_eq!(names.claim("MyTool"), "MyTool3");
    }

    /// The fast paths above against the plain definitions they replace.
    mod against_plain_definitions {
        use super::*;
        use proptest::prelude::*;

        fn plain_one_line(text: &str) -> String {
            text.split(|c: char| c.is_whitespace() || c.is_control())
                .filter(|word| !word.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        }

        fn plain_is_ts_identifier(name: &str) -> bool {
            let mut chars = name.chars();
            match chars.next() {
                Some(first)
                    if first == '$' || first == '_' || unicode_ident::is_xid_start(first) =>
                {
                    chars.all(|c| c == '$' || unicode_ident::is_xid_continue(c))
                }
                _ => false,
            }
        }

        fn plain_pascal_case(text: &str) -> String {
            let mut out: String = text
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter_map(|word| {
                    let mut chars = word.chars();
                    let first = chars.next()?;
                    Some(first.to_ascii_uppercase().to_string() + chars.as_str())
                })
                .collect();
            if out.starts_with(|c: char| c.is_ascii_digit()) {
                out.insert(0, 'T');
            }
            out
        }

        /// Text with the characters the fast paths treat specially.
        fn text() -> impl Strategy<Value = String> {
            "[a-zA-Z0-9_$ */\t\n\r\u{7f}\u{1}\u{a0}\u{2028}\u{3000}路é-]{0,40}"
        }

        proptest! {
            #[test]
            fn one_line_is_the_words_joined_by_one_space(text in text()) {
                prop_assert_eq!(one_line(&text).into_owned(), plain_one_line(&text));
            }

            #[test]
            fn jsdoc_text_escapes_every_comment_end(text in text()) {
                prop_assert_eq!(jsdoc_text(&text), text.replace("*/", "*\\/"));
            }

            #[test]
            fn ts_identifiers_are_the_unicode_definition(name in text()) {
                prop_assert_eq!(is_ts_identifier(&name), plain_is_ts_identifier(&name));
            }

            #[test]
            fn pascal_case_joins_capitalized_ascii_words(text in text()) {
                prop_assert_eq!(pascal_case(&text), plain_pascal_case(&text));
            }
        }
    }
}
