//! A session's store through Code Mode (TypeScript): values kept between the runs of one
//! session and not another's, `undefined` for an absent key, bounds that fail one write and
//! keep the rest, writes of failed and cancelled runs kept, no session → `NO_SESSION`, the
//! static check of the store's operations, and the `code/store` journal events.

use std::sync::Arc;
use std::time::Duration;

use codemode::ErrorCode;
use codemode::code::{CodeMode, Program, ProgramRun, SessionStore, StoreLimits};
use codemode::journal::{JournalEvent, MemoryJournal};
use codemode::registry::Registry;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::{registry, text};
use codemode::code::PresentationMode;

async fn run(registry: &Registry, store: Option<&SessionStore>, code: &str) -> ProgramRun {
    let code_mode = CodeMode::of(registry).expect("Code Mode is installed");
    let mut program = Program::new(code, "a store test");
    if let Some(store) = store {
        program = program.with_session(store.clone());
    }
    code_mode
        .run_program(&registry.global(), program, None)
        .await
        .expect("the run is set up")
}

#[tokio::test]
async fn a_value_stored_in_one_run_is_read_in_the_next_run_of_the_session_only() {
    let registry = registry(PresentationMode::Code, 4);
    let code = CodeMode::of(&registry).unwrap();
    let (session, other) = (code.session_store(), code.session_store());
    let first = run(
        &registry,
        Some(&session),
        "await store.set('issues', [{id: 1, title: 'a'}, {id: 2, title: 'b'}]);\n\
         await store.set('n', 2);\n\
         return (await store.keys()).join();",
    )
    .await;
    assert_eq!(text(&first.result), "issues,n");
    let second = run(
        &registry,
        Some(&session),
        "const issues = await store.get('issues');\n\
         const gone = await store.get('nothing');\n\
         const deleted = [await store.delete('n'), await store.delete('n')];\n\
         return JSON.stringify({titles: issues.map(i => i.title), gone: gone === undefined, deleted, keys: await store.keys()});",
    )
    .await;
    assert_eq!(
        text(&second.result),
        r#"{"titles":["a","b"],"gone":true,"deleted":[true,false],"keys":["issues"]}"#
    );
    let elsewhere = run(
        &registry,
        Some(&other),
        "return JSON.stringify([await store.get('issues') === undefined, await store.keys()])",
    )
    .await;
    assert_eq!(text(&elsewhere.result), "[true,[]]");
    assert_eq!(session.keys(), ["issues"]);
}

#[tokio::test]
async fn without_a_session_store_calls_fail_with_no_session_and_the_program_goes_on() {
    let registry = registry(PresentationMode::Code, 4);
    let ran = run(
        &registry,
        None,
        "try { await store.set('k', 1); } catch (e) {\n\
           return [e instanceof StoreError, e.name, e.code, e.operation, e.message];\n\
         }",
    )
    .await;
    let out: serde_json::Value = serde_json::from_str(&text(&ran.result)).unwrap();
    assert_eq!(out[0], json!(true));
    assert_eq!(out[1], json!("StoreError"));
    assert_eq!(out[2], json!("NO_SESSION"));
    assert_eq!(out[3], json!("set"));
    assert!(
        out[4].as_str().unwrap().contains("this run has no session"),
        "{out}"
    );
}

#[tokio::test]
async fn a_write_past_a_bound_fails_that_call_and_keeps_what_was_stored() {
    let registry = registry(PresentationMode::Code, 4);
    let session = SessionStore::new(
        StoreLimits::default()
            .with_max_bytes(4_000)
            .with_max_value_bytes(1_000)
            .with_max_keys(3),
    );
    let ran = run(
        &registry,
        Some(&session),
        "await store.set('a', 'x'.repeat(900));\n\
         const errors = [];\n\
         for (const [key, value] of [['a', 'y'.repeat(2000)], ['b', 1], ['c', 2], ['d', 3]]) {\n\
           try { await store.set(key, value); } catch (e) { errors.push(e.code + ': ' + e.message); }\n\
         }\n\
         return {errors, a: (await store.get('a')).length, keys: await store.keys()};",
    )
    .await;
    let out: serde_json::Value = serde_json::from_str(&text(&ran.result)).unwrap();
    let errors = out["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(
        errors[0]
            .as_str()
            .unwrap()
            .starts_with("STORE_LIMIT: the value is 2002 bytes of JSON, over the store's bound on one value (store.max_value_bytes = 1000)"),
        "{out}"
    );
    assert!(
        errors[1].as_str().unwrap().contains("store.max_keys = 3"),
        "{out}"
    );
    assert_eq!(out["a"], json!(900));
    assert_eq!(out["keys"], json!(["a", "b", "c"]));
}

