//! The options of a compiled `enum`.
//!
//! A tool schema's `enum` is almost always a list of short strings
//! (`["asc", "desc"]`, file types, modes). Kept as one [`Value`] each, they
//! cost an allocation per option when the schema compiles and a pointer to
//! follow per option when an instance is checked. [`EnumOptions`] keeps such
//! a list as one text with the options end to end and their ends beside it:
//! two allocations whatever the count, and a membership test that compares
//! lengths before bytes, all in one place in memory. Any other `enum` keeps
//! its values.

use super::describe::{show, show_str};
use super::doc::Arr;
use super::instance::{Instance, View};
use super::types::{T_STR, equal, same_name, value_type};
use super::validate::unique::{canonical_hash, string_hash};
use crate::value::Value;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;

/// An `enum`'s options, in schema order, with a hash index once there are
/// more than [`INDEX_AT`] of them (a membership test then costs one hash,
/// not a scan: an `enum` of 10^5 options checked against each of its own
/// options would otherwise be quadratic).
#[derive(Debug)]
pub(crate) struct EnumOptions {
    list: List,
    index: Option<Box<Index>>,
}

#[derive(Debug)]
enum List {
    /// Every option is a string: `text` holds them end to end, and option
    /// `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
    Strings { text: Box<str>, ends: Box<[u32]> },
    /// At least one option is not a string.
    Values(Box<[Value]>),
}

/// Options above which an [`EnumOptions`] keeps a hash index.
const INDEX_AT: usize = 32;

/// Option positions by hash: [`canonical_hash`] for `Values`, the string's
/// hash for `Strings` (both agree with the equality each list uses).
#[derive(Debug)]
struct Index {
    state: RandomState,
    heads: HashMap<u64, Vec<u32>>,
}

impl Index {
    fn candidates(&self, hash: u64) -> &[u32] {
        self.heads.get(&hash).map_or(&[], Vec::as_slice)
    }
}

impl EnumOptions {
    /// The options of the schema's array `items`.
    pub(crate) fn new(items: Arr<'_>) -> EnumOptions {
        let list = List::new(items);
        let index = (list.len() > INDEX_AT).then(|| {
            let state = RandomState::new();
            let mut heads: HashMap<u64, Vec<u32>> = HashMap::new();
            let mut add = |h: u64, i: usize| heads.entry(h).or_default().push(i as u32);
            match &list {
                List::Strings { text, ends } => {
                    for (i, (a, b)) in Spans::new(ends).enumerate() {
                        add(string_hash(&text[a..b], &state), i);
                    }
                }
                List::Values(opts) => {
                    for (i, o) in opts.iter().enumerate() {
                        add(canonical_hash(o, &state), i);
                    }
                }
            }
            Box::new(Index { state, heads })
        });
        EnumOptions { list, index }
    }

    /// The options, when one of them is not a string (`None`: all are
    /// strings, see [`EnumOptions::strings`]).
    #[cfg(any(feature = "decode", test))]
    pub(crate) fn values(&self) -> Option<&[Value]> {
        match &self.list {
            List::Strings { .. } => None,
            List::Values(v) => Some(v),
        }
    }

    /// How many options there are.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether `v` is one of the options.
    #[inline(always)]
    pub(crate) fn holds(&self, v: &impl Instance) -> bool {
        match (&self.list, v.view()) {
            (_, View::String(s)) => self.holds_str(s),
            (List::Strings { .. }, _) => false,
            (List::Values(opts), _) => match &self.index {
                Some(ix) => ix
                    .candidates(canonical_hash(v, &ix.state))
                    .iter()
                    .any(|&i| equal(&opts[i as usize], v)),
                None => opts.iter().any(|o| equal(o, v)),
            },
        }
    }

