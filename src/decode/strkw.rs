//! The keywords that put a string under a form (`pattern`, an asserted
//! `format`), and the form each is followed by, or why it is refused.

use super::DecodeError;
use super::approx::unsupported;
use super::pattern::{StrPattern, format_form};
use crate::schema::decode_view::{Format, NodeId, OwnedRegular, Pattern, Program};

/// A `pattern` or asserted `format` keyword.
pub(crate) enum PatternKw<'a> {
    Pattern(&'a Pattern),
    Format(Format),
    /// A JSON Schema format the format checker does not know.
    Unchecked(&'a str),
}

/// The JSON Schema formats the format checker does not know: asserted,
/// each is refused (the others it does not know are not JSON Schema
/// formats, and stay annotations as the checker keeps them).
pub(crate) const UNCHECKED_FORMATS: &[&str] =
    &["idn-email", "idn-hostname", "iri", "iri-reference"];

impl PatternKw<'_> {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            PatternKw::Pattern(_) => "pattern",
            PatternKw::Format(_) | PatternKw::Unchecked(_) => "format",
        }
    }

    /// The form a string under keyword `self` of node `n` follows, or
    /// the refusal naming it.
    pub(crate) fn form(&self, prog: &Program, n: NodeId) -> Result<StrPattern, DecodeError> {
        let form = match self {
            PatternKw::Pattern(p) => match p.regular() {
                Some(r) => StrPattern::new(r),
                None => {
                    return Err(unsupported(
                        prog,
                        n,
                        "pattern",
                        "a pattern outside the class sequences and position automata the crate matches without a regex",
                    ));
                }
            },
            PatternKw::Unchecked(name) => {
                return Err(unsupported(
                    prog,
                    n,
                    "format",
                    &format!(
                        "the `{name}` format has no checker here (IDNA2008 validity of \
                         Unicode labels is not a language this decoder can follow), so no \
                         mask can be exact"
                    ),
                ));
            }
            // The formats no pattern states have a hand-built form.
            PatternKw::Format(f) => match StrPattern::hand_built(*f) {
                Some(hand) => Ok(hand),
                None => match format_form(*f).and_then(OwnedRegular::parse) {
                    Some(o) => StrPattern::new(o.as_regular()),
                    None => {
                        return Err(unsupported(
                            prog,
                            n,
                            "format",
                            &format!("the `{}` format has no exact regular form here", f.name()),
                        ));
                    }
                },
            },
        };
        form.map_err(|why| unsupported(prog, n, self.name(), why))
    }
}
