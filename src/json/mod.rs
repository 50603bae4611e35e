//! Lossless JSON: the one value type that crosses every boundary of the library.
//!
//! A value is *lossless JSON* when it survives a round trip through JSON text in both
//! Rust and JavaScript unchanged: finite numbers other than `-0`, integers no larger than
//! 2^53 - 1 in magnitude (JavaScript numbers are doubles), string keys, Unicode strings,
//! bounded nesting. Tool arguments,
//! tool values, listener results and program values are all checked here before they are
//! trusted.
//!
//! This module owns the checks, the path notation used in their messages (`$.a[0].b`),
//! the value-depth limit ([`DepthLimit`]), JSON text both ways without recursion (`text`:
//! [`parse_lossless`], [`to_text`], [`to_pretty_text`]) and copying, comparing and freeing
//! deep values without recursion ([`deep_clone`], [`deep_eq`], [`dispose`]; `Tree` does
//! the same for any tree, such as schemas and the SDK's types). It must not know about
//! schemas or tools.

use std::fmt::{self, Write as _};

use serde::Serialize;

/// The JSON value type of the library (`serde_json::Value`, object keys in insertion order).
pub type JsonValue = serde_json::Value;

/// The deepest nesting of a value walked through `serde::Serialize` by [`to_lossless`]
/// (that walk recurses, so it stays shallow). Schemas nest as deep as values do
/// ([`DepthLimit`]).
pub const MAX_DEPTH: usize = 128;

/// The default nesting limit of the values a program passes and returns
/// (`runtime.max_json_depth`): 5,000 levels of arrays and objects.
pub const DEFAULT_VALUE_DEPTH: usize = 5_000;

/// The levels the library may wrap a program's value in (`run_code`'s `{logs, value}`,
/// an MCP result's structured content): the library's own limit is this much above the
/// programs'.
pub const WRAP_DEPTH: usize = 8;

/// The default library limit ([`DepthLimit::DEFAULT`]): [`DEFAULT_VALUE_DEPTH`] plus
/// [`WRAP_DEPTH`].
pub const DEFAULT_MAX_DEPTH: usize = DEFAULT_VALUE_DEPTH + WRAP_DEPTH;

/// The highest [`DepthLimit`]: what the recursion left in `serde_json::Value`'s own drop
/// and serialization survives on the command's threads.
pub const MAX_DEPTH_CEILING: usize = 10_000;

/// How deep JSON values may nest (arrays and objects; a value's own level is 1): the limit
/// a registry applies to every value that crosses it — arguments, tool values, listener
/// results, presentation meta, schema validation ([`RegistryConfig::value_depth`]) — and
/// how deep schemas may nest, in levels of subschemas (`properties/<name>`, `items`,
/// `oneOf/<i>`), as the SDK renders them too. A value, carried from a host's
/// configuration to each check that applies it: two hosts in one process each apply their
/// own. The engines apply their own `max_json_depth` ([`WRAP_DEPTH`] less) to program
/// values; [`DepthLimit::for_programs`] is the library limit that goes with it.
///
/// Functions without a limit ([`check_lossless`], [`parse_lossless`],
/// `JsonSchema::parse`, `JsonSchema::validate`, `ValueSchema::compile`) apply
/// [`DepthLimit::DEFAULT`]; their `_within` variants take the limit.
///
/// Every walk of the library over a value keeps its own stack on the heap, so the limit
/// bounds memory, not recursion. But `serde_json::Value`'s own `Clone`, `Drop`,
/// `PartialEq` and `Serialize` recurse: cloning a 5,000-deep value of objects takes about
/// 3 MiB of stack in a release build. A host whose tools clone or serialize deep arguments
/// runs its runtime with room for that (tokio's `thread_stack_size`, as the command does),
/// or lowers the limit.
///
/// [`RegistryConfig::value_depth`]: crate::registry::RegistryConfig::value_depth
///
/// ```
/// use codemode::json::{DepthLimit, DEFAULT_MAX_DEPTH};
/// assert_eq!(DepthLimit::DEFAULT.get(), DEFAULT_MAX_DEPTH);
/// assert_eq!(DepthLimit::for_programs(300).unwrap().get(), 308);
/// let err = DepthLimit::new(0).unwrap_err();
/// assert_eq!(err.message(), "max_json_depth must be between 1 and 10000, got 0");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DepthLimit(usize);

