//! The formats' decoding forms held against the format checker: the
//! regular forms of `date`, `ipv4` and `uuid`, and the hand-built automata
//! of `date-time`, `time`, `uri` and `uri-reference` (agreement on whole
//! strings, liveness of every accepted prefix, no completion after a
//! refused one, and the completion lengths' closed form).

use std::collections::HashSet;

use proptest::prelude::*;

use super::Hand;
use crate::decode::pattern::{StrPattern, format_form};
use crate::schema::decode_view::{Format, OwnedRegular};

fn form(f: Format) -> StrPattern {
    let text = format_form(f).expect("a regular form");
    let owned = OwnedRegular::parse(text).expect("read without a regex");
    StrPattern::new(owned.as_regular()).expect("decodable")
}

fn agree(f: Format, p: &StrPattern, s: &str) {
    assert_eq!(p.matches(s), f.check(s), "{} on {s:?}", f.name());
}

#[test]
fn the_date_form_is_the_format_checker() {
    let f = Format::Date;
    let p = form(f);
    let mut valid = 0;
    for y in 0..10000 {
        for m in 0..=13 {
            for d in 0..=32 {
                let s = format!("{y:04}-{m:02}-{d:02}");
                agree(f, &p, &s);
                valid += usize::from(f.check(&s));
            }
        }
    }
    // 2425 leap years in 0000..=9999.
    assert_eq!(valid, 10000 * 365 + 2425);
    for s in [
        "",
        "2024-1-01",
        "2024-01-1",
        "20240101",
        "2024-01-01 ",
        "x024-01-01",
        "2024/01/01",
    ] {
        agree(f, &p, s);
    }
}

#[test]
fn the_ipv4_form_is_the_format_checker() {
    let f = Format::Ipv4;
    let p = form(f);
    let mut octets: Vec<String> = (0..=300).map(|i| i.to_string()).collect();
    for o in [
        "00", "01", "001", "010", "0255", "1000", "", "a", "-1", "1 ",
    ] {
        octets.push(o.to_string());
    }
    for o in &octets {
        for at in 0..4 {
            let mut parts = ["1", "22", "255", "0"].map(String::from);
            parts[at] = o.clone();
            agree(f, &p, &parts.join("."));
        }
    }
    for s in [
        "1.2.3",
        "1.2.3.4.5",
        "1..2.3",
        ".1.2.3",
        "1.2.3.4.",
        "1.2.3.4",
    ] {
        agree(f, &p, s);
    }
}

#[test]
fn the_uuid_form_is_the_format_checker() {
    let f = Format::Uuid;
    let p = form(f);
    let good = "0f3A9c2e-1b4d-4e5f-8a7b-6c5d4e3f2a1B";
    agree(f, &p, good);
    for i in 0..good.len() {
        for c in ['g', '-', '0', 'F', 'é'] {
            let mut s = good.to_string();
            s.replace_range(i..i + 1, &c.to_string());
            agree(f, &p, &s);
        }
        agree(f, &p, &good[..i]);
    }
    agree(f, &p, &format!("{good}0"));
}

fn hand(f: Format) -> Hand {
    Hand::of(f).expect("a hand-built form")
}

/// Counts of what a run checked, for the failure messages and the log.
#[derive(Default, Debug)]
struct Tally {
    strings: usize,
    valid: usize,
    prefixes: usize,
    refused: usize,
    candidates: usize,
}

/// A search for a completion of a refused prefix: every string over
/// `alphabet` up to `depth` characters, and each of `tails` after at most
/// one character of `alphabet`.
struct Search<'a> {
    alphabet: &'a [char],
    depth: usize,
    tails: &'a [String],
}

impl Search<'_> {
    /// A valid string that starts with `p`, if the search finds one.
    fn find(&self, f: Format, p: &str, tally: &mut Tally) -> Option<String> {
        let mut layer = vec![p.to_string()];
        for d in 0..=self.depth {
            for s in &layer {
                tally.candidates += 1;
                if f.check(s) && !a_label(f, s) {
                    return Some(s.clone());
                }
                if d <= 1 {
                    for t in self.tails {
                        tally.candidates += 1;
                        let s = format!("{s}{t}");
                        if f.check(&s) && !a_label(f, &s) {
                            return Some(s);
                        }
                    }
                }
            }
            if d < self.depth {
                layer = layer
                    .iter()
                    .flat_map(|s| self.alphabet.iter().map(move |c| format!("{s}{c}")))
                    .collect();
            }
        }
        None
    }
}

