//! The static check of a program before it runs: a call of a tool the scope does not have
//! (`tools.NAME(...)`, `tools["NAME"](...)`) refuses the run before it starts, naming the
//! nearest tools (`did you mean list_issues?`), so that no call before it has a side effect.
//!
//! The check reads the program as written, with a small lexer per language that knows where
//! code is and where strings, comments, regular expressions and template literals are
//! (TypeScript), or comments, strings and f-strings (Python). A name is checked only where
//! the program calls it: in code, through the global `tools` itself (not `x.tools`), with a
//! name spelled out (`tools[name]` is not checked), and not optionally (`tools.x?.()`
//! tolerates a missing tool). A program that uses `tools` other than by reaching a member
//! (passing it along, declaring or assigning its own `tools`) is not checked at all: the
//! name might not be the namespace. It is a scan of the text, linear and allocation-light:
//! microseconds for a model's program.
//!
//! This module owns which calls are refused and the refusal's text; `run_code` owns when it
//! runs (after the arguments are read, before the runtime is asked).

use std::collections::HashSet;

use crate::runtime::Language;

/// A call of a member the namespace does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownCall {
    /// The member the program calls.
    pub(crate) name: String,
    /// How the program wrote it: `tools.name` or `tools["name"]`.
    pub(crate) written: String,
    /// 1-based line and column (in characters) of the name in the program as written.
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// The calls in `program` (of `language`) of members of the namespace `global` that are not
/// in `members`, the first call of each name, in the order they appear.
pub(crate) fn unknown_calls(
    language: Language,
    program: &str,
    global: &str,
    members: &[String],
) -> Vec<UnknownCall> {
    let tokens = match language {
        Language::Python => python_tokens(program),
        _ => js_tokens(program),
    };
    let known: HashSet<&str> = members.iter().map(String::as_str).collect();
    let mut found: Vec<UnknownCall> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = &tokens[index];
        index += 1;
        if token.kind != Kind::Ident || token.text(program) != global {
            continue;
        }
        let after_member_access = index >= 2
            && matches!(
                tokens[index - 2].kind,
                Kind::Punct(".") | Kind::Punct("?.") | Kind::Punct("#")
            );
        if after_member_access {
            continue;
        }
        let at = |offset: usize| tokens.get(index + offset).map(|t| t.kind);
        // `tools.name(` / `tools?.name(`, or `tools["name"](`.
        let (name_token, call_at) = match at(0) {
            Some(Kind::Punct(".") | Kind::Punct("?.")) => match at(1) {
                Some(Kind::Ident) => (index + 1, 2),
                _ => continue,
            },
            Some(Kind::Punct("[")) => match (at(1), at(2)) {
                (Some(Kind::Str), Some(Kind::Punct("]"))) => (index + 1, 3),
                _ => continue,
            },
            // Any other use: `tools` may not be the namespace here.
            _ => return Vec::new(),
        };
        if at(call_at) != Some(Kind::Punct("(")) {
            continue;
        }
        let token = &tokens[name_token];
        let name = match token.kind {
            Kind::Ident => token.text(program).to_owned(),
            _ => match string_value(token.text(program)) {
                Some(value) => value,
                None => continue,
            },
        };
        let special = language == Language::Python
            && token.kind == Kind::Ident
            && name.starts_with("__")
            && name.ends_with("__");
        if special || known.contains(name.as_str()) || found.iter().any(|f| f.name == name) {
            continue;
        }
        let (line, column) = line_column(program, token.start);
        let written = match token.kind {
            Kind::Ident => format!("{global}.{name}"),
            _ => format!("{global}[{}]", token.text(program)),
        };
        found.push(UnknownCall {
            name,
            written,
            line,
            column,
        });
    }
    found
}

