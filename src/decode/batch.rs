//! Masks for many sequences in one call, for a server that decodes a
//! batch: each matcher's mask in its row of one buffer (a `[batch,
//! words]` tensor's memory), on the caller's thread or spread over
//! scoped threads.
//!
//! Threads are `std::thread::scope` threads started per call, not a pool
//! (no dependency, nothing left running): starting one costs some tens of
//! microseconds, about one cold mask, so a caller asks for threads when
//! its batch is large, and keeps `threads` at 1 for a few sequences.

use super::Matcher;

/// Fills row `i` of `masks` with the mask of `matchers[i]`, as
/// [`Matcher::fill_mask`] does, on up to `threads` threads (0 and 1: on
/// the caller's thread). The rows are `masks.len() / matchers.len()`
/// words wide, one after another; a row shorter than a matcher's
/// [`Vocabulary::mask_words`](super::Vocabulary::mask_words) holds the
/// tokens that fit, and what is past the last row is left as it is.
/// Matchers of the same [`Constraint`](super::Constraint) share its mask
/// cache across the threads.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::decode::{Constraint, Vocabulary, fill_masks};
/// let vocab = Vocabulary::from_bytes((0..=255u8).map(|b| vec![b]).chain([vec![]]).collect(), vec![256])?;
/// let c = Constraint::new(&CompiledSchema::from_json_str(r#"{"type": "boolean"}"#)?, &vocab)?;
/// let mut batch = vec![c.matcher(), c.matcher()];
/// batch[1].commit_bytes(b"tr")?;
/// let words = vocab.mask_words();
/// let mut masks = vec![0u64; 2 * words];
/// fill_masks(&batch, &mut masks, 2);
/// let allowed = |row: &[u64]| (0..256u32).filter(|&t| row[t as usize / 64] >> (t % 64) & 1 == 1).collect::<Vec<_>>();
/// assert_eq!(allowed(&masks[..words]), [u32::from(b'f'), u32::from(b't')]);
/// assert_eq!(allowed(&masks[words..]), [u32::from(b'u')]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fill_masks(matchers: &[Matcher], masks: &mut [u64], threads: usize) {
    let n = matchers.len();
    if n == 0 {
        return;
    }
    let width = masks.len() / n;
    let rows = &mut masks[..width * n];
    let threads = threads.clamp(1, n);
    if threads == 1 || width == 0 {
        fill_rows(matchers, rows, width);
        return;
    }
    // Contiguous groups of rows, one per thread; the caller's thread
    // takes the first.
    let per = n.div_ceil(threads);
    std::thread::scope(|s| {
        let mut groups = matchers.chunks(per).zip(rows.chunks_mut(per * width));
        let first = groups.next();
        for (ms, rs) in groups {
            s.spawn(move || fill_rows(ms, rs, width));
        }
        if let Some((ms, rs)) = first {
            fill_rows(ms, rs, width);
        }
    });
}

fn fill_rows(matchers: &[Matcher], rows: &mut [u64], width: usize) {
    if width == 0 {
        return;
    }
    for (m, row) in matchers.iter().zip(rows.chunks_mut(width)) {
        m.fill_mask(row);
    }
}
