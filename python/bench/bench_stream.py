"""What a streaming client pays per delta to show a tool call's arguments
while they arrive: tooljson against what Python users run today, on one
64 KiB write-file call in 4 and 16-byte deltas, in one run.

- ``tooljson.PartialParser.feed(delta)``: the events of the delta (the
  appended text), a preview the UI applies in place.
- ``tooljson.ToolCallStream.feed(event bytes)``: the same call inside a
  raw Anthropic SSE body, one ``content_block_delta`` event per delta,
  end to end (SSE framing, event JSON, the call's parser).
- ``jiter.from_json(buf, partial_mode="trailing-strings")`` on the
  accumulated buffer after each delta (what the SDKs call).
- anthropic's ``accumulate_event`` (the ``MessageStream`` accumulator) on
  the decoded events (the SSE decoding and event JSON not counted).
- openai's ``ChatCompletionStreamState.handle_chunk`` on decoded chunks,
  the tool declared ``strict`` (the case where it parses arguments).

Each figure is the best pass in this thread's CPU time over interleaved
rounds (every contender in every round, the order rotated, the heap
collected before each pass). The script checks its own answers (every
contender ends with the same arguments) and the two claims: per-delta cost
linear in the delta (16-byte deltas cost at most 4.5 times what 4-byte
ones do) and, at 16-byte deltas, ``PartialParser`` at least 100 times
faster than the jiter re-parse and both SDK accumulators. The
``ToolCallStream`` row is printed beside them, not held to the 100x: it
also pays the SSE framing and each event's JSON, which the SDK rows are
handed already decoded.

Run: python python/bench/bench_stream.py   (after pip install ./python
-r python/requirements-test.txt); --quick (CI) times the others in 16-byte
deltas only, in 3 rounds instead of 5; --floor N requires N times instead
of 100.
"""

import gc
import json
import sys
import time

import jiter
import tooljson

SIZE = 64 * 1024


def write_file_arguments():
    line = 'fn main() {\n    println!("hello, \\"world\\" \u00e9 \U0001f600");\n}\n'
    content = line * (SIZE // len(line.encode()) + 1)
    args = json.dumps({"path": "src/main.rs", "content": content}, ensure_ascii=False)
    # Cut the content so that the whole text is 64 KiB: trim characters
    # until it fits, then close the string and the object.
    data = args.encode()
    cut = data[: SIZE - 2].decode("utf-8", "ignore")
    while cut.endswith("\\") and not cut.endswith("\\\\"):
        cut = cut[:-1]
    text = cut + '"}'
    while len(text.encode()) < SIZE:
        text = text[:-2] + ' "}'
    json.loads(text)
    return text


def deltas_of(text, n):
    """n-byte deltas, each whole characters (the providers send strings)."""
    out, data, i = [], text.encode(), 0
    while i < len(data):
        j = min(i + n, len(data))
        while j < len(data) and (data[j] & 0xC0) == 0x80:
            j += 1
        out.append(data[i:j].decode())
        i = j
    return out


def cpu_seconds(fn):
    """One pass of fn from a collected heap, in this thread's CPU time: on a
    shared machine the time spent waiting for a core is not the pass's
    cost, and the wall clock would charge it to whoever was descheduled."""
    gc.collect()
    t = time.thread_time_ns()
    result = fn()
    return (time.thread_time_ns() - t) / 1e9, result


def best_of(contenders, rounds):
    """The best pass of each contender over interleaved rounds: each round
    runs every contender (its own number of passes), in an order rotated
    from round to round, so that no contender always runs first, or always
    right after the most garbage, or only in the machine's quiet minutes."""
    best = {name: (float("inf"), None) for name, _, _ in contenders}
    for r in range(rounds):
        for name, passes, fn in contenders[r % len(contenders):] + contenders[:r % len(contenders)]:
            for _ in range(passes):
                secs, result = cpu_seconds(fn)
                if secs < best[name][0]:
                    best[name] = (secs, result)
    return best


def ours_partial(deltas):
    p = tooljson.PartialParser()
    for d in deltas:
        p.feed(d)
    p.finish()
    return p.value()


def sse_events(deltas):
    head = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
         "model": "claude", "content": [], "stop_reason": None, "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}},
    ]
    body = [{"type": "content_block_delta", "index": 0,
             "delta": {"type": "input_json_delta", "partial_json": d}} for d in deltas]
    tail = [
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 100}},
        {"type": "message_stop"},
    ]
    return head + body + tail


def ours_stream(frames):
    s = tooljson.ToolCallStream("anthropic")
    for f in frames:
        s.feed(f)
    s.finish()
    return s.calls[0].arguments


def jiter_reparse(deltas):
    buf, v = b"", None
    for d in deltas:
        buf += d.encode()
        v = jiter.from_json(buf, partial_mode="trailing-strings")
    return v


