//! Provider adapters: a streamed HTTP response body in; text, thinking,
//! usage and tool calls out.
//!
//! [`ToolCallStream`] takes the bytes of an Anthropic Messages, OpenAI Chat
//! Completions, OpenAI Responses, Google Gemini (`streamGenerateContent`,
//! SSE) or AWS Bedrock `ConverseStream` (binary frames,
//! [`crate::eventstream`]) streaming response as they arrive (split
//! anywhere), decodes the event stream ([`crate::sse`]), decodes each event's
//! JSON with serde into the vendor's typed events (dispatched on `data.type`;
//! unknown events and fields are ignored), and keeps one [`StreamedCall`] per
//! call the model makes, each with its own resumable parser and partial tree.
//! It is sans-IO: bytes in, [`CallEvent`]s out, no clock. Everything else
//! of the response arrives as events too (text, thinking and its
//! signatures, refusals, server tool results, usage, id and model), and at
//! the end [`ToolCallStream::to_assistant_message`] gives the final
//! assistant message in the protocol's model ([`ToolCallStream::final_messages_json`]
//! in the provider's own JSON), as the providers' SDKs accumulate it.
//! Each [`StreamedCall`] converts into the protocol's
//! [`ToolCall`](crate::protocol::ToolCall) ([`StreamedCall::to_tool_call`]),
//! and gives its arguments as the user's type, or the `is_error` result to
//! send back, in one call ([`StreamedCall::deserialize`]).
//!
//! # Cost
//!
//! Each event's JSON is decoded once; argument text is parsed once, by the
//! call's parser. A completed value is not copied into its event unless it
//! is a scalar (each scalar once), so the events of one response cost
//! O(its size) whatever the nesting; containers are read in place with
//! [`StreamedCall::value_at`]. Two calls with one id make the second
//! [`CallStatus::Invalid`] ([`CallError::DuplicateId`]).
//!
//! # The model
//!
//! * A call is keyed as the vendor keys it ([`CallKey`]): Anthropic the
//!   content block `index`, OpenAI Chat `(choice, tool_calls[].index)`,
//!   Responses the `output_index`. Several calls may be open at once and
//!   their deltas may interleave. Calls are also numbered in the order they
//!   started ([`CallEvent`]s name them by that number, an index into
//!   [`ToolCallStream::calls`]).
//! * Each call has an id, a name, a [`CallKind`] (client, server, MCP,
//!   custom), a [`CallStatus`], the raw argument text, the partial tree and,
//!   once complete, the final value.
//! * A call is [`CallStatus::Complete`] only when both hold: its root value
//!   closed, and the vendor ended the block (Anthropic `content_block_stop`,
//!   OpenAI Chat `finish_reason`, Responses `function_call_arguments.done` /
//!   `output_item.done` / `response.completed`). `max_tokens`, `length`,
//!   `response.incomplete` and the end of the input finish open calls as
//!   [`CallStatus::Truncated`]; an error event as [`CallStatus::Aborted`];
//!   a call whose block ended but whose text is not one JSON value, or whose
//!   value breaks its tool's schema, or whose tool is unknown, is
//!   [`CallStatus::Invalid`]. Nothing truncated or aborted is ever reported
//!   complete, and no salvaged arguments are ever offered as final.
//! * Empty argument text at the end of a block means "no arguments": the
//!   value is `{}` (for Anthropic, the `input` of the start event, which is
//!   `{}` unless programmatic tool calling filled it in).
//!
//! # Events
//!
//! | event | when |
//! |---|---|
//! | [`CallEvent::CallStarted`] | a tool call block began: key, id, name, kind |
//! | [`CallEvent::ArgumentsAppended`] | argument text arrived for a call (empty fragments are dropped) |
//! | [`CallEvent::ValueCompleted`] | a value inside the arguments is final (path; the value itself for a scalar, [`StreamedCall::value_at`] for any), the root last |
//! | [`CallEvent::CallDoomed`] | the call can no longer be valid (a byte that is not JSON, or a schema violation that is already certain), reported once, as early as it is certain |
//! | [`CallEvent::CallFinished`] | the call ended: its status |
//! | [`CallEvent::MessageStarted`] | the response began: its id and model |
//! | [`CallEvent::TextAppended`] | text for the user arrived |
//! | [`CallEvent::ThinkingAppended`] | thinking arrived (Anthropic thinking, Responses reasoning summary) |
//! | [`CallEvent::ThinkingSigned`] | a thinking block's signature (Anthropic requires it back) |
//! | [`CallEvent::RedactedThinking`] | an encrypted thinking block |
//! | [`CallEvent::RefusalAppended`] | refusal text arrived |
//! | [`CallEvent::ServerToolResult`] | a server tool's result block arrived whole |
//! | [`CallEvent::UsageUpdated`] | token counts (cumulative) |
//! | [`CallEvent::Malformed`] | one event's JSON could not be read; the stream goes on |
//! | [`CallEvent::StreamFinished`] | the response ended: its [`StopReason`]; always the last event |
//!
//! # Vendor quirks handled
//!
//! Anthropic: `ping` anywhere; the `input: {}` placeholder in
//! `content_block_start` (used only when no delta follows); complete
//! `tool_use` blocks inside `message_start`; `server_tool_use` and
//! `mcp_tool_use` blocks tagged by kind; a second `message_start` with another
//! id is a protocol error. OpenAI Chat: `[DONE]`; usage-only chunks
//! (`choices: []` or `null`); `n > 1`; id and name in the first delta only,
//! or late, or repeated (kept, never concatenated); a new id at a used index
//! starts a new call (Ollama); index `-1` is read as `0`; `{"error": ...}`
//! chunks. Responses: `sequence_number` optional; `item_id` checked against
//! `output_index`; the `.done` arguments are authoritative (a missing tail is
//! fed, a mismatch is reported); custom tool calls carry free text, which is
//! not parsed (their value is that text, as a JSON string); flat and nested
//! `error` events. A stray `[DONE]` is tolerated everywhere.
//!
//!
// The module's examples, in their own file.
#![doc = include_str!("examples.md")]

mod anthropic;
mod bedrock;
mod decode;
#[cfg(feature = "stream")]
pub mod futures;
mod gemini;
mod openai_chat;
mod openai_responses;
mod response;
mod tools;

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use crate::error::Error;
use crate::parser::DuplicateKeys;
use crate::partial::{EventSink, PartialNode, PartialParser, ValueEvent};
use crate::path::{Path, Segment};
use crate::protocol::{
    Arguments, AssistantTurn, ProtocolError, ToolCall, ToolOutcome, ToolResult, ToolSet,
};
use crate::sse;
use crate::value::Value;

pub use crate::protocol::{StopReason, Vendor};
pub(crate) use decode::{Typed, excerpt, lenient_string, read_event};
pub use response::Usage;

/// How the vendor keys a call within the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallKey {
    /// Anthropic: the content block `index`.
    Block(u64),
    /// OpenAI Chat: `(choices[].index, delta.tool_calls[].index)`.
    Choice {
        /// The choice.
        choice: u64,
        /// The tool call index within the choice.
        index: u64,
    },
    /// OpenAI Responses: the `output_index`.
    Output(u64),
}

