//! Tool results in the vendor shapes (Anthropic `tool_result` blocks in
//! one user message, one OpenAI `role:"tool"` message per call, Responses
//! `function_call_output` items), the correlation of results with a turn's
//! calls, and building the reply from (id, outcome) pairs.

use crate::value::{Map, Value};

use super::Vendor;
use super::content::{Media, Place, read_part, write_part};
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};
use super::json_read::{expect_object, expect_role, other_members, required_str};
use super::loss::{Converted, LossEffect, Losses};
use super::native::Native;

mod bedrock;
mod gemini;

pub(crate) use bedrock::{read_blocks, write_blocks};

/// How an error result is marked where the vendor has no `is_error` flag
/// (OpenAI Chat, Responses): its text starts with this prefix. Reading
/// OpenAI JSON, a result whose text starts with it is an error result (and
/// the prefix is taken off), so `is_error` survives a trip through OpenAI.
pub const ERROR_PREFIX: &str = "Error: ";

/// One content part: of a tool result, a user message or a system prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum ResultPart {
    /// Text (Anthropic and Chat `text`, Responses `input_text`).
    Text(String),
    /// An image (Anthropic `image`, Chat `image_url`, Responses `input_image`).
    Image(Media),
    /// A document (Anthropic `document`, Chat `file`, Responses `input_file`).
    Document(Media),
    /// Anything else (audio, a search result, a part with members such as
    /// `cache_control`), verbatim in the JSON of `vendor`. Written back for
    /// that vendor; for another it is reported as a [`Loss`](super::Loss).
    Native {
        /// Whose JSON `part` is.
        vendor: Vendor,
        /// The part, verbatim.
        part: Value,
    },
}

/// The content of a tool result.
#[derive(Clone, Debug, PartialEq)]
pub enum ResultContent {
    /// No content (Anthropic allows `content` to be absent).
    Empty,
    /// A plain string.
    Text(String),
    /// A list of parts.
    Parts(Vec<ResultPart>),
}

