//! Tool sources: where tools come from (built-in file tools, command tools, MCP servers).
//!
//! Each source turns its own configuration into [`crate::tool::ToolDefinition`]s that a host
//! registers; sources must not reach into the registry's resolution or scheduling.

pub mod builtin;
pub mod command;
