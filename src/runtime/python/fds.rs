//! Descriptors between the template worker and the host: `SOCK_SEQPACKET` unix sockets
//! where one message is one JSON frame, optionally carrying descriptors (`SCM_RIGHTS`), and
//! waiting for a descriptor to become readable. The template (its side is `bootstrap.py`'s:
//! `socket.send_fds`) hands each forked worker's descriptors to the host this way; this is the
//! host's side. Every call is rustix's safe wrapper.
//!
//! This module owns the system calls of that exchange; it must not interpret the frames.

use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::net::{
    AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, ReturnFlags,
    SendAncillaryBuffer, SendAncillaryMessage, SendFlags, SocketFlags, SocketType, recvmsg,
    sendmsg, socketpair,
};

/// The most descriptors one message carries.
const MAX_FDS: usize = 4;

/// A connected pair of unix sockets of `kind` (close-on-exec).
fn pair(kind: SocketType) -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(socketpair(
        AddressFamily::UNIX,
        kind,
        SocketFlags::CLOEXEC,
        None,
    )?)
}

/// A connected pair of `SOCK_SEQPACKET` sockets (close-on-exec): one message, one frame.
pub(crate) fn seqpacket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    pair(SocketType::SEQPACKET)
}

/// Retries `call` while it is interrupted by a signal.
fn restarting<T>(mut call: impl FnMut() -> rustix::io::Result<T>) -> io::Result<T> {
    loop {
        match call() {
            Err(Errno::INTR) => {}
            done => return Ok(done?),
        }
    }
}

/// Sends `body` as one message with `fds` attached.
pub(crate) fn send(socket: impl AsFd, body: &[u8], fds: &[BorrowedFd<'_>]) -> io::Result<()> {
    if fds.len() > MAX_FDS {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("no room for the descriptors"));
    }
    let body = [io::IoSlice::new(body)];
    restarting(|| sendmsg(socket.as_fd(), &body, &mut control, SendFlags::NOSIGNAL))?;
    Ok(())
}

/// Receives one message of at most `max` bytes and the descriptors it carries (each new,
/// owned by the caller alone, close-on-exec). An empty body means the peer closed the
/// socket.
pub(crate) fn recv(socket: impl AsFd, max: usize) -> io::Result<(Vec<u8>, Vec<OwnedFd>)> {
    let mut body = vec![0u8; max];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let received = {
        let mut iov = [io::IoSliceMut::new(&mut body)];
        restarting(|| {
            recvmsg(
                socket.as_fd(),
                &mut iov,
                &mut control,
                RecvFlags::CMSG_CLOEXEC,
            )
        })?
    };
    let fds: Vec<OwnedFd> = control
        .drain()
        .filter_map(|message| match message {
            RecvAncillaryMessage::ScmRights(fds) => Some(fds),
            _ => None,
        })
        .flatten()
        .collect();
    if received.flags.contains(ReturnFlags::TRUNC) {
        return Err(io::Error::other("a message longer than the cap"));
    }
    body.truncate(received.bytes);
    Ok((body, fds))
}

/// Waits until `fd` is readable (or its peer hung up), at most `timeout`.
pub(crate) fn readable(fd: impl AsFd, timeout: Duration) -> bool {
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    // A timeout too long for a timespec waits without one.
    let timeout = Timespec::try_from(timeout).ok();
    matches!(poll(&mut fds, timeout.as_ref()), Ok(n) if n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_carries_its_descriptors() {
        let (a, b) = seqpacket_pair().unwrap();
        let (pipe_read, pipe_write) = rustix::pipe::pipe().unwrap();
        send(&a, br#"{"t":"spawned","pid":7}"#, &[pipe_read.as_fd()]).unwrap();
        drop(pipe_read);
        assert!(readable(&b, Duration::from_secs(5)));
        let (body, fds) = recv(&b, 1024).unwrap();
        assert_eq!(body, br#"{"t":"spawned","pid":7}"#);
        assert_eq!(fds.len(), 1);
        // The received descriptor is the pipe's read end: what is written arrives.
        let mut writer = std::fs::File::from(pipe_write);
        std::io::Write::write_all(&mut writer, b"x").unwrap();
        let mut reader = std::fs::File::from(fds.into_iter().next().unwrap());
        let mut byte = [0u8; 1];
        std::io::Read::read_exact(&mut reader, &mut byte).unwrap();
        assert_eq!(&byte, b"x");
        drop(a);
        assert!(recv(&b, 1024).unwrap().0.is_empty(), "closed");
    }

    #[test]
    fn a_message_longer_than_the_cap_is_refused_and_nothing_is_ready_on_a_quiet_socket() {
        let (a, b) = seqpacket_pair().unwrap();
        assert!(!readable(&b, Duration::ZERO));
        send(&a, &[b'x'; 64], &[]).unwrap();
        assert!(recv(&b, 16).is_err());
    }
}
