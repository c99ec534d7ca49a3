//! Validation of a finished value against a compiled [`Program`]: a
//! [`Value`] or a `serde_json::Value`, read through [`Instance`] (the
//! validator is compiled once for each).
//!
//! One function walks node and value together. `ALL = false` answers
//! valid / invalid and stops at the first failure; `ALL = true` collects
//! every violation. The instance path and the `$dynamicRef` scope are linked
//! lists on the stack, so the happy path allocates nothing: a [`Violation`]
//! (with its owned path and message) is built only when something fails.
//! A node that several keywords refer to is evaluated once per value
//! (`memo.rs`).

mod evaluated;
mod fanout;
mod memo;
#[cfg(feature = "decode")]
mod nesting;
mod quick;
pub(super) mod unique;

pub(crate) use fanout::check_fanout;
pub(crate) use quick::leaf_verdict;
use quick::{chars, too_long, too_short};
use unique::first_duplicate;

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::Violation;
use super::describe::{plural, show, show_str, show_typed, type_names, unknown_key_message};
use super::instance::{Instance, Object as _, View};
use super::number::{Dec, cmp_lexeme, lexeme_is_integer};
use super::program::{DynRef, Kw, Node, NodeId, Program};
use super::types::{T_ARR, T_BOOL, T_FRAC, T_INT, T_NULL, T_OBJ, T_STR, equal};
use crate::{Path, Segment, Value};

#[cfg(feature = "decode")]
pub(crate) use nesting::deepest_nesting;

/// Nesting of schema applications (the root, then one level per `$ref`,
/// `allOf` branch, `properties` member, `items` item, ... applied under
/// it) beyond which `validate` and the stream check give up with a
/// violation, "expected schema nesting of at most 512 levels", instead of
/// exhausting the stack. The decoder refuses a schema that could reach
/// past it within its own nesting bound, so that it never writes a text
/// that `validate` refuses for its depth.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::schema::MAX_SCHEMA_NESTING;
/// // The root, then a chain of `$ref`s one past the bound.
/// let n = MAX_SCHEMA_NESTING;
/// let mut defs = serde_json::Map::new();
/// for i in 0..n {
///     defs.insert(format!("d{i}"), serde_json::json!({"$ref": format!("#/$defs/d{}", i + 1)}));
/// }
/// defs.insert(format!("d{n}"), serde_json::json!({"type": "integer"}));
/// let schema = serde_json::json!({"$ref": "#/$defs/d0", "$defs": defs});
/// let s = CompiledSchema::from_json_str(&schema.to_string())?;
/// let errs = s.validate(&tooljson::from_str("1")?).unwrap_err();
/// assert!(errs[0].to_string().contains("at most 512 levels"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const MAX_SCHEMA_NESTING: u32 = 512;

pub(crate) const MAX_DEPTH: u32 = MAX_SCHEMA_NESTING;

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
    /// The scope's interned id (see `memo.rs`).
    pub(crate) id: u32,
}

/// Whether `v`'s type is in `mask`.
#[inline]
pub(crate) fn type_matches(mask: u8, v: &impl Instance) -> bool {
    let bit = match v.view() {
        View::Null => T_NULL,
        View::Bool(_) => T_BOOL,
        View::Number(n) => {
            if mask & T_FRAC != 0 {
                return true;
            }
            if mask & T_INT == 0 {
                return false;
            }
            return lexeme_is_integer(n.text().as_str());
        }
        View::String(_) => T_STR,
        View::Array(_) => T_ARR,
        View::Object(_) => T_OBJ,
    };
    mask & bit != 0
}

pub(crate) struct Validator<'p> {
    pub(crate) prog: &'p Program,
    memo: memo::Memo,
}

/// The address of `v`, its identity within the instance being validated.
#[inline(always)]
fn addr<V>(v: &V) -> usize {
    std::ptr::from_ref(v).cast::<()>().addr()
}

impl<'p> Validator<'p> {
    pub(crate) fn new(prog: &'p Program) -> Validator<'p> {
        Validator {
            prog,
            memo: memo::Memo::default(),
        }
    }

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
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        if !ALL && !self.prog.has_dynamic {
            return self.valid(id, v, depth);
        }
        super::budget::tally(1);
        if self.prog.node(id).shared {
            return self.check_shared::<ALL>(id, v, at, scope, depth, errs);
        }
        self.check_node::<ALL>(id, v, at, scope, depth, errs)
    }

