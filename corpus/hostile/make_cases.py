#!/usr/bin/env python3
"""Writes the hostile schema cases of issue 32 (and the bounded ones beside
them) into corpus/hostile/cases/: for each case NAME, NAME.schema.json and
NAME.json (the instance). Large, so generated rather than kept in git.
Usage: python3 corpus/hostile/make_cases.py   (then corpus/hostile/measure.sh)
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
os.makedirs(OUT, exist_ok=True)


def write(name, schema, instance_text):
    with open(os.path.join(OUT, name + ".schema.json"), "w") as f:
        f.write(schema if isinstance(schema, str) else json.dumps(schema))
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        f.write(instance_text)


def doubling(applicator, levels, extra=None):
    defs = {"d0": {"type": "string"}}
    for i in range(1, levels + 1):
        d = {applicator: [{"$ref": f"#/$defs/d{i-1}"}, {"$ref": f"#/$defs/d{i-1}"}]}
        d.update(extra or {})
        defs[f"d{i}"] = d
    return {"$defs": defs, "allOf": [{"$ref": f"#/$defs/d{levels}"}]}


# 1. uniqueItems on distinct integers.
for n in (30_000, 100_000):
    write(f"1-unique-{n}", {"uniqueItems": True}, "[" + ", ".join(map(str, range(n))) + "]")

# 3. In-place fan-out: each definition applies the one before twice, 30 levels.
for app in ("allOf", "anyOf", "oneOf"):
    write(f"3-fanout-{app}", doubling(app, 30), '"text"')
write("3-fanout-unevaluated", doubling("allOf", 30, {"unevaluatedProperties": False}), "{}")
# 3. Across instance levels: one definition applied twice at every level,
# 100 levels deep, failing at the bottom (every alternative is tried).
for app in ("allOf", "anyOf"):
    write(
        f"3-levels-{app}",
        {
            "$defs": {
                "n": {app: [{"$ref": "#/$defs/t"}, {"$ref": "#/$defs/t"}]},
                "t": {"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}},
            },
            "$ref": "#/$defs/n",
        },
        '{"a": ' * 100 + "1" + "}" * 100,
    )

# 4. const / enum on a long string (the stream check sees it in pieces).
for mib in (1, 2):
    s = "ab" * (mib << 19)
    write(f"4-const-{mib}MiB", {"const": s}, json.dumps(s))

# 5. multipleOf with a 4,001-digit divisor on 20 huge numbers.
divisor = "7" + "3" * 4000
numbers = [f"{i % 9 + 1}{'9' * 4000}e900000000" for i in range(20)]
write("5-multipleOf", '{"items": {"multipleOf": %s}}' % divisor, "[" + ",".join(numbers) + "]")

# 6. format "regex" (asserted) on long patterns.
write("6-regex-10MB", {"format": "regex"}, json.dumps("a" * 10_000_000))
write("6-regex-4MB", {"format": "regex"}, json.dumps("(ab|c)[x-z]\\d+" * 300_000))

# Bounded before: catastrophic patterns, a large enum, many patternProperties,
# a $dynamicRef loop.
write("b-pattern-nested", {"pattern": "^(a+)+$"}, json.dumps("a" * 100_000 + "b"))
write("b-pattern-lookahead", {"pattern": "^((?=a)a+)+$"}, json.dumps("a" * 10_000 + "b"))
write("b-enum-100000", {"enum": [f"option-{i}" for i in range(100_000)]}, '"option-x"')
write(
    "b-patternProperties-5000",
    {"patternProperties": {f"^k{i}_[a-z]+$": {"type": "integer"} for i in range(5000)}},
    json.dumps({f"k{i}_x": i for i in range(0, 5000, 7)}),
)
write(
    "b-dynamicRef-loop",
    {
        "$id": "http://example.com/root",
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"next": {"$dynamicRef": "#node"}},
    },
    '{"next": ' * 100 + "{}" + "}" * 100,
)

# 2. A 15 MiB string nested 120 deep in a tool call's arguments (an object
# and 119 arrays), closed by one 121-byte delta: an Anthropic SSE stream for
# `tooljson replay` (no schema; measured by measure.sh's replay rows).
def sse(kind, data):
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def delta(text):
    return sse(
        "content_block_delta",
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "input_json_delta", "partial_json": text}},
    )


DEPTH = 120
with open(os.path.join(OUT, "2-deep-string.sse"), "w") as f:
    f.write(sse("message_start", {"type": "message_start", "message": {
        "id": "msg_hostile", "type": "message", "role": "assistant", "model": "m",
        "content": [], "stop_reason": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}))
    f.write(sse("content_block_start", {"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_hostile", "name": "f", "input": {}}}))
    f.write(delta('{"a":' + "[" * (DEPTH - 1) + '"' + "x" * (15 << 20)))
    f.write(delta('"' + "]" * (DEPTH - 1) + "}"))
    f.write(sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
    f.write(sse("message_delta", {"type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None}, "usage": {"output_tokens": 9}}))
    f.write(sse("message_stop", {"type": "message_stop"}))
print(f"cases written to {OUT}")
