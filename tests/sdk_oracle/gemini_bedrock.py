"""The Gemini and Bedrock Converse oracles: what tooljson writes for these
two providers, checked against the providers' own SDK types.

- Gemini: the `google-genai` package's pydantic types, which forbid unknown
  members (`extra="forbid"`). The REST body is proto3 JSON: camelCase names
  (the types' aliases) and base64 for bytes (`thoughtSignature`,
  `inlineData.data`), so each part is validated from JSON text
  (`model_validate_json`), which is how the types read the wire.
  `GenerateContentRequest` has no SDK type of its own: its members are
  checked one by one (`contents`: `list[Content]`, `systemInstruction`:
  `Content`, `tools`: `list[Tool]`, `toolConfig`: `ToolConfig`,
  `generationConfig`: `GenerationConfig`, `safetySettings`:
  `list[SafetySetting]`), and a member outside the REST reference's list is
  refused.
- Bedrock: botocore's `ParamValidator` against the `bedrock-runtime` service
  model's `Converse` input shape. In JSON a blob (`image.source.bytes`,
  `document.source.bytes`) is base64 text; the boto3 JSON protocol decodes
  nothing itself but encodes bytes to base64 on the way out, so the text is
  base64-decoded (strictly) into the bytes the validator expects. The model
  id travels in the URL (`/model/{modelId}/converse`); a body without
  `modelId` is checked with a stand-in one.

Checked with google-genai 3.6.1 (pydantic 2.14.4) and botocore 1.44.18.
That botocore's service model does not know `usage.serverToolUsage`, which
Bedrock sends with server-side tools (a recorded Nova stream has it): such a
response, as the provider sent it, is refused until botocore learns it.

Each `check_*` returns None or raises `OracleRefusal` with a readable
message. `python tests/sdk_oracle/gemini_bedrock.py --self-test` shows that
each check accepts a good body and refuses known-bad ones;
`python tests/sdk_oracle/gemini_bedrock.py DIR` checks every
`gemini__*.json` and `bedrock__*.json` file in DIR (as
`tests/protocol_gemini_bedrock_model.rs` writes them with
`TOOLJSON_ORACLE_DIR=DIR`).
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "OracleRefusal",
    "check_gemini_request",
    "check_gemini_response",
    "check_bedrock_request",
    "check_bedrock_response",
]


class OracleRefusal(ValueError):
    """A body the provider's SDK types refuse."""


# --------------------------------------------------------------------------
# Gemini

# The members of a `generateContent` request body (REST reference,
# `GenerateContentRequest`; `labels` is Vertex AI's).
_GEMINI_REQUEST_MEMBERS = {
    "model",
    "contents",
    "systemInstruction",
    "tools",
    "toolConfig",
    "generationConfig",
    "safetySettings",
    "cachedContent",
    "labels",
}


def _gemini_types():
    from google.genai import types
    from pydantic import TypeAdapter

    return types, TypeAdapter


def _validate(what: str, adapter_or_model: Any, value: Any) -> None:
    text = json.dumps(value)
    try:
        if hasattr(adapter_or_model, "model_validate_json"):
            adapter_or_model.model_validate_json(text)
        else:
            adapter_or_model.validate_json(text)
    except Exception as e:  # pydantic.ValidationError and JSON errors
        raise OracleRefusal(f"google-genai refuses {what}: {e}") from None


