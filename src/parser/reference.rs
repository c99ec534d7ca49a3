//! The reference parser: the same grammar, limits, tokens and errors as
//! [`Parser`](super::Parser), written plainly, one byte at a time with no fast
//! paths, and kept as the oracle the tests hold the fast paths against
//! (`reference_tests.rs`). Built for the tests only: no user calls it.

use std::collections::HashSet;

use super::token::{Location, Token, TokenSink};
use super::{DuplicateKeys, Limits};
use crate::error::{Error, ErrorCode, LimitKind, describe_byte};
use crate::path::{Path, PathRef, Segment};

/// A plain, byte-at-a-time JSON parser with the same contract as
/// [`Parser`](crate::Parser): the same [`feed`](ReferenceParser::feed) /
/// [`finish`](ReferenceParser::finish) calls and [`TokenSink`], the same
/// [`Limits`] and duplicate-key policy, the same tokens (with the same
/// offsets and paths) and the same errors (kind, offset, line, column,
/// path), at every chunking.
///
/// It is the slow oracle: one `match` per input byte and one
/// [`Token::StringPart`] per decoded character (so every piece has an exact
/// offset, whatever [`TokenSink::exact_string_offsets_from`] says), with no
/// buffer ([`TokenSink::string_bytes`] is never used). Use [`Parser`](crate::Parser)
/// for real work; this one exists so that tests can compare the fast
/// paths with a parser simple enough to check by reading.
#[derive(Debug)]
pub(crate) struct ReferenceParser {
    limits: Limits,
    duplicate_keys: DuplicateKeys,
    state: Step,
    /// Open containers, innermost last; `true` for an object.
    objects: Vec<bool>,
    path: Vec<Segment>,
    key_sets: Vec<HashSet<String>>,
    /// Decoded bytes of the current key or string.
    string_len: usize,
    in_key: bool,
    /// The current number's lexeme.
    number: String,
    offset: u64,
    line: u64,
    line_start: u64,
    finished: bool,
    failed: Option<Error>,
}

/// Where the reference parser is in the grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// A value may start (after whitespace).
    Value,
    /// Just after `[`: a value or `]`.
    ArrayFirst,
    /// Just after `{`: a key or `}`.
    ObjectFirst,
    /// After `,` in an object: a key.
    ObjectKey,
    /// After a key: `:`.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    AfterValue,
    /// Inside a string or key.
    Text(TextStep),
    /// Inside a number, in this state of the RFC 8259 number grammar.
    Number(NumberStep),
    /// Inside `true`, `false` or `null`: the word, and how many of its
    /// letters arrived.
    Word(&'static [u8], usize),
    /// After the root value: whitespace only.
    Done,
}

/// Where the reference parser is inside a string.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TextStep {
    Plain,
    /// After `\`.
    Escape,
    /// Inside `\uXXXX`: the digits so far, and the high surrogate whose low
    /// half this is, if it is one.
    Hex(Vec<u8>, Option<u16>),
    /// After a high surrogate: `\` must follow.
    LowBackslash(u16),
    /// After a high surrogate and `\`: `u` must follow.
    LowU(u16),
    /// Inside a multi-byte UTF-8 character: its bytes so far, its length,
    /// and the offset of its first byte.
    Utf8(Vec<u8>, usize, u64),
}

/// The states of the number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumberStep {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

impl NumberStep {
    /// The state after `b`, or `None` when `b` does not continue the number.
    fn next(self, b: u8) -> Option<NumberStep> {
        use NumberStep::*;
        match (self, b) {
            (Minus, b'0') => Some(Zero),
            (Minus | Int, b'1'..=b'9') | (Int, b'0') => Some(Int),
            (Zero | Int, b'.') => Some(Dot),
            (Dot | Frac, b'0'..=b'9') => Some(Frac),
            (Zero | Int | Frac, b'e' | b'E') => Some(E),
            (E, b'+' | b'-') => Some(ESign),
            (E | ESign | Exp, b'0'..=b'9') => Some(Exp),
            _ => None,
        }
    }

    /// Whether a number may end in this state.
    fn complete(self) -> bool {
        matches!(
            self,
            NumberStep::Zero | NumberStep::Int | NumberStep::Frac | NumberStep::Exp
        )
    }

    /// What the grammar wants next, for the error at a byte that is not it.
    fn expected(self) -> &'static str {
        match self {
            NumberStep::Minus | NumberStep::Dot | NumberStep::ESign => "digit",
            NumberStep::E => "digit or sign of exponent",
            _ => "end of number",
        }
    }
}

