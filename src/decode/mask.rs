//! The mask: a depth-first walk of the token trie that carries the top
//! frame of a configuration by value (no copy of the configuration per
//! trie edge, a whole subtree skipped at its first refused byte), and a
//! cache of finished masks in the [`Constraint`](super::Constraint), keyed
//! by the configurations with what cannot change the mask left out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::fast::{Fast, top_step};
use super::pattern::PatState;
use super::shape::{Grammar, Shape};
use super::step::{Config, Frame, Ox, can_end, num_bounded, step_take};
use super::string::Sx;
use super::vocab::{FormatSet, Trie, VocabInner};

/// A format's id and a state of its automaton: the key of a token set the
/// vocabulary keeps.
type FormatKey = (u8, PatState);

/// The most long tokens walked again from a counting format state before
/// the whole trie is walked instead.
const RECHECK: usize = 4096;

/// Cached masks at most; past it the cache starts over.
const CACHE_ENTRIES: usize = 4096;

/// A precomputed token set in a mask.
#[derive(Clone, Debug)]
enum Base {
    /// The plain string tokens of at most this many code points.
    Plain(u64),
    /// The tokens that stay inside a string in the state of `strs[i]`.
    Inside(usize),
    /// The tokens that stay inside a free key in the state of `keys[i]`.
    KeyInside(usize),
    /// The tokens that stay inside a string under a format's hand-built
    /// automaton in one state (kept by the vocabulary).
    Format(Arc<[u64]>),
}

/// A finished mask: precomputed sets, and the other ids as a sorted list
/// or, when they are many, a bitset (a long list costs more to sort, to
/// keep and to set bit by bit than the bitset does).
#[derive(Debug)]
pub(crate) struct Cached {
    bases: Vec<Base>,
    ids: Box<[u32]>,
    bits: Option<Box<[u64]>>,
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
    for b in &cached.bases {
        match b {
            Base::Plain(room) => or_plain(v, *room, mask),
            Base::Inside(i) => or_set(&v.strs[*i].inside, mask),
            Base::KeyInside(i) => or_set(&v.keys[*i].inside, mask),
            Base::Format(set) => or_set(set, mask),
        }
    }
    if let Some(bits) = &cached.bits {
        or_set(bits, mask);
    }
    for &t in cached.ids.iter() {
        if let Some(w) = mask.get_mut(t as usize / 64) {
            *w |= 1 << (t % 64);
        }
    }
}

