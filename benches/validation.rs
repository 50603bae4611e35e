//! Argument validation of a realistic 20-property tool schema (the shape of a GitHub
//! "search issues"-style tool: strings, enums, integers with bounds expressed as types,
//! arrays of strings, a nested filter object).

use std::hint::black_box;

use codemode::schema::{ParameterSchema, ValueSchema, validate_args};
use criterion::Criterion;
use serde_json::json;

fn schema() -> ParameterSchema {
    let mut params = ParameterSchema::new()
        .required(
            "owner",
            ValueSchema::string().description("Repository owner"),
        )
        .required("repo", ValueSchema::string().description("Repository name"))
        .optional("query", ValueSchema::string().description("Search query"))
        .optional(
            "state",
            ValueSchema::string().enum_values(["open", "closed", "all"]),
        )
        .optional(
            "sort",
            ValueSchema::string().enum_values(["created", "updated", "comments"]),
        )
        .optional(
            "direction",
            ValueSchema::string().enum_values(["asc", "desc"]),
        )
        .optional("page", ValueSchema::integer())
        .optional("perPage", ValueSchema::integer())
        .optional("labels", ValueSchema::array(ValueSchema::string()))
        .optional("assignee", ValueSchema::string())
        .optional(
            "milestone",
            ValueSchema::one_of([ValueSchema::string(), ValueSchema::integer()]),
        )
        .optional("since", ValueSchema::string())
        .optional("draft", ValueSchema::boolean())
        .optional("locked", ValueSchema::boolean())
        .optional("mentioned", ValueSchema::string())
        .optional("creator", ValueSchema::string())
        .optional("type", ValueSchema::string().enum_values(["issue", "pr"]))
        .optional(
            "reason",
            ValueSchema::one_of([ValueSchema::string(), ValueSchema::null()]),
        );
    params = params.optional(
        "filter",
        ValueSchema::object(false)
            .required("field", ValueSchema::string())
            .property("values", ValueSchema::array(ValueSchema::string())),
    );
    params.optional("extra", ValueSchema::json())
}

pub fn bench(c: &mut Criterion) {
    let compiled = schema().compile().expect("the benchmark schema compiles");
    let valid = json!({
        "owner": "octo", "repo": "hello", "query": "is:open crash", "state": "open",
        "sort": "updated", "direction": "desc", "page": 2, "perPage": 50,
        "labels": ["bug", "p1", "crash"], "assignee": "me", "milestone": 7,
        "since": "2026-01-01T00:00:00Z", "draft": false, "locked": false,
        "mentioned": "you", "creator": "them", "type": "issue", "reason": null,
        "filter": {"field": "label", "values": ["a", "b"]}, "extra": {"any": [1, 2, 3]}
    });
    let invalid = json!({
        "repo": 3, "state": "maybe", "page": 1.5, "labels": ["bug", 2],
        "milestone": true, "filter": {"values": [1], "other": 0}
    });
    assert!(validate_args(&compiled, &valid).is_ok());
    assert!(validate_args(&compiled, &invalid).is_err());

    let mut group = c.benchmark_group("validation");
    group.bench_function("args_20_properties_valid", |b| {
        b.iter(|| validate_args(black_box(&compiled), black_box(&valid)))
    });
    group.bench_function("args_20_properties_invalid", |b| {
        b.iter(|| validate_args(black_box(&compiled), black_box(&invalid)))
    });
    group.bench_function("compile_20_properties", |b| {
        b.iter(|| black_box(schema()).compile())
    });
    group.finish();
}