/// Checks one string: the automaton (alone and as a `StrPattern`) agrees
/// with the checker; from every accepted prefix the shortest completion
/// (and one in a few length windows) is valid with the length the closed
/// form gives; after a refused prefix the search finds no valid string.
/// Returns the states passed, for the length check.
fn hold(f: Format, s: &str, search: Option<&Search<'_>>, tally: &mut Tally) -> Vec<u64> {
    let h = hand(f);
    let mut at = 0u64;
    let mut prefix = String::new();
    let mut states = vec![0u64];
    let mut refused = None;
    for c in s.chars() {
        completes(f, at, &prefix, tally);
        match h.step(at, c) {
            Some(n) => {
                at = n;
                prefix.push(c);
                states.push(n);
            }
            None => {
                refused = Some(format!("{prefix}{c}"));
                break;
            }
        }
    }
    let whole = refused.is_none() && h.accepts(at);
    if refused.is_none() {
        completes(f, at, &prefix, tally);
    }
    // The output policy leaves A-labels out (see `forms/net.rs`).
    let valid = f.check(s) && !a_label(f, s);
    assert_eq!(whole, valid, "{} on {s:?}", f.name());
    let p = StrPattern::hand_built(f).expect("hand-built");
    assert_eq!(p.matches(s), valid, "{} as a pattern on {s:?}", f.name());
    tally.strings += 1;
    tally.valid += usize::from(valid);
    if let (Some(r), Some(search)) = (refused, search) {
        tally.refused += 1;
        if let Some(v) = search.find(f, &r, tally) {
            panic!("{}: {r:?} refused, but {v:?} is valid", f.name());
        }
    }
    states
}

/// From the state `at` reached by `prefix`: completions in length
/// windows exist exactly where the closed form says, and are valid.
fn completes(f: Format, at: u64, prefix: &str, tally: &mut Tally) {
    let h = hand(f);
    tally.prefixes += 1;
    let lens = h.lens(at);
    let shortest = h
        .rest(at, 0, u64::MAX)
        .unwrap_or_else(|| panic!("{}: no completion after {prefix:?}", f.name()));
    assert_eq!(shortest.len() as u64, lens.min, "{prefix:?}");
    let d = lens.min;
    for (a, b) in [
        (0, u64::MAX),
        (d + 1, d + 1),
        (d + 2, d + 2),
        (d + 1, d + 3),
        (d + 4, d + 9),
        (0, d.saturating_sub(1)),
    ] {
        let got = h.rest(at, a, b);
        assert_eq!(got.is_some(), h.viable(at, a, b), "{prefix:?} in {a}..={b}");
        assert_eq!(got.is_some(), (a..=b.min(d + 12)).any(|l| lens.holds(l)));
        if let Some(w) = got {
            let l = w.len() as u64;
            assert!(a <= l && l <= b, "{prefix:?}: {l} not in {a}..={b}");
            let whole: String = prefix.chars().chain(w).collect();
            assert!(f.check(&whole), "{}: {whole:?} from {prefix:?}", f.name());
            // The same through the pattern's length bounds (whole string).
            let p = StrPattern::hand_built(f).expect("hand-built");
            assert!(p.matches(&whole));
        }
    }
}

/// The closed form of the completion lengths against one step of their
/// definition: `l` is a completion length from `at` iff `l == 0` and `at`
/// accepts, or `l - 1` is one from a state some character leads to.
fn lengths_hold(h: Hand, states: &HashSet<u64>) {
    for &at in states {
        let next: Vec<_> = (0..128u8)
            .filter_map(|c| h.step(at, char::from(c)))
            .map(|n| h.lens(n))
            .collect();
        let lens = h.lens(at);
        for l in 0..=40 {
            let by_def = if l == 0 {
                h.accepts(at)
            } else {
                next.iter().any(|n| n.holds(l - 1))
            };
            assert_eq!(lens.holds(l), by_def, "{h:?} state {at:#x} length {l}");
        }
    }
}

