//! Number scanning: the RFC 8259 number grammar as runs over a chunk, resumable
//! in any of its nine states, and the tight loop over the numbers of an array.

use super::scan::{HIGHS, ONES, push_ascii};
use super::token::{Location, Token, TokenSink};
use super::{Container, NumState, Parser, State};
use crate::error::{Error, ErrorCode, LimitKind};
use crate::path::PathRef;

impl Parser {
    /// A number starting at `c[i]` in a value position, scanned in one go
    /// when it either ends cleanly in this chunk or runs to its end (its head
    /// is then carried, as the state machine would carry it): returns where
    /// scanning goes on, or `None` to leave the number to the state machine,
    /// which finds any error and limit at the byte the byte-at-a-time path
    /// would.
    #[inline(always)]
    pub(super) fn number_value<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        i: usize,
        base: u64,
        sink: &mut S,
    ) -> Option<usize> {
        let (len, ns) = number_head(&c[i..]);
        if len > self.limits.max_number_bytes {
            return None;
        }
        match c.get(i + len) {
            Some(&next) if ends_number(ns, next) => {
                let lexeme = match cs.get(i..i + len) {
                    Some(l) => l,
                    None => std::str::from_utf8(&c[i..i + len]).unwrap_or("0"),
                };
                emit!(
                    self,
                    sink,
                    Token::Number(lexeme),
                    base + (i + len) as u64 + 1
                );
                self.value_done();
                if self.stack.last() == Some(&Container::Array) {
                    Some(self.number_items(c, cs, i + len, base, sink))
                } else {
                    Some(i + len)
                }
            }
            None => {
                self.carry_number_head(c.get(i..).unwrap_or(&[]), ns);
                Some(c.len())
            }
            Some(_) => None,
        }
    }

    /// The state machine's number state at `c[i]`, in state `ns`: scans on,
    /// checks the number limit, and either carries the lexeme to the next
    /// chunk (returning `c.len()`) or emits the number at the byte that ends
    /// it. `num_start` is where the lexeme starts in this chunk (0 when its
    /// head is in `num_buf`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn resume_number<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        mut i: usize,
        num_start: usize,
        ns: NumState,
        base: u64,
        sink: &mut S,
    ) -> Result<usize, Error> {
        let n = c.len();
        let start = i;
        let (len, ns) = number_rest(c.get(i..).unwrap_or(&[]), ns);
        i += len;
        self.num_len += i - start;
        if self.num_len > self.limits.max_number_bytes {
            let over = self.num_len - self.limits.max_number_bytes;
            return Err(self.error_at(
                ErrorCode::LimitExceeded {
                    kind: LimitKind::NumberBytes,
                    limit: self.limits.max_number_bytes as u64,
                },
                base + (i - over) as u64,
            ));
        }
        if i == n {
            self.state = State::Num(ns);
            push_ascii(&mut self.num_buf, c.get(num_start..n).unwrap_or(&[]));
            return Ok(n);
        }
        let b = c[i];
        if !ends_number(ns, b) {
            return Err(self.expected(ns.expected(), b, base + i as u64));
        }
        let off = base + i as u64 + 1;
        if self.num_buf.is_empty() {
            let lexeme = match cs.get(num_start..i) {
                Some(l) => l,
                None => std::str::from_utf8(&c[num_start..i]).unwrap_or("0"),
            };
            emit!(self, sink, Token::Number(lexeme), off);
        } else {
            push_ascii(&mut self.num_buf, c.get(..i).unwrap_or(&[]));
            emit!(self, sink, Token::Number(&self.num_buf), off);
            self.num_buf.clear();
        }
        self.num_len = 0;
        self.value_done();
        // The numbers after it in an array: the tighter loop, as after the
        // first number of a chunk.
        if self.stack.last() == Some(&Container::Array) {
            i = self.number_items(c, cs, i, base, sink);
        }
        Ok(i)
    }

    /// After a number in an array, at `c[i]`: takes `,` and the next number
    /// (optionally after one space) while both are whole in this chunk,
    /// and returns where it stopped, before a `,` it did not take. A last
    /// number that the chunk's end cuts is carried (its head and state, as
    /// the state machine would carry them) and `c.len()` returned. The
    /// tokens are the ones the state machine would emit; errors and limits
    /// are left to it.
    #[inline]
    pub(super) fn number_items<S: TokenSink + ?Sized>(
        &mut self,
        c: &[u8],
        cs: &str,
        mut i: usize,
        base: u64,
        sink: &mut S,
    ) -> usize {
        while c.get(i) == Some(&b',') {
            let mut j = i + 1;
            if c.get(j) == Some(&b' ') {
                j += 1;
            }
            if !matches!(c.get(j), Some(b'-' | b'0'..=b'9')) {
                break;
            }
            let Some(rest) = c.get(j..) else { break };
            // Near the chunk's end a number is likely cut by it: one scan
            // that tells both cases apart, instead of `scan_number` failing
            // and a second scan.
            let len = if rest.len() <= NEAR_END {
                let (len, ns) = number_head(rest);
                if len > self.limits.max_number_bytes {
                    break;
                }
                match rest.get(len) {
                    None => {
                        self.next_index();
                        self.carry_number_head(rest, ns);
                        return c.len();
                    }
                    Some(&next) if ends_number(ns, next) => len,
                    Some(_) => break,
                }
            } else {
                let Some(len) = scan_number(rest) else {
                    let (len, ns) = number_head(rest);
                    if j + len == c.len() && len <= self.limits.max_number_bytes {
                        self.next_index();
                        self.carry_number_head(rest, ns);
                        return c.len();
                    }
                    break;
                };
                if len > self.limits.max_number_bytes {
                    break;
                }
                len
            };
            self.next_index();
            let lexeme = match cs.get(j..j + len) {
                Some(l) => l,
                None => std::str::from_utf8(&rest[..len]).unwrap_or("0"),
            };
            emit!(
                self,
                sink,
                Token::Number(lexeme),
                base + (j + len) as u64 + 1
            );
            i = j + len;
        }
        i
    }

    /// Carries `head`, a number that the fast scans found running to the
    /// chunk's end in state `ns`, for the next chunk to resume; the caller
    /// has checked it against the number limit.
    #[inline(always)]
    pub(super) fn carry_number_head(&mut self, head: &[u8], ns: NumState) {
        self.num_len = head.len();
        push_ascii(&mut self.num_buf, head);
        self.state = State::Num(ns);
    }
}

