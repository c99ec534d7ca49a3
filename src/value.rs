//! `Value`, the finished JSON value, with a lexeme-preserving [`Number`] and an
//! insertion-ordered [`Map`]; serde support and conversion to and from
//! `serde_json::Value`.

use std::collections::HashMap;
use std::fmt;
use std::ops::Index;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON number, kept as the exact text it was written as.
///
/// `1.50` stays `1.50`, `1e400` stays `1e400` (it is not an error), and a
/// 40-digit integer keeps all its digits; the accessors convert on demand.
/// Lexemes of up to 24 bytes are stored inline (a `Number` is 24 bytes).
///
/// # Examples
///
/// ```
/// use tooljson::Number;
/// let n = Number::from_lexeme("-12.50e1").unwrap();
/// assert_eq!(n.as_str(), "-12.50e1");
/// assert_eq!(n.as_f64(), Some(-125.0));
/// assert_eq!(n.as_i64(), None);
/// assert_eq!(Number::from(7u64).as_u64(), Some(7));
/// assert!(Number::from_lexeme("01").is_none());
/// ```
#[derive(Clone)]
pub struct Number {
    /// The lexeme: inline up to 24 bytes, so a [`Value`] stays at 32 bytes.
    lexeme: compact_str::CompactString,
}

impl Number {
    /// Wraps a lexeme that the parser has already checked against the grammar.
    #[inline]
    pub(crate) fn from_valid_lexeme(lexeme: &str) -> Number {
        Number {
            lexeme: compact_str::CompactString::new(lexeme),
        }
    }

    #[inline]
    fn bytes(&self) -> &[u8] {
        self.lexeme.as_bytes()
    }

    /// Builds a number from its text, if the text is a JSON number (RFC 8259
    /// grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    pub fn from_lexeme(lexeme: &str) -> Option<Number> {
        if is_number_lexeme(lexeme.as_bytes()) {
            Some(Number::from_valid_lexeme(lexeme))
        } else {
            None
        }
    }

    /// Builds a number from a finite `f64`, written as serde_json writes it
    /// (`1.0`, `0.1`, `1e300`). Returns `None` for NaN and infinities.
    pub fn from_f64(f: f64) -> Option<Number> {
        // serde_json's own float writer, so no serde_json is needed here.
        if !f.is_finite() {
            return None;
        }
        Some(Number::from_valid_lexeme(
            zmij::Buffer::new().format_finite(f),
        ))
    }

    /// The number's text exactly as written.
    pub fn as_str(&self) -> &str {
        self.lexeme.as_str()
    }

    /// Whether the lexeme has no fraction and no exponent.
    pub fn is_integer(&self) -> bool {
        !self.bytes().iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
    }

    /// The value as `i64`, if the lexeme is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        if self.is_integer() {
            self.as_str().parse().ok()
        } else {
            None
        }
    }

    /// The value as `u64`, if the lexeme is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        if self.is_integer() {
            self.as_str().parse().ok()
        } else {
            None
        }
    }

    /// The value as the nearest `f64`; `None` when it overflows to infinity
    /// (as `1e400` does), where serde_json would say "number out of range".
    pub fn as_f64(&self) -> Option<f64> {
        let f: f64 = self.as_str().parse().ok()?;
        f.is_finite().then_some(f)
    }

    /// Converts to a `serde_json::Number`, exactly as serde_json parses the
    /// same text; `None` where serde_json refuses it (out of range).
    #[cfg(feature = "serde_json")]
    pub fn to_serde_json(&self) -> Option<serde_json::Number> {
        self.as_str().parse().ok()
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for Number {}

impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bytes().hash(state);
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({})", self.as_str())
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! number_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Self {
                Number {
                    lexeme: compact_str::ToCompactString::to_compact_string(&n),
                }
            }
        }
    )*};
}
number_from_int!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

