//! `codemode run FILE|-`: runs a program through Code Mode against the configured tools
//! and prints exactly the model-facing text. Exit status 0 when the run succeeded, 1 when
//! it failed (the failure text is still printed), 2 for a usage or configuration error.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::code::{Program, SubCallObserver, SubCallRecord};
use crate::host::Engine;
use crate::registry::ApprovalService;
use crate::runtime::Language;
use crate::tool::{ApprovalAnswer, ToolExecution, ToolExecutionResult};
use clap::Args;
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{Failure, setup, trace};

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The program: a TypeScript or Python (`.py`) file holding the body of an async
    /// function (`-` reads standard input). Call tools with `await tools.name(args)`;
    /// `codemode sdk` prints their declarations.
    #[arg(value_name = "FILE")]
    program: PathBuf,

    /// The configuration file (default: `codemode.toml` in the working directory, else the
    /// built-in file tools over the working directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Print the whole outer result and the sub-call log as JSON instead of the text.
    #[arg(long)]
    json: bool,

    /// Stream each sub-call (name, run time, queue time when it waited, outcome) to standard
    /// error as it settles.
    #[arg(long, short)]
    verbose: bool,

    /// Write the run's timeline to FILE in the Chrome trace-event format (open it in
    /// Perfetto) to see which sub-calls overlapped.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,

    /// How many sub-calls `--json` and `--trace` record (the first to settle; the rest are
    /// counted, and standard error says so). Without either nothing is recorded, so a
    /// long program's calls cost no memory after they settle.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_sub_calls: usize,

    /// The program's language (default: by the file's extension — `.py` Python; `.ts`,
    /// `.js` and the like TypeScript — else, and for `-`, the configuration's
    /// `[runtime] language`).
    #[arg(long, value_name = "LANG", value_parser = ["typescript", "python"])]
    lang: Option<String>,
}

/// Exit status of a run that failed (its text is printed anyway).
const RUN_FAILED: u8 = 1;

pub(crate) fn run(args: &RunArgs) -> Result<(), Failure> {
    let (label, program) = read_program(&args.program)?;
    let mut config = setup::load_config(args.config.as_deref())?;
    // One program, then exit: the engine creates the one sandbox it runs in, none warm.
    config.engine.warm_pool = 0;
    config.language = language(args, config.language)?;
    let runtime = setup::tokio_runtime()?;
    let verbose: Option<SubCallObserver> = args.verbose.then(|| {
        Arc::new(|record: &SubCallRecord| eprintln!("{}", describe(record))) as SubCallObserver
    });
    let started = Instant::now();
    let file = config.path.as_ref().map_or_else(
        || setup::DEFAULT_CONFIG.to_owned(),
        |path| path.display().to_string(),
    );
    let run = runtime.block_on(async {
        // The run always goes through Code Mode, whatever the configured mode.
        let host = setup::host(config, Engine::Always).await?;
        host.registry()
            .set_approval_service(Some(Arc::new(NobodyToAsk { file })));
        let cancel = CancellationToken::new();
        let interrupt = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                interrupt.cancel();
            }
        });
        // Records only for an output that prints them (`--verbose` streams each as it
        // settles and keeps none).
        let keep = if args.json || args.trace.is_some() {
            args.max_sub_calls
        } else {
            0
        };
        let program = Program::new(program, format!("codemode run {label}"))
            .with_signal(cancel)
            .with_sub_call_limit(Some(keep));
        host.run_program(program, verbose)
            .await
            .map_err(|err| Failure::from_error(&err))
    })?;
    let elapsed = started.elapsed();
    let (result, records, dropped) = (run.result, run.sub_calls, run.sub_calls_dropped);
    // Only an output that keeps records can have left some out (without one, nothing is
    // kept and every call counts as dropped).
    let recorded = args.json || args.trace.is_some();
    if recorded && dropped > 0 {
        eprintln!(
            "codemode: the run made {} sub-calls; --json and --trace hold the first {} (--max-sub-calls)",
            records.len() as u64 + dropped,
            records.len()
        );
    }
    // Tasks still running (there are none: the bridge drains before returning) must not
    // keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(100));

    if let Some(path) = &args.trace {
        let timeline = trace::chrome_trace(&format!("codemode run {label}"), elapsed, &records);
        let text = serde_json::to_string_pretty(&timeline).unwrap_or_default();
        std::fs::write(path, text).map_err(|err| {
            Failure::usage(format!(
                "cannot write the trace to {}: {err}",
                path.display()
            ))
        })?;
    }
    let output = if args.json {
        serde_json::to_string_pretty(&as_json(&result, &records, dropped)).unwrap_or_default()
    } else {
        result.model_text()
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{output}")
        .and_then(|()| stdout.flush())
        .map_err(|err| Failure::failed(format!("cannot write to standard output: {err}")))?;
    if result.is_error() {
        return Err(Failure {
            message: String::new(),
            status: RUN_FAILED,
        });
    }
    Ok(())
}