impl CallKey {
    /// The key as JSON: a number for a block or output index, `[choice,
    /// index]` for OpenAI Chat.
    pub fn to_json(&self) -> serde_json::Value {
        match *self {
            CallKey::Block(i) | CallKey::Output(i) => i.into(),
            CallKey::Choice { choice, index } => serde_json::json!([choice, index]),
        }
    }
}

impl fmt::Display for CallKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallKey::Block(i) | CallKey::Output(i) => write!(f, "{i}"),
            CallKey::Choice { choice, index } => write!(f, "{choice}/{index}"),
        }
    }
}

/// Who runs the tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallKind {
    /// A tool the client defined and runs (Anthropic `tool_use`, OpenAI
    /// `function`, Responses `function_call`).
    Client,
    /// A tool the vendor runs (Anthropic `server_tool_use`): never run it
    /// locally.
    Server,
    /// A tool on an MCP server the vendor calls (Anthropic `mcp_tool_use`,
    /// Responses `mcp_call`).
    Mcp,
    /// A Responses `custom_tool_call`: free-text input, not JSON.
    Custom,
}

impl CallKind {
    /// `client`, `server`, `mcp` or `custom`.
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Client => "client",
            CallKind::Server => "server",
            CallKind::Mcp => "mcp",
            CallKind::Custom => "custom",
        }
    }
}

impl fmt::Display for CallKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a call stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallStatus {
    /// Arguments are still arriving.
    Streaming,
    /// The root value closed, the vendor ended the block, and the value
    /// passed every check it was given.
    Complete,
    /// The response stopped (`max_tokens`, `length`, `response.incomplete`,
    /// the end of the input) before the call ended.
    Truncated,
    /// An error event (or a broken stream) ended the response during the
    /// call.
    Aborted,
    /// The block ended, but the text is not one JSON value, or the value
    /// breaks its tool's schema, or no such tool was offered.
    Invalid,
}

impl CallStatus {
    /// `streaming`, `complete`, `truncated`, `aborted` or `invalid`.
    pub fn as_str(self) -> &'static str {
        match self {
            CallStatus::Streaming => "streaming",
            CallStatus::Complete => "complete",
            CallStatus::Truncated => "truncated",
            CallStatus::Aborted => "aborted",
            CallStatus::Invalid => "invalid",
        }
    }

    /// Whether the call has ended (any status but `Streaming`).
    pub fn is_finished(self) -> bool {
        self != CallStatus::Streaming
    }
}

impl fmt::Display for CallStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a call is not complete, or what was odd about it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CallError {
    /// The argument text is not one JSON value (invalid, truncated, trailing
    /// data, or over a limit).
    Json(Error),
    /// The call's tool was not among the request's tools.
    UnknownTool(String),
    /// The vendor's final arguments (Responses `.done`) differ from the
    /// concatenated deltas.
    ArgumentsMismatch {
        /// What the deltas gave.
        streamed: String,
        /// What the vendor's final event says.
        done: String,
    },
    /// The response stopped during the call.
    Cut(StopReason),
    /// Another call of the same response already has this id; a client
    /// that keys results by id would lose one of them.
    DuplicateId(String),
    /// The call's partial tree grew past the per-call memory budget
    /// ([`ToolCallStream::with_max_call_tree_bytes`], the bytes given): the
    /// tree is dropped and the call's arguments are no longer parsed.
    CallTreeBudget(u64),
    /// The partial trees of the response's calls together grew past the
    /// per-response memory budget
    /// ([`ToolCallStream::with_max_response_tree_bytes`], the bytes given)
    /// while this call was fed: its tree is dropped and its arguments are no
    /// longer parsed.
    ResponseTreeBudget(u64),
    /// The value breaks the tool's schema: instance path and message.
    Schema {
        /// Where in the arguments (JSON Pointer).
        instance_path: Path,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Json(e) => write!(f, "arguments: {e}"),
            CallError::UnknownTool(name) => write!(f, "unknown tool {name:?}"),
            CallError::ArgumentsMismatch { streamed, done } => write!(
                f,
                "final arguments differ from the streamed deltas ({} bytes streamed, {} bytes final)",
                streamed.len(),
                done.len()
            ),
            CallError::Cut(reason) => write!(f, "response ended during the call: {reason}"),
            CallError::DuplicateId(id) => {
                write!(
                    f,
                    "duplicate tool call id {id:?}: an earlier call of this response has it"
                )
            }
            CallError::CallTreeBudget(limit) => write!(
                f,
                "arguments' partial tree over the per-call memory budget of {limit} bytes"
            ),
            CallError::ResponseTreeBudget(limit) => write!(
                f,
                "partial trees of the response's calls over the per-response memory budget of {limit} bytes"
            ),
            CallError::Schema {
                instance_path,
                message,
            } => write!(f, "{instance_path}: {message}"),
        }
    }
}

/// What happened, in order. Calls are named by `call`, their position in
/// [`ToolCallStream::calls`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CallEvent {
    /// A tool call began.
    CallStarted {
        /// The call's position in [`ToolCallStream::calls`].
        call: usize,
        /// The vendor's key.
        key: CallKey,
        /// The call id (`toolu_…`, `call_…`), when known.
        id: Option<String>,
        /// The tool name, when known.
        name: Option<String>,
        /// Who runs it.
        kind: CallKind,
    },
    /// Raw argument text arrived (never empty).
    ArgumentsAppended {
        /// The call.
        call: usize,
        /// The text, as the vendor sent it (JSON text, or free text for
        /// custom calls).
        text: String,
        /// Whether [`StreamedCall::partial`] changed with this text: a value
        /// opened, a string grew, a value completed (whitespace, half a key
        /// or a number not yet proven change nothing, so a UI need not
        /// redraw). A string held back by its schema (`enum` / `const`) may
        /// count as a change while it stays hidden. Always `true` for custom
        /// (free-text) calls.
        preview_changed: bool,
    },
    /// A value inside the call's arguments is final. A container is not
    /// copied into the event (each level would copy its whole content
    /// again): read it with [`StreamedCall::value_at`], which stays valid,
    /// since a completed value never changes.
    ValueCompleted {
        /// The call.
        call: usize,
        /// Where (the root is the empty path).
        path: Path,
        /// The value when it is a scalar (string, number, `true`, `false`,
        /// `null`); `None` for an array or an object.
        value: Option<Value>,
    },
    /// The call can no longer end complete; reported once, at the first byte
    /// where that is certain.
    CallDoomed {
        /// The call.
        call: usize,
        /// Why.
        error: CallError,
    },
    /// The call ended.
    CallFinished {
        /// The call.
        call: usize,
        /// How it ended (never `Streaming`).
        status: CallStatus,
    },
    /// The response began: the provider's message (or response) id and
    /// model, when it gave them.
    MessageStarted {
        /// `msg_…`, `chatcmpl-…`, `resp_…`.
        id: Option<String>,
        /// The model that answers.
        model: Option<String>,
    },
    /// Text for the user arrived (never empty).
    TextAppended {
        /// Where: the Anthropic content block index, the Chat choice index,
        /// or the Responses output index.
        at: u64,
        /// The text.
        text: String,
    },
    /// Thinking (Anthropic `thinking_delta`, Responses reasoning summary
    /// text) arrived (never empty).
    ThinkingAppended {
        /// Where, as for [`CallEvent::TextAppended`].
        at: u64,
        /// The text.
        text: String,
    },
    /// A thinking block's signature, which Anthropic requires back on the
    /// next turn.
    ThinkingSigned {
        /// The content block index.
        at: u64,
        /// The signature.
        signature: String,
    },
    /// A `redacted_thinking` block (encrypted; sent back as it is).
    RedactedThinking {
        /// The content block index.
        at: u64,
        /// Its `data`.
        data: String,
    },
    /// Refusal text arrived (Chat `delta.refusal`, Responses
    /// `refusal.delta`).
    RefusalAppended {
        /// Where, as for [`CallEvent::TextAppended`].
        at: u64,
        /// The text.
        text: String,
    },
    /// A server tool's result arrived whole (Anthropic `*_tool_result`
    /// blocks, `mcp_tool_result`).
    ServerToolResult {
        /// The content block index.
        at: u64,
        /// The block, as the provider sent it.
        block: serde_json::Value,
    },
    /// The token counts so far (they are cumulative: each replaces the last).
    UsageUpdated(Usage),
    /// One event's JSON could not be decoded; it was skipped.
    Malformed {
        /// What and where.
        message: String,
    },
    /// The response ended; the last event.
    StreamFinished {
        /// Why.
        stop_reason: StopReason,
        /// The `tool_choice` check against the request's tool set, when one
        /// was given and it failed.
        choice_error: Option<String>,
    },
}

