//! The `codemode` command. Everything lives in the `cli` module; this file only hands the
//! process over to it.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
