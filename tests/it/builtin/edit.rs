//! `write_file` and `edit_file`: what lands on disk, the refusals, and exact diff cards.

use codemode::presentation::{FileDiff, FileLocation, ToolCallView, ToolResultView};
use codemode::registry::ExecutionMode;
use codemode::tool::ToolExecutionInput;
use serde_json::json;

use super::{Workspace, text};

fn numbered(range: std::ops::RangeInclusive<u32>) -> String {
    range.map(|n| format!("line {n}\n")).collect()
}

#[tokio::test]
async fn write_file_creates_a_file_with_its_directories_and_a_whole_file_card() {
    let ws = Workspace::new();
    let args = json!({"path": "new/dir/hello.txt", "content": "hello\nworld\n"});
    assert_eq!(
        ws.call_card("write_file", &args),
        Some(ToolCallView::Diff {
            title: "Write new/dir/hello.txt".into(),
            diffs: vec![FileDiff {
                path: ws.abs("new/dir/hello.txt"),
                old_text: None,
                new_text: "hello\nworld\n".into(),
            }],
            locations: Some(vec![FileLocation {
                path: ws.abs("new/dir/hello.txt"),
                line: None
            }]),
        })
    );
    let result = ws.call("write_file", args.clone()).await;
    assert_eq!(
        result.value().unwrap(),
        &json!({"path": "new/dir/hello.txt", "created": true, "bytes": 12, "hunks": []})
    );
    assert_eq!(text(&result), "Created `new/dir/hello.txt` (12 bytes).");
    assert_eq!(ws.read("new/dir/hello.txt"), "hello\nworld\n");
    assert_eq!(
        serde_json::to_value(ws.result_card("write_file", &args, &result).unwrap()).unwrap(),
        json!({"card": "diff", "title": "Create new/dir/hello.txt", "diffs": [
            {"path": ws.abs("new/dir/hello.txt"), "oldText": null, "newText": "hello\nworld\n"}
        ]})
    );
}

#[tokio::test]
async fn write_file_over_an_existing_file_shows_the_applied_hunks() {
    let ws = Workspace::new();
    ws.write("notes.txt", numbered(1..=20));
    let after = numbered(1..=20).replace("line 2\n", "line two\n") + "line 21\n";
    let args = json!({"path": "notes.txt", "content": after});
    let result = ws.call("write_file", args.clone()).await;
    assert_eq!(
        text(&result),
        "Replaced the content of `notes.txt` (161 bytes; 2 regions changed)."
    );
    assert_eq!(result.value().unwrap()["created"], false);
    assert_eq!(ws.read("notes.txt"), after);
    assert_eq!(
        ws.result_card("write_file", &args, &result),
        Some(ToolResultView::Diff {
            title: Some("Write notes.txt".into()),
            diffs: vec![
                FileDiff {
                    path: ws.abs("notes.txt"),
                    old_text: Some(numbered(1..=5)),
                    new_text: "line 1\nline two\nline 3\nline 4\nline 5\n".into(),
                },
                FileDiff {
                    path: ws.abs("notes.txt"),
                    old_text: Some(numbered(18..=20)),
                    new_text: numbered(18..=21),
                },
            ],
        })
    );
    let same = ws.call("write_file", args).await;
    assert_eq!(
        text(&same),
        "Wrote `notes.txt` (161 bytes); the content was already the same."
    );
}

