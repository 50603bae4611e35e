//! The ordered lane and the batch scheduler, with real overlap.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::registry::scheduler::{Lane, run_batch};
use codemode::registry::{ExecutionMode, Registry};
use codemode::tool::{ToolDefinition, ToolExecutionInput, ToolOutput};
use parking_lot::Mutex;
use serde_json::json;

/// Tracks how many calls run at once and the order of starts.
#[derive(Default)]
struct Tracker {
    running: AtomicUsize,
    peak: AtomicUsize,
    starts: Mutex<Vec<String>>,
    overlaps_with_exclusive: AtomicUsize,
}

fn tracked_tool(name: &str, ms: u64, safe: bool, tracker: Arc<Tracker>) -> ToolDefinition {
    let label = name.to_owned();
    let mut builder = ToolDefinition::builder(name)
        .output(ToolOutput::any())
        .execute(move |args, _| {
            let tracker = tracker.clone();
            let label = label.clone();
            async move {
                let now = tracker.running.fetch_add(1, Ordering::SeqCst) + 1;
                tracker.peak.fetch_max(now, Ordering::SeqCst);
                tracker.starts.lock().push(format!("{label}{}", args["i"]));
                if !safe && now > 1 {
                    tracker
                        .overlaps_with_exclusive
                        .fetch_add(1, Ordering::SeqCst);
                }
                tokio::time::sleep(Duration::from_millis(ms)).await;
                if safe && label == "safe" {
                    // An exclusive call must never start while this one runs.
                }
                tracker.running.fetch_sub(1, Ordering::SeqCst);
                Ok(args["i"].clone())
            }
        });
    if safe {
        builder = builder.concurrency_safe(|_| true);
    }
    builder.build().unwrap()
}

