//! The dispatch stages: bodies, around-dispatch wrappers and signals, cancellation,
//! timeouts, journal events, and hostile input.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::journal::{JournalEvent, MemoryJournal};
use codemode::registry::{Registry, RegistryConfig};
use codemode::tool::{PreToolDecision, Signal, ToolDefinition, ToolExecutionInput, ToolOutput};
use codemode::{ContentBlock, ErrorCode, MessageSource, UserMessage};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::{code, echo, run, sleeper, text};

fn quick_registry() -> Registry {
    Registry::with_config(RegistryConfig::default().with_cancel_grace(Duration::from_millis(200)))
}

#[tokio::test]
async fn tokens_are_unique_and_nested_calls_carry_their_parent() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    let seen = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let log = seen.clone();
    registry
        .global()
        .on_result(move |exec, _| {
            log.lock()
                .push((exec.token, exec.parent, exec.root_call_id.clone()))
        })
        .keep();
    run(&registry, "t", json!({})).await;
    let outer = seen.lock()[0].0;
    registry
        .execute(ToolExecutionInput::new("root:code:0", "t", json!({})).nested_in(outer, "root"))
        .await;
    let log = seen.lock();
    assert_ne!(log[0].0, log[1].0);
    assert_eq!(log[0].1, None);
    assert_eq!(log[1].1, Some(outer));
    assert_eq!(log[1].2, "root");
}

#[tokio::test]
async fn bodies_fail_inside_their_own_error_boundary() {
    let registry = Registry::new();
    let panicking = ToolDefinition::builder("panics")
        .output(ToolOutput::any())
        .execute(|_, _| async { panic!("the body exploded") })
        .build()
        .unwrap();
    let unsafe_number = ToolDefinition::builder("big")
        .output(ToolOutput::any())
        .execute(|_, _| async { Ok(json!(9007199254740993u64)) })
        .build()
        .unwrap();
    let wrong_type = ToolDefinition::builder("wrong")
        .output(ToolOutput::json(
            codemode::schema::JsonSchema::parse(&json!({"type": "string"})).unwrap(),
        ))
        .execute(|_, _| async { Ok(json!(5)) })
        .build()
        .unwrap();
    let bad_render = ToolDefinition::builder("render")
        .output(ToolOutput::new(
            codemode::schema::JsonSchema::any(),
            |_, _| panic!("render bug"),
        ))
        .execute(|_, _| async { Ok(json!(1)) })
        .build()
        .unwrap();
    for tool in [panicking, unsafe_number, wrong_type, bad_render] {
        registry.global().register(tool).unwrap().keep();
    }
    let result = run(&registry, "panics", json!({})).await;
    assert_eq!(
        (code(&result), result.model_text()),
        (
            Some("TOOL_FAILED"),
            "Error: the tool `panics` panicked: the body exploded".into()
        )
    );
    let result = run(&registry, "big", json!({})).await;
    assert_eq!(code(&result), Some("INVALID_TOOL_OUTPUT"));
    assert!(
        result.model_text().contains("9007199254740993"),
        "{}",
        result.model_text()
    );
    let result = run(&registry, "wrong", json!({})).await;
    assert_eq!(
        result.model_text(),
        "Error: invalid tool output:\n- $: expected string, got integer"
    );
    assert_eq!(
        code(&*run(&registry, "render", json!({})).await),
        Some("TOOL_FAILED")
    );
    // The registry keeps working.
    registry.global().register(echo("after")).unwrap().keep();
    assert_eq!(
        run(&registry, "after", json!({"value": 2})).await.value(),
        Some(&json!(2))
    );
}

