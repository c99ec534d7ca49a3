//! The objects family (`properties`, `required`, `additionalProperties`,
//! `minProperties`, `maxProperties`, the key order): whether an object can
//! still take a key or close, and the steps of an object frame and of the
//! key frame above it.

use smallvec::SmallVec;

use super::shape::{Grammar, ObjShape, Shape, ShapeId};
use super::step::{Config, Frame, Ox, narrow, push_starts, start, take, value_done};
use super::string::{Sx, str_byte};

pub(crate) fn fnv(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
}
const FNV0: u64 = 0xcbf2_9ce4_8422_2325;

/// Whether an object at (`used`, `count`) can still be closed validly.
pub(crate) fn obj_can_finish(g: &Grammar, o: &ObjShape, used: u64, count: u64) -> bool {
    let open = o.open_keys(used, count);
    if o.required & !used & !open != 0 {
        // A required key can no longer come (key order).
        return false;
    }
    let missing = u64::from((o.required & !used).count_ones());
    let need = o.min.max(count + missing);
    if need > o.max {
        return false;
    }
    let extra_needed = need - count - missing;
    if extra_needed == 0 {
        return true;
    }
    if o.additional.is_some_and(|a| g.sat(a)) {
        return true;
    }
    let avail = (0..o.keys.len())
        .filter(|&i| (open & !o.required) & (1 << i) != 0 && g.sat(o.vals[i]))
        .count() as u64;
    avail >= extra_needed
}

/// Whether some key can be added to an object at (`used`, `count`).
fn obj_can_add(g: &Grammar, o: &ObjShape, used: u64, count: u64) -> bool {
    if o.additional.is_some_and(|a| g.sat(a)) && obj_can_finish(g, o, used, count + 1) {
        return true;
    }
    (0..o.keys.len()).any(|i| key_ok(g, o, used, count, i))
}

fn obj_can_close(o: &ObjShape, used: u64, count: u64) -> bool {
    o.required & !used == 0 && count >= o.min
}

/// A named key `i` is a possible choice now.
pub(crate) fn key_ok(g: &Grammar, o: &ObjShape, used: u64, count: u64, i: usize) -> bool {
    o.open_keys(used, count) & (1 << i) != 0
        && g.sat(o.vals[i])
        && obj_can_finish(g, o, used | 1 << i, count + 1)
}

/// A byte in an object, between members: `}` once it can close, `,`
/// while a key can be added, a key's opening quote, `:`, or the member
/// value's first byte.
#[inline(always)]
pub(super) fn step_obj(
    g: &Grammar,
    c: &mut Config,
    (shape, used, count, ox, pending): (ShapeId, u64, u64, Ox, ShapeId),
    b: u8,
    out: &mut Vec<Config>,
) {
    let depth = c.frames.len();
    let o = match g.shape(shape) {
        Shape::Obj(o) => Some(o),
        _ => None,
    };
    let set = |c: &mut Config, ox: Ox| {
        *c.top() = Frame::Obj {
            shape,
            used,
            count,
            ox,
            pending,
        };
    };
    match (ox, b) {
        (Ox::Key { open: true } | Ox::After, b'}')
            if o.is_none_or(|o| obj_can_close(o, used, count)) =>
        {
            // Forget this object's keys.
            let d = depth as u32;
            c.keys.retain(|(kd, _)| *kd != d);
            value_done(g, c);
            out.push(take(c));
        }
        (Ox::After, b',') if o.is_none_or(|o| obj_can_add(g, o, used, count)) => {
            set(c, Ox::Key { open: false });
            out.push(take(c));
        }
        (Ox::Key { .. }, b'"') => {
            let (hi, free) = match o {
                Some(o) => (
                    o.keys.len() as u32,
                    o.additional.is_some_and(|a| g.sat(a)) && obj_can_finish(g, o, used, count + 1),
                ),
                None => (0, true),
            };
            let k = Frame::Key {
                lo: 0,
                hi,
                pos: 0,
                free,
                sx: Sx::Normal,
                hash: FNV0,
            };
            if key_viable(g, o, used, count, &k) {
                set(c, Ox::Key { open: false });
                c.frames.push(k);
                out.push(take(c));
            }
        }
        (Ox::Colon, b':') => {
            set(c, Ox::Value);
            out.push(take(c));
        }
        (Ox::Value, _) => {
            let mut starts = SmallVec::new();
            start(g, pending, b, depth, &mut starts);
            push_starts(
                c,
                starts,
                |f| {
                    if let Frame::Obj { ox, .. } = f {
                        *ox = Ox::Inside;
                    }
                },
                out,
            );
        }
        _ => {}
    }
}