/// A fatal error: the stream cannot be followed any further. Open calls are
/// aborted and [`CallEvent::StreamFinished`] is queued before it is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamError {
    /// The event-stream framing broke a bound.
    Sse(sse::SseError),
    /// The events broke the vendor's protocol (a second `message_start`, a
    /// delta for a call that was never started, ...).
    Protocol(String),
    /// More calls than [`ToolCallStream::with_max_calls`] allows.
    TooManyCalls(usize),
    /// A Bedrock event-stream frame was bad (a CRC, its lengths, its
    /// headers) or cut by the end of the input; it names the frame's offset.
    EventStream(crate::eventstream::EventStreamError),
    /// `feed` or `finish` after `finish`.
    AfterFinish,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Sse(e) => write!(f, "{e}"),
            StreamError::Protocol(m) => write!(f, "protocol error: {m}"),
            StreamError::TooManyCalls(n) => write!(f, "more than {n} tool calls in one response"),
            StreamError::EventStream(e) => write!(f, "{e}"),
            StreamError::AfterFinish => f.write_str("stream used after finish()"),
        }
    }
}

impl std::error::Error for StreamError {}

impl From<sse::SseError> for StreamError {
    fn from(e: sse::SseError) -> Self {
        StreamError::Sse(e)
    }
}

/// One tool call of the response.
#[derive(Debug)]
pub struct StreamedCall {
    key: CallKey,
    id: Option<String>,
    name: Option<String>,
    kind: CallKind,
    status: CallStatus,
    text: String,
    parser: PartialParser,
    value: Option<Value>,
    errors: Vec<CallError>,
    doomed: bool,
    /// Anthropic's start `input`, used when no delta follows.
    placeholder: Option<Value>,
    /// Responses `item_id`, checked against later events.
    item_id: Option<String>,
    /// Bytes fed past the parser's failure are kept in `text` only.
    parser_failed: bool,
    /// The schema check, when the stream has tools.
    check: tools::CallCheck,
}

impl StreamedCall {
    fn new(key: CallKey, id: Option<String>, name: Option<String>, kind: CallKind) -> StreamedCall {
        StreamedCall {
            key,
            id,
            name,
            kind,
            status: CallStatus::Streaming,
            text: String::new(),
            parser: PartialParser::new(),
            value: None,
            errors: Vec::new(),
            doomed: false,
            placeholder: None,
            item_id: None,
            parser_failed: false,
            check: tools::CallCheck::default(),
        }
    }

    /// The vendor's key.
    pub fn key(&self) -> CallKey {
        self.key
    }

    /// The call id the tool result must echo (Anthropic `toolu_…`, Chat
    /// `call_…`, Responses `call_id`), when known.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The Responses item id (`fc_…`), when there is one.
    pub fn item_id(&self) -> Option<&str> {
        self.item_id.as_deref()
    }

    /// The tool name, when known.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Who runs the tool.
    pub fn kind(&self) -> CallKind {
        self.kind
    }

    /// Where the call stands.
    pub fn status(&self) -> CallStatus {
        self.status
    }

    /// The raw argument text so far (for an Anthropic call with no deltas,
    /// the start event's `input` as JSON).
    pub fn arguments_text(&self) -> &str {
        &self.text
    }

    /// The best-effort partial value so far (see [`crate::partial`]); for a
    /// truncated or aborted call, what had arrived. `None` before anything
    /// is visible, and for custom (free-text) calls.
    pub fn partial(&self) -> Option<&PartialNode> {
        self.parser.snapshot()
    }

    /// The final arguments: `Some` only when the call is
    /// [`CallStatus::Complete`]. For a custom call, the free text as a JSON
    /// string.
    pub fn value(&self) -> Option<&Value> {
        if self.status == CallStatus::Complete {
            self.value.as_ref()
        } else {
            None
        }
    }

