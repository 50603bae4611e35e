//! The CPU clock of an engine thread, readable from the watchdog thread.
//!
//! A program's compute budget is the CPU time its engine thread spends, so time the thread
//! sleeps (awaiting a binding, a timer) costs nothing. On Linux that is the thread's CPU-time
//! clock (`pthread_getcpuclockid`), read from another thread with `clock_gettime`. Where no
//! such clock exists, [`ThreadCpuClock::current`] returns `None` and the watchdog charges wall
//! time instead (stricter, never more lenient).
//!
//! This module owns the engine's only `unsafe` calls into the C library (the natives'
//! `unsafe` is the C signature of the engine's callbacks); it must not know about runs.

use std::time::Duration;

/// A handle to one thread's CPU-time clock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ThreadCpuClock {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    id: libc::clockid_t,
}

impl ThreadCpuClock {
    /// The CPU clock of the calling thread, if the platform has one.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(crate) fn current() -> Option<Self> {
        let mut id: libc::clockid_t = 0;
        // SAFETY: `pthread_self()` is the valid handle of the calling thread (it cannot have
        // exited while it runs this), and `&mut id` is a valid, exclusive pointer to a
        // `clockid_t` that the call fills; nothing else is read or written.
        let status = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
        (status == 0).then_some(ThreadCpuClock { id })
    }

    /// The CPU clock of the calling thread, if the platform has one.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(crate) fn current() -> Option<Self> {
        None
    }

    /// CPU time the thread has used since it started; `None` if the clock cannot be read
    /// (the thread has exited).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(crate) fn elapsed(&self) -> Option<Duration> {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `&mut now` is a valid, exclusive pointer to a `timespec` that the call only
        // writes. The clock id is a plain number: for a thread that has exited the kernel
        // answers EINVAL, which is handled below, so a stale id is never undefined behavior.
        let status = unsafe { libc::clock_gettime(self.id, &mut now) };
        if status != 0 {
            return None;
        }
        let seconds = u64::try_from(now.tv_sec).ok()?;
        let nanos = u32::try_from(now.tv_nsec).ok()?;
        Some(Duration::new(seconds, nanos))
    }

    /// CPU time the thread has used since it started.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(crate) fn elapsed(&self) -> Option<Duration> {
        None
    }
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use super::*;

    #[test]
    fn another_thread_reads_the_clock_while_it_spins() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            tx.send(ThreadCpuClock::current().unwrap()).unwrap();
            // Sleep first: sleeping costs no CPU.
            std::thread::sleep(Duration::from_millis(200));
            while done_rx.try_recv().is_err() {
                std::hint::spin_loop();
            }
        });
        let clock = rx.recv().unwrap();
        std::thread::sleep(Duration::from_millis(150));
        let asleep = clock.elapsed().unwrap();
        // The machine is shared: wait (up to 10 s) for the spinning thread to be charged.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut spinning = clock.elapsed().unwrap();
        while spinning < asleep + Duration::from_millis(100) && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(20));
            spinning = clock.elapsed().unwrap();
        }
        done_tx.send(()).unwrap();
        worker.join().unwrap();
        assert!(
            asleep < Duration::from_millis(50),
            "sleep was charged: {asleep:?}"
        );
        assert!(
            spinning >= asleep + Duration::from_millis(100),
            "spinning was not charged: {spinning:?}"
        );
    }
}
