//! Pre-execute (allow / deny / ask), guards, post-execute, finalize_content, observers,
//! execution modes.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use codemode::code::{PresentationMode, ScopePresentation};
use codemode::registry::{ApprovalService, ExecutionMode, Registry};
use codemode::tool::{
    ApprovalAnswer, PostToolDecision, PreToolDecision, Replacement, ToolDefinition, ToolExecution,
    ToolExecutionInput, ToolOutput,
};
use codemode::{ContentBlock, ErrorCode, MessageSource, UserMessage};
use futures::future::BoxFuture;
use parking_lot::Mutex;
use serde_json::json;

use super::{call, code, echo, run, text};

fn counting_tool(name: &str, calls: Arc<AtomicUsize>) -> ToolDefinition {
    ToolDefinition::builder(name)
        .output(ToolOutput::any())
        .execute(move |_, _| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Ok(json!("ran")) }
        })
        .build()
        .unwrap()
}

#[tokio::test]
async fn pre_execute_is_a_waterfall_with_allow_as_default() {
    let registry = Registry::new();
    let calls = Arc::new(AtomicUsize::new(0));
    registry
        .global()
        .register(counting_tool("t", calls.clone()))
        .unwrap()
        .keep();
    let order = Arc::new(Mutex::new(Vec::new()));
    let seen = order.clone();
    registry
        .global()
        .on_pre_execute(move |_, next| {
            let seen = seen.clone();
            async move {
                seen.lock().push("first:before");
                let decision = next.run().await;
                seen.lock().push("first:after");
                decision
            }
        })
        .keep();
    let seen = order.clone();
    registry
        .global()
        .on_pre_execute(move |exec, next| {
            let seen = seen.clone();
            async move {
                seen.lock().push("second");
                if exec.arguments["deny"] == json!(true) {
                    Ok(PreToolDecision::Deny {
                        reason: "not today".into(),
                    })
                } else {
                    next.run().await
                }
            }
        })
        .keep();

    let ok = run(&registry, "t", json!({})).await;
    assert_eq!(ok.value(), Some(&json!("ran")));
    assert_eq!(*order.lock(), ["first:before", "second", "first:after"]);

    let denied = run(&registry, "t", json!({"deny": true})).await;
    assert_eq!(code(&denied), Some("TOOL_DENIED"));
    assert_eq!(
        denied.model_text(),
        "Error: the call to `t` was denied: not today"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1, "a denied body never runs");
}

struct Approver(ApprovalAnswer, Arc<Mutex<Vec<Option<String>>>>);

impl ApprovalService for Approver {
    fn request(
        &self,
        _: Arc<ToolExecution>,
        reason: Option<String>,
    ) -> BoxFuture<'static, ApprovalAnswer> {
        self.1.lock().push(reason);
        let answer = self.0.clone();
        Box::pin(async move { answer })
    }
}

#[tokio::test]
async fn ask_proceeds_only_on_allowed_once() {
    let registry = Registry::new();
    let calls = Arc::new(AtomicUsize::new(0));
    registry
        .global()
        .register(counting_tool("t", calls.clone()))
        .unwrap()
        .keep();
    registry
        .global()
        .on_pre_execute(|_, _| async {
            Ok(PreToolDecision::Ask {
                reason: Some("writes files".into()),
            })
        })
        .keep();
    let agent = registry.global().create_scope("agent").unwrap();
    let input = || ToolExecutionInput::new("c", "t", json!({})).for_agent(agent.id());

    // No service: denied.
    let result = registry.execute(input()).await;
    assert_eq!(code(&result), Some("APPROVAL_DENIED"));
    assert!(
        result.model_text().contains("no approval service"),
        "{}",
        result.model_text()
    );

    let asked = Arc::new(Mutex::new(Vec::new()));
    for (answer, expected) in [
        (ApprovalAnswer::Rejected, "rejected by the approver"),
        (ApprovalAnswer::Cancelled, "was cancelled"),
        (ApprovalAnswer::Unavailable, "approver is unavailable"),
    ] {
        registry.set_approval_service(Some(Arc::new(Approver(answer, asked.clone()))));
        let result = registry.execute(input()).await;
        assert_eq!(code(&result), Some("APPROVAL_DENIED"));
        assert!(
            result.model_text().contains(expected),
            "{}",
            result.model_text()
        );
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    registry.set_approval_service(Some(Arc::new(Approver(
        ApprovalAnswer::AllowedOnce,
        asked.clone(),
    ))));
    assert_eq!(registry.execute(input()).await.value(), Some(&json!("ran")));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        asked.lock().last().cloned().flatten().as_deref(),
        Some("writes files")
    );

    // A call for no agent cannot be asked about, even with a service.
    let result = run(&registry, "t", json!({})).await;
    assert_eq!(code(&result), Some("APPROVAL_DENIED"));
    assert!(
        result.model_text().contains("no agent"),
        "{}",
        result.model_text()
    );
}

