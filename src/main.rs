//! The `codemode` command. Everything lives in the `cli` module; this file only hands the
//! process over to it — or, started as a Python worker (`codemode __python-worker`), to
//! the worker.

mod cli;

fn main() -> std::process::ExitCode {
    #[cfg(feature = "python")]
    if codemode::runtime::python::is_worker_invocation() {
        codemode::runtime::python::worker_main();
    }
    cli::run()
}
