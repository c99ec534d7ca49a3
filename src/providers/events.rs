//! What a stream reports: the keys, kinds and statuses of calls, the
//! [`CallEvent`]s queued as the response arrives, and the errors of a call
//! ([`CallError`]) and of the stream ([`StreamError`]).

use std::fmt;
use std::ops::Range;

use super::{StopReason, Usage};
use crate::error::Error;
use crate::path::Path;
use crate::protocol::ChoiceViolation;
use crate::schema::StreamViolation;
use crate::sse;
use crate::value::Value;

#[cfg(doc)]
use super::{StreamedCall, ToolCallStream};

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
    /// The value breaks the tool's schema: the stream check's violation,
    /// whole (the instance path, the keyword and its schema path, the
    /// message) with the offset into the arguments where it became certain.
    /// Displays as the violation does, `<instance pointer>: <message>`.
    ///
    /// ```
    /// use tooljson::protocol::ToolSet;
    /// use tooljson::providers::{CallError, CallEvent, ToolCallStream};
    /// let tools = ToolSet::from_request_json(&tooljson::json!({"tools": [{"name": "add",
    ///     "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}}}]}))?;
    /// let mut s = ToolCallStream::new().with_tools(tools);
    /// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"add","input":{}}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": \"x"}}"#)?;
    /// let error = s.drain_events().find_map(|e| match e {
    ///     CallEvent::CallDoomed { error, .. } => Some(error),
    ///     _ => None,
    /// });
    /// let Some(CallError::Schema(v)) = &error else { panic!("{error:?}") };
    /// // Certain once the string's opening quote is read (7 bytes in), before
    /// // the string ends.
    /// assert_eq!((v.offset, v.violation.keyword.as_str()), (7, "type"));
    /// assert_eq!(v.violation.schema_path, "/properties/a/type");
    /// assert_eq!(error.unwrap().to_string(), "/a: expected integer, found a string");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Schema(StreamViolation),
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
            CallError::Schema(v) => write!(f, "{}", v.violation),
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
    /// Raw argument text arrived (never empty). The event says where the
    /// text lies rather than carrying a copy of it (a delta can be as large
    /// as the input): it is
    /// `stream.calls()[call].arguments_text()[range]`, which stays valid,
    /// since a call's text only grows.
    ///
    /// ```
    /// use tooljson::providers::{CallEvent, ToolCallStream};
    /// let mut s = ToolCallStream::new();
    /// s.feed_event(None, r#"{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\"a\": 1"}}]}}]}"#)?;
    /// let mut arrived = Vec::new();
    /// while let Some(e) = s.next_event() {
    ///     if let CallEvent::ArgumentsAppended { call, range, .. } = e {
    ///         arrived.push(s.calls()[call].arguments_text()[range].to_owned());
    ///     }
    /// }
    /// assert_eq!(arrived, [r#"{"a": 1"#]);
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    ArgumentsAppended {
        /// The call.
        call: usize,
        /// The bytes of [`StreamedCall::arguments_text`] that arrived, as
        /// the vendor sent them (JSON text, or free text for custom calls);
        /// on `char` boundaries.
        range: Range<usize>,
        /// Whether [`StreamedCall::partial`], rendered, changed with this
        /// text: a value opened, a string grew, a number or literal was
        /// proven, a string held back by its schema (`enum` / `const`)
        /// appeared. Whitespace, half a key, a number not yet proven, the
        /// closing of a string or container shown already change nothing,
        /// so a UI redraws only when this is `true`; when it is,
        /// [`StreamedCall::partial`] is `Some`. (A number at the very end
        /// of the text, proven only when the block ends, shows with
        /// [`CallEvent::CallFinished`].) For a custom (free-text) call,
        /// always `true`: its preview is its text.
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
    /// Text for the user arrived (never empty). Text of several choices
    /// (OpenAI Chat `n > 1`, Gemini candidates) interleaves: keep it apart
    /// by `choice`, or read it whole with [`ToolCallStream::text`].
    TextAppended {
        /// The choice it belongs to: the Chat choice or Gemini candidate
        /// index; always 0 for Anthropic, Responses and Bedrock, which have
        /// one.
        choice: u64,
        /// Where within the choice: the Anthropic or Bedrock content block
        /// index, the Responses output index; 0 for Chat and Gemini.
        block: u64,
        /// The text.
        text: String,
    },
    /// Thinking (Anthropic `thinking_delta`, Responses reasoning summary
    /// text) arrived (never empty); read it whole with
    /// [`ToolCallStream::thinking`].
    ThinkingAppended {
        /// The choice, as for [`CallEvent::TextAppended`].
        choice: u64,
        /// Where within the choice, as for [`CallEvent::TextAppended`].
        block: u64,
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
        /// The choice, as for [`CallEvent::TextAppended`].
        choice: u64,
        /// Where within the choice, as for [`CallEvent::TextAppended`].
        block: u64,
        /// The text.
        text: String,
    },
    /// A server tool's result arrived whole (Anthropic `*_tool_result`
    /// blocks, `mcp_tool_result`; Responses hosted tool items, call and
    /// result in one: `web_search_call`, `file_search_call`,
    /// `code_interpreter_call`, `image_generation_call`, `mcp_call`,
    /// `mcp_list_tools`, `tool_search_call`, at `output_item.done`; Bedrock
    /// `toolResult` blocks).
    ServerToolResult {
        /// The content block index.
        at: u64,
        /// The block, as the provider sent it.
        block: serde_json::Value,
    },
    /// A content block (Anthropic) or output item (Responses) that no other
    /// event reports, whole as it ended: Anthropic `compaction`,
    /// `container_upload` and other (beta) blocks; Responses items that the
    /// client acts on or answers (`computer_call`, `shell_call`,
    /// `local_shell_call`, `apply_patch_call`, `mcp_approval_request`) and
    /// items of unknown types. The final message carries it too.
    OtherContent {
        /// The content block index, or the Responses output index.
        at: u64,
        /// The block or item, as the provider gave it.
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
        choice_error: Option<ChoiceViolation>,
    },
}

