//! The resumable JSON tokenizer: a sans-IO push state machine that takes input
//! in chunks of any size, looks at each byte once, and emits [`Token`]s to a
//! [`TokenSink`].
//!
//! # Advice for hackers
//!
//! - The only bytes carried from one `feed` to the next are a split UTF-8
//!   sequence (at most 3 bytes), the state of a split escape (`\`, `\u12`, a
//!   high surrogate waiting for its low half) and the lexeme of a number that
//!   ran to the end of the chunk. Keys are decoded straight into the path
//!   segment that names them, which is also what error paths and sinks see.
//! - Newlines can only occur in whitespace (a raw one inside a string is an
//!   error), so line counting lives in the whitespace skipper alone.
//! - A string run is found with `memchr2` (`"` or `\`), checked for control
//!   bytes and validated with `simdutf8`; an incomplete UTF-8 sequence is only
//!   legal at the very end of a chunk.
//! - A small chunk (up to 64 bytes) that falls wholly inside a string
//!   value's plain text is handed on as one `StringPart` by
//!   `Parser::string_chunk` before the state machine is entered: the common
//!   case of a vendor streaming a long argument a few bytes at a time.
//!   Short ASCII runs of chunks too small to validate up front (and the head
//!   of a number cut by a chunk's end, kept as an ASCII `String`) are copied
//!   byte by byte, which is cheaper than a UTF-8 check of a few bytes.
//! - A sink that builds strings itself ([`ValueBuilder`]) may offer a buffer
//!   ([`TokenSink::string_bytes`]): once a string value has
//!   `DIRECT_FROM` (16) decoded bytes (from its first byte when it begins
//!   in a chunk of under 16 bytes, typical of streamed deltas), its text in
//!   a chunk too small to validate up front is appended there as bytes
//!   instead of becoming a `&str` piece (a validation call and a token per
//!   chunk). A chunk of up
//!   to 64 bytes that continues such a string takes one byte-by-byte pass
//!   before the state machine (`small_chunk_direct`: ASCII with no check,
//!   one-letter escapes decoded, each multi-byte character checked as it
//!   comes, a backslash or character cut by the chunk's end carried) and
//!   enters the machine only at anything else (the closing quote, `\u`, a
//!   control byte, bad UTF-8). The rest takes a second copy of `string`
//!   (`string_direct`, out of line), so the usual one compiles as before.
//!   The sink checks the buffer once, in one pass, before its next piece or
//!   when the string ends.
//! - A number is emitted when the byte after it arrives, or at `finish()`;
//!   literals when their last letter arrives, since nothing can extend them.
//!   A number is scanned by runs (`number_head`, and `number_rest` to
//!   resume it in any of its nine states): one that a chunk's end cuts is
//!   scanned once and carried with its state, and the next chunk resumes it
//!   there. In an array, the numbers after the first in a chunk (or after
//!   the number a chunk's start completes) take a tighter loop
//!   (`number_items`), where one that starts near the chunk's end takes
//!   `number_head` at once, which also tells when the end cuts it. Errors
//!   and limits are left to the state machine, so their messages and
//!   offsets do not depend on the chunking.
//! - After an error the parser is poisoned: every later call returns the same
//!   error, so a caller can never continue past bad input by accident.
//!
//! # States
//!
//! ```text
//!            ┌──────────── ',' (array) ─────────────┐
//!            v                                       │
//!  start ─> Value ──'{'──> ObjectFirst ──'"'──> Str(key) ──'"'──> Colon ──':'──> Value
//!            │  └──'['──> ArrayFirst ──(other)──> Value            ^
//!            ├──'"'──> Str(value) ──'"'──┐                          │
//!            ├──'-',digit──> Num ─(delim)┤                          │
//!            └──t/f/n──> Lit ──(last)────┴──> AfterValue ──',' (object)──> ObjectKey ──'"'──┘
//!                                            │  '}' / ']' closes; at depth 0 ─> Done
//! ```

mod token;

#[cfg(test)]
mod tests;

use std::collections::HashSet;

use smallvec::SmallVec;

use crate::error::{Error, ErrorCode, LimitKind, describe_byte};
use crate::path::{Path, PathRef, Segment};
use crate::value::{Map, Number, Value};

pub(crate) use token::earlier_bound;
pub use token::{Location, OwnedToken, Token, TokenSink};

/// Bounds on what one document may make the parser hold or do. The defaults
/// are safe for untrusted input.
///
/// | limit | default | error when exceeded |
/// |---|---|---|
/// | `max_depth` | 128 nested arrays/objects | at the opening bracket past it |
/// | `max_input_bytes` | 64 MiB | at the first byte past it |
/// | `max_string_bytes` | 16 MiB decoded, per key or string | at the byte past it |
/// | `max_number_bytes` | 4096 bytes of lexeme | at the byte past it |
///
/// # Examples
///
/// ```
/// use tooljson::{Limits, Parser};
/// let limits = Limits { max_depth: 2, ..Limits::default() };
/// let mut p = Parser::with_limits(limits);
/// let err = p.feed(b"[[[1]]]", &mut ()).unwrap_err();
/// assert!(err.is_limit_exceeded());
/// assert_eq!(err.offset(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects allowed.
    pub max_depth: usize,
    /// Total input bytes allowed, whitespace included.
    pub max_input_bytes: u64,
    /// Decoded UTF-8 bytes allowed in one string or key.
    pub max_string_bytes: usize,
    /// Bytes allowed in one number's lexeme.
    pub max_number_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_input_bytes: 64 << 20,
            max_string_bytes: 16 << 20,
            max_number_bytes: 4096,
        }
    }
}

impl Limits {
    /// No bounds except memory (and `max_depth` of `usize::MAX`): only for
    /// trusted input.
    ///
    /// The parser keeps its own stack, so any depth parses. A [`Value`]
    /// nested through objects is dropped without recursion too, but
    /// cloning, comparing, writing or serializing a value recurses once per
    /// level, as does dropping a chain of arrays directly inside arrays:
    /// past some tens of thousands of levels those overflow the stack.
    pub fn unlimited() -> Self {
        Limits {
            max_depth: usize::MAX,
            max_input_bytes: u64::MAX,
            max_string_bytes: usize::MAX,
            max_number_bytes: usize::MAX,
        }
    }
}

