//! A sans-IO decoder for `text/event-stream` (Server-Sent Events), following
//! the WHATWG HTML "event stream interpretation" rules: bytes in, split
//! anywhere, events out. No I/O, no clock, no reconnection logic.
//!
//! # What it does
//!
//! * Lines end at LF, CR or CRLF; a CRLF split across two feeds is one line
//!   end. Nothing else ends a line: U+2028 / U+2029 (and U+0085) are plain
//!   text inside a field.
//! * `field: value` lines (one optional space after the colon is removed);
//!   a line with no colon is a field with an empty value; lines starting with
//!   `:` are comments (keep-alives) and are skipped.
//! * `data` lines accumulate, joined with `\n`; `event` sets the type;
//!   `id` sets the last event id (unless it contains U+0000), and it stays
//!   set for later events; `retry` (ASCII digits only) sets the reconnection
//!   time. Other fields are ignored.
//! * A blank line dispatches the event. An event whose data buffer is empty
//!   (no `data` line at all, e.g. `event: ping` alone) is not dispatched, as
//!   the standard says.
//! * A leading UTF-8 byte order mark is skipped. Bytes are decoded as UTF-8
//!   per line, with invalid sequences replaced by U+FFFD (the standard's
//!   "UTF-8 decode"); a multi-byte character split across feeds is whole in
//!   its line, since lines are cut only at CR and LF bytes.
//! * At the end of the input ([`Decoder::finish`]) an event that was not
//!   ended by a blank line is discarded, as the standard says;
//!   [`Decoder::finish`] tells whether that happened.
//!
//! # Bounds (untrusted input)
//!
//! One line may hold at most [`Decoder::with_max_line_bytes`] bytes (default
//! [`DEFAULT_MAX_LINE_BYTES`], 16 MiB), and one event's data at most the same
//! number of bytes. Past that, [`SseError::LineTooLong`] or
//! [`SseError::EventTooLarge`] is returned; the decoder then stays failed.
//!
//! # Advice for hackers
//!
//! A CR at the very end of a chunk ends the line at once; the decoder then
//! remembers to drop an LF at the start of the next chunk (`skip_lf`), so the
//! CRLF pair is never seen as two line ends. Whole lines inside a chunk are
//! handled straight from the chunk; only a line cut by the chunk end is copied
//! into `line`.
//!
//! Each byte of an event's data is copied at most once. An event whose data
//! is one line, and whose data line and blank line both arrive in the chunk
//! being fed, is handed to the callback borrowed from the chunk, with no copy
//! (the usual case for vendor streams fed whole events at a time). Data that
//! must outlive the chunk is copied into `data`. A long data line cut by the
//! chunk end is already in `line`: its buffer becomes the data buffer instead
//! of being copied again, and a buffer past 64 KiB is released
//! once its event is dispatched, so a single huge event is not held after it.
//!
//! # Examples
//!
//! ```
//! use tooljson::sse::{Decoder, Event};
//!
//! let mut decoder = Decoder::new();
//! let mut seen = Vec::new();
//! let mut on_event = |e: Event<'_>| seen.push((e.event.to_owned(), e.data.to_owned()));
//! decoder.feed(b"event: message_start\r\ndata: {\"a\":", &mut on_event)?;
//! decoder.feed(b"\r\ndata: 1}\r\n\r", &mut on_event)?;
//! decoder.feed(b"\n: keep-alive\n\ndata: [DONE]\n\n", &mut on_event)?;
//! assert!(!decoder.finish()); // nothing left half-way
//! assert_eq!(seen, [
//!     ("message_start".to_owned(), "{\"a\":\n1}".to_owned()),
//!     ("message".to_owned(), "[DONE]".to_owned()),
//! ]);
//! # Ok::<(), tooljson::sse::SseError>(())
//! ```

use std::fmt;

/// The default bound on one line, and on one event's data: 16 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// Line and data buffers up to this size are kept for the next event; larger
/// ones (a huge event) are released once used, and a cut data line at least
/// this long becomes the data buffer rather than being copied into it.
const KEEP_BUFFER_BYTES: usize = 64 << 10;

/// One dispatched event. Borrowed from the decoder for the duration of the
/// callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    /// The event type: the last `event` field, or `"message"` when there was
    /// none.
    pub event: &'a str,
    /// Whether `event` came from an `event` field (rather than the default).
    pub named: bool,
    /// The data lines joined with `\n`.
    pub data: &'a str,
    /// The last event id seen so far in the stream (it carries over to later
    /// events, as the standard says); empty when none.
    pub id: &'a str,
}

