//! `codemode serve`: serves the configured tools to an MCP client, over standard input and
//! output (the default) or streamable HTTP on a loopback address (`--http`, endpoint
//! `/mcp`). Standard output carries only the protocol; logs go to standard error
//! (`CODEMODE_LOG`, e.g. `CODEMODE_LOG=debug`; default `warn`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use codemode::host::Engine;
use codemode::mcp::server::{McpServer, ServeError, ServeOptions};
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
}

pub(crate) fn run(args: &ServeArgs) -> Result<(), Failure> {
    let addr = args.http.as_deref().map(parse_loopback).transpose()?;
    if args.approval_timeout == 0 {
        return Err(Failure::usage(
            "--approval-timeout must be a positive number of seconds",
        ));
    }
    let config = setup::load_config(args.config.as_deref())?;
    let runtime = setup::tokio_runtime()?;
    let outcome = runtime.block_on(async {
        let host = setup::host(config, Engine::Auto).await?;
        let server = McpServer::new(
            host.registry().clone(),
            ServeOptions::default()
                .with_approval_timeout(Duration::from_secs(args.approval_timeout)),
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
