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

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::error::Error;
use crate::parser::{DuplicateKeys, Limits, Location, Parser, Token, TokenSink};
use crate::path::{Path, PathRef};
#[cfg(feature = "schema")]
use crate::schema::StreamCheck;
use crate::value::{Map, Number, Value, write_json_string};

/// A node of the partial tree: finished, or still open.
///
/// Open containers hold their finished and growing children; an open
/// container is always the last child of its parent, since JSON arrives in
/// document order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartialNode {
    /// A finished value: a scalar, or a string or container that closed.
    Complete(Value),
    /// An open string: the decoded text so far.
    String(String),
    /// An open array: its visible items.
    Array(Vec<PartialNode>),
    /// An open object: its visible members, in document order.
    Object(Vec<(String, PartialNode)>),
}

impl PartialNode {
    /// Whether this node is finished.
    pub fn is_complete(&self) -> bool {
        matches!(self, PartialNode::Complete(_))
    }

    /// The finished value, if complete.
    pub fn as_complete(&self) -> Option<&Value> {
        match self {
            PartialNode::Complete(v) => Some(v),
            _ => None,
        }
    }

    /// The JSON type name (`string`, `object`, ...), the same before and
    /// after completion.
    pub fn type_name(&self) -> &'static str {
        match self {
            PartialNode::Complete(v) => v.type_name(),
            PartialNode::String(_) => "string",
            PartialNode::Array(_) => "array",
            PartialNode::Object(_) => "object",
        }
    }

    /// The text of a string, open or complete.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            PartialNode::String(s) => Some(s),
            PartialNode::Complete(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// The member `key` of an object, open or complete. A complete member is
    /// returned as a `Complete` node (cloned out of the value is avoided by
    /// returning a view).
    pub fn get(&self, key: &str) -> Option<NodeRef<'_>> {
        match self {
            PartialNode::Object(members) => members
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, n)| NodeRef::Partial(n)),
            PartialNode::Complete(Value::Object(m)) => m.get(key).map(NodeRef::Value),
            _ => None,
        }
    }

    /// The item at `index` of an array, open or complete.
    pub fn item(&self, index: usize) -> Option<NodeRef<'_>> {
        match self {
            PartialNode::Array(items) => items.get(index).map(NodeRef::Partial),
            PartialNode::Complete(Value::Array(a)) => a.get(index).map(NodeRef::Value),
            _ => None,
        }
    }

    /// Writes the snapshot as compact JSON: open strings as their text so
    /// far, open containers with their visible children, numbers as written.
    pub fn write_compact(&self, out: &mut String) {
        match self {
            PartialNode::Complete(v) => v.write_compact(out),
            PartialNode::String(s) => write_json_string(out, s),
            PartialNode::Array(items) => {
                out.push('[');
                for (i, n) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    n.write_compact(out);
                }
                out.push(']');
            }
            PartialNode::Object(members) => {
                out.push('{');
                for (i, (k, n)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(out, k);
                    out.push(':');
                    n.write_compact(out);
                }
                out.push('}');
            }
        }
    }

    /// The snapshot as a `serde_json::Value` with every *incomplete* member
    /// and item left out (strings, containers and all), numbers as serde_json
    /// reads them (out-of-range ones left out too). The root is kept even
    /// while open.
    #[cfg(feature = "serde_json")]
    pub fn to_complete_members_json(&self) -> serde_json::Value {
        fn complete(v: &Value) -> Option<serde_json::Value> {
            v.to_serde_json().ok()
        }
        match self {
            PartialNode::Complete(v) => complete(v).unwrap_or(serde_json::Value::Null),
            PartialNode::String(_) => serde_json::Value::Null,
            PartialNode::Array(items) => serde_json::Value::Array(
                items
                    .iter()
                    .filter_map(|n| n.as_complete().and_then(complete))
                    .collect(),
            ),
            PartialNode::Object(members) => {
                let mut m = serde_json::Map::new();
                for (k, n) in members {
                    if let Some(v) = n.as_complete().and_then(complete) {
                        m.insert(k.clone(), v);
                    }
                }
                serde_json::Value::Object(m)
            }
        }
    }

    /// Deserializes a typed preview: a struct of `Option` fields gets
    /// `Some` for each member that is complete and `None` for members that
    /// are absent or still arriving.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::partial::PartialParser;
    /// #[derive(serde::Deserialize)]
    /// struct Preview { path: Option<String>, mode: Option<u32>, content: Option<String> }
    ///
    /// let mut p = PartialParser::new();
    /// p.feed(br#"{"path": "a.txt", "mode": 420, "content": "fn ma"#, &mut ())?;
    /// let preview: Preview = p.snapshot().unwrap().deserialize_preview().unwrap();
    /// assert_eq!(preview.path.as_deref(), Some("a.txt"));
    /// assert_eq!(preview.mode, Some(420));
    /// assert_eq!(preview.content, None);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    #[cfg(feature = "serde_json")]
    pub fn deserialize_preview<T: serde::de::DeserializeOwned>(
        &self,
    ) -> Result<T, serde_json::Error> {
        serde_json::from_value(self.to_complete_members_json())
    }

    /// The snapshot as shown, as a `serde_json::Value`: complete values,
    /// growing strings with their text so far, open containers with their
    /// visible children (numbers beyond serde_json left out).
    #[cfg(feature = "serde_json")]
    pub fn to_visible_json(&self) -> serde_json::Value {
        match self {
            PartialNode::Complete(v) => v.to_serde_json().unwrap_or(serde_json::Value::Null),
            PartialNode::String(s) => serde_json::Value::String(s.clone()),
            PartialNode::Array(items) => {
                serde_json::Value::Array(items.iter().map(PartialNode::to_visible_json).collect())
            }
            PartialNode::Object(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|(k, n)| (k.clone(), n.to_visible_json()))
                    .collect(),
            ),
        }
    }

    /// Deserializes a typed preview that shows growing strings: a struct of
    /// `Option` fields gets `Some` for each member that is visible, a string
    /// that is still arriving with its text so far (which only grows, so
    /// what is shown is never taken back), and `None` for members not yet
    /// visible. Numbers and literals appear only once proven, as in the
    /// snapshot; strings held back by a schema (`enum` / `const`) stay
    /// hidden.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::partial::PartialParser;
    /// #[derive(serde::Deserialize)]
    /// struct Preview { path: Option<String>, mode: Option<u32>, content: Option<String> }
    ///
    /// let mut p = PartialParser::new();
    /// p.feed(br#"{"path": "a.txt", "mode": 42"#, &mut ())?;
    /// let preview: Preview = p.snapshot().unwrap().deserialize_growing_preview().unwrap();
    /// assert_eq!((preview.path.as_deref(), preview.mode), (Some("a.txt"), None));
    /// p.feed(br#"0, "content": "fn ma"#, &mut ())?;
    /// let preview: Preview = p.snapshot().unwrap().deserialize_growing_preview().unwrap();
    /// assert_eq!(preview.mode, Some(420));
    /// assert_eq!(preview.content.as_deref(), Some("fn ma"));
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    #[cfg(feature = "serde_json")]
    pub fn deserialize_growing_preview<T: serde::de::DeserializeOwned>(
        &self,
    ) -> Result<T, serde_json::Error> {
        serde_json::from_value(self.to_visible_json())
    }

    fn complete_in_place(&mut self, duplicate_keys: DuplicateKeys, spare_keys: &mut Vec<String>) {
        let done = match std::mem::replace(self, PartialNode::Complete(Value::Null)) {
            PartialNode::Complete(v) => v,
            PartialNode::String(s) => Value::String(s),
            PartialNode::Array(items) => {
                Value::Array(items.into_iter().map(PartialNode::into_value).collect())
            }
            PartialNode::Object(members) => {
                // The keys' buffers go back to the tree for the next
                // object's keys, so a member costs no allocation for its
                // key, and the map is built as `ValueBuilder` builds one.
                let mut kept = Vec::with_capacity(members.len());
                for (k, n) in members {
                    kept.push((crate::value::Key::from(k.as_str()), n.into_value()));
                    if spare_keys.len() < SPARE_KEYS && k.capacity() <= SPARE_KEY_ROOM {
                        spare_keys.push(k);
                    }
                }
                Value::Object(Map::from_members(
                    kept,
                    duplicate_keys == DuplicateKeys::FirstWins,
                ))
            }
        };
        *self = PartialNode::Complete(done);
    }

    fn into_value(self) -> Value {
        match self {
            PartialNode::Complete(v) => v,
            mut other => {
                other.complete_in_place(DuplicateKeys::LastWins, &mut Vec::new());
                other.into_value()
            }
        }
    }
}

