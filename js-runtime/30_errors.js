// codemode runtime bootstrap, part 3: what a failed run reports, and the binding error
// classes. How an error is described (its stack, with the program's frames only) is the
// inspector's (js-runtime/lazy/inspect.js): describing a thrown value formats it, which loads
// the inspector anyway.

/** What a failed run reports for a thrown value (the inspector's `describeThrown`). */
function describeThrown(value) {
  try {
    return loadedInspector().describeThrown(value);
  } catch (error) {
    return "Uncaught exception that could not be described";
  }
}

/** The classes the bootstrap made (see `makeErrorClass`). The bootstrap is compiled without
 * its source text, so the inspector cannot tell them from functions by `toString`. */
const bootstrapClasses = new Map();

function isBootstrapClass(fn) {
  return MapPrototypeGet(bootstrapClasses, fn) === true;
}

/** The error class of a binding namespace: `new ToolCallError(message, toolName, code)`;
 * instances have `.name` (the class name), `.message`, the member-name property and `.code`
 * (the failure's stable code, e.g. `"TOOL_DENIED"`). */
function makeErrorClass(className, memberProperty) {
  const ErrorClass = class extends Error {
    constructor(message, member, code) {
      super(message);
      ObjectDefineProperty(this, memberProperty, {
        __proto__: null,
        value: member,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      ObjectDefineProperty(this, "code", {
        __proto__: null,
        value: code,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  };
  ObjectDefineProperty(ErrorClass, "name", { __proto__: null, value: className, configurable: true });
  ObjectDefineProperty(ErrorClass.prototype, "name", {
    __proto__: null,
    value: className,
    writable: true,
    configurable: true,
  });
  MapPrototypeSet(bootstrapClasses, ErrorClass, true);
  return ErrorClass;
}
