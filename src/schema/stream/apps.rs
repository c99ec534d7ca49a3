//! The applications of the value about to begin (pushed by
//! `applicators.rs`, a shared node once per value), and the validator run
//! on a finished (sub)value for the keywords that need it.

use super::{CheckState, DOOMED, prefix_path};
use crate::PathRef;
use crate::Value;
use crate::schema::CompiledSchema;
use crate::schema::program::{Kw, NodeId, expanded};
use crate::schema::validate::{At, Validator, leaf_verdict};

impl CheckState {
    /// Starts the applications of the next value at `start` in `apps`.
    #[inline]
    pub(super) fn new_value_at(&mut self, start: usize) {
        self.apps.truncate(start);
        self.pending_start = start;
        if !self.applied_here.is_empty() {
            self.applied_here.clear();
        }
    }

    /// Whether shared `node` is applied at `depth` to the value about to
    /// begin already; notes it if not. A few applications are searched in
    /// place; past them the set `applied_here` takes over.
    pub(super) fn applied_here(&mut self, node: NodeId, depth: u32) -> bool {
        let here = self.apps.get(self.pending_start..).unwrap_or(&[]);
        if self.applied_here.is_empty() && here.len() <= 32 {
            return here.iter().any(|a| a.node == node && a.depth == depth);
        }
        if self.applied_here.is_empty() {
            self.applied_here = here.iter().map(|a| (a.node, a.depth)).collect();
        }
        !self.applied_here.insert((node, depth))
    }

    /// Whether every live application in `range` is a leaf (see
    /// `Leaf`) that the finished scalar `v` holds: then
    /// none of their keywords can fail, and they need not be walked.
    #[inline]
    pub(super) fn leaves_hold(
        &self,
        sc: &CompiledSchema,
        range: (usize, usize),
        v: &Value,
    ) -> bool {
        let prog = sc.program();
        self.apps.get(range.0..range.1).is_some_and(|apps| {
            apps.iter().all(|a| {
                a.flags & DOOMED != 0 || leaf_verdict(prog, a.node, v, a.depth) == Some(true)
            })
        })
    }

    /// Runs the validator on a finished (sub)value for the keywords `pick` selects.
    pub(super) fn run_keywords(
        &mut self,
        sc: &CompiledSchema,
        range: (usize, usize),
        v: &Value,
        path: PathRef<'_>,
        offset: u64,
        pick: impl Fn(&Kw, u8) -> bool,
    ) {
        let prog = sc.program();
        let val = Validator::new(prog);
        let mut errs = Vec::new();
        for i in range.0..range.1 {
            let Some(app) = self.apps.get(i).copied() else {
                break;
            };
            if app.flags & DOOMED != 0 {
                continue;
            }
            let node = prog.node(app.node);
            for kw in prog.kws(node).iter() {
                if !expanded(kw) && pick(kw, app.flags) {
                    // The usual keyword, and one that passes, decided here;
                    // the validator is called to word a failure.
                    if let Kw::Type(mask) = kw
                        && crate::schema::validate::type_matches(*mask, v)
                    {
                        continue;
                    }
                    val.keyword::<true>(node, kw, v, &At::ROOT, None, app.depth, &mut errs);
                }
            }
        }
        if errs.is_empty() {
            return;
        }
        let path = path.to_path();
        for e in errs {
            let e = prefix_path(&path, e);
            self.report(offset, e);
        }
    }
}
