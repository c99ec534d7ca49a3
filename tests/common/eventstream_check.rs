//! The event-stream frame check shared by the fuzz target
//! (`fuzz/fuzz_targets/eventstream.rs`), `tests/corpus_replay.rs` (which
//! replays `corpus/fuzz/eventstream/`) and `tests/eventstream.rs`, and the
//! small frame encoder they all trust: one definition of "correct", nothing
//! of it in the library.
//!
//! Input layout: byte 0 is a config byte (bits 0-2: how many chunk-size
//! bytes follow; bit 3: a 64-byte frame bound instead of the default), then
//! the chunk sizes (cycled; 0 feeds an empty chunk; none, or all zero, means
//! one byte at a time), then the stream.
#![allow(dead_code)]

use tooljson::eventstream::{Decoder, EventStreamError, Header, HeaderValue};

/// CRC-32 (ISO-HDLC, the one event-stream frames use), bit by bit: a
/// reference kept apart from the library's table-driven one.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// Appends one header in wire form.
pub fn encode_header(out: &mut Vec<u8>, header: &Header<'_>) {
    out.push(header.name.len() as u8);
    out.extend_from_slice(header.name.as_bytes());
    out.push(header.value.type_byte());
    match header.value {
        HeaderValue::Bool(_) => {}
        HeaderValue::Byte(v) => out.extend_from_slice(&v.to_be_bytes()),
        HeaderValue::Short(v) => out.extend_from_slice(&v.to_be_bytes()),
        HeaderValue::Int(v) => out.extend_from_slice(&v.to_be_bytes()),
        HeaderValue::Long(v) | HeaderValue::Timestamp(v) => out.extend_from_slice(&v.to_be_bytes()),
        HeaderValue::Bytes(b) => {
            out.extend_from_slice(&(b.len() as u16).to_be_bytes());
            out.extend_from_slice(b);
        }
        HeaderValue::String(s) => {
            out.extend_from_slice(&(s.len() as u16).to_be_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        HeaderValue::Uuid(u) => out.extend_from_slice(&u),
    }
}

/// A frame from a raw headers section and a payload, both CRCs right.
pub fn frame_from_raw(headers: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::new();
    let total = (16 + headers.len() + payload.len()) as u32;
    f.extend_from_slice(&total.to_be_bytes());
    f.extend_from_slice(&(headers.len() as u32).to_be_bytes());
    f.extend_from_slice(&crc32(&f).to_be_bytes());
    f.extend_from_slice(headers);
    f.extend_from_slice(payload);
    f.extend_from_slice(&crc32(&f).to_be_bytes());
    f
}

/// A frame with these headers and payload.
pub fn encode_frame<'a>(headers: impl IntoIterator<Item = Header<'a>>, payload: &[u8]) -> Vec<u8> {
    let mut raw = Vec::new();
    for h in headers {
        encode_header(&mut raw, &h);
    }
    frame_from_raw(&raw, payload)
}

/// A Bedrock-style event frame: `:event-type`, `:content-type` and
/// `:message-type` string headers and a payload.
pub fn event_frame(event_type: &str, payload: &[u8]) -> Vec<u8> {
    let s = |name, v| Header {
        name,
        value: HeaderValue::String(v),
    };
    encode_frame(
        [
            s(":event-type", event_type),
            s(":content-type", "application/json"),
            s(":message-type", "event"),
        ],
        payload,
    )
}

/// Byte ranges that cut `len` bytes into chunks of the given sizes, cycled
/// (a 0 is an empty chunk; none, or all zero, means one byte at a time).
pub fn chunk_ranges(len: usize, sizes: &[usize]) -> Vec<(usize, usize)> {
    let sizes: &[usize] = if sizes.iter().any(|&s| s > 0) {
        sizes
    } else {
        &[1]
    };
    let mut out = Vec::new();
    let (mut at, mut i) = (0, 0);
    while at < len {
        let end = (at + sizes[i % sizes.len()]).min(len);
        out.push((at, end));
        at = end;
        i += 1;
    }
    out
}

/// What one run gives: each frame as (offset, its bytes re-encoded from the
/// decoded headers and payload), then the end verdict.
pub type Run = (Vec<(u64, Vec<u8>)>, Result<(), EventStreamError>);

/// Decodes `doc` fed in `ranges`, then finishes.
pub fn run(doc: &[u8], ranges: &[(usize, usize)], max_frame: usize) -> Run {
    let mut d = Decoder::with_max_frame_bytes(max_frame);
    let mut frames = Vec::new();
    let mut on = |f: tooljson::eventstream::Frame<'_>| {
        frames.push((f.offset(), encode_frame(f.headers(), f.payload())));
    };
    for &(a, b) in ranges {
        if let Err(e) = d.feed(&doc[a..b], &mut on) {
            return (frames, Err(e));
        }
    }
    let end = d.finish();
    (frames, end)
}

/// The decoder on arbitrary bytes: no panic; frames and verdict do not
/// depend on the chunking; every frame re-encodes to exactly the bytes it
/// came from, the frames tile the input from byte 0, and an error names the
/// offset where the tiling stopped.
pub fn eventstream(input: &[u8]) {
    let config = input.first().copied().unwrap_or(0);
    let rest = input.get(1..).unwrap_or(&[]);
    let n = usize::from(config & 7).min(rest.len());
    let sizes: Vec<usize> = rest[..n].iter().map(|&b| usize::from(b)).collect();
    let doc = &rest[n..];
    let max_frame = if config & 8 != 0 {
        64
    } else {
        tooljson::eventstream::DEFAULT_MAX_FRAME_BYTES
    };
    let whole = run(doc, &[(0, doc.len())], max_frame);
    let ranges = chunk_ranges(doc.len(), &sizes);
    let split = run(doc, &ranges, max_frame);
    assert_eq!(whole, split, "frames depend on chunking ({ranges:?})");
    let (frames, verdict) = whole;
    let mut at = 0u64;
    for (offset, bytes) in &frames {
        assert_eq!(*offset, at, "frames do not tile the input");
        let end = at as usize + bytes.len();
        assert_eq!(
            &doc[at as usize..end],
            &bytes[..],
            "frame at {at} re-encodes differently"
        );
        at = end as u64;
    }
    match verdict {
        Ok(()) => assert_eq!(at, doc.len() as u64, "Ok but bytes left over"),
        Err(e) => assert_eq!(e.offset(), at, "error {e} names the wrong frame"),
    }
}
