"""Writes the final message of every recorded Gemini and Bedrock transcript
in ../shared/testdata/vendor-streams/{gemini,bedrock}, accumulated by the
rules of that folder's SPEC.md (sections 4 and 5), one JSON file per
transcript beside this script. Neither provider's SDK accumulates a stream
(google-genai and boto3 hand out the chunks), so the rules are read from the
spec, not run from an SDK; this script never uses tooljson. The Rust test
tests/providers_messages.rs compares `ToolCallStream::final_messages_json`
with them.

Run: python3 corpus/transcripts/expected/spec_accumulate.py ../shared/testdata/vendor-streams

Gemini (one object per candidate, as `candidates[i]` of the unstreamed
response, with the response's `usageMetadata` beside it):
  * each SSE event is a whole GenerateContentResponse; text parts are deltas:
    consecutive text parts of one kind (thought or not) join; a
    `thoughtSignature` stays on its part (on an empty text part it goes to
    the text part before; a second signature begins a new part);
  * a `functionCall` with a name starts a call (its part in order); `args`
    is the whole object; `partialArgs` set values by `jsonPath`, string
    pieces appended; a part without `willContinue`, or `finishReason`, ends
    the call; parts without a name belong to the open call (by `id` when
    given);
  * `finishReason`: the first one; `usageMetadata`: the last with counts.
Bedrock (the Converse response: `output.message`, `stopReason`, `usage`,
`metrics`), from the decoded `.jsonl` beside each `.eventstream`:
  * blocks by `contentBlockIndex`; a text block opens at its first delta;
    `toolUse` input is the concatenated JSON text, parsed; a `toolResult`
    block is its start with the deltas' content concatenated;
  * `stopReason` from `messageStop`; `usage` and `metrics` from `metadata`.
"""

import json
import os
import re
import sys


