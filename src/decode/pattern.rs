//! `pattern` (and asserted `format`s) on a string being decoded: the
//! crate's class sequence or position automaton, or a format's hand-built
//! automaton (`super::forms`), stepped one code point at a time as the
//! JSON text decodes (escapes and UTF-8 sequences first), with the lengths
//! a match can still have worked out once, so that a prefix is refused as
//! soon as no continuation matches within `minLength` / `maxLength`.
//!
//! A class sequence (`^[a-z]{2,8}-\d+$`) is followed item by item: the
//! state is the item and how many characters it has taken (its greedy
//! pass is exact, see `schema::pattern::sequence`), and the lengths left
//! from there are one interval. A position automaton is followed as a set
//! of positions; a pattern without `^` / `$` gets a position of any
//! character before / after the body. The lengths left from each position
//! are found by stepping backwards from the last positions until the sets
//! repeat (then they repeat forever with the same period); a pattern
//! whose sets do not repeat within [`MAX_LENGTH_STEPS`] is refused.

use std::collections::HashMap;

use super::forms::Hand;
use crate::schema::decode_view::{Class, ClassSequence, Format, PositionAutomaton, Regular};

/// The most steps taken to find the lengths of a pattern's matches.
pub(crate) const MAX_LENGTH_STEPS: usize = 4096;

/// "No bound".
const NO_MAX: u64 = u64::MAX;

/// A format's exact form as a pattern the crate reads without a regex
/// (each equal to the format checker's, held by a test), if it has one.
pub(crate) fn format_form(f: Format) -> Option<&'static str> {
    Some(match f {
        Format::Uuid => {
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
        }
        // Days by month, and 29 February in leap years (divisible by 4
        // but not 100, or by 400). The empty group keeps the two anchors
        // on the whole alternation.
        Format::Date => concat!(
            r"^(?:\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])",
            r"|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))",
            r"|(?:\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)(?:)$"
        ),
        // Four decimal octets up to 255, without leading zeros.
        Format::Ipv4 => concat!(
            r"^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)",
            r"\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$"
        ),
        // RFC 3339 appendix A: weeks alone, or a date part of units in
        // order with no gap (Y M D, M D, D) and an optional time part
        // (H M S, M S, S), or a time part alone.
        Format::Duration => concat!(
            r"^P(?:\d+W|(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)",
            r"(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?",
            r"|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))$"
        ),
        // Empty, or `/` then anything where each `~` is `~0` or `~1`.
        Format::JsonPointer => r"^(?:/(?:[^~]|~[01])*)?$",
        Format::RelativeJsonPointer => r"^(?:0|[1-9]\d*)(?:#|(?:/(?:[^~]|~[01])*)?)$",
        _ => return None,
    })
}

/// Where a string's text is (the step automaton's string state, without
/// the byte ranges a UTF-8 sequence still allows): plain text, after `\`,
/// inside `\uXXXX` (`n` digits read, `val` so far; `low`: the second of a
/// surrogate pair), after a high surrogate, or `need` bytes short of a
/// UTF-8 sequence's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Text {
    Normal,
    Esc,
    Hex { n: u8, val: u16, low: bool },
    NeedLow { slash: bool },
    Utf8 { need: u8 },
}

/// Where a patterned string is: the pattern's state (a set of positions,
/// or `item << 32 | taken` for a class sequence; 0 before the first
/// character) and the bits of a code point being decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PatState {
    at: u64,
    /// UTF-8: the value bits so far, and the sequence's length at bit 24.
    /// After a high surrogate: its value.
    acc: u32,
}

#[derive(Debug)]
struct Item {
    class: Class,
    min: u64,
    /// `NO_MAX` when unbounded.
    max: u64,
}

#[derive(Debug)]
struct Seq {
    items: Box<[Item]>,
    to_end: bool,
    /// Whether the last item is unbounded over a class that takes every
    /// character of a plain token.
    last_plain: bool,
    /// The sum of `min` / `max` of the items from each one on (one more
    /// entry, 0, at the end).
    suffix_min: Box<[u64]>,
    suffix_max: Box<[u64]>,
}

