//! The `codemode` command, run as the built binary: `run`, `tools`, `sdk` from a
//! configuration.

mod run;
mod sdk;
mod tools;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `codemode args...` in `dir` with `stdin`.
pub fn codemode(dir: &Path, args: &[&str], stdin: &str) -> Output {
    codemode_with_env(dir, args, stdin, &[])
}

/// Runs `codemode args...` in `dir` with `stdin` and the variables `env` set.
pub fn codemode_with_env(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    if let Some(mut input) = child.stdin.take() {
        // A command that fails before reading (a usage error) may be gone already: its
        // standard input is then a broken pipe, and its output says why.
        match input.write_all(stdin.as_bytes()) {
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => {}
            written => written.expect("stdin is written"),
        }
    }
    child.wait_with_output().expect("the command finishes")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that the command succeeded (showing all it printed when it did not) and
/// returns its standard output.
#[track_caller]
pub fn succeeded(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}{}",
        stdout(output),
        stderr(output)
    );
    stdout(output)
}

/// A small workspace: a few files with TODO markers.
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temp dir");
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    };
    write(
        "src/main.rs",
        "fn main() {\n    // TODO: greet\n    // FIXME: exit code\n}\n",
    );
    write(
        "src/lib.rs",
        "// TODO one\n// TODO two\n// TODO three\npub fn f() {}\n",
    );
    write("notes.md", "Nothing to do here.\n");
    dir
}

pub fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .display()
        .to_string()
}
