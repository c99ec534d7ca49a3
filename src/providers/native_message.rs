//! The accumulation of the two providers whose stream is not made of the
//! message's own pieces: Gemini's candidates and Bedrock's Converse
//! response, gathered as the events arrive into the protocol's model
//! ([`AssistantTurn`]), which writes the final message
//! ([`AssistantTurn::to_gemini`], [`AssistantTurn::to_bedrock`]). Tool
//! inputs come from the calls themselves, so argument text is parsed once
//! (`tool_input`, which the Anthropic message uses too).
//!
//! Gemini streams text parts as deltas: consecutive text parts of one kind
//! (thought or not) join into one part, as the unstreamed response holds
//! them; a `thoughtSignature` sits on the part it came with (one on an
//! empty text part goes to the text part before it; a second one begins a
//! new part).
//! Bedrock keys content blocks by `contentBlockIndex`; text blocks have no
//! start event, so the first delta opens them.

use std::collections::BTreeMap;

use crate::value::{Map, Value as J};

use super::{CallKind, CallStatus, StreamedCall};
use crate::partial::PartialNode;
use crate::protocol::{
    Arguments, AssistantTurn, ToolCall, TurnPart, Vendor, bedrock_text, bedrock_tool_use,
    gemini_call, gemini_text,
};

/// One part of a Gemini candidate's content.
#[derive(Debug)]
enum GeminiPart {
    Text {
        text: String,
        thought: bool,
        signature: Option<String>,
    },
    /// A `functionCall` part: the call's number.
    Call {
        call: usize,
        signature: Option<String>,
    },
}

#[derive(Debug, Default)]
struct GeminiCandidate {
    parts: Vec<GeminiPart>,
    finish_reason: Option<String>,
}

/// A Gemini response's candidates as they grow.
#[derive(Debug, Default)]
pub(crate) struct GeminiMessage {
    candidates: BTreeMap<u64, GeminiCandidate>,
    /// The latest `usageMetadata` with token counts.
    usage: Option<J>,
}

impl GeminiMessage {
    /// A text part (`thought` for thinking), with its signature if any.
    pub(crate) fn text(&mut self, at: u64, text: &str, thought: bool, signature: Option<&str>) {
        let c = self.candidates.entry(at).or_default();
        if let Some(GeminiPart::Text {
            text: t,
            thought: th,
            signature: sig,
        }) = c.parts.last_mut()
        {
            // Text deltas of one kind join; an empty text may bring a
            // signature; a second signature begins a new part.
            let joins =
                (*th == thought || text.is_empty()) && !(sig.is_some() && signature.is_some());
            if joins {
                t.push_str(text);
                if let Some(new) = signature {
                    *sig = Some(new.to_owned());
                }
                return;
            }
        }
        if text.is_empty() && signature.is_none() {
            return;
        }
        c.parts.push(GeminiPart::Text {
            text: text.to_owned(),
            thought,
            signature: signature.map(str::to_owned),
        });
    }

    /// A `functionCall` part began: call `call`.
    pub(crate) fn call(&mut self, at: u64, call: usize, signature: Option<&str>) {
        self.candidates
            .entry(at)
            .or_default()
            .parts
            .push(GeminiPart::Call {
                call,
                signature: signature.map(str::to_owned),
            });
    }

    /// A `thoughtSignature` on a later part of call `call`.
    pub(crate) fn call_signature(&mut self, at: u64, call: usize, signature: &str) {
        if let Some(c) = self.candidates.get_mut(&at) {
            for p in c.parts.iter_mut().rev() {
                if let GeminiPart::Call {
                    call: n,
                    signature: s,
                } = p
                    && *n == call
                {
                    s.get_or_insert_with(|| signature.to_owned());
                    return;
                }
            }
        }
    }

    /// A candidate's `finishReason` (the first one stays).
    pub(crate) fn finish(&mut self, at: u64, reason: &str) {
        self.candidates
            .entry(at)
            .or_default()
            .finish_reason
            .get_or_insert_with(|| reason.to_owned());
    }

    /// A chunk's `usageMetadata`, when it holds counts (Vertex sends
    /// `{"trafficType": ...}` alone before them).
    pub(crate) fn usage(&mut self, usage: &serde_json::Value) {
        let usage = &J::from(usage);
        let counts = usage
            .as_object()
            .is_some_and(|o| o.keys().any(|k| k.ends_with("TokenCount")));
        if counts {
            self.usage = Some(usage.clone());
        }
    }

