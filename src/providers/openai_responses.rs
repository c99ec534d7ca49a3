//! OpenAI Responses streaming: `response.output_item.added` opens a
//! `function_call` / `mcp_call` / `custom_tool_call` item at its
//! `output_index`; `*_arguments.delta` / `custom_tool_call_input.delta`
//! stream its text; `.done` and `output_item.done` end it (their text is
//! authoritative); `response.completed` / `.incomplete` / `.failed` and
//! `error` end the response. Other output items arrive whole at
//! `output_item.done`: hosted tools (`web_search_call`, `file_search_call`,
//! `code_interpreter_call`, `image_generation_call`, `mcp_call`, ...) as
//! [`CallEvent::ServerToolResult`], items the client acts on or does not
//! know as [`CallEvent::OtherContent`]; all stay in the final `output`.

use std::borrow::Cow;

use serde::Deserialize;

use super::fast::{self, ResponsesKind};
use super::{
    CallError, CallEvent, CallKey, CallKind, CallStatus, Calls, ProtocolViolation, StopReason,
    StreamError, Usage,
};

/// One event, flat: every member the handled events use, all optional, so
/// serde reads it in one pass with no buffering; dispatched on `type`.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(default)]
    output_index: Option<u64>,
    #[serde(borrow, default)]
    item_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    delta: Option<Cow<'a, str>>,
    #[serde(default)]
    arguments: Option<String>,
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    item: Option<serde_json::Value>,
    #[serde(default)]
    content_index: Option<u64>,
    #[serde(default)]
    response: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    code: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    message: Option<String>,
    #[serde(default)]
    error: Option<ErrorBody>,
}

impl super::Typed for Event<'_> {
    fn kind(&self) -> Option<&str> {
        self.kind.as_deref()
    }
}

/// The event types this adapter reads; any other is ignored.
const HANDLED: &[&str] = &[
    "response.output_item.added",
    "response.output_item.done",
    "response.function_call_arguments.delta",
    "response.mcp_call_arguments.delta",
    "response.custom_tool_call_input.delta",
    "response.function_call_arguments.done",
    "response.mcp_call_arguments.done",
    "response.custom_tool_call_input.done",
    "response.completed",
    "response.created",
    "response.content_part.added",
    "response.output_text.delta",
    "response.refusal.delta",
    "response.reasoning_summary_text.delta",
    "response.reasoning_text.delta",
    "response.incomplete",
    "response.failed",
    "error",
];

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

#[derive(Deserialize, Default)]
struct Response {
    #[serde(default, deserialize_with = "super::lenient_string")]
    id: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    model: Option<String>,
    #[serde(default)]
    usage: Option<serde_json::Value>,
    #[serde(default)]
    incomplete_details: Option<IncompleteDetails>,
    #[serde(default)]
    error: Option<ErrorBody>,
}

#[derive(Deserialize, Default)]
struct IncompleteDetails {
    #[serde(default, deserialize_with = "super::lenient_string")]
    reason: Option<String>,
}

#[derive(Deserialize, Default)]
struct ErrorBody {
    #[serde(rename = "type", default, deserialize_with = "super::lenient_string")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    code: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    message: Option<String>,
}

impl Response {
    /// The members this adapter reads, from the lifecycle event's whole
    /// `response` object (kept whole for the final message).
    fn read(v: Option<&serde_json::Value>) -> Response {
        v.and_then(|v| Response::deserialize(v).ok())
            .unwrap_or_default()
    }
}

impl Item {
    fn read(v: &serde_json::Value) -> Option<Item> {
        serde_json::from_value(v.clone()).ok()
    }
}

/// How an output item other than a call is reported at
/// `output_item.done`: hosted tools (the provider runs them; the item holds
/// the call and its result) as [`CallEvent::ServerToolResult`]; text and
/// reasoning not at all (their deltas were); anything else as
/// [`CallEvent::OtherContent`].
/// A member of the event as the provider wrote it: members in order and
/// numbers as written (the final message's copy; serde_json's sorted,
/// `f64` copy serves the event logic). Item and lifecycle events only, not
/// the deltas.
fn exact(data: &str, key: &str) -> Option<crate::Value> {
    match crate::from_str(data) {
        Ok(crate::Value::Object(mut o)) => o.remove(key).filter(|v| !v.is_null()),
        _ => None,
    }
}