/// What to do when one object has the same key twice.
///
/// RFC 8259 leaves it open; serde_json keeps the last value, which is the
/// default here too. `Error` makes the parser reject the document at the
/// repeated key (it then keeps a set of keys per open object).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DuplicateKeys {
    /// The last value wins, at the position of the first occurrence.
    #[default]
    LastWins,
    /// The first value wins; later ones are dropped.
    FirstWins,
    /// A repeated key is an invalid-input error.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    Object,
    Array,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumState {
    Start,
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

impl NumState {
    fn is_terminal(self) -> bool {
        matches!(
            self,
            NumState::Zero | NumState::Int | NumState::Frac | NumState::Exp
        )
    }

    fn expected(self) -> &'static str {
        match self {
            NumState::Start | NumState::Minus | NumState::Dot | NumState::ESign => "digit",
            NumState::E => "digit or sign of exponent",
            _ => "end of number",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Value,
    ArrayFirst,
    ObjectFirst,
    ObjectKey,
    Colon,
    AfterValue,
    Str,
    Num(NumState),
    Lit { lit: u8, matched: u8 },
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StrState {
    Normal,
    /// Inside a UTF-8 sequence split across chunks.
    Utf8,
    /// After `\`.
    Escape,
    /// Inside `\uXXXX`; `high` is set while reading the low half of a pair.
    Hex {
        code: u16,
        digits: u8,
        high: Option<u16>,
    },
    /// After a high surrogate, waiting for `\`.
    LowBackslash(u16),
    /// After a high surrogate and `\`, waiting for `u`.
    LowU(u16),
}

const LITERALS: [&[u8]; 3] = [b"true", b"false", b"null"];
const LITERAL_NAMES: [&str; 3] = ["'true'", "'false'", "'null'"];

/// Emits a token with the current path; a macro so that the token may borrow
/// parser fields while the sink is borrowed mutably.
macro_rules! emit {
    ($self:ident, $sink:ident, $tok:expr, $off:expr) => {
        $sink.token(
            $tok,
            &Location {
                offset: $off,
                path: PathRef::new(&$self.path),
            },
        )
    };
}

/// A resumable, strict RFC 8259 JSON parser.
///
/// Call [`feed`](Parser::feed) with each chunk as it arrives (any size, empty
/// ones included) and [`finish`](Parser::finish) at the end of input. Tokens
/// go to the [`TokenSink`] passed to each call. "Not enough input yet" is
/// not an error: `feed` returns `Ok` and the parser waits.
///
/// # Examples
///
/// ```
/// use tooljson::{Parser, ValueBuilder};
/// let mut parser = Parser::new();
/// let mut builder = ValueBuilder::new();
/// // Split inside a key, a `\u` escape and a number.
/// for chunk in ["{\"ci", "ty\": \"Par\\u00", "e9s\", \"n\": 1", "2}"] {
///     parser.feed_str(chunk, &mut builder)?;
/// }
/// parser.finish(&mut builder)?;
/// assert_eq!(builder.into_value().unwrap().to_string(), r#"{"city":"Parés","n":12}"#);
/// # Ok::<(), tooljson::Error>(())
/// ```
#[derive(Debug)]
pub struct Parser {
    limits: Limits,
    duplicate_keys: DuplicateKeys,
    state: State,
    str_state: StrState,
    in_key: bool,
    str_len: usize,
    stack: SmallVec<[Container; 32]>,
    path: Vec<Segment>,
    spare_keys: Vec<String>,
    key_sets: Vec<HashSet<String>>,
    /// Decoded text of the current string piece once an escape was seen.
    scratch: String,
    utf8: [u8; 4],
    utf8_len: u8,
    utf8_need: u8,
    utf8_start: u64,
    /// The head of a number that ran to the end of a chunk (ASCII only,
    /// kept as a `String` so that the lexeme needs no validation).
    num_buf: String,
    num_len: usize,
    offset: u64,
    line: u64,
    line_start: u64,
    finished: bool,
    failed: Option<Error>,
    /// `finished || failed.is_some()`: one test on the fast path.
    blocked: bool,
    /// From how many decoded bytes on the current string value's pieces
    /// must have exact offsets ([`TokenSink::exact_string_offsets_from`],
    /// asked just after each `StringBegin`); `usize::MAX` for never.
    exact_from: usize,
    /// From how many decoded bytes on the current string value's text may go
    /// straight into the sink's buffer ([`TokenSink::string_bytes`]) rather
    /// than into pieces: [`DIRECT_FROM`] (0 for a string that began in a
    /// small chunk), or `usize::MAX` for never (a key, a sink without a
    /// buffer, or one asking for exact piece offsets from a bound within
    /// [`DIRECT_MARGIN`] bytes). One number, so that the test on the fast
    /// path is one comparison.
    direct_from: usize,
    /// How many decoded bytes of the current string value a small chunk
    /// may bring the buffer to ([`Parser::small_chunk_direct`]): the string
    /// limit, or for a sink asking for exact piece offsets from a bound,
    /// [`DIRECT_MARGIN`] bytes short of it, so that the pieces take over
    /// (with exact offsets) before the bound.
    direct_max: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

impl Parser {
    /// A parser with the default [`Limits`].
    pub fn new() -> Parser {
        Parser::with_limits(Limits::default())
    }

    /// A parser with the given limits.
    pub fn with_limits(limits: Limits) -> Parser {
        Parser {
            limits,
            duplicate_keys: DuplicateKeys::default(),
            state: State::Value,
            str_state: StrState::Normal,
            in_key: false,
            str_len: 0,
            stack: SmallVec::new(),
            path: Vec::new(),
            spare_keys: Vec::new(),
            key_sets: Vec::new(),
            scratch: String::new(),
            utf8: [0; 4],
            utf8_len: 0,
            utf8_need: 0,
            utf8_start: 0,
            num_buf: String::new(),
            num_len: 0,
            offset: 0,
            line: 1,
            line_start: 0,
            finished: false,
            failed: None,
            blocked: false,
            exact_from: usize::MAX,
            direct_from: usize::MAX,
            direct_max: 0,
        }
    }

    /// Sets the duplicate-key policy. Only [`DuplicateKeys::Error`] changes
    /// what the parser does; the other two are for [`ValueBuilder`] and the
    /// partial tree, which read it from here through
    /// [`duplicate_keys`](Parser::duplicate_keys).
    pub fn set_duplicate_keys(&mut self, policy: DuplicateKeys) {
        self.duplicate_keys = policy;
    }

    /// The duplicate-key policy.
    pub fn duplicate_keys(&self) -> DuplicateKeys {
        self.duplicate_keys
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Total bytes fed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Current nesting depth (0 outside any container).
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Path of the value being parsed now.
    pub fn path(&self) -> PathRef<'_> {
        PathRef::new(&self.path)
    }

    /// Whether the root value has closed. A root number is only known to be
    /// closed at `finish()` (more digits could follow).
    pub fn is_root_closed(&self) -> bool {
        self.state == State::Done
    }

    /// Whether `finish()` has been called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The error this parser stopped at, if any.
    pub fn error(&self) -> Option<&Error> {
        self.failed.as_ref()
    }

    /// Starts over for a new document, keeping the limits, the policy and
    /// the allocations.
    pub fn reset(&mut self) {
        let mut fresh = Parser::with_limits(self.limits);
        fresh.duplicate_keys = self.duplicate_keys;
        std::mem::swap(&mut fresh.scratch, &mut self.scratch);
        std::mem::swap(&mut fresh.num_buf, &mut self.num_buf);
        std::mem::swap(&mut fresh.spare_keys, &mut self.spare_keys);
        fresh.scratch.clear();
        fresh.num_buf.clear();
        for seg in self.path.drain(..) {
            if let Segment::Key(mut k) = seg {
                k.clear();
                fresh.spare_keys.push(k);
            }
        }
        std::mem::swap(&mut fresh.path, &mut self.path);
        *self = fresh;
    }

    /// Feeds a chunk of `&str` input; see [`feed`](Parser::feed).
    pub fn feed_str<S: TokenSink + ?Sized>(
        &mut self,
        chunk: &str,
        sink: &mut S,
    ) -> Result<(), Error> {
        if chunk.len() <= FAST_STRING_CHUNK
            && self.state == State::Str
            && self.str_state == StrState::Normal
            && !self.in_key
            && !self.blocked
            && self.string_chunk(chunk.as_bytes(), Some(chunk), sink)
        {
            return Ok(());
        }
        self.feed_checked(chunk.as_bytes(), chunk, sink)
    }

    /// Feeds the next chunk of input. Any size is fine, an empty chunk
    /// included. Returns `Ok` when the chunk was consumed (whether or not the
    /// value is complete), or the error at the first byte that cannot be
    /// JSON; after an error every call returns that error again.
    pub fn feed<S: TokenSink + ?Sized>(&mut self, chunk: &[u8], sink: &mut S) -> Result<(), Error> {
        // A small chunk in the middle of a string value's plain text (the
        // common case when a vendor streams a long argument) is handed on
        // as it is, without going through the state machine.
        if chunk.len() <= FAST_STRING_CHUNK
            && self.state == State::Str
            && !self.in_key
            && !self.blocked
        {
            // Text for the sink's buffer: appended as it goes, with no piece
            // to make and no check on ASCII, which is cheaper than the fast
            // path below and a validation up front.
            if self.direct_now(sink) {
                return self.small_chunk_direct(chunk, sink);
            }
            if self.str_state == StrState::Normal && self.string_chunk(chunk, None, sink) {
                return Ok(());
            }
        }
        // One SIMD pass over a chunk that is not tiny: string runs and number
        // lexemes in its valid prefix (as vendor deltas, which are decoded
        // JSON strings, are valid whole) are sliced out with no more checks.
        let text = if chunk.len() >= VALIDATE_AT {
            valid_prefix(chunk)
        } else {
            ""
        };
        self.feed_checked(chunk, text, sink)
    }

    /// The fast path for a chunk that is entirely plain text inside a
    /// string value (no quote, backslash, control byte, invalid UTF-8 or
    /// character split at its end): hands it to the sink
    /// as one `StringPart`, exactly as the state machine would, and returns
    /// `true`; returns `false` having done nothing otherwise (the caller then
    /// takes the general path, which also reports any limit error).
    #[inline]
    fn string_chunk<S: TokenSink + ?Sized>(
        &mut self,
        chunk: &[u8],
        valid: Option<&str>,
        sink: &mut S,
    ) -> bool {
        let n = chunk.len();
        let (end, _) = scan_string_run(chunk);
        if end != n {
            return false;
        }
        let text = match valid {
            Some(t) => t,
            None => match std::str::from_utf8(chunk) {
                Ok(t) => t,
                Err(_) => return false,
            },
        };
        let len = self.str_len + n;
        let end_offset = self.offset + n as u64;
        if len > self.limits.max_string_bytes || end_offset > self.limits.max_input_bytes {
            return false;
        }
        self.str_len = len;
        self.offset = end_offset;
        if n > 0 {
            emit!(self, sink, Token::StringPart(text), end_offset);
        }
        true
    }

    /// A small chunk that continues a string value whose text goes into the
    /// sink's buffer (see `direct_from`). Plain ASCII, one-character escapes
    /// and whole multi-byte characters are appended in one pass: plain
    /// ASCII eight bytes at a time up to the first byte that is not (on 64
    /// KiB of escaped source text in 16-byte chunks, 1,589k → 1,442k
    /// instructions; a chunk of under 8 bytes pays one test), the rest
    /// byte by byte (cheaper on a few bytes than a scan, a copy call and
    /// the state machine); a backslash or a character's first bytes at the
    /// chunk's end are carried, and an escape letter or a character's last
    /// bytes that begin the next chunk complete them, as the state machine
    /// would. At anything else (the closing quote, a `\u` escape, a control
    /// byte, bad UTF-8) the state machine takes over at that byte, so that
    /// no byte is read twice and every token, error and offset is as it
    /// would be.
    #[inline(always)]
    fn small_chunk_direct<S: TokenSink + ?Sized>(
        &mut self,
        chunk: &[u8],
        sink: &mut S,
    ) -> Result<(), Error> {
        let n = chunk.len();
        let base = self.offset;
        let mut i = 0usize;
        // Decoded text is never longer than its raw bytes plus a carried
        // character (at most 3 bytes), so a chunk that fits both limits
        // with that margin cannot cross either here.
        if self.str_len + n + 4 <= self.direct_max
            && base + n as u64 <= self.limits.max_input_bytes
            && let Some(buf) = sink.string_bytes()
        {
            let before = buf.len();
            match self.str_state {
                StrState::Normal => {}
                StrState::Escape => {
                    if let Some(d) = chunk.first().and_then(|&b| simple_escape(b)) {
                        buf.push(d);
                        i = 1;
                        self.str_state = StrState::Normal;
                    }
                }
                StrState::Utf8 => {
                    let have = self.utf8_len as usize;
                    let need = self.utf8_need as usize;
                    let mut ch = self.utf8;
                    if let (Some(rest), Some(slot)) = (
                        chunk.get(..need.saturating_sub(have)),
                        ch.get_mut(have..need),
                    ) && !rest.is_empty()
                    {
                        slot.copy_from_slice(rest);
                        if let Utf8At::Whole(_) = utf8_at(&ch[..need], 0) {
                            buf.extend_from_slice(&ch[..need]);
                            i = rest.len();
                            self.utf8_len = 0;
                            self.str_state = StrState::Normal;
                        }
                    }
                }
                // `\u` escapes: the state machine.
                _ => {}
            }
            if self.str_state == StrState::Normal {
                // Eight bytes at a time while eight are left: all of a word
                // up to its first quote, backslash, control or non-ASCII
                // byte is appended at once (the word whole, then the tail
                // past that byte cut off again); from that byte on, the
                // loop below, so no byte is looked at twice. (A chunk of a
                // few bytes skips this with one test.)
                while i + 8 <= n {
                    let Some(word) = chunk.get(i..i + 8) else {
                        break;
                    };
                    let mut w = [0u8; 8];
                    w.copy_from_slice(word);
                    let w = u64::from_le_bytes(w);
                    let stop = special_bytes(w) | (w & HIGHS);
                    buf.extend_from_slice(word);
                    if stop == 0 {
                        i += 8;
                        continue;
                    }
                    let plain = (stop.trailing_zeros() / 8) as usize;
                    buf.truncate(buf.len() - (8 - plain));
                    i += plain;
                    break;
                }
                while let Some(&b) = chunk.get(i) {
                    match STRING_CLASS[b as usize] {
                        0 => {
                            buf.push(b);
                            i += 1;
                        }
                        SPECIAL => {
                            if b != b'\\' {
                                break;
                            }
                            match chunk.get(i + 1) {
                                None => {
                                    self.str_state = StrState::Escape;
                                    i += 1;
                                }
                                Some(&e) => {
                                    let Some(d) = simple_escape(e) else {
                                        break;
                                    };
                                    buf.push(d);
                                    i += 2;
                                }
                            }
                        }
                        _ => match utf8_at(chunk, i) {
                            Utf8At::Whole(len) => {
                                buf.extend_from_slice(chunk.get(i..i + len).unwrap_or(&[]));
                                i += len;
                            }
                            Utf8At::Cut => {
                                let tail = chunk.get(i..).unwrap_or(&[]);
                                self.carry_utf8(tail, base + i as u64);
                                i = n;
                            }
                            Utf8At::Bad => break,
                        },
                    }
                }
            }
            self.str_len += buf.len() - before;
            self.offset = base + i as u64;
        }
        match chunk.get(i..) {
            Some(rest) if !rest.is_empty() => self.feed_checked(rest, "", sink),
            _ => Ok(()),
        }
    }

    #[inline]
    fn feed_checked<S: TokenSink + ?Sized>(
        &mut self,
        chunk: &[u8],
        text: &str,
        sink: &mut S,
    ) -> Result<(), Error> {
        if self.blocked {
            return Err(self.stopped());
        }
        let room = self.limits.max_input_bytes.saturating_sub(self.offset);
        let over = (chunk.len() as u64) > room;
        let (c, t) = if over {
            let allowed = room as usize;
            (
                chunk.get(..allowed).unwrap_or(&[]),
                text.get(..allowed.min(text.len())).unwrap_or(""),
            )
        } else {
            (chunk, text)
        };
        let mut result = self.run(c, t, sink);
        if over && result.is_ok() {
            result = Err(self.error_at(
                ErrorCode::LimitExceeded {
                    kind: LimitKind::InputBytes,
                    limit: self.limits.max_input_bytes,
                },
                self.offset,
            ));
        }
        if let Err(e) = &result {
            self.fail(e);
        }
        result
    }

    /// The error of a parser that an error or `finish()` stopped.
    #[cold]
    fn stopped(&self) -> Error {
        match &self.failed {
            Some(e) => e.clone(),
            None => self.error_at(ErrorCode::AfterFinish, self.offset),
        }
    }

    #[cold]
    fn fail(&mut self, e: &Error) {
        self.failed = Some(e.clone());
        self.blocked = true;
    }

    /// Ends the input. Emits a number that ran to the end, then returns `Ok`
    /// if the root value is complete, or a truncation error naming what was
    /// left open. Calling it twice is a misuse error.
    pub fn finish<S: TokenSink + ?Sized>(&mut self, sink: &mut S) -> Result<(), Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.finished {
            return Err(self.error_at(ErrorCode::AfterFinish, self.offset));
        }
        self.finished = true;
        self.blocked = true;
        let result = self.finish_inner(sink);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn finish_inner<S: TokenSink + ?Sized>(&mut self, sink: &mut S) -> Result<(), Error> {
        if let State::Num(ns) = self.state
            && ns.is_terminal()
        {
            emit!(self, sink, Token::Number(&self.num_buf), self.offset);
            self.num_buf.clear();
            self.num_len = 0;
            self.value_done();
        }
        let what = match self.state {
            State::Done => return Ok(()),
            State::Str => "a string",
            State::Value | State::Num(_) | State::Lit { .. } => "a value",
            State::ObjectFirst | State::ObjectKey | State::Colon => "an object",
            State::ArrayFirst | State::AfterValue => match self.stack.last() {
                Some(Container::Object) => "an object",
                _ => "a list",
            },
        };
        Err(self.eof_error(what))
    }

    #[cold]
    fn eof_error(&self, what: &'static str) -> Error {
        Error::new(
            ErrorCode::Eof(what),
            self.offset,
            self.line,
            self.offset - self.line_start,
            self.error_path(),
        )
    }

    fn error_path(&self) -> Path {
        let mut segs = self.path.clone();
        let expecting_key = matches!(self.state, State::ObjectFirst | State::ObjectKey)
            || (self.state == State::Str && self.in_key);
        if expecting_key {
            segs.pop();
        }
        Path::from_segments(segs)
    }

    #[cold]
    fn error_at(&self, code: ErrorCode, offset: u64) -> Error {
        let column = offset.saturating_sub(self.line_start) + 1;
        Error::new(code, offset, self.line, column, self.error_path())
    }

    #[cold]
    fn expected(&self, expected: &'static str, byte: u8, offset: u64) -> Error {
        self.error_at(
            ErrorCode::Expected {
                expected,
                found: describe_byte(byte),
            },
            offset,
        )
    }

    #[inline]
    fn value_done(&mut self) {
        self.state = if self.stack.is_empty() {
            State::Done
        } else {
            State::AfterValue
        };
    }

    #[inline]
    fn skip_ws(&mut self, c: &[u8], mut i: usize, base: u64) -> usize {
        while let Some(&b) = c.get(i) {
            match b {
                b' ' | b'\t' | b'\r' => i += 1,
                b'\n' => {
                    self.line += 1;
                    self.line_start = base + i as u64 + 1;
                    i += 1;
                }
                _ => break,
            }
        }
        i
    }

    fn run<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        sink: &mut S,
    ) -> Result<(), Error> {
        let base = self.offset;
        let n = c.len();
        let mut i = 0usize;
        // Where the current number's lexeme starts in this chunk (0 when it
        // started in an earlier chunk and its head is in `num_buf`).
        let mut num_start = 0usize;
        while i < n {
            match self.state {
                State::Str => {
                    // Text for the sink's buffer (see `string`) takes its
                    // own copy of the string loop, out of line, so that the
                    // usual one is compiled as if the buffer did not exist.
                    i = if cs.is_empty() && self.direct_now(sink) {
                        self.string_direct(c, i, base, sink)?
                    } else {
                        self.string::<false, S>(c, cs, i, base, sink)?
                    };
                }
                State::Num(ns) => {
                    let start = i;
                    let (len, ns) = number_rest(c.get(i..).unwrap_or(&[]), ns);
                    i += len;
                    self.num_len += i - start;
                    if self.num_len > self.limits.max_number_bytes {
                        let over = self.num_len - self.limits.max_number_bytes;
                        return Err(self.error_at(
                            ErrorCode::LimitExceeded {
                                kind: LimitKind::NumberBytes,
                                limit: self.limits.max_number_bytes as u64,
                            },
                            base + (i - over) as u64,
                        ));
                    }
                    if i == n {
                        self.state = State::Num(ns);
                        push_ascii(&mut self.num_buf, c.get(num_start..n).unwrap_or(&[]));
                        break;
                    }
                    let b = c[i];
                    if !ends_number(ns, b) {
                        return Err(self.expected(ns.expected(), b, base + i as u64));
                    }
                    let off = base + i as u64 + 1;
                    if self.num_buf.is_empty() {
                        let lexeme = match cs.get(num_start..i) {
                            Some(l) => l,
                            None => std::str::from_utf8(&c[num_start..i]).unwrap_or("0"),
                        };
                        emit!(self, sink, Token::Number(lexeme), off);
                    } else {
                        push_ascii(&mut self.num_buf, c.get(..i).unwrap_or(&[]));
                        emit!(self, sink, Token::Number(&self.num_buf), off);
                        self.num_buf.clear();
                    }
                    self.num_len = 0;
                    self.value_done();
                    // The numbers after it in an array: the tighter loop,
                    // as after the first number of a chunk.
                    if self.stack.last() == Some(&Container::Array) {
                        i = self.number_items(c, cs, i, base, sink);
                    }
                }
                State::Lit { lit, mut matched } => {
                    let word = LITERALS[lit as usize];
                    while (matched as usize) < word.len() {
                        let Some(&b) = c.get(i) else {
                            self.state = State::Lit { lit, matched };
                            return self.end_chunk(base, n);
                        };
                        if b != word[matched as usize] {
                            return Err(self.expected(
                                LITERAL_NAMES[lit as usize],
                                b,
                                base + i as u64,
                            ));
                        }
                        matched += 1;
                        i += 1;
                    }
                    let tok = match lit {
                        0 => Token::Bool(true),
                        1 => Token::Bool(false),
                        _ => Token::Null,
                    };
                    emit!(self, sink, tok, base + i as u64);
                    self.value_done();
                }
                State::Value => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    if matches!(c[i], b'-' | b'0'..=b'9') {
                        // Fast path: one scan of the number, which either
                        // ends cleanly in this chunk or runs to its end (its
                        // head is then carried, as the state machine would
                        // carry it); errors and limits are left to the state
                        // machine.
                        let (len, ns) = number_head(&c[i..]);
                        if len <= self.limits.max_number_bytes {
                            match c.get(i + len) {
                                Some(&next) if ends_number(ns, next) => {
                                    let lexeme = match cs.get(i..i + len) {
                                        Some(l) => l,
                                        None => std::str::from_utf8(&c[i..i + len]).unwrap_or("0"),
                                    };
                                    emit!(
                                        self,
                                        sink,
                                        Token::Number(lexeme),
                                        base + (i + len) as u64 + 1
                                    );
                                    i += len;
                                    self.value_done();
                                    if self.stack.last() == Some(&Container::Array) {
                                        i = self.number_items(c, cs, i, base, sink);
                                    }
                                    continue;
                                }
                                None => {
                                    self.carry_number_head(c.get(i..).unwrap_or(&[]), ns);
                                    break;
                                }
                                Some(_) => {}
                            }
                        }
                        num_start = i;
                    }
                    i = self.begin_value(c, i, base, sink)?;
                }
                State::ArrayFirst => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    if c[i] == b']' {
                        i = self.close(Container::Array, i, base, sink);
                    } else {
                        self.state = State::Value;
                    }
                }
                State::AfterValue => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    let b = c[i];
                    match (b, self.stack.last()) {
                        (b',', Some(Container::Array)) => {
                            self.next_index();
                            self.state = State::Value;
                            i += 1;
                        }
                        (b',', Some(Container::Object)) => {
                            self.state = State::ObjectKey;
                            i += 1;
                        }
                        (b']', Some(Container::Array)) => {
                            i = self.close(Container::Array, i, base, sink);
                        }
                        (b'}', Some(Container::Object)) => {
                            i = self.close(Container::Object, i, base, sink);
                        }
                        (_, Some(Container::Object)) => {
                            return Err(self.expected("',' or '}'", b, base + i as u64));
                        }
                        _ => return Err(self.expected("',' or ']'", b, base + i as u64)),
                    }
                }
                State::ObjectFirst | State::ObjectKey => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    match c[i] {
                        b'"' => {
                            self.begin_key();
                            i += 1;
                        }
                        b'}' if self.state == State::ObjectFirst => {
                            i = self.close(Container::Object, i, base, sink);
                        }
                        b => {
                            let exp = if self.state == State::ObjectFirst {
                                "string key or '}'"
                            } else {
                                "string key"
                            };
                            return Err(self.expected(exp, b, base + i as u64));
                        }
                    }
                }
                State::Colon => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    if c[i] != b':' {
                        return Err(self.expected("':'", c[i], base + i as u64));
                    }
                    self.state = State::Value;
                    i += 1;
                }
                State::Done => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    return Err(self.error_at(
                        ErrorCode::TrailingCharacters(describe_byte(c[i])),
                        base + i as u64,
                    ));
                }
            }
        }
        self.end_chunk(base, n)
    }

    /// After a number in an array, at `c[i]`: takes `,` and the next number
    /// (optionally after one space) while both are whole in this chunk,
    /// and returns where it stopped, before a `,` it did not take. A last
    /// number that the chunk's end cuts is carried (its head and state, as
    /// the state machine would carry them) and `c.len()` returned. The
    /// tokens are the ones the state machine would emit; errors and limits
    /// are left to it.
    #[inline]
    fn number_items<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        mut i: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        while c.get(i) == Some(&b',') {
            let mut j = i + 1;
            if c.get(j) == Some(&b' ') {
                j += 1;
            }
            if !matches!(c.get(j), Some(b'-' | b'0'..=b'9')) {
                break;
            }
            let Some(rest) = c.get(j..) else { break };
            // Near the chunk's end a number is likely cut by it: one scan
            // that tells both cases apart, instead of `scan_number` failing
            // and a second scan.
            let len = if rest.len() <= NEAR_END {
                let (len, ns) = number_head(rest);
                if len > self.limits.max_number_bytes {
                    break;
                }
                match rest.get(len) {
                    None => {
                        self.next_index();
                        self.carry_number_head(rest, ns);
                        return c.len();
                    }
                    Some(&next) if ends_number(ns, next) => len,
                    Some(_) => break,
                }
            } else {
                let Some(len) = scan_number(rest) else {
                    let (len, ns) = number_head(rest);
                    if j + len == c.len() && len <= self.limits.max_number_bytes {
                        self.next_index();
                        self.carry_number_head(rest, ns);
                        return c.len();
                    }
                    break;
                };
                if len > self.limits.max_number_bytes {
                    break;
                }
                len
            };
            self.next_index();
            let lexeme = match cs.get(j..j + len) {
                Some(l) => l,
                None => std::str::from_utf8(&rest[..len]).unwrap_or("0"),
            };
            emit!(
                self,
                sink,
                Token::Number(lexeme),
                base + (j + len) as u64 + 1
            );
            i = j + len;
        }
        i
    }

    /// Counts the next item of the innermost array in the path.
    #[inline(always)]
    fn next_index(&mut self) {
        if let Some(Segment::Index(ix)) = self.path.last_mut() {
            *ix += 1;
        }
    }

    /// Carries `head`, a number that the fast scans found running to the
    /// chunk's end in state `ns`, for the next chunk to resume; the caller
    /// has checked it against the number limit.
    #[inline(always)]
    fn carry_number_head(&mut self, head: &[u8], ns: NumState) {
        self.num_len = head.len();
        push_ascii(&mut self.num_buf, head);
        self.state = State::Num(ns);
    }

    #[inline]
    fn end_chunk(&mut self, base: u64, n: usize) -> Result<(), Error> {
        self.offset = base + n as u64;
        Ok(())
    }

    fn begin_value<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> Result<usize, Error> {
        let b = c[i];
        let off = base + i as u64;
        match b {
            b'{' | b'[' => {
                if self.stack.len() >= self.limits.max_depth {
                    return Err(self.error_at(
                        ErrorCode::LimitExceeded {
                            kind: LimitKind::Depth,
                            limit: self.limits.max_depth as u64,
                        },
                        off,
                    ));
                }
                if b == b'{' {
                    emit!(self, sink, Token::ObjectBegin, off + 1);
                    self.stack.push(Container::Object);
                    let key = self.spare_keys.pop().unwrap_or_default();
                    self.path.push(Segment::Key(key));
                    if self.duplicate_keys == DuplicateKeys::Error {
                        self.key_sets.push(HashSet::new());
                    }
                    self.state = State::ObjectFirst;
                } else {
                    emit!(self, sink, Token::ArrayBegin, off + 1);
                    self.stack.push(Container::Array);
                    self.path.push(Segment::Index(0));
                    self.state = State::ArrayFirst;
                }
                Ok(i + 1)
            }
            b'"' => {
                emit!(self, sink, Token::StringBegin, off + 1);
                self.exact_from = sink.exact_string_offsets_from().unwrap_or(usize::MAX);
                self.direct_max = self.limits.max_string_bytes;
                self.direct_from = if sink.string_bytes().is_none() {
                    usize::MAX
                } else if self.exact_from != usize::MAX {
                    self.direct_before_exact(c.len())
                } else if c.len() < VALIDATE_AT {
                    // Input arriving in chunks too small to validate up
                    // front: the buffer from the first byte.
                    0
                } else {
                    DIRECT_FROM
                };
                self.in_key = false;
                self.str_len = 0;
                self.str_state = StrState::Normal;
                self.state = State::Str;
                Ok(i + 1)
            }
            b'-' | b'0'..=b'9' => {
                self.num_len = 0;
                self.state = State::Num(NumState::Start);
                Ok(i)
            }
            b't' | b'f' | b'n' => {
                let lit = match b {
                    b't' => 0,
                    b'f' => 1,
                    _ => 2,
                };
                self.state = State::Lit { lit, matched: 0 };
                Ok(i)
            }
            _ => Err(self.expected("value", b, off)),
        }
    }

    /// `direct_from` (and `direct_max`) for a string value whose sink has a
    /// buffer and asks for exact piece offsets from `exact_from` decoded
    /// bytes on: the buffer up to [`DIRECT_MARGIN`] bytes short of that
    /// bound, or never when the bound is that close to the start. `chunk` is
    /// the length of the chunk the string began in.
    #[cold]
    fn direct_before_exact(&mut self, chunk: usize) -> usize {
        if self.exact_from <= 2 * DIRECT_MARGIN {
            return usize::MAX;
        }
        self.direct_max = self.direct_max.min(self.exact_from - DIRECT_MARGIN);
        if chunk < VALIDATE_AT { 0 } else { DIRECT_FROM }
    }

    fn begin_key(&mut self) {
        if let Some(Segment::Key(k)) = self.path.last_mut() {
            k.clear();
        }
        self.in_key = true;
        self.direct_from = usize::MAX;
        self.str_len = 0;
        self.str_state = StrState::Normal;
        self.state = State::Str;
    }

    fn close<S: TokenSink + ?Sized>(
        &mut self,
        kind: Container,
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        if let Some(Segment::Key(mut k)) = self.path.pop() {
            k.clear();
            self.spare_keys.push(k);
        }
        self.stack.pop();
        let tok = if kind == Container::Object {
            if self.duplicate_keys == DuplicateKeys::Error {
                self.key_sets.pop();
            }
            Token::ObjectEnd
        } else {
            Token::ArrayEnd
        };
        emit!(self, sink, tok, base + i as u64 + 1);
        self.value_done();
        i + 1
    }

    #[cold]
    fn string_limit(&self, at: u64) -> Error {
        self.error_at(
            ErrorCode::LimitExceeded {
                kind: LimitKind::StringBytes,
                limit: self.limits.max_string_bytes as u64,
            },
            at,
        )
    }

    /// The string limit error when `text`, ending at offset `at`, took
    /// `str_len` past the limit: named, as a byte-at-a-time feed would, at
    /// the end of the character holding the first byte past the limit.
    #[cold]
    fn string_limit_within(&self, text: &str, at: u64) -> Error {
        let before = self.str_len.saturating_sub(text.len());
        let mut end = self.limits.max_string_bytes.saturating_sub(before) + 1;
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        let end = end.min(text.len());
        self.string_limit(at - (text.len() - end) as u64)
    }

    /// Appends decoded text to the current key or string.
    #[inline]
    fn push_text(&mut self, s: &str, at: u64) -> Result<(), Error> {
        self.str_len += s.len();
        if self.str_len > self.limits.max_string_bytes {
            return Err(self.string_limit_within(s, at));
        }
        if self.in_key {
            if let Some(Segment::Key(k)) = self.path.last_mut() {
                k.push_str(s);
            }
        } else {
            self.scratch.push_str(s);
        }
        Ok(())
    }

    #[inline(always)]
    fn push_char(&mut self, ch: char, at: u64) -> Result<(), Error> {
        self.str_len += ch.len_utf8();
        if self.str_len > self.limits.max_string_bytes {
            return Err(self.string_limit(at));
        }
        if self.in_key {
            if let Some(Segment::Key(k)) = self.path.last_mut() {
                k.push(ch);
            }
        } else {
            self.scratch.push(ch);
        }
        Ok(())
    }

    /// Whether decoded text of `upcoming` more bytes reaches the point from
    /// which the sink wants exact piece offsets: the text is then handed on
    /// as a piece of its own (what `scratch` held before it first, at the
    /// byte where it ended).
    #[inline(always)]
    fn exact_for(&self, upcoming: usize) -> bool {
        self.str_len.saturating_add(upcoming) >= self.exact_from
    }

    /// `flush`, out of the hot path: only sinks asking for exact offsets
    /// come here.
    #[cold]
    #[inline(never)]
    fn flush_exact<S: TokenSink + ?Sized>(&mut self, sink: &mut S, off: u64) {
        self.flush(sink, off);
    }

    /// Appends an escaped character that ends at `at`: a piece of its own
    /// when the sink wants exact offsets by now (see `exact_for`).
    #[inline(always)]
    fn push_escaped<S: TokenSink + ?Sized>(
        &mut self,
        sink: &mut S,
        ch: char,
        at: u64,
        escape_len: u64,
        exact_sink: bool,
        direct: bool,
    ) -> Result<(), Error> {
        if direct {
            return self.append_direct(sink, ch.encode_utf8(&mut [0; 4]).as_bytes(), at);
        }
        let exact = exact_sink && self.exact_for(ch.len_utf8());
        if exact {
            // Where the escape began, when that was in this chunk (otherwise
            // the scratch is empty: it was handed on at the chunk's end).
            self.flush_exact(sink, at.saturating_sub(escape_len));
        }
        self.push_char(ch, at)?;
        if exact {
            self.flush_exact(sink, at);
        }
        Ok(())
    }

    /// Whether the current string value's text goes into the sink's buffer
    /// by now: once it is long enough ([`DIRECT_FROM`]) for the sink's one
    /// check of the whole to cost less than the small checks and pieces it
    /// replaces. (Asking the sink first lets the compiler drop the buffer's
    /// paths altogether for a sink without one.)
    #[inline(always)]
    fn direct_now<S: TokenSink + ?Sized>(&self, sink: &mut S) -> bool {
        sink.string_bytes().is_some() && self.str_len >= self.direct_from
    }

    /// Appends checked UTF-8 text of the current string value, ending at
    /// `at`, to the sink's buffer (see `direct_from`).
    #[inline(always)]
    fn append_direct<S: TokenSink + ?Sized>(
        &mut self,
        sink: &mut S,
        text: &[u8],
        at: u64,
    ) -> Result<(), Error> {
        self.str_len += text.len();
        if self.str_len > self.limits.max_string_bytes {
            return Err(self.string_limit_within(std::str::from_utf8(text).unwrap_or(""), at));
        }
        if let Some(buf) = sink.string_bytes() {
            buf.extend_from_slice(text);
        }
        Ok(())
    }

    /// The error for a string run whose first `valid` bytes are UTF-8 and
    /// the next are not (or are cut short before more text), the run
    /// starting at offset `start`. Text past the string limit comes first,
    /// as it does when the bad byte is in a later chunk.
    #[cold]
    fn run_utf8_error(&mut self, run: &[u8], valid: usize, start: u64) -> Error {
        let at = start + valid as u64;
        if self.str_len + valid > self.limits.max_string_bytes {
            let text = run
                .get(..valid)
                .and_then(|t| std::str::from_utf8(t).ok())
                .unwrap_or("");
            self.str_len += valid;
            return self.string_limit_within(text, at);
        }
        self.error_at(ErrorCode::InvalidUtf8, at)
    }

    /// Keeps the first bytes of a character that the chunk's end split
    /// (`tail`, starting at offset `start`) for the next chunk.
    fn carry_utf8(&mut self, tail: &[u8], start: u64) {
        let carry = tail.len().min(4);
        self.utf8[..carry].copy_from_slice(&tail[..carry]);
        self.utf8_len = carry as u8;
        self.utf8_need = tail.first().map_or(4, |&b| utf8_width(b));
        self.utf8_start = start;
        self.str_state = StrState::Utf8;
    }

    /// Hands decoded text gathered in `scratch` to the sink.
    #[inline(always)]
    fn flush<S: TokenSink + ?Sized>(&mut self, sink: &mut S, off: u64) {
        if !self.in_key && !self.scratch.is_empty() {
            emit!(self, sink, Token::StringPart(&self.scratch), off);
            self.scratch.clear();
        }
    }

    /// `string` for a chunk whose string value text goes into the sink's
    /// buffer; for a sink asking for exact piece offsets, only while the
    /// chunk's text stays [`DIRECT_MARGIN`] bytes short of the bound
    /// (pieces otherwise; see `direct_max`).
    #[inline(never)]
    fn string_direct<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> Result<usize, Error> {
        if self.exact_from != usize::MAX && self.exact_for(c.len() - i + DIRECT_MARGIN) {
            return self.string::<false, S>(c, "", i, base, sink);
        }
        self.string::<true, S>(c, "", i, base, sink)
    }

    /// Consumes string bytes from `c[i..]`; returns where it stopped (the
    /// chunk end, or just past the closing quote).
    #[inline(always)]
    fn string<const DIRECT: bool, S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        mut i: usize,
        base: u64,
        sink: &mut S,
    ) -> Result<usize, Error> {
        let n = c.len();
        // Whether this string's sink wants exact piece offsets anywhere in
        // this chunk (kept in a register: the common answer, no, costs one
        // branch). This call decodes at most the chunk's remaining bytes
        // plus a carried character or escape (4 bytes), so a bound further
        // on than that (a long `maxLength`, say) is not reached here.
        let exact_sink = self.exact_from != usize::MAX
            && self.str_len.saturating_add(n.saturating_sub(i) + 4) >= self.exact_from;
        // `DIRECT`: this chunk's text of a string value goes straight into
        // the sink's buffer. The caller picks it when the sink offers one
        // and the chunk was too small to validate up front (a run there
        // would otherwise need a check of its own to become a `&str`, and a
        // piece a token of its own). Text validated with the chunk is
        // handed on in pieces as ever: the sink's one check of the buffer
        // would be a second look at it.
        let direct = DIRECT;
        loop {
            // A chunk usually starts (and a run always resumes) in plain
            // text: one predictable test, not a jump through the state table.
            if self.str_state != StrState::Normal {
                match self.str_state {
                    StrState::Normal => {}
                    StrState::Utf8 => {
                        while self.utf8_len < self.utf8_need {
                            let Some(&b) = c.get(i) else {
                                self.flush(sink, base + n as u64);
                                return Ok(n);
                            };
                            // The second byte's range depends on the lead (no
                            // overlongs, no surrogates, nothing past U+10FFFF),
                            // checked as it arrives, as a whole-chunk check would.
                            // (The same ranges as in `utf8_at`. One table shared
                            // by both cost parallel_edits 0.69 -> 0.65-0.68 of
                            // actson in 4-byte chunks and the events-only rows
                            // up to 0.06, interleaved, in the eleventh session.)
                            let (lo, hi) = match (self.utf8_len, self.utf8[0]) {
                                (1, 0xE0) => (0xA0, 0xBF),
                                (1, 0xED) => (0x80, 0x9F),
                                (1, 0xF0) => (0x90, 0xBF),
                                (1, 0xF4) => (0x80, 0x8F),
                                _ => (0x80, 0xBF),
                            };
                            if !(lo..=hi).contains(&b) {
                                return Err(self.error_at(ErrorCode::InvalidUtf8, self.utf8_start));
                            }
                            self.utf8[self.utf8_len as usize] = b;
                            self.utf8_len += 1;
                            i += 1;
                        }
                        let bytes = self.utf8;
                        let need = self.utf8_need as usize;
                        let Ok(s) = std::str::from_utf8(&bytes[..need]) else {
                            return Err(self.error_at(ErrorCode::InvalidUtf8, self.utf8_start));
                        };
                        // (The scratch is empty: it was handed on at the end
                        // of the chunk that held the character's first bytes.)
                        let exact = exact_sink && self.exact_for(need);
                        if direct {
                            self.append_direct(sink, s.as_bytes(), base + i as u64)?;
                        } else {
                            self.push_text(s, base + i as u64)?;
                        }
                        if exact {
                            self.flush_exact(sink, base + i as u64);
                        }
                        self.utf8_len = 0;
                        self.str_state = StrState::Normal;
                        continue;
                    }
                    StrState::Escape => {
                        let Some(&b) = c.get(i) else {
                            self.flush(sink, base + n as u64);
                            return Ok(n);
                        };
                        let ch = match b {
                            b'u' => {
                                self.str_state = StrState::Hex {
                                    code: 0,
                                    digits: 0,
                                    high: None,
                                };
                                i += 1;
                                continue;
                            }
                            _ => match simple_escape(b) {
                                Some(d) => char::from(d),
                                None => {
                                    return Err(self.expected(
                                        "escape character (one of \" \\ / b f n r t u)",
                                        b,
                                        base + i as u64,
                                    ));
                                }
                            },
                        };
                        i += 1;
                        self.push_escaped(sink, ch, base + i as u64, 2, exact_sink, direct)?;
                        self.str_state = StrState::Normal;
                        continue;
                    }
                    StrState::Hex {
                        mut code,
                        mut digits,
                        high,
                    } => {
                        while digits < 4 {
                            let Some(&b) = c.get(i) else {
                                self.str_state = StrState::Hex { code, digits, high };
                                self.flush(sink, base + n as u64);
                                return Ok(n);
                            };
                            let d = match b {
                                b'0'..=b'9' => b - b'0',
                                b'a'..=b'f' => b - b'a' + 10,
                                b'A'..=b'F' => b - b'A' + 10,
                                _ => return Err(self.expected("hex digit", b, base + i as u64)),
                            };
                            code = (code << 4) | d as u16;
                            digits += 1;
                            i += 1;
                        }
                        let at = base + i as u64;
                        match (high, code) {
                            (None, 0xD800..=0xDBFF) => {
                                self.str_state = StrState::LowBackslash(code);
                                continue;
                            }
                            (None, 0xDC00..=0xDFFF) => {
                                return Err(self.error_at(ErrorCode::LoneSurrogate(code), at - 1));
                            }
                            (None, _) => {
                                let ch = char::from_u32(code as u32).unwrap_or('\u{FFFD}');
                                self.push_escaped(sink, ch, at, 6, exact_sink, direct)?;
                            }
                            (Some(hi), 0xDC00..=0xDFFF) => {
                                let cp = 0x10000
                                    + (((hi as u32) - 0xD800) << 10)
                                    + (code as u32 - 0xDC00);
                                let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                                self.push_escaped(sink, ch, at, 12, exact_sink, direct)?;
                            }
                            (Some(hi), _) => {
                                return Err(self.error_at(ErrorCode::LoneSurrogate(hi), at - 1));
                            }
                        }
                        self.str_state = StrState::Normal;
                        continue;
                    }
                    StrState::LowBackslash(hi) | StrState::LowU(hi) => {
                        let Some(&b) = c.get(i) else {
                            self.flush(sink, base + n as u64);
                            return Ok(n);
                        };
                        let want = if matches!(self.str_state, StrState::LowBackslash(_)) {
                            b'\\'
                        } else {
                            b'u'
                        };
                        if b != want {
                            return Err(
                                self.error_at(ErrorCode::LoneSurrogate(hi), base + i as u64)
                            );
                        }
                        i += 1;
                        self.str_state = if want == b'\\' {
                            StrState::LowU(hi)
                        } else {
                            StrState::Hex {
                                code: 0,
                                digits: 0,
                                high: Some(hi),
                            }
                        };
                        continue;
                    }
                }
            }

            // Normal text: runs up to the next quote, backslash or control
            // byte, one-character escapes decoded on the way.
            loop {
                let rest = &c[i..];
                let (end, ascii) = scan_string_run(rest);
                if end > 0 && direct {
                    // Straight into the sink's buffer: ASCII (the scan saw
                    // no high bit) and text validated with the chunk need
                    // no check here. (A run ends at an ASCII byte or at the
                    // chunk's end, so one inside `cs` ends on a boundary.)
                    // The check below repeats the piece loop's on purpose:
                    // one shared function cost write_file 6% fed whole and
                    // 8% in 4-byte chunks in time (tenth session).
                    let run = &rest[..end];
                    let (valid, carry) = if ascii || i + end <= cs.len() {
                        (end, 0)
                    } else {
                        match simdutf8::compat::from_utf8(run) {
                            Ok(_) => (end, 0),
                            Err(e) => {
                                let valid = e.valid_up_to();
                                if e.error_len().is_some() || end < rest.len() {
                                    return Err(self.run_utf8_error(run, valid, base + i as u64));
                                }
                                (valid, end - valid)
                            }
                        }
                    };
                    self.append_direct(sink, &run[..valid], base + (i + valid) as u64)?;
                    if carry > 0 {
                        self.carry_utf8(&run[valid..], base + (n - carry) as u64);
                        return Ok(n);
                    }
                    i += end;
                } else if end > 0 {
                    let run = &rest[..end];
                    let exact = exact_sink && self.exact_for(end);
                    if exact {
                        self.flush_exact(sink, base + i as u64);
                    }
                    let (text, carry) = if let Some(t) = cs.get(i..i + end) {
                        (t, 0)
                    } else if ascii && end <= SHORT_RUN {
                        // Not validated up front (a small chunk): ASCII
                        // joins the key or the scratch byte by byte, which
                        // is cheaper than a validation call on a few bytes.
                        self.str_len += end;
                        if self.str_len > self.limits.max_string_bytes {
                            let k = self.limits.max_string_bytes + end - self.str_len;
                            return Err(self.string_limit(base + (i + k + 1) as u64));
                        }
                        if self.in_key {
                            if let Some(Segment::Key(k)) = self.path.last_mut() {
                                push_ascii(k, run);
                            }
                        } else {
                            push_ascii(&mut self.scratch, run);
                        }
                        ("", 0)
                    } else if ascii {
                        // All ASCII: the check cannot fail.
                        (std::str::from_utf8(run).unwrap_or(""), 0)
                    } else {
                        match simdutf8::compat::from_utf8(run) {
                            Ok(s) => (s, 0),
                            Err(e) => {
                                let valid = e.valid_up_to();
                                if e.error_len().is_some() || end < rest.len() {
                                    return Err(self.run_utf8_error(run, valid, base + i as u64));
                                }
                                let s = std::str::from_utf8(&run[..valid]).unwrap_or("");
                                (s, run.len() - valid)
                            }
                        }
                    };
                    if !text.is_empty() {
                        let at = base + (i + text.len()) as u64;
                        // Text that an escape follows joins the scratch, so
                        // that a piece is handed on once, not split at every
                        // escape.
                        if self.in_key || !self.scratch.is_empty() || rest.get(end) == Some(&b'\\')
                        {
                            self.push_text(text, at)?;
                        } else {
                            self.str_len += text.len();
                            if self.str_len > self.limits.max_string_bytes {
                                return Err(self.string_limit_within(text, at));
                            }
                            emit!(self, sink, Token::StringPart(text), at);
                        }
                    }
                    if exact {
                        self.flush_exact(sink, base + (i + end - carry) as u64);
                    }
                    if carry > 0 {
                        self.carry_utf8(&run[run.len() - carry..], base + (n - carry) as u64);
                        self.flush(sink, base + n as u64);
                        return Ok(n);
                    }
                    i += end;
                }
                let Some(&b) = c.get(i) else {
                    self.flush(sink, base + n as u64);
                    return Ok(n);
                };
                let off = base + i as u64;
                match b {
                    b'"' => {
                        self.flush(sink, off + 1);
                        if self.in_key {
                            if self.duplicate_keys == DuplicateKeys::Error
                                && let Some(Segment::Key(k)) = self.path.last()
                                && let Some(set) = self.key_sets.last_mut()
                                && !set.insert(k.clone())
                            {
                                let code = ErrorCode::DuplicateKey(k.clone());
                                self.state = State::Colon;
                                return Err(self.error_at(code, off));
                            }
                            if let Some(Segment::Key(k)) = self.path.last() {
                                emit!(self, sink, Token::Key(k), off + 1);
                            }
                            self.state = State::Colon;
                        } else {
                            emit!(self, sink, Token::StringEnd, off + 1);
                            self.value_done();
                        }
                        return Ok(i + 1);
                    }
                    b'\\' => {
                        // A one-character escape whose letter is in this
                        // chunk is decoded here; anything else goes through
                        // the escape states.
                        let ch = match c.get(i + 1).and_then(|&e| simple_escape(e)) {
                            Some(d) => char::from(d),
                            None => {
                                self.str_state = StrState::Escape;
                                i += 1;
                                break;
                            }
                        };
                        i += 2;
                        self.push_escaped(sink, ch, base + i as u64, 2, exact_sink, direct)?;
                    }
                    _ => {
                        return Err(self.error_at(ErrorCode::ControlCharacterInString(b), off));
                    }
                }
            }
        }
    }
}

