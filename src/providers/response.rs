//! The whole streamed response beside its tool calls: text, thinking and
//! its signatures, refusals, server tool results, usage, message id and
//! model, accumulated into the provider's own JSON so that, at the end, the
//! final assistant message is what the provider returns unstreamed.
//!
//! The accumulation rules are the providers' SDKs' (Anthropic
//! `accumulate_event`, OpenAI `ChatCompletionStreamState` and
//! `ResponseStreamState`); tool inputs come from the calls themselves, so
//! argument text is parsed once.

use std::collections::BTreeMap;

use crate::value::{Map, Value as J};

/// An event's member: as serde_json decoded it, or read exactly (members in
/// order, numbers as written) as a [`J`].
pub(crate) trait EventJson: Into<J> {}
impl EventJson for serde_json::Value {}
impl EventJson for J {}

use super::native_message::{BedrockMessage, GeminiMessage, tool_input};
use super::{CallKey, StreamedCall};
pub use crate::protocol::Usage;
use crate::protocol::{AssistantTurn, ProtocolError, Vendor};

/// The five provider APIs a stream may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Provider {
    Anthropic,
    OpenAiChat,
    OpenAiResponses,
    Gemini,
    Bedrock,
}

impl Provider {
    pub(crate) fn of(vendor: Vendor) -> Provider {
        match vendor {
            Vendor::Anthropic => Provider::Anthropic,
            Vendor::OpenAiChat => Provider::OpenAiChat,
            Vendor::OpenAiResponses => Provider::OpenAiResponses,
            Vendor::Gemini => Provider::Gemini,
            Vendor::Bedrock => Provider::Bedrock,
        }
    }

    /// The protocol layer's vendor, for the providers it models.
    pub(crate) fn vendor(self) -> Option<Vendor> {
        match self {
            Provider::Anthropic => Some(Vendor::Anthropic),
            Provider::OpenAiChat => Some(Vendor::OpenAiChat),
            Provider::OpenAiResponses => Some(Vendor::OpenAiResponses),
            Provider::Gemini => Some(Vendor::Gemini),
            Provider::Bedrock => Some(Vendor::Bedrock),
        }
    }
}

/// One Chat choice being accumulated.
#[derive(Debug, Default)]
struct ChatChoice {
    role: Option<String>,
    content: Option<String>,
    refusal: Option<String>,
    /// `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter,
    /// newer vLLM): the member's name and its text.
    reasoning: Option<(&'static str, String)>,
    finish_reason: Option<String>,
}

/// The provider's message as it grows.
#[derive(Debug, Default)]
pub(crate) struct Response {
    provider: Option<Provider>,
    /// Anthropic: the `message` object of `message_start`, updated.
    message: Map,
    /// Anthropic content blocks by index; Responses output items by
    /// `output_index`.
    blocks: BTreeMap<u64, J>,
    /// Responses: items as `output_item.done` gave them.
    done_items: BTreeMap<u64, J>,
    /// Responses: the `output` of `response.completed`.
    completed_output: Option<Vec<J>>,
    /// Responses: the latest lifecycle event's `response` object
    /// (`response.created`, `.completed`, `.incomplete`, `.failed`), but
    /// its `output`.
    envelope: Map,
    choices: BTreeMap<u64, ChatChoice>,
    pub(crate) id: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) usage: Option<Usage>,
    anthropic_started: bool,
    /// Gemini's candidates.
    pub(crate) gemini: GeminiMessage,
    /// Bedrock's Converse message.
    pub(crate) bedrock: BedrockMessage,
}

fn append_str(o: &mut J, key: &str, text: &str) {
    if let Some(m) = o.as_object_mut() {
        match m.get_mut(key) {
            Some(J::String(s)) => s.push_str(text),
            _ => {
                m.insert(key.to_owned(), J::String(text.to_owned()));
            }
        }
    }
}

impl Response {
    pub(crate) fn set_provider(&mut self, provider: Provider) {
        self.provider = Some(provider);
    }

