//! A sans-IO decoder for AWS `application/vnd.amazon.eventstream` binary
//! frames (the body of Bedrock `ConverseStream`): bytes in, split anywhere,
//! checked frames out. No I/O, no clock.
//!
//! # The frame
//!
//! ```text
//! +-------------+--------------+-------------+---------+---------+-------------+
//! | total len   | headers len  | prelude CRC | headers | payload | message CRC |
//! | u32 BE      | u32 BE       | u32 BE      |         |         | u32 BE      |
//! +-------------+--------------+-------------+---------+---------+-------------+
//! ```
//!
//! The prelude CRC32 covers the first 8 bytes; the message CRC32 covers
//! everything before it (prelude and prelude CRC included). A header is a
//! name (1-byte length, 1 to 255 bytes of UTF-8), a type byte and a value:
//! `0` true, `1` false (no value bytes), `2` byte (i8), `3` short (i16 BE),
//! `4` int (i32 BE), `5` long (i64 BE), `6` bytes (u16 BE length, bytes),
//! `7` string (u16 BE length, UTF-8), `8` timestamp (i64 BE milliseconds
//! since the Unix epoch), `9` UUID (16 bytes). The payload is opaque here
//! (Bedrock sends JSON, named by the `:content-type` header).
//!
//! # Bounds (untrusted input)
//!
//! A frame may be at most [`Decoder::with_max_frame_bytes`] bytes long
//! (default [`DEFAULT_MAX_FRAME_BYTES`], 16 MiB, the service's own limit).
//! The bound is checked on the prelude, before any of the frame is held, so
//! the decoder never buffers more than one bounded frame. Work is linear in
//! the bytes fed: each byte is copied at most once (only a frame cut by a
//! chunk end is copied) and hashed once per CRC that covers it.
//!
//! # Errors
//!
//! Every error names the stream offset of the frame it is about
//! ([`EventStreamError::offset`]); after one, every call returns it again,
//! because a length field that cannot be trusted leaves no way to find the
//! next frame.
//!
//! # Advice for hackers
//!
//! The prelude CRC is checked before the lengths are believed: a corrupt
//! length would otherwise make the decoder wait for (or refuse) a frame that
//! does not exist. Whole frames inside a chunk are decoded straight from the
//! chunk; `buf` only ever holds the one frame a chunk end cut.
//!
//! # Examples
//!
//! ```
//! use tooljson::eventstream::{Decoder, HeaderValue};
//!
//! // One frame: a `:event-type` string header and a JSON payload.
//! let mut frame = Vec::new();
//! let header = b"\x0b:event-type\x07\x00\x0cmessageStart";
//! let payload = br#"{"role":"assistant"}"#;
//! let total = (12 + header.len() + payload.len() + 4) as u32;
//! frame.extend_from_slice(&total.to_be_bytes());
//! frame.extend_from_slice(&(header.len() as u32).to_be_bytes());
//! frame.extend_from_slice(&crc32fast::hash(&frame).to_be_bytes());
//! frame.extend_from_slice(header);
//! frame.extend_from_slice(payload);
//! frame.extend_from_slice(&crc32fast::hash(&frame).to_be_bytes());
//!
//! let mut decoder = Decoder::new();
//! let mut seen = Vec::new();
//! let (a, b) = frame.split_at(5); // cut inside the prelude
//! for chunk in [a, b] {
//!     decoder.feed(chunk, &mut |f| {
//!         seen.push((f.header_str(":event-type").map(str::to_owned), f.payload().to_vec()))
//!     })?;
//! }
//! decoder.finish()?; // nothing left half-way
//! assert_eq!(seen, [(Some("messageStart".to_owned()), payload.to_vec())]);
//! # Ok::<(), tooljson::eventstream::EventStreamError>(())
//! ```

use std::fmt;

/// The default bound on one frame: 16 MiB.
pub const DEFAULT_MAX_FRAME_BYTES: usize = 16 << 20;

/// Bytes of the prelude: total length, headers length, prelude CRC.
const PRELUDE_LEN: usize = 12;
/// The smallest frame: a prelude and a message CRC.
const MIN_FRAME_LEN: usize = PRELUDE_LEN + 4;

