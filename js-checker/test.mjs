// Tests js-checker/checker.js under Node, as the engine runs it: vendor/typescript/typescript.js
// and then checker.js evaluated as scripts in a fresh node:vm context with none of Node's
// globals (and without `console`, `Intl` and `WebAssembly`, which a vm context has but the
// embedded engine may not). Asserts exact diagnostics, prints timings.
//
//   node js-checker/test.mjs        exit 0 when every assertion holds, 1 otherwise

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const vendor = path.join(root, "vendor", "typescript");
const read = (file) => fs.readFileSync(file, "utf8");

const typescriptJs = read(path.join(vendor, "typescript.js"));
const checkerJs = read(path.join(root, "js-checker", "checker.js"));
const globalsText = read(path.join(root, "js-checker", "globals.d.ts"));
const libNames = read(path.join(vendor, "libs.txt")).split("\n").filter((name) => name !== "");
const libs = Object.fromEntries(libNames.map((name) => [name, read(path.join(vendor, name))]));
const libsJson = JSON.stringify(libs);

// The shape the SDK generator emits (tests/it/sdk/snapshots/*.typescript.snap).
const sampleSdk = `type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
interface ToolArgsMap {
  /** Open an issue. */
  create_issue: { repo: string; title: string; body?: string };
  list_issues: { repo: string; state?: "open" | "closed"; limit?: number };
}
interface ToolOutputMap {
  create_issue: { number: number; url: string };
  list_issues: { total: number; items: { number: number; title: string }[] };
}
type ToolName = keyof ToolOutputMap;
declare class ToolCallError extends Error {
  readonly name: "ToolCallError";
  readonly toolName: ToolName;
}
declare const tools: {
  [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]>;
};
`;

let failures = 0;
let passes = 0;
function fail(name, detail) {
  failures++;
  console.error(`FAIL ${name}\n  ${detail}`);
}
function ok(name) {
  passes++;
  console.log(`ok   ${name}`);
}

/** A fresh bare context with typescript.js and checker.js evaluated in it. */
function load() {
  const context = vm.createContext({});
  vm.runInContext("delete globalThis.console; delete globalThis.Intl; delete globalThis.WebAssembly;", context);
  const before = new Set(vm.runInContext("Object.getOwnPropertyNames(globalThis)", context));
  let start = performance.now();
  vm.runInContext(typescriptJs, context, { filename: "typescript.js" });
  const loadMs = performance.now() - start;
  vm.runInContext(checkerJs, context, { filename: "checker.js" });
  const added = vm
    .runInContext("Object.getOwnPropertyNames(globalThis)", context)
    .filter((name) => !before.has(name));
  const checker = vm.runInContext("codemodeChecker", context);
  return { context, checker, loadMs, added };
}

/** A checker initialised with `sdk`, and its load and init times. */
function checkerFor(sdk) {
  const loaded = load();
  const start = performance.now();
  loaded.checker.init(libsJson, globalsText, sdk);
  loaded.initMs = performance.now() - start;
  return loaded;
}

