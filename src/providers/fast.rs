//! The fast path for the events that carry deltas, the bulk of every
//! stream: Anthropic `content_block_delta` (`input_json_delta`,
//! `text_delta`, `thinking_delta`), OpenAI Chat chunks with one choice whose
//! delta is one tool call's `function.arguments` or `content`, and OpenAI
//! Responses `*_arguments.delta` / `custom_tool_call_input.delta` /
//! `output_text.delta`. A byte scanner recognises exactly these shapes and
//! decodes the one string that matters; anything else says `None`, and the
//! adapter reads the event with its full serde reader as before.
//!
//! # Advice for hackers
//!
//! The contract is: when a reader here returns `Some`, the full reader would
//! have read the same event the same way (same members, same values, no
//! error). So the scanner accepts less, never more: no whitespace between
//! tokens, no escapes in keys (serde matches keys after unescaping), only
//! integers (no fraction, exponent or leading zero), strings whose escapes
//! are those of RFC 8259 with surrogates paired, no duplicate known member,
//! no member the full reader knows but this path does not handle, and
//! ignored members only as scalars or `[]` / `{}`. Everything refused here
//! is read by the full reader, which stays the behaviour's one definition;
//! `tests/providers_fast_path.rs` and the `fast_path` fuzz target hold the
//! two paths to the same events.
//!
//! Strings are decoded in place when they hold no escape (the payload is
//! then a slice of the event's data) and into the adapter's scratch buffer
//! otherwise, so no delta allocates.

use std::borrow::Cow;
use std::ops::Range;

/// Where a decoded payload lies: a slice of the event's data (no escape
/// in it) or the scratch buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Payload {
    Raw(Range<usize>),
    Scratch,
}

impl Payload {
    /// The decoded text.
    pub(crate) fn text<'a>(&self, data: &'a str, scratch: &'a str) -> &'a str {
        match self {
            Payload::Raw(r) => data.get(r.clone()).unwrap_or_default(),
            Payload::Scratch => scratch,
        }
    }
}

impl Payload {
    /// The decoded text for [`Calls::append`](super::Calls::append): a
    /// long decoded text is handed over whole (the call's text becomes
    /// that buffer when it is the first), not copied once more.
    pub(crate) fn into_text<'a>(self, data: &'a str, scratch: &'a mut String) -> Cow<'a, str> {
        match self {
            Payload::Scratch if scratch.len() > 1 << 12 => Cow::Owned(std::mem::take(scratch)),
            p => Cow::Borrowed(p.text(data, scratch)),
        }
    }
}

/// A scratch buffer that a long payload does not leave large.
pub(crate) fn trim_scratch(scratch: &mut String) {
    if scratch.capacity() > 1 << 16 {
        *scratch = String::new();
    }
}

/// A cursor over one event's data.
struct Cursor<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

