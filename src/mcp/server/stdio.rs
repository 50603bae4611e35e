//! The stdio transport's guard: a line filter between the process's standard streams and
//! rmcp, so that a line that is not JSON (`-32700 Parse error`) or not a JSON-RPC 2.0
//! message (`-32600 Invalid Request`) is answered with a JSON-RPC error instead of being
//! dropped silently, and standard output stays whole protocol lines (the one writer
//! interleaves rmcp's messages and these errors line by line).
//!
//! This module owns the framing of standard input and output; it must not interpret
//! valid messages (rmcp does).

use std::ffi::c_int;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::os::unix::fs::FileTypeExt;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::envelope;

/// The size of the in-process pipes between the filter and rmcp.
const PIPE_BYTES: usize = 1 << 20;

/// The process's standard input and output as async streams, and the guard that puts their
/// descriptors' flags back.
///
/// A pipe or a Unix socket (what MCP clients connect a server with) is driven by the
/// reactor, so a message reaches rmcp without a hand-off to tokio's blocking pool and back;
/// anything else (a terminal, a file) goes through tokio's `stdin`/`stdout`, on the blocking
/// pool. A reactor stream is in non-blocking mode, which every holder of the same open file
/// shares (a library caller printing to standard output, a `2>&1` standard error): the
/// guard restores the original flags when dropped (drop it once the streams are gone), and
/// a stream that could not be registered falls back with its flags restored at once.
pub(crate) fn standard_streams() -> StandardStreams {
    let restore = FlagsGuard {
        saved: [libc::STDIN_FILENO, libc::STDOUT_FILENO].map(|fd| (fd, status_flags(fd))),
    };
    let [(_, input_flags), (_, output_flags)] = restore.saved;
    let input = standard_stream::<dyn AsyncRead + Unpin + Send>(
        std::io::stdin().as_fd(),
        input_flags,
        "input",
        |file| Ok(Box::new(pipe::Receiver::from_file(file)?)),
        |socket| Box::new(socket),
        || Box::new(tokio::io::stdin()),
    );
    let output = standard_stream::<dyn AsyncWrite + Unpin + Send>(
        std::io::stdout().as_fd(),
        output_flags,
        "output",
        |file| Ok(Box::new(pipe::Sender::from_file(file)?)),
        |socket| Box::new(socket),
        || Box::new(tokio::io::stdout()),
    );
    StandardStreams {
        input,
        output,
        restore,
    }
}

/// See [`standard_streams`].
pub(crate) struct StandardStreams {
    pub(crate) input: Box<dyn AsyncRead + Unpin + Send>,
    pub(crate) output: Box<dyn AsyncWrite + Unpin + Send>,
    pub(crate) restore: FlagsGuard,
}

/// Puts back the status flags standard input and output had (`O_NONBLOCK` above all).
pub(crate) struct FlagsGuard {
    saved: [(RawFd, Option<c_int>); 2],
}

impl Drop for FlagsGuard {
    fn drop(&mut self) {
        for (fd, flags) in self.saved {
            if let Some(flags) = flags {
                set_status_flags(fd, flags);
            }
        }
    }
}

/// The status flags of `fd` (`F_GETFL`), if it is open.
fn status_flags(fd: RawFd) -> Option<c_int> {
    // SAFETY: F_GETFL takes no argument and only reads the flags of the descriptor; an
    // invalid descriptor gives -1 (EBADF), which is handled.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    (flags >= 0).then_some(flags)
}

/// Sets the status flags of `fd` (`F_SETFL`); a failure leaves them as they are.
fn set_status_flags(fd: RawFd, flags: c_int) {
    // SAFETY: F_SETFL takes an int of flags and changes only the open file's status flags
    // (no memory is passed); an invalid descriptor gives -1, which changes nothing.
    let _ = unsafe { libc::fcntl(fd, libc::F_SETFL, flags) };
}

/// The stream over `fd`: through the reactor as a pipe or a socket when it is one, else the
/// blocking-pool stream (with `fd`'s flags put back to `flags`, what they were).
fn standard_stream<T: ?Sized>(
    fd: BorrowedFd<'_>,
    flags: Option<c_int>,
    name: &str,
    pipe: impl FnOnce(std::fs::File) -> std::io::Result<Box<T>>,
    socket: impl FnOnce(tokio::net::UnixStream) -> Box<T>,
    blocking: impl FnOnce() -> Box<T>,
) -> Box<T> {
    let failure = match reactor_stream(fd) {
        Ok(Stream::Pipe(file)) => match pipe(file) {
            Ok(stream) => return stream,
            Err(err) => Some(err),
        },
        Ok(Stream::Socket(socket_stream)) => return socket(socket_stream),
        Err(err) => err,
    };
    if let Some(err) = failure {
        tracing::debug!(%err, "standard {name} falls back to the blocking pool");
    }
    // Registering may have set O_NONBLOCK before it failed; the blocking stream needs it off.
    if let Some(flags) = flags {
        set_status_flags(fd.as_raw_fd(), flags);
    }
    blocking()
}

/// A standard stream the reactor can drive.
enum Stream {
    Pipe(std::fs::File),
    Socket(tokio::net::UnixStream),
}

