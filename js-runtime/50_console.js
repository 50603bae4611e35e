// codemode runtime bootstrap, part 5: the console and timers the program gets.
//
// `console` has five methods (log, info, warn, error, debug); each call becomes one log
// string, formatted as Node's console formats its arguments, and goes to the host at once so
// a run stopped by a budget still shows what it printed. Timers: setTimeout, setInterval and
// their clear functions, over the host's timers; ids are numbers, as in browsers. The host
// schedules ids and fires them (`fireTimer`); the callbacks wait here, in one map. A callback
// that throws fails the run (the host reports it), as an uncaught error ends a Node process.
// `queueMicrotask` runs its callback as a microtask; one that throws fails the run too.

function makeConsole() {
  const consoleObject = {};
  const methods = ["log", "info", "warn", "error", "debug"];
  for (let i = 0; i < methods.length; i++) {
    const name = methods[i];
    const method = function (...args) {
      opLog(formatLogArgs(args));
    };
    ObjectDefineProperty(method, "name", { __proto__: null, value: name, configurable: true });
    ObjectDefineProperty(consoleObject, name, {
      __proto__: null,
      value: method,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return consoleObject;
}

/** Each scheduled timer's callback, or `{ callback, args }` when it has arguments, by id. */
const timerCallbacks = new Map();

/** The arguments after the first two of a timer function's call, or undefined if none. */
function extraArguments(args) {
  if (args.length <= 2) return undefined;
  const list = newList();
  for (let i = 2; i < args.length; i++) listPush(list, args[i]);
  return list;
}

function startTimer(callback, delay, args, repeat) {
  if (typeof callback !== "function") {
    throw new TypeError('The "callback" argument must be of type function');
  }
  const id = createTimer(timerDelay(delay), repeat);
  MapPrototypeSet(
    timerCallbacks,
    id,
    args === undefined ? callback : { __proto__: null, callback, args },
  );
  return id;
}

/** Calls the callback of the due timer `id` (host API); a timeout (`repeat` false) is
 * forgotten first. */
function fireTimer(id, repeat) {
  const timer = MapPrototypeGet(timerCallbacks, id);
  if (timer === undefined) return;
  if (!repeat) MapPrototypeDelete(timerCallbacks, id);
  if (typeof timer === "function") {
    ReflectApply(timer, undefined, newList());
  } else {
    ReflectApply(timer.callback, undefined, timer.args);
  }
}

function timerDelay(delay) {
  if (typeof delay === "number") return delay;
  if (typeof delay === "string") return NumberParseFloat(delay);
  return 0;
}

function stopTimer(id) {
  if (typeof id !== "number") return;
  MapPrototypeDelete(timerCallbacks, id);
  cancelTimer(id);
}

function setTimeout(callback, delay) {
  return startTimer(callback, delay, extraArguments(arguments), false);
}

function setInterval(callback, delay) {
  return startTimer(callback, delay, extraArguments(arguments), true);
}

function clearTimeout(id) {
  stopTimer(id);
}

function clearInterval(id) {
  stopTimer(id);
}

function queueMicrotask(callback) {
  if (typeof callback !== "function") {
    throw new TypeError('The "callback" argument must be of type function');
  }
  enqueueMicrotask(function () {
    try {
      ReflectApply(callback, undefined, newList());
    } catch (error) {
      opUncaught(describeThrown(error));
    }
  });
}