    /// The completed value at `path` in the arguments (the root is the
    /// empty path), as soon as it is complete, even while the call is still
    /// streaming; `None` while it is not.
    ///
    /// ```
    /// use tooljson::providers::{CallEvent, ToolCallStream};
    /// let mut s = ToolCallStream::new();
    /// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": [1, 2], \"b\": \"x"}}"#)?;
    /// let completed: Vec<String> = s.drain_events().filter_map(|e| match e {
    ///     CallEvent::ValueCompleted { path, .. } => Some(path.to_string()),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(completed, ["/a/0", "/a/1", "/a"]);
    /// let path = tooljson::Path::from_segments([tooljson::Segment::from("a")]);
    /// assert_eq!(s.calls()[0].value_at(&path).unwrap().to_string(), "[1,2]");
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    pub fn value_at(&self, path: &Path) -> Option<&Value> {
        enum At<'a> {
            Node(&'a PartialNode),
            Value(&'a Value),
        }
        let mut at = At::Node(self.parser.snapshot()?);
        for segment in path.segments() {
            at = match (at, segment) {
                (At::Value(v), Segment::Key(k)) => At::Value(v.get(k)?),
                (At::Value(v), Segment::Index(i)) => At::Value(v.as_array()?.get(*i)?),
                (At::Node(PartialNode::Complete(v)), seg) => {
                    let v = match seg {
                        Segment::Key(k) => v.get(k)?,
                        Segment::Index(i) => v.as_array()?.get(*i)?,
                    };
                    At::Value(v)
                }
                (At::Node(PartialNode::Object(members)), Segment::Key(k)) => {
                    At::Node(&members.iter().rev().find(|(name, _)| name == k)?.1)
                }
                (At::Node(PartialNode::Array(items)), Segment::Index(i)) => {
                    At::Node(items.get(*i)?)
                }
                _ => return None,
            };
        }
        match at {
            At::Value(v) => Some(v),
            At::Node(n) => n.as_complete(),
        }
    }

    /// The final arguments as a `serde_json::Value` (a complete call only;
    /// `None` too for a number beyond `f64`, which serde_json cannot hold).
    pub fn arguments_json(&self) -> Option<serde_json::Value> {
        self.value().and_then(|v| v.to_serde_json().ok())
    }

    /// What went wrong (or was odd), in the order found.
    pub fn errors(&self) -> &[CallError] {
        &self.errors
    }

    /// Whether the client should run this call now: a complete client call.
    pub fn is_executable(&self) -> bool {
        self.status == CallStatus::Complete && self.kind == CallKind::Client
    }

    /// The argument text wrapped for sending back to the model when it is not
    /// valid JSON: `{"INVALID_JSON": "<text>"}`, as Anthropic's docs advise
    /// (see [`crate::protocol::invalid_json_input`]).
    pub fn invalid_json_input(&self) -> serde_json::Value {
        crate::protocol::invalid_json_input(&self.text)
    }

    /// The call in the protocol's model: id, name, item id and arguments
    /// (the value with its exact text when complete, else the raw text as
    /// [`Arguments::Invalid`]). A call whose id never arrived has an empty
    /// id.
    pub fn to_tool_call(&self) -> ToolCall {
        let arguments = match (self.value(), self.kind) {
            (Some(_), CallKind::Custom) | (None, _) => Arguments::Invalid(self.text.clone()),
            (Some(v), _) => match v.to_serde_json() {
                Ok(value) => Arguments::Json {
                    value,
                    text: Some(self.text.clone()),
                },
                Err(_) => Arguments::Invalid(self.text.clone()),
            },
        };
        let mut call = ToolCall::new(
            self.id.clone().unwrap_or_default(),
            self.name.clone().unwrap_or_default(),
            arguments,
        );
        call.item_id = self.item_id.clone();
        call
    }

    /// The verdict: the final arguments of a complete call, else why it is
    /// not complete.
    pub fn verdict(&self) -> Result<&Value, &[CallError]> {
        self.value().ok_or(&self.errors)
    }

    /// The `is_error` result to send back instead of running the call, when
    /// it is not complete (`None` when it is): the parse error with the
    /// position and the text, or every schema violation with its path, or
    /// why the call was cut.
    pub fn retry_result(&self) -> Option<ToolResult> {
        if self.status == CallStatus::Complete {
            return None;
        }
        let id = self.id.as_deref().unwrap_or_default();
        if let Some(CallError::Json(e)) =
            self.errors.iter().find(|e| matches!(e, CallError::Json(_)))
        {
            return Some(crate::protocol::parse_error_result(id, &self.text, e));
        }
        let name = self.name.as_deref().unwrap_or_default();
        let why: Vec<String> = self.errors.iter().map(|e| format!("- {e}")).collect();
        let why = if why.is_empty() {
            format!("- the call ended {}", self.status)
        } else {
            why.join("\n")
        };
        Some(ToolResult::new(
            id,
            ToolOutcome::error(format!(
                "The call to {name} was not run:\n{why}\nCall the tool again with corrected arguments."
            )),
        ))
    }

    /// The arguments of a complete call as `T`, or the `is_error` result to
    /// send back: the call's [`retry_result`](Self::retry_result), or, when
    /// the value does not fit `T`, serde's message.
    ///
    /// # Errors
    ///
    /// The [`ToolResult`] to answer the call with.
    // The error is the reply itself (built once per failed call), not a cause to propagate.
    #[allow(clippy::result_large_err)]
    pub fn deserialize<T: serde::de::DeserializeOwned>(&self) -> Result<T, ToolResult> {
        if let Some(r) = self.retry_result() {
            return Err(r);
        }
        let id = self.id.as_deref().unwrap_or_default();
        let bad = |m: String| ToolResult::new(id, ToolOutcome::error(m));
        let value = self
            .value
            .as_ref()
            .ok_or_else(|| bad("The call has no arguments.".to_owned()))?;
        let json = value
            .to_serde_json()
            .map_err(|e| bad(format!("The arguments could not be read: {e}")))?;
        serde_json::from_value(json).map_err(|e| {
            bad(format!(
                "The arguments of {} do not fit: {e}. Call the tool again with corrected arguments.",
                self.name.as_deref().unwrap_or_default()
            ))
        })
    }
}

/// Collects the partial parser's completion events for one call.
struct ValueEvents<'q> {
    call: usize,
    queue: &'q mut VecDeque<CallEvent>,
    /// Whether any value opened, grew or completed.
    changed: bool,
}

impl EventSink for ValueEvents<'_> {
    fn event(&mut self, event: ValueEvent<'_>) {
        self.changed = true;
        if let ValueEvent::Completed {
            path,
            value: Some(v),
        } = event
        {
            // Scalars are copied once each; containers are read in place.
            let value = match v {
                Value::Array(_) | Value::Object(_) => None,
                scalar => Some(scalar.clone()),
            };
            self.queue.push_back(CallEvent::ValueCompleted {
                call: self.call,
                path: path.to_path(),
                value,
            });
        }
    }
}

/// The default bound on calls in one response.
pub const DEFAULT_MAX_CALLS: usize = 1024;

/// The default memory budget of one call's partial tree, as estimated by
/// [`PartialParser::held_bytes`]: 8 times the default 64 MiB text limit.
/// Arguments of strings and small objects estimate at 1 to 10 bytes per
/// byte of text, so a call at the text limit passes; an array of tiny
/// values (`[0,0,0,...]`, 33 per byte) is refused at about 16 MiB.
pub const DEFAULT_MAX_CALL_TREE_BYTES: u64 = 8 * (64 << 20);

/// The default memory budget of the partial trees of all the calls of one
/// response together (the same estimate, summed).
pub const DEFAULT_MAX_RESPONSE_TREE_BYTES: u64 = 1 << 30;

/// The vendor-neutral state shared by the adapters: the calls and the event
/// queue. Adapters translate vendor events into these operations.
#[derive(Debug)]
pub(crate) struct Calls {
    calls: Vec<StreamedCall>,
    events: VecDeque<CallEvent>,
    max_calls: usize,
    /// Memory budgets of one call's tree and of all of them, and the
    /// estimate of what the calls' trees hold now.
    max_call_tree_bytes: u64,
    max_response_tree_bytes: u64,
    tree_bytes: u64,
    stop: Option<StopReason>,
    malformed: usize,
    tools: Option<Arc<tools::Tools>>,
    choice_error: Option<String>,
    /// `None`: `Error` for calls checked against a schema, else `LastWins`.
    duplicate_keys: Option<DuplicateKeys>,
    /// Everything of the response that is not a call.
    pub(crate) response: response::Response,
}

