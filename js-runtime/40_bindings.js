// codemode runtime bootstrap, part 4: binding namespaces (`tools`) and their calls.
//
// Each namespace is a global null-prototype object with one own property per member, so
// `tools.__proto__` and `tools.constructor` are ordinary members. A call checks its argument
// as lossless JSON (a bad argument rejects that call alone; nothing reaches the host), then
// submits it to the host synchronously, so calls reach the host in the program's order.
// The host answers a call by its id (`settleCall`); the promise's resolver waits here, in
// one map, so the host keeps no engine handle per pending call.

/** The resolver of each pending call's promise, by the call's id. */
const pendingCalls = new Map();

/** Submits one call; a promise of the host's answer (`J<json>` or `E<message>`). */
function submitCall(namespaceIndex, memberIndex, text) {
  const submitted = opCall(namespaceIndex, memberIndex, text);
  // A string is an answer at once (the host refused the call); a number is the call's id.
  if (typeof submitted !== "number") return submitted;
  let settle;
  const answer = new Promise(function (resolve) {
    settle = resolve;
  });
  MapPrototypeSet(pendingCalls, submitted, settle);
  return answer;
}

/** The host's answer to call `id` (host API). */
function settleCall(id, answer) {
  const settle = MapPrototypeGet(pendingCalls, id);
  if (settle === undefined) return;
  MapPrototypeDelete(pendingCalls, id);
  settle(answer);
}

/** The number of lines of the program of this run (its stack frames are below that). */
let programLines = 0;

/** Prepares the run of a program of `lines` lines: installs the namespaces described by
 * `specText` (JSON from the host: a list of `{ global, errorClass, memberProperty, members }`);
 * a call's argument JSON may be at most `argumentLimit` bytes. */
function prepareRun(specText, argumentLimit, lines) {
  programLines = lines;
  const spec = JSONParse(specText);
  for (let i = 0; i < spec.length; i++) {
    const namespace = spec[i];
    const ErrorClass = makeErrorClass(namespace.errorClass, namespace.memberProperty);
    const object = { __proto__: null };
    const members = namespace.members;
    for (let j = 0; j < members.length; j++) {
      // A repeated name keeps its first definition.
      if (ObjectPrototypeHasOwnProperty(object, members[j])) continue;
      ObjectDefineProperty(object, members[j], {
        __proto__: null,
        value: makeMember(i, j, members[j], ErrorClass, argumentLimit),
        writable: false,
        enumerable: true,
        configurable: false,
      });
    }
    ObjectFreeze(object);
    defineGlobal(namespace.errorClass, ErrorClass);
    defineGlobal(namespace.global, object);
  }
}

function makeMember(namespaceIndex, memberIndex, member, ErrorClass, argumentLimit) {
  const call = async function (args) {
    let text = "{}";
    if (args !== undefined) {
      const checked = checkLossless(args, argumentLimit);
      if (!checked.ok) {
        throw new ErrorClass("the arguments are not lossless JSON: " + checked.message, member);
      }
      text = checked.text;
    }
    // The host answers `J<json>` (resolve with the parsed value) or `E<message>` (reject).
    const answer = await submitCall(namespaceIndex, memberIndex, text);
    const payload = StringPrototypeSlice(answer, 1);
    if (StringPrototypeSlice(answer, 0, 1) === "J") return JSONParse(payload);
    throw new ErrorClass(payload, member);
  };
  ObjectDefineProperty(call, "name", { __proto__: null, value: member, configurable: true });
  return call;
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