impl DepthLimit {
    /// [`DEFAULT_MAX_DEPTH`] levels: what goes with the engines' default `max_json_depth`.
    pub const DEFAULT: DepthLimit = DepthLimit(DEFAULT_MAX_DEPTH);

    /// A limit of `levels` (1 to [`MAX_DEPTH_CEILING`]).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`](crate::ErrorCode::InvalidConfig) outside that range:
    /// `max_json_depth must be between 1 and 10000, got <levels>`.
    pub fn new(levels: usize) -> Result<DepthLimit, crate::Error> {
        if !(1..=MAX_DEPTH_CEILING).contains(&levels) {
            return Err(crate::Error::new(
                crate::ErrorCode::InvalidConfig,
                format!("max_json_depth must be between 1 and {MAX_DEPTH_CEILING}, got {levels}"),
            ));
        }
        Ok(DepthLimit(levels))
    }

    /// The library limit for engines whose programs' values nest at most `max_json_depth`
    /// levels: that plus [`WRAP_DEPTH`], room for the levels the library wraps a program's
    /// value in.
    ///
    /// # Errors
    ///
    /// As [`DepthLimit::new`] of the sum.
    pub fn for_programs(max_json_depth: usize) -> Result<DepthLimit, crate::Error> {
        DepthLimit::new(max_json_depth.saturating_add(WRAP_DEPTH))
    }

    /// The limit in levels.
    pub const fn get(self) -> usize {
        self.0
    }
}

impl Default for DepthLimit {
    fn default() -> Self {
        DepthLimit::DEFAULT
    }
}

impl fmt::Display for DepthLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The largest integer magnitude a JavaScript number represents exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// A location inside a JSON value, written the way messages show it: `$`, `$.a`,
/// `$.a[0]`, `$["key with spaces"]`.
///
/// ```
/// use codemode::json::JsonPath;
/// let path = JsonPath::root().key("items").index(2).key("odd key");
/// assert_eq!(path.to_string(), r#"$.items[2]["odd key"]"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct JsonPath {
    segments: Vec<PathSegment>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum PathSegment {
    Key(String),
    Index(usize),
}

impl JsonPath {
    /// The root of a value (`$`).
    pub fn root() -> Self {
        JsonPath::default()
    }

    /// This path extended by an object key.
    pub fn key(&self, key: &str) -> Self {
        let mut next = self.clone();
        next.segments.push(PathSegment::Key(key.to_owned()));
        next
    }

    /// This path extended by an array index.
    pub fn index(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.segments.push(PathSegment::Index(index));
        next
    }

    /// Appends an object key in place (for walkers that push and pop).
    pub fn push_key(&mut self, key: &str) {
        self.segments.push(PathSegment::Key(key.to_owned()));
    }

    /// Appends an array index in place.
    pub fn push_index(&mut self, index: usize) {
        self.segments.push(PathSegment::Index(index));
    }

    /// Removes the last segment.
    pub fn pop(&mut self) {
        self.segments.pop();
    }

    /// Appends every segment of `rest`.
    pub fn extend(&mut self, rest: JsonPath) {
        self.segments.extend(rest.segments);
    }

    /// Number of segments (the root has none).
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether this is the root path.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }
}

fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    match chars.next() {
        Some(first) if first.is_ascii_alphabetic() || first == '_' || first == '$' => {
            chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        }
        _ => false,
    }
}

