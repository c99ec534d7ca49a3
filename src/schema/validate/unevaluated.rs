//! The unevaluated family: `unevaluatedProperties` and `unevaluatedItems`
//! (draft 2020-12), and their annotations: which members and items the
//! keywords at a location (and the in-place subschemas that hold)
//! evaluate.

use super::applicators::dyn_target;
use super::{At, Here, MAX_DEPTH, Scope, Validator};
use crate::schema::Violation;
use crate::schema::describe::show_str;
use crate::schema::instance::{Instance, Object as _, View};
use crate::schema::program::{Kw, NodeId};

impl Validator<'_> {
    /// `unevaluatedProperties` and `unevaluatedItems`: the members or
    /// items no other keyword evaluates, against their subschema.
    #[inline]
    pub(super) fn unevaluated<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        match (kw, v.view()) {
            (Kw::UnevaluatedProperties(u), View::Object(m)) => {
                self.unevaluated_properties::<ALL, _>(*u, v, m, h, errs)
            }
            (Kw::UnevaluatedItems(u), View::Array(a)) => {
                self.unevaluated_items::<ALL, _>(*u, v, a, h, errs)
            }
            _ => true,
        }
    }

    /// `unevaluatedProperties` (node `u`) of object `m` (value `v`).
    fn unevaluated_properties<const ALL: bool, V: Instance>(
        &self,
        u: NodeId,
        v: &V,
        m: &V::Obj,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let (at, scope, d) = (h.at, h.scope, h.d);
        let mut seen = vec![false; m.len()];
        self.mark_props(self.prog.kws(h.node), v, m, scope, d, &mut seen, true);
        let is_false = matches!(self.prog.node_kws(u).first(), Some(Kw::False));
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
                errs.push(self.violation(
                    h.node,
                    "unevaluatedProperties",
                    at,
                    format!(
                        "expected no properties beyond those the schema evaluates, found unevaluated property {}",
                        show_str(k)
                    ),
                ));
            } else if !self.check::<ALL>(u, item, &at.key(k), scope, d, errs) {
                ok = false;
                if !ALL {
                    return false;
                }
            }
        }
        ok
    }

    /// `unevaluatedItems` (node `u`) of array `a` (value `v`).
    fn unevaluated_items<const ALL: bool, V: Instance>(
        &self,
        u: NodeId,
        v: &V,
        a: &[V],
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let (at, scope, d) = (h.at, h.scope, h.d);
        let mut seen = vec![false; a.len()];
        self.mark_items(self.prog.kws(h.node), v, a, scope, d, &mut seen, true);
        let is_false = matches!(self.prog.node_kws(u).first(), Some(Kw::False));
        let mut ok = true;
        for (i, (item, seen)) in a.iter().zip(seen).enumerate() {
            if seen {
                continue;
            }
            if is_false {
                return self.fail::<ALL>(h, "unevaluatedItems", errs, || {
                    format!(
                        "expected no items beyond those the schema evaluates, found unevaluated item {i}"
                    )
                });
            } else if !self.check::<ALL>(u, item, &at.index(i), scope, d, errs) {
                ok = false;
                if !ALL {
                    return false;
                }
            }
        }
        ok
    }

    /// Marks the members that `kws` (and the in-place subschemas that hold)
    /// evaluate, for `unevaluatedProperties`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mark_props<V: Instance>(
        &self,
        kws: &[Kw],
        v: &V,
        m: &V::Obj,
        scope: Option<&Scope<'_>>,
        d: u32,
        seen: &mut [bool],
        top: bool,
    ) {
        crate::schema::budget::tally(1);
        if d > MAX_DEPTH {
            return;
        }
        let d = d + 1;
        let mut sink = Vec::new();
        for kw in kws {
            match kw {
                Kw::Object(o) => {
                    for ((k, _), s) in m.iter().zip(seen.iter_mut()) {
                        if o.additional.is_some()
                            || o.prop(k).is_some()
                            // Past the backtrack budget the key was
                            // reported: taken as evaluated.
                            || o.patterns.iter().any(|(p, _)| p.test(k).unwrap_or(true))
                        {
                            *s = true;
                        }
                    }
                }
                Kw::UnevaluatedProperties(_) if !top => seen.iter_mut().for_each(|s| *s = true),
                _ => {
                    for n in self.applied_in_place(kw, v, m.keys(), scope, d, &mut sink) {
                        self.mark_props(self.prog.node_kws(n), v, m, scope, d, seen, false);
                    }
                }
            }
        }
    }

    /// Marks the items that `kws` (and the in-place subschemas that hold)
    /// evaluate, for `unevaluatedItems`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mark_items<V: Instance>(
        &self,
        kws: &[Kw],
        v: &V,
        a: &[V],
        scope: Option<&Scope<'_>>,
        d: u32,
        seen: &mut [bool],
        top: bool,
    ) {
        crate::schema::budget::tally(1);
        if d > MAX_DEPTH {
            return;
        }
        let d = d + 1;
        let mut sink = Vec::new();
        for kw in kws {
            match kw {
                Kw::Items(it) => {
                    let upto = if it.rest.is_some() {
                        a.len()
                    } else {
                        it.prefix.len().min(a.len())
                    };
                    seen.iter_mut().take(upto).for_each(|s| *s = true);
                }
                Kw::Contains { node: n, .. } => {
                    for (item, s) in a.iter().zip(seen.iter_mut()) {
                        if self.check::<false>(*n, item, &At::ROOT, scope, d, &mut sink) {
                            *s = true;
                        }
                    }
                }
                Kw::UnevaluatedItems(_) if !top => seen.iter_mut().for_each(|s| *s = true),
                _ => {
                    for n in self.applied_in_place(kw, v, std::iter::empty(), scope, d, &mut sink) {
                        self.mark_items(self.prog.node_kws(n), v, a, scope, d, seen, false);
                    }
                }
            }
        }
    }

    /// The in-place subschemas of `kw` whose annotations count: all of
    /// `allOf` / `$ref`, the valid branches of `anyOf` / `oneOf`, the taken
    /// `if` branch, the `dependentSchemas` of present keys; never `not`.
    fn applied_in_place<'k>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        mut keys: impl Iterator<Item = &'k str>,
        scope: Option<&Scope<'_>>,
        d: u32,
        sink: &mut Vec<Violation>,
    ) -> Vec<NodeId> {
        let valid = |n: NodeId, sink: &mut Vec<Violation>| {
            self.check::<false>(n, v, &At::ROOT, scope, d, sink)
        };
        match kw {
            Kw::Ref(n) => vec![*n],
            Kw::DynamicRef(dr) => vec![dyn_target(dr, scope)],
            Kw::AllOf(list) => list.to_vec(),
            Kw::AnyOf(list) | Kw::OneOf(list) => {
                list.iter().copied().filter(|n| valid(*n, sink)).collect()
            }
            Kw::If { cond, then, els } => {
                if valid(*cond, sink) {
                    std::iter::once(*cond).chain(*then).collect()
                } else {
                    els.iter().copied().collect()
                }
            }
            Kw::DependentSchemas(deps) => {
                let present: Vec<&str> = keys.by_ref().collect();
                deps.iter()
                    .filter(|(k, _)| present.contains(&&**k))
                    .map(|(_, n)| *n)
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}