def check_gemini_request(body: dict) -> None:
    """Checks a Gemini `generateContent` request body against google-genai."""
    types, TypeAdapter = _gemini_types()
    if not isinstance(body, dict):
        raise OracleRefusal(f"a Gemini request is an object, not {type(body).__name__}")
    unknown = sorted(set(body) - _GEMINI_REQUEST_MEMBERS)
    if unknown:
        raise OracleRefusal(f"Gemini request: unknown member(s) {unknown}")
    if "contents" not in body:
        raise OracleRefusal("Gemini request: `contents` is required")
    _validate("contents", TypeAdapter(list[types.Content]), body["contents"])
    if "systemInstruction" in body:
        _validate("systemInstruction", types.Content, body["systemInstruction"])
    if "tools" in body:
        _validate("tools", TypeAdapter(list[types.Tool]), body["tools"])
    if "toolConfig" in body:
        _validate("toolConfig", types.ToolConfig, body["toolConfig"])
    if "generationConfig" in body:
        _validate("generationConfig", types.GenerationConfig, body["generationConfig"])
    if "safetySettings" in body:
        _validate("safetySettings", TypeAdapter(list[types.SafetySetting]), body["safetySettings"])
    for k in ("model", "cachedContent"):
        if k in body and not isinstance(body[k], str):
            raise OracleRefusal(f"Gemini request: `{k}` is a string")
    for i, c in enumerate(body["contents"]):
        role = c.get("role")
        if role not in (None, "user", "model", "function"):
            raise OracleRefusal(f"Gemini request: contents[{i}] has role {role!r}")
        # The types leave `name` optional; the API matches calls and
        # responses by it.
        for j, p in enumerate(c.get("parts", [])):
            for key in ("functionCall", "functionResponse"):
                if key in p and not p[key].get("name"):
                    raise OracleRefusal(f"Gemini request: contents[{i}].parts[{j}].{key} has no name")
    _check_gemini_calls_answered(body["contents"])


def _check_gemini_calls_answered(contents: list) -> None:
    """Each model turn's calls are answered, one response a call, in the
    next content (by id when the calls have ids)."""
    for i, c in enumerate(contents):
        if c.get("role") != "model":
            continue
        calls = [p["functionCall"] for p in c.get("parts", []) if "functionCall" in p]
        if not calls or i + 1 >= len(contents):
            continue
        nxt = contents[i + 1]
        answers = [p["functionResponse"] for p in nxt.get("parts", []) if "functionResponse" in p]
        if len(answers) != len(calls):
            raise OracleRefusal(
                f"Gemini request: contents[{i}] makes {len(calls)} call(s), "
                f"contents[{i + 1}] answers {len(answers)}"
            )
        ids = [x.get("id") for x in calls]
        if all(ids) and sorted(ids) != sorted(a.get("id") for a in answers):
            raise OracleRefusal(f"Gemini request: contents[{i + 1}] answers other call ids than {ids}")


def check_gemini_response(body: dict) -> None:
    """Checks a Gemini `GenerateContentResponse` body against google-genai."""
    types, _ = _gemini_types()
    _validate("the response", types.GenerateContentResponse, body)


# --------------------------------------------------------------------------
# Bedrock

_STAND_IN_MODEL_ID = "model-id-in-the-url"


def _converse_shapes():
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    op = model.operation_model("Converse")
    return op.input_shape, op.output_shape


def _blobs_decoded(value: Any, shape: Any, at: str) -> Any:
    """The JSON value with each blob's base64 text decoded to bytes, as the
    JSON protocol carries it."""
    kind = shape.type_name
    if kind == "blob" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError) as e:
            raise OracleRefusal(f"Bedrock: {at} is not base64 ({e})") from None
    if kind == "structure" and isinstance(value, dict):
        if shape.metadata.get("document"):
            return value
        return {
            k: _blobs_decoded(v, shape.members[k], f"{at}.{k}") if k in shape.members else v
            for k, v in value.items()
        }
    if kind == "list" and isinstance(value, list):
        return [_blobs_decoded(v, shape.member, f"{at}[{i}]") for i, v in enumerate(value)]
    if kind == "map" and isinstance(value, dict):
        return {k: _blobs_decoded(v, shape.value, f"{at}.{k}") for k, v in value.items()}
    return value


