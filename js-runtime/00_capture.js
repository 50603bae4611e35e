// codemode runtime bootstrap, part 0: capture everything the bootstrap relies on.
//
// The files of js-runtime/ are fragments of ONE strict function body, concatenated in name
// order by src/runtime/engine/bootstrap.rs and evaluated in a fresh runtime before any
// program exists. The function returns the host API object (see 90_seal.js), which only the
// host holds. Every builtin the bootstrap uses is captured here, so a program that replaces
// globals or prototypes (Object.prototype, JSON, Promise, Array.prototype, Symbol, ...)
// cannot change what the bootstrap does.
//
// Rules for the bootstrap code, because a program is hostile and shares the realm:
// - only captured functions; never `for...of`, spread calls or array destructuring (they use
//   the overridable iterator protocol); never `instanceof` or `in` on program values;
// - records are null-prototype objects, lists are made with `newList`/`listPush` (writing an
//   index of a real array can hit a setter a program put on Array.prototype);
// - never call a getter of a program value unless the design says so (inspect shows
//   `[Getter]`, the JSON check refuses accessors);
// - strict mode everywhere, so `.caller` never reveals a bootstrap function.

const primordials = globalThis.__bootstrap.primordials;
const globalObject = primordials.globalThis;
const core = globalThis.Deno.core;
const ops = core.ops;

const {
  ArrayIsArray,
  ArrayPrototype,
  Error,
  ErrorPrototype,
  FunctionPrototype,
  FunctionPrototypeToString,
  JSONParse,
  JSONStringify,
  Map,
  MapPrototypeEntries,
  MapPrototypeGet,
  MapPrototypeGetSize,
  MapPrototypeSet,
  MapIteratorPrototypeNext,
  MathFloor,
  MathMin,
  NumberIsFinite,
  NumberIsInteger,
  NumberParseFloat,
  NumberParseInt,
  NumberPrototypeValueOf,
  ObjectDefineProperty,
  ObjectFreeze,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ObjectPrototype,
  ObjectPrototypeHasOwnProperty,
  ObjectPrototypeIsPrototypeOf,
  ObjectSetPrototypeOf,
  ReflectApply,
  ReflectDeleteProperty,
  ReflectGet,
  ReflectOwnKeys,
  SetPrototypeGetSize,
  SetPrototypeValues,
  SetIteratorPrototypeNext,
  StringPrototypeCharCodeAt,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
  StringPrototypeValueOf,
  BooleanPrototypeValueOf,
  BigIntPrototypeValueOf,
  SymbolPrototypeToString,
  SymbolPrototypeValueOf,
  DatePrototypeGetTime,
  DatePrototypeToISOString,
  RegExpPrototypeToString,
  TypedArrayPrototypeGetLength,
  TypedArrayPrototypeGetSymbolToStringTag,
  ArrayBufferPrototypeGetByteLength,
  Uint8Array,
  String,
  TypeError,
} = primordials;

const {
  isArrayBuffer,
  isAsyncFunction,
  isBigIntObject,
  isBooleanObject,
  isDate,
  isGeneratorFunction,
  isMap,
  isNativeError,
  isNumberObject,
  isPromise,
  isProxy,
  isRegExp,
  isSet,
  isSharedArrayBuffer,
  isStringObject,
  isSymbolObject,
  isTypedArray,
  isWeakMap,
  isWeakSet,
  getPromiseDetails,
  getProxyDetails,
  createTimer,
  cancelTimer,
  setUnhandledPromiseRejectionHandler,
  setReportExceptionCallback,
} = core;

const opLog = ops.op_codemode_log;
const opCall = ops.op_codemode_call;
const opUncaught = ops.op_codemode_uncaught;

/** A fresh list: a null-prototype record with a length (see the rules above). */
function newList() {
  return { __proto__: null, length: 0 };
}

function listPush(list, value) {
  list[list.length] = value;
  list.length = list.length + 1;
}

function listJoin(list, separator) {
  let text = "";
  for (let i = 0; i < list.length; i++) {
    text = i === 0 ? list[i] : text + separator + list[i];
  }
  return text;
}

/** The own data descriptor's value, or undefined; never calls a getter. */
function ownDataValue(object, key) {
  const descriptor = ObjectGetOwnPropertyDescriptor(object, key);
  if (descriptor === undefined || !ObjectPrototypeHasOwnProperty(descriptor, "value")) {
    return undefined;
  }
  return descriptor.value;
}

/** Whether a string is an identifier that needs no quoting as a key. */
function isIdentifier(text) {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = StringPrototypeCharCodeAt(text, i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    const digit = c >= 48 && c <= 57;
    if (!(letter || (digit && i > 0))) return false;
  }
  return true;
}

/** `text` repeated `count` times (no String.prototype.repeat: it is a program's to replace). */
function repeat(text, count) {
  let out = "";
  for (let i = 0; i < count; i++) out = out + text;
  return out;
}
