//! The parts of an assistant turn: a [`ToolCall`] with its [`Arguments`]
//! (value and exact text, or raw invalid text), a [`TextPart`], and the
//! [`TurnPart`] that orders them; each call read and written as an Anthropic
//! `tool_use` block, a Chat `tool_calls` entry or a Responses
//! `function_call` item. The turn that holds them is in `turn.rs`.

use std::borrow::Cow;

use crate::value::{Map, Value};

use super::Vendor;
use super::error::{ProtocolError, json_type, ptr};
use super::json_read::{expect_object, other_members, required_str};
use super::native::Native;

/// The key of the wrapper object Anthropic documents for sending back tool
/// input that is not valid JSON: `{"INVALID_JSON": "<raw text>"}`.
pub const INVALID_JSON_KEY: &str = "INVALID_JSON";

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
/// use tooljson::json;
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
        match parse_arguments(text) {
            Ok(value) => Arguments::Json {
                value,
                text: Some(text.to_owned()),
            },
            Err(_) => Arguments::Invalid(text.to_owned()),
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
            && parse_arguments(raw).is_err()
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
            Arguments::Invalid(raw) => parse_arguments(raw).err(),
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

/// Parses argument text as one JSON value, numbers kept as written and a
/// repeated key refused (an error at the repeated key): the value could not
/// say which of the two the model meant, so the text is kept instead.
pub(crate) fn parse_arguments(text: &str) -> Result<Value, crate::Error> {
    let mut parser = crate::parser::Parser::new();
    parser.set_duplicate_keys(crate::parser::DuplicateKeys::Error);
    let mut builder = crate::parser::ValueBuilder::new();
    parser.feed(text.as_bytes(), &mut builder)?;
    parser.finish(&mut builder)?;
    Ok(builder.into_value().unwrap_or_default())
}

/// Numbers named one by one in a loss report; past it, one summary loss.
const MAX_NUMBER_LOSSES: usize = 8;

/// The text a double gives back for `lexeme` (`null`: out of range).
fn as_double(lexeme: &str) -> String {
    lexeme
        .parse::<f64>()
        .ok()
        .and_then(crate::Number::from_f64)
        .map_or_else(|| "null".to_owned(), |n| n.as_str().to_owned())
}

/// The numbers in `v` whose text does not come back from a double: a
/// double's shortest text, or an integer that a double holds exactly.
fn inexact_numbers(v: &Value, out: &mut Vec<String>) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) => {
                let lexeme = n.as_str();
                let exact_int = n
                    .as_i64()
                    .is_some_and(|i| i.unsigned_abs() <= 1 << 53 && i.to_string() == lexeme);
                if !exact_int && as_double(lexeme) != lexeme {
                    out.push(lexeme.to_owned());
                }
            }
            Value::Array(a) => stack.extend(a.iter().rev()),
            Value::Object(m) => stack.extend(m.values().rev()),
            _ => {}
        }
    }
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
    o.insert(INVALID_JSON_KEY.to_owned(), Value::from(raw));
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
    pub(crate) native: Native,
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

    pub(crate) fn from_anthropic(o: &Map, at: &str) -> Result<ToolCall, ProtocolError> {
        let id = required_str(o, "id", at)?.to_owned();
        let name = required_str(o, "name", at)?.to_owned();
        let input = o.get("input").ok_or_else(|| ProtocolError::MissingField {
            at: at.to_owned(),
            field: "input",
        })?;
        Ok(ToolCall {
            id,
            name,
            arguments: Arguments::from_anthropic_input(input),
            item_id: None,
            native: Native::of(
                Vendor::Anthropic,
                other_members(o, &["type", "id", "name", "input"]),
            ),
        })
    }

    pub(crate) fn from_openai_chat(v: &Value, at: &str) -> Result<ToolCall, ProtocolError> {
        let o = expect_object(v, at, "a tool call object")?;
        let id = required_str(o, "id", at)?.to_owned();
        let fat = ptr(at, "function");
        let f = expect_object(
            o.get("function")
                .ok_or_else(|| ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "function",
                })?,
            &fat,
            "an object",
        )?;
        let name = required_str(f, "name", &fat)?.to_owned();
        let arguments = Arguments::from_text(required_str(f, "arguments", &fat)?);
        Ok(ToolCall {
            id,
            name,
            arguments,
            item_id: None,
            native: Native::of(
                Vendor::OpenAiChat,
                other_members(o, &["id", "type", "function"]),
            ),
        })
    }

    pub(crate) fn from_openai_responses(o: &Map, at: &str) -> Result<ToolCall, ProtocolError> {
        let id = required_str(o, "call_id", at)?.to_owned();
        let name = required_str(o, "name", at)?.to_owned();
        let arguments = Arguments::from_text(required_str(o, "arguments", at)?);
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
                other_members(o, &["type", "id", "call_id", "name", "arguments"]),
            ),
        })
    }

    /// Records the call's vendor-only members as dropped for another
    /// vendor. Responses item bookkeeping (`status`) is not content.
    pub(crate) fn report_dropped(
        &self,
        vendor: Vendor,
        at: &str,
        losses: &mut super::loss::Losses,
    ) {
        let mut native = self.native.clone();
        native.members.remove("status");
        if let Some(Value::Object(f)) = native.members.get_mut("functionCall") {
            f.shift_remove(super::slots::IDLESS);
        }
        native.report_dropped(vendor, at, losses);
        // A Gemini call may come without id; the others match results by it.
        if vendor != Vendor::Gemini {
            if self.id.is_empty() {
                losses.push(
                    &ptr(at, "id"),
                    "id",
                    super::loss::LossEffect::MissingRequired,
                    &format!("the call has no id, and {vendor} matches results to calls by id"),
                );
            } else if super::slots::is_idless(
                self.native.vendor,
                &self.native.members,
                "functionCall",
            ) {
                losses.push(
                    &ptr(at, "functionCall"),
                    "id",
                    super::loss::LossEffect::ReadsBackDifferently,
                    &format!(
                        "the Gemini call has no id; {vendor} needs one: written as {:?}, which \
                         reads back as the call's id",
                        self.id
                    ),
                );
            }
        }
        if self.item_id.is_some() && vendor != Vendor::OpenAiResponses {
            losses.push(
                &ptr(at, "id"),
                "id",
                super::loss::LossEffect::Dropped,
                &format!("{vendor} has no item id beside the call id"),
            );
        }
        self.report_arguments(vendor, at, losses);
    }

    /// Arguments a target cannot carry as they are: text that is not one
    /// JSON object (or repeats a key) where the target takes an object, and
    /// for Gemini (whose `args` is a protobuf `Struct`: numbers are doubles)
    /// each number whose text a double does not give back.
    fn report_arguments(&self, vendor: Vendor, at: &str, losses: &mut super::loss::Losses) {
        let member = match self.native.vendor {
            Some(Vendor::OpenAiChat) => "function/arguments",
            Some(Vendor::OpenAiResponses) => "arguments",
            Some(Vendor::Gemini) => "functionCall/args",
            Some(Vendor::Bedrock) => "toolUse/input",
            _ => "input",
        };
        let at = format!("{at}/{member}");
        let takes_object = matches!(vendor, Vendor::Anthropic | Vendor::Gemini | Vendor::Bedrock);
        match &self.arguments {
            Arguments::Invalid(raw) if takes_object => {
                let why = match parse_arguments(raw) {
                    Err(e) => format!("the text is not one JSON object ({e})"),
                    Ok(_) => "the text is not one JSON object".to_owned(),
                };
                losses.push(
                    &at,
                    "arguments",
                    super::loss::LossEffect::ReadsBackDifferently,
                    &format!(
                        "{why}; {vendor} takes an object: written as {{\"{INVALID_JSON_KEY}\": \"<text>\"}}"
                    ),
                );
            }
            Arguments::Json { value, .. } if takes_object && !value.is_object() => {
                losses.push(
                    &at,
                    "arguments",
                    super::loss::LossEffect::ReadsBackDifferently,
                    &format!(
                        "the arguments are {} {}, and {vendor} takes an object",
                        if value.is_array() { "an" } else { "a" },
                        value.type_name()
                    ),
                );
            }
            Arguments::Json { value, .. } if vendor == Vendor::Gemini => {
                let mut bad = Vec::new();
                inexact_numbers(value, &mut bad);
                for lexeme in bad.iter().take(MAX_NUMBER_LOSSES) {
                    losses.push(
                        &at,
                        "number",
                        super::loss::LossEffect::ReadsBackDifferently,
                        &format!(
                            "Gemini holds numbers as doubles: {lexeme} reads back as {}",
                            as_double(lexeme)
                        ),
                    );
                }
                if bad.len() > MAX_NUMBER_LOSSES {
                    losses.push(
                        &at,
                        "number",
                        super::loss::LossEffect::ReadsBackDifferently,
                        &format!(
                            "and {} more numbers that Gemini's doubles do not hold as written",
                            bad.len() - MAX_NUMBER_LOSSES
                        ),
                    );
                }
            }
            _ => {}
        }
    }

    /// The call as an Anthropic `tool_use` block.
    pub fn to_anthropic(&self) -> Value {
        let mut o = self.native.start(Vendor::Anthropic);
        o.insert("type".into(), Value::from("tool_use"));
        o.insert("id".into(), Value::from(&self.id));
        o.insert("name".into(), Value::from(&self.name));
        o.insert("input".into(), self.arguments.to_anthropic_input());
        Value::Object(o)
    }

    /// The call as an OpenAI Chat `tool_calls[]` entry.
    pub fn to_openai_chat(&self) -> Value {
        let mut f = Map::new();
        f.insert("name".into(), Value::from(&self.name));
        f.insert("arguments".into(), Value::from(&*self.arguments.text()));
        let mut o = self.native.start(Vendor::OpenAiChat);
        o.insert("id".into(), Value::from(&self.id));
        o.insert("type".into(), Value::from("function"));
        o.insert("function".into(), Value::Object(f));
        Value::Object(o)
    }

    /// The call as a Responses `function_call` item.
    pub fn to_openai_responses(&self) -> Value {
        let mut o = self.native.start(Vendor::OpenAiResponses);
        o.insert("type".into(), Value::from("function_call"));
        if let Some(id) = &self.item_id {
            o.insert("id".into(), Value::from(id));
        }
        o.insert("call_id".into(), Value::from(&self.id));
        o.insert("name".into(), Value::from(&self.name));
        o.insert("arguments".into(), Value::from(&*self.arguments.text()));
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
    pub(crate) native: Native,
    /// Responses: this text starts a new `message` item, with these item
    /// members (`id`, `status`, ...).
    pub(crate) item_start: Option<Map>,
    /// Responses: this text is an easy input message of its own,
    /// `{"role": "assistant", "content": "<text>"}` (`item_start` holds its
    /// other members).
    pub(crate) easy: bool,
}

impl TextPart {
    /// Plain text.
    pub fn new(text: impl Into<String>) -> TextPart {
        TextPart {
            text: text.into(),
            native: Native::default(),
            item_start: None,
            easy: false,
        }
    }

    /// The `{"type": "text", "text": ...}` block of Anthropic content and
    /// Chat parts, with the members it was read with when written back for
    /// the same vendor.
    pub(crate) fn text_block(&self, vendor: Vendor) -> Value {
        let mut b = self.native.start(vendor);
        b.insert("type".into(), Value::String("text".into()));
        b.insert("text".into(), Value::String(self.text.clone()));
        Value::Object(b)
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
