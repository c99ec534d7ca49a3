//! An assistant turn (text and tool calls) in the three vendor shapes:
//! Anthropic `tool_use` blocks, OpenAI Chat `tool_calls`, Responses
//! `function_call` items; read, written and converted keeping ids and order.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::Vendor;
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};

/// The key of the wrapper object Anthropic documents for sending back tool
/// input that is not valid JSON: `{"INVALID_JSON": "<raw text>"}`.
pub const INVALID_JSON_KEY: &str = "INVALID_JSON";

/// Members of one vendor's JSON that the common types do not model (`usage`,
/// `cache_control`, Responses `status`, ...). Written back for that vendor
/// only.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Native {
    pub(crate) vendor: Option<Vendor>,
    pub(crate) members: Map<String, Value>,
}

impl Native {
    fn of(vendor: Vendor, members: Map<String, Value>) -> Native {
        Native {
            vendor: Some(vendor),
            members,
        }
    }

    /// The members to start from when writing for `vendor`.
    pub(crate) fn start(&self, vendor: Vendor) -> Map<String, Value> {
        if self.vendor == Some(vendor) {
            self.members.clone()
        } else {
            Map::new()
        }
    }
}

/// The members of `obj` not named in `known`.
pub(crate) fn rest(obj: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

pub(crate) fn as_object<'a>(
    v: &'a Value,
    at: &str,
    expected: &'static str,
) -> Result<&'a Map<String, Value>, ProtocolError> {
    v.as_object().ok_or_else(|| ProtocolError::WrongType {
        at: at.to_owned(),
        expected,
        found: json_type(v),
    })
}

pub(crate) fn get_str<'a>(
    obj: &'a Map<String, Value>,
    key: &'static str,
    at: &str,
) -> Result<&'a str, ProtocolError> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "a string",
            found: json_type(other),
        }),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: key,
        }),
    }
}

pub(crate) fn get_array<'a>(
    obj: &'a Map<String, Value>,
    key: &'static str,
    at: &str,
) -> Result<&'a [Value], ProtocolError> {
    match obj.get(key) {
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "an array",
            found: json_type(other),
        }),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: key,
        }),
    }
}

pub(crate) fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

/// The arguments of a tool call.
///
/// Anthropic sends an object (`input`), OpenAI a JSON text (`arguments`).
/// Text that parses keeps both the value and the exact text, so writing it
/// back for OpenAI gives the same string; text that does not parse (a model
/// that wrote broken JSON, eager-streamed input cut short) is kept raw, and
/// goes to Anthropic as the documented `{"INVALID_JSON": "<raw text>"}`.
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use tooljson::protocol::Arguments;
/// let a = Arguments::from_text(r#"{"location": "Paris"}"#);
/// assert_eq!(a.value(), Some(&json!({"location": "Paris"})));
/// assert_eq!(a.text(), r#"{"location": "Paris"}"#);
///
/// let broken = Arguments::from_text(r#"{"location": "Par"#);
/// assert!(broken.value().is_none());
/// assert!(broken.parse_error().unwrap().is_truncated());
/// assert_eq!(broken.to_anthropic_input(), json!({"INVALID_JSON": "{\"location\": \"Par"}));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Arguments {
    /// Valid JSON. `text` is the exact text it was read from, when it came
    /// as text (OpenAI); `None` when it came as an object (Anthropic).
    Json {
        /// The parsed value (an object for every well-formed call).
        value: Value,
        /// The text it was parsed from, if any.
        text: Option<String>,
    },
    /// Text that is not one JSON value (invalid or truncated), kept as is.
    Invalid(String),
}