/// A fatal error: the stream cannot be followed any further. Open calls are
/// aborted and [`CallEvent::StreamFinished`] is queued before it is returned.
///
/// Every variant but [`StreamError::Misuse`] is about the response (its
/// bytes, its events, or an error the provider reported in it); `Misuse` is
/// about the calling code, and no body can cause it. So a `match` over what
/// a response can do wrong names those variants and leaves `Misuse` to its
/// `_` arm (the enum is `#[non_exhaustive]` anyway), as serde_json keeps
/// its I/O errors apart from syntax and data ones.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamError {
    /// The event-stream framing broke a bound.
    Sse(sse::SseError),
    /// The events broke the vendor's protocol: a second `message_start`, a
    /// delta for a call that was never started, ... (see
    /// [`ProtocolViolation`]).
    Protocol(ProtocolViolation),
    /// More calls than [`ToolCallStream::with_max_calls`] allows.
    TooManyCalls(usize),
    /// A Bedrock event-stream frame was bad (a CRC, its lengths, its
    /// headers) or cut by the end of the input; it names the frame's offset.
    EventStream(crate::eventstream::EventStreamError),
    /// The stream was used in a way its API does not allow (see
    /// [`Misuse`]); the response is not at fault.
    Misuse(Misuse),
    /// The provider reported an error inside the stream: an Anthropic
    /// `error` event (`overloaded_error`), an OpenAI Chat `{"error": ...}`
    /// chunk, a Responses `error` event or `response.failed`
    /// (`insufficient_quota`), a Gemini error chunk, a Bedrock exception
    /// frame. [`ToolCallStream::finish`] returns it; the response up to the
    /// error stays readable (text, calls, usage), its calls that were open
    /// are [`CallStatus::Aborted`], and [`ToolCallStream::stop_reason`] is
    /// the same [`StopReason::Error`]. [`StreamError::is_retryable`] tells
    /// an overloaded or rate-limited reply, worth sending again, from one
    /// that is not.
    Provider {
        /// The provider's error type or code: `overloaded_error`,
        /// `insufficient_quota`, `UNAVAILABLE`, `throttlingException`.
        kind: String,
        /// The provider's message.
        message: String,
    },
    /// No provider's stream was recognised: the body held no event-stream
    /// event (a `.jsonl` file of events, a JSON error body, HTML), or none
    /// of its events was from a known provider. Returned by
    /// [`ToolCallStream::finish`] when [`ToolCallStream::new`] detected no
    /// vendor; the stream was not told its vendor
    /// ([`ToolCallStream::for_vendor`] skips detection).
    Unrecognized {
        /// How many bytes the body had.
        bytes: u64,
        /// How many event-stream events it held.
        events: u64,
        /// Where detection failed: the first event's data, or the body's
        /// start when it held no event (cut to 80 characters).
        first: String,
    },
}

