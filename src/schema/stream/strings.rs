//! The strings family in the stream check, and the string value it reads:
//! the characters of a string value as its pieces arrive (`maxLength` at
//! the character one too many; the `enum` / `const` prefixes of
//! `enum_const.rs`), the exact offset of a violation inside a piece, and
//! the checks at its end (`minLength` / `maxLength` from the count; the
//! validator for `pattern`, `format` and the rest).

use super::enum_const::done_flag;
use super::{CheckState, DOOMED, MAX_LEN_DONE};
use crate::parser::{Location, Token};
use crate::schema::CompiledSchema;
use crate::schema::chars::char_count;
use crate::schema::program::Kw;
use crate::{PathRef, Value};

impl CheckState {
    /// Counts `part` of the open string and returns `true` when that is all
    /// it needs: no keyword reads the text, and even at one character per
    /// byte it cannot pass the smallest `maxLength` (`quiet_until`, which
    /// is 0 while a violation's offset waits on the next token, so one
    /// test covers both). Returns `false` having done nothing otherwise.
    /// In line, with only the count of a piece that is long or not ASCII
    /// out of line: a piece then costs no entry into the whole handler.
    #[inline(always)]
    pub(super) fn quiet_part(&mut self, part: &str, offset: u64) -> bool {
        if self.string_chars.saturating_add(part.len() as u64) >= self.quiet_until {
            return false;
        }
        if self.count_chars {
            self.string_chars += char_count(part);
        }
        self.last_offset = offset;
        true
    }

    /// The offset just past byte `end` (an index into the decoded `part`),
    /// never earlier than the byte that made it certain.
    ///
    /// The part's raw bytes run from the previous token's offset to this
    /// one's. Without escapes they map 1:1, except that the first character
    /// may have begun in the previous part (a UTF-8 sequence split by a
    /// chunk) and the span may end with the leading bytes of a split
    /// character or the closing quote. A leading split is visible (the span
    /// is shorter than the text); a trailing surplus `d` is assumed to lie
    /// before `end` (late, never early) and is corrected by
    /// `fix_pending` once the next token shows it was a split or the quote.
    /// With exact piece offsets (which this check asks the parser for) a
    /// piece is plain text mapping 1:1 or a single escaped character, so
    /// every offset is exact.
    pub(super) fn offset_in_part(&mut self, part: &str, end: usize, at: &Location<'_>) -> u64 {
        let raw = at.offset.saturating_sub(self.last_offset);
        let len = part.len() as u64;
        if raw > len && part.chars().nth(1).is_none() {
            // One character from more bytes: an escape, handed on alone and
            // ending at this offset when the parser was asked for exact
            // offsets (`exact_string_offsets_from`), as it always is here
            // unless a wrapping sink did not pass the question on; in that
            // case this is late by the surplus, never early.
            return at.offset;
        }
        if raw >= len {
            let d = raw - len;
            if d > 0 {
                // The violation's index is set when it is reported.
                self.pending_fix = Some((usize::MAX, self.last_offset + end as u64, d, at.offset));
                // The next piece must see the fix: no short path for the
                // rest of this string. (Today only a string already past
                // its smallest `maxLength` or under `enum` / `const` gets
                // here, which the short path declines anyway; this keeps
                // that true whatever later keywords place violations.)
                self.quiet_until = 0;
            }
            (self.last_offset + end as u64 + d).min(at.offset)
        } else {
            // The first character began before this span.
            (at.offset - len + end as u64).min(at.offset)
        }
    }

    /// Lowers a pending offset once the token after the part shows that the
    /// surplus bytes were a split character's head or the closing quote.
    pub(super) fn fix_pending(&mut self, token: &Token<'_>, at: &Location<'_>) {
        let Some((index, exact, d, part_end)) = self.pending_fix.take() else {
            return;
        };
        let explained = match token {
            Token::StringPart(p) => p.chars().next().is_some_and(|c| {
                d < c.len_utf8() as u64
                    && at.offset.saturating_sub(part_end) + d >= c.len_utf8() as u64 - 1
            }),
            Token::StringEnd => d == 1 && at.offset == part_end,
            _ => false,
        };
        if explained && let Some(v) = self.violations.get_mut(index) {
            v.offset = exact;
            // Earlier now than a violation reported after it in the same
            // piece: moved before it, so the list stays in offset order.
            let mut i = index;
            while i > 0
                && let (Some(a), Some(b)) = (self.violations.get(i - 1), self.violations.get(i))
                && a.offset > b.offset
            {
                self.violations.swap(i - 1, i);
                i -= 1;
            }
        }
    }