impl Arguments {
    /// Reads argument text. The empty text is `{}` (a tool without
    /// parameters streams no argument text); anything else must be exactly
    /// one JSON value (strict RFC 8259, as [`crate::from_str`]).
    pub fn from_text(text: &str) -> Arguments {
        if text.is_empty() {
            return Arguments::Json {
                value: Value::Object(Map::new()),
                text: Some(String::new()),
            };
        }
        match crate::from_str(text).map(|v| exact_json(&v)) {
            Ok(Some(value)) => Arguments::Json {
                value,
                text: Some(text.to_owned()),
            },
            // Out-of-range numbers (`1e400`) have no serde_json form: keep raw.
            Ok(None) | Err(_) => Arguments::Invalid(text.to_owned()),
        }
    }

    /// Arguments given as a value.
    pub fn from_value(value: Value) -> Arguments {
        Arguments::Json { value, text: None }
    }

    /// Arguments from Anthropic `input`: the value, except that the
    /// documented wrapper for invalid input, `{"INVALID_JSON": "<text>"}`
    /// whose text does not parse, is read back as [`Arguments::Invalid`], so
    /// broken OpenAI argument text survives a trip through Anthropic.
    pub fn from_anthropic_input(input: &Value) -> Arguments {
        if let Some(o) = input.as_object()
            && o.len() == 1
            && let Some(Value::String(raw)) = o.get(INVALID_JSON_KEY)
            && crate::from_str(raw).is_err()
        {
            return Arguments::Invalid(raw.clone());
        }
        Arguments::from_value(input.clone())
    }

    /// The parsed value, if the arguments are valid JSON.
    pub fn value(&self) -> Option<&Value> {
        match self {
            Arguments::Json { value, .. } => Some(value),
            Arguments::Invalid(_) => None,
        }
    }

    /// The argument text: the exact text read, else the compact JSON of the
    /// value (what OpenAI `arguments` holds).
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            Arguments::Json {
                text: Some(t),
                value: _,
            } => Cow::Borrowed(t),
            Arguments::Json { value, text: None } => Cow::Owned(value.to_string()),
            Arguments::Invalid(raw) => Cow::Borrowed(raw),
        }
    }

    /// Whether the arguments are valid JSON.
    pub fn is_valid(&self) -> bool {
        matches!(self, Arguments::Json { .. })
    }

    /// The parse error of invalid arguments: what, where (byte offset, line,
    /// column, path), and whether the text was cut short.
    pub fn parse_error(&self) -> Option<crate::Error> {
        match self {
            Arguments::Invalid(raw) => crate::from_str(raw).err(),
            Arguments::Json { .. } => None,
        }
    }

    /// The value of Anthropic's `input`: the value, or for invalid text the
    /// documented wrapper `{"INVALID_JSON": "<raw text>"}`.
    pub fn to_anthropic_input(&self) -> Value {
        match self {
            Arguments::Json { value, .. } => value.clone(),
            Arguments::Invalid(raw) => invalid_json_input(raw),
        }
    }
}

/// A parsed value as `serde_json::Value`, each number the nearest `f64` to
/// its text (Rust's correctly rounded parse: serde_json's default float
/// parser can be one unit in the last place off, which would break the
/// text to value to text round trip). `None` for a number beyond `f64`.
fn exact_json(v: &crate::Value) -> Option<Value> {
    Some(match v {
        crate::Value::Null => Value::Null,
        crate::Value::Bool(b) => Value::Bool(*b),
        crate::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                Value::Number(serde_json::Number::from_f64(n.as_f64()?)?)
            }
        }
        crate::Value::String(s) => Value::String(s.clone()),
        crate::Value::Array(a) => Value::Array(a.iter().map(exact_json).collect::<Option<_>>()?),
        crate::Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m.iter() {
                out.insert(k.to_owned(), exact_json(v)?);
            }
            Value::Object(out)
        }
    })
}