/// `codemode run`'s approver: there is no one to ask, so every `ask` is denied, and the
/// denial says how to allow the tool in the configuration file (`[policy]` wins over a
/// tool's own `policy` and an MCP tool's).
struct NobodyToAsk {
    /// The configuration file, as given.
    file: String,
}

impl ApprovalService for NobodyToAsk {
    fn request(
        &self,
        _: Arc<ToolExecution>,
        _: Option<String>,
    ) -> BoxFuture<'static, ApprovalAnswer> {
        Box::pin(async { ApprovalAnswer::Unavailable })
    }

    fn unavailable(&self, execution: &ToolExecution) -> Option<String> {
        Some(format!(
            "`codemode run` has no one to ask; to allow the tool, set `{} = \"allow\"` in the `[policy]` table of {}",
            toml_key(&execution.name),
            self.file
        ))
    }
}

/// `name` as a TOML key: bare when it can be, else quoted.
fn toml_key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        name.to_owned()
    } else {
        serde_json::Value::String(name.to_owned()).to_string()
    }
}

/// The program's language: `--lang`, else the file's extension (`.py` Python, `.ts`,
/// `.js` and the like TypeScript), else the configuration's.
fn language(args: &RunArgs, configured: Language) -> Result<Language, Failure> {
    if let Some(lang) = &args.lang {
        return lang
            .parse()
            .map_err(|err: crate::Error| Failure::from_error(&err));
    }
    let extension = args.program.extension().and_then(|e| e.to_str());
    Ok(match extension {
        Some("py") => Language::Python,
        Some("ts" | "mts" | "cts" | "js" | "mjs" | "cjs") => Language::TypeScript,
        _ => configured,
    })
}

fn read_program(path: &PathBuf) -> Result<(String, String), Failure> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|err| {
            Failure::usage(format!(
                "cannot read the program from standard input: {err}"
            ))
        })?;
        return Ok(("<stdin>".to_owned(), text));
    }
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|err| Failure::usage(format!("cannot read the program {label}: {err}")))?;
    Ok((label, text))
}

/// One `--verbose` line: `[run:code:3] read_file 12 ms ok` — the run time, then the time
/// it waited in the lane when there was any (`12 ms (queued 40 ms) ok`).
fn describe(record: &SubCallRecord) -> String {
    let took = record.ran().as_millis();
    let queued = record.queued().as_millis();
    let outcome = match record.result.failure_info() {
        None => "ok".to_owned(),
        Some(failure) => format!(
            "failed ({}): {}",
            failure.code,
            first_line(&failure.message)
        ),
    };
    let queued = if record.started.is_none() {
        " (never started)".to_owned()
    } else if queued > 0 {
        format!(" (queued {queued} ms)")
    } else {
        String::new()
    };
    format!(
        "[{}] {} {took} ms{queued} {outcome}",
        record.sub_call_id, record.name
    )
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

fn as_json(result: &ToolExecutionResult, records: &[SubCallRecord], dropped: u64) -> Value {
    let sub_calls: Vec<Value> = records
        .iter()
        .map(|record| {
            let mut call = json!({
                "id": record.sub_call_id,
                "name": record.name,
                "arguments": record.arguments,
                "mode": record.mode.map(|mode| mode.as_str()),
                "isError": record.result.is_error(),
                "content": record.result.content,
                "submittedMs": record.submitted.as_secs_f64() * 1000.0,
                "startMs": record.started.map(|started| started.as_secs_f64() * 1000.0),
                "dispatchedMs": record.dispatched.map(|at| at.as_secs_f64() * 1000.0),
                "endMs": record.settled.as_secs_f64() * 1000.0,
            });
            if let Some(failure) = record.result.failure_info() {
                call["error"] = json!(failure);
            }
            call
        })
        .collect();
    let mut out = json!({
        "isError": result.is_error(),
        "text": result.model_text(),
        "content": result.content,
        "subCalls": sub_calls,
    });
    if dropped > 0 {
        out["subCallsDropped"] = json!(dropped);
    }
    if let Some(failure) = result.failure_info() {
        out["error"] = json!(failure);
    }
    if let Some(value) = result.value() {
        out["value"] = value.clone();
    }
    if !result.additional_contexts.is_empty() {
        out["additionalContexts"] = json!(result.additional_contexts);
    }
    out
}
