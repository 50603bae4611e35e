//! What a program can reach, what it cannot break, and what it cannot leave behind.

use std::time::{Duration, Instant};

use codemode::runtime::{CodeRunErrorKind, CodeRuntime};
use serde_json::json;

use super::{TestHost, engine, failure, request, run, run_with_tools, tools, value};

#[tokio::test]
async fn only_ecmascript_globals_console_and_timers_are_reachable() {
    let engine = engine();
    let outcome = run(
        &engine,
        r#"const g: any = globalThis;
const names = Reflect.ownKeys(g).map(k => typeof k === 'symbol' ? k.toString() : k);
const probes: Record<string, string> = {};
for (const name of ['Deno', '__bootstrap', '__infra', 'require', 'process', 'module', 'exports', 'Buffer', 'fetch', 'WebAssembly', 'navigator', 'location', 'performance', 'gc']) {
  probes[name] = typeof g[name];
}
let importError = '';
try { await import('node:fs'); } catch (e) { importError = String(e && e.name); }
let evalError = '';
try { (0, eval)('Deno'); } catch (e) { evalError = e.name; }
return {
  names,
  probes,
  importError,
  evalError,
  functionThis: new Function('return this')() === globalThis,
  atomicsWait: typeof (Atomics as any).wait,
  symbols: Object.getOwnPropertySymbols(g).length,
};"#,
    )
    .await;
    let result = value(&outcome);
    for (name, kind) in result["probes"].as_object().unwrap() {
        assert_eq!(kind, "undefined", "{name} is reachable");
    }
    assert_ne!(result["importError"], "", "dynamic import must fail");
    assert_eq!(result["evalError"], "ReferenceError");
    assert_eq!(result["functionThis"], true);
    assert_eq!(result["atomicsWait"], "undefined");
    assert_eq!(result["symbols"], 0);
    let allowed = [
        "globalThis",
        "Infinity",
        "NaN",
        "undefined",
        "eval",
        "isFinite",
        "isNaN",
        "parseFloat",
        "parseInt",
        "decodeURI",
        "decodeURIComponent",
        "encodeURI",
        "encodeURIComponent",
        "escape",
        "unescape",
        "AggregateError",
        "Array",
        "ArrayBuffer",
        "AsyncDisposableStack",
        "Atomics",
        "BigInt",
        "BigInt64Array",
        "BigUint64Array",
        "Boolean",
        "DataView",
        "Date",
        "DisposableStack",
        "Error",
        "EvalError",
        "FinalizationRegistry",
        "Float16Array",
        "Float32Array",
        "Float64Array",
        "Function",
        "Int8Array",
        "Int16Array",
        "Int32Array",
        "Intl",
        "Iterator",
        "JSON",
        "Map",
        "Math",
        "Number",
        "Object",
        "Promise",
        "Proxy",
        "RangeError",
        "ReferenceError",
        "Reflect",
        "RegExp",
        "Set",
        "SharedArrayBuffer",
        "String",
        "SuppressedError",
        "Symbol",
        "SyntaxError",
        "TypeError",
        "Uint8Array",
        "Uint8ClampedArray",
        "Uint16Array",
        "Uint32Array",
        "URIError",
        "WeakMap",
        "WeakRef",
        "WeakSet",
        "console",
        "setTimeout",
        "setInterval",
        "clearTimeout",
        "clearInterval",
        "queueMicrotask",
    ];
    for name in result["names"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert!(allowed.contains(&name), "unexpected global {name}");
    }
    for needed in ["Object", "JSON", "Promise", "console", "setTimeout", "Math"] {
        assert!(
            result["names"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n == needed),
            "{needed} missing"
        );
    }
}

