// codemode runtime bootstrap, part 5: the console and timers the program gets.
//
// `console` has five methods (log, info, warn, error, debug); each call becomes one log
// string, formatted as Node's console formats its arguments, and goes to the host at once so
// a run stopped by a budget still shows what it printed. Timers: setTimeout, setInterval and
// their clear functions, over deno_core's timers; ids are numbers, as in browsers.

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

const activeTimers = { __proto__: null };
let nextTimerId = 1;

function timerDelay(delay) {
  if (typeof delay === "number") return delay;
  if (typeof delay === "string") return NumberParseFloat(delay);
  return 0;
}

function startTimer(callback, delay, args, repeat) {
  if (typeof callback !== "function") {
    throw new TypeError('The "callback" argument must be of type function');
  }
  const id = nextTimerId++;
  const fire = function () {
    if (!repeat) delete activeTimers[id];
    ReflectApply(callback, undefined, args);
  };
  activeTimers[id] = createTimer(fire, timerDelay(delay), undefined, repeat, true, false);
  return id;
}

function stopTimer(id) {
  if (typeof id !== "number") return;
  const timer = activeTimers[id];
  if (timer === undefined) return;
  delete activeTimers[id];
  cancelTimer(timer);
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
