//! Modes and prompt assembly: what a scope's model is given — wire tool schemas and prompt
//! sections — in `native`, `code` or `both` mode.

use std::sync::Arc;

use crate::error::{Error, ErrorCode};
use crate::json::{JsonValue, deep_clone};
use crate::registry::Scope;
use crate::runtime::Language;
use crate::tool::{ToolDefinition, ToolSchema};

use super::index::{DESCRIBE_TOOLS, IndexStep};
use super::mode::{PresentationMode, ScopePresentation};
use super::sdk::{SdkTool, render_sdk_section_within};
use super::{CodeMode, RUN_CODE};

/// The id of the SDK prompt section.
pub const SDK_SECTION: &str = "tools:sdk";
/// The id of the code-only rule section.
pub const CODE_ONLY_SECTION: &str = "tools:code-only";
/// The order of the SDK section (sections are sorted by order).
pub const SDK_SECTION_ORDER: u32 = 150;
/// The order of the code-only rule: before the SDK, so the model reads which tools it can
/// call before what each tool does.
pub const CODE_ONLY_SECTION_ORDER: u32 = 140;

/// The text of the code-only rule section.
pub const CODE_ONLY_RULE: &str = "## Calling tools\n\n`run_code` is your only tool. Every tool in the SDK below is \
called from inside a `run_code` program (`await tools.name(args)`), never directly.";

/// One section of the system prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PromptSection {
    /// The section's id (`tools:sdk`, `tools:code-only`).
    pub id: &'static str,
    /// Sections are sorted by this.
    pub order: u32,
    /// The section's text.
    pub text: String,
}

/// What one scope's model is given.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Assembly {
    /// The mode it was assembled in.
    pub mode: PresentationMode,
    /// The language programs are written in (`None` in `native` mode).
    pub language: Option<Language>,
    /// The wire tool schemas, sorted by name.
    pub tools: Vec<ToolSchema>,
    /// Prompt sections, sorted by order.
    pub sections: Vec<PromptSection>,
    /// The output schema each wire tool advertises (its declared one, or the one its source
    /// advertised), by name; the transport has none (its result is the run's text).
    pub outputs: std::collections::BTreeMap<String, JsonValue>,
    /// The index step taken when the SDK was over `sdk_max_tokens` (the `tools:sdk`
    /// section then carries the index and `describe_tools` is among the tools).
    pub sdk_index: Option<IndexStep>,
}

impl Assembly {
    /// The section with `id`, if present.
    pub fn section(&self, id: &str) -> Option<&PromptSection> {
        self.sections.iter().find(|s| s.id == id)
    }

    /// Whether `name` is the transport (`run_code`) in this assembly.
    pub fn is_transport(&self, name: &str) -> bool {
        self.mode != PresentationMode::Native && name == RUN_CODE
    }

    /// The wire tools for a client without a system prompt (an MCP client): the
    /// transport's description carries the prompt sections after it (`tools:code-only` in
    /// `code` mode, then `tools:sdk`).
    pub fn self_describing_tools(&self) -> Vec<ToolSchema> {
        let sections: Vec<&str> = self.sections.iter().map(|s| s.text.as_str()).collect();
        let sections = sections.join("\n\n");
        self.tools
            .iter()
            .map(|tool| {
                let mut tool = tool.clone();
                if self.is_transport(&tool.name) && !sections.is_empty() {
                    tool.description = format!("{}\n\n{sections}", tool.description);
                }
                tool
            })
            .collect()
    }

    /// Server instructions for a client of this assembly (an MCP `initialize` answer).
    pub fn instructions(&self) -> String {
        let sdk = match self.language {
            Some(Language::Python) => "Python",
            _ => "TypeScript",
        };
        match self.mode {
            PresentationMode::Native => {
                "Tools served by codemode: every call runs through its guarded pipeline.".to_owned()
            }
            PresentationMode::Code => format!(
                "Code Mode: `{RUN_CODE}` is the only tool. Its description declares the tools as a {sdk} SDK; \
                 write a program that calls them with `await tools.name(args)` and returns or prints what you need."
            ),
            PresentationMode::Both => format!(
                "The tools can be called directly, or from a `{RUN_CODE}` program: its description declares them as a \
                 {sdk} SDK (`await tools.name(args)`)."
            ),
        }
    }
}

/// The output schema `tool` advertises: the one its source advertised, else its declared
/// output schema.
pub fn advertised_output(tool: &ToolDefinition) -> JsonValue {
    // Copied without recursion: a schema may nest as deep as the registry allows.
    match &tool.annotations().advertised_output {
        Some(schema) => deep_clone(schema),
        None => deep_clone(tool.output().schema().as_json()),
    }
}

/// The SDK tools of `scope`: its visible end capabilities.
pub fn sdk_tools(scope: &Scope) -> Vec<SdkTool> {
    scope
        .visible_tools()
        .iter()
        .map(|tool| SdkTool {
            name: tool.name().to_owned(),
            description: tool.schema().description.clone(),
            parameters: deep_clone(&tool.schema().parameters),
            output: Some(advertised_output(tool)),
        })
        .collect()
}

fn outputs<'a>(
    tools: impl IntoIterator<Item = &'a Arc<ToolDefinition>>,
) -> std::collections::BTreeMap<String, JsonValue> {
    tools
        .into_iter()
        .map(|tool| (tool.name().to_owned(), advertised_output(tool)))
        .collect()
}