/// A path longer than this many steps is shown as its first and last halves of it, with
/// the count of the steps between (a 5,000-deep path would be 15 KB of `[0]`).
const SHOWN_STEPS: usize = 100;

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('$')?;
        let count = self.segments.len();
        for (index, segment) in self.segments.iter().enumerate() {
            if count > SHOWN_STEPS {
                let half = SHOWN_STEPS / 2;
                if index == half {
                    write!(f, "...({} steps)...", count - SHOWN_STEPS)?;
                }
                if index >= half && index < count - half {
                    continue;
                }
            }
            match segment {
                PathSegment::Key(key) if is_plain_key(key) => write!(f, ".{key}")?,
                PathSegment::Key(key) => {
                    let quoted = serde_json::to_string(key).map_err(|_| fmt::Error)?;
                    write!(f, "[{quoted}]")?
                }
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// Why a value is not lossless JSON.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LosslessReason {
    /// A NaN or infinite number.
    NonFiniteNumber(f64),
    /// An integer JavaScript cannot represent exactly.
    UnsafeInteger(String),
    /// Arrays and objects nest deeper than the limit (see [`DepthLimit`]).
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// `-0`: JSON text makes it `0` (JavaScript's `JSON.stringify(-0)` is `"0"`).
    NegativeZero,
    /// A string or key with a lone UTF-16 surrogate (an escape JSON text may carry but
    /// Unicode text cannot).
    LoneSurrogate {
        /// `"a string"` or `"a key"`.
        what: String,
        /// The surrogate code unit.
        unit: u16,
    },
    /// A map key that is not a string.
    NonStringKey,
    /// A value JSON has no form for (bytes, a unit struct used as a map key, ...), or a
    /// serializer error.
    Unsupported(String),
}

impl fmt::Display for LosslessReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LosslessReason::NonFiniteNumber(n) => {
                write!(
                    f,
                    "{n} is not a finite number (JSON has no NaN or Infinity)"
                )
            }
            LosslessReason::UnsafeInteger(n) => write!(
                f,
                "integer {n} is outside ±{MAX_SAFE_INTEGER} and would change as a JavaScript number"
            ),
            LosslessReason::TooDeep { limit } => {
                write!(f, "arrays and objects nest deeper than {limit} levels")
            }
            LosslessReason::NegativeZero => {
                f.write_str("-0 is not JSON (JSON text would make it 0; use 0)")
            }
            LosslessReason::LoneSurrogate { what, unit } => write!(
                f,
                "{what} with a lone surrogate (U+{unit:04X}) is not UTF-8 text"
            ),
            LosslessReason::NonStringKey => f.write_str("map key is not a string"),
            LosslessReason::Unsupported(what) => f.write_str(what),
        }
    }
}

/// A value is not lossless JSON: where, and why.
///
/// ```
/// use codemode::json::check_lossless;
/// let err = check_lossless(&serde_json::json!({"id": 9007199254740993u64})).unwrap_err();
/// assert_eq!(err.path.to_string(), "$.id");
/// assert!(err.to_string().starts_with("$.id: integer 9007199254740993"));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct NotLossless {
    /// Where in the value the problem is.
    pub path: JsonPath,
    /// What the problem is.
    pub reason: LosslessReason,
}

/// Checks that `value` is lossless JSON (see the module docs): no NaN or infinity, no
/// `-0`, no unsafe integer, nesting within [`DepthLimit::DEFAULT`]. Iterative: no depth of
/// value reaches the thread's stack.
///
/// # Errors
///
/// As [`check_lossless_within`] with the default limit.
pub fn check_lossless(value: &JsonValue) -> Result<(), NotLossless> {
    check_lossless_within(value, DEFAULT_MAX_DEPTH)
}

/// The path of the first array or object nested deeper than `limit` levels in `value`
/// (its own level is 1), if any. Iterative.
///
/// ```
/// use codemode::json::first_too_deep;
/// let value = serde_json::json!({"a": [[1]], "b": 2});
/// assert_eq!(first_too_deep(&value, 3), None);
/// assert_eq!(first_too_deep(&value, 2).unwrap().to_string(), "$.a[0]");
/// ```
pub fn first_too_deep(value: &JsonValue, limit: usize) -> Option<JsonPath> {
    match walk(value, limit, false) {
        Err(NotLossless { path, .. }) => Some(path),
        Ok(()) => None,
    }
}

