//! `pattern`s that are an anchored sequence of repeated character classes,
//! such as `^[a-z0-9_-]{3,32}$`, `^[A-Z][A-Za-z0-9]*$` or
//! `^\d{4}-\d{2}-\d{2}$`: the usual shape of a pattern in a tool schema.
//!
//! Such a pattern is read here straight from its ECMA-262 text and matched
//! by a single greedy pass over the string, with no regex built: compiling
//! it is a small fraction of the cost of translating and parsing it for the
//! `regex` crate, and a match is a loop over the string's characters.
//!
//! A greedy pass is exact only when no repetition can take a character that
//! a later item needs, so [`ClassSequence::parse_chars`] accepts a pattern only if
//! every repetition of varying length is disjoint from each item after it
//! up to the next one that must match something. Anything else (groups,
//! alternation, `\b`, `\u` escapes, overlapping repetitions, patterns not
//! anchored at the start) is left to the `regex` crate.

/// The largest repetition count read here; larger ones go to the `regex`
/// crate, which decides whether they fit its size limit.
pub(super) const MAX_COUNT: u32 = 1000;

/// "No upper bound", for `*`, `+` and `{n,}`.
pub(super) const UNBOUNDED: u32 = u32::MAX;

/// Ranges of code points while a class is read (on the stack for the
/// usual handful).
pub(super) type Ranges = smallvec::SmallVec<[(u32, u32); 12]>;

/// A set of characters: a bitmap for ASCII, sorted disjoint ranges above.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Class {
    ascii: [u64; 2],
    /// Ranges of code points from 0x80 up, sorted and disjoint.
    high: Box<[(u32, u32)]>,
}

impl Class {
    /// The bytes it takes, itself included.
    pub(super) fn heap_bytes(&self) -> u64 {
        (std::mem::size_of::<Class>() + std::mem::size_of_val(&*self.high)) as u64
    }

    /// The class of the given ranges (in any order, overlapping or not),
    /// or of everything else when `negated`.
    pub(super) fn new(ranges: Ranges, negated: bool) -> Class {
        let mut ascii = [0u64; 2];
        // ASCII ranges (nearly every class in a tool schema) are set in the
        // bitmap as they are: the bits are the same in any order, overlapping
        // or not, so there is nothing to sort or merge.
        if !negated && ranges.iter().all(|&(lo, hi)| lo <= hi && hi < 0x80) {
            for &(lo, hi) in &ranges {
                ascii_range(&mut ascii, lo, hi);
            }
            return Class {
                ascii,
                high: Box::default(),
            };
        }
        let mut high = Vec::new();
        for (lo, hi) in normalized(ranges, negated) {
            if lo < 0x80 {
                ascii_range(&mut ascii, lo, hi.min(0x7F));
            }
            if hi >= 0x80 {
                high.push((lo.max(0x80), hi));
            }
        }
        Class {
            ascii,
            high: high.into(),
        }
    }

    #[cfg(feature = "decode")]
    /// Every code point.
    pub(crate) fn any() -> Class {
        Class::new(smallvec::smallvec![(0, 0x10FFFF)], false)
    }

    pub(super) fn one(c: char) -> Class {
        Class::new(smallvec::smallvec![(c as u32, c as u32)], false)
    }

    #[inline]
    fn contains_ascii(&self, b: u8) -> bool {
        self.ascii[usize::from(b >> 6) & 1] >> (b & 63) & 1 == 1
    }

    /// The ASCII bitmap: bit `c % 64` of word `c / 64` for each `c` held.
    pub(super) fn ascii_words(&self) -> [u64; 2] {
        self.ascii
    }

    #[inline]
    pub(crate) fn contains(&self, c: char) -> bool {
        let u = c as u32;
        if u < 0x80 {
            return self.contains_ascii(u as u8);
        }
        let i = self.high.partition_point(|&(_, hi)| hi < u);
        self.high.get(i).is_some_and(|&(lo, _)| lo <= u)
    }

