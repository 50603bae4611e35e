// codemode runtime, the inspector: `inspect`, a util.inspect-like formatter for logs.
//
// Compiled apart from the bootstrap and evaluated in the run's realm the first time a value
// has to be formatted or described (js-runtime/10_inspect.js loads it), so a run that only
// logs strings, does not throw and returns plain data does not pay for reading it.
// src/runtime/js/scripts.rs wraps this file in a strict function whose parameter holds
// the bootstrap's names it uses (`INSPECTOR_IMPORTS` there; a unit test checks that every
// bootstrap name used here is in it), and which returns `inspect`, `formatLogArgs`,
// `describeThrown`, `describeNonPlain` and `conversionHint`. The bootstrap's rules
// (00_capture.js) hold here too: only captured functions.
//
// Values print the way Node's console prints them: strings raw at the top level and quoted
// inside structures; objects `{ a: 1 }`, arrays `[ 1, 2 ]`, nested deeper than two levels as
// `[Object]`; errors by their stack; cycles as `[Circular *1]` with `<ref *1>` on the target;
// Map, Set, Date, RegExp, Promise, typed arrays, boxed primitives, functions and classes by
// their Node forms. Getters are shown as `[Getter]` and never called; a Proxy prints its
// target without running its traps.

// What a value is (see `kindsOf` in 00_capture.js; the bits are natives.rs's `KINDS`).
function isArrayBuffer(value) { return kindsOf(value, 1) !== 0; }
function isAsyncFunction(value) { return kindsOf(value, 2) !== 0; }
function isBigIntObject(value) { return kindsOf(value, 4) !== 0; }
function isBooleanObject(value) { return kindsOf(value, 8) !== 0; }
function isDate(value) { return kindsOf(value, 16) !== 0; }
function isGeneratorFunction(value) { return kindsOf(value, 32) !== 0; }
function isMap(value) { return kindsOf(value, 64) !== 0; }
function isNativeError(value) { return kindsOf(value, 128) !== 0; }
function isNumberObject(value) { return kindsOf(value, 256) !== 0; }
function isPromise(value) { return kindsOf(value, 512) !== 0; }
function isRegExp(value) { return kindsOf(value, 2048) !== 0; }
function isSet(value) { return kindsOf(value, 4096) !== 0; }
function isSharedArrayBuffer(value) { return kindsOf(value, 8192) !== 0; }
function isStringObject(value) { return kindsOf(value, 16384) !== 0; }
function isSymbolObject(value) { return kindsOf(value, 32768) !== 0; }
function isTypedArray(value) { return kindsOf(value, 65536) !== 0; }
function isWeakMap(value) { return kindsOf(value, 131072) !== 0; }
function isWeakSet(value) { return kindsOf(value, 262144) !== 0; }

const INSPECT_DEPTH = 2;
const INSPECT_MAX_ARRAY = 100;
const INSPECT_MAX_STRING = 10000;
const INSPECT_BREAK_LENGTH = 80;

/** Formats `value`; `nested` quotes a string as it would be inside an object. */
function inspect(value, nested) {
  const ctx = {
    __proto__: null,
    seen: null, // linked list of the objects being formatted: { value, next }
    circular: new Map(), // object -> its `*N` number
  };
  return formatValue(ctx, value, 0, 0, nested === true).text;
}

