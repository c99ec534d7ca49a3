//! `pattern`s built from character classes with groups, alternation and
//! quantifiers, such as `^(/[A-Za-z0-9._-]+)+/?$`, `^(get|set)_[a-z]+$` or
//! `[0-9]{3}`, matched by a position automaton (Glushkov's construction)
//! run bit-parallel over a `u64`, with no regex built.
//!
//! Each character class in the (expanded) pattern is one position; the
//! automaton's state is the set of positions that the text read so far can
//! end on, and one character moves it to the positions that may follow any
//! of them and whose class holds the character. That is exact for any
//! regular expression over classes (no backtracking, no greedy guess), and
//! costs a few table loads per character: the positions that may follow
//! the state, one load per group of eight positions up to the highest live
//! one (one load in all while they are among the first eight), then those
//! whose class holds the character, one more load for ASCII. The follow
//! tables come out of a budget per compiled schema
//! ([`FOLLOW_TABLE_BUDGET`]); an automaton past it joins the follow sets of
//! the live positions one by one.
//!
//! What is read here: classes (`[...]`, `\d` `\w` `\s` and their negations,
//! `.`, literal characters and identity escapes, as [`super::sequence`]
//! reads them), groups `(...)` and `(?:...)`, `|`, the quantifiers `?` `*`
//! `+` `{n}` `{n,}` `{n,m}` (lazy or not: the same strings match), `^` as
//! the first character and `$` as the last. Anything else (look-around,
//! back references, `\b`, `\u`, named groups, anchors elsewhere, a `{` that
//! is not a quantifier) and any pattern that needs more than 64 positions
//! is left to the `regex` crate.

use super::sequence::{Class, MAX_COUNT, UNBOUNDED, bracket, dot, escape_class, quantifier};

/// Positions in one automaton (bits of a `u64`).
const MAX_POSITIONS: usize = 64;

/// Groups nested deeper than this are left to the `regex` crate.
const MAX_NESTING: u32 = 32;

/// Follow-table entries (8 bytes each) one compiled schema may spend on
/// its automata, 64 KiB: the usual tool schema's few patterns take a few
/// hundred, while a hostile schema of thousands of large patterns would
/// otherwise take up to 16 KiB more per pattern (a 1 MB schema, 545 MB).
/// Automata past the budget join follow sets bit by bit instead.
pub(crate) const FOLLOW_TABLE_BUDGET: usize = 8192;

/// A pattern read into a tree before positions are numbered.
#[derive(Clone, Debug)]
enum Ast {
    Class(Class),
    Concat(Vec<Ast>),
    Alt(Vec<Ast>),
    Repeat(Box<Ast>, u32, u32),
}

/// A matcher for one pattern: see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct PositionAutomaton {
    /// The class of each position (for characters from U+0080 up).
    classes: Box<[Class]>,
    /// For each ASCII character, the positions whose class holds it.
    ascii: Box<[u64; 128]>,
    /// For each position, the positions that may come right after it.
    follow: Box<[u64]>,
    /// The same by table, when the schema's budget allowed it (else
    /// empty): the set is read eight positions at a time, and for each
    /// group of eight, `follow_of[group * 256 + bits]` is the union of
    /// the follow sets of the positions in `bits` (see [`follow_tables`]).
    follow_of: Box<[u64]>,
    /// Positions a match may start with.
    first: u64,
    /// Positions a match may end with.
    last: u64,
    /// Whether the empty string matches the body.
    nullable: bool,
    /// `^`: the match must start at the start of the string.
    anchored_start: bool,
    /// `$`: the match must end at the end of the string.
    anchored_end: bool,
}

/// First, last and nullable of a fragment of the automaton.
#[derive(Clone, Copy)]
struct Fragment {
    nullable: bool,
    first: u64,
    last: u64,
}

const EMPTY: Fragment = Fragment {
    nullable: true,
    first: 0,
    last: 0,
};

/// Entries per group of eight positions in [`follow_tables`].
fn follow_stride(positions: usize) -> usize {
    1 << positions.min(8)
}

/// The number of entries [`follow_tables`] makes for `positions`.
fn follow_table_len(positions: usize) -> usize {
    positions.div_ceil(8) * follow_stride(positions)
}