#[tokio::test]
async fn hostile_arguments_are_refused_or_handled() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    // Deeper than the library's limit: refused, naming the limit. On a thread with room
    // for serde_json's own recursive drop of such a value (the library's walks do not
    // recurse).
    let deep_registry = registry.clone();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut deep = json!(1);
            for _ in 0..codemode::json::DEFAULT_MAX_DEPTH {
                deep = serde_json::Value::Array(vec![deep]);
            }
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let result = runtime.block_on(run(&deep_registry, "t", json!({"value": deep})));
            assert_eq!(code(&result), Some("INVALID_ARGS"));
            assert!(
                result.model_text().contains(&format!(
                    "nest deeper than {}",
                    codemode::json::DEFAULT_MAX_DEPTH
                )),
                "{}",
                result.model_text()
            );
        })
        .unwrap()
        .join()
        .unwrap();
    let result = run(&registry, "t", json!({"value": 18446744073709551615u64})).await;
    assert_eq!(code(&result), Some("INVALID_ARGS"));
    let huge = serde_json::Value::Array(vec![json!("x"); 200_000]);
    let result = run(&registry, "t", json!({"value": huge})).await;
    assert_eq!(
        result.value().and_then(|v| v.as_array()).map(Vec::len),
        Some(200_000)
    );
    let weird_name = run(&registry, "t\n\"; drop", json!({})).await;
    assert_eq!(weird_name.model_text(), "Error: unknown tool `t\n\"; drop`");
}

#[tokio::test]
async fn a_wrapper_may_substitute_the_signal_but_never_detach_the_callers() {
    let registry = quick_registry();
    let saw_wrapper_signal = Arc::new(AtomicBool::new(false));
    let flag = saw_wrapper_signal.clone();
    let tool = ToolDefinition::builder("watch")
        .output(ToolOutput::any())
        .execute(move |_, ctx| {
            let flag = flag.clone();
            async move {
                ctx.signal().cancelled().await;
                flag.store(true, Ordering::SeqCst);
                Err(codemode::Error::new(
                    ErrorCode::Aborted,
                    "stopped by signal",
                ))
            }
        })
        .build()
        .unwrap();
    registry.global().register(tool).unwrap().keep();
    // This wrapper tries to detach the caller: it substitutes a signal that never fires.
    registry
        .global()
        .on_execute(|dispatch, next| async move {
            next.run_with(dispatch.with_signal(Signal::never())).await
        })
        .keep();
    let caller = CancellationToken::new();
    let input = ToolExecutionInput::new("c", "watch", json!({})).with_signal(caller.clone());
    let handle = tokio::spawn({
        let registry = registry.clone();
        async move { registry.execute(input).await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    caller.cancel();
    let result = tokio::time::timeout(Duration::from_secs(5), handle)
        .await
        .unwrap()
        .unwrap();
    assert!(
        saw_wrapper_signal.load(Ordering::SeqCst),
        "the caller's cancel reached the body"
    );
    assert_eq!(
        result.model_text(),
        "Error: stopped by signal",
        "a more specific failure is kept"
    );

    // And a substituted signal does reach the body.
    let registry = quick_registry();
    registry
        .global()
        .register(sleeper("slow", 10_000, false))
        .unwrap()
        .keep();
    registry
        .global()
        .on_execute(|dispatch, next| async move {
            let own = CancellationToken::new();
            let fire = own.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(30)).await;
                fire.cancel();
            });
            next.run_with(dispatch.with_signal(dispatch.signal().fuse(&Signal::from(own))))
                .await
        })
        .keep();
    let started = Instant::now();
    let result = run(&registry, "slow", json!({})).await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(result.model_text(), "Error: stopped");
}

