//! Exact comparison and divisibility of JSON number lexemes, without going
//! through `f64`: `minimum`, `maximum`, `multipleOf`, `integer`, `enum` and
//! `const` must hold for 40-digit integers and decimals that f64 rounds.
//!
//! A lexeme is read as sign, significant digits d1..dn (d1 and dn non-zero)
//! and a point p, meaning 0.d1..dn × 10^p. Nothing here allocates except
//! `multipleOf` with a divisor of more than 37 significant digits.

use std::cmp::Ordering;

/// A number lexeme seen as a decimal: borrowed digits, no allocation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dec<'a> {
    neg: bool,
    /// Integer part digits then fraction digits, as written.
    int: &'a [u8],
    frac: &'a [u8],
    /// First and one-past-last significant digit in int ++ frac; equal when zero.
    start: usize,
    end: usize,
    /// Position of the decimal point relative to digit `start`: value is
    /// 0.d[start]..d[end-1] × 10^point.
    point: i64,
}

const EXP_CAP: i64 = i64::MAX / 8;

impl<'a> Dec<'a> {
    /// Reads a lexeme of the JSON number grammar. Returns `None` for text
    /// that is not one (never for lexemes from the parser).
    pub(crate) fn parse(lexeme: &'a str) -> Option<Dec<'a>> {
        let b = lexeme.as_bytes();
        let mut i = 0;
        let neg = b.first() == Some(&b'-');
        if neg {
            i = 1;
        }
        let int_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let int = b.get(int_start..i)?;
        if int.is_empty() {
            return None;
        }
        let mut frac: &[u8] = &[];
        if b.get(i) == Some(&b'.') {
            let fs = i + 1;
            i = fs;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            frac = b.get(fs..i)?;
            if frac.is_empty() {
                return None;
            }
        }
        let mut exp: i64 = 0;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            let eneg = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let es = i;
            while i < b.len() && b[i].is_ascii_digit() {
                exp = exp
                    .saturating_mul(10)
                    .saturating_add(i64::from(b[i] - b'0'))
                    .min(EXP_CAP);
                i += 1;
            }
            if i == es {
                return None;
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != b.len() {
            return None;
        }
        let n = int.len() + frac.len();
        let digit = |k: usize| {
            if k < int.len() {
                int[k]
            } else {
                frac[k - int.len()]
            }
        };
        let mut start = 0;
        while start < n && digit(start) == b'0' {
            start += 1;
        }
        let mut end = n;
        while end > start && digit(end - 1) == b'0' {
            end -= 1;
        }
        let point = if start == end {
            0
        } else {
            (int.len() as i64 - start as i64).saturating_add(exp)
        };
        Some(Dec {
            neg: neg && start != end,
            int,
            frac,
            start,
            end,
            point,
        })
    }

    #[inline]
    fn digit(&self, k: usize) -> u8 {
        if k < self.int.len() {
            self.int[k]
        } else {
            self.frac.get(k - self.int.len()).copied().unwrap_or(b'0')
        }
    }

    /// Whether the value is zero.
    pub(crate) fn is_zero(&self) -> bool {
        self.start == self.end
    }

    /// Whether the value is negative (zero is not).
    pub(crate) fn is_negative(&self) -> bool {
        self.neg
    }

    /// Number of significant digits.
    fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the value is a mathematical integer (`1.0`, `1e2` are).
    pub(crate) fn is_integer(&self) -> bool {
        self.is_zero() || self.point >= self.len() as i64
    }

    fn cmp_magnitude(&self, other: &Dec<'_>) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        match self.point.cmp(&other.point) {
            Ordering::Equal => {}
            o => return o,
        }
        let (la, lb) = (self.len(), other.len());
        for k in 0..la.min(lb) {
            match self
                .digit(self.start + k)
                .cmp(&other.digit(other.start + k))
            {
                Ordering::Equal => {}
                o => return o,
            }
        }
        la.cmp(&lb)
    }

    /// Exact numeric order.
    pub(crate) fn cmp(&self, other: &Dec<'_>) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }

    /// Whether `self` is an integer multiple of `divisor` (which must not be zero).
    pub(crate) fn is_multiple_of(&self, divisor: &Dec<'_>) -> bool {
        if self.is_zero() {
            return true;
        }
        if divisor.is_zero() {
            return false;
        }
        // self = a × 10^ea, divisor = b × 10^eb with a, b free of trailing zeros.
        let ea = self.point.saturating_sub(self.len() as i64);
        let eb = divisor.point.saturating_sub(divisor.len() as i64);
        if ea < eb {
            // a / (b × 10^k) with a not divisible by 10: never an integer.
            return false;
        }
        // Past this many extra zeros only b's factors coprime to 10 matter
        // (2^x and 5^y with x, y < 3.33 × digits of b are covered), so the
        // answer no longer changes.
        let cap = 4 * divisor.len() as i64 + 4;
        let k = (ea - eb).min(cap) as usize;
        let a = (self.start..self.end)
            .map(|i| self.digit(i))
            .chain(std::iter::repeat_n(b'0', k));
        if divisor.len() <= 37 {
            let mut b: u128 = 0;
            for i in divisor.start..divisor.end {
                b = b * 10 + u128::from(divisor.digit(i) - b'0');
            }
            let mut r: u128 = 0;
            for d in a {
                r = (r * 10 + u128::from(d - b'0')) % b;
            }
            r == 0
        } else {
            let b: Vec<u8> = (divisor.start..divisor.end)
                .map(|i| divisor.digit(i))
                .collect();
            divides_digits(&b, a, self.len() + k)
        }
    }

    /// A non-negative integer value as `u64`, saturating (counts and lengths).
    pub(crate) fn as_u64_saturating(&self) -> u64 {
        if self.neg || !self.is_integer() {
            return 0;
        }
        if self.point > 19 {
            return u64::MAX;
        }
        let mut v: u64 = 0;
        for k in 0..self.point as usize {
            v = v
                .saturating_mul(10)
                .saturating_add(u64::from(self.digit(self.start + k) - b'0'));
        }
        v
    }

    /// The value as `i64` when it is an integer in range (fast paths).
    pub(crate) fn as_i64(&self) -> Option<i64> {
        if !self.is_integer() || self.point > 18 {
            return None;
        }
        let mut v: i64 = 0;
        for k in 0..self.point as usize {
            v = v * 10 + i64::from(self.digit(self.start + k) - b'0');
        }
        Some(if self.neg { -v } else { v })
    }
}

/// A number from a schema, kept with its lexeme for exact comparison and a
/// precomputed `i64` for the common fast path.
#[derive(Clone, Debug)]
pub(crate) struct SchemaNumber {
    pub(crate) lexeme: compact_str::CompactString,
    pub(crate) int: Option<i64>,
}

impl SchemaNumber {
    pub(crate) fn new(lexeme: &str) -> Option<SchemaNumber> {
        // A plain integer (most bounds) needs no decimal parse; one with a
        // leading zero is not JSON, and is left to the parse to refuse.
        let digits = lexeme.strip_prefix('-').unwrap_or(lexeme);
        if !(digits.len() > 1 && digits.starts_with('0'))
            && let Some(i) = quick_i64(lexeme)
        {
            return Some(SchemaNumber {
                int: Some(i),
                lexeme: lexeme.into(),
            });
        }
        let d = Dec::parse(lexeme)?;
        Some(SchemaNumber {
            int: d.as_i64(),
            lexeme: lexeme.into(),
        })
    }

    pub(crate) fn dec(&self) -> Dec<'_> {
        // Checked in `new`; the fallback is never taken.
        Dec::parse(&self.lexeme).unwrap_or(Dec {
            neg: false,
            int: b"0",
            frac: b"",
            start: 0,
            end: 0,
            point: 0,
        })
    }
}

/// A fast `i64` reading of a plain integer lexeme (`-?[0-9]{1,18}`).
#[inline]
pub(crate) fn quick_i64(lexeme: &str) -> Option<i64> {
    let b = lexeme.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(if neg { -v } else { v })
}

/// Exact order of an instance lexeme against a schema number.
#[inline]
pub(crate) fn cmp_lexeme(lexeme: &str, bound: &SchemaNumber) -> Option<Ordering> {
    if let Some(b) = bound.int
        && let Some(q) = QuickNumber::read(lexeme)
    {
        return Some(q.cmp_int(b));
    }
    Some(Dec::parse(lexeme)?.cmp(&bound.dec()))
}

/// A plain decimal lexeme `-?I(.F)?` (`I` of at most 18 digits, no
/// exponent) read for comparison against integers without a decimal
/// parse: the value lies within one of its integer part `I`. Read once per
/// instance number and compared against each integer bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuickNumber {
    int: i64,
    /// The value's order against `int`: `Equal` when it is an integer.
    frac: Ordering,
}