fn done_event(item_type: &str, at: u64, item: serde_json::Value) -> Option<CallEvent> {
    match item_type {
        "message" | "reasoning" | "function_call" | "custom_tool_call" => None,
        "web_search_call"
        | "file_search_call"
        | "code_interpreter_call"
        | "image_generation_call"
        | "mcp_call"
        | "mcp_list_tools"
        | "tool_search_call" => Some(CallEvent::ServerToolResult { at, block: item }),
        _ => Some(CallEvent::OtherContent { at, block: item }),
    }
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
pub(crate) struct State {
    /// Escaped delta text decoded on the fast path.
    scratch: String,
}

/// The fast path (`fast.rs`): whether the event was a delta it read. An
/// arguments delta that names no open call is left to the full reader,
/// which reports it.
fn fast_delta(calls: &mut Calls, data: &str, scratch: &mut String) -> bool {
    let Some(d) = fast::responses(data, scratch) else {
        return false;
    };
    match d.kind {
        ResponsesKind::Arguments => {
            let Ok(n) = locate(calls, d.output_index, d.item_id) else {
                return false;
            };
            calls.append(n, d.payload.into_text(data, scratch));
        }
        ResponsesKind::Text => {
            let text = d.payload.text(data, scratch);
            let Some(at) = d.output_index else {
                return false;
            };
            let content_index = d.content_index.unwrap_or_default();
            calls.response.part_append(at, content_index, "text", text);
            if !text.is_empty() {
                calls.push(CallEvent::TextAppended {
                    choice: 0,
                    block: at,
                    text: text.to_owned(),
                });
            }
        }
    }
    fast::trim_scratch(scratch);
    true
}

impl State {
    /// The fast path for delta events (see `fast.rs`); `false` leaves the
    /// event to [`handle`](Self::handle).
    pub(crate) fn fast_delta(&mut self, calls: &mut Calls, data: &str) -> bool {
        fast_delta(calls, data, &mut self.scratch)
    }

    /// Reads one event that the fast path left, and dispatches it on its
    /// type.
    pub(crate) fn handle(
        &mut self,
        calls: &mut Calls,
        event: Option<&str>,
        data: &str,
    ) -> Result<(), StreamError> {
        let Some(ev) = super::read_event::<Event<'_>>(calls, event, data, HANDLED) else {
            return Ok(());
        };
        let kind = ev.kind.as_deref().or(event).unwrap_or_default();
        match kind {
            "response.created" => {
                let r = Response::read(ev.response.as_ref());
                calls.response.responses_envelope(exact(data, "response"));
                calls.response.id = r.id.clone();
                calls.response.model = r.model.clone();
                calls.push(CallEvent::MessageStarted {
                    id: r.id,
                    model: r.model,
                });
            }
            "response.content_part.added" => {
                if let (Some(i), Some(part)) = (ev.output_index, exact(data, "part")) {
                    calls.response.part_added(i, part);
                }
            }
            "response.output_text.delta"
            | "response.refusal.delta"
            | "response.reasoning_summary_text.delta"
            | "response.reasoning_text.delta" => text_delta(calls, kind, &ev, data)?,
            "response.output_item.added" => item_added(calls, &ev, data)?,
            "response.function_call_arguments.delta"
            | "response.mcp_call_arguments.delta"
            | "response.custom_tool_call_input.delta" => {
                let n = locate(calls, ev.output_index, ev.item_id.as_deref())?;
                calls.append(n, ev.delta.unwrap_or_default());
            }
            "response.function_call_arguments.done"
            | "response.mcp_call_arguments.done"
            | "response.custom_tool_call_input.done" => {
                let n = locate(calls, ev.output_index, ev.item_id.as_deref())?;
                if let Some(text) = ev.arguments.or(ev.input) {
                    settle(calls, n, &text);
                }
                calls.end(n);
            }
            "response.output_item.done" => item_done(calls, ev, data)?,
            "response.completed" => {
                let r = Response::read(ev.response.as_ref());
                usage(calls, &r);
                calls.response.completed(exact(data, "response"));
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
            "response.incomplete" => incomplete(calls, &ev, data),
            "response.failed" => {
                let e = Response::read(ev.response.as_ref())
                    .error
                    .unwrap_or_default();
                calls.response.responses_envelope(exact(data, "response"));
                calls.finish_stream(StopReason::Error {
                    kind: e.code.or(e.kind).unwrap_or_else(|| "failed".to_owned()),
                    message: e.message.unwrap_or_default(),
                });
            }
            "error" => {
                // Flat (SDK type) or nested (recorded wire) fields.
                let nested = ev.error.unwrap_or_default();
                calls.finish_stream(StopReason::Error {
                    kind: ev
                        .code
                        .or(nested.code)
                        .or(nested.kind)
                        .unwrap_or_else(|| "error".to_owned()),
                    message: ev.message.or(nested.message).unwrap_or_default(),
                });
            }
            _ => {}
        }
        Ok(())
    }
}

/// The error for an event that lacks a member it needs.
#[cold]
fn missing(event: &str, member: &'static str, data: &str) -> StreamError {
    StreamError::Protocol(ProtocolViolation::MissingMember {
        event: event.to_owned(),
        member,
        excerpt: super::excerpt(data),
    })
}

/// Output text, refusal or reasoning text that the fast path left.
fn text_delta(
    calls: &mut Calls,
    kind: &str,
    ev: &Event<'_>,
    data: &str,
) -> Result<(), StreamError> {
    let at = ev
        .output_index
        .ok_or_else(|| missing(kind, "output_index", data))?;
    let text = ev.delta.as_deref().unwrap_or_default();
    let content_index = ev.content_index.unwrap_or_default();
    match kind {
        "response.output_text.delta" => {
            calls.response.part_append(at, content_index, "text", text);
            if !text.is_empty() {
                calls.push(CallEvent::TextAppended {
                    choice: 0,
                    block: at,
                    text: text.to_owned(),
                });
            }
        }
        "response.refusal.delta" => {
            calls
                .response
                .part_append(at, content_index, "refusal", text);
            if !text.is_empty() {
                calls.push(CallEvent::RefusalAppended {
                    choice: 0,
                    block: at,
                    text: text.to_owned(),
                });
            }
        }
        _ => {
            if !text.is_empty() {
                calls.push(CallEvent::ThinkingAppended {
                    choice: 0,
                    block: at,
                    text: text.to_owned(),
                });
            }
        }
    }
    Ok(())
}

/// `response.output_item.added`: the item is kept for the final message;
/// a call item starts a call, with any text it already holds.
fn item_added(calls: &mut Calls, ev: &Event<'_>, data: &str) -> Result<(), StreamError> {
    let missing = |member| missing("response.output_item.added", member, data);
    let output_index = ev.output_index.ok_or_else(|| missing("output_index"))?;
    let raw = ev.item.as_ref().ok_or_else(|| missing("item"))?;
    calls
        .response
        .item_added(output_index, exact(data, "item").unwrap_or_default());
    let item = Item::read(raw).ok_or_else(|| missing("item type"))?;
    let Some(kind) = kind_of(&item.kind) else {
        return Ok(());
    };
    let key = CallKey::Output(output_index);
    if calls.open(key).is_some() {
        return Err(StreamError::Protocol(ProtocolViolation::AlreadyOpen {
            event: "output_item.added",
            key,
        }));
    }
    // The call id is what a function_call_output must echo; mcp_call items
    // have only the item id.
    let id = item.call_id.or_else(|| item.id.clone());
    let n = calls.start(key, id, item.name, kind)?;
    if let Some(c) = calls.call_mut(n) {
        c.item_id = item.id;
    }
    // Some servers put the whole text in the added item.
    let text = item.arguments.or(item.input).unwrap_or_default();
    calls.append(n, text);
    Ok(())
}

/// `response.output_item.done`: the item is kept whole; a hosted tool's
/// item is reported; a call item settles its text and ends.
fn item_done(calls: &mut Calls, ev: Event<'_>, data: &str) -> Result<(), StreamError> {
    let missing = |member| missing("response.output_item.done", member, data);
    let output_index = ev.output_index.ok_or_else(|| missing("output_index"))?;
    let raw = ev.item.ok_or_else(|| missing("item"))?;
    calls
        .response
        .item_done(output_index, exact(data, "item").unwrap_or_default());
    let item = Item::read(&raw).ok_or_else(|| missing("item type"))?;
    if let Some(e) = done_event(&item.kind, output_index, raw) {
        calls.push(e);
    }
    if kind_of(&item.kind).is_none() {
        return Ok(());
    }
    if let Some(n) = calls.open(CallKey::Output(output_index)) {
        if let Some(text) = item.arguments.or(item.input) {
            settle(calls, n, &text);
        }
        calls.end(n);
    }
    Ok(())
}

/// The response's usage, when it has one.
fn usage(calls: &mut Calls, r: &Response) {
    if let Some(u) = r.usage.as_ref().and_then(Usage::from_json) {
        calls.response.usage = Some(u.clone());
        calls.push(CallEvent::UsageUpdated(u));
    }
}

/// `response.incomplete`: the open calls are cut, with the reason the
/// response gives (`max_output_tokens` when it gives none).
fn incomplete(calls: &mut Calls, ev: &Event<'_>, data: &str) {
    let r = Response::read(ev.response.as_ref());
    calls.response.responses_envelope(exact(data, "response"));
    usage(calls, &r);
    let reason = Some(r)
        .and_then(|r| r.incomplete_details)
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
        (Some(a), Some(b)) if a != b => {
            Err(StreamError::Protocol(ProtocolViolation::KeysDisagree {
                item_id: item_id.unwrap_or_default().to_owned(),
                output_index: output_index.unwrap_or_default(),
            }))
        }
        (Some(a), _) => Ok(a),
        (None, Some(b)) => Ok(b),
        (None, None) => Err(StreamError::Protocol(ProtocolViolation::DeltaWithoutCall {
            event: "arguments event",
            key: output_index.map(CallKey::Output),
            item_id: item_id.map(str::to_owned),
        })),
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
