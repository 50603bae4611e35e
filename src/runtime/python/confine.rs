//! The worker's confinement, applied by the worker to itself after the interpreter is set
//! up and before the program arrives: rlimits, then Landlock, then seccomp.
//!
//! - rlimits: address space = what setup uses + the heap budget (`MemoryError` in the
//!   program), no file writes, no core dumps, few descriptors, a CPU backstop.
//! - Landlock, every access right handled and no rule added: no filesystem, no TCP bind or
//!   connect, no signals or abstract unix sockets outside the process.
//! - seccomp: an allowlist of the system calls a running interpreter needs; anything else
//!   fails with `EPERM` (the process lives, the program sees `PermissionError`). Not on the
//!   list: `open`/`openat`, `socket`, `connect`, `fork`/`clone`/`clone3`/`vfork`, `execve`,
//!   `kill` (only `tgkill` of this very process), `ptrace`. `ioctl` only as `FIONBIO`.
//!
//! Either layer alone leaves a hole (Landlock does not stop `fork` or threads; seccomp does
//! not scope signals or abstract sockets), so both are required; [`Confinement`] says what
//! was enforced and the host refuses runs on a partly confined worker unless told otherwise.
//! The rlimits and capabilities are set through rustix, Landlock through `landlock`, the
//! filter through `seccompiler`. This module owns the confinement and its report; it must
//! not run Python.

use std::collections::BTreeMap;

use rustix::process::{Resource, Rlimit};
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
}

/// The worker's limits, passed on its command line (its environment is empty).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The heap budget above what setup uses, in MiB.
    pub heap_mb: u64,
    /// The CPU backstop, in seconds (the host kills at the real budget long before).
    pub cpu_seconds: u64,
}

/// Applies every layer; failures are reported, not fatal (the host decides).
pub(crate) fn confine(limits: Limits) -> Confinement {
    let mut detail = Vec::new();
    let rlimits = match virtual_size().and_then(|base| rlimits(limits, base)) {
        Ok(()) => true,
        Err(err) => {
            detail.push(format!("rlimits: {err}"));
            false
        }
    };
    let landlock = match landlock() {
        Ok(level) => level,
        Err(err) => {
            detail.push(format!("landlock: {err}"));
            "none"
        }
    };
    finish(landlock, rlimits, detail)
}

/// Applies seccomp last and reports every layer.
fn finish(landlock: &str, rlimits: bool, mut detail: Vec<String>) -> Confinement {
    let seccomp = match seccomp() {
        Ok(()) => true,
        Err(err) => {
            detail.push(format!("seccomp: {err}"));
            false
        }
    };
    Confinement {
        landlock: landlock.to_owned(),
        seccomp,
        rlimits,
        detail: detail.join("; "),
    }
}

