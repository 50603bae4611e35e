//! Budgets: compute and wall time, heap, output, recursion, cancellation.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use codemode::runtime::{CodeRunErrorKind, CodeRuntime, EngineConfig};
use tokio_util::sync::CancellationToken;

use super::{
    TestHost, engine_with, failure, request, run, run_with_tools, test_config, tools, value,
};

fn config(compute_ms: u64, wall_ms: u64) -> EngineConfig {
    test_config()
        .with_compute_ms(compute_ms)
        .with_wall_ms(wall_ms)
}

/// CPU time this process has used (user + system), from /proc/self/stat, in 10 ms ticks.
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesized command name, from `state` on: utime and stime are the
    // 12th and 13th (fields 14 and 15 of proc(5)).
    let after_name = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    Duration::from_millis((field(11) + field(12)) * 10)
}

#[tokio::test]
async fn an_endless_loop_times_out_within_the_compute_budget_plus_100ms() {
    // CPU time is only as fast as the core the loop gets: keep other busy tests off it.
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(300, 20_000));
    // On an idle machine the loop ends within 400 ms of wall time. On a loaded one the loop's
    // thread gets less than a core and 300 ms of CPU take longer, so the bound is checked
    // in CPU time too: the process may spend at most the budget + 100 ms (+ 50 ms for the
    // rest of the process and the 10 ms clock ticks) before the program is stopped.
    let mut tries = Vec::new();
    for _ in 0..5 {
        let cpu_before = process_cpu();
        let started = Instant::now();
        let outcome = run(&engine, "while (true) {}").await;
        let (elapsed, cpu) = (started.elapsed(), process_cpu().saturating_sub(cpu_before));
        let message = failure(&outcome, CodeRunErrorKind::Timeout);
        assert!(
            message.contains("compute budget") && message.contains("300 ms"),
            "{message}"
        );
        assert!(
            cpu >= Duration::from_millis(250),
            "stopped before the budget: {cpu:?} of CPU"
        );
        tries.push((elapsed, cpu));
        if elapsed <= Duration::from_millis(400)
            || (cpu <= Duration::from_millis(450) && elapsed < Duration::from_secs(5))
        {
            return;
        }
    }
    panic!("no try stopped within the budget + 100 ms (wall, CPU): {tries:?}");
}

#[tokio::test]
async fn logs_printed_before_an_endless_loop_are_kept() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(200, 20_000));
    let outcome = run(
        &engine,
        "console.log('one');\nawait null;\nconsole.log('two', { n: 2 });\nfor (;;) {}",
    )
    .await;
    failure(&outcome, CodeRunErrorKind::Timeout);
    assert_eq!(outcome.logs, ["one", "two { n: 2 }"]);
}

#[tokio::test]
async fn awaiting_a_slow_binding_or_a_timer_costs_no_compute() {
    let engine = engine_with(config(300, 20_000));
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["sleep"],
        "const a = await tools.sleep({ ms: 700, value: 'slept' });\nawait new Promise(r => setTimeout(r, 700));\nreturn a;",
    )
    .await;
    assert_eq!(value(&outcome), "slept");
}

#[tokio::test]
async fn a_program_waiting_on_something_pending_ends_by_the_wall_budget() {
    let engine = engine_with(config(5_000, 600));
    let host = TestHost::new();
    let started = Instant::now();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["hang"],
        "console.log('calling');\nawait tools.hang({});\nreturn 1;",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Timeout);
    assert!(
        message.contains("wall-time budget") && message.contains("600 ms"),
        "{message}"
    );
    assert_eq!(outcome.logs, ["calling"]);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The pending host future is dropped, not left running.
    wait_for(|| host.hanging_dropped.load(Ordering::SeqCst) == 1).await;

    // A timer that outlives the wall budget keeps the program pending the same way.
    let outcome = run(&engine, "await new Promise(r => setTimeout(r, 60_000));").await;
    failure(&outcome, CodeRunErrorKind::Timeout);
}

#[tokio::test]
async fn the_heap_limit_ends_a_growing_program_and_the_host_survives() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(10_000, 30_000).with_heap_mb(64));
    let outcome = run(
        &engine,
        "console.log('start');\nconst keep: number[][] = [];\nwhile (true) keep.push(new Array(100_000).fill(1.5));",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::WorkerExit);
    assert!(message.contains("64 MiB"), "{message}");
    assert_eq!(outcome.logs, ["start"]);
    assert_eq!(
        value(&run(&engine, "return 'still alive'").await),
        "still alive"
    );
}