fn compute(g: &Grammar, v: &VocabInner, configs: &[Config]) -> Cached {
    let mut bases = Vec::new();
    let mut w = Walk::new(g);
    let cap = v.max_len as u64 + 2;
    for cfg in configs {
        let top = *cfg.frames.last().expect("a configuration has a root frame");
        let trie = match (str_room(g, top), plain_room(g, cfg)) {
            (Some((room, sx)), _) if room >= cap && v.str_index(sx).is_some() => {
                let i = v.str_index(sx).unwrap_or(0);
                bases.push(Base::Inside(i));
                close_string(g, v, cfg, top, i, &mut w.out);
                continue;
            }
            _ if free_key(top).is_some_and(|sx| v.str_index(sx).is_some()) => {
                let i = free_key(top).and_then(|sx| v.str_index(sx)).unwrap_or(0);
                bases.push(Base::KeyInside(i));
                if close_key(g, v, cfg, top, i, &mut w) {
                    continue;
                }
                &v.keys[i].closing
            }
            (_, Some(room)) => {
                bases.push(Base::Plain(room));
                &v.rest
            }
            _ if format_key(g, cfg).is_some() && v.str_index(Sx::Normal).is_some() => {
                let (exact, canon, room) = format_key(g, cfg).expect("tested");
                let inside = |key: FormatKey| {
                    let mut from = top;
                    if let Frame::Str { pat, .. } = &mut from {
                        *pat = key.1;
                    }
                    let mut inside = Walk::new(g);
                    inside.inside_only = true;
                    inside.walk(&v.all, 0, cfg, from, 0);
                    let mut bits = vec![0u64; v.tokens.len().div_ceil(64)];
                    for t in inside.out {
                        bits[t as usize / 64] |= 1 << (t % 64);
                    }
                    bits
                };
                // The state with the most room stands for this one for
                // every token too short for a count to bind; the longer
                // ones are walked again from this state.
                let wide = v.format_inside(canon, || inside(canon));
                let safe = room.saturating_sub(2);
                let set = if wide.longest < safe {
                    wide.bits.clone()
                } else if let Some(n) = Some(
                    wide.long
                        .iter()
                        .position(|&(len, _)| u64::from(len) < safe)
                        .unwrap_or(wide.long.len()),
                )
                .filter(|&n| u64::from(FormatSet::LONG) < safe && n <= RECHECK)
                {
                    v.format_derived(exact, || {
                        let mut bits = wide.bits.to_vec();
                        for &(_, t) in &wide.long[..n] {
                            bits[t as usize / 64] &= !(1 << (t % 64));
                        }
                        let long = Trie::build(&v.tokens, wide.long[..n].iter().map(|x| x.1));
                        let mut from = top;
                        if let Frame::Str { pat, .. } = &mut from {
                            *pat = exact.1;
                        }
                        let mut again = Walk::new(g);
                        again.inside_only = true;
                        again.walk(&long, 0, cfg, from, 0);
                        for t in again.out {
                            bits[t as usize / 64] |= 1 << (t % 64);
                        }
                        bits
                    })
                } else {
                    v.format_inside(exact, || inside(exact)).bits.clone()
                };
                bases.push(Base::Format(set));
                &v.strs[v.str_index(Sx::Normal).unwrap_or(0)].closing
            }
            _ => &v.all,
        };
        w.v = Some(v);
        w.start_chars = match top {
            Frame::Str { chars, .. } => chars,
            _ => 0,
        };
        w.walk(trie, 0, cfg, top, 0);
    }
    let mut ids = w.out;
    if configs.iter().any(|c| can_end(g, c)) {
        ids.extend_from_slice(&v.eos);
    }
    let words = v.tokens.len().div_ceil(64);
    if ids.len() > 2 * words {
        let mut bits = vec![0u64; words];
        for &t in &ids {
            if let Some(w) = bits.get_mut(t as usize / 64) {
                *w |= 1 << (t % 64);
            }
        }
        return Cached {
            bases,
            ids: Box::new([]),
            bits: Some(bits.into_boxed_slice()),
        };
    }
    ids.sort_unstable();
    ids.dedup();
    Cached {
        bases,
        ids: ids.into_boxed_slice(),
        bits: None,
    }
}

/// The closing tokens of the string on top of `cfg` (`top`, in the state
/// of `v.strs[i]`, with room for any token and no pattern), pushed to
/// `out`: the configuration past the quote is stepped once, and the
/// suffixes after the quote are walked from it once each.
fn close_string(
    g: &Grammar,
    v: &VocabInner,
    cfg: &Config,
    top: Frame,
    i: usize,
    out: &mut Vec<u32>,
) {
    let Frame::Str { shape, chars, .. } = top else {
        return;
    };
    let min = match g.shape(shape) {
        Shape::Str { min, .. } => *min,
        _ => 0,
    };
    let need = min.saturating_sub(chars);
    // The string at its quote with `minLength` met: the tokens that do
    // not meet it are left out by their count below.
    let mut c = cfg.clone();
    if let Some(t) = c.frames.last_mut() {
        *t = Frame::Str {
            shape,
            chars: chars.max(min),
            sx: Sx::Normal,
            pat: PatState::default(),
        };
    }
    push_closing(g, c, &v.closing[i], need, out);
}

