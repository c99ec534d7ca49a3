//! The applicators family: `allOf`, `anyOf`, `oneOf`, `not`, and `if` /
//! `then` / `else` (gathered in [`NodeParts`]); `$ref` and `$dynamicRef` are
//! resolved in `compile/resolve.rs`.

use super::{KwAt, NodeParts};
use crate::schema::SchemaError;
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::program::Kw;

impl<'a> Compiler<'a> {
    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then` and `else`.
    pub(super) fn applicators(
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
            "allOf" | "anyOf" | "oneOf" => match v.as_array() {
                Some(a) if !a.is_empty() => {
                    let ids = self.sub_list(a, base, draft, kl)?;
                    kws.push(match k {
                        "allOf" => Kw::AllOf(ids.into()),
                        "anyOf" => Kw::AnyOf(ids.into()),
                        _ => Kw::OneOf(ids.into()),
                    });
                }
                _ => self.bad(
                    loc,
                    k,
                    format!("expected a non-empty array of schemas, found {v}"),
                )?,
            },
            "not" => {
                if self.schema_value(v, loc, k)? {
                    let n = self.sub(v, base, draft, kl)?;
                    kws.push(Kw::Not(n));
                }
            }
            "if" => {
                if self.schema_value(v, loc, k)? {
                    parts.cond = Some(self.sub(v, base, draft, kl)?);
                }
            }
            "then" => {
                if self.schema_value(v, loc, k)? {
                    parts.then = Some(self.sub(v, base, draft, kl)?);
                }
            }
            _ => {
                if self.schema_value(v, loc, k)? {
                    parts.els = Some(self.sub(v, base, draft, kl)?);
                }
            }
        }
        Ok(())
    }
}
