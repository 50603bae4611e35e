//! The shared lossless-JSON table (`fixtures/json/lossless.json`, its `about` says how to read
//! it) run by each runtime's check: the library's (`codemode::json`), the JavaScript engine's
//! and the Python worker's, each through its real entry points. A runtime that disagrees with
//! a case fails its test, which lists every case it disagrees with.

use std::path::Path;

use codemode::json::{JsonValue, check_lossless_within, parse_lossless_within, to_lossless};
use codemode::runtime::{CodeRunErrorKind, CodeRunOutcome, CodeRuntime};

use crate::runtime::{TestHost, request, tools};

/// The runtimes the table names.
const RUNTIMES: [&str; 3] = ["rust", "js", "python"];

/// The table: its depth limit and its cases.
struct Table {
    max_json_depth: usize,
    cases: Vec<Case>,
}

struct Case {
    name: String,
    /// JSON text, or a build tag.
    source: Source,
    runtimes: Vec<String>,
    /// `None`: ok.
    refusal: Option<Refusal>,
    /// The value an accepted case crosses as.
    expect: Option<JsonValue>,
}

enum Source {
    Json(String),
    Build(String),
}

struct Refusal {
    path: String,
    /// One fragment for every runtime, or one per runtime.
    reason: JsonValue,
}

fn table() -> Table {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/json/lossless.json");
    let text = std::fs::read_to_string(&file).expect("the table reads");
    let table: JsonValue = serde_json::from_str(&text).expect("the table is JSON");
    let field =
        |case: &JsonValue, key: &str| case.get(key).and_then(JsonValue::as_str).map(str::to_owned);
    let cases = table["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| {
            let name = field(case, "name").expect("every case has a name");
            let source = match (field(case, "json"), field(case, "build")) {
                (Some(text), None) => Source::Json(text),
                (None, Some(tag)) => Source::Build(tag),
                _ => panic!("{name}: a case has `json` or `build`"),
            };
            let runtimes: Vec<String> = match case.get("runtimes") {
                Some(list) => list
                    .as_array()
                    .expect("runtimes is a list")
                    .iter()
                    .map(|r| r.as_str().expect("a runtime name").to_owned())
                    .collect(),
                None => RUNTIMES.iter().map(|r| (*r).to_owned()).collect(),
            };
            for runtime in RUNTIMES
                .iter()
                .filter(|r| !runtimes.iter().any(|given| given == *r))
            {
                assert!(
                    case["why_not"][runtime].is_string(),
                    "{name}: the case leaves {runtime} out without saying why (why_not)"
                );
            }
            for runtime in &runtimes {
                assert!(
                    RUNTIMES.contains(&runtime.as_str()),
                    "{name}: unknown runtime {runtime}"
                );
            }
            let refusal = match field(case, "verdict").as_deref() {
                Some("ok") => None,
                Some("refused") => Some(Refusal {
                    path: field(case, "path")
                        .unwrap_or_else(|| panic!("{name}: a refusal has a path")),
                    reason: case
                        .get("reason")
                        .cloned()
                        .unwrap_or_else(|| panic!("{name}: a refusal has a reason")),
                }),
                other => panic!("{name}: verdict {other:?}"),
            };
            let expect = match (&refusal, field(case, "expect"), &source) {
                (Some(_), _, _) => None,
                (None, Some(text), _) => {
                    Some(serde_json::from_str(&text).expect("expect is JSON text"))
                }
                (None, None, Source::Json(text)) => {
                    Some(serde_json::from_str(text).expect("an accepted case's json is JSON"))
                }
                (None, None, Source::Build(_)) => {
                    panic!("{name}: an accepted build case needs `expect`")
                }
            };
            Case {
                name,
                source,
                runtimes,
                refusal,
                expect,
            }
        })
        .collect();
    Table {
        max_json_depth: table["max_json_depth"].as_u64().expect("max_json_depth") as usize,
        cases,
    }
}

impl Case {
    fn applies_to(&self, runtime: &str) -> bool {
        self.runtimes.iter().any(|r| r == runtime)
    }

