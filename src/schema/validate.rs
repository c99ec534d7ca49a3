//! Validation of a finished [`Value`] against a compiled [`Program`].
//!
//! One function walks node and value together. `ALL = false` answers
//! valid / invalid and stops at the first failure; `ALL = true` collects
//! every violation. The instance path and the `$dynamicRef` scope are linked
//! lists on the stack, so the happy path allocates nothing: a [`Violation`]
//! (with its owned path and message) is built only when something fails.

mod evaluated;
mod fanout;
mod unique;

pub(crate) use fanout::check_fanout;
use unique::first_duplicate;

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::Violation;
use super::describe::{plural, show, show_str, show_typed, type_names, unknown_key_message};
use super::number::{Dec, QuickNumber, cmp_lexeme, cmp_quick, lexeme_is_integer};
use super::program::{DynRef, Kw, Leaf, Node, NodeId, Program};
use super::types::{T_ARR, T_BOOL, T_FRAC, T_INT, T_NULL, T_OBJ, T_STR, equal};
use crate::{Path, Segment, Value};

/// Nesting of schema applications beyond which validation gives up with a
/// violation instead of exhausting the stack.
pub(crate) const MAX_DEPTH: u32 = 512;

/// One step of the instance path, borrowed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// The instance path as a linked list on the stack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At<'a> {
    pub(crate) parent: Option<&'a At<'a>>,
    pub(crate) seg: Seg<'a>,
}

impl<'a> At<'a> {
    pub(crate) const ROOT: At<'static> = At {
        parent: None,
        seg: Seg::Root,
    };

    pub(crate) fn key(&'a self, k: &'a str) -> At<'a> {
        At {
            parent: Some(self),
            seg: Seg::Key(k),
        }
    }

    pub(crate) fn index(&'a self, i: usize) -> At<'a> {
        At {
            parent: Some(self),
            seg: Seg::Index(i),
        }
    }

    pub(crate) fn path(&self) -> Path {
        let mut segs = Vec::new();
        let mut cur = Some(self);
        while let Some(a) = cur {
            match a.seg {
                Seg::Root => {}
                Seg::Key(k) => segs.push(Segment::Key(k.to_owned())),
                Seg::Index(i) => segs.push(Segment::Index(i)),
            }
            cur = a.parent;
        }
        segs.reverse();
        Path::from_segments(segs)
    }
}

/// The dynamic scope (resources entered), innermost first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scope<'a> {
    pub(crate) parent: Option<&'a Scope<'a>>,
    pub(crate) resource: u32,
}

/// Whether `v`'s type is in `mask`.
#[inline]
pub(crate) fn type_matches(mask: u8, v: &Value) -> bool {
    let bit = match v {
        Value::Null => T_NULL,
        Value::Bool(_) => T_BOOL,
        Value::Number(n) => {
            if mask & T_FRAC != 0 {
                return true;
            }
            if mask & T_INT == 0 {
                return false;
            }
            return lexeme_is_integer(n.as_str());
        }
        Value::String(_) => T_STR,
        Value::Array(_) => T_ARR,
        Value::Object(_) => T_OBJ,
    };
    mask & bit != 0
}

/// Whether `v` is valid against a [`Leaf`] node, or `None` for a number
/// that only the keywords can compare (an exponent, or 19 digits or more).
#[inline]
fn leaf_valid(l: &Leaf, v: &Value, prog: &Program) -> Option<bool> {
    if !type_matches(l.types, v) {
        return Some(false);
    }
    let ok = leaf_bounds(l, v)?;
    if !ok || l.extra == u32::MAX {
        return Some(ok);
    }
    Some(match (prog.kw_at(l.extra)?, v) {
        (Kw::Enum(opts), v) => opts.holds(v),
        (Kw::Pattern(p), Value::String(s)) => p.is_match(s),
        (Kw::Pattern(_), _) => true,
        _ => return None,
    })
}

