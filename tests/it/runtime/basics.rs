//! Programs as async function bodies: values, logs, stripping errors, exceptions.

use codemode::runtime::{CodeRunErrorKind, CodeRuntime, Language};
use serde_json::json;

use super::{engine, failure, run, value};

#[tokio::test]
async fn top_level_await_and_return_give_the_value() {
    let engine = engine();
    let outcome = run(
        &engine,
        "const x: number = await Promise.resolve(20);\nconst y = await new Promise<number>(r => setTimeout(() => r(22), 5));\nreturn { sum: x + y, list: [1, 'two', null, true], nested: { a: [] } };",
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!({"sum": 42, "list": [1, "two", null, true], "nested": {"a": []}})
    );
    assert!(outcome.logs.is_empty());
}

#[tokio::test]
async fn returning_nothing_gives_no_value() {
    let engine = engine();
    for program in [
        "",
        "return;",
        "return undefined;",
        "console.log('x')",
        "await 1;",
    ] {
        let outcome = run(&engine, program).await;
        assert!(outcome.error.is_none(), "{program}: {outcome:?}");
        assert_eq!(outcome.value, None, "{program}");
    }
    let outcome = run(&engine, "return null").await;
    assert_eq!(outcome.value, Some(json!(null)));
}

#[tokio::test]
async fn console_calls_are_captured_in_order_one_line_each() {
    let engine = engine();
    let outcome = run(
        &engine,
        "console.log('a', 1, true);\nconsole.info('b');\nconsole.warn({ x: 1, y: 'z' });\nconsole.error([1, [2, [3, [4]]]]);\nconsole.debug('multi\\nline');\nawait null;\nconsole.log('after', undefined, null);",
    )
    .await;
    assert_eq!(
        outcome.logs,
        [
            "a 1 true",
            "b",
            "{ x: 1, y: 'z' }",
            "[ 1, [ 2, [ 3, [Array] ] ] ]",
            "multi\nline",
            "after undefined null",
        ]
    );
}

#[tokio::test]
async fn values_are_formatted_as_node_prints_them() {
    let engine = engine();
    let cases: &[(&str, &str)] = &[
        ("'str'", "str"),
        ("['it\\'s', \"q\"]", "[ \"it's\", 'q' ]"),
        ("-0", "-0"),
        ("10n", "10n"),
        ("Symbol('s')", "Symbol(s)"),
        ("function named() {}", "[Function: named]"),
        ("async () => {}", "[AsyncFunction (anonymous)]"),
        ("class Point {}", "[class Point]"),
        (
            "new (class Point { constructor() { this.x = 1 } })()",
            "Point { x: 1 }",
        ),
        ("Object.create(null)", "[Object: null prototype] {}"),
        ("new Map([['a', 1]])", "Map(1) { 'a' => 1 }"),
        ("new Set([1, 2])", "Set(2) { 1, 2 }"),
        ("new Date(0)", "1970-01-01T00:00:00.000Z"),
        ("/a+/g", "/a+/g"),
        ("[1, , 3]", "[ 1, <1 empty item>, 3 ]"),
        ("new Uint8Array([1, 2])", "Uint8Array(2) [ 1, 2 ]"),
        (
            "({ get g() { throw new Error('never called') } })",
            "{ g: [Getter] }",
        ),
        (
            "{ 'a-b': 1, [Symbol('k')]: 2 }",
            "{ 'a-b': 1, [Symbol(k)]: 2 }",
        ),
        (
            "(() => { const a = { n: 1 }; a.self = a; return a })()",
            "<ref *1> { n: 1, self: [Circular *1] }",
        ),
        (
            "new Proxy({ t: 1 }, { get() { throw new Error('trap') }, ownKeys() { throw new Error('trap') } })",
            "{ t: 1 }",
        ),
        ("Promise.resolve(4)", "Promise { 4 }"),
        ("new Promise(() => {})", "Promise { <pending> }"),
        ("new Number(3)", "[Number: 3]"),
        ("new WeakMap()", "WeakMap { <items unknown> }"),
        ("'x'.repeat(3)", "xxx"),
    ];
    let program: String = cases
        .iter()
        .map(|(expr, _)| format!("console.log({expr});\n"))
        .collect();
    let outcome = run(&engine, &program).await;
    assert!(outcome.error.is_none(), "{outcome:#?}");
    for ((expr, expected), got) in cases.iter().zip(&outcome.logs) {
        assert_eq!(got, expected, "console.log({expr})");
    }
    assert_eq!(outcome.logs.len(), cases.len());
}

#[tokio::test]
async fn long_values_break_into_lines_and_format_specifiers_apply() {
    let engine = engine();
    let outcome = run(
        &engine,
        "console.log({ alpha: 'aaaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbbbbbbb', gamma: 'cccccccccccccccccccc', delta: 1 });\nconsole.log('%s is %d years and %j', 'Ann', 42.5, { a: 1 }, 'extra');\nconsole.log('100%% %o', [1]);",
    )
    .await;
    assert_eq!(
        outcome.logs,
        [
            "{\n  alpha: 'aaaaaaaaaaaaaaaa',\n  beta: 'bbbbbbbbbbbbbbbbbbbb',\n  gamma: 'cccccccccccccccccccc',\n  delta: 1\n}",
            "Ann is 42.5 years and {\"a\":1} extra",
            "100% [ 1 ]",
        ]
    );
}

