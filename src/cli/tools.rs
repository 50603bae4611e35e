//! `codemode tools`: lists the configured tools — name, source, how calls are scheduled —
//! and the presentation mode the configuration selects.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use codemode::tool::Concurrency;
use serde_json::json;

use super::{Failure, setup};

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The configuration file (default: `codemode.toml` in the working directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &ToolsArgs) -> Result<(), Failure> {
    let config = setup::load_config(args.config.as_deref())?;
    let runtime = setup::tokio_runtime()?;
    let rows = runtime.block_on(async {
        let registry = setup::registry(&config)?;
        let rows: Vec<(String, String, &'static str, String)> = registry
            .visible_tools(None)
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
                (tool.name().to_owned(), source, concurrency, summary)
            })
            .collect();
        Ok::<_, Failure>(rows)
    })?;
    let mut out = std::io::stdout().lock();
    let text = if args.json {
        let tools: Vec<_> = rows
            .iter()
            .map(|(name, source, concurrency, summary)| {
                json!({"name": name, "source": source, "concurrency": concurrency, "description": summary})
            })
            .collect();
        serde_json::to_string_pretty(&json!({"mode": config.mode.as_str(), "tools": tools}))
            .unwrap_or_default()
    } else {
        let width = |pick: fn(&(String, String, &'static str, String)) -> usize, title: &str| {
            rows.iter().map(pick).max().unwrap_or(0).max(title.len())
        };
        let (w0, w1, w2) = (
            width(|r| r.0.chars().count(), "NAME"),
            width(|r| r.1.len(), "SOURCE"),
            width(|r| r.2.len(), "CONCURRENCY"),
        );
        let mut text = format!(
            "mode: {}\n{:w0$}  {:w1$}  {:w2$}  DESCRIPTION\n",
            config.mode.as_str(),
            "NAME",
            "SOURCE",
            "CONCURRENCY"
        );
        for (name, source, concurrency, summary) in &rows {
            text.push_str(&format!(
                "{name:w0$}  {source:w1$}  {concurrency:w2$}  {summary}\n"
            ));
        }
        text.trim_end().to_owned()
    };
    writeln!(out, "{text}").map_err(|err| Failure {
        message: format!("cannot write to standard output: {err}"),
        status: 1,
    })
}
