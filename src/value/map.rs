//! [`Map`]: a JSON object's members in the order they were written, with a
//! hash index once it is large, and a drop that does not recurse without
//! bound.

use std::collections::HashMap;

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::Value;

/// A map's members as stored.
#[cfg(feature = "schema")]
pub(crate) type MapIter<'a> = std::slice::Iter<'a, (Key, Value)>;

/// A JSON object: members in the order they were written.
///
/// Small maps are searched linearly and large ones (over 24 members) keep a
/// hash index, so lookup stays fast for hostile inputs too. Whether a repeated key keeps the first or the last
/// value, or is an error, is the parser's [`crate::parser::DuplicateKeys`]
/// policy; `insert` on its own replaces the value in place.
///
/// # Examples
///
/// ```
/// use tooljson::{Map, Value};
/// let mut m = Map::new();
/// m.insert("b".into(), Value::from(1));
/// m.insert("a".into(), Value::from(2));
/// assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(m.get("a"), Some(&Value::from(2)));
/// ```
#[derive(Clone, Default)]
pub struct Map {
    /// Keys of up to 24 bytes (nearly every key in tool arguments) are held
    /// inline, so building an object allocates once for its members rather
    /// than once per key.
    entries: Vec<(Key, Value)>,
    /// Key to position, built once a map grows past [`INDEX_AT`] members;
    /// small maps (the common case in tool arguments) are searched linearly.
    /// Boxed, so that a `Map` (and a [`Value`]) stays small: the extra
    /// allocation is only made for large maps.
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<Key, usize>>>,
}

/// The members in order, as `{"key": value, …}`: the index is an internal
/// detail (and a `HashMap`'s order differs from one map to the next).
impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// An object key: inline up to 24 bytes, on the heap beyond.
pub(crate) type Key = compact_str::CompactString;

/// The members of a [`Map`], by value, in order; from [`Map::into_iter`].
/// Each key comes out as a `String` (a key of up to 24 bytes, held inline,
/// is copied into one); iterate with [`Map::iter`] to borrow instead.
#[derive(Debug)]
pub struct IntoIter {
    entries: std::vec::IntoIter<(Key, Value)>,
}

