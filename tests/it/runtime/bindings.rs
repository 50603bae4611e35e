//! Binding namespaces: calls, order, errors, argument and result checks, odd names.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode::runtime::{BindingNamespace, CodeRunErrorKind, CodeRuntime};
use serde_json::json;

use super::{TestHost, engine, failure, request, run_with_tools, tools, value};

#[tokio::test]
async fn a_call_reaches_the_host_with_its_arguments_and_resolves_to_its_value() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["echo"],
        "const r = await tools.echo({ q: 'x', n: [1, 2.5, null], deep: { ok: true } });\nreturn r;",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!({"q": "x", "n": [1, 2.5, null], "deep": {"ok": true}})
    );
    assert_eq!(
        host.calls(),
        [(
            "echo".to_owned(),
            json!({"q": "x", "n": [1, 2.5, null], "deep": {"ok": true}})
        )]
    );
}

#[tokio::test]
async fn a_call_without_arguments_passes_an_empty_object() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(&engine, &host, &["echo"], "return await tools.echo();").await;
    assert_eq!(value(&outcome), json!({}));
}

#[tokio::test]
async fn calls_reach_the_host_in_submission_order_and_overlap() {
    let engine = engine();
    let host = TestHost::new();
    let started = Instant::now();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["sleep", "echo"],
        "const results = await Promise.all([\n  tools.sleep({ ms: 300, value: 'a' }),\n  tools.echo({ i: 2 }),\n  tools.sleep({ ms: 300, value: 'c' }),\n  tools.sleep({ ms: 300, value: 'd' }),\n]);\nreturn results;",
    )
    .await;
    assert_eq!(value(&outcome), json!(["a", {"i": 2}, "c", "d"]));
    assert_eq!(host.names(), ["sleep", "echo", "sleep", "sleep"]);
    // The host futures ran concurrently on the caller's runtime: about 300 ms, not 900.
    assert!(
        started.elapsed() < Duration::from_millis(800),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        host.max_in_flight.load(std::sync::atomic::Ordering::SeqCst),
        3
    );
}

#[tokio::test]
async fn a_failed_call_rejects_with_the_error_class_carrying_the_member_name() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["fail"],
        "try {\n  await tools.fail({ message: 'denied by policy' });\n} catch (e) {\n  return { isClass: e instanceof ToolCallError, isError: e instanceof Error, name: e.name, toolName: e.toolName, message: e.message, code: e.code };\n}",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!({"isClass": true, "isError": true, "name": "ToolCallError", "toolName": "fail", "message": "denied by policy", "code": "TOOL_FAILED"})
    );
    // The host's code reaches the program as it is, `HOST_FAILED` included.
    let outcome = run_with_tools(
        &engine,
        &host,
        &["fail"],
        "try { await tools.fail({ message: 'interrupted', code: 'HOST_FAILED' }); } catch (e) { return [e.code, e.message]; }",
    )
    .await;
    assert_eq!(value(&outcome), json!(["HOST_FAILED", "interrupted"]));

    // Uncaught, it fails the run with the class name, the message and the member.
    let outcome = run_with_tools(
        &engine,
        &host,
        &["fail"],
        "await tools.fail({ message: 'nope' });",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("ToolCallError: nope"), "{message}");
    assert!(message.contains("toolName: 'fail'"), "{message}");
}

#[tokio::test]
async fn the_error_class_prints_as_a_class_and_string_logs_print_as_written() {
    let engine = engine();
    let host = TestHost::new();
    // The class is the bootstrap's (compiled without source text): still `[class ...]`,
    // also when a program makes its `name` a getter (never called by the inspector).
    let outcome = run_with_tools(
        &engine,
        &host,
        &["fail"],
        "console.log('plain', 'strings', '');\nconsole.log('100%', 'sure');\nconsole.log('%s=%d', 'n', 4);\nconsole.log(ToolCallError);\nObject.defineProperty(ToolCallError, 'name', { get() { throw new Error('getter ran') } });\nconsole.log([ToolCallError]);\nreturn 1;",
    )
    .await;
    assert_eq!(value(&outcome), json!(1));
    assert_eq!(
        outcome.logs,
        [
            "plain strings ",
            "100% sure",
            "n=4",
            "[class ToolCallError]",
            "[ [class (anonymous)] ]",
        ]
    );
}

#[tokio::test]
async fn arguments_that_are_not_lossless_json_reject_that_call_alone() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["echo"],
        r#"const bad: any[] = [
  { n: 1n },
  { f: () => 1 },
  { d: new Date(0) },
  { x: NaN },
  { u: undefined },
  [1, , 3],
  { get g() { return 1 } },
  new Proxy({}, {}),
  { big: 2 ** 60 },
  (() => { const a: any = {}; a.a = a; return a })(),
];
const messages = [];
for (const args of bad) {
  try { await tools.echo(args); messages.push('accepted'); }
  catch (e) { messages.push(e.name + ': ' + e.message); }
}
const ok = await tools.echo({ fine: true });
return { messages, ok };"#,
    )
    .await;
    let result = value(&outcome);
    let messages: Vec<&str> = result["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let expected = [
        "$.n: a BigInt",
        "$.f: a function",
        "$.d: a Date",
        "$.x: NaN is not a finite number",
        "$.u: undefined",
        "$[1]: an empty slot",
        "$.g: a getter",
        "$: a Proxy",
        "$.big: integer 1152921504606847000",
        "$.a: circular reference (back to $)",
    ];
    assert_eq!(messages.len(), expected.len());
    for (message, expected) in messages.iter().zip(expected) {
        assert!(
            message.starts_with("ToolCallError: the arguments are not lossless JSON: "),
            "{message}"
        );
        assert!(
            message.contains(expected),
            "{message} should contain {expected}"
        );
    }
    assert_eq!(result["ok"], json!({"fine": true}));
    // Only the good call reached the host.
    assert_eq!(host.calls(), [("echo".to_owned(), json!({"fine": true}))]);
}