/// [`check_lossless`] with an explicit depth limit (a [`DepthLimit`]'s
/// [`get`](DepthLimit::get), or an engine's own).
///
/// # Errors
///
/// [`NotLossless`] at the path of the first problem in document order: a NaN or infinite
/// number ([`LosslessReason::NonFiniteNumber`]), `-0` ([`LosslessReason::NegativeZero`]), an
/// integer outside ±(2^53 - 1) ([`LosslessReason::UnsafeInteger`]), or an array or object
/// nested deeper than `limit` ([`LosslessReason::TooDeep`]).
pub fn check_lossless_within(root: &JsonValue, limit: usize) -> Result<(), NotLossless> {
    walk(root, limit, true)
}

/// The walk of [`check_lossless_within`] (`numbers`: whether numbers are checked too, or
/// only the nesting) and [`first_too_deep`].
fn walk(root: &JsonValue, limit: usize, numbers: bool) -> Result<(), NotLossless> {
    /// A container being walked and where the walk is in it.
    enum Frame<'a> {
        Array(std::iter::Enumerate<std::slice::Iter<'a, JsonValue>>),
        Object(serde_json::map::Iter<'a>),
    }
    /// The path to the current value: each frame's current step.
    fn path_of(steps: &[Option<Step<'_>>]) -> JsonPath {
        let mut path = JsonPath::root();
        for step in steps.iter().flatten() {
            match step {
                Step::Index(index) => path.push_index(*index),
                Step::Key(key) => path.push_key(key),
            }
        }
        path
    }
    #[derive(Clone, Copy)]
    enum Step<'a> {
        Index(usize),
        Key(&'a str),
    }
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut steps: Vec<Option<Step<'_>>> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(value) = next.take() {
            match value {
                JsonValue::Null | JsonValue::Bool(_) | JsonValue::String(_) => {}
                JsonValue::Number(n) => {
                    if numbers && let Err(reason) = check_number(n) {
                        return Err(NotLossless {
                            path: path_of(&steps),
                            reason,
                        });
                    }
                }
                JsonValue::Array(items) => {
                    if frames.len() >= limit {
                        return Err(NotLossless {
                            path: path_of(&steps),
                            reason: LosslessReason::TooDeep { limit },
                        });
                    }
                    frames.push(Frame::Array(items.iter().enumerate()));
                    steps.push(None);
                }
                JsonValue::Object(map) => {
                    if frames.len() >= limit {
                        return Err(NotLossless {
                            path: path_of(&steps),
                            reason: LosslessReason::TooDeep { limit },
                        });
                    }
                    frames.push(Frame::Object(map.iter()));
                    steps.push(None);
                }
            }
        }
        let Some(frame) = frames.last_mut() else {
            return Ok(());
        };
        let step = match frame {
            Frame::Array(items) => items.next().map(|(i, v)| (Step::Index(i), v)),
            Frame::Object(members) => members.next().map(|(k, v)| (Step::Key(k.as_str()), v)),
        };
        match step {
            Some((step, value)) => {
                if let Some(last) = steps.last_mut() {
                    *last = Some(step);
                }
                next = Some(value);
            }
            None => {
                frames.pop();
                steps.pop();
            }
        }
    }
}

fn check_number(n: &serde_json::Number) -> Result<(), LosslessReason> {
    if let Some(i) = n.as_i64() {
        if i.unsigned_abs() > MAX_SAFE_INTEGER {
            return Err(LosslessReason::UnsafeInteger(i.to_string()));
        }
    } else if let Some(u) = n.as_u64() {
        if u > MAX_SAFE_INTEGER {
            return Err(LosslessReason::UnsafeInteger(u.to_string()));
        }
    } else if let Some(f) = n.as_f64() {
        if !f.is_finite() {
            return Err(LosslessReason::NonFiniteNumber(f));
        }
        if f == 0.0 && f.is_sign_negative() {
            return Err(LosslessReason::NegativeZero);
        }
    }
    Ok(())
}

