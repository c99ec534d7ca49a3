//! Whole non-streamed response bodies of Anthropic Messages, OpenAI Chat
//! Completions, OpenAI Responses, Gemini (`GenerateContentResponse`) and
//! Bedrock (`ConverseResponse`) in one model ([`Response`]): the
//! assistant turn(s) as [`AssistantTurn`]s, the id, the model and the token
//! counts; read from each vendor's JSON, written back the same (same
//! members, same order), and converted to another vendor: lossless, or with
//! a [`Loss`](super::Loss) for every part that cannot cross.
//!
//! # Terminology: the whole response
//!
//! | concept | Anthropic Messages | OpenAI Chat Completions | OpenAI Responses | Gemini | Bedrock Converse | tooljson |
//! |---|---|---|---|---|---|---|
//! | the body | `{type: "message", …}` | `{object: "chat.completion", …}` | `{object: "response", …}` | `GenerateContentResponse` | `ConverseResponse` | [`Response`] |
//! | id | `id: "msg_…"` | `id: "chatcmpl-…"` | `id: "resp_…"` | `responseId` | none (a loss) | [`Response::id`] (copied as is) |
//! | model | `model` | `model` | `model` | `modelVersion` | none (a loss) | [`Response::model`] |
//! | created | none (a loss) | `created` (Unix seconds) | `created_at` (Unix seconds) | none (a loss) | none (a loss) | kept; Chat and Responses map onto each other |
//! | the turn | `role`, `content: [blocks]` | `choices: [{index, message, logprobs, finish_reason}]` (several with `n`) | `output: [items]` | `candidates: [{content, finishReason, index, safetyRatings…}]` | `output.message`, `stopReason` | [`Response::choices`] ([`AssistantTurn`]) |
//! | text | `{type: "text", text}` block | `message.content` | `message` item, `output_text` parts | `{text}` part | `{text}` block | [`TurnPart::Text`](super::TurnPart::Text) |
//! | thinking | `thinking` / `redacted_thinking` blocks | `reasoning_content` (some servers) | `reasoning` items | `{text, thought: true}` parts | `reasoningContent` blocks | kept for its vendor; a loss for another |
//! | tool call | `tool_use` block | `message.tool_calls[]` | `function_call` item | `functionCall` part | `toolUse` block | [`ToolCall`](super::ToolCall) |
//! | refusal | `stop_reason: "refusal"` | `message.refusal` (text) | `refusal` content part | `finishReason: "SAFETY"` | `stopReason: "content_filtered"` | the stop reason crosses; the refusal text is a loss |
//! | why it stopped | `stop_reason` (+ `stop_sequence`) | `finish_reason` | `status` + `incomplete_details.reason` | `finishReason` (`STOP`, `MAX_TOKENS`, `SAFETY`…) | `stopReason` | [`StopReason`](super::StopReason) |
//! | input tokens | `input_tokens` **without** cached ones, `cache_creation_input_tokens`, `cache_read_input_tokens` | `prompt_tokens` (cached included), `prompt_tokens_details.cached_tokens` | `input_tokens` (cached included), `input_tokens_details.cached_tokens` | `promptTokenCount` (cached included), `cachedContentTokenCount` | `inputTokens` (cache reads and writes **not** included), `cacheReadInputTokens`, `cacheWriteInputTokens` | [`Usage`] (as the vendor counts); converted so the total input is the same |
//! | output tokens | `output_tokens` | `completion_tokens`, `completion_tokens_details.reasoning_tokens` | `output_tokens`, `output_tokens_details.reasoning_tokens` | `candidatesTokenCount`, `thoughtsTokenCount` (apart) | `outputTokens` | [`Usage::output_tokens`] |
//! | total | none (the sum) | `total_tokens` | `total_tokens` | `totalTokenCount` | `totalTokens` | written as input + output |
//! | echo of the request | none | none | `instructions`, `tools`, `temperature`, `text`, `reasoning`… | none | none | kept for Responses; a loss for another |
//! | anything else | kept, in place | kept, in place | kept, in place | kept, in place | kept, in place | written back for its vendor; for another, a loss when it carries anything |
//!
//! A member "carries nothing" when it is `null`, `[]`, `{}` or, in `usage`,
//! a count of zero: leaving it out is not a loss.
//!
//! # Example: an Anthropic response as a Chat completion
//!
//! ```
//! use tooljson::json;
//! use tooljson::protocol::{Response, StopReason, Vendor};
//!
//! let body = json!({
//!     "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
//!     "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather",
//!                  "input": {"city": "Oslo"}}],
//!     "stop_reason": "tool_use", "stop_sequence": null,
//!     "usage": {"input_tokens": 10, "cache_read_input_tokens": 90, "output_tokens": 5}
//! });
//! let response = Response::from_vendor(Vendor::Anthropic, &body)?;
//! assert_eq!(response.choices[0].stop_reason, Some(StopReason::ToolUse));
//! assert_eq!(response.to_vendor(Vendor::Anthropic).lossless().unwrap(), body);
//! let chat = response.to_vendor(Vendor::OpenAiChat).lossless().unwrap();
//! assert_eq!(chat["choices"][0]["finish_reason"], "tool_calls");
//! // OpenAI counts cached input in prompt_tokens.
//! assert_eq!(chat["usage"]["prompt_tokens"], 100);
//! assert_eq!(chat["usage"]["prompt_tokens_details"]["cached_tokens"], 90);
//! # Ok::<(), tooljson::protocol::ProtocolError>(())
//! ```

