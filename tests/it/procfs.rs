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

/// The CPU time (user and system, every thread, exited ones included) of process `pid`, at
/// nanosecond resolution: the process's CPU-time clock (`clock_getcpuclockid`), read from
/// outside it. Zero if the process is gone or its clock cannot be read.
pub fn cpu_of(pid: u32) -> Duration {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return Duration::ZERO;
    };
    let mut id: libc::clockid_t = 0;
    // SAFETY: `id` is a valid, writable clockid_t for the duration of the call.
    if unsafe { libc::clock_getcpuclockid(pid, &mut id) } != 0 {
        return Duration::ZERO;
    }
    clock(id)
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
