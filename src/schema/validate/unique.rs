//! `uniqueItems`: the first pair of equal items of an array, by pairs for a
//! few items and by a hash that agrees with equality for more.

use crate::schema::instance::{Instance, Object as _, View};
use crate::schema::types::equal;

/// The first pair of equal items, if any: the smallest `j` with an equal
/// item before it, and the first such `i`.
pub(crate) fn first_duplicate<V: Instance>(a: &[V]) -> Option<(usize, usize)> {
    // A few items are compared pairwise: hashing would cost more.
    if a.len() <= 8 {
        for j in 1..a.len() {
            for i in 0..j {
                if equal(&a[i], &a[j]) {
                    return Some((i, j));
                }
            }
        }
        return None;
    }
    first_duplicate_hashed(a)
}

/// [`first_duplicate`] in expected linear time: each item is hashed once
/// (numbers by value, objects whatever their key order, see
/// [`canonical_hash`]), and compared only with the earlier items of its hash,
/// in index order. The keys are random per process, so an instance cannot be
/// built to collide.
fn first_duplicate_hashed<V: Instance>(a: &[V]) -> Option<(usize, usize)> {
    use std::collections::HashMap;
    use std::collections::hash_map::{Entry, RandomState};
    let state = RandomState::new();
    // Hash -> (first, last) index of a chain that `next` links in index order.
    let mut heads: HashMap<u64, (usize, usize)> = HashMap::with_capacity(a.len());
    let mut next = vec![usize::MAX; a.len()];
    for (j, item) in a.iter().enumerate() {
        match heads.entry(canonical_hash(item, &state)) {
            Entry::Vacant(e) => {
                e.insert((j, j));
            }
            Entry::Occupied(mut e) => {
                let (first, last) = *e.get();
                let mut i = first;
                while i != usize::MAX {
                    if equal(&a[i], item) {
                        return Some((i, j));
                    }
                    i = next[i];
                }
                next[last] = j;
                e.insert((first, j));
            }
        }
    }
    None
}

/// [`canonical_hash`] of a string.
pub(crate) fn string_hash(s: &str, state: &std::collections::hash_map::RandomState) -> u64 {
    use std::hash::BuildHasher;
    state.hash_one((3u8, s))
}

/// A hash of `v` that agrees with [`equal`]: numbers hash their value (sign,
/// significant digits and decimal point, so `1`, `1.0` and `1e0` agree), an
/// object the sum of its members' hashes (key order does not count).
pub(crate) fn canonical_hash<V: Instance>(
    v: &V,
    state: &std::collections::hash_map::RandomState,
) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    crate::schema::budget::tally(1);
    let mut h = state.build_hasher();
    match v.view() {
        View::Null => 0u8.hash(&mut h),
        View::Bool(b) => (1u8, b).hash(&mut h),
        View::Number(n) => {
            2u8.hash(&mut h);
            crate::schema::number::hash_number_value(n.text().as_str(), &mut h);
        }
        View::String(s) => return string_hash(s, state),
        View::Array(items) => {
            (4u8, items.len()).hash(&mut h);
            for item in items {
                canonical_hash(item, state).hash(&mut h);
            }
        }
        View::Object(m) => {
            let mut sum = 0u64;
            for (k, item) in m.iter() {
                let mut kh = state.build_hasher();
                k.hash(&mut kh);
                canonical_hash(item, state).hash(&mut kh);
                sum = sum.wrapping_add(kh.finish());
            }
            (5u8, m.len(), sum).hash(&mut h);
        }
    }
    h.finish()
}
