//! Byte-level scans of string text: the plain-run scan (SWAR) and its byte
//! classes, the one-letter escape table, and UTF-8 reads, shared by the
//! string decoder and the number scanner.

/// Finds the end of a run of plain string bytes: the first `"`, `\\` or
/// control byte (or the end of `b`), and whether the run is all ASCII.
/// Eight bytes at a time (SWAR), as the run is usually long; the tail (and a
/// short input, such as a small chunk) byte by byte through a class table.
#[inline(always)]
pub(super) fn scan_string_run(b: &[u8]) -> (usize, bool) {
    let mut high = 0u64;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let special = special_bytes(w);
        if special != 0 {
            // The lowest flag is exact (borrows only run upwards).
            let k = special.trailing_zeros() / 8;
            high |= w & ((1u64 << (k * 8)) - 1);
            return (i + k as usize, high & HIGHS == 0);
        }
        high |= w;
        i += 8;
    }
    let mut non_ascii = 0u8;
    while let Some(&x) = b.get(i) {
        let class = STRING_CLASS[x as usize];
        if class == SPECIAL {
            break;
        }
        non_ascii |= class;
        i += 1;
    }
    (i, high & HIGHS == 0 && non_ascii == 0)
}

/// The byte a one-character escape's letter stands for (`n` for a line
/// feed, ...), or `None` for `u` and anything that is not an escape letter.
/// A table rather than a `match`, which compiles to a jump table whose
/// indirect branch is mispredicted at most escapes.
#[inline(always)]
pub(super) fn simple_escape(letter: u8) -> Option<u8> {
    match ESCAPED[letter as usize] {
        0 => None,
        d => Some(d),
    }
}

/// [`simple_escape`]'s table: 0 where the letter is not a one-character
/// escape (no escape stands for a NUL byte).
static ESCAPED: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// What stands at a byte of 0x80 or more in string text (see [`utf8_at`]).
pub(super) enum Utf8At {
    /// A well-formed character of this many bytes, all present.
    Whole(usize),
    /// The well-formed start of a character that the input's end cuts.
    Cut,
    /// Not UTF-8: a byte that cannot lead, an overlong form, a surrogate,
    /// past U+10FFFF or a missing continuation byte, as `str::from_utf8`
    /// decides.
    Bad,
}

/// Reads the character that starts at `b[i]` (see [`Utf8At`]).
#[inline(always)]
pub(super) fn utf8_at(b: &[u8], i: usize) -> Utf8At {
    let Some(&lead) = b.get(i) else {
        return Utf8At::Bad;
    };
    // The second byte's range depends on the lead; the rest are 0x80..=0xBF.
    let (len, lo, hi) = match lead {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Utf8At::Bad,
    };
    match b.get(i + 1) {
        None => return Utf8At::Cut,
        Some(c) if !(lo..=hi).contains(c) => return Utf8At::Bad,
        Some(_) => {}
    }
    for k in 2..len {
        match b.get(i + k) {
            None => return Utf8At::Cut,
            Some(c) if c & 0xC0 != 0x80 => return Utf8At::Bad,
            Some(_) => {}
        }
    }
    Utf8At::Whole(len)
}

/// [`STRING_CLASS`] of a byte that ends a plain string run.
pub(super) const SPECIAL: u8 = 2;

/// Per byte: 0 for plain ASCII, 1 for a non-ASCII byte, [`SPECIAL`] for `"`,
/// `\\` and control bytes.
pub(super) static STRING_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i < 0x20 || i == b'"' as usize || i == b'\\' as usize {
            SPECIAL
        } else if i >= 0x80 {
            1
        } else {
            0
        };
        i += 1;
    }
    t
};

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

pub(super) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` that is `"`, `\\` or below 0x20 (exact
/// for the lowest such byte, maybe spurious above it).
#[inline]
pub(super) fn special_bytes(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    ((quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash)
        | (w.wrapping_sub(ONES * 0x20) & !w))
        & HIGHS
}

/// Appends ASCII bytes (a number's head, a short string run known to be
/// ASCII) to `s`, one by one: cheaper for a few bytes than a validation
/// call.
#[inline(always)]
pub(super) fn push_ascii(s: &mut String, bytes: &[u8]) {
    s.reserve(bytes.len());
    for &b in bytes {
        // The mask (a no-op on ASCII) tells the compiler each char is one
        // byte long.
        s.push(char::from(b & 0x7f));
    }
}

/// The length of the UTF-8 sequence that `lead` starts (2 to 4 for the
/// leads simdutf8 reports as incomplete).
pub(super) fn utf8_width(lead: u8) -> u8 {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