/// `JSON.stringify` under a 64 MiB heap: a 20 MB text is made whole, and one of 100 MB is
/// refused. On V8 the text is built outside the heap in a buffer bounded by the heap's room
/// (`vendor/v8-patches/0002`): the refusal is a RangeError the program may catch, and the
/// program goes on; QuickJS builds the text in its heap and ends the run as `worker-exit`.
#[tokio::test]
async fn json_stringify_makes_a_text_that_fits_the_heap_and_refuses_one_that_does_not() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(10_000, 30_000).with_heap_mb(64));
    let rows = |n: u32| {
        format!(
            "const row = 'y'.repeat(1000); const rows: string[] = []; for (let i = 0; i < {n}; i++) rows.push(row);"
        )
    };
    let fits = format!("{} return JSON.stringify(rows).length;", rows(20_000));
    assert_eq!(value(&run(&engine, &fits).await), 20_000 * 1_003 + 1);
    let too_big = format!(
        "{} try {{ return JSON.stringify(rows).length; }} catch (error) {{ return 'caught ' + String(error); }}",
        rows(100_000)
    );
    let outcome = run(&engine, &too_big).await;
    if cfg!(feature = "v8") {
        assert_eq!(
            value(&outcome),
            "caught RangeError: JSON.stringify: Out of memory"
        );
    } else {
        failure(&outcome, CodeRunErrorKind::WorkerExit);
    }
    assert_eq!(value(&run(&engine, &fits).await), 20_000 * 1_003 + 1);
}

#[tokio::test]
async fn a_one_gigabyte_allocation_is_refused_and_the_host_survives() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(10_000, 30_000).with_heap_mb(128));
    let programs = [
        "const buffer = new ArrayBuffer(1024 * 1024 * 1024); new Uint8Array(buffer).fill(7); return buffer.byteLength;",
        "const big = new Array(128 * 1024 * 1024).fill(1.5); return big.length;",
        // Fresh flat strings of 1 MiB each, 1 GiB in all (concatenation would share one, and
        // so does V8's `repeat`, which builds a tree of halves: upper-casing copies each).
        "const parts = []; for (let i = 0; i < 1024; i++) parts.push('x'.repeat((1 << 20) + i).toUpperCase()); return parts.length;",
    ];
    for program in programs {
        let outcome = run(&engine, program).await;
        let kind = outcome.error.as_ref().map(|error| error.kind);
        assert!(
            matches!(
                kind,
                Some(CodeRunErrorKind::WorkerExit | CodeRunErrorKind::Timeout)
            ),
            "{program}: {outcome:?}"
        );
    }
    assert_eq!(value(&run(&engine, "return [1, 2].length").await), 2);
}

#[tokio::test]
async fn unbounded_recursion_is_contained() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(5_000, 20_000));
    let outcome = run(
        &engine,
        "function down(n: number): number { return down(n + 1) + 1 }\nreturn down(0);",
    )
    .await;
    match &outcome.error {
        Some(error) if error.kind == CodeRunErrorKind::Exception => {
            assert!(
                error.message.contains("RangeError") || error.message.contains("stack"),
                "{error}"
            )
        }
        Some(error) if error.kind == CodeRunErrorKind::WorkerExit => {}
        _ => panic!("recursion was not contained: {outcome:?}"),
    }
    // Caught overflows leave a working engine, in the same run and the next.
    let outcome = run(
        &engine,
        "function down(n: number): number { return down(n + 1) + 1 }\nlet caught = 0;\nfor (let i = 0; i < 3; i++) { try { down(0) } catch { caught++ } }\nreturn caught;",
    )
    .await;
    assert_eq!(value(&outcome), 3);
}

#[tokio::test]
async fn logs_over_the_cap_end_the_run_keeping_the_prefix_that_fits() {
    let engine = engine_with(config(10_000, 20_000).with_max_output_bytes(64 * 1024));
    let outcome = run(
        &engine,
        "for (let i = 0; ; i++) console.log(`line ${i} ` + 'x'.repeat(100));",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::OutputLimit);
    assert!(message.contains("65536 bytes"), "{message}");
    assert!(outcome.logs.len() > 100, "{}", outcome.logs.len());
    for (i, line) in outcome.logs.iter().enumerate() {
        assert!(
            line.starts_with(&format!("line {i} ")),
            "not a prefix at {i}: {line}"
        );
    }
    let serialized = serde_json::to_string(&outcome.logs).unwrap().len();
    assert!(serialized <= 64 * 1024, "{serialized}");
    // The next line would not have fitted.
    assert!(serialized + 120 > 64 * 1024, "{serialized}");
}