/// A service that never has anyone to ask: it answers `Unavailable` and says how to allow
/// the tool instead.
struct Nobody;

impl ApprovalService for Nobody {
    fn request(
        &self,
        _: Arc<ToolExecution>,
        _: Option<String>,
    ) -> BoxFuture<'static, ApprovalAnswer> {
        Box::pin(async { ApprovalAnswer::Unavailable })
    }

    fn unavailable(&self, execution: &ToolExecution) -> Option<String> {
        Some(format!(
            "nobody is here: allow `{}` in the host",
            execution.name
        ))
    }
}

#[tokio::test]
async fn an_unavailable_approver_can_say_how_to_proceed_instead() {
    let registry = Registry::new();
    let calls = Arc::new(AtomicUsize::new(0));
    registry
        .global()
        .register(counting_tool("t", calls.clone()))
        .unwrap()
        .keep();
    registry
        .global()
        .on_pre_execute(|_, _| async {
            Ok(PreToolDecision::Ask {
                reason: Some("writes files".into()),
            })
        })
        .keep();
    registry.set_approval_service(Some(Arc::new(Nobody)));
    let agent = registry.global().create_scope("agent").unwrap();
    let result = registry
        .execute(ToolExecutionInput::new("c", "t", json!({})).for_agent(agent.id()))
        .await;
    assert_eq!(code(&result), Some("APPROVAL_DENIED"));
    assert_eq!(
        result.model_text(),
        "Error: the call to `t` needs approval (writes files), but nobody is here: allow `t` in the host"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn guards_deny_monotonically_and_scoped_guards_stay_in_their_scope() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    // A pre-execute listener that allows explicitly cannot override a guard.
    registry
        .global()
        .on_pre_execute(|_, _| async { Ok(PreToolDecision::Allow) })
        .keep();
    let agent = registry.global().create_scope("agent").unwrap();
    let child = agent.create_scope("child").unwrap();
    let other = registry.global().create_scope("other").unwrap();
    agent
        .guard(|exec| {
            (exec.arguments["value"] == json!("secret")).then(|| "secrets stay home".to_owned())
        })
        .keep();

    let for_scope =
        |scope| ToolExecutionInput::new("c", "t", json!({"value": "secret"})).for_agent(scope);
    let denied = registry.execute(for_scope(agent.id())).await;
    assert_eq!(code(&denied), Some("GUARD_DENIED"));
    assert_eq!(
        denied.model_text(),
        "Error: the call to `t` was denied by a guard: secrets stay home"
    );
    assert_eq!(
        code(&*registry.execute(for_scope(child.id())).await),
        Some("GUARD_DENIED")
    );
    assert_eq!(
        registry.execute(for_scope(other.id())).await.value(),
        Some(&json!("secret"))
    );

    let global = registry.global().guard(|_| Some("maintenance".into()));
    assert_eq!(
        code(&*registry.execute(for_scope(other.id())).await),
        Some("GUARD_DENIED")
    );
    global.dispose();
    registry.global().guard(|_| panic!("guard bug")).keep();
    let failed = registry.execute(for_scope(other.id())).await;
    assert_eq!(code(&failed), Some("LISTENER_FAILED"));
    assert!(
        failed.model_text().contains("a guard failed"),
        "{}",
        failed.model_text()
    );
}

#[tokio::test]
async fn scoped_listeners_only_see_their_scopes_calls() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    let agent = registry.global().create_scope("agent").unwrap();
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    agent
        .on_pre_execute(move |_, next| {
            counter.fetch_add(1, Ordering::SeqCst);
            next.run()
        })
        .keep();
    run(&registry, "t", json!({})).await;
    assert_eq!(seen.load(Ordering::SeqCst), 0);
    registry
        .execute(ToolExecutionInput::new("c", "t", json!({})).for_agent(agent.id()))
        .await;
    assert_eq!(seen.load(Ordering::SeqCst), 1);
}