impl StreamError {
    /// Whether sending the same request again may well succeed: the
    /// provider was overloaded, rate limited or failed inside (Anthropic
    /// `overloaded_error`, `rate_limit_error`, `api_error`; OpenAI
    /// `server_error`, `rate_limit_exceeded`; Gemini `UNAVAILABLE`,
    /// `RESOURCE_EXHAUSTED`, `INTERNAL`; Bedrock `throttlingException`,
    /// `serviceUnavailableException`, `internalServerException`,
    /// `modelStreamErrorException`), or the body broke off. An error about
    /// the request or the account (`insufficient_quota`,
    /// `invalid_request_error`) is not.
    ///
    /// ```
    /// use tooljson::providers::{StreamError, ToolCallStream};
    /// let mut s = ToolCallStream::new();
    /// s.feed(b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[]}}\n\n")?;
    /// s.feed(b"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")?;
    /// let err = s.finish().unwrap_err();
    /// assert!(matches!(&err, StreamError::Provider { kind, .. } if kind == "overloaded_error"));
    /// assert!(err.is_retryable());
    /// assert_eq!(err.to_string(), "the provider reported overloaded_error: Overloaded");
    /// # Ok::<(), StreamError>(())
    /// ```
    pub fn is_retryable(&self) -> bool {
        match self {
            StreamError::Provider { kind, .. } => matches!(
                kind.as_str(),
                "overloaded_error"
                    | "rate_limit_error"
                    | "api_error"
                    | "server_error"
                    | "rate_limit_exceeded"
                    | "UNAVAILABLE"
                    | "RESOURCE_EXHAUSTED"
                    | "INTERNAL"
                    | "throttlingException"
                    | "serviceUnavailableException"
                    | "internalServerException"
                    | "modelStreamErrorException"
            ),
            // A body cut inside a frame: the connection broke.
            StreamError::EventStream(e) => {
                matches!(e, crate::eventstream::EventStreamError::Truncated { .. })
            }
            _ => false,
        }
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Sse(e) => write!(f, "{e}"),
            StreamError::Protocol(v) => write!(f, "protocol error: {v}"),
            StreamError::TooManyCalls(n) => write!(f, "more than {n} tool calls in one response"),
            StreamError::EventStream(e) => write!(f, "{e}"),
            StreamError::Misuse(m) => write!(f, "{m}"),
            StreamError::Provider { kind, message } if message.is_empty() => {
                write!(f, "the provider reported {kind}")
            }
            StreamError::Provider { kind, message } => {
                write!(f, "the provider reported {kind}: {message}")
            }
            StreamError::Unrecognized {
                bytes: 0,
                events: 0,
                ..
            } => f.write_str("no provider's stream was recognised: the body was empty"),
            StreamError::Unrecognized {
                bytes,
                events: 0,
                first,
            } => write!(
                f,
                "no provider's stream was recognised: {bytes} bytes held no event-stream event \
                 (not `text/event-stream`: a file of one event per line goes to feed_event); \
                 the body begins {first}"
            ),
            StreamError::Unrecognized { events, first, .. } => write!(
                f,
                "no provider's stream was recognised in {events} event(s): the first is {first}"
            ),
        }
    }
}

impl std::error::Error for StreamError {}

impl From<sse::SseError> for StreamError {
    fn from(e: sse::SseError) -> Self {
        StreamError::Sse(e)
    }
}

/// How the events broke the vendor's streaming protocol
/// ([`StreamError::Protocol`]). (The vendor's event protocol, that is; the
/// request and message model of [`crate::protocol`] has its own error,
/// [`crate::protocol::ProtocolError`].)
///
/// # Examples
///
/// ```
/// use tooljson::providers::{ProtocolViolation, StreamError, ToolCallStream};
/// let mut s = ToolCallStream::new();
/// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
/// let err = s.feed_event(None, r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{"}}"#).unwrap_err();
/// assert!(matches!(&err, StreamError::Protocol(ProtocolViolation::DeltaWithoutCall { .. })));
/// assert_eq!(err.to_string(), "protocol error: input_json_delta for block 3, which is not an open tool block");
/// # Ok::<(), StreamError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProtocolViolation {
    /// An event lacks a member it needs (a `content_block_delta` without
    /// `delta`, a `response.output_item.added` without `item`).
    MissingMember {
        /// The event's type.
        event: String,
        /// The member (`index`, `delta`, `content_block type`).
        member: &'static str,
        /// The event's data, cut to 80 bytes (with `…` when cut).
        excerpt: String,
    },
    /// A Bedrock event frame lacks a member it needs (a
    /// `contentBlockDelta` without `contentBlockIndex`).
    MissingFrameMember {
        /// The frame's `:event-type`.
        event: String,
        /// The member.
        member: &'static str,
        /// The stream offset of the frame's first byte.
        offset: u64,
    },
    /// A second Anthropic `message_start` while a message is open (an
    /// exact repeat, with the same id, is skipped instead).
    SecondMessage {
        /// The new message's id.
        id: Option<String>,
        /// The open message's id.
        open: Option<String>,
    },
    /// A block or output item began at a position where a call is still
    /// open (Anthropic `content_block_start`, Bedrock
    /// `contentBlockStart`, Responses `output_item.added`).
    AlreadyOpen {
        /// The event.
        event: &'static str,
        /// The position: [`CallKey::Block`] or [`CallKey::Output`].
        key: CallKey,
    },
    /// Argument text for a call that is not open: never started, or
    /// (OpenAI Chat) already ended.
    DeltaWithoutCall {
        /// The event (`input_json_delta`, `toolUse delta`, `tool call
        /// delta`, `arguments event`).
        event: &'static str,
        /// The position it names, when it names one.
        key: Option<CallKey>,
        /// The Responses `item_id` it names, when it names one.
        item_id: Option<String>,
    },
    /// A Responses arguments event whose `item_id` and `output_index` name
    /// two different open calls.
    KeysDisagree {
        /// The `item_id`.
        item_id: String,
        /// The `output_index`.
        output_index: u64,
    },
    /// A Gemini response with more candidates than the adapter keeps apart
    /// (the bound is given).
    TooManyCandidates(usize),
}