/// [`leaf_valid`] in line for the leaves that need no call: a string
/// whose byte length settles its length bounds (a character is 1 to 4
/// bytes) under a leaf with no `enum` or `pattern`, and a boolean; `None`
/// for anything else.
#[inline(always)]
fn leaf_quick(l: &Leaf, v: &Value) -> Option<bool> {
    if l.extra != u32::MAX {
        return None;
    }
    match v {
        Value::String(s) if l.types & T_STR != 0 => {
            let n = s.len() as u64;
            (n <= l.max_len && n.div_ceil(4) >= l.min_len).then_some(true)
        }
        Value::Bool(_) => Some(l.types & T_BOOL != 0),
        _ => None,
    }
}

/// Whether `v` is valid against node `id`, checked at nesting depth `d`,
/// when its leaf summary decides that alone; `None` when the node is not a
/// leaf or the summary cannot tell (the keywords are then walked).
#[inline]
pub(crate) fn leaf_verdict(prog: &Program, id: NodeId, v: &Value, d: u32) -> Option<bool> {
    let node = prog.node(id);
    if node.leaf.on && d <= MAX_DEPTH {
        leaf_valid(&node.leaf, v, prog)
    } else {
        None
    }
}

/// [`leaf_valid`]'s length and number bounds.
#[inline]
fn leaf_bounds(l: &Leaf, v: &Value) -> Option<bool> {
    Some(match v {
        Value::String(s) => !too_short(s, l.min_len) && !too_long(s, l.max_len),
        Value::Number(n) if l.bounded => {
            let q = QuickNumber::read(n.as_str())?;
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
fn too_short(s: &str, min: u64) -> bool {
    let n = s.len() as u64;
    n < min || (n.div_ceil(4) < min && chars(s) < min)
}

/// Whether `s` has more than `max` code points (`maxLength` fails); code
/// points are counted only when its bytes are more than `max`.
#[inline]
fn too_long(s: &str, max: u64) -> bool {
    s.len() as u64 > max && chars(s) > max
}

/// The value's string length in code points (see [`too_short`] and
/// [`too_long`] for when it needs counting).
#[inline]
fn chars(s: &str) -> u64 {
    if s.is_ascii() {
        s.len() as u64
    } else {
        s.chars().count() as u64
    }
}

pub(crate) struct Validator<'p> {
    pub(crate) prog: &'p Program,
}

impl<'p> Validator<'p> {
    fn violation(&self, node: &Node, kw: &str, at: &At<'_>, message: String) -> Violation {
        Violation {
            instance_path: at.path(),
            schema_path: format!("{}/{kw}", self.prog.loc(node)),
            keyword: kw.rsplit('/').next().unwrap_or(kw).to_owned(),
            message,
        }
    }

    /// Checks `v` against node `id`.
    pub(crate) fn check<const ALL: bool>(
        &self,
        id: NodeId,
        v: &Value,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        if !ALL && !self.prog.has_dynamic {
            return self.valid(id, v, depth);
        }
        super::budget::tally(1);
        let node = self.prog.node(id);
        if depth > MAX_DEPTH {
            if ALL {
                errs.push(self.violation(
                    node,
                    "$ref",
                    at,
                    format!("expected schema nesting of at most {MAX_DEPTH} levels, found deeper"),
                ));
            }
            return false;
        }
        let inner;
        let scope = if self.prog.has_dynamic
            && node.resource_root
            && scope.is_none_or(|s| s.resource != node.resource)
        {
            inner = Scope {
                parent: scope,
                resource: node.resource,
            };
            Some(&inner)
        } else {
            scope
        };
        let mut ok = true;
        for kw in self.prog.kws(node).iter() {
            if !self.keyword::<ALL>(node, kw, v, at, scope, depth, errs) {
                ok = false;
                if !ALL {
                    return false;
                }
            }
        }
        ok
    }

    /// `check::<false>` for a program without `$dynamicRef` scope. One loop
    /// per JSON type answers the keywords a tool schema is made of, each
    /// small enough to keep the frame small (validation recurses through
    /// here once per value); the rest go to [`Validator::keyword`].
    fn valid(&self, id: NodeId, v: &Value, depth: u32) -> bool {
        super::budget::tally(1);
        if depth > MAX_DEPTH {
            return false;
        }
        let kws = self.prog.node_kws(id);
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
        match v {
            Value::String(s) => {
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
            Value::Number(n) => {
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
            Value::Object(m) => {
                let required_in_object = self.prog.node(id).required_in_object;
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
            Value::Array(a) => {
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
            Value::Bool(_) | Value::Null => {
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
    fn valid_child(&self, id: NodeId, v: &Value, d: u32) -> bool {
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
    fn other_keyword(&self, id: NodeId, kw: &Kw, v: &Value, depth: u32) -> bool {
        let node = self.prog.node(id);
        self.keyword::<false>(node, kw, v, &At::ROOT, None, depth, &mut Vec::new())
    }

    /// Checks one keyword of `node` against `v`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn keyword<const ALL: bool>(
        &self,
        node: &Node,
        kw: &Kw,
        v: &Value,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        macro_rules! fail {
            ($kw:expr, $($msg:tt)*) => {{
                if ALL {
                    errs.push(self.violation(node, $kw, at, format!($($msg)*)));
                }
                return false;
            }};
        }
        let d = depth + 1;
        match kw {
            Kw::False => fail!(
                "false",
                "expected no value here (the schema is false), found {}",
                show_typed(v)
            ),
            Kw::Type(mask) => {
                if !type_matches(*mask, v) {
                    fail!(
                        "type",
                        "expected {}, found {}",
                        type_names(*mask),
                        show_typed(v)
                    );
                }
            }
            Kw::Enum(opts) => {
                if !opts.holds(v) {
                    let mut list = opts.shown(12).join(", ");
                    if opts.len() > 12 {
                        let _ = write!(list, ", … ({} in all)", opts.len());
                    }
                    fail!("enum", "expected one of {list}, found {}", show(v));
                }
            }
            Kw::Const(c) => {
                if !equal(c, v) {
                    fail!("const", "expected {}, found {}", show(c), show(v));
                }
            }
            Kw::Minimum(b) | Kw::Maximum(b) | Kw::ExclusiveMinimum(b) | Kw::ExclusiveMaximum(b) => {
                let Value::Number(n) = v else { return true };
                let Some(o) = cmp_lexeme(n.as_str(), b) else {
                    return true;
                };
                let (ok, op) = match kw {
                    Kw::Minimum(_) => (o != Ordering::Less, ">="),
                    Kw::Maximum(_) => (o != Ordering::Greater, "<="),
                    Kw::ExclusiveMinimum(_) => (o == Ordering::Greater, ">"),
                    _ => (o == Ordering::Less, "<"),
                };
                if !ok {
                    fail!(
                        kw.name(),
                        "expected a number {op} {}, found {}",
                        b.lexeme,
                        n.as_str()
                    );
                }
            }
            Kw::MultipleOf(m) => {
                let Value::Number(n) = v else { return true };
                let ok = match (super::number::quick_i64(n.as_str()), m.int) {
                    (Some(a), Some(b)) if b != 0 => a % b == 0,
                    _ => Dec::parse(n.as_str()).is_some_and(|d| d.is_multiple_of(&m.dec())),
                };
                if !ok {
                    fail!(
                        "multipleOf",
                        "expected a multiple of {}, found {}",
                        m.lexeme,
                        n.as_str()
                    );
                }
            }
            Kw::MinLength(min) => {
                let Value::String(s) = v else { return true };
                if too_short(s, *min) {
                    fail!(
                        "minLength",
                        "expected a string of at least {}, found {}",
                        plural(*min, "character", "characters"),
                        plural(chars(s), "character", "characters")
                    );
                }
            }
            Kw::MaxLength(max) => {
                let Value::String(s) = v else { return true };
                if too_long(s, *max) {
                    fail!(
                        "maxLength",
                        "expected a string of at most {}, found {}",
                        plural(*max, "character", "characters"),
                        plural(chars(s), "character", "characters")
                    );
                }
            }
            Kw::Pattern(p) => {
                let Value::String(s) = v else { return true };
                match p.test(s) {
                    Ok(true) => {}
                    Ok(false) => fail!(
                        "pattern",
                        "expected a string matching the pattern {}, found {}",
                        show_str(&p.source),
                        show_str(s)
                    ),
                    Err(over) => fail!("pattern", "{}", over.message(&p.source, &show_str(s))),
                }
            }
            Kw::Format(f) => {
                let Value::String(s) = v else { return true };
                if !f.check(s) {
                    fail!(
                        "format",
                        "expected a string in {} format, found {}",
                        f.name(),
                        show_str(s)
                    );
                }
            }
            Kw::Object(o) => {
                let Value::Object(m) = v else { return true };
                let mut ok = true;
                for (k, item) in m.iter() {
                    let mut matched = false;
                    if let Some(n) = o.prop(k) {
                        matched = true;
                        if !self.check::<ALL>(n, item, &at.key(k), scope, d, errs) {
                            ok = false;
                            if !ALL {
                                return false;
                            }
                        }
                    }
                    for (p, n) in o.patterns.iter() {
                        let hit = match p.test(k) {
                            Ok(hit) => hit,
                            Err(over) => {
                                // No verdict on this key: a violation, and
                                // the key counts as matched (not also
                                // reported by additionalProperties).
                                ok = false;
                                if !ALL {
                                    return false;
                                }
                                errs.push(self.violation(
                                    node,
                                    "patternProperties",
                                    &at.key(k),
                                    over.message(&p.source, &format!("the key {}", show_str(k))),
                                ));
                                matched = true;
                                continue;
                            }
                        };
                        if hit {
                            matched = true;
                            if !self.check::<ALL>(*n, item, &at.key(k), scope, d, errs) {
                                ok = false;
                                if !ALL {
                                    return false;
                                }
                            }
                        }
                    }
                    if !matched && let Some(n) = o.additional {
                        if o.additional_false {
                            if ALL {
                                errs.push(self.violation(
                                    node,
                                    "additionalProperties",
                                    at,
                                    unknown_key_message(&o.props, k),
                                ));
                            }
                            ok = false;
                            if !ALL {
                                return false;
                            }
                        } else if !self.check::<ALL>(n, item, &at.key(k), scope, d, errs) {
                            ok = false;
                            if !ALL {
                                return false;
                            }
                        }
                    }
                }
                return ok;
            }
            Kw::Required(names) => {
                let Value::Object(m) = v else { return true };
                let mut ok = true;
                for name in names.iter() {
                    if !m.contains_key(name) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                        errs.push(self.violation(
                            node,
                            "required",
                            at,
                            format!(
                                "expected required property {}, found an object without it",
                                show_str(name)
                            ),
                        ));
                    }
                }
                return ok;
            }
            Kw::MinProperties(min) => {
                let Value::Object(m) = v else { return true };
                if (m.len() as u64) < *min {
                    fail!(
                        "minProperties",
                        "expected an object with at least {}, found {}",
                        plural(*min, "property", "properties"),
                        m.len()
                    );
                }
            }
            Kw::MaxProperties(max) => {
                let Value::Object(m) = v else { return true };
                if m.len() as u64 > *max {
                    fail!(
                        "maxProperties",
                        "expected an object with at most {}, found {}",
                        plural(*max, "property", "properties"),
                        m.len()
                    );
                }
            }
            Kw::PropertyNames(n) => {
                let Value::Object(m) = v else { return true };
                for k in m.keys() {
                    let key = Value::String(k.to_owned());
                    if !self.check::<false>(*n, &key, at, scope, d, errs) {
                        if ALL {
                            let mut sub = Vec::new();
                            self.check::<true>(*n, &key, at, scope, d, &mut sub);
                            let why = sub
                                .first()
                                .map_or(String::new(), |s| format!(": {}", s.message));
                            errs.push(self.violation(node, "propertyNames", at, format!("expected property names valid against propertyNames, found {}{why}", show_str(k))));
                        }
                        return false;
                    }
                }
            }
            Kw::DependentRequired(deps) => {
                let Value::Object(m) = v else { return true };
                let mut ok = true;
                for (k, needs) in deps.iter() {
                    if m.contains_key(k) {
                        for need in needs.iter() {
                            if !m.contains_key(need) {
                                ok = false;
                                if !ALL {
                                    return false;
                                }
                                errs.push(self.violation(node, "dependentRequired", at, format!("expected property {} (required when {} is present), found an object without it", show_str(need), show_str(k))));
                            }
                        }
                    }
                }
                return ok;
            }
            Kw::DependentSchemas(deps) => {
                let Value::Object(m) = v else { return true };
                let mut ok = true;
                for (k, n) in deps.iter() {
                    if m.contains_key(k) && !self.check::<ALL>(*n, v, at, scope, d, errs) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                    }
                }
                return ok;
            }
            Kw::Items(it) => {
                let Value::Array(a) = v else { return true };
                let mut ok = true;
                for (i, item) in a.iter().enumerate() {
                    let Some(n) = it.node_for(i) else { break };
                    if !self.check::<ALL>(n, item, &at.index(i), scope, d, errs) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                    }
                }
                return ok;
            }
            Kw::MinItems(min) => {
                let Value::Array(a) = v else { return true };
                if (a.len() as u64) < *min {
                    fail!(
                        "minItems",
                        "expected an array of at least {}, found {}",
                        plural(*min, "item", "items"),
                        plural(a.len() as u64, "item", "items")
                    );
                }
            }
            Kw::MaxItems(max) => {
                let Value::Array(a) = v else { return true };
                if a.len() as u64 > *max {
                    fail!(
                        "maxItems",
                        "expected an array of at most {}, found {}",
                        plural(*max, "item", "items"),
                        plural(a.len() as u64, "item", "items")
                    );
                }
            }
            Kw::UniqueItems => {
                let Value::Array(a) = v else { return true };
                if let Some((i, j)) = first_duplicate(a) {
                    fail!(
                        "uniqueItems",
                        "expected unique items, found items {i} and {j} equal"
                    );
                }
            }
            Kw::Contains { node: n, min, max } => {
                let Value::Array(a) = v else { return true };
                let mut count = 0u64;
                for (i, item) in a.iter().enumerate() {
                    if self.check::<false>(*n, item, &at.index(i), scope, d, errs) {
                        count += 1;
                    }
                }
                if count < *min {
                    let kw = if *min == 1 { "contains" } else { "minContains" };
                    fail!(
                        kw,
                        "expected an array with at least {} matching contains, found {count}",
                        plural(*min, "item", "items")
                    );
                }
                if let Some(max) = max
                    && count > *max
                {
                    fail!(
                        "maxContains",
                        "expected an array with at most {} matching contains, found {count}",
                        plural(*max, "item", "items")
                    );
                }
            }
            Kw::AllOf(list) => {
                let mut ok = true;
                for n in list.iter() {
                    if !self.check::<ALL>(*n, v, at, scope, d, errs) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                    }
                }
                return ok;
            }
            Kw::AnyOf(list) => {
                if list
                    .iter()
                    .any(|n| self.check::<false>(*n, v, at, scope, d, errs))
                {
                    return true;
                }
                if ALL {
                    let why = self.branch_reasons(list, v, at, scope, d);
                    errs.push(self.violation(node, "anyOf", at, format!("expected a value matching at least one of the {} alternatives in anyOf, found {} matching none{why}", list.len(), show_typed(v))));
                }
                return false;
            }
            Kw::OneOf(list) => {
                let mut first = None;
                for (i, n) in list.iter().enumerate() {
                    if self.check::<false>(*n, v, at, scope, d, errs) {
                        match first {
                            None => first = Some(i),
                            Some(f) => {
                                fail!(
                                    "oneOf",
                                    "expected a value matching exactly one of the {} alternatives in oneOf, found {} matching alternatives {} and {}",
                                    list.len(),
                                    show_typed(v),
                                    f + 1,
                                    i + 1
                                );
                            }
                        }
                    }
                }
                if first.is_none() {
                    if ALL {
                        let why = self.branch_reasons(list, v, at, scope, d);
                        errs.push(self.violation(node, "oneOf", at, format!("expected a value matching exactly one of the {} alternatives in oneOf, found {} matching none{why}", list.len(), show_typed(v))));
                    }
                    return false;
                }
            }
            Kw::Not(n) => {
                if self.check::<false>(*n, v, at, scope, d, errs) {
                    fail!(
                        "not",
                        "expected a value not valid against the schema in not, found {} valid against it",
                        show_typed(v)
                    );
                }
            }
            Kw::If { cond, then, els } => {
                let branch = if self.check::<false>(*cond, v, at, scope, d, errs) {
                    then
                } else {
                    els
                };
                if let Some(b) = branch {
                    return self.check::<ALL>(*b, v, at, scope, d, errs);
                }
            }
            Kw::Ref(n) => return self.check::<ALL>(*n, v, at, scope, d, errs),
            Kw::DynamicRef(dr) => {
                return self.check::<ALL>(dyn_target(dr, scope), v, at, scope, d, errs);
            }
            Kw::UnevaluatedProperties(u) => {
                let Value::Object(m) = v else { return true };
                let mut seen = vec![false; m.len()];
                self.mark_props(self.prog.kws(node), v, m, scope, d, &mut seen, true);
                let is_false = matches!(self.prog.node_kws(*u).first(), Some(Kw::False));
                let mut ok = true;
                for ((k, item), seen) in m.iter().zip(seen) {
                    if seen {
                        continue;
                    }
                    if is_false {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                        errs.push(self.violation(node, "unevaluatedProperties", at, format!("expected no properties beyond those the schema evaluates, found unevaluated property {}", show_str(k))));
                    } else if !self.check::<ALL>(*u, item, &at.key(k), scope, d, errs) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                    }
                }
                return ok;
            }
            Kw::UnevaluatedItems(u) => {
                let Value::Array(a) = v else { return true };
                let mut seen = vec![false; a.len()];
                self.mark_items(self.prog.kws(node), v, a, scope, d, &mut seen, true);
                let is_false = matches!(self.prog.node_kws(*u).first(), Some(Kw::False));
                let mut ok = true;
                for (i, (item, seen)) in a.iter().zip(seen).enumerate() {
                    if seen {
                        continue;
                    }
                    if is_false {
                        if ALL {
                            errs.push(self.violation(node, "unevaluatedItems", at, format!("expected no items beyond those the schema evaluates, found unevaluated item {i}")));
                        }
                        return false;
                    } else if !self.check::<ALL>(*u, item, &at.index(i), scope, d, errs) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                    }
                }
                return ok;
            }
        }
        true
    }

    fn branch_reasons(
        &self,
        list: &[NodeId],
        v: &Value,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        d: u32,
    ) -> String {
        let mut why = String::from(": ");
        for (i, n) in list.iter().enumerate().take(6) {
            let mut sub = Vec::new();
            self.check::<true>(*n, v, at, scope, d, &mut sub);
            if i > 0 {
                why.push_str("; ");
            }
            let _ = write!(why, "({}) ", i + 1);
            match sub.first() {
                Some(s) if s.instance_path.as_ref() != at.path().as_ref() => {
                    let _ = write!(why, "{}: {}", s.instance_path, s.message);
                }
                Some(s) => why.push_str(&s.message),
                None => why.push_str("failed"),
            }
        }
        why
    }
}

/// Where a `$dynamicRef` goes in this dynamic scope: the outermost resource
/// in scope that defines the anchor, else the static target.
fn dyn_target(dr: &DynRef, scope: Option<&Scope<'_>>) -> NodeId {
    let mut target = dr.fallback;
    if !dr.candidates.is_empty() {
        let mut cur = scope;
        while let Some(s) = cur {
            if let Some((_, n)) = dr.candidates.iter().find(|(r, _)| *r == s.resource) {
                target = *n;
            }
            cur = s.parent;
        }
    }
    target
}
