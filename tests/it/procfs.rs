//! What the kernel says about a process's memory and CPU time: shared by the tests (this
//! binary) and the benches (`benches/main.rs` includes this file).
#![allow(dead_code, reason = "each includer uses its own part")]

use std::time::Duration;

/// This process's resident memory now (`statm`), in bytes.
pub fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// This process's peak resident memory (`VmHWM` of /proc/self/status), in bytes.
pub fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map(|kib| kib << 10)
        .unwrap_or(0)
}

/// The CPU time (user and system, every thread, exited ones included) of process `pid`,
/// from /proc/<pid>/stat, at the clock-tick resolution.
pub fn cpu_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may hold spaces): utime is the 12th, stime
    // the 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|field| field.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // SAFETY: sysconf only reads a system constant.
    let hz = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .unwrap_or(100)
        .max(1);
    Duration::from_millis((ticks(11) + ticks(12)) * 1000 / hz)
}

fn clock(id: libc::clockid_t) -> Duration {
    let mut spec = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `spec` is a valid, writable timespec for the duration of the call.
    if unsafe { libc::clock_gettime(id, &mut spec) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(spec.tv_sec).unwrap_or(0),
        u32::try_from(spec.tv_nsec).unwrap_or(0),
    )
}

/// CPU time the calling thread has used.
pub fn thread_cpu() -> Duration {
    clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time this process has used (every thread).
pub fn process_cpu() -> Duration {
    clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}
