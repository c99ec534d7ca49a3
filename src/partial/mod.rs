//! The best-effort partial value of a document that is still arriving, and
//! the events that say what changed: a value opened, a string grew, a value
//! completed. Built from the parser's tokens, updated in place, O(chunk) per
//! feed; nothing is ever re-parsed.
//!
//! # The contract (monotone: a UI never has to take anything back)
//!
//! 1. A value never changes type once visible; a visible scalar never changes.
//! 2. A string is visible from its opening quote, as `""`, and only grows by
//!    decoded text; a split UTF-8 sequence or escape is held back by the
//!    parser, so no U+FFFD, lone surrogate or raw `\u00` is ever shown.
//! 3. Numbers and `true` / `false` / `null` are atomic: visible once proven
//!    complete (`12` at the end of a chunk may still become `123`).
//! 4. An object member is visible once its key is complete and its value has
//!    begun: `{"a":` shows `{}`.
//! 5. Containers are visible as soon as they open.
//! 6. A [`ValueEvent::Completed`] fires exactly once per value, with its path,
//!    in document order, the root last; the sequence of events is the same for
//!    every chunking, except that where an [`ValueEvent::Appended`] text is cut
//!    depends on the chunks (joined, the texts are the same).
//! 7. Strings at paths chosen by [`PartialParser::hold_strings`] (a schema's
//!    `enum` / `const` fields) stay hidden until complete.
//!
//! A schema's stream check runs beside the tree on the same pass through
//! [`PartialParser::attach_check`], the one way to do so (beside a
//! [`Value`] being built, it is [`StreamCheck::beside`]).
//!
//! Repeated keys: the partial object shows every occurrence as it streams (so
//! nothing visible is ever replaced); the completed object applies the
//! parser's [`DuplicateKeys`] policy.
//!
//! # Memory
//!
//! A node is a [`Value`]'s size (32 bytes), an open object's member 56
//! bytes and its key's text, a finished one 56 bytes with a key of up to 24
//! bytes inline; strings hold their decoded text (a string opens with room
//! for 32 bytes). Lists and strings double
//! up to 64 KiB and grow by half beyond, so one that moves holds 2.5 times
//! its length for that moment at most; a finished one gives back the room
//! it does not use when that is over an eighth of it and 4 KiB. An array of one-digit
//! numbers (`[0,0,...]`) is the densest input: 16 bytes per byte of text,
//! about 18 with its room. [`PartialParser::held_bytes`] is the estimate a
//! memory budget compares against.

mod event;
mod node;
mod tree;

use std::fmt;

use crate::error::Error;
use crate::parser::{DuplicateKeys, Limits, Parser};
#[cfg(feature = "schema")]
use crate::parser::{Location, Token, TokenSink};
use crate::path::PathRef;
#[cfg(feature = "schema")]
use crate::schema::StreamCheck;
use crate::value::Value;

pub use event::{EventSink, OpenedKind, OwnedValueEvent, ValueEvent};
pub use node::{NodeRef, PartialNode};
use tree::{PartialTree, TreeSink};

/// A schema's stream check fed beside the tree ([`PartialParser::attach_check`]),
/// and how much of the open string it has not been shown.
#[derive(Debug)]
#[cfg(feature = "schema")]
struct AttachedCheck {
    check: StreamCheck,
    /// Whether the open string's pieces go to the tree alone: the check
    /// needs no more of it than its length, and counts that from the
    /// tree's text when it next needs it (see [`CheckedTreeSink`]).
    lazy: bool,
    /// Bytes of the open string's pieces the check has not been shown.
    pending: u64,
    /// The offset of the last of those pieces.
    last_offset: u64,
}

#[cfg(feature = "schema")]
impl AttachedCheck {
    /// Shows the check what it has not been shown of the open string: its
    /// characters, counted from the tree's text in one go, and the last
    /// piece's offset. After this the string's pieces go to the check too.
    fn catch_up(&mut self, tree: &mut PartialTree) {
        self.lazy = false;
        if self.pending > 0 {
            if let Some(text) = tree.open_string_text() {
                self.check.count_unseen(text, self.last_offset);
            }
            self.pending = 0;
        }
    }
}

