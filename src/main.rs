//! The `codemode` command. Everything lives in the library's `cli` module; this file only
//! hands the process over to it — or, started as a Python worker (`codemode __python-worker`), to
//! the worker.

fn main() -> std::process::ExitCode {
    #[cfg(feature = "python")]
    if codemode::runtime::python::is_worker_invocation() {
        codemode::runtime::python::worker_main();
    }
    std::process::ExitCode::from(codemode::cli::run(std::env::args_os()))
}
