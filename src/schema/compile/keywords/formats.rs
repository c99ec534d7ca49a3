//! The `format` family: asserted when the builder asks, else an annotation.

use super::KwAt;
use crate::schema::SchemaError;
use crate::schema::compile::{Compiler, Kws};
use crate::schema::doc::Doc;
use crate::schema::format::Format;
use crate::schema::program::Kw;

impl<'a> Compiler<'a> {
    /// `format`: asserted when the builder asks, else an annotation.
    pub(super) fn format(
        &mut self,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let (k, loc) = ("format", at.loc);
        match v.as_str() {
            Some(s) => match (self.opts.assert_formats, Format::from_name(s)) {
                (true, Some(f)) => kws.push(Kw::Format(f)),
                (assert, _) => {
                    // An unknown format stays an annotation (as other
                    // validators do), and is listed.
                    if assert {
                        let why = if Format::UNASSERTED.contains(&s) {
                            "is not asserted here (no checker), kept as an annotation"
                        } else {
                            "is not a JSON Schema format, kept as an annotation"
                        };
                        self.ignored
                            .push(format!("{}/format: format {s:?} {why}", self.loc_str(loc)));
                    }
                    // Kept for a reader that asserts formats itself
                    // (constrained decoding).
                    self.format_notes.push((loc, s.into()));
                }
            },
            None => self.bad(loc, k, format!("expected a string, found {}", v.kind_of()))?,
        }
        Ok(())
    }
}
