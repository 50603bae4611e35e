//! The one integration-test binary (every extra test binary would link the JS engine again).

mod builtin;
mod cli;
mod codemode;
mod command_tools;
mod mcp;
mod procfs;
mod registry;
mod runtime;
mod sdk;
mod serve;
