//! The validation hook, in one place: a request's [`ToolSet`] compiled once
//! per stream; per call, a [`StreamCheck`] beside the partial tree (so a
//! doomed call is flagged at the byte where it is certain), `enum` / `const`
//! strings held back in the partial view, the final verdict at the end of the
//! block, unknown tool names, and the `tool_choice` check at the end of the
//! response.

use std::collections::HashMap;
use std::sync::Arc;

use crate::parser::DuplicateKeys;
use crate::protocol::{ChoiceViolation, ToolSet};
use crate::schema::{CompiledSchema, StreamViolation};

use super::{CallError, CallKind, StreamedCall};

/// The request's tools; each definition holds its schema compiled once
/// (cheap clones share it), indexed by name here.
#[derive(Debug)]
pub(crate) struct Tools {
    pub(crate) set: ToolSet,
    schemas: HashMap<String, CompiledSchema>,
}

impl Tools {
    pub(crate) fn new(set: ToolSet) -> Tools {
        let schemas = set
            .tools()
            .iter()
            .map(|t| (t.name().to_owned(), t.compiled_schema().clone()))
            .collect();
        Tools { set, schemas }
    }
}

/// Per-call state of the check.
#[derive(Debug, Default)]
pub(crate) struct CallCheck {
    prepared: bool,
    reported: usize,
}

/// Before the call's first byte: find its tool and start the stream check.
/// Returns an error that dooms the call (an unknown tool).
pub(crate) fn prepare(
    call: &mut StreamedCall,
    tools: Option<&Arc<Tools>>,
    duplicate_keys: Option<DuplicateKeys>,
) -> Option<CallError> {
    if call.check.prepared {
        return None;
    }
    call.check.prepared = true;
    if let Some(policy) = duplicate_keys {
        call.parser.set_duplicate_keys(policy);
    }
    let tools = tools?;
    if call.kind != CallKind::Client {
        return None; // server, MCP and custom tools have no client schema here
    }
    let name = call.name.clone().unwrap_or_default();
    match tools.schemas.get(&name) {
        None => Some(CallError::UnknownTool(name)),
        Some(schema) => {
            // A repeated key makes the call invalid unless asked otherwise,
            // so that the stream check's verdict is `validate`'s.
            call.parser
                .set_duplicate_keys(duplicate_keys.unwrap_or(DuplicateKeys::Error));
            // Attached to the call's partial tree: one pass over the bytes
            // for both, and a long string's pieces counted from the tree.
            call.parser.attach_check(schema.stream_check());
            let held = schema.clone();
            call.parser
                .hold_strings(move |path| held.holds_string_at(path));
            None
        }
    }
}

/// Violations the stream check became certain of since the last call.
pub(crate) fn newly_certain(call: &mut StreamedCall) -> Vec<CallError> {
    let Some(check) = call.parser.check() else {
        return Vec::new();
    };
    let new: Vec<CallError> = check.violations()[call.check.reported..]
        .iter()
        .cloned()
        .map(CallError::Schema)
        .collect();
    call.check.reported = check.violations().len();
    new
}

/// The final verdict once the parser finished: every violation not yet
/// reported. One the check adds at its end (a root that never closed) is
/// placed at the end of the text.
pub(crate) fn verdict(call: &mut StreamedCall) -> Vec<CallError> {
    let Some(check) = call.parser.take_check() else {
        return Vec::new();
    };
    let reported = call.check.reported;
    let mut out: Vec<CallError> = check.violations()[reported..]
        .iter()
        .cloned()
        .map(CallError::Schema)
        .collect();
    let certain = reported + out.len();
    let end = call.parser.parser().offset();
    if let Err(vs) = check.finish() {
        out.extend(vs.into_iter().skip(certain).map(|violation| {
            CallError::Schema(StreamViolation {
                offset: end,
                violation,
            })
        }));
    }
    out
}

/// The `tool_choice` (and parallel flag) check over the calls the model made.
pub(crate) fn check_choice(tools: &Tools, calls: &[StreamedCall]) -> Option<ChoiceViolation> {
    let names: Vec<&str> = calls
        .iter()
        .filter(|c| matches!(c.kind, CallKind::Client | CallKind::Custom))
        .map(|c| c.name.as_deref().unwrap_or_default())
        .collect();
    tools.set.check_choice(&names).err()
}
