//! `is_valid`'s walk (`check::<false>` of a program without `$dynamicRef`
//! scope): one loop per JSON type over the keywords a tool schema is made
//! of, and the leaves (`Leaf`) checked in place without a call.

use std::cmp::Ordering;

use super::{At, MAX_DEPTH, Validator, addr, type_matches};
use crate::schema::instance::{Instance, Object as _, View};
use crate::schema::number::{QuickNumber, cmp_quick};
use crate::schema::program::{Kw, Leaf, Node, NodeId, Program};
use crate::schema::types::{T_ARR, T_BOOL, T_OBJ, T_STR};

/// Whether `v` is valid against a [`Leaf`] node, or `None` for a number
/// that only the keywords can compare (an exponent, or 19 digits or more).
#[inline]
fn leaf_valid(l: &Leaf, v: &impl Instance, prog: &Program) -> Option<bool> {
    if !type_matches(l.types, v) {
        return Some(false);
    }
    let ok = leaf_bounds(l, v)?;
    if !ok || l.extra == u32::MAX {
        return Some(ok);
    }
    Some(match (prog.kw_at(l.extra)?, v.view()) {
        (Kw::Enum(opts), _) => opts.holds(v),
        (Kw::Pattern(p), View::String(s)) => p.is_match(s),
        (Kw::Pattern(_), _) => true,
        _ => return None,
    })
}

/// [`leaf_valid`] in line for the leaves that need no call: a string
/// whose byte length settles its length bounds (a character is 1 to 4
/// bytes) under a leaf with no `enum` or `pattern`, and a boolean; `None`
/// for anything else.
#[inline(always)]
fn leaf_quick(l: &Leaf, v: &impl Instance) -> Option<bool> {
    if l.extra != u32::MAX {
        return None;
    }
    match v.view() {
        View::String(s) if l.types & T_STR != 0 => {
            let n = s.len() as u64;
            (n <= l.max_len && n.div_ceil(4) >= l.min_len).then_some(true)
        }
        View::Bool(_) => Some(l.types & T_BOOL != 0),
        _ => None,
    }
}

/// Whether `v` is valid against node `id`, checked at nesting depth `d`,
/// when its leaf summary decides that alone; `None` when the node is not a
/// leaf or the summary cannot tell (the keywords are then walked).
#[inline]
pub(crate) fn leaf_verdict(prog: &Program, id: NodeId, v: &impl Instance, d: u32) -> Option<bool> {
    let node = prog.node(id);
    if node.leaf.on && d <= MAX_DEPTH {
        leaf_valid(&node.leaf, v, prog)
    } else {
        None
    }
}

/// [`leaf_valid`]'s length and number bounds.
#[inline]
fn leaf_bounds(l: &Leaf, v: &impl Instance) -> Option<bool> {
    Some(match v.view() {
        View::String(s) => !too_short(s, l.min_len) && !too_long(s, l.max_len),
        View::Number(n) if l.bounded => {
            let q = QuickNumber::read(n.text().as_str())?;
            let (lo, hi) = (q.cmp_int(l.lo), q.cmp_int(l.hi));
            (if l.lo_open {
                lo == Ordering::Greater
            } else {
                lo != Ordering::Less
            }) && (if l.hi_open {
                hi == Ordering::Less
            } else {
                hi != Ordering::Greater
            })
        }
        _ => true,
    })
}

/// Whether `s` has fewer than `min` code points (`minLength` fails). A code
/// point is 1 to 4 bytes, so the byte length decides unless it lies between
/// `min` and `4 * min`; only then are code points counted.
#[inline]
pub(super) fn too_short(s: &str, min: u64) -> bool {
    let n = s.len() as u64;
    n < min || (n.div_ceil(4) < min && chars(s) < min)
}

/// Whether `s` has more than `max` code points (`maxLength` fails); code
/// points are counted only when its bytes are more than `max`.
#[inline]
pub(super) fn too_long(s: &str, max: u64) -> bool {
    s.len() as u64 > max && chars(s) > max
}

/// The value's string length in code points (see [`too_short`] and
/// [`too_long`] for when it needs counting).
#[inline]
pub(super) fn chars(s: &str) -> u64 {
    if s.is_ascii() {
        s.len() as u64
    } else {
        s.chars().count() as u64
    }
}