/// For each group of eight positions (the last one maybe shorter), the
/// union of the follow sets of every subset of the group, indexed by the
/// subset's bits: built in one pass, each entry the entry without its
/// lowest bit joined with that bit's follow set. At most 8 groups of 256
/// entries (16 KiB) for the largest automaton, 8 entries for three
/// positions.
fn follow_tables(follow: &[u64]) -> Box<[u64]> {
    let stride = follow_stride(follow.len());
    let mut table = Vec::with_capacity(follow_table_len(follow.len()));
    for group in follow.chunks(8) {
        let at = table.len();
        table.push(0);
        for subset in 1..stride {
            let without_lowest = table
                .get(at + (subset & (subset - 1)))
                .copied()
                .unwrap_or(0);
            let lowest = group
                .get(subset.trailing_zeros() as usize)
                .copied()
                .unwrap_or(0);
            table.push(without_lowest | lowest);
        }
    }
    table.into()
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

/// Numbers positions and gathers the follow sets.
struct Builder {
    classes: Vec<Class>,
    follow: Vec<u64>,
}

impl Builder {
    fn build(&mut self, ast: &Ast) -> Option<Fragment> {
        Some(match ast {
            Ast::Class(c) => {
                if self.classes.len() == MAX_POSITIONS {
                    return None;
                }
                let p = 1u64 << self.classes.len();
                self.classes.push(c.clone());
                self.follow.push(0);
                Fragment {
                    nullable: false,
                    first: p,
                    last: p,
                }
            }
            Ast::Concat(items) => {
                let mut f = EMPTY;
                for item in items {
                    let g = self.build(item)?;
                    f = self.then(f, g);
                }
                f
            }
            Ast::Alt(branches) => {
                let mut f = Fragment {
                    nullable: false,
                    first: 0,
                    last: 0,
                };
                for b in branches {
                    let g = self.build(b)?;
                    f.nullable |= g.nullable;
                    f.first |= g.first;
                    f.last |= g.last;
                }
                f
            }
            Ast::Repeat(x, min, max) => {
                // x{min,max} as min copies of x, then either a loop (no
                // upper bound) or max - min nested optional copies.
                let mut f = EMPTY;
                let copies = if *max == UNBOUNDED {
                    min.saturating_sub(1)
                } else {
                    *min
                };
                for _ in 0..copies {
                    let g = self.build(x)?;
                    f = self.then(f, g);
                }
                if *max == UNBOUNDED {
                    let mut g = self.build(x)?;
                    for p in bits(g.last) {
                        self.follow[p] |= g.first;
                    }
                    g.nullable |= *min == 0;
                    f = self.then(f, g);
                } else {
                    // (x (x (x)?)?)?, built from the inside out.
                    let mut tail = EMPTY;
                    let mut chain: smallvec::SmallVec<[Fragment; 8]> = smallvec::SmallVec::new();
                    for _ in *min..*max {
                        chain.push(self.build(x)?);
                    }
                    for g in chain.into_iter().rev() {
                        tail = self.then(g, tail);
                        tail.nullable = true;
                    }
                    f = self.then(f, tail);
                }
                f
            }
        })
    }

    /// `f` followed by `g`.
    fn then(&mut self, f: Fragment, g: Fragment) -> Fragment {
        for p in bits(f.last) {
            self.follow[p] |= g.first;
        }
        Fragment {
            nullable: f.nullable && g.nullable,
            first: if f.nullable {
                f.first | g.first
            } else {
                f.first
            },
            last: if g.nullable { f.last | g.last } else { g.last },
        }
    }
}

/// Reads the pattern's syntax into an [`Ast`].
struct Reader<'a> {
    chars: &'a [char],
    i: usize,
    depth: u32,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// Branches separated by `|`, up to a `)`, a `$` or the end.
    fn alternation(&mut self) -> Option<Ast> {
        let first = self.sequence()?;
        if self.peek() != Some('|') {
            return Some(first);
        }
        let mut branches = vec![first];
        while self.peek() == Some('|') {
            self.i += 1;
            branches.push(self.sequence()?);
        }
        Some(Ast::Alt(branches))
    }

    fn sequence(&mut self) -> Option<Ast> {
        // On the stack while there is one item (then no list is needed).
        let mut items: smallvec::SmallVec<[Ast; 1]> = smallvec::SmallVec::new();
        while let Some(c) = self.peek() {
            if matches!(c, '|' | ')' | '$') {
                break;
            }
            self.i += 1;
            let atom = match c {
                '(' => {
                    if self.peek() == Some('?') {
                        if self.chars.get(self.i + 1) != Some(&':') {
                            return None;
                        }
                        self.i += 2;
                    }
                    self.depth += 1;
                    if self.depth > MAX_NESTING {
                        return None;
                    }
                    let inner = self.alternation()?;
                    if self.peek() != Some(')') {
                        return None;
                    }
                    self.i += 1;
                    self.depth -= 1;
                    inner
                }
                '[' => {
                    let (class, used) = bracket(&self.chars[self.i..])?;
                    self.i += used;
                    Ast::Class(class)
                }
                '\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    Ast::Class(escape_class(e)?)
                }
                '.' => Ast::Class(dot()),
                '^' | '*' | '+' | '?' | '{' | '}' | ']' => return None,
                c => Ast::Class(Class::one(c)),
            };
            let (min, max, used) = quantifier(&self.chars[self.i..])?;
            self.i += used;
            if used > 0 && self.peek() == Some('?') {
                self.i += 1;
            }
            items.push(if used == 0 {
                atom
            } else {
                Ast::Repeat(Box::new(atom), min, max)
            });
        }
        Some(if items.len() == 1 {
            items.pop()?
        } else {
            Ast::Concat(items.into_vec())
        })
    }
}

