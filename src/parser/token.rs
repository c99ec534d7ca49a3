//! The parser's output: tokens, where they happened, and the sink that
//! receives them.

use crate::path::PathRef;

/// One piece of the document, in document order.
///
/// Strings arrive as `StringBegin`, any number of `StringPart`s (decoded
/// text, never half a character or half an escape), then `StringEnd`; where a
/// string is cut between parts depends on the chunking and is not meaningful.
/// Keys are complete when they arrive. A `Number` carries its exact lexeme and
/// arrives once a byte after it (or `finish()`) proved it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `{`
    ObjectBegin,
    /// `}`
    ObjectEnd,
    /// `[`
    ArrayBegin,
    /// `]`
    ArrayEnd,
    /// An object member's complete key; the member's value follows.
    Key(&'a str),
    /// The opening quote of a string value.
    StringBegin,
    /// Decoded text of the current string value.
    StringPart(&'a str),
    /// The closing quote of a string value.
    StringEnd,
    /// A complete number, its lexeme as written.
    Number(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

impl Token<'_> {
    /// An owned copy, for storing tokens past the sink call.
    pub fn to_owned_token(&self) -> OwnedToken {
        match *self {
            Token::ObjectBegin => OwnedToken::ObjectBegin,
            Token::ObjectEnd => OwnedToken::ObjectEnd,
            Token::ArrayBegin => OwnedToken::ArrayBegin,
            Token::ArrayEnd => OwnedToken::ArrayEnd,
            Token::Key(k) => OwnedToken::Key(k.to_owned()),
            Token::StringBegin => OwnedToken::StringBegin,
            Token::StringPart(s) => OwnedToken::StringPart(s.to_owned()),
            Token::StringEnd => OwnedToken::StringEnd,
            Token::Number(n) => OwnedToken::Number(n.to_owned()),
            Token::Bool(b) => OwnedToken::Bool(b),
            Token::Null => OwnedToken::Null,
        }
    }
}

/// An owned [`Token`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum OwnedToken {
    ObjectBegin,
    ObjectEnd,
    ArrayBegin,
    ArrayEnd,
    Key(String),
    StringBegin,
    StringPart(String),
    StringEnd,
    Number(String),
    Bool(bool),
    Null,
}

/// Where a token happened.
#[derive(Clone, Copy, Debug)]
pub struct Location<'a> {
    /// How many input bytes the parser had looked at when it emitted the
    /// token, counting the byte that produced it: the token was certain after
    /// `offset` bytes. For a number that is the byte after its lexeme; for
    /// tokens emitted by `finish()`, the input length.
    pub offset: u64,
    /// The path of the value the token belongs to: for `Key`, the member's
    /// path (ending in that key); for `ObjectEnd` / `ArrayEnd`, the
    /// container's path.
    pub path: PathRef<'a>,
}

/// Receives the parser's tokens.
///
/// Implemented for closures `FnMut(Token, &Location)`, for
/// `Vec<OwnedToken>` (stores tokens), and for `()` (discards them, to check
/// syntax only).
///
/// # Examples
///
/// ```
/// use tooljson::{Parser, Token};
/// let mut keys = Vec::new();
/// let mut parser = Parser::new();
/// parser.feed(br#"{"a": 1, "b": {"c": 2}}"#, &mut |t: tooljson::Token<'_>, at: &tooljson::parser::Location<'_>| {
///     if let Token::Key(_) = t {
///         keys.push(at.path.to_string());
///     }
/// })?;
/// parser.finish(&mut ())?;
/// assert_eq!(keys, ["/a", "/b", "/b/c"]);
/// # Ok::<(), tooljson::Error>(())
/// ```
pub trait TokenSink {
    /// Called once per token, in document order.
    fn token(&mut self, token: Token<'_>, at: &Location<'_>);