def anthropic_accumulate(events):
    from anthropic.lib.streaming._messages import accumulate_event

    snapshot, bufs = None, {}
    for e in events:
        snapshot = accumulate_event(event=e, current_snapshot=snapshot, json_bufs=bufs)
    return snapshot.content[0].input


def openai_chunks(deltas):
    from openai.types.chat import ChatCompletionChunk

    def chunk(delta, finish=None):
        return ChatCompletionChunk.model_validate({
            "id": "c", "object": "chat.completion.chunk", "created": 0, "model": "gpt",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        })

    chunks = [chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                     "function": {"name": "write_file", "arguments": ""}}]})]
    chunks += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": d}}]}) for d in deltas]
    chunks.append(chunk({}, "tool_calls"))
    return chunks


STRICT_TOOL = [{"type": "function", "function": {"name": "write_file", "strict": True, "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
    "required": ["path", "content"], "additionalProperties": False}}}]


def openai_accumulate(chunks):
    from openai import omit
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState

    state = ChatCompletionStreamState(input_tools=STRICT_TOOL, response_format=omit)
    for c in chunks:
        state.handle_chunk(c)
    return state.current_completion_snapshot.choices[0].message.tool_calls[0].function.parsed_arguments


def main():
    # --quick (CI): the others only in 16-byte deltas, where the claim is;
    # best of 3 still, so that one slow pass on a busy machine moves no ratio.
    quick = "--quick" in sys.argv
    # --floor N: the speed-up the script requires (100, the target; CI
    # passes its own floor).
    floor = float(sys.argv[sys.argv.index("--floor") + 1]) if "--floor" in sys.argv else 100.0
    # Per round: the tooljson contenders several passes (each is short),
    # the others one.
    rounds, fast_passes = (3, 10) if quick else (5, 10)
    from anthropic.types import RawMessageStreamEvent
    from anthropic._models import construct_type_unchecked

    text = write_file_arguments()
    want = json.loads(text)
    rows, per_delta = [], {}
    for n in (4, 16):
        deltas = deltas_of(text, n)
        events = sse_events(deltas)
        frames = [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events]
        decoded = [construct_type_unchecked(type_=RawMessageStreamEvent, value=e) for e in events]
        chunks = openai_chunks(deltas)
        contenders = [
            ("tooljson PartialParser.feed", fast_passes, lambda: ours_partial(deltas)),
            ("tooljson ToolCallStream.feed (SSE bytes)", fast_passes, lambda: ours_stream(frames)),
            ("jiter.from_json re-parse per delta", 1, lambda: jiter_reparse(deltas)),
            ("anthropic accumulate_event", 1, lambda: anthropic_accumulate(decoded)),
            ("openai ChatCompletionStreamState (strict)", 1, lambda: openai_accumulate(chunks)),
        ]
        if quick and n == 4:
            contenders = [c for c in contenders if c[0].startswith("tooljson")]
        for name, (secs, got) in best_of(contenders, rounds).items():
            assert got == want, f"{name} ({n}-byte deltas) ended with other arguments"
            per_delta[(name, n)] = secs / len(deltas)
            rows.append((n, len(deltas), name, secs))
    print(f"one write_file call, {len(text.encode())} bytes of arguments; thread CPU time, best pass "
          f"of {rounds} interleaved rounds ({fast_passes} passes a round for tooljson, 1 for the others)")
    print(f"{'delta':>5} {'deltas':>6}  {'contender':<44} {'total ms':>10} {'us/delta':>9} {'x tooljson':>10}")
    for n, count, name, secs in rows:
        ours = per_delta[("tooljson PartialParser.feed", n)] * count
        print(f"{n:>5} {count:>6}  {name:<44} {secs * 1e3:>10.2f} {secs / count * 1e6:>9.2f} {secs / ours:>10.1f}")
    failures = []
    for name in ("tooljson PartialParser.feed", "tooljson ToolCallStream.feed (SSE bytes)"):
        ratio = per_delta[(name, 16)] / per_delta[(name, 4)]
        print(f"{name}: a 16-byte delta costs {ratio:.2f}x a 4-byte one (at most 4.5x)")
        if ratio > 4.5:
            failures.append(f"{name}: per-delta cost grows {ratio:.2f}x for 4x the delta")
    # The claim is the parser's: the ToolCallStream row also pays the SSE
    # framing and each event's JSON, which the SDK rows were handed decoded.
    for ours in ("tooljson PartialParser.feed",):
        for other in ("jiter.from_json re-parse per delta", "anthropic accumulate_event",
                      "openai ChatCompletionStreamState (strict)"):
            speedup = per_delta[(other, 16)] / per_delta[(ours, 16)]
            print(f"16-byte deltas: {ours} is {speedup:.0f}x faster than {other}")
            if speedup < floor and ours == "tooljson PartialParser.feed":
                failures.append(f"{ours} only {speedup:.0f}x faster than {other}")
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print(f"ok: linear per delta, and at least {floor:.0f}x faster at 16-byte deltas")


if __name__ == "__main__":
    main()
