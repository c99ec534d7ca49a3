//! The objects family in the stream check: at each key, `maxProperties`
//! (one too many), the `required` names seen, `propertyNames`, and the
//! member's subschemas (`properties`, `patternProperties`,
//! `additionalProperties`, with an unknown key under `false` reported at
//! its end); at the close, `required` and `minProperties`. The rest
//! (`dependent*`, `required` past 64 names) wait for the whole object.

use super::{App, CheckState, DOOMED, MAX_COUNT_DONE};
use crate::Value;
use crate::parser::Location;
use crate::schema::CompiledSchema;
use crate::schema::describe::{show_str, unknown_key_message};
use crate::schema::program::{Kw, NodeId, ObjectKw};
use crate::schema::validate::{At, Validator};

impl CheckState {
    /// A key closes in the open object: count it, check the object's
    /// keywords that a key decides, and push the applications of its value.
    pub(super) fn key(&mut self, sc: &CompiledSchema, key: &str, at: &Location<'_>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        f.count += 1;
        let count = f.count;
        let (s, e) = (f.apps_start, f.apps_end);
        self.new_value_at(e);
        let prog = sc.program();
        for i in s..e {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            let node = prog.node(app.node);
            for kw in prog.kws(node).iter() {
                match kw {
                    Kw::MaxProperties(max) if count > *max && app.flags & MAX_COUNT_DONE == 0 => {
                        if let Some(a) = self.apps.get_mut(i) {
                            a.flags |= MAX_COUNT_DONE;
                        }
                        let mut p = at.path.to_path();
                        p.pop();
                        let v = self.violation(
                            sc,
                            app.node,
                            "maxProperties",
                            p,
                            format!(
                                "expected an object with at most {max} propert{}, found more",
                                if *max == 1 { "y" } else { "ies" }
                            ),
                        );
                        self.report(at.offset, v);
                    }
                    // With `required_in_object`, the `properties` lookup
                    // below marks the key by its position there instead.
                    Kw::Required(names) if names.len() <= 64 && !node.required_in_object => {
                        if let Some(j) = names.iter().position(|n| &**n == key)
                            && let Some(a) = self.apps.get_mut(i)
                        {
                            a.req_bits |= 1 << j;
                        }
                    }
                    Kw::PropertyNames(n) => self.property_name(sc, app, *n, key, at),
                    Kw::Object(o) => {
                        self.member(sc, i, app, node.required_in_object, o, key, at);
                    }
                    _ => {}
                }
            }
        }
    }

    /// `propertyNames` (node `n`) of application `app` on `key`.
    fn property_name(
        &mut self,
        sc: &CompiledSchema,
        app: App,
        n: NodeId,
        key: &str,
        at: &Location<'_>,
    ) {
        let val = Validator::new(sc.program());
        let kv = Value::String(key.to_owned());
        let mut sub = Vec::new();
        if !val.check::<true>(n, &kv, &At::ROOT, None, app.depth + 1, &mut sub) {
            let why = sub
                .first()
                .map_or(String::new(), |s| format!(": {}", s.message));
            let mut p = at.path.to_path();
            p.pop();
            let v = self.violation(
                sc,
                app.node,
                "propertyNames",
                p,
                format!(
                    "expected property names valid against propertyNames, found {}{why}",
                    show_str(key)
                ),
            );
            self.report(at.offset, v);
        }
    }

    /// `properties`, `patternProperties` and `additionalProperties` of
    /// application `app` (at `i` in `apps`) on the member `key` opens:
    /// marks it seen for `required` (`required_in_object`), pushes the
    /// subschemas it selects, reports a key no subschema may take.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn member(
        &mut self,
        sc: &CompiledSchema,
        i: usize,
        app: App,
        required_in_object: bool,
        o: &ObjectKw,
        key: &str,
        at: &Location<'_>,
    ) {
        let mut matched = false;
        if let Some((pos, n)) = o.prop_entry(key) {
            matched = true;
            if required_in_object && let Some(a) = self.apps.get_mut(i) {
                a.req_bits |= 1 << pos;
            }
            self.expand(sc, n, app.depth + 1, at);
        }
        for (p, n) in o.patterns.iter() {
            match p.test(key) {
                Ok(true) => {
                    matched = true;
                    self.expand(sc, *n, app.depth + 1, at);
                }
                Ok(false) => {}
                Err(over) => {
                    // No verdict on this key: reported as
                    // `validate` does, and taken as matched.
                    matched = true;
                    let v = self.violation(
                        sc,
                        app.node,
                        "patternProperties",
                        at.path.to_path(),
                        over.message(&p.source, &format!("the key {}", show_str(key))),
                    );
                    self.report(at.offset, v);
                }
            }
        }
        if !matched && let Some(n) = o.additional {
            if o.additional_false {
                let mut p = at.path.to_path();
                p.pop();
                let v = self.violation(
                    sc,
                    app.node,
                    "additionalProperties",
                    p,
                    unknown_key_message(&o.props, key),
                );
                self.report(at.offset, v);
            } else {
                self.expand(sc, n, app.depth + 1, at);
            }
        }
    }

    /// The object of application `app` closes with `count` members:
    /// `required` (up to 64 names, from the keys seen) and `minProperties`.
    pub(super) fn object_close(
        &mut self,
        sc: &CompiledSchema,
        app: App,
        count: u64,
        at: &Location<'_>,
    ) {
        let prog = sc.program();
        for kw in prog.node_kws(app.node).iter() {
            match kw {
                Kw::Required(names) if names.len() <= 64 => {
                    self.required_at_close(sc, app, names, at);
                }
                Kw::MinProperties(min) if count < *min => {
                    let v = self.violation(
                        sc,
                        app.node,
                        "minProperties",
                        at.path.to_path(),
                        format!(
                            "expected an object with at least {min} propert{}, found {count}",
                            if *min == 1 { "y" } else { "ies" },
                        ),
                    );
                    self.report(at.offset, v);
                }
                _ => {}
            }
        }
    }

    /// `required` at the close: each name whose bit no key set.
    fn required_at_close(
        &mut self,
        sc: &CompiledSchema,
        app: App,
        names: &[crate::schema::program::Name],
        at: &Location<'_>,
    ) {
        let prog = sc.program();
        let node = prog.node(app.node);
        // The keys seen as bits of positions in `properties`
        // (`required_in_object`) or in `names`.
        let object = prog.kws(node).iter().find_map(|k| match k {
            Kw::Object(o) if node.required_in_object => Some(o),
            _ => None,
        });
        if object.is_some_and(|o| app.req_bits & o.required_mask == o.required_mask) {
            return;
        }
        for (j, name) in names.iter().enumerate() {
            let bit = match object {
                Some(o) => o.prop_entry(name).map_or(0, |(pos, _)| 1 << pos),
                None => 1 << j,
            };
            if app.req_bits & bit == 0 {
                let v = self.violation(
                    sc,
                    app.node,
                    "required",
                    at.path.to_path(),
                    format!(
                        "expected required property {}, found an object without it",
                        show_str(name)
                    ),
                );
                self.report(at.offset, v);
            }
        }
    }
}