fn number_tool() -> ToolDefinition {
    ToolDefinition::builder("num")
        .output(
            ToolOutput::new(
                codemode::schema::JsonSchema::parse(&json!({"type": "integer"})).unwrap(),
                |_, v| vec![ContentBlock::text(format!("n={v}"))],
            )
            .with_presentation_meta(|_, v| json!({"shown": v})),
        )
        .execute(|_, _| async { Ok(json!(1)) })
        .build()
        .unwrap()
}

#[tokio::test]
async fn post_execute_replaces_content_or_value_or_blocks() {
    let registry = Registry::new();
    registry.global().register(number_tool()).unwrap().keep();
    let plain = run(&registry, "num", json!({})).await;
    assert_eq!(
        (text(&plain), plain.meta.clone()),
        ("n=1".into(), Some(json!({"shown": 1})))
    );

    let choice = Arc::new(Mutex::new(PostToolDecision::accept()));
    let current = choice.clone();
    registry
        .global()
        .on_post_execute(move |_, _, _| {
            let decision = current.lock().clone();
            async move { Ok(decision) }
        })
        .keep();
    let context = UserMessage::new(MessageSource::plugin("p"), vec![ContentBlock::text("note")]);

    *choice.lock() = PostToolDecision::Accept {
        replace: Some(Replacement::Content(vec![ContentBlock::text("pretty")])),
        additional_contexts: vec![context.clone()],
    };
    let result = run(&registry, "num", json!({})).await;
    assert_eq!(text(&result), "pretty");
    assert_eq!(
        result.value(),
        Some(&json!(1)),
        "content replacement keeps the value"
    );
    assert_eq!(result.meta, Some(json!({"shown": 1})), "and the meta");
    assert_eq!(result.additional_contexts, vec![context.clone()]);

    *choice.lock() = PostToolDecision::Accept {
        replace: Some(Replacement::Value(json!(7))),
        additional_contexts: vec![],
    };
    let result = run(&registry, "num", json!({})).await;
    assert_eq!(
        (result.value(), text(&result), result.meta.clone()),
        (Some(&json!(7)), "n=7".into(), Some(json!({"shown": 7})))
    );

    *choice.lock() = PostToolDecision::Accept {
        replace: Some(Replacement::Value(json!("seven"))),
        additional_contexts: vec![],
    };
    let result = run(&registry, "num", json!({})).await;
    assert_eq!(
        code(&result),
        Some("INVALID_TOOL_OUTPUT"),
        "a replaced value is validated again"
    );

    *choice.lock() = PostToolDecision::Block {
        feedback: vec![ContentBlock::text("use a smaller number")],
        additional_contexts: vec![context.clone()],
    };
    let result = run(&registry, "num", json!({})).await;
    assert_eq!(code(&result), Some("RESULT_BLOCKED"));
    assert_eq!(result.value(), None, "a block removes the value");
    assert_eq!(text(&result), "use a smaller number");
    assert_eq!(result.additional_contexts, vec![context]);

    *choice.lock() = PostToolDecision::Accept {
        replace: Some(Replacement::Content(vec![ContentBlock::image(
            "%%%",
            "image/png",
        )])),
        additional_contexts: vec![],
    };
    assert_eq!(
        code(&*run(&registry, "num", json!({})).await),
        Some("LISTENER_FAILED")
    );
}

