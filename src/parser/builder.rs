//! `ValueBuilder`, the sink that assembles tokens into a finished [`Value`],
//! and the one-shot parse the crate's `from_slice` runs on it.

use super::token::{Location, Token, TokenSink};
use super::{DuplicateKeys, Limits, Parser};
use crate::error::Error;
use crate::value::{Map, Number, Value};

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
    /// The bytes of the values closed so far: their lists, long strings and
    /// keys (see [`held_bytes`](Self::held_bytes)).
    closed_bytes: u64,
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

    /// An estimate of the memory the value built so far holds, in bytes:
    /// the lists of the closed arrays and objects, the text of strings and
    /// keys, and the items and members of the open ones counted twice (each
    /// is copied into a list of its exact length when its container
    /// closes). Counted as the tokens arrive, O(1) to read; a memory budget
    /// for untrusted input compares against it between fragments.
    ///
    /// ```
    /// use tooljson::{Parser, ValueBuilder};
    /// let mut p = Parser::new();
    /// let mut b = ValueBuilder::new();
    /// p.feed(b"[1, 2", &mut b)?;
    /// let small = b.held_bytes();
    /// p.feed(b", 3, 4, 5, 6]", &mut b)?;
    /// assert!(b.held_bytes() > small);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn held_bytes(&self) -> u64 {
        let open = self.items.len() * std::mem::size_of::<Value>()
            + self.members.len() * std::mem::size_of::<(crate::value::Key, Value)>();
        self.closed_bytes
            .saturating_add(2 * open as u64)
            .saturating_add(self.string.capacity() as u64)
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
    /// directly: built first and then moved (as `Vec::push(v)` does when
    /// the vector may have to grow), it would go through the stack, written
    /// there in 8-byte words and read back in 16-byte ones, a load the
    /// processor cannot forward from the stores, which stalls each number
    /// for about as long as the rest of its handling.
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
    // no indirect jump through the `match`.
    #[inline(always)]
    fn token(&mut self, token: Token<'_>, _at: &Location<'_>) {
        match token {
            Token::ObjectBegin => self.frames.push(Frame::Object(self.members.len())),
            Token::ArrayBegin => self.frames.push(Frame::Array(self.items.len())),
            // Built in place, as in `add`.
            Token::Key(k) => {
                self.closed_bytes += k.len() as u64;
                self.members.extend(std::iter::once_with(|| {
                    (crate::value::Key::new(k), Value::Null)
                }));
            }
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
                self.closed_bytes += self.string.len() as u64;
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
                        let items = self.items.split_off(start.min(self.items.len()));
                        self.closed_bytes += (items.len() * std::mem::size_of::<Value>()) as u64;
                        Value::Array(items)
                    }
                    Some(Frame::Object(start)) => {
                        let members = self.members.split_off(start.min(self.members.len()));
                        self.closed_bytes += (members.len()
                            * std::mem::size_of::<(crate::value::Key, Value)>())
                            as u64;
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
