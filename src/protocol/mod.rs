//! Tool-use protocol types: whole requests, messages, tool definitions,
//! `tool_choice`, tool calls and their results, and non-streamed responses,
//! in the JSON of Anthropic Messages, OpenAI Chat Completions, OpenAI
//! Responses, Gemini `generateContent` and Bedrock Converse, converted
//! between them without losing ids or order: what a conversion cannot carry
//! is a [`Loss`] in its [`Converted`] result.
//!
//! This layer works on complete JSON, the crate's own [`Value`](crate::Value):
//! request bodies, finished assistant turns, reply messages. Parse bytes with
//! [`crate::from_slice`] / [`crate::from_str`], build values with
//! [`json!`](crate::json!), or convert a `serde_json::Value` with
//! `Value::from`; write with `to_string()`. Streaming belongs to the vendor
//! adapters; this layer is what they check finished calls against.
//!
//! # Terminology map
//!
//! | concept | Anthropic Messages | OpenAI Chat Completions | OpenAI Responses | Gemini | Bedrock Converse | tooljson |
//! |---|---|---|---|---|---|---|
//! | tool list | `tools: [{name, description, input_schema}]` | `tools: [{type: "function", function: {name, description, parameters, strict}}]` | `tools: [{type: "function", name, description, parameters, strict}]` (flat) | `tools: [{functionDeclarations: [...]}]` | `toolConfig.tools: [{toolSpec}]` | `ToolDefinition`, `ToolSet` |
//! | schema field | `input_schema` | `function.parameters` | `parameters` | `parameters` (OpenAPI subset) or `parametersJsonSchema` | `inputSchema.json` | `input_schema()`, `compiled_schema()` |
//! | tool name rule | `^[a-zA-Z0-9_-]{1,64}$` | same | same | letters, digits, `_`, `.`, `:`, `-` (Google's rule) | `^[a-zA-Z0-9_-]{1,64}$` | `validate_tool_name` |
//! | the model calls a tool | content block `{type: "tool_use", id: "toolu_…", name, input: {…}}` | `message.tool_calls[]`: `{id: "call_…", type: "function", function: {name, arguments}}` | output item `{type: "function_call", id: "fc_…", call_id: "call_…", name, arguments}` | `{functionCall: {id?, name, args}}` part (no `id` unless asked) | `{toolUse: {toolUseId, name, input}}` block | `ToolCall` in an `AssistantTurn` |
//! | arguments | an object | a JSON **string** | a JSON **string** | an object | an object | `Arguments` (value + exact text, or raw invalid text) |
//! | stopped to call tools | `stop_reason: "tool_use"` | `finish_reason: "tool_calls"` | `status: "completed"` with `function_call` items | `finishReason: "STOP"` with `functionCall` parts | `stopReason: "tool_use"` | `StopReason::ToolUse` |
//! | cut short | `stop_reason: "max_tokens"` | `finish_reason: "length"` | `status: "incomplete"`, `incomplete_details.reason: "max_output_tokens"` | `finishReason: "MAX_TOKENS"` | `stopReason: "max_tokens"` | `StopReason::MaxTokens` |
//! | tool result | `{type: "tool_result", tool_use_id, content, is_error?}` blocks, **all results of a turn in one `role: "user"` message** | **one** `{role: "tool", tool_call_id, content}` message **per call** | one `{type: "function_call_output", call_id, output}` item per call | `{functionResponse: {id?, name, response}}` parts, all of a turn in one `role: "user"` content | `{toolResult: {toolUseId, content, status?}}` blocks, all of a turn in one `role: "user"` message | `ToolResult`, `ToolResults` |
//! | result content | a string or blocks (text, image, …) | a string or text parts | a string or `input_text` / `input_image` parts | `response: {output: …}` (a string is text; other JSON a JSON result) | `text`, `json`, `image`, `document` blocks | `ResultContent` |
//! | error result | `is_error: true` | no flag: the content says it (here: starts with `Error: `) | no flag: same | `response: {error: …}` | `status: "error"` | `ToolResult::is_error`, `ERROR_PREFIX` |
//! | invalid input sent back | `input: {"INVALID_JSON": "<raw text>"}` | the raw `arguments` string | the raw `arguments` string | `args: {"INVALID_JSON": "<raw text>"}` | `input: {"INVALID_JSON": "<raw text>"}` | `Arguments::Invalid` |
//! | choice: the model decides | `{type: "auto"}` | `"auto"` | `"auto"` | `toolConfig.functionCallingConfig: {mode: "AUTO"}` | `toolConfig.toolChoice: {auto: {}}` | `ToolChoice::Auto` |
//! | choice: must call some tool | `{type: "any"}` | `"required"` | `"required"` | `{mode: "ANY"}` | `{any: {}}` | `ToolChoice::Any` |
//! | choice: this tool | `{type: "tool", name}` | `{type: "function", function: {name}}` | `{type: "function", name}` | `{mode: "ANY", allowedFunctionNames: [name]}` | `{tool: {name}}` | `ToolChoice::Tool(name)` |
//! | choice: no tools | `{type: "none"}` | `"none"` | `"none"` | `{mode: "NONE"}` | none: `toolConfig` left out (a loss) | `ToolChoice::None` |
//! | parallel calls off | `tool_choice.disable_parallel_tool_use: true` | `parallel_tool_calls: false` | `parallel_tool_calls: false` | none (a loss) | none (a loss) | `ToolSet::parallel_tool_calls() == Some(false)` |
//!
//! Gemini and Bedrock Converse, the tool part of a request in detail:
//!
//! | concept | Gemini | Bedrock Converse | tooljson |
//! |---|---|---|---|
//! | tool list | `tools: [{functionDeclarations: [{name, description, parameters \| parametersJsonSchema}]}, {googleSearch: {}}, ...]` | `toolConfig.tools: [{toolSpec: {name, description, inputSchema: {json}}}, {cachePoint: {...}}]` | `ToolDefinition`, `ToolSet` |
//! | schema field | `parameters` (an OpenAPI 3.0 subset, see [`GeminiSchema`]) or `parametersJsonSchema` | `inputSchema.json` | `input_schema()` (JSON Schema) |
//! | choice: the model decides | `toolConfig.functionCallingConfig: {mode: "AUTO"}` | `toolConfig.toolChoice: {auto: {}}` | `ToolChoice::Auto` |
//! | choice: must call some tool | `{mode: "ANY"}` | `{any: {}}` | `ToolChoice::Any` |
//! | choice: this tool | `{mode: "ANY", allowedFunctionNames: [name]}` | `{tool: {name}}` | `ToolChoice::Tool(name)` |
//! | choice: one of these tools | `{mode: "ANY", allowedFunctionNames: [a, b]}` | none (a loss) | `ToolChoice::Any` + `ToolSet::allowed_names()` |
//! | choice: no tools | `{mode: "NONE"}` | none: `toolConfig` left out (a loss) | `ToolChoice::None` |
//! | calls checked against the schema | `{mode: "VALIDATED"}` | none (a loss) | kept for Gemini only |
//! | parallel calls off | none (a loss) | none (a loss) | `ToolSet::parallel_tool_calls()` |
//! | `strict` | none (a loss) | none (a loss) | `ToolDefinition::strict()` |
//!
//! # Order and numbers
//!
//! Members of schemas and of argument objects keep the order they were given
//! in through every conversion, because [`Map`](crate::Map) keeps insertion
//! order (models write arguments in the order of `properties`). This crate
//! does not turn on serde_json's `preserve_order`, so a `serde_json::Map`
//! elsewhere in your build is unchanged; a `serde_json::Value` converted
//! *into* a `Value` brings the order serde_json gave it (sorted, unless your
//! build turns `preserve_order` on), so parse bytes with [`crate::from_slice`]
//! to keep the order they were written in.
//!
//! Numbers keep their text (`1.10`, `-0`, `1E2`, `12345678901234567890123`,
//! `1e400`) through reading, every conversion and `to_string()`. Argument
//! text that is not exactly one JSON object, or that repeats a key, stays
//! [`Arguments::Invalid`] (its text kept); a target that needs an object
//! (Anthropic, Gemini, Bedrock) gets the documented `{"INVALID_JSON":
//! "<text>"}` wrapper and the conversion reports it as a [`Loss`]. Serializing
//! a `Value` through serde (`serde_json::to_string`, reqwest's `.json()`)
//! writes a number that is not a 64-bit integer as the nearest `f64`: send
//! `value.to_string()` to keep every digit.
//!
//! # Example: one exchange, two vendors
//!
//! ```
//! use tooljson::json;
//! use tooljson::protocol::{AssistantTurn, ToolOutcome, ToolSet, Vendor};
//!
//! // The tools of a request, in any vendor's shape; each schema is compiled once.
//! let tools = ToolSet::from_request_json(&json!({
//!     "tools": [{"name": "get_weather", "description": "Get the current weather",
//!                "input_schema": {"type": "object",
//!                                 "properties": {"location": {"type": "string"}},
//!                                 "required": ["location"]}}],
//!     "tool_choice": {"type": "any", "disable_parallel_tool_use": true}
//! }))?;
//!
//! // A finished assistant turn (here from Anthropic).
//! let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &json!({
//!     "role": "assistant",
//!     "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather",
//!                  "input": {"location": 7}}],
//!     "stop_reason": "tool_use"
//! }))?;
//! tools.check_choice(&turn.called_names()).expect("tool_choice obeyed");
//!
//! // Run each call, or answer it with an is_error result the model can act on.
//! let outcomes = turn.calls().map(|call| {
//!     let outcome = match tools.check_call(call) {
//!         Ok(()) => ToolOutcome::text("15 degrees"),
//!         Err(problem) => ToolOutcome::error(problem.message()),
//!     };
//!     (call.id.clone(), outcome)
//! });
//! let reply = turn.reply(outcomes).expect("one result per call");
//!
//! // The same exchange in OpenAI Chat terms.
//! let chat_turn = turn.to_openai_chat();
//! assert_eq!(chat_turn["finish_reason"], "tool_calls");
//! assert_eq!(chat_turn["message"]["tool_calls"][0]["function"]["arguments"], r#"{"location":7}"#);
//! let chat_reply = reply.to_vendor(Vendor::OpenAiChat).lossless().expect("text results cross");
//! assert_eq!(chat_reply[0]["role"], "tool");
//! assert_eq!(chat_reply[0]["tool_call_id"], "toolu_01");
//! assert!(chat_reply[0]["content"].as_str().unwrap()
//!     .starts_with("Error: The tool input does not match the input schema of get_weather"));
//! // ... and back: the Anthropic JSON is what it was.
//! let back = AssistantTurn::from_vendor(Vendor::OpenAiChat, &chat_turn)?;
//! assert_eq!(back.to_anthropic(), turn.to_anthropic());
//! # Ok::<(), tooljson::protocol::ProtocolError>(())
//! ```
//!
//! # What crosses between vendors, and what stays behind
//!
//! Read and written back for the **same** vendor, every shape is the same JSON (members this layer
//! does not model are kept). Across vendors, call ids, tool names, argument values, text, the order of
//! the calls and the order of the texts, `is_error`, the stop reasons `tool_use` / `end_turn` /
//! `max_tokens` / `refusal`, the four `tool_choice` postures and the parallel flag all survive
//! Anthropic to OpenAI to Anthropic (and every other pair; property-tested). The differences, and what
//! is kept:
//!
//! - **Text interleaved with calls**: Anthropic content blocks and Responses output items are one
//!   ordered list; Chat has `content` and `tool_calls` apart. Through Chat the texts keep their order
//!   and the calls theirs, but not their interleaving (models write text first, which crosses intact).
//! - **Argument text**: kept exactly from OpenAI to OpenAI. Through Anthropic (an object) it is
//!   re-written as compact JSON with the same value. Empty text means `{}` and comes back as `"{}"`.
//! - **Invalid argument text** (broken, or cut off by `max_tokens`) crosses Anthropic in the documented
//!   `{"INVALID_JSON": "<raw text>"}` wrapper and is read back as the raw text.
//! - **`is_error` through OpenAI**: OpenAI has no flag, so an error result's text gets the prefix
//!   `Error: ` and a result whose text starts with it reads back as an error. Hence a *successful*
//!   result whose text starts with `Error: ` comes back flagged, and an explicit `is_error: false`
//!   comes back absent.
//! - **Stop reasons**: `stop_sequence` is `"stop"` in Chat and comes back as `end_turn`. Responses has no
//!   stop reason: it is read from `status` and whether there are `function_call` items.
//! - **Vendor-only members** are kept for their own vendor and left out for the others: Anthropic
//!   message `id` / `model` / `usage`, `thinking` and server-tool blocks; Chat `refusal` /
//!   `annotations` / `logprobs`; Responses item ids (`fc_…`, `msg_…`), `status` and `reasoning`
//!   items. In tool definitions and tool sets each one left out (`cache_control`,
//!   `eager_input_streaming`, Gemini `behavior`, a server or hosted tool of another vendor) is a
//!   [`Loss`] of the conversion, which the caller accepts or refuses ([`Converted`]).
//! - **Non-text result parts** (images, documents) are passed through verbatim, so nothing is dropped,
//!   but a vendor that has no such part (Chat tool messages take text only) will refuse them.
//! - Blocks **after the `tool_result` blocks** in an Anthropic user message (a text, say) are kept
//!   for Anthropic only; OpenAI replies carry just the results.
//! - **Gemini and Bedrock**: a Gemini `functionCall` without `id` (the Gemini API gives none unless
//!   asked) is named `gemini_{message}_{k}` in a request (`gemini_call_{k}` in a turn read alone) so
//!   that the vendors that match results by id carry it, and its `functionResponse` gets the same id;
//!   written for Gemini both have no id again, for another vendor the id is a loss that reads back
//!   differently. A `functionResponse` needs the function's name: results get it from their call
//!   (in a request, or from [`AssistantTurn::reply`]); a result written alone without it is a
//!   [`LossEffect::MissingRequired`]. Gemini `response: {output}` / `{error}` carry text and
//!   `is_error`; a JSON output is Bedrock's `json` result block, and text for the vendors that have
//!   no JSON result. Bedrock `status: "success"` is Anthropic's explicit `is_error: false`.
//!   `thoughtSignature`, `thought` parts, `reasoningContent` and `cachePoint` stay with their vendor.
//!   Neither has a parallel flag, Bedrock has no `none` choice (its tools are left out), and the model
//!   and streaming travel in the URL, not the body (see the request table).
//! - A function declared **without `parameters`** gets `{"type":"object","properties":{}}` as
//!   Anthropic's (and Bedrock's) required schema, and keeps it on the way back: a [`Loss`] says so.
//!
//! Errors are typed values (`ProtocolError`, `ChoiceViolation`, `CorrelationError`, `CallProblem`),
//! never panics: a definition without a name, a schema that does not compile, a name the vendors
//! refuse, a `tool_choice` naming an undeclared tool, a result for an unknown call id, a call without
//! a result, a duplicate.