/// The wrapper Anthropic documents for tool input that is not valid JSON:
/// `{"INVALID_JSON": "<raw text>"}` (the raw text becomes a JSON string, so
/// its quotes and control characters are escaped).
///
/// # Examples
///
/// ```
/// let v = tooljson::protocol::invalid_json_input("{\"a\": \"b");
/// assert_eq!(v.to_string(), r#"{"INVALID_JSON":"{\"a\": \"b"}"#);
/// ```
pub fn invalid_json_input(raw: &str) -> Value {
    let mut o = Map::new();
    o.insert(INVALID_JSON_KEY.to_owned(), s(raw));
    Value::Object(o)
}

/// One tool call the model made.
///
/// `id` is what the result must echo: Anthropic `tool_use.id` (`toolu_…`),
/// OpenAI Chat `tool_calls[].id` (`call_…`), Responses `call_id` (`call_…`;
/// the item's own `id`, `fc_…`, is [`item_id`](Self::item_id)).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The call id the result is matched by.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments.
    pub arguments: Arguments,
    /// Responses only: the output item id (`fc_…`).
    pub item_id: Option<String>,
    native: Native,
}

impl ToolCall {
    /// A call from its parts.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Arguments) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments,
            item_id: None,
            native: Native::default(),
        }
    }

    fn from_anthropic(o: &Map<String, Value>, at: &str) -> Result<ToolCall, ProtocolError> {
        let id = get_str(o, "id", at)?.to_owned();
        let name = get_str(o, "name", at)?.to_owned();
        let input = o.get("input").ok_or_else(|| ProtocolError::MissingField {
            at: at.to_owned(),
            field: "input",
        })?;
        Ok(ToolCall {
            id,
            name,
            arguments: Arguments::from_anthropic_input(input),
            item_id: None,
            native: Native::of(Vendor::Anthropic, rest(o, &["type", "id", "name", "input"])),
        })
    }

    fn from_openai_chat(v: &Value, at: &str) -> Result<ToolCall, ProtocolError> {
        let o = as_object(v, at, "a tool call object")?;
        let id = get_str(o, "id", at)?.to_owned();
        let fat = ptr(at, "function");
        let f = as_object(
            o.get("function")
                .ok_or_else(|| ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "function",
                })?,
            &fat,
            "an object",
        )?;
        let name = get_str(f, "name", &fat)?.to_owned();
        let arguments = Arguments::from_text(get_str(f, "arguments", &fat)?);
        Ok(ToolCall {
            id,
            name,
            arguments,
            item_id: None,
            native: Native::of(Vendor::OpenAiChat, rest(o, &["id", "type", "function"])),
        })
    }

    fn from_openai_responses(o: &Map<String, Value>, at: &str) -> Result<ToolCall, ProtocolError> {
        let id = get_str(o, "call_id", at)?.to_owned();
        let name = get_str(o, "name", at)?.to_owned();
        let arguments = Arguments::from_text(get_str(o, "arguments", at)?);
        let item_id = match o.get("id") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: ptr(at, "id"),
                    expected: "a string",
                    found: json_type(other),
                });
            }
        };
        Ok(ToolCall {
            id,
            name,
            arguments,
            item_id,
            native: Native::of(
                Vendor::OpenAiResponses,
                rest(o, &["type", "id", "call_id", "name", "arguments"]),
            ),
        })
    }

    /// The call as an Anthropic `tool_use` block.
    pub fn to_anthropic(&self) -> Value {
        let mut o = self.native.start(Vendor::Anthropic);
        o.insert("type".into(), s("tool_use"));
        o.insert("id".into(), s(&self.id));
        o.insert("name".into(), s(&self.name));
        o.insert("input".into(), self.arguments.to_anthropic_input());
        Value::Object(o)
    }

    /// The call as an OpenAI Chat `tool_calls[]` entry.
    pub fn to_openai_chat(&self) -> Value {
        let mut f = Map::new();
        f.insert("name".into(), s(&self.name));
        f.insert("arguments".into(), s(&self.arguments.text()));
        let mut o = self.native.start(Vendor::OpenAiChat);
        o.insert("id".into(), s(&self.id));
        o.insert("type".into(), s("function"));
        o.insert("function".into(), Value::Object(f));
        Value::Object(o)
    }

    /// The call as a Responses `function_call` item.
    pub fn to_openai_responses(&self) -> Value {
        let mut o = self.native.start(Vendor::OpenAiResponses);
        o.insert("type".into(), s("function_call"));
        if let Some(id) = &self.item_id {
            o.insert("id".into(), s(id));
        }
        o.insert("call_id".into(), s(&self.id));
        o.insert("name".into(), s(&self.name));
        o.insert("arguments".into(), s(&self.arguments.text()));
        Value::Object(o)
    }
}

