//! The frames between the host and a Python worker: a 4-byte little-endian length, then
//! that many bytes of one JSON object.
//!
//! Worker → host: `confined` (written by the worker after it confined itself), `ready`,
//! `call {id, ns, m, args}`, `log {s}`, `done {value? | error {kind, message}}`. Host →
//! worker: `run {program, namespaces}`, `ret {id, ok | err}`.
//!
//! The framing is tokio-util's [`LengthDelimitedCodec`] configured for exactly this wire
//! format, as a `Decoder` over the reader's `BytesMut` ([`FrameDecoder`]: the pipe reader
//! thread and the socket channel cut frames the same way) and an `Encoder` for the frames
//! the host and the worker write.
//!
//! Everything the worker sends is hostile input: a frame longer than the reader's cap
//! (refused from its head, before its body is read), a body that does not parse as one of
//! the frames below, or bytes that are not UTF-8 JSON end the worker (the caller kills it).
//! This module owns the codec and the frame shapes; it must not decide what a frame means
//! for a run, nor touch descriptors or processes.

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};
use tokio_util::bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder, LengthDelimitedCodec, LengthDelimitedCodecError};

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
    /// What the worker would have sent (a log, a call, the returned value) is over the
    /// frame cap of the run frame: the worker sends this instead, so a frame head over the
    /// cap is never the bridge's.
    Over {
        /// The length of the frame it did not send.
        bytes: u64,
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
    /// The members pass the list of their arguments and answer a list of at most one value
    /// ([`CallStyle::Positional`](crate::runtime::CallStyle::Positional)).
    pub positional: bool,
    /// The global is the one member itself
    /// ([`CallStyle::Function`](crate::runtime::CallStyle::Function)).
    pub callable: bool,
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
        /// The longest frame body the host reads: what is longer, the worker reports with
        /// an `over` frame instead of sending.
        #[serde(rename = "frameCap")]
        frame_cap: u64,
    },
    /// A call succeeded.
    #[serde(rename = "ret")]
    Ok { id: u64, ok: JsonValue },
    /// A call failed: why, and its stable code.
    #[serde(rename = "ret")]
    Err {
        id: u64,
        err: String,
        code: &'static str,
    },
}

/// The codec of the wire format: a 4-byte little-endian length (of the body alone: no
/// adjustment, no other header), then the body. Bodies longer than `max` are refused.
fn codec(max: usize) -> LengthDelimitedCodec {
    LengthDelimitedCodec::builder()
        .little_endian()
        .length_field_type::<u32>()
        .length_field_offset(0)
        .length_adjustment(0)
        .max_frame_length(max)
        .new_codec()
}

/// Appends `body` as one frame to `dst` (any length the 4-byte field holds).
fn encode_body(body: &[u8], dst: &mut BytesMut) -> io::Result<()> {
    codec(u32::MAX as usize).encode(body, dst)
}

/// Writes one frame.
pub(crate) fn write_frame(out: &mut impl Write, frame: &impl Serialize) -> io::Result<()> {
    let body = serde_json::to_vec(frame).map_err(io::Error::other)?;
    let mut whole = BytesMut::new();
    encode_body(&body, &mut whole)?;
    out.write_all(&whole)?;
    out.flush()
}

