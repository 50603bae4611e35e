//! Descriptor passing over a `SOCK_SEQPACKET` unix socket: one message is one JSON frame,
//! optionally carrying descriptors (`SCM_RIGHTS`). The template worker hands each forked
//! worker's descriptors to the host this way.
//!
//! This module owns the system calls of that exchange; it must not interpret the frames.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// The most descriptors one message carries.
const MAX_FDS: usize = 4;

/// A connected pair of `SOCK_SEQPACKET` sockets (close-on-exec).
pub(crate) fn seqpacket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `socketpair` writes two descriptors into the array we pass; on success we own
    // them and wrap each exactly once.
    let rc = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created by `socketpair` and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sends `body` as one message with `fds` attached.
pub(crate) fn send(socket: RawFd, body: &[u8], fds: &[RawFd]) -> io::Result<()> {
    if fds.len() > MAX_FDS {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    let mut iov = libc::iovec {
        iov_base: body.as_ptr() as *mut libc::c_void,
        iov_len: body.len(),
    };
    // SAFETY: CMSG_SPACE is a pure size computation.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of_val(fds) as u32) } as usize;
    let mut control = vec![0u8; space.max(1)];
    // SAFETY: a zeroed msghdr is a valid empty header; every pointer set below points into
    // buffers (`iov`, `control`, `fds`) that outlive the `sendmsg` call, and the lengths
    // match those buffers. CMSG_FIRSTHDR is non-null because `control` holds CMSG_SPACE
    // bytes for the descriptors.
    unsafe {
        let mut header: libc::msghdr = std::mem::zeroed();
        header.msg_iov = &mut iov;
        header.msg_iovlen = 1;
        if !fds.is_empty() {
            header.msg_control = control.as_mut_ptr() as *mut libc::c_void;
            header.msg_controllen = space;
            let cmsg = libc::CMSG_FIRSTHDR(&header);
            if cmsg.is_null() {
                return Err(io::Error::other("no room for the descriptors"));
            }
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of_val(fds) as u32) as usize;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr() as *const u8,
                libc::CMSG_DATA(cmsg),
                std::mem::size_of_val(fds),
            );
        }
        loop {
            let sent = libc::sendmsg(socket, &header, libc::MSG_NOSIGNAL);
            if sent >= 0 {
                return Ok(());
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }
}

/// Receives one message of at most `max` bytes and the descriptors it carries. An empty
/// body means the peer closed the socket.
pub(crate) fn recv(socket: &impl AsRawFd, max: usize) -> io::Result<(Vec<u8>, Vec<OwnedFd>)> {
    let mut body = vec![0u8; max];
    let mut iov = libc::iovec {
        iov_base: body.as_mut_ptr() as *mut libc::c_void,
        iov_len: body.len(),
    };
    // SAFETY: a pure size computation.
    let space =
        unsafe { libc::CMSG_SPACE((MAX_FDS * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut fds = Vec::new();
    // SAFETY: the header points into `iov`, `body` and `control`, which outlive the call;
    // after `recvmsg` the kernel wrote at most `msg_controllen` bytes of control data, which
    // the CMSG_* macros walk within; each descriptor received is new and owned by us alone,
    // so wrapping it in an `OwnedFd` once is sound (MSG_CMSG_CLOEXEC marks them
    // close-on-exec).
    let received = unsafe {
        let mut header: libc::msghdr = std::mem::zeroed();
        header.msg_iov = &mut iov;
        header.msg_iovlen = 1;
        header.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        header.msg_controllen = space;
        let received = loop {
            let n = libc::recvmsg(socket.as_raw_fd(), &mut header, libc::MSG_CMSG_CLOEXEC);
            if n >= 0 {
                break n as usize;
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err);
            }
        };
        let mut cmsg = libc::CMSG_FIRSTHDR(&header);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg);
                let bytes = (*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                let count = bytes / std::mem::size_of::<RawFd>();
                for index in 0..count {
                    let mut fd: RawFd = 0;
                    std::ptr::copy_nonoverlapping(
                        data.add(index * std::mem::size_of::<RawFd>()),
                        &mut fd as *mut RawFd as *mut u8,
                        std::mem::size_of::<RawFd>(),
                    );
                    fds.push(OwnedFd::from_raw_fd(fd));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&header, cmsg);
        }
        if header.msg_flags & libc::MSG_TRUNC != 0 {
            return Err(io::Error::other("a message longer than the cap"));
        }
        received
    };
    body.truncate(received);
    Ok((body, fds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_carries_its_descriptors() {
        let (a, b) = seqpacket_pair().unwrap();
        let (pipe_read, pipe_write) = {
            let mut fds = [0; 2];
            // SAFETY: `pipe` fills the two-element array.
            assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
            // SAFETY: fresh descriptors, owned here only.
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
        };
        send(
            a.as_raw_fd(),
            br#"{"t":"spawned","pid":7}"#,
            &[pipe_read.as_raw_fd()],
        )
        .unwrap();
        drop(pipe_read);
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
}