/** Formats `args` of a console call the way Node's util.format does. */
function formatLogArgs(args) {
  let text = "";
  let start = 0;
  if (args.length > 0 && typeof args[0] === "string") {
    const template = args[0];
    let next = 1;
    let last = 0;
    let out = "";
    for (let i = 0; i < template.length - 1; i++) {
      if (StringPrototypeCharCodeAt(template, i) !== 37) continue; // '%'
      const c = StringPrototypeCharCodeAt(template, i + 1);
      let piece;
      if (c === 37) {
        piece = "%";
      } else if (next < args.length) {
        const arg = args[next];
        if (c === 115) piece = typeof arg === "string" ? arg : inspectSafe(arg); // %s
        else if (c === 100 || c === 105) piece = formatNumberSpecifier(arg, c === 105); // %d %i
        else if (c === 102) piece = typeof arg === "symbol" ? "NaN" : "" + NumberParseFloat(stringOf(arg)); // %f
        else if (c === 106) piece = jsonSpecifier(arg); // %j
        else if (c === 111 || c === 79) piece = inspectSafe(arg); // %o %O
        else if (c === 99) piece = ""; // %c: CSS, ignored
        else continue;
        next++;
      } else {
        continue;
      }
      out = out + StringPrototypeSlice(template, last, i) + piece;
      last = i + 2;
      i++;
    }
    text = out + StringPrototypeSlice(template, last);
    start = next;
  }
  for (let i = start; i < args.length; i++) {
    const arg = args[i];
    const piece = typeof arg === "string" ? arg : inspectSafe(arg);
    text = i === 0 ? piece : text + " " + piece;
  }
  return text;
}

function inspectSafe(value) {
  try {
    return inspect(value);
  } catch (error) {
    return "[value that could not be inspected]";
  }
}

function stringOf(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === undefined || value === null) {
    return "" + value;
  }
  return "";
}

function formatNumberSpecifier(value, integer) {
  if (typeof value === "bigint") return "" + value + "n";
  if (typeof value !== "number") {
    if (typeof value === "symbol" || typeof value === "object" || typeof value === "function") return "NaN";
    value = NumberParseFloat(stringOf(value));
  }
  if (integer) value = NumberParseInt("" + value, 10);
  return value === 0 && 1 / value < 0 ? "-0" : "" + value;
}

function jsonSpecifier(value) {
  const result = checkLossless(value, 1 << 20);
  if (result.ok) return result.text;
  return result.circular ? "[Circular]" : "undefined";
}

/** A formatted piece: its text and how many object levels it nests below itself. */
function piece(text, levels) {
  return { __proto__: null, text, levels };
}

function formatValue(ctx, value, depth, indentation, nested) {
  switch (typeof value) {
    case "string":
      return piece(nested ? quoteString(value, true) : value, 0);
    case "number":
      return piece(value === 0 && 1 / value < 0 ? "-0" : "" + value, 0);
    case "bigint":
      return piece("" + value + "n", 0);
    case "boolean":
      return piece(value ? "true" : "false", 0);
    case "undefined":
      return piece("undefined", 0);
    case "symbol":
      return piece(SymbolPrototypeToString(value), 0);
  }
  if (value === null) return piece("null", 0);
  if (isProxy(value)) {
    const details = getProxyDetails(value);
    if (details === null || details === undefined) return piece("<Revoked Proxy>", 0);
    return formatValue(ctx, details[0], depth, indentation, nested);
  }
  for (let frame = ctx.seen; frame !== null; frame = frame.next) {
    if (frame.value === value) {
      let index = MapPrototypeGet(ctx.circular, value);
      if (index === undefined) {
        index = MapPrototypeGetSize(ctx.circular) + 1;
        MapPrototypeSet(ctx.circular, value, index);
      }
      return piece("[Circular *" + index + "]", 0);
    }
  }
  ctx.seen = { __proto__: null, value, next: ctx.seen };
  try {
    const result = formatObject(ctx, value, depth, indentation);
    const index = MapPrototypeGet(ctx.circular, value);
    if (index !== undefined) result.text = "<ref *" + index + "> " + result.text;
    return result;
  } finally {
    ctx.seen = ctx.seen.next;
  }
}

