// What the codemode runtime gives a program beyond ECMAScript (lib.es2023.d.ts) and the
// scope's SDK declarations: its console and timers (js-runtime/50_console.js). Nothing
// else: no DOM, no Node. js-checker/checker.js checks programs against it as a global
// declarations file.

declare var console: {
  log: (...args: any[]) => void;
  info: (...args: any[]) => void;
  warn: (...args: any[]) => void;
  error: (...args: any[]) => void;
  debug: (...args: any[]) => void;
};

declare function setTimeout(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function setInterval(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function clearTimeout(id?: number): void;
declare function clearInterval(id?: number): void;
declare function queueMicrotask(callback: () => void): void;
