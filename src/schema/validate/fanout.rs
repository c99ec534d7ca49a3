//! The fan-out budget's input: which nodes each node applies at its own
//! location, read from the keywords, for `budget::node_costs`.

use crate::schema::program::{Kw, NodeId, Program};

/// Refuses a program in which validating one value against some node costs
/// more than `max` subschema visits at the value's location (see
/// `budget::node_costs`), naming the outermost such node and the budget.
pub(crate) fn check_fanout(prog: &Program, max: u64) -> Result<(), crate::schema::SchemaError> {
    use crate::schema::budget::Applied;
    let applied: Vec<Vec<Applied>> = (0..prog.nodes.len())
        .map(|id| {
            let mut out = Vec::new();
            for kw in prog.node_kws(id as NodeId) {
                match kw {
                    Kw::AllOf(list) => out.extend(list.iter().map(|n| Applied::Whole(*n))),
                    Kw::Ref(n) => out.push(Applied::Whole(*n)),
                    Kw::DependentSchemas(deps) => {
                        out.extend(deps.iter().map(|(_, n)| Applied::Whole(*n)));
                    }
                    Kw::AnyOf(list) | Kw::OneOf(list) => {
                        out.extend(list.iter().map(|n| Applied::Branch(*n)));
                    }
                    Kw::Not(n) => out.push(Applied::Tested(*n)),
                    Kw::If { cond, then, els } => {
                        out.push(Applied::Condition(*cond));
                        out.extend(then.iter().chain(els.iter()).map(|n| Applied::Whole(*n)));
                    }
                    Kw::DynamicRef(dr) => out.push(Applied::OneOf(
                        std::iter::once(dr.fallback)
                            .chain(dr.candidates.iter().map(|(_, n)| *n))
                            .collect(),
                    )),
                    Kw::UnevaluatedProperties(_) | Kw::UnevaluatedItems(_) => {
                        out.push(Applied::Unevaluated);
                    }
                    _ => {}
                }
            }
            out
        })
        .collect();
    let costs = crate::schema::budget::node_costs(&applied);
    // Node ids are given in compile order, parents before the subschemas
    // they hold: the first node over the budget is the outermost.
    match costs.iter().enumerate().find(|(_, c)| c.report > max) {
        None => Ok(()),
        Some((id, cost)) => Err(crate::schema::SchemaError::new(
            prog.loc(prog.node(id as NodeId)).to_owned(),
            crate::schema::budget::over_budget_message(cost.report, max),
        )),
    }
}
