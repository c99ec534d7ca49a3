//! The applicators family: `allOf`, `anyOf`, `oneOf`, `not`, `if` /
//! `then` / `else`, `$ref` and `$dynamicRef`, each applying subschemas to
//! the value in place.

use std::fmt::Write as _;

use super::{At, Here, Scope, Validator};
use crate::schema::Violation;
use crate::schema::describe::show_typed;
use crate::schema::instance::Instance;
use crate::schema::program::{DynRef, Kw, NodeId};

impl Validator<'_> {
    /// The in-place applicators.
    #[inline]
    pub(super) fn applicators<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let (at, scope, d) = (h.at, h.scope, h.d);
        match kw {
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
                ok
            }
            Kw::AnyOf(list) => {
                if list
                    .iter()
                    .any(|n| self.check::<false>(*n, v, at, scope, d, errs))
                {
                    return true;
                }
                self.fail::<ALL>(h, "anyOf", errs, || {
                    let why = self.branch_reasons(list, v, at, scope, d);
                    format!(
                        "expected a value matching at least one of the {} alternatives in anyOf, found {} matching none{why}",
                        list.len(),
                        show_typed(v)
                    )
                })
            }
            Kw::OneOf(list) => self.one_of::<ALL>(list, v, h, errs),
            Kw::Not(n) if self.check::<false>(*n, v, at, scope, d, errs) => {
                self.fail::<ALL>(h, "not", errs, || {
                    format!(
                        "expected a value not valid against the schema in not, found {} valid against it",
                        show_typed(v)
                    )
                })
            }
            Kw::If { cond, then, els } => {
                let branch = if self.check::<false>(*cond, v, at, scope, d, errs) {
                    then
                } else {
                    els
                };
                match branch {
                    Some(b) => self.check::<ALL>(*b, v, at, scope, d, errs),
                    None => true,
                }
            }
            Kw::Ref(n) => self.check::<ALL>(*n, v, at, scope, d, errs),
            Kw::DynamicRef(dr) => self.check::<ALL>(dyn_target(dr, scope), v, at, scope, d, errs),
            _ => true,
        }
    }

    /// `oneOf`: exactly one alternative holds.
    fn one_of<const ALL: bool>(
        &self,
        list: &[NodeId],
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let (at, scope, d) = (h.at, h.scope, h.d);
        let mut first = None;
        for (i, n) in list.iter().enumerate() {
            if !self.check::<false>(*n, v, at, scope, d, errs) {
                continue;
            }
            let Some(f) = first else {
                first = Some(i);
                continue;
            };
            return self.fail::<ALL>(h, "oneOf", errs, || {
                format!(
                    "expected a value matching exactly one of the {} alternatives in oneOf, found {} matching alternatives {} and {}",
                    list.len(),
                    show_typed(v),
                    f + 1,
                    i + 1
                )
            });
        }
        if first.is_some() {
            return true;
        }
        self.fail::<ALL>(h, "oneOf", errs, || {
            let why = self.branch_reasons(list, v, at, scope, d);
            format!(
                "expected a value matching exactly one of the {} alternatives in oneOf, found {} matching none{why}",
                list.len(),
                show_typed(v)
            )
        })
    }

    /// Why each alternative of a failed `anyOf` / `oneOf` fails, for its
    /// message.
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
pub(super) fn dyn_target(dr: &DynRef, scope: Option<&Scope<'_>>) -> NodeId {
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
