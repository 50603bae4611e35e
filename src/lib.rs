//! # codemode
//!
//! A tool registry, one guarded execution pipeline, and **Code Mode** for LLM agents: the
//! model gets one `run_code` tool and a generated SDK of its tools, writes a program, and
//! every `await tools.name(args)` re-enters the pipeline.
//!
//! ## Quick start
//!
//! ```
//! use std::sync::Arc;
//! use codemode::code::{CodeMode, CodeModeConfig, PresentationMode, Program, assemble};
//! use codemode::registry::Registry;
//! use codemode::runtime::{EngineConfig, JsEngine};
//! use codemode::tool::{ToolDefinition, ToolOutput};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! // 1. Tools live in a registry; everything is registered through a scope.
//! let registry = Registry::new();
//! registry.global().register(
//!     ToolDefinition::builder("add")
//!         .description("Add two numbers.")
//!         .parameters(serde_json::json!({
//!             "type": "object",
//!             "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
//!             "required": ["a", "b"]
//!         }))
//!         .output(ToolOutput::any())
//!         .execute(|args, _| async move {
//!             Ok(serde_json::json!(args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0)))
//!         })
//!         .build()?,
//! )?.keep();
//!
//! // 2. Code Mode presents them as `run_code` plus a TypeScript SDK.
//! let code = CodeMode::install(&registry, CodeModeConfig::default().with_mode(PresentationMode::Code))?;
//! code.set_runtime(Arc::new(JsEngine::new(EngineConfig::default())?))?;
//! let assembly = assemble(&registry.global())?;
//! assert_eq!(assembly.tools[0].name, "run_code");
//!
//! // 3. A program's tool calls run through the whole pipeline.
//! let run = code
//!     .run_program(&registry.global(), Program::new("return await tools.add({a: 1, b: 2})", "add"), None)
//!     .await?;
//! assert_eq!(run.result.model_text(), "3");
//! assert_eq!(run.sub_calls.len(), 1);
//! # Ok::<(), codemode::Error>(())
//! # }).unwrap();
//! ```
//!
//! [`host::Host`] does all of this from a configuration file (sources, MCP servers,
//! policies, the engine), as the `codemode` command does.
//!
//! ## Layers
//!
//! Data flows one way: sources → registry → assembly → execute → bridge → runtime.
//!
//! - `process` (private): the platform room — how tool processes start (streams piped, in a
//!   process group of their own) and worker processes start (empty environment, from one
//!   spawner thread), how their whole group (or a pidfd's process) is killed, and a
//!   process's CPU clock.
//! - [`json`], [`content`], [`error`]: the vocabulary — lossless JSON values, content blocks
//!   and user messages, stable error codes.
//! - [`schema`]: the author DSL, the enforced JSON Schema subset, the structured-output
//!   subset, and typed (serde) schemas.
//! - [`tool`], [`presentation`]: tool definitions (raw and typed), call identity, results,
//!   pipeline decisions, progress reports, UI cards.
//! - [`journal`]: the journal's events (top-level calls and Code Mode's sub-calls) and
//!   the sink a host stores them in.
//! - [`registry`]: scopes and visibility, restrictions, guards, the staged execute pipeline
//!   with its waterfalls (each execution a `tracing` span), the timeout policy, the ordered lane scheduler, and the hooks a
//!   layer above uses (providers, scope extensions). It knows nothing of Code Mode.
//! - [`sources`]: tools that come from this process — the built-in file tools confined to a
//!   root directory, and command tools.
//! - [`runtime`]: the code runtime seam ([`runtime::CodeRuntime`], its types and limits), the
//!   embedded JavaScript engine ([`runtime::js`], with TypeScript's own type checker in
//!   [`runtime::js::typecheck`]) and, with feature `python`, the confined
//!   CPython workers (`runtime::python`).
//! - [`code`]: Code Mode — modes, assembly, the SDK renderers, `run_code` and the bridge
//!   that turns a program's calls into nested pipeline calls, a session's store (the
//!   programs' `store`, kept between runs), the checks before a run (the
//!   static check, and the type check with `typecheck`); over `sdk_max_tokens`, the
//!   compact tool index and `describe_tools`.
//! - [`config`]: the configuration file, parsed and checked (nothing built or run).
//! - [`mcp`] (feature `mcp`): MCP both ways — servers as tool sources, `codemode serve`,
//!   and the wire mapping.
//! - [`host`]: the composition root that turns a configuration into a ready registry.
//!
//! Each layer uses only the layers before it in this list.

#[cfg(feature = "cli")]
pub mod cli;
pub mod code;
pub mod config;
pub mod content;
pub mod error;
pub mod host;
pub mod journal;
pub mod json;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod presentation;
mod process;
pub mod registry;
pub mod runtime;
pub mod schema;
pub mod sources;
pub mod tool;

pub use content::{ContentBlock, EmbeddedResource, MessageSource, UserMessage};
pub use error::{Error, ErrorCode, Result};
pub use json::JsonValue;

/// The README's Rust examples, compiled and run as doctests so the README stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The Rust examples of the library guide (`docs/library.md`), run as doctests.
#[doc = include_str!("../docs/library.md")]
#[cfg(doctest)]
pub struct LibraryDocDoctests;

/// The Rust examples of the observability page (`docs/observability.md`), run as doctests.
#[doc = include_str!("../docs/observability.md")]
#[cfg(doctest)]
pub struct ObservabilityDocDoctests;

/// The Rust examples of the built-in tools page (`docs/builtin-tools.md`), run as doctests.
#[doc = include_str!("../docs/builtin-tools.md")]
#[cfg(doctest)]
pub struct BuiltinToolsDocDoctests;
