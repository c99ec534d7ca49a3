//! OpenAI Chat Completions streaming: `chat.completion.chunk` objects with
//! `choices[].delta.tool_calls[]` keyed by `(choice, index)`, id and name in
//! the first delta, `finish_reason` per choice, usage-only chunks, `[DONE]`,
//! and `{"error": ...}` chunks. Reasoning text that OpenAI-compatible
//! servers add (`delta.reasoning_content`: DeepSeek, vLLM; `delta.reasoning`:
//! OpenRouter, newer vLLM) is [`CallEvent::ThinkingAppended`] and kept in the
//! final message under the member it came in.

use serde::Deserialize;

use super::fast::{self, ChatKind};
use super::{
    CallEvent, CallKey, CallKind, CallStatus, Calls, ProtocolViolation, StopReason, StreamError,
    Usage,
};

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    usage: Option<Box<serde_json::Value>>,
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    index: u64,
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(default, deserialize_with = "super::lenient_string")]
    role: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    content: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    refusal: Option<String>,
    /// DeepSeek / vLLM reasoning text.
    #[serde(default, deserialize_with = "super::lenient_string")]
    reasoning_content: Option<String>,
    /// The same under the name OpenRouter and newer vLLM use.
    #[serde(default, deserialize_with = "super::lenient_string")]
    reasoning: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolCallDelta>>,
    /// The deprecated single-function form.
    #[serde(default)]
    function_call: Option<Function>,
}

#[derive(Deserialize)]
struct ToolCallDelta {
    #[serde(default)]
    index: i64,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<Function>,
}

#[derive(Deserialize)]
struct Function {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}

/// Adapter state for one Chat Completions response.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// `finish_reason` per choice, in the order they came.
    finished: Vec<(u64, String)>,
    started: bool,
    /// Escaped delta text decoded on the fast path.
    scratch: String,
    /// The fast path's bytes before `choices` of the last chunk it read.
    known: Vec<u8>,
}

fn stop_of(reason: &str) -> StopReason {
    match reason {
        "stop" => StopReason::EndTurn,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "length" => StopReason::MaxTokens,
        "content_filter" => StopReason::ContentFilter,
        other => StopReason::Other(other.to_owned()),
    }
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.is_empty())
}