mod content;
mod correlate;
mod definition;
mod error;
mod gemini_schema;
mod json_read;
mod loss;
mod native;
mod request;
mod response;
mod result;
mod retry;
mod slots;
mod stop;
mod tool_call;
mod tool_choice;
mod tool_config;
mod tool_set;
mod turn;

pub use content::{Media, MediaSource};
pub use correlate::{CorrelationError, correlate};
pub use definition::{MAX_TOOL_NAME_LEN, ToolDefinition, validate_tool_name};
pub use error::{NameProblem, ProtocolError};
pub use gemini_schema::{GeminiSchema, MAX_INLINED_NODES};
pub use loss::{Converted, Loss, LossEffect, LossReport};
pub use request::{Message, Request, ResponseFormat, SystemPrompt, SystemRole, UserMessage};
pub use response::{Response, Usage};
pub use result::{ERROR_PREFIX, ResultContent, ResultPart, ToolOutcome, ToolResult, ToolResults};
pub use retry::{
    CallProblem, MAX_ECHOED_INPUT, parse_error_message, parse_error_result, violations_message,
    violations_result,
};
pub use stop::StopReason;
pub use tool_call::{
    Arguments, INVALID_JSON_KEY, TextPart, ToolCall, TurnPart, invalid_json_input,
};
pub use tool_choice::ToolChoice;
pub use tool_set::{ChoiceViolation, ToolSet};
pub use turn::AssistantTurn;
#[cfg(feature = "providers")]
pub(crate) use turn::{bedrock_text, bedrock_tool_use, gemini_call, gemini_text};

