//! JSON text both ways, without recursion: a parser that checks losslessness as it goes
//! (refusing, with the path, what [`check_lossless`](super::check_lossless) refuses, and
//! lone surrogates) or, asked to, reads numbers as `serde_json` does (any size, as
//! written), and writers (compact and pretty) whose output matches `serde_json`'s.
//!
//! Values may nest up to the limit the caller gives; every walk here keeps its own stack
//! on the heap, so no depth of input can overflow the thread's stack. This module owns the
//! text forms; it must not know about schemas, tools or engines.

use std::fmt::Write as _;

use super::{JsonPath, JsonValue, LosslessReason, MAX_SAFE_INTEGER, NotLossless};

/// A container being parsed, and what is known of the member being read.
enum Open {
    Array(Vec<JsonValue>),
    Object(serde_json::Map<String, JsonValue>, Option<String>),
}

/// What the parser makes of numbers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Numbers {
    /// Refuses what a JavaScript number cannot hold exactly (and `-0`).
    Lossless,
    /// Reads them as `serde_json` does: any integer of `u64` or `i64`, else a double.
    AsWritten,
}

struct Parser<'a> {
    limit: usize,
    numbers: Numbers,
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    stack: Vec<Open>,
}

/// Parses JSON text into a lossless value: every number is finite, not `-0` and (if an
/// integer) within ±(2^53 - 1); every string and key is Unicode (an escaped lone surrogate
/// is refused); nesting is at most `limit`. An error names the path where the
/// problem is and, for a syntax error, the line and column.
pub(super) fn parse(text: &str, limit: usize) -> Result<JsonValue, NotLossless> {
    run(text, limit, Numbers::Lossless)
}

/// Parses JSON text as `serde_json` does (numbers as written, of any size; lone
/// surrogates refused), nesting at most `limit`: for text that is not a value crossing a
/// boundary, such as a tool list's schemas.
pub(super) fn parse_as_written(text: &str, limit: usize) -> Result<JsonValue, NotLossless> {
    run(text, limit, Numbers::AsWritten)
}

fn run(text: &str, limit: usize, numbers: Numbers) -> Result<JsonValue, NotLossless> {
    let mut parser = Parser {
        limit,
        numbers,
        text,
        bytes: text.as_bytes(),
        at: 0,
        stack: Vec::new(),
    };
    parser.run()
}

