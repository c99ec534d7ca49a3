//! The `enum` / `const` family in the stream check: a string value is
//! compared piece by piece with the options, and reported just past the
//! first character no option can continue with. On other values (and on
//! containers, which wait for the whole value) the validator decides.

use super::{CONST_DONE, CheckState, ENUM_DONE};
use crate::parser::Location;
use crate::schema::CompiledSchema;
use crate::schema::describe::{show, show_str};
use crate::schema::options::OptionCursor;
use crate::schema::program::Kw;

/// The flag that marks `kw` (`enum` or `const` on a string) as failed.
pub(super) fn done_flag(kw: &Kw) -> u8 {
    if matches!(kw, Kw::Const(_)) {
        CONST_DONE
    } else {
        ENUM_DONE
    }
}

impl CheckState {
    /// `enum` or `const` (`kw`) of the application at `i` in `apps` (its
    /// string's applications start at `start`), on `part` of the open
    /// string (whose text before the part was `before_len` bytes).
    #[inline]
    pub(super) fn enum_const_part(
        &mut self,
        sc: &CompiledSchema,
        (i, start): (usize, usize),
        kw: &Kw,
        before_len: usize,
        part: &str,
        at: &Location<'_>,
    ) {
        // Only the new piece is compared: the options that fit the text
        // before it are known (see `OptionCursor`).
        let slot = i - start;
        if self.option_cursor.len() <= slot {
            self.option_cursor.resize(slot + 1, 0);
        }
        let cursor = match kw {
            Kw::Enum(o) => OptionCursor::Enum(o),
            Kw::Const(c) => OptionCursor::Const(c),
            _ => OptionCursor::Nothing,
        };
        let from = self.option_cursor[slot];
        if let Some(k) = cursor.next_fitting(from, &self.string, before_len) {
            self.option_cursor[slot] = k;
            return;
        }
        let Some(a) = self.apps.get_mut(i) else {
            return;
        };
        a.flags |= done_flag(kw);
        let node = a.node;
        // The first character after which no option fits: the one that
        // ends past the longest match.
        let longest = cursor.longest_match(from, &self.string, before_len);
        let end = part
            .char_indices()
            .map(|(b, c)| b + c.len_utf8())
            .find(|&e| e > longest)
            .unwrap_or(part.len());
        let offset = self.offset_in_part(part, end, at);
        let shown = self.string.get(..before_len + end).unwrap_or(&self.string);
        let listed: Vec<String> = match kw {
            Kw::Enum(o) => o.shown(12),
            Kw::Const(c) => vec![show(&**c)],
            _ => Vec::new(),
        };
        let (name, exp) = match kw {
            Kw::Enum(_) => ("enum", format!("one of {}", listed.join(", "))),
            _ => ("const", listed.join(", ")),
        };
        let v = self.violation(
            sc,
            node,
            name,
            at.path.to_path(),
            format!(
                "expected {exp}, found a string starting with {}",
                show_str(shown)
            ),
        );
        self.report(offset, v);
    }
}