function formatObject(ctx, value, depth, indentation) {
  const isFunction = typeof value === "function";
  const isArray = ArrayIsArray(value);
  const constructorName = nameOfConstructor(value);
  let prefix = "";
  let braces = "{}";
  let entries = newList();
  let keys = enumerableOwnKeys(value, isArray ? "array" : isTypedArray(value) ? "typed" : "none");
  let base = "";

  if (isFunction) {
    base = describeFunction(value);
    if (keys.length === 0) return piece(base, 0);
  } else if (isNativeError(value) || ObjectPrototypeIsPrototypeOf(ErrorPrototype, value)) {
    base = describeError(value);
    keys = withoutKeys(keys, "stack", "message");
    if (keys.length === 0) return piece(base, 0);
  } else if (isArray) {
    braces = "[]";
    if (constructorName !== "Array") prefix = (constructorName === null ? "[Array: null prototype]" : constructorName) + "(" + ownDataValue(value, "length") + ") ";
  } else if (isTypedArray(value)) {
    braces = "[]";
    prefix = TypedArrayPrototypeGetSymbolToStringTag(value) + "(" + TypedArrayPrototypeGetLength(value) + ") ";
  } else if (isMap(value)) {
    prefix = objectName(constructorName, "Map") + "(" + MapPrototypeGetSize(value) + ") ";
  } else if (isSet(value)) {
    prefix = objectName(constructorName, "Set") + "(" + SetPrototypeGetSize(value) + ") ";
  } else if (isDate(value)) {
    const time = DatePrototypeGetTime(value);
    base = time === time ? DatePrototypeToISOString(value) : "Invalid Date";
    if (keys.length === 0) return piece(base, 0);
  } else if (isRegExp(value)) {
    base = RegExpPrototypeToString(value);
    if (keys.length === 0) return piece(base, 0);
  } else if (isBoxedPrimitive(value)) {
    base = describeBoxed(value);
    if (keys.length === 0) return piece(base, 0);
  } else if (isWeakMap(value) || isWeakSet(value)) {
    return piece((isWeakMap(value) ? "WeakMap" : "WeakSet") + " { <items unknown> }", 0);
  } else if (isArrayBuffer(value) || isSharedArrayBuffer(value)) {
    prefix = (isArrayBuffer(value) ? "ArrayBuffer" : "SharedArrayBuffer") + " ";
  } else if (isPromise(value)) {
    prefix = "Promise ";
  } else {
    prefix = constructorName === "Object" ? "" : objectPrefix(constructorName, "Object");
  }

  if (depth > INSPECT_DEPTH) {
    if (isArray) return piece("[Array]", 0);
    const name = constructorName === null ? "Object: null prototype" : constructorName;
    return piece("[" + name + "]", 0);
  }

  // How many levels of non-empty objects nest below this one (Node keeps a value on one line
  // only when fewer than three do).
  let levels = 0;
  const add = (text, childLevels) => {
    listPush(entries, text);
    if (childLevels > levels) levels = childLevels;
  };
  const inner = indentation + 2;

  if (isArray) {
    formatArrayEntries(ctx, value, depth, inner, add);
  } else if (isTypedArray(value)) {
    const length = TypedArrayPrototypeGetLength(value);
    const shown = minOf(length, INSPECT_MAX_ARRAY);
    for (let i = 0; i < shown; i++) add(formatValue(ctx, value[i], depth + 1, inner, true).text, 0);
    if (length > shown) add("... " + (length - shown) + " more item" + (length - shown > 1 ? "s" : ""), 0);
  } else if (isMap(value)) {
    const iterator = MapPrototypeEntries(value);
    let count = 0;
    for (let step = MapIteratorPrototypeNext(iterator); !step.done; step = MapIteratorPrototypeNext(iterator)) {
      if (count++ >= INSPECT_MAX_ARRAY) { add("... more items", 0); break; }
      const k = formatValue(ctx, step.value[0], depth + 1, inner, true);
      const v = formatValue(ctx, step.value[1], depth + 1, inner, true);
      add(k.text + " => " + v.text, k.levels > v.levels ? k.levels : v.levels);
    }
  } else if (isSet(value)) {
    const iterator = SetPrototypeValues(value);
    let count = 0;
    for (let step = SetIteratorPrototypeNext(iterator); !step.done; step = SetIteratorPrototypeNext(iterator)) {
      if (count++ >= INSPECT_MAX_ARRAY) { add("... more items", 0); break; }
      const v = formatValue(ctx, step.value, depth + 1, inner, true);
      add(v.text, v.levels);
    }
  } else if (isArrayBuffer(value) || isSharedArrayBuffer(value)) {
    const bytes = new Uint8Array(value);
    const length = TypedArrayPrototypeGetLength(bytes);
    let hex = "";
    for (let i = 0; i < minOf(length, 50); i++) {
      const byte = bytes[i];
      hex = hex + (i === 0 ? "" : " ") + (byte < 16 ? "0" : "") + hexOf(byte);
    }
    if (length > 50) hex = hex + " ... " + (length - 50) + " more bytes";
    add("[Uint8Contents]: <" + hex + ">", 0);
    add("byteLength: " + length, 0);
  } else if (isPromise(value)) {
    const details = getPromiseDetails(value);
    if (details[0] === 0) add("<pending>", 0);
    else {
      const v = formatValue(ctx, details[1], depth + 1, inner, true);
      add((details[0] === 2 ? "<rejected> " : "") + v.text, v.levels);
    }
  }

  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const descriptor = ObjectGetOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) continue;
    const name = formatKey(key);
    if (ObjectPrototypeHasOwnProperty(descriptor, "value")) {
      const v = formatValue(ctx, descriptor.value, depth + 1, inner, true);
      add(name + ": " + v.text, v.levels);
    } else {
      const hasGet = descriptor.get !== undefined;
      const hasSet = descriptor.set !== undefined;
      add(name + ": " + (hasGet ? (hasSet ? "[Getter/Setter]" : "[Getter]") : hasSet ? "[Setter]" : "undefined"), 0);
    }
  }

  if (base !== "") {
    // As Node does: entries after a multi-line base (an error's stack) go on lines of their own.
    const multilineBase = StringPrototypeIndexOf(base, "\n") !== -1;
    return piece(base + " " + reduce(entries, "{}", indentation, multilineBase ? 3 : levels, base.length), levels + 1);
  }
  if (entries.length === 0) {
    return piece(prefix + braces, 0);
  }
  return piece(prefix + reduce(entries, braces, indentation, levels, prefix.length), levels + 1);
}

