//! `--trace FILE`: a run's timeline in the Chrome trace-event format (open it in Perfetto
//! or `chrome://tracing`), one row per overlapping lane so a person can see which sub-calls
//! ran at the same time.

use std::time::Duration;

use serde_json::{Value, json};

use codemode::code::SubCallRecord;

/// The trace of a run that took `total` and made `calls`.
pub(crate) fn chrome_trace(description: &str, total: Duration, calls: &[SubCallRecord]) -> Value {
    let micros = |d: Duration| d.as_micros() as u64;
    let mut events = vec![json!({
        "name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": codemode::code::RUN_CODE}
    })];
    events.push(json!({
        "name": description, "cat": codemode::code::RUN_CODE, "ph": "X", "pid": 1, "tid": 0,
        "ts": 0, "dur": micros(total).max(1),
    }));
    // Greedy lane assignment: a call goes on the first row free at its start.
    let mut rows: Vec<Duration> = Vec::new();
    let mut ordered: Vec<&SubCallRecord> = calls.iter().collect();
    ordered.sort_by_key(|c| (c.submitted, c.settled));
    for call in ordered {
        let row = match rows.iter().position(|free| *free <= call.submitted) {
            Some(row) => {
                rows[row] = call.settled;
                row
            }
            None => {
                rows.push(call.settled);
                rows.len() - 1
            }
        };
        let tid = row + 1;
        events.push(json!({
            "name": call.name, "cat": "sub-call", "ph": "X", "pid": 1, "tid": tid,
            "ts": micros(call.submitted), "dur": micros(call.settled.saturating_sub(call.submitted)).max(1),
            "args": {
                "id": call.sub_call_id,
                "arguments": call.arguments,
                "isError": call.result.is_error(),
                "mode": format!("{:?}", call.mode).to_lowercase(),
            }
        }));
    }
    for row in 0..rows.len() {
        events.push(json!({
            "name": "thread_name", "ph": "M", "pid": 1, "tid": row + 1, "args": {"name": format!("lane {}", row + 1)}
        }));
    }
    json!({"traceEvents": events, "displayTimeUnit": "ms"})
}
