//! The frames between the host and a Python worker: a 4-byte little-endian length, then
//! that many bytes of one JSON object.
//!
//! Worker → host: `confined` (written by the worker's Rust side after confinement), `ready`,
//! `call {id, ns, m, args}`, `log {s}`, `done {value? | error {kind, message}}`. Host →
//! worker: `run {program, namespaces}`, `ret {id, ok | err}`.
//!
//! Everything the worker sends is hostile input: a frame longer than the reader's cap, a
//! length that does not parse as one of the frames below, or bytes that are not UTF-8 JSON
//! end the worker (the caller kills it). This module owns the codec and the frame shapes; it
//! must not decide what a frame means for a run.

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};

use crate::json::JsonValue;

/// A frame the worker sends.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(tag = "t", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum FromWorker {
    /// The worker's confinement, as it was applied (sent once, before `ready`).
    Confined {
        /// Landlock: `full`, `partial` or `none`.
        landlock: String,
        /// Whether the seccomp filter is installed.
        seccomp: bool,
        /// Whether the rlimits are set.
        #[serde(default)]
        rlimits: bool,
        /// What failed, if anything.
        #[serde(default)]
        detail: String,
    },
    /// The worker is ready for its one program.
    Ready {},
    /// A binding call, at the moment the program made it.
    Call {
        /// 1, 2, 3, ... in submission order.
        id: u64,
        /// The namespace's index in the run frame.
        ns: usize,
        /// The member called.
        m: String,
        /// Its arguments.
        args: JsonValue,
    },
    /// One `print` (or line of standard output or error).
    Log {
        /// The text.
        s: String,
    },
    /// The template forked a worker: its pid; the frame carries the worker's descriptors
    /// (protocol socket, standard-error pipe, pidfd) as `SCM_RIGHTS`.
    Spawned {
        /// The worker's pid.
        pid: u32,
    },
    /// The program ended.
    Done {
        /// The returned value (absent: `None`).
        #[serde(default)]
        value: Option<JsonValue>,
        /// Why it failed, if it did.
        #[serde(default)]
        error: Option<DoneError>,
    },
}

/// The failure a worker reports.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DoneError {
    /// `exception` or `invalid-output` (the worker cannot claim the host's kinds).
    pub kind: String,
    /// The message.
    pub message: String,
}

/// One namespace as the worker sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct WireNamespace {
    pub global: String,
    pub error_class: String,
    pub member_property: String,
    pub members: Vec<String>,
}

/// A frame the host sends.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub(crate) enum ToWorker {
    /// The one program to run.
    Run {
        program: String,
        namespaces: Vec<WireNamespace>,
        /// How deep values may nest (`runtime.max_json_depth`).
        depth: usize,
        /// The most bytes of JSON one call's arguments may have (`runtime.max_call_bytes`).
        #[serde(rename = "callLimit")]
        call_limit: u64,
    },
    /// A call succeeded.
    #[serde(rename = "ret")]
    Ok { id: u64, ok: JsonValue },
    /// A call failed.
    #[serde(rename = "ret")]
    Err { id: u64, err: String },
}

/// Writes one frame.
pub(crate) fn write_frame(out: &mut impl Write, frame: &impl Serialize) -> io::Result<()> {
    let body = serde_json::to_vec(frame).map_err(io::Error::other)?;
    write_body(out, &body)
}

/// Writes one frame to the worker. A result (`ret` with `ok`) may nest as deep as the
/// library's limit, so its text is written without recursion.
pub(crate) fn write_to_worker(out: &mut impl Write, frame: &ToWorker) -> io::Result<()> {
    match frame {
        ToWorker::Ok { id, ok } => {
            let mut body = format!("{{\"t\":\"ret\",\"id\":{id},\"ok\":");
            crate::json::write_text(ok, &mut body);
            body.push('}');
            write_body(out, body.as_bytes())
        }
        other => write_frame(out, other),
    }
}

fn write_body(out: &mut impl Write, body: &[u8]) -> io::Result<()> {
    let length = u32::try_from(body.len())
        .map_err(|_| io::Error::other("a frame longer than 4 GiB"))?
        .to_le_bytes();
    let mut whole = Vec::with_capacity(body.len() + 4);
    whole.extend_from_slice(&length);
    whole.extend_from_slice(body);
    out.write_all(&whole)?;
    out.flush()
}