/// Every string from `seeds` with one character replaced, deleted or
/// inserted (from `alphabet`), and the seeds themselves.
fn mutations(seeds: &[&str], alphabet: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    for s in seeds {
        let v: Vec<char> = s.chars().collect();
        out.push(s.to_string());
        for i in 0..=v.len() {
            if i < v.len() {
                let mut d = v.clone();
                d.remove(i);
                out.push(d.into_iter().collect());
            }
            for &c in alphabet {
                let mut ins = v.clone();
                ins.insert(i, c);
                out.push(ins.into_iter().collect());
                if i < v.len() {
                    let mut rep = v.clone();
                    rep[i] = c;
                    out.push(rep.into_iter().collect());
                }
            }
        }
    }
    out
}

const DT_ALPHABET: &str = "0123456789-:.TtZz+ x";
const DT_SEEDS: &[&str] = &[
    "1998-12-31T23:59:60Z",
    "1998-12-31t23:59:60z",
    "2000-02-29T00:00:00.123456789+01:00",
    "1900-02-28T12:30:45-23:59",
    "2024-06-30T23:59:60.5Z",
    "1990-12-31T15:59:60-08:00",
    "1990-12-31T15:59:60.0-08:00",
    "2021-01-01T00:00:60+00:01",
    "0000-01-01T00:00:00Z",
];

/// Every suffix of every seed: long completions for the search.
fn tails(seeds: &[&str]) -> Vec<String> {
    let mut t: Vec<String> = seeds
        .iter()
        .flat_map(|s| (0..s.len()).map(move |i| s[i..].to_string()))
        .collect();
    t.sort();
    t.dedup();
    t
}

#[test]
fn date_time_agrees_with_the_checker_around_the_leap_second() {
    let (f, h) = (Format::DateTime, hand(Format::DateTime));
    // Every local time (and one past each bound) with every offset, as a
    // leap second, and each local time with seconds 59 and 61.
    let mut offsets = vec!["Z".to_string(), "z".to_string()];
    for sign in ['+', '-'] {
        for oh in 0..=24 {
            for om in 0..=60 {
                offsets.push(format!("{sign}{oh:02}:{om:02}"));
            }
        }
    }
    let (mut n, mut valid) = (0usize, 0usize);
    for hh in 0..=24 {
        for mm in 0..=60 {
            for (sec, offs) in [
                ("60", &offsets[..]),
                ("59", &offsets[..4]),
                ("61", &offsets[..4]),
            ] {
                for o in offs {
                    let s = format!("1998-12-31T{hh:02}:{mm:02}:{sec}{o}");
                    let mut at = Some(0);
                    for c in s.chars() {
                        at = at.and_then(|a| h.step(a, c));
                    }
                    let ok = f.check(&s);
                    assert_eq!(at.is_some_and(|a| h.accepts(a)), ok, "{s:?}");
                    n += 1;
                    valid += usize::from(ok);
                }
            }
        }
    }
    // One offset per sign makes each local time 23:59 UTC (and `Z` or
    // `z` the local 23:59); seconds 59 take the four first offsets.
    assert_eq!(valid, 24 * 60 * 2 + 2 + 24 * 60 * 4, "{n} strings");
    let mut tally = Tally::default();
    for s in [
        "1998-12-31T23:59:60Z",
        "1998-12-31T00:00:60+00:01",
        "1998-12-31T00:00:60-23:59",
    ] {
        hold(f, s, None, &mut tally);
    }
}

#[test]
fn date_time_agrees_with_the_checker_on_every_date() {
    let (f, h) = (Format::DateTime, hand(Format::DateTime));
    let mut years: Vec<u32> = vec![0, 1, 4, 100, 200, 300, 400, 9996, 9999];
    years.extend(
        (1896..=1904)
            .chain(1996..=2004)
            .chain(2096..=2104)
            .chain(2396..=2404),
    );
    let mut valid = 0;
    for &y in &years {
        for m in 0..=13 {
            for d in 0..=32 {
                let s = format!("{y:04}-{m:02}-{d:02}T08:15:00.5+05:30");
                let mut at = Some(0);
                for c in s.chars() {
                    at = at.and_then(|a| h.step(a, c));
                }
                assert_eq!(at.is_some_and(|a| h.accepts(a)), f.check(&s), "{s:?}");
                valid += usize::from(f.check(&s));
            }
        }
    }
    let leap = years
        .iter()
        .filter(|&&y| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0);
    assert_eq!(valid, years.len() * 365 + leap.count());
}