    /// Whether the string `s` is one of the options.
    #[inline(always)]
    pub(crate) fn holds_str(&self, s: &str) -> bool {
        let same = |o: &Value| matches!(o, Value::String(t) if t.as_bytes() == s.as_bytes());
        match (&self.list, &self.index) {
            (List::Strings { text, ends }, Some(ix)) => {
                ix.candidates(string_hash(s, &ix.state)).iter().any(|&i| {
                    let i = i as usize;
                    let start = if i == 0 { 0 } else { ends[i - 1] as usize };
                    text.as_bytes().get(start..ends[i] as usize) == Some(s.as_bytes())
                })
            }
            (List::Strings { text, ends }, None) => {
                let s = s.as_bytes();
                // Options of the same length usually differ in their first
                // byte: comparing it first saves a `memcmp` call for each.
                let first = s.first();
                let text = text.as_bytes();
                for (start, end) in Spans::new(ends) {
                    if end.wrapping_sub(start) == s.len()
                        && let Some(t) = text.get(start..end)
                        && t.first() == first
                        && same_name(t, s)
                    {
                        return true;
                    }
                }
                false
            }
            (List::Values(opts), Some(ix)) => ix
                .candidates(string_hash(s, &ix.state))
                .iter()
                .any(|&i| same(&opts[i as usize])),
            (List::Values(opts), None) => opts.iter().any(same),
        }
    }

    /// The string options, in schema order.
    pub(crate) fn strings(&self) -> StringOptions<'_> {
        match &self.list {
            List::Strings { text, ends } => StringOptions::Text {
                text,
                spans: Spans::new(ends),
            },
            List::Values(opts) => StringOptions::Values(opts.iter()),
        }
    }

    /// The types of the options (`T_*` bits); 0 for no options.
    pub(crate) fn types(&self) -> u8 {
        match &self.list {
            List::Strings { ends, .. } if ends.is_empty() => 0,
            List::Strings { .. } => T_STR,
            List::Values(opts) => opts.iter().fold(0, |acc, v| acc | value_type(v)),
        }
    }

    /// The first `max` options as error messages show them.
    pub(crate) fn shown(&self, max: usize) -> Vec<String> {
        match &self.list {
            List::Strings { .. } => self.strings().take(max).map(show_str).collect(),
            List::Values(opts) => opts.iter().take(max).map(show).collect(),
        }
    }
}

impl List {
    fn new(items: Arr<'_>) -> List {
        let mut total = 0usize;
        for item in items.iter() {
            match item.as_str() {
                Some(s) => total += s.len(),
                None => return List::Values(items.iter().map(|d| d.to_value()).collect()),
            }
        }
        if u32::try_from(total).is_err() {
            return List::Values(items.iter().map(|d| d.to_value()).collect());
        }
        let mut text = String::with_capacity(total);
        let mut ends = Vec::with_capacity(items.len());
        for item in items.iter() {
            text.push_str(item.as_str().unwrap_or(""));
            // Fits: the whole text fits in a `u32`.
            ends.push(text.len() as u32);
        }
        List::Strings {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        }
    }

    fn len(&self) -> usize {
        match self {
            List::Strings { ends, .. } => ends.len(),
            List::Values(v) => v.len(),
        }
    }
}

/// Where each option of a list of strings lies in its text, as
/// `(start, end)` byte offsets, in schema order.
#[derive(Clone)]
pub(crate) struct Spans<'a> {
    ends: std::slice::Iter<'a, u32>,
    start: usize,
}

impl<'a> Spans<'a> {
    fn new(ends: &'a [u32]) -> Spans<'a> {
        Spans {
            ends: ends.iter(),
            start: 0,
        }
    }
}

impl Iterator for Spans<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        let end = *self.ends.next()? as usize;
        // Ends only grow (each closes an option after the one before), so
        // `start <= end`.
        Some((std::mem::replace(&mut self.start, end), end))
    }
}

/// The string options of an `enum` or a `const`, in schema order (see
/// [`EnumOptions::strings`] and [`StringOptions::of_const`]).
#[derive(Clone)]
pub(crate) enum StringOptions<'a> {
    Text { text: &'a str, spans: Spans<'a> },
    Values(std::slice::Iter<'a, Value>),
}

