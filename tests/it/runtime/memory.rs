//! No memory growth across runs: resident memory after thousands of runs stays where it was
//! after the first hundred. Measured in a child process (this binary, running the ignored
//! probe below) so the other tests' allocations do not blur the figure.
//!
//! The design's figure is 10,000 runs; an optimized build of this binary makes them
//! (`cargo test --release --test it runtime::memory`). An unoptimized build makes 2,000
//! (about 20 ms of CPU a run there), which still catches any leak of 8 KiB a run or more;
//! `CODEMODE_RSS_RUNS` sets the count either way.

use std::process::Command;

use serde_json::json;

use super::{TestHost, engine, run_with_tools, value};
use crate::procfs::rss_bytes;

/// Runs the memory test makes: the acceptance figure of the design ("10,000 runs in one
/// process end with the same memory as after the first 100") when optimized.
const RUNS: usize = if cfg!(debug_assertions) {
    2_000
} else {
    10_000
};

/// The run count: `CODEMODE_RSS_RUNS`, or [`RUNS`].
fn runs() -> usize {
    std::env::var("CODEMODE_RSS_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(RUNS)
}

/// Runs `CODEMODE_RSS_RUNS` programs (two at a time) and prints resident memory after the
/// first 100, at every tenth of the way, and after all of them.
#[tokio::test]
#[ignore = "a probe run in its own process by memory_does_not_grow_across_runs"]
async fn rss_probe() {
    let runs = runs();
    let engine = engine();
    let host = TestHost::new();
    let program = "const data = new Array(2000).fill(0).map((_, i) => ({ i, s: 'x' + i }));\nconsole.log('items', data.length, data[3]);\nconst echoed = await tools.echo({ first: data.slice(0, 5) });\nreturn { n: data.length, echoed };";
    let mut after_100 = 0;
    for done in (0..runs).step_by(2) {
        let (a, b) = tokio::join!(
            run_with_tools(&engine, &host, &["echo"], program),
            run_with_tools(&engine, &host, &["echo"], program),
        );
        for outcome in [a, b] {
            assert_eq!(value(&outcome)["n"], json!(2000));
        }
        host.calls.lock().unwrap().clear();
        if done + 2 == 100 {
            after_100 = rss_bytes();
        }
        if (done + 2) % (runs / 10).max(2) == 0 {
            println!("RSS after {} runs: {} MiB", done + 2, rss_bytes() >> 20);
        }
    }
    println!(
        "RSS_AFTER_100={after_100} RSS_AFTER_ALL={} RUNS={runs}",
        rss_bytes()
    );
}

#[test]
fn memory_does_not_grow_across_runs() {
    let runs = runs();
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "runtime::memory::rss_probe",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CODEMODE_RSS_RUNS", runs.to_string())
        .output()
        .expect("the probe runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "probe failed ({}): {stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let figure = |key: &str| -> u64 {
        stdout
            .split_whitespace()
            .find_map(|word| word.strip_prefix(key))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {stdout}"))
    };
    let (after_100, after_all) = (figure("RSS_AFTER_100="), figure("RSS_AFTER_ALL="));
    println!(
        "resident memory: {} MiB after 100 runs, {} MiB after {runs}",
        after_100 >> 20,
        after_all >> 20
    );
    // Allocator noise is a few MiB; a leak of 8 KiB per run adds 16 MiB over 2,000 runs (and
    // 2 KiB per run over 10,000). A dropped JsRuntime on QuickJS used to keep ~0.75 MiB.
    assert!(
        after_all <= after_100 + (16 << 20),
        "memory grew: {} MiB after 100 runs, {} MiB after {runs}\n{stdout}",
        after_100 >> 20,
        after_all >> 20
    );
}