#[tokio::test]
async fn cancellation_before_the_body_is_aborted_before_dispatch() {
    let registry = quick_registry();
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    registry
        .global()
        .register(
            ToolDefinition::builder("t")
                .output(ToolOutput::any())
                .execute(move |_, _| {
                    counter.fetch_add(1, Ordering::SeqCst);
                    async { Ok(json!(1)) }
                })
                .build()
                .unwrap(),
        )
        .unwrap()
        .keep();
    let caller = CancellationToken::new();
    caller.cancel();
    let result = registry
        .execute(ToolExecutionInput::new("c", "t", json!({})).with_signal(caller))
        .await;
    assert_eq!(code(&result), Some("ABORTED_BEFORE_DISPATCH"));

    // Cancelled while a pre-execute gate is waiting: the gate observes the signal.
    let caller = CancellationToken::new();
    registry
        .global()
        .on_pre_execute(|exec, next| async move {
            exec.signal.cancelled().await;
            next.run().await
        })
        .keep();
    let input = ToolExecutionInput::new("c", "t", json!({})).with_signal(caller.clone());
    let pending = tokio::spawn({
        let registry = registry.clone();
        async move { registry.execute(input).await }
    });
    tokio::time::sleep(Duration::from_millis(30)).await;
    caller.cancel();
    let result = pending.await.unwrap();
    assert_eq!(code(&result), Some("ABORTED_BEFORE_DISPATCH"));
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn cancellation_after_a_successful_body_is_aborted() {
    let registry = quick_registry();
    registry.global().register(echo("t")).unwrap().keep();
    let caller = CancellationToken::new();
    let fire = caller.clone();
    // The cancel arrives while post-execute runs, after the body succeeded.
    registry
        .global()
        .on_post_execute(move |_, _, next| {
            fire.cancel();
            next.run()
        })
        .keep();
    let result = registry
        .execute(ToolExecutionInput::new("c", "t", json!({})).with_signal(caller))
        .await;
    assert_eq!(code(&result), Some("ABORTED"));
}

#[tokio::test]
async fn listeners_that_hang_until_cancelled_or_forever_are_bounded() {
    let registry = quick_registry();
    registry.global().register(echo("t")).unwrap().keep();
    registry
        .global()
        .on_pre_execute(|_, _| async {
            futures::future::pending::<Result<PreToolDecision, codemode::Error>>().await
        })
        .keep();
    let caller = CancellationToken::new();
    let input = ToolExecutionInput::new("c", "t", json!({})).with_signal(caller.clone());
    let pending = tokio::spawn({
        let registry = registry.clone();
        async move { registry.execute(input).await }
    });
    tokio::time::sleep(Duration::from_millis(30)).await;
    let cancelled_at = Instant::now();
    caller.cancel();
    let result = tokio::time::timeout(Duration::from_secs(5), pending)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(code(&result), Some("ABORTED_BEFORE_DISPATCH"));
    assert!(
        cancelled_at.elapsed() < Duration::from_secs(2),
        "abandoned after the grace period"
    );
}

#[tokio::test]
async fn panicking_listeners_become_error_results() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    let pre = registry
        .global()
        .on_pre_execute(|_, _| async { panic!("pre bug") });
    let result = run(&registry, "t", json!({})).await;
    assert_eq!(code(&result), Some("LISTENER_FAILED"));
    assert_eq!(
        result.model_text(),
        "Error: a tools/pre-execute listener panicked: pre bug"
    );
    pre.dispose();
    let around = registry
        .global()
        .on_execute(|_, _| async { panic!("wrapper bug") });
    assert_eq!(
        run(&registry, "t", json!({})).await.model_text(),
        "Error: a tools/execute wrapper panicked: wrapper bug"
    );
    around.dispose();
    registry
        .global()
        .on_post_execute(|_, _, _| async { panic!("post bug") })
        .keep();
    assert_eq!(
        run(&registry, "t", json!({})).await.model_text(),
        "Error: a tools/post-execute listener panicked: post bug"
    );
}

#[tokio::test]
async fn the_timeout_policy_fires_the_signal_waits_for_quiescence_and_reports_tool_timeout() {
    let registry = quick_registry();
    let cleaned_up = Arc::new(AtomicBool::new(false));
    let flag = cleaned_up.clone();
    let tool = ToolDefinition::builder("slow")
        .output(ToolOutput::any())
        .timeout_ms(50.0)
        .execute(move |_, ctx| {
            let flag = flag.clone();
            async move {
                ctx.signal().cancelled().await;
                // Cleanup that takes a moment: the policy waits for it.
                tokio::time::sleep(Duration::from_millis(30)).await;
                flag.store(true, Ordering::SeqCst);
                Err(codemode::Error::new(ErrorCode::Aborted, "interrupted"))
            }
        })
        .build()
        .unwrap();
    registry.global().register(tool).unwrap().keep();
    let started = Instant::now();
    let result = run(&registry, "slow", json!({})).await;
    assert_eq!(code(&result), Some("TOOL_TIMEOUT"));
    assert_eq!(
        result.model_text(),
        "Error: the tool `slow` timed out after 50 ms"
    );
    assert!(
        cleaned_up.load(Ordering::SeqCst),
        "the result came after the body reached quiescence"
    );
    assert!(started.elapsed() >= Duration::from_millis(80));

    // A body that ignores its signal is abandoned after the grace period.
    let stubborn = ToolDefinition::builder("stubborn")
        .output(ToolOutput::any())
        .timeout_ms(20.0)
        .execute(|_, _| async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok(json!(null))
        })
        .build()
        .unwrap();
    registry.global().register(stubborn).unwrap().keep();
    let started = Instant::now();
    let result = run(&registry, "stubborn", json!({})).await;
    assert_eq!(code(&result), Some("TOOL_TIMEOUT"));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    // Fast tools are untouched.
    let fast = ToolDefinition::builder("fast")
        .output(ToolOutput::any())
        .timeout_ms(1000.0)
        .execute(|_, _| async { Ok(json!("quick")) })
        .build()
        .unwrap();
    registry.global().register(fast).unwrap().keep();
    assert_eq!(
        run(&registry, "fast", json!({})).await.value(),
        Some(&json!("quick"))
    );
}