/// A typed header value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderValue<'a> {
    /// Types 0 (true) and 1 (false).
    Bool(bool),
    /// Type 2: a signed byte.
    Byte(i8),
    /// Type 3: a big-endian i16.
    Short(i16),
    /// Type 4: a big-endian i32.
    Int(i32),
    /// Type 5: a big-endian i64.
    Long(i64),
    /// Type 6: raw bytes.
    Bytes(&'a [u8]),
    /// Type 7: UTF-8 text.
    String(&'a str),
    /// Type 8: milliseconds since the Unix epoch.
    Timestamp(i64),
    /// Type 9: a UUID's 16 bytes.
    Uuid([u8; 16]),
}

impl HeaderValue<'_> {
    /// The wire type byte of this value.
    pub fn type_byte(&self) -> u8 {
        match self {
            HeaderValue::Bool(true) => 0,
            HeaderValue::Bool(false) => 1,
            HeaderValue::Byte(_) => 2,
            HeaderValue::Short(_) => 3,
            HeaderValue::Int(_) => 4,
            HeaderValue::Long(_) => 5,
            HeaderValue::Bytes(_) => 6,
            HeaderValue::String(_) => 7,
            HeaderValue::Timestamp(_) => 8,
            HeaderValue::Uuid(_) => 9,
        }
    }
}

/// One header of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// The header name, such as `:event-type`.
    pub name: &'a str,
    /// Its value.
    pub value: HeaderValue<'a>,
}

/// One checked frame, borrowed for the duration of the callback. Both CRCs
/// matched and every header is well formed.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    offset: u64,
    headers: &'a [u8],
    payload: &'a [u8],
}

impl<'a> Frame<'a> {
    /// Offset in the stream of the frame's first byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The frame's headers, in wire order.
    pub fn headers(&self) -> Headers<'a> {
        Headers {
            bytes: self.headers,
            at: 0,
        }
    }

    /// The value of the first header called `name`.
    pub fn header(&self, name: &str) -> Option<HeaderValue<'a>> {
        self.headers().find(|h| h.name == name).map(|h| h.value)
    }

    /// The value of the first header called `name` when it is a string,
    /// such as `:event-type`, `:message-type` or `:content-type`.
    pub fn header_str(&self, name: &str) -> Option<&'a str> {
        match self.header(name)? {
            HeaderValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// The payload bytes.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// The frame's length on the wire.
    pub fn len(&self) -> usize {
        MIN_FRAME_LEN + self.headers.len() + self.payload.len()
    }

    /// Always false: a frame holds at least its prelude and CRC.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The headers of a [`Frame`], in wire order (they were checked when the
/// frame was decoded).
#[derive(Clone, Debug)]
pub struct Headers<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Headers<'a> {
    type Item = Header<'a>;

    fn next(&mut self) -> Option<Header<'a>> {
        if self.at >= self.bytes.len() {
            return None;
        }
        // The bytes were checked by `check_headers`; an error cannot occur.
        let (header, next) = read_header(self.bytes, self.at).ok()?;
        self.at = next;
        Some(header)
    }
}

/// What is wrong with a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    /// The header runs past the end of the headers section.
    Truncated,
    /// A name of length zero.
    EmptyName,
    /// A name that is not UTF-8.
    NameNotUtf8,
    /// A string value that is not UTF-8.
    ValueNotUtf8,
    /// A type byte above 9.
    UnknownType(u8),
}

impl fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderProblem::Truncated => f.write_str("header runs past the headers section"),
            HeaderProblem::EmptyName => f.write_str("empty header name"),
            HeaderProblem::NameNotUtf8 => f.write_str("header name is not UTF-8"),
            HeaderProblem::ValueNotUtf8 => f.write_str("string header value is not UTF-8"),
            HeaderProblem::UnknownType(t) => write!(f, "unknown header value type {t}"),
        }
    }
}

/// A fatal decoding error. `offset` is always the stream offset of the
/// frame's first byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventStreamError {
    /// The prelude CRC32 does not match its 8 bytes.
    PreludeCrc {
        /// Frame offset.
        offset: u64,
        /// The CRC the frame carries.
        stored: u32,
        /// The CRC of the bytes.
        computed: u32,
    },
    /// The message CRC32 does not match the frame's bytes.
    MessageCrc {
        /// Frame offset.
        offset: u64,
        /// The CRC the frame carries.
        stored: u32,
        /// The CRC of the bytes.
        computed: u32,
    },
    /// The prelude's lengths cannot describe a frame: a total below 16
    /// bytes, or headers that do not fit in it.
    BadLengths {
        /// Frame offset.
        offset: u64,
        /// The total length the prelude states.
        total: u32,
        /// The headers length the prelude states.
        headers: u32,
    },
    /// The prelude states a frame longer than the configured bound.
    FrameTooLarge {
        /// Frame offset.
        offset: u64,
        /// The total length the prelude states.
        total: u32,
        /// The bound, in bytes.
        limit: usize,
    },
    /// A header is malformed.
    MalformedHeader {
        /// Frame offset.
        offset: u64,
        /// Stream offset of the header's first byte.
        header_offset: u64,
        /// What is wrong.
        problem: HeaderProblem,
    },
    /// The input ended inside a frame ([`Decoder::finish`]).
    Truncated {
        /// Frame offset.
        offset: u64,
        /// Bytes of the frame that arrived.
        have: usize,
        /// The frame's total length, when its prelude arrived.
        total: Option<u32>,
    },
}