/// Steps `c` (a string or key at its quote) past the quote once, then
/// pushes to `out` the closing tokens of `sets` whose suffix after the
/// quote the configurations past it allow (each suffix walked once for
/// all its tokens). False when the quote cannot close here.
fn push_closing(
    g: &Grammar,
    c: Config,
    sets: &super::closing::Closing<Trie>,
    need: u64,
    out: &mut Vec<u32>,
) -> bool {
    let mut closed = Vec::new();
    step_take(g, c, b'"', &mut closed);
    dedup(&mut closed);
    if closed.is_empty() {
        return false;
    }
    sets.push(None, need, out);
    let mut after = Walk::new(g);
    for s in &closed {
        let t = *s.frames.last().expect("a configuration has a root frame");
        after.walk(&sets.after, 0, s, t, 0);
    }
    let mut groups = after.out;
    groups.sort_unstable();
    groups.dedup();
    for gi in groups {
        sets.push(Some(gi), need, out);
    }
    true
}

/// The closing tokens of the key on top of `cfg` (`top`, one that may be
/// outside the named ones, in the state of `v.keys[i]`), pushed to
/// `w.out`; false (nothing done) when its object already has a key
/// outside the named ones, which the key must differ from.
///
/// A token whose text before the quote ends a named key is walked as
/// before (the named key's value follows); every other one ends a key
/// outside the named ones, and the configuration past its quote is the
/// same but for the key's hash, which only a second key closed in the
/// same token would read: those tokens are walked whole, the others
/// grouped by the suffix after the quote.
fn close_key(
    g: &Grammar,
    v: &VocabInner,
    cfg: &Config,
    top: Frame,
    i: usize,
    w: &mut Walk,
) -> bool {
    let Frame::Key {
        lo, hi, pos, hash, ..
    } = top
    else {
        return false;
    };
    let n = cfg.frames.len();
    let d = (n - 1) as u32;
    if n < 2 || cfg.keys.iter().any(|&(kd, _)| kd == d) {
        return false;
    }
    let Some(&Frame::Obj { shape, .. }) = cfg.frames.get(n - 2) else {
        return false;
    };
    let trie = &v.keys[i].closing;
    let sets = &v.key_closing[i];
    // The named keys the text may still end: their closing tokens.
    let mut named: Vec<u32> = Vec::new();
    if let (true, Shape::Obj(o)) = (lo < hi, g.shape(shape)) {
        for k in lo..hi {
            let rest = &o.keys[k as usize][pos as usize..];
            let mut node = 0u32;
            let mut f = Some(top);
            let mut found = true;
            for &b in rest {
                let Some(&(_, c)) = trie.children(node).iter().find(|e| e.0 == b) else {
                    found = false;
                    break;
                };
                node = c;
                f = match f.map(|f| top_step(g, &cfg.frames, f, b)) {
                    Some(Fast::Stay(nf)) => Some(nf),
                    _ => None,
                };
            }
            let Some(&(_, q)) = trie.children(node).iter().find(|e| e.0 == b'"') else {
                continue;
            };
            if !found {
                continue;
            }
            named.extend_from_slice(trie.tokens(q));
            named.extend_from_slice(trie.tokens_below(q));
            let Some(f) = f else { continue };
            let mut c = cfg.clone();
            if let Some(t) = c.frames.last_mut() {
                *t = f;
            }
            let mut succ = Vec::new();
            step_take(g, c, b'"', &mut succ);
            if succ.is_empty() {
                continue;
            }
            w.out.extend_from_slice(trie.tokens(q));
            dedup(&mut succ);
            for s in &succ {
                let t = *s.frames.last().expect("a configuration has a root frame");
                w.walk(trie, q, s, t, 1);
            }
        }
    }
    named.sort_unstable();
    // Tokens whose suffix may close a second key: walked whole.
    w.walk(&sets.whole, 0, cfg, top, 0);
    // Every other token ends a key outside the named ones.
    let mut c = cfg.clone();
    if let Some(t) = c.frames.last_mut() {
        *t = Frame::Key {
            lo: 0,
            hi: 0,
            pos,
            free: true,
            sx: Sx::Normal,
            hash,
        };
    }
    let mut found = Vec::new();
    if !push_closing(g, c, sets, 0, &mut found) {
        return true;
    }
    if named.is_empty() {
        w.out.extend_from_slice(&found);
    } else {
        w.out.extend(
            found
                .into_iter()
                .filter(|t| named.binary_search(t).is_err()),
        );
    }
    true
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

/// A string in plain text under a format's hand-built automaton, with no
/// length bound left: the key of its inside tokens in the vocabulary, the
/// key of the state with the most room that stands for it, and how many
/// characters until one of its counts binds (see `Hand::canon`).
fn format_key(g: &Grammar, cfg: &Config) -> Option<(FormatKey, FormatKey, u64)> {
    let Frame::Str {
        shape,
        chars,
        sx: Sx::Normal,
        pat,
    } = *cfg.frames.last()?
    else {
        return None;
    };
    match g.shape(shape) {
        Shape::Str {
            pat: Some(p),
            min,
            max: u64::MAX,
        } if chars >= *min => {
            let p = g.pattern(*p);
            let key = p.shared_key(pat)?;
            let (canon, room) = p.canon(pat);
            Some((key, (key.0, canon), room))
        }
        _ => None,
    }
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
            // walked) until anything may follow, or, with no `maxLength`,
            // until any text keeps a match possible.
            Shape::Str {
                pat: Some(p), max, ..
            } => {
                let p = g.pattern(*p);
                (p.is_free(pat) || (*max == u64::MAX && p.always_viable(pat)))
                    .then(|| max.saturating_sub(chars))
            }
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

/// One mask's walk: the grammar, the token ids found, a buffer of
/// successors per depth, and the loop classes of the pattern states met.
struct Walk<'g> {
    g: &'g Grammar,
    out: Vec<u32>,
    bufs: Vec<Vec<Config>>,
    loops: Vec<(u32, PatState, u128)>,
    /// Only the tokens that stay inside the string on top: no step past
    /// its closing quote.
    inside_only: bool,
    /// The vocabulary, when the walk is over its trie of every token: a
    /// string whose pattern lets any plain text follow then takes the
    /// plain tokens below by their length (see [`Walk::split_free`]).
    v: Option<&'g VocabInner>,
    /// The bytes from the walk's root to the node being walked.
    path: Vec<u8>,
    /// The code points of the string on top where the walk started (0
    /// when none is).
    start_chars: u64,
}

impl<'g> Walk<'g> {
    fn new(g: &'g Grammar) -> Walk<'g> {
        Walk {
            g,
            out: Vec::new(),
            bufs: Vec::new(),
            loops: Vec::new(),
            inside_only: false,
            v: None,
            path: Vec::new(),
            start_chars: 0,
        }
    }

    /// At trie node `child` (byte `b` below the path) of the trie of every
    /// token, with `f` on top: when `f` is a string in plain text whose
    /// pattern lets any plain text follow (only the length counts, as past
    /// a match of `^[a-z]` with no `$`), the tokens below are decided
    /// without walking each: a plain one (whose text before `child` is
    /// then plain text of the string on top where the walk started) by
    /// its length, the others walked in the trie of the tokens that are
    /// not plain. Returns false, doing nothing, otherwise.
    fn split_free(
        &mut self,
        trie: &Trie,
        child: u32,
        b: u8,
        base: &Config,
        f: Frame,
        depth: usize,
    ) -> bool {
        let Some(v) = self.v else { return false };
        if !std::ptr::eq(trie, &v.all) {
            return false;
        }
        let Frame::Str {
            shape,
            sx: Sx::Normal,
            pat,
            ..
        } = f
        else {
            return false;
        };
        let Shape::Str {
            pat: Some(p), max, ..
        } = self.g.shape(shape)
        else {
            return false;
        };
        if !self.g.pattern(*p).is_free(pat) {
            return false;
        }
        let limit = max.saturating_sub(self.start_chars);
        for &t in trie.tokens_below(child) {
            let len = v.plain_len[t as usize];
            if len != u32::MAX && u64::from(len) <= limit {
                self.out.push(t);
            }
        }
        let mut node = 0u32;
        for &c in self.path.iter().chain(std::iter::once(&b)) {
            match v.rest.children(node).iter().find(|e| e.0 == c) {
                Some(&(_, n)) => node = n,
                None => return true,
            }
        }
        self.path.push(b);
        self.walk(&v.rest, node, base, f, depth);
        self.path.pop();
        true
    }

    /// When `f` is a string under a pattern with no `maxLength` in plain
    /// text: the characters that leave its pattern state as it is.
    fn loop_class(&mut self, f: Frame) -> u128 {
        let Frame::Str {
            shape,
            sx: Sx::Normal,
            pat,
            ..
        } = f
        else {
            return 0;
        };
        let Shape::Str {
            pat: Some(p),
            max: u64::MAX,
            ..
        } = self.g.shape(shape)
        else {
            return 0;
        };
        if let Some(&(_, _, k)) = self.loops.iter().find(|e| e.0 == *p && e.1 == pat) {
            return k;
        }
        let k = self.g.pattern(*p).loop_class(pat);
        self.loops.push((*p, pat, k));
        k
    }

    /// The tokens below trie `node` allowed from `base` with `top` in place
    /// of its top frame, pushed to `out`.
    fn walk(&mut self, trie: &Trie, node: u32, base: &Config, top: Frame, depth: usize) {
        let g = self.g;
        // A byte of the loop class only counts one more character.
        let k = self.loop_class(top);
        for &(b, child) in trie.children(node) {
            let next = match top {
                Frame::Str {
                    shape,
                    chars,
                    sx,
                    pat,
                } if b < 0x80 && k >> b & 1 == 1 => Fast::Stay(Frame::Str {
                    shape,
                    chars: chars + 1,
                    sx,
                    pat,
                }),
                _ => top_step(g, &base.frames, top, b),
            };
            match next {
                Fast::No => {}
                Fast::Stay(f) => {
                    self.out.extend_from_slice(trie.tokens(child));
                    if trie.children(child).is_empty() {
                        continue;
                    }
                    // Below, only characters that keep the pattern where
                    // it is: every token there is allowed.
                    if trie.tokens_below(child).len() > 1
                        && trie.bytes_below(child) & !self.loop_class(f) == 0
                    {
                        self.out.extend_from_slice(trie.tokens_below(child));
                        continue;
                    }
                    if self.split_free(trie, child, b, base, f, depth) {
                        continue;
                    }
                    self.path.push(b);
                    self.walk(trie, child, base, f, depth);
                    self.path.pop();
                }
                Fast::Slow if self.inside_only => {}
                Fast::Slow => {
                    while self.bufs.len() <= depth {
                        self.bufs.push(Vec::new());
                    }
                    let mut succ = std::mem::take(&mut self.bufs[depth]);
                    succ.clear();
                    let mut c = base.clone();
                    if let Some(t) = c.frames.last_mut() {
                        *t = top;
                    }
                    step_take(g, c, b, &mut succ);
                    if !succ.is_empty() {
                        self.out.extend_from_slice(trie.tokens(child));
                        if !trie.children(child).is_empty() {
                            dedup(&mut succ);
                            self.path.push(b);
                            for s in &succ {
                                let t = *s.frames.last().expect("a configuration has a root frame");
                                self.walk(trie, child, s, t, depth + 1);
                            }
                            self.path.pop();
                        }
                    }
                    self.bufs[depth] = succ;
                }
            }
        }
    }
}
