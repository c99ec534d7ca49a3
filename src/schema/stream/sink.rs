//! [`CheckedSink`]: the stream check beside another sink on one pass.

use super::StreamCheck;
use crate::parser::{Location, Token, TokenSink};

impl StreamCheck {
    /// This check beside `sink` on one pass, as one sink: see
    /// [`CheckedSink`].
    pub fn beside<S: TokenSink>(self, sink: S) -> CheckedSink<S> {
        CheckedSink {
            sink,
            check: self,
            following: false,
            seen: 0,
        }
    }
}

/// A [`TokenSink`] (say a [`crate::ValueBuilder`]) with a [`StreamCheck`]
/// beside it on one pass: each token goes to the check, then the sink, and
/// where the check reads no more of a string than its length, the sink's
/// buffer for string text ([`TokenSink::string_bytes`]) is offered to the
/// parser. This is the way to run a check beside a [`crate::Value`] being
/// built; beside the partial tree it is
/// [`crate::PartialParser::attach_check`].
///
/// That matters when a long argument arrives in small deltas. A
/// [`crate::ValueBuilder`] alone takes such text into its buffer, a few
/// bytes at a time with no piece to make; beside a check that saw every
/// token it would get pieces, each checked and handed on as a token. Here the check counts the
/// buffer's new characters instead (`minLength` / `maxLength`), and asks
/// for pieces again, with exact offsets, before a `maxLength` bound could
/// be crossed. Strings whose keywords read the text (`enum`, `const`,
/// `pattern`, an asserted `format`), or inside a value that an `anyOf`,
/// `oneOf`, `enum`, `uniqueItems` or the like keeps whole, take pieces.
/// Tokens, violations and offsets are those of a check shown every token.
///
/// # Examples
///
/// ```
/// use tooljson::{CompiledSchema, Parser, ValueBuilder};
/// let schema = CompiledSchema::from_json_str(
///     r#"{"properties": {"content": {"type": "string", "maxLength": 300}}}"#,
/// )?;
/// let mut sink = schema.stream_check().beside(ValueBuilder::new());
/// let mut p = Parser::new();
/// // 120 lines of "ab" and an escaped newline: 360 characters.
/// let text = format!(r#"{{"content": "{}"}}"#, r"ab\n".repeat(120));
/// for delta in text.as_bytes().chunks(4) {
///     p.feed(delta, &mut sink)?;
/// }
/// p.finish(&mut sink)?;
/// // The 301st character, the `a` of the 101st line, ends 1 byte into it.
/// assert_eq!(sink.check().first_violation_offset(), Some(13 + 100 * 4 + 1));
/// let (builder, check) = sink.into_parts();
/// assert_eq!(builder.value().unwrap()["content"].as_str().unwrap().len(), 360);
/// assert!(check.finish().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CheckedSink<S> {
    sink: S,
    check: StreamCheck,
    /// The open string's text may go into the sink's buffer, and the check
    /// counts what arrives there.
    following: bool,
    /// How much of the sink's buffer the check has counted.
    seen: usize,
}

impl<S: TokenSink> CheckedSink<S> {
    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The check.
    pub fn check(&self) -> &StreamCheck {
        &self.check
    }

    /// The sink and the check, apart.
    pub fn into_parts(self) -> (S, StreamCheck) {
        (self.sink, self.check)
    }

    /// Counts the text the parser appended to the sink's buffer since the
    /// check last looked (at the last string token).
    #[inline]
    fn catch_up(&mut self) {
        if let Some(buf) = self.sink.string_bytes()
            && let Some(new) = buf.get(self.seen..)
            && !new.is_empty()
        {
            self.check.count_elsewhere(new);
            self.seen = buf.len();
        }
    }
}

impl<S: TokenSink> TokenSink for CheckedSink<S> {
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        let string_token = matches!(token, Token::StringPart(_) | Token::StringEnd);
        if self.following && string_token {
            // Before the sink moves its buffer's text on.
            self.catch_up();
        }
        self.sink.token(token, at);
        self.check.token(token, at);
        match token {
            Token::StringBegin => {
                self.following = self.check.counts_at_most();
            }
            Token::StringEnd => self.following = false,
            _ => {}
        }
        if self.following && (string_token || token == Token::StringBegin) {
            self.seen = self.sink.string_bytes().map_or(0, |b| b.len());
        }
    }

    fn exact_string_offsets_from(&self) -> Option<usize> {
        earlier_bound(
            self.sink.exact_string_offsets_from(),
            self.check.exact_string_offsets_from(),
        )
    }

    fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
        // The text appended here is counted at the next piece or the
        // string's end, before the sink moves it on: until then no
        // `maxLength` can be passed (the parser stops appending short of
        // the bound), so nothing else needs the count.
        if self.following {
            self.sink.string_bytes()
        } else {
            None
        }
    }
}

/// The earlier of two sinks' requests for exact string-piece offsets
/// ([`TokenSink::exact_string_offsets_from`]), for a sink made of both.
fn earlier_bound(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