impl EventStreamError {
    /// Stream offset of the frame the error is about.
    pub fn offset(&self) -> u64 {
        match self {
            EventStreamError::PreludeCrc { offset, .. }
            | EventStreamError::MessageCrc { offset, .. }
            | EventStreamError::BadLengths { offset, .. }
            | EventStreamError::FrameTooLarge { offset, .. }
            | EventStreamError::MalformedHeader { offset, .. }
            | EventStreamError::Truncated { offset, .. } => *offset,
        }
    }
}

impl fmt::Display for EventStreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventStreamError::PreludeCrc {
                offset,
                stored,
                computed,
            } => write!(
                f,
                "event-stream frame at byte {offset}: prelude CRC32 mismatch \
                 (stored {stored:#010x}, computed {computed:#010x})"
            ),
            EventStreamError::MessageCrc {
                offset,
                stored,
                computed,
            } => write!(
                f,
                "event-stream frame at byte {offset}: message CRC32 mismatch \
                 (stored {stored:#010x}, computed {computed:#010x})"
            ),
            EventStreamError::BadLengths {
                offset,
                total,
                headers,
            } => write!(
                f,
                "event-stream frame at byte {offset}: total length {total} cannot hold \
                 {headers} header bytes"
            ),
            EventStreamError::FrameTooLarge {
                offset,
                total,
                limit,
            } => write!(
                f,
                "event-stream frame at byte {offset}: {total} bytes, larger than the \
                 {limit}-byte bound"
            ),
            EventStreamError::MalformedHeader {
                offset,
                header_offset,
                problem,
            } => write!(
                f,
                "event-stream frame at byte {offset}: malformed header at byte \
                 {header_offset}: {problem}"
            ),
            EventStreamError::Truncated {
                offset,
                have,
                total: Some(total),
            } => write!(
                f,
                "EOF inside the event-stream frame at byte {offset} ({have} of {total} bytes)"
            ),
            EventStreamError::Truncated {
                offset,
                have,
                total: None,
            } => write!(
                f,
                "EOF inside the event-stream prelude at byte {offset} ({have} of 12 bytes)"
            ),
        }
    }
}

impl std::error::Error for EventStreamError {}

/// The frame decoder. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Decoder {
    max_frame: usize,
    /// The bytes of a frame cut by the end of a chunk.
    buf: Vec<u8>,
    /// The total length of the frame in `buf`, once its prelude checked.
    pending_total: Option<usize>,
    /// Offset in the stream of the next frame's first byte.
    frame_start: u64,
    failed: Option<EventStreamError>,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new()
    }
}

impl Decoder {
    /// A decoder with the default frame bound.
    pub fn new() -> Decoder {
        Decoder::with_max_frame_bytes(DEFAULT_MAX_FRAME_BYTES)
    }

    /// A decoder that accepts frames of at most `max` bytes (prelude and
    /// CRCs included).
    pub fn with_max_frame_bytes(max: usize) -> Decoder {
        Decoder {
            max_frame: max,
            buf: Vec::new(),
            pending_total: None,
            frame_start: 0,
            failed: None,
        }
    }

    /// Total bytes fed so far.
    pub fn offset(&self) -> u64 {
        self.frame_start + self.buf.len() as u64
    }

    /// Whether a frame has begun and not ended.
    pub fn in_frame(&self) -> bool {
        !self.buf.is_empty()
    }