/// The model-facing text of a refusal: which calls, where, and the nearest names.
pub(crate) fn refusal_text(global: &str, unknown: &[UnknownCall], members: &[String]) -> String {
    let what = match (global == crate::code::TOOLS, unknown.len() == 1) {
        (true, true) => "a tool this scope does not have".to_owned(),
        (true, false) => "tools this scope does not have".to_owned(),
        (false, true) => format!("an operation `{global}` does not have"),
        (false, false) => format!("operations `{global}` does not have"),
    };
    let mut text = format!(
        "code run refused before it started (no tool was called): the program calls {what}:"
    );
    for call in unknown {
        text.push_str(&format!(
            "\n- {} (line {}, column {}): ",
            call.written, call.line, call.column
        ));
        text.push_str(&suggestion(global, &call.name, members));
    }
    text
}

/// What to tell a program that reaches `name`, which `global` does not have among
/// `members`: the nearest names (`did you mean list_issues?`), or the names there are when
/// none is near. The refusal's text, and at run time the hint of a failed call of a
/// computed name (`tools[name](...)`).
pub(crate) fn suggestion(global: &str, name: &str, members: &[String]) -> String {
    let close = nearest(name, members);
    if close.is_empty() {
        let mut sorted: Vec<&str> = members.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        if global != crate::code::TOOLS {
            return format!("`{global}` has {}", sorted.join(", "));
        }
        format!("no tool is named like it; {}", listing(global, &sorted))
    } else {
        format!("did you mean {}?", close.join(" or "))
    }
}

/// The tools there are, at most [`LISTED`] of them by name.
fn listing(global: &str, sorted: &[&str]) -> String {
    match sorted.len() {
        0 => format!("`{global}` has no tools"),
        n if n <= LISTED => format!("the tools are {}", sorted.join(", ")),
        n => format!(
            "the tools include {}, and {} more (the SDK declares them all)",
            sorted[..LISTED].join(", "),
            n - LISTED
        ),
    }
}

/// How many tool names a refusal without suggestions lists.
const LISTED: usize = 20;

/// Up to three members nearest to `name`: by edit distance over the names compared without
/// case, `_` and `-` (so `listIssues` finds `list_issues`), within a third of the longer
/// name (at least 1, 2 from five characters), nearest first, then by name. A member that
/// contains the name, or the name it (`issues`, `list_issues`), comes after those.
pub(crate) fn nearest<'a>(name: &str, members: &'a [String]) -> Vec<&'a str> {
    let wanted = normalized(name);
    let mut close: Vec<(usize, &str)> = Vec::new();
    for member in members {
        let candidate = normalized(member);
        let distance = edit_distance(&wanted, &candidate);
        let longer = wanted.len().max(candidate.len());
        let limit = (longer / 3).max(if longer >= 5 { 2 } else { 1 });
        if distance <= limit {
            close.push((distance, member));
        } else if wanted.len() >= 3
            && (contains(&candidate, &wanted) || contains(&wanted, &candidate))
        {
            close.push((usize::MAX / 2 + distance, member));
        }
    }
    close.sort_unstable();
    close
        .into_iter()
        .take(3)
        .map(|(_, member)| member)
        .collect()
}

fn normalized(name: &str) -> Vec<char> {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

fn contains(haystack: &[char], needle: &[char]) -> bool {
    !needle.is_empty()
        && haystack
            .windows(needle.len())
            .any(|window| window == needle)
}

/// The edit distance of two character sequences, a swap of two neighbours counting as one
/// edit (the optimal string alignment distance: `grpe` is one edit from `grep`).
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut table: Vec<usize> = vec![0; (a.len() + 1) * width];
    for (j, cell) in table.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        table[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (table[(i - 1) * width + j] + 1)
                .min(table[i * width + j - 1] + 1)
                .min(table[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(table[(i - 2) * width + j - 2] + 1);
            }
            table[i * width + j] = best;
        }
    }
    table[a.len() * width + b.len()]
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// The value of a string literal token, when it is plain: quoted by `'`, `"` or a backtick,
/// no prefix, no escapes (anything else is not checked).
fn string_value(literal: &str) -> Option<String> {
    let quote = literal.chars().next()?;
    if !matches!(quote, '\'' | '"' | '`') || literal.len() < 2 || !literal.ends_with(quote) {
        return None;
    }
    let inner = &literal[1..literal.len() - 1];
    if inner.contains(['\\', quote, '\n']) || (quote == '`' && inner.contains("${")) {
        return None;
    }
    Some(inner.to_owned())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An identifier or keyword.
    Ident,
    /// A string literal (a whole template literal or f-string too), or a regular expression.
    Str,
    /// A number.
    Number,
    /// Punctuation: the few the check reads by name, every other character as `"?"`.
    Punct(&'static str),
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

impl Token {
    fn new(kind: Kind, start: usize, end: usize) -> Token {
        Token { kind, start, end }
    }

    fn text<'a>(&self, program: &'a str) -> &'a str {
        &program[self.start..self.end]
    }
}

/// What an opening bracket was: a bracket, or the `${` / `{` of a template literal's or an
/// f-string's substitution (closing it resumes the literal).
#[derive(Debug, Clone, Copy)]
enum Open {
    Bracket,
    Template,
    FString { quote: u8, triple: bool },
}

fn punct(c: u8) -> &'static str {
    match c {
        b'.' => ".",
        b'(' => "(",
        b')' => ")",
        b'[' => "[",
        b']' => "]",
        b'{' => "{",
        b'}' => "}",
        b'#' => "#",
        b'=' => "=",
        _ => "?",
    }
}

