//! An assistant turn in Gemini's JSON: a `Content` (`{"role": "model",
//! "parts": [...]}`) or a candidate of a `GenerateContentResponse`
//! (`{"content": {...}, "finishReason", "index", ...}`).
//!
//! Parts: `{"text"}` is a text, `{"functionCall": {"id"?, "name", "args"}}`
//! a call, anything else (a `thought` part, `executableCode`, inline data)
//! is kept for Gemini only. A `thoughtSignature` stays on the part it came
//! with; for another vendor it is a loss. Members are kept in the order
//! read: the typed ones stand as `null` slots in the kept members and are
//! filled back in place when written for Gemini.

use crate::value::{Map, Value};

use super::{AssistantTurn, Envelope};
use crate::protocol::Vendor;
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::{expect_object, other_members, required_str};
use crate::protocol::native::Native;
#[cfg(feature = "providers")]
use crate::protocol::slots::idless;
use crate::protocol::slots::{IDLESS, is_idless, slotted};
use crate::protocol::stop::StopReason;
use crate::protocol::tool_call::{Arguments, TextPart, ToolCall, TurnPart};

/// Names the calls read without id `{prefix}{k}` (`k`: the call's place
/// among the turn's calls), in order; returns every call's id.
pub(crate) fn name_idless_calls(turn: &mut AssistantTurn, prefix: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for (k, c) in turn
        .parts
        .iter_mut()
        .filter_map(|p| match p {
            TurnPart::Call(c) => Some(c),
            _ => None,
        })
        .enumerate()
    {
        if is_idless(c.native.vendor, &c.native.members, "functionCall") {
            c.id = format!("{prefix}{k}");
        }
        ids.push(c.id.clone());
    }
    ids
}

/// Gemini's `finishReason` as a stop reason. `STOP` says the same for a
/// finished text and for calls: the calls decide.
pub(crate) fn stop_from_gemini(word: &str, has_calls: bool) -> StopReason {
    match word {
        "STOP" if has_calls => StopReason::ToolUse,
        "STOP" => StopReason::EndTurn,
        "MAX_TOKENS" => StopReason::MaxTokens,
        "SAFETY" => StopReason::Refusal,
        other => StopReason::Other(other.to_owned()),
    }
}

/// The `finishReason` word for a stop reason.
pub(crate) fn stop_as_gemini(r: &StopReason) -> &str {
    match r {
        StopReason::ToolUse
        | StopReason::EndTurn
        | StopReason::StopSequence
        | StopReason::PauseTurn => "STOP",
        StopReason::MaxTokens | StopReason::EndOfStream => "MAX_TOKENS",
        StopReason::Refusal | StopReason::ContentFilter => "SAFETY",
        StopReason::Error { .. } => "OTHER",
        StopReason::Other(w) => w,
    }
}

/// A text part in Gemini's JSON (`signature`: its `thoughtSignature`).
#[cfg(feature = "providers")]
pub(crate) fn gemini_text(text: &str, signature: Option<&str>) -> TurnPart {
    let mut members = Map::new();
    members.insert("text".into(), Value::Null);
    if let Some(sig) = signature {
        members.insert("thoughtSignature".into(), Value::from(sig));
    }
    TurnPart::Text(TextPart {
        text: text.to_owned(),
        native: Native::of(Vendor::Gemini, members),
        item_start: None,
        easy: false,
    })
}

/// A call part in Gemini's JSON: the call, with the part's
/// `thoughtSignature`.
#[cfg(feature = "providers")]
pub(crate) fn gemini_call(mut call: ToolCall, signature: Option<&str>) -> TurnPart {
    let mut members = Map::new();
    members.insert(
        "functionCall".into(),
        if call.id.is_empty() {
            idless()
        } else {
            Value::Null
        },
    );
    if let Some(sig) = signature {
        members.insert("thoughtSignature".into(), Value::from(sig));
    }
    call.native = Native::of(Vendor::Gemini, members);
    TurnPart::Call(call)
}