    /// One turn per candidate, with the response's `usageMetadata` beside
    /// it.
    pub(crate) fn turns(&self, calls: &[StreamedCall]) -> Vec<AssistantTurn> {
        self.candidates
            .iter()
            .map(|(&i, c)| {
                let parts = c
                    .parts
                    .iter()
                    .map(|p| match p {
                        GeminiPart::Text {
                            text,
                            thought: false,
                            signature,
                        } => gemini_text(text, signature.as_deref()),
                        GeminiPart::Text {
                            text, signature, ..
                        } => {
                            // Thinking is Gemini's own part.
                            let mut o = Map::new();
                            o.insert("text".into(), text.clone().into());
                            o.insert("thought".into(), true.into());
                            if let Some(s) = signature {
                                o.insert("thoughtSignature".into(), s.clone().into());
                            }
                            TurnPart::Native {
                                vendor: Vendor::Gemini,
                                item: J::Object(o),
                            }
                        }
                        GeminiPart::Call { call, signature } => match calls.get(*call) {
                            Some(c) => gemini_call(tool_call(c), signature.as_deref()),
                            None => TurnPart::Native {
                                vendor: Vendor::Gemini,
                                item: crate::json!({"functionCall": {}}),
                            },
                        },
                    })
                    .collect();
                AssistantTurn::gemini_candidate(
                    i,
                    parts,
                    c.finish_reason.as_deref(),
                    self.usage.as_ref(),
                )
            })
            .collect()
    }

    /// One candidate object per candidate.
    pub(crate) fn native(&self, calls: &[StreamedCall]) -> Vec<J> {
        self.turns(calls)
            .iter()
            .map(AssistantTurn::to_gemini)
            .collect()
    }
}

/// A streamed call in the model: its id (none: empty), name, and the value
/// of its arguments, or what arrived of it (open strings left out), or `{}`.
fn tool_call(c: &StreamedCall) -> ToolCall {
    ToolCall::new(
        c.id().unwrap_or_default(),
        c.name().unwrap_or_default(),
        Arguments::from_value(tool_input(c).unwrap_or_else(|| J::Object(Map::new()))),
    )
}

/// One Bedrock content block.
#[derive(Debug)]
enum BedrockBlock {
    Text(String),
    Reasoning {
        text: String,
        signature: Option<String>,
        redacted: Option<String>,
    },
    /// A `toolUse` block: its start members and the call's number.
    Tool {
        start: Map,
        call: usize,
    },
    /// A whole block (a server tool's `toolResult`).
    Whole(J),
}

/// A Bedrock Converse response as it grows.
#[derive(Debug, Default)]
pub(crate) struct BedrockMessage {
    blocks: BTreeMap<u64, BedrockBlock>,
    stop_reason: Option<String>,
    usage: Option<J>,
    metrics: Option<J>,
}

impl BedrockMessage {
    /// `delta.text`.
    pub(crate) fn text(&mut self, at: u64, text: &str) {
        match self.blocks.get_mut(&at) {
            Some(BedrockBlock::Text(t)) => t.push_str(text),
            Some(_) => {}
            None => {
                self.blocks.insert(at, BedrockBlock::Text(text.to_owned()));
            }
        }
    }

    /// `delta.reasoningContent`: text appended, signature and redacted
    /// content set.
    pub(crate) fn reasoning(
        &mut self,
        at: u64,
        text: Option<&str>,
        signature: Option<&str>,
        redacted: Option<&str>,
    ) {
        let block = self
            .blocks
            .entry(at)
            .or_insert_with(|| BedrockBlock::Reasoning {
                text: String::new(),
                signature: None,
                redacted: None,
            });
        if let BedrockBlock::Reasoning {
            text: t,
            signature: s,
            redacted: r,
        } = block
        {
            t.push_str(text.unwrap_or_default());
            if let Some(sig) = signature {
                *s = Some(sig.to_owned());
            }
            if let Some(data) = redacted {
                r.get_or_insert_with(String::new).push_str(data);
            }
        }
    }

