//! `codemode sdk [--schemas FILE | --config FILE] [--lang typescript|python]
//! [--check FILE | --write FILE]`: prints the SDK section for a tool list (a JSON array of
//! tools or an MCP `tools/list` result; `-` reads stdin), or for the configured tools; or
//! compares it with a committed file (`--check`, for a host's CI) or updates that file
//! (`--write`).
//!
//! This module owns reading the file and reporting its problems (file, line and column of
//! JSON errors, tool index), the comparison and its diff, and the atomic write; the
//! rendering is the library's.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::code::sdk::{SdkTool, parse_tool_list, render_sdk_section_within};
use crate::code::sdk_tools;
use crate::host::Engine;
use crate::json::{DepthLimit, JsonValue};
use crate::runtime::Language;
use clap::Args;

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
    #[arg(long, value_name = "LANG", value_parser = sdk_language)]
    lang: Option<Language>,

    /// Compare the SDK text with FILE instead of printing it: exit 0 when they are equal
    /// byte for byte, 1 with a unified diff when they differ, 2 when FILE cannot be read.
    #[arg(long, value_name = "FILE", conflicts_with = "write")]
    check: Option<PathBuf>,

    /// Write the SDK text to FILE (atomically: a temporary file in the same directory,
    /// renamed over it) instead of printing it.
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
}

/// `--lang`: a language of the SDK (the library's parser names it as the runtime's).
fn sdk_language(text: &str) -> Result<Language, String> {
    text.parse::<Language>()
        .map_err(|_| format!("unknown SDK language `{text}` (expected `typescript` or `python`)"))
}

pub(crate) fn run(args: &SdkArgs) -> Result<(), Failure> {
    // A tool list renders to the default depth; configured tools to the configuration's
    // (its registry's).
    let (tools, configured, depth) = match &args.schemas {
        Some(path) => {
            let depth = DepthLimit::DEFAULT;
            (read_tool_list(path, depth)?, Language::TypeScript, depth)
        }
        None => configured_tools(args.config.as_deref())?,
    };
    let language = args.lang.unwrap_or(configured);
    let section = render_sdk_section_within(language, &tools, depth);
    let what = Rendered {
        language,
        tools: tools.len(),
    };
    // Freed without recursion: a schema may nest deep.
    for tool in tools {
        crate::json::dispose(tool.parameters);
        if let Some(output) = tool.output {
            crate::json::dispose(output);
        }
    }
    if let Some(path) = &args.check {
        return check(path, &section, &what);
    }
    if let Some(path) = &args.write {
        return write(path, &section, &what);
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
) -> Result<(Vec<SdkTool>, Language, DepthLimit), Failure> {
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
    crate::json::dispose(value);
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
    crate::json::parse_within(text, limit)
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

/// What was rendered, for the messages of `--check` and `--write`.
struct Rendered {
    language: Language,
    tools: usize,
}

impl std::fmt::Display for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let language = match self.language {
            Language::TypeScript => "TypeScript",
            Language::Python => "Python",
        };
        let plural = if self.tools == 1 { "" } else { "s" };
        write!(f, "the {language} SDK of {} tool{plural}", self.tools)
    }
}

/// `--check FILE`: equal bytes succeed; a difference prints a unified diff (FILE as the old
/// side, the SDK text as the new) on standard output and exits 1; a FILE that cannot be
/// read exits 2, saying how to create it.
fn check(path: &Path, section: &str, what: &Rendered) -> Result<(), Failure> {
    let label = path.display();
    let committed = std::fs::read(path).map_err(|err| {
        Failure::usage(format!(
            "cannot read {label}: {err}; create it with `codemode sdk --write {label}` \
             (with the same --schemas, --config and --lang as this check)"
        ))
    })?;
    if committed == section.as_bytes() {
        println!("{label} is up to date ({what})");
        return Ok(());
    }
    let committed = String::from_utf8_lossy(&committed);
    let diff = unified_diff(&committed, section, &label.to_string());
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(diff.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|err| Failure::failed(format!("cannot write to standard output: {err}")))?;
    let shown = if diff.is_empty() {
        " (in bytes a line diff does not show: not UTF-8)"
    } else {
        " (the diff above: - is the file, + the SDK)"
    };
    Err(Failure::failed(format!(
        "{label} differs from {what}{shown}; update it with `codemode sdk --write {label}`"
    )))
}

/// The unified diff from `old` (the file) to `new` (the SDK text), three lines of context.
fn unified_diff(old: &str, new: &str, label: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(label, "codemode sdk")
        .to_string()
}

/// `--write FILE`: the text goes to a new temporary file beside FILE (its directory is
/// created if missing), is flushed to disk, and is renamed over FILE, so a reader sees the
/// old text or the new, never a part. A FILE that already holds the text is left alone.
fn write(path: &Path, section: &str, what: &Rendered) -> Result<(), Failure> {
    let label = path.display();
    if std::fs::read(path).is_ok_and(|bytes| bytes == section.as_bytes()) {
        println!("{label} is up to date ({what}); left unchanged");
        return Ok(());
    }
    let cannot = |err: std::io::Error| Failure::failed(format!("cannot write {label}: {err}"));
    let name = path
        .file_name()
        .ok_or_else(|| Failure::usage(format!("--write {label}: not a file name")))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(cannot)?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".codemode-{}.tmp", std::process::id()));
    let temp = dir.join(temp_name);
    let written =
        write_new(&temp, section.as_bytes(), path).and_then(|()| std::fs::rename(&temp, path));
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(cannot(err));
    }
    println!("wrote {label}: {what}, {} bytes", section.len());
    Ok(())
}

/// Creates `temp` (it must not exist), writes `bytes` and syncs them; the permissions are
/// those of `target` when it exists.
fn write_new(temp: &Path, bytes: &[u8], target: &Path) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temp)?;
    file.write_all(bytes)?;
    if let Ok(metadata) = std::fs::metadata(target) {
        file.set_permissions(metadata.permissions())?;
    }
    file.sync_all()
}
