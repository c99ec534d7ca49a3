"""Writes the final assistant message of every recorded transcript in
../shared/testdata/vendor-streams/{anthropic,openai-chat,openai-responses}
as the providers' own Python SDKs accumulate it (`pip install anthropic
openai`), one JSON file per transcript beside this script. The Rust test
tests/providers_messages.rs compares tooljson's `message_finished` with them.

Run: python3 corpus/transcripts/expected/sdk_accumulate.py ../shared/testdata/vendor-streams

Anthropic: `anthropic.lib.streaming._beta_messages.accumulate_event` (the
beta accumulator, which also tracks `mcp_tool_use` input), the message object. OpenAI Chat: `ChatCompletionStreamState`, each choice's `message` and
`finish_reason`. Responses: `ResponseStreamState`, the completed response's
`output` (the accumulated items when the response did not complete).
A stream the SDK raises on (an `error` event) gives the message accumulated
before it and `"sdk_error"`.
"""

import json
import os
import sys

import httpx2
from anthropic.lib.streaming._beta_messages import accumulate_event
from openai.lib.streaming.chat._completions import ChatCompletionStreamState
from openai.lib.streaming.responses._responses import ResponseStreamState
from openai.types.chat import ChatCompletionChunk
from openai.types.responses import ResponseStreamEvent
from openai._models import construct_type_unchecked
from openai import omit


def events(path):
    """(event name or None, data) pairs: SSE, or one JSON event per line."""
    text = open(path, encoding="utf-8").read()
    if text.lstrip().startswith("{"):
        return [(None, line) for line in text.splitlines() if line.strip()]
    out = []
    name, data = None, []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line == "":
            if data:
                out.append((name, "\n".join(data)))
            name, data = None, []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    if data:
        out.append((name, "\n".join(data)))
    return out


def drop_nulls(v):
    if isinstance(v, dict):
        return {k: drop_nulls(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [drop_nulls(x) for x in v]
    return v


def anthropic(path):
    snapshot, bufs, error = None, {}, None
    for _, data in events(path):
        if data.strip() == "[DONE]":
            break
        try:
            ev = json.loads(data)
        except ValueError:
            continue
        if ev.get("type") == "error":
            error = ev.get("error", {}).get("type", "error")
            break
        if ev.get("type") == "message_start" and snapshot is not None:
            error = "second message_start"
            break
        if ev.get("type") in (None, "ping"):
            continue
        if ev.get("type") == "message_start":
            # A bare `message: {}` (a Go SDK fixture): Go's zero value.
            ev["message"].setdefault("content", [])
        snapshot = accumulate_event(
            event=ev, current_snapshot=snapshot, json_bufs=bufs, request_headers=httpx2.Headers({})
        )
    out = {"messages": [drop_nulls(snapshot.to_dict(mode="json", warnings=False))] if snapshot is not None else []}
    if error:
        out["sdk_error"] = error
    return out


def chat(path):
    state, error = ChatCompletionStreamState(), None
    for _, data in events(path):
        if data.strip() == "[DONE]":
            break
        try:
            ev = json.loads(data)
        except ValueError:
            continue
        if ev.get("error"):
            error = ev["error"].get("type") or ev["error"].get("code") or "error"
            break
        state.handle_chunk(construct_type_unchecked(type_=ChatCompletionChunk, value=ev))
    snap = state.current_completion_snapshot
    messages = []
    for c in sorted(snap.choices, key=lambda c: c.index):
        d = c.to_dict(mode="json", warnings=False)
        messages.append(drop_nulls({"index": d["index"], "message": d["message"], "finish_reason": d.get("finish_reason")}))
    out = {"messages": messages}
    if error:
        out["sdk_error"] = error
    return out


def responses(path):
    state = ResponseStreamState(input_tools=omit, text_format=omit)
    error = None
    evs = events(path)
    decoded = []
    for _, data in evs:
        try:
            decoded.append(json.loads(data))
        except ValueError:
            pass
    if not any(d.get("type") == "response.created" for d in decoded if isinstance(d, dict)):
        # A fixture that starts past `response.created`: the SDK needs one
        # to start its snapshot; an empty response with the later events' id.
        rid = next((d["response"].get("id") for d in decoded
                    if isinstance(d, dict) and isinstance(d.get("response"), dict)), None)
        evs = [(None, json.dumps({"type": "response.created", "response": {"id": rid, "output": []}}))] + evs
    for name, data in evs:
        if data.strip() == "[DONE]":
            break
        try:
            ev = json.loads(data)
        except ValueError:
            continue
        kind = ev.get("type") or name
        if kind == "error":
            error = ev.get("code") or (ev.get("error") or {}).get("code") or "error"
            continue
        ev["type"] = kind
        try:
            state.handle_event(construct_type_unchecked(type_=ResponseStreamEvent, value=ev))
        except RuntimeError as e:
            error = str(e)
            break
    done = state._completed_response
    if done is not None:
        output = [drop_nulls(i.to_dict(mode="json", warnings=False)) for i in done.output]
    else:
        # No completed response: the SDK's own recovery for a completed
        # response without `output`, the finished items by index, with the
        # snapshot's items for those that did not finish.
        snap = state._ResponseStreamState__current_snapshot
        items = dict(enumerate(snap.output)) if snap is not None else {}
        items.update(state._completed_output)
        output = [drop_nulls(items[i].to_dict(mode="json", warnings=False)) for i in sorted(items)]
    out = {"messages": [{"output": output}]}
    if error:
        out["sdk_error"] = error
    return out


def main():
    root = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    for vendor, fn in (("anthropic", anthropic), ("openai-chat", chat), ("openai-responses", responses)):
        for name in sorted(os.listdir(os.path.join(root, vendor))):
            out = fn(os.path.join(root, vendor, name))
            target = os.path.join(here, vendor, name + ".json")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1, ensure_ascii=False, sort_keys=True)
                f.write("\n")
            print(target)


main()
