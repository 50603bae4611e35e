//! The Code Mode SDK text: golden snapshots, the compilers' verdict on every generated
//! SDK, the `unknown` census over the fixture corpus, deep schemas, and the `codemode sdk`
//! command.

mod cli;
pub(crate) mod compile;
mod deep;
mod snapshots;
mod unknowns;

use std::path::PathBuf;

use codemode::code::sdk::{SdkTool, parse_tool_list};

/// The repository root (fixtures and test tools are found from here).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Reads and parses a fixture tool list, e.g. `tools/exotic-names.tools.json`.
pub fn fixture(relative: &str) -> Vec<SdkTool> {
    let path = root().join("fixtures").join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("read {}: {err}", path.display()));
    let value =
        serde_json::from_str(&text).unwrap_or_else(|err| panic!("parse {}: {err}", path.display()));
    parse_tool_list(&value).unwrap_or_else(|err| panic!("tool list {}: {err}", path.display()))
}

/// Every fixture tool list of the corpus, by short name.
pub const CORPUS: [(&str, &str); 8] = [
    ("github", "corpus/github-mcp-server.tools.json"),
    ("subset", "tools/subset.tools.json"),
    ("real_world", "tools/real-world.tools.json"),
    ("exotic_names", "tools/exotic-names.tools.json"),
    ("malformed", "tools/malformed.tools.json"),
    ("example", "tools/example.tools.json"),
    ("empty", "tools/empty.tools.json"),
    (
        "sequential_thinking",
        "tools/sequential-thinking.tools.json",
    ),
];