impl Default for ReferenceParser {
    fn default() -> Self {
        ReferenceParser::new()
    }
}

impl ReferenceParser {
    /// A reference parser with the default [`Limits`].
    pub(crate) fn new() -> ReferenceParser {
        ReferenceParser::with_limits(Limits::default())
    }

    /// A reference parser with the given limits.
    pub(crate) fn with_limits(limits: Limits) -> ReferenceParser {
        ReferenceParser {
            limits,
            duplicate_keys: DuplicateKeys::default(),
            state: Step::Value,
            objects: Vec::new(),
            path: Vec::new(),
            key_sets: Vec::new(),
            string_len: 0,
            in_key: false,
            number: String::new(),
            offset: 0,
            line: 1,
            line_start: 0,
            finished: false,
            failed: None,
        }
    }

    /// Sets the duplicate-key policy, as
    /// [`Parser::set_duplicate_keys`](crate::Parser::set_duplicate_keys).
    pub(crate) fn set_duplicate_keys(&mut self, policy: DuplicateKeys) {
        self.duplicate_keys = policy;
    }

    /// Feeds the next chunk, as [`Parser::feed`](crate::Parser::feed).
    pub(crate) fn feed<S: TokenSink + ?Sized>(
        &mut self,
        chunk: &[u8],
        sink: &mut S,
    ) -> Result<(), Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.finished {
            return Err(self.error(ErrorCode::AfterFinish, self.offset));
        }
        for &b in chunk {
            if let Err(e) = self.byte(b, sink) {
                self.failed = Some(e.clone());
                return Err(e);
            }
        }
        Ok(())
    }

    /// Ends the input, as [`Parser::finish`](crate::Parser::finish).
    pub(crate) fn finish<S: TokenSink + ?Sized>(&mut self, sink: &mut S) -> Result<(), Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.finished {
            return Err(self.error(ErrorCode::AfterFinish, self.offset));
        }
        self.finished = true;
        if let Step::Number(step) = self.state
            && step.complete()
        {
            let number = std::mem::take(&mut self.number);
            self.emit(sink, Token::Number(&number), self.offset);
            self.value_done();
        }
        let what = match self.state {
            Step::Done => return Ok(()),
            Step::Text(_) => "a string",
            Step::Value | Step::Number(_) | Step::Word(..) => "a value",
            Step::ObjectFirst | Step::ObjectKey | Step::Colon => "an object",
            Step::ArrayFirst | Step::AfterValue => {
                if self.objects.last() == Some(&true) {
                    "an object"
                } else {
                    "a list"
                }
            }
        };
        // The end of input is a position between bytes: its column counts
        // the bytes of the line so far.
        let e = Error::new(
            ErrorCode::Eof(what),
            self.offset,
            self.line,
            self.offset - self.line_start,
            self.error_path(),
        );
        self.failed = Some(e.clone());
        Err(e)
    }

    /// Takes one input byte.
    fn byte<S: TokenSink + ?Sized>(&mut self, b: u8, sink: &mut S) -> Result<(), Error> {
        let at = self.offset;
        if at >= self.limits.max_input_bytes {
            let limit = self.limits.max_input_bytes;
            return Err(self.error(
                ErrorCode::LimitExceeded {
                    kind: LimitKind::InputBytes,
                    limit,
                },
                at,
            ));
        }
        self.offset += 1;
        self.step(b, at, sink)?;
        if b == b'\n' {
            // A raw newline can only be whitespace (in a string it is an
            // error, returned above).
            self.line += 1;
            self.line_start = at + 1;
        }
        Ok(())
    }

    /// Takes byte `b` at offset `at` in the current state.
    fn step<S: TokenSink + ?Sized>(&mut self, b: u8, at: u64, sink: &mut S) -> Result<(), Error> {
        let whitespace = matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        match self.state.clone() {
            Step::Value if whitespace => Ok(()),
            Step::Value => self.begin_value(b, at, sink),
            Step::ArrayFirst if whitespace => Ok(()),
            Step::ArrayFirst if b == b']' => {
                self.close(at, sink);
                Ok(())
            }
            Step::ArrayFirst => self.begin_value(b, at, sink),
            Step::ObjectFirst | Step::ObjectKey if whitespace => Ok(()),
            Step::ObjectFirst | Step::ObjectKey if b == b'"' => {
                if let Some(Segment::Key(k)) = self.path.last_mut() {
                    k.clear();
                }
                self.in_key = true;
                self.string_len = 0;
                self.state = Step::Text(TextStep::Plain);
                Ok(())
            }
            Step::ObjectFirst if b == b'}' => {
                self.close(at, sink);
                Ok(())
            }
            Step::ObjectFirst => Err(self.expected("string key or '}'", b, at)),
            Step::ObjectKey => Err(self.expected("string key", b, at)),
            Step::Colon if whitespace => Ok(()),
            Step::Colon if b == b':' => {
                self.state = Step::Value;
                Ok(())
            }
            Step::Colon => Err(self.expected("':'", b, at)),
            Step::AfterValue if whitespace => Ok(()),
            Step::AfterValue => {
                let object = self.objects.last() == Some(&true);
                match (b, object) {
                    (b',', false) => {
                        if let Some(Segment::Index(ix)) = self.path.last_mut() {
                            *ix += 1;
                        }
                        self.state = Step::Value;
                    }
                    (b',', true) => self.state = Step::ObjectKey,
                    (b']', false) | (b'}', true) => self.close(at, sink),
                    (_, true) => return Err(self.expected("',' or '}'", b, at)),
                    (_, false) => return Err(self.expected("',' or ']'", b, at)),
                }
                Ok(())
            }
            Step::Done if whitespace => Ok(()),
            Step::Done => Err(self.error(ErrorCode::TrailingCharacters(describe_byte(b)), at)),
            Step::Word(word, matched) => {
                if word.get(matched) != Some(&b) {
                    let name = match word {
                        b"true" => "'true'",
                        b"false" => "'false'",
                        _ => "'null'",
                    };
                    return Err(self.expected(name, b, at));
                }
                if matched + 1 < word.len() {
                    self.state = Step::Word(word, matched + 1);
                    return Ok(());
                }
                let token = match word {
                    b"true" => Token::Bool(true),
                    b"false" => Token::Bool(false),
                    _ => Token::Null,
                };
                self.emit(sink, token, at + 1);
                self.value_done();
                Ok(())
            }
            Step::Number(step) => self.number_byte(step, b, at, sink),
            Step::Text(text) => self.text_byte(text, b, at, sink),
        }
    }

    /// The first byte of a value.
    fn begin_value<S: TokenSink + ?Sized>(
        &mut self,
        b: u8,
        at: u64,
        sink: &mut S,
    ) -> Result<(), Error> {
        match b {
            b'{' | b'[' => {
                if self.objects.len() >= self.limits.max_depth {
                    let limit = self.limits.max_depth as u64;
                    return Err(self.error(
                        ErrorCode::LimitExceeded {
                            kind: LimitKind::Depth,
                            limit,
                        },
                        at,
                    ));
                }
                let object = b == b'{';
                let token = if object {
                    Token::ObjectBegin
                } else {
                    Token::ArrayBegin
                };
                self.emit(sink, token, at + 1);
                self.objects.push(object);
                if object {
                    self.path.push(Segment::Key(String::new()));
                    if self.duplicate_keys == DuplicateKeys::Error {
                        self.key_sets.push(HashSet::new());
                    }
                    self.state = Step::ObjectFirst;
                } else {
                    self.path.push(Segment::Index(0));
                    self.state = Step::ArrayFirst;
                }
                Ok(())
            }
            b'"' => {
                self.emit(sink, Token::StringBegin, at + 1);
                self.in_key = false;
                self.string_len = 0;
                self.state = Step::Text(TextStep::Plain);
                Ok(())
            }
            b'-' | b'0'..=b'9' => {
                self.number.clear();
                let step = if b == b'-' {
                    NumberStep::Minus
                } else if b == b'0' {
                    NumberStep::Zero
                } else {
                    NumberStep::Int
                };
                self.state = Step::Number(step);
                self.number_push(b, at)
            }
            b't' => {
                self.state = Step::Word(b"true", 1);
                Ok(())
            }
            b'f' => {
                self.state = Step::Word(b"false", 1);
                Ok(())
            }
            b'n' => {
                self.state = Step::Word(b"null", 1);
                Ok(())
            }
            _ => Err(self.expected("value", b, at)),
        }
    }

    /// A byte after a number's first, in grammar state `step`.
    fn number_byte<S: TokenSink + ?Sized>(
        &mut self,
        step: NumberStep,
        b: u8,
        at: u64,
        sink: &mut S,
    ) -> Result<(), Error> {
        if let Some(next) = step.next(b) {
            self.state = Step::Number(next);
            return self.number_push(b, at);
        }
        // A number directly followed by what would continue a number or a
        // word is malformed (`01`, `1.5.3`, `2x`), not a second value.
        if !step.complete() || b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-') {
            return Err(self.expected(step.expected(), b, at));
        }
        let number = std::mem::take(&mut self.number);
        self.emit(sink, Token::Number(&number), at + 1);
        self.value_done();
        // The byte that ended the number is the next state's first.
        self.step(b, at, sink)
    }

    /// Adds byte `b`, at offset `at`, to the number's lexeme.
    fn number_push(&mut self, b: u8, at: u64) -> Result<(), Error> {
        if self.number.len() >= self.limits.max_number_bytes {
            let limit = self.limits.max_number_bytes as u64;
            return Err(self.error(
                ErrorCode::LimitExceeded {
                    kind: LimitKind::NumberBytes,
                    limit,
                },
                at,
            ));
        }
        self.number.push(char::from(b));
        Ok(())
    }

    /// A byte inside a string or key, in string state `text`.
    fn text_byte<S: TokenSink + ?Sized>(
        &mut self,
        text: TextStep,
        b: u8,
        at: u64,
        sink: &mut S,
    ) -> Result<(), Error> {
        let next = match text {
            TextStep::Plain => match b {
                b'"' => return self.end_text(at, sink),
                b'\\' => TextStep::Escape,
                0x00..=0x1f => {
                    return Err(self.error(ErrorCode::ControlCharacterInString(b), at));
                }
                0x20..=0x7f => {
                    self.push_char(char::from(b), at + 1, sink)?;
                    TextStep::Plain
                }
                _ => match utf8_length(b) {
                    Some(len) => TextStep::Utf8(vec![b], len, at),
                    None => return Err(self.error(ErrorCode::InvalidUtf8, at)),
                },
            },
            TextStep::Utf8(mut bytes, len, start) => {
                bytes.push(b);
                let Ok(s) = std::str::from_utf8(&bytes) else {
                    // Not yet a whole character: it is still a valid start
                    // of one if a longer sequence with this prefix decodes.
                    if bytes.len() < len && utf8_prefix_ok(&bytes) {
                        self.state = Step::Text(TextStep::Utf8(bytes, len, start));
                        return Ok(());
                    }
                    return Err(self.error(ErrorCode::InvalidUtf8, start));
                };
                let ch = s.chars().next().unwrap_or('\u{FFFD}');
                self.push_char(ch, at + 1, sink)?;
                TextStep::Plain
            }
            TextStep::Escape => {
                let ch = match b {
                    b'u' => {
                        self.state = Step::Text(TextStep::Hex(Vec::new(), None));
                        return Ok(());
                    }
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    _ => {
                        return Err(self.expected(
                            "escape character (one of \" \\ / b f n r t u)",
                            b,
                            at,
                        ));
                    }
                };
                self.push_char(ch, at + 1, sink)?;
                TextStep::Plain
            }
            TextStep::Hex(mut digits, high) => {
                if !b.is_ascii_hexdigit() {
                    return Err(self.expected("hex digit", b, at));
                }
                digits.push(b);
                if digits.len() < 4 {
                    self.state = Step::Text(TextStep::Hex(digits, high));
                    return Ok(());
                }
                let hex = std::str::from_utf8(&digits).unwrap_or("0");
                let code = u16::from_str_radix(hex, 16).unwrap_or(0);
                let low = (0xDC00..=0xDFFF).contains(&code);
                match high {
                    None if (0xD800..=0xDBFF).contains(&code) => TextStep::LowBackslash(code),
                    // A surrogate error is placed at the escape's last digit.
                    None if low => return Err(self.error(ErrorCode::LoneSurrogate(code), at)),
                    None => {
                        let ch = char::from_u32(u32::from(code)).unwrap_or('\u{FFFD}');
                        self.push_char(ch, at + 1, sink)?;
                        TextStep::Plain
                    }
                    Some(hi) if low => {
                        let cp =
                            0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(code) - 0xDC00);
                        let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                        self.push_char(ch, at + 1, sink)?;
                        TextStep::Plain
                    }
                    Some(hi) => return Err(self.error(ErrorCode::LoneSurrogate(hi), at)),
                }
            }
            TextStep::LowBackslash(hi) if b == b'\\' => TextStep::LowU(hi),
            TextStep::LowU(hi) if b == b'u' => TextStep::Hex(Vec::new(), Some(hi)),
            TextStep::LowBackslash(hi) | TextStep::LowU(hi) => {
                return Err(self.error(ErrorCode::LoneSurrogate(hi), at));
            }
        };
        self.state = Step::Text(next);
        Ok(())
    }

    /// Appends a decoded character whose last input byte ends at `end`: to
    /// the key, or handed on as a piece of its own.
    fn push_char<S: TokenSink + ?Sized>(
        &mut self,
        ch: char,
        end: u64,
        sink: &mut S,
    ) -> Result<(), Error> {
        self.string_len += ch.len_utf8();
        if self.string_len > self.limits.max_string_bytes {
            let limit = self.limits.max_string_bytes as u64;
            return Err(self.error(
                ErrorCode::LimitExceeded {
                    kind: LimitKind::StringBytes,
                    limit,
                },
                end,
            ));
        }
        if self.in_key {
            if let Some(Segment::Key(k)) = self.path.last_mut() {
                k.push(ch);
            }
        } else {
            self.emit(sink, Token::StringPart(ch.encode_utf8(&mut [0; 4])), end);
        }
        Ok(())
    }

    /// The closing quote of a string or key, at offset `at`.
    fn end_text<S: TokenSink + ?Sized>(&mut self, at: u64, sink: &mut S) -> Result<(), Error> {
        if !self.in_key {
            self.emit(sink, Token::StringEnd, at + 1);
            self.value_done();
            return Ok(());
        }
        self.state = Step::Colon;
        let key = match self.path.last() {
            Some(Segment::Key(k)) => k.clone(),
            _ => String::new(),
        };
        if self.duplicate_keys == DuplicateKeys::Error
            && let Some(set) = self.key_sets.last_mut()
            && !set.insert(key.clone())
        {
            return Err(self.error(ErrorCode::DuplicateKey(key), at));
        }
        self.emit(sink, Token::Key(&key), at + 1);
        Ok(())
    }

    /// The closing bracket of the innermost container, at offset `at`.
    fn close<S: TokenSink + ?Sized>(&mut self, at: u64, sink: &mut S) {
        self.path.pop();
        let object = self.objects.pop() == Some(true);
        if object && self.duplicate_keys == DuplicateKeys::Error {
            self.key_sets.pop();
        }
        let token = if object {
            Token::ObjectEnd
        } else {
            Token::ArrayEnd
        };
        self.emit(sink, token, at + 1);
        self.value_done();
    }

    fn value_done(&mut self) {
        self.state = if self.objects.is_empty() {
            Step::Done
        } else {
            Step::AfterValue
        };
    }

    fn emit<S: TokenSink + ?Sized>(&self, sink: &mut S, token: Token<'_>, offset: u64) {
        let path = PathRef::new(&self.path);
        sink.token(token, &Location { offset, path });
    }

    /// The path an error names: the current one, without the key segment
    /// of an object that is waiting for (or reading) its next key.
    fn error_path(&self) -> Path {
        let mut segments = self.path.clone();
        let expecting_key = matches!(self.state, Step::ObjectFirst | Step::ObjectKey)
            || (matches!(self.state, Step::Text(_)) && self.in_key);
        if expecting_key {
            segments.pop();
        }
        Path::from_segments(segments)
    }

    /// The error `code` at the byte at offset `at` (columns count from 1).
    fn error(&self, code: ErrorCode, at: u64) -> Error {
        let column = at.saturating_sub(self.line_start) + 1;
        Error::new(code, at, self.line, column, self.error_path())
    }

    fn expected(&self, expected: &'static str, b: u8, at: u64) -> Error {
        let found = describe_byte(b);
        self.error(ErrorCode::Expected { expected, found }, at)
    }
}

/// The length of the UTF-8 character that `lead` starts, or `None` for a
/// byte that cannot start one (a continuation byte, `C0`, `C1`, `F5`..).
fn utf8_length(lead: u8) -> Option<usize> {
    match lead {
        0xC2..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF4 => Some(4),
        _ => None,
    }
}

/// Whether `bytes`, the start of a character cut short, can still become a
/// whole one: some completion with continuation bytes decodes.
fn utf8_prefix_ok(bytes: &[u8]) -> bool {
    let len = bytes.first().and_then(|&b| utf8_length(b)).unwrap_or(0);
    (0x80..=0xBF).any(|c| {
        let mut whole = bytes.to_vec();
        whole.resize(len.max(bytes.len()), c);
        std::str::from_utf8(&whole).is_ok()
    })
}
