//! Prometheus metrics of `codemode serve`: what it counted since it started and what it
//! holds now, in Prometheus' text exposition format (version 0.0.4), served on a listener of
//! its own (`--metrics ADDR`, never the MCP endpoint, so it shares none of its
//! authentication).
//!
//! - Counted as calls end ([`Metrics`]): the calls clients made, by kind (`run` for
//!   `run_code`, `tool` for a tool called directly), outcome and error code, with their
//!   latency; the sub-calls of programs by outcome and error code, with their latency and
//!   their wait in the run's lane; calls answered "stopping" by a drain.
//! - Read when scraped ([`Gauges`]): calls in flight, sessions, run slots taken and calls
//!   waiting (the server's and each token's), each token's open requests and sessions,
//!   whether the server drains, the engine's warm pool, and the resident memory of the
//!   process and of its Python workers.
//!
//! Names and units follow Prometheus' conventions: counters end in `_total`, durations are
//! `_seconds`, sizes `_bytes`; `process_resident_memory_bytes` is the standard name client
//! libraries export.
//!
//! This module owns the metrics' names, their counting and their text; it must not decide
//! anything about a call (it only watches them end) or serve anything but the metrics.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use crate::code::SubCallRecord;
use crate::tool::ToolExecutionResult;

/// The path the metrics listener answers.
pub const METRICS_PATH: &str = "/metrics";

/// The upper bounds of the latency histograms' buckets, in seconds: from a trivial run
/// (about a millisecond served) to a long one.
const BUCKETS: [f64; 15] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 120.0,
];

/// A latency histogram: counts per bucket (not cumulative; summed when written), the sum
/// and the count.
#[derive(Debug, Clone, Default)]
struct Histogram {
    buckets: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

impl Histogram {
    fn observe(&mut self, took: Duration) {
        let seconds = took.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|bound| seconds <= *bound) {
            self.buckets[i] += 1;
        }
        self.sum += seconds;
        self.count += 1;
    }

    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let mut cumulative = 0;
        let join = if labels.is_empty() { "" } else { "," };
        for (bound, count) in BUCKETS.iter().zip(self.buckets) {
            cumulative += count;
            let _ = writeln!(
                out,
                "{name}_bucket{{{labels}{join}le=\"{bound}\"}} {cumulative}"
            );
        }
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}{join}le=\"+Inf\"}} {}",
            self.count
        );
        let braces = if labels.is_empty() {
            String::new()
        } else {
            format!("{{{labels}}}")
        };
        let _ = writeln!(out, "{name}_sum{braces} {}", self.sum);
        let _ = writeln!(out, "{name}_count{braces} {}", self.count);
    }
}

/// What a client called: `run_code` or a tool directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CallKind {
    /// `run_code`.
    Run,
    /// Any other tool.
    Tool,
}

impl CallKind {
    fn as_str(self) -> &'static str {
        match self {
            CallKind::Run => "run",
            CallKind::Tool => "tool",
        }
    }
}

/// An outcome's labels: `success`, or `error` with the stable error code.
type Outcome = (&'static str, &'static str);

fn outcome(result: &ToolExecutionResult) -> Outcome {
    match result.failure_info() {
        None => ("success", ""),
        Some(failure) => ("error", failure.code.as_str()),
    }
}

/// The counters and histograms, as calls end.
#[derive(Debug, Default)]
struct Counted {
    calls: BTreeMap<(CallKind, Outcome), u64>,
    call_seconds: BTreeMap<CallKind, Histogram>,
    sub_calls: BTreeMap<Outcome, u64>,
    sub_call_seconds: Histogram,
    sub_call_wait_seconds: Histogram,
    stopped: u64,
}

/// What the server counted since it started. Cheap to update (one short lock per call).
#[derive(Debug, Default)]
pub struct Metrics {
    counted: parking_lot::Mutex<Counted>,
}

