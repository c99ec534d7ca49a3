//! The objects family (`properties`, `required`, `additionalProperties`,
//! `minProperties`, `maxProperties`, the key order): whether an object can
//! still take a key or close, and the hash that tells free keys apart
//! (`step.rs` steps the object and key frames).

use super::shape::{Grammar, ObjShape};

/// One byte of a free key's FNV-1a hash (`FNV0` to start).
pub(crate) fn fnv(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
}

/// The FNV-1a offset basis.
pub(crate) const FNV0: u64 = 0xcbf2_9ce4_8422_2325;

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
pub(crate) fn obj_can_add(g: &Grammar, o: &ObjShape, used: u64, count: u64) -> bool {
    if o.additional.is_some_and(|a| g.sat(a)) && obj_can_finish(g, o, used, count + 1) {
        return true;
    }
    (0..o.keys.len()).any(|i| key_ok(g, o, used, count, i))
}

/// Whether an object at (`used`, `count`) may close now.
pub(crate) fn obj_can_close(o: &ObjShape, used: u64, count: u64) -> bool {
    o.required & !used == 0 && count >= o.min
}

/// A named key `i` is a possible choice now.
pub(crate) fn key_ok(g: &Grammar, o: &ObjShape, used: u64, count: u64, i: usize) -> bool {
    o.open_keys(used, count) & (1 << i) != 0
        && g.sat(o.vals[i])
        && obj_can_finish(g, o, used | 1 << i, count + 1)
}