impl Validator<'_> {
    /// `check::<false>` for a program without `$dynamicRef` scope. One loop
    /// per JSON type answers the keywords a tool schema is made of, each
    /// small enough to keep the frame small (validation recurses through
    /// here once per value); the rest go to [`Validator::keyword`].
    pub(super) fn valid(&self, id: NodeId, v: &impl Instance, depth: u32) -> bool {
        crate::schema::budget::tally(1);
        let node = self.prog.node(id);
        if node.shared {
            return self.valid_shared(id, v, depth);
        }
        self.valid_keywords(id, node, v, depth)
    }

    /// [`Validator::valid`] of a shared node: each (node, value) pair is
    /// evaluated once (see `memo.rs`).
    #[inline(never)]
    pub(super) fn valid_shared(&self, id: NodeId, v: &impl Instance, depth: u32) -> bool {
        let slot = self.memo.slot(id, addr(v), 0, false, depth);
        if let Some(ok) = self.memo.recall(&slot) {
            return ok;
        }
        let ok = self.valid_keywords(id, self.prog.node(id), v, depth);
        self.memo.remember(&slot, ok);
        ok
    }

    /// [`Validator::valid`]'s walk over the keywords of `node` (node `id`).
    #[inline(always)]
    pub(super) fn valid_keywords(
        &self,
        id: NodeId,
        node: &Node,
        v: &impl Instance,
        depth: u32,
    ) -> bool {
        if depth > MAX_DEPTH {
            self.memo.cut();
            return false;
        }
        let kws = self.prog.kws(node);
        let d = depth + 1;
        // Keywords for every type, in each loop below.
        macro_rules! common {
            ($kw:expr) => {
                match $kw {
                    Kw::Enum(opts) => opts.holds(v),
                    Kw::Ref(n) => self.valid_child(*n, v, d),
                    Kw::AllOf(list) => list.iter().all(|n| self.valid_child(*n, v, d)),
                    Kw::AnyOf(list) => list.iter().any(|n| self.valid_child(*n, v, d)),
                    kw => self.other_keyword(id, kw, v, depth),
                }
            };
        }
        match v.view() {
            View::String(s) => {
                for kw in kws {
                    let ok = match kw {
                        Kw::Type(mask) => mask & T_STR != 0,
                        Kw::Enum(opts) => opts.holds_str(s),
                        Kw::MinLength(min) => !too_short(s, *min),
                        Kw::MaxLength(max) => !too_long(s, *max),
                        Kw::Pattern(p) => p.is_match(s),
                        kw => common!(kw),
                    };
                    if !ok {
                        return false;
                    }
                }
            }
            View::Number(n) => {
                let n = n.text();
                let l = n.as_str();
                // The lexeme, read on the first bound for all of them.
                let mut q = None;
                for kw in kws {
                    let ok = match kw {
                        Kw::Type(mask) => type_matches(*mask, v),
                        Kw::Minimum(b) => cmp_quick(&mut q, l, b) != Some(Ordering::Less),
                        Kw::Maximum(b) => cmp_quick(&mut q, l, b) != Some(Ordering::Greater),
                        Kw::ExclusiveMinimum(b) => {
                            cmp_quick(&mut q, l, b).is_none_or(|o| o == Ordering::Greater)
                        }
                        Kw::ExclusiveMaximum(b) => {
                            cmp_quick(&mut q, l, b).is_none_or(|o| o == Ordering::Less)
                        }
                        kw => common!(kw),
                    };
                    if !ok {
                        return false;
                    }
                }
            }
            View::Object(m) => {
                let required_in_object = node.required_in_object;
                for kw in kws {
                    let ok = match kw {
                        Kw::Type(mask) => mask & T_OBJ != 0,
                        Kw::Object(o) => {
                            let mut seen = 0u64;
                            for (k, item) in m.iter() {
                                let mut matched = false;
                                if let Some((i, n)) = o.prop_entry(k) {
                                    matched = true;
                                    // A position of 64 or more leaves the mask
                                    // as is (`required_mask` is 0 then).
                                    seen |= 1u64.checked_shl(i as u32).unwrap_or(0);
                                    if !self.valid_child(n, item, d) {
                                        return false;
                                    }
                                }
                                for (p, n) in o.patterns.iter() {
                                    // Past the backtrack budget: a violation.
                                    let Ok(hit) = p.test(k) else { return false };
                                    if hit {
                                        matched = true;
                                        if !self.valid_child(*n, item, d) {
                                            return false;
                                        }
                                    }
                                }
                                if !matched
                                    && let Some(n) = o.additional
                                    && (o.additional_false || !self.valid_child(n, item, d))
                                {
                                    return false;
                                }
                            }
                            seen & o.required_mask == o.required_mask
                        }
                        Kw::Required(names) => {
                            required_in_object || names.iter().all(|n| m.contains_key(n))
                        }
                        kw => common!(kw),
                    };
                    if !ok {
                        return false;
                    }
                }
            }
            View::Array(a) => {
                for kw in kws {
                    let ok = match kw {
                        Kw::Type(mask) => mask & T_ARR != 0,
                        Kw::Items(it) => {
                            for (i, item) in a.iter().enumerate() {
                                let Some(n) = it.node_for(i) else { break };
                                if !self.valid_child(n, item, d) {
                                    return false;
                                }
                            }
                            true
                        }
                        Kw::MinItems(min) => a.len() as u64 >= *min,
                        Kw::MaxItems(max) => a.len() as u64 <= *max,
                        kw => common!(kw),
                    };
                    if !ok {
                        return false;
                    }
                }
            }
            View::Bool(_) | View::Null => {
                for kw in kws {
                    let ok = match kw {
                        Kw::Type(mask) => type_matches(*mask, v),
                        kw => common!(kw),
                    };
                    if !ok {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// [`Validator::valid`] for a value one level down: a leaf node is
    /// checked in place, without a call.
    #[inline(always)]
    pub(super) fn valid_child(&self, id: NodeId, v: &impl Instance, d: u32) -> bool {
        // `leaf_verdict` written out: through that helper the compiler
        // inlines less here.
        let node = self.prog.node(id);
        if node.leaf.on && d <= MAX_DEPTH {
            if let Some(ok) = leaf_quick(&node.leaf, v) {
                return ok;
            }
            if let Some(ok) = leaf_valid(&node.leaf, v, self.prog) {
                return ok;
            }
        }
        self.valid(id, v, d)
    }

    /// [`Validator::valid`]'s way to the keywords it does not answer itself.
    #[inline(never)]
    pub(super) fn other_keyword(&self, id: NodeId, kw: &Kw, v: &impl Instance, depth: u32) -> bool {
        let node = self.prog.node(id);
        self.keyword::<false>(node, kw, v, &At::ROOT, None, depth, &mut Vec::new())
    }
}
