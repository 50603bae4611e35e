//! Every generated SDK compiles: the TypeScript SDK of each fixture tool list, plus a
//! program that calls every tool with a typed argument literal and uses the typed result,
//! passes `tsc --strict --noEmit`; the Python SDK and the same program pass
//! `mypy --strict`, for mypy's own Python and for Python 3.10. The compilers come from `tests/tools/` (installed by `.ci/tools`).

use std::path::PathBuf;
use std::process::Command;

use codemode::code::sdk::{SdkLanguage, SdkTool, render_sdk_section};
use serde_json::{Value, json};

use super::{CORPUS, fixture, root};

/// A test tool from `tests/tools/`, or a failure that says how to install it.
pub(crate) fn test_tool(relative: &str) -> PathBuf {
    let path = root().join("tests/tools").join(relative);
    assert!(
        path.exists(),
        "{} is missing: run `.ci/tools` to install the test tools (TypeScript compiler, mypy)",
        path.display()
    );
    path
}

pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-sdk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temp dir");
    dir
}

pub(crate) fn run_compiler(mut command: Command, what: &str) {
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("run {what}: {err}"));
    assert!(
        output.status.success(),
        "{what} rejected a generated SDK:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The tools as the SDK lists them (sorted by name).
pub(crate) fn sorted(mut tools: Vec<SdkTool>) -> Vec<SdkTool> {
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    tools
}

#[test]
fn typescript_sdks_pass_tsc_strict() {
    let tsc = test_tool("node_modules/.bin/tsc");
    let dir = temp_dir("ts");
    let mut files = Vec::new();
    for (name, path) in CORPUS {
        let tools = sorted(fixture(path));
        let section = render_sdk_section(SdkLanguage::TypeScript, &tools);
        let mut source = fenced_code(&section, "```ts\n");
        source.push_str(&typescript_program(&tools));
        let file = dir.join(format!("{name}.ts"));
        std::fs::write(&file, source).expect("write the TypeScript file");
        files.push(file);
    }
    // A schema nested deeper than the walker's bound of old: the literal is written out
    // here (`sample` stops at 16 levels).
    let section = render_sdk_section(SdkLanguage::TypeScript, &deep_tools());
    let mut source = fenced_code(&section, "```ts\n");
    source.push_str(&format!(
        "\nconst deepArgs: ToolArgsMap[\"deep\"] = {0};\nvoid deepArgs;\nconst deepOpenArgs: ToolArgsMap[\"deep_open\"] = {0};\nvoid deepOpenArgs;\nexport {{}};\n",
        deep_literal()
    ));
    let file = dir.join("deep.ts");
    std::fs::write(&file, source).expect("write the TypeScript file");
    files.push(file);
    let mut command = Command::new(tsc);
    command.args([
        "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022", "--pretty", "false",
    ]);
    command.args(&files);
    run_compiler(command, "tsc --strict --noEmit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_sdks_pass_mypy_strict() {
    let mypy = test_tool("venv/bin/mypy");
    let dir = temp_dir("py");
    let mut files = Vec::new();
    for (name, path) in CORPUS {
        let tools = sorted(fixture(path));
        let section = render_sdk_section(SdkLanguage::Python, &tools);
        let mut source = fenced_code(&section, "```python\n");
        source.push_str(&python_program(&tools));
        let file = dir.join(format!("sdk_{name}.py"));
        std::fs::write(&file, source).expect("write the Python file");
        files.push(file);
    }
    let section = render_sdk_section(SdkLanguage::Python, &deep_tools());
    let mut source = fenced_code(&section, "```python\n");
    source.push_str(&format!(
        "\n\nasync def _program() -> None:\n    print(await tools.deep({0}))\n    print(await tools.deep_open({0}))\n",
        python_value(&deep_literal())
    ));
    let file = dir.join("sdk_deep.py");
    std::fs::write(&file, source).expect("write the Python file");
    files.push(file);
    // The checker's own Python, and the oldest the package supports (3.10, whose `typing`
    // lacks `Never`, `NotRequired` and `Required`).
    for version in [None, Some("3.10")] {
        let mut command = Command::new(&mypy);
        command.args([
            "--strict",
            "--no-incremental",
            "--cache-dir",
            "/dev/null",
            "--no-error-summary",
        ]);
        if let Some(version) = version {
            command.args(["--python-version", version]);
        }
        command.current_dir(&dir).args(&files);
        run_compiler(
            command,
            &format!("mypy --strict (Python {})", version.unwrap_or("of mypy")),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exact_big_integer_literals_are_valid_python_and_typescript_stays_number() {
    let tool = |name: &str, properties: &str| {
        SdkTool {
        name: name.into(),
        description: "Takes big constants.".into(),
        parameters: codemode::json::parse_within(
            &format!(
                r#"{{"type": "object", "properties": {properties}, "required": ["a", "b"], "additionalProperties": false}}"#
            ),
            64,
        )
        .expect("the tool list parses"),
        output: None,
    }
    };
    // Within 64 bits: mypy --strict accepts the exact literals.
    let within = vec![tool(
        "pick",
        r#"{"a": {"type": "integer", "const": 1152921504606846976},
            "b": {"type": "integer", "enum": [9007199254740993, -9007199254740993, 2]}}"#,
    )];
    let section = render_sdk_section(SdkLanguage::Python, &within);
    assert!(
        section.contains("    a: Literal[1152921504606846976]\n"),
        "{section}"
    );
    assert!(
        section.contains("    b: Literal[9007199254740993, -9007199254740993, 2]\n"),
        "{section}"
    );
    let dir = temp_dir("py-big");
    let file = dir.join("sdk_big.py");
    std::fs::write(&file, fenced_code(&section, "```python\n")).expect("write the Python file");
    let mut command = Command::new(test_tool("venv/bin/mypy"));
    command
        .args([
            "--strict",
            "--no-incremental",
            "--cache-dir",
            "/dev/null",
            "--no-error-summary",
        ])
        .current_dir(&dir)
        .arg(&file);
    run_compiler(command, "mypy --strict");
    // Beyond 64 bits (mypy's own limit for `Literal` integers): still Python that compiles.
    let beyond = vec![tool(
        "huge",
        r#"{"a": {"type": "integer", "const": 1e21},
            "b": {"type": "integer", "enum": [-18446744073709551615, 2]}}"#,
    )];
    let section = render_sdk_section(SdkLanguage::Python, &beyond);
    assert!(
        section.contains("    a: Literal[1000000000000000000000]\n"),
        "{section}"
    );
    // Beyond `i64` the text is read as a double (no arbitrary precision): the digits are
    // the integer that double holds, the value the schema is checked against.
    assert!(
        section.contains("    b: Literal[-18446744073709551616, 2]\n"),
        "{section}"
    );
    let file = dir.join("sdk_huge.py");
    std::fs::write(&file, fenced_code(&section, "```python\n")).expect("write the Python file");
    let mut command = Command::new("python3");
    command.args(["-m", "py_compile"]).arg(&file);
    run_compiler(command, "python3 -m py_compile");
    let _ = std::fs::remove_dir_all(&dir);
    // TypeScript keeps its safe spelling: a literal there would round.
    let section = render_sdk_section(SdkLanguage::TypeScript, &beyond);
    assert!(section.contains("a: number;"), "{section}");
    assert!(section.contains("b: number | 2;"), "{section}");
}

/// How deep [`deep_tool`] nests: past the walker's bound of old (48).
const DEEP: usize = 50;

/// A tool whose arguments nest [`DEEP`] objects, `{a: {a: ... string}}`.
fn deep_tool() -> SdkTool {
    let mut schema = json!({"type": "string"});
    for _ in 0..DEEP {
        schema = json!({
            "type": "object", "properties": {"a": schema}, "required": ["a"],
            "additionalProperties": false
        });
    }
    SdkTool {
        name: "deep".into(),
        description: "Nests.".into(),
        parameters: schema,
        output: None,
    }
}

/// [`deep_tool`], and `deep_open`: objects nested [`DEEP`] levels whose other keys hold
/// strings (an index signature must also fit the declared property's type).
fn deep_tools() -> Vec<SdkTool> {
    let mut schema = json!({"type": "string"});
    for _ in 0..DEEP {
        schema = json!({
            "type": "object", "properties": {"a": schema}, "required": ["a"],
            "additionalProperties": {"type": "string"}
        });
    }
    let open = SdkTool {
        name: "deep_open".into(),
        description: "Nests, with extra keys.".into(),
        parameters: schema,
        output: None,
    };
    vec![deep_tool(), open]
}

/// Arguments of [`deep_tool`] (and of `deep_open`).
fn deep_literal() -> Value {
    let mut value = json!("x");
    for _ in 0..DEEP {
        value = json!({ "a": value });
    }
    value
}

/// The code inside the section's one fence.
pub(crate) fn fenced_code(section: &str, opening: &str) -> String {
    let start = section.find(opening).expect("the section has a code fence") + opening.len();
    let end = section[start..].rfind("```").expect("the fence is closed") + start;
    section[start..end].to_owned()
}

pub(crate) fn typescript_program(tools: &[SdkTool]) -> String {
    let mut out = String::from("\nasync function program(): Promise<void> {\n");
    for (index, tool) in tools.iter().enumerate() {
        let key = serde_json::to_string(&tool.name).expect("a name serializes");
        let access = if is_plain_identifier(&tool.name) {
            format!("tools.{}", tool.name)
        } else {
            format!("tools[{key}]")
        };
        let args = match sample(&tool.parameters, &tool.parameters, 0) {
            Some(value) => value.to_string(),
            None => format!("{{}} as ToolArgsMap[{key}]"),
        };
        out.push_str(&format!(
            "  const result{index}: ToolOutputMap[{key}] = await {access}({args});\n  void JSON.stringify(result{index});\n"
        ));
    }
    out.push_str(
        "  try {\n    void 0;\n  } catch (error) {\n    if (error instanceof ToolCallError) {\n      const failed: ToolName = error.toolName;\n      void failed;\n    }\n  }\n}\nvoid program;\nexport {};\n",
    );
    out
}

pub(crate) fn python_program(tools: &[SdkTool]) -> String {
    let mut out = String::from(
        "\ndef _use(value: object) -> None:\n    print(value)\n\n\nasync def _program() -> None:\n",
    );
    for (index, tool) in tools.iter().enumerate() {
        let access = if is_python_attribute(&tool.name) {
            format!("tools.{}", tool.name)
        } else {
            format!(
                "tools[{}]",
                serde_json::to_string(&tool.name).expect("a name serializes")
            )
        };
        let args = match sample(&tool.parameters, &tool.parameters, 0) {
            Some(value) => python_value(&value),
            None => "{}".to_owned(),
        };
        out.push_str(&format!(
            "    result_{index} = await {access}({args})\n    _use(result_{index})\n"
        ));
    }
    out.push_str("    try:\n        pass\n    except ToolCallError as error:\n        _use(error.toolName)\n");
    out
}

fn is_plain_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The SDK's rule for `tools.name` in Python (ASCII identifier, no keyword or soft
/// keyword, no leading `_`), restated so the test notices if the SDK changes it.
fn is_python_attribute(name: &str) -> bool {
    const KEYWORDS: [&str; 39] = [
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
        "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
        "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
        "try", "while", "with", "yield", "match", "case", "type", "_",
    ];
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
        && !name.starts_with('_')
}

/// A JSON value the schema's type accepts (only what the type system checks: required
/// keys, literal values, tuple prefixes), or `None` when this helper cannot build one.
fn sample(schema: &Value, root: &Value, depth: usize) -> Option<Value> {
    if depth > 16 {
        return None;
    }
    let map = match schema {
        Value::Bool(true) => return Some(Value::Null),
        Value::Object(map) => map,
        _ => return None,
    };
    let mut parts = Vec::new();
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let target = root.pointer(reference.strip_prefix('#')?)?;
        parts.push(sample(target, root, depth + 1)?);
    }
    parts.push(core_sample(map, root, depth)?);
    if let Some(Value::Array(all)) = map.get("allOf") {
        for member in all {
            parts.push(sample(member, root, depth + 1)?);
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(keyword) {
            parts.push(
                branches
                    .iter()
                    .find_map(|branch| sample(branch, root, depth + 1))?,
            );
        }
    }
    // Object parts merge (intersections); otherwise the most specific part wins.
    let mut merged: Option<Value> = None;
    for part in parts {
        merged = Some(match (merged, part) {
            (Some(Value::Object(mut a)), Value::Object(b)) => {
                a.extend(b);
                Value::Object(a)
            }
            (Some(previous), Value::Null) => previous,
            (_, part) => part,
        });
    }
    merged
}

fn core_sample(map: &serde_json::Map<String, Value>, root: &Value, depth: usize) -> Option<Value> {
    if let Some(value) = map.get("const") {
        return Some(value.clone());
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        return values.first().cloned();
    }
    let type_name = match map.get("type") {
        Some(Value::String(name)) => name.as_str(),
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .find(|n| *n != "null")
            .unwrap_or("null"),
        _ if map.contains_key("properties") || map.contains_key("required") => "object",
        _ if map.contains_key("items") || map.contains_key("prefixItems") => "array",
        _ => return Some(Value::Null),
    };
    Some(match type_name {
        "string" => json!("x"),
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "null" => Value::Null,
        "object" => {
            let mut object = serde_json::Map::new();
            let properties = map.get("properties").and_then(Value::as_object);
            let required = map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str);
            // TypeScript checks a literal against optional keys named like `Object.prototype`
            // members through the prototype (`{}` has `constructor: Function`), so a literal
            // that leaves such a key out is refused: the sample always fills them in.
            let prototype_named = properties
                .into_iter()
                .flat_map(|p| p.keys())
                .map(String::as_str)
                .filter(|name| OBJECT_PROTOTYPE_MEMBERS.contains(name));
            for name in required.chain(prototype_named) {
                let value = match properties.and_then(|p| p.get(name)) {
                    Some(schema) => sample(schema, root, depth + 1)?,
                    None => Value::Null,
                };
                object.insert(name.to_owned(), value);
            }
            Value::Object(object)
        }
        "array" => {
            let prefix = map
                .get("prefixItems")
                .or_else(|| map.get("items").filter(|items| items.is_array()))
                .and_then(Value::as_array);
            let required = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let mut items = Vec::new();
            for schema in prefix.into_iter().flatten().take(required) {
                items.push(sample(schema, root, depth + 1)?);
            }
            Value::Array(items)
        }
        _ => return None,
    })
}

const OBJECT_PROTOTYPE_MEMBERS: [&str; 7] = [
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// A JSON value as a Python expression.
fn python_value(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => serde_json::to_string(s).expect("a string serializes"),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(python_value)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!(
                    "{}: {}",
                    serde_json::to_string(k).expect("a key serializes"),
                    python_value(v)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