impl Calls {
    fn new(max_calls: usize) -> Calls {
        Calls {
            calls: Vec::new(),
            events: VecDeque::new(),
            max_calls,
            max_call_tree_bytes: DEFAULT_MAX_CALL_TREE_BYTES,
            max_response_tree_bytes: DEFAULT_MAX_RESPONSE_TREE_BYTES,
            tree_bytes: 0,
            stop: None,
            malformed: 0,
            tools: None,
            choice_error: None,
            duplicate_keys: None,
            response: response::Response::default(),
        }
    }

    /// Starts a call and returns its number.
    pub(crate) fn start(
        &mut self,
        key: CallKey,
        id: Option<String>,
        name: Option<String>,
        kind: CallKind,
    ) -> Result<usize, StreamError> {
        if self.calls.len() >= self.max_calls {
            return Err(StreamError::TooManyCalls(self.max_calls));
        }
        let n = self.calls.len();
        self.events.push_back(CallEvent::CallStarted {
            call: n,
            key,
            id: id.clone(),
            name: name.clone(),
            kind,
        });
        self.calls.push(StreamedCall::new(key, id, name, kind));
        self.check_duplicate_id(n);
        Ok(n)
    }

    /// Reports the call's id when an earlier call of the response has it.
    pub(crate) fn check_duplicate_id(&mut self, n: usize) {
        let Some(id) = self.calls.get(n).and_then(|c| c.id.clone()) else {
            return;
        };
        if self.calls[..n].iter().any(|c| c.id.as_deref() == Some(&id)) {
            self.doom(n, CallError::DuplicateId(id));
        }
    }

    /// The open call with this key, if any (the latest one).
    pub(crate) fn open(&self, key: CallKey) -> Option<usize> {
        self.calls
            .iter()
            .rposition(|c| c.key == key && c.status == CallStatus::Streaming)
    }

    /// The latest call with this key, open or not.
    pub(crate) fn latest(&self, key: CallKey) -> Option<usize> {
        self.calls.iter().rposition(|c| c.key == key)
    }

    pub(crate) fn call(&self, n: usize) -> Option<&StreamedCall> {
        self.calls.get(n)
    }

    pub(crate) fn call_mut(&mut self, n: usize) -> Option<&mut StreamedCall> {
        self.calls.get_mut(n)
    }

    pub(crate) fn has_calls_of(&self, kind: CallKind) -> bool {
        self.calls.iter().any(|c| c.kind == kind)
    }

    fn doom(&mut self, n: usize, error: CallError) {
        if let Some(c) = self.calls.get_mut(n) {
            c.errors.push(error.clone());
            if !c.doomed {
                c.doomed = true;
                self.events
                    .push_back(CallEvent::CallDoomed { call: n, error });
            }
        }
    }

    /// Appends argument text to an open call (empty text is a no-op).
    pub(crate) fn append(&mut self, n: usize, text: &str) {
        if text.is_empty() {
            return;
        }
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.status != CallStatus::Streaming {
            return;
        }
        let limit = c.parser.parser().limits().max_input_bytes;
        if (c.text.len() + text.len()) as u64 > limit {
            // The parser reports the limit; the raw text stops growing too.
            if !c.parser_failed {
                c.parser_failed = true;
                let err = c
                    .parser
                    .feed(text.as_bytes(), &mut ())
                    .err()
                    .map(CallError::Json);
                if let Some(e) = err {
                    self.doom(n, e);
                }
            }
            return;
        }
        c.text.push_str(text);
        let appended = self.events.len();
        self.events.push_back(CallEvent::ArgumentsAppended {
            call: n,
            text: text.to_owned(),
            preview_changed: c.kind == CallKind::Custom,
        });
        if c.kind == CallKind::Custom || c.parser_failed {
            return;
        }
        if let Some(e) = tools::prepare(c, self.tools.as_ref(), self.duplicate_keys) {
            self.doom(n, e);
        }
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        let mut sink = ValueEvents {
            call: n,
            queue: &mut self.events,
            changed: false,
        };
        let held_before = c.parser.held_bytes();
        let fed = c.parser.feed(text.as_bytes(), &mut sink);
        if sink.changed
            && let Some(CallEvent::ArgumentsAppended {
                preview_changed, ..
            }) = self.events.get_mut(appended)
        {
            *preview_changed = true;
        }
        let certain = tools::newly_certain(c);
        if fed.is_err() {
            c.parser_failed = true;
        }
        // Violations certain in this fragment came before the byte where
        // the parser stopped: in the order they happened.
        for e in certain {
            self.doom(n, e);
        }
        if let Err(e) = fed {
            self.doom(n, CallError::Json(e));
        }
        self.check_tree_budgets(n, held_before);
    }

    /// After call `n` was fed: past either memory budget, ends the call's
    /// parsing and drops its tree. Checked per fragment, so a budget is
    /// passed by at most what one fragment adds.
    fn check_tree_budgets(&mut self, n: usize, held_before: u64) {
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        let held = c.parser.held_bytes();
        self.tree_bytes = (self.tree_bytes + held).saturating_sub(held_before);
        let error = if held > self.max_call_tree_bytes {
            CallError::CallTreeBudget(self.max_call_tree_bytes)
        } else if self.tree_bytes > self.max_response_tree_bytes {
            CallError::ResponseTreeBudget(self.max_response_tree_bytes)
        } else {
            return;
        };
        c.parser_failed = true;
        c.parser.reset();
        self.tree_bytes = self.tree_bytes.saturating_sub(held);
        self.doom(n, error);
    }

    /// The vendor ended the call's block: decide complete or invalid.
    pub(crate) fn end(&mut self, n: usize) {
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.status != CallStatus::Streaming {
            return;
        }
        if c.text.is_empty() {
            // No arguments: the placeholder (Anthropic), else `{}`.
            let text = match &c.placeholder {
                Some(v) => v.to_string(),
                None if c.kind == CallKind::Custom => String::new(),
                None => "{}".to_owned(),
            };
            self.append(n, &text);
        }
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.kind == CallKind::Custom {
            c.value = Some(Value::String(c.text.clone()));
            self.finish_call(n, CallStatus::Complete);
            return;
        }
        if !c.parser_failed {
            let mut sink = ValueEvents {
                call: n,
                queue: &mut self.events,
                changed: false,
            };
            let finished = c.parser.finish(&mut sink);
            match finished {
                Ok(()) => {
                    c.value = c.parser.value().cloned();
                    let mut errors = tools::newly_certain(c);
                    errors.extend(tools::verdict(c));
                    for e in errors {
                        self.doom(n, e);
                    }
                }
                Err(e) => {
                    c.parser_failed = true;
                    self.doom(n, CallError::Json(e));
                }
            }
        }
        let status = match self.calls.get(n) {
            Some(c) if c.doomed => CallStatus::Invalid,
            _ => CallStatus::Complete,
        };
        self.finish_call(n, status);
    }

    /// The response stopped during the call.
    pub(crate) fn cut(&mut self, n: usize, status: CallStatus, reason: &StopReason) {
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.status != CallStatus::Streaming {
            return;
        }
        c.errors.push(CallError::Cut(reason.clone()));
        // A call already known to be invalid JSON stays invalid.
        let status = if c.doomed {
            CallStatus::Invalid
        } else {
            status
        };
        self.finish_call(n, status);
    }

