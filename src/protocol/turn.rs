//! [`AssistantTurn`]: a whole assistant message (its parts in order, why it
//! stopped, the vendor's envelope members) read from and written to the
//! five vendor shapes, keeping ids and order. Its parts, one call or text
//! each, are in `tool_call.rs`; the reply of results it asks for is in
//! `correlate.rs`.

use crate::value::{Map, Value};

use super::Vendor;
use super::error::{ProtocolError, json_type, ptr, ptr_i};
use super::json_read::{expect_object, expect_role, other_members, required_array, required_str};
use super::loss::{Converted, Loss, LossEffect, Losses};
use super::native::Native;
use super::stop::StopReason;
use super::tool_call::{TextPart, ToolCall, TurnPart};

mod bedrock;
mod gemini;

#[cfg(feature = "providers")]
pub(crate) use bedrock::{bedrock_text, bedrock_tool_use};
pub(crate) use bedrock::{stop_as_bedrock, stop_from_bedrock};
#[cfg(feature = "providers")]
pub(crate) use gemini::{gemini_call, gemini_text};
pub(crate) use gemini::{name_idless_calls, stop_as_gemini, stop_from_gemini};

/// How Chat `content` was written, to write it back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum ChatContent {
    #[default]
    Unknown,
    Absent,
    Null,
    String,
    Parts,
}

/// How the turn's outer JSON looked in its source vendor.
#[derive(Clone, Debug, PartialEq, Default)]
enum Envelope {
    /// Built in code, or read from a shape with no outer members.
    #[default]
    Plain,
    /// Anthropic message with `content` as a string.
    AnthropicStringContent,
    /// Chat: read as a choice (`{"index", "message", "finish_reason", ...}`);
    /// its members beside `message` and `finish_reason`.
    ChatChoice(Map),
    /// Responses: read as a bare array of output items.
    ResponsesItems,
    /// Responses: read as a response object (`{"status", "output", ...}`).
    ResponsesObject,
    /// Gemini: read as a response candidate (`{"content", "finishReason",
    /// ...}`); its members are the turn's native members.
    GeminiCandidate,
    /// Bedrock: read as a `ConverseResponse` (`{"output": {"message"},
    /// "stopReason", ...}`); its members are the turn's native members.
    BedrockResponse,
}

/// The members an assistant message of a Chat request takes.
const CHAT_MESSAGE_MEMBERS: [&str; 6] =
    ["role", "content", "refusal", "name", "audio", "tool_calls"];

/// Puts the pointers [`AssistantTurn::report`] gives under `at`, where the
/// turn stood in a larger document: all of a Chat turn's (they point into
/// its message), a Responses turn's item pointers (`/{k}...`, into its list
/// of items; its own members stay where they are).
pub(crate) fn place_losses(from: Option<Vendor>, at: &str, losses: &mut [Loss]) {
    for l in losses {
        let item =
            l.at.strip_prefix('/')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        match from {
            Some(Vendor::OpenAiChat) => l.at.insert_str(0, at),
            Some(Vendor::OpenAiResponses) if item => l.at.insert_str(0, at),
            _ => {}
        }
    }
}

/// One assistant turn: its text and tool calls in order, and why it stopped.
///
/// Read from and written to:
///
/// * Anthropic: a message, `{"role":"assistant","content":[blocks],
///   "stop_reason":...}` (a response body or a history message);
/// * OpenAI Chat: a choice, `{"index":0,"message":{...},"finish_reason":...}`,
///   or a bare assistant message `{"role":"assistant","content":...,
///   "tool_calls":[...]}`;
/// * OpenAI Responses: a response object `{"status":...,"output":[items]}`
///   or a bare array of output items.
///
/// Written for the vendor it was read from, it is the same JSON. Written for
/// another vendor, ids, names, arguments, text and order are kept; see the
/// module documentation for the few differences that cannot cross.
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{AssistantTurn, StopReason, Vendor};
///
/// let message = json!({
///     "role": "assistant",
///     "content": [
///         {"type": "text", "text": "Let me check."},
///         {"type": "tool_use", "id": "toolu_01A", "name": "get_weather",
///          "input": {"location": "San Francisco, CA"}}
///     ],
///     "stop_reason": "tool_use"
/// });
/// let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &message)?;
/// assert_eq!(turn.stop_reason, Some(StopReason::ToolUse));
/// let chat = turn.to_openai_chat();
/// assert_eq!(chat["finish_reason"], "tool_calls");
/// assert_eq!(chat["message"]["content"], "Let me check.");
/// assert_eq!(chat["message"]["tool_calls"][0]["function"]["arguments"],
///            r#"{"location":"San Francisco, CA"}"#);
/// let back = AssistantTurn::from_vendor(Vendor::OpenAiChat, &chat)?;
/// assert_eq!(back.to_anthropic(), message);
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AssistantTurn {
    /// Text, calls and vendor-only parts, in order.
    pub parts: Vec<TurnPart>,
    /// Why the model stopped, when the JSON says.
    pub stop_reason: Option<StopReason>,
    /// Outer members of the source vendor (Anthropic `id`, `model`,
    /// `usage`...; Chat message members such as `refusal`; Responses
    /// response members).
    native: Native,
    envelope: Envelope,
    chat_content: ChatContent,
}

