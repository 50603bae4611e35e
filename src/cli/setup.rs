//! What every subcommand that works on the configured tools shares: finding and reading
//! the configuration, and building the host it describes through the library's
//! composition root.

use std::path::{Path, PathBuf};

use codemode::config::Config;
use codemode::host::{Engine, Host, ServerState};

use super::Failure;

/// The file read when `--config` is absent, if it exists in the working directory.
pub(crate) const DEFAULT_CONFIG: &str = "codemode.toml";

/// Reads `--config FILE`, else `./codemode.toml`, else the defaults (the built-in tools
/// over the working directory).
pub(crate) fn load_config(explicit: Option<&Path>) -> Result<Config, Failure> {
    let path: Option<PathBuf> = match explicit {
        Some(path) => Some(path.to_path_buf()),
        None => Some(PathBuf::from(DEFAULT_CONFIG)).filter(|p| p.is_file()),
    };
    match path {
        Some(path) => Config::load(&path).map_err(|err| Failure::from_error(&err)),
        None => {
            let cwd = std::env::current_dir().map_err(|err| {
                Failure::usage(format!("cannot read the working directory: {err}"))
            })?;
            Ok(Config::defaults(cwd))
        }
    }
}

/// The host the configuration describes ([`Host`], the library's composition root). An MCP
/// server that cannot be started is reported on standard error; the other tools still work.
pub(crate) async fn host(config: Config, engine: Engine) -> Result<Host, Failure> {
    let host = host_with_status(config, engine).await?;
    for server in host.servers() {
        if let ServerState::Failed { message } = &server.state {
            eprintln!("codemode: warning: {message}");
        }
    }
    Ok(host)
}

/// [`host`], reporting nothing about the MCP servers (the caller shows their status).
pub(crate) async fn host_with_status(config: Config, engine: Engine) -> Result<Host, Failure> {
    Host::builder(config)
        .engine(engine)
        .build()
        .await
        .map_err(|err| Failure::from_error(&err))
}

/// A tokio runtime for a subcommand. Its threads get 16 MiB of stack (only what is touched
/// is committed): `serde_json::Value`'s own clone, drop and serialization recurse over
/// deep values (see `codemode::json::max_depth`).
pub(crate) fn tokio_runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
        .map_err(|err| Failure {
            message: format!("cannot start the async runtime: {err}"),
            status: 1,
        })
}

/// The environment variable holding the log filter (tracing's `EnvFilter` syntax).
const LOG_ENV: &str = "CODEMODE_LOG";

/// Sends the library's `tracing` events (warnings by default; `CODEMODE_LOG` sets the filter)
/// to stderr, which never carries protocol.
pub(crate) fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env(LOG_ENV)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // A second initialization (there is none) would only be refused.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
