//! The command line of `codemode`: argument parsing (clap derive) and dispatch to one
//! module per subcommand.
//!
//! The library holds it (feature `cli`) so that every way of starting the command runs the
//! same code: the `codemode` binary (`src/main.rs`) and the Python package's `codemode`
//! script (through its extension module) both call [`run`] with their arguments.
//!
//! This module owns the command's surface: subcommands, exit statuses (usage and
//! configuration problems 2, every other failure 1) and how errors are printed. Each subcommand's work lives in its own module and returns a [`Failure`];
//! `setup` holds what they share (the configuration, the host, the log on stderr) and
//! `otel` the OTLP export of the library's spans, shut down when the subcommand is done.

mod otel;
mod run;
mod sdk;
mod serve;
mod setup;
mod token;
mod tools;
mod trace;

use clap::{Parser, Subcommand};

/// Tools for LLM agents: a guarded tool registry and Code Mode.
#[derive(Debug, Parser)]
#[command(name = "codemode", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a TypeScript or Python program through Code Mode against the configured tools
    /// and print what the model would see.
    Run(run::RunArgs),
    /// Print the Code Mode SDK section (the `tools:sdk` prompt text) of the configured tools
    /// or of a tool list.
    Sdk(sdk::SdkArgs),
    /// List the configured tools (name, source, concurrency, policy, description), the
    /// mode, and each MCP server's state.
    Tools(tools::ToolsArgs),
    /// Serve the configured tools to an MCP client (stdio, or streamable HTTP: on loopback,
    /// or beyond it with bearer tokens and TLS) in the configured mode: native tools, Code
    /// Mode's one tool with the SDK, or both.
    Serve(serve::ServeArgs),
    /// Make a bearer token for `serve --http`, or hash one for `[[serve.tokens]]`.
    Token(token::TokenArgs),
}

/// Why a subcommand failed: the message for stderr and the exit status.
#[derive(Debug)]
pub(crate) struct Failure {
    pub message: String,
    pub status: u8,
}

impl Failure {
    /// Exit status of a usage or configuration problem (a malformed file, a bad flag value).
    pub(crate) const USAGE: u8 = 2;
    /// Exit status of every other failure (a run that failed, a server that could not
    /// serve, an I/O error).
    pub(crate) const FAILED: u8 = 1;

    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: Failure::USAGE,
        }
    }

    pub(crate) fn failed(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: Failure::FAILED,
        }
    }

    /// The failure of a library error, by its class: usage and configuration problems
    /// exit 2, everything else 1. The message keeps the error's causes.
    pub(crate) fn from_error(err: &crate::Error) -> Self {
        let mut message = err.message().to_owned();
        let mut cause = std::error::Error::source(err);
        while let Some(source) = cause {
            let text = source.to_string();
            if !message.contains(&text) {
                message.push_str(&format!(": {text}"));
            }
            cause = source.source();
        }
        let status = if err.is_usage() {
            Failure::USAGE
        } else {
            Failure::FAILED
        };
        Failure { message, status }
    }
}

/// Parses `args` (the program's name first, as in `std::env::args_os`), runs the
/// subcommand, and maps failures to an exit status with the message on stderr (clap's own
/// usage errors also exit with status 2; `--help` and `--version` print and exit 0). The
/// status is returned, not exited with, so a host process (the Python package's `codemode`
/// script) ends itself.
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // What `Cli::parse` prints, where it prints it; its exit status.
            let _ = err.print();
            return u8::try_from(err.exit_code()).unwrap_or(Failure::USAGE);
        }
    };
    let export = setup::init_logging();
    // The subcommand runs on a thread with the same 16 MiB of stack as the runtime's
    // workers (only what is touched is committed): what it awaits is polled here, and
    // serde_json's own clone, drop and serialization recurse over deep values.
    let outcome = std::thread::Builder::new()
        .name("codemode".to_owned())
        .stack_size(setup::STACK_BYTES)
        .spawn(move || match cli.command {
            Command::Run(args) => run::run(&args),
            Command::Sdk(args) => sdk::run(&args),
            Command::Tools(args) => tools::run(&args),
            Command::Serve(args) => serve::run(&args),
            Command::Token(args) => token::run(&args),
        })
        .map_err(|err| Failure {
            message: format!("cannot start the command's thread: {err}"),
            status: 1,
        })
        .and_then(|thread| {
            thread.join().unwrap_or_else(|_| {
                Err(Failure {
                    message: "the command failed unexpectedly (a panic; see above)".to_owned(),
                    status: 1,
                })
            })
        });
    if let Some(export) = export {
        export.shutdown();
    }
    match outcome {
        Ok(()) => 0,
        Err(failure) => {
            if !failure.message.is_empty() {
                eprintln!("codemode: {}", failure.message);
            }
            failure.status
        }
    }
}