/// [`TreeSink`] with an attached check. While the check needs no more of
/// the open string than its length and even at one character per byte the
/// pieces not shown to it cannot take the count past its smallest
/// `maxLength` ([`StreamCheck`]'s short path for such pieces, which only
/// counts them), a piece goes to the tree alone; at the string's next
/// token that could matter (a piece that could reach the bound, or its
/// end) the check counts the tree's text first, then takes the token as it
/// would have. The check's state is then what it would have been had it
/// been shown every piece, and its violations and their offsets are the
/// same: no violation can lie in text it only counted.
#[cfg(feature = "schema")]
struct CheckedTreeSink<'t, 'e, 'c, E: ?Sized> {
    tree: &'t mut PartialTree,
    events: &'e mut E,
    attached: &'c mut AttachedCheck,
}

#[cfg(feature = "schema")]
impl<E: EventSink + ?Sized> TokenSink for CheckedTreeSink<'_, '_, '_, E> {
    /// The piece the tree alone takes in line, as the tree's own sink
    /// takes every token; the rest out of line.
    #[inline(always)]
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        let a = &mut *self.attached;
        if a.lazy
            && let Token::StringPart(part) = token
        {
            let pending = a.pending + part.len() as u64;
            if a.check.only_counts(pending) {
                a.pending = pending;
                a.last_offset = at.offset;
                self.tree.handle(token, at, self.events);
                return;
            }
        }
        self.checked_token(token, at);
    }

    fn exact_string_offsets_from(&self) -> Option<usize> {
        self.attached.check.exact_string_offsets_from()
    }
}

#[cfg(feature = "schema")]
impl<E: EventSink + ?Sized> CheckedTreeSink<'_, '_, '_, E> {
    /// A token the check is shown (after what it was not shown of the open
    /// string), then the tree.
    #[inline(never)]
    fn checked_token(&mut self, token: Token<'_>, at: &Location<'_>) {
        let a = &mut *self.attached;
        if a.lazy {
            a.catch_up(self.tree);
        }
        a.check.token(token, at);
        self.tree.handle(token, at, self.events);
        if token == Token::StringBegin
            && a.check.counts_at_most()
            && self.tree.open_string_text().is_some()
        {
            a.lazy = true;
        }
    }
}

/// A [`Parser`] with a partial tree: feed argument fragments, read the
/// best-effort value after any feed, and receive [`ValueEvent`]s.
///
/// # Example: a live preview and early actions
///
/// ```
/// use tooljson::partial::{PartialParser, ValueEvent};
///
/// let mut p = PartialParser::new();
/// let mut done = Vec::new();
/// let mut on_event = |e: ValueEvent<'_>| {
///     if let ValueEvent::Completed { path, value: Some(v) } = e {
///         done.push(format!("{path} = {v}"));
///     }
/// };
/// p.feed(br#"{"path": "a.txt", "content": "hel"#, &mut on_event)?;
/// assert_eq!(p.snapshot().unwrap().to_string(), r#"{"path":"a.txt","content":"hel"}"#);
/// p.feed(br#"lo"}"#, &mut on_event)?;
/// p.finish(&mut on_event)?;
/// assert_eq!(done, [r#"/path = "a.txt""#, r#"/content = "hello""#, r#" = {"path":"a.txt","content":"hello"}"#]);
/// # Ok::<(), tooljson::Error>(())
/// ```
pub struct PartialParser {
    parser: Parser,
    tree: PartialTree,
    /// Boxed: a parser without a check (the usual case) stays small.
    #[cfg(feature = "schema")]
    check: Option<Box<AttachedCheck>>,
}

impl fmt::Debug for PartialParser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("PartialParser");
        d.field("parser", &self.parser)
            .field("snapshot", &self.tree.root);
        #[cfg(feature = "schema")]
        d.field("check", &self.check.as_ref().map(|a| &a.check));
        d.finish()
    }
}

impl Default for PartialParser {
    fn default() -> Self {
        PartialParser::new()
    }
}

impl PartialParser {
    /// A parser that keeps the partial tree, with the default limits.
    pub fn new() -> Self {
        PartialParser::with_parser(Parser::new(), true)
    }

    /// A parser that only reports events: no tree, no snapshot, and no
    /// memory beyond the parser's own state; `Completed` carries values for
    /// scalars only.
    ///
    /// ```
    /// use tooljson::partial::{OwnedValueEvent, PartialParser};
    /// let mut p = PartialParser::events_only();
    /// let mut events: Vec<OwnedValueEvent> = Vec::new();
    /// p.feed(br#"{"n": 1}"#, &mut events)?;
    /// assert!(p.snapshot().is_none());
    /// assert_eq!(events.len(), 3); // opened, completed /n, completed root
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn events_only() -> Self {
        PartialParser::with_parser(Parser::new(), false)
    }

