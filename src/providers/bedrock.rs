//! AWS Bedrock `ConverseStream`: `application/vnd.amazon.eventstream`
//! binary frames ([`crate::eventstream`]), each with a `:message-type`
//! header, and an `:event-type` header naming the JSON payload:
//! `messageStart`, `contentBlockStart`, `contentBlockDelta`,
//! `contentBlockStop`, `messageStop`, `metadata`.
//!
//! * A tool call is keyed [`CallKey::Block`] by `contentBlockIndex`: it
//!   starts at `contentBlockStart{start: {toolUse: {toolUseId, name,
//!   type?}}}` (`type: "server_tool_use"` is a server call), its
//!   `contentBlockDelta{delta: {toolUse: {input}}}` JSON-text fragments are
//!   fed to the call's parser as they come, and `contentBlockStop` ends it.
//! * Text blocks have no start event (the first delta opens them):
//!   `delta.text` is [`CallEvent::TextAppended`]; `delta.reasoningContent`
//!   is [`CallEvent::ThinkingAppended`] (`text`),
//!   [`CallEvent::ThinkingSigned`] (`signature`) or
//!   [`CallEvent::RedactedThinking`] (`redactedContent`); a `toolResult`
//!   block (a server tool's result) is given whole at its stop as
//!   [`CallEvent::ServerToolResult`].
//! * `messageStop{stopReason}` comes before `metadata{usage, metrics}`;
//!   the response ends at `metadata` (or at the end of the input).
//!   `max_tokens` truncates open calls.
//! * Frames with `:message-type` `exception` (`:exception-type`, such as
//!   `throttlingException`) or `error` (`:error-code`, `:error-message`)
//!   end the response as [`StopReason::Error`](super::StopReason::Error),
//!   open calls aborted.
//! * The random-length `"p"` padding member of every payload, unknown
//!   members and unknown event types are ignored.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value as J;

use super::{
    CallEvent, CallKey, CallKind, CallStatus, Calls, ProtocolViolation, StopReason, StreamError,
    Usage,
};
use crate::eventstream::Frame;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload {
    #[serde(default)]
    content_block_index: Option<u64>,
    #[serde(default)]
    start: Option<J>,
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Option<J>,
    #[serde(default)]
    metrics: Option<J>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    message: Option<String>,
    /// Some exceptions spell it `Message`.
    #[serde(
        default,
        rename = "Message",
        deserialize_with = "super::lenient_string"
    )]
    message_upper: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Delta {
    #[serde(default, deserialize_with = "super::lenient_string")]
    text: Option<String>,
    #[serde(default)]
    tool_use: Option<ToolUseDelta>,
    #[serde(default)]
    reasoning_content: Option<Reasoning>,
    #[serde(default)]
    tool_result: Option<J>,
}