/// Reads one part of a model turn.
pub(crate) fn read_part(p: &Value, at: &str) -> Result<TurnPart, ProtocolError> {
    let o = expect_object(p, at, "a part object")?;
    let thought = o.get("thought").and_then(Value::as_bool) == Some(true);
    if let Some(Value::String(t)) = o.get("text")
        && !thought
    {
        return Ok(TurnPart::Text(TextPart {
            text: t.clone(),
            native: Native::of(Vendor::Gemini, slotted(o, &["text"])),
            item_start: None,
            easy: false,
        }));
    }
    if let Some(fc) = o.get("functionCall") {
        let fat = ptr(at, "functionCall");
        let f = expect_object(fc, &fat, "a functionCall object")?;
        let id = match f.get("id") {
            None => String::new(),
            Some(Value::String(id)) => id.clone(),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: ptr(&fat, "id"),
                    expected: "a string",
                    found: json_type(other),
                });
            }
        };
        let name = required_str(f, "name", &fat)?.to_owned();
        // No `args`: a call without arguments, as empty argument text is.
        let arguments = match f.get("args") {
            None => Arguments::from_text(""),
            Some(a) => Arguments::from_anthropic_input(a),
        };
        let mut members = slotted(o, &["functionCall"]);
        let mut extra = slotted(f, &["id", "name", "args"]);
        if id.is_empty() {
            extra.insert(IDLESS.into(), Value::Bool(true));
        }
        if extra.values().any(|v| !v.is_null()) {
            members.insert("functionCall".into(), Value::Object(extra));
        }
        let mut call = ToolCall::new(id, name, arguments);
        call.native = Native::of(Vendor::Gemini, members);
        return Ok(TurnPart::Call(call));
    }
    Ok(TurnPart::Native {
        vendor: Vendor::Gemini,
        item: p.clone(),
    })
}

/// Writes one part of a model turn for Gemini (`None`: another vendor's
/// part, which has no place here).
pub(crate) fn write_part(p: &TurnPart) -> Option<Value> {
    let v = Vendor::Gemini;
    match p {
        TurnPart::Text(t) => {
            let mut o = t.native.start(v);
            o.insert("text".into(), Value::from(&t.text));
            Some(Value::Object(o))
        }
        TurnPart::Call(c) => {
            let mut o = c.native.start(v);
            let mut f = match o.get("functionCall") {
                Some(Value::Object(extra)) => extra.clone(),
                _ => Map::new(),
            };
            // A call read without id is written back without the id it
            // was given.
            if f.shift_remove(IDLESS).is_some() || c.id.is_empty() {
                f.shift_remove("id");
            } else {
                f.insert("id".into(), Value::from(&c.id));
            }
            f.insert("name".into(), Value::from(&c.name));
            match &c.arguments {
                Arguments::Json {
                    text: Some(t),
                    value,
                } if t.is_empty() && value.as_object().is_some_and(Map::is_empty) => {
                    f.shift_remove("args");
                }
                a => {
                    f.insert("args".into(), a.to_anthropic_input());
                }
            }
            o.insert("functionCall".into(), Value::Object(f));
            Some(Value::Object(o))
        }
        TurnPart::Native { vendor, item } => (*vendor == v).then(|| item.clone()),
    }
}

