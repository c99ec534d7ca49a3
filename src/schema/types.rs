//! JSON's types as bits (the argument of `type`, and what a compiled node
//! may accept), the type of a value, and the equalities the keywords use:
//! [`equal`] for `enum`, `const` and `uniqueItems`, [`same_name`] for
//! property names and string options.

use super::instance::{Instance, Object as _, View};
use super::number::lexemes_equal;
use crate::Value;

pub(crate) const T_NULL: u8 = 1;
pub(crate) const T_BOOL: u8 = 2;
pub(crate) const T_INT: u8 = 4;
/// A number that is not an integer.
pub(crate) const T_FRAC: u8 = 8;
pub(crate) const T_NUM: u8 = T_INT | T_FRAC;
pub(crate) const T_STR: u8 = 16;
pub(crate) const T_ARR: u8 = 32;
pub(crate) const T_OBJ: u8 = 64;
pub(crate) const T_ALL: u8 = 127;

/// The type bit of `v` (`T_INT` or `T_FRAC` for a number).
pub(crate) fn value_type(v: &impl Instance) -> u8 {
    match v.view() {
        View::Null => T_NULL,
        View::Bool(_) => T_BOOL,
        View::Number(n) => {
            if super::number::lexeme_is_integer(n.text().as_str()) {
                T_INT
            } else {
                T_FRAC
            }
        }
        View::String(_) => T_STR,
        View::Array(_) => T_ARR,
        View::Object(_) => T_OBJ,
    }
}

/// Whether two names are equal, comparing names of up to 16 bytes by word
/// loads (two overlapping ones each) rather than a `memcmp` call.
#[inline(always)]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n <= 3 {
        return a == b;
    }
    if n <= 8 {
        let w = |s: &[u8]| (s.first_chunk::<4>().copied(), s.last_chunk::<4>().copied());
        return w(a) == w(b);
    }
    if n <= 16 {
        let w = |s: &[u8]| (s.first_chunk::<8>().copied(), s.last_chunk::<8>().copied());
        return w(a) == w(b);
    }
    a == b
}

/// JSON Schema equality: numbers by value (`1 == 1.0`), objects unordered.
pub(crate) fn equal<A: Instance, B: Instance>(a: &A, b: &B) -> bool {
    if let (Some(a), Some(b)) = (a.as_own(), b.as_own()) {
        return equal_own(a, b);
    }
    super::budget::tally(1);
    match (a.view(), b.view()) {
        (View::Null, View::Null) => true,
        (View::Bool(x), View::Bool(y)) => x == y,
        (View::Number(x), View::Number(y)) => lexemes_equal(x.text().as_str(), y.text().as_str()),
        (View::String(x), View::String(y)) => x == y,
        (View::Array(x), View::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (View::Object(x), View::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => false,
    }
}

/// [`equal`] of two [`Value`]s.
fn equal_own(a: &Value, b: &Value) -> bool {
    super::budget::tally(1);
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => lexemes_equal(x.as_str(), y.as_str()),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal_own(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equal_own(v, w)))
        }
        _ => false,
    }
}