    /// Cuts every open call.
    pub(crate) fn cut_open(&mut self, status: CallStatus, reason: &StopReason) {
        for n in 0..self.calls.len() {
            self.cut(n, status, reason);
        }
    }

    /// Ends every open call normally (the vendor ended the response).
    pub(crate) fn end_open(&mut self, filter: impl Fn(&CallKey) -> bool) {
        for n in 0..self.calls.len() {
            if filter(&self.calls[n].key) {
                self.end(n);
            }
        }
    }

    fn finish_call(&mut self, n: usize, status: CallStatus) {
        if let Some(c) = self.calls.get_mut(n) {
            c.status = status;
            self.events
                .push_back(CallEvent::CallFinished { call: n, status });
        }
    }

    /// Queues an event of the response (text, thinking, usage, ...).
    pub(crate) fn push(&mut self, event: CallEvent) {
        self.events.push_back(event);
    }

    /// Records a skipped, unreadable event.
    pub(crate) fn malformed(&mut self, message: String) {
        self.malformed += 1;
        self.events.push_back(CallEvent::Malformed { message });
    }

    /// Ends the response: cuts what is still open, queues `StreamFinished`.
    pub(crate) fn finish_stream(&mut self, stop: StopReason) {
        if self.stop.is_some() {
            return;
        }
        let status = match stop {
            StopReason::Error { .. } => CallStatus::Aborted,
            _ => CallStatus::Truncated,
        };
        self.cut_open(status, &stop);
        self.stop = Some(stop.clone());
        let choice_error = self
            .tools
            .as_ref()
            .and_then(|t| tools::check_choice(t, &self.calls));
        self.choice_error = choice_error.clone();
        self.events.push_back(CallEvent::StreamFinished {
            stop_reason: stop,
            choice_error,
        });
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.stop.is_some()
    }
}

/// The per-vendor state.
#[derive(Debug)]
enum Adapter {
    Undetected,
    Anthropic(anthropic::State),
    Chat(openai_chat::State),
    Responses(openai_responses::State),
    Gemini(gemini::State),
    Bedrock(bedrock::State),
}

impl Adapter {
    fn for_vendor(v: Vendor) -> Adapter {
        match v {
            Vendor::Anthropic => Adapter::Anthropic(anthropic::State::default()),
            Vendor::OpenAiChat => Adapter::Chat(openai_chat::State::default()),
            Vendor::OpenAiResponses => Adapter::Responses(openai_responses::State::default()),
            Vendor::Gemini => Adapter::Gemini(gemini::State::default()),
            Vendor::Bedrock => Adapter::Bedrock(bedrock::State::default()),
        }
    }
}

/// Bytes of a streaming response in, tool calls and [`CallEvent`]s out.
/// See the [module docs](self) for the model and an example.
#[derive(Debug)]
pub struct ToolCallStream {
    sse: sse::Decoder,
    adapter: Adapter,
    calls: Calls,
    finished: bool,
    fatal: Option<StreamError>,
    /// The binary frame decoder, once the body began with an event-stream
    /// prelude (Bedrock) instead of text.
    frames: Option<crate::eventstream::Decoder>,
    /// Whether the body's first byte has been seen.
    sniffed: bool,
}

impl Default for ToolCallStream {
    fn default() -> Self {
        ToolCallStream::new()
    }
}

impl ToolCallStream {
    /// A stream that detects the vendor from its first events.
    pub fn new() -> ToolCallStream {
        ToolCallStream {
            sse: sse::Decoder::new(),
            adapter: Adapter::Undetected,
            calls: Calls::new(DEFAULT_MAX_CALLS),
            finished: false,
            fatal: None,
            frames: None,
            sniffed: false,
        }
    }

    /// A stream for a known vendor (no detection).
    pub fn for_vendor(vendor: Vendor) -> ToolCallStream {
        let mut s = ToolCallStream::new();
        s.adapter = Adapter::for_vendor(vendor);
        s.calls.response.set_vendor(vendor);
        if vendor == Vendor::Bedrock {
            s.frames = Some(crate::eventstream::Decoder::new());
        }
        s
    }

    /// Bounds the number of calls in one response (default
    /// [`DEFAULT_MAX_CALLS`]); past it the stream fails with
    /// [`StreamError::TooManyCalls`].
    pub fn with_max_calls(mut self, max: usize) -> ToolCallStream {
        self.calls.max_calls = max;
        self
    }

    /// Bounds the memory of one call's partial tree, as estimated by
    /// [`PartialParser::held_bytes`] (default
    /// [`DEFAULT_MAX_CALL_TREE_BYTES`]); past it the call ends
    /// [`CallStatus::Invalid`] with [`CallError::CallTreeBudget`] and its
    /// tree is dropped.
    ///
    /// ```
    /// use tooljson::providers::{CallError, CallStatus, ToolCallStream};
    /// let mut s = ToolCallStream::new().with_max_call_tree_bytes(4096);
    /// let args = format!("[{}0]", "0,".repeat(1000));
    /// let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}"#;
    /// let delta = serde_json::json!({"type": "content_block_delta", "index": 0,
    ///     "delta": {"type": "input_json_delta", "partial_json": args}});
    /// s.feed_event(Some("content_block_start"), start)?;
    /// s.feed_event(Some("content_block_delta"), &delta.to_string())?;
    /// let call = &s.calls()[0];
    /// assert!(call.errors().contains(&CallError::CallTreeBudget(4096)));
    /// assert!(call.partial().is_none());
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    pub fn with_max_call_tree_bytes(mut self, max: u64) -> ToolCallStream {
        self.calls.max_call_tree_bytes = max;
        self
    }

    /// Bounds the memory of the partial trees of all the response's calls
    /// together, as estimated by [`PartialParser::held_bytes`] (default
    /// [`DEFAULT_MAX_RESPONSE_TREE_BYTES`]); the call whose fragment takes
    /// the total past it ends [`CallStatus::Invalid`] with
    /// [`CallError::ResponseTreeBudget`] and its tree is dropped.
    pub fn with_max_response_tree_bytes(mut self, max: u64) -> ToolCallStream {
        self.calls.max_response_tree_bytes = max;
        self
    }