mod bedrock;
mod gemini;
mod order;
mod usage;
mod write;

use crate::value::{Map, Value};

pub use usage::Usage;

use super::error::{ProtocolError, json_type, ptr_i};
use super::json_read::expect_object;
use super::request::prefixed;
use super::{AssistantTurn, Vendor};
use order::KeyOrder;

/// A whole non-streamed response body of one of the five APIs.
///
/// Read with [`from_vendor`](Self::from_vendor), written with
/// [`to_vendor`](Self::to_vendor), which lists what cannot cross.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The response id (`msg_…`, `chatcmpl-…`, `resp_…`).
    pub id: Option<String>,
    /// The model that answered.
    pub model: Option<String>,
    /// The assistant turn: one, or one per Chat choice (`n` > 1).
    pub choices: Vec<AssistantTurn>,
    usage: Option<(Vendor, Value)>,
    shape: Shape,
}

/// What the source had that the typed members do not hold, to write it
/// back the same for its vendor.
#[derive(Clone, Debug, PartialEq, Default)]
struct Shape {
    vendor: Option<Vendor>,
    order: KeyOrder,
    /// Top-level members not typed (`type`, `object`, `created`,
    /// `stop_sequence`, `service_tier`, the Responses request echo...).
    native: Map,
    /// Chat: each choice's members beside `message` and `finish_reason`
    /// (`index`, `logprobs`).
    choice_native: Vec<Map>,
}

/// Members each vendor's body always has, with a fixed value: written for
/// the target, never a loss.
const CONSTANTS: [&str; 3] = ["type", "object", "role"];

impl Response {
    /// A response holding one turn and nothing else.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{AssistantTurn, Response, StopReason, TextPart, TurnPart, Vendor};
    /// let turn = AssistantTurn::new(vec![TurnPart::Text(TextPart::new("Hi"))],
    ///                               Some(StopReason::EndTurn));
    /// let r = Response::new(turn);
    /// assert_eq!(r.to_vendor(Vendor::Anthropic).lossless().unwrap(), json!({
    ///     "type": "message", "role": "assistant",
    ///     "content": [{"type": "text", "text": "Hi"}],
    ///     "stop_reason": "end_turn", "stop_sequence": null}));
    /// ```
    pub fn new(turn: AssistantTurn) -> Response {
        Response {
            id: None,
            model: None,
            choices: vec![turn],
            usage: None,
            shape: Shape::default(),
        }
    }

    /// The vendor the response was read from (`None` when built in code).
    pub fn source(&self) -> Option<Vendor> {
        self.shape.vendor
    }

    /// The first turn (the only one but for Chat with `n` > 1).
    pub fn turn(&self) -> Option<&AssistantTurn> {
        self.choices.first()
    }