#[test]
fn date_time_and_time_every_prefix_is_live_and_every_refusal_final() {
    let alphabet: Vec<char> = DT_ALPHABET.chars().collect();
    let tails = tails(DT_SEEDS);
    let search = Search {
        alphabet: &alphabet,
        depth: 3,
        tails: &tails,
    };
    let mut tally = Tally::default();
    let mut seen = HashSet::new();
    let mut tried = HashSet::new();
    for s in mutations(DT_SEEDS, &alphabet) {
        // The search runs once per refused prefix.
        let search = tried.insert(Hand::DateTime.step_all(&s)).then_some(&search);
        seen.extend(hold(Format::DateTime, &s, search, &mut tally));
    }
    lengths_hold(Hand::DateTime, &seen);
    let time_seeds: Vec<&str> = DT_SEEDS.iter().map(|s| &s[11..]).collect();
    let time_tails = self::tails(&time_seeds);
    let search = Search {
        tails: &time_tails,
        ..search
    };
    let mut seen = HashSet::new();
    tried.clear();
    for s in mutations(&time_seeds, &alphabet) {
        let search = tried.insert(Hand::Time.step_all(&s)).then_some(&search);
        seen.extend(hold(Format::Time, &s, search, &mut tally));
    }
    lengths_hold(Hand::Time, &seen);
    println!("date-time and time: {tally:?}");
    assert!(tally.valid > 500 && tally.refused > 3000, "{tally:?}");
}

const URI_ALPHABET: &str = "aZ09:/?#@[]%.v-+~!=";
const URI_SCHEMES: &[&str] = &["a:", "Hx+-.9:", "", "1a:", "a", ":", "a b:", "%61:", "a/b:"];
const URI_HIERS: &[&str] = &[
    "",
    "//",
    "//host",
    "//h.o-s_t~!$&'()*+,;=",
    "//user@host",
    "//u:p@h:80",
    "//:80",
    "//h:",
    "//h:8a",
    "//u@@h",
    "//u@h@h",
    "//[::1]",
    "//[::1]:8080",
    "//[v1.x]",
    "//[V1f.a:b~]",
    "//[v.x]",
    "//[vg.x]",
    "//[v1.]",
    "//[v1.x",
    "//[::1",
    "//::1]",
    "//[::1]x",
    "//[::1]]",
    "//[[::1]",
    "//u@[::1]:1",
    "//[1::2]@h",
    "//h%41",
    "//h%4",
    "//a:b:c",
    "//a:b:c@h",
    "//a:1b",
    "//%41:%42@h",
    "//a:%31",
    "/p",
    "p",
    "/p/q/",
    "//h/p",
    "//h//",
    "///p",
    "p:q",
    "%",
    "%zz",
    "%2F",
    "[",
    "/a[b",
    "/a@b:c",
];
const URI_QUERIES: &[&str] = &["", "?", "?a=b&c", "?/?:@", "?%", "?%2", "?%20", "?[", "??"];
const URI_FRAGMENTS: &[&str] = &["", "#", "#f", "#/?:@", "#a#b", "#%", "#%41", "#["];

/// IPv6 texts: 0 to 9 pieces with `::` in each place (or none), an IPv4
/// tail or not, and broken forms.
fn ipv6_texts() -> Vec<String> {
    let mut out = Vec::new();
    let pieces = ["1", "ab", "FfFf", "0", "12345", "g"];
    for n in 0..=9 {
        for tail in [
            None,
            Some("1.2.3.4"),
            Some("255.0.10.199"),
            Some("1.2.3"),
            Some("01.2.3.4"),
            Some("256.1.1.1"),
        ] {
            for p in pieces {
                let groups: Vec<&str> = std::iter::repeat_n(p, n).collect();
                let mut base = groups.clone();
                if let Some(t) = tail {
                    base.push(t);
                }
                out.push(base.join(":"));
                for cut in 0..=groups.len() {
                    let (a, b) = groups.split_at(cut);
                    let mut right = b.to_vec();
                    if let Some(t) = tail {
                        right.push(t);
                    }
                    out.push(format!("{}::{}", a.join(":"), right.join(":")));
                    out.push(format!("{}:::{}", a.join(":"), right.join(":")));
                }
            }
        }
    }
    for s in [
        "",
        ":",
        ":1",
        "1:",
        "::",
        ":::",
        "1::2::3",
        "::1.2.3.4",
        "1.2.3.4::",
        "::ffff:1.2.3.4",
        "1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7:8:",
        ":1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:1.2.3.4",
        "1:2:3:4:5:1.2.3.4",
        "1::2:3:4:5:1.2.3.4",
        "1:2:3:4:5:6::1.2.3.4",
        "::1.2.3.4.5",
        "::1.2..3",
        "::0.0.0.0",
        "::1a.2.3.4",
        "::1.2.3.4:1",
        "a:b",
        "1:2:3:4:5:6:7::",
        "::1:2:3:4:5:6:7",
        "::1:2:3:4:5:6:7:8",
        "::1.v1.x",
        "1:v1.x",
        "::v1.x",
        "v1.x:1",
    ] {
        out.push(s.to_string());
    }
    out
}

