"""ToolSet, calls, results and conversions; what is written for a provider
is validated by that provider's own SDK types (anthropic, openai)."""

import pytest

from tooljson import (
    AssistantTurn,
    ChoiceError,
    CorrelationError,
    LossError,
    ProtocolError,
    Request,
    ToolCall,
    ToolResult,
    ToolResults,
    ToolSet,
    TruncatedError,
)

WEATHER = {
    "tools": [
        {
            "name": "get_weather",
            "description": "Get the current weather",
            "input_schema": {
                "type": "object",
                "properties": {"location": {"type": "string"}},
                "required": ["location"],
            },
        }
    ],
    "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
}

TURN = {
    "role": "assistant",
    "content": [
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"location": 7}},
    ],
    "stop_reason": "tool_use",
}


def test_a_call_that_breaks_its_schema_gets_a_retry_result_naming_the_path():
    tools = ToolSet(WEATHER)
    assert tools.names == ["get_weather"] and len(tools) == 1 and "get_weather" in tools
    assert tools.parallel_tool_calls is False
    call = ToolCall("toolu_01", "get_weather", '{"location": 7}')
    problem = tools.check_call(call)
    assert problem.kind == "schema_violations"
    assert [str(v) for v in problem.violations] == ["/location: expected string, found number 7"]
    retry = tools.retry_result(call)
    assert retry.is_error and retry.call_id == "toolu_01"
    assert "- path /location: expected string, found number 7" in retry.text
    assert tools.check_call(ToolCall("t", "get_weather", {"location": "Paris"})) is None
    assert tools.check_call(ToolCall("t", "nope", {})).kind == "unknown_tool"


def test_cut_arguments_are_a_truncated_error_never_run():
    tools = ToolSet(WEATHER)
    call = ToolCall("toolu_01", "get_weather", '{"location": "Par')
    assert not call.is_valid and call.arguments is None
    assert isinstance(call.parse_error, TruncatedError)
    problem = tools.check_call(call)
    assert problem.kind == "invalid_json" and isinstance(problem.error, TruncatedError)


def test_tool_choice_is_checked():
    tools = ToolSet(WEATHER)
    tools.check_choice(["get_weather"])
    with pytest.raises(ChoiceError):
        tools.check_choice([])
    with pytest.raises(ChoiceError):
        tools.check_choice(["get_weather", "get_weather"])


def test_a_turn_and_its_reply_cross_to_openai_chat_as_the_sdk_reads_them():
    from openai.types.chat import ChatCompletionMessage, ChatCompletionToolMessageParam

    turn = AssistantTurn.from_vendor("anthropic", TURN)
    assert turn.called_names == ["get_weather"] and turn.stop_reason == "tool_use"
    assert turn.text == "Let me check."
    chat = turn.to_vendor("openai-chat").lossless()
    message = ChatCompletionMessage.model_validate(chat)
    assert message.tool_calls[0].id == "toolu_01"
    assert message.tool_calls[0].function.arguments == '{"location":7}'
    assert message.content == "Let me check."

    reply = turn.reply([ToolResult("toolu_01", "bad location", is_error=True)])
    messages = reply.to_vendor("openai-chat").lossless()
    assert messages[0]["role"] == "tool" and messages[0]["tool_call_id"] == "toolu_01"
    assert messages[0]["content"].startswith("Error: ")
    assert set(messages[0]) <= set(ChatCompletionToolMessageParam.__annotations__)
    back = ToolResults.from_vendor("openai-chat", messages)
    assert back.call_ids == ["toolu_01"] and back.results[0].is_error

    with pytest.raises(CorrelationError):
        turn.reply([ToolResult("toolu_99", "x")])


def test_anthropic_output_validates_against_the_anthropic_sdk():
    from anthropic.types import Message, ToolResultBlockParam

    chat_choice = {
        "index": 0,
        "finish_reason": "tool_calls",
        "message": {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "get_weather", "arguments": '{"location": "Paris"}'}}
            ],
        },
    }
    turn = AssistantTurn.from_vendor("openai-chat", chat_choice)
    msg = turn.to_vendor("anthropic").lossless()
    full = {"id": "msg_1", "type": "message", "model": "m", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}, **msg}
    parsed = Message.model_validate(full)
    assert parsed.content[0].type == "tool_use" and parsed.content[0].input == {"location": "Paris"}
    result = ToolResult("call_1", "15 degrees").to_vendor("anthropic").lossless()
    assert result["type"] == "tool_result" and set(result) <= set(ToolResultBlockParam.__annotations__)


def test_a_loss_is_never_silent():
    result = ToolResult.from_vendor("anthropic", {
        "type": "tool_result", "tool_use_id": "toolu_1",
        "content": [{"type": "text", "text": "the chart:"},
                    {"type": "image", "source": {"type": "url", "url": "https://example.com/c.png"}}],
    })
    converted = result.to_vendor("openai-chat")
    assert not converted.is_lossless
    with pytest.raises(LossError) as e:
        converted.lossless()
    assert e.value.losses[0].part == "image" and e.value.losses[0].effect == "dropped"
    value, losses = converted.accept_losses()
    assert value == {"role": "tool", "tool_call_id": "toolu_1",
                     "content": [{"type": "text", "text": "the chart:"}]}
    assert str(losses[0]).startswith("image at /content/1 dropped")


def test_a_request_converts_with_its_tools_and_reports_what_it_cannot_carry():
    body = {"model": "claude-x", "max_tokens": 100, **WEATHER,
            "messages": [{"role": "user", "content": "Weather in Paris?"}]}
    req = Request.from_vendor("anthropic", body)
    assert req.model == "claude-x" and req.source == "anthropic" and req.message_count == 1
    assert req.tools.names == ["get_weather"]
    chat = req.to_vendor("openai-chat")
    value, losses = chat.accept_losses()
    assert value["tools"][0]["function"]["name"] == "get_weather"
    assert value["parallel_tool_calls"] is False
    back = Request.from_vendor("openai-chat", value).to_vendor("anthropic")
    assert [l.part for l in back.losses] == ["max_tokens"] or back.is_lossless


def test_bad_shapes_are_protocol_errors_and_bad_values_type_errors():
    with pytest.raises(ProtocolError):
        ToolSet({"tools": [{"description": "no name"}]})
    with pytest.raises(ValueError):
        ToolSet(WEATHER).to_request("nobody")
    with pytest.raises(TypeError):
        ToolCall("t", "n", {"a": object()})
    deep = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError):
        ToolCall("t", "n", {"a": deep})
    cyclic = {}
    cyclic["self"] = cyclic
    with pytest.raises(ValueError):
        ToolCall("t", "n", cyclic)