fn ident_start(c: char) -> bool {
    c == '$' || c == '_' || unicode_ident::is_xid_start(c)
}

fn ident_continue(c: char) -> bool {
    c == '$' || c == '\u{200c}' || c == '\u{200d}' || unicode_ident::is_xid_continue(c)
}

/// The end of the identifier starting at `start` (a character `ident_start` accepted).
fn ident_end(text: &str, start: usize, dollar: bool) -> usize {
    let mut end = start;
    for (i, c) in text[start..].char_indices() {
        let ok = if i == 0 {
            ident_start(c)
        } else {
            ident_continue(c)
        };
        if !ok || (!dollar && c == '$') {
            return start + i;
        }
        end = start + i + c.len_utf8();
    }
    end
}

/// The end of a quoted string from `start` (its opening quote): past the closing quote, or
/// at the line's end for an unterminated one (so a stray quote spoils one line, not the
/// rest of the program). A backslash escapes the next character, a line break too.
fn quoted_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// JavaScript keywords after which a `/` starts a regular expression, not a division.
const REGEX_AFTER: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// The tokens of a TypeScript program as written (types are code here too: a type cannot
/// call a tool, and `typeof tools.x` is a member access).
fn js_tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens: Vec<Token> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    // A template literal's text from `i` (after its backtick or a substitution's `}`):
    // returns where the code goes on, pushing a substitution when it meets `${`.
    let template = |mut i: usize, stack: &mut Vec<Open>| -> usize {
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'`' => return i + 1,
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    stack.push(Open::Template);
                    return i + 2;
                }
                _ => i += 1,
            }
        }
        bytes.len()
    };
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |n| i + n + 4);
            }
            b'/' if regex_allowed(text, tokens.last()) => match regex_end(bytes, i) {
                Some(end) => {
                    i = end;
                    tokens.push(Token::new(Kind::Str, start, end));
                }
                None => {
                    i += 1;
                    tokens.push(Token::new(Kind::Punct("?"), start, i));
                }
            },
            b'\'' | b'"' => {
                i = quoted_end(bytes, i);
                tokens.push(Token::new(Kind::Str, start, i));
            }
            b'`' => {
                i = template(i + 1, &mut stack);
                tokens.push(Token::new(Kind::Str, start, i));
            }
            b'{' | b'(' | b'[' => {
                stack.push(Open::Bracket);
                i += 1;
                tokens.push(Token::new(Kind::Punct(punct(c)), start, i));
            }
            b'}' if matches!(stack.last(), Some(Open::Template)) => {
                stack.pop();
                i = template(i + 1, &mut stack);
                tokens.push(Token::new(Kind::Str, start, i));
            }
            b'}' | b')' | b']' => {
                stack.pop();
                i += 1;
                tokens.push(Token::new(Kind::Punct(punct(c)), start, i));
            }
            b'?' if bytes.get(i + 1) == Some(&b'.')
                && !bytes.get(i + 2).is_some_and(u8::is_ascii_digit) =>
            {
                i += 2;
                tokens.push(Token::new(Kind::Punct("?."), start, i));
            }
            b'0'..=b'9' => {
                i = number_end(bytes, i);
                tokens.push(Token::new(Kind::Number, start, i));
            }
            b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = number_end(bytes, i);
                tokens.push(Token::new(Kind::Number, start, i));
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('\0');
                if ident_start(ch) {
                    i = ident_end(text, i, true);
                    tokens.push(Token::new(Kind::Ident, start, i));
                } else if ch.is_whitespace() {
                    i += ch.len_utf8();
                } else {
                    i += ch.len_utf8().max(1);
                    tokens.push(Token::new(Kind::Punct(punct(c)), start, i));
                }
            }
        }
    }
    tokens
}