#[test]
fn uri_and_uri_reference_every_component_present_or_absent() {
    let alphabet: Vec<char> = URI_ALPHABET.chars().collect();
    let mut strings = Vec::new();
    for s in URI_SCHEMES {
        for h in URI_HIERS {
            for q in URI_QUERIES {
                for fr in URI_FRAGMENTS {
                    strings.push(format!("{s}{h}{q}{fr}"));
                }
            }
        }
    }
    for ip in ipv6_texts() {
        strings.push(format!("s://[{ip}]"));
        strings.push(format!("s://u@[{ip}]:443/p"));
    }
    for s in [
        "./a:b", "a/b:c", "?q", "#f", "//h", ":a", "a@b:c", "a%3Ab:c", "-:", "a:b:c", "ab", "a:",
        "A:",
    ] {
        strings.push(s.to_string());
    }
    let valid: Vec<&str> = [
        "a:",
        "s://u:p@h:1/p?q#f",
        "s://[::1]:1/",
        "s://[v1.a]",
        "//h/p?q#f",
        "p?q#f",
    ]
    .into_iter()
    .collect();
    let tails = tails(&valid);
    let search = Search {
        alphabet: &alphabet,
        depth: 2,
        tails: &tails,
    };
    for f in [Format::Uri, Format::UriReference] {
        let mut tally = Tally::default();
        let mut seen = HashSet::new();
        let mut tried = HashSet::new();
        for s in &strings {
            // The search runs once per refused prefix.
            let first = hand(f).step_all(s);
            let search = tried.insert(first).then_some(&search);
            seen.extend(hold(f, s, search, &mut tally));
        }
        lengths_hold(hand(f), &seen);
        println!("{}: {tally:?}", f.name());
        assert!(tally.valid > 2000 && tally.refused > 300, "{tally:?}");
    }
}

impl Hand {
    /// The prefix of `s` up to and with its first refused character.
    fn step_all(self, s: &str) -> String {
        let mut at = 0;
        let mut out = String::new();
        for c in s.chars() {
            out.push(c);
            match self.step(at, c) {
                Some(n) => at = n,
                None => break,
            }
        }
        out
    }
}

/// Every string up to `len` characters over `alphabet` after `prefix`.
fn all_strings(prefix: &str, alphabet: &[char], len: usize, f: &mut impl FnMut(&str)) {
    f(prefix);
    if len > 0 {
        for &c in alphabet {
            all_strings(&format!("{prefix}{c}"), alphabet, len - 1, f);
        }
    }
}

/// Exhaustive agreement on every string over a small alphabet up to a
/// length: with it, a refused prefix of that length or less has no valid
/// completion within it (any would be accepted, so its prefixes too).
#[test]
fn every_short_string_over_small_alphabets() {
    let cases: [(Format, &str, &str, usize); 12] = [
        (Format::Ipv6, "", "1a:.", 8),
        (Format::Ipv6, "1:2:3:4:5:", "1:.", 8),
        (Format::Hostname, "", "a0-.", 8),
        (Format::Email, "", "a.@\"\\ ", 6),
        (Format::Email, "a@", "a-.[1]", 7),
        (Format::Email, "a@[IPv6:", "1a:.]", 7),
        (Format::Uri, "", "a1:/?#@[]%v.", 6),
        (Format::UriReference, "", "a1:/?#@[]%v.", 6),
        (Format::Uri, "a://", "1:.[]vf@", 7),
        (Format::Uri, "a://[", "1:.]", 9),
        (Format::DateTime, "1998-12-31T23:5", "0569:.Z+-", 7),
        (Format::DateTime, "1998-12-31T23:59:60", "0159:+-Z", 7),
    ];
    for (f, prefix, alphabet, len) in cases {
        let h = hand(f);
        let alphabet: Vec<char> = alphabet.chars().collect();
        let (mut n, mut valid) = (0usize, 0usize);
        let f_check = |s: &str| f.check(s) && !a_label(f, s);
        all_strings(prefix, &alphabet, len, &mut |s| {
            let mut at = Some(0);
            for c in s.chars() {
                at = at.and_then(|a| h.step(a, c));
            }
            let ok = f_check(s);
            assert_eq!(
                at.is_some_and(|a| h.accepts(a)),
                ok,
                "{} on {s:?}",
                f.name()
            );
            n += 1;
            valid += usize::from(ok);
        });
        println!("{} after {prefix:?}: {n} strings, {valid} valid", f.name());
        assert!(valid > 0 && valid < n);
    }
}

