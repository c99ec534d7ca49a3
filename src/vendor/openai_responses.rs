//! OpenAI Responses streaming: `response.output_item.added` opens a
//! `function_call` / `mcp_call` / `custom_tool_call` item at its
//! `output_index`; `*_arguments.delta` / `custom_tool_call_input.delta`
//! stream its text; `.done` and `output_item.done` end it (their text is
//! authoritative); `response.completed` / `.incomplete` / `.failed` and
//! `error` end the response.

use serde::Deserialize;

use super::{CallError, CallKey, CallKind, CallStatus, Calls, StopReason, StreamError};

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Event {
    #[serde(rename = "response.output_item.added")]
    ItemAdded { output_index: u64, item: Item },
    #[serde(rename = "response.output_item.done")]
    ItemDone { output_index: u64, item: Item },
    #[serde(rename = "response.function_call_arguments.delta")]
    FunctionDelta(Delta),
    #[serde(rename = "response.mcp_call_arguments.delta")]
    McpDelta(Delta),
    #[serde(rename = "response.custom_tool_call_input.delta")]
    CustomDelta(Delta),
    #[serde(rename = "response.function_call_arguments.done")]
    FunctionDone(Done),
    #[serde(rename = "response.mcp_call_arguments.done")]
    McpDone(Done),
    #[serde(rename = "response.custom_tool_call_input.done")]
    CustomDone(Done),
    #[serde(rename = "response.completed")]
    Completed,
    #[serde(rename = "response.incomplete")]
    Incomplete {
        #[serde(default)]
        response: Response,
    },
    #[serde(rename = "response.failed")]
    Failed {
        #[serde(default)]
        response: Response,
    },
    #[serde(rename = "error")]
    Error {
        #[serde(default)]
        code: Option<String>,
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        error: Option<ErrorBody>,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct Item {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
    #[serde(default)]
    input: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(default)]
    output_index: Option<u64>,
    #[serde(default)]
    item_id: Option<String>,
    #[serde(default)]
    delta: String,
}

#[derive(Deserialize)]
struct Done {
    #[serde(default)]
    output_index: Option<u64>,
    #[serde(default)]
    item_id: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
    #[serde(default)]
    input: Option<String>,
}

#[derive(Deserialize, Default)]
struct Response {
    #[serde(default)]
    incomplete_details: Option<IncompleteDetails>,
    #[serde(default)]
    error: Option<ErrorBody>,
}

#[derive(Deserialize, Default)]
struct IncompleteDetails {
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Deserialize, Default)]
struct ErrorBody {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

fn kind_of(item_type: &str) -> Option<CallKind> {
    match item_type {
        "function_call" => Some(CallKind::Client),
        "mcp_call" => Some(CallKind::Mcp),
        "custom_tool_call" => Some(CallKind::Custom),
        _ => None,
    }
}

/// Adapter state for one Responses stream.
#[derive(Debug, Default)]
pub(crate) struct State {}

impl State {
    pub(crate) fn handle(
        &mut self,
        calls: &mut Calls,
        event: Option<&str>,
        data: &str,
    ) -> Result<(), StreamError> {
        let ev: Event = match super::decode_typed(event, data) {
            Ok(ev) => ev,
            Err(m) => {
                calls.malformed(m);
                return Ok(());
            }
        };
        match ev {
            Event::ItemAdded { output_index, item } => {
                let Some(kind) = kind_of(&item.kind) else {
                    return Ok(());
                };
                let key = CallKey::Output(output_index);
                if calls.open(key).is_some() {
                    return Err(StreamError::Protocol(format!(
                        "output_item.added at output_index {output_index}, which is still open"
                    )));
                }
                // The call id is what a function_call_output must echo;
                // mcp_call items have only the item id.
                let id = item.call_id.or_else(|| item.id.clone());
                let n = calls.start(key, id, item.name, kind)?;
                if let Some(c) = calls.call_mut(n) {
                    c.item_id = item.id;
                }
                // Some servers put the whole text in the added item.
                let text = item.arguments.or(item.input).unwrap_or_default();
                calls.append(n, &text);
            }
            Event::FunctionDelta(d) | Event::McpDelta(d) | Event::CustomDelta(d) => {
                let n = locate(calls, d.output_index, d.item_id.as_deref())?;
                calls.append(n, &d.delta);
            }
            Event::FunctionDone(d) | Event::McpDone(d) | Event::CustomDone(d) => {
                let n = locate(calls, d.output_index, d.item_id.as_deref())?;
                if let Some(text) = d.arguments.or(d.input) {
                    settle(calls, n, &text);
                }
                calls.end(n);
            }
            Event::ItemDone { output_index, item } => {
                if kind_of(&item.kind).is_none() {
                    return Ok(());
                }
                if let Some(n) = calls.open(CallKey::Output(output_index)) {
                    if let Some(text) = item.arguments.or(item.input) {
                        settle(calls, n, &text);
                    }
                    calls.end(n);
                }
            }
            Event::Completed => {
                calls.end_open(|_| true);
                let stop = if calls.has_calls_of(CallKind::Client)
                    || calls.has_calls_of(CallKind::Custom)
                {
                    StopReason::ToolUse
                } else {
                    StopReason::EndTurn
                };
                calls.finish_stream(stop);
            }
            Event::Incomplete { response } => {
                let reason = response
                    .incomplete_details
                    .and_then(|d| d.reason)
                    .unwrap_or_default();
                let stop = match reason.as_str() {
                    "max_output_tokens" | "" => StopReason::MaxTokens,
                    "content_filter" => StopReason::ContentFilter,
                    other => StopReason::Other(other.to_owned()),
                };
                calls.cut_open(CallStatus::Truncated, &stop);
                calls.finish_stream(stop);
            }
            Event::Failed { response } => {
                let e = response.error.unwrap_or_default();
                calls.finish_stream(StopReason::Error {
                    kind: e.code.or(e.kind).unwrap_or_else(|| "failed".to_owned()),
                    message: e.message.unwrap_or_default(),
                });
            }
            Event::Error {
                code,
                message,
                error,
            } => {
                // Flat (SDK type) or nested (recorded wire) fields.
                let nested = error.unwrap_or_default();
                calls.finish_stream(StopReason::Error {
                    kind: code
                        .or(nested.code)
                        .or(nested.kind)
                        .unwrap_or_else(|| "error".to_owned()),
                    message: message.or(nested.message).unwrap_or_default(),
                });
            }
            Event::Other => {}
        }
        Ok(())
    }
}

/// The open call an event names: by `output_index`, checked against (or
/// else found by) `item_id`.
fn locate(
    calls: &Calls,
    output_index: Option<u64>,
    item_id: Option<&str>,
) -> Result<usize, StreamError> {
    let by_index = output_index.and_then(|i| calls.open(CallKey::Output(i)));
    let by_item = item_id.and_then(|id| {
        calls
            .calls
            .iter()
            .rposition(|c| c.status == CallStatus::Streaming && c.item_id.as_deref() == Some(id))
    });
    match (by_index, by_item) {
        (Some(a), Some(b)) if a != b => Err(StreamError::Protocol(format!(
            "item_id {} and output_index {} name different calls",
            item_id.unwrap_or_default(),
            output_index.unwrap_or_default()
        ))),
        (Some(a), _) => Ok(a),
        (None, Some(b)) => Ok(b),
        (None, None) => Err(StreamError::Protocol(format!(
            "arguments event for output_index {:?} / item_id {:?}, which is not an open call",
            output_index, item_id
        ))),
    }
}

/// The vendor's final text: feed a missing tail, report a mismatch.
fn settle(calls: &mut Calls, n: usize, done: &str) {
    let Some(c) = calls.call(n) else {
        return;
    };
    let streamed = c.arguments_text();
    if streamed == done {
        return;
    }
    if let Some(tail) = done.strip_prefix(streamed) {
        let tail = tail.to_owned();
        calls.append(n, &tail);
        return;
    }
    let err = CallError::ArgumentsMismatch {
        streamed: streamed.to_owned(),
        done: done.to_owned(),
    };
    calls.doom(n, err);
}
