//! The worker's confinement, as the host prepares it: the worker applies it to itself after
//! its interpreter is set up and before the program arrives — rlimits, then Landlock, then
//! seccomp — through the native primitive (`confine.c`, the `_codemode_confine` extension
//! module the launcher loads), which only makes the system calls with what is prepared here.
//!
//! - rlimits: address space = what setup uses + the heap budget (`MemoryError` in the
//!   program), no file writes, no core dumps, few descriptors, a CPU backstop. The worker
//!   measures its own size; the resources and values come from here ([`Setup`]) and the
//!   command line ([`Limits`]).
//! - Landlock, every access right handled and no rule added: no filesystem, no TCP bind or
//!   connect, no signals or abstract unix sockets outside the process. The ruleset attribute
//!   (`struct landlock_ruleset_attr`) is computed here for this kernel's ABI with the
//!   `landlock` crate's access sets, ABI 6 requested, as its `Ruleset` does in best-effort
//!   mode: the level is `full` when the kernel has every right asked for, `partial` when it
//!   has some, `none` when it has no Landlock.
//! - seccomp: an allowlist of the system calls a running interpreter needs, compiled here by
//!   `seccompiler`; anything else fails with `EPERM` (the process lives, the program sees
//!   `PermissionError`). Not on the list: `open`/`openat`, `socket`, `connect`,
//!   `fork`/`clone`/`clone3`/`vfork`, `execve`, `kill` (only `tgkill` of this very process),
//!   `ptrace`. `ioctl` only as `FIONBIO`. The one value only the worker knows, its pid (the
//!   `tgkill` rule), is found here as the instructions' slots ([`SeccompSetup::pid_slots`]) by
//!   compiling twice; the worker writes its pid there, so its filter is exactly what
//!   seccompiler compiles for that pid.
//!
//! Either layer alone leaves a hole (Landlock does not stop `fork` or threads; seccomp does
//! not scope signals or abstract sockets), so both are required; [`Confinement`] says what
//! the worker enforced and the host refuses runs on a partly confined worker unless told
//! otherwise. This module owns what the confinement is and its report; it must not run
//! Python (the worker's side is `bootstrap.py`'s, the system calls `confine.c`'s).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Serialize;

/// What was enforced, as the worker reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Confinement {
    /// Landlock: `full`, `partial` or `none`.
    pub landlock: String,
    /// Whether the seccomp filter is installed.
    pub seccomp: bool,
    /// Whether the rlimits (the heap budget above all) are set.
    pub rlimits: bool,
    /// What failed, if anything.
    pub detail: String,
}

impl Confinement {
    /// Every layer enforced.
    pub(crate) fn complete(&self) -> bool {
        self.landlock == "full" && self.seccomp && self.rlimits
    }

    /// Nothing enforced (what a worker is until it reports).
    pub(crate) fn none() -> Confinement {
        Confinement {
            landlock: "none".into(),
            seccomp: false,
            rlimits: false,
            detail: String::new(),
        }
    }
}

impl From<Confinement> for super::protocol::FromWorker {
    fn from(confinement: Confinement) -> Self {
        super::protocol::FromWorker::Confined {
            landlock: confinement.landlock,
            seccomp: confinement.seccomp,
            rlimits: confinement.rlimits,
            detail: confinement.detail,
        }
    }
}

/// The worker's limits, passed on its command line (its environment is empty).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The heap budget above what setup uses, in MiB.
    pub heap_mb: u64,
    /// The CPU backstop, in seconds (the host kills at the real budget long before).
    pub cpu_seconds: u64,
}

/// The most descriptors a confined worker may hold (`RLIMIT_NOFILE`).
const MAX_FILES: u64 = 32;

/// Room a forked worker needs above the template's size before the program runs (its own
/// event loop, the program's compiled code).
const FORKED_SLACK: u64 = 32 * 1024 * 1024;

/// Everything the worker needs to confine itself that does not depend on the engine's
/// budgets: the same for every worker of this process, handed over as JSON with the
/// bootstrap (see `launch`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Setup {
    landlock: LandlockSetup,
    seccomp: SeccompSetup,
    /// The resources: `as` is set to the worker's size + the heap budget, `fsize` and `core`
    /// to 0, `nofile` to `max_files`, `cpu` to the backstop.
    rlimits: Resources,
    max_files: u64,
    /// See [`FORKED_SLACK`].
    forked_slack: u64,
}

/// The rlimit resource numbers (the platform's).
#[derive(Debug, Clone, Serialize)]
struct Resources {
    #[serde(rename = "as")]
    address_space: i64,
    fsize: i64,
    core: i64,
    nofile: i64,
    cpu: i64,
}