/// Random strings over an alphabet that hits the grammars, and seeds
/// with random edits.
fn arb_text(
    alphabet: &'static str,
    seeds: &'static [&'static str],
) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    let pick = proptest::sample::select(chars);
    let random = proptest::collection::vec(pick.clone(), 0..40)
        .prop_map(|v| v.into_iter().collect::<String>());
    let edited = (
        proptest::sample::select(seeds),
        proptest::collection::vec((0usize..64, 0u8..3, pick), 0..4),
    )
        .prop_map(|(seed, edits)| {
            let mut v: Vec<char> = seed.chars().collect();
            for (at, op, c) in edits {
                let i = at % (v.len() + 1);
                match op {
                    0 if i < v.len() => v[i] = c,
                    1 if i < v.len() => {
                        v.remove(i);
                    }
                    _ => v.insert(i, c),
                }
            }
            v.into_iter().collect::<String>()
        });
    prop_oneof![random, edited]
}

const URI_SEEDS: &[&str] = &[
    "http://user:pw@example.com:8080/a/b?q=1#frag",
    "s://[::ffff:1.2.3.4]:1/p",
    "s://[v7.a:b]/",
    "urn:isbn:0451450523",
    "a:%41/b?%42#%43",
    "//h/p",
    "./a?b#c",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_date_times_and_times_agree(s in arb_text(DT_ALPHABET, DT_SEEDS)) {
        let mut tally = Tally::default();
        hold(Format::DateTime, &s, None, &mut tally);
        let t = s.get(11..).unwrap_or(&s);
        hold(Format::Time, t, None, &mut tally);
    }

    #[test]
    fn random_uris_agree(s in arb_text(URI_ALPHABET, URI_SEEDS)) {
        let mut tally = Tally::default();
        hold(Format::Uri, &s, None, &mut tally);
        hold(Format::UriReference, &s, None, &mut tally);
    }
}

#[test]
fn a_non_ascii_character_is_refused() {
    for f in [
        Format::DateTime,
        Format::Time,
        Format::Uri,
        Format::UriReference,
        Format::Ipv6,
        Format::Hostname,
        Format::Email,
    ] {
        let h = hand(f);
        assert_eq!(h.step(0, 'é'), None);
        assert_eq!(h.pick_pending(0, &[(0x80, 0x10FFFF)], 0, u64::MAX), None);
    }
    let h = hand(Format::Uri);
    let at = "a:/"
        .chars()
        .try_fold(0, |a, c| h.step(a, c))
        .expect("live");
    assert_eq!(h.step(at, 'é'), None);
    let c = h.pick_pending(at, &[(0, 0x10FFFF)], 0, u64::MAX);
    assert!(c.is_some_and(|c| h.step(at, c).is_some()), "{c:?}");
    assert_eq!(h.pick_pending(at, &[(0x80, 0x10FFFF)], 0, u64::MAX), None);
}

/// Whether the host name in `s` (a `hostname`, or an `email`'s domain)
/// has a label with `--` in its third and fourth characters: an A-label,
/// which the output policy leaves out.
fn a_label(f: Format, s: &str) -> bool {
    let host = match f {
        Format::Hostname => s,
        Format::Email => s.rsplit('@').next().unwrap_or(""),
        _ => return false,
    };
    host.split('.').any(|l| l.get(2..4) == Some("--"))
}

/// Every prefix of the strings (mutations of the seeds) agrees with the
/// checker, stays live, has the completion lengths the closed form (or
/// the search) gives, and a refused one has no valid completion found.
fn hold_all(f: Format, seeds: &[&str], alphabet: &str, extra: Vec<String>) -> Tally {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let tails = tails(seeds);
    let search = Search {
        alphabet: &alphabet,
        depth: 2,
        tails: &tails,
    };
    let h = hand(f);
    let mut tally = Tally::default();
    let mut seen = HashSet::new();
    let mut tried = HashSet::new();
    for s in mutations(seeds, &alphabet).into_iter().chain(extra) {
        let search = tried.insert(h.step_all(&s)).then_some(&search);
        seen.extend(hold(f, &s, search, &mut tally));
    }
    lengths_hold(h, &seen);
    println!("{}: {tally:?}", f.name());
    tally
}

