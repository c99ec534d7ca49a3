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
//! send back, in one call ([`StreamedCall::deserialize`]). With the
//! `stream` feature, `ToolCallStream::into_events` turns it, with a body
//! stream of `bytes::Bytes` (reqwest's `bytes_stream()`), into a
//! `futures_core::Stream` of the same events (`futures::CallEvents`).
//!
//! # The loop, and one way each
//!
//! ```
//! # use tooljson::providers::{CallEvent, ToolCallStream};
//! # let body: &[&[u8]] = &[b"data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n"];
//! let mut stream = ToolCallStream::new(); // the provider is detected
//! for chunk in body {
//!     stream.feed(chunk)?;
//!     while let Some(event) = stream.next_event() {
//!         match event {
//!             CallEvent::TextAppended { choice: 0, text, .. } => print!("{text}"),
//!             CallEvent::ArgumentsAppended { call, preview_changed: true, .. } => {
//!                 let preview = stream.calls()[call].partial().expect("shown once changed");
//!                 println!("{preview}");
//!             }
//!             _ => {}
//!         }
//!     }
//! }
//! stream.finish()?; // the provider's error event, or a body that is no provider's stream
//! assert_eq!(stream.text(0), "Hi");
//! # Ok::<(), tooljson::providers::StreamError>(())
//! ```
//!
//! `while let Some(event) = stream.next_event()` is the loop. Each event is
//! owned and small: it names what changed (a call by its number, a range
//! of its text) rather than carrying it, since a delta can be as large as
//! the input and a preview is the whole tree. So between two events the
//! stream is free, and the loop's body reads it as the UI needs (a call's
//! preview, the text so far); events that carried copies of the preview
//! would cost O(size) per delta. ([`drain_events`](ToolCallStream::drain_events)
//! takes the queue by value, so it does not hold the stream either.)
//!
//! | what | the one way |
//! |---|---|
//! | text, thinking, refusals | [`ToolCallStream::text`], [`ToolCallStream::thinking`], [`ToolCallStream::refusal`], per choice ([`ToolCallStream::choices`]); each [`CallEvent::TextAppended`] names its `choice` (OpenAI Chat `n`, Gemini candidates; else 0) and its `block` in it |
//! | provider errors | [`ToolCallStream::finish`] returns [`StreamError::Provider`] (kind and message; [`StreamError::is_retryable`]); a body that is no provider's stream, [`StreamError::Unrecognized`]; what arrived stays readable |
//! | the final message | [`ToolCallStream::to_assistant_message`] (with its `stop_reason`), or [`ToolCallStream::final_messages_json`] in the provider's JSON: per choice, the object the unstreamed response holds it in, whole |
//! | arguments | [`StreamedCall::value`], the crate's [`Value`](crate::Value) (exact numbers, read in place); for your type or a `serde_json::Value`, [`StreamedCall::deserialize`], which gives the `is_error` reply when the call cannot run; in the protocol's model, [`StreamedCall::to_tool_call`] |
//! | a preview | [`StreamedCall::partial`] (a custom tool's: its text), redrawn when [`CallEvent::ArgumentsAppended`] says `preview_changed`; typed, [`PartialNode::deserialize_growing_preview`](crate::PartialNode::deserialize_growing_preview) |
//! | token counts | [`ToolCallStream::usage`]: one [`Usage`] for every provider, with reasoning and cache-write counts |
//!
//! # Cost
//!
//! Each event's JSON is decoded once; argument text is parsed once, by the
//! call's parser. A completed value is not copied into its event unless it
//! is a scalar (each scalar once), so the events of one response cost
//! O(its size) whatever the nesting; containers are read in place with
//! [`StreamedCall::value_at`]. Argument text is held once, by its call
//! ([`CallEvent::ArgumentsAppended`] names its range there), and a call's
//! final value is its partial tree, read in place: while a fragment is read,
//! a long string in it is held by the event's data, the call's text and the
//! tree, about three times its size at most. Two calls with one id make the
//! second [`CallStatus::Invalid`] ([`CallError::DuplicateId`]).
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
//! | [`CallEvent::ArgumentsAppended`] | argument text arrived for a call (empty fragments are dropped): where it lies in [`StreamedCall::arguments_text`] |
//! | [`CallEvent::ValueCompleted`] | a value inside the arguments is final (path; the value itself for a scalar, [`StreamedCall::value_at`] for any), the root last |
//! | [`CallEvent::CallDoomed`] | the call can no longer be valid (a byte that is not JSON, or a schema violation that is already certain), reported once, as early as it is certain |
//! | [`CallEvent::CallFinished`] | the call ended: its status |
//! | [`CallEvent::MessageStarted`] | the response began: its id and model |
//! | [`CallEvent::TextAppended`] | text for the user arrived: its choice, its block, the text |
//! | [`CallEvent::ThinkingAppended`] | thinking arrived (Anthropic thinking, Responses reasoning summary or text, Chat `reasoning_content`, Gemini thought parts, Bedrock reasoning) |
//! | [`CallEvent::ThinkingSigned`] | a thinking block's signature (Anthropic requires it back) |
//! | [`CallEvent::RedactedThinking`] | an encrypted thinking block |
//! | [`CallEvent::RefusalAppended`] | refusal text arrived |
//! | [`CallEvent::ServerToolResult`] | a server tool's result arrived whole (Anthropic `*_tool_result`, Responses hosted tool items, Bedrock `toolResult`) |
//! | [`CallEvent::OtherContent`] | any other block or item, whole as it ended (Anthropic `compaction` and beta blocks, Responses `computer_call` and unknown items) |
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
//! `error` events. Gemini: CRLF framing; whole `args` and `partialArgs`
//! path events; a part without a name or id continues its candidate's
//! current call (a call spans from its named part to the first part without
//! `willContinue`), one with an id the call with that id; a missing
//! terminator. Bedrock: binary frames checked by CRC;
//! text blocks without a start; the `"p"` padding. A stray `[DONE]` is
//! tolerated everywhere.
//!
//!
// The module's examples, in their own file.
#![doc = include_str!("examples.md")]