/// Where the plain run of a string starting at `i` ends: at the first
/// quote, backslash or control byte. A byte loop: the strings here are a
/// few dozen bytes, shorter than a vector search's set-up pays off on.
#[inline]
fn run_end(b: &[u8], mut i: usize) -> usize {
    while let Some(&x) = b.get(i) {
        if x == b'"' || x == b'\\' || x < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

impl<'a> Cursor<'a> {
    fn new(data: &'a str) -> Cursor<'a> {
        Cursor {
            s: data,
            b: data.as_bytes(),
            i: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.i += 1)
    }

    fn lit(&mut self, l: &[u8]) -> Option<()> {
        let end = self.i.checked_add(l.len())?;
        (self.b.get(self.i..end)? == l).then(|| self.i = end)
    }

    fn at_end(&self) -> bool {
        self.i == self.b.len()
    }

    /// A JSON integer, non-negative, that fits a `u64`.
    fn uint(&mut self) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            self.i += 1;
        }
        let len = self.i - start;
        // No digit, or a leading zero (`01` is not JSON).
        (len == 1 || (len > 1 && self.b[start] != b'0')).then_some(n)
    }

    /// A key without escapes, after its opening quote was seen; then the
    /// colon.
    fn key(&mut self) -> Option<&'a [u8]> {
        let key = self.plain_string()?;
        self.eat(b':')?;
        Some(key)
    }

    /// A string value whose text is used as is only if it has no escape
    /// (keys, `type` words, ids).
    fn plain_string(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        self.i = run_end(self.b, start);
        let s = self.b.get(start..self.i)?;
        self.eat(b'"')?;
        Some(s)
    }

    /// [`plain_string`](Self::plain_string) as text: cut at quotes, so
    /// whole characters of the data.
    fn plain_str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        self.i = run_end(self.b, start);
        let s = self.s.get(start..self.i)?;
        self.eat(b'"')?;
        Some(s)
    }

    /// A string value decoded: a range of the data when it has no escape,
    /// else its text in `out` (cleared first).
    fn string(&mut self, out: &mut String) -> Option<Payload> {
        self.eat(b'"')?;
        let start = self.i;
        let at = run_end(self.b, start);
        match *self.b.get(at)? {
            b'"' => {
                self.i = at + 1;
                return Some(Payload::Raw(start..at));
            }
            b'\\' => {}
            _ => return None, // a control byte
        }
        out.clear();
        // Decoded text is never longer than the rest of the data: one
        // allocation, no copy on growth (a long payload's peak stays its
        // size).
        out.reserve(self.b.len() - start);
        out.push_str(self.s.get(start..at)?);
        let mut i = self.escape(at + 1, out)?;
        // The rest byte by byte: escaped payloads are short runs between
        // escapes, where a copy call per run costs more than a push per byte.
        loop {
            match *self.b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some(Payload::Scratch);
                }
                b'\\' => i = self.escape(i + 1, out)?,
                x @ 0x20..=0x7F => {
                    out.push(char::from(x));
                    i += 1;
                }
                0..0x20 => return None,
                _ => {
                    // A multi-byte character: up to the next ASCII byte.
                    let mut j = i + 1;
                    while self.b.get(j).is_some_and(|&x| x >= 0x80) {
                        j += 1;
                    }
                    out.push_str(self.s.get(i..j)?);
                    i = j;
                }
            }
        }
    }

    /// One escape after its backslash at `i`, appended to `out`; returns
    /// where the text goes on.
    fn escape(&self, i: usize, out: &mut String) -> Option<usize> {
        let c = match *self.b.get(i)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex4(i + 1)?;
                let (c, next) = match hi {
                    0xD800..=0xDBFF => {
                        // A high surrogate must be followed by its low half.
                        if self.b.get(i + 5..i + 7)? != b"\\u" {
                            return None;
                        }
                        let lo = self.hex4(i + 7)?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return None;
                        }
                        let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        (char::from_u32(cp)?, i + 11)
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => (char::from_u32(hi)?, i + 5),
                };
                out.push(c);
                return Some(next);
            }
            _ => return None,
        };
        out.push(c);
        Some(i + 1)
    }

    fn hex4(&self, i: usize) -> Option<u32> {
        let digits = self.b.get(i..i.checked_add(4)?)?;
        digits
            .iter()
            .try_fold(0u32, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
    }

    /// A member value the full reader ignores: a string, an integer, a
    /// literal, or an empty array or object.
    fn skip_value(&mut self, scratch: &mut String) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.string(scratch)?;
            }
            b'-' => {
                self.i += 1;
                self.uint()?;
            }
            b'0'..=b'9' => {
                self.uint()?;
            }
            b'n' => self.lit(b"null")?,
            b't' => self.lit(b"true")?,
            b'f' => self.lit(b"false")?,
            b'[' => self.lit(b"[]")?,
            b'{' => self.lit(b"{}")?,
            _ => return None,
        }
        Some(())
    }

    /// The members of an object, each handed to `member` with the cursor at
    /// its value; `member` reads the value or returns `None`.
    fn object(&mut self, member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        self.members(member)
    }

    /// The members of an object from the start of a key on, to its `}`.
    fn members(&mut self, mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        loop {
            let key = self.key()?;
            member(self, key)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// `null`, for members whose null the full reader takes as absent.
    fn null(&mut self) -> Option<()> {
        self.lit(b"null")
    }
}

/// Marks member `bit` seen; `None` when it was already (serde refuses a
/// duplicate field).
fn once(seen: &mut u32, bit: u32) -> Option<()> {
    let was = *seen & bit;
    *seen |= bit;
    (was == 0).then_some(())
}

/// What an Anthropic `content_block_delta` carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnthropicKind {
    InputJson,
    Text,
    Thinking,
}

/// An Anthropic `content_block_delta` read on the fast path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct AnthropicDelta {
    pub(crate) index: u64,
    pub(crate) kind: AnthropicKind,
    pub(crate) payload: Payload,
}

/// Reads `{"type":"content_block_delta","index":N,"delta":{"type":K,P:"…"}}`
/// (members in any order, unknown scalar members beside them) where K is
/// `input_json_delta` with P `partial_json`, or `text_delta` /
/// `thinking_delta` with P `text` or `thinking` (one name to the full
/// reader).
pub(crate) fn anthropic(data: &str, scratch: &mut String) -> Option<AnthropicDelta> {
    anthropic_as_sent(data, scratch).or_else(|| anthropic_any_order(data, scratch))
}

