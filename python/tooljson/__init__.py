"""Streaming JSON for LLM tool calls, over the Rust crate ``tooljson``.

- ``PartialParser``: feed tool-call argument text in pieces of any size;
  get completion events and a monotone preview (never taken back).
- ``ToolCallStream``: feed the raw bytes of a streamed response (Anthropic,
  OpenAI Chat / Responses, Gemini, Bedrock); get events, the text, the calls
  with parsed arguments, usage, the stop reason and the final message as
  the provider's own dict. ``stream_events`` does the same over an async
  byte iterator.
- ``ToolSet``: compile a request's tools once, check a call, build the
  ``is_error`` result that asks the model to call again.
- ``Request``, ``AssistantTurn``, ``ToolResults``: convert between
  providers; what a conversion cannot carry is a ``Loss`` in its
  ``Converted`` result.
"""

from ._tooljson import (
    __version__,
    # errors
    ToolJsonError,
    JsonError,
    TruncatedError,
    InvalidJsonError,
    TrailingDataError,
    LimitExceededError,
    MisuseError,
    ProtocolError,
    LossError,
    ChoiceError,
    CorrelationError,
    # the partial parser
    PartialParser,
    Opened,
    Appended,
    Completed,
    loads,
    # the protocol
    ToolSet,
    ToolCall,
    CallProblem,
    Violation,
    ToolResult,
    ToolResults,
    AssistantTurn,
    Request,
    Loss,
    Converted,
)

__all__ = [
    "__version__",
    "ToolJsonError",
    "JsonError",
    "TruncatedError",
    "InvalidJsonError",
    "TrailingDataError",
    "LimitExceededError",
    "MisuseError",
    "ProtocolError",
    "LossError",
    "ChoiceError",
    "CorrelationError",
    "PartialParser",
    "Opened",
    "Appended",
    "Completed",
    "loads",
    "ToolSet",
    "ToolCall",
    "CallProblem",
    "Violation",
    "ToolResult",
    "ToolResults",
    "AssistantTurn",
    "Request",
    "Loss",
    "Converted",
]
