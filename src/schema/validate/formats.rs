//! The `format` family: an asserted format (one the builder asked to
//! assert and the crate has a checker for; see `schema/format.rs`).

use super::{Here, Validator};
use crate::schema::Violation;
use crate::schema::describe::show_str;
use crate::schema::instance::{Instance, View};
use crate::schema::program::Kw;

impl Validator<'_> {
    /// `format`; a value that is not a string passes.
    #[inline]
    pub(super) fn formats<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        match (kw, v.view()) {
            (Kw::Format(f), View::String(s)) if !f.check(s) => {
                self.fail::<ALL>(h, "format", errs, || {
                    format!(
                        "expected a string in {} format, found {}",
                        f.name(),
                        show_str(s)
                    )
                })
            }
            _ => true,
        }
    }
}