    /// Validates against the request's tools: each finished client call
    /// against its tool's compiled schema (a [`crate::schema::StreamCheck`]
    /// runs beside the partial tree, so a violation dooms the call at the
    /// byte where it is certain, and strings under `enum` / `const` stay
    /// hidden in [`StreamedCall::partial`] until complete), a name not among the
    /// tools makes the call [`CallStatus::Invalid`], and at the end the
    /// calls are checked against `tool_choice` and the parallel flag
    /// ([`CallEvent::StreamFinished`]'s `choice_error`). Each schema was
    /// compiled once, when the [`ToolSet`] was built.
    ///
    /// ```
    /// use tooljson::protocol::ToolSet;
    /// use tooljson::providers::{CallStatus, ToolCallStream};
    /// let tools = ToolSet::from_request_json(&serde_json::json!({"tools": [{"name": "add",
    ///     "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}],
    ///     "tool_choice": {"type": "any"}}))?;
    /// let mut s = ToolCallStream::new().with_tools(tools);
    /// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"add","input":{}}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": \"x\"}"}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_stop","index":0}"#)?;
    /// s.feed_event(None, r#"{"type":"message_stop"}"#)?;
    /// let call = &s.calls()[0];
    /// assert_eq!(call.status(), CallStatus::Invalid);
    /// assert_eq!(call.errors()[0].to_string(), "/a: expected integer, found a string");
    /// assert_eq!(s.choice_error(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_tools(mut self, tools: ToolSet) -> ToolCallStream {
        self.calls.tools = Some(Arc::new(tools::Tools::new(tools)));
        self
    }

    /// Sets what a key repeated within one object of a call's arguments
    /// does (see [`DuplicateKeys`]). By default a call checked against a
    /// tool's schema (see [`with_tools`](ToolCallStream::with_tools)) uses
    /// [`DuplicateKeys::Error`]: the call becomes [`CallStatus::Invalid`]
    /// with the parser's `duplicate key` error at the repeated key, so an
    /// ambiguous call is sent back rather than guessed at, and the schema
    /// verdict is exactly what `validate` says of the arguments. Other calls
    /// keep the last value, as `serde_json` and `JSON.parse` do. Under
    /// `LastWins` or `FirstWins` with a schema, every occurrence is checked,
    /// so the stream check can be stricter than `validate` of the value.
    ///
    /// ```
    /// use tooljson::parser::DuplicateKeys;
    /// use tooljson::providers::{CallStatus, ToolCallStream};
    /// let mut s = ToolCallStream::new().with_duplicate_keys(DuplicateKeys::FirstWins);
    /// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"add","input":{}}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": 1, \"a\": 2}"}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_stop","index":0}"#)?;
    /// let call = &s.calls()[0];
    /// assert_eq!(call.status(), CallStatus::Complete);
    /// assert_eq!(call.value().unwrap().to_string(), r#"{"a":1}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_duplicate_keys(mut self, policy: DuplicateKeys) -> ToolCallStream {
        self.calls.duplicate_keys = Some(policy);
        self
    }

    /// The request's tools, when given.
    pub fn tools(&self) -> Option<&ToolSet> {
        self.calls.tools.as_deref().map(|t| &t.set)
    }

    /// The `tool_choice` violation found at the end of the response, when
    /// tools were given.
    pub fn choice_error(&self) -> Option<&str> {
        self.calls.choice_error.as_deref()
    }

    /// Uses this event-stream decoder (e.g. with another line bound).
    pub fn with_sse_decoder(mut self, decoder: sse::Decoder) -> ToolCallStream {
        self.sse = decoder;
        self
    }

    /// The vendor, once known.
    pub fn vendor(&self) -> Option<Vendor> {
        match self.adapter {
            Adapter::Undetected => None,
            Adapter::Anthropic(_) => Some(Vendor::Anthropic),
            Adapter::Chat(_) => Some(Vendor::OpenAiChat),
            Adapter::Responses(_) => Some(Vendor::OpenAiResponses),
            // Not protocol vendors (yet): no message conversion for them.
            Adapter::Gemini(_) | Adapter::Bedrock(_) => None,
        }
    }

    /// The provider's name, once known: a [`Vendor`]'s name, or `gemini`
    /// or `bedrock`, whose streams are read but which have no [`Vendor`]
    /// of the protocol layer (so no final message in the protocol's model).
    ///
    /// ```
    /// use tooljson::providers::ToolCallStream;
    /// let mut s = ToolCallStream::new();
    /// s.feed(b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}]}}]}\r\n\r\n")?;
    /// assert_eq!(s.provider_name(), Some("gemini"));
    /// assert_eq!(s.vendor(), None);
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    pub fn provider_name(&self) -> Option<&'static str> {
        match self.adapter {
            Adapter::Gemini(_) => Some("gemini"),
            Adapter::Bedrock(_) => Some("bedrock"),
            _ => self.vendor().map(Vendor::as_str),
        }
    }

    /// Every call so far, in the order they started.
    pub fn calls(&self) -> &[StreamedCall] {
        &self.calls.calls
    }

    /// The call at this position (the `call` of its events).
    pub fn call(&self, call: usize) -> Option<&StreamedCall> {
        self.calls.calls.get(call)
    }

    /// The first call with this id (`toolu_…`, `call_…`).
    pub fn call_by_id(&self, id: &str) -> Option<&StreamedCall> {
        self.calls.calls.iter().find(|c| c.id() == Some(id))
    }

    /// The response's id (`msg_…`, `chatcmpl-…`, `resp_…`), once known.
    pub fn message_id(&self) -> Option<&str> {
        self.calls.response.id.as_deref()
    }

    /// The model, once known.
    pub fn model(&self) -> Option<&str> {
        self.calls.response.model.as_deref()
    }

    /// The latest token counts, once reported.
    pub fn usage(&self) -> Option<&Usage> {
        self.calls.response.usage.as_ref()
    }

    /// The final assistant message in the provider's own JSON, as the
    /// provider returns it unstreamed: Anthropic the `message` object; OpenAI
    /// Chat one `{"index", "message", "finish_reason"}` per choice;
    /// Responses `{"output": [...]}`. Tool inputs are the calls' values
    /// (for a call cut short: what arrived, open strings left out, as the
    /// SDKs read it). Read it once the stream has finished.
    pub fn final_messages_json(&self) -> Vec<serde_json::Value> {
        self.calls.response.native(&self.calls.calls)
    }

    /// The final assistant message in the protocol's model, ready to append
    /// to the conversation ([`AssistantTurn::to_vendor`] writes it back in
    /// the provider's form). OpenAI Chat with several choices: the first;
    /// see [`to_assistant_messages`](Self::to_assistant_messages).
    ///
    /// # Errors
    ///
    /// A [`ProtocolError`] when the accumulated message cannot be read as a
    /// turn (a response that had not started).
    pub fn to_assistant_message(&self) -> Result<AssistantTurn, ProtocolError> {
        self.to_assistant_messages()?
            .into_iter()
            .next()
            .ok_or(ProtocolError::MissingField {
                at: String::new(),
                field: "message",
            })
    }

    /// Every choice's final assistant message (one but for OpenAI Chat with
    /// `n > 1`).
    ///
    /// # Errors
    ///
    /// As [`to_assistant_message`](Self::to_assistant_message).
    pub fn to_assistant_messages(&self) -> Result<Vec<AssistantTurn>, ProtocolError> {
        self.calls.response.to_turns(&self.calls.calls)
    }

    /// Why the response ended, once it has.
    pub fn stop_reason(&self) -> Option<&StopReason> {
        self.calls.stop.as_ref()
    }

    /// Whether the response has ended (its terminal event, an error, or
    /// [`finish`](Self::finish)).
    pub fn is_finished(&self) -> bool {
        self.calls.is_finished()
    }

    /// How many events were skipped as unreadable.
    pub fn malformed_events(&self) -> usize {
        self.calls.malformed
    }

    /// The fatal error that ended the stream, if one did.
    pub fn fatal_error(&self) -> Option<&StreamError> {
        self.fatal.as_ref()
    }

    /// The next queued event.
    pub fn next_event(&mut self) -> Option<CallEvent> {
        self.calls.events.pop_front()
    }

    /// Takes every queued event.
    pub fn drain_events(&mut self) -> std::collections::vec_deque::Drain<'_, CallEvent> {
        self.calls.events.drain(..)
    }

    /// Feeds the next bytes of the response body (any split).
    ///
    /// # Errors
    ///
    /// A fatal [`StreamError`]; the stream is then finished (open calls
    /// aborted, [`CallEvent::StreamFinished`] queued) and every later call
    /// returns the same error.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), StreamError> {
        if let Some(e) = &self.fatal {
            return Err(e.clone());
        }
        if self.finished {
            return Err(StreamError::AfterFinish);
        }
        self.sniff(bytes);
        if let (Some(frames), Adapter::Bedrock(state)) = (&mut self.frames, &mut self.adapter) {
            let calls = &mut self.calls;
            let mut failure: Option<StreamError> = None;
            let fed = frames.feed(bytes, &mut |frame| {
                if failure.is_none() && !calls.is_finished() {
                    failure = state.handle(calls, frame).err();
                }
            });
            if let Err(e) = fed {
                failure.get_or_insert(StreamError::EventStream(e));
            }
            return match failure {
                Some(e) => Err(self.fail(e)),
                None => Ok(()),
            };
        }
        let mut failure: Option<StreamError> = None;
        let ToolCallStream {
            sse,
            adapter,
            calls,
            ..
        } = self;
        let sse_result = sse.feed(bytes, &mut |e: sse::Event<'_>| {
            if failure.is_some() {
                return;
            }
            let name = if e.named { Some(e.event) } else { None };
            if let Err(err) = handle_event(adapter, calls, name, e.data) {
                failure = Some(err);
            }
        });
        if let Err(e) = sse_result {
            failure.get_or_insert(StreamError::Sse(e));
        }
        match failure {
            Some(e) => Err(self.fail(e)),
            None => Ok(()),
        }
    }

    /// Feeds one already-framed event (its SSE event name, if any, and its
    /// data), for transports that are not `text/event-stream` or for events
    /// stored one per line.
    ///
    /// # Errors
    ///
    /// As [`feed`](Self::feed).
    pub fn feed_event(&mut self, event: Option<&str>, data: &str) -> Result<(), StreamError> {
        if let Some(e) = &self.fatal {
            return Err(e.clone());
        }
        if self.finished {
            return Err(StreamError::AfterFinish);
        }
        match handle_event(&mut self.adapter, &mut self.calls, event, data) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Ends the input. A last event with no blank line after it is still
    /// read. A response that did not reach its terminal event
    /// finishes with [`StopReason::EndOfStream`] (OpenAI Chat: the last
    /// `finish_reason`, when every call had ended), open calls truncated.
    ///
    /// # Errors
    ///
    /// [`StreamError::AfterFinish`] when called twice, or the fatal error
    /// that ended the stream earlier.
    pub fn finish(&mut self) -> Result<(), StreamError> {
        if let Some(e) = &self.fatal {
            return Err(e.clone());
        }
        if self.finished {
            return Err(StreamError::AfterFinish);
        }
        self.finished = true;
        if let Some(frames) = &mut self.frames {
            match frames.finish() {
                Ok(()) => {}
                // Like a last SSE event cut short: reported, and the
                // response ends as cut (open calls truncated).
                Err(e @ crate::eventstream::EventStreamError::Truncated { .. }) => {
                    self.calls.malformed(e.to_string());
                }
                Err(e) => return Err(self.fail(StreamError::EventStream(e))),
            }
        }
        // Vendor event data is one JSON value, so a last event that lacks
        // its blank line is still read (a cut-off one is then malformed).
        let ToolCallStream {
            sse,
            adapter,
            calls,
            ..
        } = self;
        let mut failure = None;
        sse.finish_flush(&mut |e: sse::Event<'_>| {
            let name = if e.named { Some(e.event) } else { None };
            if let Err(err) = handle_event(adapter, calls, name, e.data) {
                failure = Some(err);
            }
        });
        if let Some(e) = failure {
            return Err(self.fail(e));
        }
        if !self.calls.is_finished() {
            let stop = match &mut self.adapter {
                Adapter::Chat(state) => state.end_of_input(&mut self.calls),
                Adapter::Gemini(state) => state.end_of_input(&mut self.calls),
                Adapter::Bedrock(state) => state.end_of_input(&mut self.calls),
                _ => StopReason::EndOfStream,
            };
            self.calls.finish_stream(stop);
        }
        Ok(())
    }

    /// A body that begins with a NUL byte is binary event-stream frames
    /// (a prelude's big-endian length below 16 MiB); an SSE body never does.
    fn sniff(&mut self, bytes: &[u8]) {
        let Some(&first) = bytes.first() else {
            return;
        };
        if std::mem::replace(&mut self.sniffed, true) {
            return;
        }
        if first == 0 && matches!(self.adapter, Adapter::Undetected) {
            self.adapter = Adapter::Bedrock(bedrock::State::default());
            self.frames = Some(crate::eventstream::Decoder::new());
        }
    }

    fn fail(&mut self, e: StreamError) -> StreamError {
        let kind = match e {
            StreamError::Sse(_) | StreamError::EventStream(_) => "stream",
            _ => "protocol",
        };
        self.calls.finish_stream(StopReason::Error {
            kind: kind.to_owned(),
            message: e.to_string(),
        });
        self.fatal = Some(e.clone());
        e
    }
}