/// Checks a complete lexeme against the RFC 8259 number grammar.
pub(crate) fn is_number_lexeme(b: &[u8]) -> bool {
    let mut i = 0;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return false;
        }
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return false;
        }
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
    }
    i == b.len()
}

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
#[derive(Clone, Debug, Default)]
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

    fn position(&self, key: &str) -> Option<usize> {
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

    fn insert_key(&mut self, key: Key, value: Value) -> Option<Value> {
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
    fn from_distinct(entries: Vec<(Key, Value)>) -> Self {
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

/// A finished JSON value.
///
/// Objects keep their members in input order and numbers keep their lexeme, so
/// `to_string()` writes compact JSON that differs from the input only in
/// whitespace and string escapes (written as serde_json writes them).
/// Equality is structural with numbers compared by lexeme (`1.0 != 1`).
///
/// # Examples
///
/// ```
/// use tooljson::Value;
/// let v = tooljson::from_str(r#"{"z": 1.10, "a": "\u00e9\n"}"#)?;
/// assert_eq!(v.to_string(), "{\"z\":1.10,\"a\":\"é\\n\"}");
/// let j: serde_json::Value = v.to_serde_json().unwrap();
/// assert_eq!(Value::from(j)["a"], v["a"]);
/// # Ok::<(), tooljson::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(Number),
    /// A string, decoded.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
}

static NULL: Value = Value::Null;

impl Value {
    /// The name of this value's JSON type: `null`, `boolean`, `number`,
    /// `string`, `array` or `object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as `i64`, if this is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as `u64`, if this is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as a finite `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member `key` of an object; `None` for other types.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    /// Follows a JSON Pointer (RFC 6901) from this value.
    ///
    /// ```
    /// let v = tooljson::from_str(r#"{"a":[{"b":true}]}"#)?;
    /// assert_eq!(v.pointer("/a/0/b").and_then(|b| b.as_bool()), Some(true));
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let path = crate::Path::parse_pointer(pointer)?;
        let mut cur = self;
        for seg in path.segments() {
            cur = match (cur, seg) {
                (Value::Object(m), crate::Segment::Key(k)) => m.get(k)?,
                (Value::Object(m), crate::Segment::Index(i)) => m.get(&i.to_string())?,
                (Value::Array(a), crate::Segment::Index(i)) => a.get(*i)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Converts to a `serde_json::Value`, numbers exactly as serde_json parses
    /// their text. Fails on a number serde_json would refuse (`1e400`: out of
    /// range), naming its lexeme.
    #[cfg(feature = "serde_json")]
    pub fn to_serde_json(&self) -> Result<serde_json::Value, String> {
        Ok(match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(
                n.to_serde_json()
                    .ok_or_else(|| format!("number out of range: {}", n.as_str()))?,
            ),
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Array(a) => serde_json::Value::Array(
                a.iter()
                    .map(Value::to_serde_json)
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(m) => {
                let mut out = serde_json::Map::new();
                for (k, v) in m.iter() {
                    out.insert(k.to_owned(), v.to_serde_json()?);
                }
                serde_json::Value::Object(out)
            }
        })
    }

    /// Deserializes this value into any `T: Deserialize`.
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Args { path: String, lines: Vec<u32> }
    /// let v = tooljson::from_str(r#"{"path":"a.txt","lines":[1,2]}"#)?;
    /// let args: Args = v.deserialize_into().unwrap();
    /// assert_eq!((args.path.as_str(), args.lines), ("a.txt", vec![1, 2]));
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    #[cfg(feature = "serde_json")]
    pub fn deserialize_into<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        // serde_json::Value is the ecosystem's deserializer of a value tree;
        // its error type carries the field path people expect.
        let j = self.to_serde_json().map_err(de::Error::custom)?;
        serde_json::from_value(j)
    }

    /// Writes compact JSON into `out`.
    pub fn write_compact(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(n) => out.push_str(n.as_str()),
            Value::String(s) => write_json_string(out, s),
            Value::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_compact(out);
                }
                out.push(']');
            }
            Value::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(out, k);
                    out.push(':');
                    v.write_compact(out);
                }
                out.push('}');
            }
        }
    }
}

/// Writes `s` as a JSON string literal, escaping as serde_json does: `"`, `\`
/// and control characters (`\b \f \n \r \t`, others as `\u00xx`).
pub fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

