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

/// One hostile program and how it must end.
pub(crate) struct Fixture {
    pub(crate) name: String,
    pub(crate) program: String,
    pub(crate) expect: Vec<String>,
    pub(crate) message: Option<String>,
}

/// The programs of `fixtures/<dir>` with extension `extension`, their headers written as
/// comments starting with `comment` (`//` or `#`). A line `#@NAME` in a program stands for
/// the shared code in `fixtures/<dir>/prelude/<name>.<extension>` (programs run alone, so
/// what several share is written once there and pasted in here).
pub(crate) fn load_fixtures(dir: &str, extension: &str, comment: &str) -> Vec<Fixture> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir);
    let expand = |program: String| -> String {
        program
            .split_inclusive('\n')
            .map(|line| match line.trim_end().strip_prefix("#@") {
                Some(name) => {
                    let path = dir
                        .join("prelude")
                        .join(format!("{}.{extension}", name.to_lowercase()));
                    std::fs::read_to_string(&path)
                        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
                }
                None => line.to_owned(),
            })
            .collect()
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{} exists: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let program = expand(std::fs::read_to_string(&path).unwrap());
            let header = |key: &str| {
                program
                    .lines()
                    .take_while(|line| line.starts_with(comment))
                    .find_map(|line| {
                        line.strip_prefix(&format!("{comment} {key}: "))
                            .map(|rest| rest.trim().to_owned())
                    })
            };
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expect = header("expect")
                .unwrap_or_else(|| panic!("{name} has no `{comment} expect:` line"));
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

/// Whether `outcome` is what `fixture` declares; a value or message containing `ESCAPED`
/// (what an escape attempt returns when a step succeeded) never is.
pub(crate) fn verdict(fixture: &Fixture, outcome: &CodeRunOutcome) -> Result<(), String> {
    let (kind, text) = match &outcome.error {
        Some(error) => (error.kind.as_str().to_owned(), error.message.clone()),
        None => (
            "ok".to_owned(),
            serde_json::to_string(&outcome.value).unwrap(),
        ),
    };
    let shown: String = text.chars().take(400).collect();
    if text.contains("ESCAPED") {
        return Err(format!("{}: ESCAPED: {shown}", fixture.name));
    }
    if !fixture.expect.contains(&kind) {
        return Err(format!(
            "{}: expected {:?}, got {kind}: {shown}",
            fixture.name, fixture.expect
        ));
    }
    if let Some(message) = &fixture.message
        && !text.contains(message)
    {
        return Err(format!(
            "{}: {kind} message should contain {message:?}: {shown}",
            fixture.name
        ));
    }
    Ok(())
}

fn fixtures() -> Vec<Fixture> {
    load_fixtures("hostile", "ts", "//")
}

/// Runs `fixtures` on `engine`, `at_once` at a time, with the `tools` of `host`, and returns
/// every misbehaviour: a wrong ending, or what `extra` finds wrong with an outcome.
pub(crate) async fn run_suite(
    engine: &dyn CodeRuntime,
    fixtures: &[Fixture],
    at_once: usize,
    host: &std::sync::Arc<TestHost>,
    extra: impl Fn(&Fixture, &CodeRunOutcome) -> Option<String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for chunk in fixtures.chunks(at_once) {
        let runs = chunk
            .iter()
            .map(|fixture| engine.run(request(&fixture.program, vec![tools(host, &["echo"])])));
        let outcomes = futures::future::join_all(runs).await;
        for (fixture, outcome) in chunk.iter().zip(&outcomes) {
            failures.extend(verdict(fixture, outcome).err());
            failures.extend(extra(fixture, outcome));
        }
    }
    failures
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
        .with_max_call_bytes(1 << 20)
        .with_warm_pool(2);
    let engine = engine_with(config);
    let host = TestHost::new();
    // Three at a time: the suite is mostly budgets running out.
    let failures = run_suite(&engine, &fixtures, 3, &host, |_, _| None).await;
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
