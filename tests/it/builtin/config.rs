//! `BuiltinConfig` and `builtin_tools`: defaults, opt-in tools, configuration errors.

use codemode::ErrorCode;
use codemode::sources::builtin::{BuiltinConfig, builtin_tools};

fn names(config: &BuiltinConfig) -> Vec<String> {
    builtin_tools(config)
        .unwrap()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect()
}

#[test]
fn the_default_is_the_read_only_tools_over_the_working_directory() {
    let config = BuiltinConfig::default();
    assert_eq!(config.root, std::env::current_dir().unwrap());
    assert_eq!(config.enabled, BuiltinConfig::DEFAULT_TOOLS);
    assert_eq!(names(&config), ["read_file", "list_dir", "glob", "grep"]);
}

#[test]
fn write_and_edit_are_opt_in_and_every_tool_is_described_and_marked_builtin() {
    let temp = tempfile::tempdir().unwrap();
    let config = BuiltinConfig::new(temp.path().to_path_buf()).with_enabled([
        "edit_file",
        "grep",
        "edit_file",
    ]);
    assert_eq!(names(&config), ["grep", "edit_file"]);
    let all = BuiltinConfig::new(temp.path().to_path_buf())
        .with_enabled(BuiltinConfig::ALL_TOOLS.map(String::from).to_vec());
    for tool in builtin_tools(&all).unwrap() {
        assert_eq!(
            tool.annotations().source.as_deref(),
            Some("builtin"),
            "{}",
            tool.name()
        );
        assert!(
            tool.schema().description.len() > 100,
            "{} is described",
            tool.name()
        );
        assert_eq!(tool.schema().parameters["type"], "object");
        assert_eq!(tool.output().schema().as_json()["type"], "object");
    }
}

#[test]
fn bad_configuration_names_the_problem() {
    let temp = tempfile::tempdir().unwrap();
    let unknown = BuiltinConfig::new(temp.path().to_path_buf())
        .with_enabled(["read_file", "delete_everything"]);
    let err = builtin_tools(&unknown).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidConfig);
    assert_eq!(
        err.message(),
        "unknown built-in tool `delete_everything` (the built-in tools are read_file, list_dir, glob, grep, write_file, edit_file)"
    );

    let missing_root = temp.path().join("nope");
    let err = builtin_tools(&BuiltinConfig::new(&missing_root)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidConfig);
    assert_eq!(
        err.message(),
        format!(
            "the built-in tools' root `{}` cannot be used: it does not exist",
            missing_root.display()
        )
    );
}

#[test]
fn the_config_reads_from_a_table_with_defaults() {
    let config: BuiltinConfig =
        serde_json::from_value(serde_json::json!({"root": "/srv/project"})).unwrap();
    assert_eq!(config.root, std::path::PathBuf::from("/srv/project"));
    assert_eq!(config.enabled, BuiltinConfig::DEFAULT_TOOLS);
    assert!(serde_json::from_value::<BuiltinConfig>(serde_json::json!({"rot": "."})).is_err());
}