/// Finds the end of a run of plain string bytes: the first `"`, `\\` or
/// control byte (or the end of `b`), and whether the run is all ASCII.
/// Eight bytes at a time (SWAR), as the run is usually long; the tail (and a
/// short input, such as a small chunk) byte by byte through a class table.
#[inline(always)]
fn scan_string_run(b: &[u8]) -> (usize, bool) {
    let mut high = 0u64;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let special = special_bytes(w);
        if special != 0 {
            // The lowest flag is exact (borrows only run upwards).
            let k = special.trailing_zeros() / 8;
            high |= w & ((1u64 << (k * 8)) - 1);
            return (i + k as usize, high & HIGHS == 0);
        }
        high |= w;
        i += 8;
    }
    let mut non_ascii = 0u8;
    while let Some(&x) = b.get(i) {
        let class = STRING_CLASS[x as usize];
        if class == SPECIAL {
            break;
        }
        non_ascii |= class;
        i += 1;
    }
    (i, high & HIGHS == 0 && non_ascii == 0)
}

/// The byte a one-character escape's letter stands for (`n` for a line
/// feed, ...), or `None` for `u` and anything that is not an escape letter.
/// A table rather than a `match`, which compiles to a jump table whose
/// indirect branch callgrind's branch simulation counts as mispredicted at
/// most escapes.
#[inline(always)]
fn simple_escape(letter: u8) -> Option<u8> {
    match ESCAPED[letter as usize] {
        0 => None,
        d => Some(d),
    }
}