/// A piece of assistant text.
#[derive(Clone, Debug, PartialEq)]
pub struct TextPart {
    /// The text.
    pub text: String,
    /// Block-level members of the source vendor (Anthropic `citations`,
    /// Responses `annotations`, ...).
    native: Native,
    /// Responses: this text starts a new `message` item, with these item
    /// members (`id`, `status`, ...).
    item_start: Option<Map<String, Value>>,
}

impl TextPart {
    /// Plain text.
    pub fn new(text: impl Into<String>) -> TextPart {
        TextPart {
            text: text.into(),
            native: Native::default(),
            item_start: None,
        }
    }
}

/// One element of an assistant turn, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnPart {
    /// Text for the user.
    Text(TextPart),
    /// A tool call to run.
    Call(ToolCall),
    /// Something only one vendor has (Anthropic `thinking`,
    /// `redacted_thinking`, `server_tool_use` and its results; Responses
    /// `reasoning`, hosted-tool calls; an OpenAI refusal), kept verbatim
    /// and written back for that vendor only.
    Native {
        /// The vendor whose JSON `item` is.
        vendor: Vendor,
        /// The block or item, verbatim.
        item: Value,
    },
}

/// Why the model stopped: one type for a finished turn read from JSON and for
/// a streamed response.
///
/// | | Anthropic `stop_reason` | OpenAI Chat `finish_reason` | Responses `status` |
/// |---|---|---|---|
/// | [`ToolUse`](Self::ToolUse) | `tool_use` | `tool_calls` / `function_call` | `completed` with function calls |
/// | [`EndTurn`](Self::EndTurn) | `end_turn` | `stop` | `completed` |
/// | [`StopSequence`](Self::StopSequence) | `stop_sequence` | `stop` | `completed` |
/// | [`MaxTokens`](Self::MaxTokens) | `max_tokens` | `length` | `incomplete` (`max_output_tokens`) |
/// | [`Refusal`](Self::Refusal) | `refusal` | `content_filter` (read from a finished turn) | `incomplete` (`content_filter`) |
/// | [`ContentFilter`](Self::ContentFilter) | `refusal` | `content_filter` (streamed) | `incomplete` (`content_filter`) |
/// | [`PauseTurn`](Self::PauseTurn) | `pause_turn` | as given | `completed` |
/// | [`Error`](Self::Error) | an `error` event | an `{"error": ...}` chunk | `error`, `response.failed` |
/// | [`EndOfStream`](Self::EndOfStream) | the input ended early | the input ended early | the input ended early |
/// | [`Other`](Self::Other) | as given | as given | `completed` |
///
/// # Examples
///
/// ```
/// use tooljson::protocol::StopReason;
/// assert_eq!(StopReason::MaxTokens.as_openai_chat(), "length");
/// assert_eq!(StopReason::ContentFilter.as_str(), "content_filter");
/// assert!(!StopReason::EndOfStream.is_normal());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// Stopped to call tools: run them and reply.
    ToolUse,
    /// Finished normally.
    EndTurn,
    /// Hit a stop sequence (Anthropic only; OpenAI says `stop`).
    StopSequence,
    /// Ran out of output tokens (Anthropic `max_tokens` and
    /// `model_context_window_exceeded` when streamed): calls may be truncated.
    MaxTokens,
    /// Refused or filtered.
    Refusal,
    /// A content filter stopped a streamed output.
    ContentFilter,
    /// A long server-tool turn paused (Anthropic `pause_turn`).
    PauseTurn,
    /// An error event, or a stream the adapter could not follow.
    Error {
        /// The provider's error type or code (`overloaded_error`,
        /// `insufficient_quota`), or `protocol` / `stream` for errors found
        /// by the adapter.
        kind: String,
        /// The message.
        message: String,
    },
    /// The input ended before the provider's terminal event.
    EndOfStream,
    /// Any other value (`function_call` through Anthropic, a new word), as
    /// the provider gave it.
    Other(String),
}