    /// Wraps a configured [`Parser`] (limits, duplicate-key policy).
    pub fn with_parser(parser: Parser, keep_tree: bool) -> Self {
        let duplicate_keys = parser.duplicate_keys();
        PartialParser {
            parser,
            tree: PartialTree {
                keep_tree,
                duplicate_keys,
                root: None,
                open: 0,
                pending_key: String::new(),
                spare_keys: Vec::new(),
                hold: None,
                held: None,
                node_bytes: 0,
            },
            #[cfg(feature = "schema")]
            check: None,
        }
    }

    /// A tree-keeping parser with the given limits.
    pub fn with_limits(limits: Limits) -> Self {
        PartialParser::with_parser(Parser::with_limits(limits), true)
    }

    /// Holds back strings at the paths where `hold` returns true until they
    /// are complete: no `Opened` or `Appended` events, and no node in the
    /// snapshot, until the closing quote (contract point 7, for fields whose
    /// schema is an `enum` or `const`).
    ///
    /// ```
    /// use tooljson::partial::PartialParser;
    /// let mut p = PartialParser::new();
    /// p.hold_strings(|path| path.to_string() == "/unit");
    /// p.feed(br#"{"unit": "cels"#, &mut ())?;
    /// assert_eq!(p.snapshot().unwrap().to_string(), "{}");
    /// p.feed(br#"ius"}"#, &mut ())?;
    /// assert_eq!(p.snapshot().unwrap().to_string(), r#"{"unit":"celsius"}"#);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn hold_strings(&mut self, hold: impl Fn(PathRef<'_>) -> bool + Send + Sync + 'static) {
        self.tree.hold = Some(Box::new(hold));
    }

    /// Attaches a schema's stream check, to be fed the same tokens as the
    /// tree on the same pass by every later [`feed`](PartialParser::feed)
    /// and [`finish`](PartialParser::finish). This is the one way to run a
    /// check beside the partial tree (beside a [`Value`] being built, it is
    /// [`StreamCheck::beside`]); it is cheaper than showing the check every
    /// token when a long string arrives in small deltas. While the
    /// check needs no more of a string than its length (no `enum`,
    /// `const`, `pattern` or asserted `format` on it) and the text so far
    /// cannot pass its smallest `maxLength` even at one character per
    /// byte, the string's pieces go to the tree alone, and the check counts
    /// their characters from the tree's text when it next needs the count.
    /// Its violations, their offsets and its verdict are the same. Attach
    /// it before the first fragment (a check sees only the tokens fed after
    /// it is attached); it replaces a check attached before, and
    /// [`reset`](PartialParser::reset) drops it.
    ///
    /// ```
    /// use serde_json::json;
    /// use tooljson::{CompiledSchema, partial::PartialParser};
    ///
    /// let schema = CompiledSchema::compile(&json!({
    ///     "type": "object",
    ///     "properties": {"path": {"type": "string", "maxLength": 8}},
    ///     "additionalProperties": false
    /// }))?;
    /// let mut p = PartialParser::new();
    /// p.attach_check(schema.stream_check());
    /// p.feed(br#"{"path": "src/"#, &mut ())?;
    /// assert!(!p.check().unwrap().is_doomed());
    /// p.feed(br#"main.rs"}"#, &mut ())?;
    /// // Certain once the ninth character, `.`, has been read: 19 bytes in.
    /// assert_eq!(p.check().unwrap().first_violation_offset(), Some(19));
    /// p.finish(&mut ())?;
    /// assert!(p.take_check().unwrap().finish().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "schema")]
    pub fn attach_check(&mut self, check: StreamCheck) {
        self.check = Some(Box::new(AttachedCheck {
            check,
            lazy: false,
            pending: 0,
            last_offset: 0,
        }));
    }

    /// The attached check ([`PartialParser::attach_check`]): its violations
    /// so far are all those certain in the input fed so far.
    #[cfg(feature = "schema")]
    pub fn check(&self) -> Option<&StreamCheck> {
        self.check.as_ref().map(|a| &a.check)
    }

    /// Detaches the check, having shown it what it had not been shown of
    /// the open string; call [`StreamCheck::finish`] on it for the verdict
    /// once the parser has finished.
    #[cfg(feature = "schema")]
    pub fn take_check(&mut self) -> Option<StreamCheck> {
        let mut attached = self.check.take()?;
        attached.catch_up(&mut self.tree);
        Some(attached.check)
    }

    /// Feeds the next fragment; see [`Parser::feed`]. An attached check
    /// ([`attach_check`](PartialParser::attach_check)) is fed the same
    /// tokens on the same pass.
    pub fn feed<E: EventSink + ?Sized>(
        &mut self,
        chunk: &[u8],
        events: &mut E,
    ) -> Result<(), Error> {
        #[cfg(feature = "schema")]
        if let Some(attached) = &mut self.check {
            let mut sink = CheckedTreeSink {
                tree: &mut self.tree,
                events,
                attached,
            };
            return self.parser.feed(chunk, &mut sink);
        }
        let mut sink = TreeSink {
            tree: &mut self.tree,
            events,
        };
        self.parser.feed(chunk, &mut sink)
    }

    /// Feeds a `&str` fragment.
    pub fn feed_str<E: EventSink + ?Sized>(
        &mut self,
        chunk: &str,
        events: &mut E,
    ) -> Result<(), Error> {
        self.feed(chunk.as_bytes(), events)
    }

    /// Ends the input; see [`Parser::finish`].
    pub fn finish<E: EventSink + ?Sized>(&mut self, events: &mut E) -> Result<(), Error> {
        #[cfg(feature = "schema")]
        if let Some(attached) = &mut self.check {
            let mut sink = CheckedTreeSink {
                tree: &mut self.tree,
                events,
                attached,
            };
            return self.parser.finish(&mut sink);
        }
        let mut sink = TreeSink {
            tree: &mut self.tree,
            events,
        };
        self.parser.finish(&mut sink)
    }

    /// The current best-effort value (O(1)); `None` before the root value is
    /// visible, and always `None` in events-only mode.
    pub fn snapshot(&self) -> Option<&PartialNode> {
        self.tree.root.as_ref()
    }

    /// The finished value, once the root has closed.
    pub fn value(&self) -> Option<&Value> {
        self.tree.root.as_ref()?.as_complete()
    }

    /// Takes the finished value, once the root has closed.
    pub fn into_value(self) -> Option<Value> {
        match self.tree.root? {
            PartialNode::Complete(v) => Some(v),
            _ => None,
        }
    }

    /// Starts over for the next document (the next tool call), keeping the
    /// configuration and the buffers already allocated. An attached check
    /// belonged to the previous document and is dropped.
    pub fn reset(&mut self) {
        self.parser.reset();
        #[cfg(feature = "schema")]
        {
            self.check = None;
        }
        self.tree.root = None;
        self.tree.open = 0;
        self.tree.pending_key.clear();
        self.tree.held = None;
        self.tree.node_bytes = 0;
    }

    /// An upper estimate of the bytes the partial tree holds: the text
    /// read so far (a bound on its strings and keys, give or take their
    /// growth room) plus the room of each array item and object member in
    /// their lists, counted twice for the lists' growth. Counted as the
    /// tokens arrive, O(1) to read; 0 in events-only mode. A memory budget
    /// (such as the vendor adapters' per call and per response) compares
    /// against it.
    ///
    /// ```
    /// use tooljson::partial::PartialParser;
    /// let mut p = PartialParser::new();
    /// p.feed(br#"{"a": [1, 2]}"#, &mut ())?;
    /// let small = p.held_bytes();
    /// p.reset();
    /// p.feed(br#"{"a": [1, 2, 3, 4, 5, 6, 7, 8]}"#, &mut ())?;
    /// assert!(p.held_bytes() > small);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn held_bytes(&self) -> u64 {
        if !self.tree.keep_tree {
            return 0;
        }
        self.parser.offset().saturating_add(self.tree.node_bytes)
    }

    /// The underlying parser (offset, depth, error).
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// What a repeated key does (see [`set_duplicate_keys`](Self::set_duplicate_keys)).
    #[cfg(feature = "providers")]
    pub(crate) fn duplicate_keys(&self) -> DuplicateKeys {
        self.tree.duplicate_keys
    }

    /// Sets the duplicate-key policy of the parser and of the tree (see
    /// [`DuplicateKeys`]); meant to be called before the first fragment, as
    /// objects already open keep no record of their earlier keys.
    ///
    /// ```
    /// use tooljson::parser::DuplicateKeys;
    /// use tooljson::partial::PartialParser;
    /// let mut p = PartialParser::new();
    /// p.set_duplicate_keys(DuplicateKeys::Error);
    /// let err = p.feed(br#"{"a": 1, "a": 2}"#, &mut ()).unwrap_err();
    /// assert_eq!(err.to_string(), r#"duplicate key "a" at line 1 column 12 (at /a)"#);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn set_duplicate_keys(&mut self, policy: DuplicateKeys) {
        self.parser.set_duplicate_keys(policy);
        self.tree.duplicate_keys = policy;
    }
}
