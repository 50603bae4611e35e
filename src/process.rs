//! The platform room: how tool processes and workers start, how everything they started
//! ends (one by one, or all at once when the process stops: [`kill_every_group`]), how much
//! CPU a process has used, and giving the allocator's free memory back to the system.
//!
//! Command tools and MCP stdio servers start through [`piped`]: standard streams piped,
//! killed when the handle is dropped, and in a process group of their own
//! (`process_group(0)`), so that [`ProcessGroup::kill`] (or [`kill_group`]) ends the whole
//! group — `npx` starts `node`, a shell starts its pipeline. Worker processes (the Python
//! workers and their template) start through [`isolated`]: an empty environment, `/` as
//! their directory, a process group of their own, spawned from one long-lived thread so
//! that their parent-death signal fires only when the host ends. A process that is not our
//! child (a worker forked by the template) is signalled through its pidfd
//! ([`kill_pidfd`]). Every signal is sent through rustix's safe calls.
//!
//! This module owns starting processes, signalling them, reading their CPU clocks and
//! trimming the allocator; it must not read or write their streams, wait for them, or
//! decide when they end.

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
/// before its id was read). While the value lives, the group is among the process's live
/// groups, which [`kill_every_group`] ends (a server that stops leaves no tool process
/// behind); dropping it only forgets the group.
#[derive(Debug)]
pub(crate) struct ProcessGroup(Option<u32>);

/// The groups of every live [`ProcessGroup`].
static LIVE_GROUPS: std::sync::LazyLock<parking_lot::Mutex<std::collections::HashSet<u32>>> =
    std::sync::LazyLock::new(Default::default);

impl ProcessGroup {
    /// The group `pid` leads.
    pub(crate) fn led_by(pid: Option<u32>) -> Self {
        if let Some(pid) = pid {
            LIVE_GROUPS.lock().insert(pid);
        }
        Self(pid)
    }

    /// Kills the whole group; a group already gone is fine.
    pub(crate) fn kill(&self) {
        kill_group(self.0);
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if let Some(pid) = self.0 {
            LIVE_GROUPS.lock().remove(&pid);
        }
    }
}

/// Kills every process group a live [`ProcessGroup`] leads (command tools running, stdio
/// MCP servers): what a stopping server does last, so nothing it started outlives it.
/// Returns how many groups were signalled. (Only the command's `serve` calls it.)
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn kill_every_group() -> usize {
    let groups: Vec<u32> = LIVE_GROUPS.lock().iter().copied().collect();
    for pid in &groups {
        kill_group(Some(*pid));
    }
    groups.len()
}

/// Returns the allocator's free memory to the system (glibc keeps freed pages in its
/// arenas; `malloc_trim` releases every arena's free pages, not only the top of the heap).
/// Call it off any answer's path: it takes each arena's lock in turn.
pub(crate) fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointer and has no precondition; glibc takes each
    // arena's lock while it trims, so it is safe to call while other threads allocate.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Gives the allocator's free memory back to the system over the next half minute (after
/// 1, 2, 4, 8 and 16 seconds), on a thread of its own; a call meanwhile starts the sequence
/// again on that same thread. For memory freed on other threads after an answer (what a
/// spent run's pending calls held, released as their tasks end), which a trim right after
/// the run's teardown cannot see yet.
pub(crate) fn give_back_free_memory_soon() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    static RUNNING: AtomicBool = AtomicBool::new(false);
    static ASKED: AtomicU64 = AtomicU64::new(0);
    ASKED.fetch_add(1, Ordering::AcqRel);
    if RUNNING.swap(true, Ordering::AcqRel) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("codemode-trim".into())
        .spawn(|| {
            loop {
                let mut seen = ASKED.load(Ordering::Acquire);
                let mut delay = std::time::Duration::from_secs(1);
                while delay <= std::time::Duration::from_secs(16) {
                    std::thread::sleep(delay);
                    give_back_free_memory();
                    let now = ASKED.load(Ordering::Acquire);
                    if now != seen {
                        seen = now;
                        delay = std::time::Duration::from_secs(1);
                    } else {
                        delay *= 2;
                    }
                }
                RUNNING.store(false, Ordering::Release);
                // A call between the last check and the store above found the thread
                // still running: start again for it, unless another thread already did.
                if ASKED.load(Ordering::Acquire) == seen || RUNNING.swap(true, Ordering::AcqRel) {
                    break;
                }
            }
        });
    if spawned.is_err() {
        RUNNING.store(false, Ordering::Release);
    }
}

