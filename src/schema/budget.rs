//! The fan-out budget: how many subschema visits one instance location may
//! cost, computed once per compiled schema.
//!
//! The cost guarantees of compile, `validate` and the stream check are
//! written below, with the budgets that bound them.

use super::compile::{Kw, NodeId, Program};
use super::{SchemaBuilder, SchemaError};

/// The default of [`SchemaBuilder::max_fanout`]: 100,000 subschema visits
/// at one instance location.
pub const DEFAULT_MAX_FANOUT: u64 = 100_000;

/// What validating one value against each node costs at the value's own
/// location, in subschema visits, counted over the in-place applicators
/// (`allOf`, `anyOf`, `oneOf`, `not`, `if` / `then` / `else`, `$ref`,
/// `$dynamicRef`, `dependentSchemas`) as `validate`, `is_valid` and the
/// stream check walk them, and with the re-checks that
/// `unevaluatedProperties` / `unevaluatedItems` make to find what is
/// evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NodeCost {
    /// `is_valid` (stop at the first failure; also what `anyOf` / `oneOf` /
    /// `not` / `if` cost when they test a branch).
    pub(crate) check: u64,
    /// `validate` (every violation, with the reasons of each failed
    /// branch): the bound the budget holds.
    pub(crate) report: u64,
    /// Marking the evaluated members or items from this node down (what an
    /// enclosing `unevaluated*` costs through it).
    pub(crate) mark: u64,
}

/// Every node's [`NodeCost`], by node id: one pass over the in-place graph
/// (a DAG: the compiler refuses in-place cycles), children before parents,
/// each node once (memoised), counts saturating at `u64::MAX`.
pub(crate) fn node_costs(prog: &Program) -> Vec<NodeCost> {
    let n = prog.nodes.len();
    let mut cost = vec![NodeCost::default(); n];
    // 0 = not seen, 1 = children pending, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<NodeId> = Vec::new();
    let mut kids = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        stack.push(start as NodeId);
        while let Some(&id) = stack.last() {
            let i = id as usize;
            match state.get(i) {
                Some(0) => {
                    state[i] = 1;
                    kids.clear();
                    for kw in prog.node_kws(id) {
                        super::compile::in_place_children(kw, &mut kids);
                    }
                    stack.extend(
                        kids.iter()
                            .copied()
                            .filter(|&c| state.get(c as usize) == Some(&0)),
                    );
                }
                Some(1) => {
                    state[i] = 2;
                    cost[i] = cost_of(prog, id, &cost);
                    stack.pop();
                }
                _ => {
                    stack.pop();
                }
            }
        }
    }
    cost
}

/// A node's cost from its children's (all computed: children first).
fn cost_of(prog: &Program, id: NodeId, cost: &[NodeCost]) -> NodeCost {
    let c = |n: &NodeId| cost.get(*n as usize).copied().unwrap_or_default();
    let sum = |acc: u64, x: u64| acc.saturating_add(x);
    let mut check = 1u64;
    let mut report = 1u64;
    let mut mark = 0u64;
    let mut unevaluated = 0u64;
    for kw in prog.node_kws(id) {
        match kw {
            Kw::AllOf(list) => {
                for n in list.iter() {
                    check = sum(check, c(n).check);
                    report = sum(report, c(n).report);
                    mark = sum(mark, c(n).mark.saturating_add(1));
                }
            }
            Kw::Ref(n) => {
                check = sum(check, c(n).check);
                report = sum(report, c(n).report);
                mark = sum(mark, c(n).mark.saturating_add(1));
            }
            Kw::DependentSchemas(deps) => {
                for (_, n) in deps.iter() {
                    check = sum(check, c(n).check);
                    report = sum(report, c(n).report);
                    mark = sum(mark, c(n).mark.saturating_add(1));
                }
            }
            Kw::DynamicRef(dr) => {
                // One target is taken: the costliest bounds it.
                let targets =
                    std::iter::once(&dr.fallback).chain(dr.candidates.iter().map(|(_, n)| n));
                let worst = targets.fold(NodeCost::default(), |w, n| NodeCost {
                    check: w.check.max(c(n).check),
                    report: w.report.max(c(n).report),
                    mark: w.mark.max(c(n).mark),
                });
                check = sum(check, worst.check);
                report = sum(report, worst.report);
                mark = sum(mark, worst.mark.saturating_add(1));
            }
            Kw::AnyOf(list) | Kw::OneOf(list) => {
                // Each branch tested, then (reporting) the reasons of the
                // failed ones; marking tests each and marks the valid ones.
                for n in list.iter() {
                    check = sum(check, c(n).check);
                    report = sum(report, c(n).check.saturating_add(c(n).report));
                    mark = sum(mark, c(n).check.saturating_add(c(n).mark).saturating_add(1));
                }
            }
            Kw::Not(n) => {
                check = sum(check, c(n).check);
                report = sum(report, c(n).check);
            }
            Kw::If { cond, then, els } => {
                check = sum(check, c(cond).check);
                report = sum(report, c(cond).check);
                mark = sum(
                    mark,
                    c(cond).check.saturating_add(c(cond).mark).saturating_add(1),
                );
                for n in then.iter().chain(els.iter()) {
                    check = sum(check, c(n).check);
                    report = sum(report, c(n).report);
                    mark = sum(mark, c(n).mark.saturating_add(1));
                }
            }
            Kw::UnevaluatedProperties(_) | Kw::UnevaluatedItems(_) => unevaluated += 1,
            _ => {}
        }
    }
    // Each `unevaluated*` marks from this node down once (its own subschema
    // applies at the members' or items' locations, not here).
    let marking = mark.saturating_mul(unevaluated);
    NodeCost {
        check: check.saturating_add(marking),
        report: report.saturating_add(marking),
        mark,
    }
}