    /// `contentBlockStart{start: {toolUse}}`: call `call`.
    pub(crate) fn tool(
        &mut self,
        at: u64,
        start: serde_json::Map<String, serde_json::Value>,
        call: usize,
    ) {
        let start = match J::from(serde_json::Value::Object(start)) {
            J::Object(m) => m,
            _ => Map::new(),
        };
        self.blocks.insert(at, BedrockBlock::Tool { start, call });
    }

    /// A block that arrived whole (`{"toolResult": {...}}`).
    pub(crate) fn whole(&mut self, at: u64, block: serde_json::Value) {
        self.blocks.insert(at, BedrockBlock::Whole(J::from(block)));
    }

    /// `messageStop{stopReason}`.
    pub(crate) fn stop(&mut self, reason: &str) {
        self.stop_reason = Some(reason.to_owned());
    }

    /// `metadata{usage, metrics}`.
    pub(crate) fn metadata(
        &mut self,
        usage: Option<&serde_json::Value>,
        metrics: Option<&serde_json::Value>,
    ) {
        if let Some(u) = usage {
            self.usage = Some(J::from(u));
        }
        if let Some(m) = metrics {
            self.metrics = Some(J::from(m));
        }
    }

    /// The Converse response as a turn: `output.message`, `stopReason`,
    /// and `usage` and `metrics` when reported.
    pub(crate) fn turn(&self, calls: &[StreamedCall]) -> AssistantTurn {
        let parts = self
            .blocks
            .values()
            .map(|b| match b {
                BedrockBlock::Text(t) => bedrock_text(t),
                BedrockBlock::Reasoning {
                    text,
                    signature,
                    redacted,
                } => {
                    let inner = match redacted {
                        Some(data) if text.is_empty() => {
                            crate::json!({ "redactedContent": data })
                        }
                        _ => {
                            let mut r = Map::new();
                            r.insert("text".into(), text.clone().into());
                            if let Some(s) = signature {
                                r.insert("signature".into(), s.clone().into());
                            }
                            crate::json!({ "reasoningText": r })
                        }
                    };
                    TurnPart::Native {
                        vendor: Vendor::Bedrock,
                        item: crate::json!({ "reasoningContent": inner }),
                    }
                }
                BedrockBlock::Tool { start, call } => {
                    let mut start = start.clone();
                    start.insert("input".into(), J::Null);
                    let call = calls.get(*call);
                    if call.is_some_and(|c| c.kind() == CallKind::Server) {
                        start
                            .entry("type")
                            .or_insert_with(|| "server_tool_use".into());
                    }
                    let input = call
                        .and_then(tool_input)
                        .unwrap_or_else(|| J::Object(Map::new()));
                    bedrock_tool_use(&start, Arguments::from_value(input))
                }
                BedrockBlock::Whole(b) => TurnPart::Native {
                    vendor: Vendor::Bedrock,
                    item: b.clone(),
                },
            })
            .collect();
        AssistantTurn::bedrock_response(
            parts,
            self.stop_reason.as_deref(),
            self.usage.as_ref(),
            self.metrics.as_ref(),
        )
    }

    /// The Converse response: `{"output": {"message"}, "stopReason",
    /// "usage", "metrics"}` (the last two when reported).
    pub(crate) fn native(&self, calls: &[StreamedCall]) -> J {
        self.turn(calls).to_bedrock()
    }
}

/// A tool block's `input` (Anthropic, and the Gemini and Bedrock calls): the value when complete; else, as the
/// SDK's partial read gives it, what arrived with open strings left out; the
/// start event's placeholder when no text arrived.
pub(super) fn tool_input(call: &StreamedCall) -> Option<J> {
    if call.status == CallStatus::Complete {
        return call.value().cloned();
    }
    if call.text.is_empty() {
        return None;
    }
    call.partial().and_then(without_open_strings)
}

fn without_open_strings(node: &PartialNode) -> Option<J> {
    match node {
        PartialNode::Complete(v) => Some(v.clone()),
        PartialNode::String(_) => None,
        PartialNode::Array(items) => Some(J::Array(
            items.iter().filter_map(without_open_strings).collect(),
        )),
        PartialNode::Object(members) => Some(J::Object(
            members
                .iter()
                .filter_map(|(k, n)| Some((k.to_string(), without_open_strings(n)?)))
                .collect(),
        )),
    }
}
