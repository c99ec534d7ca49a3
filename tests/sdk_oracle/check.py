"""Validates what tooljson writes against the providers' official SDK types.

Reads the cases that `protocol-cases` wrote (one directed conversion a line:
the source request, what was written for the target, and that read back and
written for the source again) and checks every body with the SDK of its
vendor:

* Anthropic: `anthropic.types.MessageCreateParamsNonStreaming`;
* OpenAI Chat: `openai.types.chat.CompletionCreateParamsNonStreaming`;
* OpenAI Responses: `openai.types.responses.ResponseCreateParamsNonStreaming`;
* Gemini and Bedrock: `gemini_bedrock.check_gemini_request` /
  `check_bedrock_request` (google-genai types with unknown members
  forbidden; botocore's ParamValidator on the bedrock-runtime Converse
  input), from `gemini_bedrock.py` beside this file.

The TypedDicts are validated by pydantic `TypeAdapter` in strict mode. Pydantic
validates an `Iterable[X]` field lazily (it hands back an iterator that checks
each item only when iterated), so every such iterator in the result is drained
here, recursively: an item the SDK refuses is a refusal. `--self-test` feeds
known-bad bodies and fails unless each is refused.

Prints, per directed pair: conversations, lossless and clean (no loss, comes
back with the same meaning, every body accepted), lossy and reported, bodies
refused by an SDK, texts dropped, and failed conversions (a vendor whose
requests are not written or not validated). Exits non-zero on any refusal,
dropped text, lossless-but-different round trip or failed conversion.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import pydantic
from pydantic_core import ValidationError

VENDORS = ["anthropic", "openai-chat", "openai-responses", "gemini", "bedrock"]


def _drain(v):
    """Forces every lazy iterator pydantic left in a validated value."""
    if isinstance(v, dict):
        return {k: _drain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_drain(x) for x in v]
    if isinstance(v, (str, bytes, int, float, bool)) or v is None:
        return v
    if hasattr(v, "__next__") or type(v).__name__ == "ValidatorIterator":
        return [_drain(x) for x in v]
    return v


def _adapter_check(non_streaming, streaming):
    """The check of one TypedDict pair: `stream: true` bodies are streaming
    params."""
    adapters = (pydantic.TypeAdapter(non_streaming), pydantic.TypeAdapter(streaming))

    def check(body):
        streamed = isinstance(body, dict) and body.get("stream") is True
        _drain(adapters[1 if streamed else 0].validate_python(body, strict=True))

    return check


def load_checks():
    """The check of each vendor's request bodies; a vendor without one maps
    to the reason it is not validated."""
    from anthropic.types import message_create_params as anthropic_params
    from anthropic.types.beta import message_create_params as anthropic_beta_params
    from openai.types.chat import completion_create_params as chat_params
    from openai.types.responses import response_create_params as responses_params

    ga = _adapter_check(
        anthropic_params.MessageCreateParamsNonStreaming,
        anthropic_params.MessageCreateParamsStreaming,
    )
    beta = _adapter_check(
        anthropic_beta_params.MessageCreateParamsNonStreaming,
        anthropic_beta_params.MessageCreateParamsStreaming,
    )

    def anthropic(body):
        # A body with beta blocks (`mcp_tool_use`...) goes to the beta
        # endpoint: either type set may take it.
        try:
            ga(body)
        except ValidationError:
            beta(body)

    checks = {
        "anthropic": anthropic,
        "openai-chat": _adapter_check(
            chat_params.CompletionCreateParamsNonStreaming,
            chat_params.CompletionCreateParamsStreaming,
        ),
        "openai-responses": _adapter_check(
            responses_params.ResponseCreateParamsNonStreaming,
            responses_params.ResponseCreateParamsStreaming,
        ),
    }
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import gemini_bedrock  # written with the Gemini and Bedrock models

        checks["gemini"] = gemini_bedrock.check_gemini_request
        checks["bedrock"] = gemini_bedrock.check_bedrock_request
    except ImportError as e:
        reason = f"tests/sdk_oracle/gemini_bedrock.py is missing ({e})"
        checks["gemini"] = reason
        checks["bedrock"] = reason
    return checks


def refusal(checks, vendor, body):
    """None when the SDK takes `body`, else why not."""
    check = checks[vendor]
    if isinstance(check, str):
        return f"not validated: {check}"
    try:
        check(body)
        return None
    except (ValidationError, ValueError, TypeError, KeyError) as e:
        return f"{type(e).__name__}: {str(e)[:600]}"
    except Exception as e:  # a botocore ParamValidationError and the like
        return f"{type(e).__name__}: {str(e)[:600]}"


BAD = {
    # An item of `messages` (an Iterable) that is no message: pydantic
    # accepts it unless the iterator is drained.
    "anthropic": {
        "model": "m",
        "max_tokens": 1,
        "messages": [{"role": "user", "content": [{"type": "text"}]}],
    },
    "openai-chat": {"model": "m", "messages": [{"role": "tool", "content": "x"}]},
    # The output message item without `id` and `status` that the SDK refuses
    # (how assistant text was written before), and a tool without `strict`.
    "openai-responses": {
        "model": "m",
        "input": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "hi", "annotations": []}],
            }
        ],
    },
}
BAD_TOOL = {
    "model": "m",
    "input": "hi",
    "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}],
}
GOOD = {
    "anthropic": {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "hi"}]},
    "openai-chat": {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
    "openai-responses": {
        "model": "m",
        "input": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
        "tools": [{"type": "function", "name": "f", "parameters": None, "strict": False}],
    },
}


def self_test(checks):
    """Each check refuses a known-bad body and takes a good one."""
    failed = []
    for vendor, body in list(BAD.items()) + [("openai-responses", BAD_TOOL)]:
        if refusal(checks, vendor, body) is None:
            failed.append(f"{vendor}: a known-bad body was accepted: {json.dumps(body)}")
    for vendor, body in GOOD.items():
        why = refusal(checks, vendor, body)
        if why is not None:
            failed.append(f"{vendor}: a good body was refused: {why}")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="?", help="cases.jsonl written by protocol-cases")
    ap.add_argument(
        "--only",
        default=",".join(VENDORS),
        help="comma-separated vendors whose pairs are checked "
        "(anthropic, chat, responses, gemini, bedrock); default all five",
    )
    ap.add_argument("--self-test", action="store_true", help="only the self-test")
    ap.add_argument("--show", type=int, default=5, help="failures shown per kind")
    args = ap.parse_args()

    alias = {"chat": "openai-chat", "responses": "openai-responses"}
    only = [alias.get(v.strip(), v.strip()) for v in args.only.split(",") if v.strip()]
    for v in only:
        if v not in VENDORS:
            ap.error(f"unknown vendor {v!r}")

    checks = load_checks()
    for v in only:
        if isinstance(checks[v], str):
            print(f"{v}: outputs NOT validated: {checks[v]}; its pairs fail")
    failed = self_test(checks)
    if failed:
        print("self-test FAILED: the oracle cannot tell a bad body", *failed, sep="\n")
        return 1
    print("self-test: each SDK check refuses the known-bad bodies and takes the good ones")
    if args.self_test:
        return 0
    if not args.cases:
        ap.error("the cases file is required")

    cols = ["conversations", "lossless clean", "lossy reported", "refused by SDK",
            "texts dropped", "failed", "source refused"]
    counts = collections.OrderedDict()
    for a in VENDORS:
        for b in VENDORS:
            if a != b and a in only and b in only:
                counts[(a, b)] = collections.Counter()
    shown = collections.Counter()
    problems = 0

    def show(kind, text):
        nonlocal problems
        problems += 1
        if shown[kind] < args.show:
            print(f"  [{kind}] {text}")
        shown[kind] += 1

    with open(args.cases) as f:
        for line in f:
            c = json.loads(line)
            pair = (c["from"], c["to"])
            if pair not in counts:
                continue
            n = counts[pair]
            n["conversations"] += 1
            what = f'{c["conversation"]} {c["from"]} -> {c["to"]}'
            if c["error"]:
                n["failed"] += 1
                show("failed", f"{what}: {c['error'][:300]}")
                continue
            # A source the SDK refuses (an API reference example without a
            # member the SDK types require) is counted apart: the crate is
            # judged on what it writes.
            why = refusal(checks, c["from"], c["source"])
            if why is not None:
                n["source refused"] += 1
                if shown["source refused"] < args.show:
                    print(f"  [source refused, not counted as ours] {what}: {why[:300]}")
                shown["source refused"] += 1
            refused = []
            bodies = [(c["to"], c["forward"], "written")]
            # A way back that says a required member is missing (`set it and
            # convert again`) is not a body to send.
            if not any("missing but required" in l for l in c["back_losses"]):
                bodies.append((c["from"], c["back"], "back"))
            for vendor, body, role in bodies:
                why = refusal(checks, vendor, body)
                if why is not None:
                    refused.append(f"{role} ({vendor}): {why}")
            if refused:
                n["refused by SDK"] += 1
                show("refused", f"{what}: " + " | ".join(refused))
            if c["texts_dropped"]:
                n["texts dropped"] += 1
                show("text dropped", f"{what}: {c['texts_dropped'][:3]}")
            if c["losses"]:
                n["lossy reported"] += 1
            elif not c["round_trip_equal"]:
                show("differs", f"{what}: no loss reported, yet it comes back different")
            elif not refused and not c["texts_dropped"]:
                n["lossless clean"] += 1

    width = max(len(f"{a} -> {b}") for a, b in counts) if counts else 10
    print()
    print(f'{"pair":<{width}}  ' + "  ".join(cols))
    total = collections.Counter()
    for (a, b), n in counts.items():
        total.update(n)
        print(f"{a + ' -> ' + b:<{width}}  " + "  ".join(f"{n[k]:>{len(k)}}" for k in cols))
    print(f'{"all":<{width}}  ' + "  ".join(f"{total[k]:>{len(k)}}" for k in cols))
    for (a, b), n in counts.items():
        if n["conversations"] == 0:
            print(f"no conversations for {a} -> {b}")
            problems += 1
    if problems:
        print(f"\nFAILED: {problems} problem(s) (see above)")
        return 1
    print("\nOK: every written body accepted by its SDK; no text dropped; every loss reported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