/// The members in the order and spelling the API sends them: a few
/// literal comparisons.
fn anthropic_as_sent(data: &str, scratch: &mut String) -> Option<AnthropicDelta> {
    let mut c = Cursor::new(data);
    c.lit(br#"{"type":"content_block_delta","index":"#)?;
    let index = c.uint()?;
    c.lit(br#","delta":{"type":""#)?;
    let kind = if c.lit(br#"input_json_delta","partial_json":"#).is_some() {
        AnthropicKind::InputJson
    } else if c.lit(br#"text_delta","text":"#).is_some() {
        AnthropicKind::Text
    } else {
        c.lit(br#"thinking_delta","thinking":"#)?;
        AnthropicKind::Thinking
    };
    let payload = c.string(scratch)?;
    c.lit(b"}}")?;
    c.at_end().then_some(AnthropicDelta {
        index,
        kind,
        payload,
    })
}

fn anthropic_any_order(data: &str, scratch: &mut String) -> Option<AnthropicDelta> {
    let mut c = Cursor::new(data);
    let (mut seen, mut index, mut kind, mut payload) = (0u32, None, None, None);
    c.object(|c, key| {
        match key {
            b"type" => {
                once(&mut seen, 1)?;
                (c.plain_string()? == b"content_block_delta").then_some(())?;
            }
            b"index" => {
                once(&mut seen, 2)?;
                index = Some(c.uint()?);
            }
            b"delta" => {
                once(&mut seen, 4)?;
                let mut dseen = 0u32;
                let mut payload_key: &[u8] = b"";
                c.object(|c, key| {
                    match key {
                        b"type" => {
                            once(&mut dseen, 1)?;
                            kind = Some(match c.plain_string()? {
                                b"input_json_delta" => AnthropicKind::InputJson,
                                b"text_delta" => AnthropicKind::Text,
                                b"thinking_delta" => AnthropicKind::Thinking,
                                _ => return None,
                            });
                        }
                        b"partial_json" | b"text" | b"thinking" => {
                            // `text` and `thinking` are one field.
                            once(&mut dseen, if key == b"partial_json" { 2 } else { 4 })?;
                            payload_key = key;
                            payload = Some(c.string(scratch)?);
                        }
                        b"signature" | b"citation" | b"stop_reason" | b"stop_sequence"
                        | b"stop_details" | b"container" | b"content" | b"encrypted_content" => {
                            return None;
                        }
                        _ => c.skip_value(&mut String::new())?,
                    }
                    Some(())
                })?;
                // The payload member must be the one its type reads.
                let fits = match kind? {
                    AnthropicKind::InputJson => payload_key == b"partial_json",
                    _ => payload_key == b"text" || payload_key == b"thinking",
                };
                fits.then_some(())?;
            }
            b"content_block" | b"message" | b"usage" | b"error" => return None,
            _ => c.skip_value(&mut String::new())?,
        }
        Some(())
    })?;
    (c.at_end() && seen == 7).then_some(())?;
    Some(AnthropicDelta {
        index: index?,
        kind: kind?,
        payload: payload?,
    })
}

/// What an OpenAI Chat chunk's one delta carries.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ChatKind {
    /// `tool_calls: [{"index": N, "function": {"arguments": …}}]`.
    Arguments { index: u64 },
    /// `content: …`.
    Content,
}

/// An OpenAI Chat chunk read on the fast path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ChatDelta {
    pub(crate) choice: u64,
    pub(crate) kind: ChatKind,
    pub(crate) payload: Payload,
}

/// Reads a `chat.completion.chunk` with `choices` of one choice (its
/// `index`, a `delta` that is either one tool call's `index` and
/// `function.arguments` or `content` alone, `finish_reason: null`), `usage`
/// and `error` null or absent, other top-level members scalars.
///
/// `known` is the data before `"choices"` of the last chunk read here
/// when it held only ignored members (a stream repeats its `id`, `object`,
/// `created`, `model` and `system_fingerprint` in every chunk): a chunk
/// that begins with the same bytes skips to `choices`.
pub(crate) fn chat(data: &str, scratch: &mut String, known: &mut Vec<u8>) -> Option<ChatDelta> {
    let mut c = Cursor::new(data);
    let mut seen = 0u32;
    let mut found = None;
    let mut choices_at = None;
    let mut member = |c: &mut Cursor<'_>, key: &[u8]| {
        match key {
            b"choices" => {
                once(&mut seen, 1)?;
                if seen == 1 {
                    // Only ignored members before it (the key, its quotes
                    // and colon are 10 bytes).
                    choices_at.get_or_insert(c.i - 10);
                }
                c.eat(b'[')?;
                found = Some(chat_choice(c, scratch)?);
                c.eat(b']')?;
            }
            b"usage" => {
                once(&mut seen, 2)?;
                c.null()?;
            }
            b"error" => {
                once(&mut seen, 4)?;
                c.null()?;
            }
            _ => c.skip_value(&mut String::new())?,
        }
        Some(())
    };
    if !known.is_empty() && data.as_bytes().starts_with(known) {
        c.i = known.len();
        c.members(&mut member)?;
    } else {
        c.object(&mut member)?;
        if let Some(at) = choices_at {
            known.clear();
            known.extend_from_slice(data.as_bytes().get(..at)?);
        }
    }
    c.at_end().then_some(())?;
    found
}

