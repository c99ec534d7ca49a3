//! `Value`, the finished JSON value, with a lexeme-preserving [`Number`] and an
//! insertion-ordered [`Map`]; serde support and conversion to and from
//! `serde_json::Value`.

mod access;
mod build;
mod map;
mod number;

use std::fmt;
use std::ops::Index;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

pub use access::Entry;
#[doc(hidden)]
pub use access::ToJsonValue;
pub(crate) use map::Key;
#[cfg(feature = "schema")]
pub(crate) use map::MapIter;
pub use map::{IntoIter, Map};
pub use number::Number;

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
/// assert_eq!(v["a"], Value::from("é\n"));
/// assert_eq!(v["z"].as_number().map(|n| n.as_str()), Some("1.10"));
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
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(a: Vec<T>) -> Self {
        Value::Array(a.into_iter().map(Into::into).collect())
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
    fn values_stay_small() {
        // Arrays of values are moved and grown while building; keep them as
        // small as serde_json's.
        assert_eq!(std::mem::size_of::<Number>(), 24);
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }

    #[test]
    fn escapes_like_serde_json() {
        let s = "a\"\\\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}\u{2028}é😀";
        let mut out = String::new();
        write_json_string(&mut out, s);
        assert_eq!(out, serde_json::to_string(s).unwrap());
    }
}