impl fmt::Display for PartialNode {
    /// Compact JSON of the snapshot.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_compact(&mut s);
        f.write_str(&s)
    }
}

impl Serialize for PartialNode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PartialNode::Complete(v) => v.serialize(s),
            PartialNode::String(t) => s.serialize_str(t),
            PartialNode::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for n in items {
                    seq.serialize_element(n)?;
                }
                seq.end()
            }
            PartialNode::Object(members) => {
                let mut m = s.serialize_map(Some(members.len()))?;
                for (k, n) in members {
                    m.serialize_entry(k, n)?;
                }
                m.end()
            }
        }
    }
}

/// A view of a child in the partial tree: an open or finished node, or a
/// value inside a finished one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeRef<'a> {
    /// A node of the partial tree.
    Partial(&'a PartialNode),
    /// A value inside a finished node.
    Value(&'a Value),
}

impl<'a> NodeRef<'a> {
    /// Whether the node is finished.
    pub fn is_complete(&self) -> bool {
        match self {
            NodeRef::Partial(n) => n.is_complete(),
            NodeRef::Value(_) => true,
        }
    }

    /// The finished value, if complete.
    pub fn as_complete(&self) -> Option<&'a Value> {
        match self {
            NodeRef::Partial(n) => n.as_complete(),
            NodeRef::Value(v) => Some(v),
        }
    }

    /// The text of a string, open or complete.
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            NodeRef::Partial(n) => n.as_str(),
            NodeRef::Value(v) => v.as_str(),
        }
    }
}

