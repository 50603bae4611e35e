//! `codemode sdk [--schemas FILE | --config FILE] [--lang typescript|python]`: prints the SDK
//! section for a tool list (a JSON array of tools or an MCP `tools/list` result; `-` reads
//! stdin), or for the configured tools.
//!
//! This module owns reading the file and reporting its problems (file, line and column of
//! JSON errors, tool index); the rendering is the library's.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;
use codemode::code::sdk::{SdkLanguage, SdkTool, parse_tool_list, render_sdk_section_within};
use codemode::code::sdk_tools;
use codemode::host::Engine;
use codemode::json::{DepthLimit, JsonValue};

use super::Failure;

#[derive(Debug, Args)]
pub(crate) struct SdkArgs {
    /// The tool list: a JSON array of tools (`name`, `description`, `inputSchema` or
    /// `parameters`, optional `outputSchema` or `output`) or an MCP `tools/list` result.
    /// `-` reads standard input.
    #[arg(long, value_name = "FILE", conflicts_with = "config")]
    schemas: Option<PathBuf>,

    /// Render the tools of this configuration file instead (the default when `--schemas` is
    /// absent: `codemode.toml` in the working directory, else the built-in file tools).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// The SDK language (default: the configuration's `[runtime] language`, TypeScript
    /// for `--schemas`).
    #[arg(long, value_name = "LANG")]
    lang: Option<SdkLanguage>,
}

pub(crate) fn run(args: &SdkArgs) -> Result<(), Failure> {
    // A tool list renders to the default depth; configured tools to the configuration's
    // (its registry's).
    let (tools, configured, depth) = match &args.schemas {
        Some(path) => {
            let depth = DepthLimit::DEFAULT;
            (read_tool_list(path, depth)?, SdkLanguage::TypeScript, depth)
        }
        None => configured_tools(args.config.as_deref())?,
    };
    let section = render_sdk_section_within(args.lang.unwrap_or(configured), &tools, depth);
    // Freed without recursion: a schema may nest deep.
    for tool in tools {
        codemode::json::dispose(tool.parameters);
        if let Some(output) = tool.output {
            codemode::json::dispose(output);
        }
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(section.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|err| Failure {
            message: format!("cannot write to standard output: {err}"),
            status: 1,
        })
}

/// The configured tools, the configured language and the host's value-depth limit.
fn configured_tools(
    config: Option<&std::path::Path>,
) -> Result<(Vec<SdkTool>, SdkLanguage, DepthLimit), Failure> {
    let config = super::setup::load_config(config)?;
    let language = config.language;
    let runtime = super::setup::tokio_runtime()?;
    runtime.block_on(async {
        let host = super::setup::host(config, Engine::Never).await?;
        let registry = host.registry();
        Ok((
            sdk_tools(&registry.global()),
            language,
            registry.config().value_depth,
        ))
    })
}

fn read_tool_list(path: &PathBuf, depth: DepthLimit) -> Result<Vec<SdkTool>, Failure> {
    let (label, text) = read_input(path)?;
    let value = parse_json(&label, &text, depth)?;
    let tools = parse_tool_list(&value);
    codemode::json::dispose(value);
    tools.map_err(|err| Failure::usage(format!("{label}: {}", err.message())))
}

/// The JSON of a tool list. `serde_json` stops at 128 levels of nesting; a deeper text (a
/// schema may nest as deep as `depth`, the SDK's limit, each level of subschemas two levels
/// of JSON) is read, the same way, by the library's parser, which keeps its stack on the
/// heap.
fn parse_json(label: &str, text: &str, depth: DepthLimit) -> Result<JsonValue, Failure> {
    let err = match serde_json::from_str(text) {
        Ok(value) => return Ok(value),
        Err(err) => err,
    };
    if !err.to_string().starts_with("recursion limit exceeded") {
        return Err(Failure::usage(format!(
            "{label}:{}:{}: not valid JSON: {}",
            err.line(),
            err.column(),
            strip_position(&err.to_string())
        )));
    }
    // The tool list around a schema: `{"tools": [{"inputSchema": ...}]}`.
    let limit = depth
        .get()
        .saturating_mul(2)
        .saturating_add(TOOL_LIST_LEVELS);
    codemode::json::parse_within(text, limit)
        .map_err(|err| Failure::usage(format!("{label}: not readable JSON: {err}")))
}

/// Levels of JSON around a schema in an MCP `tools/list` result, with slack.
const TOOL_LIST_LEVELS: usize = 8;

fn read_input(path: &PathBuf) -> Result<(String, String), Failure> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|err| Failure::usage(format!("cannot read standard input: {err}")))?;
        return Ok(("<stdin>".to_owned(), text));
    }
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|err| Failure::usage(format!("cannot read {label}: {err}")))?;
    Ok((label, text))
}

/// serde_json appends ` at line L column C`; the message already leads with `file:L:C`.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(index) => &message[..index],
        None => message,
    }
}