function formatArrayEntries(ctx, array, depth, inner, add) {
  const length = ownDataValue(array, "length");
  const shown = minOf(length, INSPECT_MAX_ARRAY);
  let holes = 0;
  const flushHoles = () => {
    if (holes > 0) add("<" + holes + " empty item" + (holes > 1 ? "s" : "") + ">", 0);
    holes = 0;
  };
  for (let i = 0; i < shown; i++) {
    const descriptor = ObjectGetOwnPropertyDescriptor(array, "" + i);
    if (descriptor === undefined) {
      holes++;
      continue;
    }
    flushHoles();
    if (ObjectPrototypeHasOwnProperty(descriptor, "value")) {
      const v = formatValue(ctx, descriptor.value, depth + 1, inner, true);
      add(v.text, v.levels);
    } else {
      add(descriptor.set !== undefined ? "[Getter/Setter]" : "[Getter]", 0);
    }
  }
  flushHoles();
  if (length > shown) add("... " + (length - shown) + " more item" + (length - shown > 1 ? "s" : ""), 0);
}

/** One line when it is short and shallow (as Node's compact mode 3 does), else one entry a line. */
function reduce(entries, braces, indentation, levels, prefixLength) {
  const open = StringPrototypeSlice(braces, 0, 1);
  const close = StringPrototypeSlice(braces, 1);
  // Node's isBelowBreakLength: entries, separators, indentation, brace, prefix and 10 spare.
  let total = entries.length + entries.length + indentation + 1 + prefixLength + 10;
  let multiline = false;
  for (let i = 0; i < entries.length; i++) {
    total += entries[i].length;
    if (StringPrototypeIndexOf(entries[i], "\n") !== -1) multiline = true;
  }
  if (!multiline && levels < 3 && total <= INSPECT_BREAK_LENGTH) {
    return open + " " + listJoin(entries, ", ") + " " + close;
  }
  const pad = "\n" + repeat(" ", indentation);
  return open + pad + "  " + listJoin(entries, "," + pad + "  ") + pad + close;
}