    /// Feeds the next bytes; every frame completed by them is handed to
    /// `on_frame`, in order. Any split is fine (an empty chunk too).
    ///
    /// # Errors
    ///
    /// A bad CRC, impossible lengths, a frame past the bound or a malformed
    /// header; after that every call returns the same error.
    pub fn feed<F: FnMut(Frame<'_>)>(
        &mut self,
        chunk: &[u8],
        on_frame: &mut F,
    ) -> Result<(), EventStreamError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = self.feed_frames(chunk, on_frame);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn feed_frames<F: FnMut(Frame<'_>)>(
        &mut self,
        mut chunk: &[u8],
        on_frame: &mut F,
    ) -> Result<(), EventStreamError> {
        // Finish the frame a previous chunk cut.
        if !self.buf.is_empty() {
            chunk = self.fill(chunk)?;
            match self.pending_total {
                Some(total) if self.buf.len() == total => {
                    let buf = std::mem::take(&mut self.buf);
                    let r = decode_frame(&buf, self.frame_start).map(&mut *on_frame);
                    self.buf = buf;
                    self.buf.clear();
                    r?;
                    self.pending_total = None;
                    self.frame_start += total as u64;
                }
                _ => return Ok(()),
            }
        }
        // Whole frames straight from the chunk.
        while chunk.len() >= PRELUDE_LEN {
            let total = self.check_prelude(chunk)?;
            if chunk.len() < total {
                break;
            }
            on_frame(decode_frame(&chunk[..total], self.frame_start)?);
            self.frame_start += total as u64;
            chunk = &chunk[total..];
        }
        // Keep the cut frame's start.
        let rest = self.fill(chunk)?;
        debug_assert!(rest.is_empty());
        Ok(())
    }

    /// Copies from `chunk` into `buf` up to the end of the pending frame
    /// (checking its prelude once it is whole); returns the rest.
    fn fill<'c>(&mut self, mut chunk: &'c [u8]) -> Result<&'c [u8], EventStreamError> {
        if self.pending_total.is_none() {
            let take = (PRELUDE_LEN - self.buf.len()).min(chunk.len());
            self.buf.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
            if self.buf.len() < PRELUDE_LEN {
                return Ok(chunk);
            }
            self.pending_total = Some(self.check_prelude(&self.buf)?);
        }
        let total = self.pending_total.unwrap_or(PRELUDE_LEN);
        let take = (total - self.buf.len()).min(chunk.len());
        self.buf.extend_from_slice(&chunk[..take]);
        Ok(&chunk[take..])
    }

    /// Checks the prelude at the start of `bytes` (at least 12 of them) and
    /// returns the frame's total length.
    fn check_prelude(&self, bytes: &[u8]) -> Result<usize, EventStreamError> {
        let offset = self.frame_start;
        let stored = be_u32(bytes, 8);
        let computed = crc32fast::hash(&bytes[..8]);
        if stored != computed {
            return Err(EventStreamError::PreludeCrc {
                offset,
                stored,
                computed,
            });
        }
        let total = be_u32(bytes, 0);
        let headers = be_u32(bytes, 4);
        if (total as usize) < MIN_FRAME_LEN || headers as usize > total as usize - MIN_FRAME_LEN {
            return Err(EventStreamError::BadLengths {
                offset,
                total,
                headers,
            });
        }
        if total as usize > self.max_frame {
            return Err(EventStreamError::FrameTooLarge {
                offset,
                total,
                limit: self.max_frame,
            });
        }
        Ok(total as usize)
    }

    /// Ends the input and resets the decoder for a new stream (offsets start
    /// again at 0).
    ///
    /// # Errors
    ///
    /// [`EventStreamError::Truncated`] when the input ended inside a frame;
    /// the earlier error if one stopped the decoder.
    pub fn finish(&mut self) -> Result<(), EventStreamError> {
        let result = match self.failed.take() {
            Some(e) => Err(e),
            None if !self.buf.is_empty() => Err(EventStreamError::Truncated {
                offset: self.frame_start,
                have: self.buf.len(),
                total: self.pending_total.map(|t| t as u32),
            }),
            None => Ok(()),
        };
        self.buf.clear();
        self.pending_total = None;
        self.frame_start = 0;
        result
    }
}

fn be_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks a whole frame whose prelude was checked; `offset` is its stream
/// offset.
fn decode_frame(frame: &[u8], offset: u64) -> Result<Frame<'_>, EventStreamError> {
    let end = frame.len() - 4;
    let stored = be_u32(frame, end);
    let computed = crc32fast::hash(&frame[..end]);
    if stored != computed {
        return Err(EventStreamError::MessageCrc {
            offset,
            stored,
            computed,
        });
    }
    let headers_end = PRELUDE_LEN + be_u32(frame, 4) as usize;
    let headers = &frame[PRELUDE_LEN..headers_end];
    let mut at = 0;
    while at < headers.len() {
        match read_header(headers, at) {
            Ok((_, next)) => at = next,
            Err(problem) => {
                return Err(EventStreamError::MalformedHeader {
                    offset,
                    header_offset: offset + (PRELUDE_LEN + at) as u64,
                    problem,
                });
            }
        }
    }
    Ok(Frame {
        offset,
        headers,
        payload: &frame[headers_end..end],
    })
}

