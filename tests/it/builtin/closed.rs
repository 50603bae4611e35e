//! The built-in tools' argument schemas are closed: a key a tool does not declare is
//! refused, naming the key, and the SDK shows exactly the declared keys.

use codemode::code::sdk::{SdkTool, render_sdk_section};
use codemode::runtime::Language;
use serde_json::json;

use super::Workspace;

#[tokio::test]
async fn an_undeclared_argument_is_invalid_args_naming_the_key() {
    let ws = Workspace::new();
    ws.write("a.txt", "one\n");
    let cases = [
        ("list_dir", json!({"pth": "x"}), "$.pth"),
        (
            "read_file",
            json!({"path": "a.txt", "offest": 2}),
            "$.offest",
        ),
        ("glob", json!({"pattern": "*", "cwd": "."}), "$.cwd"),
        (
            "grep",
            json!({"pattern": "one", "ignorecase": true}),
            "$.ignorecase",
        ),
        (
            "write_file",
            json!({"path": "b.txt", "content": "x", "mode": "append"}),
            "$.mode",
        ),
        (
            "edit_file",
            json!({"path": "a.txt", "old_text": "one", "new_text": "two", "all": true}),
            "$.all",
        ),
    ];
    for (tool, args, key) in cases {
        let (code, message) = ws.fails(tool, args).await;
        assert_eq!(code, "INVALID_ARGS", "{tool}: {message}");
        assert!(message.contains(key), "{tool}: {message}");
        assert!(message.contains("not allowed"), "{tool}: {message}");
    }
    // Nothing was written or edited by the refused calls.
    assert!(!ws.root.join("b.txt").exists());
    assert_eq!(ws.read("a.txt"), "one\n");
    // Declared keys still work.
    ws.ok("list_dir", json!({"path": "."})).await;
}

#[test]
fn the_sdk_shows_the_built_in_tools_without_an_open_record() {
    let ws = Workspace::new();
    let tools: Vec<SdkTool> = codemode::code::sdk_tools(&ws.registry.global());
    let typescript = render_sdk_section(Language::TypeScript, &tools);
    assert!(
        !typescript.contains("Record<string, JsonValue>"),
        "{typescript}"
    );
    insta::assert_snapshot!("builtin.typescript", typescript);
    insta::assert_snapshot!(
        "builtin.python",
        render_sdk_section(Language::Python, &tools)
    );
}