/// A fatal decoding error: the input broke a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SseError {
    /// A line was longer than the configured bound.
    LineTooLong {
        /// The bound, in bytes.
        limit: usize,
        /// Byte offset in the stream where the line began.
        offset: u64,
    },
    /// One event's data grew past the configured bound.
    EventTooLarge {
        /// The bound, in bytes.
        limit: usize,
        /// Byte offset in the stream of the line that crossed it.
        offset: u64,
    },
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SseError::LineTooLong { limit, offset } => write!(
                f,
                "event-stream line longer than {limit} bytes (line starts at byte {offset})"
            ),
            SseError::EventTooLarge { limit, offset } => write!(
                f,
                "event-stream event data larger than {limit} bytes (at byte {offset})"
            ),
        }
    }
}

impl std::error::Error for SseError {}

/// The event-stream decoder. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Decoder {
    max_line: usize,
    /// Bytes of a line cut by the end of a chunk.
    line: Vec<u8>,
    /// Offset in the stream where the current line began.
    line_start: u64,
    /// Total bytes fed.
    offset: u64,
    /// The previous chunk ended with CR: drop an LF that starts this one.
    skip_lf: bool,
    /// Still at the very start (a BOM may follow).
    at_start: bool,
    /// The pending event's data lines joined with `\n`, from `data_start`
    /// (a cut data line's buffer keeps its `data:` prefix before it).
    data: String,
    data_start: usize,
    /// Whether any `data` field was seen for the pending event.
    has_data: bool,
    event_type: String,
    last_id: String,
    retry: Option<u64>,
    failed: Option<SseError>,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new()
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Decoder {
    /// A decoder with the default line bound.
    pub fn new() -> Decoder {
        Decoder::with_max_line_bytes(DEFAULT_MAX_LINE_BYTES)
    }

    /// A decoder that accepts lines (and event data) of at most `max` bytes.
    pub fn with_max_line_bytes(max: usize) -> Decoder {
        Decoder {
            max_line: max,
            line: Vec::new(),
            line_start: 0,
            offset: 0,
            skip_lf: false,
            at_start: true,
            data: String::new(),
            data_start: 0,
            has_data: false,
            event_type: String::new(),
            last_id: String::new(),
            retry: None,
            failed: None,
        }
    }

    /// The last event id seen (empty when none).
    pub fn last_event_id(&self) -> &str {
        &self.last_id
    }

    /// The reconnection time in milliseconds from the last valid `retry`
    /// field.
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Total bytes fed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Feeds the next bytes; every event completed by them is handed to
    /// `on_event`, in order. Any split is fine (an empty chunk too).
    ///
    /// # Errors
    ///
    /// A line or an event's data past the bound; after that every call
    /// returns the same error.
    pub fn feed<F: FnMut(Event<'_>)>(
        &mut self,
        mut chunk: &[u8],
        on_event: &mut F,
    ) -> Result<(), SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.at_start {
            // The BOM may itself arrive split: wait until it is decidable.
            let have = self.line.len() + chunk.len();
            let mut probe = self.line.clone();
            probe.extend_from_slice(&chunk[..chunk.len().min(BOM.len())]);
            let n = probe.len().min(BOM.len());
            if probe[..n] != BOM[..n] {
                self.at_start = false;
            } else if have < BOM.len() {
                self.line.extend_from_slice(chunk);
                self.offset += chunk.len() as u64;
                return Ok(());
            } else {
                self.at_start = false;
                let from_chunk = BOM.len() - self.line.len();
                self.line.clear();
                self.offset += from_chunk as u64;
                self.line_start = self.offset;
                chunk = &chunk[from_chunk..];
            }
        }
        let result = self.feed_lines(chunk, on_event);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn feed_lines<'c, F: FnMut(Event<'_>)>(
        &mut self,
        mut chunk: &'c [u8],
        on_event: &mut F,
    ) -> Result<(), SseError> {
        if self.skip_lf && !chunk.is_empty() {
            self.skip_lf = false;
            if chunk[0] == b'\n' {
                chunk = &chunk[1..];
                self.offset += 1;
                self.line_start = self.offset;
            }
        }
        // The pending event's data while it is one line of this chunk.
        let mut borrowed: Option<&'c str> = None;
        let result = self.lines(chunk, &mut borrowed, on_event);
        if let Some(text) = borrowed {
            // The chunk ends before the event: its data must outlive it.
            self.data.push_str(text);
        }
        result
    }

    fn lines<'c, F: FnMut(Event<'_>)>(
        &mut self,
        mut chunk: &'c [u8],
        borrowed: &mut Option<&'c str>,
        on_event: &mut F,
    ) -> Result<(), SseError> {
        while let Some(end) = memchr::memchr2(b'\r', b'\n', chunk) {
            let (body, rest) = chunk.split_at(end);
            let eol = if rest.first() == Some(&b'\r') {
                match rest.get(1) {
                    Some(b'\n') => 2,
                    Some(_) => 1,
                    None => {
                        self.skip_lf = true;
                        1
                    }
                }
            } else {
                1
            };
            if self.line.is_empty() {
                self.check_line(body.len())?;
                self.line_in_chunk(body, borrowed, on_event)?;
            } else {
                // The first line of the chunk, so nothing is borrowed yet.
                self.check_line(self.line.len() + body.len())?;
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(body);
                self.cut_line_done(line, on_event)?;
            }
            let used = end + eol;
            self.offset += used as u64;
            self.line_start = self.offset;
            chunk = &chunk[used..];
        }
        self.check_line(self.line.len() + chunk.len())?;
        self.line.extend_from_slice(chunk);
        self.offset += chunk.len() as u64;
        Ok(())
    }

    fn check_line(&self, len: usize) -> Result<(), SseError> {
        if len > self.max_line {
            return Err(SseError::LineTooLong {
                limit: self.max_line,
                offset: self.line_start,
            });
        }
        Ok(())
    }

    /// A whole line inside the chunk: a lone data line is borrowed.
    fn line_in_chunk<'c, F: FnMut(Event<'_>)>(
        &mut self,
        line: &'c [u8],
        borrowed: &mut Option<&'c str>,
        on_event: &mut F,
    ) -> Result<(), SseError> {
        if line.is_empty() {
            self.dispatch(borrowed.take(), on_event);
            return Ok(());
        }
        let Some((b"data", value)) = field(line) else {
            return self.line_done(line, on_event);
        };
        self.check_data(value.len(), *borrowed)?;
        if !self.has_data
            && let Ok(text) = simdutf8::basic::from_utf8(value)
        {
            *borrowed = Some(text);
            self.has_data = true;
            return Ok(());
        }
        if let Some(text) = borrowed.take() {
            self.data.push_str(text);
        }
        self.push_data(&utf8(value));
        Ok(())
    }

    /// A line that was cut by a chunk end, whole now in `line`; the buffer
    /// of a long data line becomes the data buffer, and the others go back
    /// to `line`.
    fn cut_line_done<F: FnMut(Event<'_>)>(
        &mut self,
        mut line: Vec<u8>,
        on_event: &mut F,
    ) -> Result<(), SseError> {
        if let Some((b"data", value)) = field(&line)
            && !self.has_data
            && line.len() >= KEEP_BUFFER_BYTES
        {
            self.check_data(value.len(), None)?;
            let start = line.len() - value.len();
            match String::from_utf8(line) {
                Ok(text) => {
                    self.data = text;
                    self.data_start = start;
                }
                Err(e) => {
                    let bytes = e.into_bytes();
                    self.data.clear();
                    self.data_start = 0;
                    self.data
                        .push_str(&String::from_utf8_lossy(&bytes[start..]));
                }
            }
            self.has_data = true;
            return Ok(());
        }
        let r = self.line_done(&line, on_event);
        line.clear();
        if line.capacity() > KEEP_BUFFER_BYTES {
            line = Vec::new();
        }
        self.line = line;
        r
    }

    /// Fails when a data line of `len` bytes would take the event's data
    /// past the bound (counting a line end per line, as the standard's
    /// buffer does).
    fn check_data(&self, len: usize, borrowed: Option<&str>) -> Result<(), SseError> {
        let held = self.data.len() - self.data_start
            + borrowed.map_or(0, str::len)
            + usize::from(self.has_data);
        if held + len + 1 > self.max_line {
            return Err(SseError::EventTooLarge {
                limit: self.max_line,
                offset: self.line_start,
            });
        }
        Ok(())
    }

    /// Appends a data line to the pending event's data (copied).
    fn push_data(&mut self, text: &str) {
        if self.has_data {
            self.data.push('\n');
        }
        self.data.push_str(text);
        self.has_data = true;
    }

    fn line_done<F: FnMut(Event<'_>)>(
        &mut self,
        line: &[u8],
        on_event: &mut F,
    ) -> Result<(), SseError> {
        if line.is_empty() {
            self.dispatch(None, on_event);
            return Ok(());
        }
        let Some((name, value)) = field(line) else {
            return Ok(());
        };
        match name {
            b"data" => {
                self.check_data(value.len(), None)?;
                self.push_data(&utf8(value));
            }
            b"event" => {
                self.event_type.clear();
                self.event_type.push_str(&utf8(value));
            }
            b"id" if !value.contains(&0) => {
                self.last_id.clear();
                self.last_id.push_str(&utf8(value));
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                // Saturate rather than fail on an absurd number.
                let ms = value.iter().fold(0u64, |acc, d| {
                    acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                self.retry = Some(ms);
            }
            _ => {}
        }
        Ok(())
    }

    /// Dispatches the pending event: its data is `borrowed` from the chunk,
    /// or in `data`.
    fn dispatch<F: FnMut(Event<'_>)>(&mut self, borrowed: Option<&str>, on_event: &mut F) {
        if !self.has_data {
            self.event_type.clear();
            return;
        }
        let named = !self.event_type.is_empty();
        on_event(Event {
            event: if named { &self.event_type } else { "message" },
            named,
            data: borrowed.unwrap_or(&self.data[self.data_start..]),
            id: &self.last_id,
        });
        self.clear_data();
        self.event_type.clear();
    }

    fn clear_data(&mut self) {
        self.data.clear();
        self.data_start = 0;
        self.has_data = false;
        if self.data.capacity() > KEEP_BUFFER_BYTES {
            self.data = String::new();
        }
    }

    /// Ends the input like [`finish`](Self::finish), but first treats an
    /// unterminated last line as ended and dispatches a pending event, as
    /// many clients do (the standard discards it). Safe where each event's
    /// data is self-delimiting, such as one JSON value: a cut-off value
    /// then fails to parse instead of vanishing. Returns whether an event
    /// was dispatched this way.
    ///
    /// ```
    /// use tooljson::sse::Decoder;
    /// let mut d = Decoder::new();
    /// let mut got = Vec::new();
    /// d.feed(b"event: message_stop\ndata: {\"type\":\"message_stop\"}", &mut |e| got.push(e.data.to_owned()))?;
    /// assert!(got.is_empty());
    /// assert!(d.finish_flush(&mut |e| got.push(e.data.to_owned())));
    /// assert_eq!(got, [r#"{"type":"message_stop"}"#]);
    /// # Ok::<(), tooljson::sse::SseError>(())
    /// ```
    pub fn finish_flush<F: FnMut(Event<'_>)>(&mut self, on_event: &mut F) -> bool {
        let mut dispatched = false;
        if self.failed.is_none() {
            if !self.line.is_empty() {
                let line = std::mem::take(&mut self.line);
                // A bound error cannot happen here: the line was checked as
                // it grew; the event-size check may still refuse it.
                if self.cut_line_done(line, &mut |_: Event<'_>| {}).is_err() {
                    self.has_data = false;
                }
            }
            if self.has_data {
                self.dispatch(None, on_event);
                dispatched = true;
            }
        }
        self.finish();
        dispatched
    }

    /// Ends the input. Returns whether something was discarded: a final
    /// event (or line) that no blank line ended. Resets the line state, so
    /// the decoder could take a new stream (the last event id is kept, as for
    /// a reconnection).
    pub fn finish(&mut self) -> bool {
        let discarded = self.has_data || !self.line.is_empty() || !self.event_type.is_empty();
        self.line.clear();
        self.clear_data();
        self.event_type.clear();
        self.skip_lf = false;
        self.at_start = true;
        self.failed = None;
        discarded
    }
}

/// A line's field name and value (one space after the colon removed); a
/// line with no colon is a field with an empty value; `None` for a comment.
fn field(line: &[u8]) -> Option<(&[u8], &[u8])> {
    if line.first() == Some(&b':') {
        return None;
    }
    Some(match memchr::memchr(b':', line) {
        Some(i) => {
            let v = &line[i + 1..];
            (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
        }
        None => (line, &line[line.len()..]),
    })
}

/// UTF-8 decode with replacement; the common valid case checked in one
/// SIMD pass.
fn utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<(String, String)> {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        for c in chunks {
            d.feed(c, &mut |e: Event<'_>| {
                out.push((e.event.to_owned(), e.data.to_owned()))
            })
            .unwrap();
        }
        out
    }

    #[test]
    fn split_bom_is_skipped() {
        let got = decode(&[b"\xEF", b"\xBB", b"\xBFdata: x\n\n"]);
        assert_eq!(got, [("message".to_owned(), "x".to_owned())]);
    }

    #[test]
    fn partial_bom_prefix_is_data() {
        // \xEF followed by something else is not a BOM: it is part of the
        // first line (here a field name, so ignored), and decoding goes on.
        let got = decode(&[b"\xEFx: 1\ndata: y\n\n"]);
        assert_eq!(got, [("message".to_owned(), "y".to_owned())]);
    }
}
