//! `read_file`: windows of large files, the read card, binary and non-UTF-8 files.

use codemode::presentation::{
    FileLocation, ReadFileLine, ToolCallKind, ToolCallView, ToolResultView,
};
use serde_json::json;

use super::{Workspace, text};

fn numbered(range: std::ops::RangeInclusive<u64>) -> String {
    range.map(|n| format!("line {n}\n")).collect()
}

#[tokio::test]
async fn a_large_file_is_read_in_windows() {
    let ws = Workspace::new();
    ws.write("big.log", numbered(1..=100_000));

    let first = ws.ok("read_file", json!({"path": "big.log"})).await;
    assert_eq!(
        first,
        json!({"path": "big.log", "content": numbered(1..=2000), "offset": 1,
               "lines_returned": 2000, "total_lines": 100_000, "truncated": true})
    );

    let middle = ws
        .ok(
            "read_file",
            json!({"path": "big.log", "offset": 50_000, "limit": 100}),
        )
        .await;
    assert_eq!(middle["content"], numbered(50_000..=50_099));
    assert_eq!(middle["lines_returned"], 100);
    assert_eq!(middle["truncated"], true);

    let last = ws
        .ok(
            "read_file",
            json!({"path": "big.log", "offset": 99_990, "limit": 100}),
        )
        .await;
    assert_eq!(last["content"], numbered(99_990..=100_000));
    assert_eq!(last["truncated"], false);

    let args = json!({"path": "big.log", "offset": 100_001});
    let past = ws.ok("read_file", args.clone()).await;
    assert_eq!(
        past,
        json!({"path": "big.log", "content": "", "offset": 100_001, "lines_returned": 0,
               "total_lines": 100_000, "truncated": false})
    );
    let result = ws.call("read_file", args.clone()).await;
    assert_eq!(
        text(&result),
        "(`big.log` has 100000 lines; offset 100001 is past the end)"
    );
    // The card keeps the offset the window asked for, even with no lines.
    let Some(ToolResultView::Read {
        offset,
        lines,
        total_lines,
        ..
    }) = ws.result_card("read_file", &args, &result)
    else {
        panic!("a read card");
    };
    assert_eq!((offset, lines.len(), total_lines), (100_001, 0, 100_000));
}

#[tokio::test]
async fn the_model_sees_numbered_lines_and_how_to_go_on() {
    let ws = Workspace::new();
    ws.write("notes.md", numbered(1..=5));
    let result = ws
        .call(
            "read_file",
            json!({"path": "notes.md", "offset": 2, "limit": 2}),
        )
        .await;
    assert_eq!(
        text(&result),
        "     2\tline 2\n     3\tline 3\n(lines 2-3 of 5; read on with offset 4)"
    );
    let whole = ws.call("read_file", json!({"path": "./notes.md"})).await;
    assert_eq!(text(&whole).lines().count(), 5);
}

#[tokio::test]
async fn the_read_card_numbers_lines_and_names_the_language() {
    let ws = Workspace::new();
    ws.write(
        "src/main.rs",
        "fn main() {\r\n    println!(\"hi\");\r\n}\r\n",
    );
    let args = json!({"path": "src/main.rs", "offset": 2});
    assert_eq!(
        ws.call_card("read_file", &args),
        Some(ToolCallView::Generic {
            title: "Read src/main.rs (from line 2)".into(),
            kind: Some(ToolCallKind::Read),
            raw_input: None,
            content: None,
            locations: Some(vec![FileLocation {
                path: ws.abs("src/main.rs"),
                line: Some(2)
            }]),
        })
    );
    assert_eq!(
        ws.card("read_file", args).await,
        ToolResultView::Read {
            title: None,
            path: ws.abs("src/main.rs"),
            offset: 2,
            lines: vec![
                ReadFileLine {
                    number: 2,
                    text: "    println!(\"hi\");".into()
                },
                ReadFileLine {
                    number: 3,
                    text: "}".into()
                },
            ],
            total_lines: 3,
            lang: Some("rust".into()),
            content: Some("    println!(\"hi\");\r\n}\r\n".into()),
        }
    );
}

