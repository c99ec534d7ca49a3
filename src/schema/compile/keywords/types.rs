//! The `type` keyword: a name or an array of names, as a mask of type bits
//! (the `false` schema is read with the subschema itself, in `compile/mod.rs`).

use crate::schema::SchemaError;
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::program::{Kw, Span};
use crate::schema::types::{T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR};

impl<'a> Compiler<'a> {
    /// `type`: a name or an array of names, as a mask of type bits.
    pub(in crate::schema::compile) fn type_kw(
        &mut self,
        t: Doc<'_>,
        loc: Span,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let one = |name: &str| match name {
            "null" => Some(T_NULL),
            "boolean" => Some(T_BOOL),
            "integer" => Some(T_INT),
            "number" => Some(T_NUM),
            "string" => Some(T_STR),
            "array" => Some(T_ARR),
            "object" => Some(T_OBJ),
            _ => None,
        };
        let mut mask = 0u8;
        let mut ok = true;
        match (t.as_str(), t.as_array()) {
            (Some(s), _) => match one(s) {
                Some(b) => mask |= b,
                None => ok = false,
            },
            (_, Some(a)) => {
                for x in a.iter() {
                    match x.as_str().and_then(one) {
                        Some(b) => mask |= b,
                        None => ok = false,
                    }
                }
            }
            _ => ok = false,
        }
        if ok {
            kws.push(Kw::Type(mask));
        } else {
            self.bad(
                loc,
                "type",
                format!("expected a type name or an array of them, found {t}"),
            )?;
        }
        Ok(())
    }
}