fn chat_choice(c: &mut Cursor<'_>, scratch: &mut String) -> Option<ChatDelta> {
    let at = c.i;
    if let Some(d) = chat_choice_as_sent(c, scratch) {
        return Some(d);
    }
    c.i = at;
    chat_choice_any_order(c, scratch)
}

/// A choice as the API sends it: a few literal comparisons.
fn chat_choice_as_sent(c: &mut Cursor<'_>, scratch: &mut String) -> Option<ChatDelta> {
    c.lit(br#"{"index":"#)?;
    let choice = c.uint()?;
    let kind = if c.lit(br#","delta":{"tool_calls":[{"index":"#).is_some() {
        let index = c.uint()?;
        c.lit(br#","function":{"arguments":"#)?;
        ChatKind::Arguments { index }
    } else {
        c.lit(br#","delta":{"content":"#)?;
        ChatKind::Content
    };
    let payload = c.string(scratch)?;
    if kind == ChatKind::Content {
        c.lit(b"}")?;
    } else {
        c.lit(b"}}]}")?;
    }
    c.lit(br#","logprobs":null,"finish_reason":null}"#)?;
    Some(ChatDelta {
        choice,
        kind,
        payload,
    })
}

fn chat_choice_any_order(c: &mut Cursor<'_>, scratch: &mut String) -> Option<ChatDelta> {
    let (mut seen, mut choice, mut kind, mut payload) = (0u32, None, None, None);
    c.object(|c, key| {
        match key {
            b"index" => {
                once(&mut seen, 1)?;
                choice = Some(c.uint()?);
            }
            b"finish_reason" => {
                once(&mut seen, 2)?;
                c.null()?;
            }
            b"delta" => {
                once(&mut seen, 4)?;
                let mut dseen = 0u32;
                c.object(|c, key| {
                    match key {
                        b"content" => {
                            once(&mut dseen, 1)?;
                            kind = Some(ChatKind::Content);
                            payload = Some(c.string(scratch)?);
                        }
                        b"tool_calls" => {
                            once(&mut dseen, 2)?;
                            c.eat(b'[')?;
                            let (index, p) = chat_tool_call(c, scratch)?;
                            c.eat(b']')?;
                            kind = Some(ChatKind::Arguments { index });
                            payload = Some(p);
                        }
                        // Absent to the full reader when null.
                        b"role" | b"refusal" | b"reasoning_content" | b"reasoning" => {
                            c.null()?;
                        }
                        _ => return None,
                    }
                    // One of the two, not both.
                    (dseen != 3).then_some(())
                })?;
            }
            _ => c.skip_value(&mut String::new())?,
        }
        Some(())
    })?;
    Some(ChatDelta {
        choice: choice?,
        kind: kind?,
        payload: payload?,
    })
}

fn chat_tool_call(c: &mut Cursor<'_>, scratch: &mut String) -> Option<(u64, Payload)> {
    let (mut seen, mut index, mut payload) = (0u32, None, None);
    c.object(|c, key| {
        match key {
            b"index" => {
                once(&mut seen, 1)?;
                index = Some(c.uint()?);
            }
            b"function" => {
                once(&mut seen, 2)?;
                let mut fseen = 0u32;
                c.object(|c, key| {
                    match key {
                        b"arguments" => {
                            once(&mut fseen, 1)?;
                            payload = Some(c.string(scratch)?);
                        }
                        _ => return None,
                    }
                    Some(())
                })?;
            }
            // An id or a name, even null, is read by the full path.
            b"id" => return None,
            _ => c.skip_value(&mut String::new())?,
        }
        Some(())
    })?;
    Some((index?, payload?))
}

/// What an OpenAI Responses delta event carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResponsesKind {
    /// `response.function_call_arguments.delta`,
    /// `response.mcp_call_arguments.delta`,
    /// `response.custom_tool_call_input.delta`.
    Arguments,
    /// `response.output_text.delta`.
    Text,
}

/// An OpenAI Responses delta event read on the fast path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ResponsesDelta<'a> {
    pub(crate) kind: ResponsesKind,
    pub(crate) output_index: Option<u64>,
    pub(crate) item_id: Option<&'a str>,
    pub(crate) content_index: Option<u64>,
    pub(crate) payload: Payload,
}

/// Reads a Responses arguments or output-text delta: `type`, `delta`,
/// `output_index`, `item_id` (without escapes), `content_index`, and
/// ignored scalar members (`sequence_number`, `obfuscation`, `logprobs: []`).
pub(crate) fn responses<'a>(data: &'a str, scratch: &mut String) -> Option<ResponsesDelta<'a>> {
    responses_as_sent(data, scratch).or_else(|| responses_any_order(data, scratch))
}