/// Serializes `value` into lossless JSON, refusing what `serde_json` would silently
/// change: a NaN or infinite float (which `serde_json` turns into `null`), an unsafe
/// integer, too-deep nesting, a non-string map key.
///
/// ```
/// use codemode::json::to_lossless;
/// assert_eq!(to_lossless(&vec![1.5, 2.0]).unwrap(), serde_json::json!([1.5, 2.0]));
/// assert!(to_lossless(&f64::NAN).is_err());
/// ```
///
/// # Errors
///
/// [`NotLossless`] with the path where serialization stopped: a non-finite float, an unsafe
/// integer, a map key that is not a string ([`LosslessReason::NonStringKey`]), or what JSON
/// has no form for or the type's own `Serialize` refuses ([`LosslessReason::Unsupported`]);
/// then as [`check_lossless`] on the value written (`-0`, too deep).
pub fn to_lossless<T: Serialize + ?Sized>(value: &T) -> Result<JsonValue, NotLossless> {
    let mut checker = check::Checker::default();
    value
        .serialize(&mut checker)
        .map_err(|err| checker.into_error(err))?;
    let json = serde_json::to_value(value).map_err(|err| NotLossless {
        path: JsonPath::root(),
        reason: LosslessReason::Unsupported(err.to_string()),
    })?;
    check_lossless(&json)?;
    Ok(json)
}

/// Parses JSON text into a lossless value: what [`check_lossless`] accepts, and strings
/// without lone surrogates. Iterative, with the path of any problem in the message.
///
/// ```
/// use codemode::json::parse_lossless;
/// assert_eq!(parse_lossless(r#"{"a": [1, 2.5]}"#).unwrap(), serde_json::json!({"a": [1, 2.5]}));
/// let err = parse_lossless(r#"{"a": [1, -0]}"#).unwrap_err();
/// assert_eq!(err.to_string(), "$.a[1]: -0 is not JSON (JSON text would make it 0; use 0)");
/// let err = parse_lossless(r#"{"s": "\ud800"}"#).unwrap_err();
/// assert_eq!(err.path.to_string(), "$.s");
/// ```
///
/// # Errors
///
/// As [`parse_lossless_within`] with the default limit.
pub fn parse_lossless(text: &str) -> Result<JsonValue, NotLossless> {
    text::parse(text, DEFAULT_MAX_DEPTH)
}

/// [`parse_lossless`] with an explicit depth limit (a frame around a value nests a level
/// or two deeper than the value).
///
/// # Errors
///
/// [`NotLossless`] at the path of the problem: text that is not JSON
/// ([`LosslessReason::Unsupported`], `not valid JSON: ... at line L column C`), a number
/// [`check_lossless`] refuses, a string or key with an escaped lone surrogate
/// ([`LosslessReason::LoneSurrogate`]), or nesting deeper than `limit`.
pub fn parse_lossless_within(text: &str, limit: usize) -> Result<JsonValue, NotLossless> {
    text::parse(text, limit)
}

/// JSON text as `serde_json` reads it (numbers as written, of any size), nesting at most
/// `limit`, without recursion: for text that is not a value crossing a boundary (a tool
/// list's schemas may hold integers no JavaScript number can, in `maximum` say). A value
/// read this way need not be lossless.
///
/// ```
/// let value = codemode::json::parse_within(r#"{"maximum": 18446744073709551615}"#, 8).unwrap();
/// assert_eq!(value["maximum"].as_u64(), Some(u64::MAX));
/// assert!(codemode::json::parse_within("[[1]]", 1).is_err());
/// ```
///
/// # Errors
///
/// [`NotLossless`] at the path of the problem: text that is not JSON or a number out of
/// `serde_json`'s range ([`LosslessReason::Unsupported`]), an escaped lone surrogate
/// ([`LosslessReason::LoneSurrogate`]), or nesting deeper than `limit`
/// ([`LosslessReason::TooDeep`]). Numbers are not checked for losslessness.
pub fn parse_within(text: &str, limit: usize) -> Result<JsonValue, NotLossless> {
    text::parse_as_written(text, limit)
}

