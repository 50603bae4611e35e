//! One `describe_tools` search over the 1,300 real tools of
//! `fixtures/corpus/real-mcp-servers.tools.json` (56 MCP servers), the index built once
//! (warm). Targets (issues 24 and 40): a lexical search at most 5 ms; a hybrid search at
//! most the embedder's own latency + 5 ms, measured here with an in-process embedder that
//! answers at once (a vector made from the text's hash), the tools' vectors cached: what
//! is left is the search's own cost (the query's vector against 1,300, the fusion).

use std::hint::black_box;
use std::sync::Arc;

use codemode::code::search::{EmbedError, Embedder, SearchConfig, SearchState};
use futures::future::BoxFuture;

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

/// An embedder that answers at once: 384 values from the text's FNV-1a hash.
struct Instant384;

impl Embedder for Instant384 {
    fn model(&self) -> &str {
        "instant-384"
    }

    fn embed(&self, texts: Vec<String>) -> BoxFuture<'static, Result<Vec<Vec<f32>>, EmbedError>> {
        let vectors = texts
            .iter()
            .map(|text| {
                let mut state = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                });
                (0..384)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
                    })
                    .collect()
            })
            .collect();
        Box::pin(async move { Ok(vectors) })
    }
}

const REQUEST: &str = "The customer was charged twice for order 5521, give them their $40 back";

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
    group.bench_function("search_1300_tools_request", |b| {
        b.iter(|| index.search(black_box(REQUEST), 5).len())
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let config = SearchConfig::default().with_embedder(Some(Arc::new(Instant384)));
    let state = SearchState::default();
    let (_, note) = rt.block_on(index.rank("warm up", 5, &config, &state));
    assert_eq!(note, None);
    group.bench_function("hybrid_1300_tools_request", |b| {
        b.iter(|| {
            rt.block_on(index.rank(black_box(REQUEST), 5, &config, &state))
                .0
                .len()
        })
    });
    group.finish();
}
