//! Read-only access to the compiled program for constrained decoding
//! (`crate::decode`): the decoder translates the program's nodes into its
//! own grammar and checks literal options against single nodes.

pub(crate) use super::format::{Format, days_in_month};
pub(crate) use super::pattern::{
    Class, ClassSequence, OwnedRegular, Pattern, PositionAutomaton, Regular,
};
pub(crate) use super::program::{ItemsKw, Kw, NodeId, ObjectKw, Program};
pub(crate) use super::types::{T_ALL, T_ARR, T_BOOL, T_FRAC, T_INT, T_NULL, T_OBJ, T_STR};

use super::CompiledSchema;

/// The program behind `schema`.
pub(crate) fn program(schema: &CompiledSchema) -> &Program {
    schema.program()
}

/// Whether `v` is valid against node `id` alone (as `validate` checks a
/// subschema in place, without dynamic scope).
pub(crate) fn node_accepts(prog: &Program, id: NodeId, v: &crate::Value) -> bool {
    let val = super::validate::Validator::new(prog);
    val.check::<false>(id, v, &super::validate::At::ROOT, None, 0, &mut Vec::new())
}

/// The `format` values node `id` keeps as annotations (not asserted when
/// it compiled, or not known to the format checker).
pub(crate) fn format_notes(prog: &Program, id: NodeId) -> impl Iterator<Item = &str> {
    let notes = &prog.format_notes;
    let from = notes.partition_point(|n| n.0 < id);
    notes[from..]
        .iter()
        .take_while(move |n| n.0 == id)
        .map(|n| &*n.1)
}

/// The deepest schema nesting (as `validate` counts it, against
/// [`MAX_SCHEMA_NESTING`](super::MAX_SCHEMA_NESTING)) that a value nested
/// at most `levels` deep can meet, or a figure past `stop`.
pub(crate) fn deepest_nesting(prog: &Program, levels: u32, stop: u32) -> u32 {
    super::validate::deepest_nesting(prog, levels, stop)
}