impl<'a> StringOptions<'a> {
    /// The string option of a `const` (none if it is not a string).
    pub(crate) fn of_const(c: &'a Value) -> StringOptions<'a> {
        StringOptions::Values(std::slice::from_ref(c).iter())
    }

    /// Whether some option starts with `prefix` (the stream check asks at
    /// each piece of a string under `enum`): compared as bytes, with no
    /// `&str` made of each option.
    #[cfg(test)]
    pub(crate) fn any_starts_with(self, prefix: &str) -> bool {
        let prefix = prefix.as_bytes();
        match self {
            StringOptions::Text { text, mut spans } => spans.any(|(start, end)| {
                super::budget::tally(prefix.len() as u64);
                text.as_bytes()
                    .get(start..end)
                    .is_some_and(|o| o.starts_with(prefix))
            }),
            StringOptions::Values(mut it) => it.any(|v| match v {
                Value::String(s) => {
                    super::budget::tally(prefix.len() as u64);
                    s.as_bytes().starts_with(prefix)
                }
                _ => false,
            }),
        }
    }
}

impl<'a> Iterator for StringOptions<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            StringOptions::Text { text, spans } => {
                let (start, end) = spans.next()?;
                // Ends are char boundaries: each one closes a whole option.
                Some(text.get(start..end).unwrap_or(""))
            }
            StringOptions::Values(it) => it.find_map(|v| match v {
                Value::String(s) => Some(s.as_str()),
                _ => None,
            }),
        }
    }
}

/// The string options of an `enum` or a `const` by position, for the
/// stream check to match a string piece by piece in linear time: it keeps
/// the position of the first option that fits the text so far and compares
/// only each new piece with it; an option passed over never fits again, so
/// each is compared in full at most once per string.
pub(crate) enum OptionCursor<'a> {
    Enum(&'a EnumOptions),
    Const(&'a Value),
    Nothing,
}

impl<'a> OptionCursor<'a> {
    /// Option `k`: `None` past the last, `Some(None)` when not a string.
    fn get(&self, k: usize) -> Option<Option<&'a str>> {
        let as_str = |v: &'a Value| match v {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        };
        match self {
            OptionCursor::Enum(EnumOptions {
                list: List::Strings { text, ends },
                ..
            }) => {
                let end = *ends.get(k)? as usize;
                let start = k
                    .checked_sub(1)
                    .and_then(|p| ends.get(p))
                    .map_or(0, |&e| e as usize);
                Some(text.get(start..end))
            }
            OptionCursor::Enum(EnumOptions {
                list: List::Values(opts),
                ..
            }) => opts.get(k).map(as_str),
            OptionCursor::Const(c) => (k == 0).then(|| as_str(c)),
            OptionCursor::Nothing => None,
        }
    }

    /// The first option from position `from` on that starts with `text`,
    /// given that none before `from` starts with `text[..old]` and that
    /// option `from`, when it is a string, does: that one is compared on
    /// `text[old..]` only.
    pub(crate) fn next_fitting(&self, from: usize, text: &str, old: usize) -> Option<usize> {
        let text = text.as_bytes();
        let mut k = from;
        loop {
            if let Some(o) = self.get(k)? {
                let o = o.as_bytes();
                super::budget::tally(1 + (text.len() - if k == from { old } else { 0 }) as u64);
                let fits = if k == from {
                    o.len() >= text.len() && o.get(old..text.len()) == text.get(old..)
                } else {
                    o.starts_with(text)
                };
                if fits {
                    return Some(k);
                }
            }
            k += 1;
        }
    }

    /// The most bytes of `text[old..]` that an option from `from` on which
    /// starts with `text[..old]` also has after it (as in
    /// [`OptionCursor::next_fitting`]).
    pub(crate) fn longest_match(&self, from: usize, text: &str, old: usize) -> usize {
        let text = text.as_bytes();
        let (Some(head), Some(tail)) = (text.get(..old), text.get(old..)) else {
            return 0;
        };
        let mut longest = 0;
        let mut k = from;
        while let Some(o) = self.get(k) {
            if let Some(o) = o {
                let o = o.as_bytes();
                if (k == from || o.starts_with(head))
                    && let Some(rest) = o.get(old..)
                {
                    let same = rest.iter().zip(tail).take_while(|(a, b)| a == b).count();
                    super::budget::tally(1 + old as u64 + same as u64);
                    longest = longest.max(same);
                }
            }
            k += 1;
        }
        longest
    }
}

#[cfg(test)]
mod tests {
    use super::EnumOptions;
    use crate::schema::doc::Doc;
    use crate::value::Value;

    fn options(json: &str) -> EnumOptions {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        EnumOptions::new(Doc::Serde(&v).as_array().unwrap())
    }

