//! The strings family: `minLength`, `maxLength` and `pattern`.

use super::KwAt;
use crate::schema::SchemaError;
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::program::Kw;

impl<'a> Compiler<'a> {
    /// `minLength`, `maxLength` and `pattern`.
    pub(super) fn strings(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let loc = at.loc;
        match k {
            "pattern" => match v.as_str() {
                Some(s) => {
                    if let Some(p) = self.pattern(s, loc, k)? {
                        kws.push(Kw::Pattern(Box::new(p)));
                    }
                }
                None => self.bad(loc, k, format!("expected a string, found {}", v.kind_of()))?,
            },
            _ => {
                if let Some(n) = self.non_neg(v, loc, k)? {
                    kws.push(if k == "minLength" {
                        Kw::MinLength(n)
                    } else {
                        Kw::MaxLength(n)
                    });
                }
            }
        }
        Ok(())
    }
}
