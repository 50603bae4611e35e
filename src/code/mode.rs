//! Presentation modes and how a scope declares one: `native`, `code` or `both`, the
//! nearest declaration on a scope's chain winning over the deployment default.
//!
//! A declaration is a value Code Mode attaches to the scope through the registry's
//! [`Scope::declare`], so disposing it or closing the scope restores the default and fires
//! `tools/change` like any change of what a scope sees.

use crate::error::{Error, ErrorCode};
use crate::registry::{Disposer, Scope};

use super::CodeMode;

/// How a scope's tools are presented to its model.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PresentationMode {
    /// Each visible tool is a function-calling schema.
    #[default]
    Native,
    /// The model sees only `run_code` and the SDK of the visible tools.
    Code,
    /// Both the native schemas and `run_code` with the SDK.
    Both,
}

impl PresentationMode {
    /// The mode's spelling (`native`, `code`, `both`).
    pub fn as_str(self) -> &'static str {
        match self {
            PresentationMode::Native => "native",
            PresentationMode::Code => "code",
            PresentationMode::Both => "both",
        }
    }
}

impl std::fmt::Display for PresentationMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PresentationMode {
    type Err = Error;

    /// Parses a mode's spelling ([`PresentationMode::as_str`]).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] for any text but `native`, `code` or `both` (exact,
    /// lowercase); the message quotes the text.
    ///
    /// ```
    /// use codemode::code::PresentationMode;
    /// assert_eq!("both".parse::<PresentationMode>(), Ok(PresentationMode::Both));
    /// assert_eq!("Code".parse::<PresentationMode>().map_err(|e| e.code()), Err(codemode::ErrorCode::InvalidConfig));
    /// ```
    fn from_str(text: &str) -> Result<Self, Error> {
        match text {
            "native" => Ok(PresentationMode::Native),
            "code" => Ok(PresentationMode::Code),
            "both" => Ok(PresentationMode::Both),
            other => Err(Error::new(
                ErrorCode::InvalidConfig,
                format!("mode must be `native`, `code` or `both`, got `{other}`"),
            )),
        }
    }
}

/// A scope's `present_as` declaration, as attached to the scope.
#[derive(Debug, Clone, Copy)]
struct Presentation(PresentationMode);

/// Code Mode's view of a scope: how it presents and how to declare it.
pub trait ScopePresentation {
    /// Declares how this scope (and the scopes under it, unless they declare their own)
    /// presents its tools. Scoped only, one declaration per scope; the handle restores
    /// the deployment default.
    ///
    /// # Errors
    ///
    /// Nothing is declared when
    ///
    /// - this is the global layer (set the deployment default with [`CodeModeConfig`]'s
    ///   `mode` instead): [`ErrorCode::InvalidDefinition`];
    /// - no [`CodeMode`] is installed in the scope's registry: [`ErrorCode::InvalidConfig`];
    /// - this scope already declared a mode (dispose that declaration first), or it no
    ///   longer exists (it was closed): [`ErrorCode::InvalidDefinition`].
    ///
    /// [`CodeModeConfig`]: super::CodeModeConfig
    fn present_as(&self, mode: PresentationMode) -> Result<Disposer, Error>;

    /// The mode this scope presents in: the nearest declaration on its chain, else the
    /// deployment default (the installed [`CodeMode`]'s configured mode; `native` without
    /// Code Mode).
    fn mode(&self) -> PresentationMode;
}

impl ScopePresentation for Scope {
    fn present_as(&self, mode: PresentationMode) -> Result<Disposer, Error> {
        let Some(id) = self.id() else {
            return Err(Error::new(
                ErrorCode::InvalidDefinition,
                "present_as is scoped only: set the deployment default with Code Mode's `mode` \
                 configuration instead of declaring it on the global layer",
            ));
        };
        if CodeMode::of(self.registry()).is_none() {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                "present_as needs Code Mode in the registry: call `CodeMode::install(&registry, config)` first",
            ));
        }
        match self.declare_unique(Presentation(mode)) {
            Ok(disposer) => Ok(disposer),
            Err(Some(existing)) => Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!(
                    "{id} already declared its presentation ({}); dispose that declaration first",
                    existing.0.as_str()
                ),
            )),
            Err(None) => Err(Error::new(
                ErrorCode::InvalidDefinition,
                format!("{id} does not exist (was it closed?)"),
            )),
        }
    }

    fn mode(&self) -> PresentationMode {
        match self.nearest::<Presentation>() {
            Some(declared) => declared.0,
            None => CodeMode::of(self.registry())
                .map(|code| code.config().mode)
                .unwrap_or_default(),
        }
    }
}