    fn s(x: &str) -> Value {
        Value::String(x.into())
    }

    #[test]
    fn strings_are_kept_end_to_end() {
        let o = options(r#"["asc", "", "desc", "dé", "de"]"#);
        assert!(o.values().is_none());
        assert_eq!(o.len(), 5);
        assert_eq!(
            o.strings().collect::<Vec<_>>(),
            ["asc", "", "desc", "dé", "de"]
        );
        for yes in ["asc", "", "desc", "dé", "de"] {
            assert!(o.holds_str(yes), "{yes:?}");
            assert!(o.holds(&s(yes)), "{yes:?}");
        }
        // Prefixes, extensions and joins of neighbours are not options.
        for no in ["as", "ascd", "ascdesc", "d", "desc ", "dd", "é"] {
            assert!(!o.holds_str(no), "{no:?}");
        }
        assert!(!o.holds(&Value::Null));
        for (prefix, any) in [
            ("", true),
            ("a", true),
            ("asc", true),
            ("ascd", false),
            ("d", true),
            ("dé", true),
            ("dx", false),
            ("x", false),
        ] {
            assert_eq!(o.strings().any_starts_with(prefix), any, "{prefix:?}");
        }
        assert_eq!(o.types(), super::T_STR);
        assert_eq!(o.shown(2), [r#""asc""#, r#""""#]);
    }

    /// Past `INDEX_AT` options the hash index answers, and agrees with the
    /// scan: numbers by value (`1.0` is `1`), strings by bytes, containers
    /// by content (object members in any order).
    #[test]
    fn long_enums_answer_by_hash_as_the_scan_does() {
        let n = super::INDEX_AT * 3;
        let strs: Vec<String> = (0..n).map(|i| format!("\"s{i}\"")).collect();
        let o = options(&format!("[{}]", strs.join(",")));
        assert!(o.index.is_some());
        for i in 0..n {
            assert!(o.holds_str(&format!("s{i}")));
            assert!(o.holds(&s(&format!("s{i}"))));
        }
        for no in ["s", "s0 ", &format!("s{n}"), ""] {
            assert!(!o.holds_str(no), "{no:?}");
        }
        let mut vals: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        vals.extend([r#""a""#.into(), r#"{"x":1,"y":[2]}"#.into(), "null".into()]);
        let o = options(&format!("[{}]", vals.join(",")));
        assert!(o.index.is_some());
        for yes in ["7", "7.0", "7e0", r#""a""#, r#"{"y":[2.0],"x":1}"#, "null"] {
            let v = crate::from_str(yes).unwrap();
            assert!(o.holds(&v), "{yes}");
        }
        for no in ["7.5", "-1", r#""b""#, r#"{"x":1}"#, "false", &n.to_string()] {
            let v = crate::from_str(no).unwrap();
            assert!(!o.holds(&v), "{no}");
        }
        assert!(o.holds_str("a") && !o.holds_str("7"));
    }

    #[test]
    fn other_enums_keep_their_values() {
        let o = options(r#"["a", 1, null, [1], "b"]"#);
        assert!(o.values().is_some());
        assert_eq!(o.len(), 5);
        assert_eq!(o.strings().collect::<Vec<_>>(), ["a", "b"]);
        assert!(o.strings().any_starts_with("b"));
        assert!(!o.strings().any_starts_with("1"));
        let c = Value::String("const".into());
        assert!(super::StringOptions::of_const(&c).any_starts_with("con"));
        assert!(!super::StringOptions::of_const(&Value::Null).any_starts_with(""));
        assert!(o.holds(&s("b")));
        assert!(!o.holds(&s("1")));
        assert!(o.holds(&crate::from_str("1.0").unwrap()));
        assert!(o.holds(&Value::Null));
        assert!(o.holds(&crate::from_str("[1]").unwrap()));
        assert_eq!(
            o.shown(12),
            [r#""a""#, "1", "null", "an array of 1 item", r#""b""#]
        );
    }

    #[test]
    fn an_empty_enum_holds_nothing() {
        let o = options("[]");
        assert_eq!(o.len(), 0);
        assert_eq!(o.types(), 0);
        assert!(!o.holds_str(""));
        assert_eq!(o.strings().count(), 0);
    }
}
