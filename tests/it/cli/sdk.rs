//! `codemode sdk --check FILE` and `--write FILE`: the SDK text kept in a host's repository
//! and checked in its CI.

use std::path::Path;

use super::{codemode, stderr, stdout, succeeded, workspace};

fn example_schemas() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/tools/example.tools.json")
        .display()
        .to_string()
}

#[test]
fn write_then_check_passes_for_the_configured_tools() {
    let dir = workspace();
    let printed = succeeded(&codemode(dir.path(), &["sdk"], ""));

    let output = codemode(dir.path(), &["sdk", "--write", "sdk/tools.d.ts"], "");
    let said = succeeded(&output);
    assert_eq!(
        said,
        format!(
            "wrote sdk/tools.d.ts: the TypeScript SDK of 4 tools, {} bytes\n",
            printed.len()
        )
    );
    let written = std::fs::read_to_string(dir.path().join("sdk/tools.d.ts")).unwrap();
    assert_eq!(written, printed, "the file holds exactly what `sdk` prints");
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path().join("sdk"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["tools.d.ts"]);

    let output = codemode(dir.path(), &["sdk", "--check", "sdk/tools.d.ts"], "");
    assert_eq!(
        succeeded(&output),
        "sdk/tools.d.ts is up to date (the TypeScript SDK of 4 tools)\n"
    );

    // Writing it again leaves the file alone and says so.
    let again = succeeded(&codemode(
        dir.path(),
        &["sdk", "--write", "sdk/tools.d.ts"],
        "",
    ));
    assert!(again.contains("left unchanged"), "{again}");
}

#[test]
fn a_drifted_file_fails_with_a_unified_diff() {
    let dir = workspace();
    succeeded(&codemode(dir.path(), &["sdk", "--write", "tools.d.ts"], ""));
    let path = dir.path().join("tools.d.ts");
    let text = std::fs::read_to_string(&path).unwrap();
    // A tool whose declaration changed since the file was committed.
    let drifted = text.replacen("  grep: {", "  grep_old: {", 1);
    assert_ne!(drifted, text);
    std::fs::write(&path, &drifted).unwrap();

    let output = codemode(dir.path(), &["sdk", "--check", "tools.d.ts"], "");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diff = stdout(&output);
    assert!(
        diff.starts_with("--- tools.d.ts\n+++ codemode sdk\n@@ "),
        "{diff}"
    );
    assert!(diff.contains("\n-  grep_old: {\n"), "{diff}");
    assert!(diff.contains("\n+  grep: {\n"), "{diff}");
    let err = stderr(&output);
    assert!(
        err.contains("tools.d.ts differs from the TypeScript SDK of 4 tools")
            && err.contains("update it with `codemode sdk --write tools.d.ts`"),
        "{err}"
    );

    // Only a missing final newline differs: still a failure, with the diff's hint.
    std::fs::write(&path, text.trim_end_matches('\n')).unwrap();
    let output = codemode(dir.path(), &["sdk", "--check", "tools.d.ts"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("\\ No newline at end of file"),
        "{}",
        stdout(&output)
    );

    // --write brings it back; the check passes.
    succeeded(&codemode(dir.path(), &["sdk", "--write", "tools.d.ts"], ""));
    succeeded(&codemode(dir.path(), &["sdk", "--check", "tools.d.ts"], ""));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_missing_file_is_its_own_exit_status_and_says_how_to_create_it() {
    let dir = workspace();
    let output = codemode(dir.path(), &["sdk", "--check", "sdk/tools.d.ts"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let err = stderr(&output);
    assert!(
        err.starts_with("codemode: cannot read sdk/tools.d.ts: ")
            && err.contains("create it with `codemode sdk --write sdk/tools.d.ts`"),
        "{err}"
    );
}

#[test]
fn check_and_write_work_with_schemas_and_a_language() {
    let dir = workspace();
    let schemas = example_schemas();
    let python = succeeded(&codemode(
        dir.path(),
        &["sdk", "--schemas", &schemas, "--lang", "python"],
        "",
    ));
    let said = succeeded(&codemode(
        dir.path(),
        &[
            "sdk",
            "--schemas",
            &schemas,
            "--lang",
            "python",
            "--write",
            "tools.pyi",
        ],
        "",
    ));
    assert!(
        said.starts_with("wrote tools.pyi: the Python SDK of "),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tools.pyi")).unwrap(),
        python
    );
    succeeded(&codemode(
        dir.path(),
        &[
            "sdk",
            "--schemas",
            &schemas,
            "--lang",
            "python",
            "--check",
            "tools.pyi",
        ],
        "",
    ));
    // The same file against the TypeScript SDK of those tools: drift.
    let output = codemode(
        dir.path(),
        &["sdk", "--schemas", &schemas, "--check", "tools.pyi"],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    // And against the configured tools (the built-in ones here).
    let output = codemode(
        dir.path(),
        &["sdk", "--lang", "python", "--check", "tools.pyi"],
        "",
    );
    assert_eq!(output.status.code(), Some(1));

    // --check and --write together are a usage error.
    let output = codemode(dir.path(), &["sdk", "--check", "a", "--write", "b"], "");
    assert_eq!(output.status.code(), Some(2));
}