/// The number of positions `ast` expands to (counted before expanding, so
/// that `a{1000}` is not expanded only to be refused).
fn positions(ast: &Ast) -> u64 {
    fn size(ast: &Ast) -> u64 {
        match ast {
            Ast::Class(_) => 1,
            Ast::Concat(v) | Ast::Alt(v) => v.iter().map(size).fold(0, u64::saturating_add),
            Ast::Repeat(x, min, max) => {
                let n = if *max == UNBOUNDED {
                    (*min).max(1)
                } else {
                    *max
                };
                size(x).saturating_mul(u64::from(n.min(MAX_COUNT)))
            }
        }
    }
    size(ast)
}

#[cfg(feature = "decode")]
/// A position automaton's parts, for constrained decoding: the class of
/// each position, what may follow each, the first and last positions,
/// whether the empty string matches the body, and the anchors.
pub(crate) struct Parts<'a> {
    pub(crate) classes: &'a [Class],
    pub(crate) follow: &'a [u64],
    pub(crate) first: u64,
    pub(crate) last: u64,
    pub(crate) nullable: bool,
    pub(crate) anchored_start: bool,
    pub(crate) anchored_end: bool,
}

impl PositionAutomaton {
    #[cfg(feature = "decode")]
    /// Its parts (see [`Parts`]).
    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts {
            classes: &self.classes,
            follow: &self.follow,
            first: self.first,
            last: self.last,
            nullable: self.nullable,
            anchored_start: self.anchored_start,
            anchored_end: self.anchored_end,
        }
    }

    /// The bytes its tables and classes take (for the schema's pattern
    /// budget).
    pub(crate) fn heap_bytes(&self) -> u64 {
        let words = (self.ascii.len() + self.follow.len() + self.follow_of.len()) as u64;
        words * 8 + self.classes.iter().map(Class::heap_bytes).sum::<u64>()
    }

    /// [`PositionAutomaton::parse_chars`] on a string (for tests), with
    /// follow tables.
    #[cfg(test)]
    pub(crate) fn parse(pattern: &str) -> Option<PositionAutomaton> {
        Self::parse_with_budget(pattern, usize::MAX)
    }

    /// [`PositionAutomaton::parse_chars`] on a string (for tests), with
    /// the given table budget (0: no tables).
    #[cfg(test)]
    pub(crate) fn parse_with_budget(pattern: &str, mut budget: usize) -> Option<PositionAutomaton> {
        let chars: Vec<char> = pattern.chars().collect();
        Self::parse_chars(&chars, &mut budget)
    }

    /// Whether this automaton has follow tables (for tests).
    #[cfg(test)]
    pub(crate) fn has_tables(&self) -> bool {
        !self.follow_of.is_empty()
    }

    /// Reads a pattern, given as its characters (ECMA-262 syntax), if it
    /// has a shape read here (see the module documentation); `None` sends
    /// it to the `regex` crate. Its follow tables are built when their
    /// entries fit in `table_budget`, which they are taken from.
    pub(crate) fn parse_chars(
        chars: &[char],
        table_budget: &mut usize,
    ) -> Option<PositionAutomaton> {
        let mut r = Reader {
            chars,
            i: 0,
            depth: 0,
        };
        let anchored_start = r.peek() == Some('^');
        if anchored_start {
            r.i += 1;
        }
        let ast = r.alternation()?;
        let anchored_end = r.peek() == Some('$');
        if anchored_end {
            r.i += 1;
        }
        if r.i != chars.len() {
            return None;
        }
        // `^a|b$` anchors each branch on its own side only.
        if (anchored_start || anchored_end) && matches!(ast, Ast::Alt(_)) {
            return None;
        }
        let n = usize::try_from(positions(&ast)).ok()?;
        if n > MAX_POSITIONS {
            return None;
        }
        // At its final size, so that the lists become boxes in place.
        let mut b = Builder {
            classes: Vec::with_capacity(n),
            follow: Vec::with_capacity(n),
        };
        let f = b.build(&ast)?;
        let mut ascii = Box::new([0u64; 128]);
        for (p, class) in b.classes.iter().enumerate() {
            for (word, &set) in class.ascii_words().iter().enumerate() {
                for c in bits(set) {
                    ascii[word * 64 + c] |= 1 << p;
                }
            }
        }
        Some(PositionAutomaton {
            classes: b.classes.into(),
            ascii,
            follow_of: match table_budget.checked_sub(follow_table_len(b.follow.len())) {
                Some(left) => {
                    *table_budget = left;
                    follow_tables(&b.follow)
                }
                None => Box::default(),
            },
            follow: b.follow.into(),
            first: f.first,
            last: f.last,
            nullable: f.nullable,
            anchored_start,
            anchored_end,
        })
    }

    /// The positions that may follow any position in `state`: one table
    /// load per group of eight positions, up to the highest in `state`.
    #[inline(always)]
    fn followers_by_table(&self, state: u64) -> u64 {
        // The first group (all of them up to 8 positions, whose table may
        // be shorter than 256 entries).
        if state <= 0xFF {
            return self.follow_of.get(state as usize).copied().unwrap_or(0);
        }
        // A position past the eighth: the automaton has more than 8, so
        // each group's table has 256 entries.
        let mut reach = 0;
        let mut rest = state;
        let mut at = 0;
        while rest != 0 {
            let group = (rest & 0xFF) as usize;
            reach |= self.follow_of.get(at + group).copied().unwrap_or(0);
            rest >>= 8;
            at += 256;
        }
        reach
    }

    /// [`PositionAutomaton::followers_by_table`] for an automaton without
    /// tables: one `or` per position in `state`.
    #[inline(always)]
    fn followers_by_bits(&self, state: u64) -> u64 {
        bits(state).fold(0, |reach, p| {
            reach | self.follow.get(p).copied().unwrap_or(0)
        })
    }

    /// The positions among `reach` whose class holds `c`, a character from
    /// U+0080 up (ASCII is a table load, in the caller): a class test per
    /// reachable position, so a long non-ASCII text costs per character
    /// what the few live positions cost, not all 64.
    fn holding(&self, c: char, reach: u64) -> u64 {
        let mut set = 0;
        for p in bits(reach) {
            if self.classes.get(p).is_some_and(|class| class.contains(c)) {
                set |= 1 << p;
            }
        }
        set
    }

    /// The positions among `reach` that hold the character at byte `*i` of
    /// `s` (whose first byte is `b`), moving `*i` past it.
    #[inline(always)]
    fn step(&self, s: &str, i: &mut usize, b: u8, reach: u64) -> u64 {
        if b < 0x80 {
            *i += 1;
            return self.ascii[usize::from(b)] & reach;
        }
        match s.get(*i..).and_then(|t| t.chars().next()) {
            Some(c) => {
                *i += c.len_utf8();
                self.holding(c, reach)
            }
            // Not reached: `*i` is always at a character boundary.
            None => {
                *i = s.len();
                0
            }
        }
    }

    /// [`PositionAutomaton::is_match`] for a pattern anchored at the start
    /// (the usual case): the loop reads one character, drops out when no
    /// position is left, and looks up what may follow.
    #[inline(always)]
    fn is_match_from_start(&self, s: &str, followers: impl Fn(u64) -> u64) -> bool {
        let (to_end, last) = (self.anchored_end, self.last);
        let bytes = s.as_bytes();
        let mut reach = self.first;
        let mut state = 0u64;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            state = self.step(s, &mut i, b, reach);
            if state == 0 {
                return false;
            }
            if !to_end && state & last != 0 {
                return true;
            }
            reach = followers(state);
        }
        if i == 0 {
            return self.nullable;
        }
        state & last != 0
    }

    /// Whether `s` holds a match (the whole of `s` with both anchors).
    pub(crate) fn is_match(&self, s: &str) -> bool {
        // One copy of the loops per way of finding followers, so that the
        // loops themselves do not ask which one.
        if self.follow_of.is_empty() {
            self.is_match_with(s, |state| self.followers_by_bits(state))
        } else {
            self.is_match_with(s, |state| self.followers_by_table(state))
        }
    }

    /// [`PositionAutomaton::is_match`], finding the positions that may
    /// follow a state with `followers`.
    #[inline(always)]
    fn is_match_with(&self, s: &str, followers: impl Fn(u64) -> u64) -> bool {
        if !self.anchored_end && self.nullable {
            return true;
        }
        if self.anchored_start {
            return self.is_match_from_start(s, followers);
        }
        // Unanchored at the start: a match may begin at any character, so
        // the first positions are always within reach. `state`: the
        // positions the text read so far may end on.
        let bytes = s.as_bytes();
        let mut state = 0u64;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let reach = self.first | followers(state);
            state = self.step(s, &mut i, b, reach);
            if !self.anchored_end && state & self.last != 0 {
                return true;
            }
        }
        state & self.last != 0 || self.nullable
    }
}