#[tokio::test]
async fn binary_files_are_refused_and_other_encodings_read_lossily() {
    let ws = Workspace::new();
    ws.write("image.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let (code, message) = ws.fails("read_file", json!({"path": "image.png"})).await;
    assert_eq!(code, "TOOL_FAILED");
    assert_eq!(
        message,
        "`image.png` looks like a binary file (16 bytes, with NUL bytes); read_file only shows text"
    );

    ws.write("latin1.txt", b"caf\xe9\nna\xefve\n");
    let value = ws.ok("read_file", json!({"path": "latin1.txt"})).await;
    assert_eq!(value["content"], "caf\u{FFFD}\nna\u{FFFD}ve\n");
    assert_eq!(value["total_lines"], 2);
}

#[tokio::test]
async fn wrong_targets_and_arguments_say_what_to_do() {
    let ws = Workspace::new();
    ws.write("dir/a.txt", "a\n");
    ws.write("empty.txt", "");
    let (code, message) = ws.fails("read_file", json!({"path": "dir"})).await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        (
            "TOOL_FAILED",
            "`dir` is a directory; use list_dir to see what it holds"
        )
    );
    let (code, message) = ws
        .fails("read_file", json!({"path": "dir/missing.txt"}))
        .await;
    assert_eq!(code, "TOOL_FAILED");
    assert!(
        message.starts_with("`dir/missing.txt` does not exist"),
        "{message}"
    );
    let (code, message) = ws
        .fails("read_file", json!({"path": "dir/a.txt", "offset": 0}))
        .await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("INVALID_ARGS", "`offset` is 1-based: the first line is 1")
    );
    let (code, _) = ws
        .fails("read_file", json!({"path": "dir/a.txt", "limit": 0}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
    let (code, _) = ws
        .fails("read_file", json!({"path": "dir/a.txt", "offset": -3}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
    let (code, _) = ws.fails("read_file", json!({})).await;
    assert_eq!(code, "INVALID_ARGS");

    let result = ws.call("read_file", json!({"path": "empty.txt"})).await;
    assert_eq!(text(&result), "(`empty.txt` is empty)");
    assert_eq!(result.value().unwrap()["total_lines"], 0);
}

#[tokio::test]
async fn a_window_is_capped_in_bytes_and_long_lines_are_shortened() {
    let ws = Workspace::new();
    let wide = format!("{}\n", "w".repeat(1999));
    ws.write("wide.txt", wide.repeat(1000));
    let value = ws.ok("read_file", json!({"path": "wide.txt"})).await;
    let returned = value["lines_returned"].as_u64().unwrap();
    assert!(returned < 1000, "a 2 MB window was cut by the byte cap");
    assert_eq!(returned as usize, 256 * 1024 / wide.len());
    assert_eq!(value["truncated"], true);

    ws.write("minified.js", "x".repeat(1_000_000));
    let value = ws.ok("read_file", json!({"path": "minified.js"})).await;
    let content = value["content"].as_str().unwrap();
    assert!(
        content.ends_with("… [line shortened: 1000000 bytes in all]"),
        "{}",
        &content[1990..]
    );
    assert_eq!(value["total_lines"], 1);
    assert_eq!(value["truncated"], true);
}

#[tokio::test]
async fn special_files_are_refused_without_being_opened() {
    let ws = Workspace::new();
    ws.write("a.txt", "x\n");
    let made = std::process::Command::new("mkfifo")
        .arg(ws.root.join("pipe"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Opening a FIFO would block forever: each tool must refuse or skip it instead.
    let (code, message) = ws.fails("read_file", json!({"path": "pipe"})).await;
    assert_eq!(code, "TOOL_FAILED");
    assert!(message.contains("not a regular file"), "{message}");
    let (_, message) = ws
        .fails("write_file", json!({"path": "pipe", "content": "x"}))
        .await;
    assert!(message.contains("not a regular file"), "{message}");
    let (_, message) = ws
        .fails(
            "edit_file",
            json!({"path": "pipe", "old_text": "x", "new_text": "y"}),
        )
        .await;
    assert!(message.contains("not a regular file"), "{message}");
    assert_eq!(ws.ok("grep", json!({"pattern": "x"})).await["total"], 1);
    assert_eq!(
        ws.ok("glob", json!({"pattern": "*"})).await["paths"],
        json!(["a.txt"])
    );
    let listing = ws.ok("list_dir", json!({})).await;
    assert_eq!(
        listing["entries"][1],
        json!({"name": "pipe", "kind": "other"})
    );
}
