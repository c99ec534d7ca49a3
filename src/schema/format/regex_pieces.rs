//! The `regex` format: whether a string is an ECMA-262 pattern, a long one
//! checked piece by piece so that memory stays that of one piece.

/// Patterns longer than this (in bytes) are checked piece by piece: see
/// [`regex_holds`].
pub(super) const REGEX_PIECE: usize = 8 << 10;

/// How many checked pieces [`regex_holds`] remembers.
const REGEX_PIECES_KEPT: usize = 8;

/// Groups nested deeper than this cannot be a valid pattern (the parser's
/// nesting limit is lower).
const REGEX_MAX_GROUP_DEPTH: usize = 1000;

/// The `regex` format: whether `s` is an ECMA-262 pattern that translates
/// and parses ([`super::super::pattern::ecma::check`]).
///
/// The parser builds a syntax tree of some hundred bytes per pattern
/// character, so a pattern longer than `piece` bytes is read once, token by
/// token, into pieces of about `piece` bytes, each checked alone:
/// - a piece ends between two whole atoms (a character, an escape, a
///   group's parenthesis, a class), never before a quantifier nor inside a
///   surrogate pair of `\u` escapes; the groups open at its start are
///   reopened as `(?:` and those open at its end closed, so group balance
///   and nesting are the whole pattern's;
/// - capture group names, which must be unique in the whole pattern, are
///   compared across pieces here;
/// - in a run of plain characters (outside a class, or inside one away
///   from a `-`) only the first and the last are kept: each is an atom
///   valid by itself, and the quantifier that may follow applies to the
///   last.
///
/// Every rule the translation and the parser apply looks no further than
/// one atom and the quantifier after it, apart from group balance, nesting
/// and names, so the pieces' verdict is the whole pattern's. Memory is that
/// of one piece (plus the names), whatever the length; a single class or
/// group opener is one token, kept whole. A piece equal to one of the last
/// few that held (a pattern that repeats itself) is not checked again.
pub(super) fn regex_holds(s: &str, piece: usize) -> bool {
    if s.len() <= piece {
        return super::super::pattern::ecma::check(s).is_ok();
    }
    let b = s.as_bytes();
    let mut names = std::collections::HashSet::new();
    let mut depth = 0usize;
    // The piece so far, and the groups open where it began.
    let mut buf = String::with_capacity(piece + 64);
    let mut start_depth = 0usize;
    // The last few pieces that held, with their depths: a pattern that
    // repeats itself is cut into a few pieces over and over, each checked
    // once.
    let mut held = HeldPieces::default();
    // Whether the last token was a whole atom (a piece may end after it),
    // whether it was the high half of a `\uD83D\uDE00` pair, and how many
    // plain characters end the piece.
    let (mut after_atom, mut high_surrogate, mut run) = (false, false, 0usize);
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let plain = is_plain_atom(c);
        let opens_atom = plain || matches!(c, b'(' | b'[' | b'\\');
        if after_atom && opens_atom && buf.len() >= piece && !(high_surrogate && c == b'\\') {
            if !held.holds(&buf, start_depth, depth) {
                return false;
            }
            buf.clear();
            start_depth = depth;
            run = 0;
        }
        high_surrogate = false;
        let token_start = i;
        match c {
            b'\\' => {
                i = regex_escape_end(b, i);
                high_surrogate = b.get(i.saturating_sub(4)..i).is_some_and(|h| {
                    i - token_start == 6
                        && b.get(token_start + 1) == Some(&b'u')
                        && matches!(h[0], b'd' | b'D')
                        && matches!(h[1], b'8' | b'9' | b'a' | b'A' | b'b' | b'B')
                });
                after_atom = true;
            }
            b'[' => {
                let Some(end) = regex_class_piece(s, i, &mut buf) else {
                    return false;
                };
                i = end;
                after_atom = true;
                run = 0;
                continue;
            }
            b'(' => {
                depth += 1;
                if depth > REGEX_MAX_GROUP_DEPTH {
                    return false;
                }
                let Some(end) = regex_group_opener(s, i, &mut names) else {
                    return false;
                };
                i = end;
                after_atom = false;
            }
            b')' => {
                let Some(d) = depth.checked_sub(1) else {
                    return false;
                };
                depth = d;
                i += 1;
                after_atom = true;
            }
            b'{' => {
                // A quantifier's bounds (or a literal brace): one token.
                i += 1;
                while b.get(i).is_some_and(|x| x.is_ascii_digit() || *x == b',') {
                    i += 1;
                }
                if b.get(i) == Some(&b'}') {
                    i += 1;
                }
                after_atom = false;
            }
            _ => {
                i += s[i..].chars().next().map_or(1, char::len_utf8);
                after_atom = plain;
                if plain {
                    run += 1;
                    if run > 2 {
                        // Keep the run's first and last characters.
                        buf.pop();
                    }
                    buf.push_str(&s[token_start..i]);
                    continue;
                }
            }
        }
        run = 0;
        buf.push_str(&s[token_start..i]);
    }
    // An unclosed group is an error of the whole pattern.
    depth == 0 && regex_piece_holds(&buf, start_depth, 0)
}