/// In `number_items`, a number that starts this close to the chunk's end
/// is scanned with `number_head`, which also tells a number cut by the end.
const NEAR_END: usize = 24;

/// The length of the number lexeme at the start of `b` when it is complete,
/// well-formed and followed, within `b`, by a byte that ends it cleanly;
/// `None` otherwise (the number state machine then takes over and finds
/// what the case is: more input needed, or exactly which byte is wrong).
#[inline]
pub(super) fn scan_number(b: &[u8]) -> Option<usize> {
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = skip_digits(b, i + 1),
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return None;
        }
        i = skip_digits(b, i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return None;
        }
        i = skip_digits(b, i + 1);
    }
    let next = *b.get(i)?;
    if next.is_ascii_alphanumeric() || matches!(next, b'.' | b'+' | b'-') {
        return None;
    }
    Some(i)
}

/// How far a number lexeme runs from the start of `b`, and the number state
/// at that point: the scan stops at the end of `b` (the number may go on in
/// the next chunk) or at the first byte that cannot continue the lexeme
/// under the RFC 8259 grammar (a byte-at-a-time table of that grammar is
/// the reference in the tests). The first number after a chunk's start (or
/// after a key) takes this scan, so that a number cut by the chunk's end is
/// scanned once; the numbers after it in an array take [`scan_number`],
/// which costs less when it succeeds, except within [`NEAR_END`] bytes of
/// the chunk's end, where a number is likely cut and this scan saves the
/// failed one.
#[inline]
pub(super) fn number_head(b: &[u8]) -> (usize, NumState) {
    if b.first() == Some(&b'-') {
        int_part(b, 1, NumState::Minus)
    } else {
        int_part(b, 0, NumState::Start)
    }
}