def _validate_shape(what: str, params: dict, shape: Any, ignore_required: bool = False) -> None:
    from botocore.validate import ParamValidator

    report = ParamValidator().validate(params, shape)
    if not report.has_errors():
        return
    # `ValidationErrors` keeps its list private; `generate_report` is its
    # public face, one line an error.
    if ignore_required:
        report._errors = [e for e in report._errors if e[0] != "missing required field"]
        if not report.has_errors():
            return
    raise OracleRefusal(f"botocore refuses {what}:\n" + report.generate_report())


def check_bedrock_request(body: dict) -> None:
    """Checks a Bedrock Converse request body against botocore's
    `Converse` input shape."""
    if not isinstance(body, dict):
        raise OracleRefusal(f"a Converse request is an object, not {type(body).__name__}")
    input_shape, _ = _converse_shapes()
    params = dict(body)
    params.setdefault("modelId", _STAND_IN_MODEL_ID)
    params = _blobs_decoded(params, input_shape, "request")
    _validate_shape("the Converse request", params, input_shape)
    _check_bedrock_calls_answered(body.get("messages", []))


def _check_bedrock_calls_answered(messages: list) -> None:
    """Each assistant turn's toolUse blocks are answered, one toolResult
    each, in the next message."""
    for i, m in enumerate(messages):
        if m.get("role") != "assistant":
            continue
        ids = [b["toolUse"].get("toolUseId") for b in m.get("content", []) if "toolUse" in b]
        if not ids or i + 1 >= len(messages):
            continue
        answers = [
            b["toolResult"].get("toolUseId")
            for b in messages[i + 1].get("content", [])
            if "toolResult" in b
        ]
        if sorted(ids) != sorted(answers):
            raise OracleRefusal(
                f"Converse request: messages[{i}] calls {ids}, messages[{i + 1}] answers {answers}"
            )


def check_bedrock_response(body: dict) -> None:
    """Checks a Bedrock `ConverseResponse` body against botocore's `Converse`
    output shape: member names, types and enums. botocore parses a response
    rather than validating it, so a member the shape marks required but the
    body lacks (`metrics` of a response converted from another provider) is
    not a refusal."""
    if not isinstance(body, dict):
        raise OracleRefusal(f"a ConverseResponse is an object, not {type(body).__name__}")
    _, output_shape = _converse_shapes()
    params = _blobs_decoded(dict(body), output_shape, "response")
    _validate_shape("the ConverseResponse", params, output_shape, ignore_required=True)
    stop = body.get("stopReason")
    allowed = output_shape.members["stopReason"].enum
    if stop is not None and allowed and stop not in allowed:
        raise OracleRefusal(f"ConverseResponse: stopReason {stop!r} is not one of {allowed}")


# --------------------------------------------------------------------------
# Self-test and the directory check


def _refuses(check, body, why: str) -> None:
    try:
        check(body)
    except OracleRefusal:
        return
    raise AssertionError(f"{check.__name__} accepted a bad body ({why}): {json.dumps(body)[:200]}")