impl AssistantTurn {
    /// Reads a Gemini model turn: a `Content` (`{"role": "model", "parts":
    /// [...]}`) or a response candidate (`{"content": {...},
    /// "finishReason": ..., "index": ...}`).
    ///
    /// A `functionCall` without `id` (the Gemini API gives none unless
    /// asked) is named `gemini_call_{k}` (its place among the turn's
    /// calls), so that the vendors that match results by id can carry it;
    /// written for Gemini it has no id again, and for another vendor the
    /// given id is a loss that reads back differently.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{AssistantTurn, StopReason, Vendor};
    /// let candidate = json!({
    ///     "content": {"role": "model", "parts": [
    ///         {"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Oslo"}}}
    ///     ]},
    ///     "finishReason": "STOP", "index": 0
    /// });
    /// let turn = AssistantTurn::from_vendor(Vendor::Gemini, &candidate)?;
    /// assert_eq!(turn.stop_reason, Some(StopReason::ToolUse));
    /// assert_eq!(turn.to_gemini(), candidate);
    /// let anthropic = turn.to_vendor(Vendor::Anthropic).lossless().unwrap();
    /// assert_eq!(anthropic["content"][0]["id"], "c1");
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub(crate) fn from_gemini(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let o = expect_object(v, "", "a candidate or a Content object")?;
        let (content, at, mut turn) = match o.get("content") {
            Some(c) if !o.contains_key("parts") => {
                let mut slots = vec!["content"];
                if o.get("finishReason").is_some_and(|f| !f.is_null()) {
                    slots.push("finishReason");
                }
                let turn = AssistantTurn {
                    native: Native::of(Vendor::Gemini, slotted(o, &slots)),
                    envelope: Envelope::GeminiCandidate,
                    ..AssistantTurn::default()
                };
                (
                    expect_object(c, "/content", "a Content object")?,
                    "/content",
                    turn,
                )
            }
            _ => (
                o,
                "",
                AssistantTurn {
                    native: Native::of(Vendor::Gemini, other_members(o, &["role", "parts"])),
                    ..AssistantTurn::default()
                },
            ),
        };
        match content.get("role") {
            None => {}
            Some(Value::String(r)) if r == "model" => {}
            Some(other) => {
                return Err(ProtocolError::UnknownShape {
                    at: ptr(at, "role"),
                    expected: "role \"model\"",
                    found: other.to_string(),
                });
            }
        }
        let pat = ptr(at, "parts");
        let parts = match content.get("parts") {
            None => &[][..],
            Some(Value::Array(a)) => a.as_slice(),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: pat,
                    expected: "an array of parts",
                    found: json_type(other),
                });
            }
        };
        for (i, p) in parts.iter().enumerate() {
            turn.parts.push(read_part(p, &ptr_i(&pat, i))?);
        }
        name_idless_calls(&mut turn, "gemini_call_");
        let has_calls = turn.calls().next().is_some();
        turn.stop_reason = match o.get("finishReason") {
            None | Some(Value::Null) => None,
            Some(Value::String(w)) if turn.envelope == Envelope::GeminiCandidate => {
                Some(stop_from_gemini(w, has_calls))
            }
            Some(Value::String(_)) => None,
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/finishReason".into(),
                    expected: "a string",
                    found: json_type(other),
                });
            }
        };
        Ok(turn)
    }

    /// Writes the turn as Gemini JSON: a candidate when it was read as one
    /// or its stop reason is known, else the `Content`. Parts of another
    /// vendor are left out ([`to_vendor`](Self::to_vendor) reports them).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{AssistantTurn, Vendor};
    /// let turn = AssistantTurn::from_vendor(Vendor::OpenAiChat, &json!({"role": "assistant", "content": "Hi"}))?;
    /// assert_eq!(turn.to_gemini(), json!({"role": "model", "parts": [{"text": "Hi"}]}));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn to_gemini(&self) -> Value {
        let content = self.gemini_content();
        let candidate = self.envelope == Envelope::GeminiCandidate || self.stop_reason.is_some();
        if !candidate {
            return content;
        }
        let mut o = if self.envelope == Envelope::GeminiCandidate {
            self.native.start(Vendor::Gemini)
        } else {
            Map::new()
        };
        o.insert("content".into(), content);
        if let Some(r) = &self.stop_reason {
            o.insert("finishReason".into(), Value::from(stop_as_gemini(r)));
        }
        Value::Object(o)
    }

    /// The `{"role": "model", "parts": [...]}` content.
    pub(crate) fn gemini_content(&self) -> Value {
        let parts: Vec<Value> = self.parts.iter().filter_map(write_part).collect();
        let mut c = Map::new();
        c.insert("role".into(), Value::from("model"));
        c.insert("parts".into(), Value::Array(parts));
        Value::Object(c)
    }

    /// A candidate built by a stream adapter: its index, parts, finish
    /// word and the response's `usageMetadata`, in the members' order of a
    /// candidate the API returns.
    #[cfg(feature = "providers")]
    pub(crate) fn gemini_candidate(
        index: u64,
        parts: Vec<TurnPart>,
        finish: Option<&str>,
        usage: Option<&Value>,
    ) -> AssistantTurn {
        let mut members = Map::new();
        members.insert("index".into(), Value::from(index));
        members.insert("content".into(), Value::Null);
        members.insert("finishReason".into(), Value::Null);
        if let Some(u) = usage {
            members.insert("usageMetadata".into(), u.clone());
        }
        let has_calls = parts.iter().any(|p| matches!(p, TurnPart::Call(_)));
        let mut turn = AssistantTurn {
            parts,
            stop_reason: finish.map(|w| stop_from_gemini(w, has_calls)),
            native: Native::of(Vendor::Gemini, members),
            envelope: Envelope::GeminiCandidate,
            ..AssistantTurn::default()
        };
        name_idless_calls(&mut turn, "gemini_call_");
        turn
    }
}
