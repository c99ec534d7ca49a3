//! The fan-out budget: how many subschema visits one instance location may
//! cost, computed once per compiled schema; and the cost guarantees of
//! compile, `validate` / `is_valid` and the stream check, with the budgets
//! that bound them.
//!
//! # Cost guarantees
//!
//! Sizes: `S` the schema's text, `N` its compiled nodes (`N ≤ S`), `n` the
//! instance's bytes, `L` its values (locations, `L ≤ n`), `B` the fan-out
//! budget ([`SchemaBuilder::max_fanout`](super::SchemaBuilder::max_fanout), default
//! [`DEFAULT_MAX_FANOUT`]).
//!
//! | entry point | time | memory |
//! |---|---|---|
//! | compile | O(S) plus the patterns, plus one O(N + in-place edges) pass for the budget | O(S) plus the patterns, at most [`SchemaBuilder::max_pattern_memory`](super::SchemaBuilder::max_pattern_memory) together |
//! | `is_valid` | O(n) for the keywords that read values, plus at most `min(B, N + E)` subschema visits per location (`E` the schema's subschema references; see "Across instance levels") | O(depth) on the stack, plus at most one remembered verdict per (shared node, value) |
//! | `validate` | as `is_valid`, plus, for each failed `anyOf` / `oneOf` / `propertyNames`, its reasons: at most 6 more passes over that subvalue | as `is_valid`, plus its violations |
//! | stream check | O(n) over the bytes, plus at most `min(B, N + E)` applications per location; a subvalue that a buffering keyword keeps whole is validated once more at its close per enclosing buffering level | O(n) for a kept string, plus one copy of each buffered subvalue per buffering level open around it, plus the applications of the open locations |
//!
//! The keywords that read values, each linear:
//! - `uniqueItems`: every item hashed once by value (numbers by their
//!   mathematical value, objects whatever their key order, with random
//!   keys per process) and compared only with the earlier items of its
//!   hash: expected O(size of the array). Eight items or fewer are
//!   compared pairwise.
//! - `enum` / `const`: O(size of the options + the value) per check. In the
//!   stream check a string is matched piece by piece: the first option that
//!   fits so far is kept, each new piece is compared with it alone, and an
//!   option passed over is never compared again, so a string costs
//!   O(its length + the options' length) in any chunking.
//! - `multipleOf`: O((a + 4b + 4) × b / 81) limb operations, where `a` and
//!   `b` are the significant digits of the value and the divisor; the
//!   exponent costs nothing (beyond `4b + 4` zeros the answer no longer
//!   changes, see `number::Dec::is_multiple_of`), so `9…9e900000000` is as
//!   cheap as `9…9`.
//! - `pattern`: the `regex` crate, linear in the string; its memory is within
//!   `max_pattern_memory`.
//! - `format: "regex"` (asserted): the pattern is read once and checked in
//!   pieces of about 8 KiB (see `format::regex_holds`): O(n) time and a few
//!   MiB of memory whatever its length, but for one class or group opener
//!   that is itself longer (checked whole, about 100 bytes per byte).
//! - Other formats: linear, without allocation.
//!
//! ## The fan-out budget
//!
//! In-place applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if` / `then` /
//! `else`, `$ref`, `$dynamicRef`, `dependentSchemas`) apply subschemas to
//! the same value, and they multiply: 30 definitions that each refer to the
//! one before twice are 2 KB of schema and 2^30 visits of every value.
//! `unevaluatedProperties` / `unevaluatedItems` multiply further, since
//! finding what is evaluated tests every branch again. `node_costs`
//! counts, for every node, the visits that `is_valid` and `validate` make
//! (with the re-tests of `unevaluated*` and the reasons `validate` collects
//! for failed branches), memoised over the in-place graph (a DAG: in-place
//! cycles are refused); a schema in which some node costs more than `B` is
//! refused when it compiles, with an error naming `max_fanout`. The stream
//! check keeps at most the `$ref` / `allOf` closure of a node per location,
//! which that count covers, and hands the rest to the validator.
//!
//! The default, 100,000 visits, is three orders of magnitude above what the
//! schemas of the JSON-Schema-Test-Suite (metaschemas included) and the
//! JSONSchemaBench sample need (at most 53), so large real unions of
//! hundreds of `$ref`s fit; a doubling chain 16 levels deep does not. At some
//! tens of nanoseconds a visit it bounds one location to milliseconds.
//!
//! ## Across instance levels
//!
//! The budget bounds one application of a node at one location. A node
//! that two keywords apply can be applied twice at one location, and a
//! recursive schema can make that happen at every level of the instance:
//! `{"$defs": {"n": {"anyOf": [{"$ref": "#/$defs/t"}, {"$ref":
//! "#/$defs/t"}]}, "t": {"properties": {"a": {"$ref": "#/$defs/n"}}}}}`
//! costs 3 visits per location, yet without more it would apply `t` 2^k
//! times at level `k` of `{"a": {"a": …}}`. So the compiler marks the
//! nodes that more than one keyword refers to (`Node::shared`; the root
//! when anything refers to it), and only those can meet the same value
//! twice:
//! - `is_valid` and `validate` remember the verdict of each (shared node,
//!   value) pair and evaluate it once (`validate/memo.rs`); `validate` adds
//!   a pair's violations to its list once, so an instance location is
//!   reported once per failing keyword however many ways the schema
//!   reaches it. A verdict that met the 512-level nesting bound is
//!   remembered with its depth.
//! - The reasons of a failed `anyOf` / `oneOf` name each alternative's
//!   first violation without the reasons of an `anyOf` / `oneOf` inside
//!   it, which would grow as a power of the nesting.
//! - The stream check keeps a shared node once per location (with its
//!   depth) among the applications it expands.
//!
//! Every node is then evaluated at most once per location (per depth, near
//! the nesting bound), so a location costs at most `N + E` visits whatever
//! the levels above it did.
//!
//! ## Measured
//!
//! The time and peak memory of every hostile case in `corpus/hostile`
//! (whole and chunked, beside the `jsonschema` crate) are measured by `corpus/hostile/measure.sh`; the figures and the command are
//! in `benches/README.md`. The tests in `tests/hostile_cost.rs` count work
//! instead of time, so they hold these bounds on any machine.