#[tokio::test]
async fn timeouts_are_not_enforced_when_the_policy_is_off() {
    let registry = Registry::with_config(RegistryConfig::default().with_enforce_timeouts(false));
    let tool = ToolDefinition::builder("slowish")
        .output(ToolOutput::any())
        .timeout_ms(10.0)
        .execute(|_, _| async {
            tokio::time::sleep(Duration::from_millis(60)).await;
            Ok(json!("finished"))
        })
        .build()
        .unwrap();
    registry.global().register(tool).unwrap().keep();
    assert_eq!(
        run(&registry, "slowish", json!({})).await.value(),
        Some(&json!("finished"))
    );
}

#[tokio::test]
async fn bodies_defer_contexts_and_conclude_turns() {
    let registry = Registry::new();
    let tool = ToolDefinition::builder("finish")
        .output(ToolOutput::any())
        .execute(|args, ctx| async move {
            ctx.defer_context(UserMessage::new(
                MessageSource::plugin("a"),
                vec![ContentBlock::text("first")],
            ));
            ctx.defer_context(UserMessage::new(
                MessageSource::plugin("b"),
                vec![ContentBlock::text("second")],
            ));
            ctx.conclude_turn();
            if args["fail"] == json!(true) {
                return Err(codemode::Error::new(ErrorCode::ToolFailed, "nope"));
            }
            Ok(json!("bye"))
        })
        .build()
        .unwrap();
    registry.global().register(tool).unwrap().keep();
    let result = run(&registry, "finish", json!({})).await;
    assert!(result.concludes_turn());
    let sources: Vec<String> = result
        .additional_contexts
        .iter()
        .map(|c| c.source.to_string())
        .collect();
    assert_eq!(sources, ["plugin a", "plugin b"]);
    let failed = run(&registry, "finish", json!({"fail": true})).await;
    assert!(
        !failed.concludes_turn(),
        "only a success concludes the turn"
    );
    assert_eq!(failed.additional_contexts.len(), 2);
}

#[tokio::test]
async fn presentation_meta_is_computed_for_top_level_calls_only() {
    let registry = Registry::new();
    let tool = ToolDefinition::builder("m")
        .output(ToolOutput::any().with_presentation_meta(|args, _| json!({"arg": args["x"]})))
        .execute(|_, _| async { Ok(json!(1)) })
        .build()
        .unwrap();
    registry.global().register(tool).unwrap().keep();
    let top = run(&registry, "m", json!({"x": 5})).await;
    assert_eq!(top.meta, Some(json!({"arg": 5})));
    let token = Arc::new(parking_lot::Mutex::new(None));
    let keep = token.clone();
    registry
        .global()
        .on_result(move |exec, _| *keep.lock() = Some(exec.token))
        .keep();
    run(&registry, "m", json!({})).await;
    let parent = token.lock().unwrap();
    let nested = registry
        .execute(ToolExecutionInput::new("p:code:0", "m", json!({"x": 5})).nested_in(parent, "p"))
        .await;
    assert_eq!(nested.meta, None);
}