impl ResultContent {
    /// All text of the content, parts joined with `\n`.
    pub fn text(&self) -> String {
        match self {
            ResultContent::Empty => String::new(),
            ResultContent::Text(t) => t.clone(),
            ResultContent::Parts(ps) => ps
                .iter()
                .filter_map(|p| match p {
                    ResultPart::Text(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// Adds the error prefix (see [`ERROR_PREFIX`]).
    fn with_error_prefix(&self) -> ResultContent {
        match self {
            ResultContent::Empty => ResultContent::Text(ERROR_PREFIX.to_owned()),
            ResultContent::Text(t) => ResultContent::Text(format!("{ERROR_PREFIX}{t}")),
            ResultContent::Parts(ps) => {
                let mut ps = ps.clone();
                match ps.first_mut() {
                    Some(ResultPart::Text(t)) => t.insert_str(0, ERROR_PREFIX),
                    _ => ps.insert(0, ResultPart::Text(ERROR_PREFIX.to_owned())),
                }
                ResultContent::Parts(ps)
            }
        }
    }

    /// The text the content starts with (empty when it starts with another part).
    fn text_start(&self) -> &str {
        match self {
            ResultContent::Empty => "",
            ResultContent::Text(t) => t,
            ResultContent::Parts(ps) => match ps.first() {
                Some(ResultPart::Text(t)) => t,
                _ => "",
            },
        }
    }

    /// Takes the error prefix off, if there: `Some(content)` for an error.
    fn strip_error_prefix(&self) -> Option<ResultContent> {
        match self {
            ResultContent::Empty => None,
            ResultContent::Text(t) => t
                .strip_prefix(ERROR_PREFIX)
                .map(|r| ResultContent::Text(r.to_owned())),
            ResultContent::Parts(ps) => match ps.first() {
                Some(ResultPart::Text(t)) => t.strip_prefix(ERROR_PREFIX).map(|r| {
                    let mut ps = ps.clone();
                    if r.is_empty() {
                        ps.remove(0);
                    } else if let Some(ResultPart::Text(first)) = ps.first_mut() {
                        *first = r.to_owned();
                    }
                    ResultContent::Parts(ps)
                }),
                _ => None,
            },
        }
    }
}

impl From<&str> for ResultContent {
    fn from(t: &str) -> Self {
        ResultContent::Text(t.to_owned())
    }
}

impl From<String> for ResultContent {
    fn from(t: String) -> Self {
        ResultContent::Text(t)
    }
}

/// What running a tool gave: its output, or an error to show the model.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolOutcome {
    /// The tool ran; this is its output.
    Success(ResultContent),
    /// The tool failed (or the call was refused); the model reads this and
    /// may retry (`is_error: true`).
    Error(ResultContent),
}

impl ToolOutcome {
    /// A successful text output.
    pub fn text(t: impl Into<String>) -> ToolOutcome {
        ToolOutcome::Success(ResultContent::Text(t.into()))
    }

    /// An error text.
    pub fn error(t: impl Into<String>) -> ToolOutcome {
        ToolOutcome::Error(ResultContent::Text(t.into()))
    }
}

impl<T: Into<ResultContent>, E: Into<ResultContent>> From<Result<T, E>> for ToolOutcome {
    fn from(r: Result<T, E>) -> Self {
        match r {
            Ok(t) => ToolOutcome::Success(t.into()),
            Err(e) => ToolOutcome::Error(e.into()),
        }
    }
}

/// The result of one tool call, matched to it by `call_id`.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    /// The call's id (Anthropic `tool_use_id`, Chat `tool_call_id`,
    /// Responses `call_id`, Gemini `functionResponse.id`, Bedrock
    /// `toolUseId`).
    pub call_id: String,
    /// The called tool's name, when known: Gemini's `functionResponse`
    /// requires it (read from Gemini; set from the call by
    /// [`AssistantTurn::reply`](super::AssistantTurn::reply) and when a
    /// request is converted).
    pub name: Option<String>,
    /// What the tool returned.
    pub content: ResultContent,
    /// Whether it is an error (Anthropic `is_error`; for OpenAI the
    /// [`ERROR_PREFIX`] convention).
    pub is_error: bool,
    /// Anthropic: `is_error` was written out (also when false).
    explicit_flag: bool,
    native: Native,
}

impl ToolResult {
    /// A result from its parts.
    pub fn new(call_id: impl Into<String>, outcome: ToolOutcome) -> ToolResult {
        let (content, is_error) = match outcome {
            ToolOutcome::Success(c) => (c, false),
            ToolOutcome::Error(c) => (c, true),
        };
        ToolResult {
            call_id: call_id.into(),
            name: None,
            content,
            is_error,
            explicit_flag: false,
            native: Native::default(),
        }
    }

    /// Reads one result in `vendor`'s shape: an Anthropic `tool_result`
    /// block, an OpenAI Chat `{"role":"tool",...}` message, a Responses
    /// `function_call_output` item, a Gemini `{"functionResponse": {...}}`
    /// part or a Bedrock `{"toolResult": {...}}` block. A whole message of
    /// results is [`ToolResults::from_vendor`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{ToolResult, Vendor};
    /// let r = ToolResult::from_vendor(
    ///     Vendor::OpenAiChat,
    ///     &json!({"role": "tool", "tool_call_id": "call_1", "content": "18°C"}),
    /// )?;
    /// assert_eq!(r.call_id, "call_1");
    /// let block = r.to_vendor(Vendor::Anthropic).lossless().unwrap();
    /// assert_eq!(block["tool_use_id"], "call_1");
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn from_vendor(vendor: Vendor, v: &Value) -> Result<ToolResult, ProtocolError> {
        match vendor {
            Vendor::Anthropic => Self::from_anthropic(v),
            Vendor::OpenAiChat => Self::from_openai_chat(v),
            Vendor::OpenAiResponses => Self::from_openai_responses(v),
            Vendor::Gemini => Self::from_gemini(v),
            Vendor::Bedrock => Self::from_bedrock(v),
        }
    }

    /// Reads an Anthropic `tool_result` block.
    pub(crate) fn from_anthropic(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_anthropic_at(v, "")
    }

    fn from_anthropic_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = expect_object(v, at, "a tool_result block")?;
        if o.get("type").and_then(Value::as_str) != Some("tool_result") {
            return Err(ProtocolError::UnknownShape {
                at: ptr(at, "type"),
                expected: "type \"tool_result\"",
                found: o.get("type").map(short).unwrap_or_else(|| "nothing".into()),
            });
        }
        let call_id = required_str(o, "tool_use_id", at)?.to_owned();
        let (is_error, explicit_flag) = match o.get("is_error") {
            None => (false, false),
            Some(Value::Bool(b)) => (*b, true),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: ptr(at, "is_error"),
                    expected: "a boolean",
                    found: json_type(other),
                });
            }
        };
        let content = read_content(o.get("content"), &ptr(at, "content"), Vendor::Anthropic)?;
        Ok(ToolResult {
            call_id,
            name: None,
            content,
            is_error,
            explicit_flag,
            native: Native {
                vendor: Some(Vendor::Anthropic),
                members: other_members(o, &["type", "tool_use_id", "content", "is_error"]),
            },
        })
    }

    /// Reads an OpenAI Chat `{"role":"tool","tool_call_id","content"}` message.
    pub(crate) fn from_openai_chat(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_openai_chat_at(v, "")
    }

    fn from_openai_chat_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = expect_object(v, at, "a tool message object")?;
        expect_role(o, at, "tool")?;
        let call_id = required_str(o, "tool_call_id", at)?.to_owned();
        let content = read_content(o.get("content"), &ptr(at, "content"), Vendor::OpenAiChat)?;
        Ok(Self::openai(
            call_id,
            content,
            Vendor::OpenAiChat,
            other_members(o, &["role", "tool_call_id", "content"]),
        ))
    }

    /// Reads a Responses `function_call_output` item.
    pub(crate) fn from_openai_responses(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_openai_responses_at(v, "")
    }

    fn from_openai_responses_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = expect_object(v, at, "a function_call_output item")?;
        if o.get("type").and_then(Value::as_str) != Some("function_call_output") {
            return Err(ProtocolError::UnknownShape {
                at: ptr(at, "type"),
                expected: "type \"function_call_output\"",
                found: o.get("type").map(short).unwrap_or_else(|| "nothing".into()),
            });
        }
        let call_id = required_str(o, "call_id", at)?.to_owned();
        let content = read_content(
            Some(o.get("output").ok_or_else(|| ProtocolError::MissingField {
                at: at.to_owned(),
                field: "output",
            })?),
            &ptr(at, "output"),
            Vendor::OpenAiResponses,
        )?;
        Ok(Self::openai(
            call_id,
            content,
            Vendor::OpenAiResponses,
            other_members(o, &["type", "call_id", "output"]),
        ))
    }

    fn openai(call_id: String, content: ResultContent, vendor: Vendor, members: Map) -> ToolResult {
        let (content, is_error) = match content.strip_error_prefix() {
            Some(c) => (c, true),
            None => (content, false),
        };
        ToolResult {
            call_id,
            name: None,
            content,
            is_error,
            explicit_flag: false,
            native: Native {
                vendor: Some(vendor),
                members,
            },
        }
    }

    /// The result in `vendor`'s shape (a block, a message or an item), with
    /// what could not cross: a part the target does not take where results
    /// go (an image in a Chat tool message), an explicit `is_error: false`
    /// (OpenAI has no flag: it reads back absent), a successful result whose
    /// text starts with [`ERROR_PREFIX`] (it reads back from OpenAI as an
    /// error), and members only the source vendor has (`cache_control`).
    pub fn to_vendor(&self, vendor: Vendor) -> Converted<Value> {
        let mut losses = Losses::default();
        let v = self.write(vendor, "", &mut losses);
        losses.finish(v)
    }

    /// The same as [`to_vendor`](Self::to_vendor).
    pub fn convert(&self, vendor: Vendor) -> Converted<Value> {
        self.to_vendor(vendor)
    }

    /// Writes for `vendor`, recording losses with JSON Pointers under `at`
    /// (the result's place in the source).
    pub(crate) fn write(&self, vendor: Vendor, at: &str, losses: &mut Losses) -> Value {
        if !super::error::models_messages(vendor) {
            losses.push(
                at,
                "tool_result",
                LossEffect::Dropped,
                super::loss::UNMODELLED,
            );
            return Value::Null;
        }
        // A Gemini call may come without id; the others match results by it.
        if vendor != Vendor::Gemini {
            if self.call_id.is_empty() {
                losses.push(
                    &ptr(at, "id"),
                    "id",
                    LossEffect::MissingRequired,
                    &format!(
                        "the result has no call id, and {vendor} matches results to calls by id"
                    ),
                );
            } else if super::slots::is_idless(
                self.native.vendor,
                &self.native.members,
                "functionResponse",
            ) {
                losses.push(
                    &ptr(at, "functionResponse"),
                    "id",
                    LossEffect::ReadsBackDifferently,
                    &format!(
                        "the Gemini response has no id; {vendor} needs one: written as {:?}, \
                         the id of the call it answers, which reads back as its id",
                        self.call_id
                    ),
                );
            }
        }
        match vendor {
            Vendor::Gemini => return self.write_gemini(at, losses),
            Vendor::Bedrock => return self.write_bedrock(at, losses),
            _ => {}
        }
        self.reported_native().report_dropped(vendor, at, losses);
        let content_at = self.content_at(at);
        match vendor {
            Vendor::Anthropic => {
                let mut o = self.native.start(vendor);
                o.insert("type".into(), Value::from("tool_result"));
                o.insert("tool_use_id".into(), Value::from(&self.call_id));
                if let Some(c) = write_content(
                    &self.content,
                    vendor,
                    self.native.vendor,
                    Place::ToolResult,
                    &content_at,
                    losses,
                ) {
                    o.insert("content".into(), c);
                }
                // Bedrock's `status: "success"` is an explicit `false`.
                let explicit = self.explicit_flag
                    && matches!(self.native.vendor, Some(v) if v == vendor || v == Vendor::Bedrock);
                if self.is_error || explicit {
                    o.insert("is_error".into(), Value::Bool(self.is_error));
                }
                Value::Object(o)
            }
            _ => {
                if self.explicit_flag && !self.is_error {
                    losses.push(
                        &ptr(at, "is_error"),
                        "is_error",
                        LossEffect::ReadsBackDifferently,
                        "OpenAI has no is_error flag: an explicit false reads back absent",
                    );
                }
                let c = if self.is_error {
                    self.content.with_error_prefix()
                } else {
                    if self.content.text_start().starts_with(ERROR_PREFIX) {
                        losses.push(
                            &content_at,
                            "content",
                            LossEffect::ReadsBackDifferently,
                            "a successful result whose text starts with \"Error: \" reads back \
                             from OpenAI as an error result",
                        );
                    }
                    self.content.clone()
                };
                let content = write_content(
                    &c,
                    vendor,
                    self.native.vendor,
                    Place::ToolResult,
                    &content_at,
                    losses,
                )
                .unwrap_or_else(|| Value::from(""));
                let mut o = self.native.start(vendor);
                if vendor == Vendor::OpenAiChat {
                    o.insert("role".into(), Value::from("tool"));
                    o.insert("tool_call_id".into(), Value::from(&self.call_id));
                    o.insert("content".into(), content);
                } else {
                    o.insert("type".into(), Value::from("function_call_output"));
                    o.insert("call_id".into(), Value::from(&self.call_id));
                    o.insert("output".into(), content);
                }
                Value::Object(o)
            }
        }
    }
}

