//! A run's progress, for the caller of its `run_code` call: the global `progress(done,
//! total?, message?)` a program calls, and each line it prints. Both go to the caller's
//! [`ProgressSink`](crate::tool::ProgressSink) when it passed one (the call's context), and
//! nowhere when it did not; a `progress` call never fails for want of a sink.
//!
//! Once a program has reported how far it is, a printed line is reported with that
//! position (and the line as the message); before, a line's position is the count of lines
//! printed so far.
//!
//! This module owns the `progress` binding and the run's progress state; it must not decide
//! where reports go (the caller's sink does) or how often (the sink coalesces).

use std::sync::Arc;

use futures::future::BoxFuture;
use parking_lot::Mutex;

use crate::json::JsonValue;
use crate::runtime::{BindingHost, BindingNamespace, CallAnswer, CallError, CallStyle, LineSink};
use crate::tool::{Progress, ToolRunContext};

/// The global a program calls.
pub(crate) const PROGRESS: &str = "progress";

/// The longest message a `progress` call keeps, in bytes (a longer one is refused).
const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// How far a run said it is, and the lines it printed.
#[derive(Default)]
struct State {
    position: Option<(f64, Option<f64>)>,
    lines: u64,
}

/// The `progress` binding of one run and its printed lines.
pub(crate) struct RunProgress {
    ctx: ToolRunContext,
    state: Mutex<State>,
}

impl RunProgress {
    pub(crate) fn new(ctx: ToolRunContext) -> Arc<RunProgress> {
        Arc::new(RunProgress {
            ctx,
            state: Mutex::default(),
        })
    }

    /// The global `progress`.
    pub(crate) fn namespace(self: &Arc<Self>) -> BindingNamespace {
        BindingNamespace::new(
            PROGRESS,
            "ProgressError",
            "operation",
            vec![PROGRESS.to_owned()],
            self.clone(),
        )
        .with_style(CallStyle::Function)
    }

    /// The sink of the run's printed lines (`None` when the caller wants no progress).
    pub(crate) fn lines(self: &Arc<Self>) -> Option<LineSink> {
        if !self.ctx.wants_progress() {
            return None;
        }
        let progress = self.clone();
        Some(Arc::new(move |line: &str| progress.printed(line)))
    }

    fn printed(&self, line: &str) {
        let report = {
            let mut state = self.state.lock();
            state.lines += 1;
            match state.position {
                Some((done, total)) => Progress::line(done, total, line.to_owned()),
                None => Progress::line(state.lines as f64, None, line.to_owned()),
            }
        };
        self.ctx.progress(report);
    }

    fn report(&self, args: &JsonValue) -> Result<(), CallError> {
        let (done, total, message) = read_arguments(args)?;
        self.state.lock().position = Some((done, total));
        self.ctx.progress(Progress::new(done, total, message));
        Ok(())
    }
}

/// `[done, total?, message?]`: `done` a number, `total` a number or absent (`null`:
/// absent), `message` a string or absent.
fn read_arguments(args: &JsonValue) -> Result<(f64, Option<f64>, Option<String>), CallError> {
    let usage = "progress(done, total?, message?) takes a number, then optionally a number (or null) and a string";
    let refuse = |why: String| Err(CallError::invalid_args(format!("{why}: {usage}")));
    let Some(args) = args.as_array() else {
        return refuse("the arguments are not a list".to_owned());
    };
    if args.len() > 3 {
        return refuse(format!("{} arguments given", args.len()));
    }
    let Some(done) = args.first().and_then(JsonValue::as_f64) else {
        return refuse("`done` is missing or not a number".to_owned());
    };
    let total = match args.get(1) {
        None | Some(JsonValue::Null) => None,
        Some(total) => match total.as_f64() {
            Some(total) => Some(total),
            None => return refuse("`total` is not a number".to_owned()),
        },
    };
    let message = match args.get(2) {
        None | Some(JsonValue::Null) => None,
        Some(JsonValue::String(text)) if text.len() <= MAX_MESSAGE_BYTES => Some(text.clone()),
        Some(JsonValue::String(text)) => {
            return refuse(format!(
                "`message` is {} bytes, over {MAX_MESSAGE_BYTES}",
                text.len()
            ));
        }
        Some(_) => return refuse("`message` is not a string".to_owned()),
    };
    Ok((done, total, message))
}

impl BindingHost for RunProgress {
    fn call(&self, _member: &str, args: JsonValue) -> BoxFuture<'static, CallAnswer> {
        let answer = self.report(&args).map(|()| JsonValue::Array(Vec::new()));
        Box::pin(async move { answer })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_are_a_number_then_an_optional_number_and_string() {
        assert_eq!(read_arguments(&json!([1])).unwrap(), (1.0, None, None));
        assert_eq!(
            read_arguments(&json!([2, 10, "two"])).unwrap(),
            (2.0, Some(10.0), Some("two".to_owned()))
        );
        assert_eq!(
            read_arguments(&json!([2, null, "two"])).unwrap(),
            (2.0, None, Some("two".to_owned()))
        );
        for bad in [
            json!([]),
            json!(["1"]),
            json!([1, "10"]),
            json!([1, 2, 3]),
            json!([1, 2, "a", 4]),
        ] {
            let err = read_arguments(&bad).unwrap_err();
            assert!(
                err.message.contains("progress(done, total?, message?)"),
                "{bad}: {err:?}"
            );
        }
    }
}
