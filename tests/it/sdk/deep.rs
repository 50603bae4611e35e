//! Deep schemas without the call stack: a raw `oneOf` nested 5,000 levels and the same
//! union written with the schema DSL are parsed, validated and rendered into both SDK
//! languages on a thread whose stack could not hold one frame per level; a host whose
//! `max_json_depth` is lower refuses a deeper tool, naming its limit.

use codemode::code::sdk::{SdkTool, render_sdk_section, unknown_types};
use codemode::config::Config;
use codemode::host::{Engine, Host};
use codemode::json::dispose;
use codemode::runtime::Language;
use codemode::schema::{JsonSchema, ParameterSchema, ValueSchema};
use codemode::tool::{ToolDefinition, ToolOutput, define_tool};
use codemode::{ContentBlock, ErrorCode};
use serde_json::{Map, Value, json};

const LEVELS: usize = 5_000;

/// Far too small for 5,000 levels of recursion (a debug build's frames are hundreds of
/// bytes each).
const SMALL_STACK: usize = 256 << 10;

fn on_small_stack(work: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(work)
        .expect("spawn")
        .join()
        .expect("the work ran without overflowing its stack");
}

/// `{"oneOf": [inner, {"type": "integer", "const": level}]}`, `levels` deep around a
/// string: a string, and each integer from 0 to `levels - 1`, match exactly one branch at
/// every level. Built without `json!` around the deep part (it would copy it through
/// `Serialize`, recursively).
fn raw_union(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for level in 0..levels {
        let mut node = Map::new();
        node.insert(
            "oneOf".into(),
            Value::Array(vec![schema, json!({"type": "integer", "const": level})]),
        );
        schema = Value::Object(node);
    }
    schema
}

/// Parameters whose one required property `v` is `union`.
fn parameters(union: Value) -> Value {
    let mut properties = Map::new();
    properties.insert("v".into(), union);
    let mut root = Map::new();
    root.insert("type".into(), json!("object"));
    root.insert("properties".into(), Value::Object(properties));
    root.insert("required".into(), json!(["v"]));
    Value::Object(root)
}

fn dsl_union(levels: usize) -> ValueSchema {
    let mut schema = ValueSchema::string();
    for level in 0..levels {
        schema = ValueSchema::one_of([schema, ValueSchema::integer().constant(level)]);
    }
    schema
}

fn assert_validates(schema: &JsonSchema) {
    for valid in [json!({"v": "text"}), json!({"v": 0}), json!({"v": 4_999})] {
        assert!(schema.validate(&valid).is_empty(), "{valid}");
        assert!(schema.is_valid(&valid), "{valid}");
    }
    for (invalid, got) in [
        (json!({"v": null}), "got null"),
        (json!({"v": 5_000}), "got 5000"),
    ] {
        let found = schema.validate(&invalid);
        assert_eq!(found.len(), 1, "{invalid}: {found:?}");
        assert_eq!(found[0].path, "$.v");
        assert!(
            found[0]
                .message
                .starts_with("matches none of the 2 oneOf branches (branch 0: $: matches none"),
            "{}",
            found[0].message
        );
        assert!(
            found[0].message.ends_with(&format!("{got})")),
            "{}",
            found[0].message
        );
        assert!(
            found[0].message.len() < 1_000,
            "{} bytes",
            found[0].message.len()
        );
        assert!(!schema.is_valid(&invalid));
    }
}

/// Renders `parameters` as one tool's arguments in both languages: every level declared,
/// and the text linear in the depth.
fn assert_renders(parameters: &Value) {
    let tool = SdkTool {
        name: "deep".into(),
        description: "A deep union.".into(),
        parameters: codemode::json::deep_clone(parameters),
        output: None,
    };
    let tools = std::slice::from_ref(&tool);
    assert!(unknown_types(tools).is_empty());
    // Nested unions flatten: one union of the leaf and every constant.
    let ts = render_sdk_section(Language::TypeScript, tools);
    assert!(
        ts.contains("  deep: {\n    v: string | 0 | 1 | 2 |"),
        "{ts}"
    );
    assert!(ts.contains(" | 4998 | 4999;\n  } & Record<string, JsonValue>;\n"));
    assert!(ts.len() < 20 * LEVELS, "{} bytes", ts.len());
    let py = render_sdk_section(Language::Python, tools);
    assert!(py.contains("    v: str | Literal[0, 1, 2,"), "{py}");
    assert!(py.contains(", 4998, 4999]\n"));
    assert!(py.len() < 20 * LEVELS, "{} bytes", py.len());
    dispose(tool.parameters);
}

#[test]
fn a_five_thousand_level_raw_one_of_is_parsed_validated_and_rendered_on_a_small_stack() {
    on_small_stack(|| {
        let raw = parameters(raw_union(LEVELS));
        let schema = JsonSchema::parse(&raw).expect("within the default depth");
        assert_validates(&schema);
        assert_renders(&raw);
        drop(schema);
        dispose(raw);
    });
}

