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
//! [`PartialParser::attach_check`](crate::PartialParser::attach_check), the
//! one way to do so (beside a [`Value`] being built, it is
//! [`StreamCheck::beside`](crate::StreamCheck::beside)). The tree feeds it
//! as a `Watcher`, a trait defined here and implemented by the schema, so
//! that imports run down the layers only and the tree knows nothing of
//! schemas; the trait also lets the tree keep from a watcher the pieces of a
//! string whose length is all it needs.
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
pub(crate) mod watch;

use std::fmt;

use crate::error::Error;
use crate::parser::{DuplicateKeys, Limits, Parser};
use crate::path::PathRef;
use crate::value::Value;

pub use event::{EventSink, OpenedKind, OwnedValueEvent, ValueEvent};
pub use node::{NodeRef, PartialNode};
use tree::{PartialTree, TreeSink};
use watch::{AttachedWatcher, WatchedTreeSink};

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
    /// Boxed: a parser without a watcher (the usual case) stays small.
    watcher: Option<Box<AttachedWatcher>>,
}

impl fmt::Debug for PartialParser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("PartialParser");
        d.field("parser", &self.parser)
            .field("snapshot", &self.tree.root);
        d.field("watcher", &self.watcher());
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
            watcher: None,
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

    /// Feeds the next fragment; see [`Parser::feed`]. An attached check
    /// ([`attach_check`](crate::PartialParser::attach_check)) is fed the
    /// same tokens on the same pass.
    pub fn feed<E: EventSink + ?Sized>(
        &mut self,
        chunk: &[u8],
        events: &mut E,
    ) -> Result<(), Error> {
        if let Some(attached) = &mut self.watcher {
            let mut sink = WatchedTreeSink {
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
        if let Some(attached) = &mut self.watcher {
            let mut sink = WatchedTreeSink {
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
        self.watcher = None;
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
