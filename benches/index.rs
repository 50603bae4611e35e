//! One `describe_tools` search over the 1,300 real tools of
//! `fixtures/corpus/real-mcp-servers.tools.json` (56 MCP servers), the index built once
//! (warm). Target (issue 24): at most 5 ms per search.

use std::hint::black_box;

use codemode::code::sdk::parse_tool_list;
use codemode::code::{SourcedTool, ToolIndex};
use codemode::json::DepthLimit;
use codemode::runtime::Language;
use criterion::Criterion;

fn corpus() -> Vec<SourcedTool> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/corpus/real-mcp-servers.tools.json"
    );
    let text = std::fs::read_to_string(path).expect("the corpus fixture is readable");
    let value: serde_json::Value = serde_json::from_str(&text).expect("the corpus is JSON");
    let tools = parse_tool_list(&serde_json::json!({"tools": value["tools"]}))
        .expect("the corpus is a tool list");
    let mut sources = Vec::new();
    for server in value["_source"]["servers"].as_array().unwrap() {
        let count = server["tools"].as_u64().unwrap() as usize;
        sources.extend(std::iter::repeat_n(
            format!("mcp:{}", server["server"].as_str().unwrap()),
            count,
        ));
    }
    sources
        .into_iter()
        .zip(tools)
        .map(|(source, tool)| SourcedTool {
            source: Some(source),
            tool,
        })
        .collect()
}

pub fn bench(c: &mut Criterion) {
    let index = ToolIndex::new(Language::TypeScript, &corpus(), DepthLimit::DEFAULT);
    let mut group = c.benchmark_group("index");
    group.bench_function("search_1300_tools", |b| {
        b.iter(|| {
            index
                .search(black_box("post a message to a slack channel"), 5)
                .len()
        })
    });
    group.finish();
}
