//! Path escapes: every tool refuses every way out of the root, says why without naming
//! anything outside, and changes nothing outside.

use serde_json::json;

use super::{SECRET, Workspace, assert_no_leak};

/// The workspace of the escape attempts: a file and directory inside, symlinks out of the
/// root at the top, in a subdirectory and chained through an inside link.
fn escape_workspace() -> Workspace {
    let ws = Workspace::new();
    ws.write("inside.txt", "inside\n");
    ws.write("sub/inner.txt", "inner\n");
    ws.symlink(&ws.outside, "link_out");
    ws.symlink(ws.outside.join("secret.txt"), "link_file_out");
    ws.symlink("../../outside", "sub/escape");
    ws.symlink("sub", "link_in");
    ws.symlink("missing-target", "dangling");
    ws
}

/// Every path argument that must be refused, with what the message must say.
fn escapes(ws: &Workspace) -> Vec<(String, &'static str)> {
    vec![
        ("../outside/secret.txt".into(), "too many `..`"),
        ("..".into(), "leads outside"),
        ("sub/../../outside/secret.txt".into(), "leads outside"),
        ("sub/../..".into(), "leads outside"),
        (
            ws.outside.join("secret.txt").display().to_string(),
            "absolute paths are not accepted",
        ),
        ("/etc/passwd".into(), "absolute paths are not accepted"),
        ("link_file_out".into(), "points outside the workspace root"),
        (
            "link_out/secret.txt".into(),
            "points outside the workspace root",
        ),
        ("link_out".into(), "points outside the workspace root"),
        (
            "sub/escape/secret.txt".into(),
            "points outside the workspace root",
        ),
        (
            "link_in/escape/secret.txt".into(),
            "points outside the workspace root",
        ),
        ("dangling".into(), "target is missing"),
        ("inside.txt\0.png".into(), "NUL byte"),
        ("\0".into(), "NUL byte"),
        ("a".repeat(300), "too long"),
        (format!("sub/{}", "a".repeat(256)), "too long"),
        (vec!["d"; 3000].join("/"), "too long"),
    ]
}

async fn assert_refused(ws: &Workspace, tool: &str, args: serde_json::Value, why: &str) {
    let (code, message) = ws.fails(tool, args.clone()).await;
    assert_eq!(code, "INVALID_ARGS", "{tool}({args}): {message}");
    assert!(
        message.contains(why),
        "{tool}({args}): `{message}` should say `{why}`"
    );
    assert_no_leak(ws, &message);
}

#[tokio::test]
async fn reading_tools_refuse_every_escape() {
    let ws = escape_workspace();
    for (path, why) in escapes(&ws) {
        assert_refused(&ws, "read_file", json!({"path": path}), why).await;
        assert_refused(&ws, "list_dir", json!({"path": path}), why).await;
        assert_refused(&ws, "glob", json!({"pattern": "*", "path": path}), why).await;
        assert_refused(&ws, "grep", json!({"pattern": "secret", "path": path}), why).await;
    }
}

#[tokio::test]
async fn writing_tools_refuse_every_escape_and_change_nothing_outside() {
    let ws = escape_workspace();
    for (path, why) in escapes(&ws) {
        assert_refused(
            &ws,
            "write_file",
            json!({"path": path, "content": "pwned"}),
            why,
        )
        .await;
        assert_refused(
            &ws,
            "edit_file",
            json!({"path": path, "old_text": "secret", "new_text": "pwned"}),
            why,
        )
        .await;
    }
    // Writing through a link to a new file in an outside directory, or to a missing target.
    for (path, why) in [
        ("link_out/new.txt", "points outside"),
        ("sub/escape/new/deeper.txt", "points outside"),
        ("dangling", "target is missing"),
    ] {
        assert_refused(
            &ws,
            "write_file",
            json!({"path": path, "content": "pwned"}),
            why,
        )
        .await;
    }
    assert_eq!(
        std::fs::read_to_string(ws.outside.join("secret.txt")).unwrap(),
        SECRET
    );
    let outside: Vec<_> = std::fs::read_dir(&ws.outside).unwrap().collect();
    assert_eq!(outside.len(), 1, "nothing was created outside the root");
    assert!(
        !ws.root.join("missing-target").exists(),
        "the dangling link's target was not created"
    );
}

#[tokio::test]
async fn an_absolute_path_inside_the_root_is_refused_with_its_relative_form() {
    let ws = escape_workspace();
    let (code, message) = ws
        .fails("read_file", json!({"path": ws.abs("sub/inner.txt")}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
    assert_eq!(
        message,
        "absolute paths are not accepted; paths are relative to the workspace root: use `sub/inner.txt`"
    );
}

#[tokio::test]
async fn links_that_stay_inside_the_root_work() {
    let ws = escape_workspace();
    let value = ws
        .ok("read_file", json!({"path": "link_in/inner.txt"}))
        .await;
    assert_eq!(value["content"], "inner\n");
    assert_eq!(value["path"], "link_in/inner.txt");
    ws.ok(
        "edit_file",
        json!({"path": "link_in/inner.txt", "old_text": "inner", "new_text": "changed"}),
    )
    .await;
    assert_eq!(ws.read("sub/inner.txt"), "changed\n");
    assert!(
        ws.root.join("link_in").is_symlink(),
        "the link itself is untouched"
    );
}

#[tokio::test]
async fn walks_never_follow_links_out_of_the_root() {
    let ws = escape_workspace();
    let found = ws.ok("glob", json!({"pattern": "**/*"})).await;
    assert_eq!(found["paths"], json!(["inside.txt", "sub/inner.txt"]));
    let found = ws.ok("grep", json!({"pattern": "secret"})).await;
    assert_eq!(
        found,
        json!({"matches": [], "truncated": false, "total": 0})
    );
    // Patterns cannot climb out either.
    let (code, message) = ws.fails("glob", json!({"pattern": "../outside/*"})).await;
    assert_eq!(code, "INVALID_ARGS");
    assert!(message.contains("contains `..`"), "{message}");
    let (code, _) = ws.fails("glob", json!({"pattern": "/tmp/*"})).await;
    assert_eq!(code, "INVALID_ARGS");
}

#[tokio::test]
async fn list_dir_shows_links_without_resolving_them() {
    let ws = escape_workspace();
    let listing = ws.ok("list_dir", json!({})).await;
    let links: Vec<_> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|entry| entry["kind"] == "symlink")
        .map(|entry| entry["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(links, ["dangling", "link_file_out", "link_in", "link_out"]);
    let listed = ws.call("list_dir", json!({})).await;
    let text = super::text(&listed);
    assert_no_leak(&ws, &text);
}
