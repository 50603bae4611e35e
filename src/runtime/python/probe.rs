//! `codemode __python-worker --probe`: the confinement probe as a command (what CI checks
//! the machine with). It starts one probe worker on the interpreter, exactly as an engine
//! does (the same launcher, payload, limits and confinement), and prints its `confined`
//! frame on standard output as the host read it (the length, 4 bytes little-endian, then
//! the JSON: `{"t":"confined","landlock":"full","seccomp":true,"rlimits":true,"detail":""}`)
//! and, with `--probe-out FILE`, that JSON as one line in FILE.
//!
//! Arguments: `--heap-mb N --cpu-seconds N --probe [--probe-out FILE] [--python PYTHON]`
//! (`PYTHON`: `[runtime] python`'s value, default `python3` on `PATH`). Workers themselves
//! are never started this way (the host starts them on the interpreter), so anything but
//! `--probe` is refused. Exit status: 0 when the probe reported, 1 when it did not (or the
//! file cannot be written), 2 for a command line it does not understand.
//!
//! This module owns that command; it must not confine anything itself.

use std::io::Write;
use std::path::PathBuf;

use super::confine::Limits;
use super::process::WorkerCommand;
use super::protocol::{FrameLimits, FromWorker, write_frame};
use super::{START_TIMEOUT, WORKER_ARG};

/// Whether this process was started as `codemode __python-worker` (its first argument is
/// [`WORKER_ARG`]).
pub fn is_worker_invocation() -> bool {
    std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == WORKER_ARG)
}

/// Runs `codemode __python-worker ARGS` (`args`: what follows [`WORKER_ARG`]) and returns
/// its exit status.
pub fn probe_main(args: &[String]) -> i32 {
    let (limits, mode, probe_out, python) = match parse(args) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("codemode {WORKER_ARG}: {err}");
            return 2;
        }
    };
    if mode != Mode::Probe {
        eprintln!(
            "codemode {WORKER_ARG}: only --probe runs from the command line (the host starts its workers on the Python interpreter)"
        );
        return 2;
    }
    let fail = |what: &str, err: &dyn std::fmt::Display| {
        eprintln!("codemode {WORKER_ARG}: {what}: {err}");
        1
    };
    let mut target = match &probe_out {
        Some(file) => match std::fs::File::create(file) {
            Ok(target) => Some((file, target)),
            Err(err) => return fail(&format!("cannot create {}", file.display()), &err),
        },
        None => None,
    };
    let command =
        WorkerCommand::new(python.unwrap_or_else(|| WorkerCommand::DEFAULT_PYTHON.into()));
    let command = match command.resolved() {
        Ok(command) => command,
        Err(err) => return fail("no interpreter", &err),
    };
    let depth = crate::runtime::EngineConfig::default().max_json_depth;
    let probe = super::process::Worker::start(
        &command,
        limits,
        FrameLimits::new(1 << 16, depth),
        true,
        START_TIMEOUT,
    );
    let probe = match probe {
        Ok(probe) => probe,
        Err(err) => return fail("the probe did not report", &err),
    };
    let frame = FromWorker::from(probe.confinement.clone());
    drop(probe);
    let mut out = std::io::stdout().lock();
    if let Err(err) = write_frame(&mut out, &frame) {
        return fail("cannot write the probe's frame", &err);
    }
    if let Some((file, target)) = &mut target {
        let written = serde_json::to_vec(&frame)
            .map_err(std::io::Error::other)
            .and_then(|body| {
                target.write_all(&body)?;
                target.write_all(b"\n")?;
                target.flush()
            });
        if let Err(err) = written {
            return fail(&format!("cannot write {}", file.display()), &err);
        }
    }
    0
}

/// What the command is asked to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A worker (refused here).
    Single,
    /// Confine and report.
    Probe,
    /// A template (refused here).
    Template,
}

/// A command line the probe does not understand.
#[derive(Debug, thiserror::Error)]
enum ArgError {
    #[error("{0} needs a number")]
    NeedsNumber(String),
    #[error("--probe-out needs a file")]
    NeedsFile,
    #[error("--python needs an interpreter")]
    NeedsPython,
    #[error("--probe-out is for --probe")]
    ProbeOutWithoutProbe,
    #[error("unknown worker argument `{0}`")]
    Unknown(String),
}

type Parsed = (Limits, Mode, Option<PathBuf>, Option<PathBuf>);

/// The limits, the mode, the probe's file and the interpreter from the command line.
fn parse(args: &[String]) -> Result<Parsed, ArgError> {
    let mut limits = Limits {
        heap_mb: 512,
        cpu_seconds: 3600,
    };
    let mut mode = Mode::Single;
    let mut probe_out = None;
    let mut python = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = || {
            args.next()
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(|| ArgError::NeedsNumber(arg.clone()))
        };
        match arg.as_str() {
            "--heap-mb" => limits.heap_mb = number()?,
            "--cpu-seconds" => limits.cpu_seconds = number()?,
            "--probe" => mode = Mode::Probe,
            "--template" => mode = Mode::Template,
            "--probe-out" => {
                let file = args.next().filter(|file| !file.is_empty());
                probe_out = Some(PathBuf::from(file.ok_or(ArgError::NeedsFile)?));
            }
            "--python" => {
                let named = args.next().filter(|python| !python.is_empty());
                python = Some(PathBuf::from(named.ok_or(ArgError::NeedsPython)?));
            }
            other => return Err(ArgError::Unknown(other.to_owned())),
        }
    }
    if probe_out.is_some() && mode != Mode::Probe {
        return Err(ArgError::ProbeOutWithoutProbe);
    }
    Ok((limits, mode, probe_out, python))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_gives_the_limits() {
        let args: Vec<String> = ["--heap-mb", "64", "--cpu-seconds", "5"]
            .map(String::from)
            .to_vec();
        let (limits, mode, probe_out, python) = parse(&args).unwrap();
        assert_eq!(
            (limits.heap_mb, limits.cpu_seconds, mode),
            (64, 5, Mode::Single)
        );
        assert_eq!((probe_out, python), (None, None));
        assert!(parse(&["--heap-mb".to_owned()]).is_err());
        assert!(parse(&["--shell".to_owned()]).is_err());
        assert_eq!(parse(&["--probe".to_owned()]).unwrap().1, Mode::Probe);
        assert_eq!(parse(&["--template".to_owned()]).unwrap().1, Mode::Template);
        let named = parse(&["--python".to_owned(), "/usr/bin/python3".to_owned()]).unwrap();
        assert_eq!(named.3, Some(PathBuf::from("/usr/bin/python3")));
        assert!(parse(&["--python".to_owned()]).is_err());
    }

    #[test]
    fn the_probe_may_write_its_result_to_a_file() {
        let args = |list: &[&str]| list.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
        let (_, mode, out, _) = parse(&args(&["--probe", "--probe-out", "p.json"])).unwrap();
        assert_eq!((mode, out), (Mode::Probe, Some(PathBuf::from("p.json"))));
        let err = |list: &[&str]| parse(&args(list)).unwrap_err().to_string();
        assert_eq!(
            err(&["--probe-out", "p.json"]),
            "--probe-out is for --probe"
        );
        assert_eq!(err(&["--probe", "--probe-out"]), "--probe-out needs a file");
        assert_eq!(
            err(&["--template", "--probe-out", "p"]),
            "--probe-out is for --probe"
        );
    }
}
