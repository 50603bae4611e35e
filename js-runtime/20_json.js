// codemode runtime bootstrap, part 2: the lossless-JSON check of program values.
//
// `checkLossless(value, limit)` turns a value into JSON text, or says what is not JSON and
// where (`$.items[2].when: a Date is not JSON ...`). It accepts exactly what survives a round
// trip through JSON text unchanged: null, booleans, finite numbers, strings, arrays without
// holes or extra properties, and plain objects (prototype Object.prototype or null) whose own
// properties are enumerable, string-keyed data properties, with no -0 and no lone surrogate
// in a string or key. It never runs program code: no getters (accessors are refused), no
// toJSON, no Proxy traps (a Proxy is refused). Cycles, nesting deeper than jsonMaxDepth
// levels and text longer than `limit` are refused. The walk is iterative. The host parses
// the text again (integer range and depth, see src/json/).

/** How deep values may nest (set per run by prepareRun; runtime.max_json_depth). */
let jsonMaxDepth = 128;
const JSON_STOP = { __proto__: null };

function checkLossless(value, limit) {
  const state = {
    __proto__: null,
    size: 0,
    limit,
    message: "",
    circular: false,
    overLimit: false,
    text: "",
    // The containers on the path to the current one, to their frames (cycle detection).
    open: new Map(),
  };
  try {
    jsonWalk(value, state);
    return { __proto__: null, ok: true, text: state.text };
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

/**
 * A frame of the walk: the container being walked, the key that led to it, its parent
 * frame, its depth, and where the walk is in it (`keys` for an object, `length` for an
 * array, `next` the index of the next element or key).
 */
function jsonFrame(value, key, parent, depth) {
  return { __proto__: null, value, key, parent, depth, keys: null, length: 0, next: 0, isArray: false, written: false };
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
  state.text = state.text + text;
}

/** `$.a[0]["odd key"]`: the notation of src/json/. `key` is the last step (undefined: none). */
function jsonPath(frame, key) {
  // The steps, innermost first; a path of more than 100 steps shows its first and last 50
  // (as src/json/ does).
  const steps = newList();
  if (key !== undefined) listPush(steps, key);
  for (let f = frame; f !== null; f = f.parent) {
    if (f.key !== undefined) listPush(steps, f.key);
  }
  const count = steps.length;
  let path = "";
  for (let i = count - 1; i >= 0; i--) {
    const outer = count - 1 - i;
    if (count > 100 && outer >= 50 && outer < count - 50) {
      if (outer === 50) path = path + "...(" + (count - 100) + " steps)...";
      continue;
    }
    path = path + jsonPathStep(steps[i]);
  }
  return "$" + path;
}

function jsonPathStep(key) {
  if (typeof key === "number") return "[" + key + "]";
  return isIdentifier(key) ? "." + key : "[" + JSONStringify(key) + "]";
}

/** Where `text` has a lone surrogate (-1: nowhere): JSON text cannot carry one. */
function loneSurrogateAt(text) {
  if (StringPrototypeIsWellFormed(text)) return -1;
  for (let i = 0; i < text.length; i++) {
    const unit = StringPrototypeCharCodeAt(text, i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? StringPrototypeCharCodeAt(text, i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

function loneSurrogateReason(text, at, what) {
  const unit = StringPrototypeCharCodeAt(text, at);
  let hex = "";
  for (let shift = 12; shift >= 0; shift -= 4) hex = hex + "0123456789ABCDEF"[(unit >> shift) & 15];
  return what + " with a lone surrogate (U+" + hex + " at index " + at + ") is not UTF-8 text";
}

/**
 * Writes a scalar at `key` of `frame` (the root when `frame` is null); returns false when
 * `value` is an object, which the caller opens.
 */
function jsonScalar(value, state, frame, key) {
  switch (typeof value) {
    case "string": {
      const at = loneSurrogateAt(value);
      if (at >= 0) jsonFail(state, frame, key, loneSurrogateReason(value, at, "a string"));
      jsonGrow(state, JSONStringify(value));
      return true;
    }
    case "number":
      if (!NumberIsFinite(value)) {
        jsonFail(state, frame, key, value + " is not a finite number (JSON has no NaN or Infinity)");
      }
      if (value === 0 && 1 / value < 0) {
        jsonFail(state, frame, key, "-0 is not JSON (JSON text would make it 0; use 0)");
      }
      jsonGrow(state, JSONStringify(value));
      return true;
    case "boolean":
      jsonGrow(state, value ? "true" : "false");
      return true;
    case "undefined":
      return jsonFail(state, frame, key, "undefined is not JSON (use null, or leave the property out)");
    case "bigint":
      return jsonFail(state, frame, key, "a BigInt is not JSON (convert it with Number() or String())");
    case "symbol":
      return jsonFail(state, frame, key, "a symbol is not JSON");
    case "function":
      return jsonFail(state, frame, key, "a function is not JSON");
  }
  if (value === null) {
    jsonGrow(state, "null");
    return true;
  }
  return false;
}

/** Checks an object found at `key` of `parent` and opens its frame (writing `[` or `{`). */
function jsonOpen(value, state, parent, key) {
  if (isProxy(value)) {
    return jsonFail(state, parent, key, "a Proxy is not JSON (return a plain copy of the data)");
  }
  const ancestor = MapPrototypeGet(state.open, value);
  if (ancestor !== undefined) {
    state.circular = true;
    return jsonFail(state, parent, key, "circular reference (back to " + jsonPath(ancestor.parent, ancestor.key) + ")");
  }
  const depth = parent === null ? 1 : parent.depth + 1;
  if (depth > jsonMaxDepth) {
    return jsonFail(state, parent, key, "arrays and objects nest deeper than " + jsonMaxDepth + " levels");
  }
  const frame = jsonFrame(value, key, parent, depth);
  const proto = ObjectGetPrototypeOf(value);
  if (ArrayIsArray(value)) {
    if (proto !== ArrayPrototype) {
      return jsonFail(state, parent, key, "an instance of an Array subclass is not plain JSON (copy it with Array.from())");
    }
    const length = ownDataValue(value, "length");
    const keys = ReflectOwnKeys(value);
    if (keys.length !== length + 1) {
      for (let i = 0; i < length; i++) {
        if (ObjectGetOwnPropertyDescriptor(value, "" + i) === undefined) {
          jsonFail(state, frame, i, "an empty slot (a hole) is not JSON (fill it, e.g. with null)");
        }
      }
      jsonFail(state, frame, undefined, "the array has extra properties that JSON would drop (keep data in elements, or use an object)");
    }
    frame.isArray = true;
    frame.length = length;
    jsonGrow(state, "[");
  } else {
    if (proto !== ObjectPrototype && proto !== null) {
      return jsonFail(state, parent, key, notJsonReason(value));
    }
    frame.keys = ReflectOwnKeys(value);
    jsonGrow(state, "{");
  }
  MapPrototypeSet(state.open, value, frame);
  return frame;
}

/**
 * The walk, without recursion (a value may nest as deep as jsonMaxDepth; the engine's
 * stack is not spent on it): each step writes the next member of the innermost open
 * container, or closes it.
 */
function jsonWalk(root, state) {
  if (jsonScalar(root, state, null, undefined)) return;
  let frame = jsonOpen(root, state, null, undefined);
  while (frame !== null) {
    const container = frame.value;
    let key;
    let descriptor;
    if (frame.isArray) {
      if (frame.next >= frame.length) {
        jsonGrow(state, "]");
        MapPrototypeDelete(state.open, container);
        frame = frame.parent;
        continue;
      }
      key = frame.next;
      frame.next = key + 1;
      descriptor = ObjectGetOwnPropertyDescriptor(container, "" + key);
      if (descriptor === undefined) {
        jsonFail(state, frame, key, "an empty slot (a hole) is not JSON (fill it, e.g. with null)");
      }
      if (!ObjectPrototypeHasOwnProperty(descriptor, "value")) {
        jsonFail(state, frame, key, "a getter is not JSON (store the value itself)");
      }
      if (key > 0) jsonGrow(state, ",");
    } else {
      const keys = frame.keys;
      if (frame.next >= keys.length) {
        jsonGrow(state, "}");
        MapPrototypeDelete(state.open, container);
        frame = frame.parent;
        continue;
      }
      key = keys[frame.next];
      const first = !frame.written;
      frame.next = frame.next + 1;
      if (typeof key === "symbol") {
        jsonFail(state, frame, undefined, "a symbol-keyed property (" + SymbolPrototypeToString(key) + ") is not JSON");
      }
      descriptor = ObjectGetOwnPropertyDescriptor(container, key);
      if (descriptor === undefined) continue;
      if (!ObjectPrototypeHasOwnProperty(descriptor, "value")) {
        jsonFail(state, frame, key, "a getter is not JSON (store the value itself)");
      }
      if (descriptor.enumerable !== true) {
        jsonFail(state, frame, key, "a non-enumerable property is not JSON (JSON would drop it)");
      }
      const at = loneSurrogateAt(key);
      // A key problem names the object holding the key (as a symbol key does, and the
      // library and the Python worker do).
      if (at >= 0) jsonFail(state, frame, undefined, loneSurrogateReason(key, at, "a key"));
      jsonGrow(state, (first ? "" : ",") + JSONStringify(key) + ":");
      frame.written = true;
    }
    const value = descriptor.value;
    if (!jsonScalar(value, state, frame, key)) frame = jsonOpen(value, state, frame, key);
  }
}