#[derive(Deserialize)]
struct ToolUseDelta {
    #[serde(default, deserialize_with = "super::lenient_string")]
    input: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reasoning {
    #[serde(default, deserialize_with = "super::lenient_string")]
    text: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    signature: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    redacted_content: Option<String>,
}

/// The stop reason of a `stopReason` word.
fn stop_of(word: &str) -> StopReason {
    match word {
        "guardrail_intervened" | "content_filtered" => StopReason::ContentFilter,
        other => StopReason::from_anthropic(other),
    }
}

fn usage_of(u: &J) -> Option<Usage> {
    let o = u.as_object()?;
    let n = |k: &str| o.get(k).and_then(J::as_u64);
    Some(Usage {
        input_tokens: n("inputTokens"),
        output_tokens: n("outputTokens"),
        reasoning_tokens: None,
        cache_creation_input_tokens: n("cacheWriteInputTokens"),
        cache_read_input_tokens: n("cacheReadInputTokens"),
    })
}

/// Adapter state for one Bedrock response.
#[derive(Debug, Default)]
pub(crate) struct State {
    stop: Option<String>,
    /// `toolResult` blocks being gathered, by block index: the start, then
    /// each delta's content.
    results: BTreeMap<u64, J>,
}

/// The event types this adapter reads; any other is skipped unread.
const HANDLED: &[&str] = &[
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
];

impl State {
    /// Handles one checked frame: an exception ends the response, an event
    /// is read and dispatched on its `:event-type`.
    pub(crate) fn handle(
        &mut self,
        calls: &mut Calls,
        frame: Frame<'_>,
    ) -> Result<(), StreamError> {
        match frame.header_str(":message-type") {
            Some("event") => {}
            Some("exception") | Some("error") => {
                exception(calls, &frame);
                return Ok(());
            }
            _ => return Ok(()), // another message type: nothing of the response
        }
        let Some(event) = frame.header_str(":event-type") else {
            calls.malformed(format!(
                "an event frame without :event-type at byte {}",
                frame.offset()
            ));
            return Ok(());
        };
        if !HANDLED.contains(&event) {
            return Ok(());
        }
        let Some(p) = payload(calls, event, &frame) else {
            return Ok(());
        };
        let index = || {
            p.content_block_index.ok_or_else(|| {
                StreamError::Protocol(ProtocolViolation::MissingFrameMember {
                    event: event.to_owned(),
                    member: "contentBlockIndex",
                    offset: frame.offset(),
                })
            })
        };
        match event {
            "messageStart" => {
                calls.push(CallEvent::MessageStarted {
                    id: None,
                    model: None,
                });
            }
            "contentBlockStart" => {
                let index = index()?;
                self.block_start(calls, index, p.start.unwrap_or_default())?;
            }
            "contentBlockDelta" => {
                let index = index()?;
                let delta = p.delta.ok_or_else(|| {
                    StreamError::Protocol(ProtocolViolation::MissingFrameMember {
                        event: event.to_owned(),
                        member: "delta",
                        offset: frame.offset(),
                    })
                })?;
                self.block_delta(calls, index, delta)?;
            }
            "contentBlockStop" => {
                let index = index()?;
                if let Some(n) = calls.open(CallKey::Block(index)) {
                    calls.end(n);
                }
                if let Some(result) = self.results.remove(&index) {
                    let block = serde_json::json!({ "toolResult": result });
                    calls.response.bedrock.whole(index, block.clone());
                    calls.push(CallEvent::ServerToolResult { at: index, block });
                }
            }
            "messageStop" => {
                let word = p.stop_reason.unwrap_or_default();
                calls.response.bedrock.stop(&word);
                if stop_of(&word) == StopReason::MaxTokens {
                    calls.cut_open(CallStatus::Truncated, &StopReason::MaxTokens);
                }
                self.stop = Some(word);
            }
            "metadata" => {
                calls
                    .response
                    .bedrock
                    .metadata(p.usage.as_ref(), p.metrics.as_ref());
                if let Some(u) = p.usage.as_ref().and_then(usage_of) {
                    calls.response.usage = Some(u.clone());
                    calls.push(CallEvent::UsageUpdated(u));
                }
                if self.stop.is_some() {
                    let stop = self.end_of_input(calls);
                    calls.finish_stream(stop);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `contentBlockStart`: a `toolUse` starts a call, a `toolResult` is
    /// gathered until its stop.
    fn block_start(&mut self, calls: &mut Calls, index: u64, start: J) -> Result<(), StreamError> {
        if let Some(tool) = start.get("toolUse") {
            let s = |k: &str| tool.get(k).and_then(J::as_str).map(str::to_owned);
            let kind = match s("type").as_deref() {
                Some("server_tool_use") => CallKind::Server,
                _ => CallKind::Client,
            };
            let key = CallKey::Block(index);
            if calls.open(key).is_some() {
                return Err(StreamError::Protocol(ProtocolViolation::AlreadyOpen {
                    event: "contentBlockStart",
                    key,
                }));
            }
            let n = calls.start(key, s("toolUseId"), s("name"), kind)?;
            let members = tool.as_object().cloned().unwrap_or_default();
            calls.response.bedrock.tool(index, members, n);
        } else if let Some(result) = start.get("toolResult") {
            let mut block = result.clone();
            if let Some(o) = block.as_object_mut() {
                o.insert("content".into(), J::Array(Vec::new()));
            }
            self.results.insert(index, block);
        }
        Ok(())
    }

    /// `contentBlockDelta`: text, reasoning, a tool result's content, or
    /// argument text for an open tool block.
    fn block_delta(
        &mut self,
        calls: &mut Calls,
        index: u64,
        delta: Delta,
    ) -> Result<(), StreamError> {
        if let Some(text) = delta.text.filter(|t| !t.is_empty()) {
            calls.response.bedrock.text(index, &text);
            calls.push(CallEvent::TextAppended {
                choice: 0,
                block: index,
                text,
            });
        }
        if let Some(r) = delta.reasoning_content {
            reasoning(calls, index, r);
        }
        if let Some(content) = delta.tool_result {
            let block = self
                .results
                .entry(index)
                .or_insert_with(|| serde_json::json!({"content": []}));
            if let Some(J::Array(all)) = block.get_mut("content") {
                match content {
                    J::Array(items) => all.extend(items),
                    other => all.push(other),
                }
            }
        }
        if let Some(tool) = delta.tool_use {
            let Some(n) = calls.open(CallKey::Block(index)) else {
                return Err(StreamError::Protocol(ProtocolViolation::DeltaWithoutCall {
                    event: "toolUse delta",
                    key: Some(CallKey::Block(index)),
                    item_id: None,
                }));
            };
            calls.append(n, tool.input.unwrap_or_default());
        }
        Ok(())
    }

    /// The stop reason at the end of the input: `messageStop`'s, else the
    /// stream ended early.
    pub(crate) fn end_of_input(&mut self, _calls: &mut Calls) -> StopReason {
        match &self.stop {
            Some(word) => stop_of(word),
            None => StopReason::EndOfStream,
        }
    }
}

/// An exception or error frame: the response ends with the provider's
/// error, its kind from the headers, its message from a header or the
/// payload.
fn exception(calls: &mut Calls, frame: &Frame<'_>) {
    let kind = frame
        .header_str(":exception-type")
        .or_else(|| frame.header_str(":error-code"))
        .unwrap_or("exception")
        .to_owned();
    let from_payload = std::str::from_utf8(frame.payload())
        .ok()
        .and_then(|p| serde_json::from_str::<Payload>(p).ok())
        .and_then(|p| p.message.or(p.message_upper));
    let message = frame
        .header_str(":error-message")
        .map(str::to_owned)
        .or(from_payload)
        .unwrap_or_default();
    calls.finish_stream(StopReason::Error { kind, message });
}

/// An event frame's payload, decoded; one that is not UTF-8 or not the
/// expected JSON is reported malformed and skipped.
fn payload(calls: &mut Calls, event: &str, frame: &Frame<'_>) -> Option<Payload> {
    let payload = std::str::from_utf8(frame.payload());
    match payload.map(serde_json::from_str) {
        Ok(Ok(p)) => Some(p),
        Ok(Err(e)) => {
            calls.malformed(format!(
                "{event} at byte {}: {e}: {}",
                frame.offset(),
                super::excerpt(payload.unwrap_or_default())
            ));
            None
        }
        Err(_) => {
            calls.malformed(format!(
                "{event} at byte {}: payload is not UTF-8",
                frame.offset()
            ));
            None
        }
    }
}

/// A `reasoningContent` delta: thinking text, its signature, or redacted
/// thinking.
fn reasoning(calls: &mut Calls, index: u64, r: Reasoning) {
    calls.response.bedrock.reasoning(
        index,
        r.text.as_deref(),
        r.signature.as_deref(),
        r.redacted_content.as_deref(),
    );
    if let Some(text) = r.text.filter(|t| !t.is_empty()) {
        calls.push(CallEvent::ThinkingAppended {
            choice: 0,
            block: index,
            text,
        });
    }
    if let Some(signature) = r.signature {
        calls.push(CallEvent::ThinkingSigned {
            at: index,
            signature,
        });
    }
    if let Some(data) = r.redacted_content {
        calls.push(CallEvent::RedactedThinking { at: index, data });
    }
}