#[cfg(test)]
mod tests {
    use super::PositionAutomaton;
    use crate::schema::pattern::sequence::oracle;
    use proptest::prelude::*;

    #[test]
    fn shapes_that_are_read_and_shapes_left_to_regex() {
        for p in [
            r"^(/[A-Za-z0-9._-]+)+/?$",
            r"^(get|set)_[a-z]+$",
            r"[0-9]{3}",
            r"^(?:ab|c)*$",
            r"a|b",
            r"^[a-z]*a$",
            r"^()$",
            r"^(|x)y$",
            r"^[a-z0-9_-]{3,32}$",
            r"^(a(b(c)?)?)?$",
        ] {
            assert!(PositionAutomaton::parse(p).is_some(), "{p}");
        }
        for p in [
            r"^a|b$",       // anchors on one side of an alternation
            r"^(?=a)",      // look-ahead
            r"^(?<n>a)$",   // a named group
            r"^(a)\1$",     // a back reference
            r"^\bx",        // \b
            r"^\u0041$",    // \u escape
            r"^a{x}$",      // a literal `{`
            r"^(a$",        // an unclosed group
            r"^a)$",        // an unopened one
            r"^a**$",       // a quantifier on a quantifier
            r"^[a-z]{65}$", // more than 64 positions
            r"^(a{8}){9}$", // the same, by nesting
            r"^a{1000}$",   // refused before it is expanded
            r"(^a)",        // `^` inside a group
            r"^a$b",        // `$` not at the end
            r"^[]$",        // the empty class
        ] {
            assert!(PositionAutomaton::parse(p).is_none(), "{p}");
        }
        let deep = format!("^{}a{}$", "(".repeat(40), ")".repeat(40));
        assert!(PositionAutomaton::parse(&deep).is_none());
    }