/// [`simple_escape`]'s table: 0 where the letter is not a one-character
/// escape (no escape stands for a NUL byte).
static ESCAPED: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// What stands at a byte of 0x80 or more in string text (see [`utf8_at`]).
enum Utf8At {
    /// A well-formed character of this many bytes, all present.
    Whole(usize),
    /// The well-formed start of a character that the input's end cuts.
    Cut,
    /// Not UTF-8: a byte that cannot lead, an overlong form, a surrogate,
    /// past U+10FFFF or a missing continuation byte, as `str::from_utf8`
    /// decides.
    Bad,
}

/// Reads the character that starts at `b[i]` (see [`Utf8At`]).
#[inline(always)]
fn utf8_at(b: &[u8], i: usize) -> Utf8At {
    let Some(&lead) = b.get(i) else {
        return Utf8At::Bad;
    };
    // The second byte's range depends on the lead; the rest are 0x80..=0xBF.
    let (len, lo, hi) = match lead {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Utf8At::Bad,
    };
    match b.get(i + 1) {
        None => return Utf8At::Cut,
        Some(c) if !(lo..=hi).contains(c) => return Utf8At::Bad,
        Some(_) => {}
    }
    for k in 2..len {
        match b.get(i + k) {
            None => return Utf8At::Cut,
            Some(c) if c & 0xC0 != 0x80 => return Utf8At::Bad,
            Some(_) => {}
        }
    }
    Utf8At::Whole(len)
}