#[tokio::test]
async fn errors_print_their_stack_with_program_positions() {
    let engine = engine();
    let outcome = run(
        &engine,
        "function inner() {\n  throw new TypeError('bad input');\n}\ntry { inner() } catch (e) { console.log(e) }\nconst err = new Error('with props'); (err as any).code = 'E1';\nconsole.error(err);",
    )
    .await;
    assert!(outcome.error.is_none(), "{outcome:#?}");
    let first = &outcome.logs[0];
    assert!(
        first.starts_with("TypeError: bad input\n    at "),
        "{first}"
    );
    assert!(first.contains("program.ts:2:"), "{first}");
    assert!(!first.contains("codemode:runtime"), "{first}");
    let second = &outcome.logs[1];
    assert!(second.starts_with("Error: with props"), "{second}");
    // Node's form: the stack, then the own properties on lines of their own.
    assert!(second.ends_with(" {\n  code: 'E1'\n}"), "{second}");
    assert!(
        !second.contains("program.ts:7:"),
        "the wrapper's frame is hidden: {second}"
    );
}

#[tokio::test]
async fn an_uncaught_error_is_an_exception_with_its_stack() {
    let engine = engine();
    let outcome = run(
        &engine,
        "console.log('before');\nconst o: any = null;\nreturn o.field;",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("TypeError"), "{message}");
    assert!(message.contains("program.ts:3:"), "{message}");
    assert_eq!(outcome.logs, ["before"]);

    let outcome = run(&engine, "throw new Error('first line') ").await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("Error: first line"), "{message}");
    assert!(
        message.contains("program.ts:1:7"),
        "columns on line 1 are as written: {message}"
    );

    let outcome = run(&engine, "throw { code: 42 }").await;
    assert_eq!(
        failure(&outcome, CodeRunErrorKind::Exception),
        "Uncaught { code: 42 }"
    );
    let outcome = run(&engine, "throw 'plain'").await;
    assert_eq!(
        failure(&outcome, CodeRunErrorKind::Exception),
        "Uncaught 'plain'"
    );
}

#[tokio::test]
async fn enum_and_namespace_are_exceptions_with_line_and_column() {
    let engine = engine();
    let outcome = run(
        &engine,
        "const a = 1;\nenum Color { Red, Green }\nreturn a;",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.contains("cannot be erased"), "{message}");
    assert!(message.contains("at 2:1"), "{message}");

    let outcome = run(&engine, "  namespace Tools { export const x = 1 }").await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.contains("at 1:3"), "{message}");

    let outcome = run(&engine, "const x = ;").await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.starts_with("syntax error"), "{message}");
    assert!(message.contains("at 1:11"), "{message}");
}

#[tokio::test]
async fn type_annotations_run_as_plain_javascript() {
    let engine = engine();
    let outcome = run(
        &engine,
        "interface Item { id: number; tags?: string[] }\ntype Id = Item['id'];\nfunction pick<T extends Item>(items: T[], id: Id): T | undefined {\n  return items.find((i): i is T => i.id === id);\n}\nconst items: Item[] = [{ id: 1 }, { id: 2, tags: ['x'] }];\nreturn pick(items, 2)! as Item;",
    )
    .await;
    assert_eq!(value(&outcome), json!({"id": 2, "tags": ["x"]}));
}

#[tokio::test]
async fn a_provably_never_settling_program_fails_at_once() {
    let engine = engine();
    let started = std::time::Instant::now();
    let outcome = run(
        &engine,
        "console.log('waiting');\nawait new Promise(() => {});\nreturn 1;",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.contains("can never finish"), "{message}");
    assert_eq!(outcome.logs, ["waiting"]);
    // "At once": far below the 10 s wall budget of the test engine.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn an_unhandled_rejection_fails_the_run() {
    let engine = engine();
    let outcome = run(
        &engine,
        "Promise.reject(new Error('lost'));\nawait new Promise(r => setTimeout(r, 20));\nreturn 1;",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(
        message.starts_with("Uncaught (in promise) Error: lost"),
        "{message}"
    );
}

#[tokio::test]
async fn timers_work_and_can_be_cleared() {
    let engine = engine();
    let outcome = run(
        &engine,
        "const seen: string[] = [];\nconst t = setTimeout(() => seen.push('cleared'), 5);\nclearTimeout(t);\nlet n = 0;\nawait new Promise<void>(resolve => { const i = setInterval(() => { if (++n === 3) { clearInterval(i); resolve(); } }, 1); });\nawait new Promise(r => setTimeout(r, 20, 'arg'));\nreturn { seen, n };",
    )
    .await;
    assert_eq!(value(&outcome), json!({"seen": [], "n": 3}));
}

#[tokio::test]
async fn the_engine_describes_itself() {
    let engine = engine();
    assert_eq!(engine.language(), Language::TypeScript);
    assert!(engine.isolation().contains("fresh per run"));
}

#[tokio::test]
async fn a_leading_shebang_line_is_ignored_and_lines_keep_their_numbers() {
    let engine = engine();
    let outcome = run(&engine, "#!/usr/bin/env -S codemode run\nreturn 1").await;
    assert_eq!(value(&outcome), json!(1));
    let outcome = run(
        &engine,
        "#!/usr/bin/env -S codemode run\n\nthrow new Error('here')",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.contains("program.ts:3:"), "{message}");
    // Python programs treat it as the comment it is.
    let outcome = crate::python::ENGINE
        .run(super::request(
            "#!/usr/bin/env -S codemode run\n\n1 / 0",
            Vec::new(),
        ))
        .await;
    let message = failure(&outcome, CodeRunErrorKind::Exception);
    assert!(message.contains("line 3"), "{message}");
}
