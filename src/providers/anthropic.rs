//! Anthropic Messages streaming: `message_start`, `content_block_start` /
//! `_delta` / `_stop`, `message_delta`, `message_stop`, `ping`, `error`.
//! Tool-ish blocks (`tool_use`, `server_tool_use`, `mcp_tool_use`) stream
//! their input as `input_json_delta.partial_json` text. Every block, of any
//! type, is kept in the final message as it started, with its deltas
//! applied (`text`, `thinking`, `signature`, `citations`, and the beta
//! `compaction_delta`, whose `content` / `encrypted_content` replace the
//! block's); a block of a type with no event of its own (`compaction`,
//! `container_upload`, new beta blocks) is [`CallEvent::OtherContent`] at
//! its `content_block_stop`. Unknown delta types are ignored.

use std::borrow::Cow;

use serde::Deserialize;

use super::fast::{self, AnthropicKind};
use super::{
    CallEvent, CallKey, CallKind, CallStatus, Calls, ProtocolViolation, StopReason, StreamError,
    Usage, read_event,
};
use crate::value::Value;

/// One event, flat: every member the handled events use, all optional, so
/// serde reads it in one pass with no buffering; dispatched on `type`.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    // Boxed: the event is moved by value, and deltas, the bulk of a
    // stream, have none of these.
    // The text as sent, read by the crate's parser (`exact`): members in
    // order and numbers as written, where serde_json would sort the one and
    // round the other through `f64`.
    #[serde(default)]
    content_block: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    message: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    usage: Option<Box<serde_json::Value>>,
    #[serde(default)]
    error: Option<ApiError>,
}

impl super::Typed for Event<'_> {
    fn kind(&self) -> Option<&str> {
        self.kind.as_deref()
    }
}

struct Block {
    kind: String,
    id: Option<String>,
    name: Option<String>,
    input: Option<Value>,
}

impl Block {
    fn read(v: &Value) -> Option<Block> {
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(Block {
            kind: text("type")?,
            id: text("id"),
            name: text("name"),
            input: v.get("input").cloned(),
        })
    }
}

/// A member the event holds as text, read as a [`Value`] (a text serde_json
/// accepted that the strict parser refuses, as a lone surrogate: `null`).
fn exact(raw: &serde_json::value::RawValue) -> Value {
    crate::from_str(raw.get()).unwrap_or_default()
}

/// A `content_block_delta` delta or a `message_delta` delta.
#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    partial_json: Option<Cow<'a, str>>,
    /// `text_delta.text` or `thinking_delta.thinking` (one field: the
    /// delta is moved by value, so it stays small).
    #[serde(borrow, default, alias = "thinking")]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    signature: Option<Box<str>>,
    #[serde(default)]
    citation: Option<Box<serde_json::Value>>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    stop_reason: Option<String>,
    #[serde(default)]
    stop_sequence: Option<Box<serde_json::Value>>,
    #[serde(default)]
    stop_details: Option<Box<serde_json::Value>>,
    #[serde(default)]
    container: Option<Box<serde_json::Value>>,
    /// `compaction_delta` (beta): the summary and its encrypted form.
    #[serde(default)]
    content: Option<Box<serde_json::Value>>,
    #[serde(default)]
    encrypted_content: Option<Box<serde_json::Value>>,
}

impl Delta<'_> {
    /// The `message_delta` members the final message keeps.
    fn message_members(&self) -> serde_json::Value {
        let mut o = serde_json::Map::new();
        let opt = |v: &Option<Box<serde_json::Value>>| {
            v.as_deref().cloned().unwrap_or(serde_json::Value::Null)
        };
        o.insert(
            "stop_reason".into(),
            self.stop_reason
                .clone()
                .map_or(serde_json::Value::Null, Into::into),
        );
        o.insert("stop_sequence".into(), opt(&self.stop_sequence));
        o.insert("stop_details".into(), opt(&self.stop_details));
        o.insert("container".into(), opt(&self.container));
        serde_json::Value::Object(o)
    }
}

#[derive(Deserialize, Default)]
struct ApiError {
    #[serde(rename = "type", default, deserialize_with = "super::lenient_string")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    message: Option<String>,
}

/// The event types this adapter reads; any other is ignored, even when its
/// JSON does not fit the flat shape.
const HANDLED: &[&str] = &[
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "error",
];

fn kind_of(block_type: &str) -> Option<CallKind> {
    match block_type {
        "tool_use" => Some(CallKind::Client),
        "server_tool_use" => Some(CallKind::Server),
        "mcp_tool_use" => Some(CallKind::Mcp),
        _ => None,
    }
}

/// Whether a block's type has its own events (text, thinking, calls,
/// server tool results); any other block is given whole at its stop.
fn reported_elsewhere(block: &serde_json::Value) -> bool {
    let kind = block
        .get("type")
        .and_then(|t| t.as_str())
        .unwrap_or_default();
    matches!(kind, "text" | "thinking" | "redacted_thinking")
        || kind_of(kind).is_some()
        || kind.ends_with("_tool_result")
}