/// A duplicate of `fd` if it is a pipe or a Unix socket (a socket registered with the
/// reactor); `Err(None)` for anything else, `Err(Some(why))` when it could not be made one.
fn reactor_stream(fd: BorrowedFd<'_>) -> Result<Stream, Option<std::io::Error>> {
    let file = std::fs::File::from(fd.try_clone_to_owned().map_err(Some)?);
    let kind = file.metadata().map_err(Some)?.file_type();
    if kind.is_fifo() {
        return Ok(Stream::Pipe(file));
    }
    if kind.is_socket() {
        let socket = std::os::unix::net::UnixStream::from(std::os::fd::OwnedFd::from(file));
        socket.set_nonblocking(true).map_err(Some)?;
        return tokio::net::UnixStream::from_std(socket)
            .map(Stream::Socket)
            .map_err(Some);
    }
    Err(None)
}

/// The error answering a line that is not a JSON-RPC message, if it is not one.
pub(crate) fn line_error(line: &str) -> Option<Value> {
    if line.trim().is_empty() || envelope::is_message_text(line) {
        return None;
    }
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(err) => {
            let message = match envelope::lone_surrogate(line.as_bytes(), &err) {
                Some(surrogate) => format!("Parse error: {surrogate}"),
                None => {
                    format!("Parse error: {err}; expected one JSON-RPC 2.0 message object per line")
                }
            };
            return Some(envelope::error(Value::Null, envelope::PARSE_ERROR, message));
        }
    };
    let (id, reason) = envelope::problem(&value)?;
    Some(envelope::error(
        id,
        envelope::INVALID_REQUEST,
        format!("Invalid Request: {reason}; expected one JSON-RPC 2.0 message object per line"),
    ))
}

/// Starts the filter over `input` and `output`: the streams rmcp reads from and writes to,
/// and the filter's tasks (await the writer before exiting; abort the reader once rmcp is
/// done). rmcp sees the end of its input when `input` ends.
pub(crate) fn filter<I, O>(input: I, output: O) -> Filter
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_reads, mut to_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (from_rmcp, rmcp_writes) = tokio::io::duplex(PIPE_BYTES);
    let (errors, mut error_lines) = mpsc::unbounded_channel::<String>();

    let reader = tokio::spawn(async move {
        let mut lines = BufReader::new(input).lines();
        loop {
            let line = match lines.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(err) => {
                    tracing::warn!(error = %err, "cannot read standard input");
                    break;
                }
            };
            if let Some(error) = line_error(&line) {
                tracing::warn!("answered a malformed line on standard input");
                if errors.send(error.to_string()).is_err() {
                    break;
                }
                continue;
            }
            let mut framed = line.into_bytes();
            framed.push(b'\n');
            if to_rmcp.write_all(&framed).await.is_err() {
                break;
            }
        }
        // Dropping `to_rmcp` ends rmcp's input.
    });

    let writer = tokio::spawn(async move {
        let mut output = output;
        let mut replies = BufReader::new(from_rmcp).lines();
        let mut errors_open = true;
        loop {
            let line = tokio::select! {
                reply = replies.next_line() => match reply {
                    Ok(Some(line)) => line,
                    _ => break,
                },
                error = error_lines.recv(), if errors_open => match error {
                    Some(line) => line,
                    None => { errors_open = false; continue; }
                },
            };
            let mut framed = line.into_bytes();
            framed.push(b'\n');
            if output.write_all(&framed).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });

    Filter {
        rmcp_reads,
        rmcp_writes,
        reader,
        writer,
    }
}

/// The filter's ends: what rmcp reads and writes, and its two tasks.
pub(crate) struct Filter {
    pub(crate) rmcp_reads: DuplexStream,
    pub(crate) rmcp_writes: DuplexStream,
    /// Reads standard input (ends at its end, or when aborted).
    pub(crate) reader: JoinHandle<()>,
    /// Writes standard output (ends once rmcp closed its output and every line is written).
    pub(crate) writer: JoinHandle<()>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_json_rpc_messages_get_errors() {
        assert_eq!(line_error(""), None);
        assert_eq!(
            line_error(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            None
        );
        assert_eq!(
            line_error(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            None
        );
        assert_eq!(
            line_error(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#),
            None
        );
        let parse = line_error("not json").unwrap_or_default();
        assert_eq!(parse["error"]["code"], -32700);
        assert_eq!(parse["id"], Value::Null);
        let invalid = line_error(r#"{"jsonrpc":"2.0","id":7,"params":{}}"#).unwrap_or_default();
        assert_eq!(invalid["error"]["code"], -32600);
        assert_eq!(invalid["id"], 7);
        let batch = line_error("[1, 2]").unwrap_or_default();
        assert_eq!(batch["error"]["code"], -32600);
        let bad_id = line_error(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#).unwrap_or_default();
        assert_eq!(bad_id["id"], Value::Null);
    }

    #[test]
    fn a_lone_surrogate_is_named_with_where_it_is() {
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"a\ud800b"}}"#;
        let error = line_error(line).unwrap_or_default();
        assert_eq!(error["error"]["code"], -32700);
        assert_eq!(
            error["error"]["message"],
            "Parse error: a lone surrogate is not allowed: a string at $.params.s (near line 1, column 60) has the escape \\ud800 without its pair, which no Unicode text holds; escape a character outside the Basic Multilingual Plane as a pair (\\ud83d\\ude00), or send it as UTF-8"
        );
        let key = line_error(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"\udc00":1}}"#)
            .unwrap_or_default();
        let message = key["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("Parse error: a lone surrogate is not allowed: a key at $.params"),
            "{message}"
        );
        assert!(message.contains("\\udc00 without its pair"), "{message}");
        // A pair is a character.
        let pair = r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\ud83d\ude00"}}"#;
        assert_eq!(line_error(pair), None);
    }
}