    #[cfg(feature = "decode")]
    /// Its first character (not a surrogate) in `lo..=hi`.
    pub(crate) fn first_in(&self, lo: u32, hi: u32) -> Option<char> {
        for c in lo..=hi.min(0x7F) {
            if self.contains_ascii(c as u8) {
                return char::from_u32(c);
            }
        }
        let lo = lo.max(0x80);
        let i = self.high.partition_point(|&(_, h)| h < lo);
        for &(a, b) in self.high.get(i..).unwrap_or(&[]) {
            let a = a.max(lo);
            if a > hi {
                break;
            }
            // Past the surrogates when the range starts among them.
            let a = if (0xD800..0xE000).contains(&a) {
                0xE000
            } else {
                a
            };
            if a <= b.min(hi) {
                return char::from_u32(a);
            }
        }
        None
    }

    #[cfg(feature = "decode")]
    /// Whether it holds every code point outside `except` (sorted,
    /// disjoint ranges); the surrogates never count.
    pub(crate) fn holds_all_but(&self, except: &[(u32, u32)]) -> bool {
        let mut ex = except.to_vec();
        ex.extend([(0xD800, 0xDFFF), (0x11_0000, 0x11_0000)]);
        ex.sort_unstable();
        let mut lo = 0u32;
        let mut need: Vec<(u32, u32)> = Vec::new();
        for (a, b) in ex {
            if a > lo {
                need.push((lo, a - 1));
            }
            lo = lo.max(b.saturating_add(1));
        }
        need.iter().all(|&(lo, hi)| {
            (lo..=hi.min(0x7F)).all(|c| self.contains_ascii(c as u8)) && {
                let mut cur = lo.max(0x80);
                let mut i = self.high.partition_point(|&(_, h)| h < cur);
                while cur <= hi {
                    match self.high.get(i) {
                        Some(&(a, b)) if a <= cur => {
                            cur = b.saturating_add(1);
                            i += 1;
                        }
                        _ => return false,
                    }
                }
                true
            }
        })
    }

    #[cfg(feature = "decode")]
    /// A character it holds, the plainest in JSON text first (a letter, a
    /// digit, printable ASCII, an escaped one, then any other), if any.
    pub(crate) fn sample(&self) -> Option<char> {
        [
            (u32::from(b'a'), u32::from(b'z')),
            (u32::from(b'A'), u32::from(b'Z')),
            (u32::from(b'0'), u32::from(b'9')),
            (0x20, 0x21),
            (0x23, 0x5B),
            (0x5D, 0x7E),
            (0, 0x10FFFF),
        ]
        .into_iter()
        .find_map(|(lo, hi)| self.first_in(lo, hi))
    }

    fn is_disjoint(&self, other: &Class) -> bool {
        if self.ascii[0] & other.ascii[0] != 0 || self.ascii[1] & other.ascii[1] != 0 {
            return false;
        }
        let (mut i, mut j) = (0, 0);
        while let (Some(&(a_lo, a_hi)), Some(&(b_lo, b_hi))) = (self.high.get(i), other.high.get(j))
        {
            if a_hi < b_lo {
                i += 1;
            } else if b_hi < a_lo {
                j += 1;
            } else {
                return false;
            }
        }
        true
    }
}

/// Sets the bits `lo..=hi` (both below 0x80) of an ASCII bitmap.
fn ascii_range(ascii: &mut [u64; 2], lo: u32, hi: u32) {
    for (w, word) in ascii.iter_mut().enumerate() {
        let base = w as u32 * 64;
        let (a, b) = (lo.max(base), hi.min(base + 63));
        if a <= b {
            let width = b - a + 1;
            let bits = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            *word |= bits << (a - base);
        }
    }
}