/// The stop reason of a `stop_reason` word; a full context window cuts calls
/// as `max_tokens` does.
fn stop_of(word: &str) -> StopReason {
    match word {
        "model_context_window_exceeded" => StopReason::MaxTokens,
        other => StopReason::from_anthropic(other),
    }
}

/// Adapter state for one Anthropic response.
#[derive(Debug, Default)]
pub(crate) struct State {
    message_id: Option<String>,
    started: bool,
    stop: Option<String>,
    /// Blocks seen so far (for calls keyed in `message_start` content).
    prefilled: u64,
    /// Escaped delta text decoded on the fast path.
    scratch: String,
}

/// A text or thinking delta of block `index` (an argument delta is
/// [`Calls::append`]ed).
fn block_text(calls: &mut Calls, index: u64, kind: AnthropicKind, text: &str) {
    let (member, event): (_, fn(u64, u64, String) -> CallEvent) = match kind {
        AnthropicKind::Thinking => ("thinking", |choice, block, text| {
            CallEvent::ThinkingAppended {
                choice,
                block,
                text,
            }
        }),
        _ => ("text", |choice, block, text| CallEvent::TextAppended {
            choice,
            block,
            text,
        }),
    };
    calls.response.block_append(index, member, member, text);
    if !text.is_empty() {
        calls.push(event(0, index, text.to_owned()));
    }
}

