//! The rest of the accessors a program that walks and edits JSON expects
//! (the names serde_json uses, so code reads the same): type tests, mutable
//! access, map editing, comparison with plain strings, and `Value::take`.

use std::ops::{Index, IndexMut};

use super::{Key, Map, Number, Value};

impl Value {
    /// Whether this is an integer that fits `u64`.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether this is an integer that fits `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is `true` or `false`.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The items, mutably, if this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, mutably, if this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member `key` of an object, mutably; `None` for other types.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut()?.get_mut(key)
    }

    /// Follows a JSON Pointer (RFC 6901) from this value, mutably.
    ///
    /// ```
    /// let mut v = tooljson::from_str(r#"{"a":[1]}"#)?;
    /// *v.pointer_mut("/a/0").unwrap() = tooljson::Value::from(2);
    /// assert_eq!(v.to_string(), r#"{"a":[2]}"#);
    /// # Ok::<(), tooljson::Error>(())
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let path = crate::Path::parse_pointer(pointer)?;
        let mut cur = self;
        for seg in path.segments() {
            cur = match (cur, seg) {
                (Value::Object(m), crate::Segment::Key(k)) => m.get_mut(k)?,
                (Value::Object(m), crate::Segment::Index(i)) => m.get_mut(&i.to_string())?,
                (Value::Array(a), crate::Segment::Index(i)) => a.get_mut(*i)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Takes the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

/// Compares with a `serde_json::Value` as the same JSON: numbers equal when
/// serde_json reads this one's lexeme as that number.
#[cfg(feature = "serde_json")]
impl PartialEq<serde_json::Value> for Value {
    fn eq(&self, other: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (self, other) {
            (Value::Null, J::Null) => true,
            (Value::Bool(a), J::Bool(b)) => a == b,
            (Value::Number(a), J::Number(b)) => a.to_serde_json().as_ref() == Some(b),
            (Value::String(a), J::String(b)) => a == b,
            (Value::Array(a), J::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
            }
            (Value::Object(a), J::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| v == w))
            }
            _ => false,
        }
    }
}

#[cfg(feature = "serde_json")]
impl PartialEq<Value> for serde_json::Value {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

macro_rules! eq_scalar {
    ($($t:ty => $as:ident),*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.$as() == Some(*other as _)
            }
        }
    )*};
}
eq_scalar!(i32 => as_i64, i64 => as_i64, u32 => as_u64, u64 => as_u64, usize => as_u64, f64 => as_f64);

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl<T: Clone + Into<Value>> From<&[T]> for Value {
    fn from(a: &[T]) -> Self {
        Value::Array(a.iter().cloned().map(Into::into).collect())
    }
}

impl<T: Clone + Into<Value>> From<&Vec<T>> for Value {
    fn from(a: &Vec<T>) -> Self {
        Value::from(a.as_slice())
    }
}

/// What `json!` takes by reference and converts (as serde_json's `json!`
/// borrows what it interpolates).
#[doc(hidden)]
pub trait ToJsonValue {
    fn to_json_value(&self) -> Value;
}

impl<T: Clone + Into<Value>> ToJsonValue for T {
    fn to_json_value(&self) -> Value {
        self.clone().into()
    }
}

impl From<f64> for Value {
    /// A finite float as serde_json writes it; NaN and infinities become
    /// `null`, as in serde_json.
    fn from(f: f64) -> Self {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<f32> for Value {
    fn from(f: f32) -> Self {
        Value::from(f64::from(f))
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Value::String(s.clone())
    }
}

impl From<&Value> for Value {
    fn from(v: &Value) -> Self {
        v.clone()
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is `null`.
    fn from(o: Option<T>) -> Self {
        o.map_or(Value::Null, Into::into)
    }
}

impl FromIterator<Value> for Value {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Value::Array(iter.into_iter().collect())
    }
}

impl IndexMut<&str> for Value {
    /// The member `key`, inserted as `null` when absent; panics when this is
    /// not an object (as serde_json's does for other types).
    fn index_mut(&mut self, key: &str) -> &mut Value {
        if self.is_null() {
            *self = Value::Object(Map::new());
        }
        match self {
            Value::Object(m) => m.entry(key).or_insert(Value::Null),
            other => panic!("cannot index {} with a key", other.type_name()),
        }
    }
}

impl IndexMut<usize> for Value {
    /// The item at `i`; panics when out of range or not an array.
    fn index_mut(&mut self, i: usize) -> &mut Value {
        match self {
            Value::Array(a) => &mut a[i],
            other => panic!("cannot index {} with a number", other.type_name()),
        }
    }
}

/// A member of a [`Map`] that may or may not be there; from [`Map::entry`].
pub struct Entry<'a> {
    map: &'a mut Map,
    key: Key,
}

impl<'a> Entry<'a> {
    /// The value, inserted as `default` first when absent.
    pub fn or_insert(self, default: Value) -> &'a mut Value {
        self.or_insert_with(|| default)
    }

    /// The value, inserted as `f()` first when absent.
    pub fn or_insert_with(self, f: impl FnOnce() -> Value) -> &'a mut Value {
        let i = match self.map.position(&self.key) {
            Some(i) => i,
            None => {
                self.map.insert_key(self.key, f());
                self.map.len() - 1
            }
        };
        self.map.value_at_mut(i)
    }
}

impl Map {
    /// The member `key`, present or not, for in-place insertion.
    ///
    /// ```
    /// let mut m = tooljson::Map::new();
    /// *m.entry("n").or_insert(0.into()) = 1.into();
    /// assert_eq!(m.get("n"), Some(&tooljson::Value::from(1)));
    /// ```
    pub fn entry(&mut self, key: impl Into<String>) -> Entry<'_> {
        Entry {
            key: Key::from(key.into()),
            map: self,
        }
    }

    /// Removes a member, keeping the order of the others (serde_json's name
    /// for [`Map::remove`] under `preserve_order`).
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        self.remove(key)
    }

    /// Keeps the members for which `keep` says yes, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &mut Value) -> bool) {
        self.retain_members(|k, v| keep(k, v));
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.retain_members(|_, _| false);
    }
}

impl Index<&str> for Map {
    type Output = Value;
    /// The member `key`; panics when absent (as serde_json's `Map` does).
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or_else(|| panic!("no member {key:?}"))
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a str, &'a Value);
    type IntoIter = Box<dyn DoubleEndedIterator<Item = (&'a str, &'a Value)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<'k> Extend<(&'k str, Value)> for Map {
    fn extend<I: IntoIterator<Item = (&'k str, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert_key(Key::new(k), v);
        }
    }
}

impl<'k> FromIterator<(&'k str, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (&'k str, Value)>>(iter: I) -> Self {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}
