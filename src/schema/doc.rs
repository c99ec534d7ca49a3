//! A borrowed schema document: this crate's [`Value`] or a
//! `serde_json::Value`, read in place.
//!
//! The compiler reads a schema through [`Doc`], so a schema given as a
//! `serde_json::Value` (the usual case: tool definitions arrive as
//! serde_json) is compiled without first being converted: a conversion
//! would cost a good part of compiling a tool schema. Only the values that
//! the compiled schema keeps (`enum` and `const` options) are converted.

use std::fmt;

use compact_str::CompactString;

use crate::{Map, Value};

/// A schema document value, borrowed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Doc<'a> {
    Own(&'a Value),
    Serde(&'a serde_json::Value),
}

/// An object of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) enum Obj<'a> {
    Own(&'a Map),
    Serde(&'a serde_json::Map<String, serde_json::Value>),
}

/// An array of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) enum Arr<'a> {
    Own(&'a [Value]),
    Serde(&'a [serde_json::Value]),
}

/// The text of a number: borrowed from a [`Value`], or written out from a
/// `serde_json::Number` (inline up to 24 bytes, as serde_json writes it).
pub(crate) enum Lexeme<'a> {
    Borrowed(&'a str),
    Written(CompactString),
}

impl std::ops::Deref for Lexeme<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Lexeme::Borrowed(s) => s,
            Lexeme::Written(s) => s,
        }
    }
}

impl<'a> Doc<'a> {
    /// The address of the value: a node's identity for `$ref` memoising.
    pub(crate) fn addr(self) -> usize {
        match self {
            Doc::Own(v) => v as *const Value as usize,
            Doc::Serde(v) => v as *const serde_json::Value as usize,
        }
    }

    pub(crate) fn as_object(self) -> Option<Obj<'a>> {
        match self {
            Doc::Own(Value::Object(m)) => Some(Obj::Own(m)),
            Doc::Serde(serde_json::Value::Object(m)) => Some(Obj::Serde(m)),
            _ => None,
        }
    }

    pub(crate) fn as_array(self) -> Option<Arr<'a>> {
        match self {
            Doc::Own(Value::Array(a)) => Some(Arr::Own(a)),
            Doc::Serde(serde_json::Value::Array(a)) => Some(Arr::Serde(a)),
            _ => None,
        }
    }

    pub(crate) fn as_str(self) -> Option<&'a str> {
        match self {
            Doc::Own(Value::String(s)) => Some(s),
            Doc::Serde(serde_json::Value::String(s)) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_bool(self) -> Option<bool> {
        match self {
            Doc::Own(Value::Bool(b)) | Doc::Serde(serde_json::Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn is_object(self) -> bool {
        matches!(
            self,
            Doc::Own(Value::Object(_)) | Doc::Serde(serde_json::Value::Object(_))
        )
    }

    pub(crate) fn is_string(self) -> bool {
        self.as_str().is_some()
    }

    /// A number's text (its lexeme for a [`Value`], serde_json's rendering
    /// for a `serde_json::Number`, as converting to [`Value`] gives).
    pub(crate) fn number(self) -> Option<Lexeme<'a>> {
        match self {
            Doc::Own(Value::Number(n)) => Some(Lexeme::Borrowed(n.as_str())),
            Doc::Serde(serde_json::Value::Number(n)) => {
                // Integers (nearly every bound in a tool schema) written
                // without the formatting machinery: the same text as
                // serde_json's `Display`, for far less work.
                use compact_str::ToCompactString as _;
                if let Some(u) = n.as_u64() {
                    return Some(Lexeme::Written(u.to_compact_string()));
                }
                if let Some(i) = n.as_i64() {
                    return Some(Lexeme::Written(i.to_compact_string()));
                }
                use std::fmt::Write as _;
                let mut s = CompactString::default();
                let _ = write!(s, "{n}");
                Some(Lexeme::Written(s))
            }
            _ => None,
        }
    }

    /// The value as this crate's [`Value`] (a copy).
    pub(crate) fn to_value(self) -> Value {
        match self {
            Doc::Own(v) => v.clone(),
            Doc::Serde(v) => Value::from(v),
        }
    }

    /// "a string", "an object", ...: for messages.
    pub(crate) fn kind_of(self) -> &'static str {
        match self {
            Doc::Own(Value::Null) | Doc::Serde(serde_json::Value::Null) => "null",
            Doc::Own(Value::Bool(_)) | Doc::Serde(serde_json::Value::Bool(_)) => "a boolean",
            Doc::Own(Value::Number(_)) | Doc::Serde(serde_json::Value::Number(_)) => "a number",
            Doc::Own(Value::String(_)) | Doc::Serde(serde_json::Value::String(_)) => "a string",
            Doc::Own(Value::Array(_)) | Doc::Serde(serde_json::Value::Array(_)) => "an array",
            Doc::Own(Value::Object(_)) | Doc::Serde(serde_json::Value::Object(_)) => "an object",
        }
    }
}

impl fmt::Display for Doc<'_> {
    /// As the value converted to [`Value`] displays (compact JSON).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Doc::Own(v) => v.fmt(f),
            Doc::Serde(v) => Value::from(*v).fmt(f),
        }
    }
}

