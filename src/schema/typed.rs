//! Serde types checked against a schema: the typed way to define a tool's arguments and
//! output.

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorCode};
use crate::json::{JsonValue, to_lossless};

use super::subset::JsonSchema;
use super::{ParameterSchema, ValueSchema, validate_args, validate_output};

/// A serde type `T` paired with the schema that describes it. Decoding validates against
/// the schema first (every violation reported), then deserializes; encoding serializes
/// losslessly, then validates — so the value a tool sees and the value it returns are
/// checked against the same schema the model was shown.
///
/// ```
/// use codemode::schema::{ParameterSchema, Typed, ValueSchema};
/// #[derive(serde::Deserialize)]
/// struct Args { path: String, limit: Option<u32> }
///
/// let args: Typed<Args> = Typed::parameters(
///     ParameterSchema::new()
///         .required("path", ValueSchema::string())
///         .optional("limit", ValueSchema::integer()),
/// ).unwrap();
/// let parsed = args.decode_args(&serde_json::json!({"path": "a.txt"})).unwrap();
/// assert_eq!(parsed.path, "a.txt");
/// assert!(args.decode_args(&serde_json::json!({"limit": 3})).is_err());
/// ```
pub struct Typed<T> {
    schema: JsonSchema,
    _type: PhantomData<fn() -> T>,
}

impl<T> Clone for Typed<T> {
    fn clone(&self) -> Self {
        Typed {
            schema: self.schema.clone(),
            _type: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Typed<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Typed")
            .field("type", &std::any::type_name::<T>())
            .field("schema", self.schema.as_json())
            .finish()
    }
}

impl<T> Typed<T> {
    /// Pairs `T` with a parameter schema.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] as [`ParameterSchema::compile`] refuses the schema.
    pub fn parameters(schema: ParameterSchema) -> Result<Self, Error> {
        Ok(Self::from_schema(schema.compile()?))
    }

    /// Pairs `T` with a parameter schema closed to undeclared keys
    /// (`additionalProperties: false` on the root).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] as [`ParameterSchema::compile`] refuses the schema.
    pub fn closed_parameters(schema: ParameterSchema) -> Result<Self, Error> {
        schema.compile()?;
        let mut json = schema.to_json_schema();
        if let Some(root) = json.as_object_mut() {
            root.insert("additionalProperties".to_owned(), JsonValue::Bool(false));
        }
        Ok(Self::from_schema(JsonSchema::parse(&json)?))
    }

    /// Pairs `T` with a value schema.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::UnsupportedSchema`] as [`ValueSchema::compile`] refuses the schema.
    pub fn value(schema: ValueSchema) -> Result<Self, Error> {
        Ok(Self::from_schema(schema.compile()?))
    }

    /// Pairs `T` with an already checked raw schema.
    pub fn from_schema(schema: JsonSchema) -> Self {
        Typed {
            schema,
            _type: PhantomData,
        }
    }

    /// The schema.
    pub fn schema(&self) -> &JsonSchema {
        &self.schema
    }
}

impl<T: DeserializeOwned> Typed<T> {
    /// Validates `args` (`INVALID_ARGS` listing every violation), then deserializes them.
    /// A serde failure after a passing validation (the type is stricter than the schema) is
    /// also `INVALID_ARGS`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidArgs`] when `args` violates the schema, or `T` cannot be deserialized
    /// from them (`- $: <serde's message>`).
    pub fn decode_args(&self, args: &JsonValue) -> Result<T, Error> {
        validate_args(&self.schema, args)?;
        T::deserialize(args).map_err(|err| {
            Error::new(
                ErrorCode::InvalidArgs,
                format!("invalid arguments:\n- $: {err}"),
            )
        })
    }

    /// Like [`Typed::decode_args`] for an output value (`INVALID_TOOL_OUTPUT`).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidToolOutput`] when `value` violates the schema, or `T` cannot be
    /// deserialized from it (`- $: <serde's message>`).
    pub fn decode_output(&self, value: &JsonValue) -> Result<T, Error> {
        validate_output(&self.schema, value)?;
        T::deserialize(value).map_err(|err| {
            Error::new(
                ErrorCode::InvalidToolOutput,
                format!("invalid tool output:\n- $: {err}"),
            )
        })
    }
}

impl<T: Serialize> Typed<T> {
    /// Serializes `value` losslessly (a NaN is an error, not `null`) and validates it
    /// against the schema; failures are `INVALID_TOOL_OUTPUT`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidToolOutput`] when `value` is not lossless JSON (a non-finite number,
    /// an unsafe integer, a non-string key, too deep) or its JSON violates the schema.
    pub fn encode_output(&self, value: &T) -> Result<JsonValue, Error> {
        let json = to_lossless(value).map_err(|err| {
            Error::new(
                ErrorCode::InvalidToolOutput,
                format!("invalid tool output:\n- {err}"),
            )
        })?;
        validate_output(&self.schema, &json)?;
        Ok(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Point {
        x: f64,
        y: f64,
    }

    fn point_schema() -> ValueSchema {
        ValueSchema::object(false)
            .required("x", ValueSchema::number())
            .required("y", ValueSchema::number())
    }

    #[test]
    fn decode_validates_before_deserializing() {
        let typed: Typed<Point> = Typed::value(point_schema()).unwrap();
        assert_eq!(
            typed.decode_args(&json!({"x": 1, "y": 2})).unwrap(),
            Point { x: 1.0, y: 2.0 }
        );
        let err = typed.decode_args(&json!({"x": "1", "z": 0})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgs);
        assert_eq!(
            err.message(),
            "invalid arguments:\n- $.y: required property is missing\n- $.x: expected number, got string\n- $.z: property is not allowed (additionalProperties is false)"
        );
    }

    #[test]
    fn a_type_stricter_than_its_schema_still_fails_cleanly() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Small {
            n: u8,
        }
        let typed: Typed<Small> =
            Typed::parameters(ParameterSchema::new().required("n", ValueSchema::integer()))
                .unwrap();
        let err = typed.decode_args(&json!({"n": 300})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgs);
        assert!(err.message().contains("300"), "{err}");
    }

    #[test]
    fn encode_refuses_values_the_schema_or_json_refuses() {
        let typed: Typed<Point> = Typed::value(point_schema()).unwrap();
        assert_eq!(
            typed.encode_output(&Point { x: 1.0, y: 2.5 }).unwrap(),
            json!({"x": 1.0, "y": 2.5})
        );
        let err = typed
            .encode_output(&Point {
                x: f64::NAN,
                y: 0.0,
            })
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidToolOutput);
        assert!(
            err.message().contains("$.x: NaN is not a finite number"),
            "{err}"
        );

        let strict: Typed<Point> = Typed::value(
            ValueSchema::object(false)
                .required("x", ValueSchema::integer())
                .required("y", ValueSchema::number()),
        )
        .unwrap();
        let err = strict.encode_output(&Point { x: 0.5, y: 0.0 }).unwrap_err();
        assert_eq!(
            err.message(),
            "invalid tool output:\n- $.x: expected integer, got number"
        );
    }

    #[test]
    fn decode_output_uses_the_output_code() {
        let typed: Typed<String> = Typed::value(ValueSchema::string()).unwrap();
        assert_eq!(typed.decode_output(&json!("a")).unwrap(), "a");
        assert_eq!(
            typed.decode_output(&json!(1)).unwrap_err().code(),
            ErrorCode::InvalidToolOutput
        );
    }
}
