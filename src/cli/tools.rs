//! `codemode tools`: lists the configured tools — name, source, how calls are scheduled,
//! the configured policy (`allow` where none is set) — and the presentation mode the
//! configuration selects.

use std::io::Write;
use std::path::PathBuf;

use crate::host::{Engine, ServerState, ServerStatus};
use crate::tool::Concurrency;
use clap::Args;
use serde_json::json;

use super::{Failure, setup};

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The configuration file (default: `codemode.toml` in the working directory, else the
    /// built-in file tools over the working directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// One listed tool.
struct Row {
    name: String,
    source: String,
    concurrency: &'static str,
    /// Its configured policy (`allow` where none is set).
    policy: &'static str,
    /// The first line of its description.
    summary: String,
}

pub(crate) fn run(args: &ToolsArgs) -> Result<(), Failure> {
    let config = setup::load_config(args.config.as_deref())?;
    let runtime = setup::tokio_runtime()?;
    let (rows, servers) = runtime.block_on(async {
        let host = setup::host_with_status(config.clone(), Engine::Never).await?;
        let rows: Vec<Row> = host
            .registry()
            .global()
            .visible_tools()
            .iter()
            .map(|tool| {
                let concurrency = match tool.concurrency() {
                    Concurrency::Parallel => "parallel",
                    Concurrency::ByArguments => "by arguments",
                    Concurrency::Exclusive => "exclusive",
                };
                let source = tool
                    .annotations()
                    .source
                    .clone()
                    .unwrap_or_else(|| "host".into());
                let summary = tool
                    .schema()
                    .description
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                Row {
                    name: tool.name().to_owned(),
                    source,
                    concurrency,
                    policy: host.policy(tool.name()).as_str(),
                    summary,
                }
            })
            .collect();
        Ok::<_, Failure>((rows, host.servers().to_vec()))
    })?;
    // The MCP servers' processes are gone with the registry; nothing keeps the runtime.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    let mut out = std::io::stdout().lock();
    let text = if args.json {
        let tools: Vec<_> = rows
            .iter()
            .map(|row| {
                json!({
                    "name": row.name,
                    "source": row.source,
                    "concurrency": row.concurrency,
                    "policy": row.policy,
                    "description": row.summary,
                })
            })
            .collect();
        let servers: Vec<_> = servers.iter().map(server_json).collect();
        serde_json::to_string_pretty(
            &json!({"mode": config.mode.as_str(), "tools": tools, "servers": servers}),
        )
        .unwrap_or_default()
    } else {
        let width = |pick: fn(&Row) -> usize, title: &str| {
            rows.iter().map(pick).max().unwrap_or(0).max(title.len())
        };
        let (w0, w1, w2, w3) = (
            width(|r| r.name.chars().count(), "NAME"),
            width(|r| r.source.chars().count(), "SOURCE"),
            width(|r| r.concurrency.len(), "CONCURRENCY"),
            width(|r| r.policy.len(), "POLICY"),
        );
        let mut text = format!(
            "mode: {}\n{:w0$}  {:w1$}  {:w2$}  {:w3$}  DESCRIPTION\n",
            config.mode.as_str(),
            "NAME",
            "SOURCE",
            "CONCURRENCY",
            "POLICY"
        );
        for row in &rows {
            text.push_str(&format!(
                "{:w0$}  {:w1$}  {:w2$}  {:w3$}  {}\n",
                row.name, row.source, row.concurrency, row.policy, row.summary
            ));
        }
        if !servers.is_empty() {
            text.push_str("\nMCP servers:\n");
            let width = servers.iter().map(|s| s.name.len()).max().unwrap_or(0);
            for server in &servers {
                text.push_str(&format!("  {:width$}  {}\n", server.name, describe(server)));
            }
        }
        text.trim_end().to_owned()
    };
    writeln!(out, "{text}").map_err(|err| Failure {
        message: format!("cannot write to standard output: {err}"),
        status: 1,
    })
}

/// One server's line: `ready: 14 tools (renamed: fs__read_file); skipped: bad (why)`.
fn describe(server: &ServerStatus) -> String {
    match &server.state {
        ServerState::Failed { message } => {
            format!(
                "failed: {}",
                message.lines().collect::<Vec<_>>().join(" | ")
            )
        }
        ServerState::Ready {
            tools,
            renamed,
            skipped,
        } => {
            let mut text = format!("ready: {tools} tool{}", if *tools == 1 { "" } else { "s" });
            if !renamed.is_empty() {
                let names: Vec<&str> = renamed.iter().map(|(_, to)| to.as_str()).collect();
                text.push_str(&format!(" (renamed: {})", names.join(", ")));
            }
            for skip in skipped {
                text.push_str(&format!("; skipped `{}`: {}", skip.name, skip.reason));
            }
            text
        }
    }
}

fn server_json(server: &ServerStatus) -> serde_json::Value {
    match &server.state {
        ServerState::Failed { message } => {
            json!({"name": server.name, "status": "failed", "error": message})
        }
        ServerState::Ready {
            tools,
            renamed,
            skipped,
        } => json!({
            "name": server.name,
            "status": "ready",
            "tools": tools,
            "renamed": renamed.iter().map(|(from, to)| json!({"from": from, "to": to})).collect::<Vec<_>>(),
            "skipped": skipped.iter().map(|s| json!({"name": s.name, "reason": s.reason})).collect::<Vec<_>>(),
        }),
    }
}