function enumerableOwnKeys(value, indexed) {
  const all = ReflectOwnKeys(value);
  const keys = newList();
  for (let i = 0; i < all.length; i++) {
    const key = all[i];
    if (indexed !== "none" && typeof key === "string" && isArrayIndex(key)) continue;
    if (indexed === "array" && key === "length") continue;
    const descriptor = ObjectGetOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && descriptor.enumerable === true) listPush(keys, key);
  }
  return keys;
}

function withoutKeys(keys, a, b) {
  const kept = newList();
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== a && keys[i] !== b) listPush(kept, keys[i]);
  }
  return kept;
}

function isArrayIndex(key) {
  if (key.length === 0 || key.length > 10) return false;
  for (let i = 0; i < key.length; i++) {
    const c = StringPrototypeCharCodeAt(key, i);
    if (c < 48 || c > 57) return false;
  }
  return key === "0" || StringPrototypeCharCodeAt(key, 0) !== 48;
}

function formatKey(key) {
  if (typeof key === "symbol") return "[" + SymbolPrototypeToString(key) + "]";
  return isIdentifier(key) ? key : quoteString(key, false);
}

/** The lesser of two lengths (no Math: the bootstrap does not capture it, so a sandbox never
 * makes the Math object for a program that does not use it). */
function minOf(a, b) {
  return a < b ? a : b;
}

/** Two hex digits of a byte (0-255). */
function hexUpper(byte) {
  const digits = "0123456789ABCDEF";
  return digits[(byte - byte % 16) / 16] + digits[byte % 16];
}

function hexOf(byte) {
  const digits = "0123456789abcdef";
  return byte < 16 ? digits[byte] : digits[(byte - byte % 16) / 16] + digits[byte % 16];
}

/** Node's quoting: single quotes unless the text has some and no double quotes. */
function quoteString(text, truncate) {
  let suffix = "";
  if (truncate && text.length > INSPECT_MAX_STRING) {
    suffix = "... " + (text.length - INSPECT_MAX_STRING) + " more characters";
    text = StringPrototypeSlice(text, 0, INSPECT_MAX_STRING);
  }
  let quote = 39; // '
  if (StringPrototypeIndexOf(text, "'") !== -1) {
    if (StringPrototypeIndexOf(text, '"') === -1) quote = 34;
    else if (StringPrototypeIndexOf(text, "`") === -1 && StringPrototypeIndexOf(text, "${") === -1) quote = 96;
  }
  const q = quote === 39 ? "'" : quote === 34 ? '"' : "`";
  let out = q;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = StringPrototypeCharCodeAt(text, i);
    let escaped;
    if (c === quote) escaped = "\\" + q;
    else if (c === 92) escaped = "\\\\";
    else if (c === 10) escaped = "\\n";
    else if (c === 9) escaped = "\\t";
    else if (c === 13) escaped = "\\r";
    else if (c === 8) escaped = "\\b";
    else if (c === 12) escaped = "\\f";
    else if (c === 11) escaped = "\\v";
    else if (c < 32 || c === 127) escaped = "\\x" + hexUpper(c);
    else continue;
    out = out + StringPrototypeSlice(text, last, i) + escaped;
    last = i + 1;
  }
  return out + StringPrototypeSlice(text, last) + q + suffix;
}

function objectName(constructorName, fallback) {
  return constructorName === null ? "[" + fallback + ": null prototype]" : constructorName;
}

