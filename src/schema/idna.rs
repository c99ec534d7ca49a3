//! A-labels of the `hostname` format: RFC 3492 Punycode decoding and the
//! IDNA2008 rules (RFC 5891 section 4.2, RFC 5892) on the decoded U-label.
//!
//! What is checked on the U-label: it really has non-ASCII text and no
//! `--` in positions 3-4; it does not begin with a combining mark; every
//! code point is a lowercase or caseless letter, digit or combining mark
//! (the general-category core of RFC 5892's `PVALID`), one of the
//! section 2.6 exceptions that are `PVALID`, or a `CONTEXTJ` / `CONTEXTO`
//! code point whose rule holds (ZERO WIDTH JOINER and NON-JOINER after a
//! virama, MIDDLE DOT between two `l`, Greek KERAIA before Greek, Hebrew
//! GERESH and GERSHAYIM after Hebrew, KATAKANA MIDDLE DOT in a label with
//! Hiragana, Katakana or Han, Arabic-Indic digits not mixed with the
//! extended ones); the section 2.6 `DISALLOWED` exceptions are refused.
//!
//! Approximations, stated: the derived property table is approximated by
//! general category (a compatibility character that NFKC would change, such
//! as the ligature U+FB01, is not refused), and the NON-JOINER's joining
//! context counts any letter of a cursive-joining script as dual-joining
//! (Unicode's `Joining_Type` table is not carried). Script and category
//! lookups use the `regex` crate's Unicode tables.

use std::sync::OnceLock;

use regex::Regex;

/// Whether `label` (the part after `xn--`) decodes to a valid U-label.
/// Host names compare case-insensitively, so ASCII is lowercased first.
/// The U-label must also encode back to the same text (RFC 5891 5.3):
/// Punycode decodes a few spellings that its encoder never writes, such as
/// a delimiter with no basic code point before it (`xn---9ca` for `é`,
/// whose A-label is `xn--9ca`).
pub(crate) fn a_label_ok(label: &str) -> bool {
    let label = label.to_ascii_lowercase();
    match punycode_decode(&label) {
        Some(u) => punycode_encode(&u).is_some_and(|e| e == label) && u_label_ok(&u),
        None => false,
    }
}

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;

/// RFC 3492 6.2/6.3: the threshold `t` of digit position `k`.
fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points.max(1);
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

/// RFC 3492 decoding; `None` for text that is not Punycode (overflow
/// included). Labels are at most 63 bytes, so the output is short.
pub(crate) fn punycode_decode(input: &str) -> Option<Vec<char>> {
    let (basic, extended) = match input.rfind('-') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => ("", input),
    };
    if !basic.is_ascii() {
        return None;
    }
    let mut out: Vec<char> = basic.chars().collect();
    let mut n: u32 = 128;
    let mut i: u32 = 0;
    let mut bias: u32 = 72;
    let mut digits = extended.bytes().peekable();
    while digits.peek().is_some() {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let c = digits.next()?;
            let digit = u32::from(match c {
                b'a'..=b'z' => c - b'a',
                b'A'..=b'Z' => c - b'A',
                b'0'..=b'9' => c - b'0' + 26,
                _ => return None,
            });
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k = k.checked_add(BASE)?;
        }
        let len = u32::try_from(out.len()).ok()? + 1;
        bias = adapt(i - old_i, len, old_i == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        let ch = char::from_u32(n)?;
        out.insert(i as usize, ch);
        i += 1;
    }
    Some(out)
}

