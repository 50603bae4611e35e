// codemode runtime bootstrap, part 5: the console and timers the program gets.
//
// `console` has five methods (log, info, warn, error, debug); each call becomes one log
// string, formatted as Node's console formats its arguments, and goes to the host at once so
// a run stopped by a budget still shows what it printed. Timers: setTimeout, setInterval and
// their clear functions, over the host's timers; ids are numbers, as in browsers. A callback
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

function startTimer(callback, delay, args, repeat) {
  if (typeof callback !== "function") {
    throw new TypeError('The "callback" argument must be of type function');
  }
  const fire = function () {
    ReflectApply(callback, undefined, args);
  };
  return createTimer(fire, timerDelay(delay), repeat);
}

function timerDelay(delay) {
  if (typeof delay === "number") return delay;
  if (typeof delay === "string") return NumberParseFloat(delay);
  return 0;
}

function stopTimer(id) {
  if (typeof id !== "number") return;
  cancelTimer(id);
}

function setTimeout(callback, delay, ...args) {
  return startTimer(callback, delay, args, false);
}

function setInterval(callback, delay, ...args) {
  return startTimer(callback, delay, args, true);
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
