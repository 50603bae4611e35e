//! The command's configuration file (TOML; `--config FILE`, or `codemode.toml` in the
//! working directory).
//!
//! ```toml
//! mode = "code"                  # native | code | both
//! max_parallel_sub_calls = 10
//! [runtime]                      # every key optional
//! compute_ms = 60000
//! [[tools]]
//! name = "add"
//! description = "Add two numbers."
//! command = ["python3", "tools/add.py"]   # runs in the config file's folder unless `cwd` is set
//! parameters = { type = "object", properties = { a = { type = "number" }, b = { type = "number" } }, required = ["a", "b"] }
//! output = { type = "number" }   # optional; absent = any JSON
//! concurrency_safe = true        # optional, default false
//! timeout_ms = 5000              # optional
//! policy = "allow"               # optional: allow | deny | ask
//! [builtin]                      # the built-in file tools, on by default
//! root = "."                     # default: the working directory
//! enabled = ["read_file", "list_dir", "glob", "grep"]   # write_file, edit_file: opt-in
//! [policy]                       # per tool name: allow | deny | ask
//! write_file = "ask"
//! ```
//!
//! Unknown keys and invalid values are errors that name the key, the file and the line.
//! This module owns reading and checking the file and turning it into registry settings
//! and tool sources; it must not run anything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;
use crate::registry::{PresentationMode, Registry, RegistryConfig};
use crate::runtime::EngineConfig;
use crate::schema::JsonSchema;
use crate::sources::builtin::{BuiltinConfig, builtin_tools};
use crate::sources::command::CommandTool;
use crate::tool::{PreToolDecision, ToolDefinition};

/// What configuration says to do with calls of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Run calls.
    Allow,
    /// Refuse calls.
    Deny,
    /// Ask the approval service (the MCP client, when it can be asked); deny otherwise.
    Ask,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    mode: Option<Spanned<String>>,
    max_parallel_sub_calls: Option<Spanned<i64>>,
    runtime: Option<RawRuntime>,
    #[serde(default)]
    tools: Vec<RawCommandTool>,
    builtin: Option<RawBuiltin>,
    #[serde(default)]
    policy: BTreeMap<String, Spanned<Policy>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuiltin {
    root: Option<PathBuf>,
    enabled: Option<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuntime {
    compute_ms: Option<Spanned<u64>>,
    wall_ms: Option<Spanned<u64>>,
    heap_mb: Option<Spanned<u64>>,
    max_output_bytes: Option<Spanned<u64>>,
    warm_pool: Option<Spanned<usize>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCommandTool {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    command: Spanned<Vec<String>>,
    cwd: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    parameters: Option<Spanned<JsonValue>>,
    output: Option<Spanned<JsonValue>>,
    #[serde(default)]
    concurrency_safe: bool,
    timeout_ms: Option<Spanned<f64>>,
    policy: Option<Policy>,
}

/// A checked configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    /// The folder relative paths are resolved against (the file's folder).
    pub base_dir: PathBuf,
    /// The presentation mode.
    pub mode: PresentationMode,
    /// The sub-call overlap limit of `run_code`.
    pub max_parallel_sub_calls: usize,
    /// The code runtime's budgets.
    pub engine: EngineConfig,
    /// Command tools.
    pub command_tools: Vec<CommandTool>,
    /// Per-tool policies.
    pub policies: BTreeMap<String, Policy>,
    /// The built-in file tools.
    pub builtin: BuiltinConfig,
}

/// Where a problem is: file, line and column.
struct Place<'a> {
    path: &'a str,
    text: &'a str,
}

impl Place<'_> {
    fn error(&self, span: std::ops::Range<usize>, message: impl std::fmt::Display) -> Error {
        let before = &self.text[..span.start.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error::new(
            ErrorCode::InvalidConfig,
            format!("{}:{line}:{column}: {message}", self.path),
        )
    }
}

impl Config {
    /// The configuration with no file: defaults, resolved against `base_dir`.
    pub fn defaults(base_dir: impl Into<PathBuf>) -> Config {
        Config {
            path: None,
            base_dir: base_dir.into(),
            mode: PresentationMode::Native,
            max_parallel_sub_calls: 10,
            engine: EngineConfig::default(),
            command_tools: Vec::new(),
            policies: BTreeMap::new(),
            builtin: BuiltinConfig::default(),
        }
    }