#[test]
fn ipv6_agrees_with_the_checker() {
    let t = hold_all(
        Format::Ipv6,
        &["::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "fe80::1", "1::", "::"],
        "0159aF:.]",
        ipv6_texts(),
    );
    assert!(t.valid > 300 && t.refused > 300, "{t:?}");
}

fn long_hosts() -> Vec<String> {
    let l63 = "a".repeat(63);
    let mut out = Vec::new();
    for last in [60, 61, 62] {
        let name = format!(
            "{l63}.{}.{}.{}",
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(last)
        );
        out.push(name.clone());
        out.push(format!("{name}-"));
        out.push(format!("{name}."));
        out.push(format!("{name}.e"));
    }
    out.push("a".repeat(64));
    out.push(format!("{l63}-"));
    out.push(format!("{}-a", "a".repeat(61)));
    out.push(format!("{}--a", "a".repeat(60)));
    out
}

#[test]
fn hostname_agrees_with_the_checker() {
    let t = hold_all(
        Format::Hostname,
        &[
            "example.com",
            "a-b.c-d0",
            "x",
            "0.0.0.0",
            "ab-c.d",
            "a--b.c",
        ],
        "a0-.Z_",
        long_hosts(),
    );
    assert!(t.valid > 100 && t.refused > 50, "{t:?}");
}

#[test]
fn email_agrees_with_the_checker() {
    let mut extra: Vec<String> = long_hosts().iter().map(|h| format!("joe@{h}")).collect();
    for local in [
        "a".repeat(64),
        "a".repeat(65),
        format!("\"{}\"", "a".repeat(62)),
        format!("\"{}\"", "a".repeat(63)),
        format!("\"{}\\a\"", "a".repeat(60)),
        format!("{}.a", "a".repeat(62)),
    ] {
        extra.push(format!("{local}@h"));
    }
    for ip in ipv6_texts() {
        extra.push(format!("u@[IPv6:{ip}]"));
    }
    let t = hold_all(
        Format::Email,
        &[
            "joe@example.com",
            "a.b+c@x-y.z",
            "\"j\\\"o e\"@h",
            "\"\"@h",
            "\"a@b\"@h",
            "u@[1.2.3.4]",
            "u@[IPv6:::1]",
            "u@[ipv6:1:2:3:4:5:6:7:8]",
            "!#$%&'*+-/=?^_`{|}~@h",
        ],
        "a0.@\"\\ -[]:I6",
        extra,
    );
    assert!(t.valid > 300 && t.refused > 1000, "{t:?}");
}

#[test]
fn the_new_regular_forms_are_the_format_checker() {
    for (f, texts) in [
        (
            Format::Duration,
            &[
                "P1Y", "P1Y2M3D", "P1Y3D", "P1M3D", "PT1H", "PT1H2M3S", "PT1H3S", "P1DT", "P",
                "PT", "P1W", "P1W2D", "P12345Y", "P1DT1S", "P1D2M", "P1H", "1Y", "P1.5Y", "PT1M2S",
                "P1YT",
            ][..],
        ),
        (
            Format::JsonPointer,
            &[
                "", "/", "/a/b", "a", "/~0", "/~1", "/~2", "/~", "//", "/é~1x",
            ][..],
        ),
        (
            Format::RelativeJsonPointer,
            &["0", "1#", "10/a", "01", "0/~1", "0/~", "#", "", "1/", "2#x"][..],
        ),
    ] {
        let p = form(f);
        for s in texts {
            agree(f, &p, s);
        }
        let mut strings = 0;
        all_strings("", &"P1YMDTHSW".chars().collect::<Vec<_>>(), 6, &mut |s| {
            if f == Format::Duration {
                agree(f, &p, s);
                strings += 1;
            }
        });
        all_strings("", &"01/~#a".chars().collect::<Vec<_>>(), 6, &mut |s| {
            if f != Format::Duration {
                agree(f, &p, s);
                strings += 1;
            }
        });
        assert!(strings > 1000);
    }
}