/// Kills the process group led by `pid` (a child spawned with `process_group(0)`). `None`,
/// a pid that does not fit (or is 0, which would name our own group), and a group that is
/// already gone do nothing.
pub(crate) fn kill_group(pid: Option<u32>) {
    #[cfg(unix)]
    {
        let group = pid
            .and_then(|pid| i32::try_from(pid).ok())
            .and_then(rustix::process::Pid::from_raw);
        if let Some(group) = group {
            // ESRCH (the group is gone) is fine to ignore.
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Kills the process `pidfd` refers to (alive or already dead: a pidfd never names a
/// reused pid). A process gone already is fine.
#[cfg(feature = "python")]
pub(crate) fn kill_pidfd(pidfd: impl std::os::fd::AsFd) {
    let _ = rustix::process::pidfd_send_signal(pidfd, rustix::process::Signal::KILL);
}

/// How a worker process starts: `program` with `args`, the standard streams given, the
/// descriptors `inherit` kept open across `exec` (in the child only: they stay close-on-exec
/// here), an empty environment, `/` as its directory, a process group of its own (killed
/// whole by [`kill_group`]), and `SIGKILL` when its parent thread ends
/// (`PR_SET_PDEATHSIG`, set before `exec`; it survives `exec`).
///
/// That signal follows the parent *thread*, so every worker is spawned from one long-lived
/// thread, never from the caller's thread (a refill thread, tokio's blocking pool): those
/// end, and would take their workers with them. A child whose parent is gone before the
/// signal was set (it is then re-parented) does not run.
///
/// # Errors
///
/// What spawning returned, or an error when the spawner thread could not start.
#[cfg(feature = "python")]
pub(crate) fn isolated(
    program: &Path,
    args: &[std::ffi::OsString],
    stdin: Stdio,
    stdout: Stdio,
    stderr: Stdio,
    inherit: &[std::os::fd::RawFd],
) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(program);
    command
        .args(args)
        .env_clear()
        .current_dir("/")
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0);
    let inherit = inherit.to_vec();
    let parent = std::process::id();
    let in_the_child = move || -> std::io::Result<()> {
        // SAFETY: this runs in the forked child before `exec`, where only async-signal-safe
        // calls may be made: `prctl`, `getppid` and `fcntl` are system calls that allocate
        // nothing (nor do the errors made here), and `inherit` was allocated before the fork (it is only read). Each
        // descriptor in it is one the parent keeps open for the whole spawn (the payload's
        // memfds live as long as the process), so `F_SETFD` acts on it and on nothing else;
        // clearing `FD_CLOEXEC` in the child's copy of the table leaves the parent's alone.
        unsafe {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died before the signal was set: this child was re-parented.
            if u32::try_from(libc::getppid()).ok() != Some(parent) {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            for &fd in &inherit {
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
        }
        Ok(())
    };
    // SAFETY: `in_the_child` is async-signal-safe (see inside): it only makes system calls.
    unsafe {
        command.pre_exec(in_the_child);
    }
    spawn_from_the_spawner(command)
}

/// Spawns `command` from the one long-lived spawner thread (see [`isolated`]).
#[cfg(feature = "python")]
fn spawn_from_the_spawner(command: std::process::Command) -> std::io::Result<std::process::Child> {
    use std::sync::mpsc;
    type Request = (
        std::process::Command,
        mpsc::Sender<std::io::Result<std::process::Child>>,
    );
    static SPAWNER: std::sync::LazyLock<Option<mpsc::Sender<Request>>> =
        std::sync::LazyLock::new(|| {
            let (tx, rx) = mpsc::channel::<Request>();
            std::thread::Builder::new()
                .name("codemode-spawner".into())
                .spawn(move || {
                    for (mut command, reply) in rx {
                        let _ = reply.send(command.spawn());
                    }
                })
                .ok()
                .map(|_| tx)
        });
    let gone = || std::io::Error::other("the spawner thread is gone");
    let Some(spawner) = SPAWNER.as_ref() else {
        return Err(std::io::Error::other("the spawner thread could not start"));
    };
    let (reply, answer) = mpsc::channel();
    spawner.send((command, reply)).map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

/// The CPU time process `pid` has used (all its threads), or `None` once it is gone (or
/// its clock cannot be read).
#[cfg(feature = "python")]
pub(crate) fn cpu_time(pid: u32) -> Option<std::time::Duration> {
    let pid = i32::try_from(pid).ok()?;
    let mut clock: libc::clockid_t = 0;
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both calls only write the out-parameters we pass, which are valid, aligned
    // locals that live across the calls; a pid that is gone makes them fail, which we
    // report as `None`. (rustix has no `clock_getcpuclockid`: this is the room's one
    // `unsafe`.)
    unsafe {
        if libc::clock_getcpuclockid(pid, &mut clock) != 0
            || libc::clock_gettime(clock, &mut now) != 0
        {
            return None;
        }
    }
    Some(std::time::Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    ))
}
