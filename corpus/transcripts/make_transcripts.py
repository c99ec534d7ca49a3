#!/usr/bin/env python3
"""Writes the synthetic transcripts in this folder (see README.md here).

Every file is SYNTHETIC: written for tooljson, shaped after the recorded
wire formats in ../shared/testdata/vendor-streams/ (event order, field
names, framing), with made-up ids. Run from anywhere: python3 make_transcripts.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def sse(events, named=True, done=False):
    out = []
    for ev in events:
        data = json.dumps(ev, ensure_ascii=False, separators=(",", ":"))
        if named and "type" in ev:
            out.append(f"event: {ev['type']}\ndata: {data}\n\n")
        else:
            out.append(f"data: {data}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out)


def write(name, text):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)


def pieces(text, sizes):
    """Cuts text into pieces of the given sizes, cycling."""
    out, i, k = [], 0, 0
    while i < len(text):
        n = sizes[k % len(sizes)]
        out.append(text[i : i + n])
        i += n
        k += 1
    return out


def message_start(mid):
    return {
        "type": "message_start",
        "message": {
            "id": mid, "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [], "stop_reason": None,
            "stop_sequence": None, "usage": {"input_tokens": 812, "output_tokens": 1},
        },
    }


def tool_start(index, tid, name):
    return {"type": "content_block_start", "index": index,
            "content_block": {"type": "tool_use", "id": tid, "name": name, "input": {}}}


def delta(index, text):
    return {"type": "content_block_delta", "index": index,
            "delta": {"type": "input_json_delta", "partial_json": text}}


def interleave(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return out


def anthropic_parallel(mid, calls, text):
    """calls: [(index, id, name, args_text, sizes)], deltas interleaved,
    stops in reverse order."""
    evs = [message_start(mid),
           {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
           {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
           {"type": "content_block_stop", "index": 0}]
    streams = []
    for (index, tid, name, args, sizes) in calls:
        evs.append(tool_start(index, tid, name))
        streams.append([delta(index, "")] + [delta(index, p) for p in pieces(args, sizes)])
    merged = streams[0]
    for s in streams[1:]:
        merged = interleave(merged, s)
    merged.insert(3, {"type": "ping"})
    evs += merged
    for (index, *_rest) in reversed(calls):
        evs.append({"type": "content_block_stop", "index": index})
    evs.append({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 240}})
    evs.append({"type": "message_stop"})
    return sse(evs)


# 1. Anthropic: parallel tool_use blocks whose deltas interleave.
weather = json.dumps({"city": "Paris", "unit": "celsius", "days": [1, 2, 3]})
clock = json.dumps({"timezone": "Europe/Paris", "format": "24h"})
write("anthropic-parallel-interleaved.sse", anthropic_parallel(
    "msg_synth_parallel_01",
    [(1, "toolu_synth_weather", "get_weather", weather, [5, 3, 7]),
     (2, "toolu_synth_clock", "get_time", clock, [4, 6])],
    "Checking both."))

# 2. OpenAI Responses: two function calls in one response.
def responses_two_calls():
    seq = iter(range(1000))
    resp = {"id": "resp_synth_two", "object": "response", "status": "in_progress", "output": [],
            "parallel_tool_calls": True, "tool_choice": "auto"}
    evs = [{"type": "response.created", "sequence_number": next(seq), "response": resp},
           {"type": "response.in_progress", "sequence_number": next(seq), "response": resp},
           {"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0,
            "item": {"id": "rs_synth_1", "type": "reasoning", "summary": []}},
           {"type": "response.output_item.done", "sequence_number": next(seq), "output_index": 0,
            "item": {"id": "rs_synth_1", "type": "reasoning", "summary": []}}]
    items = [(1, "fc_synth_a", "call_synth_a", "get_weather", json.dumps({"location": "Lyon", "unit": "celsius"})),
             (2, "fc_synth_b", "call_synth_b", "get_stock_price", json.dumps({"ticker": "AAPL", "exchange": "NASDAQ"}))]
    done_items = []
    for (oi, fid, cid, name, args) in items:
        evs.append({"type": "response.output_item.added", "sequence_number": next(seq), "output_index": oi,
                    "item": {"id": fid, "type": "function_call", "status": "in_progress", "arguments": "",
                             "call_id": cid, "name": name}})
        for p in pieces(args, [6, 2, 9]):
            evs.append({"type": "response.function_call_arguments.delta", "sequence_number": next(seq),
                        "item_id": fid, "output_index": oi, "delta": p, "obfuscation": "xYz"})
        evs.append({"type": "response.function_call_arguments.done", "sequence_number": next(seq),
                    "item_id": fid, "output_index": oi, "arguments": args})
        item = {"id": fid, "type": "function_call", "status": "completed", "arguments": args,
                "call_id": cid, "name": name}
        done_items.append(item)
        evs.append({"type": "response.output_item.done", "sequence_number": next(seq), "output_index": oi,
                    "item": item})
    done = dict(resp, status="completed", output=done_items)
    evs.append({"type": "response.completed", "sequence_number": next(seq), "response": done})
    return sse(evs)


write("openai-responses-two-function-calls.sse", responses_two_calls())


def chat_chunk(delta, finish=None, choices=True):
    c = {"id": "chatcmpl-synth", "object": "chat.completion.chunk", "created": 1760000000,
         "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_synth"}
    c["choices"] = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}] if choices else []
    return c


# 3. OpenAI Chat: an error chunk in the middle of a call.
args = '{"path": "notes/todo.md", "content": "- buy milk\\n- call'
evs = [chat_chunk({"role": "assistant", "content": None, "refusal": None}),
       chat_chunk({"tool_calls": [{"index": 0, "id": "call_synth_err", "type": "function",
                                   "function": {"name": "write_file", "arguments": ""}}]})]
evs += [chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces(args, [7, 5])]
evs.append({"error": {"message": "The server had an error while processing your request.",
                      "type": "server_error", "param": None, "code": None}})
write("openai-chat-error-mid-call.sse", sse(evs, named=False))

# 4. OpenAI Chat: a tool with no arguments (empty argument text, as some
#    compatible servers send it; OpenAI itself sends "{}").
evs = [chat_chunk({"role": "assistant", "content": None}),
       chat_chunk({"tool_calls": [{"index": 0, "id": "call_synth_noargs", "type": "function",
                                   "function": {"name": "get_current_time", "arguments": ""}}]}),
       chat_chunk({}, finish="tool_calls"),
       chat_chunk(None, choices=False) | {"usage": {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49}}]
write("openai-chat-no-argument-tool.sse", sse(evs, named=False, done=True))

# 5. Anthropic: arguments with \uXXXX escapes (a BMP character and a
#    surrogate pair), and a max_tokens stop that cuts inside the escape of the
#    surrogate pair. tests/vendor_synthetic.rs re-cuts these arguments at
#    every offset.
ESCAPED = '{"text": "caf\\u00e9 \\ud83d\\ude00 ok"}'
evs = [message_start("msg_synth_escapes"), tool_start(0, "toolu_synth_esc", "echo"),
       delta(0, ""), delta(0, ESCAPED), {"type": "content_block_stop", "index": 0},
       {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 20}},
       {"type": "message_stop"}]
write("anthropic-unicode-escapes.sse", sse(evs))
cut = ESCAPED.index("\\ude00") + 4  # "...\ud83d\ude0" then the stream stops
evs = [message_start("msg_synth_cut"), tool_start(0, "toolu_synth_cut", "echo"),
       delta(0, ""), delta(0, ESCAPED[:cut]),
       {"type": "message_delta", "delta": {"stop_reason": "max_tokens", "stop_sequence": None},
        "usage": {"output_tokens": 16}},
       {"type": "message_stop"}]
write("anthropic-cut-inside-unicode-escape.sse", sse(evs))

# The demo: a parallel call (write_file with a long string argument, and
# run_command), interleaved, in small deltas, as `tooljson` replays it.
content = "".join(
    f"## Step {i}\n\nRun `cargo test --release` and check that \"all {i * 7} tests\" pass.\n"
    f"Notes: caf\u00e9 \u2014 r\u00e9sum\u00e9, \u2603, tab\there.\n\n" for i in range(1, 13))
write_args = json.dumps({"path": "docs/PLAN.md", "content": content, "overwrite": True})
run_args = json.dumps({"command": "cargo test --release", "cwd": ".", "timeout_s": 300})
write("demo-parallel-write.sse", anthropic_parallel(
    "msg_demo_parallel",
    [(1, "toolu_demo_write", "write_file", write_args, [9, 4, 13, 6, 11]),
     (2, "toolu_demo_run", "run_command", run_args, [3, 5])],
    "I'll write the plan and run the tests at the same time."))
tools = {"tools": [
    {"name": "write_file", "description": "Write a file",
     "input_schema": {"type": "object", "properties": {
         "path": {"type": "string"}, "content": {"type": "string"}, "overwrite": {"type": "boolean"}},
         "required": ["path", "content"], "additionalProperties": False}},
    {"name": "run_command", "description": "Run a shell command",
     "input_schema": {"type": "object", "properties": {
         "command": {"type": "string"}, "cwd": {"type": "string"},
         "timeout_s": {"type": "integer", "minimum": 1, "maximum": 3600}},
         "required": ["command"]}}],
    "tool_choice": {"type": "any"}}
write("demo-tools.json", json.dumps(tools, indent=2) + "\n")
