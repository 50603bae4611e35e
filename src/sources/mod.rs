//! Tool sources of this process: the built-in file tools and command tools. (MCP servers
//! are a source too; they live with the rest of MCP in `mcp::client`.)
//!
//! Each source turns its own configuration into [`crate::tool::ToolDefinition`]s that a host
//! registers; sources must not reach into the registry's resolution or scheduling.

pub mod builtin;
pub mod command;