/// [`STRING_CLASS`] of a byte that ends a plain string run.
const SPECIAL: u8 = 2;

/// Per byte: 0 for plain ASCII, 1 for a non-ASCII byte, [`SPECIAL`] for `"`,
/// `\\` and control bytes.
static STRING_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i < 0x20 || i == b'"' as usize || i == b'\\' as usize {
            SPECIAL
        } else if i >= 0x80 {
            1
        } else {
            0
        };
        i += 1;
    }
    t
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` that is `"`, `\\` or below 0x20 (exact
/// for the lowest such byte, maybe spurious above it).
#[inline]
fn special_bytes(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    ((quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash)
        | (w.wrapping_sub(ONES * 0x20) & !w))
        & HIGHS
}

/// Chunks at least this long are validated as UTF-8 in one SIMD pass up
/// front; in shorter ones each string run is handled on its own (see
/// [`SHORT_RUN`]), which costs less than a validation call per chunk.
const VALIDATE_AT: usize = 16;

/// In `number_items`, a number that starts this close to the chunk's end
/// is scanned with `number_head`, which also tells a number cut by the end.
const NEAR_END: usize = 24;

/// Chunks up to this long that continue a string value's plain text take
/// [`Parser::string_chunk`], which skips the state machine.
const FAST_STRING_CHUNK: usize = 64;

