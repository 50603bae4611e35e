//! The platform room: how tool processes start, and how everything they started ends.
//!
//! Command tools and MCP stdio servers start through [`piped`]: standard streams piped,
//! killed when the handle is dropped, and in a process group of their own
//! (`process_group(0)`), so that [`ProcessGroup::kill`] (or [`kill_group`]) ends the whole
//! group — `npx` starts `node`, a shell starts its pipeline. Python workers start through
//! their own spawner (they need an empty environment and confinement set before `exec`) and
//! are ended here too.
//!
//! This module owns starting tool processes and signalling process groups; it must not read
//! or write their streams, wait for them, or decide when they end.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;

use tokio::process::Command;

/// How every tool process starts (command tools and stdio MCP servers): all three standard
/// streams piped, killed when the handle is dropped, and in its own process group, so that
/// killing the group ends everything it started.
pub(crate) fn piped(
    program: &str,
    args: &[String],
    cwd: &Path,
    env: &BTreeMap<String, String>,
) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(cwd)
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    command.process_group(0);
    command
}

/// The process group a child started by [`piped`] leads (its pid; `None` once it was reaped
/// before its id was read).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProcessGroup(Option<u32>);

impl ProcessGroup {
    /// The group `pid` leads.
    pub(crate) fn led_by(pid: Option<u32>) -> Self {
        Self(pid)
    }

    /// Kills the whole group; a group already gone is fine.
    pub(crate) fn kill(self) {
        kill_group(self.0);
    }
}

/// Kills the process group led by `pid` (a child spawned with `process_group(0)`). `None`,
/// a pid that does not fit, and a group that is already gone do nothing.
pub(crate) fn kill_group(pid: Option<u32>) {
    #[cfg(unix)]
    if let Some(pid) = pid.and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: `kill` only sends a signal; it takes plain integers and touches no memory
        // of ours. `-pid` names the process group the child leads (it was spawned with
        // `process_group(0)`), so no unrelated process is signalled; an already-gone
        // group makes it fail with ESRCH, which is fine to ignore.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}
