//! MCP, both ways (the official Rust SDK, `rmcp`; cargo feature `mcp`).
//!
//! - [`client`]: MCP servers as tool sources — connecting (stdio processes, streamable
//!   HTTP), listing, naming and calling their tools, restarting a server that stopped.
//! - [`server`]: `codemode serve` — one scope's assembly served to an MCP client over
//!   stdio or streamable HTTP on loopback, calls run through the registry's pipeline.
//! - [`wire`]: the mapping of results between MCP and codemode, in both directions.
//!
//! This module owns the protocol; it must not decide visibility or policy (the registry
//! does) or what a model is given (Code Mode's assembly does).

pub mod client;
pub mod server;
pub mod wire;
