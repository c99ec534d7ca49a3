//! The mask walk's fast path: what one byte does to a configuration, judged
//! from its top frame alone, so the walk over the token trie needs no copy
//! of the configuration for the bytes of a string, a number, a key or a
//! literal. It agrees with [`step`](super::step::step) (the reference), which takes every other
//! case.

use super::pattern::PatState;
use super::shape::{Grammar, Shape, ShapeId};
use super::step::{
    Ax, Frame, Nx, Ox, between_tokens, fnv, key_viable, lits, narrow, num_next, num_ok, num_shape,
};
use super::string::{Sx, pending, str_byte};

/// What byte `b` does to a configuration, judged from its top frame alone
/// (and the object under a key): the mask walk's fast path, which needs no
/// copy of the configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fast {
    /// No successor.
    No,
    /// One successor: the same configuration with this top frame.
    Stay(Frame),
    /// Anything else (a value ends, a frame opens, `anyOf` branches):
    /// take [`step`].
    Slow,
}

/// Whether `b` can start some value (a byte [`start`] may accept).
fn may_start(b: u8) -> bool {
    matches!(
        b,
        b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
    )
}

/// `b` on a configuration whose frames are `below` (the top one stale)
/// with `top` on top. Agrees with [`step`]: `Stay(f)` exactly when `step`
/// gives the one successor with `f` on top and nothing else changed, `No`
/// exactly when it gives none.
pub(crate) fn top_step(g: &Grammar, below: &[Frame], top: Frame, b: u8) -> Fast {
    if g.ws_max > 0 && matches!(b, b' ' | b'\n' | b'\r' | b'\t') && between_tokens(top) {
        return Fast::Slow;
    }
    match top {
        Frame::Root { done, inside } => {
            if done || inside || !may_start(b) {
                Fast::No
            } else {
                Fast::Slow
            }
        }
        Frame::Lit { shape, lo, hi, pos } => lit_step(g, shape, (lo, hi, pos), b),
        Frame::Str {
            shape,
            chars,
            sx,
            pat,
        } => str_step(g, shape, chars, sx, pat, b),
        Frame::Num {
            shape,
            nx,
            neg,
            mag,
            frac_nz,
        } => num_step(g, shape, (nx, neg, mag, frac_nz), b),
        Frame::Obj { ox, .. } => match (ox, b) {
            (Ox::Key { open: true }, b'}' | b'"')
            | (Ox::Key { open: false }, b'"')
            | (Ox::After, b',' | b'}')
            | (Ox::Colon, b':') => Fast::Slow,
            (Ox::Value, _) if may_start(b) => Fast::Slow,
            _ => Fast::No,
        },
        Frame::Arr { ax, .. } => match (ax, b) {
            (Ax::Item { open: true }, b']') | (Ax::After, b',' | b']') => Fast::Slow,
            (Ax::Item { .. }, _) if may_start(b) => Fast::Slow,
            _ => Fast::No,
        },
        Frame::Key { .. } => key_step(g, below, top, b),
    }
}

/// `b` on a literal frame: the candidates narrowed (`Slow` where the
/// literal ends, or a number literal's byte goes to its parent).
#[inline(always)]
fn lit_step(g: &Grammar, shape: ShapeId, (lo, hi, pos): (u32, u32, u32), b: u8) -> Fast {
    let l = lits(g, shape);
    let (nlo, nhi) = narrow(l, lo, hi, pos, b);
    if nlo < nhi {
        let first = &l[nlo as usize];
        let is_num = matches!(first.first(), Some(b'-' | b'0'..=b'9'));
        if nhi - nlo == 1 && first.len() == pos as usize + 1 && !is_num {
            return Fast::Slow;
        }
        Fast::Stay(Frame::Lit {
            shape,
            lo: nlo,
            hi: nhi,
            pos: pos + 1,
        })
    } else if l[lo as usize].len() == pos as usize {
        Fast::Slow
    } else {
        Fast::No
    }
}

/// `b` inside a string value (`Slow` at its closing quote).
#[inline(always)]
fn str_step(g: &Grammar, shape: ShapeId, chars: u64, sx: Sx, pat: PatState, b: u8) -> Fast {
    if sx == Sx::Normal && b == b'"' {
        return Fast::Slow;
    }
    let (min, max, p) = match g.shape(shape) {
        Shape::Str { min, max, pat } => (*min, *max, *pat),
        _ => (0, u64::MAX, None),
    };
    let Some((nsx, done)) = str_byte(sx, b, false) else {
        return Fast::No;
    };
    let nchars = chars + u64::from(done);
    let n = nchars + u64::from(pending(nsx));
    if n > max {
        return Fast::No;
    }
    let pat = match p {
        Some(p) => match g
            .pattern(p)
            .step(pat, sx.into(), b, nsx.into(), done, min, max, n)
        {
            Some(s) => s,
            None => return Fast::No,
        },
        None => pat,
    };
    Fast::Stay(Frame::Str {
        shape,
        chars: nchars,
        sx: nsx,
        pat,
    })
}

/// `b` on a number frame (`Slow` where the number ends).
#[inline(always)]
fn num_step(
    g: &Grammar,
    shape: ShapeId,
    (nx, neg, mag, frac_nz): (Nx, bool, u128, bool),
    b: u8,
) -> Fast {
    let (lo, hi, int) = num_shape(g, shape);
    match num_next(nx, mag, frac_nz, b, int, lo.is_some() || hi.is_some()) {
        Some((nx2, mag2, fnz2)) => {
            if num_ok(nx2, neg, mag2, fnz2, lo, hi, false) {
                Fast::Stay(Frame::Num {
                    shape,
                    nx: nx2,
                    neg,
                    mag: mag2,
                    frac_nz: fnz2,
                })
            } else {
                Fast::No
            }
        }
        None => {
            if matches!(nx, Nx::Zero | Nx::Int | Nx::Frac | Nx::Exp)
                && num_ok(nx, neg, mag, frac_nz, lo, hi, true)
            {
                Fast::Slow
            } else {
                Fast::No
            }
        }
    }
}

/// `b` inside a key (`key`, the object under it in `below`; `Slow` at its
/// closing quote).
#[inline(always)]
fn key_step(g: &Grammar, below: &[Frame], key: Frame, b: u8) -> Fast {
    let Frame::Key {
        lo,
        hi,
        pos,
        free,
        sx,
        hash,
    } = key
    else {
        return Fast::Slow;
    };
    if sx == Sx::Normal && b == b'"' {
        return Fast::Slow;
    }
    let Some(&Frame::Obj {
        shape, used, count, ..
    }) = below.len().checked_sub(2).and_then(|i| below.get(i))
    else {
        return Fast::No;
    };
    let o = match g.shape(shape) {
        Shape::Obj(o) => Some(o),
        _ => None,
    };
    let Some((nsx, _)) = str_byte(sx, b, true) else {
        return Fast::No;
    };
    let (nlo, nhi) = match o {
        Some(o) if lo < hi => narrow(&o.keys, lo, hi, pos, b),
        _ => (lo, lo),
    };
    let k = Frame::Key {
        lo: nlo,
        hi: nhi,
        pos: pos + 1,
        free,
        sx: nsx,
        hash: fnv(hash, b),
    };
    if key_viable(g, o, used, count, &k) {
        Fast::Stay(k)
    } else {
        Fast::No
    }
}
