//! The byte automaton: a configuration is a stack of frames (one per open
//! value), and a byte takes a configuration to its successors (none when
//! the text stops being a viable prefix, several where `anyOf` branches
//! agree so far). Every successor has a completion: a frame is only
//! entered when its shape has a text, a key only when the object can still
//! close after it, a digit only when a number within the bounds extends it.

use smallvec::SmallVec;

pub(crate) use super::number::{Nx, num_bounded, num_next, num_ok, num_shape};
use super::object::{FNV0, obj_can_add, obj_can_close, obj_can_finish};
pub(crate) use super::object::{fnv, key_ok};
use super::pattern::PatState;
use super::shape::{Grammar, ObjShape, Shape, ShapeId};
use super::string::{Sx, pending, str_byte};

/// The deepest nesting of arrays and objects written (the crate's parser
/// refuses past 128).
pub const MAX_DEPTH: usize = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ox {
    /// After `{` or `,`: a key (or `}` when `open`).
    Key { open: bool },
    /// After a value: `,` or `}`.
    After,
    /// After a key: `:`.
    Colon,
    /// After `:`: the value starts.
    Value,
    /// A member value is open above this frame.
    Inside,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ax {
    /// After `[` (`open`) or `,`: an item (or `]` when `open`).
    Item {
        open: bool,
    },
    After,
    Inside,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Frame {
    Root {
        done: bool,
        inside: bool,
    },
    Lit {
        shape: ShapeId,
        lo: u32,
        hi: u32,
        pos: u32,
    },
    Str {
        shape: ShapeId,
        chars: u64,
        sx: Sx,
        /// The state of the string's pattern, if its shape has one.
        pat: PatState,
    },
    Num {
        shape: ShapeId,
        nx: Nx,
        neg: bool,
        /// The integer part (saturating at `MAG_CAP`).
        mag: u128,
        /// A non-zero fraction digit was written.
        frac_nz: bool,
    },
    Obj {
        shape: ShapeId,
        used: u64,
        count: u64,
        ox: Ox,
        /// The shape of the value after the key just read.
        pending: ShapeId,
    },
    /// A key being read; the object is the frame below.
    Key {
        lo: u32,
        hi: u32,
        pos: u32,
        /// Whether a key outside the named ones may be this one.
        free: bool,
        sx: Sx,
        hash: u64,
    },
    Arr {
        shape: ShapeId,
        count: u64,
        ax: Ax,
    },
}

/// One configuration: the open frames, and the keys outside the named
/// ones already written in each open object (depth, hash), so that no key
/// repeats.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct Config {
    pub(crate) frames: SmallVec<[Frame; 8]>,
    pub(crate) keys: SmallVec<[(u32, u64); 2]>,
    /// Whitespace bytes in a row just written between tokens.
    pub(crate) ws: u8,
}

// By hand: the derived clone copies the frames one by one; they are
// `Copy`, and the mask walk clones a configuration at every structural byte.
impl Clone for Config {
    fn clone(&self) -> Config {
        Config {
            frames: SmallVec::from_slice(&self.frames),
            keys: SmallVec::from_slice(&self.keys),
            ws: self.ws,
        }
    }
}

impl Config {
    pub(crate) fn new() -> Config {
        let mut frames = SmallVec::new();
        frames.push(Frame::Root {
            done: false,
            inside: false,
        });
        Config {
            frames,
            keys: SmallVec::new(),
            ws: 0,
        }
    }

    pub(super) fn top(&mut self) -> &mut Frame {
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }
}

/// Frames that start a value of `shape` with byte `b`.
pub(super) fn start(
    g: &Grammar,
    shape: ShapeId,
    b: u8,
    depth: usize,
    out: &mut SmallVec<[Frame; 2]>,
) {
    if !g.sat(shape) {
        return;
    }
    match g.shape(shape) {
        Shape::Never => {}
        Shape::Alt(a) => {
            for &x in a.iter() {
                start(g, x, b, depth, out);
            }
        }
        Shape::Any => match b {
            b'{' if depth < MAX_DEPTH => out.push(Frame::Obj {
                shape,
                used: 0,
                count: 0,
                ox: Ox::Key { open: true },
                pending: shape,
            }),
            b'[' if depth < MAX_DEPTH => out.push(Frame::Arr {
                shape,
                count: 0,
                ax: Ax::Item { open: true },
            }),
            b'"' => out.push(Frame::Str {
                shape,
                chars: 0,
                sx: Sx::Normal,
                pat: PatState::default(),
            }),
            b'-' | b'0'..=b'9' => num_start(g, shape, b, out),
            b't' | b'f' | b'n' => lit_start(g, g.any_lits, b, out),
            _ => {}
        },
        Shape::Lits(_) => lit_start(g, shape, b, out),
        Shape::Str { .. } => {
            if b == b'"' {
                out.push(Frame::Str {
                    shape,
                    chars: 0,
                    sx: Sx::Normal,
                    pat: PatState::default(),
                });
            }
        }
        Shape::Int { .. } | Shape::Num { .. } => num_start(g, shape, b, out),
        Shape::Obj(_) => {
            if b == b'{' && depth < MAX_DEPTH {
                out.push(Frame::Obj {
                    shape,
                    used: 0,
                    count: 0,
                    ox: Ox::Key { open: true },
                    pending: shape,
                });
            }
        }
        Shape::Arr(_) => {
            if b == b'[' && depth < MAX_DEPTH {
                out.push(Frame::Arr {
                    shape,
                    count: 0,
                    ax: Ax::Item { open: true },
                });
            }
        }
    }
}

pub(crate) fn lits(g: &Grammar, shape: ShapeId) -> &[Box<[u8]>] {
    match g.shape(shape) {
        Shape::Lits(l) => l,
        _ => &[],
    }
}

/// The range of `l[lo..hi]` whose byte at `pos` is `b`.
pub(crate) fn narrow(l: &[Box<[u8]>], lo: u32, hi: u32, pos: u32, b: u8) -> (u32, u32) {
    let s = &l[lo as usize..hi as usize];
    let at = |t: &[u8]| t.get(pos as usize).copied();
    let a = s.partition_point(|t| at(t) < Some(b));
    let z = s.partition_point(|t| at(t) <= Some(b));
    (lo + a as u32, lo + z as u32)
}

fn lit_start(g: &Grammar, shape: ShapeId, b: u8, out: &mut SmallVec<[Frame; 2]>) {
    let l = lits(g, shape);
    let (lo, hi) = narrow(l, 0, l.len() as u32, 0, b);
    if lo < hi {
        out.push(Frame::Lit {
            shape,
            lo,
            hi,
            pos: 1,
        });
    }
}

fn num_start(g: &Grammar, shape: ShapeId, b: u8, out: &mut SmallVec<[Frame; 2]>) {
    let (lo, hi, _) = num_shape(g, shape);
    let (nx, neg, mag) = match b {
        b'-' => (Nx::Minus, true, 0),
        b'0' => (Nx::Zero, false, 0),
        b'1'..=b'9' => (Nx::Int, false, u128::from(b - b'0')),
        _ => return,
    };
    if num_ok(nx, neg, mag, false, lo, hi, false) {
        out.push(Frame::Num {
            shape,
            nx,
            neg,
            mag,
            frac_nz: false,
        });
    }
}

/// The successors of `cfg` after byte `b`, pushed to `out`.
pub(crate) fn step(g: &Grammar, cfg: &Config, b: u8, out: &mut Vec<Config>) {
    step_take(g, cfg.clone(), b, out);
}

/// [`step`] on a configuration the caller gives up: its successor is
/// moved to `out`, not copied (the mask walk steps a configuration it
/// has just built).
pub(crate) fn step_take(g: &Grammar, mut c: Config, b: u8, out: &mut Vec<Config>) {
    step_owned(g, &mut c, b, out, 0);
}

/// `c` moved out, an empty configuration (no allocation) left in its
/// place: a successor is pushed by move at the end of each path.
pub(super) fn take(c: &mut Config) -> Config {
    std::mem::replace(
        c,
        Config {
            frames: SmallVec::new(),
            keys: SmallVec::new(),
            ws: 0,
        },
    )
}

/// Pops a finished value and tells its parent. Returns false if the parent
/// cannot take it (never, by construction, but kept total).
pub(super) fn value_done(g: &Grammar, c: &mut Config) {
    c.frames.pop();
    let depth = c.frames.len() as u32;
    match c.top() {
        Frame::Root { done, inside } => {
            *done = true;
            *inside = false;
        }
        Frame::Obj { ox, .. } => *ox = Ox::After,
        Frame::Arr { count, ax, .. } => {
            *count += 1;
            *ax = Ax::After;
        }
        _ => {}
    }
    let _ = (g, depth);
}

/// The successors of `c` after byte `b`, pushed to `out`: whitespace
/// between tokens, else the top frame's step. `guard` bounds the
/// re-steps of a byte that ends a number or literal and belongs to its
/// parent.
pub(super) fn step_owned(g: &Grammar, c: &mut Config, b: u8, out: &mut Vec<Config>, guard: u32) {
    if guard > 4 {
        return;
    }
    let top = *c.frames.last().expect("a configuration has a root frame");
    if g.ws_max > 0 {
        if matches!(b, b' ' | b'\n' | b'\r' | b'\t') && between_tokens(top) {
            if c.ws < g.ws_max {
                c.ws += 1;
                out.push(take(c));
            }
            return;
        }
        c.ws = 0;
    }
    match top {
        Frame::Root { done, inside } => {
            if !done && !inside {
                step_root(g, c, b, out);
            }
        }
        Frame::Lit { shape, lo, hi, pos } => step_lit(g, c, (shape, lo, hi, pos), b, out, guard),
        Frame::Str {
            shape,
            chars,
            sx,
            pat,
        } => step_str(g, c, (shape, chars, sx, pat), b, out),
        Frame::Num {
            shape,
            nx,
            neg,
            mag,
            frac_nz,
        } => step_num(g, c, (shape, nx, neg, mag, frac_nz), b, out, guard),
        Frame::Arr { shape, count, ax } => step_arr(g, c, (shape, count, ax), b, out),
        Frame::Obj {
            shape,
            used,
            count,
            ox,
            pending,
        } => step_obj(g, c, (shape, used, count, ox, pending), b, out),
        Frame::Key { .. } => step_key(g, c, top, b, out),
    }
}

/// The root value's first byte.
#[inline(always)]
fn step_root(g: &Grammar, c: &mut Config, b: u8, out: &mut Vec<Config>) {
    let mut starts = SmallVec::new();
    start(g, g.root, b, 0, &mut starts);
    push_starts(
        c,
        starts,
        |f| {
            if let Frame::Root { inside, .. } = f {
                *inside = true;
            }
        },
        out,
    );
}

/// A byte of an `enum` / `const` literal (or `true`, `false`, `null`):
/// the candidates narrowed, or a finished number literal ended.
#[inline(always)]
fn step_lit(
    g: &Grammar,
    c: &mut Config,
    (shape, lo, hi, pos): (ShapeId, u32, u32, u32),
    b: u8,
    out: &mut Vec<Config>,
    guard: u32,
) {
    let l = lits(g, shape);
    let (nlo, nhi) = narrow(l, lo, hi, pos, b);
    if nlo < nhi {
        *c.top() = Frame::Lit {
            shape,
            lo: nlo,
            hi: nhi,
            pos: pos + 1,
        };
        finish_lit(g, c, out);
    } else if l[lo as usize].len() == pos as usize {
        // A finished number literal; the byte belongs to the parent.
        value_done(g, c);
        step_owned(g, c, b, out, guard + 1);
    }
}

/// A byte of a string value: its closing quote (length and pattern
/// checked), else a character under `maxLength` and the pattern.
#[inline(always)]
fn step_str(
    g: &Grammar,
    c: &mut Config,
    (shape, chars, sx, pat): (ShapeId, u64, Sx, PatState),
    b: u8,
    out: &mut Vec<Config>,
) {
    let (min, max, p) = match g.shape(shape) {
        Shape::Str { min, max, pat } => (*min, *max, *pat),
        _ => (0, u64::MAX, None),
    };
    if sx == Sx::Normal && b == b'"' {
        if chars >= min && p.is_none_or(|p| g.pattern(p).accepts(pat)) {
            value_done(g, c);
            out.push(take(c));
        }
        return;
    }
    let Some((nsx, done)) = str_byte(sx, b, false) else {
        return;
    };
    let nchars = chars + u64::from(done);
    let n = nchars + u64::from(pending(nsx));
    if n > max {
        return;
    }
    let pat = match p {
        Some(p) => match g
            .pattern(p)
            .step(pat, sx.into(), b, nsx.into(), done, min, max, n)
        {
            Some(s) => s,
            None => return,
        },
        None => pat,
    };
    *c.top() = Frame::Str {
        shape,
        chars: nchars,
        sx: nsx,
        pat,
    };
    out.push(take(c));
}

/// A byte in an array, between items: `]` once `minItems` are written,
/// `,` while `maxItems` allows another, or an item's first byte.
#[inline(always)]
fn step_arr(
    g: &Grammar,
    c: &mut Config,
    (shape, count, ax): (ShapeId, u64, Ax),
    b: u8,
    out: &mut Vec<Config>,
) {
    let (item, min, max) = match g.shape(shape) {
        Shape::Arr(a) => (
            a.prefix.get(count as usize).copied().or(a.rest),
            a.min,
            a.max,
        ),
        _ => (Some(shape), 0, u64::MAX),
    };
    match (ax, b) {
        (Ax::Item { open: true } | Ax::After, b']') if count >= min => {
            value_done(g, c);
            out.push(take(c));
        }
        (Ax::After, b',') if count < max && item.is_some_and(|i| g.sat(i)) => {
            *c.top() = Frame::Arr {
                shape,
                count,
                ax: Ax::Item { open: false },
            };
            out.push(take(c));
        }
        (Ax::Item { .. }, _) => {
            if count >= max {
                return;
            }
            let Some(item) = item else { return };
            let mut starts = SmallVec::new();
            start(g, item, b, c.frames.len(), &mut starts);
            push_starts(
                c,
                starts,
                |f| {
                    if let Frame::Arr { ax, .. } = f {
                        *ax = Ax::Inside;
                    }
                },
                out,
            );
        }
        _ => {}
    }
}

/// A byte of a number: a digit, sign, dot or exponent within the bounds,
/// else the end of the number (the byte then its parent's).
#[inline(always)]
fn step_num(
    g: &Grammar,
    c: &mut Config,
    (shape, nx, neg, mag, frac_nz): (ShapeId, Nx, bool, u128, bool),
    b: u8,
    out: &mut Vec<Config>,
    guard: u32,
) {
    let (lo, hi, int) = num_shape(g, shape);
    let bounded = lo.is_some() || hi.is_some();
    if let Some((nx2, mag2, fnz2)) = num_next(nx, mag, frac_nz, b, int, bounded) {
        if num_ok(nx2, neg, mag2, fnz2, lo, hi, false) {
            *c.top() = Frame::Num {
                shape,
                nx: nx2,
                neg,
                mag: mag2,
                frac_nz: fnz2,
            };
            out.push(take(c));
        }
        return;
    }
    if matches!(nx, Nx::Zero | Nx::Int | Nx::Frac | Nx::Exp)
        && num_ok(nx, neg, mag, frac_nz, lo, hi, true)
    {
        value_done(g, c);
        step_owned(g, c, b, out, guard + 1);
    }
}

/// A byte in an object, between members: `}` once it can close, `,`
/// while a key can be added, a key's opening quote, `:`, or the member
/// value's first byte.
#[inline(always)]
fn step_obj(
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
fn step_key(g: &Grammar, c: &mut Config, key: Frame, b: u8, out: &mut Vec<Config>) {
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

/// Whether the top frame is between two tokens, where whitespace may
/// come: around the root value, after `{` `[` `,` `:` and a key, before
/// `,` `:` `}` `]`. (A number on top ends at whitespace, and its parent
/// takes the byte.)
pub(crate) fn between_tokens(top: Frame) -> bool {
    match top {
        Frame::Root { inside, .. } => !inside,
        Frame::Obj { ox, .. } => ox != Ox::Inside,
        Frame::Arr { ax, .. } => ax != Ax::Inside,
        _ => false,
    }
}

/// A literal frame that has read all of every candidate's bytes ends now
/// unless it is a number (which ends at the next byte).
fn finish_lit(g: &Grammar, c: &mut Config, out: &mut Vec<Config>) {
    if let Frame::Lit { shape, lo, hi, pos } = *c.top() {
        let l = lits(g, shape);
        let first = &l[lo as usize];
        let is_num = matches!(first.first(), Some(b'-' | b'0'..=b'9'));
        if hi - lo == 1 && first.len() == pos as usize && !is_num {
            value_done(g, c);
        }
    }
    out.push(take(c));
}

/// Pushes each starting frame on a copy of `c`, marking the parent (top of
/// `c`) as having an open child with `mark`.
pub(super) fn push_starts(
    c: &mut Config,
    starts: SmallVec<[Frame; 2]>,
    mark: impl Fn(&mut Frame),
    out: &mut Vec<Config>,
) {
    let last = starts.len().saturating_sub(1);
    for (i, f) in starts.into_iter().enumerate() {
        let mut n = if i == last { take(c) } else { c.clone() };
        mark(n.top());
        n.frames.push(f);
        out.push(n);
    }
}

/// Whether the text so far is a whole valid value (a number at the end
/// included).
pub(crate) fn can_end(g: &Grammar, cfg: &Config) -> bool {
    let mut c = cfg.clone();
    loop {
        match *c.frames.last().expect("root") {
            Frame::Root { done, .. } => return done,
            Frame::Num {
                shape,
                nx,
                neg,
                mag,
                frac_nz,
            } => {
                let (lo, hi, _) = num_shape(g, shape);
                if !matches!(nx, Nx::Zero | Nx::Int | Nx::Frac | Nx::Exp)
                    || !num_ok(nx, neg, mag, frac_nz, lo, hi, true)
                {
                    return false;
                }
                value_done(g, &mut c);
            }
            Frame::Lit { shape, lo, pos, .. } => {
                if lits(g, shape)
                    .get(lo as usize)
                    .is_none_or(|l| l.len() != pos as usize)
                {
                    return false;
                }
                value_done(g, &mut c);
            }
            _ => return false,
        }
    }
}
