//! Whole request bodies of Anthropic Messages, OpenAI Chat Completions,
//! OpenAI Responses, Gemini and Bedrock Converse in one model ([`Request`]),
//! read from each vendor's JSON,
//! written back the same, and converted to another vendor: lossless, or with
//! a [`Loss`](super::Loss) for every part that cannot cross.
//!
//! # Terminology: the whole request
//!
//! | concept | Anthropic Messages | OpenAI Chat Completions | OpenAI Responses | Gemini | Bedrock Converse | tooljson |
//! |---|---|---|---|---|---|---|
//! | model | `model` | `model` | `model` | in the URL (`models/{model}:generateContent`); `model` in the body when given | in the URL (`/model/{modelId}/converse`); `modelId` for the SDKs | [`Request::model`] |
//! | system prompt | `system`: a string or `text` blocks | first message `{role: "system" \| "developer", content}` | `instructions` (a string) | `systemInstruction: {parts: [{text}]}` | `system: [{text}, {cachePoint}…]` | [`Request::system`], [`SystemRole`] |
//! | a later system prompt | none (a loss) | `{role: "system" \| "developer"}` message | `{role: "system" \| "developer"}` input message | none (a loss) | none (a loss) | [`Message::System`] |
//! | conversation | `messages: [{role: "user" \| "assistant", content}]` | `messages: [...]` | `input`: a string or a list of items | `contents: [{role: "user" \| "model", parts}]` | `messages: [{role: "user" \| "assistant", content: [blocks]}]` | [`Request::messages`] |
//! | user text | `{type: "text", text}` | `{type: "text", text}` | `{type: "input_text", text}` | `{text}` | `{text}` | [`ResultPart::Text`](super::ResultPart::Text) |
//! | image | `{type: "image", source: {type: "base64", media_type, data} \| {type: "url", url} \| {type: "file", file_id}}` | `{type: "image_url", image_url: {url: "https://…" \| "data:<type>;base64,<data>", detail?}}` | `{type: "input_image", image_url \| file_id, detail?}` | `{inlineData: {mimeType: "image/…", data}}`; a URL goes as `{fileData: {fileUri}}` (reads back as that part) | `{image: {format: "png" \| "jpeg" \| "gif" \| "webp", source: {bytes}}}`; a URL: none (a loss) | [`ResultPart::Image`](super::ResultPart::Image), [`Media`](super::Media) |
//! | document | `{type: "document", source: {type: "base64" \| "url" \| "text" \| "file", …}}` | `{type: "file", file: {file_data: "data:…" \| file_id, filename?}}` | `{type: "input_file", file_data \| file_id \| file_url, filename?}` | `{inlineData: {mimeType, data}}` (`fileData` kept for Gemini) | `{document: {format, name, source: {bytes} \| {text}}}` | [`ResultPart::Document`](super::ResultPart::Document) |
//! | assistant turn | `{role: "assistant", content: [text, tool_use, thinking…]}` | `{role: "assistant", content, tool_calls: [{type: "function", function: {name, arguments}}]}` | `{role: "assistant", content: "<text>"}` (the easy input message; an output `message` item with its `id`), `function_call`, `reasoning` items | `{role: "model", parts: [{text}, {functionCall: {id?, name, args}}, {text, thought: true}…]}`, a `thoughtSignature` on its part | `{role: "assistant", content: [{text}, {toolUse: {toolUseId, name, input}}, {reasoningContent}…]}` | [`Message::Assistant`], [`AssistantTurn`](super::AssistantTurn) |
//! | tool results | `tool_result` blocks first in one `role: "user"` message | one `{role: "tool", tool_call_id, content}` message per call | one `{type: "function_call_output", call_id, output}` item per call | `{functionResponse: {id?, name, response: {output} \| {error}}}` parts first in one `role: "user"` content | `{toolResult: {toolUseId, content: [text \| json \| image \| document], status?}}` blocks first in one `role: "user"` message | [`Message::Results`], [`ToolResults`](super::ToolResults) |
//! | text sent with the results | blocks after the `tool_result` blocks of that message | a `role: "user"` message right after the tool messages | a `role: "user"` message item right after the outputs | parts after the `functionResponse` parts | blocks after the `toolResult` blocks | [`ToolResults::trailing`](super::ToolResults::trailing) |
//! | tools | `tools: [{name, description, input_schema}]` | `tools: [{type: "function", function: {name, description, parameters}}]` | `tools: [{type: "function", name, description, parameters, strict}]` (an absent `strict` reads as true: a tool that is not strict is written `strict: false`) | `tools: [{functionDeclarations: [{name, description, parameters \| parametersJsonSchema}]}]` | `toolConfig.tools: [{toolSpec: {name, description, inputSchema: {json}}}]` | [`Request::tools`] ([`ToolSet`](super::ToolSet)) |
//! | choice: model decides | `tool_choice: {type: "auto"}` | `"auto"` | `"auto"` | `toolConfig.functionCallingConfig: {mode: "AUTO"}` | `toolConfig.toolChoice: {auto: {}}` | [`ToolChoice::Auto`](super::ToolChoice::Auto) |
//! | choice: some tool | `{type: "any"}` | `"required"` | `"required"` | `{mode: "ANY"}` | `{any: {}}` | [`ToolChoice::Any`](super::ToolChoice::Any) |
//! | choice: this tool | `{type: "tool", name}` | `{type: "function", function: {name}}` | `{type: "function", name}` | `{mode: "ANY", allowedFunctionNames: [name]}` | `{tool: {name}}` | [`ToolChoice::Tool`](super::ToolChoice::Tool) |
//! | choice: no tools | `{type: "none"}` | `"none"` | `"none"` | `{mode: "NONE"}` | none: `toolConfig` left out (a loss) | [`ToolChoice::None`](super::ToolChoice::None) |
//! | parallel calls off | `tool_choice.disable_parallel_tool_use: true` | `parallel_tool_calls: false` | `parallel_tool_calls: false` | none (a loss) | none (a loss) | [`ToolSet::parallel_tool_calls`](super::ToolSet::parallel_tool_calls) |
//! | output limit | `max_tokens` (required) | `max_completion_tokens` (or the older `max_tokens`) | `max_output_tokens` | `generationConfig.maxOutputTokens` | `inferenceConfig.maxTokens` | [`Request::max_tokens`] |
//! | stop sequences | `stop_sequences: [..]` | `stop`: a string or a list | none (a loss) | `generationConfig.stopSequences` | `inferenceConfig.stopSequences` | [`Request::stop`] |
//! | sampling | `temperature` (0–1), `top_p`, `top_k` | `temperature` (0–2), `top_p` | `temperature` (0–2), `top_p` | `generationConfig.temperature`, `topP`, `topK` | `inferenceConfig.temperature`, `topP` (no `top_k`: a loss) | [`Request::temperature`], [`Request::top_p`], [`Request::top_k`] |
//! | metadata | `metadata: {user_id}` | `metadata: {string: string}` | `metadata: {string: string}` | none (a loss) | `requestMetadata: {string: string}` | [`Request::metadata`] |
//! | streaming | `stream` | `stream` | `stream` | another endpoint (`streamGenerateContent`): a loss | another operation (`ConverseStream`): a loss | [`Request::stream`] |
//! | structured output | `output_format: {type: "json_schema", schema}` | `response_format: {type: "json_schema", json_schema: {name, schema, strict}}` | `text: {format: {type: "json_schema", name, schema, strict}}` | `generationConfig: {responseMimeType: "application/json", responseJsonSchema}` | `outputConfig.textFormat: {type: "json_schema", structure: {jsonSchema: {schema: "<JSON text>", name?, description?}}}` | [`ResponseFormat`] |
//! | anything else | kept, in place | kept, in place | kept, in place | kept, in place | kept, in place | written back for its vendor; for another, a loss |
//!
//! # Lossless, or said out loud
//!
//! Read and written for the **same** vendor, a request is the same JSON:
//! same members, same order, unknown members kept. Written for **another**
//! vendor ([`Request::to_vendor`]), every part either has its counterpart
//! above, or the [`Converted`](super::Converted) result lists it. The
//! decisions for the cases that used to go wrong:
//!
//! | case | policy |
//! |---|---|
//! | an image or document in an Anthropic `tool_result`, to Chat | Chat tool messages take text only: the part is left out and reported ([`LossEffect::Dropped`](super::LossEffect::Dropped)); Responses takes it (`input_image` / `input_file` in `output`) |
//! | `[tool_result…, text]` in one Anthropic user message, to OpenAI | the text follows the results as a `role: "user"` message (item), and reads back into the same Anthropic message: lossless |
//! | explicit `is_error: false`, to OpenAI | OpenAI has no flag; it reads back absent (the same meaning): reported as [`LossEffect::ReadsBackDifferently`](super::LossEffect::ReadsBackDifferently) |
//! | a successful result whose text starts with `Error: `, to OpenAI | written unchanged, reported as reading back as an error (the `Error: ` convention marks error results for OpenAI) |
//! | a part or member only the source vendor has (`thinking`, `reasoning`, `cache_control`, `top_k`, Anthropic `metadata`, a server tool) | left out and reported; a text block with `cache_control` keeps its text, only `cache_control` is lost |
//! | spellings of one meaning (a Chat `parallel_tool_calls` without `tool_choice`, to Anthropic an `auto` choice carrying the flag; a Responses `input` string and a list of one user text; a Chat `stop` string and a list of one) | no loss |
//! | a vendor's required member the source lacks (Anthropic `max_tokens`) | not invented: reported ([`LossEffect::MissingRequired`](super::LossEffect::MissingRequired)) |
//!
//! # Example: a Chat request to Anthropic
//!
//! ```
//! use tooljson::json;
//! use tooljson::protocol::{Request, Vendor};
//!
//! let chat = json!({
//!     "model": "gpt-4.1",
//!     "messages": [
//!         {"role": "system", "content": "You are terse."},
//!         {"role": "user", "content": "Weather in Oslo?"}
//!     ],
//!     "tools": [{"type": "function", "function": {"name": "get_weather",
//!         "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
//!     "tool_choice": "required",
//!     "max_completion_tokens": 512
//! });
//! let request = Request::from_vendor(Vendor::OpenAiChat, &chat)?;
//! assert_eq!(request.to_vendor(Vendor::OpenAiChat).lossless().unwrap(), chat);
//! let anthropic = request.to_vendor(Vendor::Anthropic).lossless().unwrap();
//! assert_eq!(anthropic["system"], "You are terse.");
//! assert_eq!(anthropic["tool_choice"], json!({"type": "any"}));
//! assert_eq!(anthropic["max_tokens"], 512);
//! // ... and back, the same request.
//! let back = Request::from_vendor(Vendor::Anthropic, &anthropic)?;
//! assert_eq!(back.to_vendor(Vendor::OpenAiChat).lossless().unwrap(), chat);
//! # Ok::<(), tooljson::protocol::ProtocolError>(())
//! ```