    /// Whether this sink needs exact [`Token::StringPart`] offsets in the
    /// string value that has just begun, and from where: the parser asks
    /// right after handing on each [`Token::StringBegin`], and the answer
    /// holds until that string ends. `None` (the default): the parser joins
    /// plain text and decoded escapes into one piece per chunk, whose offset
    /// is the end of the chunk or the closing quote. `Some(n)`: once the
    /// string's decoded text reaches `n` bytes, each escaped character (and
    /// each character completed across chunks) is a piece of its own, ending
    /// just past its last input byte, and every other piece is plain text
    /// whose bytes are exactly the input bytes just before its offset. The
    /// schema stream check asks for this in a string under `enum` / `const`
    /// (from 0) or `maxLength` (from the maximum: no character before it
    /// can break the bound), so that it places a violation at its exact
    /// byte at every chunking; it costs one more token per escape past that
    /// point. A sink that wraps another should pass the question on.
    ///
    /// Who implements this: a sink that reports positions inside strings
    /// (a check, or a sink wrapping one, which must pass the question on).
    /// Most sinks never implement it and keep the default.
    ///
    /// ```
    /// use tooljson::{Parser, Token, TokenSink};
    /// use tooljson::parser::Location;
    /// struct Pieces(Vec<(String, u64)>);
    /// impl TokenSink for Pieces {
    ///     fn token(&mut self, t: Token<'_>, at: &Location<'_>) {
    ///         if let Token::StringPart(s) = t {
    ///             self.0.push((s.to_owned(), at.offset));
    ///         }
    ///     }
    ///     fn exact_string_offsets_from(&self) -> Option<usize> {
    ///         Some(0)
    ///     }
    /// }
    /// let mut pieces = Pieces(Vec::new());
    /// let mut p = Parser::new();
    /// p.feed(br#""ab\ncd""#, &mut pieces)?;
    /// p.finish(&mut pieces)?;
    /// let expected = [("ab", 3), ("\n", 5), ("cd", 7)].map(|(s, o)| (s.to_owned(), o));
    /// assert_eq!(pieces.0, expected);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    fn exact_string_offsets_from(&self) -> Option<usize> {
        None
    }

    /// A buffer for the decoded text of the string value that has just
    /// begun, for a sink that assembles strings itself (as
    /// [`crate::ValueBuilder`] does). The parser asks right after handing on
    /// each [`Token::StringBegin`] (after
    /// [`exact_string_offsets_from`](TokenSink::exact_string_offsets_from),
    /// which takes precedence: a sink asking for exact offsets from some
    /// bound gets pieces, from some way before that bound on, or for the
    /// whole string when the bound is near its start). `None` (the
    /// default): the text arrives as
    /// [`Token::StringPart`]s. `Some`: until that string's
    /// [`Token::StringEnd`], the parser may append any of its text to this
    /// buffer (asking again each time) instead of handing it on as a piece.
    /// The string is then the buffer's new bytes and the pieces, in the
    /// order they arrived: bytes appended before a piece come before it.
    ///
    /// Only whole, checked UTF-8 characters are appended, so the buffer
    /// always holds valid UTF-8 between calls. It spares the parser a
    /// validation call and a token per piece where it has no `&str` at
    /// hand (a small chunk of ASCII text, say), and the sink the dispatch:
    /// the saving that matters when a long argument streams in a few bytes
    /// per delta. Keys always arrive whole in [`Token::Key`].
    ///
    /// Who implements this: a sink that assembles string values itself
    /// and wants them fast (a builder, or a sink wrapping one, which should
    /// pass the buffer on). Most sinks never implement it and keep the
    /// default.
    ///
    /// ```
    /// use tooljson::{Parser, Token, TokenSink};
    /// use tooljson::parser::Location;
    /// #[derive(Default)]
    /// struct Strings { bytes: Vec<u8>, text: String, done: Vec<String> }
    /// impl TokenSink for Strings {
    ///     fn token(&mut self, t: Token<'_>, _at: &Location<'_>) {
    ///         // Settle the appended bytes before a piece or the end.
    ///         if matches!(t, Token::StringPart(_) | Token::StringEnd) {
    ///             self.text.push_str(std::str::from_utf8(&self.bytes).unwrap_or(""));
    ///             self.bytes.clear();
    ///         }
    ///         match t {
    ///             Token::StringPart(s) => self.text.push_str(s),
    ///             Token::StringEnd => self.done.push(std::mem::take(&mut self.text)),
    ///             _ => {}
    ///         }
    ///     }
    ///     fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
    ///         Some(&mut self.bytes)
    ///     }
    /// }
    /// let mut sink = Strings::default();
    /// let mut p = Parser::new();
    /// // A long argument streamed a few bytes at a time, split inside an
    /// // escape and inside a character.
    /// let doc = format!("[\"{}\\ncaf\u{e9}\", \"ok\"]", "x".repeat(100));
    /// for chunk in doc.as_bytes().chunks(5) {
    ///     p.feed(chunk, &mut sink)?;
    /// }
    /// p.finish(&mut sink)?;
    /// assert_eq!(sink.done, [format!("{}\ncaf\u{e9}", "x".repeat(100)), "ok".to_owned()]);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
        None
    }
}

impl<F: FnMut(Token<'_>, &Location<'_>)> TokenSink for F {
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        self(token, at)
    }
}

impl TokenSink for Vec<OwnedToken> {
    fn token(&mut self, token: Token<'_>, _at: &Location<'_>) {
        self.push(token.to_owned_token());
    }
}

impl TokenSink for () {
    fn token(&mut self, _token: Token<'_>, _at: &Location<'_>) {}
}
