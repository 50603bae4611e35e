//! The stdio transport's guard: a line filter between the process's standard streams and
//! rmcp, so that a line that is not JSON (`-32700 Parse error`) or not a JSON-RPC 2.0
//! message (`-32600 Invalid Request`) is answered with a JSON-RPC error instead of being
//! dropped silently, and standard output stays whole protocol lines (the one writer
//! interleaves rmcp's messages and these errors line by line).
//!
//! This module owns the framing of standard input and output; it must not interpret
//! valid messages (rmcp does).

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::envelope;

/// The size of the in-process pipes between the filter and rmcp.
const PIPE_BYTES: usize = 1 << 20;

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