impl AssistantTurn {
    /// A turn from parts.
    pub fn new(parts: Vec<TurnPart>, stop_reason: Option<StopReason>) -> AssistantTurn {
        AssistantTurn {
            parts,
            stop_reason,
            ..AssistantTurn::default()
        }
    }

    /// The members of the source vendor's message that the parts do not
    /// model (Chat `refusal`, `annotations`...), for loss reports.
    pub(crate) fn native_members(&self) -> &Native {
        &self.native
    }

    /// The tool calls, in order.
    pub fn calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|p| match p {
            TurnPart::Call(c) => Some(c),
            _ => None,
        })
    }

    /// The names of the calls, in order (for [`ToolSet::check_choice`](super::ToolSet::check_choice)).
    pub fn called_names(&self) -> Vec<&str> {
        self.calls().map(|c| c.name.as_str()).collect()
    }

    /// Reads the turn in `vendor`'s shape.
    pub fn from_vendor(vendor: Vendor, v: &Value) -> Result<AssistantTurn, ProtocolError> {
        match vendor {
            Vendor::Anthropic => Self::from_anthropic(v),
            Vendor::OpenAiChat => Self::from_openai_chat(v),
            Vendor::OpenAiResponses => Self::from_openai_responses(v),
            Vendor::Gemini => Self::from_gemini(v),
            Vendor::Bedrock => Self::from_bedrock(v),
        }
    }

    /// The turn as the assistant message to append to the conversation in
    /// `vendor`'s request: Anthropic `{"role":"assistant","content":[...]}`;
    /// Chat `{"role":"assistant","content":...,"tool_calls":[...]}`;
    /// Responses the list of its input items (`message`, `function_call`,
    /// `reasoning`...). Response-only members (`id`, `model`, `usage`,
    /// `stop_reason`, `finish_reason`, `status`) are not part of it.
    ///
    /// Across vendors, what cannot cross is reported: a part only the source
    /// vendor has (Anthropic `thinking`, Responses `reasoning`), block
    /// members such as `citations`, and for Chat a text written after a call
    /// (Chat keeps texts and calls apart, so it moves before the calls).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{AssistantTurn, Vendor};
    /// let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &json!({
    ///     "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
    ///     "content": [{"type": "text", "text": "Checking."},
    ///                 {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Oslo"}}],
    ///     "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}
    /// }))?;
    /// assert_eq!(turn.to_vendor(Vendor::Anthropic).lossless().unwrap(), json!({
    ///     "role": "assistant",
    ///     "content": [{"type": "text", "text": "Checking."},
    ///                 {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Oslo"}}]
    /// }));
    /// assert_eq!(turn.to_vendor(Vendor::OpenAiChat).lossless().unwrap(), json!({
    ///     "role": "assistant", "content": "Checking.",
    ///     "tool_calls": [{"id": "toolu_01", "type": "function",
    ///                     "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}}]
    /// }));
    /// let items = turn.to_vendor(Vendor::OpenAiResponses).lossless().unwrap();
    /// assert_eq!(items[1]["type"], "function_call");
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn to_vendor(&self, vendor: Vendor) -> Converted<Value> {
        let mut losses = Losses::default();
        if !super::error::models_messages(vendor) {
            losses.push("", "message", LossEffect::Dropped, super::loss::UNMODELLED);
            return losses.finish(Value::Null);
        }
        self.report(vendor, &mut losses);
        // The turn was read from what holds the message or the items.
        match self.envelope {
            Envelope::ChatChoice(_) => {
                place_losses(Some(Vendor::OpenAiChat), "/message", &mut losses.0);
            }
            Envelope::ResponsesObject => {
                place_losses(Some(Vendor::OpenAiResponses), "/output", &mut losses.0);
            }
            _ => {}
        }
        losses.finish(self.message_for(vendor))
    }

    /// The append-ready message, without the loss report.
    pub(crate) fn message_for(&self, vendor: Vendor) -> Value {
        match vendor {
            Vendor::Gemini => self.gemini_content(),
            Vendor::Bedrock => self.bedrock_message(),
            Vendor::Anthropic => {
                let mut full = self.to_anthropic();
                let mut o = Map::new();
                o.insert("role".into(), Value::from("assistant"));
                if let Some(c) = full.get_mut("content") {
                    o.insert("content".into(), c.take());
                }
                Value::Object(o)
            }
            Vendor::OpenAiChat => {
                let mut full = self.to_openai_chat();
                let m = match full.get_mut("message") {
                    Some(m) => m.take(),
                    None => full,
                };
                match m {
                    Value::Object(mut o) => {
                        o.retain(|k, _| CHAT_MESSAGE_MEMBERS.contains(&k));
                        Value::Object(o)
                    }
                    other => other,
                }
            }
            Vendor::OpenAiResponses => {
                let items = match self.to_openai_responses() {
                    Value::Object(mut o) => o.remove("output").unwrap_or(Value::Array(Vec::new())),
                    other => other,
                };
                match items {
                    Value::Array(items) => {
                        Value::Array(items.into_iter().flat_map(input_form).collect())
                    }
                    other => other,
                }
            }
        }
    }

    /// Records what writing for `vendor` leaves out or changes.
    pub(crate) fn report(&self, vendor: Vendor, losses: &mut Losses) {
        let from = self.native.vendor;
        // Chat keeps message members beside `content` and `tool_calls`
        // (`refusal`, `audio`, `reasoning_content`): part of the message.
        if from == Some(Vendor::OpenAiChat) {
            self.native.report_dropped(vendor, "", losses);
        }
        let mut seen_call = false;
        let mut prev_text = false;
        for (p, (at, item_at)) in self.parts.iter().zip(self.part_pointers()) {
            match p {
                TurnPart::Native { vendor: v, item } if *v != vendor => {
                    let ty = item.get("type").and_then(Value::as_str).unwrap_or("part");
                    losses.push(
                        &at,
                        ty,
                        LossEffect::Dropped,
                        &format!("{vendor} has no counterpart of this {v} part"),
                    );
                }
                TurnPart::Text(t) => {
                    t.native.report_dropped(vendor, &at, losses);
                    // Written back for Responses, consecutive texts share one
                    // message item: a second item's boundary is lost.
                    if t.native.vendor == Some(Vendor::OpenAiResponses)
                        && vendor != Vendor::OpenAiResponses
                        && prev_text
                        && !t.easy
                        && t.item_start.is_some()
                    {
                        losses.push(
                            &item_at,
                            "message",
                            LossEffect::ReadsBackDifferently,
                            "consecutive Responses message items read back as one item",
                        );
                    }
                    if let Some(item) = &t.item_start
                        && t.native.vendor != Some(vendor)
                    {
                        let mut members = item.clone();
                        members.remove("status");
                        Native::of(Vendor::OpenAiResponses, members)
                            .report_dropped(vendor, &item_at, losses);
                    }
                    if seen_call && vendor == Vendor::OpenAiChat {
                        losses.push(
                            &at,
                            "text",
                            LossEffect::ReadsBackDifferently,
                            "OpenAI Chat keeps text apart from tool calls: a text after a call \
                             moves before the calls",
                        );
                    }
                }
                TurnPart::Call(c) => {
                    seen_call = true;
                    c.report_dropped(vendor, &at, losses);
                }
                TurnPart::Native { .. } => {}
            }
            prev_text = matches!(p, TurnPart::Text(_));
        }
    }

    /// Where each part stood in the JSON the turn was read from, and the
    /// item that holds it (the same but for a Responses text, whose item is
    /// a `message`). Relative to the message (Anthropic, Chat) or to the
    /// list of output items (Responses); a turn built in code counts its
    /// parts. One pass over the parts (a turn may hold thousands of calls).
    fn part_pointers(&self) -> Vec<(String, String)> {
        let mut out = Vec::with_capacity(self.parts.len());
        let mut calls_before = 0;
        // Responses: the item a part is in, and its place within it.
        let (mut item, mut within) = (0usize, 0usize);
        for (i, part) in self.parts.iter().enumerate() {
            let is_call = matches!(part, TurnPart::Call(_));
            if i > 0 {
                let continues = matches!(part, TurnPart::Text(t) if t.item_start.is_none());
                if continues {
                    within += 1;
                } else {
                    item += 1;
                    within = 0;
                }
            }
            let at = match self.native.vendor {
                Some(Vendor::Anthropic) if self.envelope == Envelope::AnthropicStringContent => {
                    "/content".to_owned()
                }
                Some(Vendor::Anthropic) => ptr_i("/content", i),
                Some(Vendor::Gemini) if self.envelope == Envelope::GeminiCandidate => {
                    ptr_i("/content/parts", i)
                }
                Some(Vendor::Gemini) => ptr_i("/parts", i),
                Some(Vendor::Bedrock) if self.envelope == Envelope::BedrockResponse => {
                    ptr_i("/output/message/content", i)
                }
                Some(Vendor::Bedrock) => ptr_i("/content", i),
                // Chat keeps content parts and calls apart, in that order.
                Some(Vendor::OpenAiChat) if is_call => ptr_i("/tool_calls", calls_before),
                Some(Vendor::OpenAiChat) if self.chat_content == ChatContent::String => {
                    "/content".to_owned()
                }
                Some(Vendor::OpenAiChat) => ptr_i("/content", i - calls_before),
                Some(Vendor::OpenAiResponses) => {
                    // One item a part, but the texts of one `message` item.
                    let item_at = ptr_i("", item);
                    out.push(match part {
                        TurnPart::Text(t) if t.easy => (ptr(&item_at, "content"), item_at),
                        TurnPart::Text(_) => (ptr_i(&ptr(&item_at, "content"), within), item_at),
                        _ => (item_at.clone(), item_at),
                    });
                    calls_before += usize::from(is_call);
                    continue;
                }
                _ => ptr_i("", i),
            };
            calls_before += usize::from(is_call);
            out.push((at.clone(), at));
        }
        out
    }

    /// Reads an Anthropic assistant message.
    pub(crate) fn from_anthropic(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let o = expect_object(v, "", "an assistant message object")?;
        expect_role(o, "", "assistant")?;
        let mut turn = AssistantTurn {
            native: Native::of(
                Vendor::Anthropic,
                other_members(o, &["role", "content", "stop_reason"]),
            ),
            ..AssistantTurn::default()
        };
        turn.stop_reason = match o.get("stop_reason") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(StopReason::from_anthropic(s)),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/stop_reason".into(),
                    expected: "a string",
                    found: json_type(other),
                });
            }
        };
        match o.get("content") {
            Some(Value::String(t)) => {
                turn.envelope = Envelope::AnthropicStringContent;
                turn.parts.push(TurnPart::Text(TextPart::new(t.clone())));
            }
            Some(Value::Array(blocks)) => {
                for (i, b) in blocks.iter().enumerate() {
                    let at = ptr_i("/content", i);
                    let bo = expect_object(b, &at, "a content block object")?;
                    let part = match bo.get("type").and_then(Value::as_str) {
                        Some("text") => TurnPart::Text(TextPart {
                            text: required_str(bo, "text", &at)?.to_owned(),
                            native: Native::of(
                                Vendor::Anthropic,
                                other_members(bo, &["type", "text"]),
                            ),
                            item_start: None,
                            easy: false,
                        }),
                        Some("tool_use") => TurnPart::Call(ToolCall::from_anthropic(bo, &at)?),
                        Some(_) => TurnPart::Native {
                            vendor: Vendor::Anthropic,
                            item: b.clone(),
                        },
                        None => {
                            return Err(ProtocolError::MissingField { at, field: "type" });
                        }
                    };
                    turn.parts.push(part);
                }
            }
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/content".into(),
                    expected: "a string or an array of content blocks",
                    found: json_type(other),
                });
            }
            None => {
                return Err(ProtocolError::MissingField {
                    at: String::new(),
                    field: "content",
                });
            }
        }
        Ok(turn)
    }

    /// Writes an Anthropic assistant message: `role`, `content` blocks and
    /// `stop_reason` (when known), plus the members it was read with.
    pub fn to_anthropic(&self) -> Value {
        let v = Vendor::Anthropic;
        let mut o = self.native.start(v);
        o.insert("role".into(), Value::from("assistant"));
        let single_text = match self.parts.as_slice() {
            [TurnPart::Text(t)] if self.envelope == Envelope::AnthropicStringContent => {
                Some(t.text.clone())
            }
            _ => None,
        };
        if let Some(t) = single_text {
            o.insert("content".into(), Value::String(t));
        } else {
            let blocks = self
                .parts
                .iter()
                .filter_map(|p| match p {
                    TurnPart::Text(t) => Some(t.text_block(v)),
                    TurnPart::Call(c) => Some(c.to_anthropic()),
                    TurnPart::Native { vendor, item } => (*vendor == v).then(|| item.clone()),
                })
                .collect();
            o.insert("content".into(), Value::Array(blocks));
        }
        if let Some(r) = &self.stop_reason {
            o.insert("stop_reason".into(), Value::from(r.as_anthropic()));
        }
        Value::Object(o)
    }

    /// Reads an OpenAI Chat choice (`{"message":..., "finish_reason":...}`)
    /// or a bare assistant message.
    pub(crate) fn from_openai_chat(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let o = expect_object(v, "", "a choice or an assistant message object")?;
        let (msg, at, mut turn) = match o.get("message") {
            Some(m) => {
                let stop_reason = match o.get("finish_reason") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(StopReason::from_openai_chat(s)),
                    Some(other) => {
                        return Err(ProtocolError::WrongType {
                            at: "/finish_reason".into(),
                            expected: "a string",
                            found: json_type(other),
                        });
                    }
                };
                let mut outer = other_members(o, &["message"]);
                // finish_reason: null is kept as given; a string is typed.
                if stop_reason.is_some() {
                    outer.remove("finish_reason");
                }
                let turn = AssistantTurn {
                    stop_reason,
                    envelope: Envelope::ChatChoice(outer),
                    ..AssistantTurn::default()
                };
                (
                    expect_object(m, "/message", "an assistant message object")?,
                    "/message",
                    turn,
                )
            }
            None => (o, "", AssistantTurn::default()),
        };
        expect_role(msg, at, "assistant")?;
        turn.native = Native::of(
            Vendor::OpenAiChat,
            other_members(msg, &["role", "content", "tool_calls"]),
        );
        let cat = ptr(at, "content");
        turn.chat_content = match msg.get("content") {
            None => ChatContent::Absent,
            Some(Value::Null) => ChatContent::Null,
            Some(Value::String(t)) => {
                turn.parts.push(TurnPart::Text(TextPart::new(t.clone())));
                ChatContent::String
            }
            Some(Value::Array(parts)) => {
                for (i, p) in parts.iter().enumerate() {
                    let pat = ptr_i(&cat, i);
                    let po = expect_object(p, &pat, "a content part object")?;
                    if po.get("type").and_then(Value::as_str) == Some("text") {
                        turn.parts.push(TurnPart::Text(TextPart {
                            text: required_str(po, "text", &pat)?.to_owned(),
                            native: Native::of(
                                Vendor::OpenAiChat,
                                other_members(po, &["type", "text"]),
                            ),
                            item_start: None,
                            easy: false,
                        }));
                    } else {
                        turn.parts.push(TurnPart::Native {
                            vendor: Vendor::OpenAiChat,
                            item: p.clone(),
                        });
                    }
                }
                ChatContent::Parts
            }
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: cat,
                    expected: "a string, null or an array of content parts",
                    found: json_type(other),
                });
            }
        };
        match msg.get("tool_calls") {
            None | Some(Value::Null) => {
                if let Some(Value::Null) = msg.get("tool_calls") {
                    turn.native.members.insert("tool_calls".into(), Value::Null);
                }
            }
            Some(Value::Array(calls)) => {
                let tat = ptr(at, "tool_calls");
                for (i, c) in calls.iter().enumerate() {
                    turn.parts.push(TurnPart::Call(ToolCall::from_openai_chat(
                        c,
                        &ptr_i(&tat, i),
                    )?));
                }
            }
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: ptr(at, "tool_calls"),
                    expected: "an array",
                    found: json_type(other),
                });
            }
        }
        Ok(turn)
    }

    /// Writes OpenAI Chat: a choice when the stop reason is known (or the
    /// turn was read as one), else a bare assistant message. Text goes to
    /// `content` (a string for one text, parts for several, `null` for none),
    /// calls to `tool_calls`.
    pub fn to_openai_chat(&self) -> Value {
        let v = Vendor::OpenAiChat;
        let mut m = self.native.start(v);
        m.insert("role".into(), Value::from("assistant"));
        let texts: Vec<&TextPart> = self
            .parts
            .iter()
            .filter_map(|p| match p {
                TurnPart::Text(t) => Some(t),
                _ => None,
            })
            .collect();
        let natives: Vec<&Value> = self
            .parts
            .iter()
            .filter_map(|p| match p {
                TurnPart::Native { vendor, item } if *vendor == v => Some(item),
                _ => None,
            })
            .collect();
        let form = match (self.chat_content, texts.len(), natives.is_empty()) {
            (_, _, false) => ChatContent::Parts,
            (ChatContent::Absent, 0, true) => ChatContent::Absent,
            (ChatContent::Parts, _, true) => ChatContent::Parts,
            (_, 0, true) => ChatContent::Null,
            (_, 1, true) => ChatContent::String,
            (_, _, true) => ChatContent::Parts,
        };
        match form {
            ChatContent::Absent => {}
            ChatContent::Null | ChatContent::Unknown => {
                m.insert("content".into(), Value::Null);
            }
            ChatContent::String => {
                let t = texts.first().map(|t| t.text.as_str()).unwrap_or_default();
                m.insert("content".into(), Value::from(t));
            }
            ChatContent::Parts => {
                let parts = self
                    .parts
                    .iter()
                    .filter_map(|p| match p {
                        TurnPart::Text(t) => Some(t.text_block(v)),
                        TurnPart::Native { vendor, item } if *vendor == v => Some(item.clone()),
                        _ => None,
                    })
                    .collect();
                m.insert("content".into(), Value::Array(parts));
            }
        }
        let calls: Vec<Value> = self.calls().map(ToolCall::to_openai_chat).collect();
        if !calls.is_empty() {
            m.insert("tool_calls".into(), Value::Array(calls));
        }
        let outer = match &self.envelope {
            Envelope::ChatChoice(outer) => Some(outer.clone()),
            _ if self.stop_reason.is_some() => {
                let mut o = Map::new();
                o.insert("index".into(), Value::from(0));
                Some(o)
            }
            _ => None,
        };
        match outer {
            None => Value::Object(m),
            Some(mut o) => {
                o.insert("message".into(), Value::Object(m));
                if let Some(r) = &self.stop_reason {
                    o.insert("finish_reason".into(), Value::from(r.as_openai_chat()));
                } else {
                    o.entry("finish_reason").or_insert(Value::Null);
                }
                Value::Object(o)
            }
        }
    }

    /// Reads OpenAI Responses output: a response object (`{"status",
    /// "output": [...]}`) or a bare array of output items.
    pub(crate) fn from_openai_responses(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let (items, at, mut turn) = match v {
            Value::Array(a) => (
                a.as_slice(),
                String::new(),
                AssistantTurn {
                    envelope: Envelope::ResponsesItems,
                    ..AssistantTurn::default()
                },
            ),
            Value::Object(o) => {
                let items = required_array(o, "output", "")?;
                let mut members = other_members(o, &["output"]);
                let status = members
                    .get("status")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let reason = o
                    .get("incomplete_details")
                    .and_then(|d| d.get("reason"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                // status (and incomplete_details) become the stop reason;
                // any other members are kept.
                let has_calls = items
                    .iter()
                    .any(|i| i.get("type").and_then(Value::as_str) == Some("function_call"));
                let stop = match (status.as_deref(), reason.as_deref()) {
                    (Some("completed"), _) if has_calls => Some(StopReason::ToolUse),
                    (Some("completed"), _) => Some(StopReason::EndTurn),
                    (Some("incomplete"), Some("max_output_tokens")) => Some(StopReason::MaxTokens),
                    (Some("incomplete"), Some("content_filter")) => Some(StopReason::Refusal),
                    _ => None,
                };
                if stop.is_some() {
                    members.remove("status");
                    if status.as_deref() == Some("incomplete") {
                        members.remove("incomplete_details");
                    }
                }
                (
                    items,
                    "/output".to_owned(),
                    AssistantTurn {
                        stop_reason: stop,
                        native: Native::of(Vendor::OpenAiResponses, members),
                        envelope: Envelope::ResponsesObject,
                        ..AssistantTurn::default()
                    },
                )
            }
            other => {
                return Err(ProtocolError::WrongType {
                    at: String::new(),
                    expected: "a response object or an array of output items",
                    found: json_type(other),
                });
            }
        };
        let at = if at.is_empty() { "" } else { at.as_str() };
        for (i, item) in items.iter().enumerate() {
            let iat = ptr_i(at, i);
            let io = expect_object(item, &iat, "an output item object")?;
            let ty = io.get("type").and_then(Value::as_str);
            if let (None | Some("message"), Some("assistant"), Some(Value::String(text))) = (
                ty,
                io.get("role").and_then(Value::as_str),
                io.get("content"),
            ) {
                // The easy input message OpenAI documents for earlier turns.
                turn.parts.push(TurnPart::Text(TextPart {
                    text: text.clone(),
                    native: Native::of(Vendor::OpenAiResponses, Map::new()),
                    item_start: Some(other_members(io, &["role", "content"])),
                    easy: true,
                }));
                continue;
            }
            match ty {
                Some("function_call") => turn
                    .parts
                    .push(TurnPart::Call(ToolCall::from_openai_responses(io, &iat)?)),
                Some("message") if is_plain_output_message(io) => {
                    let content = required_array(io, "content", &iat)?;
                    let item_members = other_members(io, &["type", "role", "content"]);
                    for (j, p) in content.iter().enumerate() {
                        let pat = ptr_i(&ptr(&iat, "content"), j);
                        let po = expect_object(p, &pat, "a content part object")?;
                        turn.parts.push(TurnPart::Text(TextPart {
                            text: required_str(po, "text", &pat)?.to_owned(),
                            native: Native::of(
                                Vendor::OpenAiResponses,
                                other_members(po, &["type", "text"]),
                            ),
                            item_start: (j == 0).then(|| item_members.clone()),
                            easy: false,
                        }));
                    }
                }
                Some(_) => turn.parts.push(TurnPart::Native {
                    vendor: Vendor::OpenAiResponses,
                    item: item.clone(),
                }),
                None => {
                    return Err(ProtocolError::MissingField {
                        at: iat,
                        field: "type",
                    });
                }
            }
        }
        Ok(turn)
    }

    /// Writes OpenAI Responses output: a response object when the stop
    /// reason is known (or the turn was read as one), else the array of
    /// output items. Consecutive texts share one `message` item; each call
    /// is a `function_call` item.
    pub fn to_openai_responses(&self) -> Value {
        let v = Vendor::OpenAiResponses;
        let mut items: Vec<Value> = Vec::new();
        // The message item being filled: its members and content parts.
        let mut open: Option<(Map, Vec<Value>)> = None;
        fn close(open: &mut Option<(Map, Vec<Value>)>, items: &mut Vec<Value>) {
            if let Some((mut m, parts)) = open.take() {
                m.insert("type".into(), Value::from("message"));
                m.insert("role".into(), Value::from("assistant"));
                m.insert("content".into(), Value::Array(parts));
                items.push(Value::Object(m));
            }
        }
        for p in &self.parts {
            match p {
                TurnPart::Text(t) if t.easy && t.native.vendor == Some(v) => {
                    close(&mut open, &mut items);
                    let mut m = t.item_start.clone().unwrap_or_default();
                    m.insert("role".into(), Value::from("assistant"));
                    m.insert("content".into(), Value::from(&t.text));
                    items.push(Value::Object(m));
                }
                TurnPart::Text(t) => {
                    let starts = t.native.vendor == Some(v) && t.item_start.is_some();
                    if starts || open.is_none() {
                        close(&mut open, &mut items);
                        let members = match (&t.item_start, t.native.vendor == Some(v)) {
                            (Some(m), true) => m.clone(),
                            _ => Map::new(),
                        };
                        open = Some((members, Vec::new()));
                    }
                    let mut part = if t.native.vendor == Some(v) {
                        t.native.members.clone()
                    } else {
                        let mut m = Map::new();
                        m.insert("annotations".into(), Value::Array(Vec::new()));
                        m
                    };
                    part.insert("type".into(), Value::from("output_text"));
                    part.insert("text".into(), Value::from(&t.text));
                    if let Some((_, parts)) = open.as_mut() {
                        parts.push(Value::Object(part));
                    }
                }
                TurnPart::Call(c) => {
                    close(&mut open, &mut items);
                    items.push(c.to_openai_responses());
                }
                TurnPart::Native { vendor, item } => {
                    close(&mut open, &mut items);
                    if *vendor == v {
                        items.push(item.clone());
                    }
                }
            }
        }
        close(&mut open, &mut items);
        let object = match self.envelope {
            Envelope::ResponsesObject => true,
            Envelope::ResponsesItems => false,
            _ => self.stop_reason.is_some(),
        };
        if !object {
            return Value::Array(items);
        }
        let mut o = self.native.start(v);
        o.insert("output".into(), Value::Array(items));
        match &self.stop_reason {
            None => {}
            Some(
                StopReason::MaxTokens
                | StopReason::EndOfStream
                | StopReason::Refusal
                | StopReason::ContentFilter,
            ) => {
                let reason = if matches!(
                    self.stop_reason,
                    Some(StopReason::MaxTokens | StopReason::EndOfStream)
                ) {
                    "max_output_tokens"
                } else {
                    "content_filter"
                };
                let mut d = Map::new();
                d.insert("reason".into(), Value::from(reason));
                o.insert("status".into(), Value::from("incomplete"));
                o.insert("incomplete_details".into(), Value::Object(d));
            }
            Some(_) => {
                o.insert("status".into(), Value::from("completed"));
            }
        }
        Value::Object(o)
    }
}

/// An output item as the SDK's input types take it: an assistant `message`
/// without the `id` and `status` only the API gives (so none of its own)
/// is one easy input message per text, `{"role": "assistant", "content":
/// "<text>"}`; any other item is itself.
fn input_form(item: Value) -> Vec<Value> {
    let Value::Object(o) = &item else {
        return vec![item];
    };
    let bare = o.get("type").and_then(Value::as_str) == Some("message")
        && !o.contains_key("id")
        && o.keys().all(|k| ["type", "role", "content"].contains(&k))
        && is_plain_output_message(o);
    // Only the empty `annotations` a writer adds may go.
    let texts: Option<Vec<Value>> = o.get("content").and_then(Value::as_array).map(|parts| {
        parts
            .iter()
            .filter(|p| {
                p.as_object().is_some_and(|p| {
                    p.iter().all(|(k, v)| match k {
                        "type" | "text" => true,
                        "annotations" => v.as_array().is_some_and(Vec::is_empty),
                        _ => false,
                    })
                })
            })
            .map(|p| p["text"].clone())
            .collect()
    });
    match texts {
        Some(texts) if bare && texts.len() == o["content"].as_array().map_or(0, Vec::len) => texts
            .into_iter()
            .map(|t| {
                let mut m = Map::new();
                m.insert("role".into(), Value::from("assistant"));
                m.insert("content".into(), t);
                Value::Object(m)
            })
            .collect(),
        _ => vec![item],
    }
}

/// A Responses `message` item whose content is all `output_text` parts (any
/// other message item is kept verbatim).
fn is_plain_output_message(io: &Map) -> bool {
    io.get("role").and_then(Value::as_str) == Some("assistant")
        && io
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|c| {
                !c.is_empty()
                    && c.iter().all(|p| {
                        p.get("type").and_then(Value::as_str) == Some("output_text")
                            && p.get("text").is_some_and(Value::is_string)
                    })
            })
}
