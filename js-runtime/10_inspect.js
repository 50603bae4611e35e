// codemode runtime bootstrap, part 1: the inspector's entry points.
//
// The inspector (js-runtime/lazy/inspect.js) is compiled apart and evaluated in this realm
// on the first call that formats or describes a value (a console call with a non-string
// argument or a `%` directive, a thrown value, a value the JSON check refuses): reading it
// costs about a fifth of a sandbox, and most runs never need it. It is handed the
// bootstrap's names it uses (see `inspectorImports`, written by src/runtime/js/scripts.rs
// after the last part) and returns `inspect`, `formatLogArgs`, `describeThrown`,
// `describeNonPlain` and `conversionHint`. Evaluating it needs nothing a program can reach:
// its top level only declares functions over the names it is given.

const opLoadInspector = host.loadInspector;
let inspector;

function loadedInspector() {
  if (inspector === undefined) inspector = opLoadInspector()(inspectorImports());
  return inspector;
}

/** Formats `value`; `nested` quotes a string as it would be inside an object. */
function inspect(value, nested) {
  return loadedInspector().inspect(value, nested);
}

/** Formats `args` of a console call the way Node's util.format does. Strings without a
 * format directive, the common case, are joined here without loading the inspector. */
function formatLogArgs(args) {
  let text = "";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (typeof arg !== "string" || (i === 0 && StringPrototypeIndexOf(arg, "%") !== -1)) {
      return loadedInspector().formatLogArgs(args);
    }
    text = i === 0 ? arg : text + " " + arg;
  }
  return text;
}

/** Why the JSON check refuses a non-plain object: "a Date is not JSON (convert it with
 * toISOString())". A failure, so only a refused value pays for loading the inspector. */
function notJsonReason(value) {
  const loaded = loadedInspector();
  return loaded.describeNonPlain(value) + " is not JSON" + loaded.conversionHint(value);
}