/// Why a frame could not be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The stream ended between frames.
    Closed,
    /// Reading failed.
    Io(io::Error),
    /// A frame longer than the cap.
    TooLong(u64),
    /// Bytes that are not one of the frames.
    Malformed(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Closed => f.write_str("the stream ended"),
            ReadError::Io(err) => write!(f, "reading failed: {err}"),
            ReadError::TooLong(n) => write!(f, "a frame of {n} bytes is over the cap"),
            ReadError::Malformed(why) => write!(f, "a malformed frame: {why}"),
        }
    }
}

/// What bounds the frames a worker sends: their length and how deep their values nest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameLimits {
    /// The most bytes one frame's body may have.
    pub cap: u64,
    /// The library's value-depth limit: the programs' `max_json_depth` plus
    /// [`WRAP_DEPTH`](crate::json::WRAP_DEPTH). A frame's values may nest this deep, its
    /// whole body one level more.
    pub depth: usize,
}

impl FrameLimits {
    /// Frames of at most `cap` bytes whose values nest at most `max_json_depth` levels
    /// (the programs' limit), plus the library's wrapping.
    pub(crate) fn new(cap: u64, max_json_depth: usize) -> Self {
        FrameLimits {
            cap,
            depth: max_json_depth + crate::json::WRAP_DEPTH,
        }
    }
}

/// Reads one frame within `limits` and parses it as `T`.
pub(crate) fn read_frame<T: Frame>(
    input: &mut impl Read,
    limits: FrameLimits,
) -> Result<T, ReadError> {
    let cap = limits.cap;
    let mut length = [0u8; 4];
    match input.read_exact(&mut length) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => return Err(ReadError::Closed),
        Err(err) => return Err(ReadError::Io(err)),
    }
    let length = u64::from(u32::from_le_bytes(length));
    if length > cap {
        return Err(ReadError::TooLong(length));
    }
    let mut body = Vec::new();
    input
        .take(length)
        .read_to_end(&mut body)
        .map_err(ReadError::Io)?;
    if body.len() as u64 != length {
        return Err(ReadError::Closed);
    }
    decode(&body, limits.depth)
}

/// Parses a frame's body as `T`. The members that carry program values (`args` of a call,
/// `value` of `done`) may nest `depth` levels (the library's limit,
/// [`FrameLimits::depth`]): the body is parsed without recursion, those members are taken
/// out, the shallow rest is decoded by serde, and they are put back.
pub(crate) fn decode<T: Frame>(body: &[u8], depth: usize) -> Result<T, ReadError> {
    let malformed = |why: String| ReadError::Malformed(why);
    let text = std::str::from_utf8(body).map_err(|err| malformed(err.to_string()))?;
    let mut value = crate::json::parse_lossless_within(text, depth + 1)
        .map_err(|err| malformed(err.to_string()))?;
    let mut deep = Vec::new();
    if let Some(members) = value.as_object_mut() {
        for key in T::DEEP_MEMBERS {
            if let Some(member) = members.get_mut(*key) {
                deep.push((*key, std::mem::take(member)));
            }
        }
    }
    // What is left is decoded by serde, which recurses (an internally tagged enum buffers
    // every member first): the rest of a frame is shallow, or the frame is refused.
    if crate::json::first_too_deep(&value, SHALLOW_DEPTH).is_some() {
        crate::json::dispose(value);
        deep.into_iter()
            .for_each(|(_, member)| crate::json::dispose(member));
        return Err(malformed(
            "a frame nests deeper than its shape allows outside its values".to_owned(),
        ));
    }
    let mut frame: T = match serde_json::from_value(value) {
        Ok(frame) => frame,
        Err(err) => {
            // The lifted values are freed without recursion on this path too.
            deep.into_iter()
                .for_each(|(_, member)| crate::json::dispose(member));
            return Err(malformed(err.to_string()));
        }
    };
    for (key, member) in deep {
        frame.restore(key, member);
    }
    Ok(frame)
}

/// How deep a frame may nest once its values are taken out (every frame shape is flat).
const SHALLOW_DEPTH: usize = 4;

