//! An assistant turn in Bedrock Converse JSON: a `Message` (`{"role":
//! "assistant", "content": [blocks]}`) or a whole `ConverseResponse`
//! (`{"output": {"message": {...}}, "stopReason", "usage", "metrics"}`).
//!
//! Blocks: `{"text"}` is a text, `{"toolUse": {"toolUseId", "name",
//! "input"}}` a call, anything else (`reasoningContent`, `cachePoint`, a
//! server tool's `toolResult`, `citationsContent`) is kept for Bedrock only.

use crate::value::{Map, Value};

use super::{AssistantTurn, Envelope};
use crate::protocol::Vendor;
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::{
    expect_object, expect_role, other_members, required_array, required_str,
};
use crate::protocol::native::Native;
use crate::protocol::slots::slotted;
use crate::protocol::stop::StopReason;
use crate::protocol::tool_call::{Arguments, TextPart, ToolCall, TurnPart};

/// Bedrock's `stopReason` as a stop reason (each word reads back as
/// itself).
pub(crate) fn stop_from_bedrock(word: &str) -> StopReason {
    match word {
        "end_turn" => StopReason::EndTurn,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" => StopReason::MaxTokens,
        "stop_sequence" => StopReason::StopSequence,
        "content_filtered" => StopReason::Refusal,
        other => StopReason::Other(other.to_owned()),
    }
}

/// The `stopReason` word for a stop reason.
pub(crate) fn stop_as_bedrock(r: &StopReason) -> &str {
    match r {
        StopReason::EndTurn | StopReason::PauseTurn => "end_turn",
        StopReason::ToolUse => "tool_use",
        StopReason::MaxTokens | StopReason::EndOfStream => "max_tokens",
        StopReason::StopSequence => "stop_sequence",
        StopReason::Refusal | StopReason::ContentFilter => "content_filtered",
        StopReason::Error { .. } => "end_turn",
        StopReason::Other(w) => w,
    }
}

/// A text block.
#[cfg(feature = "providers")]
pub(crate) fn bedrock_text(text: &str) -> TurnPart {
    let mut members = Map::new();
    members.insert("text".into(), Value::Null);
    TurnPart::Text(TextPart {
        text: text.to_owned(),
        native: Native::of(Vendor::Bedrock, members),
        item_start: None,
        easy: false,
    })
}

/// A `toolUse` block: `start` holds the members of the block as the
/// stream began it (`toolUseId`, `name`, `type`...), in order.
#[cfg(feature = "providers")]
pub(crate) fn bedrock_tool_use(start: &Map, arguments: Arguments) -> TurnPart {
    let id = start.get("toolUseId").and_then(Value::as_str).unwrap_or("");
    let name = start.get("name").and_then(Value::as_str).unwrap_or("");
    let mut inner = slotted(start, &["toolUseId", "name", "input"]);
    inner.entry("input").or_insert(Value::Null);
    let mut call = ToolCall::new(id, name, arguments);
    let mut members = Map::new();
    members.insert("toolUse".into(), Value::Object(inner));
    call.native = Native::of(Vendor::Bedrock, members);
    TurnPart::Call(call)
}

fn read_block(b: &Value, at: &str) -> Result<TurnPart, ProtocolError> {
    let o = expect_object(b, at, "a content block object")?;
    if let Some(Value::String(t)) = o.get("text") {
        return Ok(TurnPart::Text(TextPart {
            text: t.clone(),
            native: Native::of(Vendor::Bedrock, slotted(o, &["text"])),
            item_start: None,
            easy: false,
        }));
    }
    if let Some(tu) = o.get("toolUse") {
        let tat = ptr(at, "toolUse");
        let t = expect_object(tu, &tat, "a toolUse object")?;
        let id = required_str(t, "toolUseId", &tat)?.to_owned();
        let name = required_str(t, "name", &tat)?.to_owned();
        let input = t.get("input").ok_or_else(|| ProtocolError::MissingField {
            at: tat.clone(),
            field: "input",
        })?;
        let mut members = slotted(o, &[]);
        members.insert(
            "toolUse".into(),
            Value::Object(slotted(t, &["toolUseId", "name", "input"])),
        );
        let mut call = ToolCall::new(id, name, Arguments::from_anthropic_input(input));
        call.native = Native::of(Vendor::Bedrock, members);
        return Ok(TurnPart::Call(call));
    }
    Ok(TurnPart::Native {
        vendor: Vendor::Bedrock,
        item: b.clone(),
    })
}

/// Writes one block for Bedrock (`None`: another vendor's part).
pub(crate) fn write_block(p: &TurnPart) -> Option<Value> {
    let v = Vendor::Bedrock;
    match p {
        TurnPart::Text(t) => {
            let mut o = t.native.start(v);
            o.insert("text".into(), Value::from(&t.text));
            Some(Value::Object(o))
        }
        TurnPart::Call(c) => {
            let mut o = c.native.start(v);
            let mut t = match o.get("toolUse") {
                Some(Value::Object(inner)) => inner.clone(),
                _ => Map::new(),
            };
            t.insert("toolUseId".into(), Value::from(&c.id));
            t.insert("name".into(), Value::from(&c.name));
            t.insert("input".into(), c.arguments.to_anthropic_input());
            o.insert("toolUse".into(), Value::Object(t));
            Some(Value::Object(o))
        }
        TurnPart::Native { vendor, item } => (*vendor == v).then(|| item.clone()),
    }
}