function run(checker, program) {
  return JSON.parse(checker.check(program));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** First check and the median of 20 later checks of `program`, in ms. */
function timeChecks(checker, program) {
  let start = performance.now();
  const result = run(checker, program);
  const firstMs = performance.now() - start;
  const warm = [];
  for (let i = 0; i < 20; i++) {
    start = performance.now();
    checker.check(program);
    warm.push(performance.now() - start);
  }
  return { result, firstMs, warmMs: median(warm) };
}

/**
 * Asserts that `program` has exactly the diagnostics `expected` ([line, column, code], in
 * order), `total` of them in all (default: as many as listed), and that the message of
 * each with a `messages[i]` matches that regular expression.
 */
function expectDiagnostics(checker, name, program, expected, { total, messages = [] } = {}) {
  let result;
  try {
    result = run(checker, program);
  } catch (error) {
    fail(name, `check threw: ${error && error.stack}`);
    return;
  }
  const got = result.diagnostics.map((d) => [d.line, d.column, d.code]);
  const wantTotal = total ?? expected.length;
  const problems = [];
  if (JSON.stringify(got) !== JSON.stringify(expected)) {
    problems.push(`diagnostics ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  }
  if (result.total !== wantTotal) problems.push(`total ${result.total}, expected ${wantTotal}`);
  messages.forEach((pattern, i) => {
    const message = result.diagnostics[i] && result.diagnostics[i].message;
    if (pattern && !(typeof message === "string" && pattern.test(message))) {
      problems.push(`message ${i} ${JSON.stringify(message)} does not match ${pattern}`);
    }
  });
  for (const d of result.diagnostics) {
    if (typeof d.message !== "string" || Object.keys(d).join() !== "line,column,code,message") {
      problems.push(`malformed diagnostic ${JSON.stringify(d)}`);
    }
  }
  if (problems.length > 0) fail(name, `${problems.join("\n  ")}\n  result: ${JSON.stringify(result)}`);
  else ok(name);
}

function expectThrows(name, action, pattern) {
  try {
    action();
  } catch (error) {
    if (pattern.test(String(error && error.message))) ok(name);
    else fail(name, `threw ${JSON.stringify(String(error && error.message))}, expected ${pattern}`);
    return;
  }
  fail(name, "did not throw");
}

// ---- the sample SDK ----

const correctProgram = `const [open, closed] = await Promise.all([
  tools.list_issues({ repo: "octo/hello", state: "open" }),
  tools.list_issues({ repo: "octo/hello", state: "closed", limit: 5 }),
]);
const n: number = 1;
const titles = open.items.map((issue) => \`#\${issue.number} \${issue.title.toUpperCase()}\`);
let created = null;
try {
  created = await tools.create_issue({ repo: "octo/hello", title: "Summary", body: titles.join("\\n") });
} catch (e) {
  console.log("create failed:", e.message, e instanceof ToolCallError ? e.toolName : "");
}
await new Promise((resolve) => setTimeout(resolve, 10));
const parsed = JSON.parse('{"x": 2}').x;
console.log(open.total + closed.total + n + parsed);
return { titles, url: created && created.url };`;

const sample = checkerFor(sampleSdk);
const sampleTimes = timeChecks(sample.checker, correctProgram);
{
  const name = "typescript.js and checker.js add exactly the globals ts and codemodeChecker";
  const added = [...sample.added].sort().join(",");
  if (added === "codemodeChecker,ts") ok(name);
  else fail(name, `added: ${added}`);
}
{
  const name = "codemodeChecker is frozen";
  if (Object.isFrozen(sample.checker)) ok(name);
  else fail(name, "it is not");
}

const c = sample.checker;
expectDiagnostics(c, "a correct program has no diagnostics", correctProgram, []);
expectDiagnostics(c, "an unknown tool: 2551 with the suggestion", "await tools.list_issuez({})", [[1, 13, 2551]], {
  messages: [/^Property 'list_issuez' does not exist on type .*Did you mean 'list_issues'\?$/s],
});
expectDiagnostics(
  c,
  "a missing required argument: 2345 on the argument",
  'const r = await tools.list_issues({ state: "open" });',
  [[1, 35, 2345]],
  { messages: [/Property 'repo' is missing in type '\{ state: "open"; \}'/] },
);
expectDiagnostics(
  c,
  "a number where a string is required: 2322 on the property",
  'await tools.create_issue({ repo: "octo/hello", title: 42 });',
  [[1, 48, 2322]],
  { messages: [/^Type 'number' is not assignable to type 'string'\.$/] },
);
expectDiagnostics(
  c,
  "a string method on a number field of a result: 2339",
  'const r = await tools.list_issues({ repo: "octo/hello" });\nreturn r.total.toUpperCase();',
  [[2, 16, 2339]],
  { messages: [/^Property 'toUpperCase' does not exist on type 'number'\.$/] },
);
expectDiagnostics(
  c,
  "a forgotten await: 2339 on Promise, the message mentions await",
  'const r = tools.list_issues({ repo: "octo/hello" });\nreturn r.items.length;',
  [[2, 10, 2339]],
  { messages: [/^Property 'items' does not exist on type 'Promise<.*\n {2}Did you forget to use 'await'\? \(line 2, column 10\)$/s] },
);
expectDiagnostics(c, "a syntax error: 1005 at the token", "const a = 1;\nif (a > 0 {\n  return a;\n}", [[2, 11, 1005]], {
  messages: [/^'\)' expected\.\n {2}The parser expected to find a '\)' to match the '\(' token here\. \(line 2, column 4\)$/],
});
expectDiagnostics(c, "a syntax error alone hides the semantic errors", "undefinedName;\nconst x = ;", [[2, 11, 1109]]);
expectDiagnostics(c, "an error on line 3 column 5 is reported at 3:5", "const a = 1;\nconst b = 2;\n    missingName;", [
  [3, 5, 2304],
]);
expectDiagnostics(c, "line 1 column 1 maps exactly", "missingName;", [[1, 1, 2304]]);
expectDiagnostics(c, "columns count characters, not UTF-16 units", 'const s = "é😀"; return s.nope;', [[1, 26, 2339]]);
expectDiagnostics(c, "CRLF line ends count as one line end", "const a = 1;\r\nconst b = 2;\r\n  a.nope;", [[3, 5, 2339]]);
// The wrapper's tail `})();` closes the block, then fails to parse: one error is kept, at
// the program's end, and no related information points into the wrapper.
expectDiagnostics(c, "an unclosed block is reported once, at the program's end", "if (true) {\n  console.log(1);", [[2, 18, 1005]], {
  messages: [/^'\}' expected\.$/],
});
expectDiagnostics(c, "an unclosed object literal likewise", "const o = { a: 1,", [[1, 18, 1005]], { messages: [/^'\}' expected\.$/] });
expectDiagnostics(c, "an extra } is reported where it ends the function, not in the wrapper", "return 1;\n}\nfoo();", [[3, 1, 1005]], {
  messages: [/^'\)' expected\.$/],
});
expectDiagnostics(c, "an unclosed comment is reported at the program's end", "return 1; /* open", [[1, 18, 1010]]);
expectDiagnostics(c, "a trailing line comment does not swallow the wrapper", "return 1; // done", []);
expectDiagnostics(c, "a leading #! line is blanked, as the runtime does", "#!/usr/bin/env codemode\nreturn missingName;", [
  [2, 8, 2304],
]);
{
  const program = Array.from({ length: 12 }, (_, i) => `missing${i + 1};`).join("\n");
  expectDiagnostics(
    c,
    "more than 10 errors: the first 10 by position and the total",
    program,
    Array.from({ length: 10 }, (_, i) => [i + 1, 1, 2304]),
    { total: 12, messages: [/^Cannot find name 'missing1'\.$/] },
  );
}
expectDiagnostics(c, "this, arguments and a function-scoped return are accepted", "function f() { return arguments.length; }\nreturn [this, f()];", []);
expectDiagnostics(c, "import.meta (module-only) is refused", "return import.meta;", [[1, 8, 1343]]);
expectDiagnostics(c, "a pragma in the program's first line has no effect", "// @ts-nocheck\nreturn missingName;", [[2, 8, 2304]]);
expectDiagnostics(c, "a lib reference in the program has no effect", '/// <reference lib="dom" />\nreturn document.title;', [
  [2, 8, 2584],
]);
expectDiagnostics(c, "no DOM or Node globals", "return [window, process, require];", [
  [1, 9, 2304],
  [1, 17, 2591],
  [1, 26, 2591],
]);

// A failing program, then programs that would see any state it could have left behind.
expectDiagnostics(
  c,
  "a program that redeclares globals and tools locally",
  'interface Array<T> { bogus: number }\nvar tools = 1;\nconst console = 2;\ndeclare global { var leaked: number }\nreturn [].bogus + leaked + tools.x;',
  [
    [4, 1, 1234],
    [5, 11, 2339],
    [5, 19, 2304],
    [5, 34, 2339],
  ],
);
expectDiagnostics(
  c,
  "  the same program without its syntax error",
  "interface Array<T> { bogus: number }\nvar tools = 1;\nconst console = 2;\nreturn [].bogus + tools.x + console.y;",
  [
    [4, 11, 2339],
    [4, 25, 2339],
    [4, 37, 2339],
  ],
);
// The program may close the wrapper's function and write at the file's top level, where
// an interface merges with the lib's; the tail then closes its second function.
expectDiagnostics(
  c,
  "a program that escapes the wrapper and augments Array globally",
  "return 1;\n})();\ninterface Array<T> { bogus: number }\n(async function () {\nreturn [].bogus;",
  [],
);
expectDiagnostics(c, "  a check after them is unaffected (the correct program)", correctProgram, []);
expectDiagnostics(c, "  and their declarations did not leak", "return [].bogus + leaked;", [
  [1, 11, 2339],
  [1, 19, 2304],
]);
expectDiagnostics(c, "  and a syntax error did not either", "const x = ;", [[1, 11, 1109]]);
expectDiagnostics(c, "  the unknown tool again, same answer", "await tools.list_issuez({})", [[1, 13, 2551]]);

// A program nested deeper than the engine's stack allows makes check throw (a RangeError);
// the checker works on after it.
expectThrows(
  "a program too deep for the stack throws",
  () => c.check(`return ${"(".repeat(50000)}1${")".repeat(50000)};`),
  /call stack/,
);
expectDiagnostics(c, "  and the next check works", "await tools.list_issuez({})", [[1, 13, 2551]]);

// Bad input.
expectThrows("check of a non-string throws", () => c.check(42), /program must be a string/);
expectThrows("init with libsJson that is not JSON throws", () => load().checker.init("{", globalsText, sampleSdk), /libsJson is not JSON/);
{
  const { checker } = load();
  expectThrows("check before init throws", () => checker.check("return 1;"), /init has not been called/);
  const missing = { ...libs };
  delete missing["lib.es2015.core.d.ts"];
  expectThrows(
    "init without a referenced lib throws",
    () => checker.init(JSON.stringify(missing), globalsText, sampleSdk),
    /no lib\.es2015\.core\.d\.ts, which lib\.es2015\.d\.ts references/,
  );
  const noRoot = { ...libs };
  delete noRoot["lib.es2023.d.ts"];
  expectThrows("init without lib.es2023.d.ts throws", () => checker.init(JSON.stringify(noRoot), globalsText, sampleSdk), /no lib\.es2023\.d\.ts/);
  expectThrows(
    "init with declarations that do not parse throws",
    () => checker.init(libsJson, globalsText, "interface ToolArgsMap {\n  list_issues: { repo: string ;\n"),
    /declarations has 1 syntax error\(s\), the first at 3:1/,
  );
  expectThrows("init with a non-string declarations throws", () => checker.init(libsJson, globalsText, null), /declarations must be a string/);
  // Declarations that parse but leave the program without a global type it needs.
  const broken = { ...libs, "lib.es5.d.ts": "" };
  expectThrows(
    "init with libs that lack a global type throws",
    () => checker.init(JSON.stringify(broken), globalsText, sampleSdk),
    /do not make a valid program:\nTS2318: Cannot find global type 'Boolean'/,
  );
  expectThrows("  and leaves the checker uninitialised", () => checker.check("return 1;"), /init has not been called/);
  // After failed inits, a good one works, and a failed one after it leaves it working.
  checker.init(libsJson, globalsText, sampleSdk);
  expectDiagnostics(checker, "a good init after failed ones works", "await tools.list_issuez({})", [[1, 13, 2551]]);
  expectThrows("a failed init after it throws", () => checker.init(libsJson, globalsText, "declare const tools: {"), /syntax error/);
  expectDiagnostics(checker, "  and leaves the good one in place", "await tools.list_issuez({})", [[1, 13, 2551]]);
}

// ---- the GitHub SDK of the snapshot tests (117 tools) ----

const snapshot = read(path.join(root, "tests", "it", "sdk", "snapshots", "it__sdk__snapshots__github.typescript.snap"));
const fence = /```ts\n([\s\S]*?)\n```/.exec(snapshot);
if (!fence) throw new Error("no ```ts fence in the GitHub SDK snapshot");
const githubSdk = fence[1];
const toolCount = (/interface ToolOutputMap \{\n([\s\S]*?)\n\}/.exec(githubSdk) || ["", ""])[1]
  .split("\n")
  .filter((line) => /^ {2}\w+:/.test(line)).length;

// About 20 lines, as a model writes them. Every ToolOutputMap entry of this SDK is JsonValue,
// so a field of a result is reached through `as any`.
const githubProgram = `const owner = "octocat";
const repo = "hello-world";
const [issues, pulls] = await Promise.all([
  tools.list_issues({ owner, repo, state: "OPEN", perPage: 50 }),
  tools.list_pull_requests({ owner, repo, state: "open" }),
]);
console.log("fetched", typeof issues, typeof pulls);
const titles: string[] = [];
for (const issue of (issues as any).issues ?? []) {
  titles.push(\`#\${issue.number} \${issue.title}\`);
}
let size = 0;
try {
  const found = await tools.search_issues({ query: "bug", owner, repo });
  size = JSON.stringify(found).length;
} catch (e) {
  console.warn("search failed", e.message);
}
const me = await tools.get_me({});
return { titles, size, me };`;

const github = checkerFor(githubSdk);
const githubTimes = timeChecks(github.checker, githubProgram);
{
  const name = `the GitHub SDK has ${toolCount} tools and the 20-line program no diagnostics`;
  if (toolCount === 117 && githubTimes.result.total === 0) ok(name);
  else fail(name, `${toolCount} tools, ${JSON.stringify(githubTimes.result)}`);
}
expectDiagnostics(github.checker, "GitHub SDK: an unknown tool: 2551 with the suggestion", 'await tools.list_issuez({ owner: "o", repo: "r" })', [[1, 13, 2551]], {
  messages: [/\.\.\. 115 more \.\.\..*Did you mean 'list_issues'\?$/s],
});
expectDiagnostics(github.checker, "GitHub SDK: a missing required argument", 'await tools.list_issues({ owner: "o" })', [[1, 25, 2345]], {
  messages: [/Property 'repo' is missing/],
});
{
  // TypeScript cuts each type it prints to about 160 characters, so a long message is a
  // chain of them: here the argument's type, printed twice.
  const name = "a message longer than 600 characters is cut to 600 ending with …";
  const result = run(github.checker, 'await tools.list_issues({ owner: "o" })');
  const message = result.diagnostics[0] && result.diagnostics[0].message;
  if (Array.from(message).length === 600 && message.endsWith("…") && !message.slice(0, -1).includes("…")) ok(name);
  else fail(name, `${Array.from(message).length} characters: ${JSON.stringify(message)}`);
}
// What a model is likely to write: a field of a JsonValue result, read without a cast.
expectDiagnostics(
  github.checker,
  "GitHub SDK: a field of a JsonValue result is an error (2339 on JsonValue)",
  'const r = await tools.list_issues({ owner: "o", repo: "r" });\nreturn r.issues;',
  [[2, 10, 2339]],
  { messages: [/^Property 'issues' does not exist on type 'JsonValue'\.\n {2}Property 'issues' does not exist on type 'string'\.$/] },
);

const ms = (value) => `${value.toFixed(1)} ms`;
console.log("");
console.log("timings (Node, this machine; the GitHub SDK's come second in this process, V8's compiled code warm):");
console.log(`  load typescript.js: ${ms(sample.loadMs)}`);
console.log(
  `  sample SDK (2 tools):   init ${ms(sample.initMs)}, first check ${ms(sampleTimes.firstMs)}, warm check median of 20 ${ms(sampleTimes.warmMs)}`,
);
console.log(
  `  GitHub SDK (${toolCount} tools): init ${ms(github.initMs)}, first check ${ms(githubTimes.firstMs)}, warm check median of 20 ${ms(githubTimes.warmMs)}`,
);
console.log("");
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
