//! The applicators family in the stream check: a node's conjunctive
//! applicators (`$ref`, `allOf`) are expanded in place, each subschema an
//! application of the value with the depth the validator would check it
//! at; the others (`anyOf`, `oneOf`, `not`, `if`, `$dynamicRef`) wait for
//! the whole value (`buffered_kw` in `stream.rs`).

use super::{App, CheckState, DOOMED};
use crate::parser::Location;
use crate::schema::CompiledSchema;
use crate::schema::program::{Kw, NodeId};
use crate::schema::validate::MAX_DEPTH;

impl CheckState {
    /// Pushes `node` and its conjunctive closure (`$ref`, `allOf`), with the
    /// depth the validator would check it at. Past [`MAX_DEPTH`] the node
    /// fails closed, as in `validate`, and is not expanded further.
    #[inline]
    pub(super) fn expand(
        &mut self,
        sc: &CompiledSchema,
        node: NodeId,
        depth: u32,
        at: &Location<'_>,
    ) {
        // The usual case, a node that applies no other in place, in line.
        crate::schema::budget::tally(1);
        let n = sc.program().node(node);
        if depth <= MAX_DEPTH && !n.expands && !n.shared {
            self.apps.push(App {
                node,
                flags: 0,
                req_bits: 0,
                depth,
            });
            return;
        }
        self.expand_closure(sc, node, depth, at);
    }

    /// [`CheckState::expand`] of a node that expands, or past the depth bound.
    #[inline(never)]
    pub(super) fn expand_closure(
        &mut self,
        sc: &CompiledSchema,
        node: NodeId,
        depth: u32,
        at: &Location<'_>,
    ) {
        if sc.program().node(node).shared && self.applied_here(node, depth) {
            return;
        }
        if depth > MAX_DEPTH {
            let v = self.violation(
                sc,
                node,
                "$ref",
                at.path.to_path(),
                format!("expected schema nesting of at most {MAX_DEPTH} levels, found deeper"),
            );
            self.report(at.offset, v);
            self.apps.push(App {
                node,
                flags: DOOMED,
                req_bits: 0,
                depth,
            });
            return;
        }
        self.apps.push(App {
            node,
            flags: 0,
            req_bits: 0,
            depth,
        });
        let prog = sc.program();
        let n = prog.node(node);
        if !n.expands {
            return;
        }
        for kw in prog.kws(n).iter() {
            match kw {
                Kw::Ref(n) => self.expand(sc, *n, depth + 1, at),
                Kw::AllOf(list) => list.iter().for_each(|n| self.expand(sc, *n, depth + 1, at)),
                _ => {}
            }
        }
    }
}