impl fmt::Display for Value {
    /// Compact JSON, keys in input order, numbers as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_compact(&mut s);
        f.write_str(&s)
    }
}

impl Index<&str> for Value {
    type Output = Value;
    /// The member `key`, or `Null` when absent or not an object.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl Index<usize> for Value {
    type Output = Value;
    /// The item at `i`, or `Null` when absent or not an array.
    fn index(&self, i: usize) -> &Value {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}
impl From<Number> for Value {
    fn from(n: Number) -> Self {
        Value::Number(n)
    }
}
impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Self {
        Value::Array(a)
    }
}
impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::Object(m)
    }
}
macro_rules! value_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Self { Value::Number(Number::from(n)) }
        }
    )*};
}
value_from_int!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

#[cfg(feature = "serde_json")]
impl From<serde_json::Value> for Value {
    fn from(j: serde_json::Value) -> Self {
        match j {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => {
                Value::Number(Number::from_valid_lexeme(&n.to_string()))
            }
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(a) => Value::Array(a.into_iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => Value::Object(Map::from_distinct(
                m.into_iter()
                    .map(|(k, v)| (Key::from(k), Value::from(v)))
                    .collect(),
            )),
        }
    }
}

#[cfg(feature = "serde_json")]
impl From<&serde_json::Value> for Value {
    /// Converts by reference: only strings and keys are copied (a schema
    /// compiled from a `serde_json::Value` is not cloned first).
    fn from(j: &serde_json::Value) -> Self {
        match j {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => {
                Value::Number(Number::from_valid_lexeme(&n.to_string()))
            }
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => Value::Object(Map::from_distinct(
                m.iter()
                    .map(|(k, v)| (Key::new(k), Value::from(v)))
                    .collect(),
            )),
        }
    }
}

#[cfg(feature = "serde_json")]
impl TryFrom<Value> for serde_json::Value {
    type Error = String;
    fn try_from(v: Value) -> Result<Self, String> {
        v.to_serde_json()
    }
}

impl Serialize for Number {
    /// As `i64` or `u64` when the lexeme is an integer in range, else as the
    /// nearest `f64` (non-finite: `null`, as serde_json writes it).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some(i) = self.as_i64() {
            s.serialize_i64(i)
        } else if let Some(u) = self.as_u64() {
            s.serialize_u64(u)
        } else {
            match self.as_f64() {
                Some(f) => s.serialize_f64(f),
                None => s.serialize_unit(),
            }
        }
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

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            Value::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Object(m) => m.serialize(s),
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| E::custom("non-finite number"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_grammar() {
        for ok in [
            "0",
            "-0",
            "1",
            "10",
            "1.5",
            "1e5",
            "1E+5",
            "-1.0e-3",
            "123456789012345678901234567890",
        ] {
            assert!(is_number_lexeme(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".1", "1e", "1e+", "+1", "--1", "1.e1", "0x1", " 1",
        ] {
            assert!(!is_number_lexeme(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn values_stay_small() {
        // Arrays of values are moved and grown while building; keep them as
        // small as serde_json's.
        assert_eq!(std::mem::size_of::<Number>(), 24);
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }

    #[test]
    fn long_and_short_lexemes() {
        let short = "-1234567890.12345678901";
        let long = "-1234567890.123456789012345e-7";
        for lexeme in [short, long] {
            let n = Number::from_lexeme(lexeme).unwrap();
            assert_eq!(n.as_str(), lexeme);
            assert_eq!(n, Number::from_lexeme(lexeme).unwrap());
        }
        assert_ne!(
            Number::from_lexeme(short).unwrap(),
            Number::from_lexeme(long).unwrap()
        );
        assert_eq!(Number::from(u64::MAX).as_u64(), Some(u64::MAX));
        assert_eq!(Number::from(i64::MIN).as_i64(), Some(i64::MIN));
    }

    #[test]
    fn escapes_like_serde_json() {
        let s = "a\"\\\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}\u{2028}é😀";
        let mut out = String::new();
        write_json_string(&mut out, s);
        assert_eq!(out, serde_json::to_string(s).unwrap());
    }
}
