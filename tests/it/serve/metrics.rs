//! `codemode serve --metrics ADDR` scraped by a real Prometheus server (Debian's
//! `prometheus`): after a scripted load through the Python MCP SDK's client, PromQL queries
//! over Prometheus' HTTP API return its counts — runs and direct calls by outcome and error
//! code, programs' sub-calls, the latency histograms' counts, and the per-token gauges.
//! Skipped, saying so, where `prometheus` is not installed (`.ci/packages` installs it).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Killed, Workspace, call, free_port, is_error, run_code, serve_http as serve, steps};

const TOKEN: &str = "metrics-secret-0123456789-abcdefghijklmn";

/// `curl -s URL` (with `args` before it), or `None` when the request failed.
fn curl(url: &str, args: &[&str]) -> Option<String> {
    let output = Command::new("curl")
        .args(["-s", "-f", "--max-time", "5"])
        .args(args)
        .arg(url)
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The value of each series `query` returns over Prometheus' HTTP API, by the series'
/// labels (as `k=v,...`, sorted), or `None` while Prometheus does not answer.
fn promql(port: u16, query: &str) -> Option<Vec<(String, f64)>> {
    let url = format!("http://127.0.0.1:{port}/api/v1/query");
    let text = curl(&url, &["--data-urlencode", &format!("query={query}")])?;
    let answer: Value = serde_json::from_str(&text).ok()?;
    let results = answer["data"]["result"].as_array()?;
    let mut series: Vec<(String, f64)> = results
        .iter()
        .map(|result| {
            let labels = result["metric"]
                .as_object()
                .map(|labels| {
                    labels
                        .iter()
                        .filter(|(name, _)| {
                            !["__name__", "instance", "job"].contains(&name.as_str())
                        })
                        .map(|(name, value)| format!("{name}={}", value.as_str().unwrap_or("")))
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_default();
            let value = result["value"][1]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN);
            (labels, value)
        })
        .collect();
    series.sort_by(|a, b| a.0.cmp(&b.0));
    Some(series)
}

#[test]
fn prometheus_scrapes_the_counts_of_a_scripted_load() {
    if Command::new("prometheus")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: prometheus is not installed (apt-get install prometheus)");
        return;
    }
    let workspace = Workspace::new("mode = \"both\"");
    let metrics_port = free_port();
    let metrics_addr = format!("127.0.0.1:{metrics_port}");
    let env = [("T", TOKEN)];
    let served = serve(
        &workspace,
        "127.0.0.1:0",
        &["--token-env", "T", "--metrics", &metrics_addr],
        &env,
    );

    // The load: 3 programs of 2 sub-calls each, 1 program that throws, 2 direct calls, 1
    // direct call with arguments its schema refuses.
    let program = "const a = await tools.add({a: 1, b: 2});\nreturn await tools.add({a, b: 3});";
    let report = workspace.drive(json!({
        "transport": "http",
        "url": served.url,
        "headers": {"Authorization": format!("Bearer {TOKEN}")},
        "steps": [
            run_code(program),
            run_code(program),
            run_code(program),
            run_code("throw new Error('on purpose');"),
            call("add", json!({"a": 1, "b": 1})),
            call("add", json!({"a": 2, "b": 2})),
            call("add", json!({"a": "one"})),
        ],
    }));
    let results = steps(&report);
    let errors: Vec<bool> = results.iter().map(is_error).collect();
    assert_eq!(
        errors,
        [false, false, false, true, false, false, true],
        "{report}"
    );

    // The endpoint itself: the text format, without the MCP endpoint's token.
    let text = curl(&format!("http://{metrics_addr}/metrics"), &[]).expect("the metrics answer");
    assert!(
        text.contains("# TYPE codemode_calls_total counter\n"),
        "{text}"
    );
    assert!(curl(&format!("http://{metrics_addr}/other"), &[]).is_none());

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: codemode\n    static_configs:\n      - targets: ['{metrics_addr}']\n"
        ),
    )
    .unwrap();
    let prometheus_port = free_port();
    let _prometheus = Killed(
        Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{prometheus_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus starts"),
    );

    // Until Prometheus has scraped once (a loaded machine: up to a minute).
    let calls = "sum by (kind, outcome, code) (codemode_calls_total)";
    let deadline = Instant::now() + Duration::from_secs(60);
    let seen = loop {
        if let Some(series) = promql(prometheus_port, calls)
            && !series.is_empty()
        {
            break series;
        }
        assert!(
            Instant::now() < deadline,
            "Prometheus never scraped codemode"
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    let expected = [
        ("code=CODE_RUN_FAILED,kind=run,outcome=error", 1.0),
        ("code=INVALID_ARGS,kind=tool,outcome=error", 1.0),
        ("kind=run,outcome=success", 3.0),
        ("kind=tool,outcome=success", 2.0),
    ];
    let expected: Vec<(String, f64)> = expected
        .iter()
        .map(|(labels, n)| ((*labels).to_owned(), *n))
        .collect();
    assert_eq!(seen, expected);

    let one = |query: &str| -> f64 {
        let series = promql(prometheus_port, query).expect("Prometheus answers");
        assert_eq!(series.len(), 1, "{query}: {series:?}");
        series[0].1
    };
    assert_eq!(
        one("sum(codemode_sub_calls_total{outcome=\"success\"})"),
        6.0
    );
    assert_eq!(one("sum(codemode_sub_call_duration_seconds_count)"), 6.0);
    assert_eq!(
        one("sum(codemode_call_duration_seconds_count{kind=\"run\"})"),
        4.0
    );
    assert_eq!(
        one("sum(codemode_call_duration_seconds_bucket{kind=\"run\",le=\"+Inf\"})"),
        4.0
    );
    // Nothing is in flight or waiting now; the token's series exist (one token).
    assert_eq!(one("codemode_calls_in_flight"), 0.0);
    assert_eq!(one("codemode_runs_queued"), 0.0);
    assert_eq!(one("count(codemode_token_open_requests)"), 1.0);
    assert_eq!(one("codemode_draining"), 0.0);
    assert!(one("codemode_engine_warm_pool") >= 0.0);
    assert!(one("process_resident_memory_bytes") > 1_000_000.0);
}

#[test]
fn the_python_workers_memory_is_counted() {
    let workspace = Workspace::new("mode = \"code\"\n[runtime]\nlanguage = \"python\"");
    let metrics_port = free_port();
    let metrics_addr = format!("127.0.0.1:{metrics_port}");
    let served = serve(
        &workspace,
        "127.0.0.1:0",
        &["--metrics", &metrics_addr],
        &[],
    );
    let report = workspace.drive(json!({
        "transport": "http",
        "url": served.url,
        "steps": [run_code("return await tools.add({'a': 1, 'b': 2})")],
    }));
    assert!(!is_error(&steps(&report)[0]), "{report}");
    let text = curl(&format!("http://{metrics_addr}/metrics"), &[]).expect("the metrics answer");
    let value = |name: &str| -> f64 {
        text.lines()
            .find_map(|line| line.strip_prefix(&format!("{name} ")))
            .and_then(|value| value.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
    };
    // The worker that ran the program (or its template) is there, with its memory.
    assert!(value("codemode_python_workers") >= 1.0, "{text}");
    assert!(
        value("codemode_python_workers_resident_memory_bytes") > 1_000_000.0,
        "{text}"
    );
    assert_eq!(
        value("codemode_calls_total{kind=\"run\",outcome=\"success\"}"),
        1.0
    );
    assert_eq!(value("codemode_sub_calls_total{outcome=\"success\"}"), 1.0);
}
