//! `--trace FILE`: a run's timeline in the Chrome trace-event format (open it in Perfetto
//! or `chrome://tracing`), one row per overlapping lane so a person can see which sub-calls
//! ran at the same time.

use std::time::Duration;

use serde_json::{Value, json};

use crate::code::SubCallRecord;

/// The trace of a run that took `total` and made `calls`.
pub(crate) fn chrome_trace(description: &str, total: Duration, calls: &[SubCallRecord]) -> Value {
    let micros = |d: Duration| d.as_micros() as u64;
    let mut events = vec![json!({
        "name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": crate::code::RUN_CODE}
    })];
    events.push(json!({
        "name": description, "cat": crate::code::RUN_CODE, "ph": "X", "pid": 1, "tid": 0,
        "ts": 0, "dur": micros(total).max(1),
    }));
    // Greedy lane assignment over run time (start to the end of the dispatch, while the
    // call holds its slot): a call goes on the first row free when it starts, so the rows
    // show the real overlap (at most the parallel limit). Queue time is drawn apart, as a
    // counter of waiting and running calls, and each call's own wait is in its arguments.
    let mut rows: Vec<Duration> = Vec::new();
    let mut ordered: Vec<&SubCallRecord> = calls.iter().collect();
    ordered.sort_by_key(|c| (c.started.unwrap_or(c.settled), c.dispatched));
    for call in ordered {
        let start = call.started.unwrap_or(call.settled);
        let end = call.dispatched.unwrap_or(start);
        let row = match rows.iter().position(|free| *free <= start) {
            Some(row) => {
                rows[row] = end;
                row
            }
            None => {
                rows.push(end);
                rows.len() - 1
            }
        };
        let tid = row + 1;
        events.push(json!({
            "name": call.name, "cat": "sub-call", "ph": "X", "pid": 1, "tid": tid,
            "ts": micros(start), "dur": micros(call.ran()).max(1),
            "args": {
                "id": call.sub_call_id,
                "arguments": call.arguments,
                "isError": call.result.is_error(),
                "mode": call.mode.map(|mode| mode.as_str()),
                "queuedMs": call.queued().as_secs_f64() * 1000.0,
                "settledMs": call.settled.as_secs_f64() * 1000.0,
                "started": call.started.is_some(),
            }
        }));
    }
    events.extend(counters(calls).into_iter().map(|(at, queued, running)| {
        json!({
            "name": "sub-calls", "ph": "C", "pid": 1, "tid": 0, "ts": micros(at),
            "args": {"queued": queued, "running": running}
        })
    }));
    for row in 0..rows.len() {
        events.push(json!({
            "name": "thread_name", "ph": "M", "pid": 1, "tid": row + 1, "args": {"name": format!("lane {}", row + 1)}
        }));
    }
    json!({"traceEvents": events, "displayTimeUnit": "ms"})
}

/// The number of queued and running sub-calls after each change, in time order.
fn counters(calls: &[SubCallRecord]) -> Vec<(Duration, i64, i64)> {
    // (when, change in queued, change in running)
    let mut changes: Vec<(Duration, i64, i64)> = Vec::with_capacity(calls.len() * 3);
    for call in calls {
        match (call.started, call.dispatched) {
            (Some(started), Some(dispatched)) => {
                changes.push((call.submitted, 1, 0));
                changes.push((started, -1, 1));
                changes.push((dispatched, 0, -1));
            }
            _ => {
                changes.push((call.submitted, 1, 0));
                changes.push((call.settled, -1, 0));
            }
        }
    }
    // At one instant, departures before arrivals: the counters never overshoot.
    changes.sort_by_key(|(at, queued, running)| (*at, *queued + *running));
    let (mut queued, mut running) = (0, 0);
    let mut out: Vec<(Duration, i64, i64)> = Vec::new();
    for (at, dq, dr) in changes {
        queued += dq;
        running += dr;
        match out.last_mut() {
            Some(last) if last.0 == at => *last = (at, queued, running),
            _ => out.push((at, queued, running)),
        }
    }
    out
}