    /// Anthropic `message_start`.
    pub(crate) fn anthropic_start(&mut self, message: impl EventJson) {
        self.anthropic_started = true;
        if let J::Object(mut m) = message.into() {
            let content = match m.shift_remove("content") {
                Some(J::Array(a)) => a,
                _ => Vec::new(),
            };
            for (i, b) in content.into_iter().enumerate() {
                self.blocks.insert(i as u64, b);
            }
            self.id = m.get("id").and_then(J::as_str).map(str::to_owned);
            self.model = m.get("model").and_then(J::as_str).map(str::to_owned);
            self.usage = m.get("usage").and_then(Usage::from_json);
            self.message = m;
        }
    }

    /// Anthropic `content_block_start`.
    pub(crate) fn block_start(&mut self, index: u64, block: impl EventJson) {
        self.blocks.insert(index, block.into());
    }

    /// Anthropic: a delta's string appended to a block member (`text`,
    /// `thinking`), when the block is of `block_type`.
    pub(crate) fn block_append(&mut self, index: u64, block_type: &str, key: &str, text: &str) {
        if let Some(b) = self.blocks.get_mut(&index)
            && b.get("type").and_then(J::as_str) == Some(block_type)
        {
            append_str(b, key, text);
        }
    }

    /// Anthropic: the block at `index` as it stands, for an event (`None`
    /// also for a number serde_json cannot hold).
    pub(crate) fn block(&self, index: u64) -> Option<serde_json::Value> {
        self.blocks.get(&index)?.to_serde_json().ok()
    }

    /// Anthropic: a member of a block set (`signature`).
    pub(crate) fn block_set(&mut self, index: u64, key: &str, value: impl EventJson) {
        if let Some(J::Object(b)) = self.blocks.get_mut(&index) {
            b.insert(key.to_owned(), value.into());
        }
    }

    /// Anthropic `citations_delta`.
    pub(crate) fn block_cite(&mut self, index: u64, citation: impl EventJson) {
        let citation: J = citation.into();
        if let Some(J::Object(b)) = self.blocks.get_mut(&index) {
            match b.get_mut("citations") {
                Some(J::Array(a)) => a.push(citation),
                _ => {
                    b.insert("citations".into(), J::Array(vec![citation]));
                }
            }
        }
    }

    /// Anthropic `message_delta`: the stop members overwrite; usage counts
    /// are cumulative, so they overwrite too, an absent optional count
    /// keeping the earlier one.
    pub(crate) fn anthropic_delta(
        &mut self,
        delta: Option<&serde_json::Value>,
        usage: Option<&serde_json::Value>,
    ) {
        let (delta, usage) = (delta.map(J::from), usage.map(J::from));
        if let Some(d) = delta.as_ref().and_then(J::as_object) {
            for k in ["stop_reason", "stop_sequence", "stop_details"] {
                self.message
                    .insert(k.into(), d.get(k).cloned().unwrap_or(J::Null));
            }
            if let Some(c) = d.get("container").filter(|c| !c.is_null()) {
                self.message.insert("container".into(), c.clone());
            }
        }
        if let Some(u) = usage.as_ref().and_then(J::as_object) {
            let target = self
                .message
                .entry("usage")
                .or_insert_with(|| J::Object(Map::new()));
            if let J::Object(t) = target {
                t.insert(
                    "output_tokens".into(),
                    u.get("output_tokens").cloned().unwrap_or(J::Null),
                );
                for k in [
                    "input_tokens",
                    "cache_creation_input_tokens",
                    "cache_read_input_tokens",
                    "server_tool_use",
                    "output_tokens_details",
                    "iterations",
                    "fallback_credit",
                ] {
                    if let Some(v) = u.get(k).filter(|v| !v.is_null()) {
                        t.insert(k.into(), v.clone());
                    }
                }
            }
            self.usage = self.message.get("usage").and_then(Usage::from_json);
        }
    }

    /// OpenAI Chat: one choice's delta members.
    pub(crate) fn chat_delta(
        &mut self,
        choice: u64,
        role: Option<&str>,
        content: Option<&str>,
        refusal: Option<&str>,
    ) {
        let c = self.choices.entry(choice).or_default();
        if let Some(r) = role {
            c.role = Some(r.to_owned());
        }
        if let Some(t) = content {
            c.content.get_or_insert_with(String::new).push_str(t);
        }
        if let Some(t) = refusal {
            c.refusal.get_or_insert_with(String::new).push_str(t);
        }
    }