impl<'a> Obj<'a> {
    pub(crate) fn get(self, key: &str) -> Option<Doc<'a>> {
        match self {
            Obj::Own(m) => m.get(key).map(Doc::Own),
            Obj::Serde(m) => m.get(key).map(Doc::Serde),
        }
    }

    pub(crate) fn contains_key(self, key: &str) -> bool {
        match self {
            Obj::Own(m) => m.contains_key(key),
            Obj::Serde(m) => m.contains_key(key),
        }
    }

    pub(crate) fn len(self) -> usize {
        match self {
            Obj::Own(m) => m.len(),
            Obj::Serde(m) => m.len(),
        }
    }

    /// Members in document order (serde_json: its map's order).
    pub(crate) fn iter(self) -> ObjIter<'a> {
        match self {
            Obj::Own(m) => ObjIter::Own(m.iter_slice()),
            Obj::Serde(m) => ObjIter::Serde(m.iter()),
        }
    }

    pub(crate) fn values(self) -> impl ExactSizeIterator<Item = Doc<'a>> {
        self.iter().map(|(_, v)| v)
    }
}

/// The members of an [`Obj`].
pub(crate) enum ObjIter<'a> {
    Own(crate::value::MapIter<'a>),
    Serde(serde_json::map::Iter<'a>),
}

impl<'a> Iterator for ObjIter<'a> {
    type Item = (&'a str, Doc<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            ObjIter::Own(it) => it.next().map(|(k, v)| (k.as_str(), Doc::Own(v))),
            ObjIter::Serde(it) => it.next().map(|(k, v)| (k.as_str(), Doc::Serde(v))),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ObjIter::Own(it) => it.size_hint(),
            ObjIter::Serde(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for ObjIter<'_> {}

impl<'a> Arr<'a> {
    pub(crate) fn len(self) -> usize {
        match self {
            Arr::Own(a) => a.len(),
            Arr::Serde(a) => a.len(),
        }
    }

    pub(crate) fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub(crate) fn get(self, i: usize) -> Option<Doc<'a>> {
        match self {
            Arr::Own(a) => a.get(i).map(Doc::Own),
            Arr::Serde(a) => a.get(i).map(Doc::Serde),
        }
    }

    pub(crate) fn iter(self) -> ArrIter<'a> {
        match self {
            Arr::Own(a) => ArrIter::Own(a.iter()),
            Arr::Serde(a) => ArrIter::Serde(a.iter()),
        }
    }
}

/// The items of an [`Arr`].
pub(crate) enum ArrIter<'a> {
    Own(std::slice::Iter<'a, Value>),
    Serde(std::slice::Iter<'a, serde_json::Value>),
}

impl<'a> Iterator for ArrIter<'a> {
    type Item = Doc<'a>;

    #[inline]
    fn next(&mut self) -> Option<Doc<'a>> {
        match self {
            ArrIter::Own(it) => it.next().map(Doc::Own),
            ArrIter::Serde(it) => it.next().map(Doc::Serde),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ArrIter::Own(it) => it.size_hint(),
            ArrIter::Serde(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for ArrIter<'_> {}

#[cfg(test)]
mod tests {
    use super::Doc;
    use crate::Value;

    /// Every reading of a serde_json document equals the same reading of
    /// the document converted to [`Value`].
    #[test]
    fn both_kinds_read_alike() {
        let text = r#"{"b": [1, 2.5, -0.0, 1e300, 12345678901234567890123, "x", null, true,
                             0, -7, 18446744073709551615, -9223372036854775808, 100000],
                       "a": {"z": {}, "y": []}, "n": 1.0}"#;
        let j: serde_json::Value = serde_json::from_str(text).unwrap();
        let v = Value::from(&j);
        fn walk(a: Doc<'_>, b: Doc<'_>) {
            assert_eq!(a.kind_of(), b.kind_of());
            assert_eq!(a.to_string(), b.to_string());
            assert_eq!(a.as_str(), b.as_str());
            assert_eq!(a.as_bool(), b.as_bool());
            assert_eq!(a.number().as_deref(), b.number().as_deref());
            assert_eq!(a.to_value(), b.to_value());
            if let (Some(x), Some(y)) = (a.as_object(), b.as_object()) {
                assert_eq!(x.len(), y.len());
                for ((kx, vx), (ky, vy)) in x.iter().zip(y.iter()) {
                    assert_eq!(kx, ky);
                    assert!(x.contains_key(kx) && y.contains_key(ky));
                    walk(vx, vy);
                    walk(x.get(kx).unwrap(), y.get(ky).unwrap());
                }
            } else if let (Some(x), Some(y)) = (a.as_array(), b.as_array()) {
                assert_eq!(x.len(), y.len());
                x.iter().zip(y.iter()).for_each(|(p, q)| walk(p, q));
            } else {
                assert!(a.as_object().is_none() && b.as_object().is_none());
                assert!(a.as_array().is_none() && b.as_array().is_none());
            }
        }
        walk(Doc::Serde(&j), Doc::Own(&v));
        assert_eq!(Doc::Serde(&j["n"]).number().as_deref(), Some("1.0"));
    }
}