/// `ranges` sorted and merged (disjoint, not adjacent), or their complement
/// over all code points when `negated`.
fn normalized(mut ranges: Ranges, negated: bool) -> Ranges {
    ranges.sort_unstable();
    let mut merged = Ranges::new();
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    if !negated {
        return merged;
    }
    let mut complement = Ranges::new();
    let mut next = 0u32;
    for &(lo, hi) in &merged {
        if lo > next {
            complement.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
    }
    if next <= 0x10FFFF {
        complement.push((next, 0x10FFFF));
    }
    complement
}

/// `\d`, `\w` and `\s` with their ECMA-262 meaning (ASCII digits and word
/// characters; ECMA white space and line terminators).
pub(super) fn class_escape(c: char) -> Option<(Ranges, bool)> {
    const DIGITS: &[(u32, u32)] = &[(0x30, 0x39)];
    const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
    const SPACE: &[(u32, u32)] = &[
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ];
    let (set, negated) = match c {
        'd' => (DIGITS, false),
        'D' => (DIGITS, true),
        'w' => (WORD, false),
        'W' => (WORD, true),
        's' => (SPACE, false),
        'S' => (SPACE, true),
        _ => return None,
    };
    Some((Ranges::from_slice(set), negated))
}

/// The class a backslash escape outside brackets stands for: `\d` `\w`
/// `\s` and their negations, or an identity escape; `None` for any other
/// (left to the regex path).
pub(super) fn escape_class(e: char) -> Option<Class> {
    if let Some((ranges, negated)) = class_escape(e) {
        Some(Class::new(ranges, negated))
    } else {
        is_identity_escape(e).then(|| Class::one(e))
    }
}

/// `.`: anything but the four ECMA-262 line terminators.
pub(super) fn dot() -> Class {
    Class::new(
        smallvec::smallvec![(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)],
        true,
    )
}

/// Characters that stand for themselves after a backslash (ECMA-262
/// `SyntaxCharacter`, `/`, and `-`).
pub(super) fn is_identity_escape(c: char) -> bool {
    "^$\\.*+?()[]{}|/-".contains(c)
}

/// One item: a class repeated between `min` and `max` times.
#[derive(Clone, Debug, PartialEq)]
struct Item {
    class: Class,
    min: u32,
    max: u32,
}

/// A pattern of the shape `^item item … item` with an optional `$`, each
/// item a character class (or one character) with an optional quantifier.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ClassSequence {
    items: Box<[Item]>,
    /// Whether the pattern ends in `$` (the whole string must be used).
    to_end: bool,
}

impl ClassSequence {
    #[cfg(feature = "decode")]
    /// Its items, each a class and its `min` and `max` counts (`max`
    /// `u32::MAX` when unbounded), and whether it ends in `$`.
    pub(crate) fn items(&self) -> (impl Iterator<Item = (&Class, u32, u32)>, bool) {
        (
            self.items.iter().map(|i| (&i.class, i.min, i.max)),
            self.to_end,
        )
    }

