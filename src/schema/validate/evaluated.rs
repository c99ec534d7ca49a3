//! The annotations of `unevaluatedProperties` and `unevaluatedItems`: which
//! members and items the keywords at a location (and the in-place
//! subschemas that hold) evaluate.

use super::{At, MAX_DEPTH, Scope, Validator, dyn_target};
use crate::schema::Violation;
use crate::schema::instance::{Instance, Object as _};
use crate::schema::program::{Kw, NodeId};

impl Validator<'_> {
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