impl Metrics {
    /// A client's call ended after `took`, successfully (`failed` none) or with the error
    /// code `failed`.
    pub(crate) fn call(&self, kind: CallKind, failed: Option<&str>, took: Duration) {
        let outcome = match failed {
            None => ("success", ""),
            // The codes are the library's own (`_meta`'s code of a failed result); another
            // string is counted as no code rather than as a label of unbounded values.
            Some(code) => (
                "error",
                crate::ErrorCode::ALL
                    .iter()
                    .map(|known| known.as_str())
                    .find(|known| *known == code)
                    .unwrap_or(""),
            ),
        };
        let mut counted = self.counted.lock();
        *counted.calls.entry((kind, outcome)).or_default() += 1;
        counted.call_seconds.entry(kind).or_default().observe(took);
    }

    /// A call was answered "stopping" by a drain (it did not start, or did not end within
    /// the shutdown grace).
    pub(crate) fn stopped(&self) {
        self.counted.lock().stopped += 1;
    }

    /// A program's sub-call settled.
    pub(crate) fn sub_call(&self, record: &SubCallRecord) {
        let mut counted = self.counted.lock();
        *counted
            .sub_calls
            .entry(outcome(&record.result))
            .or_default() += 1;
        counted
            .sub_call_seconds
            .observe(record.settled.saturating_sub(record.submitted));
        counted.sub_call_wait_seconds.observe(record.queued());
    }

    /// The text exposition of the counters and of `gauges`.
    pub(crate) fn render(&self, gauges: &Gauges) -> String {
        let counted = self.counted.lock();
        let mut out = String::with_capacity(8 * 1024);
        family(
            &mut out,
            "codemode_calls_total",
            "counter",
            "Calls clients made, by kind (run: run_code; tool: a tool called directly), outcome and error code.",
        );
        for ((kind, outcome), n) in &counted.calls {
            let _ = writeln!(
                out,
                "codemode_calls_total{{kind=\"{}\",{}}} {n}",
                kind.as_str(),
                outcome_labels(*outcome)
            );
        }
        family(
            &mut out,
            "codemode_call_duration_seconds",
            "histogram",
            "How long clients' calls took, from arrival (a wait for a run slot included) to the answer.",
        );
        for (kind, histogram) in &counted.call_seconds {
            histogram.write(
                &mut out,
                "codemode_call_duration_seconds",
                &format!("kind=\"{}\"", kind.as_str()),
            );
        }
        family(
            &mut out,
            "codemode_sub_calls_total",
            "counter",
            "Tool calls programs made, by outcome and error code.",
        );
        for (outcome, n) in &counted.sub_calls {
            let _ = writeln!(
                out,
                "codemode_sub_calls_total{{{}}} {n}",
                outcome_labels(*outcome)
            );
        }
        family(
            &mut out,
            "codemode_sub_call_duration_seconds",
            "histogram",
            "How long programs' tool calls took, from the program's call to its settlement.",
        );
        counted
            .sub_call_seconds
            .write(&mut out, "codemode_sub_call_duration_seconds", "");
        family(
            &mut out,
            "codemode_sub_call_wait_seconds",
            "histogram",
            "How long programs' tool calls waited in their run's lane before they started.",
        );
        counted
            .sub_call_wait_seconds
            .write(&mut out, "codemode_sub_call_wait_seconds", "");
        family(
            &mut out,
            "codemode_calls_stopped_total",
            "counter",
            "Calls answered \"the server is stopping\" by a drain.",
        );
        let _ = writeln!(out, "codemode_calls_stopped_total {}", counted.stopped);
        drop(counted);
        gauges.write(&mut out);
        out
    }
}

/// An outcome's labels: `outcome="success"`, or `outcome="error",code="CODE"` (a failure
/// whose code is not the library's has no `code` label).
fn outcome_labels((outcome, code): Outcome) -> String {
    if code.is_empty() {
        format!("outcome=\"{outcome}\"")
    } else {
        format!("outcome=\"{outcome}\",code=\"{code}\"")
    }
}

/// Writes a family's `HELP` and `TYPE` lines.
fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A label value with `\`, `"` and line feeds escaped, as the text format wants.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// One token's share in use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TokenGauges {
    /// The token's name (never its secret).
    pub(crate) name: String,
    pub(crate) sessions: usize,
    pub(crate) open_requests: usize,
    pub(crate) runs: usize,
    pub(crate) queued: usize,
}

/// A per-token gauge family: its name, its help and what it reads of a token.
type TokenFamily = (&'static str, &'static str, fn(&TokenGauges) -> usize);

