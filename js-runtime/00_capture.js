// codemode runtime bootstrap, part 0: capture everything the bootstrap relies on.
//
// The files of js-runtime/ are fragments of ONE strict function body, concatenated in name
// order by src/runtime/js/sandbox.rs and evaluated in a fresh context before any
// program exists; `host` is the object of the host's natives. The function returns the host
// API object (see 90_seal.js), which only the host holds. Every builtin the bootstrap uses is captured here, so a program that replaces
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

const globalObject = globalThis;
const Uint8Array = globalObject.Uint8Array;
const String = globalObject.String;
const TypeError = globalObject.TypeError;

// `uncurryThis(f)(self, ...args)` is `f.call(self, ...args)` through a bound function: later
// changes to Function.prototype.call or .bind do not reach it. What only the inspector calls
// is captured raw (`...Raw`, the builtin itself) and uncurried when the inspector loads
// (`inspectorImports`): a bound function per builtin is work most runs never use.
const FunctionPrototype = Function.prototype;
const uncurryThis = FunctionPrototype.bind.bind(FunctionPrototype.call);
const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ObjectGetPrototypeOf = Object.getPrototypeOf;

const ArrayIsArray = Array.isArray;
const ArrayPrototype = Array.prototype;
// On an `arguments` object (never an array, so no species) it makes a plain array by
// defining its elements: no setter of Array.prototype is reached.
const ArrayPrototypeSlice = uncurryThis(ArrayPrototype.slice);
const Error = globalObject.Error;
const ErrorPrototype = Error.prototype;
const FunctionPrototypeToStringRaw = FunctionPrototype.toString;
const JSONParse = JSON.parse;
const JSONStringify = JSON.stringify;
const Map = globalObject.Map;
const MapPrototypeEntriesRaw = Map.prototype.entries;
const MapPrototypeDelete = uncurryThis(Map.prototype.delete);
const MapPrototypeGet = uncurryThis(Map.prototype.get);
const MapPrototypeGetSizeRaw = ObjectGetOwnPropertyDescriptor(Map.prototype, "size").get;
const MapPrototypeSet = uncurryThis(Map.prototype.set);
const MapIteratorPrototypeNextRaw = ObjectGetPrototypeOf(new Map().entries()).next;
const NumberIsFinite = Number.isFinite;
const NumberParseFloat = Number.parseFloat;
const NumberParseInt = Number.parseInt;
const NumberPrototypeValueOfRaw = Number.prototype.valueOf;
const ObjectDefineProperty = Object.defineProperty;
const ObjectFreeze = Object.freeze;
const ObjectPrototype = Object.prototype;
const ObjectPrototypeHasOwnProperty = uncurryThis(ObjectPrototype.hasOwnProperty);
const ObjectPrototypeIsPrototypeOfRaw = ObjectPrototype.isPrototypeOf;
const Promise = globalObject.Promise;
const Proxy = globalObject.Proxy;
const ReflectApply = Reflect.apply;
const ReflectDeleteProperty = Reflect.deleteProperty;
const ReflectGet = Reflect.get;
const ReflectOwnKeys = Reflect.ownKeys;
const SetPrototypeGetSizeRaw = ObjectGetOwnPropertyDescriptor(Set.prototype, "size").get;
const SetPrototypeValuesRaw = Set.prototype.values;
const SetIteratorPrototypeNextRaw = ObjectGetPrototypeOf(new Set().values()).next;
const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
const StringPrototypeIndexOf = uncurryThis(String.prototype.indexOf);
const StringPrototypeIsWellFormed = uncurryThis(String.prototype.isWellFormed);
const StringPrototypeSlice = uncurryThis(String.prototype.slice);
const StringPrototypeValueOfRaw = String.prototype.valueOf;
const BooleanPrototypeValueOfRaw = Boolean.prototype.valueOf;
const BigIntPrototypeValueOfRaw = BigInt.prototype.valueOf;
const SymbolPrototypeToString = uncurryThis(Symbol.prototype.toString);
const SymbolPrototypeValueOfRaw = Symbol.prototype.valueOf;
const DatePrototypeGetTimeRaw = Date.prototype.getTime;
const DatePrototypeToISOStringRaw = Date.prototype.toISOString;
const RegExpPrototypeToStringRaw = RegExp.prototype.toString;
const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
const TypedArrayPrototypeGetLengthRaw = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, "length").get;
const TypedArrayPrototypeGetSymbolToStringTagRaw = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;

// The host's natives (src/runtime/js/natives.rs): held here, never reachable by a program.
const {
  kindsOf,
  getPromiseDetails,
  getProxyDetails,
  createTimer,
  cancelTimer,
  enqueueMicrotask,
} = host;

// What a value is, read by the engine from the value itself (never from a property or a
// prototype a program can change): one native, `kindsOf`, answers every predicate as a bit,
// in the order of `KINDS` in natives.rs. The bootstrap needs only `isProxy`; the inspector
// defines the others the same way.
function isProxy(value) { return kindsOf(value, 1024) !== 0; }

const opLog = host.log;
const opCall = host.call;
const opUncaught = host.uncaught;

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