#[derive(Debug)]
struct Auto {
    classes: Box<[Class]>,
    /// For each ASCII character, the positions whose class holds it.
    ascii: Box<[u64; 128]>,
    follow: Box<[u64]>,
    first: u64,
    last: u64,
    nullable: bool,
    /// `rs[l]`: the positions from which `l` more characters can end a
    /// match; past `rs.len()`, it repeats from `pre` with `period`.
    rs: Box<[u64]>,
    pre: usize,
    period: usize,
    /// `within[l]`: the union of `rs[..=l]`.
    within: Box<[u64]>,
    /// `from[l]`: the union of `rs[l..]` and of the repeating part.
    from: Box<[u64]>,
    /// The union of the repeating part.
    cycle: u64,
    /// Positions past a match that take any character of a plain token
    /// and stay (what follows a pattern without `$`, a `.*$`): from them,
    /// any plain text matches.
    free: u64,
    /// Positions that take any character of a plain token and stay, from
    /// which a match can end (what comes before a pattern without `^`,
    /// and `free`): from them, with no `maxLength`, any plain text keeps a
    /// match possible.
    alive: u64,
}

#[derive(Debug)]
enum Form {
    Seq(Seq),
    Auto(Auto),
    /// A format no pattern here states (`date-time`, `uri`, ...).
    Hand(Hand),
}

/// The code points no plain token holds.
pub(crate) const PLAIN_EXCLUDED: &[(u32, u32)] =
    &[(0, 0x1F), (0x22, 0x22), (0x5C, 0x5C), (0x2028, 0x2029)];

/// A pattern a string must match while it is decoded.
#[derive(Debug)]
pub(crate) struct StrPattern {
    form: Form,
}

/// Why a regular form cannot be decoded.
pub(crate) type Refusal = &'static str;

fn sat_add(a: u64, b: u64) -> u64 {
    if a == NO_MAX || b == NO_MAX {
        NO_MAX
    } else {
        a.saturating_add(b)
    }
}

fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            p
        })
    })
}

impl StrPattern {
    /// The decoding form of a pattern's regular form.
    pub(crate) fn new(r: Regular<'_>) -> Result<StrPattern, Refusal> {
        Ok(StrPattern {
            form: match r {
                Regular::Sequence(s) => Form::Seq(Seq::new(s)),
                Regular::Automaton(a) => Form::Auto(Auto::new(a)?),
            },
        })
    }

    /// The hand-built form of an asserted format, if it has one.
    pub(crate) fn hand_built(f: Format) -> Option<StrPattern> {
        Hand::of(f).map(|h| StrPattern {
            form: Form::Hand(h),
        })
    }

    /// Whether the string may end in state `st` (a whole code point read).
    pub(crate) fn accepts(&self, st: PatState) -> bool {
        match &self.form {
            Form::Hand(h) => h.accepts(st.at),
            Form::Seq(s) => {
                let (k, n) = s.norm(st.at);
                s.accepting(k, n)
            }
            Form::Auto(a) => {
                if st.at == 0 {
                    a.nullable
                } else {
                    st.at & a.last != 0
                }
            }
        }
    }

    /// Whether in state `st` every continuation matches (only the lengths
    /// then count): the mask may take the string's plain tokens as a set.
    pub(crate) fn is_free(&self, st: PatState) -> bool {
        match &self.form {
            Form::Seq(s) => {
                let k = s.norm(st.at).0;
                (!s.to_end && k == s.items.len()) || s.last_takes_plain(k)
            }
            Form::Auto(a) => st.at & a.free != 0,
            Form::Hand(_) => false,
        }
    }

    /// For a format's hand-built automaton: a key for state `st` the same
    /// under every constraint (the tokens that stay inside the string
    /// depend on nothing else when no length bound is left).
    pub(crate) fn shared_key(&self, st: PatState) -> Option<(u8, PatState)> {
        match &self.form {
            Form::Hand(h) => Some((*h as u8, st)),
            _ => None,
        }
    }

