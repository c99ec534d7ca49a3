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
//! ## Measured on the hostile cases
//!
//! Every case of issue 32 that reaches the schema layer, the shapes it
//! found bounded already, and case 2 of the provider layer, as inputs
//! written by `corpus/hostile/make_cases.py` and run by
//! `corpus/hostile/measure.sh` (`tooljson validate`, whole and `--chunk 16`;
//! `tooljson replay` from the file, with `--ndjson` and from stdin; under
//! `/usr/bin/time -v`, stopped at 40 s):
//!
//! ```text
//! cargo build --release --bin tooljson
//! python3 corpus/hostile/make_cases.py
//! corpus/hostile/measure.sh            # or TOOLJSON_BIN=other/build corpus/hostile/measure.sh
//! ```
//!
//! Release build on this project's shared 2-core machine, with other builds
//! running (load average 6 to 16 over the runs: wall-clock times are rough;
//! the tests in `tests/hostile_cost.rs` count work instead). Each cell is
//! whole / `--chunk 16`: seconds, peak resident memory (case 2: the three
//! ways of reading, and the peak over the input's size). "jsonschema" is the
//! crate 0.61.2 on the same files, run by a scratch program outside the
//! repository (`jsonschema::options().should_validate_formats(F).build(&schema)`,
//! then `iter_errors(&instance).count()`; F only for case 6; release build,
//! `/usr/bin/time -f "%e s %M KiB" timeout 40 jsrun SCHEMA INSTANCE`), where
//! it applies. Cases 7 and 8 and the SSE shapes are held by the provider
//! tests (`tests/partial_memory.rs`, `tests/providers_duplicate_ids.rs`).
//!
//! | case | input | before | after | jsonschema |
//! |---|---|---|---|---|
//! | 1 `uniqueItems` (`1-unique-30000`) | `[0, …, 29999]`, 199 KB | 23.8 s, 4 MB / over 40 s | 0.00 s, 7 MB / 0.00 s, 9 MB | 0.06 s, 8 MB |
//! | 1 `uniqueItems` (`1-unique-100000`) | `[0, …, 99999]`, 689 KB | over 40 s / over 40 s | 0.06 s, 12 MB / 0.16 s, 17 MB | 0.08 s, 11 MB |
//! | 3 `allOf` fan-out (`3-fanout-allOf`) | 30 levels, each `$ref` to the one before twice, 2 KB | out of memory at 3.8 GB / at 3.1 GB | refused at compile time, exit 2, `max_fanout` named; 0.00 s, 4 MB / 0.00 s, 4 MB | out of memory at 4 GB |
//! | 3 `anyOf` fan-out (`3-fanout-anyOf`) | the same with `anyOf` | over 40 s / over 40 s | refused, exit 2; 0.00 s, 5 MB / 0.00 s, 4 MB | over 40 s |
//! | 3 `oneOf` fan-out (`3-fanout-oneOf`) | the same with `oneOf` | over 40 s / over 40 s | refused, exit 2; 0.00 s, 4 MB / 0.00 s, 4 MB | over 40 s |
//! | 3 `unevaluatedProperties` (`3-fanout-unevaluated`) | `allOf` fan-out, `unevaluatedProperties: false` at each level, 3 KB | over 40 s at 2.7 GB / out of memory at 3.1 GB | refused, exit 2; 0.00 s, 5 MB / 0.00 s, 4 MB | over 40 s |
//! | 3 across levels, `allOf` (`3-levels-allOf`) | a definition applied twice per level, 165 B; `{"a": …}` 100 levels failing at the bottom | over 20 s at 842 MB / over 20 s at 977 MB | exit 3, one violation; 0.00 s, 5 MB / 0.00 s, 5 MB | over 40 s (6.2 GB when stopped) |
//! | 3 across levels, `anyOf` (`3-levels-anyOf`) | the same with `anyOf` | over 20 s, 4 MB / over 20 s, 4 MB | exit 3; 0.00 s, 5 MB / 0.00 s, 5 MB | over 40 s (6.2 GB when stopped) |
//! | 4 `const` (`4-const-1MiB`) | 1 MiB string | 0.03 s, 6 MB / 1.88 s, 10 MB | 0.00 s, 8 MB / 0.00 s, 11 MB | 0.01 s, 10 MB |
//! | 4 `const` (`4-const-2MiB`) | 2 MiB string | 0.10 s, 11 MB / 8.30 s, 17 MB | 0.00 s, 12 MB / 0.01 s, 17 MB | 0.03 s, 14 MB |
//! | 5 `multipleOf` (`5-multipleOf`) | 4,001-digit divisor, 20 numbers `9…9e900000000` (80 KB) | 21.7 s, 3 MB / over 40 s | 0.27 s, 5 MB / 0.61 s, 5 MB | does not read the numbers (out of range) |
//! | 6 `format: "regex"` (`6-regex-10MB`) | `"aaa…"`, 10 MB | 4.05 s, 1003 MB / 7.64 s, 1013 MB | 0.45 s, 14 MB / 0.75 s, 24 MB | 0.15 s, 28 MB |
//! | 6 `format: "regex"` (`6-regex-4MB`) | `(ab\|c)[x-z]\d+` repeated, 4.5 MB | 6.35 s, 750 MB / 10.2 s, 765 MB | 0.20 s, 11 MB / 0.54 s, 14 MB | 0.10 s, 15 MB |
//! | 2 deep string, `tooljson replay` (`2-deep-string`) | a 15 MiB string nested 120 deep (an object, 119 arrays), closed by one 121-byte delta; Anthropic SSE, 15.7 MB | 0.39 s, 80 MB (5.35x the input) / `--ndjson` 80 MB / stdin 80 MB | 0.35 s, 50 MB (3.37x) / `--ndjson` 50 MB (3.38x) / stdin 50 MB (3.36x) | does not apply |
//! | bounded: nested quantifier (`b-pattern-nested`) | `^(a+)+$` on `a…ab`, 100 KB | 0.02 s, 4 MB / 0.01 s, 4 MB | 0.00 s, 5 MB / 0.01 s, 5 MB | 0.01 s, 8 MB |
//! | bounded: look-ahead (`b-pattern-lookahead`) | `^((?=a)a+)+$` on `a…ab`, 10 KB | 0.10 s, 5 MB / 0.26 s, 5 MB | 0.07 s, 6 MB / 0.30 s, 6 MB | 0.02 s, 8 MB |
//! | bounded: 1e5-entry `enum` (`b-enum-100000`) | 1.6 MB schema, a string in none | 0.05 s, 13 MB / 0.07 s, 13 MB | 0.04 s, 14 MB / 0.12 s, 14 MB | 0.02 s, 24 MB |
//! | bounded: 5,000 `patternProperties` (`b-patternProperties-5000`) | 194 KB schema, 715 keys | 0.25 s, 8 MB / 0.43 s, 8 MB | 0.19 s, 9 MB / 0.39 s, 9 MB | 0.28 s, 21 MB |
//! | bounded: `$dynamicRef` loop (`b-dynamicRef-loop`) | a recursive `$dynamicRef`, 100 levels | 0.02 s, 4 MB / 0.01 s, 4 MB | 0.03 s, 5 MB / 0.00 s, 5 MB | 0.03 s, 7 MB |
//!
//! The "before" of cases 1 to 6 was measured on the build before their
//! fixes; that of the level cases and the bounded ones on the build before
//! the shared-node memory. A long pattern that does not repeat itself and is
//! not plain text is linear but slower: each piece is parsed by
//! `regex-syntax`, at about 3 MB/s on this machine under load (twice with
//! `--chunk 16`: the stream check, then `validate` of the final value).

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