    /// The bytes its items take (for the schema's pattern budget).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let fixed = (std::mem::size_of::<Item>() - std::mem::size_of::<Class>()) as u64;
        self.items
            .iter()
            .map(|i| fixed + i.class.heap_bytes())
            .sum()
    }

    /// [`ClassSequence::parse_chars`] on a string (for tests).
    #[cfg(test)]
    pub(crate) fn parse(pattern: &str) -> Option<ClassSequence> {
        let chars: Vec<char> = pattern.chars().collect();
        Self::parse_chars(&chars)
    }

    /// Reads a pattern, given as its characters (ECMA-262 syntax), if it
    /// has this shape and a greedy pass over it is exact; `None` sends it
    /// to the `regex` crate.
    pub(crate) fn parse_chars(chars: &[char]) -> Option<ClassSequence> {
        if chars.first() != Some(&'^') {
            return None;
        }
        let mut i = 1;
        let mut items = Vec::new();
        let mut to_end = false;
        while let Some(&c) = chars.get(i) {
            i += 1;
            let class = match c {
                '$' => {
                    if i != chars.len() {
                        return None;
                    }
                    to_end = true;
                    break;
                }
                '\\' => {
                    let e = *chars.get(i)?;
                    i += 1;
                    escape_class(e)?
                }
                '[' => {
                    let (class, used) = bracket(&chars[i..])?;
                    i += used;
                    class
                }
                '.' => dot(),
                '^' | '*' | '+' | '?' | '(' | ')' | '{' | '}' | '|' | ']' => return None,
                c => Class::one(c),
            };
            let (min, max, used) = quantifier(&chars[i..])?;
            i += used;
            // A lazy quantifier matches the same strings as a greedy one.
            if used > 0 && chars.get(i) == Some(&'?') {
                i += 1;
            }
            items.push(Item { class, min, max });
        }
        for (k, item) in items.iter().enumerate() {
            if item.min == item.max {
                continue;
            }
            for later in items.iter().skip(k + 1) {
                if !item.class.is_disjoint(&later.class) {
                    return None;
                }
                if later.min > 0 {
                    break;
                }
            }
        }
        Some(ClassSequence {
            items: items.into(),
            to_end,
        })
    }

    /// Whether `s` matches: each item takes as many characters of its class
    /// as it may, and must have taken at least its minimum.
    pub(crate) fn is_match(&self, s: &str) -> bool {
        let b = s.as_bytes();
        let mut i = 0;
        for item in self.items.iter() {
            // ASCII first, a character per byte: the bitmap widened to all
            // byte values (none above 0x7F), so one test per byte. A byte
            // of a multi-byte character stops it, and the loop below goes on.
            let [lo, hi] = item.class.ascii;
            let map = [lo, hi, 0, 0];
            let run = b.get(i..).unwrap_or(&[]);
            let run = run.get(..item.max as usize).unwrap_or(run);
            let taken = run
                .iter()
                .position(|&x| map[usize::from(x >> 6)] >> (x & 63) & 1 == 0)
                .unwrap_or(run.len());
            i += taken;
            let mut n = taken as u32;
            while n < item.max {
                let Some(&x) = b.get(i) else { break };
                if x < 0x80 {
                    if !item.class.contains_ascii(x) {
                        break;
                    }
                    i += 1;
                } else {
                    let Some(c) = s.get(i..).and_then(|t| t.chars().next()) else {
                        break;
                    };
                    if !item.class.contains(c) {
                        break;
                    }
                    i += c.len_utf8();
                }
                n += 1;
            }
            if n < item.min {
                return false;
            }
        }
        !self.to_end || i == b.len()
    }
}

/// Reads a bracket class after its `[`: the class and the characters used
/// (the closing `]` included).
pub(super) fn bracket(chars: &[char]) -> Option<(Class, usize)> {
    let mut i = 0;
    let negated = chars.first() == Some(&'^');
    if negated {
        i += 1;
    }
    // `[]` and `[^]` (nothing and anything) are left to the regex path.
    if chars.get(i) == Some(&']') {
        return None;
    }
    let mut ranges = Ranges::new();
    loop {
        let c = *chars.get(i)?;
        i += 1;
        let lo = match c {
            ']' => break,
            '\\' => {
                let e = *chars.get(i)?;
                i += 1;
                if let Some((set, set_negated)) = class_escape(e) {
                    // A set cannot start a range.
                    if chars.get(i) == Some(&'-') && chars.get(i + 1) != Some(&']') {
                        return None;
                    }
                    ranges.extend(normalized(set, set_negated));
                    continue;
                }
                if !is_identity_escape(e) {
                    return None;
                }
                e
            }
            c => c,
        };
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&n| n != ']') {
            let mut hi = *chars.get(i + 1)?;
            i += 2;
            if hi == '\\' {
                let e = *chars.get(i)?;
                i += 1;
                if !is_identity_escape(e) {
                    return None;
                }
                hi = e;
            } else if hi == '[' {
                return None;
            }
            if hi < lo {
                return None;
            }
            ranges.push((lo as u32, hi as u32));
        } else {
            ranges.push((lo as u32, lo as u32));
        }
    }
    Some((Class::new(ranges, negated), i))
}

/// Reads an optional quantifier: `(min, max, characters used)`; `None` for
/// a `{` that does not read as a quantifier (a literal in ECMA-262, left to
/// the regex path), a count over [`MAX_COUNT`], or `min > max`.
pub(super) fn quantifier(chars: &[char]) -> Option<(u32, u32, usize)> {
    match chars.first() {
        Some('?') => Some((0, 1, 1)),
        Some('*') => Some((0, UNBOUNDED, 1)),
        Some('+') => Some((1, UNBOUNDED, 1)),
        Some('{') => {
            let mut i = 1;
            let min = count(chars, &mut i)?;
            let max = if chars.get(i) == Some(&',') {
                i += 1;
                if chars.get(i) == Some(&'}') {
                    UNBOUNDED
                } else {
                    count(chars, &mut i)?
                }
            } else {
                min
            };
            if chars.get(i) != Some(&'}') || min > max {
                return None;
            }
            Some((min, max, i + 1))
        }
        _ => Some((1, 1, 0)),
    }
}

