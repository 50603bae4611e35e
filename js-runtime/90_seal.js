// codemode runtime bootstrap, part 9: seal the realm and hand the host its API.
//
// After this part runs, the program can reach only the ECMAScript globals, `console`, the
// timers, `queueMicrotask` and (per run) the binding namespaces. Every other global the
// engine may define is deleted (the bootstrap captured what it needs above), and so are
// `WebAssembly` and `Atomics.wait` (which could block the engine thread outside any budget).
// The host's natives were never globals: the bootstrap holds them in its closure.
//
// Finding the engine's globals means listing the global object and looking each key up,
// which cost about a twentieth of a sandbox. Every context of a process is made the same
// way, so the first bootstrap lists them and returns their names (`engineGlobals` of the
// host API); the host hands the names to every later bootstrap (the `engineGlobals`
// argument), which deletes just those. With `checkSeal` (the host's debug builds, so every
// test) a later bootstrap lists the global object as well and fails if anything else is left.

/** The globals a program keeps: ECMAScript's, and what the bootstrap adds (a function:
 * only a bootstrap that lists the global object needs them). */
function keptGlobals() {
  return [
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
}

/** The globals of the engine that are not kept: deleted, and their names (one per line), or
 * `undefined` when a name cannot be handed on (a symbol key, a line break in a name). */
function deleteEngineGlobals() {
  if (typeof engineGlobals === "string") {
    let start = 0;
    while (start < engineGlobals.length) {
      let end = StringPrototypeIndexOf(engineGlobals, "\n", start);
      if (end === -1) end = engineGlobals.length;
      deleteGlobal(StringPrototypeSlice(engineGlobals, start, end));
      start = end + 1;
    }
    if (!checkSeal) return engineGlobals;
  }
  // One lookup per key in a null-prototype record of the kept names.
  const keptNames = keptGlobals();
  const kept = { __proto__: null };
  for (let i = 0; i < keptNames.length; i++) kept[keptNames[i]] = true;
  let names = "";
  let nameable = true;
  const keys = ReflectOwnKeys(globalObject);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === "string" && kept[key] === true) continue;
    if (typeof engineGlobals === "string") {
      throw new Error("the bootstrap found the host global " + (typeof key === "string" ? key : "(symbol)") + ", which the first sandbox of this process did not have");
    }
    deleteGlobal(key);
    if (typeof key !== "string" || StringPrototypeIndexOf(key, "\n") !== -1) {
      nameable = false;
    } else {
      names = names === "" ? key : names + "\n" + key;
    }
  }
  return nameable ? names : undefined;
}

function deleteGlobal(key) {
  if (!ReflectDeleteProperty(globalObject, key)) {
    throw new Error("the bootstrap cannot remove the host global " + (typeof key === "string" ? key : "(symbol)"));
  }
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
}
const deletedEngineGlobals = deleteEngineGlobals();

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
  missingMember,
  settleCall,
  fireTimer,
  engineGlobals: deletedEngineGlobals,
  // The names a program keeps (V8's startup snapshot asks, to reseal its contexts).
  keptGlobals,
};
