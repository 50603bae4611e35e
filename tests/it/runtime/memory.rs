//! No memory growth across runs: resident memory after many runs stays where it was after
//! the first hundred. Measured in a child process (this binary, running the ignored probe
//! below) so the other tests' allocations do not blur the figure.

use std::process::Command;

use serde_json::json;

use super::{TestHost, engine, run_with_tools, value};

fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// Runs `CODEMODE_RSS_RUNS` programs (two at a time) and prints resident memory after the
/// first 100 and after all of them.
#[tokio::test]
#[ignore = "a probe run in its own process by memory_does_not_grow_across_runs"]
async fn rss_probe() {
    let runs: usize = std::env::var("CODEMODE_RSS_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
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
    }
    println!(
        "RSS_AFTER_100={after_100} RSS_AFTER_ALL={} RUNS={runs}",
        rss_bytes()
    );
}

#[test]
#[ignore = "fails: deno_core 0.413 on the QuickJS backend never frees a dropped JsRuntime's heap \
            (about 0.75 MiB per runtime plus whatever the program allocated); a bare v8x isolate \
            does not leak. Run with --ignored to measure."]
fn memory_does_not_grow_across_runs() {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "runtime::memory::rss_probe",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CODEMODE_RSS_RUNS", "1000")
        .output()
        .expect("the probe runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "probe failed: {stdout}\n{}",
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
        "resident memory: {} MiB after 100 runs, {} MiB after 1000",
        after_100 >> 20,
        after_all >> 20
    );
    // Allocator noise is a few MiB; a leak of even 20 KiB per run would add 18 MiB here.
    assert!(
        after_all <= after_100 + after_100 / 10 + (16 << 20),
        "memory grew: {} MiB after 100 runs, {} MiB after 1000",
        after_100 >> 20,
        after_all >> 20
    );
}