    /// The token counts, as the source vendor counts them (see [`Usage`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{Response, Vendor};
    /// let r = Response::from_vendor(Vendor::OpenAiChat, &json!({
    ///     "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
    ///     "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"},
    ///                  "finish_reason": "stop"}],
    ///     "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10}
    /// }))?;
    /// let usage = r.usage().unwrap();
    /// assert_eq!((usage.input_tokens, usage.output_tokens), (Some(9), Some(1)));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn usage(&self) -> Option<Usage> {
        self.usage.as_ref().and_then(|(_, u)| Usage::from_json(u))
    }

    /// The `usage` object as the source vendor wrote it, and that vendor.
    pub fn usage_json(&self) -> Option<(Vendor, &Value)> {
        self.usage.as_ref().map(|(v, u)| (*v, u))
    }

    /// Sets the `usage` object, in `vendor`'s spelling.
    pub fn set_usage_json(&mut self, vendor: Vendor, usage: Value) {
        self.usage = Some((vendor, usage));
    }

    /// Members of the body this model does not type (Anthropic
    /// `stop_sequence`, Chat `system_fingerprint`, the Responses echo of the
    /// request...), as read.
    pub fn other_members(&self) -> &Map {
        &self.shape.native
    }

    /// Reads a response body in `vendor`'s shape: an Anthropic message, a
    /// Chat completion, a Responses response object.
    ///
    /// Errors: a body that is not an object, a member of the wrong type, a
    /// malformed turn (with its pointer into `v`). Gemini: a
    /// `GenerateContentResponse`; Bedrock: a `ConverseResponse`.
    pub fn from_vendor(vendor: Vendor, v: &Value) -> Result<Response, ProtocolError> {
        match vendor {
            Vendor::Gemini => return gemini::read(v),
            Vendor::Bedrock => return bedrock::read(v),
            _ => {}
        }
        let o = expect_object(v, "", "a response object")?;
        let mut r = Response {
            id: None,
            model: None,
            choices: Vec::new(),
            usage: None,
            shape: Shape {
                vendor: Some(vendor),
                order: KeyOrder::of(v),
                ..Shape::default()
            },
        };
        // The members the turn reads, per vendor.
        let turn_members: &[&str] = match vendor {
            Vendor::Anthropic => &["role", "content", "stop_reason"],
            Vendor::OpenAiChat => &["choices"],
            Vendor::OpenAiResponses => &["status", "incomplete_details", "output"],
            // Read above.
            Vendor::Gemini | Vendor::Bedrock => &[],
        };
        let mut turn_json = Map::new();
        for (k, val) in o {
            match k {
                "id" | "model" if val.is_string() => {
                    let s = val.as_str().map(str::to_owned);
                    if k == "id" {
                        r.id = s;
                    } else {
                        r.model = s;
                    }
                }
                "usage" if !val.is_null() => r.usage = Some((vendor, val.clone())),
                // A null stop reason is kept as given (the turn types strings).
                "stop_reason" if val.is_null() => {
                    r.shape.native.insert(k.to_owned(), val.clone());
                }
                k2 if turn_members.contains(&k2) => {
                    turn_json.insert(k.to_owned(), val.clone());
                }
                _ => {
                    r.shape.native.insert(k.to_owned(), val.clone());
                }
            }
        }
        match vendor {
            Vendor::Anthropic => {
                turn_json.insert(
                    "role".into(),
                    o.get("role").cloned().unwrap_or("assistant".into()),
                );
                r.choices.push(AssistantTurn::from_vendor(
                    Vendor::Anthropic,
                    &Value::Object(turn_json),
                )?);
            }
            Vendor::OpenAiChat => {
                let choices = match turn_json.get("choices") {
                    Some(Value::Array(a)) => a.as_slice(),
                    Some(other) => {
                        return Err(ProtocolError::WrongType {
                            at: "/choices".into(),
                            expected: "an array",
                            found: json_type(other),
                        });
                    }
                    None => {
                        return Err(ProtocolError::MissingField {
                            at: String::new(),
                            field: "choices",
                        });
                    }
                };
                for (i, c) in choices.iter().enumerate() {
                    let at = ptr_i("/choices", i);
                    let co = expect_object(c, &at, "a choice object")?;
                    let mut inner = Map::new();
                    let mut rest = Map::new();
                    for (k, val) in co {
                        if k == "message" || k == "finish_reason" {
                            inner.insert(k.to_owned(), val.clone());
                        } else {
                            rest.insert(k.to_owned(), val.clone());
                        }
                    }
                    if !inner.contains_key("message") {
                        return Err(ProtocolError::MissingField {
                            at,
                            field: "message",
                        });
                    }
                    let turn =
                        AssistantTurn::from_vendor(Vendor::OpenAiChat, &Value::Object(inner))
                            .map_err(|e| prefixed(e, &at))?;
                    r.choices.push(turn);
                    r.shape.choice_native.push(rest);
                }
            }
            _ => {
                r.choices.push(AssistantTurn::from_vendor(
                    Vendor::OpenAiResponses,
                    &Value::Object(turn_json),
                )?);
            }
        }
        Ok(r)
    }
}
