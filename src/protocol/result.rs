//! Tool results in the three vendor shapes (Anthropic `tool_result` blocks in
//! one user message, one OpenAI `role:"tool"` message per call, Responses
//! `function_call_output` items), the correlation of results with a turn's
//! calls, and building the reply from (id, outcome) pairs.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde_json::{Map, Value};

use super::Vendor;
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};
use super::message::{AssistantTurn, Native, as_object, check_role, get_str, rest, s};

/// How an error result is marked where the vendor has no `is_error` flag
/// (OpenAI Chat, Responses): its text starts with this prefix. Reading
/// OpenAI JSON, a result whose text starts with it is an error result (and
/// the prefix is taken off), so `is_error` survives a trip through OpenAI.
pub const ERROR_PREFIX: &str = "Error: ";

/// One piece of result content.
#[derive(Clone, Debug, PartialEq)]
pub enum ResultPart {
    /// Text (Anthropic `text` block, Chat `text` part, Responses `input_text`).
    Text(String),
    /// Anything else (an image, a document, a search result), verbatim in the
    /// JSON of `vendor`. It is written as is for every vendor, so no content
    /// is dropped; a vendor that has no such part will refuse it.
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
                    ResultPart::Native { .. } => None,
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
    /// Responses `call_id`).
    pub call_id: String,
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
            content,
            is_error,
            explicit_flag: false,
            native: Native::default(),
        }
    }

    /// Reads an Anthropic `tool_result` block.
    pub fn from_anthropic(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_anthropic_at(v, "")
    }

    fn from_anthropic_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = as_object(v, at, "a tool_result block")?;
        if o.get("type").and_then(Value::as_str) != Some("tool_result") {
            return Err(ProtocolError::UnknownShape {
                at: ptr(at, "type"),
                expected: "type \"tool_result\"",
                found: o.get("type").map(short).unwrap_or_else(|| "nothing".into()),
            });
        }
        let call_id = get_str(o, "tool_use_id", at)?.to_owned();
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
            content,
            is_error,
            explicit_flag,
            native: Native {
                vendor: Some(Vendor::Anthropic),
                members: rest(o, &["type", "tool_use_id", "content", "is_error"]),
            },
        })
    }

    /// Reads an OpenAI Chat `{"role":"tool","tool_call_id","content"}` message.
    pub fn from_openai_chat(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_openai_chat_at(v, "")
    }

    fn from_openai_chat_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = as_object(v, at, "a tool message object")?;
        check_role(o, at, "tool")?;
        let call_id = get_str(o, "tool_call_id", at)?.to_owned();
        let content = read_content(o.get("content"), &ptr(at, "content"), Vendor::OpenAiChat)?;
        Ok(Self::openai(
            call_id,
            content,
            Vendor::OpenAiChat,
            rest(o, &["role", "tool_call_id", "content"]),
        ))
    }

    /// Reads a Responses `function_call_output` item.
    pub fn from_openai_responses(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_openai_responses_at(v, "")
    }

    fn from_openai_responses_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = as_object(v, at, "a function_call_output item")?;
        if o.get("type").and_then(Value::as_str) != Some("function_call_output") {
            return Err(ProtocolError::UnknownShape {
                at: ptr(at, "type"),
                expected: "type \"function_call_output\"",
                found: o.get("type").map(short).unwrap_or_else(|| "nothing".into()),
            });
        }
        let call_id = get_str(o, "call_id", at)?.to_owned();
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
            rest(o, &["type", "call_id", "output"]),
        ))
    }

    fn openai(
        call_id: String,
        content: ResultContent,
        vendor: Vendor,
        members: Map<String, Value>,
    ) -> ToolResult {
        let (content, is_error) = match content.strip_error_prefix() {
            Some(c) => (c, true),
            None => (content, false),
        };
        ToolResult {
            call_id,
            content,
            is_error,
            explicit_flag: false,
            native: Native {
                vendor: Some(vendor),
                members,
            },
        }
    }

    /// The result as an Anthropic `tool_result` block.
    pub fn to_anthropic(&self) -> Value {
        let v = Vendor::Anthropic;
        let mut o = self.native.start(v);
        o.insert("type".into(), s("tool_result"));
        o.insert("tool_use_id".into(), s(&self.call_id));
        if let Some(c) = write_content(&self.content, v) {
            o.insert("content".into(), c);
        }
        let explicit = self.native.vendor == Some(v) && self.explicit_flag;
        if self.is_error || explicit {
            o.insert("is_error".into(), Value::Bool(self.is_error));
        }
        Value::Object(o)
    }

    fn openai_content(&self, v: Vendor) -> Value {
        let c = if self.is_error {
            self.content.with_error_prefix()
        } else {
            self.content.clone()
        };
        write_content(&c, v).unwrap_or_else(|| s(""))
    }

    /// The result as an OpenAI Chat `role:"tool"` message.
    pub fn to_openai_chat(&self) -> Value {
        let v = Vendor::OpenAiChat;
        let mut o = self.native.start(v);
        o.insert("role".into(), s("tool"));
        o.insert("tool_call_id".into(), s(&self.call_id));
        o.insert("content".into(), self.openai_content(v));
        Value::Object(o)
    }

    /// The result as a Responses `function_call_output` item.
    pub fn to_openai_responses(&self) -> Value {
        let v = Vendor::OpenAiResponses;
        let mut o = self.native.start(v);
        o.insert("type".into(), s("function_call_output"));
        o.insert("call_id".into(), s(&self.call_id));
        o.insert("output".into(), self.openai_content(v));
        Value::Object(o)
    }

    /// The result in `vendor`'s shape (a block, a message or an item;
    /// [`ProtocolError::UnsupportedVendor`] for Gemini and Bedrock).
    pub fn to_vendor(&self, vendor: Vendor) -> Result<Value, ProtocolError> {
        Ok(match vendor {
            Vendor::Anthropic => self.to_anthropic(),
            Vendor::OpenAiChat => self.to_openai_chat(),
            Vendor::OpenAiResponses => self.to_openai_responses(),
            Vendor::Gemini | Vendor::Bedrock => return Err(unsupported(vendor)),
        })
    }
}