#[tokio::test]
async fn overwriting_builtins_cannot_break_the_checks_or_the_logs() {
    let engine = engine();
    let host = TestHost::new();
    let outcome = run_with_tools(
        &engine,
        &host,
        &["echo"],
        r#"const echo = tools.echo;
const log = console.log;
// Pollute everything the host might lean on. (Not `then`: an inherited `then` getter that
// throws breaks every promise resolved with an object, the program's own included.)
for (const key of ['0', '1', 'length', 'value', 'get', 'set', 'enumerable', 'ok', 'text', 'message', 'name', 'stack', 'constructor', 'toJSON', '__proto__x']) {
  // Null-prototype descriptors: the pollution would otherwise break these very calls.
  Object.defineProperty(Object.prototype, key, { __proto__: null, get() { throw new Error('polluted getter ' + key) }, set(v: unknown) { throw new Error('polluted setter ' + key) }, configurable: true } as any);
}
Object.defineProperty(Array.prototype, '0', { __proto__: null, set() { throw new Error('array setter') }, configurable: true } as any);
Array.prototype.push = () => { throw new Error('push') };
Array.prototype[Symbol.iterator] = function* () { throw new Error('iterator') };
String.prototype.slice = () => { throw new Error('slice') };
String.prototype.indexOf = () => { throw new Error('indexOf') };
(globalThis as any).JSON = { stringify() { throw new Error('JSON') }, parse() { throw new Error('JSON') } };
Object.defineProperty = () => { throw new Error('defineProperty') };
Object.getOwnPropertyDescriptor = () => { throw new Error('gopd') };
Reflect.ownKeys = () => { throw new Error('ownKeys') };
Promise.prototype.then = function () { throw new Error('then') };
(globalThis as any).Symbol = undefined;
(globalThis as any).Error = undefined;
// Pinned by the bootstrap (deno_core's op stubs use them): assigning is a silent no-op.
Function.prototype.call = () => { throw new Error('call') };
Function.prototype.apply = () => { throw new Error('apply') };
console.log = () => { throw new Error('console') };
(globalThis as any).console = undefined;
(globalThis as any).tools = undefined;
log('still logging', { a: [1, 2], s: 'x' });
const echoed = await echo({ list: [1, 2, 3], nested: { ok: true } });
log('echoed', echoed);
return { echoed, list: [1, { two: 2 }], text: 'done' };"#,
    )
    .await;
    assert_eq!(
        value(&outcome),
        json!({"echoed": {"list": [1, 2, 3], "nested": {"ok": true}}, "list": [1, {"two": 2}], "text": "done"})
    );
    assert_eq!(outcome.logs.len(), 2, "{:?}", outcome.logs);
    assert_eq!(outcome.logs[0], "still logging { a: [ 1, 2 ], s: 'x' }");
    assert!(
        outcome.logs[1].starts_with("echoed "),
        "{}",
        outcome.logs[1]
    );
}

#[tokio::test]
async fn what_a_value_is_comes_from_the_value_not_from_tags_or_a_replaced_to_string() {
    let engine = engine();
    let outcome = run(
        &engine,
        r#"console.log({ [Symbol.toStringTag]: "Map", a: 1 });
Object.prototype.toString = () => "[object Date]";
console.log({ b: 2 }, [1, 2], new Map([[1, 2]]));
return { plain: { a: 1 } };"#,
    )
    .await;
    // A tag is a property like any other, and the program's toString is its own: the
    // objects are no Map and no Date.
    assert_eq!(value(&outcome), json!({"plain": {"a": 1}}));
    assert_eq!(
        outcome.logs,
        [
            "{ a: 1, [Symbol(Symbol.toStringTag)]: 'Map' }",
            "{ b: 2 } [ 1, 2 ] Map(1) { 1 => 2 }",
        ]
    );
}

#[tokio::test]
async fn the_checks_still_refuse_bad_values_after_pollution() {
    let engine = engine();
    let outcome = run(
        &engine,
        "(globalThis as any).JSON = { stringify: () => '1' };\nObject.prototype.toJSON = () => 1;\nreturn { when: new Date(0) };",
    )
    .await;
    let message = failure(&outcome, CodeRunErrorKind::InvalidOutput);
    assert!(message.contains("$.when: a Date is not JSON"), "{message}");
}

