//! Inside a JSON string, byte by byte: plain text, escapes, `\\uXXXX` and
//! surrogate pairs, and UTF-8 sequences, each accepted exactly (a token may
//! end anywhere inside one).

use super::pattern::Text;

/// Where a string is: plain text, after `\`, inside `\uXXXX`, waiting for
/// the low half of a surrogate pair, or inside a UTF-8 sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Sx {
    Normal,
    Esc,
    /// Reading hex digit `n` (0..4) of `\u`; `val` so far; `low`: this is the
    /// second escape of a surrogate pair.
    Hex {
        n: u8,
        val: u16,
        low: bool,
    },
    /// After a high surrogate: expecting `\` (`u` when `slash`).
    NeedLow {
        slash: bool,
    },
    /// `need` continuation bytes left, the next within `lo..=hi`.
    Utf8 {
        need: u8,
        lo: u8,
        hi: u8,
    },
}

impl From<Sx> for Text {
    fn from(sx: Sx) -> Text {
        match sx {
            Sx::Normal => Text::Normal,
            Sx::Esc => Text::Esc,
            Sx::Hex { n, val, low } => Text::Hex { n, val, low },
            Sx::NeedLow { slash } => Text::NeedLow { slash },
            Sx::Utf8 { need, .. } => Text::Utf8 { need },
        }
    }
}

/// A string byte under state `sx`: the new state and whether a code point
/// was completed; `None` if the byte cannot come here. `canonical`: only
/// the escapes `serde_json` writes (for keys, compared as written).
pub(crate) fn str_byte(sx: Sx, b: u8, canonical: bool) -> Option<(Sx, bool)> {
    Some(match sx {
        Sx::Normal => return plain_byte(b),
        Sx::Utf8 { need, lo, hi } => {
            if b < lo || b > hi {
                return None;
            }
            if need == 1 {
                (Sx::Normal, true)
            } else {
                (
                    Sx::Utf8 {
                        need: need - 1,
                        lo: 0x80,
                        hi: 0xbf,
                    },
                    false,
                )
            }
        }
        Sx::Esc => match b {
            b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => (Sx::Normal, true),
            b'/' if !canonical => (Sx::Normal, true),
            b'u' => (
                Sx::Hex {
                    n: 0,
                    val: 0,
                    low: false,
                },
                false,
            ),
            _ => return None,
        },
        Sx::NeedLow { slash: false } => match b {
            b'\\' => (Sx::NeedLow { slash: true }, false),
            _ => return None,
        },
        Sx::NeedLow { slash: true } => match b {
            b'u' => (
                Sx::Hex {
                    n: 0,
                    val: 0,
                    low: true,
                },
                false,
            ),
            _ => return None,
        },
        Sx::Hex { n, val, low } => return hex_digit(n, val, low, b, canonical),
    })
}

/// A byte of plain text: a character, the `\` of an escape, or the lead
/// byte of a UTF-8 sequence (with the range of the byte after it: no
/// overlongs, no surrogates, nothing past U+10FFFF).
#[inline(always)]
fn plain_byte(b: u8) -> Option<(Sx, bool)> {
    let utf8 = |need, lo, hi| Some((Sx::Utf8 { need, lo, hi }, false));
    match b {
        b'\\' => Some((Sx::Esc, false)),
        0..=0x1f => None,
        0x20..=0x7f => Some((Sx::Normal, true)),
        0xc2..=0xdf => utf8(1, 0x80, 0xbf),
        0xe0 => utf8(2, 0xa0, 0xbf),
        0xe1..=0xec | 0xee..=0xef => utf8(2, 0x80, 0xbf),
        0xed => utf8(2, 0x80, 0x9f),
        0xf0 => utf8(3, 0x90, 0xbf),
        0xf1..=0xf3 => utf8(3, 0x80, 0xbf),
        0xf4 => utf8(3, 0x80, 0x8f),
        _ => None,
    }
}

/// Hex digit `n` of a `\uXXXX` (`val` so far, `low`: the second escape of
/// a surrogate pair).
#[inline(always)]
fn hex_digit(n: u8, val: u16, low: bool, b: u8, canonical: bool) -> Option<(Sx, bool)> {
    let d = match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' if !canonical => b - b'A' + 10,
        _ => return None,
    };
    let val = val << 4 | u16::from(d);
    if canonical {
        // serde_json writes `\u00XX` only for control characters without
        // a short escape.
        let ok = match n {
            0 | 1 => d == 0,
            2 => d <= 1,
            _ => !matches!(val, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d),
        };
        if !ok {
            return None;
        }
    }
    // Prefix checks on the surrogate ranges. After two digits the kind of
    // code unit is known: a low surrogate must come second in a pair, and
    // only there.
    let ok = match (n, low) {
        (0, true) => d == 0xd,
        (1, true) => (0xdc..=0xdf).contains(&val),
        (1, false) => !(0xdc..=0xdf).contains(&val),
        _ => true,
    };
    if !ok {
        return None;
    }
    Some(if n < 3 {
        (Sx::Hex { n: n + 1, val, low }, false)
    } else if low {
        (Sx::Normal, true)
    } else if (0xd800..0xdc00).contains(&val) {
        (Sx::NeedLow { slash: false }, false)
    } else {
        (Sx::Normal, true)
    })
}

/// Whether a pending code point in state `sx` still needs one more char slot.
pub(crate) fn pending(sx: Sx) -> bool {
    sx != Sx::Normal
}