/// Reads the header at `at` in the headers section; returns it and the
/// offset of the next one.
fn read_header(bytes: &[u8], at: usize) -> Result<(Header<'_>, usize), HeaderProblem> {
    let take = |from: usize, n: usize| bytes.get(from..from + n).ok_or(HeaderProblem::Truncated);
    let name_len = usize::from(*bytes.get(at).ok_or(HeaderProblem::Truncated)?);
    if name_len == 0 {
        return Err(HeaderProblem::EmptyName);
    }
    let name =
        std::str::from_utf8(take(at + 1, name_len)?).map_err(|_| HeaderProblem::NameNotUtf8)?;
    let mut p = at + 1 + name_len;
    let ty = take(p, 1)?[0];
    p += 1;
    let fixed = |p: usize, n: usize| take(p, n).map(|b| (b, p + n));
    let (value, next) = match ty {
        0 => (HeaderValue::Bool(true), p),
        1 => (HeaderValue::Bool(false), p),
        2 => {
            let (b, n) = fixed(p, 1)?;
            (HeaderValue::Byte(i8::from_be_bytes([b[0]])), n)
        }
        3 => {
            let (b, n) = fixed(p, 2)?;
            (HeaderValue::Short(i16::from_be_bytes([b[0], b[1]])), n)
        }
        4 => {
            let (b, n) = fixed(p, 4)?;
            (
                HeaderValue::Int(i32::from_be_bytes([b[0], b[1], b[2], b[3]])),
                n,
            )
        }
        5 | 8 => {
            let (b, n) = fixed(p, 8)?;
            let mut v = [0; 8];
            v.copy_from_slice(b);
            let v = i64::from_be_bytes(v);
            let value = if ty == 5 {
                HeaderValue::Long(v)
            } else {
                HeaderValue::Timestamp(v)
            };
            (value, n)
        }
        6 | 7 => {
            let (len, p) = fixed(p, 2)?;
            let (b, n) = fixed(p, usize::from(u16::from_be_bytes([len[0], len[1]])))?;
            let value = if ty == 6 {
                HeaderValue::Bytes(b)
            } else {
                HeaderValue::String(
                    std::str::from_utf8(b).map_err(|_| HeaderProblem::ValueNotUtf8)?,
                )
            };
            (value, n)
        }
        9 => {
            let (b, n) = fixed(p, 16)?;
            let mut v = [0; 16];
            v.copy_from_slice(b);
            (HeaderValue::Uuid(v), n)
        }
        t => return Err(HeaderProblem::UnknownType(t)),
    };
    Ok((Header { name, value }, next))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame with the given raw headers section and payload.
    fn frame(headers: &[u8], payload: &[u8]) -> Vec<u8> {
        let mut f = Vec::new();
        let total = (MIN_FRAME_LEN + headers.len() + payload.len()) as u32;
        f.extend_from_slice(&total.to_be_bytes());
        f.extend_from_slice(&(headers.len() as u32).to_be_bytes());
        f.extend_from_slice(&crc32fast::hash(&f).to_be_bytes());
        f.extend_from_slice(headers);
        f.extend_from_slice(payload);
        f.extend_from_slice(&crc32fast::hash(&f).to_be_bytes());
        f
    }

    fn first_error(bytes: &[u8]) -> EventStreamError {
        let mut d = Decoder::new();
        d.feed(bytes, &mut |_| {})
            .and_then(|()| d.finish())
            .unwrap_err()
    }

    #[test]
    fn each_header_problem_is_named_with_its_offset() {
        let cases: [(&[u8], HeaderProblem); 5] = [
            (b"\x00", HeaderProblem::EmptyName),
            (b"\x02\xff\xfe\x00", HeaderProblem::NameNotUtf8),
            (b"\x01a\x07\x00\x01\xff", HeaderProblem::ValueNotUtf8),
            (b"\x01a\x0a", HeaderProblem::UnknownType(10)),
            (b"\x01a\x04\x00\x00", HeaderProblem::Truncated),
        ];
        for (headers, problem) in cases {
            // A good frame first, so the offsets are not all zero.
            let mut bytes = frame(b"\x01x\x00", b"");
            let at = bytes.len() as u64;
            bytes.extend(frame(headers, b"{}"));
            assert_eq!(
                first_error(&bytes),
                EventStreamError::MalformedHeader {
                    offset: at,
                    header_offset: at + 12,
                    problem
                },
                "{headers:?}"
            );
        }
    }

    #[test]
    fn impossible_lengths_are_refused_at_the_prelude() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&15u32.to_be_bytes());
        bytes.extend_from_slice(&0u32.to_be_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&bytes).to_be_bytes());
        assert_eq!(
            first_error(&bytes),
            EventStreamError::BadLengths {
                offset: 0,
                total: 15,
                headers: 0
            }
        );
    }
}