use std::fmt;
use std::str::FromStr;

/// The API shapes this layer reads and writes.
///
/// Displays and parses as `anthropic`, `openai-chat`, `openai-responses`,
/// `gemini`, `bedrock`. Requests, messages, results, responses, tool
/// definitions and `tool_choice` convert between all five.
/// More vendors may be added: a `match` outside this crate needs a `_` arm.
///
/// # Examples
///
/// ```
/// use tooljson::protocol::Vendor;
/// assert_eq!("openai-chat".parse::<Vendor>(), Ok(Vendor::OpenAiChat));
/// assert_eq!(Vendor::OpenAiResponses.to_string(), "openai-responses");
/// assert_eq!("bedrock".parse::<Vendor>(), Ok(Vendor::Bedrock));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Vendor {
    /// Anthropic Messages (`/v1/messages`).
    #[serde(rename = "anthropic")]
    Anthropic,
    /// OpenAI Chat Completions (`/v1/chat/completions`).
    #[serde(rename = "openai-chat")]
    OpenAiChat,
    /// OpenAI Responses (`/v1/responses`).
    #[serde(rename = "openai-responses")]
    OpenAiResponses,
    /// Google Gemini `generateContent` (the Gemini API and Vertex AI).
    #[serde(rename = "gemini")]
    Gemini,
    /// AWS Bedrock Converse (`Converse`, `ConverseStream`).
    #[serde(rename = "bedrock")]
    Bedrock,
}

impl Vendor {
    /// All five, in a fixed order.
    pub const ALL: [Vendor; 5] = [
        Vendor::Anthropic,
        Vendor::OpenAiChat,
        Vendor::OpenAiResponses,
        Vendor::Gemini,
        Vendor::Bedrock,
    ];

    /// The name used by `Display` and `FromStr`.
    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::Anthropic => "anthropic",
            Vendor::OpenAiChat => "openai-chat",
            Vendor::OpenAiResponses => "openai-responses",
            Vendor::Gemini => "gemini",
            Vendor::Bedrock => "bedrock",
        }
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Vendor`] name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVendor(pub String);

impl fmt::Display for UnknownVendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown vendor {:?}: expected anthropic, openai-chat, openai-responses, gemini or bedrock",
            self.0
        )
    }
}

impl std::error::Error for UnknownVendor {}

impl FromStr for Vendor {
    type Err = UnknownVendor;
    fn from_str(s: &str) -> Result<Vendor, UnknownVendor> {
        Vendor::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownVendor(s.to_owned()))
    }
}