/// Refuses a program in which some node costs more than `max` subschema
/// visits at one instance location ([`NodeCost::report`]), naming the
/// outermost such node and the budget.
pub(crate) fn check_fanout(prog: &Program, max: u64) -> Result<(), SchemaError> {
    let costs = node_costs(prog);
    // Node ids are given in compile order, parents before the subschemas
    // they hold: the first node over the budget is the outermost.
    let Some((id, cost)) = costs.iter().enumerate().find(|(_, c)| c.report > max) else {
        return Ok(());
    };
    let visits = if cost.report == u64::MAX {
        "at least 18446744073709551615".to_owned()
    } else {
        cost.report.to_string()
    };
    Err(SchemaError::new(
        prog.loc(prog.node(id as NodeId)).to_owned(),
        format!(
            "validating one value against this subschema takes {visits} subschema visits \
             (allOf / anyOf / oneOf / not / if / $ref / $dynamicRef / dependentSchemas fan-out, \
             unevaluated* re-checks included), more than the fan-out budget \
             max_fanout = {max} (SchemaBuilder::max_fanout)"
        ),
    ))
}

impl SchemaBuilder {
    /// The fan-out budget: the most subschema visits that validating one
    /// value may cost at its own location (default [`DEFAULT_MAX_FANOUT`],
    /// 100,000). In-place applicators multiply: a definition that refers to
    /// the one before it twice, 30 levels deep, is 2^30 visits in 2 KB of
    /// schema, and `anyOf` / `oneOf` / `unevaluated*` fan-outs do the same.
    /// A schema over the budget fails compilation with an error that names
    /// it, so that `validate`, `is_valid` and the stream check all stay
    /// within the budget per instance location.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// // Each definition refers to the one before twice: 2^20 visits.
    /// let mut defs = serde_json::Map::new();
    /// defs.insert("d0".into(), serde_json::json!({"type": "integer"}));
    /// for i in 1..=20 {
    ///     let prev = format!("#/$defs/d{}", i - 1);
    ///     defs.insert(format!("d{i}"), serde_json::json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}));
    /// }
    /// let schema = serde_json::json!({"$defs": defs, "$ref": "#/$defs/d20"});
    /// let err = CompiledSchema::compile(&schema).unwrap_err();
    /// assert!(err.message().contains("max_fanout"), "{err}");
    /// let allowed = CompiledSchema::builder().max_fanout(1 << 22).build(&schema)?;
    /// assert!(allowed.is_valid(&tooljson::from_str("1")?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_fanout(mut self, visits: u64) -> SchemaBuilder {
        self.max_fanout = visits;
        self
    }
}

#[cfg(feature = "cost-counters")]
thread_local! {
    /// Work units counted on this thread (feature `cost-counters`).
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `units` of work (a subschema visit, a value compared or hashed,
/// an option byte compared, a limb operation) when the `cost-counters`
/// feature is on; nothing otherwise.
#[inline(always)]
pub(crate) fn tally(units: u64) {
    #[cfg(feature = "cost-counters")]
    WORK.with(|w| w.set(w.get().wrapping_add(units)));
    #[cfg(not(feature = "cost-counters"))]
    let _ = units;
}

/// The work units counted on this thread since it started or since
/// [`reset_work`]: subschema visits of `validate`, `is_valid` and the
/// stream check, values compared or hashed by `uniqueItems` / `enum` /
/// `const`, option bytes compared by the stream check's `enum` / `const`,
/// and limb operations of `multipleOf`. Feature `cost-counters` only; the
/// tests that hold the bounds of the module docs read it.
///
/// # Examples
///
/// ```
/// use tooljson::schema::{reset_work, work_done};
/// let schema = tooljson::CompiledSchema::from_json_str(r#"{"uniqueItems": true}"#)?;
/// reset_work();
/// assert!(schema.is_valid(&tooljson::from_str("[1, 2, 3]")?));
/// assert!(work_done() > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "cost-counters")]
pub fn work_done() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// Sets this thread's [`work_done`] count to zero (feature `cost-counters`).
///
/// # Examples
///
/// ```
/// tooljson::schema::reset_work();
/// assert_eq!(tooljson::schema::work_done(), 0);
/// ```
#[cfg(feature = "cost-counters")]
pub fn reset_work() {
    WORK.with(|w| w.set(0));
}