    /// Reads and checks the file at `path`.
    pub fn load(path: &Path) -> Result<Config, Error> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            Error::new(
                ErrorCode::InvalidConfig,
                format!("cannot read the configuration {}: {err}", path.display()),
            )
        })?;
        Self::parse(&text, path)
    }

    /// Checks configuration `text` that came from `path`.
    pub fn parse(text: &str, path: &Path) -> Result<Config, Error> {
        let shown = path.display().to_string();
        let place = Place { path: &shown, text };
        let raw: RawConfig = toml::from_str(text).map_err(|err| {
            let message = err.message().to_owned();
            match err.span() {
                Some(span) => place.error(span, message),
                None => Error::new(ErrorCode::InvalidConfig, format!("{shown}: {message}")),
            }
        })?;
        let base_dir = path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let mut config = Config::defaults(base_dir);
        config.path = Some(path.to_path_buf());

        if let Some(mode) = raw.mode {
            config.mode = mode
                .get_ref()
                .parse()
                .map_err(|err: Error| place.error(mode.span(), err.message()))?;
        }
        if let Some(limit) = raw.max_parallel_sub_calls {
            let value = *limit.get_ref();
            let registry = RegistryConfig {
                max_parallel_sub_calls: usize::try_from(value).unwrap_or(0),
                ..RegistryConfig::default()
            };
            registry
                .validate()
                .map_err(|err| place.error(limit.span(), err.message()))?;
            config.max_parallel_sub_calls = registry.max_parallel_sub_calls;
        }
        if let Some(runtime) = raw.runtime {
            config.engine = engine_config(&place, runtime)?;
        }
        let mut seen = BTreeMap::new();
        for tool in raw.tools {
            let name = tool.name.get_ref().clone();
            if name.is_empty() {
                return Err(place.error(tool.name.span(), "a tool needs a non-empty `name`"));
            }
            if seen.insert(name.clone(), ()).is_some() {
                return Err(place.error(
                    tool.name.span(),
                    format!("a tool named `{name}` is declared twice"),
                ));
            }
            if let Some(policy) = tool.policy {
                config.policies.insert(name.clone(), policy);
            }
            config
                .command_tools
                .push(command_tool(&place, &config.base_dir, tool)?);
        }
        if let Some(builtin) = raw.builtin {
            if let Some(root) = builtin.root {
                config.builtin.root = if root.is_absolute() {
                    root
                } else {
                    config.base_dir.join(root)
                };
            }
            if let Some(enabled) = builtin.enabled {
                for name in enabled.get_ref() {
                    if !BuiltinConfig::ALL_TOOLS.contains(&name.as_str()) {
                        return Err(place.error(
                            enabled.span(),
                            format!(
                                "unknown built-in tool `{name}` (the built-in tools are {})",
                                BuiltinConfig::ALL_TOOLS.join(", ")
                            ),
                        ));
                    }
                }
                config.builtin.enabled = enabled.into_inner();
            }
        }
        for (name, policy) in raw.policy {
            config.policies.insert(name, policy.into_inner());
        }
        Ok(config)
    }

    /// The registry settings of this configuration.
    pub fn registry_config(&self) -> RegistryConfig {
        RegistryConfig {
            mode: self.mode,
            max_parallel_sub_calls: self.max_parallel_sub_calls,
            ..RegistryConfig::default()
        }
    }

    /// The tools of the built-in and command sources. Two sources declaring one name is an
    /// error that names both.
    pub fn local_tools(&self) -> Result<Vec<ToolDefinition>, Error> {
        let mut tools = builtin_tools(&self.builtin)?;
        for command in &self.command_tools {
            if tools.iter().any(|t| t.name() == command.name) {
                return Err(Error::new(
                    ErrorCode::InvalidConfig,
                    format!(
                        "the command tool `{}` has the name of a built-in tool; rename it, or leave `{}` out of `[builtin] enabled`",
                        command.name, command.name
                    ),
                ));
            }
            tools.push(command.clone().into_definition()?);
        }
        Ok(tools)
    }

    /// Registers the built-in and command tools and installs the configured policies in
    /// `registry`. A policy naming no registered tool is an error (a typo must not leave a
    /// tool unguarded).
    pub fn apply(&self, registry: &Registry) -> Result<(), Error> {
        for tool in self.local_tools()? {
            registry.register(tool)?.keep();
        }
        self.install_policies(registry, &[])
    }

    /// Installs the configured policies after every source registered its tools. Names in
    /// `unavailable` (tools of sources that failed to load) are not reported as unknown.
    pub fn install_policies(
        &self,
        registry: &Registry,
        unavailable: &[String],
    ) -> Result<(), Error> {
        let known = registry.known_names(None);
        let unknown: Vec<&String> = self
            .policies
            .keys()
            .filter(|name| !known.contains(name) && !unavailable.contains(name))
            .collect();
        if !unknown.is_empty() {
            let names: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "{}: a policy names {} but no such tool is configured (known tools: {})",
                    self.path
                        .as_ref()
                        .map_or("configuration".to_owned(), |p| p.display().to_string()),
                    names.join(", "),
                    known.join(", ")
                ),
            ));
        }
        install_policies(registry, self.policies.clone());
        Ok(())
    }
}