impl AssistantTurn {
    /// Reads a Bedrock Converse assistant turn: a `Message` (`{"role":
    /// "assistant", "content": [...]}`) or a `ConverseResponse`
    /// (`{"output": {"message": {...}}, "stopReason": ..., "usage": ...}`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{AssistantTurn, StopReason, Vendor};
    /// let response = json!({
    ///     "output": {"message": {"role": "assistant", "content": [
    ///         {"toolUse": {"toolUseId": "tooluse_1", "name": "top_song", "input": {"sign": "WZPZ"}}}
    ///     ]}},
    ///     "stopReason": "tool_use",
    ///     "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}
    /// });
    /// let turn = AssistantTurn::from_vendor(Vendor::Bedrock, &response)?;
    /// assert_eq!(turn.stop_reason, Some(StopReason::ToolUse));
    /// assert_eq!(turn.to_bedrock(), response);
    /// let chat = turn.to_vendor(Vendor::OpenAiChat).lossless().unwrap();
    /// assert_eq!(chat["tool_calls"][0]["id"], "tooluse_1");
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub(crate) fn from_bedrock(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let o = expect_object(v, "", "a ConverseResponse or a message object")?;
        let (msg, at, mut turn) = match o.get("output") {
            Some(out) => {
                let oo = expect_object(out, "/output", "an output object")?;
                let m = oo
                    .get("message")
                    .ok_or_else(|| ProtocolError::MissingField {
                        at: "/output".into(),
                        field: "message",
                    })?;
                let mut slots = vec!["output"];
                let stop = match o.get("stopReason") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(w)) => {
                        slots.push("stopReason");
                        Some(stop_from_bedrock(w))
                    }
                    Some(other) => {
                        return Err(ProtocolError::WrongType {
                            at: "/stopReason".into(),
                            expected: "a string",
                            found: json_type(other),
                        });
                    }
                };
                let turn = AssistantTurn {
                    stop_reason: stop,
                    native: Native::of(Vendor::Bedrock, slotted(o, &slots)),
                    envelope: Envelope::BedrockResponse,
                    ..AssistantTurn::default()
                };
                (
                    expect_object(m, "/output/message", "a message object")?,
                    "/output/message",
                    turn,
                )
            }
            None => (
                o,
                "",
                AssistantTurn {
                    native: Native::of(Vendor::Bedrock, other_members(o, &["role", "content"])),
                    ..AssistantTurn::default()
                },
            ),
        };
        expect_role(msg, at, "assistant")?;
        let cat = ptr(at, "content");
        for (i, b) in required_array(msg, "content", at)?.iter().enumerate() {
            turn.parts.push(read_block(b, &ptr_i(&cat, i))?);
        }
        Ok(turn)
    }

    /// Writes the turn as Bedrock JSON: a `ConverseResponse` when it was
    /// read as one or its stop reason is known, else the `Message`. Parts of
    /// another vendor are left out ([`to_vendor`](Self::to_vendor) reports
    /// them).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{AssistantTurn, Vendor};
    /// let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &json!({"role": "assistant",
    ///     "content": [{"type": "text", "text": "Hi"}]}))?;
    /// assert_eq!(turn.to_bedrock(), json!({"role": "assistant", "content": [{"text": "Hi"}]}));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn to_bedrock(&self) -> Value {
        let message = self.bedrock_message();
        let whole = self.envelope == Envelope::BedrockResponse || self.stop_reason.is_some();
        if !whole {
            return message;
        }
        let mut o = if self.envelope == Envelope::BedrockResponse {
            self.native.start(Vendor::Bedrock)
        } else {
            Map::new()
        };
        let mut out = Map::new();
        out.insert("message".into(), message);
        o.insert("output".into(), Value::Object(out));
        if let Some(r) = &self.stop_reason {
            o.insert("stopReason".into(), Value::from(stop_as_bedrock(r)));
        }
        Value::Object(o)
    }

    /// The `{"role": "assistant", "content": [...]}` message.
    pub(crate) fn bedrock_message(&self) -> Value {
        let blocks: Vec<Value> = self.parts.iter().filter_map(write_block).collect();
        let mut m = Map::new();
        m.insert("role".into(), Value::from("assistant"));
        m.insert("content".into(), Value::Array(blocks));
        Value::Object(m)
    }

    /// A `ConverseResponse` built by a stream adapter, in the members'
    /// order of one the API returns (`usage` and `metrics` when reported).
    #[cfg(feature = "providers")]
    pub(crate) fn bedrock_response(
        parts: Vec<TurnPart>,
        stop: Option<&str>,
        usage: Option<&Value>,
        metrics: Option<&Value>,
    ) -> AssistantTurn {
        let mut members = Map::new();
        members.insert("output".into(), Value::Null);
        members.insert("stopReason".into(), Value::Null);
        if let Some(u) = usage {
            members.insert("usage".into(), u.clone());
        }
        if let Some(m) = metrics {
            members.insert("metrics".into(), m.clone());
        }
        AssistantTurn {
            parts,
            stop_reason: stop.map(stop_from_bedrock),
            native: Native::of(Vendor::Bedrock, members),
            envelope: Envelope::BedrockResponse,
            ..AssistantTurn::default()
        }
    }
}
