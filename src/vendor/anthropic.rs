//! Anthropic Messages streaming: `message_start`, `content_block_start` /
//! `_delta` / `_stop`, `message_delta`, `message_stop`, `ping`, `error`.
//! Tool-ish blocks (`tool_use`, `server_tool_use`, `mcp_tool_use`) stream
//! their input as `input_json_delta.partial_json` text.

use serde::Deserialize;

use super::{CallKey, CallKind, CallStatus, Calls, StopReason, StreamError, decode_typed};
use crate::value::Value;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event {
    MessageStart {
        #[serde(default)]
        message: Message,
    },
    ContentBlockStart {
        index: u64,
        content_block: Block,
    },
    ContentBlockDelta {
        index: u64,
        delta: Delta,
    },
    ContentBlockStop {
        index: u64,
    },
    MessageDelta {
        #[serde(default)]
        delta: MessageDelta,
    },
    MessageStop,
    Error {
        #[serde(default)]
        error: ApiError,
    },
    #[serde(other)]
    Other,
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

#[derive(Deserialize)]
struct Delta {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    partial_json: Option<String>,
}

#[derive(Deserialize, Default)]
struct MessageDelta {
    #[serde(default)]
    stop_reason: Option<String>,
}

#[derive(Deserialize, Default)]
struct ApiError {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

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
        let ev: Event = match decode_typed(event, data) {
            Ok(ev) => ev,
            Err(m) => {
                calls.malformed(m);
                return Ok(());
            }
        };
        match ev {
            Event::MessageStart { message } => {
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
            Event::ContentBlockStart {
                index,
                content_block,
            } => {
                let Some(kind) = kind_of(&content_block.kind) else {
                    return Ok(()); // text, thinking, *_tool_result, ...
                };
                let key = CallKey::Block(index);
                if calls.open(key).is_some() {
                    return Err(StreamError::Protocol(format!(
                        "content_block_start for block {index}, which is still open"
                    )));
                }
                let n = calls.start(key, content_block.id, content_block.name, kind)?;
                if let Some(c) = calls.call_mut(n) {
                    c.placeholder = content_block.input.map(Value::from);
                }
            }
            Event::ContentBlockDelta { index, delta } => {
                if delta.kind != "input_json_delta" {
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
            Event::ContentBlockStop { index } => {
                if let Some(n) = calls.open(CallKey::Block(index)) {
                    calls.end(n);
                }
            }
            Event::MessageDelta { delta } => {
                if let Some(r) = delta.stop_reason {
                    let reason = StopReason::from_anthropic(&r);
                    if reason == StopReason::MaxTokens {
                        calls.cut_open(CallStatus::Truncated, &reason);
                    }
                    self.stop = Some(r);
                }
            }
            Event::MessageStop => {
                let stop = match &self.stop {
                    Some(r) => StopReason::from_anthropic(r),
                    None if calls.has_calls_of(CallKind::Client) => StopReason::ToolUse,
                    None => StopReason::EndTurn,
                };
                calls.finish_stream(stop);
            }
            Event::Error { error } => {
                calls.finish_stream(StopReason::Error {
                    kind: error.kind.unwrap_or_else(|| "error".to_owned()),
                    message: error.message.unwrap_or_default(),
                });
            }
            Event::Other => {}
        }
        Ok(())
    }
}
