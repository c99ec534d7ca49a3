//! The numbers family (`minimum`, `maximum` and their exclusive forms,
//! `type: integer`): a number frame's states, and whether its digits so
//! far can still end within the bounds (`step.rs` steps the frame).

use super::shape::{Bound, Grammar, Shape, ShapeId};

/// Number states (see the JSON grammar).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Nx {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

const MAG_CAP: u128 = 10u128.pow(30);

/// The value of number `x`, as an interval `[a, b]` with open ends, holds
/// a point within the bounds.
#[allow(clippy::too_many_arguments)]
fn meets(
    a: i128,
    a_open: bool,
    b: Option<i128>,
    b_open: bool,
    neg: bool,
    lo: Option<Bound>,
    hi: Option<Bound>,
) -> bool {
    // Signed interval [l, u].
    let (l, l_open, u, u_open) = if neg {
        (b.map(|x| -x), b_open, Some(-a), a_open)
    } else {
        (Some(a), a_open, b, b_open)
    };
    // Lower end: the larger of l and lo.
    let (l, l_open) = match (l, lo) {
        (None, None) => (None, false),
        (Some(x), None) => (Some(x), l_open),
        (None, Some(b)) => (Some(b.at), b.open),
        (Some(x), Some(b)) => {
            if x > b.at || (x == b.at && l_open) {
                (Some(x), l_open)
            } else {
                (Some(b.at), b.open)
            }
        }
    };
    let (u, u_open) = match (u, hi) {
        (None, None) => (None, false),
        (Some(x), None) => (Some(x), u_open),
        (None, Some(b)) => (Some(b.at), b.open),
        (Some(x), Some(b)) => {
            if x < b.at || (x == b.at && u_open) {
                (Some(x), u_open)
            } else {
                (Some(b.at), b.open)
            }
        }
    };
    match (l, u) {
        (Some(l), Some(u)) => l < u || (l == u && !l_open && !u_open),
        _ => true,
    }
}

/// Whether a number frame can still become (or is, when `end`) a number
/// within its bounds.
pub(crate) fn num_ok(
    nx: Nx,
    neg: bool,
    mag: u128,
    frac_nz: bool,
    lo: Option<Bound>,
    hi: Option<Bound>,
    end: bool,
) -> bool {
    if lo.is_none() && hi.is_none() {
        return true;
    }
    let m = mag.min(MAG_CAP) as i128;
    let fixed_point = |a: i128| meets(a, false, Some(a), false, neg, lo, hi);
    let unit = |a: i128| {
        if frac_nz {
            meets(a, true, Some(a + 1), true, neg, lo, hi)
        } else {
            meets(a, false, Some(a + 1), true, neg, lo, hi)
        }
    };
    if end {
        return match nx {
            Nx::Zero | Nx::Int => fixed_point(m),
            Nx::Frac if !frac_nz => fixed_point(m),
            Nx::Frac => unit(m),
            _ => false,
        };
    }
    match nx {
        Nx::Minus => meets(0, false, None, false, neg, lo, hi),
        Nx::Zero | Nx::Dot | Nx::Frac => unit(m),
        Nx::Int => {
            let mut p = m;
            let mut w: i128 = 1;
            while p < MAG_CAP as i128 {
                if meets(p, false, Some(p + w), true, neg, lo, hi) {
                    return true;
                }
                p *= 10;
                w *= 10;
            }
            meets(p, false, None, false, neg, lo, hi)
        }
        _ => true,
    }
}

fn int_bounds(lo: Option<i128>, hi: Option<i128>) -> (Option<Bound>, Option<Bound>) {
    (
        lo.map(|at| Bound { at, open: false }),
        hi.map(|at| Bound { at, open: false }),
    )
}

/// Whether a number shape has a bound (else its value cannot matter).
pub(crate) fn num_bounded(g: &Grammar, shape: ShapeId) -> bool {
    let (lo, hi, _) = num_shape(g, shape);
    lo.is_some() || hi.is_some()
}

/// The bounds of a number shape, and whether it is an integer.
pub(crate) fn num_shape(g: &Grammar, shape: ShapeId) -> (Option<Bound>, Option<Bound>, bool) {
    match g.shape(shape) {
        Shape::Int { lo, hi } => {
            let (l, h) = int_bounds(*lo, *hi);
            (l, h, true)
        }
        Shape::Num { lo, hi } => (*lo, *hi, false),
        _ => (None, None, false),
    }
}

/// A number state after byte `b` (`None`: the byte is not part of it).
pub(crate) fn num_next(
    nx: Nx,
    mag: u128,
    frac_nz: bool,
    b: u8,
    int: bool,
    bounded: bool,
) -> Option<(Nx, u128, bool)> {
    let d = b.wrapping_sub(b'0');
    match (nx, b) {
        (Nx::Minus, b'0') => Some((Nx::Zero, mag, frac_nz)),
        (Nx::Minus, b'1'..=b'9') => Some((Nx::Int, u128::from(d), frac_nz)),
        (Nx::Int, b'0'..=b'9') => Some((Nx::Int, (mag * 10 + u128::from(d)).min(MAG_CAP), frac_nz)),
        (Nx::Zero | Nx::Int, b'.') if !int => Some((Nx::Dot, mag, frac_nz)),
        (Nx::Dot | Nx::Frac, b'0'..=b'9') => Some((Nx::Frac, mag, frac_nz || d != 0)),
        (Nx::Zero | Nx::Int | Nx::Frac, b'e' | b'E') if !int && !bounded => {
            Some((Nx::E, mag, frac_nz))
        }
        (Nx::E, b'+' | b'-') => Some((Nx::ESign, mag, frac_nz)),
        (Nx::E | Nx::ESign | Nx::Exp, b'0'..=b'9') => Some((Nx::Exp, mag, frac_nz)),
        _ => None,
    }
}