    #[test]
    fn matches_as_the_regex_path_does_on_examples() {
        let cases = [
            (r"^(/[A-Za-z0-9._-]+)+/?$", "/home/dev/project/src", true),
            (r"^(/[A-Za-z0-9._-]+)+/?$", "/home/dev/", true),
            (r"^(/[A-Za-z0-9._-]+)+/?$", "/", false),
            (r"^(/[A-Za-z0-9._-]+)+/?$", "home", false),
            (r"^(/[A-Za-z0-9._-]+)+/?$", "/a//b", false),
            (r"^(get|set)_[a-z]+$", "get_name", true),
            (r"^(get|set)_[a-z]+$", "put_name", false),
            (r"[0-9]{3}", "ab1234", true),
            (r"[0-9]{3}", "12a3", false),
            (r"^[a-z]*a$", "banana", true),
            (r"^[a-z]*a$", "bananas", false),
            (r"a|b", "xxbxx", true),
            (r"a|b", "xyz", false),
            (r"^(|x)y$", "y", true),
            (r"^(|x)y$", "xy", true),
            (r"x*", "", true),
            (r"^x*$", "", true),
            (r"^x+$", "", false),
            (r"^(a(b(c)?)?)?$", "ab", true),
            (r"^(a(b(c)?)?)?$", "ac", false),
            (r"^é.ü$", "éxü", true),
            (r"^é.ü$", "é\u{2028}ü", false),
            (r"^a{2,3}$", "aaaa", false),
            (r"^(ab){2,}$", "ababab", true),
            (r"^(ab){2,}$", "ab", false),
        ];
        oracle::examples("automaton", &cases, |p, s| {
            PositionAutomaton::parse(p).unwrap().is_match(s)
        });
        oracle::examples("automaton without follow tables", &cases, |p, s| {
            let a = PositionAutomaton::parse_with_budget(p, 0).unwrap();
            assert!(!a.has_tables());
            a.is_match(s)
        });
    }

