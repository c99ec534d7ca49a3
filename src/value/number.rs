//! [`Number`]: a JSON number kept as the exact text it was written as, and
//! the RFC 8259 grammar that checks such text.

use std::fmt;

use serde::ser::{Serialize, Serializer};

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
fn is_number_lexeme(b: &[u8]) -> bool {
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
}