#[tokio::test]
async fn write_file_refuses_directories() {
    let ws = Workspace::new();
    ws.write("dir/a.txt", "");
    for path in ["dir", ".", ""] {
        let (code, message) = ws
            .fails("write_file", json!({"path": path, "content": "x"}))
            .await;
        assert_eq!(code, "TOOL_FAILED", "{path}");
        assert!(
            message.ends_with("is a directory; give the path of a file inside it"),
            "{message}"
        );
    }
    let (code, message) = ws
        .fails("write_file", json!({"path": "dir/a.txt/b", "content": "x"}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
    assert_eq!(
        message,
        "`dir/a.txt` is not a directory, so the path cannot continue after it"
    );
}

#[tokio::test]
async fn edit_file_replaces_one_occurrence_and_cards_the_hunk_with_context() {
    let ws = Workspace::new();
    ws.write("src/lib.rs", numbered(1..=20));
    let args = json!({"path": "src/lib.rs", "old_text": "line 10\n", "new_text": "line ten\nline ten and a half\n"});
    assert_eq!(
        ws.call_card("edit_file", &args),
        Some(ToolCallView::Diff {
            title: "Edit src/lib.rs".into(),
            diffs: vec![FileDiff {
                path: ws.abs("src/lib.rs"),
                old_text: Some("line 10\n".into()),
                new_text: "line ten\nline ten and a half\n".into(),
            }],
            locations: Some(vec![FileLocation {
                path: ws.abs("src/lib.rs"),
                line: None
            }]),
        })
    );
    let result = ws.call("edit_file", args.clone()).await;
    assert_eq!(
        result.value().unwrap(),
        &json!({"path": "src/lib.rs", "replacements": 1, "hunks": [{
            "old_start": 7, "new_start": 7,
            "old_text": numbered(7..=13),
            "new_text": "line 7\nline 8\nline 9\nline ten\nline ten and a half\nline 11\nline 12\nline 13\n",
        }]})
    );
    assert_eq!(
        text(&result),
        "Edited `src/lib.rs` (1 replacement). The changed region now reads:\n     7\tline 7\n     8\tline 8\n     9\tline 9\n    10\tline ten\n    11\tline ten and a half\n    12\tline 11\n    13\tline 12\n    14\tline 13"
    );
    assert_eq!(
        serde_json::to_value(ws.result_card("edit_file", &args, &result).unwrap()).unwrap(),
        json!({"card": "diff", "title": "Edit src/lib.rs", "diffs": [{
            "path": ws.abs("src/lib.rs"),
            "oldText": "line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\n",
            "newText": "line 7\nline 8\nline 9\nline ten\nline ten and a half\nline 11\nline 12\nline 13\n",
        }]})
    );
    assert_eq!(
        ws.read("src/lib.rs"),
        numbered(1..=20).replace("line 10\n", "line ten\nline ten and a half\n")
    );
}

#[tokio::test]
async fn edit_file_replace_all_cards_each_distant_hunk() {
    let ws = Workspace::new();
    let before = "use old;\n".to_owned() + &numbered(1..=10) + "call(old);\n";
    ws.write("a.rs", &before);
    let args = json!({"path": "a.rs", "old_text": "old", "new_text": "new", "replace_all": true});
    let result = ws.call("edit_file", args.clone()).await;
    assert_eq!(result.value().unwrap()["replacements"], 2);
    assert_eq!(ws.read("a.rs"), before.replace("old", "new"));
    assert_eq!(
        ws.result_card("edit_file", &args, &result),
        Some(ToolResultView::Diff {
            title: Some("Edit a.rs".into()),
            diffs: vec![
                FileDiff {
                    path: ws.abs("a.rs"),
                    old_text: Some(format!("use old;\n{}", numbered(1..=3))),
                    new_text: format!("use new;\n{}", numbered(1..=3)),
                },
                FileDiff {
                    path: ws.abs("a.rs"),
                    old_text: Some(format!("{}call(old);\n", numbered(8..=10))),
                    new_text: format!("{}call(new);\n", numbered(8..=10)),
                },
            ],
        })
    );
}

#[tokio::test]
async fn edit_file_refuses_missing_and_ambiguous_text_and_leaves_the_file_alone() {
    let ws = Workspace::new();
    let before = "fn a() {\n    x += 1;\n}\nfn b() {\n    x += 1;\n}\n";
    ws.write("a.rs", before);

    let (code, message) = ws
        .fails(
            "edit_file",
            json!({"path": "a.rs", "old_text": "    x += 1;\n", "new_text": "    x += 2;\n"}),
        )
        .await;
    assert_eq!(code, "TOOL_FAILED");
    assert_eq!(
        message,
        "`old_text` occurs 2 times in `a.rs` (at lines 2, 5); include more surrounding lines so it matches exactly one place, or set `replace_all` to true to replace every occurrence"
    );

    let (code, message) = ws
        .fails(
            "edit_file",
            json!({"path": "a.rs", "old_text": "x += 1;\n  }", "new_text": "y"}),
        )
        .await;
    assert_eq!(code, "TOOL_FAILED");
    assert_eq!(
        message,
        "`old_text` was not found in `a.rs`. It must match the file exactly, including whitespace, indentation and line breaks; read the file again (read_file) and copy the text from it, without the line-number prefixes. Its first line appears (ignoring indentation) at line 2, 5: compare the lines around it."
    );

    let (code, _) = ws
        .fails(
            "edit_file",
            json!({"path": "a.rs", "old_text": "", "new_text": "y"}),
        )
        .await;
    assert_eq!(code, "INVALID_ARGS");
    let (code, _) = ws
        .fails(
            "edit_file",
            json!({"path": "a.rs", "old_text": "fn", "new_text": "fn"}),
        )
        .await;
    assert_eq!(code, "INVALID_ARGS");
    let (code, message) = ws
        .fails(
            "edit_file",
            json!({"path": "b.rs", "old_text": "a", "new_text": "b"}),
        )
        .await;
    assert_eq!(code, "TOOL_FAILED");
    assert!(message.starts_with("`b.rs` does not exist"), "{message}");
    assert_eq!(ws.read("a.rs"), before);
}

#[tokio::test]
async fn edit_file_keeps_crlf_and_refuses_what_it_would_damage() {
    let ws = Workspace::new();
    ws.write("win.txt", "one\r\ntwo\r\nthree\r\n");
    ws.ok(
        "edit_file",
        json!({"path": "win.txt", "old_text": "one\ntwo", "new_text": "1\n2"}),
    )
    .await;
    assert_eq!(ws.read("win.txt"), "1\r\n2\r\nthree\r\n");

    ws.write("latin1.txt", b"caf\xe9\n");
    let (code, message) = ws
        .fails(
            "edit_file",
            json!({"path": "latin1.txt", "old_text": "caf", "new_text": "tea"}),
        )
        .await;
    assert_eq!(code, "TOOL_FAILED");
    assert!(message.contains("not valid UTF-8"), "{message}");
    assert_eq!(
        std::fs::read(ws.root.join("latin1.txt")).unwrap(),
        b"caf\xe9\n"
    );

    ws.write("blob.bin", b"abc\0def");
    let (_, message) = ws
        .fails(
            "edit_file",
            json!({"path": "blob.bin", "old_text": "abc", "new_text": "x"}),
        )
        .await;
    assert!(message.contains("binary"), "{message}");
}

#[tokio::test]
async fn reads_may_overlap_and_changes_run_alone() {
    let ws = Workspace::new();
    let mode = |name: &str, args| {
        ws.registry
            .execution_mode(&ToolExecutionInput::new("c", name, args))
    };
    assert_eq!(
        mode("read_file", json!({"path": "a"})),
        ExecutionMode::Parallel
    );
    assert_eq!(mode("list_dir", json!({})), ExecutionMode::Parallel);
    assert_eq!(
        mode("glob", json!({"pattern": "*"})),
        ExecutionMode::Parallel
    );
    assert_eq!(
        mode("grep", json!({"pattern": "x"})),
        ExecutionMode::Parallel
    );
    assert_eq!(
        mode("write_file", json!({"path": "a", "content": ""})),
        ExecutionMode::Exclusive
    );
    assert_eq!(
        mode(
            "edit_file",
            json!({"path": "a", "old_text": "a", "new_text": "b"})
        ),
        ExecutionMode::Exclusive
    );
}