function objectPrefix(constructorName, fallback) {
  return objectName(constructorName, fallback) + " ";
}

function describeFunction(fn) {
  const name = ownDataValue(fn, "name");
  const named = typeof name === "string" && name !== "";
  // The bootstrap's own classes (a namespace's error class) carry no source to read.
  if (isBootstrapClass(fn)) return "[class " + (named ? name : "(anonymous)") + "]";
  let source = "";
  try {
    source = FunctionPrototypeToString(fn);
  } catch (error) {
    source = "";
  }
  if (StringPrototypeSlice(source, 0, 5) === "class" && (source.length === 5 || !isIdentifier(StringPrototypeSlice(source, 5, 6)))) {
    return "[class " + (named ? name : "(anonymous)") + "]";
  }
  const kind = isAsyncFunction(fn) ? "AsyncFunction" : isGeneratorFunction(fn) ? "GeneratorFunction" : "Function";
  return "[" + kind + (named ? ": " + name : " (anonymous)") + "]";
}

function describeBoxed(value) {
  if (isNumberObject(value)) return "[Number: " + formatValue(null, NumberPrototypeValueOf(value), 0, 0, true).text + "]";
  if (isStringObject(value)) return "[String: " + quoteString(StringPrototypeValueOf(value), true) + "]";
  if (isBooleanObject(value)) return "[Boolean: " + (BooleanPrototypeValueOf(value) ? "true" : "false") + "]";
  if (isBigIntObject(value)) return "[BigInt: " + BigIntPrototypeValueOf(value) + "n]";
  return "[Symbol: " + SymbolPrototypeToString(SymbolPrototypeValueOf(value)) + "]";
}

// `describeError` is what a log line and a failed run show for an error: its stack, which
// starts with `Name: message`, keeping only the program's frames and with positions as the
// model wrote them (the wrapper's head shifts line 1; see src/runtime/js/strip.rs).

/** Reads a property the way Node's inspect reads an error's stack and message: getters run
 * (bounded by the compute budget); a throwing getter reads as undefined. */
function readProperty(object, key) {
  try {
    return ReflectGet(object, key);
  } catch (error) {
    return undefined;
  }
}

function describeError(error) {
  const rawName = readProperty(error, "name");
  const rawMessage = readProperty(error, "message");
  const name = typeof rawName === "string" && rawName !== "" ? rawName : "Error";
  const message = typeof rawMessage === "string" ? rawMessage : "";
  const header = message === "" ? name : name + ": " + message;
  const stack = readProperty(error, "stack");
  if (typeof stack !== "string" || stack === "") return "[" + header + "]";
  const frames = programFrames(stack);
  // V8 stacks start with the header; QuickJS stacks may hold frames only.
  const firstFrame = StringPrototypeIndexOf(stack, "\n    at ");
  const stackHeader = firstFrame === -1 ? stack : StringPrototypeSlice(stack, 0, firstFrame);
  const startsWithFrame = StringPrototypeSlice(stack, 0, 7) === "    at ";
  const head = startsWithFrame ? header : mapProgramPositions(stackHeader);
  return frames === "" ? head : head + "\n" + frames;
}

/** Frames shown per error, as V8's default Error.stackTraceLimit. */
const STACK_FRAMES_SHOWN = 10;

/** The stack's `    at ...` lines that point into the program, positions mapped; at most
 * ten (deep recursion would otherwise print thousands). */
function programFrames(stack) {
  let frames = "";
  let shown = 0;
  let start = 0;
  while (start < stack.length && shown < STACK_FRAMES_SHOWN) {
    let end = StringPrototypeIndexOf(stack, "\n", start);
    if (end === -1) end = stack.length;
    const line = StringPrototypeSlice(stack, start, end);
    start = end + 1;
    if (StringPrototypeSlice(line, 0, 7) !== "    at ") continue;
    if (StringPrototypeIndexOf(line, PROGRAM_FILE + ":") === -1) continue;
    // The call of the wrapper function, on the line after the program: not the model's code.
    if (StringPrototypeIndexOf(line, PROGRAM_FILE + ":" + (programLineCount() + 1) + ":") !== -1) continue;
    frames = frames === "" ? mapProgramPositions(line) : frames + "\n" + mapProgramPositions(line);
    shown++;
  }
  return frames;
}

