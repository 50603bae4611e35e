//! A session's store from Python programs: the same operations, values and errors as in
//! TypeScript (`None` for an absent key), kept between the runs of one session.

use codemode::code::{CodeMode, Program, SessionStore, StoreLimits};
use codemode::registry::Registry;

use super::code_mode_registry as registry;

async fn run(registry: &Registry, store: Option<&SessionStore>, code: &str) -> String {
    let mut program = Program::new(code, "a Python store test");
    if let Some(store) = store {
        program = program.with_session(store.clone());
    }
    let ran = CodeMode::of(registry)
        .unwrap()
        .run_program(&registry.global(), program, None)
        .await
        .expect("the run is set up");
    ran.result.model_text()
}

#[tokio::test]
async fn python_programs_of_one_session_share_its_store() {
    let _cpu = crate::runtime::CPU.lock().await;
    let registry = registry();
    let session = SessionStore::new(StoreLimits::default().with_max_keys(2));
    let first = run(
        &registry,
        Some(&session),
        "await store.set('issues', [{'id': 1}, {'id': 2}])\n\
         await store.set('n', 2)\n\
         try:\n    await store.set('third', 3)\nexcept StoreError as e:\n    print(e.code, e.operation)\n\
         return await store.keys()",
    )
    .await;
    assert_eq!(first, "STORE_LIMIT set\n[\n  \"issues\",\n  \"n\"\n]");
    let second = run(
        &registry,
        Some(&session),
        "issues = await store.get('issues')\n\
         gone = await store.get('nothing')\n\
         deleted = [await store.delete('n'), await store.delete('n')]\n\
         return [len(issues), gone is None, deleted, await store.keys()]",
    )
    .await;
    assert_eq!(
        second.split_whitespace().collect::<String>(),
        r#"[2,true,[true,false],["issues"]]"#
    );
    let other = SessionStore::new(StoreLimits::default());
    let elsewhere = run(
        &registry,
        Some(&other),
        "return await store.get('issues') is None",
    )
    .await;
    assert_eq!(elsewhere, "true");
    let none = run(
        &registry,
        None,
        "try:\n    await store.keys()\nexcept StoreError as e:\n    return [e.code, str(e)]",
    )
    .await;
    assert!(
        none.contains("NO_SESSION") && none.contains("this run has no session"),
        "{none}"
    );
    let bad = run(
        &registry,
        Some(&session),
        "try:\n    await store.set('x', float('nan'))\nexcept StoreError as e:\n    return e.code\nreturn 'stored'",
    )
    .await;
    assert_eq!(bad, "INVALID_ARGS");
}