#[test]
fn a_five_thousand_level_dsl_union_is_compiled_validated_and_rendered_on_a_small_stack() {
    on_small_stack(|| {
        let params = ParameterSchema::new().required("v", dsl_union(LEVELS));
        let schema = params.compile().expect("within the default depth");
        assert_validates(&schema);
        assert_renders(schema.as_json());
        drop((schema, params));
    });
}

#[test]
fn nested_objects_render_linearly_in_both_languages_on_a_small_stack() {
    on_small_stack(|| {
        // A union that does not flatten: each level an object holding the next (two
        // levels of subschemas: the branch, then the property).
        const OBJECTS: usize = LEVELS / 2;
        let mut union = ValueSchema::string();
        for _ in 0..OBJECTS {
            union = ValueSchema::one_of([
                ValueSchema::object(false).required("a", union),
                ValueSchema::null(),
            ]);
        }
        let schema = ParameterSchema::new()
            .required("v", union)
            .compile()
            .expect("compile");
        let mut value = json!("x");
        for _ in 0..OBJECTS {
            let mut object = Map::new();
            object.insert("a".into(), value);
            value = Value::Object(object);
        }
        let mut valid = Map::new();
        valid.insert("v".into(), value);
        let valid = Value::Object(valid);
        assert!(schema.validate(&valid).is_empty());
        let tool = SdkTool {
            name: "deep".into(),
            description: String::new(),
            parameters: codemode::json::deep_clone(schema.as_json()),
            output: None,
        };
        let tools = std::slice::from_ref(&tool);
        let ts = render_sdk_section(Language::TypeScript, tools);
        assert_eq!(ts.matches("a: {").count(), OBJECTS - 1);
        assert!(ts.len() < 100 * OBJECTS, "{} bytes", ts.len());
        let py = render_sdk_section(Language::Python, tools);
        assert_eq!(py.matches("(TypedDict):").count(), OBJECTS + 1);
        assert!(py.len() < 200 * OBJECTS, "{} bytes", py.len());
        dispose(tool.parameters);
        dispose(valid);
    });
}

/// A host whose programs' values nest at most `max_json_depth` levels.
fn host_of_depth(max_json_depth: usize) -> Host {
    let config = Config::parse(
        &format!("mode = \"native\"\n[runtime]\nmax_json_depth = {max_json_depth}\n"),
        std::path::Path::new("codemode.toml"),
    )
    .expect("config");
    Host::builder(config)
        .engine(Engine::Never)
        .build_local()
        .expect("host")
}

#[derive(serde::Deserialize)]
struct Args {}

#[test]
fn a_host_with_a_lower_value_depth_refuses_deeper_tool_schemas_naming_its_limit() {
    // max_json_depth 20: values, and schemas, nest 28 levels (20 + the 8 the library
    // wraps values in).
    let host = host_of_depth(20);
    let global = host.registry().global();
    let raw = |levels| {
        ToolDefinition::builder(format!("raw_{levels}"))
            .parameters(parameters(raw_union(levels)))
            .output(ToolOutput::any())
            .execute(|_, _| async { Ok(json!(null)) })
            .build()
            .expect("build")
    };
    // `v` is level 1 and each union one more: 27 unions reach level 28.
    global.register(raw(27)).expect("within the limit").keep();
    let err = global.register(raw(28)).expect_err("one level too deep");
    assert_eq!(err.code(), ErrorCode::InvalidDefinition);
    assert_eq!(
        err.message(),
        "tool `raw_28` cannot be registered: its parameters schema nests deeper than 28 levels (the registry's value-depth limit)"
    );
    // The DSL's tools too, and output schemas.
    let typed = define_tool::<Args, String>("typed")
        .parameters(ParameterSchema::new().required("v", dsl_union(40)))
        .output(ValueSchema::string(), |_, text| {
            vec![ContentBlock::text(text.clone())]
        })
        .execute(|_, _| async { Ok(String::new()) })
        .build()
        .expect("build");
    let err = global.register(typed).expect_err("too deep");
    assert!(
        err.message().ends_with(
            "its parameters schema nests deeper than 28 levels (the registry's value-depth limit)"
        ),
        "{}",
        err.message()
    );
    let output = JsonSchema::parse(&raw_union(30)).expect("within the default depth");
    let deep_output = ToolDefinition::builder("deep_output")
        .output(ToolOutput::json(output))
        .execute(|_, _| async { Ok(json!("x")) })
        .build()
        .expect("build");
    let err = global.register(deep_output).expect_err("too deep");
    assert_eq!(
        err.message(),
        "tool `deep_output` cannot be registered: its output schema nests deeper than 28 levels (the registry's value-depth limit)"
    );
    // A host with the default depth takes them all.
    let default = host_of_depth(5_000);
    let global = default.registry().global();
    global.register(raw(28)).expect("default depth").keep();
    global.register(raw(1_000)).expect("default depth").keep();
    assert!(global.get("raw_28").is_some() && global.get("raw_1000").is_some());
}