/// What the server holds when scraped.
#[derive(Debug, Clone, Default)]
pub(crate) struct Gauges {
    pub(crate) draining: bool,
    pub(crate) calls_in_flight: usize,
    pub(crate) sessions: usize,
    pub(crate) runs: usize,
    pub(crate) queued: usize,
    pub(crate) tokens: Vec<TokenGauges>,
    pub(crate) warm_engines: Option<usize>,
    pub(crate) memory: Memory,
}

impl Gauges {
    fn write(&self, out: &mut String) {
        let gauge = |out: &mut String, name: &str, help: &str, value: usize| {
            family(out, name, "gauge", help);
            let _ = writeln!(out, "{name} {value}");
        };
        gauge(
            out,
            "codemode_draining",
            "1 while the server drains (stopping), else 0.",
            usize::from(self.draining),
        );
        gauge(
            out,
            "codemode_calls_in_flight",
            "Calls being answered now.",
            self.calls_in_flight,
        );
        gauge(
            out,
            "codemode_sessions",
            "Open MCP sessions.",
            self.sessions,
        );
        gauge(
            out,
            "codemode_runs_running",
            "Calls holding a run slot (--max-runs).",
            self.runs,
        );
        gauge(
            out,
            "codemode_runs_queued",
            "Calls waiting for a run slot (--run-queue).",
            self.queued,
        );
        let per_token: [TokenFamily; 4] = [
            (
                "codemode_token_sessions",
                "Open MCP sessions of each bearer token.",
                |t| t.sessions,
            ),
            (
                "codemode_token_open_requests",
                "Open requests (event streams and calls being answered) of each bearer token.",
                |t| t.open_requests,
            ),
            (
                "codemode_token_runs_running",
                "Calls of each bearer token holding a run slot.",
                |t| t.runs,
            ),
            (
                "codemode_token_runs_queued",
                "Calls of each bearer token waiting for a run slot.",
                |t| t.queued,
            ),
        ];
        for (name, help, read) in per_token {
            family(out, name, "gauge", help);
            for token in &self.tokens {
                let _ = writeln!(
                    out,
                    "{name}{{token=\"{}\"}} {}",
                    escape(&token.name),
                    read(token)
                );
            }
        }
        if let Some(warm) = self.warm_engines {
            gauge(
                out,
                "codemode_engine_warm_pool",
                "Engine sandboxes made ahead and waiting for a run.",
                warm,
            );
        }
        self.memory.write(out);
    }
}

/// Resident memory, read from `/proc` (none where it cannot be read).
#[derive(Debug, Clone, Default)]
pub(crate) struct Memory {
    pub(crate) process_bytes: Option<u64>,
    pub(crate) python_workers: usize,
    pub(crate) python_workers_bytes: u64,
}

impl Memory {
    /// This process's resident memory and its Python workers' (every descendant process
    /// whose command line is the worker's), from `/proc`.
    pub(crate) fn read() -> Memory {
        let mut memory = Memory {
            process_bytes: resident_bytes("self"),
            ..Memory::default()
        };
        let mut pending = children("self");
        // Bounded: a process tree deeper or wider than this is not codemode's.
        let mut seen = 0;
        while let Some(pid) = pending.pop() {
            seen += 1;
            if seen > 4096 {
                break;
            }
            let pid = pid.to_string();
            if is_python_worker(&pid) {
                memory.python_workers += 1;
                memory.python_workers_bytes += resident_bytes(&pid).unwrap_or(0);
            }
            pending.extend(children(&pid));
        }
        memory
    }

    fn write(&self, out: &mut String) {
        if let Some(bytes) = self.process_bytes {
            family(
                out,
                "process_resident_memory_bytes",
                "gauge",
                "Resident memory size in bytes.",
            );
            let _ = writeln!(out, "process_resident_memory_bytes {bytes}");
        }
        family(
            out,
            "codemode_python_workers",
            "gauge",
            "Python worker processes (running programs, warm, or the template).",
        );
        let _ = writeln!(out, "codemode_python_workers {}", self.python_workers);
        family(
            out,
            "codemode_python_workers_resident_memory_bytes",
            "gauge",
            "Resident memory of the Python worker processes together, in bytes.",
        );
        let _ = writeln!(
            out,
            "codemode_python_workers_resident_memory_bytes {}",
            self.python_workers_bytes
        );
    }
}

