//! The numbers family: `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum` and `multipleOf`, read exactly from the number's text.

use std::cmp::Ordering;

use super::{Here, Validator};
use crate::schema::Violation;
use crate::schema::instance::{Instance, View};
use crate::schema::number::{Dec, cmp_lexeme, quick_i64};
use crate::schema::program::Kw;

impl Validator<'_> {
    /// The bounds and `multipleOf`; a value that is not a number passes.
    #[inline]
    pub(super) fn numbers<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let View::Number(n) = v.view() else {
            return true;
        };
        let text = n.text();
        let n = text.as_str();
        match kw {
            Kw::MultipleOf(m) => {
                let ok = match (quick_i64(n), m.int) {
                    (Some(a), Some(b)) if b != 0 => a % b == 0,
                    _ => Dec::parse(n).is_some_and(|d| d.is_multiple_of(&m.dec())),
                };
                ok || self.fail::<ALL>(h, "multipleOf", errs, || {
                    format!("expected a multiple of {}, found {n}", m.lexeme)
                })
            }
            Kw::Minimum(b) | Kw::Maximum(b) | Kw::ExclusiveMinimum(b) | Kw::ExclusiveMaximum(b) => {
                let Some(o) = cmp_lexeme(n, b) else {
                    return true;
                };
                let (ok, op) = match kw {
                    Kw::Minimum(_) => (o != Ordering::Less, ">="),
                    Kw::Maximum(_) => (o != Ordering::Greater, "<="),
                    Kw::ExclusiveMinimum(_) => (o == Ordering::Greater, ">"),
                    _ => (o == Ordering::Less, "<"),
                };
                ok || self.fail::<ALL>(h, kw.name(), errs, || {
                    format!("expected a number {op} {}, found {n}", b.lexeme)
                })
            }
            _ => true,
        }
    }
}