/// The text part's type name in each vendor.
fn text_type(v: Vendor) -> &'static str {
    match v {
        Vendor::OpenAiResponses => "input_text",
        // Only the three vendors above reach here (`to_vendor` refuses the others).
        Vendor::Anthropic | Vendor::OpenAiChat | Vendor::Gemini | Vendor::Bedrock => "text",
    }
}

fn read_content(
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
                let pat = ptr_i(at, i);
                let po = as_object(p, &pat, "a content part object")?;
                let is_text = po.get("type").and_then(Value::as_str) == Some(text_type(vendor))
                    && po.len() == 2
                    && po.get("text").is_some_and(Value::is_string);
                out.push(match po.get("text").and_then(Value::as_str) {
                    Some(t) if is_text => ResultPart::Text(t.to_owned()),
                    _ => ResultPart::Native {
                        vendor,
                        part: p.clone(),
                    },
                });
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

fn write_content(c: &ResultContent, vendor: Vendor) -> Option<Value> {
    match c {
        ResultContent::Empty => None,
        ResultContent::Text(t) => Some(s(t)),
        ResultContent::Parts(ps) => Some(Value::Array(
            ps.iter()
                .map(|p| match p {
                    ResultPart::Text(t) => {
                        let mut o = Map::new();
                        o.insert("type".into(), s(text_type(vendor)));
                        o.insert("text".into(), s(t));
                        Value::Object(o)
                    }
                    ResultPart::Native { part, .. } => part.clone(),
                })
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
/// use serde_json::json;
/// use tooljson::protocol::{AssistantTurn, ToolOutcome, Vendor};
///
/// let turn = AssistantTurn::from_openai_chat(&json!({
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
/// assert_eq!(reply.to_vendor(Vendor::Anthropic)?, vec![json!({"role": "user", "content": [
///     {"type": "tool_result", "tool_use_id": "call_1", "content": "service unavailable", "is_error": true},
///     {"type": "tool_result", "tool_use_id": "call_2", "content": "-3°C"}
/// ]})]);
/// assert_eq!(reply.to_vendor(Vendor::OpenAiChat)?[0],
///     json!({"role": "tool", "tool_call_id": "call_1", "content": "Error: service unavailable"}));
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ToolResults {
    /// The results, in order.
    pub results: Vec<ToolResult>,
    /// Anthropic: members of the user message beside `role` and `content`,
    /// and content blocks after the results (e.g. a text), kept for Anthropic.
    native: Native,
    trailing: Vec<Value>,
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
    /// `function_call_output` items.
    pub fn from_vendor(vendor: Vendor, messages: &[Value]) -> Result<ToolResults, ProtocolError> {
        match vendor {
            Vendor::Anthropic => match messages {
                [m] => Self::from_anthropic(m),
                _ => Err(ProtocolError::UnknownShape {
                    at: String::new(),
                    expected: "exactly one user message holding all tool_result blocks",
                    found: format!("{} messages", messages.len()),
                }),
            },
            Vendor::OpenAiChat => {
                let results = messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| ToolResult::from_openai_chat_at(m, &ptr_i("", i)))
                    .collect::<Result<_, _>>()?;
                Ok(ToolResults::new(results))
            }
            Vendor::OpenAiResponses => {
                let results = messages
                    .iter()
                    .enumerate()
                    .map(|(i, m)| ToolResult::from_openai_responses_at(m, &ptr_i("", i)))
                    .collect::<Result<_, _>>()?;
                Ok(ToolResults::new(results))
            }
            Vendor::Gemini | Vendor::Bedrock => Err(unsupported(vendor)),
        }
    }

    /// Reads an Anthropic user message of `tool_result` blocks. Blocks after
    /// the results (a text, say) are kept for Anthropic; a non-result block
    /// before a result is an error, as for the API.
    pub fn from_anthropic(v: &Value) -> Result<ToolResults, ProtocolError> {
        let o = as_object(v, "", "a user message object")?;
        check_role(o, "", "user")?;
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
                members: rest(o, &["role", "content"]),
            },
            ..ToolResults::default()
        };
        for (i, b) in blocks.iter().enumerate() {
            let is_result = b.get("type").and_then(Value::as_str) == Some("tool_result");
            if is_result && out.trailing.is_empty() {
                out.results
                    .push(ToolResult::from_anthropic_at(b, &ptr_i("/content", i))?);
            } else if is_result {
                return Err(ProtocolError::UnknownShape {
                    at: ptr_i("/content", i),
                    expected: "tool_result blocks before any other block",
                    found: "a tool_result after another block".into(),
                });
            } else {
                out.trailing.push(b.clone());
            }
        }
        Ok(out)
    }

    /// The reply in `vendor`'s shape (see [`ToolResults`];
    /// [`ProtocolError::UnsupportedVendor`] for Gemini and Bedrock).
    pub fn to_vendor(&self, vendor: Vendor) -> Result<Vec<Value>, ProtocolError> {
        Ok(match vendor {
            Vendor::Anthropic => {
                let mut o = self.native.start(vendor);
                o.insert("role".into(), s("user"));
                let mut blocks: Vec<Value> =
                    self.results.iter().map(ToolResult::to_anthropic).collect();
                blocks.extend(self.trailing.iter().cloned());
                o.insert("content".into(), Value::Array(blocks));
                vec![Value::Object(o)]
            }
            Vendor::OpenAiChat | Vendor::OpenAiResponses => {
                return self.results.iter().map(|r| r.to_vendor(vendor)).collect();
            }
            Vendor::Gemini | Vendor::Bedrock => return Err(unsupported(vendor)),
        })
    }
}

/// How a turn's calls and a set of results fail to match one to one.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CorrelationError {
    /// Call ids with no result, in call order.
    pub missing: Vec<String>,
    /// Result ids that match no call, in result order.
    pub unknown: Vec<String>,
    /// Call ids with more than one result (each listed once).
    pub duplicate_results: Vec<String>,
    /// Ids that the turn itself uses for more than one call.
    pub duplicate_calls: Vec<String>,
}

impl CorrelationError {
    /// Whether everything matched.
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty()
            && self.unknown.is_empty()
            && self.duplicate_results.is_empty()
            && self.duplicate_calls.is_empty()
    }
}

