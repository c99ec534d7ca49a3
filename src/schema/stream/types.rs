//! The `type` family in the stream check: at a value's first byte, every
//! application whose possible types exclude the value's (`type`, `false`,
//! or an `enum`, `const`, `anyOf`, ... that rules the type out) is reported
//! and marked doomed.

use super::{App, CheckState, DOOMED};
use crate::parser::Location;
use crate::schema::CompiledSchema;
use crate::schema::describe::type_names;
use crate::schema::program::Kw;

impl CheckState {
    /// First byte of a value: type checks against every application.
    #[inline]
    pub(super) fn begin_checks(
        &mut self,
        sc: &CompiledSchema,
        bit: u8,
        found: &str,
        at: &Location<'_>,
    ) {
        let prog = sc.program();
        let fits = |a: &App| prog.node(a.node).types & bit != 0;
        if !self
            .apps
            .get(self.pending_start..)
            .is_some_and(|a| a.iter().all(fits))
        {
            self.type_mismatches(sc, bit, found, at);
        }
    }

    /// [`CheckState::begin_checks`] when some application rules the type
    /// out: reports each, naming the keyword that does.
    #[inline(never)]
    fn type_mismatches(&mut self, sc: &CompiledSchema, bit: u8, found: &str, at: &Location<'_>) {
        let prog = sc.program();
        for i in self.pending_start..self.apps.len() {
            let app = self.apps[i];
            let node = prog.node(app.node);
            if node.types & bit != 0 {
                continue;
            }
            // Name the keyword that rules the type out.
            let mut kw_name = "type";
            let mut expected = type_names(node.types);
            for kw in prog.kws(node).iter() {
                let (name, mask) = match kw {
                    Kw::False => ("false", 0),
                    Kw::Type(m) => ("type", *m),
                    Kw::Enum(_) => ("enum", node.types),
                    Kw::Const(_) => ("const", node.types),
                    Kw::AnyOf(_) => ("anyOf", node.types),
                    Kw::OneOf(_) => ("oneOf", node.types),
                    Kw::Ref(_) => ("$ref", node.types),
                    Kw::AllOf(_) => ("allOf", node.types),
                    _ => continue,
                };
                if mask & bit == 0 {
                    kw_name = name;
                    if let Kw::Type(m) = kw {
                        expected = type_names(*m);
                    }
                    break;
                }
            }
            let msg = if kw_name == "false" {
                format!("expected no value here (the schema is false), found {found}")
            } else {
                format!("expected {expected}, found {found}")
            };
            let v = self.violation(sc, app.node, kw_name, at.path.to_path(), msg);
            self.report(at.offset, v);
            if let Some(a) = self.apps.get_mut(i) {
                a.flags |= DOOMED;
            }
        }
    }
}