    /// For a format's hand-built automaton: the state with the most room
    /// that steps as `st` does until a count binds, and how many
    /// characters that takes (see `Hand::canon`).
    pub(crate) fn canon(&self, st: PatState) -> (PatState, u64) {
        match &self.form {
            Form::Hand(h) if st.acc == 0 => {
                let (at, room) = h.canon(st.at);
                (PatState { at, acc: 0 }, room)
            }
            _ => (st, u64::MAX),
        }
    }

    /// Whether in state `st`, with no `maxLength`, every continuation
    /// keeps a match possible: the mask may take the string's plain tokens
    /// as a set.
    pub(crate) fn always_viable(&self, st: PatState) -> bool {
        match &self.form {
            Form::Auto(a) => {
                let set = if st.at == 0 { a.first } else { st.at };
                set & a.alive != 0
            }
            _ => self.is_free(st),
        }
    }

    /// The printable ASCII characters other than `"` and `\` that take
    /// state `st` (a whole code point read) back to itself: a run of them
    /// leaves the pattern where it is.
    pub(crate) fn loop_class(&self, st: PatState) -> u128 {
        if st.acc != 0 {
            return 0;
        }
        (0x20u8..0x7f)
            .filter(|&c| c != b'"' && c != b'\\')
            .filter(|&c| self.step_char(st.at, char::from(c)) == Some(st.at))
            .fold(0u128, |u, c| u | 1 << c)
    }

    fn step_char(&self, at: u64, c: char) -> Option<u64> {
        match &self.form {
            Form::Seq(s) => s.step(at, c),
            Form::Auto(a) => a.step(at, c),
            Form::Hand(h) => h.step(at, c),
        }
    }

    /// Whether from state `at` a match ends after `a..=b` more characters.
    fn viable(&self, at: u64, a: u64, b: u64) -> bool {
        match &self.form {
            Form::Seq(s) => s.viable(at, a, b),
            Form::Auto(q) => q.viable(at, a, b),
            Form::Hand(h) => h.viable(at, a, b),
        }
    }

    /// A code point in `ranges` after which a match ends after `a..=b`
    /// more characters.
    fn pick_pending(&self, at: u64, ranges: &[(u32, u32)], a: u64, b: u64) -> Option<char> {
        match &self.form {
            Form::Seq(s) => s.pick_pending(at, ranges, a, b),
            Form::Auto(q) => q.pick_pending(at, ranges, a, b),
            Form::Hand(h) => h.pick_pending(at, ranges, a, b),
        }
    }

    /// The state after byte `b` of the string's text, read in string state
    /// `sx` (`nsx` after it; `done`: a code point was completed), or `None`
    /// when no continuation matches with a length in `min..=max` code
    /// points; `n`: the code points with the byte (a pending one counted).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn step(
        &self,
        st: PatState,
        sx: Text,
        b: u8,
        nsx: Text,
        done: bool,
        min: u64,
        max: u64,
        n: u64,
    ) -> Option<PatState> {
        let lo = min.saturating_sub(n);
        let hi = if max == NO_MAX {
            NO_MAX
        } else {
            max.checked_sub(n)?
        };
        if done {
            let c = completed(st, sx, b)?;
            let at = self.step_char(st.at, c)?;
            return self.viable(at, lo, hi).then_some(PatState { at, acc: 0 });
        }
        let acc = pending_acc(st, sx, b, nsx);
        let next = PatState { at: st.at, acc };
        let ranges = pending_ranges(next, nsx);
        let ok = self.pick_pending(st.at, &ranges, lo, hi).is_some();
        ok.then_some(next)
    }

    /// The shortest characters that take state `at` (a whole code point
    /// read, `n` of them) to a match with `min..=max` code points in all.
    fn rest(&self, at: u64, min: u64, max: u64, n: u64) -> Option<Vec<char>> {
        let lo = min.saturating_sub(n);
        let hi = if max == NO_MAX {
            NO_MAX
        } else {
            max.checked_sub(n)?
        };
        match &self.form {
            Form::Seq(s) => s.rest(at, lo, hi),
            Form::Auto(a) => a.rest(at, lo, hi),
            Form::Hand(h) => h.rest(at, lo, hi.min(MAX_REST)),
        }
    }

    /// The shortest JSON string (quotes included) of `min..=max` code
    /// points that matches.
    pub(crate) fn shortest_text(&self, min: u64, max: u64) -> Option<Vec<u8>> {
        let chars = self.rest(0, min, max, 0)?;
        let mut out = vec![b'"'];
        for c in chars {
            push_json_char(&mut out, c);
        }
        out.push(b'"');
        Some(out)
    }

    /// The bytes that finish a string in state (`st`, `sx`) with `chars`
    /// code points read, closing quote included: the pending code point
    /// (one that keeps a match possible), then the shortest match.
    pub(crate) fn finish(
        &self,
        st: PatState,
        sx: Text,
        chars: u64,
        min: u64,
        max: u64,
    ) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let mut at = st.at;
        let mut n = chars;
        if sx != Text::Normal {
            // A code point is pending: one in its ranges that a match
            // continues from.
            let ranges = pending_ranges(st, sx);
            n += 1;
            let lo = min.saturating_sub(n);
            let hi = if max == NO_MAX {
                NO_MAX
            } else {
                max.checked_sub(n)?
            };
            let c = self.pick_pending(at, &ranges, lo, hi)?;
            finish_code_point(&mut out, st, sx, c);
            at = self.step_char(at, c)?;
        }
        for c in self.rest(at, min, max, n)? {
            push_json_char(&mut out, c);
        }
        out.push(b'"');
        Some(out)
    }
}

