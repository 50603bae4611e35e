//! Command tools: a tool whose body is a process. The arguments go to its standard input
//! as JSON; its standard output is the tool's JSON value. A non-zero exit fails the call
//! with its standard error as the message; output that is not JSON fails it too. The
//! process (and everything it started) is killed on cancellation and at the tool's
//! timeout.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use crate::error::{Error, ErrorCode};
use crate::json::{DepthLimit, JsonValue, parse_lossless_within};
use crate::process::ProcessGroup;
use crate::schema::{JsonSchema, validate_args_within};
use crate::tool::{Signal, ToolAnnotations, ToolDefinition, ToolOutput};

/// The most a command may print on standard output (its JSON value).
pub const MAX_STDOUT_BYTES: usize = 16 * 1024 * 1024;
/// The most of standard error kept for a failure message.
pub const MAX_STDERR_BYTES: usize = 64 * 1024;

/// A command tool's declaration.
#[derive(Debug, Clone)]
pub struct CommandTool {
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The working directory.
    pub cwd: PathBuf,
    /// Extra environment variables.
    pub env: BTreeMap<String, String>,
    /// The parameters (validated before the process starts).
    pub parameters: JsonSchema,
    /// The output schema (`None`: any JSON).
    pub output: Option<JsonSchema>,
    /// Whether calls may overlap.
    pub concurrency_safe: bool,
    /// The cooperative timeout.
    pub timeout_ms: Option<f64>,
}

impl CommandTool {
    /// The tool definition.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidConfig`] when `command` is empty; [`ErrorCode::InvalidDefinition`]
    /// when the tool is not a valid definition
    /// ([`ToolBuilder::build`](crate::tool::ToolBuilder::build): an invalid name, a timeout
    /// that is not a positive finite number of milliseconds, ...).
    pub fn into_definition(self) -> Result<ToolDefinition, Error> {
        if self.command.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidConfig,
                format!(
                    "command tool `{}`: `command` needs at least the program",
                    self.name
                ),
            ));
        }
        let output = match &self.output {
            Some(schema) => ToolOutput::json(schema.clone()),
            None => ToolOutput::any(),
        };
        let spec = Arc::new(self);
        let mut builder = ToolDefinition::builder(spec.name.clone())
            .description(spec.description.clone())
            .parameters(crate::json::deep_clone(spec.parameters.as_json()))
            .output(output)
            .annotations(ToolAnnotations {
                source: Some("command".into()),
                advertised_output: None,
            })
            .execute({
                let spec = spec.clone();
                move |args, ctx| {
                    let spec = spec.clone();
                    async move {
                        let depth = ctx.value_depth();
                        validate_args_within(&spec.parameters, &args, depth.get())?;
                        run(&spec, &args, ctx.signal(), depth).await
                    }
                }
            });
        if spec.concurrency_safe {
            builder = builder.always_concurrency_safe();
        }
        if let Some(ms) = spec.timeout_ms {
            builder = builder.timeout_ms(ms);
        }
        builder.build()
    }
}

/// Reads at most `cap` bytes; reports whether there was more (and keeps draining so the
/// process is not blocked on a full pipe).
async fn read_capped(
    mut stream: impl AsyncRead + Unpin,
    cap: usize,
) -> std::io::Result<(Vec<u8>, bool)> {
    let mut kept = Vec::new();
    let mut overflow = false;
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let read = stream.read(&mut buffer).await?;
        if read == 0 {
            return Ok((kept, overflow));
        }
        let room = cap.saturating_sub(kept.len());
        if read > room {
            overflow = true;
        }
        kept.extend_from_slice(&buffer[..read.min(room)]);
    }
}

fn failed(message: String) -> Error {
    Error::new(ErrorCode::ToolFailed, message)
}

/// Runs the command; its output is a value within `depth` levels (the registry's limit).
async fn run(
    spec: &CommandTool,
    args: &JsonValue,
    signal: &Signal,
    depth: DepthLimit,
) -> Result<JsonValue, Error> {
    let name = &spec.name;
    let mut command =
        crate::process::piped(&spec.command[0], &spec.command[1..], &spec.cwd, &spec.env);
    let mut child = command.spawn().map_err(|err| {
        failed(format!(
            "command tool `{name}` could not start `{}` in {}: {err}",
            spec.command[0],
            spec.cwd.display()
        ))
    })?;
    let group = ProcessGroup::led_by(child.id());
    let input = serde_json::to_vec(args)
        .map_err(|err| failed(format!("encoding the arguments failed: {err}")))?;
    let mut stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();

    let work = async {
        let write = async {
            if let Some(mut stdin) = stdin.take() {
                // A command that exits without reading its input is not an error.
                let _ = stdin.write_all(&input).await;
                let _ = stdin.shutdown().await;
            }
        };
        let read_out = async {
            match stdout {
                Some(out) => read_capped(out, MAX_STDOUT_BYTES).await,
                None => Ok((Vec::new(), false)),
            }
        };
        let read_err = async {
            match stderr {
                Some(err) => read_capped(err, MAX_STDERR_BYTES).await,
                None => Ok((Vec::new(), false)),
            }
        };
        let ((), out, err) = tokio::join!(write, read_out, read_err);
        let status = child.wait().await;
        (out, err, status)
    };
    let (out, err, status) = tokio::select! {
        biased;
        _ = signal.cancelled() => {
            group.kill();
            return Err(Error::new(ErrorCode::Aborted, format!("command tool `{name}` was cancelled; its process was killed")));
        }
        done = work => done,
    };
    let status = status.map_err(|e| {
        failed(format!(
            "command tool `{name}`: waiting for the process failed: {e}"
        ))
    })?;
    let (stdout, stdout_overflow) = out.map_err(|e| {
        failed(format!(
            "command tool `{name}`: reading its output failed: {e}"
        ))
    })?;
    let (stderr, _) = err.map_err(|e| {
        failed(format!(
            "command tool `{name}`: reading its errors failed: {e}"
        ))
    })?;
    finished(name, status, stdout, stdout_overflow, &stderr, depth)
}

/// The value of a finished command: its standard output read as one JSON value within
/// `depth` levels, or `TOOL_FAILED` saying why not (a failed exit with its error output,
/// too much output, output that is not UTF-8 or not one JSON value).
fn finished(
    name: &str,
    status: std::process::ExitStatus,
    stdout: Vec<u8>,
    stdout_overflow: bool,
    stderr: &[u8],
    depth: DepthLimit,
) -> Result<JsonValue, Error> {
    if !status.success() {
        let stderr = String::from_utf8_lossy(stderr).trim().to_owned();
        let detail = if stderr.is_empty() {
            "(no error output)".to_owned()
        } else {
            stderr
        };
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".to_owned(),
        };
        return Err(failed(format!("command tool `{name}` {how}: {detail}")));
    }
    if stdout_overflow {
        return Err(failed(format!(
            "command tool `{name}` printed more than {} MiB; print one JSON value",
            MAX_STDOUT_BYTES / (1024 * 1024)
        )));
    }
    let text = String::from_utf8(stdout).map_err(|_| {
        failed(format!(
            "command tool `{name}` printed output that is not UTF-8"
        ))
    })?;
    parse_lossless_within(text.trim(), depth.get()).map_err(|err| {
        let preview: String = text.trim().chars().take(200).collect();
        failed(format!(
            "command tool `{name}` printed output that is not one JSON value ({err}): {preview:?}"
        ))
    })
}