impl Confinement {
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

/// The template's part (a fork server): Landlock only, which its forked workers inherit.
/// Returns the level, what failed, and the template's virtual size measured before (a
/// forked worker cannot read `/proc` once landlocked; it starts at the template's size).
pub(crate) fn confine_template() -> (String, String, u64) {
    let base = virtual_size().unwrap_or(0);
    match landlock() {
        Ok(level) => (level.to_owned(), String::new(), base),
        Err(err) => ("none".to_owned(), format!("landlock: {err}"), base),
    }
}

/// Room a forked worker needs above the template's size before the program runs (its own
/// event loop, the program's compiled code).
const FORKED_SLACK: u64 = 32 * 1024 * 1024;

/// A forked worker's part: rlimits and seccomp (Landlock came from the template, at
/// `landlock`).
pub(crate) fn confine_forked(
    limits: Limits,
    landlock: &str,
    template_detail: &str,
    template_size: u64,
) -> Confinement {
    let mut detail = Vec::new();
    if !template_detail.is_empty() {
        detail.push(template_detail.to_owned());
    }
    // A domain of its own, nested in the template's: siblings cannot signal each other or
    // the template (Landlock scopes signals to the domain).
    let landlock = match self::landlock() {
        Ok("full") => landlock,
        Ok(level) => {
            detail.push(format!("landlock (own domain): {level}"));
            "partial"
        }
        Err(err) => {
            detail.push(format!("landlock (own domain): {err}"));
            "partial"
        }
    };
    let rlimits = if template_size == 0 {
        detail.push("rlimits: the template's size is unknown".to_owned());
        false
    } else {
        match rlimits(limits, template_size + FORKED_SLACK) {
            Ok(()) => true,
            Err(err) => {
                detail.push(format!("rlimits: {err}"));
                false
            }
        }
    };
    finish(landlock, rlimits, detail)
}

/// Sets `resource`'s soft and hard limit to `value`.
fn set_limit(resource: Resource, value: u64) -> std::io::Result<()> {
    let limit = Some(value);
    Ok(rustix::process::setrlimit(
        resource,
        Rlimit {
            current: limit,
            maximum: limit,
        },
    )?)
}

/// The process's virtual size now, from `/proc/self/statm` (pages).
fn virtual_size() -> std::io::Result<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm")?;
    let pages: u64 = statm
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| std::io::Error::other("unreadable /proc/self/statm"))?;
    let page = rustix::param::page_size();
    Ok(pages * u64::try_from(page).unwrap_or(4096))
}

/// The limits, the address space at `base` (what setup uses) plus the heap budget.
fn rlimits(limits: Limits, base: u64) -> std::io::Result<()> {
    let address_space = base + limits.heap_mb * 1024 * 1024;
    set_limit(Resource::As, address_space)?;
    set_limit(Resource::Fsize, 0)?;
    set_limit(Resource::Core, 0)?;
    set_limit(Resource::Nofile, 32)?;
    set_limit(Resource::Cpu, limits.cpu_seconds)?;
    Ok(())
}

fn landlock() -> Result<&'static str, landlock::RulesetError> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
        Scope,
    };
    let abi = ABI::V6;
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))?
        .handle_access(AccessNet::from_all(abi))?
        .scope(Scope::from_all(abi))?
        .create()?
        .no_new_privs(true)
        .restrict_self()?;
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => "full",
        RulesetStatus::PartiallyEnforced => "partial",
        _ => "none",
    })
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

/// Drops every capability (the host may run as root: a root worker would otherwise keep
/// CAP_SYS_RESOURCE, CAP_KILL and the rest).
fn drop_capabilities() -> std::io::Result<()> {
    use rustix::thread::{CapabilitySet, CapabilitySets};
    let none = CapabilitySet::empty();
    Ok(rustix::thread::set_capabilities(
        None,
        CapabilitySets {
            effective: none,
            permitted: none,
            inheritable: none,
        },
    )?)
}

/// Why the seccomp filter is not installed.
#[derive(Debug, thiserror::Error)]
enum SeccompError {
    /// The capabilities could not be dropped first.
    #[error("dropping capabilities: {0}")]
    Capabilities(#[source] std::io::Error),
    /// The filter could not be built.
    #[error(transparent)]
    Build(#[from] seccompiler::BackendError),
    /// The kernel refused it.
    #[error(transparent)]
    Apply(#[from] seccompiler::Error),
}

/// Installs the allowlist on every thread (capabilities dropped first).
fn seccomp() -> Result<(), SeccompError> {
    drop_capabilities().map_err(SeccompError::Capabilities)?;
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
    let pid = u64::try_from(rustix::process::getpid().as_raw_pid()).unwrap_or(0);
    rules.insert(libc::SYS_tgkill, vec![rule(vec![condition(0, pid)?])?]);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::EPERM as u32),
        SeccompAction::Allow,
        ARCH,
    )?;
    let program: BpfProgram = filter.try_into()?;
    seccompiler::apply_filter_all_threads(&program)?;
    Ok(())
}
