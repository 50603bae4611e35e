//! The type check before a run (issue 24): a 20-line program checked against the SDK of the
//! GitHub MCP server's 117 tools (`fixtures/corpus/github-mcp-server.tools.json`) by
//! TypeScript's own compiler in the engine. Targets: a warm check (the checker kept, its lib
//! and SDK source files parsed) at most 100 ms (`typecheck/warm_20_lines`); a new checker's
//! first check (the compiler loaded from its per-process bytecode, the lib files and the
//! SDK parsed, then the check) at most 1.5 s (`typecheck/first_check`); a checker's memory
//! at most 150 MB (printed: the process's resident growth over a checker and 50 checks).

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::code::sdk::{parse_tool_list, render_sdk_section};
use codemode::runtime::Language;
use codemode::runtime::js::typecheck::{CheckReport, CheckerConfig, TypeChecker};
use criterion::Criterion;

/// The GitHub SDK's declarations as the check reads them (see `Planned::declarations`).
fn github_declarations() -> Arc<str> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/corpus/github-mcp-server.tools.json"
    );
    let text = std::fs::read_to_string(path).expect("the GitHub corpus fixture is readable");
    let value = serde_json::from_str(&text).expect("the GitHub corpus fixture is JSON");
    let mut tools = parse_tool_list(&value).expect("the GitHub corpus fixture is a tool list");
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    let section = render_sdk_section(Language::TypeScript, &tools);
    let start = section.find("```ts\n").expect("a code block") + "```ts\n".len();
    let end = section.rfind("```").expect("a closing fence");
    Arc::from(section[start..end].replacen(
        "type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };",
        "type JsonValue = any;",
        1,
    ))
}

/// A model's program of 20 lines over the GitHub tools, without errors.
const PROGRAM: &str = r#"const me = await tools.get_me({});
const owner = "octo-org";
const repo = "octo-repo";
const [issues, pulls] = await Promise.all([
  tools.list_issues({ owner, repo, perPage: 50 }),
  tools.list_pull_requests({ owner, repo, perPage: 20 }),
]);
const stale: string[] = [];
for (const issue of issues.issues ?? []) {
  if (issue.comments === 0 && issue.state === "OPEN") {
    stale.push(`#${issue.number} ${issue.title}`);
  }
}
const readme = await tools.get_file_contents({ owner, repo, path: "README.md" });
const hits = await tools.search_code({ query: `repo:${owner}/${repo} TODO`, perPage: 10 });
if (stale.length > 0) {
  await tools.add_issue_comment({ owner, repo, issue_number: 1, body: stale.join("\n") });
}
console.log(me.login, pulls.length, String(readme).length, hits.total_count);
return { stale: stale.length };"#;

fn check(runtime: &tokio::runtime::Runtime, checker: &TypeChecker, declarations: &Arc<str>) {
    match runtime.block_on(checker.check(declarations, PROGRAM)) {
        CheckReport::Checked { total: 0, .. } => {}
        other => panic!("the program should check clean: {other:?}"),
    }
}

fn rss_mb() -> f64 {
    super::procfs::rss_bytes() as f64 / (1024.0 * 1024.0)
}

pub fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let declarations = github_declarations();

    // The process's very first check also compiles the compiler to bytecode (once per
    // process), and the memory a checker holds.
    let before = rss_mb();
    let started = Instant::now();
    let checker = TypeChecker::new(CheckerConfig::default()).unwrap();
    check(&runtime, &checker, &declarations);
    let process_first = started.elapsed();
    for _ in 0..50 {
        check(&runtime, &checker, &declarations);
    }
    let after = rss_mb();
    eprintln!(
        "typecheck: the process's first check {process_first:.2?} (compiler bytecode compiled); resident growth over one checker and 51 checks {:.1} MB ({before:.1} -> {after:.1} MB)",
        after - before
    );

    let mut group = c.benchmark_group("typecheck");
    group.bench_function("warm_20_lines", |b| {
        b.iter(|| check(&runtime, &checker, &declarations))
    });
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("first_check", |b| {
        b.iter(|| {
            let fresh = TypeChecker::new(CheckerConfig::default()).unwrap();
            check(&runtime, &fresh, &declarations);
        })
    });
    group.finish();
}