/// The last few pieces of a long pattern that held, with the groups open
/// at their start and end: a pattern that repeats itself is cut into a few
/// pieces over and over, each checked once.
#[derive(Default)]
struct HeldPieces {
    held: Vec<(String, usize, usize)>,
    next_slot: usize,
}

impl HeldPieces {
    /// Whether `piece` (with `open` groups open at its start and `close` at
    /// its end) holds: remembered, or checked now and remembered.
    fn holds(&mut self, piece: &str, open: usize, close: usize) -> bool {
        let seen = self
            .held
            .iter()
            .any(|(t, o, c)| (t.as_str(), *o, *c) == (piece, open, close));
        if seen {
            return true;
        }
        if !regex_piece_holds(piece, open, close) {
            return false;
        }
        let entry = (piece.to_owned(), open, close);
        if self.held.len() < REGEX_PIECES_KEPT {
            self.held.push(entry);
        } else if let Some(slot) = self.held.get_mut(self.next_slot % REGEX_PIECES_KEPT) {
            *slot = entry;
        }
        self.next_slot += 1;
        true
    }
}

/// The class whose `[` is at `s[i]`, written to `buf` with plain
/// characters between plain neighbours dropped; where it ends, or `None`
/// when it never closes.
fn regex_class_piece(s: &str, i: usize, buf: &mut String) -> Option<usize> {
    let b = s.as_bytes();
    let mut j = i + 1;
    if b.get(j) == Some(&b'^') {
        j += 1;
    }
    buf.push_str(&s[i..j]);
    if b.get(j) == Some(&b']') {
        // `[]` and `[^]`.
        buf.push(']');
        return Some(j + 1);
    }
    let class_plain =
        |x: Option<&u8>| x.is_some_and(|&x| !matches!(x, b'\\' | b'-' | b']' | b'[' | b'^'));
    loop {
        match b.get(j) {
            None => return None,
            Some(b']') => break,
            Some(b'\\') => {
                let end = regex_escape_end(b, j);
                buf.push_str(&s[j..end]);
                j = end;
            }
            Some(_) => {
                let len = s[j..].chars().next().map_or(1, char::len_utf8);
                let keep = !(class_plain(b.get(j))
                    && class_plain(b.get(j.wrapping_sub(1)))
                    && class_plain(b.get(j + len)));
                if keep {
                    buf.push_str(&s[j..j + len]);
                }
                j += len;
            }
        }
    }
    buf.push(']');
    Some(j + 1)
}

/// The group opener whose `(` is at `s[i]` (`(`, `(?:`, `(?=`, `(?<name>`,
/// ...): where it ends, or `None` for a capture name left open or already
/// used (`names`).
fn regex_group_opener<'s>(
    s: &'s str,
    i: usize,
    names: &mut std::collections::HashSet<&'s str>,
) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = i + 1;
    if b.get(i) == Some(&b'?') {
        i += 1;
        if b.get(i) == Some(&b'<') && !matches!(b.get(i + 1), Some(b'=' | b'!')) {
            let name_start = i + 1;
            let len = b[name_start..].iter().position(|&x| x == b'>')?;
            if !names.insert(&s[name_start..name_start + len]) {
                return None;
            }
            i = name_start + len + 1;
        }
    }
    Some(i)
}

/// A byte that is a whole atom by itself outside a class, and that a piece
/// may start with: not a pattern metacharacter and not a UTF-8
/// continuation byte.
fn is_plain_atom(c: u8) -> bool {
    !matches!(
        c,
        b'\\' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'*' | b'+' | b'?' | b'|' | b'^' | b'$'
    ) && !(0x80..0xC0).contains(&c)
}

/// The end of the escape whose backslash is at `i`: the escaped character
/// and what may belong to it (hex digits, a control letter, `{..}` of
/// `\u` / `\p`, `<..>` of `\k`); taking more than the escape is safe (it
/// only leaves out a place to cut), taking less is not.
fn regex_escape_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    let Some(&c) = b.get(j) else { return j };
    j += match c {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    };
    let close = match (c, b.get(j)) {
        (b'u' | b'p' | b'P', Some(b'{')) => Some(b'}'),
        (b'k', Some(b'<')) => Some(b'>'),
        _ => None,
    };
    match close {
        Some(close) => match b[j..].iter().position(|&x| x == close) {
            Some(k) => j + k + 1,
            None => b.len(),
        },
        None => {
            while b.get(j).is_some_and(u8::is_ascii_alphanumeric) {
                j += 1;
            }
            j.min(b.len())
        }
    }
}

/// One piece of a long pattern (see [`regex_holds`]), with `open` groups
/// reopened before it and `close` closed after it.
fn regex_piece_holds(piece: &str, open: usize, close: usize) -> bool {
    let mut p = String::with_capacity(piece.len() + 3 * open + close);
    for _ in 0..open {
        p.push_str("(?:");
    }
    p.push_str(piece);
    for _ in 0..close {
        p.push(')');
    }
    super::super::pattern::ecma::check(&p).is_ok()
}
