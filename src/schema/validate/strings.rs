//! The strings family: `minLength`, `maxLength` (in code points) and
//! `pattern`.

use super::quick::{chars, too_long, too_short};
use super::{Here, Validator};
use crate::schema::Violation;
use crate::schema::describe::{plural, show_str};
use crate::schema::instance::{Instance, View};
use crate::schema::program::Kw;

impl Validator<'_> {
    /// The lengths and `pattern`; a value that is not a string passes.
    #[inline]
    pub(super) fn strings<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let View::String(s) = v.view() else {
            return true;
        };
        let characters = |n| plural(n, "character", "characters");
        match kw {
            Kw::MinLength(min) if too_short(s, *min) => {
                self.fail::<ALL>(h, "minLength", errs, || {
                    format!(
                        "expected a string of at least {}, found {}",
                        characters(*min),
                        characters(chars(s))
                    )
                })
            }
            Kw::MaxLength(max) if too_long(s, *max) => {
                self.fail::<ALL>(h, "maxLength", errs, || {
                    format!(
                        "expected a string of at most {}, found {}",
                        characters(*max),
                        characters(chars(s))
                    )
                })
            }
            Kw::Pattern(p) => match p.test(s) {
                Ok(true) => true,
                Ok(false) => self.fail::<ALL>(h, "pattern", errs, || {
                    format!(
                        "expected a string matching the pattern {}, found {}",
                        show_str(&p.source),
                        show_str(s)
                    )
                }),
                Err(over) => {
                    self.fail::<ALL>(h, "pattern", errs, || over.message(&p.source, &show_str(s)))
                }
            },
            _ => true,
        }
    }
}
