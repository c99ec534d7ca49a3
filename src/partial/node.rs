//! [`PartialNode`], a node of the partial tree (finished, or still open),
//! its views and its snapshots as JSON.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::tree::{SPARE_KEY_ROOM, SPARE_KEYS, trim, trim_text};
use crate::parser::DuplicateKeys;
use crate::value::{Map, Value, write_json_string};

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
    /// hidden. This is the one typed preview; for complete members only,
    /// deserialize [`to_complete_members_json`](Self::to_complete_members_json).
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

    pub(super) fn complete_in_place(
        &mut self,
        duplicate_keys: DuplicateKeys,
        spare_keys: &mut Vec<String>,
    ) {
        let done = match std::mem::replace(self, PartialNode::Complete(Value::Null)) {
            PartialNode::Complete(v) => v,
            PartialNode::String(mut s) => {
                trim_text(&mut s);
                Value::String(s)
            }
            PartialNode::Array(items) => {
                // In place: a node and a value are the same size.
                let mut items: Vec<Value> =
                    items.into_iter().map(PartialNode::into_value).collect();
                trim(&mut items);
                Value::Array(items)
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
