//! The adversarial suite: every program in `fixtures/hostile/` runs against one engine and
//! must end the way its header says; afterwards the engine and the process are healthy.
//!
//! Header lines: `// expect: <kind>|<kind>...` (a failure kind, or `ok`), and optionally
//! `// message: <text>` that the failure message (or, for `ok`, the value) must contain.

use std::path::PathBuf;
use std::time::Duration;

use codemode::runtime::{CodeRunOutcome, CodeRuntime, EngineConfig};

use super::{TestHost, engine_with, request, tools, value};
use crate::procfs::rss_bytes;

struct Fixture {
    name: String,
    program: String,
    expect: Vec<String>,
    message: Option<String>,
}

fn fixtures() -> Vec<Fixture> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/hostile");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/hostile exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ts"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let program = std::fs::read_to_string(&path).unwrap();
            let header = |key: &str| {
                program
                    .lines()
                    .take_while(|line| line.starts_with("//"))
                    .find_map(|line| line.strip_prefix(&format!("// {key}: ")).map(str::to_owned))
            };
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expect =
                header("expect").unwrap_or_else(|| panic!("{name} has no `// expect:` line"));
            Fixture {
                expect: expect
                    .split('|')
                    .map(|kind| kind.trim().to_owned())
                    .collect(),
                message: header("message"),
                name,
                program,
            }
        })
        .collect()
}

fn verdict(fixture: &Fixture, outcome: &CodeRunOutcome) -> Result<(), String> {
    let (kind, text) = match &outcome.error {
        Some(error) => (error.kind.as_str().to_owned(), error.message.clone()),
        None => (
            "ok".to_owned(),
            serde_json::to_string(&outcome.value).unwrap(),
        ),
    };
    if !fixture.expect.contains(&kind) {
        return Err(format!(
            "{}: expected {:?}, got {kind}: {text}",
            fixture.name, fixture.expect
        ));
    }
    if let Some(message) = &fixture.message
        && !text.contains(message)
    {
        return Err(format!(
            "{}: {kind} message should contain {message:?}: {text}",
            fixture.name
        ));
    }
    Ok(())
}

#[tokio::test]
async fn hostile_programs_end_as_declared_and_the_process_stays_healthy() {
    let _cpu = super::CPU.lock().await;
    let fixtures = fixtures();
    assert!(
        fixtures.len() >= 30,
        "the suite has {} programs",
        fixtures.len()
    );
    let config = EngineConfig::default()
        .with_compute_ms(1_000)
        .with_wall_ms(3_000)
        .with_heap_mb(64)
        .with_max_output_bytes(1 << 20)
        .with_warm_pool(2);
    let engine = engine_with(config);
    let host = TestHost::new();
    let mut failures = Vec::new();
    // Three at a time: the suite is mostly budgets running out.
    for chunk in fixtures.chunks(3) {
        let runs = chunk
            .iter()
            .map(|fixture| engine.run(request(&fixture.program, vec![tools(&host, &["echo"])])));
        let outcomes = futures::future::join_all(runs).await;
        for (fixture, outcome) in chunk.iter().zip(&outcomes) {
            if let Err(failure) = verdict(fixture, outcome) {
                failures.push(failure);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} hostile programs misbehaved:\n{}",
        failures.len(),
        failures.join("\n")
    );

    // Healthy afterwards: a normal program runs, the pool settles back to its size, the
    // process did not keep the programs' memory.
    let outcome = engine
        .run(request(
            "return await tools.echo({ healthy: true });",
            vec![tools(&host, &["echo"])],
        ))
        .await;
    assert_eq!(value(&outcome), serde_json::json!({"healthy": true}));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (threads, idle) = engine.thread_counts();
        if threads <= config.warm_pool && idle == config.warm_pool {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "pool did not settle: {threads} threads, {idle} idle"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let rss = rss_bytes();
    assert!(
        rss < 2 << 30,
        "resident memory after the suite: {} MiB",
        rss >> 20
    );
}