fn input(name: &str, i: usize) -> ToolExecutionInput {
    ToolExecutionInput::new(format!("c{i}"), name, json!({"i": i}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_safe_calls_of_50ms_with_a_pool_of_5_take_about_200ms() {
    let registry = Registry::new();
    let tracker = Arc::new(Tracker::default());
    registry
        .global()
        .register(tracked_tool("safe", 50, true, tracker.clone()))
        .unwrap()
        .keep();
    let calls: Vec<_> = (0..20).map(|i| input("safe", i)).collect();
    let started = Instant::now();
    let results = run_batch(&registry, calls, 5).await;
    let elapsed = started.elapsed();
    let ideal = Duration::from_millis(200);
    assert!(elapsed >= ideal, "{elapsed:?}");
    assert!(
        elapsed < ideal.mul_f64(1.75),
        "{elapsed:?} is not about {ideal:?}"
    );
    assert_eq!(tracker.peak.load(Ordering::SeqCst), 5);
    let values: Vec<_> = results
        .iter()
        .map(|r| r.value().cloned().unwrap())
        .collect();
    assert_eq!(
        values,
        (0..20).map(|i| json!(i)).collect::<Vec<_>>(),
        "results in submission order"
    );
    let starts = tracker.starts.lock().clone();
    assert_eq!(
        starts,
        (0..20).map(|i| format!("safe{i}")).collect::<Vec<_>>(),
        "starts in submission order"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exclusive_call_in_the_middle_runs_alone_and_is_a_barrier() {
    let registry = Registry::new();
    let tracker = Arc::new(Tracker::default());
    registry
        .global()
        .register(tracked_tool("safe", 40, true, tracker.clone()))
        .unwrap()
        .keep();
    registry
        .global()
        .register(tracked_tool("write", 40, false, tracker.clone()))
        .unwrap()
        .keep();
    let calls = vec![
        input("safe", 0),
        input("safe", 1),
        input("safe", 2),
        input("write", 3),
        input("safe", 4),
        input("safe", 5),
    ];
    let started = Instant::now();
    let results = run_batch(&registry, calls, 5).await;
    let elapsed = started.elapsed();
    assert_eq!(tracker.overlaps_with_exclusive.load(Ordering::SeqCst), 0);
    assert_eq!(
        *tracker.starts.lock(),
        ["safe0", "safe1", "safe2", "write3", "safe4", "safe5"],
        "the exclusive call is a barrier in submission order"
    );
    // Three phases of ~40 ms: the first safe group, the exclusive call, the second group.
    assert!(elapsed >= Duration::from_millis(120), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(300), "{elapsed:?}");
    assert!(results.iter().all(|r| !r.is_error()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_one_is_strictly_serial() {
    let registry = Registry::new();
    let tracker = Arc::new(Tracker::default());
    registry
        .global()
        .register(tracked_tool("safe", 10, true, tracker.clone()))
        .unwrap()
        .keep();
    run_batch(&registry, (0..6).map(|i| input("safe", i)).collect(), 1).await;
    assert_eq!(tracker.peak.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn classification_is_read_when_the_call_starts() {
    let lane = Lane::new(4);
    let first = lane.ticket();
    let second = lane.ticket();
    let classified = Arc::new(Mutex::new(Vec::new()));
    let log = classified.clone();
    let a = lane.admit(first, move || {
        log.lock().push("first");
        ExecutionMode::Parallel
    });
    let mut a = a.await;
    a.started();
    let log = classified.clone();
    let b = lane
        .admit(second, move || {
            log.lock().push("second");
            ExecutionMode::Parallel
        })
        .await;
    assert_eq!(*classified.lock(), ["first", "second"]);
    a.finish();
    b.finish();
}

#[tokio::test]
async fn an_abandoned_ticket_does_not_stall_the_lane() {
    let lane = Lane::new(2);
    let first = lane.ticket();
    let abandoned = lane.ticket();
    let third = lane.ticket();
    let mut held = lane.admit(first, || ExecutionMode::Exclusive).await;
    held.started();
    // The second caller gives up while it waits for its turn.
    let waiting = tokio::time::timeout(
        Duration::from_millis(20),
        lane.admit(abandoned, || ExecutionMode::Parallel),
    )
    .await;
    assert!(waiting.is_err());
    held.finish();
    let admitted = tokio::time::timeout(
        Duration::from_secs(2),
        lane.admit(third, || ExecutionMode::Parallel),
    )
    .await;
    assert!(
        admitted.is_ok(),
        "the lane passed over the abandoned ticket"
    );
}

#[tokio::test]
async fn commits_follow_submission_order_and_slots_free_before_commit() {
    let lane = Lane::new(1);
    let (t0, t1) = (lane.ticket(), lane.ticket());
    let mut a = lane.admit(t0, || ExecutionMode::Parallel).await;
    a.started();
    a.release_slot();
    // With a's slot free, b is admitted although a has not committed yet.
    let mut b = tokio::time::timeout(
        Duration::from_secs(1),
        lane.admit(t1, || ExecutionMode::Parallel),
    )
    .await
    .unwrap();
    b.started();
    // b may not commit before a.
    assert!(
        tokio::time::timeout(Duration::from_millis(20), lane.commit_turn(&b))
            .await
            .is_err()
    );
    lane.commit_turn(&a).await;
    a.finish();
    tokio::time::timeout(Duration::from_secs(1), lane.commit_turn(&b))
        .await
        .unwrap();
    b.finish();
}

#[tokio::test]
async fn an_exclusive_call_waits_for_earlier_commits_and_holds_the_barrier() {
    let lane = Lane::new(4);
    let (t0, t1, t2) = (lane.ticket(), lane.ticket(), lane.ticket());
    let mut a = lane.admit(t0, || ExecutionMode::Parallel).await;
    a.started();
    a.release_slot();
    // a's dispatch is over but it has not committed: the exclusive call still waits.
    let exclusive = lane.admit(t1, || ExecutionMode::Exclusive);
    tokio::pin!(exclusive);
    assert!(
        tokio::time::timeout(Duration::from_millis(20), &mut exclusive)
            .await
            .is_err()
    );
    a.finish();
    let mut x = tokio::time::timeout(Duration::from_secs(1), &mut exclusive)
        .await
        .unwrap();
    x.started();
    x.release_slot(); // no effect for an exclusive call
    assert!(
        tokio::time::timeout(
            Duration::from_millis(20),
            lane.admit(t2, || ExecutionMode::Parallel)
        )
        .await
        .is_err()
    );
    x.finish();
}

/// Thousands of calls queued at once (a program's `Promise.all`), a mix of parallel and
/// exclusive ones, each finishing after a random short wait: every call is admitted,
/// starts and commits in submission order, the overlap never passes the limit, and an
/// exclusive call never overlaps another. Each lane change wakes only the waiters it can
/// have made ready, so this must not lose a wake-up either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_queued_calls_keep_order_limit_and_barriers() {
    const CALLS: u64 = 3000;
    let lane = Lane::new(10);
    let order = Arc::new(Mutex::new((Vec::new(), Vec::new())));
    let holding = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let exclusive_overlaps = Arc::new(AtomicUsize::new(0));
    let calls = (0..CALLS).map(|index| {
        let ticket = lane.ticket();
        let (lane, order) = (lane.clone(), order.clone());
        let (holding, peak, overlaps) = (holding.clone(), peak.clone(), exclusive_overlaps.clone());
        tokio::spawn(async move {
            let mode = if index % 97 == 50 {
                ExecutionMode::Exclusive
            } else {
                ExecutionMode::Parallel
            };
            let mut admission = lane.admit(ticket, || mode).await;
            let now = holding.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            if mode == ExecutionMode::Exclusive && now != 1 {
                overlaps.fetch_add(1, Ordering::SeqCst);
            }
            order.lock().0.push(index);
            admission.started();
            if index % 7 == 0 {
                tokio::time::sleep(Duration::from_micros(200)).await;
            } else {
                tokio::task::yield_now().await;
            }
            holding.fetch_sub(1, Ordering::SeqCst);
            admission.release_slot();
            lane.commit_turn(&admission).await;
            order.lock().1.push(index);
            admission.finish();
        })
    });
    let all = futures::future::join_all(calls.collect::<Vec<_>>());
    let joined = tokio::time::timeout(Duration::from_secs(60), all)
        .await
        .expect("every call settles (no lost wake-up)");
    assert!(joined.iter().all(Result::is_ok));
    let (starts, commits) = std::mem::take(&mut *order.lock());
    let expected: Vec<u64> = (0..CALLS).collect();
    assert_eq!(starts, expected, "starts in submission order");
    assert_eq!(commits, expected, "commits in submission order");
    assert!(
        peak.load(Ordering::SeqCst) <= 10,
        "overlap within the limit"
    );
    assert_eq!(exclusive_overlaps.load(Ordering::SeqCst), 0);
}