impl StopReason {
    pub(crate) fn from_anthropic(s: &str) -> StopReason {
        match s {
            "tool_use" => StopReason::ToolUse,
            "end_turn" => StopReason::EndTurn,
            "stop_sequence" => StopReason::StopSequence,
            "max_tokens" => StopReason::MaxTokens,
            "refusal" => StopReason::Refusal,
            "pause_turn" => StopReason::PauseTurn,
            other => StopReason::Other(other.to_owned()),
        }
    }

    fn from_openai_chat(s: &str) -> StopReason {
        match s {
            "tool_calls" => StopReason::ToolUse,
            "stop" => StopReason::EndTurn,
            "length" => StopReason::MaxTokens,
            "content_filter" => StopReason::Refusal,
            other => StopReason::Other(other.to_owned()),
        }
    }

    /// The Anthropic `stop_reason` string.
    pub fn as_anthropic(&self) -> &str {
        match self {
            StopReason::ToolUse => "tool_use",
            StopReason::EndTurn => "end_turn",
            StopReason::StopSequence => "stop_sequence",
            StopReason::MaxTokens | StopReason::EndOfStream => "max_tokens",
            StopReason::Refusal | StopReason::ContentFilter => "refusal",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Error { .. } => "error",
            StopReason::Other(s) => s,
        }
    }

    /// The OpenAI Chat `finish_reason` string.
    pub fn as_openai_chat(&self) -> &str {
        match self {
            StopReason::ToolUse => "tool_calls",
            StopReason::EndTurn | StopReason::StopSequence => "stop",
            StopReason::MaxTokens | StopReason::EndOfStream => "length",
            StopReason::Refusal | StopReason::ContentFilter => "content_filter",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Error { .. } => "error",
            StopReason::Other(s) => s,
        }
    }