/// Landlock for this kernel.
#[derive(Debug, Clone, Serialize)]
struct LandlockSetup {
    /// What enforcing `attr` gives: `full`, `partial` or `none` (then `attr` is empty and
    /// nothing is attempted).
    level: &'static str,
    /// `struct landlock_ruleset_attr`, hex.
    attr: String,
}

/// The seccomp filter.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SeccompSetup {
    /// The compiled filter (`struct sock_filter[]` in native byte order), hex; empty when it
    /// could not be compiled.
    filter: String,
    /// The instructions whose `k` the worker sets to its pid.
    pub(crate) pid_slots: Vec<usize>,
    /// Why there is no filter (then the worker reports seccomp off with this).
    error: String,
}

/// This process's [`Setup`], prepared once.
pub(crate) static SETUP: LazyLock<Setup> = LazyLock::new(|| Setup {
    landlock: landlock_setup(landlock_abi()),
    seccomp: seccomp_setup(),
    rlimits: Resources {
        address_space: libc::RLIMIT_AS as i64,
        fsize: libc::RLIMIT_FSIZE as i64,
        core: libc::RLIMIT_CORE as i64,
        nofile: libc::RLIMIT_NOFILE as i64,
        cpu: libc::RLIMIT_CPU as i64,
    },
    max_files: MAX_FILES,
    forked_slack: FORKED_SLACK,
});

/// The Landlock ABI of the running kernel (0 when it has none, or refuses the query).
fn landlock_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: `landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)` reads and
    // writes no memory (a null attribute of size 0 is what the version query takes); it
    // returns the ABI version or -1 with errno set. (rustix has no Landlock calls.)
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    i32::try_from(version).unwrap_or(0).max(0)
}

/// The ruleset attribute for a kernel of Landlock ABI `abi`: every access right of ABI 6
/// that the kernel knows (filesystem, network, scopes) handled, as the `landlock` crate's
/// best-effort `Ruleset` computes it.
fn landlock_setup(abi: i32) -> LandlockSetup {
    use landlock::{ABI, Access, AccessFs, AccessNet, Scope};
    let requested = ABI::V6;
    let kernel = ABI::from(abi);
    let fs = AccessFs::from_all(requested);
    let net = AccessNet::from_all(requested);
    let scope = Scope::from_all(requested);
    let (fs_now, net_now, scope_now) = (
        fs & AccessFs::from_all(kernel),
        net & AccessNet::from_all(kernel),
        scope & Scope::from_all(kernel),
    );
    let level = if fs_now.is_empty() {
        // No filesystem right at all: no Landlock (ABI 1 has them all but a few).
        "none"
    } else if fs_now == fs && net_now == net && scope_now == scope {
        "full"
    } else {
        "partial"
    };
    if level == "none" {
        return LandlockSetup {
            level,
            attr: String::new(),
        };
    }
    // struct landlock_ruleset_attr { __u64 handled_access_fs, handled_access_net, scoped; }:
    // a kernel of an older ABI reads a prefix and requires the rest to be zero, which it is.
    let mut attr = Vec::with_capacity(24);
    attr.extend_from_slice(&fs_now.bits().to_ne_bytes());
    attr.extend_from_slice(&net_now.bits().to_ne_bytes());
    attr.extend_from_slice(&scope_now.bits().to_ne_bytes());
    LandlockSetup {
        level,
        attr: hex(&attr),
    }
}

/// Lower-case hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
}

/// The filter's bytes, as the kernel takes them (`struct sock_filter[]`, native order).
fn filter_bytes(program: &[seccompiler::sock_filter]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(program.len() * 8);
    for instruction in program {
        bytes.extend_from_slice(&instruction.code.to_ne_bytes());
        bytes.push(instruction.jt);
        bytes.push(instruction.jf);
        bytes.extend_from_slice(&instruction.k.to_ne_bytes());
    }
    bytes
}

/// Two pids no worker has (above the kernel's pid limit, 2^22): compiled with each, the
/// filters differ exactly in the `tgkill` rule's pid.
const PID_MARKS: [u64; 2] = [0x3f00_0001, 0x3f00_0002];