    /// A piece of the open string: counted, kept when its text is read,
    /// and checked against the keywords that read pieces.
    pub(super) fn string_part(&mut self, sc: &CompiledSchema, part: &str, at: &Location<'_>) {
        let Some(range) = self.string_apps else {
            return;
        };
        let before_chars = self.string_chars;
        let before_len = self.string.len();
        if self.count_chars {
            self.string_chars += char_count(part);
        }
        if self.keep_string {
            self.string.push_str(part);
        }
        // Only `maxLength`, `enum` and `const` look at a string's parts, and
        // they are exactly the keywords that ask for exact offsets: from 0
        // under `enum` / `const`, else from the smallest `maxLength` (see
        // `string_needs`), so that while the count has not passed it no
        // `maxLength` can have been exceeded, and the keywords are not
        // walked for every piece of a long string.
        match self.exact_from {
            None => return,
            Some(from) if from > 0 && self.string_chars <= from as u64 => return,
            Some(_) => {}
        }
        let prog = sc.program();
        for i in range.0..range.1 {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                match kw {
                    Kw::MaxLength(max)
                        if self.string_chars > *max && app.flags & MAX_LEN_DONE == 0 =>
                    {
                        self.max_length_part(sc, i, *max, before_chars, part, at);
                    }
                    Kw::Enum(_) | Kw::Const(_) if app.flags & done_flag(kw) == 0 => {
                        self.enum_const_part(sc, (i, range.0), kw, before_len, part, at);
                    }
                    _ => {}
                }
            }
        }
    }

    /// `maxLength` (`max`) of the application at `i` in `apps`, passed in
    /// `part`: reported at the character that goes one past it (the count
    /// was `before_chars` before the part).
    #[inline]
    fn max_length_part(
        &mut self,
        sc: &CompiledSchema,
        i: usize,
        max: u64,
        before_chars: u64,
        part: &str,
        at: &Location<'_>,
    ) {
        let Some(a) = self.apps.get_mut(i) else {
            return;
        };
        a.flags |= MAX_LEN_DONE;
        let node = a.node;
        // The character that goes one past the limit.
        let nth = max.saturating_sub(before_chars) as usize;
        let end = part
            .char_indices()
            .nth(nth)
            .map_or(part.len(), |(b, c)| b + c.len_utf8());
        let offset = self.offset_in_part(part, end, at);
        let v = self.violation(
            sc,
            node,
            "maxLength",
            at.path.to_path(),
            format!(
                "expected a string of at most {max} character{}, found more",
                if max == 1 { "" } else { "s" }
            ),
        );
        self.report(offset, v);
    }

    pub(super) fn string_end(&mut self, sc: &CompiledSchema, at: &Location<'_>) {
        self.quiet_until = 0;
        let Some(range) = self.string_apps.take() else {
            return;
        };
        let v = Value::String(std::mem::take(&mut self.string));
        let path = at.path;
        if !self.keep_string {
            // Only lengths are checked: decide them from the count.
            self.lengths_at_end(sc, range, path, at.offset);
        }
        // A string not kept has no keyword but the lengths (decided above)
        // and `type` (at its first byte); a kept one that every leaf
        // application holds has nothing to report.
        if self.keep_string && !self.leaves_hold(sc, range, &v) {
            self.run_keywords(sc, range, &v, path, at.offset, |kw, flags| match kw {
                Kw::Type(_) => false,
                Kw::MaxLength(_) => flags & MAX_LEN_DONE == 0,
                Kw::Enum(_) | Kw::Const(_) => flags & done_flag(kw) == 0,
                _ => true,
            });
        }
        if let Value::String(mut s) = v {
            s.clear();
            self.string = s;
        }
        self.apps.truncate(range.0);
        self.pending_start = range.0;
        if self.frames.is_empty() {
            self.root_done = true;
        }
    }

    /// `minLength` / `maxLength` of a string that was not kept, from its count.
    fn lengths_at_end(
        &mut self,
        sc: &CompiledSchema,
        range: (usize, usize),
        path: PathRef<'_>,
        offset: u64,
    ) {
        let prog = sc.program();
        let n = self.string_chars;
        let plural = |k: u64| if k == 1 { "character" } else { "characters" };
        for i in range.0..range.1 {
            let Some(app) = self.apps.get(i).copied() else {
                break;
            };
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                let msg = match kw {
                    Kw::MinLength(min) if n < *min => (
                        "minLength",
                        format!(
                            "expected a string of at least {min} {}, found {n} {}",
                            plural(*min),
                            plural(n)
                        ),
                    ),
                    _ => continue,
                };
                let v = self.violation(sc, app.node, msg.0, path.to_path(), msg.1);
                self.report(offset, v);
            }
        }
    }
}