    /// OpenAI Chat: a choice's reasoning text under `key`
    /// (`reasoning_content` or `reasoning`).
    pub(crate) fn chat_reasoning(&mut self, choice: u64, key: &'static str, text: &str) {
        let c = self.choices.entry(choice).or_default();
        c.reasoning
            .get_or_insert_with(|| (key, String::new()))
            .1
            .push_str(text);
    }

    /// OpenAI Chat: a choice's `finish_reason`.
    pub(crate) fn chat_finish(&mut self, choice: u64, reason: &str) {
        self.choices.entry(choice).or_default().finish_reason = Some(reason.to_owned());
    }

    /// Responses `output_item.added`.
    pub(crate) fn item_added(&mut self, index: u64, item: impl EventJson) {
        self.blocks.insert(index, item.into());
    }

    /// Responses `output_item.done`.
    pub(crate) fn item_done(&mut self, index: u64, item: impl EventJson) {
        self.done_items.insert(index, item.into());
    }

    /// Responses `content_part.added`.
    pub(crate) fn part_added(&mut self, index: u64, part: impl EventJson) {
        let part: J = part.into();
        if let Some(J::Object(item)) = self.blocks.get_mut(&index) {
            match item.get_mut("content") {
                Some(J::Array(a)) => a.push(part),
                _ => {
                    item.insert("content".into(), J::Array(vec![part]));
                }
            }
        }
    }

    /// Responses `output_text.delta` / `refusal.delta`: appended to the
    /// item's content part `content_index` under `key`.
    pub(crate) fn part_append(&mut self, index: u64, content_index: u64, key: &str, text: &str) {
        if let Some(part) = self
            .blocks
            .get_mut(&index)
            .and_then(|i| i.get_mut("content"))
            .and_then(|c| c.as_array_mut()?.get_mut(content_index as usize))
        {
            append_str(part, key, text);
        }
    }

    /// Responses `response.completed`: its `output` is final.
    pub(crate) fn completed(&mut self, response: Option<impl EventJson>) {
        if let Some(J::Object(mut o)) = response.map(Into::into) {
            if let Some(J::Array(output)) = o.shift_remove("output") {
                self.completed_output = Some(output);
            }
            self.envelope = o;
        }
    }

    /// Responses: a lifecycle event's `response` object, but its
    /// `output` (the items are accumulated from their own events).
    pub(crate) fn responses_envelope(&mut self, response: Option<impl EventJson>) {
        if let Some(J::Object(mut o)) = response.map(Into::into) {
            o.shift_remove("output");
            self.envelope = o;
        }
    }

    /// The final message(s) in the provider's JSON, one per choice, each
    /// with its stop reason: Anthropic the `message` object; OpenAI Chat
    /// one `{"index", "message", "finish_reason"}` per choice; Responses
    /// the `response` object; Gemini one candidate per candidate; Bedrock
    /// the Converse response. Empty before the provider is known.
    pub(crate) fn native(&self, calls: &[StreamedCall]) -> Vec<J> {
        match self.provider {
            None => Vec::new(),
            Some(Provider::Anthropic) if !self.anthropic_started => Vec::new(),
            Some(Provider::Anthropic) => vec![self.anthropic_message(calls)],
            Some(Provider::OpenAiChat) => self.chat_choices(calls),
            Some(Provider::OpenAiResponses) => vec![self.responses_output(calls)],
            Some(Provider::Gemini) => self.gemini.native(calls),
            Some(Provider::Bedrock) => vec![self.bedrock.native(calls)],
        }
    }

