"""ToolCallStream over every recorded transcript (Anthropic, OpenAI Chat,
OpenAI Responses, Gemini, Bedrock), read in 1, 7 and 64-byte pieces and
whole: the final messages equal what the providers' own SDKs accumulate
(corpus/transcripts/expected, written by anthropic's and openai's
accumulators, or for Gemini and Bedrock by the spec's rules; never by this
package), the previews are monotone, and nothing raises but StreamFailed."""

import asyncio
import json

import pytest

from conftest import EXPECTED
from tooljson import (
    ProviderError,
    StreamFailed,
    ToolCallStream,
    UnrecognizedStream,
    iter_events,
    stream_events,
)
from test_partial import extends

PROVIDERS = [
    ("anthropic", "anthropic", None),
    ("openai-chat", "openai-chat", None),
    ("openai-responses", "openai-responses", None),
    (None, "gemini", None),
    # The decoded .jsonl beside each Bedrock recording is not a body.
    (None, "bedrock", ".eventstream"),
]


def normalize(v, chat):
    """Null members left out (the SDKs write every optional member, the wire
    leaves some out), and no `index` in Chat `tool_calls` entries (which
    openai-python keeps and the unstreamed message has not)."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if x is None:
                continue
            x = normalize(x, chat)
            if chat and k == "tool_calls" and isinstance(x, list):
                x = [{a: b for a, b in c.items() if a != "index"} for c in x]
            out[k] = x
        return out
    if isinstance(v, list):
        return [normalize(x, chat) for x in v]
    return v


def transcripts(testdata):
    out = []
    for vendor, folder, ext in PROVIDERS:
        d = testdata / "vendor-streams" / folder
        files = sorted(p for p in d.iterdir() if ext is None or p.name.endswith(ext))
        assert files, d
        out += [(vendor, folder, p) for p in files]
    return out


def replay(data, vendor, n):
    """Reads `data` in n-byte pieces (whole when None), checking each call's
    preview stays monotone; returns the stream."""
    s = ToolCallStream(vendor)
    previews = {}
    try:
        for i in range(0, len(data), n or max(len(data), 1)):
            s.feed(data[i : i + (n or len(data))])
            for call in s.calls:
                p = call.preview
                if call.index in previews and previews[call.index] is not None:
                    assert p is not None
                    extends(previews[call.index], p)
                previews[call.index] = p
        s.finish()
    except StreamFailed:
        pass
    return s


def replay_lines(data, vendor):
    s = ToolCallStream(vendor)
    try:
        for line in data.decode().splitlines():
            if line.strip():
                s.feed_event(line.strip())
        s.finish()
    except StreamFailed:
        pass
    return s


def test_every_transcript_ends_with_the_sdks_final_message_at_every_read_size(testdata):
    checked, failures = 0, []
    for vendor, folder, path in transcripts(testdata):
        want = json.loads((EXPECTED / folder / (path.name + ".json")).read_text())
        chat = folder == "openai-chat"
        want_messages = [normalize(m, chat) for m in want["messages"]]
        data = path.read_bytes()
        if path.suffix == ".jsonl":
            streams = [("lines", replay_lines(data, vendor))]
        else:
            streams = [(n, replay(data, vendor, n)) for n in (1, 7, 64, None)]
        for n, s in streams:
            got = s.final_messages()
            if folder == "openai-responses":
                # The SDK's file holds the `output`; the stream gives the
                # whole `response` object around it.
                got = [{"output": m.get("output")} for m in got]
            got = [normalize(m, chat) for m in got]
            if got != want_messages:
                failures.append(f"{folder}/{path.name} ({n}): {got} != {want_messages}")
            if "sdk_error" in want:
                assert s.stop_reason == "error", (path.name, s.stop_reason)
        checked += 1
    assert not failures, "\n".join(failures)
    assert checked == 34


def test_the_calls_and_their_arguments_match_the_final_message(testdata):
    """For Anthropic: each complete call's arguments are the `input` of its
    `tool_use` block in the SDK's message."""
    seen = 0
    for vendor, folder, path in transcripts(testdata):
        if folder != "anthropic" or path.suffix != ".sse":
            continue
        want = json.loads((EXPECTED / folder / (path.name + ".json")).read_text())
        if not want["messages"]:
            continue
        blocks = {
            b["id"]: b for b in want["messages"][0]["content"] if b["type"].endswith("tool_use")
        }
        s = replay(path.read_bytes(), vendor, 7)
        for call in s.calls:
            if call.status == "complete":
                assert call.arguments == blocks[call.id]["input"], path.name
                assert json.loads(call.arguments_text or "{}") == call.arguments
                seen += 1
    assert seen >= 5


