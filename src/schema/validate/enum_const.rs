//! The `enum` / `const` family: the value is one of the options.

use std::fmt::Write as _;

use super::{Here, Validator};
use crate::schema::Violation;
use crate::schema::describe::show;
use crate::schema::instance::Instance;
use crate::schema::program::Kw;
use crate::schema::types::equal;

impl Validator<'_> {
    /// `enum` and `const`.
    #[inline]
    pub(super) fn enum_const<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        match kw {
            Kw::Enum(opts) if !opts.holds(v) => self.fail::<ALL>(h, "enum", errs, || {
                let mut list = opts.shown(12).join(", ");
                if opts.len() > 12 {
                    let _ = write!(list, ", … ({} in all)", opts.len());
                }
                format!("expected one of {list}, found {}", show(v))
            }),
            Kw::Const(c) if !equal(&**c, v) => self.fail::<ALL>(h, "const", errs, || {
                format!("expected {}, found {}", show(&**c), show(v))
            }),
            _ => true,
        }
    }
}
