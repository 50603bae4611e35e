//! The type check of a TypeScript program before it runs: the [`TypeCheck`] modes, the
//! verdict `run_code` acts on, and the diagnostics' text the model reads.
//!
//! `off` (the default) checks nothing. `warn` checks, runs the program whatever the
//! verdict, and appends the diagnostics to what the model reads. `refuse` checks and, when
//! the compiler reports an error, fails the run before it starts (no tool is called) with
//! the diagnostics, as the failure kind [`TYPE_ERROR`]. A program that could not be checked
//! (its check ran out of a budget) runs unchecked in both modes, and the model is told.
//! Python programs are not type-checked.
//!
//! This module owns the modes, the verdict and its text; the checker itself is the
//! runtime's ([`TypeChecker`]), the declarations are the SDK's, and `run_code` decides when
//! the check runs (after the static check, before the runtime is asked).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode};
use crate::runtime::js::typecheck::{CheckReport, Diagnostic, TypeChecker};

/// The failure kind of a run refused by the type check (`code run failed (type-error): ...`).
pub const TYPE_ERROR: &str = "type-error";

/// Whether TypeScript programs are type-checked before they run (`[runtime] typecheck`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TypeCheck {
    /// Not checked (the default).
    #[default]
    Off,
    /// Checked; the program runs anyway and the diagnostics are appended to its result.
    Warn,
    /// Checked; a program with an error does not run.
    Refuse,
}

impl TypeCheck {
    /// The stable string form: `"off"`, `"warn"`, `"refuse"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TypeCheck::Off => "off",
            TypeCheck::Warn => "warn",
            TypeCheck::Refuse => "refuse",
        }
    }
}

impl std::str::FromStr for TypeCheck {
    type Err = Error;

    /// Parses the stable string form ([`TypeCheck::as_str`]).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] for any other text; the message quotes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use codemode::code::TypeCheck;
    /// assert_eq!("refuse".parse::<TypeCheck>().unwrap(), TypeCheck::Refuse);
    /// assert!("strict".parse::<TypeCheck>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "off" => Ok(TypeCheck::Off),
            "warn" => Ok(TypeCheck::Warn),
            "refuse" => Ok(TypeCheck::Refuse),
            other => Err(Error::new(
                ErrorCode::InvalidConfig,
                format!("unknown typecheck mode `{other}` (expected `off`, `warn` or `refuse`)"),
            )),
        }
    }
}

/// What `run_code` does with a program after its type check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Run it; `note` (if any) is appended to what the model reads of the run.
    Run { note: Option<String> },
    /// Do not run it: the model reads `message` as the failure's message.
    Refuse { message: String },
}

/// The mode and the checker of one Code Mode installation.
pub(crate) struct ProgramChecker {
    mode: TypeCheck,
    checker: TypeChecker,
}

impl ProgramChecker {
    /// A checker for `mode` (not `off`).
    pub(crate) fn new(mode: TypeCheck, checker: TypeChecker) -> ProgramChecker {
        ProgramChecker { mode, checker }
    }

    /// Checks `program` against `declarations` and decides.
    pub(crate) async fn judge(&self, declarations: &Arc<str>, program: &str) -> Verdict {
        let report = self.checker.check(declarations, program).await;
        verdict(self.mode, &report)
    }
}

/// The verdict of `mode` on `report`.
fn verdict(mode: TypeCheck, report: &CheckReport) -> Verdict {
    match report {
        CheckReport::Checked { total: 0, .. } => Verdict::Run { note: None },
        CheckReport::Checked { total, diagnostics } => {
            let listed = listing(*total, diagnostics);
            match mode {
                TypeCheck::Refuse => Verdict::Refuse {
                    message: format!(
                        "the program does not type-check against the SDK, so it did not run and no tool was called:\n{listed}"
                    ),
                },
                _ => Verdict::Run {
                    note: Some(format!("Type check (the program ran anyway):\n{listed}")),
                },
            }
        }
        CheckReport::Unchecked { reason } => Verdict::Run {
            note: Some(format!(
                "Type check: not done ({reason}); the program ran unchecked."
            )),
        },
    }
}

/// The diagnostics one per line (`line:col - error TS<code>: <message>`), and how many more
/// there were.
fn listing(total: usize, diagnostics: &[Diagnostic]) -> String {
    let mut lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    if total > diagnostics.len() {
        lines.push(format!(
            "... and {} more error{}",
            total - diagnostics.len(),
            if total - diagnostics.len() == 1 {
                ""
            } else {
                "s"
            }
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(line: u32, column: u32, code: u32, message: &str) -> Diagnostic {
        serde_json::from_value(serde_json::json!({
            "line": line, "column": column, "code": code, "message": message
        }))
        .unwrap()
    }

    #[test]
    fn a_clean_check_runs_without_a_note_in_every_mode() {
        let clean = CheckReport::Checked {
            total: 0,
            diagnostics: Vec::new(),
        };
        for mode in [TypeCheck::Warn, TypeCheck::Refuse] {
            assert_eq!(verdict(mode, &clean), Verdict::Run { note: None });
        }
    }

    #[test]
    fn errors_refuse_in_refuse_mode_and_are_appended_in_warn_mode() {
        let report = CheckReport::Checked {
            total: 12,
            diagnostics: vec![diagnostic(
                3,
                5,
                2551,
                "Property 'list_issuez' does not exist.",
            )],
        };
        let listed =
            "3:5 - error TS2551: Property 'list_issuez' does not exist.\n... and 11 more errors";
        assert_eq!(
            verdict(TypeCheck::Refuse, &report),
            Verdict::Refuse {
                message: format!(
                    "the program does not type-check against the SDK, so it did not run and no tool was called:\n{listed}"
                )
            }
        );
        assert_eq!(
            verdict(TypeCheck::Warn, &report),
            Verdict::Run {
                note: Some(format!("Type check (the program ran anyway):\n{listed}"))
            }
        );
    }

    #[test]
    fn an_unchecked_program_runs_in_both_modes_and_says_so() {
        let report = CheckReport::Unchecked {
            reason: "the type check took longer than its budget of 10 ms".into(),
        };
        for mode in [TypeCheck::Warn, TypeCheck::Refuse] {
            assert_eq!(
                verdict(mode, &report),
                Verdict::Run {
                    note: Some(
                        "Type check: not done (the type check took longer than its budget of 10 ms); the program ran unchecked."
                            .into()
                    )
                }
            );
        }
    }

    #[test]
    fn modes_parse_from_their_names_only() {
        for mode in [TypeCheck::Off, TypeCheck::Warn, TypeCheck::Refuse] {
            assert_eq!(mode.as_str().parse::<TypeCheck>().unwrap(), mode);
        }
        let err = "Warn".parse::<TypeCheck>().unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidConfig);
        assert!(err.message().contains("`Warn`"), "{}", err.message());
    }
}