/// Assembles what `scope`'s model is given in its mode: `native` — every visible tool;
/// `code` — exactly `[run_code]`, the code-only rule and the SDK; `both` — the visible
/// tools, `run_code` and the SDK. `code` and `both` without a code runtime fail with an
/// actionable error.
///
/// # Errors
///
/// Only when `scope` presents in `code` or `both` (a `native` scope always assembles), with
/// [`ErrorCode::InvalidConfig`] when
///
/// - no [`CodeMode`] is installed in the scope's registry, or it has no runtime
///   ([`CodeMode::set_runtime`] was not called, or [`CodeMode::clear_runtime`] was), or
/// - the runtime's language has no SDK renderer, or `run_code` did not resolve for the
///   scope (neither happens with the shipped runtimes, short of the runtime being cleared
///   while assembling).
pub fn assemble(scope: &Scope) -> Result<Assembly, Error> {
    let mode = scope.mode();
    if mode == PresentationMode::Native {
        let visible = scope.visible_tools();
        return Ok(Assembly {
            mode,
            language: None,
            tools: visible.iter().map(|t| t.schema().clone()).collect(),
            sections: Vec::new(),
            outputs: outputs(&visible),
            sdk_index: None,
        });
    }
    let code = CodeMode::of(scope.registry());
    let Some(language) = code.as_ref().and_then(|code| code.language()) else {
        return Err(Error::new(
            ErrorCode::InvalidConfig,
            format!(
                "the `{}` mode needs a code runtime, and none is installed: call `CodeMode::install(&registry, config)` \
                 and give it a runtime with `CodeMode::set_runtime` (for example `JsEngine`), or present this scope as `native`",
                mode.as_str()
            ),
        ));
    };
    let run_code = scope.get(RUN_CODE).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidConfig,
            "the code runtime did not provide `run_code`",
        )
    })?;
    // The whole SDK, or the index when it is over the budget (schemas render as deep as
    // the registry lets values nest).
    let planned = code.as_ref().and_then(|code| code.sdk_plan(scope));
    let sdk_index = planned.as_ref().and_then(|p| p.plan.step());
    let text = match &planned {
        Some(planned) => planned.plan.text().to_owned(),
        None => render_sdk_section_within(
            language,
            &sdk_tools(scope),
            scope.registry().config().value_depth,
        ),
    };
    let sdk = PromptSection {
        id: SDK_SECTION,
        order: SDK_SECTION_ORDER,
        text,
    };
    let (tools, sections) = if mode == PresentationMode::Code {
        let rule = PromptSection {
            id: CODE_ONLY_SECTION,
            order: CODE_ONLY_SECTION_ORDER,
            text: CODE_ONLY_RULE.to_owned(),
        };
        let mut tools = vec![run_code.schema().clone()];
        if sdk_index.is_some()
            && let Some(describe) = scope.get(DESCRIBE_TOOLS)
        {
            tools.push(describe.schema().clone());
            tools.sort_by(|a, b| a.name.cmp(&b.name));
        }
        (tools, vec![rule, sdk])
    } else {
        (
            scope.visible().iter().map(|t| t.schema().clone()).collect(),
            vec![sdk],
        )
    };
    let outputs = match mode {
        PresentationMode::Code => Default::default(),
        _ => outputs(&scope.visible_tools()),
    };
    Ok(Assembly {
        mode,
        language: Some(language),
        tools,
        sections,
        outputs,
        sdk_index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assembly(mode: PresentationMode, language: Option<Language>) -> Assembly {
        Assembly {
            mode,
            language,
            tools: vec![
                ToolSchema {
                    name: RUN_CODE.into(),
                    description: "Run a program.".into(),
                    parameters: serde_json::json!({"type": "object"}),
                },
                ToolSchema {
                    name: "read".into(),
                    description: "Read.".into(),
                    parameters: serde_json::json!({"type": "object"}),
                },
            ],
            sections: vec![PromptSection {
                id: SDK_SECTION,
                order: SDK_SECTION_ORDER,
                text: "the SDK".into(),
            }],
            outputs: Default::default(),
            sdk_index: None,
        }
    }

    #[test]
    fn instructions_follow_the_mode_and_the_runtime_language() {
        let python = assembly(PresentationMode::Code, Some(Language::Python)).instructions();
        assert!(python.contains("as a Python SDK"), "{python}");
        let typescript = assembly(PresentationMode::Both, Some(Language::TypeScript));
        assert!(typescript.instructions().contains("TypeScript SDK"));
        let native = assembly(PresentationMode::Native, None).instructions();
        assert!(!native.contains(RUN_CODE), "{native}");
    }

    #[test]
    fn only_the_transport_carries_the_sections_and_only_in_a_code_mode() {
        let tools =
            assembly(PresentationMode::Both, Some(Language::TypeScript)).self_describing_tools();
        assert_eq!(tools[0].description, "Run a program.\n\nthe SDK");
        assert_eq!(tools[1].description, "Read.");
        let native = assembly(PresentationMode::Native, None);
        assert!(!native.is_transport(RUN_CODE));
        assert_eq!(
            native.self_describing_tools()[0].description,
            "Run a program."
        );
    }
}