/// ASCII string runs up to this long that were not validated up front are
/// copied byte by byte rather than validated.
const SHORT_RUN: usize = 64;

/// Decoded bytes a string value must have before its text goes into a
/// sink's buffer ([`TokenSink::string_bytes`]): a short string (a name, an
/// enum value) is cheaper handed on in a piece than checked again as a
/// whole. 16 measured best of 0, 16 and 64 (eleventh session): 0 cost the
/// short strings of nested_config 1–2% more instructions in 16- and
/// 64-byte chunks; 64 left parallel_edits' 20–60-byte strings in pieces.
/// A string that begins in a chunk of under [`VALIDATE_AT`] bytes takes the
/// buffer from its first byte instead (twelfth session): in such small
/// chunks the switch from pieces to the buffer part-way through a string
/// cost more (mispredicted branches) than checking short strings again;
/// parallel_edits in 4-byte chunks went from 0.70–0.74 to 0.82–0.92 of
/// actson, with nested_config's 16-byte chunks unchanged.
const DIRECT_FROM: usize = 16;

/// How far short of a bound from which a sink asks for exact piece offsets
/// the sink's buffer stops taking text: more than one small chunk's text
/// (at most [`FAST_STRING_CHUNK`] bytes and a carried character). The text
/// between the buffer's last and the bound then goes out as pieces, the
/// last of them ending at the bound (where exact offsets start), so that
/// the first exact piece's raw bytes start at a token's offset, as a
/// piece's raw bytes are reckoned (from the previous token's offset). A
/// precaution: with no margin the tests still pass (an exact piece whose
/// start is unknown is placed from its end), but the case then arises.
const DIRECT_MARGIN: usize = FAST_STRING_CHUNK + 8;

