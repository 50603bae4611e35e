// codemode runtime bootstrap, part 4: binding namespaces (`tools`) and their calls.
//
// Each namespace is a global null-prototype object with one own property per member, so
// `tools.__proto__` and `tools.constructor` are ordinary members. The global is a Proxy of
// that frozen object with one trap, `get`, which answers as the object does (`undefined`
// for a member it does not have, so `tools.x?.()` and `typeof tools.x` work) and notes the
// last string key asked for that is not a member: when the run then fails with the
// engine's "tools... is not a function", the host's hint names it (`missingMember`).
//
// A call checks its argument as lossless JSON (a bad argument rejects that call alone; nothing reaches the host), then
// submits it to the host synchronously, so calls reach the host in the program's order.
// The host answers a call by its id (`settleCall`); the promise's resolver waits here, in
// one map, so the host keeps no engine handle per pending call.

/** How each pending call settles, by the call's id: `{ resolve, reject, ErrorClass, member,
 * positional }`. */
const pendingCalls = new Map();

/** The value of an answer `J<json>`, or throws the namespace's error for
 * `E<CODE>:<message>` (a code is `[A-Z_]+`: the first colon ends it). A positional
 * namespace's host answers an array of at most one value: `[]` is `undefined`. */
function answerValue(answer, ErrorClass, member, positional) {
  if (StringPrototypeSlice(answer, 0, 1) === "J") {
    const value = JSONParse(StringPrototypeSlice(answer, 1));
    return positional ? value[0] : value;
  }
  const colon = StringPrototypeIndexOf(answer, ":");
  throw new ErrorClass(StringPrototypeSlice(answer, colon + 1), member, StringPrototypeSlice(answer, 1, colon));
}

/** The host's answer to call `id` (host API): settles the call's promise. */
function settleCall(id, answer) {
  const pending = MapPrototypeGet(pendingCalls, id);
  if (pending === undefined) return;
  MapPrototypeDelete(pendingCalls, id);
  let value;
  try {
    value = answerValue(answer, pending.ErrorClass, pending.member, pending.positional);
  } catch (error) {
    pending.reject(error);
    return;
  }
  pending.resolve(value);
}

/** Per namespace index: the last string key the program asked the namespace for that is
 * not one of its members. */
let missingMembers = { __proto__: null };

/** The last member namespace `index` was asked for and does not have (host API): `M<name>`,
 * or the empty string when there is none. */
function missingMember(index) {
  const name = missingMembers[index];
  return typeof name === "string" ? "M" + name : "";
}

/** The namespace as the program sees it: `object` itself but for the note of a key that is
 * not a member (see the top of this file). */
function namespaceView(object, index) {
  return new Proxy(object, {
    __proto__: null,
    get: function (target, key) {
      const value = target[key];
      if (value === undefined && typeof key === "string") missingMembers[index] = key;
      return value;
    },
  });
}

/** The number of lines of the program of this run (its stack frames are below that). */
let programLines = 0;

function programLineCount() {
  return programLines;
}

/** Prepares the run of a program of `lines` lines: installs the namespaces described by
 * `specText` (JSON from the host: a list of `{ global, errorClass, memberProperty, members,
 * positional, callable }`: a positional namespace's members pass the array of their
 * arguments; a callable one's global is its one member itself);
 * a call's argument JSON may be at most `argumentLimit` bytes; values nest at most
 * `depthLimit` levels. */
function prepareRun(specText, argumentLimit, lines, depthLimit) {
  programLines = lines;
  jsonMaxDepth = depthLimit;
  missingMembers = { __proto__: null };
  const spec = JSONParse(specText);
  for (let i = 0; i < spec.length; i++) {
    const namespace = spec[i];
    const ErrorClass = makeErrorClass(namespace.errorClass, namespace.memberProperty);
    const object = { __proto__: null };
    const members = namespace.members;
    for (let j = 0; j < members.length; j++) {
      // A repeated name keeps its first definition.
      if (ObjectPrototypeHasOwnProperty(object, members[j])) continue;
      // An own data property of a null-prototype object (`__proto__` included: there is no
      // inherited setter), made read-only and fixed by the freeze below: the attributes a
      // descriptor would give, without a descriptor object per member.
      object[members[j]] = makeMember(i, j, members[j], ErrorClass, argumentLimit, namespace.positional === true);
    }
    ObjectFreeze(object);
    if (namespace.callable === true) {
      // `progress(...)`: the global is the one member itself; its errors' class is no
      // global of its own.
      defineGlobal(namespace.global, object[members[0]]);
      continue;
    }
    defineGlobal(namespace.errorClass, ErrorClass);
    defineGlobal(namespace.global, namespaceView(object, i));
  }
}

function makeMember(namespaceIndex, memberIndex, member, ErrorClass, argumentLimit, positional) {
  // Not an async function: a pending call holds one promise and its record, no suspended
  // frame, so a program can keep many thousands in flight within its heap. Defined as the
  // value of a computed key, so its `name` is the member's (as a `defineProperty` of
  // `name` would make it: read-only, configurable) without a descriptor.
  const named = { __proto__: null, [member]: function (first) {
    // A positional member's argument is the array of its arguments (`undefined` among
    // them is refused by the check, as anywhere in a value).
    const args = positional ? ArrayPrototypeSlice(arguments) : first;
    return new Promise(function (resolve, reject) {
      let text = "{}";
      if (args !== undefined) {
        const checked = checkLossless(args, argumentLimit);
        if (!checked.ok) {
          const why = checked.overLimit
            ? "the arguments are over the per-call limit: their JSON text is longer than " + argumentLimit + " bytes (runtime.max_call_bytes)"
            : "the arguments are not lossless JSON: " + checked.message;
          reject(new ErrorClass(why, member, "INVALID_ARGS"));
          return;
        }
        text = checked.text;
      }
      // The host answers with the call's id, or at once with `E<CODE>:<message>`.
      const submitted = opCall(namespaceIndex, memberIndex, text);
      if (typeof submitted === "number") {
        MapPrototypeSet(pendingCalls, submitted, { __proto__: null, resolve, reject, ErrorClass, member, positional });
        return;
      }
      try {
        resolve(answerValue(submitted, ErrorClass, member, positional));
      } catch (error) {
        reject(error);
      }
    });
  } };
  return named[member];
}

/** A global the program may read, overwrite or delete (doing so only changes its own run). */
function defineGlobal(name, value) {
  ObjectDefineProperty(globalObject, name, {
    __proto__: null,
    value,
    writable: true,
    enumerable: false,
    configurable: true,
  });
}