impl fmt::Display for ProtocolViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolViolation::MissingMember {
                event,
                member,
                excerpt,
            } => write!(f, "{event} without {member}: {excerpt}"),
            ProtocolViolation::MissingFrameMember {
                event,
                member,
                offset,
            } => write!(f, "{event} without {member} (frame at byte {offset})"),
            ProtocolViolation::SecondMessage { id, open } => write!(
                f,
                "a second message_start ({}) while message {} is open",
                id.as_deref().unwrap_or("without id"),
                open.as_deref().unwrap_or("without id"),
            ),
            ProtocolViolation::AlreadyOpen { event, key } => {
                write!(f, "{event} {}, which is still open", Position(key))
            }
            ProtocolViolation::DeltaWithoutCall {
                event,
                key: Some(key @ CallKey::Block(_)),
                ..
            } => write!(
                f,
                "{event} {}, which is not an open tool block",
                Position(key)
            ),
            ProtocolViolation::DeltaWithoutCall {
                event,
                key: Some(key @ CallKey::Choice { .. }),
                ..
            } => write!(f, "{event} {} after it ended", Position(key)),
            ProtocolViolation::DeltaWithoutCall {
                event,
                key,
                item_id,
            } => {
                let output_index = match key {
                    Some(CallKey::Output(i)) => Some(*i),
                    _ => None,
                };
                write!(
                    f,
                    "{event} for output_index {output_index:?} / item_id {:?}, which is not an open call",
                    item_id.as_deref()
                )
            }
            ProtocolViolation::KeysDisagree {
                item_id,
                output_index,
            } => write!(
                f,
                "item_id {item_id} and output_index {output_index} name different calls"
            ),
            ProtocolViolation::TooManyCandidates(n) => {
                write!(f, "more than {n} candidates in one Gemini response")
            }
        }
    }
}

impl std::error::Error for ProtocolViolation {}

/// A position as the protocol errors word it: `for block 3`, `at
/// output_index 3`, `for choice 0 index 1`.
struct Position<'a>(&'a CallKey);

impl fmt::Display for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self.0 {
            CallKey::Block(i) => write!(f, "for block {i}"),
            CallKey::Output(i) => write!(f, "at output_index {i}"),
            CallKey::Choice { choice, index } => write!(f, "for choice {choice} index {index}"),
        }
    }
}

/// A use of [`ToolCallStream`] its API does not allow
/// ([`StreamError::Misuse`]): the calling code is wrong, not the response.
///
/// # Examples
///
/// ```
/// use tooljson::providers::{Misuse, StreamError, ToolCallStream};
/// let mut s = ToolCallStream::new();
/// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
/// s.feed_event(None, r#"{"type":"message_stop"}"#)?;
/// s.finish()?;
/// assert_eq!(s.finish(), Err(StreamError::Misuse(Misuse::AfterFinish)));
/// # Ok::<(), StreamError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Misuse {
    /// `feed`, `feed_event` or `finish` after `finish`.
    AfterFinish,
    /// `feed_event` on a Bedrock stream: Bedrock's body is binary
    /// event-stream frames, which `feed` reads.
    TextEventForBedrock,
}

impl fmt::Display for Misuse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Misuse::AfterFinish => f.write_str("stream used after finish()"),
            Misuse::TextEventForBedrock => f.write_str(
                "protocol error: Bedrock sends binary event-stream frames, not text events",
            ),
        }
    }
}

impl std::error::Error for Misuse {}