#[tokio::test]
async fn failures_reach_post_execute_but_denials_bypass_it() {
    let registry = Registry::new();
    let failing = ToolDefinition::builder("fail")
        .output(ToolOutput::any())
        .execute(|_, _| async { Err(codemode::Error::new(ErrorCode::ToolFailed, "disk on fire")) })
        .build()
        .unwrap();
    registry.global().register(failing).unwrap().keep();
    registry.global().register(echo("denied")).unwrap().keep();
    registry
        .global()
        .guard(|exec| (exec.name == "denied").then(|| "no".into()))
        .keep();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    registry
        .global()
        .on_post_execute(move |exec, result, next| {
            log.lock().push((exec.name.clone(), result.is_error()));
            next.run()
        })
        .keep();
    let result = run(&registry, "fail", json!({})).await;
    assert_eq!(result.model_text(), "Error: disk on fire");
    run(&registry, "denied", json!({})).await;
    assert_eq!(*seen.lock(), [("fail".to_owned(), true)]);
}

#[tokio::test]
async fn finalize_content_runs_exactly_once_for_every_outcome() {
    let registry = Registry::new();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let log = calls.clone();
    let tool = ToolDefinition::builder("f")
        .parameters(json!({"type": "object"}))
        .output(ToolOutput::any())
        .execute(|args, _| async move {
            match args["mode"].as_str() {
                Some("fail") => Err(codemode::Error::new(ErrorCode::ToolFailed, "failed")),
                _ => Ok(json!("ok")),
            }
        })
        .finalize_content(move |exec, result| {
            log.lock()
                .push(format!("{}:{}", exec.call_id, result.is_error()));
            Some(vec![ContentBlock::text(format!(
                "final:{}",
                result.is_error()
            ))])
        })
        .build()
        .unwrap();
    registry.global().register(tool).unwrap().keep();
    registry
        .global()
        .guard(|exec| (exec.arguments["mode"] == json!("deny")).then(|| "no".into()))
        .keep();

    let ok = registry
        .execute(ToolExecutionInput::new("ok", "f", json!({})))
        .await;
    let failed = registry
        .execute(ToolExecutionInput::new(
            "failed",
            "f",
            json!({"mode": "fail"}),
        ))
        .await;
    let denied = registry
        .execute(ToolExecutionInput::new(
            "denied",
            "f",
            json!({"mode": "deny"}),
        ))
        .await;
    let bad = registry
        .execute(ToolExecutionInput::new(
            "bad",
            "f",
            json!({"n": 9007199254740993u64}),
        ))
        .await;
    assert_eq!(
        (text(&ok), text(&failed), text(&denied)),
        (
            "final:false".into(),
            "final:true".into(),
            "final:true".into()
        )
    );
    assert_eq!(code(&bad), Some("INVALID_ARGS"));
    assert_eq!(
        *calls.lock(),
        ["ok:false", "failed:true", "denied:true", "bad:true"]
    );
    // The error itself is kept: finalize_content only owns the content.
    assert_eq!(code(&denied), Some("GUARD_DENIED"));
}

#[tokio::test]
async fn observers_see_the_returned_snapshot_and_their_panics_are_contained() {
    let registry = Registry::new();
    registry.global().register(echo("t")).unwrap().keep();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    registry
        .global()
        .on_result(|_, _| panic!("observer bug"))
        .keep();
    registry
        .global()
        .on_result(move |exec, result| {
            log.lock().push((exec.token, Arc::as_ptr(result) as usize));
        })
        .keep();
    let result = run(&registry, "t", json!({"value": 1})).await;
    let (_, pointer) = seen.lock()[0];
    assert_eq!(
        pointer,
        Arc::as_ptr(&result) as usize,
        "observers get the same frozen result"
    );
    assert_eq!(result.value(), Some(&json!(1)));
}

