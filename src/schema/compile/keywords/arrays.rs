//! The arrays family: `items`, `prefixItems`, `additionalItems` (gathered
//! in [`NodeParts`] into one `Kw::Items`), `uniqueItems`, `contains` with
//! `minContains` / `maxContains`, `minItems` and `maxItems`.

use super::{KwAt, NodeParts};
use crate::schema::compile::{Compiler, Kws, Special};
use crate::schema::doc::Doc;
use crate::schema::program::Kw;
use crate::schema::{Draft, SchemaError};

impl<'a> Compiler<'a> {
    /// `items`, `prefixItems`, `additionalItems` (see
    /// [`Compiler::additional_items`]), `uniqueItems`, `contains`,
    /// `minItems`, `maxItems`, `minContains` and `maxContains`.
    pub(super) fn arrays(
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
            "items" => match (draft, v.as_array()) {
                (Draft::Draft7, Some(a)) => {
                    let ids = self.sub_list(a, base, draft, kl)?;
                    parts.prefix = Some(ids.into());
                }
                _ => {
                    if self.schema_value(v, loc, k)? {
                        let n = self.sub(v, base, draft, kl)?;
                        if draft == Draft::Draft7 {
                            // Draft-07 `items: {schema}` applies to every item.
                            parts.rest = Some(n);
                            parts.prefix.get_or_insert_with(|| Box::new([]));
                        } else {
                            parts.rest = Some(n);
                        }
                    }
                }
            },
            "prefixItems" => {
                if draft == Draft::Draft202012 {
                    match v.as_array() {
                        Some(a) => {
                            let ids = self.sub_list(a, base, draft, kl)?;
                            parts.prefix = Some(ids.into());
                        }
                        None => self.bad(
                            loc,
                            k,
                            format!("expected an array of schemas, found {}", v.kind_of()),
                        )?,
                    }
                }
            }
            // Read with `items` once every member is read.
            "additionalItems" => {}
            "uniqueItems" => match v.as_bool() {
                Some(true) => kws.push(Kw::UniqueItems),
                Some(false) => {}
                None => self.bad(loc, k, format!("expected a boolean, found {v}"))?,
            },
            "contains" => {
                if self.schema_value(v, loc, k)? {
                    parts.contains = Some(self.sub(v, base, draft, kl)?);
                }
            }
            _ => {
                if let Some(n) = self.non_neg(v, loc, k)? {
                    match k {
                        "minItems" => kws.push(Kw::MinItems(n)),
                        "maxItems" => kws.push(Kw::MaxItems(n)),
                        "minContains" if draft == Draft::Draft202012 => {
                            parts.min_contains = Some(n)
                        }
                        "maxContains" if draft == Draft::Draft202012 => {
                            parts.max_contains = Some(n)
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// Draft-07 `additionalItems`, which applies only next to an array `items`.
    pub(in crate::schema::compile) fn additional_items(
        &mut self,
        special: &Special<'a>,
        at: KwAt<'_>,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let (draft, loc) = (at.draft, at.loc);
        if draft == Draft::Draft7
            && special.items.is_some_and(|i| i.as_array().is_some())
            && let Some(ai) = special.additional_items
            && self.schema_value(ai, loc, "additionalItems")?
        {
            let child = self.child(loc, "additionalItems");
            parts.rest = Some(self.sub(ai, at.base, draft, child)?);
        }
        Ok(())
    }
}
