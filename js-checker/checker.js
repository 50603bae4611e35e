// codemode's program checker: TypeScript's own compiler (vendor/typescript/typescript.js,
// evaluated as a script in this context before this file, which defines the global `ts`)
// type-checks a model's program against the scope's SDK declarations and the runtime's
// globals (js-checker/globals.d.ts) before the program runs.
//
// A plain script for a bare engine context: no modules, no Node API, no file system. It
// defines one global, `codemodeChecker` (see js-checker/README.md):
//
//   codemodeChecker.init(libsJson, globalsText, declarations)
//     libsJson: JSON text of { "lib.es5.d.ts": "<text>", ... } (every vendored lib file);
//     globalsText: js-checker/globals.d.ts; declarations: the SDK's declarations text.
//     Parses them once into SourceFiles that every later check reuses. Throws on bad input.
//   codemodeChecker.check(program) -> JSON text
//     {"total": N, "diagnostics": [{"line", "column", "code", "message"}, ...]}: the errors
//     located in the program (the body of an async function), the first 10 by position.
//
// Each check is a fresh ts.Program (the previous one passed as oldProgram, so the kept
// SourceFiles are reused as they are) with a fresh type checker: the program is only ever
// text parsed into its own SourceFile, so nothing in it can change a later check.
var codemodeChecker = (function () {
  "use strict";

  if (typeof ts !== "object" || ts === null || typeof ts.createProgram !== "function") {
    throw new Error("codemodeChecker: the global `ts` is missing; evaluate typescript.js before checker.js");
  }

  /** The lib the program is checked against; it references the others. */
  var ROOT_LIB = "lib.es2023.d.ts";
  var GLOBALS_FILE = "codemode-globals.d.ts";
  var SDK_FILE = "codemode-sdk.d.ts";
  var PROGRAM_FILE = "program.ts";

  // The program is checked as the body of the function the runtime runs it in
  // (src/runtime/js/strip.rs: `(async function () {` + program + `\n})()`), except that the
  // head is on a line of its own here, so program line L is file line L + 1 and the columns
  // of every line, the first included, are the program's. The tail starts with a newline so
  // a trailing `//` comment cannot swallow it. Being first in the file, the head also keeps
  // any comment of the program out of the file's leading comments, where TypeScript reads
  // its file pragmas (`// @ts-nocheck`, `/// <reference lib=... />`, ...).
  var HEAD = "(async function () {\n";
  var TAIL = "\n})();\n";

  /** At most this many diagnostics are listed; `total` counts them all. */
  var MAX_DIAGNOSTICS = 10;
  /** A message longer than this many characters is cut to it, ending with "…". */
  var MAX_MESSAGE_CHARS = 600;

  // Only a program that could not have worked is refused, so no option adds stylistic or
  // strictness errors: strict and its family off, unused and unreachable code allowed.
  var options = {
    target: ts.ScriptTarget.ES2023,
    lib: [ROOT_LIB],
    // The program file has no top-level import or export (the program is inside the
    // wrapper function, where one is a syntax error), so it is a script. ModuleKind.None
    // rather than ESNext: it also refuses what works only in a module, as the runtime (a
    // classic script) would: `import.meta` is TS1343 under None (under ESNext it passes
    // and makes the file a module). With noResolve nothing is added to the program; the
    // only resolution left, a dynamic `import("x")`'s (classic, under either), asks the
    // host, which finds nothing but the kept files: TS2792 "Cannot find module".
    module: ts.ModuleKind.None,
    noEmit: true,
    strict: false,
    strictNullChecks: false,
    noImplicitAny: false,
    useUnknownInCatchVariables: false,
    allowUnreachableCode: true,
    allowUnusedLabels: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    noImplicitReturns: false,
    skipLibCheck: true,
    types: [],
    noResolve: true,
    isolatedModules: false,
    // The libs are the ones given to init, by name: no lookup of @typescript/lib-*
    // replacement packages (which would probe the host for node_modules directories).
    libReplacement: false,
  };

  /** How every SourceFile is parsed: as createProgram would ask for it with these options. */
  var sourceFileOptions = {
    languageVersion: ts.ScriptTarget.ES2023,
    impliedNodeFormat: undefined,
    setExternalModuleIndicator: ts.getSetExternalModuleIndicator(options),
    // As tsc parses: JSDoc only where it can give a type error (in JavaScript files), so
    // the libs' and the SDK's doc comments cost no parse time.
    jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors,
  };

  /** The kept SourceFiles by file name (no leading slash), and the last program's. */
  var files = null;
  /** The kept texts by file name, for the host's fileExists and readFile. */
  var texts = null;
  /** The previous check's ts.Program, passed to the next as oldProgram. */
  var oldProgram = undefined;

  /** "/lib.es5.d.ts" and "lib.es5.d.ts" name the same file: the host's directory is "/". */
  function fileKey(fileName) {
    return fileName.charAt(0) === "/" ? fileName.slice(1) : fileName;
  }

  var host = {
    getSourceFile: function (fileName) {
      return files === null ? undefined : files.get(fileKey(fileName));
    },
    getDefaultLibFileName: function () {
      return ROOT_LIB;
    },
    writeFile: function () {},
    getCurrentDirectory: function () {
      return "/";
    },
    getCanonicalFileName: function (fileName) {
      return fileName;
    },
    useCaseSensitiveFileNames: function () {
      return true;
    },
    getNewLine: function () {
      return "\n";
    },
    fileExists: function (fileName) {
      return texts !== null && texts.has(fileKey(fileName));
    },
    readFile: function (fileName) {
      return texts === null ? undefined : texts.get(fileKey(fileName));
    },
    directoryExists: function (directoryName) {
      return directoryName === "/" || directoryName === "";
    },
    getDirectories: function () {
      return [];
    },
    jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors,
  };

  function parse(fileName, text) {
    return ts.createSourceFile(fileName, text, sourceFileOptions, false, ts.ScriptKind.TS);
  }

  /** Throws when a declarations file given to init does not parse. */
  function requireParsed(what, sourceFile) {
    var errors = sourceFile.parseDiagnostics || [];
    if (errors.length === 0) return;
    var first = errors[0];
    var at = sourceFile.getLineAndCharacterOfPosition(first.start);
    throw new Error(
      "codemodeChecker.init: " + what + " has " + errors.length + " syntax error(s), the first at " +
        (at.line + 1) + ":" + (at.character + 1) + ": " + ts.flattenDiagnosticMessageText(first.messageText, "\n"),
    );
  }

  function init(libsJson, globalsText, declarations) {
    if (typeof libsJson !== "string") throw new TypeError("codemodeChecker.init: libsJson must be a string (JSON text)");
    if (typeof globalsText !== "string") throw new TypeError("codemodeChecker.init: globalsText must be a string");
    if (typeof declarations !== "string") throw new TypeError("codemodeChecker.init: declarations must be a string");
    var libs;
    try {
      libs = JSON.parse(libsJson);
    } catch (error) {
      throw new Error("codemodeChecker.init: libsJson is not JSON: " + (error && error.message));
    }
    if (typeof libs !== "object" || libs === null || Array.isArray(libs)) {
      throw new Error("codemodeChecker.init: libsJson must be a JSON object of lib file name to text");
    }
    var newFiles = new Map();
    var newTexts = new Map();
    var names = Object.keys(libs);
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (!/^lib\.[a-z0-9.]+\.d\.ts$/.test(name)) {
        throw new Error("codemodeChecker.init: " + JSON.stringify(name) + " in libsJson is not a lib file name (lib.<name>.d.ts)");
      }
      if (typeof libs[name] !== "string") {
        throw new Error("codemodeChecker.init: the text of " + name + " in libsJson is not a string");
      }
      newTexts.set(name, libs[name]);
      newFiles.set(name, parse(name, libs[name]));
    }
    if (!newFiles.has(ROOT_LIB)) throw new Error("codemodeChecker.init: libsJson has no " + ROOT_LIB);
    // Every lib the root lib references, transitively, must be there.
    var queue = [ROOT_LIB];
    var seen = new Set(queue);
    while (queue.length > 0) {
      var from = queue.shift();
      var references = newFiles.get(from).libReferenceDirectives;
      for (var j = 0; j < references.length; j++) {
        var file = "lib." + references[j].fileName.toLowerCase() + ".d.ts";
        if (seen.has(file)) continue;
        if (!newFiles.has(file)) {
          throw new Error("codemodeChecker.init: libsJson has no " + file + ", which " + from + " references");
        }
        seen.add(file);
        queue.push(file);
      }
    }
    var globalsFile = parse(GLOBALS_FILE, globalsText);
    requireParsed("globalsText", globalsFile);
    var sdkFile = parse(SDK_FILE, declarations);
    requireParsed("declarations", sdkFile);
    newTexts.set(GLOBALS_FILE, globalsText);
    newTexts.set(SDK_FILE, declarations);
    newFiles.set(GLOBALS_FILE, globalsFile);
    newFiles.set(SDK_FILE, sdkFile);
    // An empty program's check binds the new files once (the binding stays on them) and
    // shows a problem of theirs here, where it comes from. A failed init leaves the
    // checker as it was.
    var previous = { files: files, texts: texts, oldProgram: oldProgram };
    files = newFiles;
    texts = newTexts;
    oldProgram = undefined;
    try {
      verify(programFor("").tsProgram);
    } catch (error) {
      files = previous.files;
      texts = previous.texts;
      oldProgram = previous.oldProgram;
      throw error;
    }
  }

  /** `text` cut to MAX_MESSAGE_CHARS characters (code points), the last one "…", if longer. */
  function truncate(text) {
    if (text.length <= MAX_MESSAGE_CHARS) return text;
    var chars = Array.from(text);
    if (chars.length <= MAX_MESSAGE_CHARS) return text;
    return chars.slice(0, MAX_MESSAGE_CHARS - 1).join("") + "\u2026";
  }

  /**
   * A function from an offset in `body` (UTF-16 units) to its 1-based line and column as
   * codemode counts them everywhere (src/code/static_check.rs): lines end at "\n" only,
   * columns count characters (code points).
   */
  function positions(body) {
    var lineStarts = [0];
    for (var i = 0; i < body.length; i++) {
      if (body.charCodeAt(i) === 10) lineStarts.push(i + 1);
    }
    return function (offset) {
      var low = 0;
      var high = lineStarts.length - 1;
      while (low < high) {
        var mid = (low + high + 1) >> 1;
        if (lineStarts[mid] <= offset) low = mid;
        else high = mid - 1;
      }
      var column = 1;
      for (var k = lineStarts[low]; k < offset; k++) {
        var unit = body.charCodeAt(k);
        // The second half of a surrogate pair is the same character as the first.
        if (!(unit >= 0xdc00 && unit <= 0xdfff && k > lineStarts[low] && isHighSurrogate(body.charCodeAt(k - 1)))) column++;
      }
      return { line: low + 1, column: column };
    };
  }

  function isHighSurrogate(unit) {
    return unit >= 0xd800 && unit <= 0xdbff;
  }

  /**
   * The offset in the program of `start`, an offset in the program's file: one in the
   * wrapper's head is the program's start; one in its tail (an unclosed brace, comment or
   * string is reported at the end of the file) the program's end.
   */
  function programOffset(start, body) {
    return Math.min(Math.max((start || 0) - HEAD.length, 0), body.length);
  }

  /** Whether `start`, an offset in the program's file, is in the program. */
  function inBody(start, body) {
    return start >= HEAD.length && start <= HEAD.length + body.length;
  }

  /**
   * `errors` (sorted by position) with those in the wrapper's tail reduced. A program that
   * leaves a brace, bracket or parenthesis open makes the parser read the tail's `})();`
   * as part of it, which gives a few errors there, all reported at the program's end: only
   * the last (for an open brace, "'}' expected.") is kept, and none when the program has
   * an error of its own (an extra `}` is reported where the program goes wrong, and the
   * tail's cascade after it is noise).
   */
  function withoutTailCascade(errors, body) {
    var own = [];
    var tail = [];
    for (var i = 0; i < errors.length; i++) {
      if ((errors[i].start || 0) > HEAD.length + body.length) tail.push(errors[i]);
      else own.push(errors[i]);
    }
    if (tail.length === 0) return errors;
    return own.length > 0 ? own : [tail[tail.length - 1]];
  }

  /** Throws when the kept files themselves have a problem: no global type `Array`, ... */
  function verify(program) {
    var problems = program.getOptionsDiagnostics().concat(program.getGlobalDiagnostics());
    var errors = problems.filter(function (d) {
      return d.category === ts.DiagnosticCategory.Error;
    });
    if (errors.length > 0) {
      throw new Error(
        "codemodeChecker.init: the libs, globals and declarations do not make a valid program:\n" +
          errors
            .map(function (d) {
              return "TS" + d.code + ": " + ts.flattenDiagnosticMessageText(d.messageText, "\n");
            })
            .join("\n"),
      );
    }
  }

  /** The ts.Program of the kept files and `body` wrapped, and the wrapped body's file. */
  function programFor(body) {
    var sourceFile = parse(PROGRAM_FILE, HEAD + body + TAIL);
    files.set(PROGRAM_FILE, sourceFile);
    // The next check's oldProgram sees a different file under this name and reuses the
    // kept ones only.
    var tsProgram = ts.createProgram({
      rootNames: [GLOBALS_FILE, SDK_FILE, PROGRAM_FILE],
      options: options,
      host: host,
      oldProgram: oldProgram,
    });
    oldProgram = tsProgram;
    return { sourceFile: sourceFile, tsProgram: tsProgram };
  }

  function check(program) {
    if (typeof program !== "string") throw new TypeError("codemodeChecker.check: program must be a string");
    if (files === null) throw new Error("codemodeChecker.check: init has not been called");
    // The runtime blanks a leading `#!` line (src/runtime/js/strip.rs); spaces keep every
    // offset.
    var body = program;
    if (body.charCodeAt(0) === 35 && body.charCodeAt(1) === 33) {
      var end = body.indexOf("\n");
      if (end < 0) end = body.length;
      body = " ".repeat(end) + body.slice(end);
    }
    var checked = programFor(body);
    var sourceFile = checked.sourceFile;
    var tsProgram = checked.tsProgram;
    // As tsc reports: the semantic errors only when there is no syntax error (those of a
    // program that does not parse mostly follow from the parser's recovery).
    var found = tsProgram.getSyntacticDiagnostics(sourceFile);
    if (found.length === 0) found = tsProgram.getSemanticDiagnostics(sourceFile);
    var errors = ts.sortAndDeduplicateDiagnostics(
      found.filter(function (d) {
        return d.file === sourceFile && d.category === ts.DiagnosticCategory.Error;
      }),
    );
    errors = withoutTailCascade(errors, body);
    var position = positions(body);
    var listed = [];
    for (var i = 0; i < errors.length && i < MAX_DIAGNOSTICS; i++) {
      var d = errors[i];
      var at = position(programOffset(d.start, body));
      var message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      // Related information in the program is part of what it says: TypeScript puts
      // "Did you forget to use 'await'?" there, and "'x' is declared here." for a variable
      // used before its declaration. That in the declarations (where an SDK property is
      // declared) names no place the model can see, so it is left out.
      var related = d.relatedInformation || [];
      for (var r = 0; r < related.length; r++) {
        // One in the wrapper (the function's `{` an unclosed brace seems to match) is not
        // the model's either.
        if (related[r].file !== sourceFile || !inBody(related[r].start, body)) continue;
        var relatedAt = position(programOffset(related[r].start, body));
        message +=
          "\n  " + ts.flattenDiagnosticMessageText(related[r].messageText, "\n") +
          " (line " + relatedAt.line + ", column " + relatedAt.column + ")";
      }
      listed.push({ line: at.line, column: at.column, code: d.code, message: truncate(message) });
    }
    return JSON.stringify({ total: errors.length, diagnostics: listed });
  }

  return Object.freeze({ init: init, check: check });
})();