mod bedrock;
mod gemini;
mod read;
mod write;

pub(crate) use read::prefixed;

use crate::value::{Map, Value};

use super::native::Native;
use super::{AssistantTurn, ResultContent, ToolResults, ToolSet, Vendor};

/// Which role a system prompt has (OpenAI `developer` is the newer name of
/// `system`; Anthropic has only `system`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SystemRole {
    /// `system`.
    #[default]
    System,
    /// `developer` (OpenAI).
    Developer,
}

impl SystemRole {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SystemRole::System => "system",
            SystemRole::Developer => "developer",
        }
    }
}

/// A system prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemPrompt {
    /// `system` or `developer`.
    pub role: SystemRole,
    /// The prompt (text parts; Anthropic blocks with `cache_control` are
    /// native parts).
    pub content: ResultContent,
    native: Native,
}

impl SystemPrompt {
    /// A prompt with this role and content.
    pub fn new(role: SystemRole, content: ResultContent) -> SystemPrompt {
        SystemPrompt {
            role,
            content,
            native: Native::default(),
        }
    }
}

/// One message of the conversation.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// A system or developer message after the first message (OpenAI).
    System(SystemPrompt),
    /// A user message: text, images, documents.
    User(UserMessage),
    /// An assistant turn: text, tool calls, vendor-only parts.
    Assistant(AssistantTurn),
    /// The results of the previous turn's calls, and what the user says
    /// with them.
    Results(ToolResults),
    /// An input item only one vendor has (Responses `item_reference`...),
    /// verbatim.
    Native {
        /// Whose JSON `item` is.
        vendor: Vendor,
        /// The item.
        item: Value,
    },
}

