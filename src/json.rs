//! Lossless JSON: the one value type that crosses every boundary of the library.
//!
//! A value is *lossless JSON* when it survives a round trip through JSON text in both
//! Rust and JavaScript unchanged: finite numbers only, integers no larger than 2^53 - 1 in
//! magnitude (JavaScript numbers are doubles), string keys, bounded nesting. Tool arguments,
//! tool values, listener results and program values are all checked here before they are
//! trusted.
//!
//! This module owns the checks and the path notation used in their messages (`$.a[0].b`).
//! It must not know about schemas or tools.

use std::fmt::{self, Write as _};

use serde::Serialize;

/// The JSON value type of the library (`serde_json::Value`, object keys in insertion order).
pub type JsonValue = serde_json::Value;

/// The deepest nesting of arrays and objects accepted anywhere (the same limit
/// `serde_json` applies when parsing text). Deeper values are refused, never recursed into.
pub const MAX_DEPTH: usize = 128;

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

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('$')?;
        for segment in &self.segments {
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
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
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
            LosslessReason::TooDeep => {
                write!(f, "arrays and objects nest deeper than {MAX_DEPTH} levels")
            }
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

/// Checks that `value` is lossless JSON (see the module docs). Never recurses deeper
/// than [`MAX_DEPTH`].
pub fn check_lossless(value: &JsonValue) -> Result<(), NotLossless> {
    let mut path = JsonPath::root();
    check_value(value, &mut path, 0)
}

fn check_value(value: &JsonValue, path: &mut JsonPath, depth: usize) -> Result<(), NotLossless> {
    match value {
        JsonValue::Null | JsonValue::Bool(_) | JsonValue::String(_) => Ok(()),
        JsonValue::Number(n) => check_number(n).map_err(|reason| NotLossless {
            path: path.clone(),
            reason,
        }),
        JsonValue::Array(items) => {
            if depth >= MAX_DEPTH {
                return Err(too_deep(path));
            }
            for (index, item) in items.iter().enumerate() {
                path.push_index(index);
                check_value(item, path, depth + 1)?;
                path.pop();
            }
            Ok(())
        }
        JsonValue::Object(map) => {
            if depth >= MAX_DEPTH {
                return Err(too_deep(path));
            }
            for (key, item) in map {
                path.push_key(key);
                check_value(item, path, depth + 1)?;
                path.pop();
            }
            Ok(())
        }
    }
}

fn too_deep(path: &JsonPath) -> NotLossless {
    NotLossless {
        path: path.clone(),
        reason: LosslessReason::TooDeep,
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
    } else if let Some(f) = n.as_f64()
        && !f.is_finite()
    {
        return Err(LosslessReason::NonFiniteNumber(f));
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

/// Parses JSON text into a lossless value (text that parses is finite by construction;
/// the integer range and depth are still checked).
pub fn parse_lossless(text: &str) -> Result<JsonValue, NotLossless> {
    let value: JsonValue = serde_json::from_str(text).map_err(|err| NotLossless {
        path: JsonPath::root(),
        reason: LosslessReason::Unsupported(format!("not valid JSON: {err}")),
    })?;
    check_lossless(&value)?;
    Ok(value)
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
                return Err(self.fail(LosslessReason::TooDeep));
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
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn ordinary_values_are_lossless() {
        let value = json!({"a": [1, 2.5, -3, null, true, "x"], "b": {"c": {}}});
        assert_eq!(check_lossless(&value), Ok(()));
        assert_eq!(to_lossless(&value).unwrap(), value);
    }

    #[test]
    fn unsafe_integers_are_refused_with_their_path() {
        let err = check_lossless(&json!({"list": [1, 9007199254740992u64]})).unwrap_err();
        assert_eq!(err.path.to_string(), "$.list[1]");
        assert_eq!(
            err.reason,
            LosslessReason::UnsafeInteger("9007199254740992".into())
        );
        assert!(check_lossless(&json!(-9007199254740991i64)).is_ok());
        assert!(check_lossless(&json!(-9007199254740992i64)).is_err());
        assert!(check_lossless(&json!(9007199254740991u64)).is_ok());
    }

    #[test]
    fn non_finite_floats_are_refused_instead_of_becoming_null() {
        #[derive(Serialize)]
        struct Reading {
            label: &'static str,
            values: Vec<f64>,
        }
        let err = to_lossless(&Reading {
            label: "x",
            values: vec![1.0, f64::INFINITY],
        })
        .unwrap_err();
        assert_eq!(err.path.to_string(), "$.values[1]");
        assert!(matches!(err.reason, LosslessReason::NonFiniteNumber(_)));
        assert!(err.to_string().contains("not a finite number"));
        assert!(to_lossless(&f32::NAN).is_err());
    }

    #[test]
    fn non_string_keys_are_refused() {
        let mut map = BTreeMap::new();
        map.insert(vec![1u8], 1);
        let err = to_lossless(&map).unwrap_err();
        assert_eq!(err.reason, LosslessReason::NonStringKey);
        // Integer keys become strings, as serde_json writes them.
        let mut ints = BTreeMap::new();
        ints.insert(7u32, "x");
        assert_eq!(to_lossless(&ints).unwrap(), json!({"7": "x"}));
    }

    #[test]
    fn enums_serialize_and_report_paths_inside_variants() {
        #[derive(Serialize)]
        enum Shape {
            Point,
            Circle { radius: f64 },
            Pair(f64, f64),
        }
        assert_eq!(to_lossless(&Shape::Point).unwrap(), json!("Point"));
        assert_eq!(
            to_lossless(&Shape::Circle { radius: 1.0 }).unwrap(),
            json!({"Circle": {"radius": 1.0}})
        );
        let err = to_lossless(&Shape::Pair(1.0, f64::NAN)).unwrap_err();
        assert_eq!(err.path.to_string(), "$.Pair[1]");
        let err = to_lossless(&Shape::Circle {
            radius: f64::NEG_INFINITY,
        })
        .unwrap_err();
        assert_eq!(err.path.to_string(), "$.Circle.radius");
    }

    fn nested(depth: usize) -> JsonValue {
        let mut value = json!(0);
        for _ in 0..depth {
            value = JsonValue::Array(vec![value]);
        }
        value
    }

    #[test]
    fn depth_is_bounded() {
        assert!(check_lossless(&nested(MAX_DEPTH)).is_ok());
        let err = check_lossless(&nested(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(err.reason, LosslessReason::TooDeep);
        assert_eq!(err.path.len(), MAX_DEPTH);
    }

    #[test]
    fn deep_serialize_values_are_refused_without_recursing_forever() {
        #[derive(Serialize)]
        struct Node {
            next: Option<Box<Node>>,
        }
        let mut node = Node { next: None };
        for _ in 0..(MAX_DEPTH + 5) {
            node = Node {
                next: Some(Box::new(node)),
            };
        }
        let err = to_lossless(&node).unwrap_err();
        assert_eq!(err.reason, LosslessReason::TooDeep);
    }

    #[test]
    fn hostile_text_of_100_000_levels_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let err = parse_lossless(&text).unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
    }

    #[test]
    fn paths_quote_keys_that_are_not_identifiers() {
        let path = JsonPath::root().key("a b").key("c").index(0).key("\"q\"");
        assert_eq!(path.to_string(), r#"$["a b"].c[0]["\"q\""]"#);
        assert_eq!(JsonPath::root().to_string(), "$");
    }

    #[test]
    fn type_names_distinguish_integers() {
        assert_eq!(type_name(&json!(1)), "integer");
        assert_eq!(type_name(&json!(1.5)), "number");
        assert_eq!(type_name(&json!(null)), "null");
    }
}