impl State {
    pub(crate) fn handle(&mut self, calls: &mut Calls, data: &str) -> Result<(), StreamError> {
        let chunk: Chunk = match serde_json::from_str(data) {
            Ok(c) => c,
            Err(e) => {
                calls.malformed(format!("{e}: {}", super::excerpt(data)));
                return Ok(());
            }
        };
        if let Some(err) = chunk.error.filter(|e| !e.is_null()) {
            let field = |k: &str| err.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            calls.finish_stream(StopReason::Error {
                kind: field("type")
                    .or_else(|| field("code"))
                    .unwrap_or_else(|| "error".to_owned()),
                message: field("message").unwrap_or_else(|| err.to_string()),
            });
            return Ok(());
        }
        if !self.started {
            // Every chunk repeats them: read once, from the first.
            #[derive(Deserialize)]
            struct Names {
                #[serde(default, deserialize_with = "super::lenient_string")]
                id: Option<String>,
                #[serde(default, deserialize_with = "super::lenient_string")]
                model: Option<String>,
            }
            if let Ok(n) = serde_json::from_str::<Names>(data)
                && (n.id.is_some() || n.model.is_some())
            {
                self.started = true;
                calls.response.id = n.id.clone();
                calls.response.model = n.model.clone();
                calls.push(CallEvent::MessageStarted {
                    id: n.id,
                    model: n.model,
                });
            }
        }
        if let Some(u) = chunk.usage.as_deref().and_then(Usage::from_json) {
            calls.response.usage = Some(u.clone());
            calls.push(CallEvent::UsageUpdated(u));
        }
        for choice in chunk.choices.unwrap_or_default() {
            let c = choice.index;
            if let Some(delta) = choice.delta {
                if delta.role.is_some() || delta.content.is_some() || delta.refusal.is_some() {
                    calls.response.chat_delta(
                        c,
                        delta.role.as_deref(),
                        delta.content.as_deref(),
                        delta.refusal.as_deref(),
                    );
                }
                let reasoning = match (delta.reasoning_content, delta.reasoning) {
                    (Some(t), _) => Some(("reasoning_content", t)),
                    (None, Some(t)) => Some(("reasoning", t)),
                    (None, None) => None,
                };
                if let Some((key, text)) = reasoning.filter(|(_, t)| !t.is_empty()) {
                    calls.response.chat_reasoning(c, key, &text);
                    calls.push(CallEvent::ThinkingAppended {
                        choice: c,
                        block: 0,
                        text,
                    });
                }
                if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                    calls.push(CallEvent::TextAppended {
                        choice: c,
                        block: 0,
                        text,
                    });
                }
                if let Some(text) = delta.refusal.filter(|t| !t.is_empty()) {
                    calls.push(CallEvent::RefusalAppended {
                        choice: c,
                        block: 0,
                        text,
                    });
                }
                let legacy = delta.function_call.map(|f| ToolCallDelta {
                    index: 0,
                    id: None,
                    function: Some(f),
                });
                for tc in delta.tool_calls.into_iter().flatten().chain(legacy) {
                    self.tool_delta(calls, c, tc)?;
                }
            }
            if let Some(reason) = choice.finish_reason {
                calls.response.chat_finish(c, &reason);
                let stop = stop_of(&reason);
                let mine =
                    |k: &CallKey| matches!(k, CallKey::Choice { choice, .. } if *choice == c);
                match stop {
                    StopReason::MaxTokens => {
                        cut_choice(calls, c, CallStatus::Truncated, &stop);
                    }
                    StopReason::ContentFilter => {
                        cut_choice(calls, c, CallStatus::Aborted, &stop);
                    }
                    _ => calls.end_open(mine),
                }
                self.finished.push((c, reason));
            }
        }
        Ok(())
    }

    /// The fast path (`fast.rs`), once the first chunk was read: whether
    /// the chunk was a delta it read; `false` leaves it to
    /// [`handle`](Self::handle). Arguments for a call that is not open are
    /// left to the full reader.
    pub(crate) fn fast_delta(&mut self, calls: &mut Calls, data: &str) -> bool {
        if !self.started {
            return false;
        }
        let Some(d) = fast::chat(data, &mut self.scratch, &mut self.known) else {
            return false;
        };
        let c = d.choice;
        match d.kind {
            ChatKind::Arguments { index } => {
                let Some(n) = calls.open(CallKey::Choice { choice: c, index }) else {
                    return false;
                };
                calls.append(n, d.payload.into_text(data, &mut self.scratch));
            }
            ChatKind::Content => {
                let text = d.payload.text(data, &self.scratch);
                calls.response.chat_delta(c, None, Some(text), None);
                if !text.is_empty() {
                    calls.push(CallEvent::TextAppended {
                        choice: c,
                        block: 0,
                        text: text.to_owned(),
                    });
                }
            }
        }
        fast::trim_scratch(&mut self.scratch);
        true
    }

    fn tool_delta(
        &mut self,
        calls: &mut Calls,
        choice: u64,
        tc: ToolCallDelta,
    ) -> Result<(), StreamError> {
        // `-1` (one call, some servers) is index 0.
        let index = u64::try_from(tc.index).unwrap_or(0);
        let key = CallKey::Choice { choice, index };
        let (name, args) = match tc.function {
            Some(f) => (non_empty(f.name), f.arguments),
            None => (None, None),
        };
        let id = non_empty(tc.id);
        let n = match calls.open(key) {
            // A different id at a used index starts a new call (Ollama
            // reuses index 0); the previous one ended there.
            Some(n)
                if id.is_some()
                    && calls.call(n).and_then(|c| c.id()).is_some()
                    && calls.call(n).and_then(|c| c.id()) != id.as_deref() =>
            {
                calls.end(n);
                calls.start(key, id, name, CallKind::Client)?
            }
            Some(n) => {
                // Late or repeated id / name: keep, never concatenate.
                let mut late_id = false;
                if let Some(c) = calls.call_mut(n) {
                    late_id = c.id.is_none() && id.is_some();
                    if c.id.is_none() {
                        c.id = id;
                    }
                    if c.name.is_none() {
                        c.name = name;
                    }
                }
                if late_id {
                    calls.check_duplicate_id(n);
                }
                n
            }
            None => {
                if calls.latest(key).is_some() && id.is_none() && name.is_none() {
                    // More text for a call that has already ended.
                    return Err(StreamError::Protocol(ProtocolViolation::DeltaWithoutCall {
                        event: "tool call delta",
                        key: Some(key),
                        item_id: None,
                    }));
                }
                calls.start(key, id, name, CallKind::Client)?
            }
        };
        if let Some(a) = args {
            calls.append(n, a);
        }
        Ok(())
    }

    /// `[DONE]`: the stop reason of the first choice that gave one; open
    /// calls (no `finish_reason`) are then cut by the caller.
    pub(crate) fn done(&mut self, _calls: &mut Calls) -> StopReason {
        match self.finished.iter().min_by_key(|(c, _)| *c) {
            Some((_, r)) => stop_of(r),
            None => StopReason::EndOfStream,
        }
    }

    /// The end of the input without `[DONE]`: as `[DONE]` when some choice
    /// finished and no call is open, else the end of the stream.
    pub(crate) fn end_of_input(&mut self, calls: &mut Calls) -> StopReason {
        let open = calls
            .calls
            .iter()
            .any(|c| c.status == CallStatus::Streaming);
        if open {
            StopReason::EndOfStream
        } else {
            self.done(calls)
        }
    }
}

fn cut_choice(calls: &mut Calls, choice: u64, status: CallStatus, reason: &StopReason) {
    for n in 0..calls.calls.len() {
        if matches!(calls.calls[n].key, CallKey::Choice { choice: c, .. } if c == choice) {
            calls.cut(n, status, reason);
        }
    }
}