    /// [`Validator::check`] once the memory of shared nodes is passed.
    fn check_node<const ALL: bool>(
        &self,
        id: NodeId,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let node = self.prog.node(id);
        if depth > MAX_DEPTH {
            self.memo.cut();
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
                id: self.memo.scope_id(scope.map_or(0, |s| s.id), node.resource),
            };
            Some(&inner)
        } else {
            scope
        };
        self.check_keywords::<ALL>(node, v, at, scope, depth, errs)
    }

    /// [`Validator::check`] of a shared node: each (node, value) pair is
    /// evaluated once (see `memo.rs`).
    #[inline(never)]
    fn check_shared<const ALL: bool>(
        &self,
        id: NodeId,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let scope_id = scope.map_or(0, |s| s.id);
        let verdict = self.memo.slot(id, addr(v), scope_id, false, depth);
        match self.memo.recall(&verdict) {
            Some(true) => return true,
            Some(false) if !ALL => return false,
            _ => {}
        }
        let reported = self.memo.slot(id, addr(v), scope_id, true, depth);
        if ALL && self.memo.recall(&reported).is_some() {
            // Its violations are in this list already.
            return false;
        }
        let ok = self.check_node::<ALL>(id, v, at, scope, depth, errs);
        self.memo.remember(&verdict, ok);
        if ALL {
            self.memo.remember(&reported, ok);
        }
        ok
    }

    /// Checks `v` against the keywords of `node`.
    fn check_keywords<const ALL: bool>(
        &self,
        node: &Node,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
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

    /// Checks one keyword of `node` against `v`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn keyword<const ALL: bool>(
        &self,
        node: &Node,
        kw: &Kw,
        v: &impl Instance,
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
                if !equal(&**c, v) {
                    fail!("const", "expected {}, found {}", show(&**c), show(v));
                }
            }
            Kw::Minimum(b) | Kw::Maximum(b) | Kw::ExclusiveMinimum(b) | Kw::ExclusiveMaximum(b) => {
                let View::Number(n) = v.view() else {
                    return true;
                };
                let n = n.text();
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
                let View::Number(n) = v.view() else {
                    return true;
                };
                let n = n.text();
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
                let View::String(s) = v.view() else {
                    return true;
                };
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
                let View::String(s) = v.view() else {
                    return true;
                };
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
                let View::String(s) = v.view() else {
                    return true;
                };
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
                let View::String(s) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
                for k in m.keys() {
                    let key = Value::String(k.to_owned());
                    let failed = self.memo.in_new_tree(|| {
                        if self.check::<false>(*n, &key, at, scope, d, errs) {
                            return None;
                        }
                        let mut sub = Vec::new();
                        if ALL {
                            self.memo.in_new_sink(|| {
                                self.check::<true>(*n, &key, at, scope, d, &mut sub)
                            });
                        }
                        Some(sub)
                    });
                    if let Some(sub) = failed {
                        if ALL {
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Array(a) = v.view() else {
                    return true;
                };
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
                let View::Array(a) = v.view() else {
                    return true;
                };
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
                let View::Array(a) = v.view() else {
                    return true;
                };
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
                let View::Array(a) = v.view() else {
                    return true;
                };
                if let Some((i, j)) = first_duplicate(a) {
                    fail!(
                        "uniqueItems",
                        "expected unique items, found items {i} and {j} equal"
                    );
                }
            }
            Kw::Contains { node: n, min, max } => {
                let View::Array(a) = v.view() else {
                    return true;
                };
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
                let View::Object(m) = v.view() else {
                    return true;
                };
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
                let View::Array(a) = v.view() else {
                    return true;
                };
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
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        d: u32,
    ) -> String {
        // The reasons of an alternative are its first violation, without
        // the reasons of an `anyOf` / `oneOf` inside it: nested reasons
        // would grow (in text and in work) as a power of the nesting.
        if self.memo.reasons.get() > 0 {
            return String::new();
        }
        self.memo.reasons.set(1);
        let mut why = String::from(": ");
        for (i, n) in list.iter().enumerate().take(6) {
            let mut sub = Vec::new();
            self.memo
                .in_new_sink(|| self.check::<true>(*n, v, at, scope, d, &mut sub));
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
        self.memo.reasons.set(0);
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