#[tokio::test]
async fn session_events_log_top_level_calls_with_identical_arguments_and_no_value() {
    let registry = Registry::new();
    let sink = MemoryJournal::new();
    registry.set_journal(Some(Arc::new(sink.clone())));
    registry.global().register(echo("t")).unwrap().keep();
    let received = Arc::new(parking_lot::Mutex::new(None));
    let keep = received.clone();
    registry
        .global()
        .on_result(move |exec, _| *keep.lock() = Some(exec.arguments.clone()))
        .keep();
    let args = json!({"value": {"z": 1, "a": [1.5, "x", null]}, "b": true});
    let result = registry
        .execute(ToolExecutionInput::new("call-9", "t", args.clone()))
        .await;
    let events = sink.events();
    assert_eq!(events.len(), 2);
    let JournalEvent::ToolCall {
        arguments, call_id, ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(call_id, "call-9");
    let received = received.lock().clone().unwrap();
    assert_eq!(
        serde_json::to_string(arguments).unwrap(),
        serde_json::to_string(&*received).unwrap()
    );
    assert_eq!(
        serde_json::to_string(arguments).unwrap(),
        serde_json::to_string(&args).unwrap()
    );
    let logged = serde_json::to_value(&events[1]).unwrap();
    assert_eq!(
        logged,
        json!({"type": "tool/result", "callId": "call-9", "name": "t", "content": [{"type": "text", "text": text(&result)}], "isError": false})
    );
    assert!(logged.get("value").is_none());
    // Nested calls are logged by the run_code bridge, not here.
    let token = sink.events().len();
    registry
        .execute(
            ToolExecutionInput::new("p:code:0", "t", json!({}))
                .nested_in(codemode_token(&registry).await, "p"),
        )
        .await;
    assert_eq!(
        sink.events().len(),
        token + 2,
        "only the helper's top-level call was logged"
    );
}

async fn codemode_token(registry: &Registry) -> codemode::tool::ExecutionToken {
    let token = Arc::new(parking_lot::Mutex::new(None));
    let keep = token.clone();
    let observer = registry
        .global()
        .on_result(move |exec, _| *keep.lock() = Some(exec.token));
    registry
        .execute(ToolExecutionInput::new("helper", "t", json!({})))
        .await;
    observer.dispose();
    let value = *token.lock();
    value.expect("the observer saw the call")
}

#[tokio::test]
async fn arguments_that_are_not_lossless_json_are_invalid_args() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    let result = run(&registry, "t", json!({"value": -9007199254740993i64})).await;
    assert_eq!(code(&result), Some("INVALID_ARGS"));
    assert!(
        result
            .model_text()
            .starts_with("Error: invalid arguments: not lossless JSON: $.value"),
        "{}",
        result.model_text()
    );
}

#[tokio::test]
async fn arguments_that_are_not_lossless_json_fail_as_arguments_even_when_already_cancelled() {
    let registry = quick_registry();
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    registry
        .global()
        .on_pre_execute(move |_, next| {
            counter.fetch_add(1, Ordering::SeqCst);
            async move { next.run().await }
        })
        .keep();
    registry.global().register(echo("t")).unwrap().keep();
    let cancelled = || {
        let caller = CancellationToken::new();
        caller.cancel();
        caller
    };
    let unsafe_args = json!({"value": -9007199254740993i64});
    // Materializing the arguments comes before the cancellation check, for a visible tool
    // and for a name nothing answers to.
    for (id, name) in [("c1", "t"), ("c2", "missing")] {
        let result = registry
            .execute(
                ToolExecutionInput::new(id, name, unsafe_args.clone()).with_signal(cancelled()),
            )
            .await;
        assert_eq!(code(&result), Some("INVALID_ARGS"), "{name}");
        assert!(
            result
                .model_text()
                .starts_with("Error: invalid arguments: not lossless JSON: $.value"),
            "{name}: {}",
            result.model_text()
        );
    }
    // With lossless arguments the cancellation check still comes before visibility.
    for (id, name) in [("c3", "t"), ("c4", "missing")] {
        let result = registry
            .execute(
                ToolExecutionInput::new(id, name, json!({"value": 1})).with_signal(cancelled()),
            )
            .await;
        assert_eq!(code(&result), Some("ABORTED_BEFORE_DISPATCH"), "{name}");
    }
    // Not cancelled, a name nothing answers to with unsafe arguments: still the arguments.
    let result = run(&registry, "missing", unsafe_args).await;
    assert_eq!(code(&result), Some("INVALID_ARGS"));
    assert_eq!(calls.load(Ordering::SeqCst), 0, "no policy stage ran");
}
