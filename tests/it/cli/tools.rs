//! `codemode tools` and `codemode sdk` over the configuration.

use serde_json::Value;

use super::{codemode, stdout, succeeded, workspace};

#[test]
fn tools_lists_the_built_in_tools_by_default() {
    let dir = workspace();
    let output = codemode(dir.path(), &["tools"], "");
    let text = succeeded(&output);
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
    let text = succeeded(&output);
    assert!(text.starts_with("## Writing code for run_code"));
    assert!(
        text.contains("  grep: {") && text.contains("  read_file: {"),
        "{text}"
    );
    let python = stdout(&codemode(dir.path(), &["sdk", "--lang", "python"], ""));
    assert!(python.contains("async def grep(self"), "{python}");
}

/// The commented example configuration in the repository stays true: it loads, lists what
/// it declares, and its command tool runs.
#[test]
fn the_example_configuration_works() {
    let dir = workspace();
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("codemode.example.toml");
    std::fs::copy(&example, dir.path().join("codemode.toml")).unwrap();

    let output = codemode(dir.path(), &["tools"], "");
    let text = succeeded(&output);
    assert!(text.starts_with("mode: code\n"), "{text}");
    let names: Vec<&str> = text
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    for name in ["add", "edit_file", "glob", "grep", "list_dir", "read_file"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }

    let output = codemode(
        dir.path(),
        &["run", "-"],
        "const sum = await tools.add({ a: 2, b: 3 });\n\
         try { await tools.edit_file({ path: 'notes.md', old_text: 'Nothing', new_text: 'All' }); }\n\
         catch (e) { console.log('edit refused:', e.toolName); }\n\
         return sum;",
    );
    let text = succeeded(&output);
    assert!(text.contains("edit refused: edit_file"), "{text}");
    assert!(text.contains('5'), "{text}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.md")).unwrap(),
        "Nothing to do here.\n",
        "`ask` with nobody to ask must deny"
    );
}

/// Each tool's policy: the configured one (`[policy]`, a command tool's own), `allow`
/// where none is set; in the table and in `--json`.
#[test]
fn tools_shows_each_tools_policy() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("codemode.toml"),
        "[builtin]\nenabled = [\"read_file\", \"glob\", \"write_file\"]\n\
         [[tools]]\nname = \"hello\"\ncommand = [\"echo\", \"hi\"]\npolicy = \"ask\"\n\
         [policy]\nglob = \"deny\"\nwrite_file = \"ask\"\n",
    )
    .unwrap();
    let text = succeeded(&codemode(dir.path(), &["tools"], ""));
    let lines: Vec<&str> = text.lines().collect();
    let header = lines[1];
    assert!(header.contains("  POLICY  "), "{text}");
    let column = header.find("POLICY").unwrap();
    let policies: Vec<(&str, &str)> = lines[2..]
        .iter()
        .map(|line| {
            let name = line.split_whitespace().next().unwrap();
            let policy = line[column..].split_whitespace().next().unwrap();
            (name, policy)
        })
        .collect();
    assert_eq!(
        policies,
        [
            ("glob", "deny"),
            ("hello", "ask"),
            ("read_file", "allow"),
            ("write_file", "ask")
        ],
        "{text}"
    );

    let json = succeeded(&codemode(dir.path(), &["tools", "--json"], ""));
    let value: Value = serde_json::from_str(&json).unwrap();
    let policies: Vec<(&str, &str)> = value["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            (
                tool["name"].as_str().unwrap(),
                tool["policy"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        policies,
        [
            ("glob", "deny"),
            ("hello", "ask"),
            ("read_file", "allow"),
            ("write_file", "ask")
        ]
    );
}