/// The longest valid UTF-8 prefix of `chunk` (all of it, usually; a
/// character split at the chunk's end is left to the string states).
fn valid_prefix(chunk: &[u8]) -> &str {
    // simdutf8 hands inputs under 64 bytes to the standard library anyway,
    // after a dispatch of its own.
    let valid = if chunk.len() < 64 {
        match std::str::from_utf8(chunk) {
            Ok(s) => return s,
            Err(e) => e.valid_up_to(),
        }
    } else {
        match simdutf8::compat::from_utf8(chunk) {
            Ok(s) => return s,
            Err(e) => e.valid_up_to(),
        }
    };
    chunk
        .get(..valid)
        .and_then(|p| std::str::from_utf8(p).ok())
        .unwrap_or("")
}

/// The length of the number lexeme at the start of `b` when it is complete,
/// well-formed and followed, within `b`, by a byte that ends it cleanly;
/// `None` otherwise (the number state machine then takes over and finds
/// what the case is: more input needed, or exactly which byte is wrong).
#[inline]
fn scan_number(b: &[u8]) -> Option<usize> {
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = skip_digits(b, i + 1),
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return None;
        }
        i = skip_digits(b, i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return None;
        }
        i = skip_digits(b, i + 1);
    }
    let next = *b.get(i)?;
    if next.is_ascii_alphanumeric() || matches!(next, b'.' | b'+' | b'-') {
        return None;
    }
    Some(i)
}

/// How far a number lexeme runs from the start of `b`, and the number state
/// at that point: the scan stops at the end of `b` (the number may go on in
/// the next chunk) or at the first byte that cannot continue the lexeme
/// under the RFC 8259 grammar (a byte-at-a-time table of that grammar is
/// the reference in the tests). The first number after a chunk's start (or
/// after a key) takes this scan, so that a number cut by the chunk's end is
/// scanned once; the numbers after it in an array take [`scan_number`],
/// which costs less when it succeeds (measured: routing those through this
/// scan too cost the whole numeric document 4.6% more instructions),
/// except within [`NEAR_END`] bytes of the chunk's end, where a number is
/// likely cut and this scan saves the failed one (64 KiB of numbers in
/// 16-byte chunks: 3,991k → 3,812k instructions at 92bab77; fed whole,
/// +0.7%).
#[inline]
fn number_head(b: &[u8]) -> (usize, NumState) {
    if b.first() == Some(&b'-') {
        int_part(b, 1, NumState::Minus)
    } else {
        int_part(b, 0, NumState::Start)
    }
}

/// [`number_head`] resumed in state `ns` (the state a chunk's end left a
/// number in) at the start of `b`.
#[inline(always)]
fn number_rest(b: &[u8], ns: NumState) -> (usize, NumState) {
    match ns {
        NumState::Start => number_head(b),
        NumState::Minus => int_part(b, 0, ns),
        NumState::Zero => frac_part(b, 0, ns),
        NumState::Int => frac_part(b, skip_digits(b, 0), ns),
        NumState::Dot => frac_digits(b, 0),
        NumState::Frac => exp_part(b, skip_digits(b, 0), ns),
        NumState::E => exp_sign(b, 0),
        NumState::ESign => exp_digits(b, 0),
        NumState::Exp => (skip_digits(b, 0), ns),
    }
}

/// The integer part at `b[i]`, in state `ns` (`Start` or `Minus`) until
/// its first digit.
#[inline(always)]
fn int_part(b: &[u8], i: usize, ns: NumState) -> (usize, NumState) {
    match b.get(i) {
        Some(b'0') => frac_part(b, i + 1, NumState::Zero),
        Some(b'1'..=b'9') => frac_part(b, skip_digits(b, i + 1), NumState::Int),
        _ => (i, ns),
    }
}

/// After the integer part, at `b[i]`, in state `ns`.
#[inline(always)]
fn frac_part(b: &[u8], i: usize, ns: NumState) -> (usize, NumState) {
    if b.get(i) == Some(&b'.') {
        frac_digits(b, i + 1)
    } else {
        exp_part(b, i, ns)
    }
}

