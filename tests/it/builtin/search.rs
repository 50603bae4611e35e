//! `list_dir`, `glob` and `grep`: ordering, caps, ignore rules, binary and non-UTF-8 files,
//! and their search cards.

use codemode::presentation::{ReadFileLine, SearchFileMatches, SearchResults, ToolResultView};
use serde_json::json;

use super::{Workspace, text};

/// A small project: sources, docs, an ignored build directory and log, a .git directory,
/// a hidden CI file.
fn project() -> Workspace {
    let ws = Workspace::new();
    ws.write(".gitignore", "target/\n*.log\n");
    ws.write(
        "src/main.rs",
        "fn main() {\n    // TODO: parse args\n    run();\n}\n",
    );
    ws.write("src/lib/util.rs", "// todo later\npub fn run() {}\n");
    ws.write("docs/guide.md", "# Guide\nTODO: write it\n");
    ws.write("Cargo.toml", "[package]\nname = \"demo\"\n");
    ws.write("target/debug/out.rs", "// TODO in build output\n");
    ws.write("debug.log", "TODO in a log\n");
    ws.write(".git/config", "[core] TODO\n");
    ws.write(".github/ci.yml", "# TODO: cache\n");
    ws
}

#[tokio::test]
async fn list_dir_sorts_entries_and_reports_kinds_and_sizes() {
    let ws = project();
    ws.symlink("src", "src-link");
    let listing = ws.ok("list_dir", json!({"path": "src"})).await;
    assert_eq!(
        listing,
        json!({"path": "src", "entries": [
            {"name": "lib", "kind": "dir"},
            {"name": "main.rs", "kind": "file", "size": 49},
        ], "truncated": false, "total": 2})
    );
    let root = ws.call("list_dir", json!({})).await;
    assert_eq!(
        text(&root),
        ".git/\n.github/\n.gitignore (14 bytes)\nCargo.toml (24 bytes)\ndebug.log (14 bytes)\ndocs/\nsrc/\nsrc-link@ (symbolic link)\ntarget/"
    );
    assert_eq!(
        ws.result_card("list_dir", &json!({}), &root),
        Some(ToolResultView::Search {
            title: Some("List .".into()),
            truncated: false,
            total: 9,
            results: SearchResults::Paths {
                paths: [
                    ".git/",
                    ".github/",
                    ".gitignore",
                    "Cargo.toml",
                    "debug.log",
                    "docs/",
                    "src/",
                    "src-link",
                    "target/"
                ]
                .map(String::from)
                .to_vec(),
            },
        })
    );
    let (code, message) = ws.fails("list_dir", json!({"path": "Cargo.toml"})).await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        (
            "TOOL_FAILED",
            "`Cargo.toml` is not a directory; use read_file to read a file"
        )
    );
}

#[tokio::test]
async fn list_dir_caps_huge_directories() {
    let ws = Workspace::new();
    for n in 0..1005 {
        ws.write(&format!("many/f{n:04}"), "");
    }
    let listing = ws.ok("list_dir", json!({"path": "many"})).await;
    assert_eq!(listing["entries"].as_array().unwrap().len(), 1000);
    assert_eq!(listing["entries"][999]["name"], "f0999");
    assert_eq!(
        (listing["truncated"].clone(), listing["total"].clone()),
        (json!(true), json!(1005))
    );
}

