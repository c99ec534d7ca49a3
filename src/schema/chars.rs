//! Counting a string's characters (code points) fast, for `minLength` and
//! `maxLength` on text that arrives in pieces: a short ASCII piece settled
//! by two word loads, longer text by counting UTF-8 continuation bytes a
//! word at a time.

/// The number of characters in `s`. Short pieces (a few bytes of a
/// streamed argument) are most of what is counted, and most of them are
/// ASCII: a piece of up to 16 bytes is tested for that in line, with two
/// overlapping loads, and counts its bytes; anything else takes
/// [`char_count_slow`].
#[inline(always)]
pub(crate) fn char_count(s: &str) -> u64 {
    let b = s.as_bytes();
    let high = if let (Some(first), Some(last)) = (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        if b.len() > 16 {
            return char_count_slow(s);
        }
        u64::from_le_bytes(*first) | u64::from_le_bytes(*last)
    } else if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        u64::from(u32::from_le_bytes(*first) | u32::from_le_bytes(*last))
    } else {
        b.iter().fold(0, |acc, &x| acc | u64::from(x))
    };
    if high & (ONES << 7) == 0 {
        return b.len() as u64;
    }
    char_count_slow(s)
}

/// A one in each byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// [`char_count`] of any text: below 32 bytes (where `chars().count()`
/// takes a byte loop), the bytes less the continuation bytes
/// (`10xxxxxx`) of each eight-byte word, a word of ASCII settled by one
/// test.
#[inline(never)]
fn char_count_slow(s: &str) -> u64 {
    if s.len() >= 32 {
        // The standard library's count, eight bytes a step with the sums
        // kept per byte, costs less on long text.
        return s.chars().count() as u64;
    }
    s.len() as u64 - continuation_bytes(s.as_bytes())
}

/// The continuation bytes (`10xxxxxx`) in `bytes`, eight at a time from 8
/// bytes on.
#[inline]
pub(crate) fn continuation_bytes(bytes: &[u8]) -> u64 {
    // The word at `at`, and the continuation bytes in it (bit 7 set, bit
    // 6 clear) whose bit is in `keep`: most words of most text are ASCII,
    // which one test settles.
    fn count(bytes: &[u8], at: usize, keep: u64) -> u64 {
        let mut word = [0u8; 8];
        if let Some(w) = bytes.get(at..at + 8) {
            word.copy_from_slice(w);
        }
        let w = u64::from_le_bytes(word) & keep;
        if w & (ONES << 7) == 0 {
            return 0;
        }
        let flags = (w & !(w << 1)) & (ONES << 7);
        // One per flagged byte, summed into the top byte.
        ((flags >> 7).wrapping_mul(ONES)) >> 56
    }
    let n = bytes.len();
    if n < 8 {
        return bytes.iter().filter(|&&b| b & 0xC0 == 0x80).count() as u64;
    }
    if n >= 64 {
        return continuation_bytes_long(bytes);
    }
    let mut continuation = 0u64;
    let mut at = 0;
    while at + 8 <= n {
        continuation += count(bytes, at, u64::MAX);
        at += 8;
    }
    if at < n {
        // The last eight bytes, less those the loop counted (the low ones).
        continuation += count(bytes, n - 8, u64::MAX << (8 * (8 - (n - at))));
    }
    continuation
}

/// [`continuation_bytes`] of long text (a whole string a buffer took, say):
/// one flag per continuation byte, summed in each byte of a word over up
/// to 255 words at a time (no byte's sum can pass 255), with no test per
/// word, then added across the word.
#[inline(never)]
fn continuation_bytes_long(bytes: &[u8]) -> u64 {
    const PAIRS: u64 = 0x00FF_00FF_00FF_00FF;
    let (words, tail) = bytes.as_chunks::<8>();
    let mut continuation = 0u64;
    for run in words.chunks(255) {
        let mut sums = 0u64;
        for w in run {
            let w = u64::from_le_bytes(*w);
            sums += ((w & !(w << 1)) & (ONES << 7)) >> 7;
        }
        // Bytes summed into 16-bit lanes (each at most 510), then the
        // four lanes into the top one.
        let lanes = (sums & PAIRS) + ((sums >> 8) & PAIRS);
        continuation += lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48;
    }
    continuation + tail.iter().filter(|&&b| b & 0xC0 == 0x80).count() as u64
}

#[cfg(test)]
mod tests {
    use super::{char_count, char_count_slow, continuation_bytes};
    use proptest::prelude::*;

    #[test]
    fn char_count_of_every_width_and_length() {
        // Every prefix and suffix of a string with characters of each UTF-8
        // width, so that words and tails of every length meet each kind of
        // byte at each position.
        let s = "aé☕😀b\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}xyzçé—ö";
        // And runs of ASCII long enough that a piece of up to 16 bytes
        // has its only other character in its first or last eight bytes.
        let runs = "0123456789abcdefé0123456789ABCDEF☕ghijklmnopq😀rstuvwxyz";
        for s in [s, runs] {
            every_substring(s);
        }
    }

    /// Long text, as a buffer hands it over: every length across the runs
    /// of 255 words the long count sums at a time, and text of nothing but
    /// continuation bytes (each byte's sum at its largest).
    #[test]
    fn continuation_bytes_of_long_text() {
        let text = "é☕😀ab\u{7ff}".repeat(900);
        let all = vec![0x80u8; 6000];
        for bytes in [text.as_bytes(), &all] {
            for len in (0..bytes.len())
                .step_by(61)
                .chain(2030..2060)
                .chain(4070..4100)
            {
                for start in [0, 1, 7] {
                    let b = &bytes[start.min(len)..len];
                    let want = b.iter().filter(|&&x| x & 0xC0 == 0x80).count() as u64;
                    assert_eq!(continuation_bytes(b), want, "{start}..{len}");
                }
            }
        }
    }

    fn every_substring(s: &str) {
        for (i, _) in s.char_indices() {
            for (j, _) in s.char_indices().chain([(s.len(), ' ')]) {
                if let Some(t) = s.get(i..j) {
                    let n = t.chars().count() as u64;
                    assert_eq!(char_count(t), n, "{t:?}");
                    assert_eq!(char_count_slow(t), n, "{t:?}");
                    assert_eq!(
                        t.len() as u64 - continuation_bytes(t.as_bytes()),
                        n,
                        "{t:?}"
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn char_count_equals_chars_count(
            s in prop_oneof!["\\PC{0,80}", "[ -~]{0,15}\\PC?[ -~]{0,15}"],
        ) {
            prop_assert_eq!(char_count(&s), s.chars().count() as u64);
            prop_assert_eq!(char_count_slow(&s), s.chars().count() as u64);
            prop_assert_eq!(
                s.len() as u64 - continuation_bytes(s.as_bytes()),
                s.chars().count() as u64
            );
        }
    }
}