/// After a `.`, at `b[i]`.
#[inline(always)]
fn frac_digits(b: &[u8], i: usize) -> (usize, NumState) {
    if matches!(b.get(i), Some(b'0'..=b'9')) {
        exp_part(b, skip_digits(b, i + 1), NumState::Frac)
    } else {
        (i, NumState::Dot)
    }
}

/// After the integer or fraction digits, at `b[i]`, in state `ns`.
#[inline(always)]
fn exp_part(b: &[u8], i: usize, ns: NumState) -> (usize, NumState) {
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exp_sign(b, i + 1)
    } else {
        (i, ns)
    }
}

/// After an `e`, at `b[i]`.
#[inline(always)]
fn exp_sign(b: &[u8], i: usize) -> (usize, NumState) {
    match b.get(i) {
        Some(b'+' | b'-') => exp_digits(b, i + 1),
        Some(b'0'..=b'9') => (skip_digits(b, i + 1), NumState::Exp),
        _ => (i, NumState::E),
    }
}

/// After the exponent's sign, at `b[i]`.
#[inline(always)]
fn exp_digits(b: &[u8], i: usize) -> (usize, NumState) {
    if matches!(b.get(i), Some(b'0'..=b'9')) {
        (skip_digits(b, i + 1), NumState::Exp)
    } else {
        (i, NumState::ESign)
    }
}

/// Whether a number scanned to state `ns` is complete and cleanly ended by
/// `next`: a number directly followed by something that would continue a
/// number or a word is malformed (`01`, `1.5.3`, `2x`), not a second value.
#[inline]
fn ends_number(ns: NumState, next: u8) -> bool {
    ns.is_terminal() && !(next.is_ascii_alphanumeric() || matches!(next, b'.' | b'+' | b'-'))
}

/// The index of the first byte at or after `i` that is not an ASCII digit
/// (or `b.len()`): eight bytes at a time where eight are left.
#[inline(always)]
fn skip_digits(b: &[u8], mut i: usize) -> usize {
    // Short runs (a small integer) end at once.
    if !matches!(b.get(i), Some(b'0'..=b'9')) {
        return i;
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // High bit of each byte below '0', or above '9' (or not ASCII);
        // exact for the lowest such byte, as borrows and carries only run
        // upwards from bytes that are flagged themselves.
        let below = w.wrapping_sub(ONES * b'0' as u64) & !w;
        let above = w.wrapping_add(ONES * (0x80 - b':' as u64)) | w;
        let flags = (below | above) & HIGHS;
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while matches!(b.get(i), Some(b'0'..=b'9')) {
        i += 1;
    }
    i
}

/// Appends ASCII bytes (a number's head, a short string run known to be
/// ASCII) to `s`, one by one: cheaper for a few bytes than a validation
/// call.
#[inline(always)]
fn push_ascii(s: &mut String, bytes: &[u8]) {
    s.reserve(bytes.len());
    for &b in bytes {
        // The mask (a no-op on ASCII) tells the compiler each char is one
        // byte long.
        s.push(char::from(b & 0x7f));
    }
}

/// The length of the UTF-8 sequence that `lead` starts (2 to 4 for the
/// leads simdutf8 reports as incomplete).
fn utf8_width(lead: u8) -> u8 {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Builds a [`Value`] from tokens: the sink for callers who want the
/// finished value only.
///
/// # Examples
///
/// ```
/// use tooljson::{Parser, ValueBuilder};
/// let mut p = Parser::new();
/// let mut b = ValueBuilder::new();
/// p.feed(b"[1, {\"a\": null}]", &mut b)?;
/// p.finish(&mut b)?;
/// assert_eq!(b.value().unwrap().to_string(), r#"[1,{"a":null}]"#);
/// # Ok::<(), tooljson::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ValueBuilder {
    /// Open containers, innermost last.
    frames: Vec<Frame>,
    /// Items of all open arrays, outermost first: each array takes its items
    /// from its start to the end when it closes, so it is allocated once,
    /// at its final size, and these buffers are reused.
    items: Vec<Value>,
    /// Members of all open objects, likewise; a key arrives as a member
    /// whose value (`Null` until then) is set when the value is complete.
    members: Vec<(crate::value::Key, Value)>,
    /// The current string's text handed on in pieces.
    string: String,
    /// The current string's text the parser appended directly
    /// ([`TokenSink::string_bytes`]): checked UTF-8, moved into `string`
    /// before the next piece and at the end.
    bytes: Vec<u8>,
    root: Option<Value>,
    first_wins: bool,
}

#[derive(Clone, Copy, Debug)]
enum Frame {
    /// An open array; its items start here in `items`.
    Array(usize),
    /// An open object; its members start here in `members`.
    Object(usize),
}

impl ValueBuilder {
    /// A builder where a repeated key's last value wins.
    pub fn new() -> Self {
        ValueBuilder::default()
    }

    /// A builder following `policy` for repeated keys (`Error` is enforced
    /// by the parser, and behaves as `LastWins` here).
    pub fn with_duplicate_keys(policy: DuplicateKeys) -> Self {
        ValueBuilder {
            first_wins: policy == DuplicateKeys::FirstWins,
            ..ValueBuilder::default()
        }
    }

    /// The root value, once it has closed.
    pub fn value(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    /// Takes the root value, once it has closed.
    pub fn into_value(self) -> Option<Value> {
        self.root
    }

    /// Moves the text the parser appended to `bytes` into `string`. The
    /// parser appends only checked UTF-8, so the check here cannot fail (it
    /// is the one a `&str` needs without `unsafe`: one pass over text that
    /// would otherwise have been checked in many small calls).
    #[inline(always)]
    fn settle_bytes(&mut self) {
        if !self.bytes.is_empty() {
            self.settle_bytes_now();
        }
    }

    #[inline(never)]
    fn settle_bytes_now(&mut self) {
        match simdutf8::basic::from_utf8(&self.bytes) {
            Ok(t) => self.string.push_str(t),
            Err(_) => self.string.push_str(&String::from_utf8_lossy(&self.bytes)),
        }
        self.bytes.clear();
    }

    /// Stores the value `make` builds where it belongs: the root, the next
    /// item of the innermost array, or the value of the innermost object's
    /// last key.
    ///
    /// The value is built only once its place is ready, and written there
    /// directly. Built first and then moved (as `Vec::push(v)` does when the
    /// vector may have to grow), it went through the stack: written there
    /// in 8-byte words and read back in 16-byte ones, a load the processor
    /// cannot forward from the stores, which stalled each number for about
    /// as long as the rest of its handling (`perf` on 64 KiB of numbers fed
    /// whole: 30% of the samples in the old `add`, 69% of those on that
    /// load).
    #[inline(always)]
    fn add(&mut self, make: impl FnOnce() -> Value) {
        match self.frames.last() {
            None => self.root = Some(make()),
            // `extend` reserves room first, then calls `make`.
            Some(Frame::Array(_)) => self.items.extend(std::iter::once_with(make)),
            Some(Frame::Object(_)) => {
                if let Some(member) = self.members.last_mut() {
                    member.1 = make();
                }
            }
        }
    }
}

impl TokenSink for ValueBuilder {
    // Always in line: at each of the parser's `emit!` sites the token's
    // kind is known, so only its arm is compiled there, with no call and
    // no jump through the `match` (callgrind's branch simulation: 42.8k →
    // 24.2k mispredicted indirect branches on 64 KiB of nested config fed
    // whole; instructions −7% there, −4% on parallel edits, −6% on
    // numbers; +1% on the write-file call).
    #[inline(always)]
    fn token(&mut self, token: Token<'_>, _at: &Location<'_>) {
        match token {
            Token::ObjectBegin => self.frames.push(Frame::Object(self.members.len())),
            Token::ArrayBegin => self.frames.push(Frame::Array(self.items.len())),
            // Built in place, as in `add`.
            Token::Key(k) => self.members.extend(std::iter::once_with(|| {
                (crate::value::Key::new(k), Value::Null)
            })),
            Token::StringBegin => {
                self.string.clear();
                self.bytes.clear();
            }
            Token::StringPart(s) => {
                self.settle_bytes();
                self.string.push_str(s);
            }
            Token::StringEnd => {
                // The buffers are kept for the next string (a string in
                // many parts grows them once, not every time); a long one
                // is taken whole rather than copied.
                self.settle_bytes();
                let s = if self.string.len() >= 4096 {
                    std::mem::take(&mut self.string)
                } else {
                    let s = String::from(self.string.as_str());
                    self.string.clear();
                    s
                };
                self.add(|| Value::String(s));
            }
            Token::Number(n) => self.add(|| Value::Number(Number::from_valid_lexeme(n))),
            Token::Bool(b) => self.add(|| Value::Bool(b)),
            Token::Null => self.add(|| Value::Null),
            Token::ObjectEnd | Token::ArrayEnd => {
                let v = match self.frames.pop() {
                    // `split_off` moves the items out in one copy, into a
                    // vector of their exact length.
                    Some(Frame::Array(start)) => {
                        Value::Array(self.items.split_off(start.min(self.items.len())))
                    }
                    Some(Frame::Object(start)) => {
                        let members = self.members.split_off(start.min(self.members.len()));
                        Value::Object(Map::from_members(members, self.first_wins))
                    }
                    None => return,
                };
                self.add(|| v);
            }
        }
    }

    #[inline]
    fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
        Some(&mut self.bytes)
    }
}

/// Parses a whole document with `limits`.
pub(crate) fn parse_with(bytes: &[u8], limits: Limits) -> Result<Value, Error> {
    let mut parser = Parser::with_limits(limits);
    let mut builder = ValueBuilder::new();
    parser.feed(bytes, &mut builder)?;
    parser.finish(&mut builder)?;
    Ok(builder.into_value().unwrap_or_default())
}
