//! The arrays family: `prefixItems` / `items` / `additionalItems` (one
//! compiled keyword, [`ItemsKw`]), `minItems`, `maxItems`, `uniqueItems`,
//! and `contains` with `minContains` / `maxContains`.

use super::unique::first_duplicate;
use super::{Here, Validator};
use crate::schema::Violation;
use crate::schema::describe::plural;
use crate::schema::instance::{Instance, View};
use crate::schema::program::{ItemsKw, Kw, NodeId};

impl Validator<'_> {
    /// The array keywords; a value that is not an array passes.
    #[inline]
    pub(super) fn arrays<const ALL: bool>(
        &self,
        kw: &Kw,
        v: &impl Instance,
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let View::Array(a) = v.view() else {
            return true;
        };
        let items = |n| plural(n, "item", "items");
        let len = a.len() as u64;
        match kw {
            Kw::Items(it) => self.items::<ALL>(it, a, h, errs),
            Kw::MinItems(min) if len < *min => self.fail::<ALL>(h, "minItems", errs, || {
                format!(
                    "expected an array of at least {}, found {}",
                    items(*min),
                    items(len)
                )
            }),
            Kw::MaxItems(max) if len > *max => self.fail::<ALL>(h, "maxItems", errs, || {
                format!(
                    "expected an array of at most {}, found {}",
                    items(*max),
                    items(len)
                )
            }),
            Kw::UniqueItems => match first_duplicate(a) {
                Some((i, j)) => self.fail::<ALL>(h, "uniqueItems", errs, || {
                    format!("expected unique items, found items {i} and {j} equal")
                }),
                None => true,
            },
            Kw::Contains { node, min, max } => self.contains::<ALL>(*node, *min, *max, a, h, errs),
            _ => true,
        }
    }

    /// `prefixItems`, `items` and `additionalItems`: each item against the
    /// subschema its index selects.
    fn items<const ALL: bool>(
        &self,
        it: &ItemsKw,
        a: &[impl Instance],
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let mut ok = true;
        for (i, item) in a.iter().enumerate() {
            let Some(n) = it.node_for(i) else { break };
            if !self.check::<ALL>(n, item, &h.at.index(i), h.scope, h.d, errs) {
                ok = false;
                if !ALL {
                    return false;
                }
            }
        }
        ok
    }

    /// `contains` (node `n`) with its bounds: how many items hold.
    fn contains<const ALL: bool>(
        &self,
        n: NodeId,
        min: u64,
        max: Option<u64>,
        a: &[impl Instance],
        h: &Here<'_>,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let items = |n| plural(n, "item", "items");
        let mut count = 0u64;
        for (i, item) in a.iter().enumerate() {
            if self.check::<false>(n, item, &h.at.index(i), h.scope, h.d, errs) {
                count += 1;
            }
        }
        if count < min {
            let kw = if min == 1 { "contains" } else { "minContains" };
            return self.fail::<ALL>(h, kw, errs, || {
                format!(
                    "expected an array with at least {} matching contains, found {count}",
                    items(min)
                )
            });
        }
        if let Some(max) = max
            && count > max
        {
            return self.fail::<ALL>(h, "maxContains", errs, || {
                format!(
                    "expected an array with at most {} matching contains, found {count}",
                    items(max)
                )
            });
        }
        true
    }
}
