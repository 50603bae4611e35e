//! Modes and prompt assembly: what a scope's model is given — wire tool schemas and prompt
//! sections — in `native`, `code` or `both` mode.

use std::sync::Arc;

use crate::error::{Error, ErrorCode};
use crate::registry::{PresentationMode, Registry, Transport};
use crate::runtime::{CodeRuntime, Language};
use crate::tool::{RUN_CODE, ScopeId, ToolDefinition, ToolSchema};

use super::bridge::SubCallObserver;
use super::run_code::definition;
use super::sdk::{SdkLanguage, SdkTool, render_sdk_section};

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
pub struct Assembly {
    /// The mode it was assembled in.
    pub mode: PresentationMode,
    /// The wire tool schemas, sorted by name.
    pub tools: Vec<ToolSchema>,
    /// Prompt sections, sorted by order.
    pub sections: Vec<PromptSection>,
}

impl Assembly {
    /// The section with `id`, if present.
    pub fn section(&self, id: &str) -> Option<&PromptSection> {
        self.sections.iter().find(|s| s.id == id)
    }
}

/// Code Mode as installed into a registry: the runtime and the `run_code` definition.
pub(crate) struct CodeModeTransport {
    pub language: Language,
    pub definition: Arc<ToolDefinition>,
}

impl Transport for CodeModeTransport {
    fn definition(
        &self,
        _registry: &Registry,
        _scope: Option<ScopeId>,
    ) -> Option<Arc<ToolDefinition>> {
        Some(self.definition.clone())
    }

    fn language(&self) -> Language {
        self.language
    }
}

/// Code Mode for a registry: installs the `run_code` transport over a code runtime, and
/// assembles what each scope's model sees.
///
/// ```no_run
/// use std::sync::Arc;
/// use codemode::codemode::CodeMode;
/// use codemode::registry::{PresentationMode, Registry, RegistryConfig};
/// use codemode::runtime::{EngineConfig, JsEngine};
///
/// let registry = Registry::with_config(RegistryConfig { mode: PresentationMode::Code, ..Default::default() })?;
/// let engine = JsEngine::new(EngineConfig::default())?;
/// CodeMode::install(&registry, Arc::new(engine))?;
/// let assembly = codemode::codemode::assemble(&registry, None)?;
/// assert_eq!(assembly.tools.len(), 1); // run_code
/// # Ok::<(), codemode::Error>(())
/// ```
pub struct CodeMode;

impl CodeMode {
    /// Installs `runtime` as the registry's code runtime: in `code` and `both` modes the
    /// registry then resolves `run_code`.
    pub fn install(registry: &Registry, runtime: Arc<dyn CodeRuntime>) -> Result<(), Error> {
        Self::install_with_observer(registry, runtime, None)
    }

    /// Like [`CodeMode::install`], with an observer of every settled sub-call.
    pub fn install_with_observer(
        registry: &Registry,
        runtime: Arc<dyn CodeRuntime>,
        observer: Option<SubCallObserver>,
    ) -> Result<(), Error> {
        let language = runtime.language();
        let definition = Arc::new(definition(registry, runtime, observer)?);
        registry.set_transport(Some(Arc::new(CodeModeTransport {
            language,
            definition,
        })));
        Ok(())
    }

    /// Removes the code runtime (assembly in `code` or `both` then fails).
    pub fn uninstall(registry: &Registry) {
        registry.set_transport(None);
    }
}

/// The SDK renderer of a runtime language, if one is registered.
fn sdk_language(language: Language) -> Option<SdkLanguage> {
    match language {
        Language::TypeScript | Language::Python => Some(language),
    }
}

/// The SDK tools of `scope`: its visible end capabilities.
pub fn sdk_tools(registry: &Registry, scope: Option<ScopeId>) -> Vec<SdkTool> {
    registry
        .visible_tools(scope)
        .iter()
        .map(|tool| SdkTool {
            name: tool.name().to_owned(),
            description: tool.schema().description.clone(),
            parameters: tool.schema().parameters.clone(),
            output: Some(
                tool.annotations()
                    .advertised_output
                    .clone()
                    .unwrap_or_else(|| tool.output().schema().as_json().clone()),
            ),
        })
        .collect()
}

/// Assembles what `scope`'s model is given in its mode: `native` — every visible tool;
/// `code` — exactly `[run_code]`, the code-only rule and the SDK; `both` — the visible
/// tools, `run_code` and the SDK. `code` and `both` without a code runtime fail with an
/// actionable error.
pub fn assemble(registry: &Registry, scope: Option<ScopeId>) -> Result<Assembly, Error> {
    let mode = registry.mode(scope);
    if mode == PresentationMode::Native {
        return Ok(Assembly {
            mode,
            tools: registry
                .visible_tools(scope)
                .iter()
                .map(|t| t.schema().clone())
                .collect(),
            sections: Vec::new(),
        });
    }
    let Some(transport) = registry.transport_handle() else {
        return Err(Error::new(
            ErrorCode::InvalidConfig,
            format!(
                "the `{}` mode needs a code runtime, and none is installed: call `CodeMode::install(&registry, runtime)` \
                 (for example with `JsEngine`), or present this scope as `native`",
                mode.as_str()
            ),
        ));
    };
    let language = transport.language();
    let Some(sdk_language) = sdk_language(language) else {
        return Err(Error::new(
            ErrorCode::InvalidConfig,
            format!(
                "the code runtime's language `{language}` has no SDK renderer; install a TypeScript or Python runtime"
            ),
        ));
    };
    let run_code = registry.get(RUN_CODE, scope).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidConfig,
            "the code runtime did not provide `run_code`",
        )
    })?;
    let sdk = PromptSection {
        id: SDK_SECTION,
        order: SDK_SECTION_ORDER,
        text: render_sdk_section(sdk_language, &sdk_tools(registry, scope)),
    };
    let (tools, sections) = if mode == PresentationMode::Code {
        let rule = PromptSection {
            id: CODE_ONLY_SECTION,
            order: CODE_ONLY_SECTION_ORDER,
            text: CODE_ONLY_RULE.to_owned(),
        };
        (vec![run_code.schema().clone()], vec![rule, sdk])
    } else {
        (
            registry
                .visible(scope)
                .iter()
                .map(|t| t.schema().clone())
                .collect(),
            vec![sdk],
        )
    };
    Ok(Assembly {
        mode,
        tools,
        sections,
    })
}
