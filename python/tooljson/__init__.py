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

from typing import AsyncIterable, AsyncIterator, Iterable, Iterator, Optional

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
    # the streamed response
    StreamFailed,
    ProviderError,
    UnrecognizedStream,
    ToolCallStream,
    StreamedCall,
    StreamEvent,
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
    "StreamFailed",
    "ProviderError",
    "UnrecognizedStream",
    "ToolCallStream",
    "StreamedCall",
    "StreamEvent",
    "iter_events",
    "stream_events",
]


def iter_events(
    body: "Iterable[bytes]", stream: "Optional[ToolCallStream]" = None
) -> "Iterator[StreamEvent]":
    """Feeds each chunk of ``body`` (``response.iter_bytes()``) to ``stream``
    (a new ``ToolCallStream`` by default) and yields its events, then those
    of ``finish()``. Read the text, calls and final message from the stream
    afterwards (pass your own to keep a handle on it)."""
    s = stream if stream is not None else ToolCallStream()
    for chunk in body:
        yield from s.feed(chunk)
    yield from s.finish()


async def stream_events(
    body: "AsyncIterable[bytes]", stream: "Optional[ToolCallStream]" = None
) -> "AsyncIterator[StreamEvent]":
    """The async form of ``iter_events``, over an async byte iterator
    (``await response.aiter_bytes()`` of httpx, or the SDKs' async raw
    responses)::

        s = ToolCallStream()
        async for event in stream_events(response.aiter_bytes(), s):
            ...
        print(s.final_messages()[0])
    """
    s = stream if stream is not None else ToolCallStream()
    async for chunk in body:
        for event in s.feed(chunk):
            yield event
    for event in s.finish():
        yield event
