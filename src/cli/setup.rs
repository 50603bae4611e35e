//! What every subcommand that works on the configured tools shares: finding and reading
//! the configuration, and building a registry with the configured sources, policies and
//! (when asked) Code Mode on the JavaScript engine.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode::codemode::{CodeMode, SubCallObserver};
use codemode::config::Config;
use codemode::registry::Registry;
use codemode::runtime::{CodeRuntime, JsEngine};

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
        Some(path) => Config::load(&path).map_err(|err| Failure::usage(err.message())),
        None => {
            let cwd = std::env::current_dir().map_err(|err| {
                Failure::usage(format!("cannot read the working directory: {err}"))
            })?;
            Ok(Config::defaults(cwd))
        }
    }
}

/// A registry with the configuration's tools and policies.
pub(crate) fn registry(config: &Config) -> Result<Registry, Failure> {
    let registry = Registry::with_config(config.registry_config())
        .map_err(|err| Failure::usage(err.message()))?;
    config
        .apply(&registry)
        .map_err(|err| Failure::usage(err.message()))?;
    Ok(registry)
}

/// Installs Code Mode on the JavaScript engine with the configuration's budgets.
pub(crate) fn install_code_mode(
    registry: &Registry,
    config: &Config,
    observer: Option<SubCallObserver>,
) -> Result<(), Failure> {
    let engine = JsEngine::new(config.engine).map_err(|err| Failure::usage(err.message()))?;
    let runtime: Arc<dyn CodeRuntime> = Arc::new(engine);
    CodeMode::install_with_observer(registry, runtime, observer)
        .map_err(|err| Failure::usage(err.message()))
}

/// A tokio runtime for a subcommand.
pub(crate) fn tokio_runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| Failure {
            message: format!("cannot start the async runtime: {err}"),
            status: 1,
        })
}
