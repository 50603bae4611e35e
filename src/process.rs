//! Child process groups: the one helper that ends everything a child started.
//!
//! Command tools and MCP stdio servers are spawned with `process_group(0)`, so the child
//! leads a process group of its own; [`kill_group`] sends that whole group `SIGKILL`.
//!
//! This module owns signalling process groups; it must not spawn anything.

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