/// A frame type [`decode`] reads: which members may be deep, and how they go back in.
pub(crate) trait Frame: serde::de::DeserializeOwned {
    /// The members that carry program values.
    const DEEP_MEMBERS: &'static [&'static str];

    /// Puts a deep member back after the shallow decode.
    fn restore(&mut self, key: &str, member: JsonValue);
}

impl Frame for FromWorker {
    const DEEP_MEMBERS: &'static [&'static str] = &["args", "value"];

    fn restore(&mut self, key: &str, member: JsonValue) {
        match (self, key) {
            (FromWorker::Call { args, .. }, "args") => *args = member,
            (FromWorker::Done { value, .. }, "value") => {
                *value = (!member.is_null()).then_some(member);
            }
            _ => crate::json::dispose(member),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The default limits' depth, with a cap of `cap` bytes.
    fn limits(cap: u64) -> FrameLimits {
        FrameLimits::new(cap, crate::json::DEFAULT_VALUE_DEPTH)
    }

    #[test]
    fn deep_values_decode_without_recursion_and_deep_junk_is_refused() {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let deep = "[".repeat(5_000) + &"]".repeat(5_000);
                let call = format!(r#"{{"t":"call","id":1,"ns":0,"m":"echo","args":{deep}}}"#);
                match decode::<FromWorker>(call.as_bytes(), limits(0).depth) {
                    Ok(FromWorker::Call { args, .. }) => crate::json::dispose(args),
                    other => panic!("{other:?}"),
                }
                // Deep junk, and deep values in a frame serde then refuses (an unknown
                // member, a bad id): refused, and freed without recursion.
                for junk in [
                    format!(r#"{{"t":"log","s":"x","z":{deep}}}"#),
                    format!(r#"{{"t":"log","s":"x","value":{deep}}}"#),
                    format!(r#"{{"t":"call","id":"x","ns":0,"m":"a","args":{deep}}}"#),
                ] {
                    assert!(matches!(
                        decode::<FromWorker>(junk.as_bytes(), limits(0).depth),
                        Err(ReadError::Malformed(_))
                    ));
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn frames_round_trip_and_the_wire_shape_is_the_documented_one() {
        let mut buffer = Vec::new();
        write_frame(
            &mut buffer,
            &ToWorker::Ok {
                id: 3,
                ok: json!([1]),
            },
        )
        .unwrap();
        assert_eq!(&buffer[..4], &(buffer.len() as u32 - 4).to_le_bytes());
        assert_eq!(&buffer[4..], br#"{"t":"ret","id":3,"ok":[1]}"#);
        let mut buffer = Vec::new();
        let call = br#"{"t":"call","id":1,"ns":0,"m":"read","args":{"p":"a"}}"#;
        buffer.extend_from_slice(&(call.len() as u32).to_le_bytes());
        buffer.extend_from_slice(call);
        let frame: FromWorker = read_frame(&mut buffer.as_slice(), limits(1 << 20)).unwrap();
        assert_eq!(
            frame,
            FromWorker::Call {
                id: 1,
                ns: 0,
                m: "read".into(),
                args: json!({"p": "a"})
            }
        );
    }

    #[test]
    fn hostile_frames_are_refused() {
        let frame = |body: &[u8]| {
            let mut buffer = (body.len() as u32).to_le_bytes().to_vec();
            buffer.extend_from_slice(body);
            read_frame::<FromWorker>(&mut buffer.as_slice(), limits(64))
        };
        assert!(matches!(
            frame(br#"{"t":"shell"}"#),
            Err(ReadError::Malformed(_))
        ));
        assert!(matches!(
            frame(br#"{"t":"log","s":"x","extra":1}"#),
            Err(ReadError::Malformed(_))
        ));
        assert!(matches!(frame(&[b'x'; 65]), Err(ReadError::TooLong(65))));
        assert!(matches!(frame(b"\xff\xfe"), Err(ReadError::Malformed(_))));
        // A length that promises more than the stream holds.
        let short = [10u8, 0, 0, 0, b'{'];
        assert!(matches!(
            read_frame::<FromWorker>(&mut short.as_slice(), limits(64)),
            Err(ReadError::Closed)
        ));
        assert!(matches!(
            read_frame::<FromWorker>(&mut [].as_slice(), limits(64)),
            Err(ReadError::Closed)
        ));
    }
}