pub(crate) fn read_content(
    c: Option<&Value>,
    at: &str,
    vendor: Vendor,
) -> Result<ResultContent, ProtocolError> {
    match c {
        None => Ok(ResultContent::Empty),
        Some(Value::String(t)) => Ok(ResultContent::Text(t.clone())),
        Some(Value::Array(parts)) => {
            let mut out = Vec::with_capacity(parts.len());
            for (i, p) in parts.iter().enumerate() {
                expect_object(p, &ptr_i(at, i), "a content part object")?;
                out.push(read_part(vendor, p).unwrap_or_else(|| ResultPart::Native {
                    vendor,
                    part: p.clone(),
                }));
            }
            Ok(ResultContent::Parts(out))
        }
        Some(other) => Err(ProtocolError::WrongType {
            at: at.to_owned(),
            expected: "a string or an array of content parts",
            found: json_type(other),
        }),
    }
}

/// Writes content for `vendor` at `place`; parts that cannot go there are
/// left out and recorded (`at` is the content's pointer in the source).
pub(crate) fn write_content(
    c: &ResultContent,
    vendor: Vendor,
    from: Option<Vendor>,
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Option<Value> {
    match c {
        ResultContent::Empty => None,
        ResultContent::Text(t) => Some(Value::from(t)),
        ResultContent::Parts(ps) => Some(Value::Array(
            ps.iter()
                .enumerate()
                .filter_map(|(i, p)| write_part(p, vendor, from, place, &ptr_i(at, i), losses))
                .collect(),
        )),
    }
}

/// The results of one turn's calls, in order: what goes back to the model.
///
/// * Anthropic: one `{"role":"user","content":[tool_result, ...]}` message
///   (all results of the turn together, as the API requires);
/// * OpenAI Chat: one `{"role":"tool","tool_call_id",...}` message per call;
/// * Responses: one `function_call_output` item per call.
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{AssistantTurn, ToolOutcome, Vendor};
///
/// let turn = AssistantTurn::from_vendor(Vendor::OpenAiChat, &json!({
///     "role": "assistant", "content": null,
///     "tool_calls": [
///         {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris\"}"}},
///         {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Oslo\"}"}}
///     ]
/// }))?;
/// let reply = turn.reply([
///     ("call_2".to_string(), ToolOutcome::text("-3°C")),
///     ("call_1".to_string(), ToolOutcome::error("service unavailable")),
/// ]).unwrap();
/// assert_eq!(reply.to_vendor(Vendor::Anthropic).lossless().unwrap(), vec![json!({"role": "user", "content": [
///     {"type": "tool_result", "tool_use_id": "call_1", "content": "service unavailable", "is_error": true},
///     {"type": "tool_result", "tool_use_id": "call_2", "content": "-3°C"}
/// ]})]);
/// assert_eq!(reply.to_vendor(Vendor::OpenAiChat).lossless().unwrap()[0],
///     json!({"role": "tool", "tool_call_id": "call_1", "content": "Error: service unavailable"}));
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolResults {
    /// The results, in order.
    pub results: Vec<ToolResult>,
    /// What the user says after the results: Anthropic blocks after the
    /// `tool_result` blocks of the same message; OpenAI a user message
    /// right after the results. It crosses as that.
    pub trailing: Vec<ResultPart>,
    /// Members of the source message beside `role` and `content` (for OpenAI:
    /// of the trailing user message).
    native: Native,
    /// OpenAI: the trailing user message's content was a string.
    trailing_string: bool,
}

impl ToolResults {
    /// Results from a list.
    pub fn new(results: Vec<ToolResult>) -> ToolResults {
        ToolResults {
            results,
            ..ToolResults::default()
        }
    }

    /// The ids, in order.
    pub fn call_ids(&self) -> Vec<&str> {
        self.results.iter().map(|r| r.call_id.as_str()).collect()
    }

    /// Reads the reply in `vendor`'s shape: for Anthropic one user message;
    /// for OpenAI Chat the `role:"tool"` messages; for Responses the
    /// `function_call_output` items; for both OpenAI APIs, optionally a last
    /// user message (what the user says with the results).
    pub fn from_vendor(vendor: Vendor, messages: &[Value]) -> Result<ToolResults, ProtocolError> {
        if !super::error::models_messages(vendor) {
            return Err(super::error::unsupported(vendor, "tool results"));
        }
        if matches!(vendor, Vendor::Anthropic | Vendor::Gemini | Vendor::Bedrock) {
            return match messages {
                [m] if vendor == Vendor::Gemini => Self::from_gemini(m),
                [m] if vendor == Vendor::Bedrock => Self::from_bedrock(m),
                [m] => Self::from_anthropic(m),
                _ => Err(ProtocolError::UnknownShape {
                    at: String::new(),
                    expected: "exactly one user message holding all the results",
                    found: format!("{} messages", messages.len()),
                }),
            };
        }
        let mut out = ToolResults::default();
        for (i, m) in messages.iter().enumerate() {
            let at = ptr_i("", i);
            let is_user = m.get("role").and_then(Value::as_str) == Some("user");
            if is_user && i > 0 && i + 1 == messages.len() {
                out.read_trailing(vendor, m, &at)?;
            } else if vendor == Vendor::OpenAiChat {
                out.results.push(ToolResult::from_openai_chat_at(m, &at)?);
            } else {
                out.results
                    .push(ToolResult::from_openai_responses_at(m, &at)?);
            }
        }
        Ok(out)
    }

    /// Reads an OpenAI user message following the results.
    pub(crate) fn read_trailing(
        &mut self,
        vendor: Vendor,
        m: &Value,
        at: &str,
    ) -> Result<(), ProtocolError> {
        let o = expect_object(m, at, "a user message object")?;
        let cat = ptr(at, "content");
        match o.get("content") {
            Some(Value::String(t)) => {
                self.trailing_string = true;
                self.trailing = vec![ResultPart::Text(t.clone())];
            }
            Some(Value::Array(_)) => {
                if let ResultContent::Parts(ps) = read_content(o.get("content"), &cat, vendor)? {
                    self.trailing = ps;
                }
            }
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: cat,
                    expected: "a string or an array of content parts",
                    found: json_type(other),
                });
            }
            None => {
                return Err(ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "content",
                });
            }
        }
        self.native = Native {
            vendor: Some(vendor),
            members: other_members(o, &["role", "content"]),
        };
        Ok(())
    }

    /// The list the source message holds its results and trailing parts
    /// in: one message's `content` (Anthropic, Bedrock) or `parts`
    /// (Gemini); `None` for OpenAI, one message or item per result.
    fn list_at(&self) -> Option<&'static str> {
        match self.native.vendor {
            Some(Vendor::Anthropic | Vendor::Bedrock) => Some("/content"),
            Some(Vendor::Gemini) => Some("/parts"),
            _ => None,
        }
    }

    /// Where result `i` stood in the source.
    pub(crate) fn result_at(&self, i: usize) -> String {
        ptr_i(self.list_at().unwrap_or(""), i)
    }

    /// Where trailing part `j` stood in the source.
    pub(crate) fn trailing_at(&self, j: usize) -> String {
        let n = self.results.len();
        match self.list_at() {
            Some(list) => ptr_i(list, n + j),
            None => ptr_i(&ptr(&ptr_i("", n), "content"), j),
        }
    }

    /// Where the members of the source message were.
    pub(crate) fn native_at(&self) -> String {
        match self.list_at() {
            Some(_) => String::new(),
            None => ptr_i("", self.results.len()),
        }
    }

    /// Reads an Anthropic user message of `tool_result` blocks. Blocks after
    /// the results (a text, say) are [`trailing`](Self::trailing); a
    /// non-result block before a result is an error, as for the API.
    pub(crate) fn from_anthropic(v: &Value) -> Result<ToolResults, ProtocolError> {
        let o = expect_object(v, "", "a user message object")?;
        expect_role(o, "", "user")?;
        let blocks = match o.get("content") {
            Some(Value::Array(b)) => b,
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/content".into(),
                    expected: "an array of tool_result blocks",
                    found: json_type(other),
                });
            }
            None => {
                return Err(ProtocolError::MissingField {
                    at: String::new(),
                    field: "content",
                });
            }
        };
        let mut out = ToolResults {
            native: Native {
                vendor: Some(Vendor::Anthropic),
                members: other_members(o, &["role", "content"]),
            },
            ..ToolResults::default()
        };
        for (i, b) in blocks.iter().enumerate() {
            let at = ptr_i("/content", i);
            let is_result = b.get("type").and_then(Value::as_str) == Some("tool_result");
            if is_result && out.trailing.is_empty() {
                out.results.push(ToolResult::from_anthropic_at(b, &at)?);
            } else if is_result {
                return Err(ProtocolError::UnknownShape {
                    at,
                    expected: "tool_result blocks before any other block",
                    found: "a tool_result after another block".into(),
                });
            } else {
                expect_object(b, &at, "a content block object")?;
                out.trailing
                    .push(
                        read_part(Vendor::Anthropic, b).unwrap_or_else(|| ResultPart::Native {
                            vendor: Vendor::Anthropic,
                            part: b.clone(),
                        }),
                    );
            }
        }
        Ok(out)
    }

    /// The reply in `vendor`'s shape (see [`ToolResults`]): for OpenAI, the
    /// [`trailing`](Self::trailing) parts follow as a user message. Reports
    /// what cannot cross (see [`ToolResult::to_vendor`]).
    pub fn to_vendor(&self, vendor: Vendor) -> Converted<Vec<Value>> {
        let mut losses = Losses::default();
        let v = self.write(vendor, &mut losses);
        losses.finish(v)
    }

    pub(crate) fn write(&self, vendor: Vendor, losses: &mut Losses) -> Vec<Value> {
        if !super::error::models_messages(vendor) {
            losses.push(
                "",
                "tool_results",
                LossEffect::Dropped,
                super::loss::UNMODELLED,
            );
            return Vec::new();
        }
        match vendor {
            Vendor::Gemini => return vec![self.write_gemini(losses)],
            Vendor::Bedrock => return vec![self.write_bedrock(losses)],
            _ => {}
        }
        let result_at = |i: usize| self.result_at(i);
        let n = self.results.len();
        let trailing_at = ptr(&ptr_i("", n), "content");
        let part_at = |j: usize| self.trailing_at(j);
        let native_at = self.native_at();
        let mut native = self.native.clone();
        // The Responses item type of a message is no content; Gemini's
        // `function` role means `user`.
        native.members.remove("type");
        native.members.remove("role");
        native.report_dropped(vendor, &native_at, losses);
        let openai_source = matches!(
            self.native.vendor,
            Some(Vendor::OpenAiChat | Vendor::OpenAiResponses)
        );
        if openai_source
            && self.native.vendor != Some(vendor)
            && !self.trailing_string
            && matches!(self.trailing.as_slice(), [ResultPart::Text(_)])
        {
            losses.push(
                &trailing_at,
                "content",
                LossEffect::ReadsBackDifferently,
                "one text part reads back as a string",
            );
        }
        let trailing: Vec<Value> = self
            .trailing
            .iter()
            .enumerate()
            .filter_map(|(j, p)| {
                write_part(
                    p,
                    vendor,
                    self.native.vendor,
                    Place::User,
                    &part_at(j),
                    losses,
                )
            })
            .collect();
        match vendor {
            Vendor::Anthropic => {
                let mut o = self.native.start(vendor);
                o.insert("role".into(), Value::from("user"));
                let mut blocks: Vec<Value> = self
                    .results
                    .iter()
                    .enumerate()
                    .map(|(i, r)| r.write(vendor, &result_at(i), losses))
                    .collect();
                blocks.extend(trailing);
                o.insert("content".into(), Value::Array(blocks));
                vec![Value::Object(o)]
            }
            _ => {
                let mut out: Vec<Value> = self
                    .results
                    .iter()
                    .enumerate()
                    .map(|(i, r)| r.write(vendor, &result_at(i), losses))
                    .collect();
                if !self.trailing.is_empty() {
                    // Written like any other user message (no Responses
                    // `type: "message"`, which is optional), so a body reads
                    // back the same whichever writer made its user messages.
                    let mut o = Map::new();
                    if self.native.vendor == Some(vendor) {
                        o = self.native.members.clone();
                    }
                    o.insert("role".into(), Value::from("user"));
                    let same = self.native.vendor == Some(vendor);
                    let content = match self.trailing.as_slice() {
                        [ResultPart::Text(t)] if self.trailing_string || !same => Value::from(t),
                        _ => Value::Array(trailing),
                    };
                    o.insert("content".into(), content);
                    out.push(Value::Object(o));
                }
                out
            }
        }
    }
}
