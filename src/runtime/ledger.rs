//! The output ledger of a run: its log lines and the bytes they would take in the result.
//!
//! Output is measured the way the result carries it: the JSON-serialized logs array plus the
//! value (or the failure message). A line that would push the logs over the cap is refused
//! and every later line with it, so the logs kept are always the prefix that fits.
//!
//! [`settle_output`] applies the cap to how a program ended; both engines use it, so their
//! output-limit texts are one.
//!
//! This module owns the accounting; it must not know about either engine.

use std::sync::Mutex;

use crate::json::JsonValue;
use crate::runtime::{CodeRunError, CodeRunErrorKind, CodeRunOutcome};

/// How a program ended, before the output ledger has its say.
#[derive(Debug)]
pub(crate) enum Ending {
    /// Settled with this value (`None`: undefined); `bytes` is its JSON text's size.
    Value {
        value: Option<JsonValue>,
        bytes: u64,
    },
    /// Settled with a value whose JSON text is longer than the ledger had left when it was
    /// checked (the check stops there, so the exact size is not known).
    Oversized,
    Failed(CodeRunError),
}

pub(crate) fn failed(kind: CodeRunErrorKind, message: impl Into<String>) -> Ending {
    Ending::Failed(CodeRunError::new(kind, message))
}

/// Applies the output cap: logs plus value (or failure message) must fit.
pub(crate) fn settle_output(ending: Ending, ledger: &Mutex<Ledger>) -> CodeRunOutcome {
    let mut ledger = ledger.lock().unwrap_or_else(|poison| poison.into_inner());
    let cap = ledger.cap();
    let over_cap = |what: &str| {
        CodeRunError::new(
            CodeRunErrorKind::OutputLimit,
            format!(
                "the output exceeded the cap of {cap} bytes ({what}); the logs that fit are kept: print less, or return a smaller value"
            ),
        )
    };
    let (value, error) = if ledger.overflowed() {
        (None, Some(over_cap("the logs alone")))
    } else {
        match ending {
            Ending::Value { value, bytes } if bytes <= ledger.remaining() => (value, None),
            Ending::Value { bytes, .. } => (
                None,
                Some(over_cap(&format!(
                    "logs plus a return value of {bytes} bytes"
                ))),
            ),
            Ending::Oversized => {
                let remaining = ledger.remaining();
                (
                    None,
                    Some(over_cap(&format!(
                        "logs plus a return value of more than {remaining} bytes"
                    ))),
                )
            }
            Ending::Failed(error) => {
                let bytes = json_string_len(&error.message);
                if bytes <= ledger.remaining() {
                    (None, Some(error))
                } else {
                    (
                        None,
                        Some(over_cap(&format!(
                            "logs plus a failure message of {bytes} bytes"
                        ))),
                    )
                }
            }
        }
    };
    CodeRunOutcome {
        value,
        logs: ledger.take_logs(),
        error,
    }
}

/// Log lines and their serialized size.
pub(crate) struct Ledger {
    logs: Vec<String>,
    /// Size of the logs serialized as a JSON array of strings (`[]` when empty).
    bytes: u64,
    cap: u64,
    overflowed: bool,
    on_line: Option<super::LineSink>,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("lines", &self.logs.len())
            .field("bytes", &self.bytes)
            .field("cap", &self.cap)
            .field("overflowed", &self.overflowed)
            .field("on_line", &self.on_line.is_some())
            .finish()
    }
}

impl Ledger {
    /// An empty ledger with a cap of `cap` bytes.
    pub(crate) fn new(cap: u64) -> Ledger {
        Ledger {
            logs: Vec::new(),
            bytes: 2,
            cap,
            overflowed: false,
            on_line: None,
        }
    }

    /// The same ledger, handing each line it records to `sink` too.
    pub(crate) fn with_sink(mut self, sink: Option<super::LineSink>) -> Ledger {
        self.on_line = sink;
        self
    }

    /// Records a line; `false` (and nothing recorded, now or later) once the logs would
    /// exceed the cap.
    pub(crate) fn push(&mut self, line: String) -> bool {
        if self.overflowed {
            return false;
        }
        let separator = u64::from(!self.logs.is_empty());
        let added = json_string_len(&line) + separator;
        if self.bytes + added > self.cap {
            self.overflowed = true;
            return false;
        }
        self.bytes += added;
        if let Some(sink) = &self.on_line {
            sink(&line);
        }
        self.logs.push(line);
        true
    }

    /// Whether a line was refused for the cap.
    pub(crate) fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Bytes left under the cap after the logs.
    pub(crate) fn remaining(&self) -> u64 {
        self.cap.saturating_sub(self.bytes)
    }

    /// The cap.
    pub(crate) fn cap(&self) -> u64 {
        self.cap
    }

    /// Takes the lines out.
    pub(crate) fn take_logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.logs)
    }
}

/// The length of `text` serialized as a JSON string by `serde_json` (quotes and escapes
/// included), computed without serializing it.
pub(crate) fn json_string_len(text: &str) -> u64 {
    let mut len = 2u64;
    for byte in text.bytes() {
        len += match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        };
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_lengths_match_serde_json() {
        for text in [
            "",
            "plain",
            "quote\"back\\slash",
            "line\nfeed\ttab",
            "\u{1}\u{1f}",
            "路径😀",
            "\u{7f}",
        ] {
            let serialized = serde_json::to_string(text).unwrap();
            assert_eq!(json_string_len(text), serialized.len() as u64, "{text:?}");
        }
    }

    #[test]
    fn the_ledger_measures_the_serialized_array() {
        let mut ledger = Ledger::new(1000);
        ledger.push("a".to_owned());
        ledger.push("b\n".to_owned());
        let logs = ledger.take_logs();
        let serialized = serde_json::to_string(&logs).unwrap();
        assert_eq!(ledger.remaining(), 1000 - serialized.len() as u64);
    }

    #[test]
    fn lines_past_the_cap_are_refused_and_the_prefix_is_kept() {
        let mut ledger = Ledger::new(20);
        assert!(ledger.push("12345".to_owned())); // ["12345"] = 9 bytes
        assert!(ledger.push("1234".to_owned())); // ,"1234" = 7 more: 16
        assert!(!ledger.push("1234".to_owned())); // would be 23
        assert!(!ledger.push("".to_owned())); // fits, but after a refusal nothing is kept
        assert!(ledger.overflowed());
        assert_eq!(ledger.take_logs(), ["12345", "1234"]);
    }

    #[test]
    fn an_oversized_value_says_more_than_what_was_left() {
        let ledger = Mutex::new(Ledger::new(10_000));
        let outcome = settle_output(Ending::Oversized, &ledger);
        let message = outcome.error.map(|error| error.message).unwrap_or_default();
        assert!(
            message.contains("a return value of more than 9998 bytes"),
            "{message}"
        );
        assert!(!message.contains(&u64::MAX.to_string()), "{message}");
    }
}