/// Compiles the filter and finds where the worker's pid goes.
fn seccomp_setup() -> SeccompSetup {
    let failed = |error: String| SeccompSetup {
        filter: String::new(),
        pid_slots: Vec::new(),
        error,
    };
    let (first, second) = match (filter(PID_MARKS[0]), filter(PID_MARKS[1])) {
        (Ok(first), Ok(second)) => (first, second),
        (Err(err), _) | (_, Err(err)) => return failed(err.to_string()),
    };
    match pid_slots(&first, &second) {
        Some(pid_slots) => SeccompSetup {
            filter: hex(&filter_bytes(&first)),
            pid_slots,
            error: String::new(),
        },
        None => failed("the compiled filter does not take the pid as expected".to_owned()),
    }
}

/// The instructions where `first` (compiled for `PID_MARKS[0]`) and `second` (for
/// `PID_MARKS[1]`) differ, when they differ only in those instructions' `k`, by exactly the
/// two pids, and in at least one.
fn pid_slots(
    first: &[seccompiler::sock_filter],
    second: &[seccompiler::sock_filter],
) -> Option<Vec<usize>> {
    if first.len() != second.len() {
        return None;
    }
    let mut slots = Vec::new();
    for (index, (a, b)) in first.iter().zip(second).enumerate() {
        if (a.code, a.jt, a.jf, a.k) == (b.code, b.jt, b.jf, b.k) {
            continue;
        }
        let marks = (u64::from(a.k), u64::from(b.k));
        if (a.code, a.jt, a.jf) != (b.code, b.jt, b.jf) || marks != (PID_MARKS[0], PID_MARKS[1]) {
            return None;
        }
        slots.push(index);
    }
    (!slots.is_empty()).then_some(slots)
}

/// The system calls a confined interpreter may make, on every architecture.
const ALLOWED: &[i64] = &[
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_pread64,
    libc::SYS_close,
    libc::SYS_fstat,
    libc::SYS_lseek,
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_mprotect,
    libc::SYS_madvise,
    libc::SYS_brk,
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_sigaltstack,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_pwait,
    libc::SYS_ppoll,
    libc::SYS_pselect6,
    libc::SYS_recvfrom,
    libc::SYS_sendto,
    libc::SYS_recvmsg,
    libc::SYS_sendmsg,
    libc::SYS_futex,
    libc::SYS_getpid,
    libc::SYS_gettid,
    libc::SYS_getppid,
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    libc::SYS_nanosleep,
    libc::SYS_gettimeofday,
    libc::SYS_getrandom,
    libc::SYS_getrusage,
    libc::SYS_times,
    libc::SYS_uname,
    libc::SYS_getcwd,
    libc::SYS_sched_yield,
    libc::SYS_sysinfo,
    libc::SYS_restart_syscall,
    libc::SYS_exit,
    libc::SYS_exit_group,
];

/// The older calls x86_64 still has (aarch64 has only their successors above).
#[cfg(target_arch = "x86_64")]
const ALLOWED_LEGACY: &[i64] = &[
    libc::SYS_epoll_wait,
    libc::SYS_poll,
    libc::SYS_select,
    libc::SYS_getrlimit,
];
#[cfg(not(target_arch = "x86_64"))]
const ALLOWED_LEGACY: &[i64] = &[];

#[cfg(target_arch = "x86_64")]
const ARCH: seccompiler::TargetArch = seccompiler::TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: seccompiler::TargetArch = seccompiler::TargetArch::aarch64;

