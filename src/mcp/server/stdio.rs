//! The stdio transport's guard: a line filter between the process's standard streams and
//! rmcp, so that a line that is not JSON (`-32700 Parse error`) or not a JSON-RPC 2.0
//! message (`-32600 Invalid Request`) is answered with a JSON-RPC error instead of being
//! dropped silently, and standard output stays whole protocol lines (the one writer
//! interleaves rmcp's messages and these errors line by line).
//!
//! This module owns the framing of standard input and output; it must not interpret
//! valid messages (rmcp does).

use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::FileTypeExt;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::envelope;

/// The size of the in-process pipes between the filter and rmcp.
const PIPE_BYTES: usize = 1 << 20;

/// The process's standard input as an async reader. A pipe or a Unix socket (what MCP
/// clients connect a server with) is read through the reactor, so a request reaches rmcp
/// without a hand-off to tokio's blocking pool and back; anything else (a terminal, a
/// file) is read by tokio's `stdin`, on its blocking pool. The pipe or socket is put in
/// non-blocking mode, which its other holders in this process share: nothing else here
/// reads standard input.
pub(crate) fn standard_input() -> Box<dyn AsyncRead + Unpin + Send> {
    standard_stream::<dyn AsyncRead + Unpin + Send>(
        std::io::stdin().as_fd(),
        "input",
        |file| Ok(Box::new(pipe::Receiver::from_file(file)?)),
        |socket| Box::new(socket),
        || Box::new(tokio::io::stdin()),
    )
}

/// The process's standard output as an async writer, as [`standard_input`]: a pipe or Unix
/// socket is written through the reactor, anything else by tokio's `stdout`. Once it is in
/// non-blocking mode, nothing else may write standard output directly (the protocol owns
/// it anyway: logs go to standard error).
pub(crate) fn standard_output() -> Box<dyn AsyncWrite + Unpin + Send> {
    standard_stream::<dyn AsyncWrite + Unpin + Send>(
        std::io::stdout().as_fd(),
        "output",
        |file| Ok(Box::new(pipe::Sender::from_file(file)?)),
        |socket| Box::new(socket),
        || Box::new(tokio::io::stdout()),
    )
}

/// The stream over `fd`: through the reactor as a pipe or a socket when it is one, else the
/// blocking-pool stream.
fn standard_stream<T: ?Sized>(
    fd: BorrowedFd<'_>,
    name: &str,
    pipe: impl FnOnce(std::fs::File) -> std::io::Result<Box<T>>,
    socket: impl FnOnce(tokio::net::UnixStream) -> Box<T>,
    blocking: impl FnOnce() -> Box<T>,
) -> Box<T> {
    match reactor_stream(fd) {
        Some(Stream::Pipe(file)) => match pipe(file) {
            Ok(stream) => return stream,
            Err(err) => tracing::debug!(%err, "standard {name} falls back to the blocking pool"),
        },
        Some(Stream::Socket(stream)) => return socket(stream),
        None => {}
    }
    blocking()
}

/// A standard stream the reactor can drive.
enum Stream {
    Pipe(std::fs::File),
    Socket(tokio::net::UnixStream),
}

/// A duplicate of `fd` if it is a pipe or a Unix socket (registered with the reactor), or
/// `None` for anything else and on any failure (the caller uses tokio's blocking streams).
fn reactor_stream(fd: BorrowedFd<'_>) -> Option<Stream> {
    let owned = fd.try_clone_to_owned().ok()?;
    let file = std::fs::File::from(owned);
    let kind = file.metadata().ok()?.file_type();
    if kind.is_fifo() {
        return Some(Stream::Pipe(file));
    }
    if kind.is_socket() {
        let socket = std::os::unix::net::UnixStream::from(std::os::fd::OwnedFd::from(file));
        socket.set_nonblocking(true).ok()?;
        return tokio::net::UnixStream::from_std(socket)
            .ok()
            .map(Stream::Socket);
    }
    None
}

/// The error answering a line that is not a JSON-RPC message, if it is not one.
pub(crate) fn line_error(line: &str) -> Option<Value> {
    if line.trim().is_empty() {
        return None;
    }
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(err) => {
            return Some(envelope::error(
                Value::Null,
                envelope::PARSE_ERROR,
                format!("Parse error: {err}; expected one JSON-RPC 2.0 message object per line"),
            ));
        }
    };
    let (id, reason) = envelope::problem(&value)?;
    Some(envelope::error(
        id,
        envelope::INVALID_REQUEST,
        format!("Invalid Request: {reason}; expected one JSON-RPC 2.0 message object per line"),
    ))
}

/// Starts the filter over `input` and `output`; returns the streams rmcp reads from and
/// writes to, and the writer task (it ends once rmcp closed its output and every line is
/// written: await it before exiting). rmcp sees the end of its input when `input` ends.
pub(crate) fn filter<I, O>(input: I, output: O) -> (DuplexStream, DuplexStream, JoinHandle<()>)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_reads, mut to_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (from_rmcp, rmcp_writes) = tokio::io::duplex(PIPE_BYTES);
    let (errors, mut error_lines) = mpsc::unbounded_channel::<String>();

    tokio::spawn(async move {
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

    (rmcp_reads, rmcp_writes, writer)
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
}