/// What [`ValueEvent::Opened`] opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpenedKind {
    /// `{`
    Object,
    /// `[`
    Array,
    /// The opening quote of a string value.
    String,
}

impl OpenedKind {
    fn as_str(self) -> &'static str {
        match self {
            OpenedKind::Object => "object",
            OpenedKind::Array => "array",
            OpenedKind::String => "string",
        }
    }
}

/// What changed in the document, in document order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueEvent<'a> {
    /// A container or string opened at `path`.
    Opened {
        /// Where.
        path: PathRef<'a>,
        /// What opened.
        kind: OpenedKind,
    },
    /// Decoded text was appended to the string at `path`.
    Appended {
        /// Where.
        path: PathRef<'a>,
        /// The new text (never half a character or escape).
        text: &'a str,
    },
    /// The value at `path` is complete and will not change.
    Completed {
        /// Where.
        path: PathRef<'a>,
        /// The value. Always `Some` with the tree; in events-only mode
        /// `Some` for numbers, booleans and null, `None` for strings and
        /// containers (their text came in `Appended` events).
        value: Option<&'a Value>,
    },
}

impl ValueEvent<'_> {
    /// The path the event is about.
    pub fn path(&self) -> PathRef<'_> {
        match self {
            ValueEvent::Opened { path, .. }
            | ValueEvent::Appended { path, .. }
            | ValueEvent::Completed { path, .. } => *path,
        }
    }

    /// An owned copy.
    pub fn to_owned_event(&self) -> OwnedValueEvent {
        match *self {
            ValueEvent::Opened { path, kind } => OwnedValueEvent::Opened {
                path: path.to_path(),
                kind,
            },
            ValueEvent::Appended { path, text } => OwnedValueEvent::Appended {
                path: path.to_path(),
                text: text.to_owned(),
            },
            ValueEvent::Completed { path, value } => OwnedValueEvent::Completed {
                path: path.to_path(),
                value: value.cloned(),
            },
        }
    }

    /// Writes the event as one line of JSON (no newline):
    /// `{"event":"opened","path":"/a","kind":"array"}`,
    /// `{"event":"appended","path":"/content","text":"..."}`,
    /// `{"event":"completed","path":"/a/0","value":...}` (`value` left out
    /// when the event has none).
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"event\":\"");
        let (name, path) = match self {
            ValueEvent::Opened { path, .. } => ("opened", path),
            ValueEvent::Appended { path, .. } => ("appended", path),
            ValueEvent::Completed { path, .. } => ("completed", path),
        };
        out.push_str(name);
        out.push_str("\",\"path\":");
        write_json_string(out, &path.to_string());
        match self {
            ValueEvent::Opened { kind, .. } => {
                out.push_str(",\"kind\":\"");
                out.push_str(kind.as_str());
                out.push('"');
            }
            ValueEvent::Appended { text, .. } => {
                out.push_str(",\"text\":");
                write_json_string(out, text);
            }
            ValueEvent::Completed { value, .. } => {
                if let Some(v) = value {
                    out.push_str(",\"value\":");
                    v.write_compact(out);
                }
            }
        }
        out.push('}');
    }
}

/// An owned [`ValueEvent`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum OwnedValueEvent {
    Opened { path: Path, kind: OpenedKind },
    Appended { path: Path, text: String },
    Completed { path: Path, value: Option<Value> },
}

