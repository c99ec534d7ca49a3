//! String decoding: plain-text runs (scanned by `scan.rs`), one-letter and
//! `\u` escapes, UTF-8 checks and the character carried across a chunk's
//! end, and the two ways decoded text leaves the parser (pieces, or the
//! sink's buffer).

use super::scan::{
    HIGHS, SPECIAL, STRING_CLASS, Utf8At, push_ascii, scan_string_run, simple_escape,
    special_bytes, utf8_at, utf8_width,
};
use super::token::{Location, Token, TokenSink};
use super::{DuplicateKeys, FAST_STRING_CHUNK, Parser, State, StrState, VALIDATE_AT};
use crate::error::{Error, ErrorCode, LimitKind};
use crate::path::{PathRef, Segment};

impl Parser {
    /// The fast path for a chunk that is entirely plain text inside a
    /// string value (no quote, backslash, control byte, invalid UTF-8 or
    /// character split at its end): hands it to the sink
    /// as one `StringPart`, exactly as the state machine would, and returns
    /// `true`; returns `false` having done nothing otherwise (the caller then
    /// takes the general path, which also reports any limit error).
    #[inline]
    pub(super) fn string_chunk<S: TokenSink + ?Sized>(
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
    /// ASCII eight bytes at a time up to the first byte that is not (a
    /// chunk of under 8 bytes pays one test), the rest byte by byte (cheaper on a few bytes than a scan, a copy call and
    /// the state machine); a backslash or a character's first bytes at the
    /// chunk's end are carried, and an escape letter or a character's last
    /// bytes that begin the next chunk complete them, as the state machine
    /// would. At anything else (the closing quote, a `\u` escape, a control
    /// byte, bad UTF-8) the state machine takes over at that byte, so that
    /// no byte is read twice and every token, error and offset is as it
    /// would be.
    #[inline(always)]
    pub(super) fn small_chunk_direct<S: TokenSink + ?Sized>(
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
    pub(super) fn direct_now<S: TokenSink + ?Sized>(&self, sink: &mut S) -> bool {
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

    /// A string run (at offset `start`) that was not validated with its
    /// chunk, checked as UTF-8: its valid text, and how many bytes at its
    /// end begin a character that the chunk's end cuts (`at_end`: the run
    /// ends with the chunk), to be carried.
    #[inline(always)]
    fn checked_run<'c>(
        &mut self,
        run: &'c [u8],
        at_end: bool,
        start: u64,
    ) -> Result<(&'c str, usize), Error> {
        match simdutf8::compat::from_utf8(run) {
            Ok(text) => Ok((text, 0)),
            Err(e) => {
                let valid = e.valid_up_to();
                if e.error_len().is_some() || !at_end {
                    return Err(self.run_utf8_error(run, valid, start));
                }
                let text = std::str::from_utf8(&run[..valid]).unwrap_or("");
                Ok((text, run.len() - valid))
            }
        }
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
    pub(super) fn string_direct<S: TokenSink + ?Sized>(
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
    /// chunk end, or just past the closing quote). Alternates between the
    /// states carried over a chunk's end or an escape (`resume_carried`) and
    /// plain text (`plain_text`), both inlined here: this is the hottest loop
    /// of the parser, and a call per step would show.
    #[inline(always)]
    pub(super) fn string<const DIRECT: bool, S: TokenSink + ?Sized>(
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
        // handed on in pieces: the sink's one check of the buffer
        // would be a second look at it.
        let at = StrAt {
            base,
            exact_sink,
            direct: DIRECT,
        };
        loop {
            // A chunk usually starts (and a run always resumes) in plain
            // text: one predictable test, not a jump through the state table.
            let flow = if self.str_state != StrState::Normal {
                self.resume_carried(c, i, at, sink)?
            } else {
                self.plain_text(c, cs, i, at, sink)?
            };
            match flow {
                Flow::At(next) => i = next,
                Flow::Stop(end) => return Ok(end),
            }
        }
    }

    /// One step of a state carried over a chunk's end or begun by an
    /// escape: a split UTF-8 character, an escape letter, `\u` digits, the
    /// low half of a surrogate pair.
    #[inline(always)]
    fn resume_carried<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        at: StrAt,
        sink: &mut S,
    ) -> Result<Flow, Error> {
        match self.str_state {
            StrState::Normal => Ok(Flow::At(i)),
            StrState::Utf8 => self.resume_utf8(c, i, at, sink),
            StrState::Escape => self.resume_escape(c, i, at, sink),
            StrState::Hex { code, digits, high } => {
                self.resume_hex(c, i, (code, digits, high), at, sink)
            }
            StrState::LowBackslash(hi) | StrState::LowU(hi) => {
                self.resume_low_half(c, i, hi, at, sink)
            }
        }
    }

    /// The chunk ended inside the string: hands on the gathered text.
    #[inline(always)]
    fn out_of_input<S: TokenSink + ?Sized>(&mut self, c: &[u8], at: StrAt, sink: &mut S) -> Flow {
        self.flush(sink, at.base + c.len() as u64);
        Flow::Stop(c.len())
    }

    /// The rest of a UTF-8 character that the last chunk's end split.
    #[inline(always)]
    fn resume_utf8<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        mut i: usize,
        at: StrAt,
        sink: &mut S,
    ) -> Result<Flow, Error> {
        while self.utf8_len < self.utf8_need {
            let Some(&b) = c.get(i) else {
                return Ok(self.out_of_input(c, at, sink));
            };
            // The second byte's range depends on the lead (no overlongs, no
            // surrogates, nothing past U+10FFFF), checked as it arrives, as
            // a whole-chunk check would. (The ranges of `utf8_at`, written
            // out: a table shared by both is slower in small chunks.)
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
        // (The scratch is empty: it was handed on at the end of the chunk
        // that held the character's first bytes.)
        let exact = at.exact_sink && self.exact_for(need);
        let end = at.base + i as u64;
        if at.direct {
            self.append_direct(sink, s.as_bytes(), end)?;
        } else {
            self.push_text(s, end)?;
        }
        if exact {
            self.flush_exact(sink, end);
        }
        self.utf8_len = 0;
        self.str_state = StrState::Normal;
        Ok(Flow::At(i))
    }

    /// The letter after a `\` that the chunk's end (or a `u`) left open.
    #[inline(always)]
    fn resume_escape<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        at: StrAt,
        sink: &mut S,
    ) -> Result<Flow, Error> {
        let Some(&b) = c.get(i) else {
            return Ok(self.out_of_input(c, at, sink));
        };
        if b == b'u' {
            self.str_state = StrState::Hex {
                code: 0,
                digits: 0,
                high: None,
            };
            return Ok(Flow::At(i + 1));
        }
        let Some(d) = simple_escape(b) else {
            return Err(self.expected(
                "escape character (one of \" \\ / b f n r t u)",
                b,
                at.base + i as u64,
            ));
        };
        let end = at.base + (i + 1) as u64;
        self.push_escaped(sink, char::from(d), end, 2, at.exact_sink, at.direct)?;
        self.str_state = StrState::Normal;
        Ok(Flow::At(i + 1))
    }

    /// The four digits of `\uXXXX` (`high`: the high half of a pair already
    /// read), and the character or surrogate half they give.
    #[inline(always)]
    fn resume_hex<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        mut i: usize,
        (mut code, mut digits, high): (u16, u8, Option<u16>),
        at: StrAt,
        sink: &mut S,
    ) -> Result<Flow, Error> {
        while digits < 4 {
            let Some(&b) = c.get(i) else {
                self.str_state = StrState::Hex { code, digits, high };
                return Ok(self.out_of_input(c, at, sink));
            };
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => return Err(self.expected("hex digit", b, at.base + i as u64)),
            };
            code = (code << 4) | d as u16;
            digits += 1;
            i += 1;
        }
        let end = at.base + i as u64;
        let (ch, escape_len) = match (high, code) {
            (None, 0xD800..=0xDBFF) => {
                self.str_state = StrState::LowBackslash(code);
                return Ok(Flow::At(i));
            }
            (None, 0xDC00..=0xDFFF) => {
                return Err(self.error_at(ErrorCode::LoneSurrogate(code), end - 1));
            }
            (None, _) => (char::from_u32(code as u32).unwrap_or('\u{FFFD}'), 6),
            (Some(hi), 0xDC00..=0xDFFF) => {
                let cp = 0x10000 + (((hi as u32) - 0xD800) << 10) + (code as u32 - 0xDC00);
                (char::from_u32(cp).unwrap_or('\u{FFFD}'), 12)
            }
            (Some(hi), _) => {
                return Err(self.error_at(ErrorCode::LoneSurrogate(hi), end - 1));
            }
        };
        self.push_escaped(sink, ch, end, escape_len, at.exact_sink, at.direct)?;
        self.str_state = StrState::Normal;
        Ok(Flow::At(i))
    }

