//! The `codemode` command. Everything lives in the library's `cli` module; this file only
//! hands the process over to it — or, run as `codemode __python-worker --probe`, to the
//! Python runtime's confinement probe.

fn main() -> std::process::ExitCode {
    #[cfg(feature = "python")]
    if codemode::runtime::python::is_worker_invocation() {
        let args: Vec<String> = std::env::args().skip(2).collect();
        let status = codemode::runtime::python::probe_main(&args);
        return std::process::ExitCode::from(u8::try_from(status).unwrap_or(1));
    }
    std::process::ExitCode::from(codemode::cli::run(std::env::args_os()))
}