#[tokio::test]
async fn values_cross_losslessly_or_the_call_fails_with_invalid_args() {
    let registry = registry(PresentationMode::Code, 4);
    let session = CodeMode::of(&registry).unwrap().session_store();
    let ran = run(
        &registry,
        Some(&session),
        "const codes = [];\n\
         const cycle = {}; cycle.self = cycle;\n\
         for (const args of [['z', -0], ['d', new Date(0)], ['c', cycle], ['u', undefined], [1, 1], ['only']]) {\n\
           try { await store.set(...args); codes.push('stored'); } catch (e) { codes.push(e.code + ' ' + e.message); }\n\
         }\n\
         await store.set('big', 2 ** 53 - 1);\n\
         return {codes, keys: await store.keys(), big: await store.get('big')};",
    )
    .await;
    let out: serde_json::Value = serde_json::from_str(&text(&ran.result)).unwrap();
    let codes: Vec<&str> = out["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 6, "{out}");
    for code in &codes {
        assert!(code.starts_with("INVALID_ARGS "), "{code}");
    }
    assert!(codes[0].contains("-0 is not JSON"), "{}", codes[0]);
    assert!(codes[1].contains("Date"), "{}", codes[1]);
    assert!(
        codes[4].contains("the key must be a string"),
        "{}",
        codes[4]
    );
    assert!(
        codes[5].contains("store.set takes two arguments (key, value), 1 given"),
        "{}",
        codes[5]
    );
    assert_eq!(out["keys"], json!(["big"]));
    assert_eq!(out["big"], json!(9_007_199_254_740_991u64));
}

#[tokio::test]
async fn writes_of_a_failed_or_cancelled_run_are_kept() {
    let registry = registry(PresentationMode::Code, 4);
    let session = CodeMode::of(&registry).unwrap().session_store();
    let failed = run(
        &registry,
        Some(&session),
        "await store.set('before', 1); throw new Error('boom');",
    )
    .await;
    assert!(failed.result.is_error());
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel();
    });
    let code = CodeMode::of(&registry).unwrap();
    let cancelled = code
        .run_program(
            &registry.global(),
            Program::new(
                "await store.set('cancelled', 2); await new Promise(r => setTimeout(r, 60000));",
                "waits",
            )
            .with_session(session.clone())
            .with_signal(signal),
            None,
        )
        .await
        .unwrap();
    assert!(cancelled.result.is_error());
    assert_eq!(session.keys(), ["before", "cancelled"]);
}

#[tokio::test]
async fn an_operation_the_store_does_not_have_refuses_the_run_before_it_starts() {
    let registry = registry(PresentationMode::Code, 4);
    let session = CodeMode::of(&registry).unwrap().session_store();
    let ran = run(
        &registry,
        Some(&session),
        "await store.set('k', 1);\nawait store.sett('k', 2);",
    )
    .await;
    assert_eq!(
        ran.result.failure_info().map(|f| f.code),
        Some(ErrorCode::UnknownTool)
    );
    assert_eq!(
        text(&ran.result),
        "code run refused before it started (no tool was called): the program calls an operation `store` does not have:\n- store.sett (line 2, column 13): did you mean set?"
    );
    assert!(session.is_empty(), "nothing ran");
}

#[tokio::test]
async fn store_operations_are_journal_events_in_the_programs_order() {
    let registry = registry(PresentationMode::Code, 4);
    let sink = MemoryJournal::new();
    registry.set_journal(Some(Arc::new(sink.clone())));
    let session = CodeMode::of(&registry).unwrap().session_store();
    run(
        &registry,
        Some(&session),
        "await store.set('k', [1, 2]);\nawait store.get('k');\nawait store.get('none');\n\
         try { await store.set('k'); } catch {}\nawait store.delete('k');\nawait store.keys();",
    )
    .await;
    let ops: Vec<String> = sink
        .events()
        .into_iter()
        .filter_map(|event| match event {
            JournalEvent::StoreOperation {
                operation_id,
                operation,
                key,
                bytes,
                error,
                ..
            } => Some(format!(
                "{operation_id} {operation} {key:?} {bytes:?} {:?}",
                error.map(|e| e.code)
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        ops,
        [
            r#"run:store:1 set Some("k") Some(5) None"#,
            r#"run:store:2 get Some("k") Some(5) None"#,
            r#"run:store:3 get Some("none") None None"#,
            r#"run:store:4 set Some("k") None Some(InvalidArgs)"#,
            r#"run:store:5 delete Some("k") None None"#,
            "run:store:6 keys None None None",
        ]
    );
}

/// A journal sink that takes `ms` per event.
struct SlowJournal {
    events: Arc<parking_lot::Mutex<Vec<JournalEvent>>>,
    ms: u64,
}

impl codemode::journal::JournalSink for SlowJournal {
    fn append(&self, event: JournalEvent) -> futures::future::BoxFuture<'static, ()> {
        let (events, ms) = (self.events.clone(), self.ms);
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            events.lock().push(event);
        })
    }
}

#[tokio::test]
async fn a_slow_journal_holds_store_operations_back_instead_of_queueing_their_events_without_bound()
{
    let registry = registry(PresentationMode::Code, 4);
    let events = Arc::new(parking_lot::Mutex::new(Vec::new()));
    registry.set_journal(Some(Arc::new(SlowJournal {
        events: events.clone(),
        ms: 2,
    })));
    let session = CodeMode::of(&registry).unwrap().session_store();
    let ran = run(
        &registry,
        Some(&session),
        "await store.set('k', 1);\nconst started = Date.now();\n\
         for (let i = 0; i < 2000; i++) await store.get('k');\nreturn Date.now() - started;",
    )
    .await;
    // Past 1,024 waiting events each operation waits for the sink (2 ms an event): about
    // 2 s for the last ~1,000, where the operations alone take a fraction of that.
    let waited: u64 = text(&ran.result).parse().unwrap();
    assert!(waited >= 1_000, "the program waited {waited} ms");
    let ids: Vec<String> = events
        .lock()
        .iter()
        .filter_map(|event| match event {
            JournalEvent::StoreOperation { operation_id, .. } => Some(operation_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        ids.len(),
        2001,
        "every operation logged before run_code returned"
    );
    assert!(
        ids.iter()
            .enumerate()
            .all(|(i, id)| *id == format!("run:store:{}", i + 1)),
        "in the program's order"
    );
}