/// An arguments delta as the API sends it: a few literal comparisons.
fn responses_as_sent<'a>(data: &'a str, scratch: &mut String) -> Option<ResponsesDelta<'a>> {
    let mut c = Cursor::new(data);
    c.lit(br#"{"type":"response.function_call_arguments.delta","sequence_number":"#)?;
    c.uint()?;
    c.lit(br#","item_id":"#)?;
    let item_id = c.plain_str()?;
    c.lit(br#","output_index":"#)?;
    let output_index = c.uint()?;
    c.lit(br#","delta":"#)?;
    let payload = c.string(scratch)?;
    if c.lit(br#","obfuscation":"#).is_some() {
        c.plain_string()?;
    }
    c.lit(b"}")?;
    c.at_end().then_some(ResponsesDelta {
        kind: ResponsesKind::Arguments,
        output_index: Some(output_index),
        item_id: Some(item_id),
        content_index: None,
        payload,
    })
}

fn responses_any_order<'a>(data: &'a str, scratch: &mut String) -> Option<ResponsesDelta<'a>> {
    let mut c = Cursor::new(data);
    let mut seen = 0u32;
    let (mut kind, mut output_index, mut item_id, mut content_index, mut payload) =
        (None, None, None, None, None);
    c.object(|c, key| {
        match key {
            b"type" => {
                once(&mut seen, 1)?;
                kind = Some(match c.plain_string()? {
                    b"response.function_call_arguments.delta"
                    | b"response.mcp_call_arguments.delta"
                    | b"response.custom_tool_call_input.delta" => ResponsesKind::Arguments,
                    b"response.output_text.delta" => ResponsesKind::Text,
                    _ => return None,
                });
            }
            b"output_index" => {
                once(&mut seen, 2)?;
                output_index = Some(c.uint()?);
            }
            b"item_id" => {
                once(&mut seen, 4)?;
                item_id = Some(c.plain_str()?);
            }
            b"content_index" => {
                once(&mut seen, 8)?;
                content_index = Some(c.uint()?);
            }
            b"delta" => {
                once(&mut seen, 16)?;
                payload = Some(c.string(scratch)?);
            }
            b"arguments" | b"input" | b"item" | b"part" | b"response" | b"code" | b"message"
            | b"error" => return None,
            _ => c.skip_value(&mut String::new())?,
        }
        Some(())
    })?;
    c.at_end().then_some(())?;
    Some(ResponsesDelta {
        kind: kind?,
        output_index,
        item_id,
        content_index,
        payload: payload?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(data: &str, p: &Payload, s: &str) -> String {
        p.text(data, s).to_owned()
    }

    #[test]
    fn anthropic_shapes() {
        let mut s = String::new();
        let d = r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"a\":\"\\n\u00e9\ud83d\ude00"}}"#;
        let got = anthropic(d, &mut s).unwrap();
        assert_eq!((got.index, got.kind), (3, AnthropicKind::InputJson));
        assert_eq!(text(d, &got.payload, &s), "{\"a\":\"\\n\u{e9}\u{1F600}");
        for refused in [
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"\ud83d"}}"#,
            r#"{"type":"content_block_delta","index":03,"delta":{"type":"input_json_delta","partial_json":""}}"#,
            r#"{"type":"content_block_delta", "index":3,"delta":{"type":"input_json_delta","partial_json":""}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","text":""}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"","thinking":""}}"#,
            r#"{"type":"content_block_delta","index":3,"index":3,"delta":{"type":"text_delta","text":""}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"a	b"}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":""}} "#,
        ] {
            assert_eq!(anthropic(refused, &mut s), None, "{refused}");
        }
    }
}
