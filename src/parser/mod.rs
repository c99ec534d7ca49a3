//! The resumable JSON tokenizer: a sans-IO push state machine that takes
//! input in chunks of any size, looks at each byte once, and emits
//! [`Token`]s to a [`TokenSink`]. This file owns the state machine and
//! [`Parser`]'s `feed` / `finish`; `string.rs` decodes strings, `number.rs`
//! scans numbers, `builder.rs` holds [`ValueBuilder`]; `reference.rs` holds
//! the plain byte-at-a-time reference parser the tests trust (built for the
//! tests only).
//!
//! # The contract
//!
//! - **Strict RFC 8259**, UTF-8 only: no byte order mark, no comments, no
//!   trailing commas, no lone surrogates, no invalid UTF-8 (never replaced
//!   with U+FFFD). A number keeps its exact lexeme; its range is the
//!   accessor's business, never the parser's.
//! - **Any chunking gives the same result.** `feed` takes chunks of any
//!   size, empty ones included; the tokens, their offsets and paths, and
//!   the error (category, offset, line, column, path) do not depend on where
//!   the input was cut. Only where a string is split into
//!   [`Token::StringPart`]s does (and, for a sink that asks, see
//!   [`TokenSink::exact_string_offsets_from`], not even that).
//! - **"Not enough input yet" is not an error**: `feed` returns `Ok` and the
//!   parser waits. [`Parser::finish`] says the input ended: a number running
//!   to the end is emitted then, and a value left open is a truncation
//!   error.
//! - **Offsets** count input bytes. A token's offset is how many bytes the
//!   parser had looked at when the token became certain (for a number, the
//!   byte after it); an error's offset is the byte that cannot be JSON (for
//!   a string or number over its limit, see [`Limits`]; for a truncation,
//!   the input's length). Lines count `\n` bytes from 1; an error's column
//!   counts bytes from 1 (a truncation's column is the line's length).
//! - **After an error the parser is poisoned**: every later call returns the
//!   same error, so a caller can never continue past bad input by accident.
//!   `feed` or `finish` after `finish` is a misuse error.
//!
//! # Errors
//!
//! | [`Category`](crate::Category) | when | examples |
//! |---|---|---|
//! | `Truncated` | `finish()` with a value open | `{"a": 1`, `"abc`, `[1,`, empty input |
//! | `Invalid` | a byte that can never be JSON here | `[1,]`, `01`, `"\x"`, a raw control byte in a string, invalid UTF-8, a lone surrogate, a repeated key under [`DuplicateKeys::Error`] |
//! | `TrailingData` | a byte other than whitespace after the root value | `{"a":1}{"a":2}` |
//! | `LimitExceeded` | past one of the [`Limits`] | 129 nested arrays by default |
//! | `Misuse` | a call after `finish()` | |
//!
//! # Cost
//!
//! Time is linear in the input: each byte is looked at once over the whole
//! stream, whatever the chunking. Memory is the open containers' stack, the
//! current path (keys included), the current string piece and number lexeme,
//! and, under [`DuplicateKeys::Error`], the keys of each open object: all
//! bounded by [`Limits`], whose defaults are safe for untrusted input.
//!
//! # Conformance
//!
//! Every `y_` file of JSONTestSuite is accepted and every `n_` file rejected,
//! identically at every chunking. Of the implementation-defined `i_` files,
//! numbers of any size or exponent are accepted (lexeme kept); lone
//! surrogates, invalid UTF-8, UTF-16 and a byte order mark are rejected as
//! invalid; 500 nested arrays exceed the default depth limit.
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
//! - Every fast path must give exactly the tokens and errors of the
//!   byte-at-a-time machine: `reference.rs` is that machine written
//!   plainly, and `reference_tests.rs` holds the fast paths against
//!   it at every chunking. A fast path that meets anything unusual (an error,
//!   a limit, a character cut by the chunk's end) stops and leaves that byte
//!   to the state machine, so that messages and offsets never depend on the
//!   chunking.
//! - A chunk of at least `VALIDATE_AT` (16) bytes is validated as UTF-8 in
//!   one SIMD pass up front; its string runs and number lexemes are then
//!   sliced out as `&str` with no more checks. In smaller chunks each run is
//!   handled on its own, and short ASCII runs are copied byte by byte, which
//!   is cheaper than a validation call on a few bytes.
//! - A string run is found eight bytes at a time (SWAR) up to the next `"`,
//!   `\` or control byte, and checked with `simdutf8` unless validated up
//!   front; an incomplete UTF-8 sequence is only legal at a chunk's end.
//! - Two front doors skip the state machine for a small chunk (up to 64
//!   bytes) in the middle of a string value's text, the common case of a
//!   vendor streaming a long argument a few bytes at a time:
//!   `Parser::string_chunk` hands a chunk of plain text on as one
//!   `StringPart`, and `Parser::small_chunk_direct` appends text byte by
//!   byte to a sink's own buffer ([`TokenSink::string_bytes`], which
//!   [`ValueBuilder`] offers) once the string has `DIRECT_FROM` (16) decoded
//!   bytes, or from its first byte when it began in a chunk under 16 bytes.
//!   Both enter the state machine at the first byte they do not handle.
//! - A number is emitted when the byte after it arrives, or at `finish()`;
//!   literals when their last letter arrives, since nothing can extend them.
//!   A number is scanned by runs (`number_head`, and `number_rest` to resume
//!   it in any of its nine states): one that a chunk's end cuts is scanned
//!   once and carried with its state. In an array, the numbers after the
//!   first take a tighter loop (`number_items`).
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