    const ATOMS: &[&str] = &[
        "a", "b", "é", r"\.", ".", r"\d", r"\w", r"\W", r"\s", "[a-c]", "[^a]", r"[\w-]", "[é-ü]",
    ];
    const QUANTIFIERS: &[&str] = &[
        "", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,}", "+?", "{0}",
    ];
    const ALPHABET: &[char] = &['a', 'b', 'c', '1', '-', '_', '.', ' ', 'é', '\n', 'ü'];

    /// A random pattern tree, written out as ECMA-262 text.
    fn tree() -> impl Strategy<Value = String> {
        let leaf = (0..ATOMS.len(), 0..QUANTIFIERS.len())
            .prop_map(|(a, q)| format!("{}{}", ATOMS[a], QUANTIFIERS[q]));
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
                (
                    proptest::collection::vec(inner.clone(), 1..4),
                    0..QUANTIFIERS.len(),
                    any::<bool>()
                )
                    .prop_map(|(v, q, plain)| format!(
                        "({}{}){}",
                        if plain { "" } else { "?:" },
                        v.join("|"),
                        QUANTIFIERS[q]
                    )),
            ]
        })
    }

    proptest! {
        // No regressions file: it would land outside the crate's layout;
        // a failure prints its minimal input.
        #![proptest_config(ProptestConfig {
            cases: 3000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        /// Wherever a pattern is read here, it matches exactly the strings
        /// the `regex` crate (through the ECMA translation) matches.
        #[test]
        fn agrees_with_the_regex_path(
            body in tree(),
            anchors in 0..4u8,
            strings in proptest::collection::vec(
                proptest::collection::vec(0..ALPHABET.len(), 0..9), 1..12),
        ) {
            let p = format!(
                "{}{}{}",
                if anchors & 1 == 1 { "^" } else { "" },
                body,
                if anchors & 2 == 2 { "$" } else { "" }
            );
            prop_assert!(crate::schema::pattern::ecma::compile(&p).is_ok(), "{}", p);
            // With follow tables, and without (past the schema's budget).
            let a = PositionAutomaton::parse(&p);
            let b = PositionAutomaton::parse_with_budget(&p, 0);
            prop_assert_eq!(a.is_some(), b.is_some());
            oracle::agrees(&p, a.map(|a| move |s: &str| a.is_match(s)), strings.clone(), ALPHABET)?;
            oracle::agrees(&p, b.map(|b| move |s: &str| b.is_match(s)), strings, ALPHABET)?;
        }
    }

    /// Pattern text from the characters that matter to the syntax: where
    /// it is read here, the regex path must accept it too, and agree.
    const SYNTAX: &[char] = &[
        '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', ':', '-', ',', 'a',
        'b', 'd', 'w', '0', '1', '2', 'é',
    ];

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 20000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn text_read_here_is_valid_ecma_with_the_same_meaning(
            text in proptest::collection::vec(0..SYNTAX.len(), 0..12),
            strings in proptest::collection::vec(
                proptest::collection::vec(0..ALPHABET.len(), 0..6), 1..8),
        ) {
            let p: String = text.into_iter().map(|i| SYNTAX[i]).collect();
            let a = PositionAutomaton::parse(&p);
            let b = PositionAutomaton::parse_with_budget(&p, 0);
            prop_assert_eq!(a.is_some(), b.is_some());
            oracle::agrees(&p, a.map(|a| move |s: &str| a.is_match(s)), strings.clone(), ALPHABET)?;
            oracle::agrees(&p, b.map(|b| move |s: &str| b.is_match(s)), strings, ALPHABET)?;
        }
    }

    #[test]
    fn most_generated_trees_are_read() {
        // The properties above are only worth something if the automaton
        // is used: count how many generated trees it reads.
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = super::tests::tree();
        let (mut read, mut all) = (0, 0);
        for _ in 0..500 {
            let p = strategy.new_tree(&mut runner).unwrap().current();
            all += 1;
            if PositionAutomaton::parse(&format!("^{p}$")).is_some() {
                read += 1;
            }
        }
        assert!(read * 2 > all, "{read} of {all}");
    }
}
