//! Code Mode: the model writes a program against a generated SDK of its tools and runs it
//! with one `run_code` tool.
//!
//! - [`sdk`]: the SDK text (the `tools:sdk` prompt section) in TypeScript and Python, and
//!   the tool-list reader the `codemode sdk` command uses.
//! - [`assembly`]: modes (`native`, `code`, `both`) and what each scope's model is given.
//! - `run_code` and its bridge: the transport tool whose program's binding calls re-enter
//!   the registry's pipeline through a bounded, ordered per-run lane.
//! - [`output`]: the model-facing text of a run.
//!
//! This module owns what the model reads about its tools and the run_code transport; it
//! must not decide which tools are visible (the registry does) or how programs execute
//! (the runtime does).

pub mod assembly;
mod bridge;
pub mod output;
mod run_code;
pub mod sdk;

pub use assembly::{Assembly, CodeMode, PromptSection, assemble, sdk_tools};
pub use bridge::{SubCallObserver, SubCallRecord};
pub use run_code::run_code_description;