/// A user message.
#[derive(Clone, Debug, PartialEq)]
pub struct UserMessage {
    /// A string or parts.
    pub content: ResultContent,
    native: Native,
}

impl UserMessage {
    /// A user message with this content.
    pub fn new(content: ResultContent) -> UserMessage {
        UserMessage {
            content,
            native: Native::default(),
        }
    }
}

/// Structured output: what the model's text must be.
#[derive(Clone, Debug, PartialEq)]
pub enum ResponseFormat {
    /// Free text (OpenAI `{"type":"text"}`).
    Text,
    /// Any JSON object (OpenAI `{"type":"json_object"}`).
    JsonObject,
    /// JSON matching a schema.
    JsonSchema {
        /// OpenAI's required name.
        name: Option<String>,
        /// OpenAI's description.
        description: Option<String>,
        /// The schema.
        schema: Value,
        /// OpenAI strict mode.
        strict: Option<bool>,
    },
}

/// A whole request body of one of the five APIs.
///
/// Read with [`from_vendor`](Self::from_vendor), written with
/// [`to_vendor`](Self::to_vendor), which lists what cannot cross.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The model name.
    pub model: String,
    /// The system prompt at the head (Anthropic `system`, Responses
    /// `instructions`, a first Chat `system` / `developer` message).
    pub system: Option<SystemPrompt>,
    /// The conversation.
    pub messages: Vec<Message>,
    /// Tools, `tool_choice` and the parallel-call switch (`None`: no tools
    /// member at all).
    pub tools: Option<ToolSet>,
    /// The output token limit.
    pub max_tokens: Option<u64>,
    /// Stop sequences.
    pub stop: Option<Vec<String>>,
    /// Sampling temperature.
    pub temperature: Option<crate::Number>,
    /// Nucleus sampling.
    pub top_p: Option<crate::Number>,
    /// Top-k sampling (Anthropic).
    pub top_k: Option<u64>,
    /// Request metadata, in its vendor's shape (Anthropic `{user_id}` and
    /// OpenAI's string map mean different things).
    pub metadata: Option<(Vendor, Value)>,
    /// Whether the response is streamed.
    pub stream: Option<bool>,
    /// Structured output.
    pub response_format: Option<ResponseFormat>,
    shape: Shape,
}