fn handle_event(
    adapter: &mut Adapter,
    calls: &mut Calls,
    event: Option<&str>,
    data: &str,
) -> Result<(), StreamError> {
    if calls.is_finished() {
        // A stray `[DONE]` (or anything) after the terminal event.
        return Ok(());
    }
    if data.trim() == "[DONE]" {
        let stop = match adapter {
            Adapter::Chat(state) => state.done(calls),
            _ => StopReason::EndOfStream,
        };
        calls.finish_stream(stop);
        return Ok(());
    }
    if let Adapter::Undetected = adapter {
        // Gemini first: its error chunk `{"error": {.., "status"}}` would
        // otherwise read as an OpenAI Chat error.
        let vendor = if gemini::detect(data) {
            None
        } else {
            Vendor::detect(event, data)
        };
        match vendor {
            Some(v) => {
                *adapter = Adapter::for_vendor(v);
                calls.response.set_vendor(v);
            }
            None if gemini::detect(data) => {
                *adapter = Adapter::Gemini(gemini::State::default());
            }
            None => {
                calls.malformed(format!(
                    "cannot tell the vendor from event {:?}: {}",
                    event.unwrap_or("message"),
                    excerpt(data)
                ));
                return Ok(());
            }
        }
    }
    match adapter {
        Adapter::Undetected => Ok(()),
        Adapter::Anthropic(s) => s.handle(calls, event, data),
        Adapter::Chat(s) => s.handle(calls, data),
        Adapter::Responses(s) => s.handle(calls, event, data),
        Adapter::Gemini(s) => s.handle(calls, data),
        Adapter::Bedrock(_) => Err(StreamError::Protocol(
            "Bedrock sends binary event-stream frames, not text events".to_owned(),
        )),
    }
}
