//! SDK text of 1,000 realistic tools: the GitHub MCP server's 117 tools, repeated under
//! new names until there are 1,000, rendered as the TypeScript and the Python section.
//! Target (design): the TypeScript section in under 10 ms.

use std::hint::black_box;

use codemode::code::sdk::{SdkTool, parse_tool_list, render_sdk_section};
use codemode::runtime::Language;
use criterion::Criterion;

fn thousand_tools() -> Vec<SdkTool> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/corpus/github-mcp-server.tools.json"
    );
    let text = std::fs::read_to_string(path).expect("the GitHub corpus fixture is readable");
    let value = serde_json::from_str(&text).expect("the GitHub corpus fixture is JSON");
    let corpus = parse_tool_list(&value).expect("the GitHub corpus fixture is a tool list");
    (0..1_000)
        .map(|index| {
            let mut tool = corpus[index % corpus.len()].clone();
            tool.name = format!("{}_{}", tool.name, index / corpus.len());
            tool
        })
        .collect()
}

pub fn bench(c: &mut Criterion) {
    let tools = thousand_tools();
    let mut group = c.benchmark_group("sdk");
    group.bench_function("typescript_1000_tools", |b| {
        b.iter(|| render_sdk_section(Language::TypeScript, black_box(&tools)))
    });
    group.bench_function("python_1000_tools", |b| {
        b.iter(|| render_sdk_section(Language::Python, black_box(&tools)))
    });
    group.finish();
}
