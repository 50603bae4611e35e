// codemode runtime bootstrap, part 2: the lossless-JSON check of program values.
//
// `checkLossless(value, limit)` turns a value into JSON text, or says what is not JSON and
// where (`$.items[2].when: a Date is not JSON ...`). It accepts exactly what survives a round
// trip through JSON text unchanged: null, booleans, finite numbers, strings, arrays without
// holes or extra properties, and plain objects (prototype Object.prototype or null) whose own
// properties are enumerable, string-keyed data properties. It never runs program code: no
// getters (accessors are refused), no toJSON, no Proxy traps (a Proxy is refused). Cycles,
// nesting deeper than 128 levels and text longer than `limit` are refused. The host parses
// the text again (integer range and depth, see src/json.rs).

const JSON_MAX_DEPTH = 128;
const JSON_STOP = { __proto__: null };

function checkLossless(value, limit) {
  const state = {
    __proto__: null,
    size: 0,
    limit,
    message: "",
    circular: false,
    overLimit: false,
  };
  try {
    const text = jsonValue(value, state, null, undefined);
    return { __proto__: null, ok: true, text };
  } catch (error) {
    if (error !== JSON_STOP) throw error;
    return {
      __proto__: null,
      ok: false,
      message: state.message,
      circular: state.circular,
      overLimit: state.overLimit,
    };
  }
}

/** A frame of the walk: the object being walked, the key that led to it, its parent frame. */
function jsonFrame(value, key, parent) {
  return { __proto__: null, value, key, parent };
}

function jsonFail(state, frame, key, reason) {
  state.message = jsonPath(frame, key) + ": " + reason;
  throw JSON_STOP;
}

function jsonGrow(state, text) {
  state.size += text.length;
  if (state.size > state.limit) {
    state.overLimit = true;
    state.message = "the JSON text is longer than " + state.limit + " bytes";
    throw JSON_STOP;
  }
  return text;
}

/** `$.a[0]["odd key"]`: the notation of src/json.rs. `key` is the last step (undefined: none). */
function jsonPath(frame, key) {
  let path = key === undefined ? "" : jsonPathStep(key);
  for (let f = frame; f !== null; f = f.parent) {
    if (f.key !== undefined) path = jsonPathStep(f.key) + path;
  }
  return "$" + path;
}

function jsonPathStep(key) {
  if (typeof key === "number") return "[" + key + "]";
  return isIdentifier(key) ? "." + key : "[" + JSONStringify(key) + "]";
}

function jsonValue(value, state, frame, key) {
  switch (typeof value) {
    case "string":
      return jsonGrow(state, JSONStringify(value));
    case "number":
      if (!NumberIsFinite(value)) {
        jsonFail(state, frame, key, value + " is not a finite number (JSON has no NaN or Infinity)");
      }
      return jsonGrow(state, JSONStringify(value));
    case "boolean":
      return jsonGrow(state, value ? "true" : "false");
    case "undefined":
      return jsonFail(state, frame, key, "undefined is not JSON (use null, or leave the property out)");
    case "bigint":
      return jsonFail(state, frame, key, "a BigInt is not JSON (convert it with Number() or String())");
    case "symbol":
      return jsonFail(state, frame, key, "a symbol is not JSON");
    case "function":
      return jsonFail(state, frame, key, "a function is not JSON");
  }
  if (value === null) return jsonGrow(state, "null");
  if (isProxy(value)) {
    return jsonFail(state, frame, key, "a Proxy is not JSON (return a plain copy of the data)");
  }
  const here = jsonFrame(value, key, frame);
  let depth = 0;
  for (let f = frame; f !== null; f = f.parent) {
    depth++;
    if (f.value === value) {
      state.circular = true;
      return jsonFail(state, frame, key, "circular reference (back to " + jsonPath(f.parent, f.key) + ")");
    }
  }
  if (depth >= JSON_MAX_DEPTH) {
    return jsonFail(state, frame, key, "arrays and objects nest deeper than " + JSON_MAX_DEPTH + " levels");
  }
  const proto = ObjectGetPrototypeOf(value);
  if (ArrayIsArray(value)) {
    if (proto !== ArrayPrototype) {
      return jsonFail(state, frame, key, "an instance of an Array subclass is not plain JSON (copy it with Array.from())");
    }
    return jsonArray(value, state, here);
  }
  if (proto !== ObjectPrototype && proto !== null) {
    return jsonFail(state, frame, key, describeNonPlain(value) + " is not JSON" + conversionHint(value));
  }
  return jsonObject(value, state, here);
}

function jsonArray(array, state, frame) {
  const length = ownDataValue(array, "length");
  const keys = ReflectOwnKeys(array);
  if (keys.length !== length + 1) {
    for (let i = 0; i < length; i++) {
      if (ObjectGetOwnPropertyDescriptor(array, "" + i) === undefined) {
        jsonFail(state, frame, i, "an empty slot (a hole) is not JSON (fill it, e.g. with null)");
      }
    }
    jsonFail(state, frame, undefined, "the array has extra properties that JSON would drop (keep data in elements, or use an object)");
  }
  let text = jsonGrow(state, "[");
  for (let i = 0; i < length; i++) {
    const descriptor = ObjectGetOwnPropertyDescriptor(array, "" + i);
    if (descriptor === undefined) {
      jsonFail(state, frame, i, "an empty slot (a hole) is not JSON (fill it, e.g. with null)");
    }
    if (!ObjectPrototypeHasOwnProperty(descriptor, "value")) {
      jsonFail(state, frame, i, "a getter is not JSON (store the value itself)");
    }
    if (i > 0) text = text + jsonGrow(state, ",");
    text = text + jsonValue(descriptor.value, state, frame, i);
  }
  return text + jsonGrow(state, "]");
}

function jsonObject(object, state, frame) {
  const keys = ReflectOwnKeys(object);
  let text = jsonGrow(state, "{");
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === "symbol") {
      jsonFail(state, frame, undefined, "a symbol-keyed property (" + SymbolPrototypeToString(key) + ") is not JSON");
    }
    const descriptor = ObjectGetOwnPropertyDescriptor(object, key);
    if (descriptor === undefined) continue;
    if (!ObjectPrototypeHasOwnProperty(descriptor, "value")) {
      jsonFail(state, frame, key, "a getter is not JSON (store the value itself)");
    }
    if (descriptor.enumerable !== true) {
      jsonFail(state, frame, key, "a non-enumerable property is not JSON (JSON would drop it)");
    }
    text = text + jsonGrow(state, (first ? "" : ",") + JSONStringify(key) + ":");
    first = false;
    text = text + jsonValue(descriptor.value, state, frame, key);
  }
  return text + jsonGrow(state, "}");
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