/// The code point that byte `b` completes, in string state `sx`.
fn completed(st: PatState, sx: Text, b: u8) -> Option<char> {
    let cp = match sx {
        Text::Normal => u32::from(b),
        Text::Utf8 { .. } => (st.acc & 0xFF_FFFF) << 6 | u32::from(b & 0x3F),
        Text::Esc => u32::from(match b {
            b'b' => 8,
            b'f' => 0xC,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            other => other,
        }),
        Text::Hex { val, low, .. } => {
            let v = u32::from(val) << 4 | hex(b)?;
            if low {
                0x10000 + ((st.acc - 0xD800) << 10) + (v - 0xDC00)
            } else {
                v
            }
        }
        Text::NeedLow { .. } => return None,
    };
    char::from_u32(cp)
}

fn hex(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// The new accumulator after byte `b` that leaves a code point pending.
fn pending_acc(st: PatState, sx: Text, b: u8, nsx: Text) -> u32 {
    match (sx, nsx) {
        (Text::Normal, Text::Utf8 { need, .. }) => {
            let len = u32::from(need) + 1;
            let bits = u32::from(b) & (0x7F >> len);
            bits | len << 24
        }
        (Text::Utf8 { .. }, Text::Utf8 { .. }) => {
            let len = st.acc >> 24;
            ((st.acc & 0xFF_FFFF) << 6 | u32::from(b & 0x3F)) | len << 24
        }
        // A high surrogate is whole: keep it for its low half.
        (Text::Hex { val, .. }, Text::NeedLow { .. }) => u32::from(val) << 4 | hex(b).unwrap_or(0),
        _ => st.acc,
    }
}

/// The code points a pending one may still be (at most two ranges).
fn pending_ranges(st: PatState, sx: Text) -> Vec<(u32, u32)> {
    let pair = |high: u32, lo: u32, hi: u32| {
        let base = 0x10000 + ((high.clamp(0xD800, 0xDBFF) - 0xD800) << 10);
        (base + (lo - 0xDC00), base + (hi - 0xDC00))
    };
    match sx {
        Text::Normal => vec![(0, 0x10FFFF)],
        Text::Esc => vec![(0, 0x10FFFF)],
        Text::Utf8 { need, .. } => {
            let len = st.acc >> 24;
            let shift = 6 * u32::from(need);
            let lo = (st.acc & 0xFF_FFFF) << shift;
            let hi = lo | ((1 << shift) - 1);
            let (a, b) = match len {
                2 => (0x80, 0x7FF),
                3 => (0x800, 0xFFFF),
                _ => (0x10000, 0x10FFFF),
            };
            vec![(lo.max(a), hi.min(b))]
        }
        Text::Hex { n, val, low } => {
            let shift = 4 * (4 - u32::from(n));
            let lo = u32::from(val) << shift;
            let hi = lo | ((1 << shift) - 1);
            if low {
                let (l, h) = (lo.max(0xDC00), hi.min(0xDFFF));
                return if l <= h {
                    vec![pair(st.acc, l, h)]
                } else {
                    Vec::new()
                };
            }
            let mut out = vec![(lo, hi)];
            // High surrogates in the range open supplementary code points.
            let (l, h) = (lo.max(0xD800), hi.min(0xDBFF));
            if l <= h {
                out.push((pair(l, 0xDC00, 0xDC00).0, pair(h, 0xDFFF, 0xDFFF).1));
            }
            out
        }
        Text::NeedLow { .. } => vec![pair(st.acc, 0xDC00, 0xDFFF)],
    }
}

/// Writes the rest of code point `c`, whose text began in state `sx`.
fn finish_code_point(out: &mut Vec<u8>, st: PatState, sx: Text, c: char) {
    let cp = c as u32;
    let hex4 = |v: u32| format!("{v:04x}").into_bytes();
    let (high, low) = if cp >= 0x10000 {
        let v = cp - 0x10000;
        (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
    } else {
        (cp, 0)
    };
    match sx {
        Text::Normal => push_json_char(out, c),
        Text::Utf8 { need, .. } => {
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf).as_bytes();
            out.extend_from_slice(&s[s.len() - usize::from(need)..]);
        }
        Text::Esc => {
            let mut t = Vec::new();
            push_json_char(&mut t, c);
            if t.first() == Some(&b'\\') {
                out.extend_from_slice(&t[1..]);
            } else {
                out.push(b'u');
                out.extend(hex4(high));
                if cp >= 0x10000 {
                    out.extend_from_slice(b"\\u");
                    out.extend(hex4(low));
                }
            }
        }
        Text::Hex { n, low: false, .. } => {
            out.extend_from_slice(&hex4(high)[usize::from(n)..]);
            if cp >= 0x10000 {
                out.extend_from_slice(b"\\u");
                out.extend(hex4(low));
            }
        }
        Text::Hex { n, low: true, .. } => out.extend_from_slice(&hex4(low)[usize::from(n)..]),
        Text::NeedLow { slash } => {
            out.extend_from_slice(if slash { b"u" } else { b"\\u" });
            out.extend(hex4(low));
        }
    }
    let _ = st;
}

/// Writes `c` as JSON string text.
pub(crate) fn push_json_char(out: &mut Vec<u8>, c: char) {
    match c {
        '"' => out.extend_from_slice(b"\\\""),
        '\\' => out.extend_from_slice(b"\\\\"),
        '\n' => out.extend_from_slice(b"\\n"),
        '\r' => out.extend_from_slice(b"\\r"),
        '\t' => out.extend_from_slice(b"\\t"),
        c if (c as u32) < 0x20 => out.extend(format!("\\u{:04x}", c as u32).into_bytes()),
        c => {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
}

fn any_in(class: &Class, ranges: &[(u32, u32)]) -> Option<char> {
    ranges.iter().find_map(|&(lo, hi)| class.first_in(lo, hi))
}

fn first_char_in(ranges: &[(u32, u32)]) -> Option<char> {
    any_in(&Class::any(), ranges)
}

/// The most characters a completion writes.
const MAX_REST: u64 = 1 << 20;

impl Seq {
    fn new(s: &ClassSequence) -> Seq {
        let (items, to_end) = s.items();
        let items: Box<[Item]> = items
            .map(|(c, min, max)| {
                let max = if max == u32::MAX {
                    NO_MAX
                } else {
                    u64::from(max)
                };
                // A class with no character JSON text can hold takes none.
                let max = if c.sample().is_some() { max } else { 0 };
                Item {
                    class: c.clone(),
                    min: u64::from(min),
                    max,
                }
            })
            .collect();
        let n = items.len();
        let mut suffix_min = vec![0u64; n + 1];
        let mut suffix_max = vec![0u64; n + 1];
        for k in (0..n).rev() {
            // An item that cannot take its minimum makes the rest fail.
            let (lo, hi) = if items[k].min > items[k].max {
                (NO_MAX, 0)
            } else {
                (items[k].min, items[k].max)
            };
            suffix_min[k] = sat_add(lo, suffix_min[k + 1]);
            suffix_max[k] = sat_add(hi, suffix_max[k + 1]);
        }
        let last_plain = items
            .last()
            .is_some_and(|it| it.max == NO_MAX && it.class.holds_all_but(PLAIN_EXCLUDED));
        Seq {
            items,
            to_end,
            last_plain,
            suffix_min: suffix_min.into(),
            suffix_max: suffix_max.into(),
        }
    }

    /// Whether `k` is the last item, unbounded, over a class that takes
    /// every character of a plain token (a `.*$`): in it, any plain text
    /// keeps a match possible.
    fn last_takes_plain(&self, k: usize) -> bool {
        self.last_plain && k + 1 == self.items.len()
    }

    fn enc(k: usize, n: u64) -> u64 {
        (k as u64) << 32 | n
    }

    fn accepting(&self, k: usize, n: u64) -> bool {
        match self.items.get(k) {
            None => true,
            Some(it) => n >= it.min && self.suffix_min[k + 1] == 0,
        }
    }

    /// The state as (item, taken), a match already made without `$`
    /// taken to the end (anything may follow it).
    fn norm(&self, at: u64) -> (usize, u64) {
        let (k, n) = ((at >> 32) as usize, at & 0xFFFF_FFFF);
        if !self.to_end && self.accepting(k, n) {
            (self.items.len(), 0)
        } else {
            (k, n)
        }
    }

    /// Item `k` having taken `n`: an unbounded item that has its minimum
    /// counts no further (the state stays small and equal).
    fn taken(&self, k: usize, n: u64) -> u64 {
        let it = &self.items[k];
        if it.max == NO_MAX { n.min(it.min) } else { n }
    }

    /// The lengths a match may still take from (`k`, `n`).
    fn lengths(&self, k: usize, n: u64) -> (u64, u64) {
        let Some(it) = self.items.get(k) else {
            return (0, if self.to_end { 0 } else { NO_MAX });
        };
        if it.min > it.max || self.suffix_min[k + 1] == NO_MAX {
            return (1, 0);
        }
        let lo = it.min.saturating_sub(n) + self.suffix_min[k + 1];
        let hi = if self.to_end {
            let here = if it.max == NO_MAX { NO_MAX } else { it.max - n };
            sat_add(here, self.suffix_max[k + 1])
        } else {
            NO_MAX
        };
        (lo, hi)
    }

    fn viable(&self, at: u64, a: u64, b: u64) -> bool {
        let (k, n) = self.norm(at);
        let (lo, hi) = self.lengths(k, n);
        a.max(lo) <= b.min(hi)
    }

    fn step(&self, at: u64, c: char) -> Option<u64> {
        let (mut k, mut n) = self.norm(at);
        loop {
            let Some(it) = self.items.get(k) else {
                return (!self.to_end).then_some(Seq::enc(k, 0));
            };
            if n < it.max && it.class.contains(c) {
                return Some(Seq::enc(k, self.taken(k, n + 1)));
            }
            if n < it.min {
                return None;
            }
            k += 1;
            n = 0;
        }
    }

    /// The first state a pending code point in `ranges` may lead to that
    /// a match continues from, and a character that leads there. The
    /// items a character may go to are told apart by their classes (see
    /// `schema::pattern::sequence`: an item of varying count is disjoint
    /// from the ones it may give way to).
    fn pick_pending(&self, at: u64, ranges: &[(u32, u32)], a: u64, b: u64) -> Option<char> {
        let (mut k, mut n) = self.norm(at);
        loop {
            let Some(it) = self.items.get(k) else {
                return if !self.to_end && self.viable(Seq::enc(k, 0), a, b) {
                    first_char_in(ranges)
                } else {
                    None
                };
            };
            if n < it.max
                && let Some(c) = any_in(&it.class, ranges)
                && self.viable(Seq::enc(k, self.taken(k, n + 1)), a, b)
            {
                return Some(c);
            }
            if n < it.min {
                return None;
            }
            k += 1;
            n = 0;
        }
    }

    fn rest(&self, at: u64, a: u64, b: u64) -> Option<Vec<char>> {
        let (k, n) = self.norm(at);
        let (lo, hi) = self.lengths(k, n);
        let t = a.max(lo);
        if t > b.min(hi) || t > MAX_REST {
            return None;
        }
        let mut extra = t - lo;
        let mut out = Vec::new();
        for (j, it) in self.items.iter().enumerate().skip(k) {
            let have = if j == k { n } else { 0 };
            let need = it.min.saturating_sub(have);
            let room = if it.max == NO_MAX {
                NO_MAX
            } else {
                it.max - have.max(it.min)
            };
            let take = need + extra.min(room);
            extra -= extra.min(room);
            if take > 0 {
                let c = it.class.sample()?;
                out.extend(std::iter::repeat_n(c, take as usize));
            }
        }
        out.extend(std::iter::repeat_n('a', extra as usize));
        Some(out)
    }
}

impl Auto {
    fn new(a: &PositionAutomaton) -> Result<Auto, Refusal> {
        let p = a.parts();
        let mut classes: Vec<Class> = p.classes.to_vec();
        let mut follow: Vec<u64> = p.follow.to_vec();
        let (mut first, mut last, mut nullable) = (p.first, p.last, p.nullable);
        if nullable && !(p.anchored_start && p.anchored_end) {
            // The empty match, anywhere: every string matches.
            classes = vec![Class::any()];
            follow = vec![1];
            first = 1;
            last = 1;
            nullable = true;
        } else {
            if !p.anchored_start {
                // Anything before the match: a looping position of any
                // character ahead of the first ones.
                let x = classes.len();
                if x >= 64 {
                    return Err("more than 63 positions in a pattern without `^`");
                }
                classes.push(Class::any());
                follow.push(1 << x | first);
                first |= 1 << x;
            }
            if !p.anchored_end {
                // Anything after it: one after the last ones.
                let z = classes.len();
                if z >= 64 {
                    return Err("more than 63 positions in a pattern without `^` or `$`");
                }
                classes.push(Class::any());
                follow.push(1 << z);
                for q in bits(last) {
                    follow[q] |= 1 << z;
                }
                last |= 1 << z;
            }
        }
        // Positions whose class JSON text cannot hold are never reached.
        let mut live = 0u64;
        for (q, c) in classes.iter().enumerate() {
            if c.sample().is_some() {
                live |= 1 << q;
            }
        }
        for f in &mut follow {
            *f &= live;
        }
        first &= live;
        last &= live;
        let mut ascii = Box::new([0u64; 128]);
        for (q, c) in classes.iter().enumerate() {
            for (ch, set) in ascii.iter_mut().enumerate() {
                if c.contains(char::from(ch as u8)) {
                    *set |= 1 << q;
                }
            }
        }
        // The positions `l` characters from a match's end, by `l`.
        let mut rs = vec![last];
        let mut seen: HashMap<u64, usize> = HashMap::new();
        seen.insert(last, 0);
        let (pre, period) = loop {
            let prev = rs[rs.len() - 1];
            let mut next = 0u64;
            for (q, f) in follow.iter().enumerate() {
                if f & prev != 0 {
                    next |= 1 << q;
                }
            }
            if let Some(&i) = seen.get(&next) {
                break (i, rs.len() - i);
            }
            if rs.len() >= MAX_LENGTH_STEPS {
                return Err("the lengths of its matches do not settle into a period");
            }
            seen.insert(next, rs.len());
            rs.push(next);
        };
        let mut within = rs.clone();
        for l in 1..within.len() {
            within[l] |= within[l - 1];
        }
        let mut from = rs.clone();
        for l in (0..from.len().saturating_sub(1)).rev() {
            from[l] |= from[l + 1];
        }
        let cycle = rs[pre..].iter().fold(0, |u, &s| u | s);
        // A class that takes every character a plain token can hold (`.`,
        // `[^\n]`, any) takes every plain token.
        let takes_plain: Vec<bool> = classes
            .iter()
            .map(|c| c.holds_all_but(PLAIN_EXCLUDED))
            .collect();
        let mut free = 0u64;
        for q in 0..classes.len() {
            if last & follow[q] & (1 << q) != 0 && takes_plain[q] {
                free |= 1 << q;
            }
        }
        let alive = (0..classes.len())
            .filter(|&q| follow[q] & 1 << q != 0 && takes_plain[q] && from[0] & 1 << q != 0)
            .fold(0u64, |u, q| u | 1 << q);
        Ok(Auto {
            classes: classes.into(),
            ascii,
            follow: follow.into(),
            first,
            last,
            nullable,
            rs: rs.into(),
            pre,
            period,
            within: within.into(),
            from: from.into(),
            cycle,
            free,
            alive,
        })
    }

    fn r(&self, l: u64) -> u64 {
        let n = self.rs.len() as u64;
        if l < n {
            self.rs[l as usize]
        } else {
            let pre = self.pre as u64;
            self.rs[(pre + (l - pre) % self.period as u64) as usize]
        }
    }

    /// Whether from a set `s` of positions a match ends after some number
    /// of characters in `a..=b`.
    fn set_viable(&self, s: u64, a: u64, b: u64) -> bool {
        if a > b || s == 0 {
            return false;
        }
        let n = self.rs.len() as u64;
        if a == 0 {
            let all = self.within[self.within.len() - 1];
            return s & if b < n { self.within[b as usize] } else { all } != 0;
        }
        if b == NO_MAX {
            return s & if a < n {
                self.from[a as usize]
            } else {
                self.cycle
            } != 0;
        }
        let (pre, period) = (self.pre as u64, self.period as u64);
        let end = b.min(a.max(pre) + period - 1);
        (a..=end).any(|l| s & self.r(l) != 0)
    }

    fn viable(&self, at: u64, a: u64, b: u64) -> bool {
        if at != 0 {
            return self.set_viable(at, a, b);
        }
        (a == 0 && self.nullable)
            || (b >= 1
                && self.set_viable(
                    self.first,
                    a.saturating_sub(1),
                    if b == NO_MAX { NO_MAX } else { b - 1 },
                ))
    }

    fn reach(&self, at: u64) -> u64 {
        if at == 0 {
            self.first
        } else {
            bits(at).fold(0, |u, q| u | self.follow[q])
        }
    }

    fn step(&self, at: u64, c: char) -> Option<u64> {
        let reach = self.reach(at);
        let next = if (c as u32) < 0x80 {
            self.ascii[c as usize] & reach
        } else {
            bits(reach)
                .filter(|&q| self.classes[q].contains(c))
                .fold(0, |u, q| u | 1 << q)
        };
        (next != 0).then_some(next)
    }

    fn pick_pending(&self, at: u64, ranges: &[(u32, u32)], a: u64, b: u64) -> Option<char> {
        bits(self.reach(at)).find_map(|q| {
            let c = any_in(&self.classes[q], ranges)?;
            self.set_viable(1 << q, a, b).then_some(c)
        })
    }

    /// Whether a match ends exactly `l` characters from `at`.
    fn ends_after(&self, at: u64, l: u64) -> bool {
        if at != 0 {
            return at & self.r(l) != 0;
        }
        if l == 0 {
            self.nullable
        } else {
            self.first & self.r(l - 1) != 0
        }
    }

    fn rest(&self, at: u64, a: u64, b: u64) -> Option<Vec<char>> {
        let (pre, period) = (self.pre as u64, self.period as u64);
        let end = b.min(a.max(pre + 1) + period).min(MAX_REST);
        let l = (a..=end).find(|&l| self.ends_after(at, l))?;
        let mut cur = at;
        let mut out = Vec::with_capacity(l as usize);
        for rem in (1..=l).rev() {
            let want = self.reach(cur) & self.r(rem - 1);
            if want == 0 {
                return None;
            }
            let c = self.classes[want.trailing_zeros() as usize].sample()?;
            cur = self.step(cur, c)?;
            out.push(c);
        }
        Some(out)
    }
}

#[cfg(test)]
impl StrPattern {
    /// Whether `s` matches, character by character.
    pub(crate) fn matches(&self, s: &str) -> bool {
        let mut at = 0u64;
        for c in s.chars() {
            match self.step_char(at, c) {
                Some(n) => at = n,
                None => return false,
            }
        }
        self.accepts(PatState { at, acc: 0 })
    }
}
