//! The objects family: `properties`, `patternProperties` and
//! `additionalProperties` (one compiled keyword, [`ObjectKw`]),
//! `required`, `minProperties`, `maxProperties`, `propertyNames`,
//! `dependentRequired` and `dependentSchemas`.

use super::{Here, Validator};
use crate::Value;
use crate::schema::Violation;
use crate::schema::describe::{plural, show_str, unknown_key_message};
use crate::schema::instance::{Instance, Object, View};
use crate::schema::program::{Dependent, Kw, Name, NodeId, ObjectKw};

impl Validator<'_> {
    /// The object keywords; a value that is not an object passes.
    #[inline]
    pub(super) fn objects<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let View::Object(m) = v.view() else {
            return true;
        };
        let properties = |n| plural(n, "property", "properties");
        match kw {
            Kw::Object(o) => self.properties::<ALL>(o, m, h, errs),
            Kw::Required(names) => self.required::<ALL>(names, m, h, errs),
            Kw::MinProperties(min) if (m.len() as u64) < *min => {
                self.fail::<ALL>(h, "minProperties", errs, || {
                    format!(
                        "expected an object with at least {}, found {}",
                        properties(*min),
                        m.len()
                    )
                })
            }
            Kw::MaxProperties(max) if m.len() as u64 > *max => {
                self.fail::<ALL>(h, "maxProperties", errs, || {
                    format!(
                        "expected an object with at most {}, found {}",
                        properties(*max),
                        m.len()
                    )
                })
            }
            Kw::PropertyNames(n) => self.property_names::<ALL>(*n, m, h, errs),
            Kw::DependentRequired(deps) => self.dependent_required::<ALL>(deps, m, h, errs),
            Kw::DependentSchemas(deps) => {
                let mut ok = true;
                for (k, n) in deps.iter() {
                    if m.contains_key(k) && !self.check::<ALL>(*n, v, h.at, h.scope, h.d, errs) {
                        ok = false;
                        if !ALL {
                            return false;
                        }
                    }
                }
                ok
            }
            _ => true,
        }
    }

    /// `properties`, `patternProperties` and `additionalProperties`: each
    /// member against the subschemas its key selects.
    fn properties<const ALL: bool>(
        &self,
        o: &ObjectKw,
        m: &impl Object,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let (node, at, scope, d) = (h.node, h.at, h.scope, h.d);
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
        ok
    }

    /// `required`: every name present.
    fn required<const ALL: bool>(
        &self,
        names: &[Name],
        m: &impl Object,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let mut ok = true;
        for name in names.iter() {
            if !m.contains_key(name) {
                ok = false;
                if !ALL {
                    return false;
                }
                errs.push(self.violation(
                    h.node,
                    "required",
                    h.at,
                    format!(
                        "expected required property {}, found an object without it",
                        show_str(name)
                    ),
                ));
            }
        }
        ok
    }

    /// `propertyNames`: each key, as a string, valid against node `n`.
    fn property_names<const ALL: bool>(
        &self,
        n: NodeId,
        m: &impl Object,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let (at, scope, d) = (h.at, h.scope, h.d);
        for k in m.keys() {
            let key = Value::String(k.to_owned());
            let failed = self.memo.in_new_tree(|| {
                if self.check::<false>(n, &key, at, scope, d, errs) {
                    return None;
                }
                let mut sub = Vec::new();
                if ALL {
                    self.memo
                        .in_new_sink(|| self.check::<true>(n, &key, at, scope, d, &mut sub));
                }
                Some(sub)
            });
            if let Some(sub) = failed {
                if ALL {
                    let why = sub
                        .first()
                        .map_or(String::new(), |s| format!(": {}", s.message));
                    errs.push(self.violation(
                        h.node,
                        "propertyNames",
                        at,
                        format!(
                            "expected property names valid against propertyNames, found {}{why}",
                            show_str(k)
                        ),
                    ));
                }
                return false;
            }
        }
        true
    }

    /// `dependentRequired` (and draft-07 `dependencies` of names): the
    /// names each present key needs.
    fn dependent_required<const ALL: bool>(
        &self,
        deps: &[Dependent],
        m: &impl Object,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let mut ok = true;
        for (k, needs) in deps.iter() {
            if !m.contains_key(k) {
                continue;
            }
            for need in needs.iter() {
                if !m.contains_key(need) {
                    ok = false;
                    if !ALL {
                        return false;
                    }
                    errs.push(self.violation(
                        h.node,
                        "dependentRequired",
                        h.at,
                        format!(
                            "expected property {} (required when {} is present), found an object without it",
                            show_str(need),
                            show_str(k)
                        ),
                    ));
                }
            }
        }
        ok
    }
}
