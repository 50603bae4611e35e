//! `codemode tools` and `codemode sdk` over the configuration.

use serde_json::Value;

use super::{codemode, stderr, stdout, workspace};

#[test]
fn tools_lists_the_built_in_tools_by_default() {
    let dir = workspace();
    let output = codemode(dir.path(), &["tools"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "mode: native");
    assert!(
        lines[1].starts_with("NAME")
            && lines[1].contains("SOURCE")
            && lines[1].contains("CONCURRENCY")
    );
    let names: Vec<&str> = lines[2..]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, ["glob", "grep", "list_dir", "read_file"]);
    assert!(
        lines[2].contains("builtin") && lines[2].contains("parallel"),
        "{}",
        lines[2]
    );

    let json = codemode(dir.path(), &["tools", "--json"], "");
    let value: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["tools"].as_array().unwrap().len(), 4);
}

#[test]
fn tools_shows_opt_in_tools_and_the_configured_mode() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("codemode.toml"),
        "mode = \"both\"\n[builtin]\nenabled = [\"read_file\", \"write_file\"]\n",
    )
    .unwrap();
    let text = stdout(&codemode(dir.path(), &["tools"], ""));
    assert!(text.starts_with("mode: both\n"), "{text}");
    assert!(
        text.contains("write_file") && text.contains("exclusive"),
        "{text}"
    );
}

#[test]
fn sdk_renders_the_configured_tools_when_no_schemas_are_given() {
    let dir = workspace();
    let output = codemode(dir.path(), &["sdk"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("## Writing code for run_code"));
    assert!(
        text.contains("  grep: {") && text.contains("  read_file: {"),
        "{text}"
    );
    let python = stdout(&codemode(dir.path(), &["sdk", "--lang", "python"], ""));
    assert!(python.contains("async def grep(self"), "{python}");
}