impl Iterator for IntoIter {
    type Item = (String, Value);
    #[inline]
    fn next(&mut self) -> Option<(String, Value)> {
        self.entries.next().map(|(k, v)| (k.into_string(), v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<(String, Value)> {
        self.entries.next_back().map(|(k, v)| (k.into_string(), v))
    }
}

impl ExactSizeIterator for IntoIter {}

/// Members above which a [`Map`] keeps a hash index.
const INDEX_AT: usize = 24;

impl Map {
    /// An empty map.
    pub fn new() -> Self {
        Map::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    /// A map of `members` in their order; of a repeated key the first or
    /// the last value is kept (at the first one's position). Checks for
    /// repeats once, over the whole list, which is the cheap path when
    /// there are none.
    pub(crate) fn from_members(members: Vec<(Key, Value)>, first_wins: bool) -> Map {
        if members.len() <= INDEX_AT {
            let repeated = members
                .iter()
                .enumerate()
                .any(|(j, (key, _))| members.iter().take(j).any(|(k, _)| k == key));
            if !repeated {
                return Map {
                    entries: members,
                    index: None,
                };
            }
        } else {
            let mut ix = HashMap::with_capacity(members.len());
            let mut repeated = false;
            for (i, (k, _)) in members.iter().enumerate() {
                if ix.insert(k.clone(), i).is_some() {
                    repeated = true;
                    break;
                }
            }
            if !repeated {
                return Map {
                    entries: members,
                    index: Some(Box::new(ix)),
                };
            }
        }
        let mut m = Map::with_capacity(members.len());
        for (k, v) in members {
            if !(first_wins && m.contains_key(&k)) {
                m.insert_key(k, v);
            }
        }
        m
    }

    pub(super) fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(ix) => ix.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of the member `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// The value of the member `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.position(key)?;
        Some(&mut self.entries[i].1)
    }

    /// Whether a member `key` exists.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Inserts a member; an existing key keeps its position and gets the new
    /// value, and the old one is returned.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        self.insert_key(Key::from(key), value)
    }

    pub(super) fn insert_key(&mut self, key: Key, value: Value) -> Option<Value> {
        if let Some(i) = self.position(&key) {
            return Some(std::mem::replace(&mut self.entries[i].1, value));
        }
        if let Some(ix) = &mut self.index {
            ix.insert(key.clone(), self.entries.len());
        }
        self.entries.push((key, value));
        if self.index.is_none() && self.entries.len() > INDEX_AT {
            self.rebuild_index();
        }
        None
    }

    /// Builds a map from members whose keys are known to be distinct (a
    /// serde_json map's): no duplicate search per member.
    #[cfg(feature = "serde_json")]
    pub(super) fn from_distinct(entries: Vec<(Key, Value)>) -> Self {
        let mut m = Map {
            entries,
            index: None,
        };
        if m.entries.len() > INDEX_AT {
            m.rebuild_index();
        }
        m
    }

    fn rebuild_index(&mut self) {
        let mut ix = HashMap::with_capacity(self.entries.len());
        for (i, (k, _)) in self.entries.iter().enumerate() {
            ix.entry(k.clone()).or_insert(i);
        }
        self.index = Some(Box::new(ix));
    }

    /// The value at position `i`, mutably (`i` in range).
    pub(super) fn value_at_mut(&mut self, i: usize) -> &mut Value {
        &mut self.entries[i].1
    }

    /// Keeps the members `keep` says yes to, in order, and reindexes.
    pub(super) fn retain_members(&mut self, mut keep: impl FnMut(&str, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.index.is_some() {
            self.rebuild_index();
        }
    }

    /// Removes a member, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.position(key)?;
        let (_, v) = self.entries.remove(i);
        if self.index.is_some() {
            self.rebuild_index();
        }
        Some(v)
    }

    /// The member at position `index`, in document order.
    pub fn get_index(&self, index: usize) -> Option<(&str, &Value)> {
        self.entries.get(index).map(|(k, v)| (k.as_str(), v))
    }

    /// The last member, mutably.
    pub fn last_mut(&mut self) -> Option<(&str, &mut Value)> {
        self.entries.last_mut().map(|(k, v)| (k.as_str(), v))
    }

    /// Members in document order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&str, &Value)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The members as stored (for the schema compiler's document view).
    #[cfg(feature = "schema")]
    pub(crate) fn iter_slice(&self) -> MapIter<'_> {
        self.entries.iter()
    }

    /// Members in document order, values mutable.
    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&str, &mut Value)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (k.as_str(), &mut *v))
    }

    /// Keys in document order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// Values in document order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

thread_local! {
    /// Maps being dropped on this thread, one inside the other.
    static DROP_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Nesting of maps past which a drop stops recursing.
const DROP_RECURSION: u32 = 256;

/// A map nested a few levels deep is dropped by the usual drop glue; past
/// `DROP_RECURSION` levels the rest is torn down without recursion, so a
/// value nested thousands of levels deep (which the parser builds only when
/// its depth limit is lifted) does not overflow the stack when dropped.
impl Drop for Map {
    fn drop(&mut self) {
        if self.entries.is_empty() {
            return;
        }
        // (The counter has no destructor, so it is there even while the
        // thread's other locals are dropped; if not, drop without recursion.)
        let depth = DROP_DEPTH.try_with(|d| d.get()).unwrap_or(DROP_RECURSION);
        if depth < DROP_RECURSION {
            let _ = DROP_DEPTH.try_with(|d| d.set(depth + 1));
            drop(std::mem::take(&mut self.entries));
            let _ = DROP_DEPTH.try_with(|d| d.set(depth));
            return;
        }
        let mut pending: Vec<Value> = self
            .entries
            .drain(..)
            .map(|(_, v)| v)
            .filter(has_members)
            .collect();
        while let Some(v) = pending.pop() {
            match v {
                Value::Array(mut items) => pending.extend(items.drain(..).filter(has_members)),
                Value::Object(mut m) => {
                    pending.extend(m.entries.drain(..).map(|(_, v)| v).filter(has_members))
                }
                _ => {}
            }
        }
    }
}

/// Whether `v` is a container with something in it.
#[inline]
fn has_members(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.entries.is_empty(),
        _ => false,
    }
}

impl PartialEq for Map {
    /// Equal when both have the same members, in any order (as JSON objects
    /// are compared).
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Eq for Map {}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = IntoIter;
    fn into_iter(mut self) -> Self::IntoIter {
        IntoIter {
            entries: std::mem::take(&mut self.entries).into_iter(),
        }
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        let mut m = Map::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}
