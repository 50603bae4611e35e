//! The one integration-test binary (every extra test binary would link the JS engine again).

// The manifest's rules are for the library's API; test helpers are neither public API nor
// production code.
#![allow(unreachable_pub, missing_docs, clippy::unwrap_used)]

mod builtin;
mod cli;
mod codemode;
mod command_tools;
mod lossless;
mod mcp;
mod observability;
mod procfs;
mod python;
mod registry;
mod runtime;
mod sdk;
mod serve;
