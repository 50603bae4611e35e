//! The checks a program passes before it runs: [`static_check`] (a call of a tool the scope
//! does not have refuses the run, naming the nearest tools) and [`typecheck`] (TypeScript's
//! own compiler over the program and the SDK, when the host turns it on).
//!
//! These modules read the program's text and the scope's tool names; they must not run a
//! program or call a tool (the `run` module acts on their verdicts).

pub(super) mod static_check;
pub(super) mod typecheck;