/** Rewrites `program.ts:1:<column>` to the column the model wrote. */
function mapProgramPositions(text) {
  const needle = PROGRAM_FILE + ":1:";
  let out = "";
  let last = 0;
  for (let at = StringPrototypeIndexOf(text, needle); at !== -1; at = StringPrototypeIndexOf(text, needle, last)) {
    const digitsStart = at + needle.length;
    let digitsEnd = digitsStart;
    while (digitsEnd < text.length) {
      const c = StringPrototypeCharCodeAt(text, digitsEnd);
      if (c < 48 || c > 57) break;
      digitsEnd++;
    }
    if (digitsEnd === digitsStart) {
      out = out + StringPrototypeSlice(text, last, digitsStart);
    } else {
      let column = NumberParseInt(StringPrototypeSlice(text, digitsStart, digitsEnd), 10) - PROGRAM_HEAD_LENGTH;
      if (column < 1) column = 1;
      out = out + StringPrototypeSlice(text, last, digitsStart) + column;
    }
    last = digitsEnd;
  }
  return out + StringPrototypeSlice(text, last);
}

/** The name of the constructor on the prototype chain's first `constructor` data property,
 * `null` for a null-prototype object; reads descriptors only. */
function nameOfConstructor(value) {
  let proto = ObjectGetPrototypeOf(value);
  if (proto === null) return null;
  for (let hops = 0; proto !== null && hops < 100; hops++) {
    if (isProxy(proto)) return "Object";
    const constructor = ownDataValue(proto, "constructor");
    if (typeof constructor === "function") {
      const name = ownDataValue(constructor, "name");
      if (typeof name === "string" && name !== "") return name;
    }
    proto = ObjectGetPrototypeOf(proto);
  }
  return "Object";
}

function isBoxedPrimitive(value) {
  return isNumberObject(value) || isStringObject(value) || isBooleanObject(value) || isBigIntObject(value) || isSymbolObject(value);
}

/** "a Date", "a Map", "an instance of Point": what a non-plain object is, without running it. */
function describeNonPlain(value) {
  if (isDate(value)) return "a Date";
  if (isMap(value)) return "a Map";
  if (isSet(value)) return "a Set";
  if (isRegExp(value)) return "a RegExp";
  if (isPromise(value)) return "a Promise (did you forget await?)";
  if (isNativeError(value)) return "an Error";
  if (isTypedArray(value)) return "a typed array";
  if (isArrayBuffer(value) || isSharedArrayBuffer(value)) return "an ArrayBuffer";
  if (isBoxedPrimitive(value)) return "a boxed primitive";
  if (isWeakMap(value) || isWeakSet(value)) return "a weak collection";
  const name = nameOfConstructor(value);
  return "an instance of " + (name === null ? "a class" : name);
}

function conversionHint(value) {
  if (isDate(value)) return " (convert it with toISOString())";
  if (isMap(value)) return " (convert it with Object.fromEntries(map))";
  if (isSet(value) || isTypedArray(value)) return " (convert it with Array.from())";
  if (isNativeError(value)) return " (return its message)";
  return " (copy its data into a plain object)";
}

/** What a failed run reports for a thrown value: an error by its stack (and own enumerable
 * properties, as Node prints an uncaught error), anything else as `Uncaught <value>`. */
function describeThrown(value) {
  if (value !== null && (typeof value === "object" || typeof value === "function") && !isProxy(value) &&
      (isNativeError(value) || ObjectPrototypeIsPrototypeOf(ErrorPrototype, value))) {
    return inspect(value);
  }
  return "Uncaught " + inspect(value, true);
}
