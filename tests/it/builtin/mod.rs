//! The built-in file tools, through a real registry over a temporary workspace.

mod closed;
mod config;
mod confinement;
mod edit;
mod read;
mod search;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode::json::JsonValue;
use codemode::presentation::{ToolCallView, ToolResultView};
use codemode::registry::Registry;
use codemode::sources::builtin::{BuiltinConfig, builtin_tools};
use codemode::tool::{ToolExecutionInput, ToolExecutionResult, ToolResult};

/// A temporary directory holding `root/` (the workspace the tools are confined to) and
/// `outside/` (a sibling the tools must never reach, with `secret.txt`), and a registry
/// with every built-in tool registered.
pub struct Workspace {
    _temp: tempfile::TempDir,
    pub root: PathBuf,
    pub outside: PathBuf,
    pub registry: Registry,
}

pub const SECRET: &str = "the secret outside the root";

impl Workspace {
    pub fn new() -> Workspace {
        Self::with_tools(&BuiltinConfig::ALL_TOOLS)
    }

    pub fn with_tools(tools: &[&str]) -> Workspace {
        let temp = tempfile::tempdir().expect("a temporary directory");
        let base = fs::canonicalize(temp.path()).expect("canonical temp dir");
        let root = base.join("root");
        let outside = base.join("outside");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("secret.txt"), SECRET).unwrap();
        let registry = Registry::new();
        let config = BuiltinConfig::new(root.clone()).with_enabled(tools.iter().copied());
        for tool in builtin_tools(&config).expect("the built-in tools build") {
            registry.global().register(tool).expect("registers").keep();
        }
        Workspace {
            _temp: temp,
            root,
            outside,
            registry,
        }
    }

    /// Writes a file under the root, creating its directories.
    pub fn write(&self, relative: &str, content: impl AsRef<[u8]>) {
        let path = self.root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
    }

    pub fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.root.join(relative)).unwrap()
    }

    /// Creates a symbolic link `relative` (under the root) pointing at `target`.
    pub fn symlink(&self, target: impl AsRef<Path>, relative: &str) {
        let path = self.root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    /// The absolute path of a root-relative path, as cards show it.
    pub fn abs(&self, relative: &str) -> String {
        self.root.join(relative).display().to_string()
    }

    pub async fn call(&self, name: &str, args: JsonValue) -> Arc<ToolExecutionResult> {
        self.registry
            .execute(ToolExecutionInput::new(format!("call-{name}"), name, args))
            .await
    }

    /// Calls a tool that must succeed and returns its value.
    pub async fn ok(&self, name: &str, args: JsonValue) -> JsonValue {
        let result = self.call(name, args.clone()).await;
        match result.value() {
            Some(value) => value.clone(),
            None => panic!("{name}({args}) failed: {}", text(&result)),
        }
    }

    /// Calls a tool that must fail and returns (code, message).
    pub async fn fails(&self, name: &str, args: JsonValue) -> (String, String) {
        let result = self.call(name, args.clone()).await;
        match result.failure_info() {
            Some(failure) => (failure.code.as_str().to_owned(), failure.message.clone()),
            None => panic!("{name}({args}) succeeded: {}", text(&result)),
        }
    }

    /// The pending card of a call.
    pub fn call_card(&self, name: &str, args: &JsonValue) -> Option<ToolCallView> {
        self.registry.global().get(name)?.present_call(args)
    }

    /// The completed card of a result, as a replay would compute it: from the durable
    /// projection after a trip through JSON (so only the logged meta can feed it).
    pub fn result_card(
        &self,
        name: &str,
        args: &JsonValue,
        result: &ToolExecutionResult,
    ) -> Option<ToolResultView> {
        let logged = serde_json::to_value(result.durable()).unwrap();
        let replayed: ToolResult = serde_json::from_value(logged).unwrap();
        self.registry
            .global()
            .get(name)?
            .present_result(args, &replayed)
    }

    /// Calls a tool and returns its completed card (the call must succeed).
    pub async fn card(&self, name: &str, args: JsonValue) -> ToolResultView {
        let result = self.call(name, args.clone()).await;
        assert!(!result.is_error(), "{name} failed: {}", text(&result));
        self.result_card(name, &args, &result)
            .unwrap_or_else(|| panic!("{name} has a result card"))
    }
}

pub fn text(result: &ToolExecutionResult) -> String {
    codemode::content::text_of(&result.content)
}

/// Asserts that a failure message names nothing outside the root.
pub fn assert_no_leak(ws: &Workspace, message: &str) {
    let outside = ws.outside.display().to_string();
    assert!(!message.contains(&outside), "`{message}` names {outside}");
    assert!(!message.contains(SECRET), "`{message}` shows the secret");
    assert!(
        !message.contains(&ws.root.display().to_string()),
        "`{message}` names the root's absolute path"
    );
}