impl Parser<'_> {
    fn run(&mut self) -> Result<JsonValue, NotLossless> {
        loop {
            self.skip_ws();
            // A value starts here (or an empty container ends).
            let value = match self.peek() {
                Some(b'[') => {
                    self.open(Open::Array(Vec::new()))?;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.at += 1;
                        self.close()
                    } else {
                        continue;
                    }
                }
                Some(b'{') => {
                    self.open(Open::Object(serde_json::Map::new(), None))?;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.at += 1;
                        self.close()
                    } else {
                        self.key()?;
                        continue;
                    }
                }
                Some(b'"') => JsonValue::String(self.string("a string")?),
                Some(b't') => self.word("true", JsonValue::Bool(true))?,
                Some(b'f') => self.word("false", JsonValue::Bool(false))?,
                Some(b'n') => self.word("null", JsonValue::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(_) => return Err(self.syntax("expected a value")),
                None => return Err(self.syntax("expected a value, found the end of the text")),
            };
            // Place the value, then close every container that ends here.
            let mut value = value;
            loop {
                match self.stack.last_mut() {
                    None => {
                        self.skip_ws();
                        if self.at < self.bytes.len() {
                            return Err(self.syntax("trailing characters after the value"));
                        }
                        return Ok(value);
                    }
                    Some(Open::Array(items)) => items.push(value),
                    Some(Open::Object(map, key)) => {
                        let key = key.take().unwrap_or_default();
                        map.insert(key, value);
                    }
                }
                self.skip_ws();
                match (self.peek(), self.stack.last()) {
                    (Some(b','), Some(Open::Array(_))) => {
                        self.at += 1;
                        break;
                    }
                    (Some(b','), Some(Open::Object(..))) => {
                        self.at += 1;
                        self.skip_ws();
                        self.key()?;
                        break;
                    }
                    (Some(b']'), Some(Open::Array(_))) | (Some(b'}'), Some(Open::Object(..))) => {
                        self.at += 1;
                        value = self.close();
                    }
                    (_, Some(Open::Array(_))) => return Err(self.syntax("expected `,` or `]`")),
                    _ => return Err(self.syntax("expected `,` or `}`")),
                }
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn open(&mut self, open: Open) -> Result<(), NotLossless> {
        if self.stack.len() >= self.limit {
            return Err(self.problem(LosslessReason::TooDeep { limit: self.limit }));
        }
        self.at += 1;
        self.stack.push(open);
        Ok(())
    }

    /// Pops the innermost container (just closed) as a value.
    fn close(&mut self) -> JsonValue {
        match self.stack.pop() {
            Some(Open::Array(items)) => JsonValue::Array(items),
            Some(Open::Object(map, _)) => JsonValue::Object(map),
            None => JsonValue::Null,
        }
    }

    /// Reads `"key" :` into the innermost object.
    fn key(&mut self) -> Result<(), NotLossless> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax("expected a key (a string)"));
        }
        let key = self.string("a key")?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.syntax("expected `:` after the key"));
        }
        self.at += 1;
        if let Some(Open::Object(_, pending)) = self.stack.last_mut() {
            *pending = Some(key);
        }
        Ok(())
    }

    fn word(&mut self, word: &str, value: JsonValue) -> Result<JsonValue, NotLossless> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.syntax("expected a value"))
        }
    }

    fn string(&mut self, what: &str) -> Result<String, NotLossless> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[start..self.at]);
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self.peek();
                    self.at += 1;
                    match escaped {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let unit = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&unit) {
                                let low = if self.text[self.at..].starts_with("\\u") {
                                    self.at += 2;
                                    Some(self.hex4()?)
                                } else {
                                    None
                                };
                                match low {
                                    Some(low) if (0xDC00..0xE000).contains(&low) => {
                                        let code = 0x10000
                                            + ((u32::from(unit) - 0xD800) << 10)
                                            + (u32::from(low) - 0xDC00);
                                        char::from_u32(code)
                                    }
                                    _ => None,
                                }
                                .ok_or_else(|| self.lone_surrogate(what, unit))?
                            } else if (0xDC00..0xE000).contains(&unit) {
                                return Err(self.lone_surrogate(what, unit));
                            } else {
                                char::from_u32(u32::from(unit))
                                    .ok_or_else(|| self.lone_surrogate(what, unit))?
                            };
                            out.push(c);
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.syntax("invalid escape in a string"));
                        }
                    }
                }
                Some(_) => return Err(self.syntax("a control character in a string (escape it)")),
                None => return Err(self.syntax("unterminated string")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u16, NotLossless> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.syntax("invalid \\u escape (four hex digits expected)"))?;
        let unit = u16::from_str_radix(digits, 16)
            .map_err(|_| self.syntax("invalid \\u escape (four hex digits expected)"))?;
        self.at += 4;
        Ok(unit)
    }

    fn number(&mut self) -> Result<JsonValue, NotLossless> {
        let start = self.at;
        let digits = |p: &mut Self| {
            let from = p.at;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.at += 1;
            }
            p.at - from
        };
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let int_start = self.at;
        let int_digits = digits(self);
        if int_digits == 0 || (int_digits > 1 && self.bytes[int_start] == b'0') {
            return Err(self.syntax("invalid number"));
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            integral = false;
            if digits(self) == 0 {
                return Err(self.syntax("invalid number (digits expected after `.`)"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            integral = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.syntax("invalid number (digits expected in the exponent)"));
            }
        }
        let literal = &self.text[start..self.at];
        if self.numbers == Numbers::AsWritten {
            // One number, no nesting: `serde_json` reads it as it reads any number.
            return serde_json::from_str::<serde_json::Number>(literal)
                .map(JsonValue::Number)
                .map_err(|_| self.syntax("number out of range"));
        }
        if integral {
            let magnitude = &self.text[int_start..self.at];
            let safe = magnitude
                .parse::<u64>()
                .ok()
                .filter(|m| *m <= MAX_SAFE_INTEGER);
            return match (safe, negative) {
                (Some(0), true) => Err(self.problem(LosslessReason::NegativeZero)),
                (Some(m), true) => Ok(JsonValue::from(-(m as i64))),
                (Some(m), false) => Ok(JsonValue::from(m)),
                (None, _) => Err(self.problem(LosslessReason::UnsafeInteger(literal.to_owned()))),
            };
        }
        let value: f64 = literal.parse().map_err(|_| self.syntax("invalid number"))?;
        if !value.is_finite() {
            return Err(self.problem(LosslessReason::NonFiniteNumber(value)));
        }
        if value == 0.0 && value.is_sign_negative() {
            return Err(self.problem(LosslessReason::NegativeZero));
        }
        serde_json::Number::from_f64(value)
            .map(JsonValue::Number)
            .ok_or_else(|| self.problem(LosslessReason::NonFiniteNumber(value)))
    }

    /// The path of the value being read.
    fn path(&self) -> JsonPath {
        let mut path = JsonPath::root();
        for open in &self.stack {
            match open {
                Open::Array(items) => path.push_index(items.len()),
                Open::Object(_, Some(key)) => path.push_key(key),
                Open::Object(_, None) => {}
            }
        }
        path
    }

    fn problem(&self, reason: LosslessReason) -> NotLossless {
        NotLossless {
            path: self.path(),
            reason,
        }
    }

    fn lone_surrogate(&self, what: &str, unit: u16) -> NotLossless {
        self.problem(LosslessReason::LoneSurrogate {
            what: what.to_owned(),
            unit,
        })
    }

    fn syntax(&self, what: &str) -> NotLossless {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        self.problem(LosslessReason::Unsupported(format!(
            "not valid JSON: {what} at line {line} column {column}"
        )))
    }
}