/// A byte of a key (the `key` frame on top, its object below): the
/// closing quote, else a character that keeps some key viable.
#[inline(always)]
pub(super) fn step_key(g: &Grammar, c: &mut Config, key: Frame, b: u8, out: &mut Vec<Config>) {
    let Frame::Key {
        lo,
        hi,
        pos,
        free,
        sx,
        hash,
    } = key
    else {
        return;
    };
    let depth = c.frames.len();
    let Some(&Frame::Obj {
        shape, used, count, ..
    }) = c.frames.get(depth - 2)
    else {
        return;
    };
    let o = match g.shape(shape) {
        Shape::Obj(o) => Some(o),
        _ => None,
    };
    let keys: &[Box<[u8]>] = o.map_or(&[], |o| &o.keys);
    if sx == Sx::Normal && b == b'"' {
        end_key(g, c, key, (shape, used, count), out);
        return;
    }
    let Some((nsx, _)) = str_byte(sx, b, true) else {
        return;
    };
    let (nlo, nhi) = if lo < hi {
        narrow(keys, lo, hi, pos, b)
    } else {
        (lo, lo)
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
        *c.top() = k;
        out.push(take(c));
    }
}

/// A key's closing quote: a named key, else one outside them (free, and
/// written once); the object below then waits for `:`.
#[inline(always)]
fn end_key(
    g: &Grammar,
    c: &mut Config,
    key: Frame,
    (shape, used, count): (ShapeId, u64, u64),
    out: &mut Vec<Config>,
) {
    let Frame::Key {
        lo,
        hi,
        pos,
        free,
        hash,
        ..
    } = key
    else {
        return;
    };
    let depth = c.frames.len();
    let o = match g.shape(shape) {
        Shape::Obj(o) => Some(o),
        _ => None,
    };
    let keys: &[Box<[u8]>] = o.map_or(&[], |o| &o.keys);
    let exact = (lo < hi && keys[lo as usize].len() == pos as usize).then_some(lo as usize);
    let (nused, pend) = match (exact, o) {
        (Some(i), Some(o)) => {
            if !key_ok(g, o, used, count, i) {
                return;
            }
            (used | 1 << i, o.vals[i])
        }
        // A key outside the named ones (every key, in an object of any
        // value): free, and written once.
        (_, o) => {
            let d = (depth - 1) as u32;
            if !free || c.keys.contains(&(d, hash)) {
                return;
            }
            c.keys.push((d, hash));
            match o {
                Some(o) => {
                    let Some(a) = o.additional else { return };
                    (used, a)
                }
                None => (used, shape),
            }
        }
    };
    c.frames.pop();
    *c.top() = Frame::Obj {
        shape,
        used: nused,
        count: count + 1,
        ox: Ox::Colon,
        pending: pend,
    };
    out.push(take(c));
}

pub(crate) fn key_viable(
    g: &Grammar,
    o: Option<&ObjShape>,
    used: u64,
    count: u64,
    k: &Frame,
) -> bool {
    let Frame::Key { lo, hi, free, .. } = *k else {
        return false;
    };
    if free {
        return true;
    }
    let Some(o) = o else { return true };
    (lo..hi).any(|i| key_ok(g, o, used, count, i as usize))
}