/// [`number_head`] resumed in state `ns` (the state a chunk's end left a
/// number in) at the start of `b`.
#[inline(always)]
pub(super) fn number_rest(b: &[u8], ns: NumState) -> (usize, NumState) {
    match ns {
        NumState::Start => number_head(b),
        NumState::Minus => int_part(b, 0, ns),
        NumState::Zero => frac_part(b, 0, ns),
        NumState::Int => frac_part(b, skip_digits(b, 0), ns),
        NumState::Dot => frac_digits(b, 0),
        NumState::Frac => exp_part(b, skip_digits(b, 0), ns),
        NumState::E => exp_sign(b, 0),
        NumState::ESign => exp_digits(b, 0),
        NumState::Exp => (skip_digits(b, 0), ns),
    }
}

/// The integer part at `b[i]`, in state `ns` (`Start` or `Minus`) until
/// its first digit.
#[inline(always)]
fn int_part(b: &[u8], i: usize, ns: NumState) -> (usize, NumState) {
    match b.get(i) {
        Some(b'0') => frac_part(b, i + 1, NumState::Zero),
        Some(b'1'..=b'9') => frac_part(b, skip_digits(b, i + 1), NumState::Int),
        _ => (i, ns),
    }
}

/// After the integer part, at `b[i]`, in state `ns`.
#[inline(always)]
fn frac_part(b: &[u8], i: usize, ns: NumState) -> (usize, NumState) {
    if b.get(i) == Some(&b'.') {
        frac_digits(b, i + 1)
    } else {
        exp_part(b, i, ns)
    }
}

/// After a `.`, at `b[i]`.
#[inline(always)]
fn frac_digits(b: &[u8], i: usize) -> (usize, NumState) {
    if matches!(b.get(i), Some(b'0'..=b'9')) {
        exp_part(b, skip_digits(b, i + 1), NumState::Frac)
    } else {
        (i, NumState::Dot)
    }
}

/// After the integer or fraction digits, at `b[i]`, in state `ns`.
#[inline(always)]
fn exp_part(b: &[u8], i: usize, ns: NumState) -> (usize, NumState) {
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exp_sign(b, i + 1)
    } else {
        (i, ns)
    }
}

/// After an `e`, at `b[i]`.
#[inline(always)]
fn exp_sign(b: &[u8], i: usize) -> (usize, NumState) {
    match b.get(i) {
        Some(b'+' | b'-') => exp_digits(b, i + 1),
        Some(b'0'..=b'9') => (skip_digits(b, i + 1), NumState::Exp),
        _ => (i, NumState::E),
    }
}

/// After the exponent's sign, at `b[i]`.
#[inline(always)]
fn exp_digits(b: &[u8], i: usize) -> (usize, NumState) {
    if matches!(b.get(i), Some(b'0'..=b'9')) {
        (skip_digits(b, i + 1), NumState::Exp)
    } else {
        (i, NumState::ESign)
    }
}

/// Whether a number scanned to state `ns` is complete and cleanly ended by
/// `next`: a number directly followed by something that would continue a
/// number or a word is malformed (`01`, `1.5.3`, `2x`), not a second value.
#[inline]
pub(super) fn ends_number(ns: NumState, next: u8) -> bool {
    ns.is_terminal() && !(next.is_ascii_alphanumeric() || matches!(next, b'.' | b'+' | b'-'))
}

/// The index of the first byte at or after `i` that is not an ASCII digit
/// (or `b.len()`): eight bytes at a time where eight are left.
#[inline(always)]
pub(super) fn skip_digits(b: &[u8], mut i: usize) -> usize {
    // Short runs (a small integer) end at once.
    if !matches!(b.get(i), Some(b'0'..=b'9')) {
        return i;
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // High bit of each byte below '0', or above '9' (or not ASCII);
        // exact for the lowest such byte, as borrows and carries only run
        // upwards from bytes that are flagged themselves.
        let below = w.wrapping_sub(ONES * b'0' as u64) & !w;
        let above = w.wrapping_add(ONES * (0x80 - b':' as u64)) | w;
        let flags = (below | above) & HIGHS;
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while matches!(b.get(i), Some(b'0'..=b'9')) {
        i += 1;
    }
    i
}
