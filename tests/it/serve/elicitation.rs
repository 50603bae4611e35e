//! The `ask` policy through MCP elicitation: only an explicit accept runs the call; a
//! decline, a cancel, a client without the capability and a client that never answers
//! are denied with the pipeline's texts; nested `run_code` sub-calls ask too.

use serde_json::{Value, json};

use super::{Workspace, call, is_error, run_code, steps, text};

const ASK: &str = "mode = \"both\"\n\n[policy]\nread_file = \"ask\"";
const READ_IN_CODE: &str =
    "const r = await tools.read_file({path: 'hello.txt'}); return r.total_lines;";

fn plan(elicitation: Option<&str>) -> Value {
    let mut plan = json!({"steps": [
        call("read_file", json!({"path": "hello.txt"})),
        run_code(READ_IN_CODE),
        call("add", json!({"a": 1, "b": 2})),
    ]});
    if let Some(mode) = elicitation {
        plan["elicitation"] = json!(mode);
    }
    plan
}

fn questions(report: &Value) -> Vec<&str> {
    report["elicitations"]
        .as_array()
        .expect("elicitations")
        .iter()
        .map(|m| m.as_str().unwrap_or_default())
        .collect()
}

#[test]
fn an_accepting_client_is_asked_and_the_calls_run() {
    let workspace = Workspace::new(ASK);
    let report = workspace.drive(plan(Some("accept")));
    let all = steps(&report);
    assert!(!is_error(&all[0]), "{report}");
    assert_eq!(text(&all[0]), "     1\thello\n     2\tworld");
    assert!(!is_error(&all[1]), "{report}");
    assert_eq!(text(&all[1]), "2");
    assert_eq!(text(&all[2]), "3");
    let asked = questions(&report);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[0].starts_with(
            "Allow the call to `read_file` (the configuration asks for approval of this tool)?"
        ),
        "{asked:?}"
    );
    assert!(asked[0].contains("\"path\": \"hello.txt\""), "{asked:?}");
    assert!(
        asked[1].starts_with("Allow the call to `read_file` from a run_code program"),
        "{asked:?}"
    );
}

#[test]
fn a_declining_client_denies_the_calls() {
    let workspace = Workspace::new(ASK);
    let report = workspace.drive(plan(Some("decline")));
    let all = steps(&report);
    assert!(is_error(&all[0]));
    assert_eq!(
        text(&all[0]),
        "Error: the call to `read_file` was rejected by the approver (the configuration asks for approval of this tool)"
    );
    assert_eq!(all[0]["_meta"]["codemode/errorCode"], "APPROVAL_DENIED");
    assert!(is_error(&all[1]));
    assert!(
        text(&all[1]).starts_with("Error: code run failed (exception): "),
        "{report}"
    );
    assert!(
        text(&all[1]).contains("the call to `read_file` was rejected by the approver"),
        "{report}"
    );
    // Tools without the policy are not asked about.
    assert_eq!(text(&all[2]), "3");
    assert_eq!(questions(&report).len(), 2);
}

#[test]
fn a_cancelling_client_denies_the_call() {
    let workspace = Workspace::new(ASK);
    let report = workspace.drive(plan(Some("cancel")));
    assert_eq!(
        text(&steps(&report)[0]),
        "Error: the approval request for `read_file` was cancelled (the configuration asks for approval of this tool)"
    );
}

#[test]
fn a_client_without_elicitation_is_denied_without_being_asked() {
    let workspace = Workspace::new(ASK);
    let report = workspace.drive(plan(None));
    let all = steps(&report);
    assert_eq!(
        text(&all[0]),
        "Error: the call to `read_file` needs approval (the configuration asks for approval of this tool), but the approver is unavailable"
    );
    assert!(is_error(&all[1]));
    assert_eq!(text(&all[2]), "3");
    assert!(questions(&report).is_empty());
}

#[test]
fn a_client_that_never_answers_is_denied_after_the_approval_timeout() {
    let workspace = Workspace::new(ASK);
    let report = workspace.drive(json!({
        "elicitation": "hang",
        "args": ["--approval-timeout", "1"],
        "steps": [call("read_file", json!({"path": "hello.txt"})), call("add", json!({"a": 1, "b": 2}))],
    }));
    let all = steps(&report);
    assert_eq!(
        text(&all[0]),
        "Error: the call to `read_file` needs approval (the configuration asks for approval of this tool), but the approver is unavailable"
    );
    let elapsed = all[0]["elapsed"].as_f64().unwrap_or_default();
    assert!((0.9..10.0).contains(&elapsed), "took {elapsed} s");
    assert_eq!(text(&all[1]), "3");
}

#[test]
fn elicitation_works_over_http() {
    let workspace = Workspace::new(ASK);
    let mut accept = plan(Some("accept"));
    accept["transport"] = json!("http");
    let report = workspace.drive(accept);
    let all = steps(&report);
    assert_eq!(text(&all[0]), "     1\thello\n     2\tworld", "{report}");
    assert_eq!(text(&all[1]), "2", "{report}");
    assert_eq!(questions(&report).len(), 2);

    let mut decline = plan(Some("decline"));
    decline["transport"] = json!("http");
    let report = workspace.drive(decline);
    assert!(
        text(&steps(&report)[0]).contains("was rejected by the approver"),
        "{report}"
    );
}