#[tokio::test]
async fn glob_matches_names_anywhere_or_whole_paths_and_respects_gitignore() {
    let ws = project();
    let all_rust = ws.ok("glob", json!({"pattern": "*.rs"})).await;
    assert_eq!(
        all_rust,
        json!({"paths": ["src/lib/util.rs", "src/main.rs"], "truncated": false, "total": 2})
    );
    let top = ws.ok("glob", json!({"pattern": "src/*.rs"})).await;
    assert_eq!(top["paths"], json!(["src/main.rs"]));
    let below = ws
        .ok("glob", json!({"pattern": "*.rs", "path": "src/lib"}))
        .await;
    assert_eq!(below["paths"], json!(["src/lib/util.rs"]));
    let everything = ws.ok("glob", json!({"pattern": "**/*"})).await;
    assert_eq!(
        everything["paths"],
        json!([
            ".github/ci.yml",
            ".gitignore",
            "Cargo.toml",
            "docs/guide.md",
            "src/lib/util.rs",
            "src/main.rs"
        ]),
        "ignored files and .git are skipped, hidden files are not"
    );
    let none = ws.call("glob", json!({"pattern": "*.py"})).await;
    assert_eq!(text(&none), "No files match `*.py`.");
    let (code, message) = ws.fails("glob", json!({"pattern": "src/[x"})).await;
    assert_eq!(code, "INVALID_ARGS");
    assert!(message.starts_with("invalid pattern `src/[x`"), "{message}");
    let (code, _) = ws
        .fails("glob", json!({"pattern": "*", "path": "Cargo.toml"}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
}

#[tokio::test]
async fn glob_caps_its_list_and_says_so() {
    let ws = Workspace::new();
    for n in 0..600 {
        ws.write(&format!("gen/file{n:03}.txt"), "");
    }
    let args = json!({"pattern": "*.txt"});
    let result = ws.call("glob", args.clone()).await;
    let value = result.value().unwrap();
    assert_eq!(value["paths"].as_array().unwrap().len(), 500);
    assert_eq!(value["paths"][0], "gen/file000.txt");
    assert_eq!(value["paths"][499], "gen/file499.txt");
    assert_eq!(
        (value["truncated"].clone(), value["total"].clone()),
        (json!(true), json!(600))
    );
    assert!(text(&result).ends_with(
        "\n(showing the first 500 of 600 matching files; use a narrower pattern or path)"
    ));
    let Some(ToolResultView::Search {
        truncated,
        total,
        results: SearchResults::Paths { paths },
        ..
    }) = ws.result_card("glob", &args, &result)
    else {
        panic!("a paths card");
    };
    assert_eq!((truncated, total, paths.len()), (true, 600, 500));
}

#[tokio::test]
async fn grep_finds_lines_in_path_order_with_ignore_rules() {
    let ws = project();
    let args = json!({"pattern": "TODO"});
    let result = ws.call("grep", args.clone()).await;
    assert_eq!(
        result.value().unwrap(),
        &json!({"matches": [
            {"path": ".github/ci.yml", "line": 1, "text": "# TODO: cache"},
            {"path": "docs/guide.md", "line": 2, "text": "TODO: write it"},
            {"path": "src/main.rs", "line": 2, "text": "    // TODO: parse args"},
        ], "truncated": false, "total": 3})
    );
    assert_eq!(
        text(&result),
        ".github/ci.yml\n1: # TODO: cache\n\ndocs/guide.md\n2: TODO: write it\n\nsrc/main.rs\n2:     // TODO: parse args"
    );
    assert_eq!(
        ws.result_card("grep", &args, &result),
        Some(ToolResultView::Search {
            title: Some("Search `TODO`".into()),
            truncated: false,
            total: 3,
            results: SearchResults::Matches {
                files: vec![
                    SearchFileMatches {
                        path: ".github/ci.yml".into(),
                        matches: vec![ReadFileLine {
                            number: 1,
                            text: "# TODO: cache".into()
                        }],
                    },
                    SearchFileMatches {
                        path: "docs/guide.md".into(),
                        matches: vec![ReadFileLine {
                            number: 2,
                            text: "TODO: write it".into()
                        }],
                    },
                    SearchFileMatches {
                        path: "src/main.rs".into(),
                        matches: vec![ReadFileLine {
                            number: 2,
                            text: "    // TODO: parse args".into()
                        }],
                    },
                ],
            },
        })
    );
}

#[tokio::test]
async fn grep_filters_by_case_glob_and_path() {
    let ws = project();
    let any_case = ws
        .ok(
            "grep",
            json!({"pattern": "todo", "case_insensitive": true, "glob": "*.rs"}),
        )
        .await;
    assert_eq!(
        any_case["matches"],
        json!([
            {"path": "src/lib/util.rs", "line": 1, "text": "// todo later"},
            {"path": "src/main.rs", "line": 2, "text": "    // TODO: parse args"},
        ])
    );
    let one_file = ws
        .ok(
            "grep",
            json!({"pattern": "fn \\w+\\(", "path": "src/main.rs"}),
        )
        .await;
    assert_eq!(
        one_file["matches"],
        json!([{"path": "src/main.rs", "line": 1, "text": "fn main() {"}])
    );
    let anchored = ws
        .ok(
            "grep",
            json!({"pattern": "^pub fn run\\(\\) \\{\\}$", "path": "src"}),
        )
        .await;
    assert_eq!(anchored["total"], 1);
    let (code, message) = ws.fails("grep", json!({"pattern": "fn main("})).await;
    assert_eq!(code, "INVALID_ARGS");
    assert!(
        message.starts_with("invalid regular expression"),
        "{message}"
    );
    let (code, _) = ws
        .fails("grep", json!({"pattern": "x", "max_matches": 0}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
    let (code, _) = ws
        .fails("grep", json!({"pattern": "x", "glob": "../*"}))
        .await;
    assert_eq!(code, "INVALID_ARGS");
}

#[tokio::test]
async fn grep_caps_matches_and_counts_them_all() {
    let ws = Workspace::new();
    ws.write("a.txt", "hit\n".repeat(4));
    ws.write("b.txt", "miss\nhit\n".repeat(3));
    let args = json!({"pattern": "hit", "max_matches": 5});
    let result = ws.call("grep", args.clone()).await;
    let value = result.value().unwrap();
    assert_eq!(
        value["matches"],
        json!([
            {"path": "a.txt", "line": 1, "text": "hit"},
            {"path": "a.txt", "line": 2, "text": "hit"},
            {"path": "a.txt", "line": 3, "text": "hit"},
            {"path": "a.txt", "line": 4, "text": "hit"},
            {"path": "b.txt", "line": 2, "text": "hit"},
        ])
    );
    assert_eq!(
        (value["truncated"].clone(), value["total"].clone()),
        (json!(true), json!(7))
    );
    assert!(text(&result).ends_with(
        "(showing 5 of 7 matching lines; narrow the pattern, path or glob, or raise max_matches)"
    ));
    let Some(ToolResultView::Search {
        truncated: true,
        total: 7,
        results: SearchResults::Matches { files },
        ..
    }) = ws.result_card("grep", &args, &result)
    else {
        panic!("a truncated matches card");
    };
    assert_eq!(
        files.iter().map(|f| f.matches.len()).collect::<Vec<_>>(),
        [4, 1]
    );
}

#[tokio::test]
async fn grep_skips_binary_files_reads_other_encodings_and_shortens_long_lines() {
    let ws = Workspace::new();
    ws.write("blob.bin", b"needle\0\0\0needle\n");
    ws.write("latin1.txt", b"caf\xe9 needle\n");
    ws.write("crlf.txt", "first\r\nneedle\r\n");
    ws.write(
        "long.min.js",
        format!("{}needle{}\n", "a".repeat(5000), "b".repeat(5000)),
    );
    let found = ws.ok("grep", json!({"pattern": "needle$|needle"})).await;
    let matches = found["matches"].as_array().unwrap();
    let paths: Vec<&str> = matches
        .iter()
        .map(|m| m["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["crlf.txt", "latin1.txt", "long.min.js"]);
    assert_eq!(matches[0]["text"], "needle");
    assert_eq!(matches[1]["text"], "caf\u{FFFD} needle");
    let long = matches[2]["text"].as_str().unwrap();
    assert!(
        long.starts_with('…') && long.ends_with('…') && long.contains("needle"),
        "{long}"
    );
    assert!(long.len() < 500, "{} bytes", long.len());
    let crlf_end = ws
        .ok("grep", json!({"pattern": "needle$", "path": "crlf.txt"}))
        .await;
    assert_eq!(
        crlf_end["total"], 1,
        "`$` matches before a CRLF line ending"
    );
}