#[tokio::test]
async fn invalid_completion_values_say_what_and_where() {
    let engine = engine();
    let cases = [
        ("return () => 1", "$: a function"),
        ("return { a: [1, Symbol('s')] }", "$.a[1]: a symbol"),
        ("return { n: 10n }", "$.n: a BigInt"),
        (
            "const a: any = { b: {} }; a.b.c = a; return a",
            "$.b.c: circular reference (back to $)",
        ),
        (
            "return { x: Infinity }",
            "$.x: Infinity is not a finite number",
        ),
        ("return [undefined]", "$[0]: undefined"),
        ("return { u: undefined }", "$.u: undefined"),
        (
            "return new (class Point { x = 1 })()",
            "$: an instance of Point",
        ),
        ("return { m: new Map() }", "$.m: a Map"),
        ("return { get lazy() { return 1 } }", "$.lazy: a getter"),
        ("return { toJSON() { return 1 } }", "$.toJSON: a function"),
        (
            "return { p: Promise.resolve(1) }",
            "$.p: a Promise (did you forget await?)",
        ),
        ("return new Proxy({}, {})", "$: a Proxy"),
        (
            "let v: any = 0; for (let i = 0; i < 5001; i++) v = [v]; return v",
            "nest deeper than 5000",
        ),
        ("return { id: 2 ** 60 }", "$.id: integer"),
    ];
    for (program, expected) in cases {
        let outcome = run(&engine, program).await;
        let message = failure(&outcome, CodeRunErrorKind::InvalidOutput);
        assert!(message.contains(expected), "{program}: {message}");
    }
}

#[tokio::test]
async fn no_state_leaks_from_one_run_to_the_next() {
    let engine = engine();
    let first = run(
        &engine,
        "(globalThis as any).leaked = 1;\n(Object.prototype as any).polluted = 1;\nArray.prototype.map = null as any;\nMath.random = () => 4;\n(globalThis as any).console = null;\nsetTimeout(() => {}, 50_000);\nreturn 'dirty';",
    )
    .await;
    assert_eq!(value(&first), "dirty");
    for _ in 0..3 {
        let next = run(
            &engine,
            "return { leaked: typeof (globalThis as any).leaked, polluted: ({} as any).polluted === undefined, map: typeof [].map, random: Math.random() < 1, console: typeof console.log };",
        )
        .await;
        assert_eq!(
            value(&next),
            json!({"leaked": "undefined", "polluted": true, "map": "function", "random": true, "console": "function"})
        );
    }
}

#[tokio::test]
async fn concurrent_runs_share_nothing_and_overlap() {
    let engine = engine();
    let host = TestHost::new();
    let started = Instant::now();
    let runs = (0..6).map(|i| {
        engine.run(request(
            &format!("(globalThis as any).mine = {i};\nconst v = await tools.sleep({{ ms: 400, value: {i} }});\nreturn [v, (globalThis as any).mine];"),
            vec![tools(&host, &["sleep"])],
        ))
    });
    let outcomes = futures::future::join_all(runs).await;
    for (i, outcome) in outcomes.iter().enumerate() {
        assert_eq!(value(outcome), json!([i, i]));
    }
    // Six 400 ms waits at once, not in a row (2.4 s).
    assert!(
        started.elapsed() < Duration::from_millis(2000),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn hundreds_of_runs_in_a_row_all_succeed() {
    // Long sequences of runs keep working, and threads do not pile up: an engine thread
    // retires after its 128th sandbox, starting its replacement before it leaves, so the
    // count may stand one over for a moment and then settles.
    let engine = engine();
    for i in 0..300 {
        let outcome = run(&engine, &format!("return {i}")).await;
        assert_eq!(value(&outcome), json!(i), "run {i}");
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (threads, _) = engine.thread_counts();
        if threads <= 3 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{threads} engine threads"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