impl fmt::Display for CorrelationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            parts.push(format!("no result for call(s) {:?}", self.missing));
        }
        if !self.unknown.is_empty() {
            parts.push(format!(
                "result(s) for unknown call id(s) {:?}",
                self.unknown
            ));
        }
        if !self.duplicate_results.is_empty() {
            parts.push(format!(
                "more than one result for call(s) {:?}",
                self.duplicate_results
            ));
        }
        if !self.duplicate_calls.is_empty() {
            parts.push(format!(
                "the turn uses id(s) {:?} for more than one call",
                self.duplicate_calls
            ));
        }
        if parts.is_empty() {
            f.write_str("calls and results match")
        } else {
            f.write_str(&parts.join("; "))
        }
    }
}

impl std::error::Error for CorrelationError {}

/// Matches call ids against result ids: every call exactly one result.
///
/// # Examples
///
/// ```
/// use tooljson::protocol::correlate;
/// let e = correlate(&["a", "b", "c"], &["b", "x", "b"]).unwrap_err();
/// assert_eq!(e.missing, ["a", "c"]);
/// assert_eq!(e.unknown, ["x"]);
/// assert_eq!(e.duplicate_results, ["b"]);
/// assert!(correlate(&["a", "b"], &["b", "a"]).is_ok());
/// ```
pub fn correlate(call_ids: &[&str], result_ids: &[&str]) -> Result<(), CorrelationError> {
    let mut err = CorrelationError::default();
    let mut calls: HashSet<&str> = HashSet::with_capacity(call_ids.len());
    for id in call_ids {
        if !calls.insert(id) && !err.duplicate_calls.iter().any(|d| d == id) {
            err.duplicate_calls.push((*id).to_owned());
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(result_ids.len());
    for id in result_ids {
        if !calls.contains(id) {
            err.unknown.push((*id).to_owned());
            continue;
        }
        let n = seen.entry(id).or_insert(0);
        *n += 1;
        if *n == 2 {
            err.duplicate_results.push((*id).to_owned());
        }
    }
    let mut listed: HashSet<&str> = HashSet::new();
    for id in call_ids {
        if !seen.contains_key(id) && listed.insert(id) {
            err.missing.push((*id).to_owned());
        }
    }
    if err.is_empty() { Ok(()) } else { Err(err) }
}

impl AssistantTurn {
    /// Checks that `results` answer this turn's calls one to one.
    pub fn check_results(&self, results: &ToolResults) -> Result<(), CorrelationError> {
        let calls: Vec<&str> = self.calls().map(|c| c.id.as_str()).collect();
        correlate(&calls, &results.call_ids())
    }

    /// Builds the reply from (call id, outcome) pairs given in any order:
    /// one result per call, in call order. Errors, with every problem
    /// listed, when a call has no outcome, an id is unknown, or an id comes
    /// twice.
    pub fn reply(
        &self,
        outcomes: impl IntoIterator<Item = (String, ToolOutcome)>,
    ) -> Result<ToolResults, CorrelationError> {
        let outcomes: Vec<(String, ToolOutcome)> = outcomes.into_iter().collect();
        let calls: Vec<&str> = self.calls().map(|c| c.id.as_str()).collect();
        let ids: Vec<&str> = outcomes.iter().map(|(id, _)| id.as_str()).collect();
        correlate(&calls, &ids)?;
        let mut by_id: HashMap<String, ToolOutcome> = outcomes.into_iter().collect();
        let results = calls
            .iter()
            .filter_map(|id| by_id.remove(*id).map(|o| ToolResult::new(*id, o)))
            .collect();
        Ok(ToolResults::new(results))
    }

    /// Like [`reply`](Self::reply), but a call without an outcome gets the
    /// one `missing` makes for it (say, an error "not run"), and outcomes
    /// for unknown ids are left out (of repeated ids, the first counts); all
    /// of it is reported. The reply answers every call id exactly once: an
    /// id the turn itself repeats (see [`CorrelationError::duplicate_calls`])
    /// gets one result, since the vendors match results by id.
    pub fn reply_filling(
        &self,
        outcomes: impl IntoIterator<Item = (String, ToolOutcome)>,
        mut missing: impl FnMut(&super::ToolCall) -> ToolOutcome,
    ) -> (ToolResults, Option<CorrelationError>) {
        let outcomes: Vec<(String, ToolOutcome)> = outcomes.into_iter().collect();
        let calls: Vec<&str> = self.calls().map(|c| c.id.as_str()).collect();
        let ids: Vec<&str> = outcomes.iter().map(|(id, _)| id.as_str()).collect();
        let report = correlate(&calls, &ids).err();
        // The first outcome per id counts.
        let mut by_id: HashMap<String, ToolOutcome> = HashMap::new();
        for (id, o) in outcomes {
            by_id.entry(id).or_insert(o);
        }
        let mut done: HashSet<String> = HashSet::new();
        let mut results = Vec::new();
        for call in self.calls() {
            if !done.insert(call.id.clone()) {
                continue;
            }
            let outcome = match by_id.remove(&call.id) {
                Some(o) => o,
                None => missing(call),
            };
            results.push(ToolResult::new(call.id.clone(), outcome));
        }
        (ToolResults::new(results), report)
    }
}

fn unsupported(vendor: Vendor) -> ProtocolError {
    ProtocolError::UnsupportedVendor {
        vendor,
        what: "a tool result",
    }
}