/// Installs a `tools/pre-execute` listener applying `policies` by tool name.
pub fn install_policies(registry: &Registry, policies: BTreeMap<String, Policy>) {
    if policies.is_empty() {
        return;
    }
    let policies = Arc::new(policies);
    registry
        .on_pre_execute(move |execution, next| {
            let policy = policies.get(&execution.name).copied();
            async move {
                match policy {
                    Some(Policy::Deny) => Ok(PreToolDecision::Deny {
                        reason: "the configuration denies this tool".into(),
                    }),
                    Some(Policy::Ask) => Ok(PreToolDecision::Ask {
                        reason: Some("the configuration asks for approval of this tool".into()),
                    }),
                    Some(Policy::Allow) | None => next.run().await,
                }
            }
        })
        .keep();
}

fn engine_config(place: &Place<'_>, raw: RawRuntime) -> Result<EngineConfig, Error> {
    let mut config = EngineConfig::default();
    // Each value is checked alone with the engine's own rules, so an error points at its
    // line.
    fn check<T: Copy>(
        place: &Place<'_>,
        config: &mut EngineConfig,
        value: Option<Spanned<T>>,
        set: impl Fn(&mut EngineConfig, T),
    ) -> Result<(), Error> {
        if let Some(value) = value {
            let mut alone = EngineConfig::default();
            set(&mut alone, *value.get_ref());
            alone
                .validate()
                .map_err(|err| place.error(value.span(), err.message()))?;
            set(config, *value.get_ref());
        }
        Ok(())
    }
    check(place, &mut config, raw.compute_ms, |c, v| c.compute_ms = v)?;
    check(place, &mut config, raw.wall_ms, |c, v| c.wall_ms = v)?;
    check(place, &mut config, raw.heap_mb, |c, v| c.heap_mb = v)?;
    check(place, &mut config, raw.max_output_bytes, |c, v| {
        c.max_output_bytes = v
    })?;
    check(place, &mut config, raw.warm_pool, |c, v| c.warm_pool = v)?;
    config.validate()?;
    Ok(config)
}

fn schema_of(
    place: &Place<'_>,
    value: &Spanned<JsonValue>,
    what: &str,
) -> Result<JsonSchema, Error> {
    JsonSchema::parse(value.get_ref())
        .map_err(|err| place.error(value.span(), format!("{what}: {err}")))
}