/// The compact JSON text of a value (what `serde_json::to_string` writes), without
/// recursion.
pub fn to_text(value: &JsonValue) -> String {
    let mut out = String::new();
    text::write_compact(value, &mut out);
    out
}

/// Appends the compact JSON text of a value to `out` (see [`to_text`]).
pub fn write_text(value: &JsonValue, out: &mut String) {
    text::write_compact(value, out);
}

/// The pretty JSON text of a value, indented by two spaces (what
/// `serde_json::to_string_pretty` writes), without recursion.
pub fn to_pretty_text(value: &JsonValue) -> String {
    to_pretty_text_capped(value, usize::MAX)
}

/// [`to_pretty_text`] whose indentation stops growing at `max_indent` spaces (deep values
/// stay readable).
pub fn to_pretty_text_capped(value: &JsonValue, max_indent: usize) -> String {
    let mut out = String::new();
    text::write_pretty(value, &mut out, max_indent);
    out
}

/// A short name of a value's JSON type, for messages (`"string"`, `"integer"`, ...).
pub fn type_name(value: &JsonValue) -> &'static str {
    match value {
        JsonValue::Null => "null",
        JsonValue::Bool(_) => "boolean",
        JsonValue::Number(n) if n.is_i64() || n.is_u64() => "integer",
        JsonValue::Number(_) => "number",
        JsonValue::String(_) => "string",
        JsonValue::Array(_) => "array",
        JsonValue::Object(_) => "object",
    }
}

/// A serializer that only checks: it walks a `Serialize` value and fails at the first
/// thing that is not lossless JSON, remembering the path.
mod deep;
mod text;

pub(crate) use deep::{Tree, clone_tree, drop_tree, fold_post_order, tree_eq};
pub use deep::{deep_clone, deep_eq, dispose};

mod check {
    use serde::ser::{self, Serialize};

    use super::{JsonPath, LosslessReason, MAX_DEPTH, MAX_SAFE_INTEGER, NotLossless};

    #[derive(Debug)]
    pub(super) struct Failure(pub(super) LosslessReason);

