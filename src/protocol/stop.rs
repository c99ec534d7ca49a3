//! Why the model stopped ([`StopReason`]), in each vendor's words: one type for
//! a finished turn read from JSON and for a streamed response.

/// Why the model stopped: one type for a finished turn read from JSON and for
/// a streamed response.
///
/// | | Anthropic `stop_reason` | OpenAI Chat `finish_reason` | Responses `status` |
/// |---|---|---|---|
/// | [`ToolUse`](Self::ToolUse) | `tool_use` | `tool_calls` / `function_call` | `completed` with function calls |
/// | [`EndTurn`](Self::EndTurn) | `end_turn` | `stop` | `completed` |
/// | [`StopSequence`](Self::StopSequence) | `stop_sequence` | `stop` | `completed` |
/// | [`MaxTokens`](Self::MaxTokens) | `max_tokens` | `length` | `incomplete` (`max_output_tokens`) |
/// | [`Refusal`](Self::Refusal) | `refusal` | `content_filter` (read from a finished turn) | `incomplete` (`content_filter`) |
/// | [`ContentFilter`](Self::ContentFilter) | `refusal` | `content_filter` (streamed) | `incomplete` (`content_filter`) |
/// | [`PauseTurn`](Self::PauseTurn) | `pause_turn` | as given | `completed` |
/// | [`Error`](Self::Error) | an `error` event | an `{"error": ...}` chunk | `error`, `response.failed` |
/// | [`EndOfStream`](Self::EndOfStream) | the input ended early | the input ended early | the input ended early |
/// | [`Other`](Self::Other) | as given | as given | `completed` |
///
/// # Examples
///
/// ```
/// use tooljson::protocol::StopReason;
/// assert_eq!(StopReason::MaxTokens.as_openai_chat(), "length");
/// assert_eq!(StopReason::ContentFilter.as_str(), "content_filter");
/// assert!(!StopReason::EndOfStream.is_normal());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// Stopped to call tools: run them and reply.
    ToolUse,
    /// Finished normally.
    EndTurn,
    /// Hit a stop sequence (Anthropic only; OpenAI says `stop`).
    StopSequence,
    /// Ran out of output tokens (Anthropic `max_tokens` and
    /// `model_context_window_exceeded` when streamed): calls may be truncated.
    MaxTokens,
    /// Refused or filtered.
    Refusal,
    /// A content filter stopped a streamed output.
    ContentFilter,
    /// A long server-tool turn paused (Anthropic `pause_turn`).
    PauseTurn,
    /// An error event, or a stream the adapter could not follow.
    Error {
        /// The provider's error type or code (`overloaded_error`,
        /// `insufficient_quota`), or `protocol` / `stream` for errors found
        /// by the adapter.
        kind: String,
        /// The message.
        message: String,
    },
    /// The input ended before the provider's terminal event.
    EndOfStream,
    /// Any other value (`function_call` through Anthropic, a new word), as
    /// the provider gave it.
    Other(String),
}

impl StopReason {
    pub(crate) fn from_anthropic(s: &str) -> StopReason {
        match s {
            "tool_use" => StopReason::ToolUse,
            "end_turn" => StopReason::EndTurn,
            "stop_sequence" => StopReason::StopSequence,
            "max_tokens" => StopReason::MaxTokens,
            "refusal" => StopReason::Refusal,
            "pause_turn" => StopReason::PauseTurn,
            other => StopReason::Other(other.to_owned()),
        }
    }

    pub(crate) fn from_openai_chat(s: &str) -> StopReason {
        match s {
            "tool_calls" => StopReason::ToolUse,
            "stop" => StopReason::EndTurn,
            "length" => StopReason::MaxTokens,
            "content_filter" => StopReason::Refusal,
            other => StopReason::Other(other.to_owned()),
        }
    }

    /// The Anthropic `stop_reason` string.
    pub fn as_anthropic(&self) -> &str {
        match self {
            StopReason::ToolUse => "tool_use",
            StopReason::EndTurn => "end_turn",
            StopReason::StopSequence => "stop_sequence",
            StopReason::MaxTokens | StopReason::EndOfStream => "max_tokens",
            StopReason::Refusal | StopReason::ContentFilter => "refusal",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Error { .. } => "error",
            StopReason::Other(s) => s,
        }
    }

    /// The OpenAI Chat `finish_reason` string.
    pub fn as_openai_chat(&self) -> &str {
        match self {
            StopReason::ToolUse => "tool_calls",
            StopReason::EndTurn | StopReason::StopSequence => "stop",
            StopReason::MaxTokens | StopReason::EndOfStream => "length",
            StopReason::Refusal | StopReason::ContentFilter => "content_filter",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Error { .. } => "error",
            StopReason::Other(s) => s,
        }
    }

    /// The name used in NDJSON: `tool_use`, `end_turn`, `stop_sequence`,
    /// `max_tokens`, `refusal`, `content_filter`, `pause_turn`, `error`,
    /// `end_of_stream`, or the provider's own word.
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::ToolUse => "tool_use",
            StopReason::EndTurn => "end_turn",
            StopReason::StopSequence => "stop_sequence",
            StopReason::MaxTokens => "max_tokens",
            StopReason::Refusal => "refusal",
            StopReason::ContentFilter => "content_filter",
            StopReason::PauseTurn => "pause_turn",
            StopReason::Error { .. } => "error",
            StopReason::EndOfStream => "end_of_stream",
            StopReason::Other(s) => s,
        }
    }

    /// Whether the response ended normally (not an error, a truncation, a
    /// filter or the end of the input).
    pub fn is_normal(&self) -> bool {
        !matches!(
            self,
            StopReason::MaxTokens
                | StopReason::Error { .. }
                | StopReason::EndOfStream
                | StopReason::ContentFilter
        )
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Error { kind, message } => write!(f, "error ({kind}): {message}"),
            other => f.write_str(other.as_str()),
        }
    }
}
