//! String decoding: the plain-text run scan (SWAR), one-letter and `\u`
//! escapes, UTF-8 checks and the character carried across a chunk's end, and
//! the two ways decoded text leaves the parser (pieces, or the sink's buffer).

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
    /// chunk end, or just past the closing quote).
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
                            // (The ranges of `utf8_at`, written out: a table
                            // shared by both is slower in small chunks.)
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
                    let run = &rest[..end];
                    let (valid, carry) = if ascii || i + end <= cs.len() {
                        (end, 0)
                    } else {
                        let (text, carry) =
                            self.checked_run(run, end == rest.len(), base + i as u64)?;
                        (text.len(), carry)
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
                        self.checked_run(run, end == rest.len(), base + i as u64)?
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

/// Finds the end of a run of plain string bytes: the first `"`, `\\` or
/// control byte (or the end of `b`), and whether the run is all ASCII.
/// Eight bytes at a time (SWAR), as the run is usually long; the tail (and a
/// short input, such as a small chunk) byte by byte through a class table.
#[inline(always)]
pub(super) fn scan_string_run(b: &[u8]) -> (usize, bool) {
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
/// indirect branch is mispredicted at most escapes.
#[inline(always)]
pub(super) fn simple_escape(letter: u8) -> Option<u8> {
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
pub(super) enum Utf8At {
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
pub(super) fn utf8_at(b: &[u8], i: usize) -> Utf8At {
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
pub(super) const SPECIAL: u8 = 2;

/// Per byte: 0 for plain ASCII, 1 for a non-ASCII byte, [`SPECIAL`] for `"`,
/// `\\` and control bytes.
pub(super) static STRING_CLASS: [u8; 256] = {
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

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

pub(super) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` that is `"`, `\\` or below 0x20 (exact
/// for the lowest such byte, maybe spurious above it).
#[inline]
pub(super) fn special_bytes(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    ((quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash)
        | (w.wrapping_sub(ONES * 0x20) & !w))
        & HIGHS
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

/// Appends ASCII bytes (a number's head, a short string run known to be
/// ASCII) to `s`, one by one: cheaper for a few bytes than a validation
/// call.
#[inline(always)]
pub(super) fn push_ascii(s: &mut String, bytes: &[u8]) {
    s.reserve(bytes.len());
    for &b in bytes {
        // The mask (a no-op on ASCII) tells the compiler each char is one
        // byte long.
        s.push(char::from(b & 0x7f));
    }
}

/// The length of the UTF-8 sequence that `lead` starts (2 to 4 for the
/// leads simdutf8 reports as incomplete).
pub(super) fn utf8_width(lead: u8) -> u8 {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