impl QuickNumber {
    /// Reads `lexeme`, or `None` when it is not of the plain form.
    #[inline]
    pub(crate) fn read(lexeme: &str) -> Option<QuickNumber> {
        let b = lexeme.as_bytes();
        let (neg, digits) = match b.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, b),
        };
        let mut int: i64 = 0;
        let mut n = 0;
        for &c in digits {
            if !c.is_ascii_digit() {
                break;
            }
            // 18 digits always fit an i64; a 19th may not, so it is
            // refused before it is multiplied in.
            if n == 18 {
                return None;
            }
            int = int * 10 + i64::from(c - b'0');
            n += 1;
        }
        if n == 0 {
            return None;
        }
        let int = if neg { -int } else { int };
        let frac = match digits.get(n..) {
            Some([]) => Ordering::Equal,
            Some([b'.', f @ ..]) if !f.is_empty() && f.iter().all(u8::is_ascii_digit) => {
                // A nonzero fraction puts the value past `int`, away from 0.
                match (f.iter().all(|&c| c == b'0'), neg) {
                    (true, _) => Ordering::Equal,
                    (false, true) => Ordering::Less,
                    (false, false) => Ordering::Greater,
                }
            }
            _ => return None,
        };
        Some(QuickNumber { int, frac })
    }

    /// The value's order against the integer `b`.
    #[inline]
    pub(crate) fn cmp_int(self, b: i64) -> Ordering {
        match self.int.cmp(&b) {
            Ordering::Equal => self.frac,
            o => o,
        }
    }
}