/// Appends the compact JSON text of `value` (what `serde_json::to_string` writes).
pub(super) fn write_compact(value: &JsonValue, out: &mut String) {
    write(value, out, None);
}

/// Appends the pretty JSON text of `value`, indented by two spaces a level (what
/// `serde_json::to_string_pretty` writes) as long as a container's members would be
/// indented by at most `max_indent` spaces; a container whose members would be indented
/// deeper is written compact (what `serde_json::to_string` writes), with everything in it.
/// The text of a deep value so stays linear in its size: the indentation of `n` levels is
/// not repeated on each of them.
pub(super) fn write_pretty(value: &JsonValue, out: &mut String, max_indent: usize) {
    write(value, out, Some(max_indent));
}

/// What the writer does next: write a value at a level, start an array element or an
/// object member (`first`: no comma before it), or close a container. `pretty` says
/// whether the container this step belongs to is written on indented lines (for a
/// value: whether the container holding it is).
enum Step<'a> {
    Value(&'a JsonValue, usize, bool),
    Element(usize, bool, bool),
    Key(&'a str, usize, bool, bool),
    Close(u8, usize, bool, bool),
}

/// A new line indented for `level`, if the container is written `pretty`.
fn newline(out: &mut String, pretty: bool, level: usize) {
    if pretty {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', level.saturating_mul(2)));
    }
}

fn write(root: &JsonValue, out: &mut String, indent: Option<usize>) {
    // Whether a container at `level`, inside a pretty one (or at the root), is pretty:
    // its members' indentation fits under the cap.
    let pretty_at =
        |level: usize| indent.is_some_and(|max| level.saturating_add(1).saturating_mul(2) <= max);
    let mut steps = vec![Step::Value(root, 0, true)];
    while let Some(step) = steps.pop() {
        match step {
            Step::Element(level, first, pretty) => {
                if !first {
                    out.push(',');
                }
                newline(out, pretty, level);
            }
            Step::Key(key, level, first, pretty) => {
                if !first {
                    out.push(',');
                }
                newline(out, pretty, level);
                write_str(key, out);
                out.push(':');
                if pretty {
                    out.push(' ');
                }
            }
            Step::Close(bracket, level, empty, pretty) => {
                if !empty {
                    newline(out, pretty, level);
                }
                out.push(char::from(bracket));
            }
            Step::Value(value, level, outer) => match value {
                JsonValue::Null => out.push_str("null"),
                JsonValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                JsonValue::Number(n) => {
                    let _ = write!(out, "{n}");
                }
                JsonValue::String(s) => write_str(s, out),
                JsonValue::Array(items) => {
                    let pretty = outer && pretty_at(level);
                    out.push('[');
                    steps.push(Step::Close(b']', level, items.is_empty(), pretty));
                    for (index, item) in items.iter().enumerate().rev() {
                        steps.push(Step::Value(item, level + 1, pretty));
                        steps.push(Step::Element(level + 1, index == 0, pretty));
                    }
                }
                JsonValue::Object(map) => {
                    let pretty = outer && pretty_at(level);
                    out.push('{');
                    steps.push(Step::Close(b'}', level, map.is_empty(), pretty));
                    let members: Vec<(&String, &JsonValue)> = map.iter().collect();
                    for (index, (key, item)) in members.into_iter().enumerate().rev() {
                        steps.push(Step::Value(item, level + 1, pretty));
                        steps.push(Step::Key(key, level + 1, index == 0, pretty));
                    }
                }
            },
        }
    }
}

fn write_str(text: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::super::{
        deep_clone, parse_lossless, parse_within, to_pretty_text, to_pretty_text_capped, to_text,
    };

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-9_007_199_254_740_991i64..=9_007_199_254_740_991).prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite, not -0", |f| f.is_finite()
                    && !(*f == 0.0 && f.is_sign_negative()))
                .prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\"\\\\/\\n\\t\\u{1}\\u{7f}a-z\\u{e9}\\u{1f600}]{0,8}".prop_map(Value::String),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        scalar().prop_recursive(6, 48, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((any::<String>(), inner), 0..5)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The writers agree with serde_json byte for byte, and the parser reads back what
        /// they and serde_json write.
        #[test]
        fn text_round_trips_like_serde_json(value in value()) {
            let compact = to_text(&value);
            prop_assert_eq!(&compact, &serde_json::to_string(&value).unwrap());
            let pretty = to_pretty_text(&value);
            prop_assert_eq!(&pretty, &serde_json::to_string_pretty(&value).unwrap());
            prop_assert_eq!(&parse_lossless(&compact).unwrap(), &value);
            prop_assert_eq!(&parse_lossless(&pretty).unwrap(), &value);
            prop_assert_eq!(&deep_clone(&value), &value);
        }

        /// Capped, the text is still the value, no line is indented past the cap, and a
        /// cap below one level's indentation gives the compact text.
        #[test]
        fn capped_text_reads_back_and_stays_under_the_cap(value in value(), cap in 0usize..12) {
            let text = to_pretty_text_capped(&value, cap);
            prop_assert_eq!(&parse_lossless(&text).unwrap(), &value);
            for line in text.lines() {
                prop_assert!(line.len() - line.trim_start_matches(' ').len() <= cap, "{}", text);
            }
            if cap < 2 {
                prop_assert_eq!(&text, &to_text(&value));
            }
        }

        /// Whatever text comes in, the parser answers (a value or an error) and agrees
        /// with serde_json on which texts are JSON (serde_json's own limits aside).
        #[test]
        fn arbitrary_text_never_panics(text in "[\\[\\]{}\",:0-9.eE+\\-a-z \\\\]{0,24}") {
            let ours = parse_lossless(&text);
            let theirs: Result<Value, _> = serde_json::from_str(&text);
            if let (Ok(ours), Ok(theirs)) = (&ours, &theirs) {
                prop_assert_eq!(ours, theirs);
            }
            if theirs.is_err() {
                prop_assert!(ours.is_err());
            }
        }

        /// Reading numbers as written, the parser agrees with serde_json on every text:
        /// the same value, or both refuse it.
        #[test]
        fn as_written_text_reads_like_serde_json(
            text in "[\\[\\]{}\",:0-9.eE+\\-a-z \\\\]{0,24}|-?[0-9]{1,40}(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,4})?"
        ) {
            let ours = parse_within(&text, 128);
            let theirs: Result<Value, _> = serde_json::from_str(&text);
            match (&ours, &theirs) {
                (Ok(ours), Ok(theirs)) => prop_assert_eq!(ours, theirs),
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "{:?} vs {:?}", ours, theirs),
            }
        }
    }
}
