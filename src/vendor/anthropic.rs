//! Anthropic Messages streaming: `message_start`, `content_block_start` /
//! `_delta` / `_stop`, `message_delta`, `message_stop`, `ping`, `error`.
//! Tool-ish blocks (`tool_use`, `server_tool_use`, `mcp_tool_use`) stream
//! their input as `input_json_delta.partial_json` text.

use std::borrow::Cow;

use serde::Deserialize;

use super::{CallKey, CallKind, CallStatus, Calls, StopReason, StreamError, read_event};
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
    #[serde(default)]
    content_block: Option<Block>,
    #[serde(default)]
    message: Option<Message>,
    #[serde(default)]
    error: Option<ApiError>,
}

impl super::Typed for Event<'_> {
    fn kind(&self) -> Option<&str> {
        self.kind.as_deref()
    }
}

#[derive(Deserialize, Default)]
struct Message {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    content: Vec<Block>,
    #[serde(default)]
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    input: Option<serde_json::Value>,
}

/// A `content_block_delta` delta or a `message_delta` delta.
#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    stop_reason: Option<String>,
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

/// Adapter state for one Anthropic response.
#[derive(Debug, Default)]
pub(crate) struct State {
    message_id: Option<String>,
    started: bool,
    stop: Option<String>,
    /// Blocks seen so far (for calls keyed in `message_start` content).
    prefilled: u64,
}

impl State {
    pub(crate) fn handle(
        &mut self,
        calls: &mut Calls,
        event: Option<&str>,
        data: &str,
    ) -> Result<(), StreamError> {
        let Some(ev) = read_event::<Event<'_>>(calls, event, data, HANDLED) else {
            return Ok(());
        };
        let kind = ev.kind.as_deref().or(event).unwrap_or_default();
        let missing = |what: &str| {
            StreamError::Protocol(format!("{kind} without {what}: {}", super::excerpt(data)))
        };
        match kind {
            "message_start" => {
                let message = ev.message.unwrap_or_default();
                if self.started {
                    if message.id.is_some() && message.id == self.message_id {
                        return Ok(()); // an exact duplicate
                    }
                    return Err(StreamError::Protocol(format!(
                        "a second message_start ({}) while message {} is open",
                        message.id.as_deref().unwrap_or("without id"),
                        self.message_id.as_deref().unwrap_or("without id"),
                    )));
                }
                self.started = true;
                self.message_id = message.id;
                if message.stop_reason.is_some() {
                    self.stop = message.stop_reason;
                }
                // Complete tool calls inside message_start (programmatic
                // tool calling): start, feed the input as text, end.
                for block in message.content {
                    let key = CallKey::Block(self.prefilled);
                    self.prefilled += 1;
                    let Some(kind) = kind_of(&block.kind) else {
                        continue;
                    };
                    let n = calls.start(key, block.id, block.name, kind)?;
                    let input = block
                        .input
                        .map(Value::from)
                        .unwrap_or(Value::Object(Default::default()));
                    calls.append(n, &input.to_string());
                    calls.end(n);
                }
            }
            "content_block_start" => {
                let index = ev.index.ok_or_else(|| missing("index"))?;
                let block = ev.content_block.ok_or_else(|| missing("content_block"))?;
                let Some(kind) = kind_of(&block.kind) else {
                    return Ok(()); // text, thinking, *_tool_result, ...
                };
                let key = CallKey::Block(index);
                if calls.open(key).is_some() {
                    return Err(StreamError::Protocol(format!(
                        "content_block_start for block {index}, which is still open"
                    )));
                }
                let n = calls.start(key, block.id, block.name, kind)?;
                if let Some(c) = calls.call_mut(n) {
                    c.placeholder = block.input.map(Value::from);
                }
            }
            "content_block_delta" => {
                let index = ev.index.ok_or_else(|| missing("index"))?;
                let delta = ev.delta.ok_or_else(|| missing("delta"))?;
                if delta.kind.as_deref() != Some("input_json_delta") {
                    return Ok(());
                }
                let Some(n) = calls.open(CallKey::Block(index)) else {
                    return Err(StreamError::Protocol(format!(
                        "input_json_delta for block {index}, which is not an open tool block"
                    )));
                };
                if let Some(text) = delta.partial_json {
                    calls.append(n, &text);
                }
            }
            "content_block_stop" => {
                let index = ev.index.ok_or_else(|| missing("index"))?;
                if let Some(n) = calls.open(CallKey::Block(index)) {
                    calls.end(n);
                }
            }
            "message_delta" => {
                if let Some(r) = ev.delta.and_then(|d| d.stop_reason) {
                    let reason = StopReason::from_anthropic(&r);
                    if reason == StopReason::MaxTokens {
                        calls.cut_open(CallStatus::Truncated, &reason);
                    }
                    self.stop = Some(r);
                }
            }
            "message_stop" => {
                let stop = match &self.stop {
                    Some(r) => StopReason::from_anthropic(r),
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
}
