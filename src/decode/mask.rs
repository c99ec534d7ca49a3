//! The mask: a depth-first walk of the token trie that carries the top
//! frame of a configuration by value (no copy of the configuration per
//! trie edge, a whole subtree skipped at its first refused byte), and a
//! cache of finished masks in the [`Constraint`](super::Constraint), keyed
//! by the configurations with what cannot change the mask left out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::fast::{Fast, top_step};
use super::shape::{Grammar, Shape};
use super::step::{Config, Frame, Ox, can_end, num_bounded, step};
use super::string::Sx;
use super::vocab::{Trie, VocabInner};

/// Cached masks at most; past it the cache starts over.
const CACHE_ENTRIES: usize = 4096;

/// A precomputed token set in a mask.
#[derive(Clone, Copy, Debug)]
enum Base {
    /// The plain string tokens of at most this many code points.
    Plain(u64),
    /// The tokens that stay inside a string in the state of `strs[i]`.
    Inside(usize),
    /// The tokens that stay inside a free key in the state of `keys[i]`.
    KeyInside(usize),
}

/// A finished mask: precomputed sets and a sorted list of other ids.
#[derive(Debug)]
pub(crate) struct Cached {
    bases: Vec<Base>,
    ids: Box<[u32]>,
}

/// Masks by normalized configurations, shared by every matcher of a
/// constraint.
#[derive(Debug, Default)]
pub(crate) struct MaskCache {
    map: Mutex<HashMap<Box<[Config]>, Arc<Cached>>>,
}

impl MaskCache {
    fn get(&self, key: &[Config]) -> Option<Arc<Cached>> {
        self.map.lock().ok()?.get(key).cloned()
    }

    fn put(&self, key: Box<[Config]>, value: Arc<Cached>) {
        if let Ok(mut m) = self.map.lock() {
            if m.len() >= CACHE_ENTRIES {
                m.clear();
            }
            m.insert(key, value);
        }
    }
}

/// Writes the mask of `configs` (not ended) into `mask`, cleared first.
pub(crate) fn fill(
    g: &Grammar,
    v: &VocabInner,
    cache: &MaskCache,
    configs: &[Config],
    mask: &mut [u64],
) {
    mask.fill(0);
    let key = normalize(g, v, configs);
    let cached = match cache.get(&key) {
        Some(c) => c,
        None => {
            let c = Arc::new(compute(g, v, configs));
            cache.put(key, c.clone());
            c
        }
    };
    for &b in &cached.bases {
        match b {
            Base::Plain(room) => or_plain(v, room, mask),
            Base::Inside(i) => or_set(&v.strs[i].inside, mask),
            Base::KeyInside(i) => or_set(&v.keys[i].inside, mask),
        }
    }
    for &t in cached.ids.iter() {
        if let Some(w) = mask.get_mut(t as usize / 64) {
            *w |= 1 << (t % 64);
        }
    }
}

fn compute(g: &Grammar, v: &VocabInner, configs: &[Config]) -> Cached {
    let mut bases = Vec::new();
    let mut ids = Vec::new();
    let mut bufs: Vec<Vec<Config>> = Vec::new();
    let cap = v.max_len as u64 + 2;
    for cfg in configs {
        let top = *cfg.frames.last().expect("a configuration has a root frame");
        let trie = match (str_room(g, top), plain_room(g, cfg)) {
            (Some((room, sx)), _) if room >= cap && v.str_index(sx).is_some() => {
                let i = v.str_index(sx).unwrap_or(0);
                bases.push(Base::Inside(i));
                &v.strs[i].closing
            }
            _ if free_key(top).is_some_and(|sx| v.str_index(sx).is_some()) => {
                let i = free_key(top).and_then(|sx| v.str_index(sx)).unwrap_or(0);
                bases.push(Base::KeyInside(i));
                &v.keys[i].closing
            }
            (_, Some(room)) => {
                bases.push(Base::Plain(room));
                &v.rest
            }
            _ => &v.all,
        };
        walk(g, trie, 0, cfg, top, &mut ids, &mut bufs, 0);
    }
    if configs.iter().any(|c| can_end(g, c)) {
        ids.extend_from_slice(&v.eos);
    }
    ids.sort_unstable();
    ids.dedup();
    Cached {
        bases,
        ids: ids.into_boxed_slice(),
    }
}