    /// Whether `outcome` (a value that crossed, or the message `path: reason` of a
    /// refusal) is this case's verdict for `runtime`; `Err` says how it is not.
    fn judge(
        &self,
        runtime: &str,
        how: &str,
        outcome: Result<JsonValue, String>,
    ) -> Result<(), String> {
        let name = &self.name;
        match (&self.refusal, outcome) {
            (None, Ok(value)) => match &self.expect {
                Some(expect) if !same(expect, &value) => Err(format!(
                    "{name} ({runtime}, {how}): crossed as {value}, expected {expect}"
                )),
                _ => Ok(()),
            },
            (None, Err(message)) => Err(format!(
                "{name} ({runtime}, {how}): refused ({message}), expected ok"
            )),
            (Some(_), Ok(value)) => Err(format!(
                "{name} ({runtime}, {how}): crossed as {value}, expected a refusal"
            )),
            (Some(refusal), Err(message)) => {
                let reason = match &refusal.reason {
                    JsonValue::String(reason) => reason.as_str(),
                    per_runtime => per_runtime[runtime]
                        .as_str()
                        .unwrap_or_else(|| panic!("{name}: no reason for {runtime}")),
                };
                let head = format!("{}: ", refusal.path);
                if !message.starts_with(&head) {
                    Err(format!(
                        "{name} ({runtime}, {how}): refused at another path than {}: {message}",
                        refusal.path
                    ))
                } else if !message[head.len()..].contains(reason) {
                    Err(format!(
                        "{name} ({runtime}, {how}): the reason does not say {reason:?}: {message}"
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// JSON equality with numbers compared by value (`1 == 1.0`: the runtimes write them
/// differently), object members in any order.
fn same(a: &JsonValue, b: &JsonValue) -> bool {
    match (a, b) {
        (JsonValue::Number(x), JsonValue::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (JsonValue::Array(x), JsonValue::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (JsonValue::Object(x), JsonValue::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Fails with every disagreement, or with a case whose build tag `runtime` does not map.
#[track_caller]
fn report(runtime: &str, ran: usize, disagreements: &[String]) {
    assert!(ran > 0, "no case ran for {runtime}");
    assert!(
        disagreements.is_empty(),
        "{runtime} disagrees with fixtures/json/lossless.json in {} of {ran} cases:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[derive(serde::Serialize)]
struct Floats {
    a: Vec<f64>,
}

#[derive(serde::Serialize)]
struct Zeros {
    z: Vec<f64>,
}

#[derive(serde::Serialize)]
struct Plain {
    name: String,
    n: Vec<f64>,
    none: Option<u8>,
}

/// A build tag as a Rust value through serde: what `to_lossless` makes of it.
fn rust_build(tag: &str) -> Option<Result<JsonValue, String>> {
    let result = match tag {
        "nan in a list" => to_lossless(&Floats { a: vec![f64::NAN] }),
        "negative zero field" => to_lossless(&Zeros { z: vec![1.0, -0.0] }),
        "plain struct" => to_lossless(&Plain {
            name: "x".to_owned(),
            n: vec![1.0, 2.5],
            none: None,
        }),
        _ => return None,
    };
    Some(result.map_err(|err| err.to_string()))
}

/// Whether every integer literal of JSON `text` fits 64 bits (as serde_json reads it).
fn integers_fit(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while at < bytes.len()
                    && matches!(bytes[at], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    at += 1;
                }
                let number = &text[start..at];
                let integer = !number.contains(['.', 'e', 'E']);
                if integer && number.parse::<i64>().is_err() && number.parse::<u64>().is_err() {
                    return false;
                }
            }
            _ => at += 1,
        }
    }
    true
}

#[test]
fn the_library_agrees_with_the_shared_table() {
    let table = table();
    let limit = table.max_json_depth;
    let mut ran = 0;
    let mut disagreements = Vec::new();
    for case in table.cases.iter().filter(|case| case.applies_to("rust")) {
        ran += 1;
        let mut judge = |how: &str, outcome| {
            if let Err(disagreement) = case.judge("rust", how, outcome) {
                disagreements.push(disagreement);
            }
        };
        match &case.source {
            Source::Json(text) => {
                judge(
                    "parse_lossless",
                    parse_lossless_within(text, limit).map_err(|e| e.to_string()),
                );
                // The same value as serde_json reads it (when it can, and reads it as
                // written: an integer beyond 64 bits it reads as a float), checked.
                if let (Ok(value), true) =
                    (serde_json::from_str::<JsonValue>(text), integers_fit(text))
                {
                    let checked = check_lossless_within(&value, limit)
                        .map(|()| value)
                        .map_err(|e| e.to_string());
                    judge("check_lossless", checked);
                }
            }
            Source::Build(tag) => match rust_build(tag) {
                Some(outcome) => judge("to_lossless", outcome),
                None => {
                    disagreements.push(format!("{}: no Rust build for the tag {tag:?}", case.name))
                }
            },
        }
    }
    report("rust", ran, &disagreements);
}

/// Runs every case of `runtime` as a program built by `construct` (an expression of the
/// value, or `None` for a tag it does not map) and `program` (the program around it) on
/// `engine`: the program calls the tool `echo` with the value, reports a refusal to the
/// tool `report`, and returns the value.
async fn run_table(
    runtime: &str,
    engine: &dyn CodeRuntime,
    construct: impl Fn(&Source) -> Option<String>,
    program: impl Fn(&str) -> String,
) {
    let table = table();
    let mut ran = 0;
    let mut disagreements = Vec::new();
    for case in table.cases.iter().filter(|case| case.applies_to(runtime)) {
        ran += 1;
        let Some(expression) = construct(&case.source) else {
            disagreements.push(format!("{}: no {runtime} build for the case", case.name));
            continue;
        };
        let host = TestHost::new();
        let outcome: CodeRunOutcome = engine
            .run(request(
                &program(&expression),
                vec![tools(&host, &["echo", "report"])],
            ))
            .await;
        let calls = host.calls();
        let echoed = calls
            .iter()
            .find(|(name, _)| name == "echo")
            .map(|(_, args)| args.clone());
        let refused = calls
            .iter()
            .find(|(name, _)| name == "report")
            .and_then(|(_, args)| args["refused"].as_str().map(str::to_owned));
        let call = match (echoed, refused) {
            (Some(args), None) => Ok(args),
            (None, Some(message)) => {
                match message.strip_prefix("the arguments are not lossless JSON: ") {
                    Some(rest) => Err(rest.to_owned()),
                    None => Err(format!("(another failure) {message}")),
                }
            }
            (echoed, refused) => {
                disagreements.push(format!(
                    "{} ({runtime}): the program did not run as planned: echo {echoed:?}, refusal {refused:?}, {outcome:?}",
                    case.name
                ));
                continue;
            }
        };
        let returned = match &outcome.error {
            None => Ok(outcome.value.clone().unwrap_or(JsonValue::Null)),
            Some(error) if error.kind == CodeRunErrorKind::InvalidOutput => {
                match error
                    .message
                    .strip_prefix("the return value is not lossless JSON: ")
                {
                    Some(rest) => Err(rest.to_owned()),
                    None => Err(format!("(another failure) {}", error.message)),
                }
            }
            Some(error) => Err(format!("(a {} failure) {}", error.kind, error.message)),
        };
        for (how, outcome) in [
            ("the call's arguments", call),
            ("the return value", returned),
        ] {
            if let Err(disagreement) = case.judge(runtime, how, outcome) {
                disagreements.push(disagreement);
            }
        }
    }
    report(runtime, ran, &disagreements);
}

/// A string literal of both JavaScript and Python: JSON's.
fn literal(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

#[tokio::test]
async fn the_javascript_engine_agrees_with_the_shared_table() {
    let depth = table().max_json_depth;
    let engine =
        crate::runtime::engine_with(crate::runtime::test_config().with_max_json_depth(depth));
    let construct = |source: &Source| {
        Some(match source {
            Source::Json(text) => format!("JSON.parse({})", literal(text)),
            Source::Build(tag) => match tag.as_str() {
                "nan in a list" => "{a: [NaN]}",
                "cycle" => "(() => { const a = []; a.push(a); return a; })()",
                "function" => "{f: () => 1}",
                "undefined" => "{a: undefined}",
                "bigint" => "[1, 2n]",
                "hole" => "[1, , 3]",
                "date" => "{when: new Date(0)}",
                "symbol key" => "{a: {[Symbol('s')]: 1}}",
                "set" => "[{s: new Set([1])}]",
                "negative zero field" => "{z: [1, -0]}",
                "plain struct" => "{name: 'x', n: [1, 2.5], none: null}",
                _ => return None,
            }
            .to_owned(),
        })
    };
    let program = |expression: &str| {
        format!(
            "const v = {expression};\nlet refused = null;\ntry {{ await tools.echo(v); }} catch (e) {{ refused = e.message; }}\nawait tools.report({{refused}});\nreturn v;"
        )
    };
    run_table("js", &engine, construct, program).await;
}

#[cfg(feature = "python")]
#[tokio::test]
async fn the_python_worker_agrees_with_the_shared_table() {
    let depth = table().max_json_depth;
    let engine: std::sync::Arc<dyn CodeRuntime> = std::sync::Arc::new(crate::python::engine_with(
        crate::python::test_config().with_max_json_depth(depth),
    ));
    let construct = |source: &Source| {
        Some(match source {
            Source::Json(text) => format!("json.loads({})", literal(text)),
            Source::Build(tag) => match tag.as_str() {
                "nan in a list" => "{'a': [float('nan')]}",
                "cycle" => "(lambda a: (a.append(a), a)[1])([])",
                "function" => "{'f': lambda: 1}",
                "set" => "[{'s': {1}}]",
                "tuple" => "{'t': (1, 2)}",
                "bytes" => "{'b': b'x'}",
                "int key" => "{'a': {1: 'x'}}",
                "negative zero field" => "{'z': [1.0, -0.0]}",
                "plain struct" => "{'name': 'x', 'n': [1, 2.5], 'none': None}",
                _ => return None,
            }
            .to_owned(),
        })
    };
    let program = |expression: &str| {
        format!(
            "import json\nv = {expression}\nrefused = None\ntry:\n    await tools.echo(v)\nexcept ToolCallError as e:\n    refused = str(e)\nawait tools.report({{'refused': refused}})\nreturn v"
        )
    };
    run_table("python", engine.as_ref(), construct, program).await;
}