fn number_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
    {
        i += 1;
    }
    i
}

/// Whether a `/` after `previous` starts a regular expression: after a value (a name that
/// is not a keyword like `return`, a number, a string, `)` or `]`) it divides.
fn regex_allowed(text: &str, previous: Option<&Token>) -> bool {
    match previous {
        None => true,
        Some(token) => match token.kind {
            Kind::Ident => REGEX_AFTER.contains(&token.text(text)),
            Kind::Number | Kind::Str => false,
            Kind::Punct(")") | Kind::Punct("]") => false,
            Kind::Punct(_) => true,
        },
    }
}

/// The end of a regular expression literal from its `/` at `start` (past its flags), or
/// `None` when the line ends first (then it was a division).
fn regex_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    let mut class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' | b'\r' => return None,
            b'[' => {
                class = true;
                i += 1;
            }
            b']' => {
                class = false;
                i += 1;
            }
            b'/' if !class => {
                i += 1;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'$') {
                    i += 1;
                }
                return Some(i);
            }
            _ => i += 1,
        }
    }
    None
}

/// The tokens of a Python program: comments and strings skipped, an f-string's replacement
/// fields read as code (they are).
fn python_tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens: Vec<Token> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c | b'\\' => i += 1,
            b'#' => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            b'\'' | b'"' => {
                i = python_string(bytes, i, false, &mut stack);
                tokens.push(Token::new(Kind::Str, start, i));
            }
            b'{' | b'(' | b'[' => {
                stack.push(Open::Bracket);
                i += 1;
                tokens.push(Token::new(Kind::Punct(punct(c)), start, i));
            }
            b'}' if matches!(stack.last(), Some(Open::FString { .. })) => {
                if let Some(Open::FString { quote, triple }) = stack.pop() {
                    i = fstring_body(bytes, i + 1, quote, triple, &mut stack);
                }
                tokens.push(Token::new(Kind::Str, start, i));
            }
            b'}' | b')' | b']' => {
                stack.pop();
                i += 1;
                tokens.push(Token::new(Kind::Punct(punct(c)), start, i));
            }
            b'0'..=b'9' => {
                i = number_end(bytes, i);
                tokens.push(Token::new(Kind::Number, start, i));
            }
            b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = number_end(bytes, i);
                tokens.push(Token::new(Kind::Number, start, i));
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('\0');
                if ch == '_' || unicode_ident::is_xid_start(ch) {
                    let end = ident_end(text, i, false);
                    // A string prefix (r, b, f, u, rb, fr, ...) directly before its quote.
                    let word = &text[i..end];
                    let prefix = word.len() <= 2
                        && word.bytes().all(|b| b"rRbBuUfF".contains(&b))
                        && matches!(bytes.get(end), Some(b'\'' | b'"'));
                    if prefix {
                        let f = word.bytes().any(|b| b == b'f' || b == b'F');
                        i = python_string(bytes, end, f, &mut stack);
                        tokens.push(Token::new(Kind::Str, start, i));
                    } else {
                        i = end;
                        tokens.push(Token::new(Kind::Ident, start, i));
                    }
                } else if ch.is_whitespace() {
                    i += ch.len_utf8();
                } else {
                    i += ch.len_utf8().max(1);
                    tokens.push(Token::new(Kind::Punct(punct(c)), start, i));
                }
            }
        }
    }
    tokens
}