/// [`cmp_lexeme`] with the instance read once: `quick` is
/// `QuickNumber::read(lexeme)`, made by the caller on first use.
#[inline]
pub(crate) fn cmp_quick(
    quick: &mut Option<Option<QuickNumber>>,
    lexeme: &str,
    bound: &SchemaNumber,
) -> Option<Ordering> {
    if let Some(b) = bound.int
        && let Some(q) = *quick.get_or_insert_with(|| QuickNumber::read(lexeme))
    {
        return Some(q.cmp_int(b));
    }
    Some(Dec::parse(lexeme)?.cmp(&bound.dec()))
}

/// Exact numeric equality of two lexemes (`1` equals `1.0` and `1e0`).
pub(crate) fn lexemes_equal(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (Dec::parse(a), Dec::parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y) == Ordering::Equal,
        _ => false,
    }
}

/// Whether a lexeme denotes a mathematical integer.
#[inline]
pub(crate) fn lexeme_is_integer(lexeme: &str) -> bool {
    if !lexeme.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return true;
    }
    Dec::parse(lexeme).is_some_and(|d| d.is_integer())
}

/// Hashes a number lexeme by its value: what [`lexemes_equal`] holds equal
/// hashes equal (sign, significant digits, decimal point). A lexeme that is
/// not a number hashes its text.
pub(crate) fn hash_number_value<H: std::hash::Hasher>(lexeme: &str, h: &mut H) {
    use std::hash::Hash;
    match Dec::parse(lexeme) {
        Some(d) => {
            d.neg.hash(h);
            d.point.hash(h);
            for k in d.start..d.end {
                h.write_u8(d.digit(k));
            }
        }
        None => lexeme.hash(h),
    }
}

/// Limb base of [`divides_digits`]: nine decimal digits per `u64` limb.
const LIMB: u64 = 1_000_000_000;

