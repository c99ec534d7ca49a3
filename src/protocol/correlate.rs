//! Matching a turn's calls with their results (every call answered exactly
//! once), and building the reply from (call id, outcome) pairs.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::result::{ToolOutcome, ToolResult, ToolResults};
use super::turn::AssistantTurn;

/// How a turn's calls and a set of results fail to match one to one.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CorrelationError {
    /// Call ids with no result, in call order.
    pub missing: Vec<String>,
    /// Result ids that match no call, in result order.
    pub unknown: Vec<String>,
    /// Call ids with more than one result (each listed once).
    pub duplicate_results: Vec<String>,
    /// Ids that the turn itself uses for more than one call.
    pub duplicate_calls: Vec<String>,
}

impl CorrelationError {
    /// Whether everything matched.
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty()
            && self.unknown.is_empty()
            && self.duplicate_results.is_empty()
            && self.duplicate_calls.is_empty()
    }
}

impl fmt::Display for CorrelationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            parts.push(format!("no result for call(s) {:?}", self.missing));
        }
        if !self.unknown.is_empty() {
            parts.push(format!(
                "result(s) for unknown call id(s) {:?}",
                self.unknown
            ));
        }
        if !self.duplicate_results.is_empty() {
            parts.push(format!(
                "more than one result for call(s) {:?}",
                self.duplicate_results
            ));
        }
        if !self.duplicate_calls.is_empty() {
            parts.push(format!(
                "the turn uses id(s) {:?} for more than one call",
                self.duplicate_calls
            ));
        }
        if parts.is_empty() {
            f.write_str("calls and results match")
        } else {
            f.write_str(&parts.join("; "))
        }
    }
}

impl std::error::Error for CorrelationError {}

/// Matches call ids against result ids: every call exactly one result.
///
/// # Examples
///
/// ```
/// use tooljson::protocol::correlate;
/// let e = correlate(&["a", "b", "c"], &["b", "x", "b"]).unwrap_err();
/// assert_eq!(e.missing, ["a", "c"]);
/// assert_eq!(e.unknown, ["x"]);
/// assert_eq!(e.duplicate_results, ["b"]);
/// assert!(correlate(&["a", "b"], &["b", "a"]).is_ok());
/// ```
pub fn correlate(call_ids: &[&str], result_ids: &[&str]) -> Result<(), CorrelationError> {
    let mut err = CorrelationError::default();
    let mut calls: HashSet<&str> = HashSet::with_capacity(call_ids.len());
    for id in call_ids {
        if !calls.insert(id) && !err.duplicate_calls.iter().any(|d| d == id) {
            err.duplicate_calls.push((*id).to_owned());
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(result_ids.len());
    for id in result_ids {
        if !calls.contains(id) {
            err.unknown.push((*id).to_owned());
            continue;
        }
        let n = seen.entry(id).or_insert(0);
        *n += 1;
        if *n == 2 {
            err.duplicate_results.push((*id).to_owned());
        }
    }
    let mut listed: HashSet<&str> = HashSet::new();
    for id in call_ids {
        if !seen.contains_key(id) && listed.insert(id) {
            err.missing.push((*id).to_owned());
        }
    }
    if err.is_empty() { Ok(()) } else { Err(err) }
}

impl AssistantTurn {
    /// Checks that `results` answer this turn's calls one to one.
    pub fn check_results(&self, results: &ToolResults) -> Result<(), CorrelationError> {
        let calls: Vec<&str> = self.calls().map(|c| c.id.as_str()).collect();
        correlate(&calls, &results.call_ids())
    }

    /// Builds the reply from (call id, outcome) pairs given in any order:
    /// one result per call, in call order. Errors, with every problem
    /// listed, when a call has no outcome, an id is unknown, or an id comes
    /// twice.
    pub fn reply(
        &self,
        outcomes: impl IntoIterator<Item = (String, ToolOutcome)>,
    ) -> Result<ToolResults, CorrelationError> {
        let outcomes: Vec<(String, ToolOutcome)> = outcomes.into_iter().collect();
        let calls: Vec<&str> = self.calls().map(|c| c.id.as_str()).collect();
        let ids: Vec<&str> = outcomes.iter().map(|(id, _)| id.as_str()).collect();
        correlate(&calls, &ids)?;
        let mut by_id: HashMap<String, ToolOutcome> = outcomes.into_iter().collect();
        let results = calls
            .iter()
            .filter_map(|id| by_id.remove(*id).map(|o| self.result_for(id, o)))
            .collect();
        Ok(ToolResults::new(results))
    }

    /// The result for call `id`, with the call's name (Gemini needs it).
    fn result_for(&self, id: &str, outcome: ToolOutcome) -> ToolResult {
        let mut r = ToolResult::new(id, outcome);
        r.name = self.calls().find(|c| c.id == id).map(|c| c.name.clone());
        r
    }

    /// Like [`reply`](Self::reply), but a call without an outcome gets the
    /// one `missing` makes for it (say, an error "not run"), and outcomes
    /// for unknown ids are left out (of repeated ids, the first counts); all
    /// of it is reported. The reply answers every call id exactly once: an
    /// id the turn itself repeats (see [`CorrelationError::duplicate_calls`])
    /// gets one result, since the vendors match results by id.
    pub fn reply_filling(
        &self,
        outcomes: impl IntoIterator<Item = (String, ToolOutcome)>,
        mut missing: impl FnMut(&super::ToolCall) -> ToolOutcome,
    ) -> (ToolResults, Option<CorrelationError>) {
        let outcomes: Vec<(String, ToolOutcome)> = outcomes.into_iter().collect();
        let calls: Vec<&str> = self.calls().map(|c| c.id.as_str()).collect();
        let ids: Vec<&str> = outcomes.iter().map(|(id, _)| id.as_str()).collect();
        let report = correlate(&calls, &ids).err();
        // The first outcome per id counts.
        let mut by_id: HashMap<String, ToolOutcome> = HashMap::new();
        for (id, o) in outcomes {
            by_id.entry(id).or_insert(o);
        }
        let mut done: HashSet<String> = HashSet::new();
        let mut results = Vec::new();
        for call in self.calls() {
            if !done.insert(call.id.clone()) {
                continue;
            }
            let outcome = match by_id.remove(&call.id) {
                Some(o) => o,
                None => missing(call),
            };
            results.push(self.result_for(&call.id, outcome));
        }
        (ToolResults::new(results), report)
    }
}