/// The fast path (`fast.rs`): whether the event was a delta it read. An
/// argument delta for a block that is not open is left to the full reader,
/// which reports it.
fn fast_delta(calls: &mut Calls, data: &str, scratch: &mut String) -> bool {
    let Some(d) = fast::anthropic(data, scratch) else {
        return false;
    };
    match d.kind {
        AnthropicKind::InputJson => {
            let Some(n) = calls.open(CallKey::Block(d.index)) else {
                return false;
            };
            calls.append(n, d.payload.into_text(data, scratch));
        }
        kind => block_text(calls, d.index, kind, d.payload.text(data, scratch)),
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
        let Some(ev) = read_event::<Event<'_>>(calls, event, data, HANDLED) else {
            return Ok(());
        };
        match ev.kind.as_deref().or(event).unwrap_or_default() {
            "message_start" => self.message_start(calls, ev)?,
            "content_block_start" => block_start(calls, ev, data)?,
            "content_block_delta" => block_delta(calls, ev, data)?,
            "content_block_stop" => {
                let index = ev
                    .index
                    .ok_or_else(|| missing("content_block_stop", "index", data))?;
                if let Some(n) = calls.open(CallKey::Block(index)) {
                    calls.end(n);
                } else if let Some(block) = calls.response.block(index)
                    && !reported_elsewhere(&block)
                {
                    calls.push(CallEvent::OtherContent { at: index, block });
                }
            }
            "message_delta" => self.message_delta(calls, ev),
            "message_stop" => {
                let stop = match &self.stop {
                    Some(r) => stop_of(r),
                    None if calls.has_calls_of(CallKind::Client) => StopReason::ToolUse,
                    None => StopReason::EndTurn,
                };
                calls.finish_stream(stop);
            }
            "error" => {
                let error = ev.error.unwrap_or_default();
                calls.finish_stream(StopReason::Error {
                    kind: error.kind.unwrap_or_else(|| "error".to_owned()),
                    message: error.message.unwrap_or_default(),
                });
            }
            _ => {} // ping and anything new
        }
        Ok(())
    }

    /// `message_start`: the message's id, model, usage and any complete
    /// calls it already holds. A repeat with the same id is skipped.
    fn message_start(&mut self, calls: &mut Calls, ev: Event<'_>) -> Result<(), StreamError> {
        let message = ev.message.map(|m| exact(&m)).unwrap_or_default();
        let id = message
            .get("id")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        if self.started {
            if id.is_some() && id == self.message_id {
                return Ok(()); // an exact duplicate
            }
            return Err(StreamError::Protocol(ProtocolViolation::SecondMessage {
                id,
                open: self.message_id.clone(),
            }));
        }
        self.started = true;
        self.message_id = id.clone();
        if let Some(r) = message.get("stop_reason").and_then(|v| v.as_str()) {
            self.stop = Some(r.to_owned());
        }
        let model = message
            .get("model")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        calls.push(CallEvent::MessageStarted { id, model });
        let usage = message.get("usage").and_then(Usage::from_json);
        let blocks: Vec<Block> = message
            .get("content")
            .and_then(|c| c.as_array())
            .map(|a| a.iter().filter_map(Block::read).collect())
            .unwrap_or_default();
        calls.response.anthropic_start(message);
        if let Some(u) = usage {
            calls.push(CallEvent::UsageUpdated(u));
        }
        // Complete tool calls inside message_start (programmatic tool
        // calling): start, feed the input as text, end.
        for block in blocks {
            let key = CallKey::Block(self.prefilled);
            self.prefilled += 1;
            let Some(kind) = kind_of(&block.kind) else {
                continue;
            };
            let n = calls.start(key, block.id, block.name, kind)?;
            let input = block.input.unwrap_or(Value::Object(Default::default()));
            calls.append(n, input.to_string());
            calls.end(n);
        }
        Ok(())
    }

    /// `message_delta`: the final message's members, usage, and the stop
    /// reason (`max_tokens` cuts the open calls).
    fn message_delta(&mut self, calls: &mut Calls, ev: Event<'_>) {
        let members = ev.delta.as_ref().map(Delta::message_members);
        calls
            .response
            .anthropic_delta(members.as_ref(), ev.usage.as_deref());
        if ev.usage.is_some()
            && let Some(u) = calls.response.usage.clone()
        {
            calls.push(CallEvent::UsageUpdated(u));
        }
        if let Some(r) = ev.delta.and_then(|d| d.stop_reason) {
            let reason = stop_of(&r);
            if reason == StopReason::MaxTokens {
                calls.cut_open(CallStatus::Truncated, &reason);
            }
            self.stop = Some(r);
        }
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

/// `content_block_start`: the block is kept for the final message; a
/// redacted thinking block or a server tool's result is reported whole; a
/// tool block starts a call.
fn block_start(calls: &mut Calls, ev: Event<'_>, data: &str) -> Result<(), StreamError> {
    let missing = |member| missing("content_block_start", member, data);
    let index = ev.index.ok_or_else(|| missing("index"))?;
    let raw = exact(&ev.content_block.ok_or_else(|| missing("content_block"))?);
    let block = Block::read(&raw).ok_or_else(|| missing("content_block type"))?;
    let kind = kind_of(&block.kind);
    match block.kind.as_str() {
        "redacted_thinking" => {
            let data = raw.get("data").and_then(|d| d.as_str()).unwrap_or_default();
            calls.push(CallEvent::RedactedThinking {
                at: index,
                data: data.to_owned(),
            });
        }
        k if k.ends_with("_tool_result") => {
            calls.push(CallEvent::ServerToolResult {
                at: index,
                block: raw.to_serde_json().unwrap_or_default(),
            });
        }
        _ => {}
    }
    calls.response.block_start(index, raw);
    let Some(kind) = kind else {
        return Ok(()); // text, thinking, *_tool_result, ...
    };
    let key = CallKey::Block(index);
    if calls.open(key).is_some() {
        return Err(StreamError::Protocol(ProtocolViolation::AlreadyOpen {
            event: "content_block_start",
            key,
        }));
    }
    let n = calls.start(key, block.id, block.name, kind)?;
    if let Some(c) = calls.call_mut(n) {
        c.placeholder = block.input;
    }
    Ok(())
}

/// `content_block_delta` that the fast path left: argument text for an open
/// tool block, text, thinking, a signature, citations, a compaction.
fn block_delta(calls: &mut Calls, ev: Event<'_>, data: &str) -> Result<(), StreamError> {
    let missing = |member| missing("content_block_delta", member, data);
    let index = ev.index.ok_or_else(|| missing("index"))?;
    let delta = ev.delta.ok_or_else(|| missing("delta"))?;
    match delta.kind.as_deref() {
        Some("input_json_delta") => {
            let Some(n) = calls.open(CallKey::Block(index)) else {
                return Err(StreamError::Protocol(ProtocolViolation::DeltaWithoutCall {
                    event: "input_json_delta",
                    key: Some(CallKey::Block(index)),
                    item_id: None,
                }));
            };
            if let Some(text) = delta.partial_json {
                calls.append(n, text);
            }
        }
        Some("text_delta") => {
            let text = delta.text.unwrap_or_default();
            block_text(calls, index, AnthropicKind::Text, &text);
        }
        Some("thinking_delta") => {
            let text = delta.text.unwrap_or_default();
            block_text(calls, index, AnthropicKind::Thinking, &text);
        }
        Some("signature_delta") => {
            let signature = delta.signature.map(String::from).unwrap_or_default();
            calls
                .response
                .block_set(index, "signature", Value::from(signature.clone()));
            calls.push(CallEvent::ThinkingSigned {
                at: index,
                signature,
            });
        }
        Some("compaction_delta") => {
            // The SDKs' beta accumulators replace the members.
            for (key, v) in [
                ("content", delta.content),
                ("encrypted_content", delta.encrypted_content),
            ] {
                if let Some(v) = v {
                    calls.response.block_set(index, key, *v);
                }
            }
        }
        Some("citations_delta") => {
            if let Some(c) = delta.citation {
                calls.response.block_cite(index, *c);
            }
        }
        _ => {}
    }
    Ok(())
}
