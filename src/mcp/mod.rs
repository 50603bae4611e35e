//! MCP, both ways (the official Rust SDK, `rmcp`; cargo feature `mcp`).
//!
//! - [`client`]: MCP servers as tool sources — connecting (stdio processes, streamable
//!   HTTP), listing, naming and calling their tools, restarting a server that stopped.
//! - [`server`]: `codemode serve` — one scope's assembly served to an MCP client over
//!   stdio or streamable HTTP on loopback, calls run through the registry's pipeline.
//! - [`wire`]: the mapping of results between MCP and codemode, in both directions.
//! - `trace_context` (feature `otel`): W3C trace context in `_meta` (and the HTTP
//!   `traceparent` header), both ways.
//!
//! A `tools/call` served is a span, `tools/call {name}` (kind server), around its
//! execution; one sent upstream is a span, `tools/call {tool}` (kind client).
//!
//! This module owns the protocol; it must not decide visibility or policy (the registry
//! does) or what a model is given (Code Mode's assembly does).

pub mod client;
pub mod server;
#[cfg(feature = "otel")]
mod trace_context;
pub mod wire;