/// Receives [`ValueEvent`]s. Implemented for closures `FnMut(ValueEvent)`,
/// for `Vec<OwnedValueEvent>` and for `()` (discards them).
pub trait EventSink {
    /// Called once per event, in document order.
    fn event(&mut self, event: ValueEvent<'_>);
}

impl<F: FnMut(ValueEvent<'_>)> EventSink for F {
    fn event(&mut self, event: ValueEvent<'_>) {
        self(event)
    }
}

impl EventSink for Vec<OwnedValueEvent> {
    fn event(&mut self, event: ValueEvent<'_>) {
        self.push(event.to_owned_event());
    }
}

impl EventSink for () {
    fn event(&mut self, _event: ValueEvent<'_>) {}
}

type HoldPredicate = Box<dyn Fn(PathRef<'_>) -> bool + Send + Sync>;

/// The tree side of a [`PartialParser`]: a [`TokenSink`] that keeps the
/// partial value and reports events.
struct PartialTree {
    keep_tree: bool,
    duplicate_keys: DuplicateKeys,
    root: Option<PartialNode>,
    /// Open containers in the tree (the open chain is the root, its last child, and so on).
    open: usize,
    pending_key: String,
    /// Key buffers of objects that closed, for the keys to come (at most
    /// [`SPARE_KEYS`], each of at most [`SPARE_KEY_ROOM`] bytes).
    spare_keys: Vec<String>,
    hold: Option<HoldPredicate>,
    /// Text of a string being held back, and whether one is.
    held: Option<String>,
    /// Room taken by the items and members inserted since the last reset:
    /// with the text read, what [`PartialParser::held_bytes`] estimates
    /// from.
    node_bytes: u64,
}

/// Descends from `root` through `depth` open containers to the innermost one.
fn innermost(root: &mut Option<PartialNode>, depth: usize) -> Option<&mut PartialNode> {
    let mut node = root.as_mut()?;
    for _ in 0..depth {
        node = match node {
            PartialNode::Array(items) => items.last_mut()?,
            PartialNode::Object(members) => &mut members.last_mut()?.1,
            _ => return None,
        };
    }
    Some(node)
}

fn last_child(node: &mut PartialNode) -> Option<&mut PartialNode> {
    match node {
        PartialNode::Array(items) => items.last_mut(),
        PartialNode::Object(members) => members.last_mut().map(|(_, n)| n),
        _ => None,
    }
}

impl PartialTree {
    /// Inserts a new node as the next child of the innermost open container
    /// (or as the root) and returns it.
    fn insert(&mut self, node: PartialNode) -> Option<&mut PartialNode> {
        if self.open == 0 {
            self.root = Some(node);
            return self.root.as_mut();
        }
        let spare = self.spare_keys.pop().unwrap_or_default();
        let key = std::mem::replace(&mut self.pending_key, spare);
        let parent = innermost(&mut self.root, self.open - 1)?;
        match parent {
            PartialNode::Array(items) => {
                self.node_bytes += ITEM_BYTES;
                items.push(node);
                items.last_mut()
            }
            PartialNode::Object(members) => {
                self.node_bytes += MEMBER_BYTES;
                members.push((key, node));
                members.last_mut().map(|(_, n)| n)
            }
            _ => None,
        }
    }

    /// The node the parser is inside now at the leaf (a string being
    /// appended to, or the container being closed).
    fn current_leaf(&mut self) -> Option<&mut PartialNode> {
        if self.open == 0 {
            return self.root.as_mut();
        }
        let parent = innermost(&mut self.root, self.open - 1)?;
        last_child(parent)
    }

    /// The text so far of the open string value: held back, or in the
    /// tree; `None` in events-only mode (no tree).
    #[cfg(feature = "schema")]
    fn open_string_text(&mut self) -> Option<&str> {
        if self.held.is_some() {
            return self.held.as_deref();
        }
        match self.current_leaf() {
            Some(PartialNode::String(s)) => Some(s),
            _ => None,
        }
    }

    fn handle<E: EventSink + ?Sized>(
        &mut self,
        token: Token<'_>,
        at: &Location<'_>,
        events: &mut E,
    ) {
        let path = at.path;
        if !self.keep_tree {
            match token {
                Token::ObjectBegin => events.event(ValueEvent::Opened {
                    path,
                    kind: OpenedKind::Object,
                }),
                Token::ArrayBegin => events.event(ValueEvent::Opened {
                    path,
                    kind: OpenedKind::Array,
                }),
                Token::StringBegin => events.event(ValueEvent::Opened {
                    path,
                    kind: OpenedKind::String,
                }),
                Token::StringPart(text) => events.event(ValueEvent::Appended { path, text }),
                Token::StringEnd | Token::ObjectEnd | Token::ArrayEnd => {
                    events.event(ValueEvent::Completed { path, value: None })
                }
                Token::Number(n) => {
                    let v = Value::Number(Number::from_valid_lexeme(n));
                    events.event(ValueEvent::Completed {
                        path,
                        value: Some(&v),
                    })
                }
                Token::Bool(b) => events.event(ValueEvent::Completed {
                    path,
                    value: Some(&Value::Bool(b)),
                }),
                Token::Null => events.event(ValueEvent::Completed {
                    path,
                    value: Some(&Value::Null),
                }),
                Token::Key(_) => {}
            }
            return;
        }
        match token {
            Token::Key(k) => {
                self.pending_key.clear();
                self.pending_key.push_str(k);
            }
            Token::ObjectBegin | Token::ArrayBegin => {
                let (node, kind) = if token == Token::ObjectBegin {
                    (PartialNode::Object(Vec::new()), OpenedKind::Object)
                } else {
                    (PartialNode::Array(Vec::new()), OpenedKind::Array)
                };
                self.insert(node);
                self.open += 1;
                events.event(ValueEvent::Opened { path, kind });
            }
            Token::StringBegin => {
                if self.hold.as_ref().is_some_and(|h| h(path)) {
                    self.held = Some(String::new());
                } else {
                    // Room for a short value's text at once, so a string
                    // of a few dozen bytes streamed in deltas is not
                    // reallocated two or three times as it grows.
                    let text = String::with_capacity(FIRST_STRING_ROOM);
                    self.insert(PartialNode::String(text));
                    events.event(ValueEvent::Opened {
                        path,
                        kind: OpenedKind::String,
                    });
                }
            }
            Token::StringPart(text) => {
                if let Some(held) = &mut self.held {
                    held.push_str(text);
                    return;
                }
                if let Some(PartialNode::String(s)) = self.current_leaf() {
                    s.push_str(text);
                }
                events.event(ValueEvent::Appended { path, text });
            }
            Token::StringEnd => {
                let dup = self.duplicate_keys;
                let node = match self.held.take() {
                    Some(text) => self.insert(PartialNode::Complete(Value::String(text))),
                    None => self.current_leaf(),
                };
                if let Some(node) = node {
                    // A string: no keys to give back.
                    node.complete_in_place(dup, &mut Vec::new());
                    events.event(ValueEvent::Completed {
                        path,
                        value: node.as_complete(),
                    });
                }
            }
            Token::Number(_) | Token::Bool(_) | Token::Null => {
                let v = match token {
                    Token::Number(n) => Value::Number(Number::from_valid_lexeme(n)),
                    Token::Bool(b) => Value::Bool(b),
                    _ => Value::Null,
                };
                if let Some(node) = self.insert(PartialNode::Complete(v)) {
                    events.event(ValueEvent::Completed {
                        path,
                        value: node.as_complete(),
                    });
                }
            }
            Token::ObjectEnd | Token::ArrayEnd => self.close(path, events),
        }
    }

    /// A container closed: completes it, giving its keys' buffers back.
    /// Out of line, so that `handle` keeps the small frame its string
    /// pieces' path needs.
    #[inline(never)]
    fn close<E: EventSink + ?Sized>(&mut self, path: PathRef<'_>, events: &mut E) {
        self.open -= 1;
        let dup = self.duplicate_keys;
        let mut spare = std::mem::take(&mut self.spare_keys);
        if let Some(node) = self.current_leaf() {
            node.complete_in_place(dup, &mut spare);
            events.event(ValueEvent::Completed {
                path,
                value: node.as_complete(),
            });
        }
        self.spare_keys = spare;
    }
}

/// Key buffers the partial tree keeps for reuse, and the largest it keeps.
const SPARE_KEYS: usize = 32;
const SPARE_KEY_ROOM: usize = 64;

/// What [`PartialParser::held_bytes`] counts for an array item and an
/// object member besides their text: their room in the parent's list,
/// twice over for the list's growth.
const ITEM_BYTES: u64 = 2 * std::mem::size_of::<PartialNode>() as u64;
const MEMBER_BYTES: u64 = 2 * std::mem::size_of::<(String, PartialNode)>() as u64;

/// The room a string value of the partial tree gets when it opens.
const FIRST_STRING_ROOM: usize = 32;

struct TreeSink<'t, 'e, E: ?Sized> {
    tree: &'t mut PartialTree,
    events: &'e mut E,
}

impl<E: EventSink + ?Sized> TokenSink for TreeSink<'_, '_, E> {
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        self.tree.handle(token, at, self.events);
    }
}

/// A schema's stream check fed beside the tree ([`PartialParser::attach_check`]),
/// and how much of the open string it has not been shown.
#[cfg(feature = "schema")]
#[derive(Debug)]
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
