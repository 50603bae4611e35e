//! Code Mode: the model writes a program against a generated SDK of its tools and runs it
//! with one `run_code` tool.
//!
//! - [`sdk`]: the SDK text (the `tools:sdk` prompt section) in TypeScript and Python, and
//!   the tool-list reader the `codemode sdk` command uses.
//!
//! This module owns what the model reads about its tools; it must not run programs (the
//! runtime does) or decide which tools are visible (the registry does).

pub mod sdk;