def test_text_usage_and_stop_reason_of_an_anthropic_recording(testdata):
    path = testdata / "vendor-streams/anthropic/sdk-python-text-then-tool-use.sse"
    want = json.loads(
        (EXPECTED / "anthropic" / (path.name + ".json")).read_text()
    )["messages"][0]
    s = ToolCallStream()
    events = list(iter_events([path.read_bytes()[i : i + 16] for i in range(0, len(path.read_bytes()), 16)], s))
    assert s.provider == "anthropic"
    assert s.text() == "".join(b["text"] for b in want["content"] if b["type"] == "text")
    assert s.choices == [0]
    assert s.stop_reason == want["stop_reason"]
    assert s.usage["output_tokens"] == want["usage"]["output_tokens"]
    assert s.model == want["model"]
    assert [e.type for e in events][-1] == "stream_finished"
    started = [e for e in events if e.type == "call_started"]
    assert [e.name for e in started] == [c.name for c in s.calls]
    turn = s.to_assistant_turn()
    assert turn.called_names == [c.name for c in s.calls]


def test_the_async_helper_gives_the_same_events(testdata):
    path = testdata / "vendor-streams/openai-chat/sdk-python-parallel-tool-calls.sse"
    data = path.read_bytes()

    async def body():
        for i in range(0, len(data), 64):
            await asyncio.sleep(0)
            yield data[i : i + 64]

    async def run():
        s = ToolCallStream()
        return [e.to_dict() | {"type": e.type} async for e in stream_events(body(), s)], s

    got, s = asyncio.run(run())
    want = [e.to_dict() | {"type": e.type} for e in iter_events([data])]
    merged = lambda es: [e for e in es if e["type"] not in ("arguments_appended", "text_appended")]
    assert merged(got) == merged(want)
    assert len(s.calls) == 2 and all(c.is_executable for c in s.calls)


def test_garbage_bodies_raise_stream_failed_or_nothing_never_a_crash(testdata):
    import random

    rng = random.Random(7)
    bodies = [p.read_bytes() for _, _, p in transcripts(testdata)]
    for body in bodies:
        for _ in range(3):
            b = bytearray(body)
            for _ in range(10):
                if b:
                    b[rng.randrange(len(b))] = rng.randrange(256)
            s = ToolCallStream()
            try:
                for i in range(0, len(b), 13):
                    s.feed(bytes(b[i : i + 13]))
                s.finish()
            except StreamFailed:
                pass
            s.final_messages()
            for c in s.calls:
                c.preview, c.arguments, c.errors


def test_the_text_of_each_choice_is_kept_apart(testdata):
    """OpenAI Chat with n=3: the text per choice equals the SDK's message
    content per choice."""
    name = "sdk-python-n3-choices-json-content.sse"
    path = testdata / "vendor-streams" / "openai-chat" / name
    want = json.loads((EXPECTED / "openai-chat" / (name + ".json")).read_text())["messages"]
    for n in (1, 7, 64):
        s = replay(path.read_bytes(), "openai-chat", n)
        assert s.choices == [m["index"] for m in want]
        for m in want:
            assert s.text(m["index"]) == m["message"]["content"]
    events = ToolCallStream().feed(path.read_bytes())
    assert {e.choice for e in events if e.type == "text_appended"} == {0, 1, 2}


def test_a_provider_error_is_raised_by_finish_with_the_response_so_far(testdata):
    path = testdata / "vendor-streams/anthropic/sdk-python-error-event-overloaded.sse"
    s = ToolCallStream()
    fed = s.feed(path.read_bytes())
    # The error event ends the stream as it arrives; finish() raises it.
    assert fed[-1].type == "stream_finished" and fed[-1].stop_reason == "error"
    with pytest.raises(ProviderError) as e:
        s.finish()
    assert isinstance(e.value, StreamFailed)
    assert e.value.kind == "overloaded_error" and e.value.retryable
    assert str(e.value).startswith("the provider reported overloaded_error")
    assert e.value.events == [] and s.is_finished
    assert s.stop_reason == "error"


def test_a_body_that_is_no_providers_stream_says_so():
    body = b'{"type": "message_start"}\n{"type": "message_stop"}\n'  # a .jsonl log
    s = ToolCallStream()
    s.feed(body)
    with pytest.raises(UnrecognizedStream) as e:
        s.finish()
    assert "feed_event" in str(e.value)
    assert e.value.bytes == len(body) and e.value.event_count == 0 and not e.value.retryable