#[test]
fn execution_mode_is_parallel_only_for_an_exact_true() {
    let registry = Registry::new();
    let tool = |name: &str, classify: Option<fn(&serde_json::Value) -> bool>| {
        let mut b = ToolDefinition::builder(name)
            .output(ToolOutput::any())
            .execute(|_, _| async { Ok(json!(null)) });
        if let Some(f) = classify {
            b = b.concurrency_safe(f);
        }
        b.build().unwrap()
    };
    registry
        .global()
        .register(tool("safe", Some(|_| true)))
        .unwrap()
        .keep();
    registry
        .global()
        .register(tool("unsafe", Some(|_| false)))
        .unwrap()
        .keep();
    registry
        .global()
        .register(tool("silent", None))
        .unwrap()
        .keep();
    registry
        .global()
        .register(tool("panics", Some(|_| panic!("classifier bug"))))
        .unwrap()
        .keep();
    registry
        .global()
        .register(tool(
            "by_args",
            Some(|args| args["read_only"] == json!(true)),
        ))
        .unwrap()
        .keep();
    let mode = |name: &str, args| registry.execution_mode(&call(name, args));
    assert_eq!(mode("safe", json!({})), ExecutionMode::Parallel);
    assert_eq!(mode("unsafe", json!({})), ExecutionMode::Exclusive);
    assert_eq!(mode("silent", json!({})), ExecutionMode::Exclusive);
    assert_eq!(mode("panics", json!({})), ExecutionMode::Exclusive);
    assert_eq!(mode("missing", json!({})), ExecutionMode::Exclusive);
    assert_eq!(
        mode("by_args", json!({"read_only": true})),
        ExecutionMode::Parallel
    );
    assert_eq!(mode("by_args", json!({})), ExecutionMode::Exclusive);

    let agent = registry.global().create_scope("agent").unwrap();
    agent.restrict(None, Some(&["safe"])).unwrap().keep();
    let hidden = ToolExecutionInput::new("c", "safe", json!({})).for_agent(agent.id());
    assert_eq!(
        registry.execution_mode(&hidden),
        ExecutionMode::Exclusive,
        "hidden tools are exclusive"
    );
}