    /// The `\` and `u` that must follow a high surrogate `hi`.
    #[inline(always)]
    fn resume_low_half<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        i: usize,
        hi: u16,
        at: StrAt,
        sink: &mut S,
    ) -> Result<Flow, Error> {
        let Some(&b) = c.get(i) else {
            return Ok(self.out_of_input(c, at, sink));
        };
        let want = if matches!(self.str_state, StrState::LowBackslash(_)) {
            b'\\'
        } else {
            b'u'
        };
        if b != want {
            return Err(self.error_at(ErrorCode::LoneSurrogate(hi), at.base + i as u64));
        }
        self.str_state = if want == b'\\' {
            StrState::LowU(hi)
        } else {
            StrState::Hex {
                code: 0,
                digits: 0,
                high: Some(hi),
            }
        };
        Ok(Flow::At(i + 1))
    }

    /// Normal text: runs up to the next quote, backslash or control byte,
    /// one-character escapes decoded on the way. Stops at the closing
    /// quote, the chunk's end, or an escape it leaves to the states.
    #[inline(always)]
    fn plain_text<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        mut i: usize,
        at: StrAt,
        sink: &mut S,
    ) -> Result<Flow, Error> {
        loop {
            let rest = &c[i..];
            let (end, ascii) = scan_string_run(rest);
            if end > 0 {
                let carried = if at.direct {
                    self.run_direct(c, cs, i, end, ascii, at, sink)?
                } else {
                    self.run_pieces(c, cs, i, end, ascii, at, sink)?
                };
                if carried {
                    return Ok(Flow::Stop(c.len()));
                }
                i += end;
            }
            let Some(&b) = c.get(i) else {
                return Ok(self.out_of_input(c, at, sink));
            };
            let off = at.base + i as u64;
            match b {
                b'"' => {
                    self.close_string(sink, off)?;
                    return Ok(Flow::Stop(i + 1));
                }
                b'\\' => {
                    // A one-character escape whose letter is in this chunk
                    // is decoded here; anything else goes through the
                    // escape states.
                    let Some(d) = c.get(i + 1).and_then(|&e| simple_escape(e)) else {
                        self.str_state = StrState::Escape;
                        return Ok(Flow::At(i + 1));
                    };
                    i += 2;
                    let end = at.base + i as u64;
                    self.push_escaped(sink, char::from(d), end, 2, at.exact_sink, at.direct)?;
                }
                _ => {
                    return Err(self.error_at(ErrorCode::ControlCharacterInString(b), off));
                }
            }
        }
    }

    /// A run of `end` plain bytes at `c[i..]` straight into the sink's
    /// buffer; `true` when its last bytes begin a character that the
    /// chunk's end cuts (carried, the chunk done).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run_direct<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        i: usize,
        end: usize,
        ascii: bool,
        at: StrAt,
        sink: &mut S,
    ) -> Result<bool, Error> {
        // ASCII (the scan saw no high bit) and text validated with the
        // chunk need no check here. (A run ends at an ASCII byte or at the
        // chunk's end, so one inside `cs` ends on a boundary.)
        let rest = &c[i..];
        let run = &rest[..end];
        let (valid, carry) = if ascii || i + end <= cs.len() {
            (end, 0)
        } else {
            let (text, carry) = self.checked_run(run, end == rest.len(), at.base + i as u64)?;
            (text.len(), carry)
        };
        self.append_direct(sink, &run[..valid], at.base + (i + valid) as u64)?;
        if carry > 0 {
            self.carry_utf8(&run[valid..], at.base + (c.len() - carry) as u64);
            return Ok(true);
        }
        Ok(false)
    }

    /// A run of `end` plain bytes at `c[i..]` handed on as a piece (or
    /// gathered into the key or the scratch); `true` when its last bytes
    /// begin a character that the chunk's end cuts (carried, the chunk
    /// done).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run_pieces<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        i: usize,
        end: usize,
        ascii: bool,
        at: StrAt,
        sink: &mut S,
    ) -> Result<bool, Error> {
        let n = c.len();
        let base = at.base;
        let rest = &c[i..];
        let run = &rest[..end];
        let exact = at.exact_sink && self.exact_for(end);
        if exact {
            self.flush_exact(sink, base + i as u64);
        }
        let (text, carry) = if let Some(t) = cs.get(i..i + end) {
            (t, 0)
        } else if ascii && end <= SHORT_RUN {
            // Not validated up front (a small chunk): ASCII joins the key
            // or the scratch byte by byte, which is cheaper than a
            // validation call on a few bytes.
            self.push_short_ascii(run, base + i as u64)?;
            ("", 0)
        } else if ascii {
            // All ASCII: the check cannot fail.
            (std::str::from_utf8(run).unwrap_or(""), 0)
        } else {
            self.checked_run(run, end == rest.len(), base + i as u64)?
        };
        if !text.is_empty() {
            let end_at = base + (i + text.len()) as u64;
            // Text that an escape follows joins the scratch, so that a
            // piece is handed on once, not split at every escape.
            if self.in_key || !self.scratch.is_empty() || rest.get(end) == Some(&b'\\') {
                self.push_text(text, end_at)?;
            } else {
                self.str_len += text.len();
                if self.str_len > self.limits.max_string_bytes {
                    return Err(self.string_limit_within(text, end_at));
                }
                emit!(self, sink, Token::StringPart(text), end_at);
            }
        }
        if exact {
            self.flush_exact(sink, base + (i + end - carry) as u64);
        }
        if carry > 0 {
            self.carry_utf8(&run[run.len() - carry..], base + (n - carry) as u64);
            self.flush(sink, base + n as u64);
            return Ok(true);
        }
        Ok(false)
    }

    /// A short ASCII run (at offset `start`) not validated with its chunk,
    /// joined to the key or the scratch byte by byte.
    #[inline(always)]
    fn push_short_ascii(&mut self, run: &[u8], start: u64) -> Result<(), Error> {
        let len = run.len();
        self.str_len += len;
        if self.str_len > self.limits.max_string_bytes {
            let k = self.limits.max_string_bytes + len - self.str_len;
            return Err(self.string_limit(start + (k + 1) as u64));
        }
        if self.in_key {
            if let Some(Segment::Key(k)) = self.path.last_mut() {
                push_ascii(k, run);
            }
        } else {
            push_ascii(&mut self.scratch, run);
        }
        Ok(())
    }

    /// The closing quote at `off`: the key (checked for a repeat under
    /// [`DuplicateKeys::Error`]) or the string value's end.
    #[inline(always)]
    fn close_string<S: TokenSink + ?Sized>(&mut self, sink: &mut S, off: u64) -> Result<(), Error> {
        self.flush(sink, off + 1);
        if !self.in_key {
            emit!(self, sink, Token::StringEnd, off + 1);
            self.value_done();
            return Ok(());
        }
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
        Ok(())
    }
    /// Sets up the string value whose opening quote was just handed on, in a
    /// chunk of `chunk` bytes: asks the sink how it takes the text.
    #[inline(always)]
    pub(super) fn begin_string_value<S: TokenSink + ?Sized>(&mut self, chunk: usize, sink: &mut S) {
        self.exact_from = sink.exact_string_offsets_from().unwrap_or(usize::MAX);
        self.direct_max = self.limits.max_string_bytes;
        self.direct_from = if sink.string_bytes().is_none() {
            usize::MAX
        } else if self.exact_from != usize::MAX {
            self.direct_before_exact(chunk)
        } else if chunk < VALIDATE_AT {
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

    pub(super) fn begin_key(&mut self) {
        if let Some(Segment::Key(k)) = self.path.last_mut() {
            k.clear();
        }
        self.in_key = true;
        self.direct_from = usize::MAX;
        self.str_len = 0;
        self.str_state = StrState::Normal;
        self.state = State::Str;
    }
}

/// ASCII string runs up to this long that were not validated up front are
/// copied byte by byte rather than validated.
pub(super) const SHORT_RUN: usize = 64;

/// Decoded bytes a string value must have before its text goes into a
/// sink's buffer ([`TokenSink::string_bytes`]): a short string (a name, an
/// enum value) is cheaper handed on in a piece than checked again as a
/// whole (0 costs the short strings of a nested config in 16- and 64-byte
/// chunks; 64 leaves strings of 20 to 60 bytes in pieces). A string that
/// begins in a chunk of under [`VALIDATE_AT`] bytes takes the buffer from
/// its first byte instead: in such small chunks a switch from pieces to the
/// buffer part-way through a string costs more (mispredicted branches) than
/// checking short strings again.
pub(super) const DIRECT_FROM: usize = 16;

/// How far short of a bound from which a sink asks for exact piece offsets
/// the sink's buffer stops taking text: more than one small chunk's text
/// (at most [`FAST_STRING_CHUNK`] bytes and a carried character). The text
/// between the buffer's last and the bound then goes out as pieces, the
/// last of them ending at the bound (where exact offsets start), so that
/// the first exact piece's raw bytes start at a token's offset, as a
/// piece's raw bytes are reckoned (from the previous token's offset). A
/// precaution: with no margin the tests still pass (an exact piece whose
/// start is unknown is placed from its end), but the case then arises.
pub(super) const DIRECT_MARGIN: usize = FAST_STRING_CHUNK + 8;

/// Where one step of [`Parser::string`] leaves the scan.
enum Flow {
    /// Go on at this index.
    At(usize),
    /// The string's part of the chunk ends here: the index to return.
    Stop(usize),
}

/// What every step of [`Parser::string`] needs of the chunk: its offset in
/// the input, whether the sink wants exact piece offsets in it, and whether
/// value text goes into the sink's buffer.
#[derive(Clone, Copy)]
struct StrAt {
    base: u64,
    exact_sink: bool,
    direct: bool,
}