#[tokio::test]
async fn a_value_or_message_over_the_cap_is_an_output_limit_with_the_logs() {
    let engine = engine_with(config(10_000, 20_000).with_max_output_bytes(64 * 1024));
    let outcome = run(&engine, "console.log('kept');\nreturn 'x'.repeat(70_000);").await;
    failure(&outcome, CodeRunErrorKind::OutputLimit);
    assert_eq!(outcome.logs, ["kept"]);
    assert_eq!(outcome.value, None);

    let outcome = run(
        &engine,
        "console.log('kept');\nreturn { list: new Array(20_000).fill('abcd') };",
    )
    .await;
    failure(&outcome, CodeRunErrorKind::OutputLimit);

    let outcome = run(
        &engine,
        "console.log('kept');\nthrow new Error('y'.repeat(70_000));",
    )
    .await;
    failure(&outcome, CodeRunErrorKind::OutputLimit);
    assert_eq!(outcome.logs, ["kept"]);

    // Just under the cap is fine.
    let outcome = run(&engine, "return 'x'.repeat(60_000);").await;
    assert_eq!(value(&outcome).as_str().map(str::len), Some(60_000));
}

#[tokio::test]
async fn cancelling_aborts_a_hot_loop_promptly() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(60_000, 600_000));
    let signal = CancellationToken::new();
    let mut request = request("console.log('looping');\nwhile (true) {}", vec![]);
    request.signal = signal.clone();
    let running = tokio::spawn(engine.run(request));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cancelled = Instant::now();
    signal.cancel();
    let outcome = running.await.unwrap();
    failure(&outcome, CodeRunErrorKind::Abort);
    assert_eq!(outcome.logs, ["looping"]);
    assert!(
        cancelled.elapsed() < Duration::from_secs(1),
        "{:?}",
        cancelled.elapsed()
    );
}

#[tokio::test]
async fn cancelling_drops_the_pending_binding_futures() {
    let engine = engine_with(config(60_000, 600_000));
    let host = TestHost::new();
    let signal = CancellationToken::new();
    let mut request = request(
        "await Promise.all([tools.hang({}), tools.hang({})]);",
        vec![tools(&host, &["hang"])],
    );
    request.signal = signal.clone();
    let running = tokio::spawn(engine.run(request));
    wait_for(|| host.calls().len() == 2).await;
    signal.cancel();
    let outcome = running.await.unwrap();
    failure(&outcome, CodeRunErrorKind::Abort);
    wait_for(|| host.hanging_dropped.load(Ordering::SeqCst) == 2).await;
}

#[tokio::test]
async fn a_cancelled_signal_aborts_before_anything_runs() {
    let engine = engine_with(test_config());
    let host = TestHost::new();
    let signal = CancellationToken::new();
    signal.cancel();
    let mut request = request(
        "await tools.echo({}); return 1;",
        vec![tools(&host, &["echo"])],
    );
    request.signal = signal;
    let outcome = engine.run(request).await;
    failure(&outcome, CodeRunErrorKind::Abort);
    assert!(host.calls().is_empty());
}

#[tokio::test]
async fn dropping_the_run_future_stops_the_program() {
    let _cpu = super::CPU.lock().await;
    let engine = engine_with(config(60_000, 600_000).with_warm_pool(0));
    let run = engine.run(request("while (true) {}", vec![]));
    let _ = tokio::time::timeout(Duration::from_millis(300), run).await;
    // The engine thread ends its run and, with no pool to refill, exits.
    wait_for(|| engine.thread_counts().0 == 0).await;
}

/// Polls `condition` for up to 5 seconds.
async fn wait_for(condition: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !condition() {
        assert!(Instant::now() < deadline, "condition not reached in 5 s");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn pending_calls_over_the_heap_budget_on_the_host_end_the_run() {
    let engine = engine_with(config(30_000, 60_000).with_heap_mb(32));
    let host = TestHost::new();
    // Each pending call holds its 100 KB argument on the host: 500 of them are ~100 MB.
    let outcome = run_with_tools(
        &engine,
        &host,
        &["hang"],
        "const pad = 'x'.repeat(100_000);\nconst pending = [];\nfor (let i = 0; i < 500; i++) pending.push(tools.hang({ i, pad }));\nconsole.log('submitted');\nawait Promise.all(pending);",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::WorkerExit);
    assert!(
        message.contains("pending binding calls") && message.contains("32 MiB"),
        "{message}"
    );
    let submitted = host.calls().len();
    assert!(
        (100..500).contains(&submitted),
        "{submitted} calls reached the host"
    );
    // The calls that were accepted are dropped with the run.
    wait_for(|| host.hanging_dropped.load(Ordering::SeqCst) == submitted).await;
}