/// A process's resident set in bytes (`/proc/PID/status`' `VmRSS`, in kB).
fn resident_bytes(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A process's children, from each of its threads' `children` lists.
fn children(pid: &str) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for task in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
            found.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// Whether the process runs a Python program's worker (`codemode __python-worker`, or a
/// worker forked from its template, which keeps the command line).
fn is_python_worker(pid: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|line| line.split(|b| *b == 0).any(|arg| arg == b"__python-worker"))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> BTreeMap<String, f64> {
        text.lines()
            .filter(|line| !line.starts_with('#') && !line.is_empty())
            .map(|line| {
                let (series, value) = line.rsplit_once(' ').unwrap();
                (series.to_owned(), value.parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn calls_are_counted_by_kind_outcome_and_code_with_their_latency() {
        let metrics = Metrics::default();
        metrics.call(CallKind::Run, None, Duration::from_millis(2));
        metrics.call(CallKind::Run, None, Duration::from_millis(300));
        metrics.call(CallKind::Run, Some("TOOL_DENIED"), Duration::from_secs(200));
        metrics.call(CallKind::Tool, None, Duration::from_millis(1));
        metrics.call(CallKind::Tool, Some("made up"), Duration::from_millis(1));
        metrics.stopped();
        let text = metrics.render(&Gauges::default());
        let series = parse(&text);
        let get = |name: &str| series.get(name).copied().unwrap_or(-1.0);
        assert_eq!(
            get(r#"codemode_calls_total{kind="run",outcome="success"}"#),
            2.0
        );
        assert_eq!(
            get(r#"codemode_calls_total{kind="run",outcome="error",code="TOOL_DENIED"}"#),
            1.0
        );
        assert_eq!(
            get(r#"codemode_calls_total{kind="tool",outcome="success"}"#),
            1.0
        );
        assert_eq!(
            get(r#"codemode_calls_total{kind="tool",outcome="error"}"#),
            1.0
        );
        // Cumulative buckets: 2 ms is under 2.5 ms, 300 ms under 0.5 s, 200 s only +Inf.
        assert_eq!(
            get(r#"codemode_call_duration_seconds_bucket{kind="run",le="0.0025"}"#),
            1.0
        );
        assert_eq!(
            get(r#"codemode_call_duration_seconds_bucket{kind="run",le="0.5"}"#),
            2.0
        );
        assert_eq!(
            get(r#"codemode_call_duration_seconds_bucket{kind="run",le="120"}"#),
            2.0
        );
        assert_eq!(
            get(r#"codemode_call_duration_seconds_bucket{kind="run",le="+Inf"}"#),
            3.0
        );
        assert_eq!(
            get(r#"codemode_call_duration_seconds_count{kind="run"}"#),
            3.0
        );
        assert!((get(r#"codemode_call_duration_seconds_sum{kind="run"}"#) - 200.302).abs() < 1e-9);
        assert_eq!(get("codemode_calls_stopped_total"), 1.0);
        // Every family says its type once, before its samples.
        for name in [
            "codemode_calls_total counter",
            "codemode_call_duration_seconds histogram",
            "codemode_sub_calls_total counter",
            "codemode_calls_in_flight gauge",
            "codemode_python_workers_resident_memory_bytes gauge",
        ] {
            assert_eq!(
                text.matches(&format!("# TYPE {name}\n")).count(),
                1,
                "{name}"
            );
        }
    }

    #[test]
    fn token_names_are_escaped_as_label_values() {
        let gauges = Gauges {
            tokens: vec![TokenGauges {
                name: "a\"b\\c".to_owned(),
                sessions: 2,
                ..TokenGauges::default()
            }],
            ..Gauges::default()
        };
        let text = Metrics::default().render(&gauges);
        assert!(
            text.contains("codemode_token_sessions{token=\"a\\\"b\\\\c\"} 2\n"),
            "{text}"
        );
    }

    #[test]
    fn this_process_has_resident_memory_and_no_python_workers() {
        let memory = Memory::read();
        assert!(
            memory.process_bytes.unwrap_or(0) > 1024 * 1024,
            "{memory:?}"
        );
        assert_eq!(memory.python_workers, 0);
    }
}
