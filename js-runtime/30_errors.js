// codemode runtime bootstrap, part 3: describing errors, and the binding error classes.
//
// `describeError` is what a log line and a failed run show for an error: its stack, which
// starts with `Name: message`, keeping only the program's frames and with positions as the
// model wrote them (the wrapper's head shifts line 1; see src/runtime/strip.rs).

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
    if (StringPrototypeIndexOf(line, PROGRAM_FILE + ":" + (programLines + 1) + ":") !== -1) continue;
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

/** What a failed run reports for a thrown value: an error by its stack (and own enumerable
 * properties, as Node prints an uncaught error), anything else as `Uncaught <value>`. */
function describeThrown(value) {
  try {
    if (value !== null && (typeof value === "object" || typeof value === "function") && !isProxy(value) &&
        (isNativeError(value) || ObjectPrototypeIsPrototypeOf(ErrorPrototype, value))) {
      return inspect(value);
    }
    return "Uncaught " + inspect(value, true);
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

/** The error class of a binding namespace: `new ToolCallError(message, toolName)`; instances
 * have `.name` (the class name), `.message` and the member-name property. */
function makeErrorClass(className, memberProperty) {
  const ErrorClass = class extends Error {
    constructor(message, member) {
      super(message);
      ObjectDefineProperty(this, memberProperty, {
        __proto__: null,
        value: member,
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
