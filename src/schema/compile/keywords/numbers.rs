//! The numbers family: `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum` (a number, or in draft-07 a draft-04 boolean) and
//! `multipleOf`.

use super::{KwAt, NodeParts};
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::program::Kw;
use crate::schema::{Draft, SchemaError};

impl<'a> Compiler<'a> {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (a
    /// number, or in draft-07 a draft-04 boolean) and `multipleOf`.
    pub(super) fn numbers(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let (draft, loc) = (at.draft, at.loc);
        if draft == Draft::Draft7
            && matches!(k, "exclusiveMinimum" | "exclusiveMaximum")
            && v.as_bool().is_some()
        {
            // Draft-04 style: `true` makes `minimum` / `maximum` exclusive.
            if v.as_bool() == Some(true) {
                if k == "exclusiveMinimum" {
                    parts.d4_excl_min = true;
                } else {
                    parts.d4_excl_max = true;
                }
            }
            return Ok(());
        }
        if let Some(n) = self.number(v, loc, k)? {
            if k == "multipleOf" && (n.dec().is_zero() || n.dec().is_negative()) {
                self.bad(
                    loc,
                    k,
                    format!("expected a number greater than 0, found {v}"),
                )?;
                return Ok(());
            }
            kws.push(match k {
                "minimum" => Kw::Minimum(n),
                "maximum" => Kw::Maximum(n),
                "exclusiveMinimum" => Kw::ExclusiveMinimum(n),
                "exclusiveMaximum" => Kw::ExclusiveMaximum(n),
                _ => Kw::MultipleOf(n),
            });
        }
        Ok(())
    }
}
