//! Plain values between Python and JSON data without JSON text, for the path every
//! `execute` takes (its arguments in, its result out).
//!
//! Only what converts exactly as the Python half's own conversion does is converted here
//! (`codemode._hints.to_json` then `json.dumps` one way, `json.loads` of the library's text
//! the other): exact `dict` with `str` keys, `list`, `str`, `int`, `float`, `bool` and
//! `None`, at most [`MAX_DEPTH`] levels deep, with the same checks (integers within
//! ±(2^53 - 1), finite floats, `-0.0` as `0.0`, strings that are UTF-8). Anything else, and
//! anything those checks refuse, answers `None`: the caller then takes the text path, which
//! converts it or names what is wrong, so what a call sees never depends on which path it
//! took.
//!
//! This module owns those conversions; it must not decide what a value means.

use codemode::JsonValue;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde_json::{Map, Number};

/// The deepest value converted here (the text path has no recursion and takes the rest).
const MAX_DEPTH: usize = 32;

/// The largest integer JavaScript numbers hold exactly (`codemode._hints`' bound).
const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// `value` as JSON data, when it is plain data (see the module doc); else `None`.
pub(crate) fn to_json(value: &Bound<'_, PyAny>) -> Option<JsonValue> {
    to_json_within(value, MAX_DEPTH)
}

fn to_json_within(value: &Bound<'_, PyAny>, depth: usize) -> Option<JsonValue> {
    if value.is_none() {
        return Some(JsonValue::Null);
    }
    if let Ok(flag) = value.cast_exact::<PyBool>() {
        return Some(JsonValue::Bool(flag.is_true()));
    }
    if let Ok(int) = value.cast_exact::<PyInt>() {
        let int: i64 = int.extract().ok()?;
        return (int.abs() <= MAX_SAFE_INTEGER).then(|| JsonValue::from(int));
    }
    if let Ok(float) = value.cast_exact::<PyFloat>() {
        // `+ 0.0`: JSON text has no negative zero (as `to_json` has it).
        return Number::from_f64(float.value() + 0.0).map(JsonValue::Number);
    }
    if let Ok(text) = value.cast_exact::<PyString>() {
        // A lone surrogate is not UTF-8: the text path names it.
        return text
            .to_str()
            .ok()
            .map(|text| JsonValue::String(text.to_owned()));
    }
    let depth = depth.checked_sub(1)?;
    if let Ok(list) = value.cast_exact::<PyList>() {
        let mut items = Vec::with_capacity(list.len());
        for item in list.iter() {
            items.push(to_json_within(&item, depth)?);
        }
        return Some(JsonValue::Array(items));
    }
    if let Ok(dict) = value.cast_exact::<PyDict>() {
        let mut members = Map::with_capacity(dict.len());
        for (key, member) in dict.iter() {
            let key = key.cast_exact::<PyString>().ok()?.to_str().ok()?.to_owned();
            members.insert(key, to_json_within(&member, depth)?);
        }
        return Some(JsonValue::Object(members));
    }
    None
}

/// `value` as the Python data `json.loads` makes of its text, when it is at most
/// [`MAX_DEPTH`] levels deep; else `None`.
pub(crate) fn to_python<'py>(
    py: Python<'py>,
    value: &JsonValue,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    to_python_within(py, value, MAX_DEPTH)
}

fn to_python_within<'py>(
    py: Python<'py>,
    value: &JsonValue,
    depth: usize,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(Some(match value {
        JsonValue::Null => py.None().into_bound(py),
        JsonValue::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any(),
        JsonValue::Number(number) => {
            // Integers as the text has them (no `.`, no exponent), the rest as floats.
            if let Some(int) = number.as_i64() {
                int.into_pyobject(py)?.into_any()
            } else if let Some(int) = number.as_u64() {
                int.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, number.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        JsonValue::String(text) => PyString::new(py, text).into_any(),
        JsonValue::Array(items) => {
            let Some(depth) = depth.checked_sub(1) else {
                return Ok(None);
            };
            let list = PyList::empty(py);
            for item in items {
                let Some(item) = to_python_within(py, item, depth)? else {
                    return Ok(None);
                };
                list.append(item)?;
            }
            list.into_any()
        }
        JsonValue::Object(members) => {
            let Some(depth) = depth.checked_sub(1) else {
                return Ok(None);
            };
            let dict = PyDict::new(py);
            for (key, member) in members {
                let Some(member) = to_python_within(py, member, depth)? else {
                    return Ok(None);
                };
                dict.set_item(key, member)?;
            }
            dict.into_any()
        }
    }))
}
