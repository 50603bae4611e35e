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
//! - [`tool`], [`presentation`]: tool definitions (raw and typed), call identity, results,
//!   pipeline decisions, UI cards.
//! - [`registry`]: scopes and visibility, restrictions, guards, the execute pipeline with
//!   its waterfalls, the timeout policy, the ordered lane scheduler, session events.
//! - [`sources`]: where tools come from; [`sources::builtin`] holds the file tools confined
//!   to a root directory.
//! - [`runtime`]: the code runtime seam (`CodeRuntime`) and the embedded JavaScript engine
//!   that runs Code Mode programs (`JsEngine`).
//! - [`codemode`]: Code Mode — the generated, byte-stable TypeScript and Python SDK text of
//!   the tools a program may call.
//! - [`serve`]: `codemode serve` — the MCP server exposing a registry's presentation over
//!   stdio or streamable HTTP on loopback.

pub mod codemode;
pub mod config;
pub mod content;
pub mod error;
pub mod json;
pub mod presentation;
pub mod registry;
pub mod runtime;
pub mod schema;
pub mod serve;
pub mod sources;
pub mod tool;

pub use content::{ContentBlock, EmbeddedResource, MessageSource, UserMessage};
pub use error::{Error, ErrorCode, Result};
pub use json::JsonValue;

/// The README's Rust examples, compiled and run as doctests so the README stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
