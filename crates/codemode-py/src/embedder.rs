//! A Python callable as `describe_tools`' embedder ([`codemode::code::search::Embedder`]):
//! `Registry(embedder=fn)`, where `fn(texts: list[str]) -> list[list[float]]` (sync; numpy
//! arrays and other sequences of numbers are fine). The Python half wraps it in an adapter
//! (`codemode._registry._embedder_adapter`) that takes the texts as JSON text and answers
//! plain lists of floats; it runs on a worker thread ([`crate::pycall`]), so a slow model
//! never blocks the runtime. Its failures, slowness and malformed answers make a search
//! rank lexically (with a note), never fail the call.
//!
//! This module owns the shape of the embedder's answer; how Python is entered is
//! [`crate::pycall`]'s.

use codemode::JsonValue;
use codemode::code::search::{EmbedError, Embedder};
use codemode::tool::Signal;
use futures::future::BoxFuture;

use crate::pycall::{CallArg, PyFn};

/// A Python embedder and the model name its vectors are cached under.
#[derive(Debug)]
pub(crate) struct PyEmbedder {
    pub(crate) adapter: PyFn,
    pub(crate) model: String,
}

/// The vectors of an adapter's answer: a list of lists of numbers.
fn vectors(answer: JsonValue) -> Result<Vec<Vec<f32>>, EmbedError> {
    let JsonValue::Array(rows) = answer else {
        return Err(EmbedError::BadAnswer(
            "the embedder must return a list of vectors".to_owned(),
        ));
    };
    rows.into_iter()
        .enumerate()
        .map(|(at, row)| match row {
            JsonValue::Array(values) => values
                .iter()
                .map(|x| x.as_f64().map(|x| x as f32))
                .collect::<Option<Vec<f32>>>()
                .ok_or_else(|| {
                    EmbedError::BadAnswer(format!("vector {at} has a value that is not a number"))
                }),
            _ => Err(EmbedError::BadAnswer(format!(
                "vector {at} is not a list of numbers"
            ))),
        })
        .collect()
}

impl Embedder for PyEmbedder {
    fn model(&self) -> &str {
        &self.model
    }

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'static, Result<Vec<Vec<f32>>, EmbedError>> {
        let adapter = self.adapter.clone();
        let arg = CallArg::Text(JsonValue::from(texts).to_string());
        Box::pin(async move {
            // The bound is `embed_within`'s; a sync function finishes on its thread.
            let answer = adapter
                .call("", arg, &Signal::never())
                .await
                .map_err(EmbedError::Failed)?;
            vectors(answer)
        })
    }
}