#[tokio::test]
async fn results_that_are_not_lossless_json_reject_the_call() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["unsafe_result"],
        "try { await tools.unsafe_result({}) } catch (e) { return e.message }",
    )
    .await;
    let message = value(&outcome);
    assert!(
        message
            .as_str()
            .unwrap()
            .contains("$.id: integer 9007199254740993"),
        "{message}"
    );
}

#[tokio::test]
async fn a_panicking_host_rejects_the_call_and_the_run_goes_on() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["panic", "echo"],
        "let message = '';\ntry { await tools.panic({}) } catch (e) { message = e.message }\nreturn [message, await tools.echo({ after: 1 })];",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!(["the call failed (its host panicked)", {"after": 1}])
    );
}

#[tokio::test]
async fn odd_member_names_are_ordinary_callable_members() {
    let engine = engine();
    let host = TestHost::new();
    let members = [
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
        "路径",
        "my-tool",
        "a.b",
        "",
    ];
    let outcome = run_with_tools(
        &engine,
        &host,
        &members,
        r#"const out: any = { results: [] };
for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '路径', 'my-tool', 'a.b', '']) {
  out.results.push(await tools[name]({ called: name }));
}
out.proto = Object.getPrototypeOf(tools);
out.keys = Object.keys(tools);
out.ownProto = Object.prototype.hasOwnProperty.call(tools, '__proto__');
out.frozen = Object.isFrozen(tools);
out.names = ['__proto__', 'constructor', '路径', ''].map((name) => (tools as any)[name].name);
const member = Object.getOwnPropertyDescriptor(tools, 'my-tool')!;
out.member = [member.writable, member.enumerable, member.configurable];
const fnName = Object.getOwnPropertyDescriptor((tools as any)['my-tool'], 'name')!;
out.fnName = [fnName.value, fnName.writable, fnName.enumerable, fnName.configurable];
return out;"#,
    )
    .await;
    let result = value(&outcome);
    for (i, name) in members.iter().enumerate() {
        assert_eq!(result["results"][i], json!({"called": name}), "{name}");
    }
    assert_eq!(result["proto"], json!(null));
    assert_eq!(result["ownProto"], json!(true));
    assert_eq!(result["frozen"], json!(true));
    // Each member is named after itself, as a function's own `name` is (read-only,
    // configurable), and is a read-only, enumerable, fixed property of the namespace.
    assert_eq!(
        result["names"],
        json!(["__proto__", "constructor", "路径", ""])
    );
    assert_eq!(result["member"], json!([false, true, false]));
    assert_eq!(result["fnName"], json!(["my-tool", false, false, true]));
    assert_eq!(result["keys"].as_array().unwrap().len(), members.len());
    assert_eq!(host.names(), members);
}

#[tokio::test]
async fn several_namespaces_each_with_their_own_error_class() {
    let engine = engine();
    let tools_host = TestHost::new();
    let other: Arc<TestHost> = TestHost::new();
    let namespaces = vec![
        tools(&tools_host, &["fail"]),
        BindingNamespace::new(
            "files",
            "FileError",
            "operation",
            vec!["read".to_owned(), "fail".to_owned()],
            other.clone(),
        ),
    ];
    let outcome = engine
        .run(request(
            "const read = await files.read({ path: 'a' });\nlet e1: any, e2: any;\ntry { await files.fail({ message: 'm1' }) } catch (e) { e1 = e }\ntry { await tools.fail({ message: 'm2' }) } catch (e) { e2 = e }\nreturn { read, e1: [e1.name, e1.operation, e1 instanceof FileError], e2: [e2.name, e2.toolName, e2 instanceof FileError] };",
            namespaces,
        ))
        .await;
    assert_eq!(
        value(&outcome),
        json!({"read": {"path": "a"}, "e1": ["FileError", "fail", true], "e2": ["ToolCallError", "fail", false]})
    );
    assert_eq!(other.names(), ["read", "fail"]);
    assert_eq!(tools_host.names(), ["fail"]);
}

#[tokio::test]
async fn results_with_a_proto_key_become_own_properties() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["echo"],
        "const r = await tools.echo(JSON.parse('{\"__proto__\": {\"polluted\": true}}'));\nreturn { own: Object.keys(r), polluted: ({} as any).polluted === true, protoIsObject: Object.getPrototypeOf(r) === Object.prototype };",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!({"own": ["__proto__"], "polluted": false, "protoIsObject": true})
    );
}
