// codemode runtime bootstrap, part 9: seal the realm and hand the host its API.
//
// After this part runs, the program can reach only the ECMAScript globals, `console`, the
// timers, `queueMicrotask` and (per run) the binding namespaces. Every other global the
// engine may define is deleted (the bootstrap captured what it needs above), and so are
// `WebAssembly` and `Atomics.wait` (which could block the engine thread outside any budget).
// The host's natives were never globals: the bootstrap holds them in its closure.

/** The globals a program keeps: ECMAScript's, and what the bootstrap adds. */
const KEPT_GLOBALS = [
  "globalThis", "Infinity", "NaN", "undefined", "eval", "isFinite", "isNaN", "parseFloat",
  "parseInt", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape",
  "unescape", "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "Atomics",
  "BigInt", "BigInt64Array", "BigUint64Array", "Boolean", "DataView", "Date",
  "DisposableStack", "Error", "EvalError", "FinalizationRegistry", "Float16Array",
  "Float32Array", "Float64Array", "Function", "Int8Array", "Int16Array", "Int32Array", "Intl",
  "Iterator", "JSON", "Map", "Math", "Number", "Object", "Promise", "Proxy", "RangeError",
  "ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer", "String",
  "SuppressedError", "Symbol", "SyntaxError", "TypeError", "Uint8Array", "Uint8ClampedArray",
  "Uint16Array", "Uint32Array", "URIError", "WeakMap", "WeakRef", "WeakSet",
  "console", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "queueMicrotask",
];

/** The same names as keys of a null-prototype record: one lookup per global. */
const KEPT_GLOBAL_SET = { __proto__: null };
for (let i = 0; i < KEPT_GLOBALS.length; i++) KEPT_GLOBAL_SET[KEPT_GLOBALS[i]] = true;

function isKeptGlobal(key) {
  return typeof key === "string" && KEPT_GLOBAL_SET[key] === true;
}

defineGlobal("console", makeConsole());
defineGlobal("setTimeout", setTimeout);
defineGlobal("setInterval", setInterval);
defineGlobal("clearTimeout", clearTimeout);
defineGlobal("clearInterval", clearInterval);

defineGlobal("queueMicrotask", queueMicrotask);

// Pin `call` and `apply`: code that relies on them (a program's own libraries included)
// keeps working whatever the program assigns.
ObjectDefineProperty(FunctionPrototype, "call", { __proto__: null, writable: false, configurable: false });
ObjectDefineProperty(FunctionPrototype, "apply", { __proto__: null, writable: false, configurable: false });

{
  const atomics = ownDataValue(globalObject, "Atomics");
  if (atomics !== undefined) {
    ReflectDeleteProperty(atomics, "wait");
    ReflectDeleteProperty(atomics, "waitAsync");
  }
  const keys = ReflectOwnKeys(globalObject);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (isKeptGlobal(key)) continue;
    if (!ReflectDeleteProperty(globalObject, key)) {
      throw new Error("the bootstrap cannot remove the host global " + (typeof key === "string" ? key : "(symbol)"));
    }
  }
}

// The host API: held by the host only (the bootstrap function returns it).
return {
  __proto__: null,
  prepareRun,
  checkLossless: (value, limit) => {
    const result = checkLossless(value, limit);
    if (result.ok) return "J" + result.text;
    return (result.overLimit ? "L" : "E") + result.message;
  },
  describeThrown,
  settleCall,
  fireTimer,
};