/// Why the seccomp filter cannot be compiled.
#[derive(Debug, thiserror::Error)]
enum SeccompError {
    /// The filter could not be built.
    #[error(transparent)]
    Build(#[from] seccompiler::BackendError),
    /// It could not be compiled.
    #[error(transparent)]
    Compile(#[from] seccompiler::Error),
}

/// The allowlist compiled for the worker of pid `pid`.
fn filter(pid: u64) -> Result<seccompiler::BpfProgram, SeccompError> {
    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule,
    };
    let condition = |index: u8, value: u64| {
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
    };
    let rule = SeccompRule::new;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = ALLOWED
        .iter()
        .chain(ALLOWED_LEGACY)
        .map(|&call| (call, Vec::new()))
        .collect();
    // `os.set_blocking` is `ioctl(fd, FIONBIO, ...)`; no other ioctl.
    rules.insert(
        libc::SYS_ioctl,
        vec![rule(vec![condition(1, libc::FIONBIO)?])?],
    );
    // fcntl: descriptor and status flags only. Not F_SETOWN/F_SETSIG (a signal to another
    // process without `kill`), F_SETLEASE, F_NOTIFY or locks.
    let fcntl_commands = [
        libc::F_GETFD,
        libc::F_SETFD,
        libc::F_GETFL,
        libc::F_SETFL,
        libc::F_DUPFD_CLOEXEC,
    ];
    rules.insert(
        libc::SYS_fcntl,
        fcntl_commands
            .iter()
            .map(|&command| rule(vec![condition(1, command as u64)?]))
            .collect::<Result<_, _>>()?,
    );
    // Metadata of descriptors the process holds only (`fstat` is `newfstatat(fd, "",
    // AT_EMPTY_PATH)` in glibc): a lookup by path (`os.stat("/etc/shadow")`, `/proc/1`)
    // would tell a host path's size, owner, mode and times, which Landlock (it governs
    // opening) does not cover. No other stat family call is allowed (statx, access,
    // readlink and the legacy stat calls fail with EPERM).
    rules.insert(
        libc::SYS_newfstatat,
        vec![rule(vec![
            SeccompCondition::new(
                3,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(libc::AT_EMPTY_PATH as u64),
                libc::AT_EMPTY_PATH as u64,
            )?,
            // Not relative to the working directory: a path there is a lookup too.
            SeccompCondition::new(
                0,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::Ne,
                libc::AT_FDCWD as u32 as u64,
            )?,
        ])?],
    );
    // Clocks of this process and the system's only: a negative id is another process's
    // CPU clock.
    let own_clock = |index: u8| {
        SeccompCondition::new(
            index,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Lt,
            0x8000_0000,
        )
    };
    for call in [
        libc::SYS_clock_gettime,
        libc::SYS_clock_getres,
        libc::SYS_clock_nanosleep,
    ] {
        rules.insert(call, vec![rule(vec![own_clock(0)?])?]);
    }
    // This process's own affinity and limits, read-only (a `prlimit64` on another pid, or
    // one that sets, would change someone else's limits or raise this one's).
    rules.insert(
        libc::SYS_sched_getaffinity,
        vec![rule(vec![condition(0, 0)?])?],
    );
    let null_new_limit = SeccompCondition::new(2, SeccompCmpArgLen::Qword, SeccompCmpOp::Eq, 0)?;
    rules.insert(
        libc::SYS_prlimit64,
        vec![rule(vec![condition(0, 0)?, null_new_limit])?],
    );
    // Signals only to this process (a soft stop by the interpreter's own handler).
    rules.insert(libc::SYS_tgkill, vec![rule(vec![condition(0, pid)?])?]);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::EPERM as u32),
        SeccompAction::Allow,
        ARCH,
    )?;
    let program: BpfProgram = filter.try_into()?;
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter with the worker's pid written into its slots, as the worker does.
    fn patched(pid: u32) -> Vec<u8> {
        let setup = seccomp_setup();
        assert!(setup.error.is_empty(), "{}", setup.error);
        let mut bytes: Vec<u8> = (0..setup.filter.len() / 2)
            .map(|i| u8::from_str_radix(&setup.filter[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        for slot in &setup.pid_slots {
            bytes[slot * 8 + 4..slot * 8 + 8].copy_from_slice(&pid.to_ne_bytes());
        }
        bytes
    }

    #[test]
    fn the_filter_with_a_pid_in_its_slots_is_what_seccompiler_compiles_for_that_pid() {
        assert_eq!(seccomp_setup().pid_slots.len(), 1, "the tgkill rule");
        for pid in [1u32, 2, 4242, 65_535, 4_194_304] {
            let compiled = filter_bytes(&filter(u64::from(pid)).unwrap());
            assert_eq!(patched(pid), compiled, "pid {pid}");
        }
    }

    #[test]
    fn the_landlock_level_follows_the_kernels_abi() {
        let level = |abi| landlock_setup(abi).level;
        assert_eq!(level(0), "none");
        assert_eq!(level(-1), "none");
        for abi in 1..=5 {
            assert_eq!(level(abi), "partial", "ABI {abi}");
        }
        assert_eq!(level(6), "full");
        assert_eq!(level(7), "full");
        assert!(landlock_setup(0).attr.is_empty());
        // ABI 6 and later: every filesystem right (16 bits), TCP bind and connect, both
        // scopes.
        let attr = landlock_setup(7).attr;
        let mut expected = Vec::new();
        expected.extend_from_slice(&0xffffu64.to_ne_bytes());
        expected.extend_from_slice(&3u64.to_ne_bytes());
        expected.extend_from_slice(&3u64.to_ne_bytes());
        assert_eq!(attr, hex(&expected));
        // ABI 3: the filesystem rights it has (no IOCTL_DEV), no network, no scopes.
        let mut expected = Vec::new();
        expected.extend_from_slice(&0x7fffu64.to_ne_bytes());
        expected.extend_from_slice(&[0; 16]);
        assert_eq!(landlock_setup(3).attr, hex(&expected));
    }
}
