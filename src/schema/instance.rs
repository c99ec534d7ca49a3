//! What the validator reads of an instance: one view over this crate's
//! [`Value`] and `serde_json::Value`, so that a tree the caller already
//! holds is validated where it lies. The validator is generic over
//! [`Instance`] and compiled once per type: no conversion, no dynamic
//! dispatch on the hot path.

use std::fmt::Write as _;

use crate::Value;

/// A JSON value the validator can read.
pub(crate) trait Instance: Sized {
    /// Its objects.
    type Obj: Object<Item = Self>;
    /// Its shape, one level deep.
    fn view(&self) -> View<'_, Self>;
    /// The value itself when it is this crate's [`Value`]: lets a helper
    /// that compares two values take the concrete path (it folds away
    /// when the validator is compiled for either type).
    #[inline(always)]
    fn as_own(&self) -> Option<&Value> {
        None
    }
}

/// One level of an [`Instance`].
pub(crate) enum View<'a, V: Instance> {
    Null,
    Bool(bool),
    Number(Num<'a>),
    String(&'a str),
    Array(&'a [V]),
    Object(&'a V::Obj),
}

/// A number, its text read when asked for ([`Num::text`]): a view stays
/// two words, and a number whose text no keyword reads costs nothing.
#[derive(Clone, Copy)]
pub(crate) enum Num<'a> {
    Own(&'a crate::Number),
    Serde(&'a serde_json::Number),
}

impl<'a> Num<'a> {
    /// The number's text.
    #[inline(always)]
    pub(crate) fn text(self) -> Lexeme<'a> {
        match self {
            Num::Own(n) => Lexeme::Text(n.as_str()),
            Num::Serde(n) => Lexeme::of_serde(n),
        }
    }
}

/// An object's members, in the order the instance keeps them.
pub(crate) trait Object {
    type Item: Instance;
    fn len(&self) -> usize;
    fn get(&self, key: &str) -> Option<&Self::Item>;
    fn contains_key(&self, key: &str) -> bool;
    fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Self::Item)>;
    fn keys(&self) -> impl Iterator<Item = &str>;
}

/// A number's text: borrowed from a [`Value`], written out (as
/// `serde_json` displays it, which is also what converting to a [`Value`]
/// keeps) for a `serde_json::Number`.
pub(crate) enum Lexeme<'a> {
    Text(&'a str),
    Inline([u8; 32], u8),
    Owned(String),
}

impl Lexeme<'_> {
    /// The text.
    #[inline(always)]
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Lexeme::Text(s) => s,
            Lexeme::Inline(buf, len) => buf
                .get(..usize::from(*len))
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or(""),
            Lexeme::Owned(s) => s,
        }
    }

    /// `n` as `serde_json` displays it: in place when it fits 32 bytes (an
    /// `f64` takes at most 24, an `i64` 20).
    fn of_serde(n: &serde_json::Number) -> Lexeme<'static> {
        struct Buf([u8; 32], usize);
        impl std::fmt::Write for Buf {
            fn write_str(&mut self, s: &str) -> std::fmt::Result {
                let end = self.1 + s.len();
                let dst = self.0.get_mut(self.1..end).ok_or(std::fmt::Error)?;
                dst.copy_from_slice(s.as_bytes());
                self.1 = end;
                Ok(())
            }
        }
        let mut buf = Buf([0; 32], 0);
        if write!(buf, "{n}").is_ok() {
            // At most 32: the buffer's length.
            return Lexeme::Inline(buf.0, buf.1 as u8);
        }
        Lexeme::Owned(n.to_string())
    }
}

impl Instance for Value {
    type Obj = crate::Map;
    #[inline(always)]
    fn as_own(&self) -> Option<&Value> {
        Some(self)
    }
    #[inline(always)]
    fn view(&self) -> View<'_, Value> {
        match self {
            Value::Null => View::Null,
            Value::Bool(b) => View::Bool(*b),
            Value::Number(n) => View::Number(Num::Own(n)),
            Value::String(s) => View::String(s),
            Value::Array(a) => View::Array(a),
            Value::Object(m) => View::Object(m),
        }
    }
}

impl Object for crate::Map {
    type Item = Value;
    #[inline(always)]
    fn len(&self) -> usize {
        crate::Map::len(self)
    }
    #[inline(always)]
    fn get(&self, key: &str) -> Option<&Value> {
        crate::Map::get(self, key)
    }
    #[inline(always)]
    fn contains_key(&self, key: &str) -> bool {
        crate::Map::contains_key(self, key)
    }
    #[inline(always)]
    fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> {
        crate::Map::iter(self)
    }
    #[inline(always)]
    fn keys(&self) -> impl Iterator<Item = &str> {
        crate::Map::keys(self)
    }
}

impl Instance for serde_json::Value {
    type Obj = serde_json::Map<String, serde_json::Value>;
    #[inline]
    fn view(&self) -> View<'_, serde_json::Value> {
        match self {
            serde_json::Value::Null => View::Null,
            serde_json::Value::Bool(b) => View::Bool(*b),
            serde_json::Value::Number(n) => View::Number(Num::Serde(n)),
            serde_json::Value::String(s) => View::String(s),
            serde_json::Value::Array(a) => View::Array(a),
            serde_json::Value::Object(m) => View::Object(m),
        }
    }
}

impl Object for serde_json::Map<String, serde_json::Value> {
    type Item = serde_json::Value;
    #[inline]
    fn len(&self) -> usize {
        serde_json::Map::len(self)
    }
    #[inline]
    fn get(&self, key: &str) -> Option<&serde_json::Value> {
        serde_json::Map::get(self, key)
    }
    #[inline]
    fn contains_key(&self, key: &str) -> bool {
        serde_json::Map::contains_key(self, key)
    }
    #[inline]
    fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &serde_json::Value)> {
        serde_json::Map::iter(self).map(|(k, v)| (k.as_str(), v))
    }
    #[inline]
    fn keys(&self) -> impl Iterator<Item = &str> {
        serde_json::Map::keys(self).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::{Instance, View};

    #[test]
    fn serde_numbers_read_as_the_conversion_writes_them() {
        for text in [
            "0",
            "-7",
            "1.5",
            "1e300",
            "-9223372036854775808",
            "18446744073709551615",
            "0.1",
            "2.5e-8",
        ] {
            let j: serde_json::Value = serde_json::from_str(text).unwrap();
            let own = crate::Value::from(&j);
            let (View::Number(a), View::Number(b)) = (j.view(), own.view()) else {
                panic!("{text}: not a number");
            };
            assert_eq!(a.text().as_str(), b.text().as_str(), "{text}");
        }
    }
}