/// How the source spelled what the model does not need, to write it back
/// the same for its vendor.
#[derive(Clone, Debug, PartialEq, Default)]
struct Shape {
    vendor: Option<Vendor>,
    /// Top-level member names in source order.
    order: Vec<String>,
    /// Members this model does not type.
    native: Map,
    /// Chat: `max_tokens` rather than `max_completion_tokens`.
    chat_old_max_tokens: bool,
    /// Chat: `stop` was a string.
    stop_string: bool,
    /// Responses: `input` was a string.
    input_string: bool,
    /// Responses `text` members beside `format`; Chat `json_schema`
    /// members beside the known ones.
    format_native: Map,
    /// Gemini `generationConfig`, Bedrock `inferenceConfig`: the members
    /// in the order read, the typed ones as `null` slots.
    config_native: Map,
    /// Where each of `messages` starts in the source: the list (`/messages`,
    /// `/input`) and the index of its first message or item there.
    message_at: Vec<(&'static str, usize)>,
    /// Where the system prompt stood in the source, and its content.
    system_at: Option<(String, String)>,
}

impl Request {
    /// A request for `model` with these messages and nothing else set.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::protocol::{Message, Request, ResultContent, UserMessage, Vendor};
    /// let mut r = Request::new("claude-sonnet-4-5", vec![
    ///     Message::User(UserMessage::new(ResultContent::Text("Hello".into()))),
    /// ]);
    /// r.max_tokens = Some(1024);
    /// let body = r.to_vendor(Vendor::Anthropic).lossless().unwrap();
    /// assert_eq!(body, tooljson::json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
    ///     "messages": [{"role": "user", "content": "Hello"}]}));
    /// ```
    pub fn new(model: impl Into<String>, messages: Vec<Message>) -> Request {
        Request {
            model: model.into(),
            system: None,
            messages,
            tools: None,
            max_tokens: None,
            stop: None,
            temperature: None,
            top_p: None,
            top_k: None,
            metadata: None,
            stream: None,
            response_format: None,
            shape: Shape::default(),
        }
    }

    /// The vendor the request was read from (`None` when built in code).
    pub fn source(&self) -> Option<Vendor> {
        self.shape.vendor
    }

    /// Members this model does not type (Anthropic `thinking`, Chat `seed`,
    /// Responses `reasoning`...), as read.
    pub fn other_members(&self) -> &Map {
        &self.shape.native
    }
}
