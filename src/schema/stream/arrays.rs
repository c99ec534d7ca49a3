//! The arrays family in the stream check: at each item, `maxItems` (one
//! too many) and the item's subschema (`prefixItems` / `items`); at the
//! close, `minItems`. The rest (`uniqueItems`, `contains`) wait for the
//! whole array.

use super::{App, CheckState, DOOMED, MAX_COUNT_DONE};
use crate::parser::Location;
use crate::schema::CompiledSchema;
use crate::schema::program::Kw;

impl CheckState {
    /// A value begins inside an array: count it and push its applications.
    pub(super) fn array_item(&mut self, sc: &CompiledSchema, at: &Location<'_>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        let idx = f.count;
        f.count += 1;
        let count = f.count;
        let (s, e) = (f.apps_start, f.apps_end);
        self.new_value_at(e);
        let prog = sc.program();
        for i in s..e {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                match kw {
                    Kw::MaxItems(max) if count > *max && app.flags & MAX_COUNT_DONE == 0 => {
                        if let Some(a) = self.apps.get_mut(i) {
                            a.flags |= MAX_COUNT_DONE;
                        }
                        let mut p = at.path.to_path();
                        p.pop();
                        let v = self.violation(
                            sc,
                            app.node,
                            "maxItems",
                            p,
                            format!(
                                "expected an array of at most {max} item{}, found more",
                                if *max == 1 { "" } else { "s" }
                            ),
                        );
                        self.report(at.offset, v);
                    }
                    Kw::Items(it) => {
                        if let Some(n) = it.node_for(idx as usize) {
                            self.expand(sc, n, app.depth + 1, at);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// The array of application `app` closes with `count` items: `minItems`.
    pub(super) fn array_close(
        &mut self,
        sc: &CompiledSchema,
        app: App,
        count: u64,
        at: &Location<'_>,
    ) {
        for kw in sc.program().node_kws(app.node).iter() {
            if let Kw::MinItems(min) = kw
                && count < *min
            {
                let v = self.violation(
                    sc,
                    app.node,
                    "minItems",
                    at.path.to_path(),
                    format!(
                        "expected an array of at least {min} item{}, found {count} item{}",
                        if *min == 1 { "" } else { "s" },
                        if count == 1 { "" } else { "s" }
                    ),
                );
                self.report(at.offset, v);
            }
        }
    }
}
