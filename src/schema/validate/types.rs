//! The `type` family: `type`, and the `false` schema, which no value's
//! type meets.

use super::{Here, Validator};
use crate::schema::Violation;
use crate::schema::describe::{show_typed, type_names};
use crate::schema::instance::{Instance, View};
use crate::schema::number::lexeme_is_integer;
use crate::schema::program::Kw;
use crate::schema::types::{T_ARR, T_BOOL, T_FRAC, T_INT, T_NULL, T_OBJ, T_STR};

/// Whether `v`'s type is in `mask`.
#[inline]
pub(crate) fn type_matches(mask: u8, v: &impl Instance) -> bool {
    let bit = match v.view() {
        View::Null => T_NULL,
        View::Bool(_) => T_BOOL,
        View::Number(n) => {
            if mask & T_FRAC != 0 {
                return true;
            }
            if mask & T_INT == 0 {
                return false;
            }
            return lexeme_is_integer(n.text().as_str());
        }
        View::String(_) => T_STR,
        View::Array(_) => T_ARR,
        View::Object(_) => T_OBJ,
    };
    mask & bit != 0
}

impl Validator<'_> {
    /// `false` and `type`.
    #[inline]
    pub(super) fn types<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        match kw {
            Kw::False => self.fail::<ALL>(h, "false", errs, || {
                format!(
                    "expected no value here (the schema is false), found {}",
                    show_typed(v)
                )
            }),
            Kw::Type(mask) if !type_matches(*mask, v) => self.fail::<ALL>(h, "type", errs, || {
                format!("expected {}, found {}", type_names(*mask), show_typed(v))
            }),
            _ => true,
        }
    }
}