/// The decimal digits (ASCII) of a number as base-[`LIMB`] limbs, most
/// significant first.
fn limbs_of(digits: &[u8]) -> Vec<u64> {
    let head = digits.len() % 9;
    let mut out = Vec::with_capacity(digits.len() / 9 + 1);
    let mut push = |chunk: &[u8]| {
        out.push(
            chunk
                .iter()
                .fold(0u64, |v, d| v * 10 + u64::from(d.wrapping_sub(b'0'))),
        );
    };
    if head > 0 {
        push(&digits[..head]);
    }
    digits[head..].chunks(9).for_each(push);
    out
}

/// Whether the integer whose `n` decimal digits (ASCII, most significant
/// first) `dividend` yields is a multiple of the integer `divisor` (ASCII
/// digits, no leading zero, not zero).
///
/// Long division nine digits at a time: each step shifts one limb into the
/// remainder and takes off a quotient limb estimated from the leading limbs
/// (never too large, at most a few too small, then corrected), so the work
/// is O(`n` × divisor digits / 81) limb operations and the memory two
/// divisor-sized vectors.
pub(crate) fn divides_digits(
    divisor: &[u8],
    mut dividend: impl Iterator<Item = u8>,
    n: usize,
) -> bool {
    let b = limbs_of(divisor);
    let m = b.len();
    if m < 2 {
        // One limb: a u64 remainder.
        let Some(&b0) = b.first() else { return false };
        if b0 == 0 {
            return false;
        }
        let mut r = 0u64;
        for d in dividend {
            r = (r * 10 + u64::from(d.wrapping_sub(b'0'))) % b0;
        }
        return r == 0;
    }
    // The leading two limbs of the divisor, plus one: dividing by this
    // never over-estimates a quotient limb.
    let top = u128::from(b[0]) * u128::from(LIMB) + u128::from(b[1]) + 1;
    // The remainder, m + 1 limbs, most significant first; below `b` after
    // each step.
    let mut r = vec![0u64; m + 1];
    let head = n % 9;
    let mut take = |count: usize| -> u64 {
        let mut v = 0u64;
        for _ in 0..count {
            v = v * 10 + u64::from(dividend.next().unwrap_or(b'0').wrapping_sub(b'0'));
        }
        v
    };
    let steps = n / 9 + usize::from(head > 0);
    for step in 0..steps {
        super::budget::tally(m as u64);
        let width = if step == 0 && head > 0 { head } else { 9 };
        // r = r × LIMB + next limb (r < b fits m limbs: the top one is 0).
        r.rotate_left(1);
        if let Some(last) = r.last_mut() {
            *last = take(width);
        }
        if step == 0 && head > 0 {
            // r was 0, so this first limb of fewer than nine digits is r.
            continue;
        }
        let lead = u128::from(r[0]) * u128::from(LIMB) * u128::from(LIMB)
            + u128::from(r[1]) * u128::from(LIMB)
            + u128::from(r[2]);
        let q = (lead / top) as u64;
        if q > 0 {
            // r -= q × b, aligned at the low end (b has one limb fewer).
            let mut borrow = 0u64;
            for i in (0..m).rev() {
                let t = u128::from(q) * u128::from(b[i]) + u128::from(borrow);
                let sub = (t % u128::from(LIMB)) as u64;
                borrow = (t / u128::from(LIMB)) as u64;
                let ri = &mut r[i + 1];
                if *ri >= sub {
                    *ri -= sub;
                } else {
                    *ri = *ri + LIMB - sub;
                    borrow += 1;
                }
            }
            r[0] = r[0].saturating_sub(borrow);
        }
        // The estimate falls short by at most a few: subtract b while r >= b.
        while ge_shifted(&r, &b) {
            sub_shifted(&mut r, &b);
        }
    }
    r.iter().all(|&l| l == 0)
}

/// `r >= b` for `r` of one limb more than `b`.
fn ge_shifted(r: &[u64], b: &[u64]) -> bool {
    if r.first().is_some_and(|&l| l > 0) {
        return true;
    }
    r.get(1..).is_some_and(|rest| rest >= b)
}