fn command_tool(
    place: &Place<'_>,
    base_dir: &Path,
    raw: RawCommandTool,
) -> Result<CommandTool, Error> {
    let name = raw.name.get_ref().clone();
    if raw.command.get_ref().is_empty() || raw.command.get_ref()[0].is_empty() {
        return Err(place.error(
            raw.command.span(),
            format!("tool `{name}`: `command` needs at least the program"),
        ));
    }
    let parameters = match &raw.parameters {
        None => JsonSchema::parse(&serde_json::json!({"type": "object", "properties": {}}))
            .map_err(|err| Error::new(ErrorCode::InvalidConfig, err.to_string()))?,
        Some(value) => {
            let schema = schema_of(place, value, &format!("tool `{name}`: `parameters`"))?;
            schema
                .assert_object()
                .map_err(|err| {
                    place.error(value.span(), format!("tool `{name}`: `parameters`: {err}"))
                })?
                .schema()
                .clone()
        }
    };
    let output = match &raw.output {
        None => None,
        Some(value) => Some(schema_of(
            place,
            value,
            &format!("tool `{name}`: `output`"),
        )?),
    };
    if let Some(ms) = &raw.timeout_ms {
        let value = *ms.get_ref();
        if !(value.is_finite() && value > 0.0) {
            return Err(place.error(
                ms.span(),
                format!("tool `{name}`: `timeout_ms` must be a positive number of milliseconds, got {value}"),
            ));
        }
    }
    let cwd = match raw.cwd {
        Some(dir) if dir.is_absolute() => dir,
        Some(dir) => base_dir.join(dir),
        None => base_dir.to_path_buf(),
    };
    Ok(CommandTool {
        name,
        description: raw.description,
        command: raw.command.into_inner(),
        cwd,
        env: raw.env,
        parameters,
        output,
        concurrency_safe: raw.concurrency_safe,
        timeout_ms: raw.timeout_ms.map(Spanned::into_inner),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, Error> {
        Config::parse(text, Path::new("dir/codemode.toml"))
    }

    #[test]
    fn the_documented_example_parses() {
        let config = parse(
            r#"
mode = "code"
max_parallel_sub_calls = 4
[runtime]
compute_ms = 1000
warm_pool = 1
[[tools]]
name = "add"
description = "Add two numbers."
command = ["python3", "tools/add.py"]
parameters = { type = "object", properties = { a = { type = "number" }, b = { type = "number" } }, required = ["a", "b"], additionalProperties = false }
output = { type = "number" }
concurrency_safe = true
timeout_ms = 5000
policy = "allow"
"#,
        )
        .unwrap();
        assert_eq!(config.mode, PresentationMode::Code);
        assert_eq!(config.max_parallel_sub_calls, 4);
        assert_eq!(
            (config.engine.compute_ms, config.engine.warm_pool),
            (1000, 1)
        );
        let tool = &config.command_tools[0];
        assert_eq!(tool.cwd, Path::new("dir"));
        assert_eq!(tool.command, ["python3", "tools/add.py"]);
        assert!(tool.concurrency_safe);
        assert_eq!(config.policies.get("add"), Some(&Policy::Allow));
    }

    #[test]
    fn errors_name_the_key_the_file_and_the_line() {
        let err =
            parse("mode = \"code\"\n\n[[tools]]\nname = \"x\"\ncomand = [\"a\"]\n").unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidConfig);
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:5:1: unknown field `comand`"),
            "{err}"
        );
        let err = parse("mode = \"fast\"\n").unwrap_err();
        assert_eq!(
            err.message(),
            "dir/codemode.toml:1:8: mode must be `native`, `code` or `both`, got `fast`"
        );
        let err = parse("max_parallel_sub_calls = 0\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:1:26: max_parallel_sub_calls must be a positive"),
            "{err}"
        );
        let err = parse("[runtime]\nheap_mb = 1\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:2:11: runtime.heap_mb must be between"),
            "{err}"
        );
        let err = parse("[runtime]\nheap = 1\n").unwrap_err();
        assert!(
            err.message().contains(":2:1: unknown field `heap`"),
            "{err}"
        );
    }

    #[test]
    fn tool_declarations_are_checked() {
        let tool = |body: &str| {
            parse(&format!("[[tools]]\nname = \"t\"\n{body}\n"))
                .unwrap_err()
                .to_string()
        };
        assert!(
            tool("command = []").contains(":3:11: tool `t`: `command` needs at least the program")
        );
        assert!(tool("").contains("missing field `command`"));
        let message = tool(
            "command = [\"x\"]\nparameters = { type = \"object\", properties = { a = { type = \"string\", pattern = \"x\" } } }",
        );
        assert!(
            message.contains(":4:14: tool `t`: `parameters`: unsupported schema"),
            "{message}"
        );
        assert!(
            message.contains("unsupported keyword `pattern`"),
            "{message}"
        );
        assert!(
            tool("command = [\"x\"]\nparameters = { type = \"string\" }")
                .contains("the root must be")
        );
        assert!(
            tool("command = [\"x\"]\ntimeout_ms = -1").contains("`timeout_ms` must be a positive")
        );
        assert!(tool("command = [\"x\"]\npolicy = \"maybe\"").contains("unknown variant `maybe`"));
        let twice = parse("[[tools]]\nname = \"t\"\ncommand = [\"x\"]\n[[tools]]\nname = \"t\"\ncommand = [\"y\"]\n").unwrap_err();
        assert!(
            twice
                .message()
                .contains(":5:8: a tool named `t` is declared twice"),
            "{twice}"
        );
    }

    #[test]
    fn builtin_and_policy_tables_are_read_and_checked() {
        let config = parse("[builtin]\nroot = \"src\"\nenabled = [\"read_file\", \"write_file\"]\n[policy]\nwrite_file = \"ask\"\n").unwrap();
        assert_eq!(config.builtin.root, Path::new("dir/src"));
        assert_eq!(config.builtin.enabled, ["read_file", "write_file"]);
        assert_eq!(config.policies.get("write_file"), Some(&Policy::Ask));
        let err = parse("[builtin]\nenabled = [\"read_file\", \"rm\"]\n").unwrap_err();
        assert!(
            err.message()
                .starts_with("dir/codemode.toml:2:11: unknown built-in tool `rm`"),
            "{err}"
        );
        let err = parse("[policy]\nx = \"sometimes\"\n").unwrap_err();
        assert!(
            err.message().contains(":2:5: unknown variant `sometimes`"),
            "{err}"
        );
        let err = parse("[builtin]\nroots = \".\"\n").unwrap_err();
        assert!(
            err.message().contains(":2:1: unknown field `roots`"),
            "{err}"
        );
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        let config = parse("").unwrap();
        assert_eq!(config.mode, PresentationMode::Native);
        assert_eq!(config.engine, EngineConfig::default());
    }
}