/// RFC 3492 encoding (section 6.3), lowercase; `None` on overflow.
pub(crate) fn punycode_encode(input: &[char]) -> Option<String> {
    let mut out: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = u32::try_from(out.len()).ok()?;
    if basic > 0 {
        out.push('-');
    }
    let total = u32::try_from(input.len()).ok()?;
    let (mut n, mut delta, mut bias, mut h) = (128u32, 0u32, 72u32, basic);
    while h < total {
        let m = input.iter().map(|&c| c as u32).filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(h + 1)?)?;
        n = m;
        for &c in input {
            let c = c as u32;
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(punycode_digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(punycode_digit(q));
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(out)
}

fn punycode_digit(d: u32) -> char {
    // `d` is below 36: the callers reduce it modulo `BASE - t`, or it is
    // below `t`, which is at most 26.
    let d = d as u8;
    char::from(if d < 26 { b'a' + d } else { b'0' + d - 26 })
}

/// One lazily built Unicode class; a class that fails to build (it cannot:
/// the patterns are constants) makes every lookup fail closed.
fn class(cell: &'static OnceLock<Option<Regex>>, pattern: &str, c: char) -> Option<bool> {
    let re = cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()?;
    let mut buf = [0u8; 4];
    Some(re.is_match(c.encode_utf8(&mut buf)))
}

static MARK: OnceLock<Option<Regex>> = OnceLock::new();
static PVALID_CORE: OnceLock<Option<Regex>> = OnceLock::new();
static TRANSPARENT: OnceLock<Option<Regex>> = OnceLock::new();
static JOINING: OnceLock<Option<Regex>> = OnceLock::new();
static GREEK: OnceLock<Option<Regex>> = OnceLock::new();
static HEBREW: OnceLock<Option<Regex>> = OnceLock::new();
static KANA_HAN: OnceLock<Option<Regex>> = OnceLock::new();

fn is_mark(c: char) -> Option<bool> {
    class(&MARK, r"^\p{M}$", c)
}

/// Code points with canonical combining class 9 (virama), Unicode 14.
const VIRAMAS: &[(u32, u32)] = &[
    (0x094D, 0x094D),
    (0x09CD, 0x09CD),
    (0x0A4D, 0x0A4D),
    (0x0ACD, 0x0ACD),
    (0x0B4D, 0x0B4D),
    (0x0BCD, 0x0BCD),
    (0x0C4D, 0x0C4D),
    (0x0CCD, 0x0CCD),
    (0x0D3B, 0x0D3C),
    (0x0D4D, 0x0D4D),
    (0x0DCA, 0x0DCA),
    (0x0E3A, 0x0E3A),
    (0x0EBA, 0x0EBA),
    (0x0F84, 0x0F84),
    (0x1039, 0x103A),
    (0x1714, 0x1715),
    (0x1734, 0x1734),
    (0x17D2, 0x17D2),
    (0x1A60, 0x1A60),
    (0x1B44, 0x1B44),
    (0x1BAA, 0x1BAB),
    (0x1BF2, 0x1BF3),
    (0x2D7F, 0x2D7F),
    (0xA806, 0xA806),
    (0xA82C, 0xA82C),
    (0xA8C4, 0xA8C4),
    (0xA953, 0xA953),
    (0xA9C0, 0xA9C0),
    (0xAAF6, 0xAAF6),
    (0xABED, 0xABED),
    (0x10A3F, 0x10A3F),
    (0x11046, 0x11046),
    (0x11070, 0x11070),
    (0x1107F, 0x1107F),
    (0x110B9, 0x110B9),
    (0x11133, 0x11134),
    (0x111C0, 0x111C0),
    (0x11235, 0x11235),
    (0x112EA, 0x112EA),
    (0x1134D, 0x1134D),
    (0x11442, 0x11442),
    (0x114C2, 0x114C2),
    (0x115BF, 0x115BF),
    (0x1163F, 0x1163F),
    (0x116B6, 0x116B6),
    (0x1172B, 0x1172B),
    (0x11839, 0x11839),
    (0x1193D, 0x1193E),
    (0x119E0, 0x119E0),
    (0x11A34, 0x11A34),
    (0x11A47, 0x11A47),
    (0x11A99, 0x11A99),
    (0x11C3F, 0x11C3F),
    (0x11D44, 0x11D45),
    (0x11D97, 0x11D97),
];

fn is_virama(c: char) -> bool {
    let cp = u32::from(c);
    VIRAMAS.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// RFC 5892 section 2.6 exceptions that are `PVALID`.
const EXCEPT_PVALID: &[char] = &[
    '\u{00DF}', '\u{03C2}', '\u{06FD}', '\u{06FE}', '\u{0F0B}', '\u{3007}',
];

/// RFC 5892 section 2.6 exceptions that are `DISALLOWED`.
const EXCEPT_DISALLOWED: &[char] = &[
    '\u{0640}', '\u{07FA}', '\u{302E}', '\u{302F}', '\u{3031}', '\u{3032}', '\u{3033}', '\u{3034}',
    '\u{3035}', '\u{303B}',
];

/// The NON-JOINER's regular-expression context (RFC 5892 appendix A.1),
/// with joining types approximated as described in the module docs.
fn zwnj_joins(label: &[char], at: usize) -> Option<bool> {
    let mut before = at;
    let left = loop {
        if before == 0 {
            break false;
        }
        before -= 1;
        let c = label[before];
        if transparent(c)? {
            continue;
        }
        break joining(c)?;
    };
    let mut after = at + 1;
    let right = loop {
        let Some(&c) = label.get(after) else {
            break false;
        };
        after += 1;
        if transparent(c)? {
            continue;
        }
        break joining(c)?;
    };
    Some(left && right)
}

/// Joining_Type T, approximated by category (Mn, Me, Cf), less the two
/// joiners: Unicode gives ZERO WIDTH NON-JOINER type U and ZERO WIDTH
/// JOINER type C, so neither is skipped when the NON-JOINER looks for a
/// joining letter on each side (`LAM ZWNJ ZWNJ LAM` has none).
fn transparent(c: char) -> Option<bool> {
    if matches!(c, '\u{200C}' | '\u{200D}') {
        return Some(false);
    }
    class(&TRANSPARENT, r"^[\p{Mn}\p{Me}\p{Cf}]$", c)
}

fn joining(c: char) -> Option<bool> {
    class(
        &JOINING,
        r"^[\p{Arabic}\p{Syriac}\p{Nko}\p{Mongolian}\p{Mandaic}\p{Manichaean}\p{Psalter_Pahlavi}\p{Adlam}\p{Hanifi_Rohingya}\p{Sogdian}\p{Phags_Pa}&&\p{L}]$",
        c,
    )
}

fn u_label_ok(label: &[char]) -> bool {
    u_label_check(label).unwrap_or(false)
}

fn u_label_check(label: &[char]) -> Option<bool> {
    if label.is_empty() || label.iter().all(char::is_ascii) {
        // An A-label encodes non-ASCII text.
        return Some(false);
    }
    if label.get(2..4) == Some(&['-', '-'][..])
        || label.first() == Some(&'-')
        || label.last() == Some(&'-')
    {
        return Some(false);
    }
    if is_mark(label[0])? {
        return Some(false);
    }
    let has_arabic_indic = label.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c));
    let has_extended = label.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c));
    for (i, &c) in label.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| label.get(j)).copied();
        let next = label.get(i + 1).copied();
        let ok = match c {
            'a'..='z' | '0'..='9' | '-' => true,
            _ if EXCEPT_DISALLOWED.contains(&c) => false,
            _ if EXCEPT_PVALID.contains(&c) => true,
            '\u{200D}' => prev.is_some_and(is_virama),
            '\u{200C}' => prev.is_some_and(is_virama) || zwnj_joins(label, i)?,
            '\u{00B7}' => prev == Some('l') && next == Some('l'),
            '\u{0375}' => match next {
                Some(n) => class(&GREEK, r"^\p{Greek}$", n)?,
                None => false,
            },
            '\u{05F3}' | '\u{05F4}' => match prev {
                Some(p) => class(&HEBREW, r"^\p{Hebrew}$", p)?,
                None => false,
            },
            '\u{30FB}' => {
                let mut any = false;
                for &o in label {
                    if class(&KANA_HAN, r"^[\p{Hiragana}\p{Katakana}\p{Han}]$", o)? {
                        any = true;
                        break;
                    }
                }
                any
            }
            '\u{0660}'..='\u{0669}' => !has_extended,
            '\u{06F0}'..='\u{06F9}' => !has_arabic_indic,
            _ => class(&PVALID_CORE, r"^[\p{Ll}\p{Lo}\p{Lm}\p{Nd}\p{Mn}\p{Mc}]$", c)?,
        };
        if !ok {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punycode_round_trips_known_labels() {
        // RFC 3492 section 7.1 (A) Arabic (Egyptian), lowercased.
        let arabic: String = punycode_decode("egbpdaj6bu4bxfgehfvwxn")
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(
            arabic,
            "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}"
        );
        let mixed: String = punycode_decode("bcher-kva").unwrap().into_iter().collect();
        assert_eq!(mixed, "bücher");
        assert_eq!(punycode_decode("X"), None);
        assert_eq!(
            punycode_decode("99999999999999"),
            None,
            "overflow is refused"
        );
    }

    #[test]
    fn any_label_gives_a_verdict() {
        // Deterministic pseudo-random labels over the Punycode alphabet and
        // a few others: decoding and the U-label checks never panic.
        let alphabet = b"abcdefghijklmnopqrstuvwxyzXN0123456789--";
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut accepted = 0;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 24) as usize;
            let label: String = (0..len)
                .map(|i| alphabet[((x >> (i % 8 * 8)) as usize + i) % alphabet.len()] as char)
                .collect();
            if a_label_ok(&label) {
                accepted += 1;
            }
        }
        assert!(accepted < 20_000);
    }

    #[test]
    fn u_label_rules() {
        assert!(a_label_ok("bcher-kva"));
        assert!(
            a_label_ok("Bcher-KVA"),
            "case-insensitive, as host names are"
        );
        assert!(!a_label_ok("abc-"), "all-ASCII is not an A-label");
        assert!(!a_label_ok("hello-zed"), "leading nonspacing mark");
        assert!(a_label_ok("ll-0ea"), "MIDDLE DOT between l's");
        assert!(!a_label_ok("al-0ea"));
    }
}
