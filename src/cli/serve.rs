//! `codemode serve`: serves the configured tools to an MCP client, over standard input and
//! output (the default) or streamable HTTP on a loopback address (`--http`, endpoint
//! `/mcp`). Standard output carries only the protocol; logs go to standard error
//! (`CODEMODE_LOG`, e.g. `CODEMODE_LOG=debug`; default `warn`). The HTTP bounds (header
//! and body timeouts, the connection and session caps, the idle expiry) and the run cap
//! are flags; their defaults are the library's (`codemode::mcp::server::DEFAULT_*`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use codemode::host::Engine;
use codemode::mcp::server::{self, McpServer, ServeError, ServeOptions};
use tokio_util::sync::CancellationToken;

use super::{Failure, setup};

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The configuration file (default: `codemode.toml` in the working directory, else the
    /// built-in file tools over the working directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Serve streamable HTTP on this loopback address instead of stdio, e.g.
    /// `127.0.0.1:8931` (port 0 picks a free port; the URL is printed to standard error).
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,

    /// Seconds a call under the `ask` policy waits for the client's answer before it is
    /// denied.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    approval_timeout: u64,

    /// HTTP: milliseconds a connection may take to send a request's line and headers
    /// (also the longest idle time between its requests) before it is closed.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    header_timeout: u64,

    /// HTTP: milliseconds a request body may take to arrive before it is answered `408`.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    body_timeout: u64,

    /// HTTP: the most connections open at once; one more is answered `503`.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,

    /// HTTP: the most MCP sessions at once; an `initialize` past it is answered `503`.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,

    /// HTTP: seconds an MCP session may stay idle before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    session_idle: u64,

    /// The most tool calls (`run_code` runs included) running at once across the server.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_RUNS)]
    max_runs: usize,

    /// The most tool calls waiting for a run slot; one more is refused as busy.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_RUN_QUEUE)]
    run_queue: usize,
}

pub(crate) fn run(args: &ServeArgs) -> Result<(), Failure> {
    let addr = args.http.as_deref().map(parse_loopback).transpose()?;
    if args.approval_timeout == 0 {
        return Err(Failure::usage(
            "--approval-timeout must be a positive number of seconds",
        ));
    }
    for (flag, value) in [
        ("--header-timeout", args.header_timeout),
        ("--body-timeout", args.body_timeout),
        ("--max-connections", args.max_connections as u64),
        ("--max-sessions", args.max_sessions as u64),
        ("--session-idle", args.session_idle),
        ("--max-runs", args.max_runs as u64),
    ] {
        if value == 0 {
            return Err(Failure::usage(format!("{flag} must be a positive number")));
        }
    }
    let config = setup::load_config(args.config.as_deref())?;
    let runtime = setup::tokio_runtime()?;
    let outcome = runtime.block_on(async {
        let host = setup::host(config, Engine::Auto).await?;
        let server = McpServer::new(
            host.registry().clone(),
            ServeOptions::default()
                .with_approval_timeout(Duration::from_secs(args.approval_timeout))
                .with_header_timeout(Duration::from_millis(args.header_timeout))
                .with_body_timeout(Duration::from_millis(args.body_timeout))
                .with_max_connections(args.max_connections)
                .with_max_sessions(args.max_sessions)
                .with_session_idle(Duration::from_secs(args.session_idle))
                .with_max_runs(args.max_runs)
                .with_run_queue(args.run_queue),
        );
        let shutdown = CancellationToken::new();
        let interrupt = shutdown.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                interrupt.cancel();
            }
        });
        let served = match addr {
            None => server.serve_stdio(shutdown).await,
            Some(addr) => {
                let http = server.bind_http(addr).await.map_err(|err| match err {
                    ServeError::NotLoopback(_) => Failure::usage(err.to_string()),
                    _ => Failure::failed(format!("{err} ({})", err.code())),
                })?;
                eprintln!(
                    "codemode: serving MCP over streamable HTTP at {}",
                    http.url()
                );
                http.serve(shutdown).await
            }
        };
        served.map_err(|err| Failure {
            message: format!("{} ({})", err, err.code()),
            status: 1,
        })
    });
    // Tool calls still running when the client left must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(200));
    outcome
}

/// Parses `--http`: an IP address and port, or `localhost:PORT`; only loopback addresses.
fn parse_loopback(text: &str) -> Result<SocketAddr, Failure> {
    let addr = match text.strip_prefix("localhost:") {
        Some(port) => port
            .parse::<u16>()
            .ok()
            .map(|port| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)),
        None => text.parse::<SocketAddr>().ok(),
    };
    let Some(addr) = addr else {
        return Err(Failure::usage(format!(
            "--http takes a loopback address and port, e.g. 127.0.0.1:8931 or [::1]:8931, got `{text}`"
        )));
    };
    if !codemode::mcp::server::is_loopback(addr.ip()) {
        return Err(Failure::usage(
            codemode::mcp::server::ServeError::NotLoopback(addr).to_string(),
        ));
    }
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_served() {
        assert_eq!(
            parse_loopback("127.0.0.1:0").ok(),
            Some("127.0.0.1:0".parse().unwrap())
        );
        assert!(parse_loopback("[::1]:8080").is_ok());
        assert_eq!(
            parse_loopback("localhost:9").ok(),
            Some("127.0.0.1:9".parse().unwrap())
        );
        let refused = parse_loopback("0.0.0.0:8080").unwrap_err();
        assert_eq!(refused.status, Failure::USAGE);
        assert!(
            refused.message.contains("loopback addresses only"),
            "{}",
            refused.message
        );
        assert!(parse_loopback("192.168.1.2:80").is_err());
        assert!(parse_loopback("example.com:80").is_err());
        assert!(parse_loopback("127.0.0.1").is_err());
    }
}