use std::collections::HashSet;

use smallvec::SmallVec;

use crate::error::{Error, ErrorCode, LimitKind, describe_byte};
use crate::path::{Path, PathRef, Segment};

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
    /// The parser keeps its own stack, so any depth parses. A [`Value`](crate::Value)
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

// After `emit!`, which they use.
mod builder;
mod number;
// The test oracle and the differential test against it: not public API.
#[cfg(test)]
mod reference;
#[cfg(test)]
mod reference_tests;
mod scan;
mod string;

#[cfg(test)]
mod tests;

pub use builder::ValueBuilder;
pub(crate) use builder::parse_with;

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
            // to make and no check on ASCII. A byte loop of its own, as
            // through `string` chunks of 4 to 16 bytes cost up to twice as much.
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

    /// Runs the state machine over one chunk (`cs`: the chunk as text when
    /// it was validated up front, empty otherwise); each state's work is a
    /// method inlined here, so a byte costs no call.
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
                    // Text for the sink's buffer (see `string`): the same
                    // loop compiled for it, out of line, so that the usual
                    // one is compiled as if the buffer did not exist.
                    i = if cs.is_empty() && self.direct_now(sink) {
                        self.string_direct(c, i, base, sink)?
                    } else {
                        self.string::<false, S>(c, cs, i, base, sink)?
                    };
                }
                State::Num(ns) => {
                    i = self.resume_number(c, cs, i, num_start, ns, base, sink)?;
                }
                State::Lit { lit, matched } => {
                    match self.literal(c, i, lit, matched, base, sink)? {
                        Some(next) => i = next,
                        None => break,
                    }
                }
                State::Value => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    if matches!(c[i], b'-' | b'0'..=b'9') {
                        if let Some(next) = self.number_value(c, cs, i, base, sink) {
                            i = next;
                            continue;
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
                    i = self.after_value(c, i, base, sink)?;
                }
                State::ObjectFirst | State::ObjectKey => {
                    i = self.skip_ws(c, i, base);
                    if i == n {
                        break;
                    }
                    i = self.object_key(c, i, base, sink)?;
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

    /// The rest of `true`, `false` or `null` (`lit`, `matched` bytes of it
    /// seen) from `c[i..]`: where it ended, or `None` when the chunk ended
    /// first (the state keeps how far it got).
    #[inline(always)]
    fn literal<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        mut i: usize,
        lit: u8,
        mut matched: u8,
        base: u64,
        sink: &mut S,
    ) -> Result<Option<usize>, Error> {
        let word = LITERALS[lit as usize];
        while (matched as usize) < word.len() {
            let Some(&b) = c.get(i) else {
                self.state = State::Lit { lit, matched };
                return Ok(None);
            };
            if b != word[matched as usize] {
                return Err(self.expected(LITERAL_NAMES[lit as usize], b, base + i as u64));
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
        Ok(Some(i))
    }

    /// The byte `c[i]` after a value inside a container: a comma or the
    /// container's closing bracket.
    #[inline(always)]
    fn after_value<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> Result<usize, Error> {
        let b = c[i];
        match (b, self.stack.last()) {
            (b',', Some(Container::Array)) => {
                self.next_index();
                self.state = State::Value;
                Ok(i + 1)
            }
            (b',', Some(Container::Object)) => {
                self.state = State::ObjectKey;
                Ok(i + 1)
            }
            (b']', Some(Container::Array)) => Ok(self.close(Container::Array, i, base, sink)),
            (b'}', Some(Container::Object)) => Ok(self.close(Container::Object, i, base, sink)),
            (_, Some(Container::Object)) => Err(self.expected("',' or '}'", b, base + i as u64)),
            _ => Err(self.expected("',' or ']'", b, base + i as u64)),
        }
    }

    /// The byte `c[i]` where an object wants a key: its opening quote (or,
    /// in an empty object, the closing brace).
    #[inline(always)]
    fn object_key<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> Result<usize, Error> {
        match c[i] {
            b'"' => {
                self.begin_key();
                Ok(i + 1)
            }
            b'}' if self.state == State::ObjectFirst => {
                Ok(self.close(Container::Object, i, base, sink))
            }
            b => {
                let exp = if self.state == State::ObjectFirst {
                    "string key or '}'"
                } else {
                    "string key"
                };
                Err(self.expected(exp, b, base + i as u64))
            }
        }
    }

    /// Counts the next item of the innermost array in the path.
    #[inline(always)]
    fn next_index(&mut self) {
        if let Some(Segment::Index(ix)) = self.path.last_mut() {
            *ix += 1;
        }
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
                self.begin_string_value(c.len(), sink);
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
}

/// Chunks at least this long are validated as UTF-8 in one SIMD pass up
/// front; in shorter ones each string run is handled on its own (see
/// [`SHORT_RUN`]), which costs less than a validation call per chunk.
const VALIDATE_AT: usize = 16;

/// Chunks up to this long that continue a string value's plain text take
/// [`Parser::string_chunk`], which skips the state machine.
const FAST_STRING_CHUNK: usize = 64;

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
