//! The tree side of a [`PartialParser`](super::PartialParser): the token
//! sink that keeps the partial value, reports events, and sizes the tree's
//! lists and strings.

use super::{EventSink, OpenedKind, PartialNode, ValueEvent};
use crate::parser::{DuplicateKeys, Location, Token, TokenSink};
use crate::path::PathRef;
use crate::value::{Number, Value};

pub(super) type HoldPredicate = Box<dyn Fn(PathRef<'_>) -> bool + Send + Sync>;

/// The tree side of a [`PartialParser`]: a [`TokenSink`] that keeps the
/// partial value and reports events.
pub(super) struct PartialTree {
    pub(super) keep_tree: bool,
    pub(super) duplicate_keys: DuplicateKeys,
    pub(super) root: Option<PartialNode>,
    /// Open containers in the tree (the open chain is the root, its last child, and so on).
    pub(super) open: usize,
    pub(super) pending_key: String,
    /// Key buffers of objects that closed, for the keys to come (at most
    /// [`SPARE_KEYS`], each of at most [`SPARE_KEY_ROOM`] bytes).
    pub(super) spare_keys: Vec<String>,
    pub(super) hold: Option<HoldPredicate>,
    /// Text of a string being held back, and whether one is.
    pub(super) held: Option<String>,
    /// Room taken by the items and members inserted since the last reset:
    /// with the text read, what [`PartialParser::held_bytes`] estimates
    /// from.
    pub(super) node_bytes: u64,
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
                make_room(items, 1);
                items.push(node);
                items.last_mut()
            }
            PartialNode::Object(members) => {
                self.node_bytes += MEMBER_BYTES;
                make_room(members, 1);
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
    pub(super) fn open_string_text(&mut self) -> Option<&str> {
        if self.held.is_some() {
            return self.held.as_deref();
        }
        match self.current_leaf() {
            Some(PartialNode::String(s)) => Some(s),
            _ => None,
        }
    }

    pub(super) fn handle<E: EventSink + ?Sized>(
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
                    push_text(s, text);
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
pub(super) const SPARE_KEYS: usize = 32;
pub(super) const SPARE_KEY_ROOM: usize = 64;

/// What [`PartialParser::held_bytes`] counts for an array item and an
/// object member besides their text: their room in the parent's list,
/// twice over for the list's growth.
const ITEM_BYTES: u64 = 2 * std::mem::size_of::<PartialNode>() as u64;
const MEMBER_BYTES: u64 = 2 * std::mem::size_of::<(String, PartialNode)>() as u64;

/// The room a string value of the partial tree gets when it opens. (Sized
/// by its first piece instead, short strings would hold less, but one cut
/// by a delta would then be moved once more, which costs more at 16-byte
/// deltas than the bytes are worth.)
const FIRST_STRING_ROOM: usize = 32;

/// Lists and strings of the tree past this many bytes grow by half rather
/// than double: moving one then holds 2.5 times its length for a moment
/// rather than 3, and the room it leaves unused is a third at most.
const GROW_BY_HALF_FROM: usize = 64 << 10;

/// Room for `more` items in `v`, by half its length once it is large.
#[inline(always)]
fn make_room<T>(v: &mut Vec<T>, more: usize) {
    if v.capacity() - v.len() < more {
        grow(v, more);
    }
}

#[inline(never)]
fn grow<T>(v: &mut Vec<T>, more: usize) {
    if v.len() * std::mem::size_of::<T>() >= GROW_BY_HALF_FROM {
        v.reserve_exact(more.max(v.len() / 2));
    } else {
        v.reserve(more);
    }
}

/// Appends to a string of the tree, grown as [`make_room`] grows lists.
#[inline(always)]
fn push_text(s: &mut String, text: &str) {
    if s.capacity() - s.len() < text.len() {
        grow_text(s, text.len());
    }
    s.push_str(text);
}

#[inline(never)]
fn grow_text(s: &mut String, more: usize) {
    if s.len() >= GROW_BY_HALF_FROM {
        s.reserve_exact(more.max(s.len() / 2));
    } else {
        s.reserve(more);
    }
}

/// Room unused by a finished list or string that is given back: more than
/// an eighth of it, and at least this many bytes (below that a `realloc`
/// per small value costs more than the bytes are worth).
const TRIM_FROM: usize = 4 << 10;

/// Gives back the room a finished list does not use, when it is worth it.
#[inline]
pub(super) fn trim<T>(v: &mut Vec<T>) {
    let spare = (v.capacity() - v.len()) * std::mem::size_of::<T>();
    if spare >= TRIM_FROM && spare > v.capacity() * std::mem::size_of::<T>() / 8 {
        v.shrink_to_fit();
    }
}

/// [`trim`] for a finished string.
#[inline]
pub(super) fn trim_text(s: &mut String) {
    let spare = s.capacity() - s.len();
    if spare >= TRIM_FROM && spare > s.capacity() / 8 {
        s.shrink_to_fit();
    }
}

pub(super) struct TreeSink<'t, 'e, E: ?Sized> {
    pub(super) tree: &'t mut PartialTree,
    pub(super) events: &'e mut E,
}

impl<E: EventSink + ?Sized> TokenSink for TreeSink<'_, '_, E> {
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        self.tree.handle(token, at, self.events);
    }
}