#[tokio::test]
async fn typed_tools_validate_arguments_before_the_body_and_classify_typed_args() {
    #[derive(serde::Deserialize)]
    struct Args {
        path: String,
        read_only: Option<bool>,
    }
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let tool = codemode::tool::define_tool::<Args, String>("read")
        .parameters(
            codemode::schema::ParameterSchema::new()
                .required("path", codemode::schema::ValueSchema::string())
                .optional("read_only", codemode::schema::ValueSchema::boolean()),
        )
        .output(codemode::schema::ValueSchema::string(), |_, text| {
            vec![ContentBlock::text(text.clone())]
        })
        .concurrency_safe(|args| args.read_only == Some(true))
        .present_call(|args| {
            Some(codemode::presentation::ToolCallView::Generic {
                title: format!("Read {}", args.path),
                kind: Some(codemode::presentation::ToolCallKind::Read),
                raw_input: None,
                content: None,
                locations: None,
            })
        })
        .execute(move |args, _| {
            counter.fetch_add(1, Ordering::SeqCst);
            async move { Ok(format!("contents of {}", args.path)) }
        })
        .build()
        .unwrap();
    let registry = Registry::new();
    registry.global().register(tool).unwrap().keep();

    let bad = run(&registry, "read", json!({"path": 3, "read_only": "yes"})).await;
    assert_eq!(code(&bad), Some("INVALID_ARGS"));
    assert_eq!(
        bad.model_text(),
        "Error: invalid arguments:\n- $.path: expected string, got integer\n- $.read_only: expected boolean, got string"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    let ok = run(&registry, "read", json!({"path": "a.txt"})).await;
    assert_eq!(text(&ok), "contents of a.txt");
    assert_eq!(
        registry.execution_mode(&call("read", json!({"path": "a", "read_only": true}))),
        ExecutionMode::Parallel
    );
    assert_eq!(
        registry.execution_mode(&call("read", json!({"path": 1, "read_only": true}))),
        ExecutionMode::Exclusive
    );
    let def = registry.global().get("read").unwrap();
    assert!(def.present_call(&json!({"path": "a"})).is_some());
    assert_eq!(
        def.present_call(&json!({"path": ["not", "a", "string"]})),
        None,
        "malformed args give no view"
    );
}

#[tokio::test]
async fn pure_code_mode_hides_native_tools_from_direct_calls_before_any_policy() {
    let registry = super::with_code_mode();
    registry.global().register(echo("t")).unwrap().keep();
    let agent = registry.global().create_scope("agent").unwrap();
    agent.present_as(PresentationMode::Code).unwrap().keep();
    let policy_calls = Arc::new(AtomicUsize::new(0));
    let counter = policy_calls.clone();
    registry
        .global()
        .on_pre_execute(move |_, next| {
            counter.fetch_add(1, Ordering::SeqCst);
            next.run()
        })
        .keep();
    let direct = registry
        .execute(ToolExecutionInput::new("c", "t", json!({})).for_agent(agent.id()))
        .await;
    assert_eq!(code(&direct), Some("UNKNOWN_TOOL"));
    assert_eq!(policy_calls.load(Ordering::SeqCst), 0);
    // In both mode, direct calls are fine.
    let both = registry.global().create_scope("both").unwrap();
    both.present_as(PresentationMode::Both).unwrap().keep();
    let result = registry
        .execute(ToolExecutionInput::new("c", "t", json!({"value": 1})).for_agent(both.id()))
        .await;
    assert_eq!(result.value(), Some(&json!(1)));
}

#[tokio::test]
async fn a_blocked_result_drops_the_contexts_the_blocked_call_deferred() {
    let registry = Registry::new();
    let leaky = ToolDefinition::builder("leaky")
        .output(ToolOutput::any())
        .execute(|_, ctx| async move {
            ctx.defer_context(UserMessage::new(
                MessageSource::plugin("secret"),
                vec![ContentBlock::text("what the policy blocks")],
            ));
            Ok(json!("payload"))
        })
        .build()
        .unwrap();
    registry.global().register(leaky).unwrap().keep();
    let note = UserMessage::new(
        MessageSource::plugin("policy"),
        vec![ContentBlock::text("why")],
    );
    let kept = note.clone();
    registry
        .global()
        .on_post_execute(move |_, _, _| {
            let note = kept.clone();
            async move {
                Ok(PostToolDecision::Block {
                    feedback: vec![ContentBlock::text("blocked")],
                    additional_contexts: vec![note],
                })
            }
        })
        .keep();
    let result = run(&registry, "leaky", json!({})).await;
    assert_eq!(code(&result), Some("RESULT_BLOCKED"));
    assert_eq!(result.additional_contexts, vec![note]);
}

#[tokio::test]
async fn a_call_cancelled_before_it_entered_is_aborted_before_dispatch_even_in_code_mode() {
    let registry = super::with_code_mode();
    registry.global().register(echo("t")).unwrap().keep();
    let agent = registry.global().create_scope("agent").unwrap();
    agent.present_as(PresentationMode::Code).unwrap().keep();
    let cancelled = tokio_util::sync::CancellationToken::new();
    cancelled.cancel();
    let result = registry
        .execute(
            ToolExecutionInput::new("c", "t", json!({}))
                .for_agent(agent.id())
                .with_signal(cancelled),
        )
        .await;
    assert_eq!(code(&result), Some("ABORTED_BEFORE_DISPATCH"));
}