def self_test() -> None:
    """Each check accepts a good body and refuses known-bad ones."""
    good_g = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "w", "args": {}}, "thoughtSignature": "c2ln"}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "w", "response": {"output": "15"}}}]},
        ],
        "systemInstruction": {"parts": [{"text": "Be terse."}]},
        "tools": [{"functionDeclarations": [{"name": "w", "parametersJsonSchema": {"type": "object"}}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
        "generationConfig": {"maxOutputTokens": 10, "temperature": 0.5, "stopSequences": ["x"]},
    }
    check_gemini_request(good_g)
    _refuses(check_gemini_request, {**good_g, "max_tokens": 5}, "unknown top-level member")
    bad = json.loads(json.dumps(good_g))
    bad["contents"][0]["parts"][0]["type"] = "text"
    _refuses(check_gemini_request, bad, "unknown part member")
    bad = json.loads(json.dumps(good_g))
    bad["contents"][1]["parts"][0]["thoughtSignature"] = "<Signature A>"
    _refuses(check_gemini_request, bad, "signature not base64")
    bad = json.loads(json.dumps(good_g))
    bad["generationConfig"]["max_tokens"] = 5
    _refuses(check_gemini_request, bad, "unknown generationConfig member")
    bad = json.loads(json.dumps(good_g))
    bad["contents"][2]["parts"] = [{"text": "no answer"}]
    _refuses(check_gemini_request, bad, "a call without its response")
    bad = json.loads(json.dumps(good_g))
    bad["contents"][2]["parts"][0]["functionResponse"]["name"] = ""
    _refuses(check_gemini_request, bad, "a response without the function's name")
    good_gr = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 1, "totalTokenCount": 4},
    }
    check_gemini_response(good_gr)
    _refuses(check_gemini_response, {**good_gr, "choices": []}, "an OpenAI member")

    good_b = {
        "modelId": "m",
        "messages": [
            {"role": "user", "content": [{"text": "Hi"}, {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "w", "input": {"a": 1}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"json": {"x": 1}}], "status": "error"}}]},
        ],
        "system": [{"text": "Be terse."}],
        "inferenceConfig": {"maxTokens": 10, "temperature": 0.5},
        "toolConfig": {"tools": [{"toolSpec": {"name": "w", "inputSchema": {"json": {"type": "object"}}}}], "toolChoice": {"any": {}}},
    }
    check_bedrock_request(good_b)
    no_model = dict(good_b)
    del no_model["modelId"]
    check_bedrock_request(no_model)
    _refuses(check_bedrock_request, {**good_b, "max_tokens": 5}, "unknown member")
    bad = json.loads(json.dumps(good_b))
    bad["messages"][0]["content"][1]["image"]["source"]["bytes"] = "not base64!"
    _refuses(check_bedrock_request, bad, "bytes not base64")
    bad = json.loads(json.dumps(good_b))
    del bad["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    _refuses(check_bedrock_request, bad, "toolUse without id")
    bad = json.loads(json.dumps(good_b))
    bad["inferenceConfig"]["maxTokens"] = "ten"
    _refuses(check_bedrock_request, bad, "maxTokens a string")
    bad = json.loads(json.dumps(good_b))
    bad["toolConfig"]["toolChoice"] = {"none": {}}
    _refuses(check_bedrock_request, bad, "a none choice")
    bad = json.loads(json.dumps(good_b))
    bad["messages"][2]["content"][0]["toolResult"]["toolUseId"] = "t2"
    _refuses(check_bedrock_request, bad, "a result for another call")
    good_br = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Hi"}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
        "metrics": {"latencyMs": 10},
    }
    check_bedrock_response(good_br)
    _refuses(check_bedrock_response, {**good_br, "stopReason": "STOP"}, "a Gemini stop word")
    _refuses(check_bedrock_response, {**good_br, "id": "msg_1"}, "an unknown member")
    print("self-test: every check accepts the good bodies and refuses the 15 bad ones")


def check_dir(d: Path) -> int:
    """Checks every `gemini__*` / `bedrock__*` file of d; prints the
    refusals; returns how many were refused."""
    refused = 0
    n = 0
    for f in sorted(d.glob("*.json")):
        vendor, kind = f.name.split("__")[:2]
        body = json.loads(f.read_text())
        check = {
            ("gemini", "response"): check_gemini_response,
            ("bedrock", "response"): check_bedrock_response,
            ("gemini", "request"): check_gemini_request,
            ("gemini", "conversation"): check_gemini_request,
            ("bedrock", "request"): check_bedrock_request,
            ("bedrock", "conversation"): check_bedrock_request,
        }.get((vendor, kind))
        if check is None:
            continue
        n += 1
        try:
            check(body)
        except OracleRefusal as e:
            refused += 1
            print(f"REFUSED {f.name}: {e}")
    print(f"{n} bodies checked, {refused} refused")
    return refused


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
    elif len(args) == 1:
        sys.exit(1 if check_dir(Path(args[0])) else 0)
    else:
        print(__doc__)
        sys.exit(2)