    fn anthropic_message(&self, calls: &[StreamedCall]) -> J {
        let mut m = self.message.clone();
        let content = self
            .blocks
            .iter()
            .map(|(&i, b)| {
                let mut b = b.clone();
                let call = calls.iter().rev().find(|c| c.key == CallKey::Block(i));
                if let (Some(c), J::Object(o)) = (call, &mut b)
                    && let Some(input) = tool_input(c)
                {
                    o.insert("input".into(), input);
                }
                b
            })
            .collect();
        m.insert("content".into(), J::Array(content));
        J::Object(m)
    }

    fn chat_choices(&self, calls: &[StreamedCall]) -> Vec<J> {
        let mut indexes: Vec<u64> = self.choices.keys().copied().collect();
        for c in calls {
            if let CallKey::Choice { choice, .. } = c.key
                && !indexes.contains(&choice)
            {
                indexes.push(choice);
            }
        }
        indexes.sort_unstable();
        indexes
            .into_iter()
            .map(|i| {
                let c = self.choices.get(&i);
                let mut msg = Map::new();
                let opt = |s: Option<&String>| s.map_or(J::Null, |s| J::String(s.clone()));
                msg.insert(
                    "role".into(),
                    J::String(
                        c.and_then(|c| c.role.clone())
                            .unwrap_or_else(|| "assistant".into()),
                    ),
                );
                msg.insert("content".into(), opt(c.and_then(|c| c.content.as_ref())));
                msg.insert("refusal".into(), opt(c.and_then(|c| c.refusal.as_ref())));
                if let Some((key, text)) = c.and_then(|c| c.reasoning.as_ref()) {
                    msg.insert((*key).into(), J::String(text.clone()));
                }
                let tool_calls: Vec<J> = calls
                    .iter()
                    .filter(|t| matches!(t.key, CallKey::Choice { choice, .. } if choice == i))
                    .map(|t| {
                        crate::json!({
                            "id": t.id(),
                            "type": "function",
                            "function": {"name": t.name(), "arguments": t.arguments_text()},
                        })
                    })
                    .collect();
                if !tool_calls.is_empty() {
                    msg.insert("tool_calls".into(), J::Array(tool_calls));
                }
                let mut o = Map::new();
                o.insert("index".into(), i.into());
                o.insert("message".into(), J::Object(msg));
                o.insert(
                    "finish_reason".into(),
                    opt(c.and_then(|c| c.finish_reason.as_ref())),
                );
                J::Object(o)
            })
            .collect()
    }

    fn responses_output(&self, calls: &[StreamedCall]) -> J {
        let output = match &self.completed_output {
            Some(items) => items.clone(),
            None => self
                .blocks
                .iter()
                .map(|(i, item)| match self.done_items.get(i) {
                    Some(done) => done.clone(),
                    None => {
                        let mut item = item.clone();
                        let call = calls.iter().rev().find(|c| c.key == CallKey::Output(*i));
                        if let (Some(c), J::Object(o)) = (call, &mut item) {
                            let key = if o.contains_key("input") {
                                "input"
                            } else {
                                "arguments"
                            };
                            o.insert(key.into(), J::String(c.arguments_text().to_owned()));
                        }
                        item
                    }
                })
                .collect(),
        };
        let mut o = self.envelope.clone();
        o.insert("output".into(), J::Array(output));
        J::Object(o)
    }

    /// The final message in the protocol's model.
    pub(crate) fn to_turns(
        &self,
        calls: &[StreamedCall],
    ) -> Result<Vec<AssistantTurn>, ProtocolError> {
        let Some(vendor) = self.provider.and_then(Provider::vendor) else {
            return Ok(Vec::new());
        };
        // Gathered in the model already.
        match self.provider {
            Some(Provider::Gemini) => return Ok(self.gemini.turns(calls)),
            Some(Provider::Bedrock) => return Ok(vec![self.bedrock.turn(calls)]),
            _ => {}
        }
        self.native(calls)
            .iter()
            .map(|m| {
                let mut m = m.clone();
                if let Some(o) = m.as_object_mut() {
                    // Read as a finished turn: the envelope members a stream
                    // carries that a turn does not (`type`), and absent
                    // roles, are made whole.
                    o.entry("role").or_insert_with(|| "assistant".into());
                }
                AssistantTurn::from_vendor(vendor, &m)
            })
            .collect()
    }
}
