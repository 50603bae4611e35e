//! The hostile programs against a session's store (`fixtures/hostile-store/`): each runs
//! through Code Mode with a session store of small bounds (TypeScript on the JavaScript
//! engine, Python on the Python runtime), must end the way its header says, and must leave
//! the store consistent: every key reads back, the bytes add up, the bounds hold, and the
//! number of keys is one its header allows.

use std::sync::Arc;

use codemode::code::{
    CodeMode, CodeModeConfig, PresentationMode, Program, SessionStore, StoreLimits,
};
use codemode::registry::Registry;
use codemode::runtime::{CodeRuntime, Language};

use crate::runtime::hostile::{Fixture, load_fixtures, verdict};

const DEPTH: usize = 5_000;

fn limits() -> StoreLimits {
    StoreLimits::default()
        .with_max_bytes(1 << 20)
        .with_max_value_bytes(256 << 10)
        .with_max_keys(100)
}

fn registry() -> Registry {
    let registry = Registry::new();
    let js: Arc<dyn CodeRuntime> = super::ENGINE.clone();
    let python: Arc<dyn CodeRuntime> = crate::python::ENGINE.clone();
    let code = CodeMode::install(
        &registry,
        CodeModeConfig::default()
            .with_mode(PresentationMode::Code)
            .with_store_limits(limits()),
    )
    .expect("Code Mode installs");
    code.set_runtime(js).expect("the JavaScript runtime");
    code.add_runtime(python).expect("the Python runtime");
    registry
}

/// What is wrong with `store` after `fixture` ran, if anything.
fn inconsistency(fixture: &Fixture, store: &SessionStore) -> Option<String> {
    let keys = store.keys();
    let mut bytes = 0;
    for key in &keys {
        match store.get(key, DEPTH) {
            Ok(Some(value)) => bytes += key.len() + codemode::json::to_text(&value).len(),
            other => return Some(format!("{}: key {key:?} reads as {other:?}", fixture.name)),
        }
    }
    let limits = store.limits();
    if bytes != store.bytes() || bytes > limits.max_bytes || keys.len() > limits.max_keys {
        return Some(format!(
            "{}: {} keys of {bytes} bytes, the store counts {}",
            fixture.name,
            keys.len(),
            store.bytes()
        ));
    }
    let allowed = header(fixture, "keys")?;
    let count = keys.len().to_string();
    (!allowed.split('|').any(|n| n.trim() == count))
        .then(|| format!("{}: {count} keys, expected {allowed}", fixture.name))
}

fn header(fixture: &Fixture, key: &str) -> Option<String> {
    let comment = if fixture.name.ends_with(".py") {
        "#"
    } else {
        "//"
    };
    fixture
        .program
        .lines()
        .take_while(|line| line.starts_with(comment))
        .find_map(|line| line.strip_prefix(&format!("{comment} {key}: ")))
        .map(|rest| rest.trim().to_owned())
}

#[tokio::test]
async fn hostile_programs_against_the_store_end_as_declared_and_leave_it_consistent() {
    let _cpu = crate::runtime::CPU.lock().await;
    let registry = registry();
    let code = CodeMode::of(&registry).unwrap();
    let mut fixtures = load_fixtures("hostile-store", "ts", "//");
    fixtures.extend(load_fixtures("hostile-store", "py", "#"));
    assert!(fixtures.len() >= 12, "{} programs", fixtures.len());
    let mut failures = Vec::new();
    for fixture in &fixtures {
        let store = code.session_store();
        let language = if fixture.name.ends_with(".py") {
            Language::Python
        } else {
            Language::TypeScript
        };
        let program = Program::new(fixture.program.clone(), fixture.name.clone())
            .with_language(language)
            .with_session(store.clone());
        let ran = code
            .run_program(&registry.global(), program, None)
            .await
            .expect("the run is set up");
        match &ran.outcome {
            Some(outcome) => failures.extend(verdict(fixture, outcome).err()),
            None => failures.push(format!(
                "{}: refused before it ran: {}",
                fixture.name,
                ran.result.model_text()
            )),
        }
        failures.extend(inconsistency(fixture, &store));
    }
    assert!(
        failures.is_empty(),
        "{} programs misbehaved:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