/// `configs` with the parts that cannot change the mask set to one value:
/// a string's length as the room left and the length still needed (each
/// capped past the longest token), an unbounded number's value, the text
/// of a key that matches no named one and whose object has no other
/// free key to clash with, the value shape an object keeps between keys.
fn normalize(g: &Grammar, v: &VocabInner, configs: &[Config]) -> Box<[Config]> {
    let cap = v.max_len as u64 + 2;
    configs
        .iter()
        .map(|c| {
            let mut c = c.clone();
            let n = c.frames.len();
            for i in 0..n {
                let keys = &c.keys;
                match &mut c.frames[i] {
                    Frame::Str { shape, chars, .. } => {
                        let (min, max) = match g.shape(*shape) {
                            // A pattern's steps see the length, except
                            // past `minLength` with no `maxLength`.
                            Shape::Str {
                                pat: Some(_),
                                min,
                                max,
                            } => {
                                if *max == u64::MAX && *chars >= *min {
                                    *chars = u64::MAX;
                                }
                                continue;
                            }
                            Shape::Str { min, max, .. } => (*min, *max),
                            _ => (0, u64::MAX),
                        };
                        let need = min.saturating_sub(*chars).min(cap);
                        let room = max.saturating_sub(*chars).min(cap);
                        *chars = need * (cap + 1) + room;
                    }
                    Frame::Num {
                        shape,
                        mag,
                        frac_nz,
                        ..
                    } if !num_bounded(g, *shape) => {
                        *mag = 0;
                        *frac_nz = false;
                    }
                    Frame::Key {
                        lo,
                        hi,
                        pos,
                        free,
                        hash,
                        ..
                    } => {
                        if lo >= hi {
                            (*lo, *hi, *pos) = (0, 0, 0);
                        }
                        let d = i as u32;
                        if !*free || !keys.iter().any(|&(kd, _)| kd == d) {
                            *hash = 0;
                        }
                    }
                    Frame::Obj {
                        shape, ox, pending, ..
                    } if !matches!(ox, Ox::Colon | Ox::Value) => {
                        *pending = *shape;
                    }
                    _ => {}
                }
            }
            c
        })
        .collect()
}

/// A key on top that may be one outside the named ones: its state.
fn free_key(top: Frame) -> Option<Sx> {
    match top {
        Frame::Key { free: true, sx, .. } => Some(sx),
        _ => None,
    }
}

fn or_set(set: &[u64], mask: &mut [u64]) {
    for (m, s) in mask.iter_mut().zip(set) {
        *m |= s;
    }
}

/// A string on top: the code points left to it, and its state.
fn str_room(g: &Grammar, top: Frame) -> Option<(u64, Sx)> {
    match top {
        Frame::Str {
            shape, chars, sx, ..
        } => match g.shape(shape) {
            // A pattern decides the characters: no set stands for it.
            Shape::Str { pat: Some(_), .. } => None,
            Shape::Str { max, .. } => Some((max.saturating_sub(chars), sx)),
            _ => Some((u64::MAX, sx)),
        },
        _ => None,
    }
}

/// When the configuration is in plain string text where any plain token
/// fits, how many code points fit (`u64::MAX`: any number).
pub(crate) fn plain_room(g: &Grammar, cfg: &Config) -> Option<u64> {
    match *cfg.frames.last()? {
        Frame::Str {
            shape,
            chars,
            sx: Sx::Normal,
            pat,
        } => match g.shape(shape) {
            // A pattern decides each character (the whole trie is
            // walked) until anything may follow.
            Shape::Str {
                pat: Some(p), max, ..
            } => g
                .pattern(*p)
                .is_free(pat)
                .then(|| max.saturating_sub(chars)),
            Shape::Str { max, .. } => Some(max.saturating_sub(chars)),
            _ => Some(u64::MAX),
        },
        Frame::Key {
            free: true,
            sx: Sx::Normal,
            ..
        } => Some(u64::MAX),
        _ => None,
    }
}

fn or_plain(v: &VocabInner, room: u64, mask: &mut [u64]) {
    let top = v.plain_upto.len() - 1;
    let set = &v.plain_upto[(room.min(top as u64)) as usize];
    for (m, s) in mask.iter_mut().zip(set) {
        *m |= s;
    }
    if room > top as u64 {
        for &(id, c) in &v.plain_long {
            if u64::from(c) <= room {
                mask[id as usize / 64] |= 1 << (id % 64);
            }
        }
    }
}

fn dedup(v: &mut Vec<Config>) {
    if v.len() > 1 {
        let mut seen = std::collections::HashSet::with_capacity(v.len());
        v.retain(|c| seen.insert(c.clone()));
    }
}

/// The tokens below trie `node` allowed from `base` with `top` in place of
/// its top frame, pushed to `out`.
#[allow(clippy::too_many_arguments)]
fn walk(
    g: &Grammar,
    trie: &Trie,
    node: u32,
    base: &Config,
    top: Frame,
    out: &mut Vec<u32>,
    bufs: &mut Vec<Vec<Config>>,
    depth: usize,
) {
    for &(b, child) in trie.children(node) {
        match top_step(g, &base.frames, top, b) {
            Fast::No => {}
            Fast::Stay(f) => {
                out.extend_from_slice(trie.tokens(child));
                if !trie.children(child).is_empty() {
                    walk(g, trie, child, base, f, out, bufs, depth);
                }
            }
            Fast::Slow => {
                if bufs.len() <= depth {
                    bufs.push(Vec::new());
                }
                let mut succ = std::mem::take(&mut bufs[depth]);
                succ.clear();
                let mut c = base.clone();
                if let Some(t) = c.frames.last_mut() {
                    *t = top;
                }
                step(g, &c, b, &mut succ);
                if !succ.is_empty() {
                    out.extend_from_slice(trie.tokens(child));
                    if !trie.children(child).is_empty() {
                        dedup(&mut succ);
                        for s in &succ {
                            let t = *s.frames.last().expect("a configuration has a root frame");
                            walk(g, trie, child, s, t, out, bufs, depth + 1);
                        }
                    }
                }
                bufs[depth] = succ;
            }
        }
    }
}
