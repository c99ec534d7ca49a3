//! The unevaluated family: `unevaluatedItems` and `unevaluatedProperties`
//! (draft 2020-12), read last.

use super::KwAt;
use crate::schema::compile::{Compiler, Kws, Special};
use crate::schema::program::Kw;
use crate::schema::{Draft, SchemaError};

impl<'a> Compiler<'a> {
    /// `unevaluatedItems` and `unevaluatedProperties` (draft 2020-12),
    /// last: they depend on what every other keyword evaluated.
    pub(in crate::schema::compile) fn unevaluated(
        &mut self,
        special: &Special<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let (draft, loc) = (at.draft, at.loc);
        if draft == Draft::Draft202012 {
            for (k, v) in [
                ("unevaluatedItems", special.unevaluated_items),
                ("unevaluatedProperties", special.unevaluated_properties),
            ] {
                if let Some(v) = v
                    && self.schema_value(v, loc, k)?
                {
                    let child = self.child(loc, k);
                    let n = self.sub(v, at.base, draft, child)?;
                    kws.push(if k == "unevaluatedItems" {
                        Kw::UnevaluatedItems(n)
                    } else {
                        Kw::UnevaluatedProperties(n)
                    });
                }
            }
        }
        Ok(())
    }
}