    /// The name used in NDJSON: `tool_use`, `end_turn`, `stop_sequence`,
    /// `max_tokens`, `refusal`, `content_filter`, `pause_turn`, `error`,
    /// `end_of_stream`, or the provider's own word.
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::ToolUse => "tool_use",
            StopReason::EndTurn => "end_turn",
            StopReason::StopSequence => "stop_sequence",
            StopReason::MaxTokens => "max_tokens",
            StopReason::Refusal => "refusal",
            StopReason::ContentFilter => "content_filter",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Error { .. } => "error",
            StopReason::EndOfStream => "end_of_stream",
            StopReason::Other(s) => s,
        }
    }

    /// Whether the response ended normally (not an error, a truncation, a
    /// filter or the end of the input).
    pub fn is_normal(&self) -> bool {
        !matches!(
            self,
            StopReason::MaxTokens
                | StopReason::Error { .. }
                | StopReason::EndOfStream
                | StopReason::ContentFilter
        )
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Error { kind, message } => write!(f, "error ({kind}): {message}"),
            other => f.write_str(other.as_str()),
        }
    }
}

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
    ChatChoice(Map<String, Value>),
    /// Responses: read as a bare array of output items.
    ResponsesItems,
    /// Responses: read as a response object (`{"status", "output", ...}`).
    ResponsesObject,
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
/// use serde_json::json;
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
/// let turn = AssistantTurn::from_anthropic(&message)?;
/// assert_eq!(turn.stop_reason, Some(StopReason::ToolUse));
/// let chat = turn.to_openai_chat();
/// assert_eq!(chat["finish_reason"], "tool_calls");
/// assert_eq!(chat["message"]["content"], "Let me check.");
/// assert_eq!(chat["message"]["tool_calls"][0]["function"]["arguments"],
///            r#"{"location":"San Francisco, CA"}"#);
/// let back = AssistantTurn::from_openai_chat(&chat)?;
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
            Vendor::Gemini | Vendor::Bedrock => Err(unsupported(vendor)),
        }
    }

    /// Writes the turn in `vendor`'s shape ([`ProtocolError::UnsupportedVendor`]
    /// for Gemini and Bedrock).
    pub fn to_vendor(&self, vendor: Vendor) -> Result<Value, ProtocolError> {
        Ok(match vendor {
            Vendor::Anthropic => self.to_anthropic(),
            Vendor::OpenAiChat => self.to_openai_chat(),
            Vendor::OpenAiResponses => self.to_openai_responses(),
            Vendor::Gemini | Vendor::Bedrock => return Err(unsupported(vendor)),
        })
    }

    /// Reads an Anthropic assistant message.
    pub fn from_anthropic(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let o = as_object(v, "", "an assistant message object")?;
        check_role(o, "", "assistant")?;
        let mut turn = AssistantTurn {
            native: Native::of(
                Vendor::Anthropic,
                rest(o, &["role", "content", "stop_reason"]),
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
                    let bo = as_object(b, &at, "a content block object")?;
                    let part = match bo.get("type").and_then(Value::as_str) {
                        Some("text") => TurnPart::Text(TextPart {
                            text: get_str(bo, "text", &at)?.to_owned(),
                            native: Native::of(Vendor::Anthropic, rest(bo, &["type", "text"])),
                            item_start: None,
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
        o.insert("role".into(), s("assistant"));
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
                    TurnPart::Text(t) => {
                        let mut b = t.native.start(v);
                        b.insert("type".into(), s("text"));
                        b.insert("text".into(), s(&t.text));
                        Some(Value::Object(b))
                    }
                    TurnPart::Call(c) => Some(c.to_anthropic()),
                    TurnPart::Native { vendor, item } => (*vendor == v).then(|| item.clone()),
                })
                .collect();
            o.insert("content".into(), Value::Array(blocks));
        }
        if let Some(r) = &self.stop_reason {
            o.insert("stop_reason".into(), s(r.as_anthropic()));
        }
        Value::Object(o)
    }

    /// Reads an OpenAI Chat choice (`{"message":..., "finish_reason":...}`)
    /// or a bare assistant message.
    pub fn from_openai_chat(v: &Value) -> Result<AssistantTurn, ProtocolError> {
        let o = as_object(v, "", "a choice or an assistant message object")?;
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
                let mut outer = rest(o, &["message"]);
                // finish_reason: null is kept as given; a string is typed.
                if stop_reason.is_some() {
                    outer.shift_remove("finish_reason");
                }
                let turn = AssistantTurn {
                    stop_reason,
                    envelope: Envelope::ChatChoice(outer),
                    ..AssistantTurn::default()
                };
                (
                    as_object(m, "/message", "an assistant message object")?,
                    "/message",
                    turn,
                )
            }
            None => (o, "", AssistantTurn::default()),
        };
        check_role(msg, at, "assistant")?;
        turn.native = Native::of(
            Vendor::OpenAiChat,
            rest(msg, &["role", "content", "tool_calls"]),
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
                    let po = as_object(p, &pat, "a content part object")?;
                    if po.get("type").and_then(Value::as_str) == Some("text") {
                        turn.parts.push(TurnPart::Text(TextPart {
                            text: get_str(po, "text", &pat)?.to_owned(),
                            native: Native::of(Vendor::OpenAiChat, rest(po, &["type", "text"])),
                            item_start: None,
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
        m.insert("role".into(), s("assistant"));
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
                m.insert("content".into(), s(t));
            }
            ChatContent::Parts => {
                let parts = self
                    .parts
                    .iter()
                    .filter_map(|p| match p {
                        TurnPart::Text(t) => {
                            let mut b = t.native.start(v);
                            b.insert("type".into(), s("text"));
                            b.insert("text".into(), s(&t.text));
                            Some(Value::Object(b))
                        }
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
                    o.insert("finish_reason".into(), s(r.as_openai_chat()));
                } else {
                    o.entry("finish_reason").or_insert(Value::Null);
                }
                Value::Object(o)
            }
        }
    }

    /// Reads OpenAI Responses output: a response object (`{"status",
    /// "output": [...]}`) or a bare array of output items.
    pub fn from_openai_responses(v: &Value) -> Result<AssistantTurn, ProtocolError> {
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
                let items = get_array(o, "output", "")?;
                let mut members = rest(o, &["output"]);
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
                    members.shift_remove("status");
                    if status.as_deref() == Some("incomplete") {
                        members.shift_remove("incomplete_details");
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
            let io = as_object(item, &iat, "an output item object")?;
            match io.get("type").and_then(Value::as_str) {
                Some("function_call") => turn
                    .parts
                    .push(TurnPart::Call(ToolCall::from_openai_responses(io, &iat)?)),
                Some("message") if is_plain_output_message(io) => {
                    let content = get_array(io, "content", &iat)?;
                    let item_members = rest(io, &["type", "role", "content"]);
                    for (j, p) in content.iter().enumerate() {
                        let pat = ptr_i(&ptr(&iat, "content"), j);
                        let po = as_object(p, &pat, "a content part object")?;
                        turn.parts.push(TurnPart::Text(TextPart {
                            text: get_str(po, "text", &pat)?.to_owned(),
                            native: Native::of(
                                Vendor::OpenAiResponses,
                                rest(po, &["type", "text"]),
                            ),
                            item_start: (j == 0).then(|| item_members.clone()),
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
        let mut open: Option<(Map<String, Value>, Vec<Value>)> = None;
        fn close(open: &mut Option<(Map<String, Value>, Vec<Value>)>, items: &mut Vec<Value>) {
            if let Some((mut m, parts)) = open.take() {
                m.insert("type".into(), s("message"));
                m.insert("role".into(), s("assistant"));
                m.insert("content".into(), Value::Array(parts));
                items.push(Value::Object(m));
            }
        }
        for p in &self.parts {
            match p {
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
                    part.insert("type".into(), s("output_text"));
                    part.insert("text".into(), s(&t.text));
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
                d.insert("reason".into(), s(reason));
                o.insert("status".into(), s("incomplete"));
                o.insert("incomplete_details".into(), Value::Object(d));
            }
            Some(_) => {
                o.insert("status".into(), s("completed"));
            }
        }
        Value::Object(o)
    }
}

/// A Responses `message` item whose content is all `output_text` parts (any
/// other message item is kept verbatim).
fn is_plain_output_message(io: &Map<String, Value>) -> bool {
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

pub(crate) fn check_role(
    o: &Map<String, Value>,
    at: &str,
    role: &'static str,
) -> Result<(), ProtocolError> {
    match o.get("role") {
        Some(Value::String(r)) if r == role => Ok(()),
        Some(other) => Err(ProtocolError::UnknownShape {
            at: ptr(at, "role"),
            expected: match role {
                "assistant" => "role \"assistant\"",
                "user" => "role \"user\"",
                _ => "role \"tool\"",
            },
            found: short(other),
        }),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: "role",
        }),
    }
}

fn unsupported(vendor: Vendor) -> ProtocolError {
    ProtocolError::UnsupportedVendor {
        vendor,
        what: "an assistant turn",
    }
}