mod anthropic;
mod bedrock;
mod events;
mod fast;
#[cfg(feature = "stream")]
pub mod futures;
mod gemini;
mod native_message;
mod openai_chat;
mod openai_responses;
mod read_event;
mod response;
mod stream_state;
mod streamed_call;
mod tools;

use std::sync::Arc;

use crate::parser::DuplicateKeys;
use crate::protocol::{AssistantTurn, ChoiceViolation, ProtocolError, ToolSet};
use crate::sse;

pub use crate::protocol::{StopReason, Vendor};
pub use events::{
    CallError, CallEvent, CallKey, CallKind, CallStatus, Misuse, ProtocolViolation, StreamError,
};
pub(crate) use read_event::{Typed, excerpt, lenient_string, read_event};
use response::Provider;
pub use response::Usage;
pub(crate) use stream_state::Calls;
pub use stream_state::{
    DEFAULT_MAX_CALL_TREE_BYTES, DEFAULT_MAX_CALLS, DEFAULT_MAX_RESPONSE_TREE_BYTES,
};
pub use streamed_call::StreamedCall;

#[cfg(doc)]
use crate::partial::PartialParser;

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
    /// Bytes fed, and the body's first bytes: what an unrecognised body
    /// is reported with.
    bytes_fed: u64,
    body_start: Vec<u8>,
    /// Whether delta events take the fast path (`fast.rs`).
    fast_path: bool,
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
            bytes_fed: 0,
            body_start: Vec::new(),
            fast_path: true,
        }
    }

    /// Reads every event with the adapters' full readers, never the fast
    /// path for delta events: what the differential tests and the
    /// `fast_path` fuzz target hold the fast path against. The events and
    /// the final state are the same either way.
    #[doc(hidden)]
    pub fn without_fast_path(mut self) -> ToolCallStream {
        self.fast_path = false;
        self
    }

    /// A stream for a known vendor (no detection).
    pub fn for_vendor(vendor: Vendor) -> ToolCallStream {
        let mut s = ToolCallStream::new();
        s.adapter = Adapter::for_vendor(vendor);
        s.calls.response.set_provider(Provider::of(vendor));
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
    /// let delta = tooljson::json!({"type": "content_block_delta", "index": 0,
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
    /// let tools = ToolSet::from_request_json(&tooljson::json!({"tools": [{"name": "add",
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
    /// tools were given (its `Display` is the sentence to show).
    pub fn choice_error(&self) -> Option<&ChoiceViolation> {
        self.calls.choice_error.as_ref()
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
            Adapter::Gemini(_) => Some(Vendor::Gemini),
            Adapter::Bedrock(_) => Some(Vendor::Bedrock),
        }
    }

    /// The provider's name, once known: the [`Vendor`]'s name (`gemini`
    /// and `bedrock` too).
    ///
    /// ```
    /// use tooljson::providers::ToolCallStream;
    /// let mut s = ToolCallStream::new();
    /// s.feed(b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}]}}]}\r\n\r\n")?;
    /// assert_eq!(s.provider_name(), Some("gemini"));
    /// assert_eq!(s.vendor(), Some(tooljson::protocol::Vendor::Gemini));
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

    /// The final assistant message in the provider's own JSON, one entry
    /// per choice: for each, the object the provider's unstreamed response
    /// holds that choice in, whole, with its stop reason and (where the
    /// provider puts it there) its usage. Anthropic the `message` object
    /// (`content`, `stop_reason`, `usage`); OpenAI Chat one `{"index",
    /// "message", "finish_reason"}` per choice (the response's `id`,
    /// `model` and `usage` are [`message_id`](Self::message_id),
    /// [`model`](Self::model), [`usage`](Self::usage)); Responses the
    /// `response` object (`id`, `model`, `status`, `output`, `usage`, as
    /// `response.completed` gives it); Gemini one `{"index", "content":
    /// {"role": "model", "parts"}, "finishReason", "usageMetadata"}` per
    /// candidate (text, thought and `functionCall` parts, each with its
    /// `thoughtSignature`); Bedrock `{"output": {"message": {"role",
    /// "content"}}, "stopReason", "usage", "metrics"}` (`text`, `toolUse`
    /// with `input`, `reasoningContent`, `toolResult` blocks). Tool inputs
    /// are the calls' values (for a call cut short: what arrived, open
    /// strings left out, as the SDKs read it). Read it once the stream has
    /// finished.
    ///
    /// ```
    /// use tooljson::providers::ToolCallStream;
    /// let mut s = ToolCallStream::new();
    /// s.feed(b"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Let me look.\"},{\"functionCall\":{\"name\":\"find\",\"args\":{\"q\":\"rust\"}}}]},\"finishReason\":\"STOP\",\"index\":0}]}\r\n\r\n")?;
    /// s.finish()?;
    /// assert_eq!(s.final_messages_json(), [tooljson::json!({
    ///     "index": 0, "finishReason": "STOP",
    ///     "content": {"role": "model", "parts": [
    ///         {"text": "Let me look."},
    ///         {"functionCall": {"name": "find", "args": {"q": "rust"}}},
    ///     ]},
    /// })]);
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    pub fn final_messages_json(&self) -> Vec<crate::Value> {
        self.calls.response.native(&self.calls.calls)
    }

    /// The final assistant message in the protocol's model, ready to append
    /// to the conversation ([`AssistantTurn::to_vendor`] writes it back in
    /// the provider's form), with its stop reason
    /// ([`AssistantTurn::stop_reason`]: the provider's own for the choice,
    /// else the stream's, [`stop_reason`](Self::stop_reason)). OpenAI Chat
    /// with several choices: the first; see
    /// [`to_assistant_messages`](Self::to_assistant_messages).
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
        let mut turns = self.calls.response.to_turns(&self.calls.calls)?;
        if let Some(stop) = &self.calls.stop {
            for t in &mut turns {
                t.stop_reason.get_or_insert_with(|| stop.clone());
            }
        }
        Ok(turns)
    }

    /// The text of choice `choice` so far (0 unless OpenAI Chat was asked
    /// for `n > 1`, or Gemini for several candidates): every
    /// [`CallEvent::TextAppended`] of that choice, joined. Empty when none
    /// arrived.
    ///
    /// ```
    /// use tooljson::providers::ToolCallStream;
    /// let mut s = ToolCallStream::new();
    /// for i in 0..2 {
    ///     for piece in ["Hel", "lo"] {
    ///         s.feed(format!("data: {{\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":{i},\"delta\":{{\"content\":\"{piece}{i}\"}}}}]}}\n\n").as_bytes())?;
    ///     }
    /// }
    /// assert_eq!((s.text(0), s.text(1), s.choices()), ("Hel0lo0", "Hel1lo1", vec![0, 1]));
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    pub fn text(&self, choice: u64) -> &str {
        self.calls.texts.get(&choice).map_or("", |c| &c.text)
    }

    /// The thinking of choice `choice` so far (Anthropic thinking,
    /// Responses reasoning summaries, Chat `reasoning_content`, Gemini
    /// thoughts, Bedrock reasoning): every [`CallEvent::ThinkingAppended`]
    /// of that choice, joined. Empty when none arrived.
    pub fn thinking(&self, choice: u64) -> &str {
        self.calls.texts.get(&choice).map_or("", |c| &c.thinking)
    }

    /// The refusal text of choice `choice` so far (Chat `refusal`,
    /// Responses `refusal` parts). Empty when none arrived.
    pub fn refusal(&self, choice: u64) -> &str {
        self.calls.texts.get(&choice).map_or("", |c| &c.refusal)
    }

    /// The choices that said anything or called a tool, in order: `[0]`
    /// for most responses, `[0, 1, 2]` for Chat with `n = 3`.
    pub fn choices(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self.calls.texts.keys().copied().collect();
        for c in &self.calls.calls {
            let choice = match c.key {
                CallKey::Choice { choice, .. } => choice,
                _ => 0,
            };
            if let Err(at) = out.binary_search(&choice) {
                out.insert(at, choice);
            }
        }
        out
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

    /// The next queued event: THE event loop is
    /// `while let Some(event) = stream.next_event() { ... }` after each
    /// [`feed`](Self::feed). The event is owned and the stream is free
    /// between two calls, so the loop's body reads the stream
    /// ([`call`](Self::call), [`text`](Self::text)) as it likes; events
    /// stay small because they name what changed rather than carry it.
    pub fn next_event(&mut self) -> Option<CallEvent> {
        self.calls.events.pop_front()
    }

    /// Takes every queued event at once, by value (the stream is not held
    /// by the iterator, so `for e in stream.drain_events()` may read the
    /// stream in its body too). Prefer [`next_event`](Self::next_event).
    pub fn drain_events(&mut self) -> std::collections::vec_deque::IntoIter<CallEvent> {
        std::mem::take(&mut self.calls.events).into_iter()
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
            return Err(StreamError::Misuse(Misuse::AfterFinish));
        }
        self.sniff(bytes);
        self.bytes_fed = self.bytes_fed.saturating_add(bytes.len() as u64);
        let room = 80usize.saturating_sub(self.body_start.len());
        self.body_start
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
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
            fast_path: fast,
            ..
        } = self;
        let fast = *fast;
        let sse_result = sse.feed(bytes, &mut |e: sse::Event<'_>| {
            if failure.is_some() {
                return;
            }
            let name = if e.named { Some(e.event) } else { None };
            if let Err(err) = handle_event(adapter, calls, name, e.data, fast) {
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
            return Err(StreamError::Misuse(Misuse::AfterFinish));
        }
        match handle_event(
            &mut self.adapter,
            &mut self.calls,
            event,
            data,
            self.fast_path,
        ) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Ends the input. A last event with no blank line after it is still
    /// read. A response that did not reach its terminal event
    /// finishes with [`StopReason::EndOfStream`] (OpenAI Chat: the last
    /// `finish_reason`, when every call had ended), open calls truncated.
    /// Whatever it returns, the response so far stays readable.
    ///
    /// # Errors
    ///
    /// - [`StreamError::Provider`]: the provider reported an error in the
    ///   stream (an overloaded reply, an exhausted quota); retry when
    ///   [`StreamError::is_retryable`] says so.
    /// - [`StreamError::Unrecognized`]: no provider's stream was recognised
    ///   in the body (a stream made with [`new`](Self::new) only).
    /// - The fatal error that ended the stream earlier, or
    ///   [`Misuse::AfterFinish`] when called twice.
    pub fn finish(&mut self) -> Result<(), StreamError> {
        if let Some(e) = &self.fatal {
            return Err(e.clone());
        }
        if self.finished {
            return Err(StreamError::Misuse(Misuse::AfterFinish));
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
            fast_path: fast,
            ..
        } = self;
        let fast = *fast;
        let mut failure = None;
        sse.finish_flush(&mut |e: sse::Event<'_>| {
            let name = if e.named { Some(e.event) } else { None };
            if let Err(err) = handle_event(adapter, calls, name, e.data, fast) {
                failure = Some(err);
            }
        });
        if let Some(e) = failure {
            return Err(self.fail(e));
        }
        if matches!(self.adapter, Adapter::Undetected) {
            let first = match self.calls.undetected.take() {
                Some(first) => first,
                None => format!("{:?}", excerpt(&String::from_utf8_lossy(&self.body_start))),
            };
            return Err(self.fail(StreamError::Unrecognized {
                bytes: self.bytes_fed,
                events: self.calls.events_seen,
                first,
            }));
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
        match &self.calls.stop {
            // Not found by the adapter (that is `fatal`): the provider's.
            Some(StopReason::Error { kind, message }) => Err(StreamError::Provider {
                kind: kind.clone(),
                message: message.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// A body that begins with a NUL byte is binary event-stream frames
    /// (a prelude's big-endian length below 16 MiB); an SSE body never does.
    /// Nor does it begin with another control byte or a byte that cannot
    /// start UTF-8: such a body is read as frames too, so a first prelude
    /// past the bound (`0xFF...`) gets the frame decoder's bound error at
    /// once, as it would later in the stream, instead of being read as text.
    fn sniff(&mut self, bytes: &[u8]) {
        let Some(&first) = bytes.first() else {
            return;
        };
        if std::mem::replace(&mut self.sniffed, true) {
            return;
        }

        let binary =
            matches!(first, 0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F | 0x80..=0xC1 | 0xF5..);
        if binary && matches!(self.adapter, Adapter::Undetected) {
            self.adapter = Adapter::Bedrock(bedrock::State::default());
            self.calls.response.set_provider(Provider::Bedrock);
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

/// One event to its adapter: the delta fast path first when `fast`
/// (`fast.rs`), else or when it declines, the adapter's full reader.
fn handle_event(
    adapter: &mut Adapter,
    calls: &mut Calls,
    event: Option<&str>,
    data: &str,
    fast: bool,
) -> Result<(), StreamError> {
    calls.events_seen = calls.events_seen.saturating_add(1);
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
                calls.response.set_provider(Provider::of(v));
            }
            None if gemini::detect(data) => {
                *adapter = Adapter::Gemini(gemini::State::default());
                calls.response.set_provider(Provider::Gemini);
            }
            None => {
                let what = format!("event {:?}: {}", event.unwrap_or("message"), excerpt(data));
                calls.malformed(format!("cannot tell the vendor from {what}"));
                calls.undetected.get_or_insert(what);
                return Ok(());
            }
        }
    }
    if fast {
        let read = match adapter {
            Adapter::Anthropic(s) => s.fast_delta(calls, data),
            Adapter::Chat(s) => s.fast_delta(calls, data),
            Adapter::Responses(s) => s.fast_delta(calls, data),
            _ => false,
        };
        if read {
            return Ok(());
        }
    }
    match adapter {
        Adapter::Undetected => Ok(()),
        Adapter::Anthropic(s) => s.handle(calls, event, data),
        Adapter::Chat(s) => s.handle(calls, data),
        Adapter::Responses(s) => s.handle(calls, event, data),
        Adapter::Gemini(s) => s.handle(calls, data),
        Adapter::Bedrock(_) => Err(StreamError::Misuse(Misuse::TextEventForBedrock)),
    }
}