/// `r -= b` for `r >= b`, `r` of one limb more than `b`.
fn sub_shifted(r: &mut [u64], b: &[u64]) {
    let mut borrow = 0u64;
    for i in (0..r.len()).rev() {
        let sub = if i > 0 { b[i - 1] } else { 0 } + borrow;
        if r[i] >= sub {
            r[i] -= sub;
            borrow = 0;
        } else {
            r[i] = r[i] + LIMB - sub;
            borrow = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(a: &str, b: &str) -> Ordering {
        Dec::parse(a).unwrap().cmp(&Dec::parse(b).unwrap())
    }

    #[test]
    fn order_is_exact() {
        assert_eq!(cmp("1", "1.0"), Ordering::Equal);
        assert_eq!(cmp("0.1e1", "1"), Ordering::Equal);
        assert_eq!(cmp("-0", "0"), Ordering::Equal);
        assert_eq!(
            cmp("12345678901234567890123", "12345678901234567890124"),
            Ordering::Less
        );
        assert_eq!(cmp("-2", "-1"), Ordering::Less);
        assert_eq!(cmp("1e400", "1e399"), Ordering::Greater);
        assert_eq!(cmp("0.30000000000000004", "0.3"), Ordering::Greater);
        assert_eq!(cmp("100", "99.999"), Ordering::Greater);
    }

    #[test]
    fn quick_decimal_order_matches_exact_order() {
        let lexemes = [
            "0.5",
            "-0.5",
            "-0.0",
            "0.0",
            "1.0",
            "-1.0",
            "2500.5",
            "-2500.5",
            "0.999",
            "-0.999",
            "1.000001",
            "-1.000001",
            "59999.99",
            "60000.0",
            "60000.01",
            "-60000.01",
        ];
        for l in lexemes {
            for b in [-60001, -60000, -2501, -2500, -1, 0, 1, 2, 2500, 2501, 60000] {
                let exact = Dec::parse(l)
                    .unwrap()
                    .cmp(&Dec::parse(&b.to_string()).unwrap());
                let quick = QuickNumber::read(l).map(|q| q.cmp_int(b));
                assert_eq!(quick, Some(exact), "{l} vs {b}");
                let bound = SchemaNumber::new(&b.to_string()).unwrap();
                assert_eq!(cmp_lexeme(l, &bound), Some(exact), "{l} vs {b}");
                assert_eq!(cmp_quick(&mut None, l, &bound), Some(exact), "{l} vs {b}");
            }
        }
        for l in [
            "1e5",
            "1.5e5",
            "1234567890123456789.5",
            "1.",
            "-",
            "",
            "1.5.5",
            "--1",
        ] {
            assert!(QuickNumber::read(l).is_none(), "{l}");
        }
        assert_eq!(
            QuickNumber::read("123456789012345678").map(|q| q.int),
            Some(123456789012345678)
        );
        assert!(QuickNumber::read("1234567890123456789").is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]
        #[test]
        fn quick_order_is_exact_order(
            neg in proptest::bool::ANY,
            int in "(0|[1-9][0-9]{0,19})",
            frac in proptest::option::of("[0-9]{1,4}"),
            b in -100_000i64..100_000,
            near in proptest::bool::ANY,
        ) {
            let sign = if neg { "-" } else { "" };
            let l = match &frac {
                Some(f) => format!("{sign}{int}.{f}"),
                None => format!("{sign}{int}"),
            };
            // Bounds next to the value as often as not.
            let b = if near { int.parse::<i64>().map_or(b, |i| (if neg { -i } else { i }).saturating_add(b % 2)) } else { b };
            let exact = Dec::parse(&l).unwrap().cmp(&Dec::parse(&b.to_string()).unwrap());
            let bound = SchemaNumber::new(&b.to_string()).unwrap();
            proptest::prop_assert_eq!(cmp_lexeme(&l, &bound), Some(exact));
            proptest::prop_assert_eq!(cmp_quick(&mut None, &l, &bound), Some(exact));
        }
    }

    /// A bound read by the integer fast path holds what the decimal parse
    /// would give it.
    #[test]
    fn schema_numbers_read_as_the_decimal_parse_reads_them() {
        for l in [
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "100000",
            "999999999999999999",
            "-999999999999999999",
            "1000000000000000000",
            "9223372036854775807",
            "-9223372036854775808",
            "1.0",
            "1e2",
            "1.5",
            "-0.0",
            "00",
            "01",
            "-01",
            "",
            "-",
            "1a",
            "+1",
        ] {
            let fast = SchemaNumber::new(l).map(|n| n.int);
            let slow = Dec::parse(l).map(|d| d.as_i64());
            assert_eq!(fast, slow, "{l:?}");
        }
    }

    /// Cases proptest found in `quick_order_is_exact_order`, kept as a
    /// table (the first overflowed on a 19th digit in CI).
    #[test]
    fn quick_order_regressions() {
        for (l, b) in [
            ("9230000000000000000", 0i64),
            ("9224000000000000000", 0),
            ("99999999999999999999", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("-9223372036854775809", i64::MIN),
            ("999999999999999999", 999_999_999_999_999_999),
            ("999999999999999999.5", 999_999_999_999_999_999),
            ("-0.1", 0),
            ("0", -1),
            ("-0", 0),
            ("-0.1", 21164),
        ] {
            let exact = Dec::parse(l)
                .unwrap()
                .cmp(&Dec::parse(&b.to_string()).unwrap());
            let bound = SchemaNumber::new(&b.to_string()).unwrap();
            assert_eq!(cmp_lexeme(l, &bound), Some(exact), "{l} vs {b}");
            assert_eq!(cmp_quick(&mut None, l, &bound), Some(exact), "{l} vs {b}");
        }
        assert!(QuickNumber::read("1234567890123456789").is_none());
        assert_eq!(
            QuickNumber::read("-123456789012345678").map(|q| q.cmp_int(-123456789012345678)),
            Some(Ordering::Equal)
        );
    }

    #[test]
    fn exponents_past_i64_saturate() {
        // Found by the schema fuzz target: a 20-digit exponent overflowed.
        let huge = "1e99999999999999999999999";
        assert_eq!(cmp(huge, "1e400"), Ordering::Greater);
        assert_eq!(cmp("-1e99999999999999999999999", "-1e400"), Ordering::Less);
        assert_eq!(cmp("1e-99999999999999999999999", "1e-400"), Ordering::Less);
        assert!(Dec::parse(huge).unwrap().is_integer());
        assert!(
            Dec::parse(huge)
                .unwrap()
                .is_multiple_of(&Dec::parse("1e-99999999999999999999").unwrap())
        );
    }

    #[test]
    fn integers_and_multiples() {
        assert!(Dec::parse("1.0").unwrap().is_integer());
        assert!(Dec::parse("1e308").unwrap().is_integer());
        assert!(!Dec::parse("1.5").unwrap().is_integer());
        let m = |a: &str, b: &str| {
            Dec::parse(a)
                .unwrap()
                .is_multiple_of(&Dec::parse(b).unwrap())
        };
        assert!(m("4.5", "1.5"));
        assert!(!m("35", "1.5"));
        assert!(m("0.0075", "0.0001"));
        assert!(!m("0.00751", "0.0001"));
        assert!(m("1e308", "0.5"));
        assert!(m("19.99", "0.01"));
        assert!(m(
            "123456789012345678901234567890123456789012345678900",
            "1234567890123456789012345678901234567890123456789"
        ));
        assert!(!m(
            "123456789012345678901234567890123456789012345678901",
            "1234567890123456789012345678901234567890123456789"
        ));
        assert!(m("-10", "5"));
    }

    #[test]
    fn long_division_agrees_with_u128() {
        // xorshift: divisors of two to four limbs, dividends of any length
        // that u128 holds, and exact multiples.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let b = (u128::from(next()) << 40 | u128::from(next()))
                % 10u128.pow(30 + (next() % 8) as u32)
                + 1_000_000_000;
            let a = match next() % 3 {
                0 => match b.checked_mul(u128::from(next() % 1_000_000)) {
                    Some(a) => a,
                    None => continue,
                },
                _ => u128::from(next()) << (next() % 60) | u128::from(next()),
            };
            let (bs, as_) = (b.to_string(), a.to_string());
            assert_eq!(
                divides_digits(bs.as_bytes(), as_.bytes(), as_.len()),
                a % b == 0,
                "{a} / {b}"
            );
        }
    }
}