/// The default of [`SchemaBuilder::max_fanout`](super::SchemaBuilder::max_fanout): 100,000 subschema visits
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

/// What one node applies in place to the value it checks, as the cost
/// count reads it (built from the compiled keywords by
/// `validate::fanout::check_fanout`).
#[derive(Clone, Debug)]
pub(crate) enum Applied {
    /// Applied and reported on, and marked through by `unevaluated*`
    /// (`allOf`, `$ref`, `dependentSchemas`, `then` / `else`).
    Whole(u32),
    /// A branch tested, then reported on when it fails, and tested again
    /// and marked through by `unevaluated*` (`anyOf`, `oneOf`).
    Branch(u32),
    /// Tested only (`not`).
    Tested(u32),
    /// Tested, and tested again and marked through by `unevaluated*` (`if`).
    Condition(u32),
    /// One of these, picked by the dynamic scope (`$dynamicRef`).
    OneOf(Vec<u32>),
    /// An `unevaluatedProperties` / `unevaluatedItems` of the node: a
    /// marking pass from the node down.
    Unevaluated,
}

/// Every node's [`NodeCost`], by node id, from what each applies in place
/// (`applied[id]`): one pass over the in-place graph (a DAG: the compiler
/// refuses in-place cycles), children before parents, each node once
/// (memoised), counts saturating at `u64::MAX`.
pub(crate) fn node_costs(applied: &[Vec<Applied>]) -> Vec<NodeCost> {
    let n = applied.len();
    let mut cost = vec![NodeCost::default(); n];
    // 0 = not seen, 1 = children pending, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<usize> = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        stack.push(start);
        while let Some(&i) = stack.last() {
            match state.get(i) {
                Some(0) => {
                    state[i] = 1;
                    for a in applied.get(i).into_iter().flatten() {
                        let kids: &[u32] = match a {
                            Applied::Whole(c)
                            | Applied::Branch(c)
                            | Applied::Tested(c)
                            | Applied::Condition(c) => std::slice::from_ref(c),
                            Applied::OneOf(cs) => cs,
                            Applied::Unevaluated => &[],
                        };
                        stack.extend(
                            kids.iter()
                                .map(|&c| c as usize)
                                .filter(|&c| state.get(c) == Some(&0)),
                        );
                    }
                }
                Some(1) => {
                    state[i] = 2;
                    cost[i] = cost_of(applied.get(i).map_or(&[], Vec::as_slice), &cost);
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
fn cost_of(applied: &[Applied], cost: &[NodeCost]) -> NodeCost {
    let c = |n: u32| cost.get(n as usize).copied().unwrap_or_default();
    let sum = |acc: u64, x: u64| acc.saturating_add(x);
    let mut check = 1u64;
    let mut report = 1u64;
    let mut mark = 0u64;
    let mut unevaluated = 0u64;
    for a in applied {
        match a {
            Applied::Whole(n) => {
                check = sum(check, c(*n).check);
                report = sum(report, c(*n).report);
                mark = sum(mark, c(*n).mark.saturating_add(1));
            }
            Applied::Branch(n) => {
                // Tested, then (reporting) the reasons of a failed one;
                // marking tests it and marks through it when it holds.
                check = sum(check, c(*n).check);
                report = sum(report, c(*n).check.saturating_add(c(*n).report));
                mark = sum(
                    mark,
                    c(*n).check.saturating_add(c(*n).mark).saturating_add(1),
                );
            }
            Applied::Tested(n) => {
                check = sum(check, c(*n).check);
                report = sum(report, c(*n).check);
            }
            Applied::Condition(n) => {
                check = sum(check, c(*n).check);
                report = sum(report, c(*n).check);
                mark = sum(
                    mark,
                    c(*n).check.saturating_add(c(*n).mark).saturating_add(1),
                );
            }
            Applied::OneOf(ns) => {
                // One target is taken: the costliest bounds it.
                let worst = ns.iter().fold(NodeCost::default(), |w, n| NodeCost {
                    check: w.check.max(c(*n).check),
                    report: w.report.max(c(*n).report),
                    mark: w.mark.max(c(*n).mark),
                });
                check = sum(check, worst.check);
                report = sum(report, worst.report);
                mark = sum(mark, worst.mark.saturating_add(1));
            }
            Applied::Unevaluated => unevaluated += 1,
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

/// The message of a schema refused by the fan-out budget: `visits` at one
/// location against the budget `max`.
pub(crate) fn over_budget_message(visits: u64, max: u64) -> String {
    let visits = if visits == u64::MAX {
        "at least 18446744073709551615".to_owned()
    } else {
        visits.to_string()
    };
    format!(
        "validating one value against this subschema takes {visits} subschema visits \
         (allOf / anyOf / oneOf / not / if / $ref / $dynamicRef / dependentSchemas fan-out, \
         unevaluated* re-checks included), more than the fan-out budget \
         max_fanout = {max} (SchemaBuilder::max_fanout)"
    )
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