/// Appends one frame for the worker to `dst`. A result (`ret` with `ok`) may nest as deep
/// as the library's limit, so its text is written without recursion.
pub(crate) fn encode_to_worker(frame: &ToWorker, dst: &mut BytesMut) -> io::Result<()> {
    match frame {
        ToWorker::Ok { id, ok } => {
            let mut body = format!("{{\"t\":\"ret\",\"id\":{id},\"ok\":");
            crate::json::write_text(ok, &mut body);
            body.push('}');
            encode_body(body.as_bytes(), dst)
        }
        other => {
            let body = serde_json::to_vec(other).map_err(io::Error::other)?;
            encode_body(&body, dst)
        }
    }
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// The stream ended between frames.
    #[error("the stream ended")]
    Closed,
    /// Reading failed.
    #[error("reading failed: {0}")]
    Io(#[source] io::Error),
    /// A frame longer than the cap (the length it announced).
    #[error("a frame of {0} bytes is over the cap")]
    TooLong(u64),
    /// Bytes that are not one of the frames.
    #[error("a malformed frame: {0}")]
    Malformed(#[source] Malformed),
}

/// How a frame's body fails to be one of the frames.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Malformed {
    /// Not UTF-8.
    #[error(transparent)]
    Utf8(#[from] std::str::Utf8Error),
    /// Not lossless JSON within the depth limit.
    #[error(transparent)]
    Json(#[from] crate::json::NotLossless),
    /// JSON of another shape than the frame's.
    #[error(transparent)]
    Shape(#[from] serde_json::Error),
    /// Nested deeper than a frame's shape allows outside its values.
    #[error("a frame nests deeper than its shape allows outside its values")]
    TooDeep,
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

/// How many bytes one read asks for.
const READ_SIZE: usize = 64 * 1024;

/// The frames of one stream from a worker: [`LengthDelimitedCodec`] over the bytes read so
/// far (the caller's buffer), each body parsed as `T` within [`FrameLimits`].
#[derive(Debug)]
pub(crate) struct FrameDecoder {
    codec: LengthDelimitedCodec,
    depth: usize,
}

impl FrameDecoder {
    /// Frames within `limits`.
    pub(crate) fn new(limits: FrameLimits) -> Self {
        FrameDecoder {
            codec: codec(usize::try_from(limits.cap).unwrap_or(usize::MAX)),
            depth: limits.depth,
        }
    }

    /// The whole frame at the front of `inbox`, taken out of it, if one is there. After an
    /// error the stream is not in step any more: the caller stops reading it.
    pub(crate) fn take<T: Frame>(&mut self, inbox: &mut BytesMut) -> Option<Result<T, ReadError>> {
        match self.codec.decode(inbox) {
            Ok(Some(body)) => Some(decode(&body, self.depth)),
            Ok(None) => None,
            Err(err) => Some(Err(too_long(err, inbox))),
        }
    }

    /// Reads (blocking) until a whole frame is in `inbox`, and takes it.
    pub(crate) fn read<T: Frame>(
        &mut self,
        input: &mut impl Read,
        inbox: &mut BytesMut,
    ) -> Result<T, ReadError> {
        loop {
            if let Some(frame) = self.take(inbox) {
                return frame;
            }
            read_some(input, inbox)?;
        }
    }
}

/// Reads once from `input` into `inbox`; the end of the stream (with or without a partial
/// frame left in `inbox`) is [`ReadError::Closed`].
pub(crate) fn read_some(input: &mut impl Read, inbox: &mut BytesMut) -> Result<(), ReadError> {
    let mut chunk = [0u8; READ_SIZE];
    loop {
        match input.read(&mut chunk) {
            Ok(0) => return Err(ReadError::Closed),
            Ok(n) => {
                inbox.extend_from_slice(&chunk[..n]);
                return Ok(());
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(ReadError::Io(err)),
        }
    }
}

/// The codec's refusal of a frame over the cap, as [`ReadError::TooLong`] with the length
/// the refused head announced (still at the front of `inbox`: the codec does not consume a
/// head it refuses); any other error as it is.
fn too_long(err: io::Error, inbox: &BytesMut) -> ReadError {
    let over_cap = err
        .get_ref()
        .is_some_and(|inner| inner.is::<LengthDelimitedCodecError>());
    match inbox.get(..4) {
        Some(mut head) if over_cap => ReadError::TooLong(u64::from(head.get_u32_le())),
        _ => ReadError::Io(err),
    }
}

/// Reads one frame within `limits` and parses it as `T` (a stream of one frame: bytes
/// after it are dropped).
#[cfg(test)]
pub(crate) fn read_frame<T: Frame>(
    input: &mut impl Read,
    limits: FrameLimits,
) -> Result<T, ReadError> {
    FrameDecoder::new(limits).read(input, &mut BytesMut::new())
}

/// Parses a frame's body as `T`. The members that carry program values (`args` of a call,
/// `value` of `done`) may nest `depth` levels (the library's limit,
/// [`FrameLimits::depth`]): the body is parsed without recursion, those members are taken
/// out, the shallow rest is decoded by serde, and they are put back.
fn decode<T: Frame>(body: &[u8], depth: usize) -> Result<T, ReadError> {
    let malformed = |why: Malformed| ReadError::Malformed(why);
    let text = std::str::from_utf8(body).map_err(|err| malformed(err.into()))?;
    let mut value =
        crate::json::parse_lossless_within(text, depth + 1).map_err(|err| malformed(err.into()))?;
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
        return Err(malformed(Malformed::TooDeep));
    }
    let mut frame: T = match serde_json::from_value(value) {
        Ok(frame) => frame,
        Err(err) => {
            // The lifted values are freed without recursion on this path too.
            deep.into_iter()
                .for_each(|(_, member)| crate::json::dispose(member));
            return Err(malformed(err.into()));
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
    fn the_decoder_cuts_frames_from_any_split_of_the_stream_and_reports_an_oversized_length() {
        let mut stream = Vec::new();
        write_frame(&mut stream, &json!({"t": "log", "s": "a"})).unwrap();
        write_frame(&mut stream, &json!({"t": "ready"})).unwrap();
        for split in 0..=stream.len() {
            let mut decoder = FrameDecoder::new(limits(1024));
            let mut inbox = BytesMut::from(&stream[..split]);
            let mut frames = Vec::new();
            while let Some(frame) = decoder.take::<FromWorker>(&mut inbox) {
                frames.push(frame.unwrap());
            }
            inbox.extend_from_slice(&stream[split..]);
            while let Some(frame) = decoder.take::<FromWorker>(&mut inbox) {
                frames.push(frame.unwrap());
            }
            assert_eq!(
                frames,
                [FromWorker::Log { s: "a".into() }, FromWorker::Ready {}],
                "split at {split}"
            );
            assert!(inbox.is_empty());
        }
        // A head over the cap is refused before its body arrives, with its length.
        let mut inbox = BytesMut::from(&(1u32 << 30).to_le_bytes()[..]);
        assert!(matches!(
            FrameDecoder::new(limits(1024)).take::<FromWorker>(&mut inbox),
            Some(Err(ReadError::TooLong(1_073_741_824)))
        ));
        // Frames to the worker carry the same head.
        let mut out = BytesMut::new();
        encode_to_worker(
            &ToWorker::Err {
                id: 2,
                err: "no".into(),
                code: "TOOL_FAILED",
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(&out[..4], &(out.len() as u32 - 4).to_le_bytes());
        assert_eq!(
            &out[4..],
            br#"{"t":"ret","id":2,"err":"no","code":"TOOL_FAILED"}"#
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
