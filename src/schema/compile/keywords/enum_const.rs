//! The `enum` / `const` family.

use super::KwAt;
use crate::schema::SchemaError;
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::options::EnumOptions;
use crate::schema::program::Kw;

impl<'a> Compiler<'a> {
    /// `enum` and `const`.
    pub(super) fn enum_const(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        match k {
            "enum" => match v.as_array() {
                Some(a) => kws.push(Kw::Enum(EnumOptions::new(a))),
                None => self.bad(
                    at.loc,
                    k,
                    format!("expected an array, found {}", v.kind_of()),
                )?,
            },
            _ => kws.push(Kw::Const(Box::new(v.to_value()))),
        }
        Ok(())
    }
}
