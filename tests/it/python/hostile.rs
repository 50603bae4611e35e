//! The Python adversarial suite: every program in `fixtures/python-hostile/` runs against
//! one engine and must end the way its header says (`# expect: kind|kind`, optional
//! `# message: text`); an escape returns a value containing `ESCAPED`. Afterwards the host
//! is healthy: a normal program runs, the pool is back to its size, and no worker process
//! is left behind.

use std::time::Duration;

use codemode::runtime::CodeRuntime;

use super::{engine_with, request, test_config};
use crate::runtime::hostile::{Fixture, load_fixtures, run_suite};
use crate::runtime::{TestHost, tools, value};

fn fixtures() -> Vec<Fixture> {
    load_fixtures("python-hostile", "py", "#")
}

/// The worker processes (children running the worker) of this process now.
fn workers() -> usize {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| {
                    let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
                    let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                    let ppid = stat
                        .rsplit(')')
                        .next()
                        .and_then(|rest| rest.split_whitespace().nth(1));
                    ppid == Some(me.as_str())
                        && String::from_utf8_lossy(&cmdline).contains("__python-worker")
                })
                .count()
        })
        .unwrap_or(0)
}

#[tokio::test]
async fn hostile_python_programs_end_as_declared_and_the_host_stays_healthy() {
    let _cpu = crate::runtime::CPU.lock().await;
    let fixtures = fixtures();
    assert!(
        fixtures.len() >= 30,
        "the suite has {} programs",
        fixtures.len()
    );
    let config = test_config()
        .with_compute_ms(1_000)
        .with_wall_ms(3_000)
        .with_heap_mb(64)
        .with_max_output_bytes(1 << 20)
        .with_warm_pool(2);
    let engine = engine_with(config);
    let host = TestHost::new();
    let secret = std::env::var("HOME").unwrap_or_default();
    // Nothing of the host's environment reaches a program.
    let failures = run_suite(&engine, &fixtures, 2, &host, |fixture, outcome| {
        let all = format!("{outcome:?}");
        (!secret.is_empty() && all.contains(&format!("HOME={secret}")))
            .then(|| format!("{}: saw the host's environment", fixture.name))
    })
    .await;
    assert!(
        failures.is_empty(),
        "{} hostile programs misbehaved:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let outcome = engine
        .run(request(
            "return await tools.echo({'healthy': True})",
            vec![tools(&host, &["echo"])],
        ))
        .await;
    assert_eq!(value(&outcome), serde_json::json!({"healthy": true}));
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (ready, running) = (engine.ready_workers(), workers());
        // This engine's pool, plus the pools of engines other tests run at the same time.
        if ready == config.warm_pool && running <= 10 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the pool did not settle: {ready} ready, {running} worker processes"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