    impl std::fmt::Display for Failure {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.fmt(f)
        }
    }

    impl std::error::Error for Failure {}

    impl ser::Error for Failure {
        fn custom<T: std::fmt::Display>(msg: T) -> Self {
            Failure(LosslessReason::Unsupported(msg.to_string()))
        }
    }

    #[derive(Default)]
    pub(super) struct Checker {
        path: JsonPath,
        /// The path where the failure happened (kept when the stack unwinds).
        failed_at: Option<JsonPath>,
        depth: usize,
    }

    impl Checker {
        pub(super) fn into_error(self, failure: Failure) -> NotLossless {
            NotLossless {
                path: self.failed_at.unwrap_or(self.path),
                reason: failure.0,
            }
        }

        fn fail(&mut self, reason: LosslessReason) -> Failure {
            if self.failed_at.is_none() {
                self.failed_at = Some(self.path.clone());
            }
            Failure(reason)
        }

        fn enter(&mut self) -> Result<(), Failure> {
            if self.depth >= MAX_DEPTH {
                return Err(self.fail(LosslessReason::TooDeep { limit: MAX_DEPTH }));
            }
            self.depth += 1;
            Ok(())
        }

        fn leave(&mut self) {
            self.depth -= 1;
        }

        fn float(&mut self, v: f64) -> Result<(), Failure> {
            if v.is_finite() {
                Ok(())
            } else {
                Err(self.fail(LosslessReason::NonFiniteNumber(v)))
            }
        }

        fn integer(
            &mut self,
            magnitude: u128,
            text: impl FnOnce() -> String,
        ) -> Result<(), Failure> {
            if magnitude > u128::from(MAX_SAFE_INTEGER) {
                Err(self.fail(LosslessReason::UnsafeInteger(text())))
            } else {
                Ok(())
            }
        }

        fn element<T: Serialize + ?Sized>(
            &mut self,
            index: usize,
            value: &T,
        ) -> Result<(), Failure> {
            self.path.push_index(index);
            value.serialize(&mut *self)?;
            self.path.pop();
            Ok(())
        }

        fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Failure> {
            self.path.push_key(key);
            value.serialize(&mut *self)?;
            self.path.pop();
            Ok(())
        }
    }

    /// Serializer for a map key: only strings (and the things `serde_json` turns into
    /// strings: integers, chars, unit variants) are keys.
    struct KeyChecker<'a>(&'a mut Option<String>);

    pub(super) struct Compound<'a> {
        checker: &'a mut Checker,
        index: usize,
        key: Option<String>,
    }

    impl<'a> ser::Serializer for &'a mut Checker {
        type Ok = ();
        type Error = Failure;
        type SerializeSeq = Compound<'a>;
        type SerializeTuple = Compound<'a>;
        type SerializeTupleStruct = Compound<'a>;
        type SerializeTupleVariant = Compound<'a>;
        type SerializeMap = Compound<'a>;
        type SerializeStruct = Compound<'a>;
        type SerializeStructVariant = Compound<'a>;

        fn serialize_bool(self, _: bool) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_i8(self, _: i8) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_i16(self, _: i16) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_i32(self, _: i32) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_i64(self, v: i64) -> Result<(), Failure> {
            self.integer(u128::from(v.unsigned_abs()), || v.to_string())
        }
        fn serialize_i128(self, v: i128) -> Result<(), Failure> {
            self.integer(v.unsigned_abs(), || v.to_string())
        }
        fn serialize_u8(self, _: u8) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_u16(self, _: u16) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_u32(self, _: u32) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_u64(self, v: u64) -> Result<(), Failure> {
            self.integer(u128::from(v), || v.to_string())
        }
        fn serialize_u128(self, v: u128) -> Result<(), Failure> {
            self.integer(v, || v.to_string())
        }
        fn serialize_f32(self, v: f32) -> Result<(), Failure> {
            self.float(f64::from(v))
        }
        fn serialize_f64(self, v: f64) -> Result<(), Failure> {
            self.float(v)
        }
        fn serialize_char(self, _: char) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_str(self, _: &str) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_none(self) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Failure> {
            value.serialize(self)
        }
        fn serialize_unit(self) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<(), Failure> {
            Ok(())
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &T,
        ) -> Result<(), Failure> {
            value.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<(), Failure> {
            self.enter()?;
            self.field(variant, value)?;
            self.leave();
            Ok(())
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Failure> {
            self.enter()?;
            Ok(Compound {
                checker: self,
                index: 0,
                key: None,
            })
        }
        fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Failure> {
            self.serialize_seq(Some(len))
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            len: usize,
        ) -> Result<Compound<'a>, Failure> {
            self.serialize_seq(Some(len))
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            _: usize,
        ) -> Result<Compound<'a>, Failure> {
            // `{"variant": [...]}`: two levels.
            self.enter()?;
            self.path.push_key(variant);
            self.enter()?;
            Ok(Compound {
                checker: self,
                index: 0,
                key: Some(variant.to_owned()),
            })
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Failure> {
            self.enter()?;
            Ok(Compound {
                checker: self,
                index: 0,
                key: None,
            })
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Failure> {
            self.enter()?;
            Ok(Compound {
                checker: self,
                index: 0,
                key: None,
            })
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            _: usize,
        ) -> Result<Compound<'a>, Failure> {
            self.enter()?;
            self.path.push_key(variant);
            self.enter()?;
            Ok(Compound {
                checker: self,
                index: 0,
                key: Some(variant.to_owned()),
            })
        }
    }

    impl Compound<'_> {
        fn end_nested_variant(self) -> Result<(), Failure> {
            self.checker.leave();
            self.checker.path.pop();
            self.checker.leave();
            Ok(())
        }
    }

    impl ser::SerializeSeq for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
            self.checker.element(self.index, value)?;
            self.index += 1;
            Ok(())
        }
        fn end(self) -> Result<(), Failure> {
            self.checker.leave();
            Ok(())
        }
    }

    impl ser::SerializeTuple for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
            ser::SerializeSeq::serialize_element(self, value)
        }
        fn end(self) -> Result<(), Failure> {
            ser::SerializeSeq::end(self)
        }
    }

    impl ser::SerializeTupleStruct for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
            ser::SerializeSeq::serialize_element(self, value)
        }
        fn end(self) -> Result<(), Failure> {
            ser::SerializeSeq::end(self)
        }
    }

    impl ser::SerializeTupleVariant for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
            ser::SerializeSeq::serialize_element(self, value)
        }
        fn end(self) -> Result<(), Failure> {
            self.end_nested_variant()
        }
    }

    impl ser::SerializeMap for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Failure> {
            let mut text = None;
            if let Err(failure) = key.serialize(KeyChecker(&mut text)) {
                return Err(self.checker.fail(failure.0));
            }
            self.key = text;
            Ok(())
        }
        fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
            let key = self.key.take().unwrap_or_default();
            self.checker.field(&key, value)
        }
        fn end(self) -> Result<(), Failure> {
            self.checker.leave();
            Ok(())
        }
    }

    impl ser::SerializeStruct for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            value: &T,
        ) -> Result<(), Failure> {
            self.checker.field(key, value)
        }
        fn end(self) -> Result<(), Failure> {
            self.checker.leave();
            Ok(())
        }
    }

    impl ser::SerializeStructVariant for Compound<'_> {
        type Ok = ();
        type Error = Failure;
        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            value: &T,
        ) -> Result<(), Failure> {
            self.checker.field(key, value)
        }
        fn end(self) -> Result<(), Failure> {
            self.end_nested_variant()
        }
    }

    fn non_string_key() -> Failure {
        Failure(LosslessReason::NonStringKey)
    }

    impl ser::Serializer for KeyChecker<'_> {
        type Ok = ();
        type Error = Failure;
        type SerializeSeq = ser::Impossible<(), Failure>;
        type SerializeTuple = ser::Impossible<(), Failure>;
        type SerializeTupleStruct = ser::Impossible<(), Failure>;
        type SerializeTupleVariant = ser::Impossible<(), Failure>;
        type SerializeMap = ser::Impossible<(), Failure>;
        type SerializeStruct = ser::Impossible<(), Failure>;
        type SerializeStructVariant = ser::Impossible<(), Failure>;

        fn serialize_str(self, v: &str) -> Result<(), Failure> {
            *self.0 = Some(v.to_owned());
            Ok(())
        }
        fn serialize_char(self, v: char) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
        ) -> Result<(), Failure> {
            *self.0 = Some(variant.to_owned());
            Ok(())
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &T,
        ) -> Result<(), Failure> {
            value.serialize(self)
        }
        fn serialize_bool(self, _: bool) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_i8(self, v: i8) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_i16(self, v: i16) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_i32(self, v: i32) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_i64(self, v: i64) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_u8(self, v: u8) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_u16(self, v: u16) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_u32(self, v: u32) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_u64(self, v: u64) -> Result<(), Failure> {
            *self.0 = Some(v.to_string());
            Ok(())
        }
        fn serialize_f32(self, _: f32) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_f64(self, _: f64) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_none(self) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_unit(self) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Failure> {
            Err(non_string_key())
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Failure> {
            Err(non_string_key())
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Failure> {
            Err(non_string_key())
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Failure> {
            Err(non_string_key())
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Failure> {
            Err(non_string_key())
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Failure> {
            Err(non_string_key())
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Failure> {
            Err(non_string_key())
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Failure> {
            Err(non_string_key())
        }
    }
}

#[cfg(test)]
mod tests;