def sse_data(path):
    text = open(path, encoding="utf-8").read()
    out, data = [], []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line == "":
            if data:
                out.append("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" ") if line[5:6] == " " else line[5:])
    if data:
        out.append("\n".join(data))
    return out


def path_segments(path):
    assert path.startswith("$"), path
    return [
        (m.group(1) if m.group(1) is not None else int(m.group(2)))
        for m in re.finditer(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]", path[1:])
    ]


def set_path(root, segs, value, append):
    node = root
    for i, seg in enumerate(segs):
        last = i == len(segs) - 1
        nxt = None if last else ([] if isinstance(segs[i + 1], int) else {})
        if isinstance(seg, int):
            while len(node) <= seg:
                node.append(None)
            if last:
                node[seg] = (node[seg] or "") + value if append else value
            else:
                if node[seg] is None:
                    node[seg] = nxt
                node = node[seg]
        else:
            if last:
                node[seg] = node.get(seg, "") + value if append else value
            else:
                node = node.setdefault(seg, nxt)


def gemini(path):
    candidates = {}
    usage = None
    for data in sse_data(path):
        chunk = json.loads(data)
        u = chunk.get("usageMetadata")
        if isinstance(u, dict) and any(k.endswith("TokenCount") for k in u):
            usage = u
        for i, cand in enumerate(chunk.get("candidates") or []):
            at = cand.get("index", i)
            c = candidates.setdefault(at, {"parts": [], "open": None, "finish": None})
            for part in (cand.get("content") or {}).get("parts") or []:
                sig = part.get("thoughtSignature")
                fc = part.get("functionCall")
                if fc is None:
                    text = part.get("text", "")
                    thought = part.get("thought") is True
                    last = c["parts"][-1] if c["parts"] else None
                    if (
                        last is not None
                        and "text" in last
                        and (last.get("thought", False) == thought or text == "")
                        and not ("thoughtSignature" in last and sig is not None)
                    ):
                        last["text"] += text
                        if sig is not None:
                            last["thoughtSignature"] = sig
                        continue
                    if text == "" and sig is None:
                        continue
                    p = {"text": text}
                    if thought:
                        p["thought"] = True
                    if sig is not None:
                        p["thoughtSignature"] = sig
                    c["parts"].append(p)
                    continue
                if "name" in fc:
                    call = {"name": fc["name"]}
                    if "id" in fc:
                        call["id"] = fc["id"]
                    p = {"functionCall": call}
                    c["parts"].append(p)
                    c["open"] = p
                    call["args"] = {}
                elif c["open"] is None:
                    continue
                p = c["open"]
                if sig is not None:
                    p.setdefault("thoughtSignature", sig)
                if "args" in fc:
                    p["functionCall"]["args"] = fc["args"]
                for arg in fc.get("partialArgs") or []:
                    segs = path_segments(arg["jsonPath"])
                    if "stringValue" in arg:
                        set_path(p["functionCall"]["args"], segs, arg["stringValue"], True)
                    elif "numberValue" in arg:
                        set_path(p["functionCall"]["args"], segs, arg["numberValue"], False)
                    elif "boolValue" in arg:
                        set_path(p["functionCall"]["args"], segs, arg["boolValue"], False)
                    elif "nullValue" in arg:
                        set_path(p["functionCall"]["args"], segs, None, False)
                if fc.get("willContinue") is not True:
                    c["open"] = None
            if cand.get("finishReason") is not None:
                c["open"] = None
                if c["finish"] is None:
                    c["finish"] = cand["finishReason"]
    out = []
    for at in sorted(candidates):
        c = candidates[at]
        m = {
            "index": at,
            "content": {"role": "model", "parts": c["parts"]},
            "finishReason": c["finish"],
        }
        if usage is not None:
            m["usageMetadata"] = usage
        out.append(m)
    return out


def bedrock(jsonl_path):
    role, blocks, stop, usage, metrics = None, {}, None, None, None
    for line in open(jsonl_path, encoding="utf-8"):
        if not line.strip():
            continue
        frame = json.loads(line)
        kind, p = frame["event-type"], frame["payload"]
        if kind == "messageStart":
            role = p.get("role")
        elif kind == "contentBlockStart":
            i, start = p["contentBlockIndex"], p["start"]
            if "toolUse" in start:
                blocks[i] = {"toolUse": dict(start["toolUse"]), "_input": ""}
            elif "toolResult" in start:
                blocks[i] = {"toolResult": dict(start["toolResult"], content=[])}
        elif kind == "contentBlockDelta":
            i, d = p["contentBlockIndex"], p["delta"]
            if "text" in d:
                blocks.setdefault(i, {"text": ""})["text"] += d["text"]
            if "toolUse" in d:
                blocks[i]["_input"] += d["toolUse"].get("input", "")
            if "toolResult" in d:
                blocks[i]["toolResult"]["content"].extend(d["toolResult"])
            if "reasoningContent" in d:
                r = blocks.setdefault(i, {"reasoningContent": {"reasoningText": {"text": ""}}})
                rt = r["reasoningContent"]["reasoningText"]
                rt["text"] += d["reasoningContent"].get("text", "")
                if "signature" in d["reasoningContent"]:
                    rt["signature"] = d["reasoningContent"]["signature"]
        elif kind == "messageStop":
            stop = p.get("stopReason")
        elif kind == "metadata":
            usage, metrics = p.get("usage"), p.get("metrics")
    content = []
    for i in sorted(blocks):
        b = blocks[i]
        if "_input" in b:
            b["toolUse"]["input"] = json.loads(b.pop("_input") or "{}")
        content.append(b)
    out = {"output": {"message": {"role": role or "assistant", "content": content}}, "stopReason": stop}
    if usage is not None:
        out["usage"] = usage
    if metrics is not None:
        out["metrics"] = metrics
    return [out]


def main(root):
    here = os.path.dirname(os.path.abspath(__file__))
    for provider, ext, accumulate in [("gemini", ".sse", gemini), ("bedrock", ".eventstream", None)]:
        src = os.path.join(root, provider)
        dst = os.path.join(here, provider)
        os.makedirs(dst, exist_ok=True)
        for name in sorted(os.listdir(src)):
            if not name.endswith(ext):
                continue
            if provider == "bedrock":
                messages = bedrock(os.path.join(src, name[: -len(ext)] + ".jsonl"))
            else:
                messages = accumulate(os.path.join(src, name))
            with open(os.path.join(dst, name + ".json"), "w", encoding="utf-8") as f:
                json.dump({"messages": messages}, f, indent=1, sort_keys=True, ensure_ascii=False)
                f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