/// A Python string from its opening quote at `start`: past its end, or, for an f-string,
/// at the code of its first replacement field (the field's frame pushed).
fn python_string(bytes: &[u8], start: usize, f: bool, stack: &mut Vec<Open>) -> usize {
    let quote = bytes[start];
    let triple = bytes.get(start + 1) == Some(&quote) && bytes.get(start + 2) == Some(&quote);
    if f {
        return fstring_body(
            bytes,
            start + if triple { 3 } else { 1 },
            quote,
            triple,
            stack,
        );
    }
    if !triple {
        return quoted_end(bytes, start);
    }
    let mut i = start + 3;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            c if c == quote
                && bytes.get(i + 1) == Some(&quote)
                && bytes.get(i + 2) == Some(&quote) =>
            {
                return i + 3;
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

/// An f-string's text from `i`: past its closing quote, or into the code of a replacement
/// field (`{`, not `{{`), pushing the frame that resumes the text at the field's `}`.
fn fstring_body(
    bytes: &[u8],
    mut i: usize,
    quote: u8,
    triple: bool,
    stack: &mut Vec<Open>,
) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return i,
            b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
            b'{' => {
                stack.push(Open::FString { quote, triple });
                return i + 1;
            }
            c if c == quote
                && (!triple
                    || (bytes.get(i + 1) == Some(&quote) && bytes.get(i + 2) == Some(&quote))) =>
            {
                return i + if triple { 3 } else { 1 };
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members() -> Vec<String> {
        ["glob", "grep", "list_issues", "read_file", "my-tool"]
            .map(str::to_owned)
            .to_vec()
    }

    fn names(language: Language, program: &str) -> Vec<String> {
        unknown_calls(language, program, "tools", &members())
            .into_iter()
            .map(|call| call.written)
            .collect()
    }

    fn ts(program: &str) -> Vec<String> {
        names(Language::TypeScript, program)
    }

    fn py(program: &str) -> Vec<String> {
        names(Language::Python, program)
    }

    #[test]
    fn unknown_calls_are_found_with_their_position() {
        let calls = unknown_calls(
            Language::TypeScript,
            "const a = await tools.grep({});\nconst b = await tools.list_issue({});",
            "tools",
            &members(),
        );
        assert_eq!(
            calls,
            [UnknownCall {
                name: "list_issue".into(),
                written: "tools.list_issue".into(),
                line: 2,
                column: 23,
            }]
        );
        assert_eq!(ts("await tools['gre p']({})"), ["tools['gre p']"]);
        assert_eq!(
            ts("await tools[\"my-tool\"]({}); tools?.globb({})"),
            ["tools.globb"]
        );
        assert_eq!(
            ts("tools.x({}); tools.x({}); tools.y({})"),
            ["tools.x", "tools.y"]
        );
        assert_eq!(py("x = await tools.list_issue({})\n"), ["tools.list_issue"]);
        assert_eq!(py("await tools['nope']()"), ["tools['nope']"]);
        let calls = unknown_calls(
            Language::Python,
            "\n\n  é = tools.nope()",
            "tools",
            &members(),
        );
        assert_eq!((calls[0].line, calls[0].column), (3, 13));
    }

    #[test]
    fn strings_comments_regexes_and_templates_do_not_count() {
        assert!(
            ts("// tools.nope()\n/* tools.nope() */ return 'tools.nope()' + \"tools.nope()\"")
                .is_empty()
        );
        assert!(ts("return `tools.nope() ${1 + 2} tools.nope()`").is_empty());
        assert!(ts("const r = /tools.nope\\(/; return r.test('x') / 2").is_empty());
        assert!(ts("const r = [/[/]tools.nope()/g]").is_empty());
        assert_eq!(
            ts("return `a ${await tools.nope({})} b ${`${tools.deeper()}`}`"),
            ["tools.nope", "tools.deeper"]
        );
        assert_eq!(ts("const x = {a: `}`}; await tools.nope()"), ["tools.nope"]);
        // A division is not a regular expression: the code after it is still read.
        assert_eq!(
            ts("const half = n / 2; await tools.nope(); const q = m / 3"),
            ["tools.nope"]
        );
        assert!(py("# tools.nope()\nx = 'tools.nope()' + \"tools.nope()\"").is_empty());
        assert!(
            py("x = '''\ntools.nope()\n''' + r\"tools.nope()\\\" \" + b'tools.nope()'").is_empty()
        );
        assert!(py("x = f'tools.nope() {{tools.nope()}}'").is_empty());
        assert_eq!(
            py("x = f'{await tools.nope()} and {y!r:>10}'\nawait tools.glob()"),
            ["tools.nope"]
        );
        assert_eq!(
            py("x = f\"\"\"{ {'a': 1}['a'] } {tools.nope()}\"\"\""),
            ["tools.nope"]
        );
        // An unterminated string spoils its own line only.
        assert_eq!(ts("const s = 'open\nawait tools.nope()"), ["tools.nope"]);
    }

    #[test]
    fn only_calls_through_the_namespace_itself_are_checked() {
        // Computed, optional, not called, or another object's `tools`.
        assert!(
            ts("const n = 'nope'; await tools[n]({}); await tools.maybe?.({}); if (tools.x) {}")
                .is_empty()
        );
        assert!(ts("await this.tools.nope(); await api.tools.nope(); x.#tools.nope()").is_empty());
        assert!(py("await tools[name]({}); f = tools.nope; other.tools.nope()").is_empty());
        // Dunder names are the object's own in Python.
        assert!(py("tools.__dir__()").is_empty());
        // Another `tools` (declared, a parameter, passed along): nothing is checked.
        assert!(ts("const tools = {nope: () => 1}; tools.nope()").is_empty());
        assert!(ts("const f = (tools) => tools.nope(); f(tools)").is_empty());
        assert!(ts("function g(tools: any) { return tools.nope() }").is_empty());
        assert!(py("def f(tools):\n    return tools.nope()\n").is_empty());
        assert!(py("for tools in x:\n    tools.nope()\n").is_empty());
        assert!(py("print(list(tools)); tools.nope()").is_empty());
    }

    #[test]
    fn nearest_names_come_first() {
        let members = members();
        assert_eq!(nearest("list_issue", &members), ["list_issues"]);
        assert_eq!(nearest("listIssues", &members), ["list_issues"]);
        assert_eq!(nearest("grpe", &members), ["grep"]);
        assert_eq!(nearest("issues", &members), ["list_issues"]);
        assert_eq!(nearest("my_tool", &members), ["my-tool"]);
        assert!(nearest("deploy", &members).is_empty());
        assert_eq!(nearest("glo", &members), ["glob"]);
    }

    #[test]
    fn the_refusal_names_the_calls_and_the_suggestions() {
        let members = members();
        let calls = unknown_calls(
            Language::TypeScript,
            "await tools.list_issue({});\nawait tools.deploy({})",
            "tools",
            &members,
        );
        assert_eq!(
            refusal_text("tools", &calls, &members),
            "code run refused before it started (no tool was called): the program calls tools this scope does not have:\n\
             - tools.list_issue (line 1, column 13): did you mean list_issues?\n\
             - tools.deploy (line 2, column 13): no tool is named like it; the tools are glob, grep, list_issues, my-tool, read_file"
        );
    }

    /// The check is a scan: a 2,000-line program takes well under a millisecond when
    /// optimized; the bound here is generous for a debug build on a busy machine.
    #[test]
    fn the_check_is_fast() {
        let line = "const r = await tools.grep({pattern: 'a/b' + `x ${y}`}); // tools.nope()\n";
        let program = line.repeat(2_000);
        let members: Vec<String> = (0..1_000)
            .map(|i| format!("tool_{i}"))
            .chain(["grep".to_owned()])
            .collect();
        let started = std::time::Instant::now();
        for _ in 0..10 {
            assert!(unknown_calls(Language::TypeScript, &program, "tools", &members).is_empty());
        }
        let python = "r = await tools.grep({'pattern': 'a'})  # tools.nope()\n".repeat(2_000);
        for _ in 0..10 {
            assert!(unknown_calls(Language::Python, &python, "tools", &members).is_empty());
        }
        let per_run = started.elapsed() / 20;
        assert!(
            per_run < std::time::Duration::from_millis(50),
            "{per_run:?} per check"
        );
    }
}