fn count(chars: &[char], i: &mut usize) -> Option<u32> {
    let start = *i;
    let mut n = 0u32;
    while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(10)) {
        n = n.checked_mul(10)?.checked_add(d)?;
        *i += 1;
    }
    (*i > start && n <= MAX_COUNT).then_some(n)
}

/// The regex path as the oracle for this module's tests and the
/// automaton's: a fast matcher must agree with it wherever it reads a
/// pattern.
#[cfg(test)]
pub(super) mod oracle {
    use proptest::prelude::*;

    /// Each `(pattern, string, matches)` holds for the regex path and for
    /// `is_match(pattern, string)` (`what` names the matcher).
    pub(in crate::schema) fn examples(
        what: &str,
        cases: &[(&str, &str, bool)],
        is_match: impl Fn(&str, &str) -> bool,
    ) {
        for &(p, s, want) in cases {
            let re = crate::schema::pattern::ecma::compile(p).unwrap();
            assert_eq!(re.is_match(s), want, "regex: {p} on {s:?}");
            assert_eq!(is_match(p, s), want, "{what}: {p} on {s:?}");
        }
    }

    /// Where `is_match` is given (the pattern was read by the fast path),
    /// the regex path accepts `p` too and both agree on every string
    /// (written from indexes into `alphabet`).
    pub(in crate::schema) fn agrees(
        p: &str,
        is_match: Option<impl Fn(&str) -> bool>,
        strings: Vec<Vec<usize>>,
        alphabet: &[char],
    ) -> Result<(), TestCaseError> {
        let Some(is_match) = is_match else {
            return Ok(());
        };
        let re = crate::schema::pattern::ecma::compile(p);
        prop_assert!(
            re.is_ok(),
            "{} read here, refused by the regex path: {:?}",
            p,
            re
        );
        let re = re.unwrap();
        for s in strings {
            let s: String = s.into_iter().map(|i| alphabet[i]).collect();
            prop_assert_eq!(is_match(&s), re.is_match(&s), "{} on {:?}", p, s);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::ClassSequence;
    use proptest::prelude::*;

    #[test]
    fn shapes_that_are_read_and_shapes_left_to_regex() {
        for p in [
            r"^[a-z0-9_-]{3,32}$",
            r"^[A-Za-z][A-Za-z0-9-]*$",
            r"^\d{4}-\d{2}-\d{2}$",
            r"^[^\s]+$",
            r"^\w+\.\w+$",
            r"^x",
            r"^é{2}ü?$",
            r"^[\w.-]+@[\w-]+$",
        ] {
            assert!(ClassSequence::parse(p).is_some(), "{p}");
        }
        for p in [
            r"[a-z]+",                  // not anchored at the start
            r"^(/[A-Za-z0-9._-]+)+/?$", // a group
            r"^a|b$",                   // alternation
            r"^[a-z]*a$",               // a repetition overlapping what follows
            r"^a?b?a$",                 // the same, past an optional item
            r"^\bx",                    // \b
            r"^\u0041$",                // \u escape
            r"^a{2,1}$",                // min > max
            r"^a{5000}$",               // over MAX_COUNT
            r"^a{x}$",                  // a literal `{`
            r"^[]$",                    // the empty class
            r"^[\d-z]$",                // a set starting a range
            r"^[z-a]$",                 // a range out of order
            r"^a$b",                    // `$` not at the end
        ] {
            assert!(ClassSequence::parse(p).is_none(), "{p}");
        }
    }

    #[test]
    fn matches_as_the_regex_path_does_on_examples() {
        let cases = [
            (r"^[a-z0-9_-]{3,32}$", "dev_01", true),
            (r"^[a-z0-9_-]{3,32}$", "de", false),
            (r"^[a-z0-9_-]{3,32}$", "Dev_01", false),
            (r"^[A-Za-z][A-Za-z0-9-]*$", "code-nav", true),
            (r"^[A-Za-z][A-Za-z0-9-]*$", "9lives", false),
            (r"^\d{4}-\d{2}-\d{2}$", "2026-12-03", true),
            (r"^\d{4}-\d{2}-\d{2}$", "2026-12-3", false),
            (r"^x", "xyz", true),
            (r"^[^\s]+$", "a\u{3000}b", false),
            (r"^.+$", "a\u{2028}", false),
            (r"^é{2}ü?$", "ééü", true),
            (r"^\W$", "é", true),
        ];
        super::oracle::examples("sequence", &cases, |p, s| {
            ClassSequence::parse(p).unwrap().is_match(s)
        });
    }

    const ATOMS: &[&str] = &[
        "a",
        "b",
        "-",
        "é",
        r"\.",
        r"\-",
        ".",
        r"\d",
        r"\D",
        r"\w",
        r"\W",
        r"\s",
        r"\S",
        "[a-c]",
        "[^a]",
        "[ab1]",
        r"[\w-]",
        "[é-ü]",
        r"[^\d\s]",
        "[a-z0-9_-]",
        r"[\]\\]",
    ];
    const QUANTIFIERS: &[&str] = &["", "", "?", "*", "+", "{2}", "{1,3}", "{0,}", "+?"];
    const ALPHABET: &[char] = &[
        'a', 'b', 'c', '1', '-', '_', '.', ' ', 'é', '\n', 'ü', '€', ']', '\\',
    ];

    proptest! {
        // No regressions file: it would land outside the crate's layout;
        // a failure prints its minimal input.
        #![proptest_config(ProptestConfig {
            cases: 2000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        /// Wherever a pattern is read here, it matches exactly the strings
        /// the `regex` crate (through the ECMA translation) matches.
        #[test]
        fn agrees_with_the_regex_path(
            items in proptest::collection::vec((0..ATOMS.len(), 0..QUANTIFIERS.len()), 1..5),
            to_end in any::<bool>(),
            strings in proptest::collection::vec(
                proptest::collection::vec(0..ALPHABET.len(), 0..8), 1..12),
        ) {
            let mut p = String::from("^");
            for (a, q) in items {
                p.push_str(ATOMS[a]);
                p.push_str(QUANTIFIERS[q]);
            }
            if to_end {
                p.push('$');
            }
            prop_assert!(crate::schema::pattern::ecma::compile(&p).is_ok(), "{}", p);
            let seq = ClassSequence::parse(&p);
            super::oracle::agrees(&p, seq.map(|q| move |s: &str| q.is_match(s)), strings, ALPHABET)?;
        }
    }

    /// Pattern text from the characters that matter to the syntax: where
    /// it is read here, the regex path must accept it too, and agree.
    const SYNTAX: &[char] = &[
        '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/', '-', ',', 'a',
        'b', 'd', 'w', 's', 'D', 'u', 'x', '0', '1', '2', 'é',
    ];

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 20000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn text_read_here_is_valid_ecma_with_the_same_meaning(
            text in proptest::collection::vec(0..SYNTAX.len(), 0..10),
            strings in proptest::collection::vec(
                proptest::collection::vec(0..ALPHABET.len(), 0..6), 1..8),
        ) {
            let p: String = std::iter::once('^').chain(text.into_iter().map(|i| SYNTAX[i])).collect();
            let seq = ClassSequence::parse(&p);
            super::oracle::agrees(&p, seq.map(|q| move |s: &str| q.is_match(s)), strings, ALPHABET)?;
        }
    }

    #[test]
    fn most_generated_patterns_are_read() {
        // The property above is only worth something if the fast path is
        // taken: count how many single-item and two-item patterns are read.
        let mut read = 0;
        let mut all = 0;
        for a in ATOMS {
            for q in QUANTIFIERS {
                for b in ATOMS {
                    all += 1;
                    if ClassSequence::parse(&format!("^{a}{q}{b}$")).is_some() {
                        read += 1;
                    }
                }
            }
        }
        assert!(read * 2 > all, "{read} of {all}");
    }
}
