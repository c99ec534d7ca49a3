//! The objects family: `properties`, `patternProperties` and
//! `additionalProperties` (gathered in [`NodeParts`] into one `Kw::Object`),
//! `required`, `propertyNames`, `dependentRequired`, `dependentSchemas`,
//! draft-07 `dependencies`, `minProperties` and `maxProperties`.

use super::{KwAt, NodeParts};
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::program::{Kw, Name, SlotHash, key_tag};
use crate::schema::{Draft, SchemaError};

impl<'a> Compiler<'a> {
    /// `properties`, `patternProperties`, `additionalProperties`,
    /// `required`, `propertyNames`, `dependentRequired`,
    /// `dependentSchemas`, draft-07 `dependencies`, `minProperties` and
    /// `maxProperties`.
    pub(super) fn objects(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let KwAt {
            base,
            draft,
            loc,
            kl,
        } = at;
        match k {
            "properties" => match v.as_object() {
                Some(pm) => {
                    let mut props = Vec::with_capacity(pm.len());
                    for (pk, pv) in pm.iter() {
                        if self.schema_value(pv, kl, pk)? {
                            let child = self.child(kl, pk);
                            let n = self.sub(pv, base, draft, child)?;
                            props.push((Name::from(pk), n));
                        }
                    }
                    props.sort_by(|a, b| a.0.cmp(&b.0));
                    props.dedup_by(|a, b| a.0 == b.0);
                    let obj = parts.obj();
                    obj.tags = props.iter().map(|(k, _)| key_tag(k)).collect();
                    obj.slot_hash = SlotHash::find(&props, &obj.tags);
                    obj.props = props.into();
                }
                None => self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?,
            },
            "patternProperties" => match v.as_object() {
                Some(pm) => {
                    let mut pats = Vec::with_capacity(pm.len());
                    for (pk, pv) in pm.iter() {
                        if self.schema_value(pv, kl, pk)?
                            && let Some(p) = self.pattern(pk, loc, k)?
                        {
                            let child = self.child(kl, pk);
                            let n = self.sub(pv, base, draft, child)?;
                            pats.push((p, n));
                        }
                    }
                    parts.obj().patterns = pats.into();
                }
                None => self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?,
            },
            "additionalProperties" => {
                if self.schema_value(v, loc, k)? {
                    let additional = self.sub(v, base, draft, kl)?;
                    let obj = parts.obj();
                    obj.additional = Some(additional);
                    obj.additional_false = v.as_bool() == Some(false);
                }
            }
            "required" => match v.as_array() {
                Some(a) if a.iter().all(Doc::is_string) => {
                    let names: Vec<Name> = a
                        .iter()
                        .map(|x| Name::from(x.as_str().unwrap_or("")))
                        .collect();
                    if !names.is_empty() {
                        kws.push(Kw::Required(names.into()));
                    }
                }
                _ => self.bad(loc, k, format!("expected an array of strings, found {v}"))?,
            },
            "propertyNames" => {
                if self.schema_value(v, loc, k)? {
                    let n = self.sub(v, base, draft, kl)?;
                    kws.push(Kw::PropertyNames(n));
                }
            }
            "dependentRequired" | "dependentSchemas" | "dependencies" => {
                let Some(dm) = v.as_object() else {
                    self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?;
                    return Ok(());
                };
                if k == "dependencies" && draft != Draft::Draft7 {
                    return Ok(());
                }
                let mut req = Vec::new();
                let mut sch = Vec::new();
                for (dk, dv) in dm.iter() {
                    match dv.as_array() {
                        Some(a) if k != "dependentSchemas" && a.iter().all(Doc::is_string) => {
                            req.push((
                                Box::<str>::from(dk),
                                a.iter().filter_map(|x| x.as_str().map(Box::from)).collect(),
                            ));
                        }
                        _ if (dv.is_object() || dv.as_bool().is_some())
                            && k != "dependentRequired" =>
                        {
                            let child = self.child(kl, dk);
                            let n = self.sub(dv, base, draft, child)?;
                            sch.push((Box::<str>::from(dk), n));
                        }
                        _ => self.bad(
                            kl,
                            dk,
                            format!(
                                "expected {}, found {}",
                                if k == "dependentRequired" {
                                    "an array of strings"
                                } else {
                                    "a schema"
                                },
                                dv.kind_of()
                            ),
                        )?,
                    }
                }
                if !req.is_empty() {
                    kws.push(Kw::DependentRequired(req.into()));
                }
                if !sch.is_empty() {
                    kws.push(Kw::DependentSchemas(sch.into()));
                }
            }
            _ => {
                if let Some(n) = self.non_neg(v, loc, k)? {
                    kws.push(if k == "minProperties" {
                        Kw::MinProperties(n)
                    } else {
                        Kw::MaxProperties(n)
                    });
                }
            }
        }
        Ok(())
    }
}
