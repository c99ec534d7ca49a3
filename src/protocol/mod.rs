//! Tool-use protocol types: tool definitions, `tool_choice`, tool calls and
//! their results, in the JSON of Anthropic Messages, OpenAI Chat Completions
//! and OpenAI Responses, converted between them without losing ids or order.
//!
//! This layer works on complete JSON (`serde_json::Value`): request bodies,
//! finished assistant turns, reply messages. Streaming belongs to the vendor
//! adapters; this layer is what they check finished calls against.

mod choice;
mod definition;
mod error;
mod message;
mod result;
mod retry;

pub use choice::{ChoiceViolation, ToolChoice, ToolSet};
pub use definition::{MAX_TOOL_NAME_LEN, ToolDefinition, validate_tool_name};
pub use error::{NameProblem, ProtocolError};
pub use message::{
    Arguments, AssistantTurn, INVALID_JSON_KEY, StopReason, TextPart, ToolCall, TurnPart,
    invalid_json_input,
};
pub use result::{
    CorrelationError, ERROR_PREFIX, ResultContent, ResultPart, ToolOutcome, ToolResult,
    ToolResults, correlate,
};
pub use retry::{CallProblem, MAX_ECHOED_INPUT, parse_error_message, parse_error_result};

use std::fmt;
use std::str::FromStr;

/// The three API shapes this layer reads and writes.
///
/// Displays and parses as `anthropic`, `openai-chat`, `openai-responses`.
///
/// # Examples
///
/// ```
/// use tooljson::protocol::Vendor;
/// assert_eq!("openai-chat".parse::<Vendor>(), Ok(Vendor::OpenAiChat));
/// assert_eq!(Vendor::OpenAiResponses.to_string(), "openai-responses");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
}

impl Vendor {
    /// All three, in a fixed order.
    pub const ALL: [Vendor; 3] = [
        Vendor::Anthropic,
        Vendor::OpenAiChat,
        Vendor::OpenAiResponses,
    ];

    /// The name used by `Display` and `FromStr`.
    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::Anthropic => "anthropic",
            Vendor::OpenAiChat => "openai-chat",
            Vendor::OpenAiResponses => "openai-responses",
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
            "unknown vendor {:?}: expected anthropic, openai-chat or openai-responses",
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
