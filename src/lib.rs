//! # codemode
//!
//! A tool registry, one guarded execution pipeline, and **Code Mode** for LLM agents.
//!
//! The crate is built in layers; data flows one way:
//!
//! - [`json`], [`content`], [`error`]: the vocabulary — lossless JSON values, content
//!   blocks and user messages, stable error codes.
//! - [`schema`]: the author DSL, the enforced JSON Schema subset, the structured-output
//!   subset, and typed (serde) schemas.
//! - [`codemode`]: Code Mode — the generated, byte-stable TypeScript and Python SDK text of
//!   the tools a program may call.

pub mod codemode;
pub mod content;
pub mod error;
pub mod json;
pub mod schema;

#[doc(hidden)]
pub mod engine_smoke;

pub use content::{ContentBlock, EmbeddedResource, MessageSource, UserMessage};
pub use error::{Error, ErrorCode, Result};
pub use json::JsonValue;

/// The README's Rust examples, compiled and run as doctests so the README stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
