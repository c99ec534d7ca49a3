//! Assistant turns and tool results: the documented exchanges in
//! corpus/protocol/ round trip exactly in their own vendor's JSON, cross to
//! the other vendors and back, correlate, and malformed input gives typed
//! errors. Also the retry path.

use std::path::PathBuf;

use tooljson::protocol::{
    Arguments, AssistantTurn, CallProblem, ProtocolError, ResultContent, ResultPart, StopReason,
    ToolCall, ToolDefinition, ToolOutcome, ToolResult, ToolResults, ToolSet, TurnPart, Vendor,
    correlate, parse_error_result,
};
use tooljson::{Value, json};

fn corpus(name: &str) -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/protocol")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    tooljson::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const EXCHANGES: [&str; 6] = [
    "anthropic_exchange_weather.json",
    "anthropic_exchange_parallel.json",
    "anthropic_exchange_blocks.json",
    "openai_chat_exchange_parallel.json",
    "openai_responses_exchange_parallel.json",
    "openai_responses_exchange_text.json",
];

fn exchange(name: &str) -> (Vendor, Value, Vec<Value>) {
    let f = corpus(name);
    let vendor: Vendor = f["vendor"].as_str().unwrap().parse().unwrap();
    (
        vendor,
        f["turn"].clone(),
        f["results"].as_array().unwrap().clone(),
    )
}

/// The turn in `vendor`'s full shape (a response body, a choice, a
/// response object): the JSON it was read from.
fn full(turn: &AssistantTurn, vendor: Vendor) -> Value {
    match vendor {
        Vendor::Anthropic => turn.to_anthropic(),
        Vendor::OpenAiChat => turn.to_openai_chat(),
        Vendor::OpenAiResponses => turn.to_openai_responses(),
        other => panic!("no full shape for {other:?}"),
    }
}

/// Removes members (by JSON Pointer of the parent and key) from a value.
fn without(mut v: Value, drops: &[(&str, &str)]) -> Value {
    for (parent, key) in drops {
        if let Some(o) = v.pointer_mut(parent).and_then(Value::as_object_mut) {
            o.remove(key);
        }
    }
    v
}

#[test]
fn documented_exchanges_round_trip_exactly() {
    for name in EXCHANGES {
        let (vendor, turn_json, results_json) = exchange(name);
        let turn = AssistantTurn::from_vendor(vendor, &turn_json).unwrap();
        assert_eq!(full(&turn, vendor), turn_json, "{name}: turn");
        let results = ToolResults::from_vendor(vendor, &results_json).unwrap();
        assert_eq!(
            results.to_vendor(vendor).lossless().unwrap(),
            results_json,
            "{name}: results"
        );
        turn.check_results(&results).unwrap();
        assert!(turn.calls().count() > 0, "{name}: the exchange has calls");
    }
}

#[test]
fn documented_exchanges_read_as_documented() {
    let (_, t, r) = exchange("anthropic_exchange_weather.json");
    let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &t).unwrap();
    assert_eq!(turn.stop_reason, Some(StopReason::ToolUse));
    let call = turn.calls().next().unwrap();
    assert_eq!(call.id, "toolu_01A09q90qw90lq917835lq9");
    assert_eq!(call.name, "get_weather");
    assert_eq!(
        call.arguments.value(),
        Some(&json!({"location": "San Francisco, CA", "unit": "celsius"}))
    );
    let res = ToolResults::from_vendor(Vendor::Anthropic, std::slice::from_ref(&r[0])).unwrap();
    assert_eq!(
        res.results[0].content,
        ResultContent::Text("15 degrees".into())
    );
    assert!(!res.results[0].is_error);

    let (_, t, r) = exchange("openai_chat_exchange_parallel.json");
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiChat, &t).unwrap();
    assert_eq!(turn.called_names(), ["get_weather", "get_weather"]);
    assert_eq!(turn.stop_reason, Some(StopReason::ToolUse));
    let ids: Vec<&str> = turn.calls().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["call_12345xyz", "call_67890abc"]);
    assert_eq!(
        ToolResults::from_vendor(Vendor::OpenAiChat, &r)
            .unwrap()
            .call_ids(),
        ids
    );

    let (_, t, _) = exchange("openai_responses_exchange_parallel.json");
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiResponses, &t).unwrap();
    let c = turn.calls().next().unwrap();
    assert_eq!(
        (c.id.as_str(), c.item_id.as_deref()),
        ("call_12345xyz", Some("fc_12345xyz"))
    );

    let (_, t, r) = exchange("openai_responses_exchange_text.json");
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiResponses, &t).unwrap();
    assert_eq!(
        turn.stop_reason,
        Some(StopReason::ToolUse),
        "completed + function_call"
    );
    assert!(matches!(
        &turn.parts[0],
        TurnPart::Native {
            vendor: Vendor::OpenAiResponses,
            ..
        }
    ));
    assert!(
        matches!(&turn.parts[1], TurnPart::Text(t) if t.text == "Let me look up the weather in Paris.")
    );
    let res = ToolResults::from_vendor(Vendor::OpenAiResponses, &r).unwrap();
    assert_eq!(
        res.results[0].content,
        ResultContent::Parts(vec![ResultPart::Text("14°C, light rain".into())])
    );
}

#[test]
fn anthropic_to_openai_to_anthropic_gives_the_original() {
    for name in [
        "anthropic_exchange_parallel.json",
        "anthropic_exchange_blocks.json",
        "anthropic_exchange_weather.json",
    ] {
        let (_, t, r) = exchange(name);
        // The message envelope members (id, type, model, usage,
        // stop_sequence) are Anthropic-only: documented to stay behind.
        let expected = without(
            t.clone(),
            &[
                ("", "id"),
                ("", "type"),
                ("", "model"),
                ("", "usage"),
                ("", "stop_sequence"),
            ],
        );
        let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &t).unwrap();
        let results =
            ToolResults::from_vendor(Vendor::Anthropic, std::slice::from_ref(&r[0])).unwrap();
        for other in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
            let there = full(&turn, other);
            let back = AssistantTurn::from_vendor(other, &there).unwrap();
            assert_eq!(back.to_anthropic(), expected, "{name} via {other}");
            let converted = results.to_vendor(other);
            // An image in a tool result has no place in a Chat tool message.
            let image_in_results =
                r[0].pointer("/content/0/content/1/type") == Some(&json!("image"));
            if other == Vendor::OpenAiChat && image_in_results {
                assert_eq!(converted.losses()[0].part, "image", "{name}");
                assert_eq!(converted.losses()[0].at, "/content/0/content/1", "{name}");
                continue;
            }
            let there = converted.lossless().unwrap();
            assert_eq!(there.len(), results.results.len(), "one message per result");
            let back = ToolResults::from_vendor(other, &there).unwrap();
            assert_eq!(
                back.to_vendor(Vendor::Anthropic).lossless().unwrap(),
                r,
                "{name} via {other}"
            );
        }
    }
}

#[test]
fn anthropic_parallel_in_openai_shapes() {
    let (_, t, r) = exchange("anthropic_exchange_parallel.json");
    let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &t).unwrap();
    assert_eq!(
        turn.to_openai_chat(),
        json!({
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "I'll check the weather and the time in San Francisco.",
                "tool_calls": [
                    {"id": "toolu_01", "type": "function",
                     "function": {"name": "get_weather", "arguments": "{\"location\":\"San Francisco, CA\"}"}},
                    {"id": "toolu_02", "type": "function",
                     "function": {"name": "get_time", "arguments": "{\"timezone\":\"America/Los_Angeles\"}"}}
                ]
            },
            "finish_reason": "tool_calls"
        })
    );
    assert_eq!(
        turn.to_openai_responses(),
        json!({
            "status": "completed",
            "output": [
                {"type": "message", "role": "assistant", "content": [
                    {"type": "output_text", "text": "I'll check the weather and the time in San Francisco.", "annotations": []}
                ]},
                {"type": "function_call", "call_id": "toolu_01", "name": "get_weather",
                 "arguments": "{\"location\":\"San Francisco, CA\"}"},
                {"type": "function_call", "call_id": "toolu_02", "name": "get_time",
                 "arguments": "{\"timezone\":\"America/Los_Angeles\"}"}
            ]
        })
    );
    let results = ToolResults::from_vendor(Vendor::Anthropic, std::slice::from_ref(&r[0])).unwrap();
    assert_eq!(
        results.to_vendor(Vendor::OpenAiChat).lossless().unwrap(),
        vec![
            json!({"role": "tool", "tool_call_id": "toolu_01", "content": "San Francisco: 68°F, partly cloudy"}),
            json!({"role": "tool", "tool_call_id": "toolu_02",
                   "content": "Error: Not executed: the preceding get_weather call failed."}),
        ]
    );
    assert_eq!(
        results
            .to_vendor(Vendor::OpenAiResponses)
            .lossless()
            .unwrap()[1],
        json!({"type": "function_call_output", "call_id": "toolu_02",
               "output": "Error: Not executed: the preceding get_weather call failed."})
    );
}

#[test]
fn openai_origin_crosses_and_comes_back() {
    let (_, t, r) = exchange("openai_chat_exchange_parallel.json");
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiChat, &t).unwrap();
    // refusal / annotations / logprobs are Chat-only members.
    let expected = without(
        t.clone(),
        &[
            ("/message", "refusal"),
            ("/message", "annotations"),
            ("", "logprobs"),
        ],
    );
    let results = ToolResults::from_vendor(Vendor::OpenAiChat, &r).unwrap();
    for other in [Vendor::Anthropic, Vendor::OpenAiResponses] {
        let back = AssistantTurn::from_vendor(other, &full(&turn, other)).unwrap();
        assert_eq!(back.to_openai_chat(), expected, "via {other}");
        let back =
            ToolResults::from_vendor(other, &results.to_vendor(other).lossless().unwrap()).unwrap();
        assert_eq!(
            back.to_vendor(Vendor::OpenAiChat).lossless().unwrap(),
            r,
            "via {other}"
        );
    }
    // Responses: the item ids (fc_...) and status are Responses-only.
    let (_, t, r) = exchange("openai_responses_exchange_parallel.json");
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiResponses, &t).unwrap();
    let expected = without(
        t.clone(),
        &[
            ("/0", "id"),
            ("/0", "status"),
            ("/1", "id"),
            ("/1", "status"),
        ],
    );
    for other in [Vendor::Anthropic, Vendor::OpenAiChat] {
        let mut back = AssistantTurn::from_vendor(other, &full(&turn, other)).unwrap();
        // Read from a bare item list, the turn has no stop reason; the
        // other vendors' shapes then carry none either.
        assert_eq!(back.stop_reason, None);
        back.stop_reason = None;
        assert_eq!(back.to_openai_responses(), expected, "via {other}");
        let results = ToolResults::from_vendor(Vendor::OpenAiResponses, &r).unwrap();
        let back =
            ToolResults::from_vendor(other, &results.to_vendor(other).lossless().unwrap()).unwrap();
        assert_eq!(
            back.to_vendor(Vendor::OpenAiResponses).lossless().unwrap(),
            r,
            "via {other}"
        );
    }
}

#[test]
fn arguments_keep_their_text_and_invalid_text_is_wrapped() {
    // Non-compact argument text is kept exactly for OpenAI.
    let chat = json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{ \"b\": 1,  \"a\": 2.50 }"}},
        {"id": "call_2", "type": "function", "function": {"name": "f", "arguments": "{\"a\": \"unterminated"}},
        {"id": "call_3", "type": "function", "function": {"name": "g", "arguments": ""}}
    ]});
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiChat, &chat).unwrap();
    assert_eq!(turn.to_openai_chat(), chat);
    let calls: Vec<&ToolCall> = turn.calls().collect();
    // The value keeps the members' order and each number's text.
    let value = calls[0].arguments.value().unwrap();
    assert_eq!(value.to_string(), r#"{"b":1,"a":2.50}"#);
    assert!(!calls[1].arguments.is_valid());
    assert!(calls[1].arguments.parse_error().unwrap().is_truncated());
    assert_eq!(
        calls[2].arguments.value(),
        Some(&json!({})),
        "empty text is {{}}"
    );
    // To Anthropic: objects as input; the invalid text in the documented wrapper.
    let a = turn.to_anthropic();
    assert_eq!(a["content"][0]["input"].to_string(), r#"{"b":1,"a":2.50}"#);
    assert_eq!(
        a["content"][1]["input"],
        json!({"INVALID_JSON": "{\"a\": \"unterminated"})
    );
    assert_eq!(a["content"][2]["input"], json!({}));
    // Through Anthropic the values survive (the text is re-written compactly).
    let back = AssistantTurn::from_vendor(Vendor::Anthropic, &a).unwrap();
    let b: Vec<&ToolCall> = back.calls().collect();
    assert_eq!(b[0].arguments.value(), calls[0].arguments.value());
    // Keys keep the order the model wrote them in.
    assert_eq!(b[0].arguments.text(), r#"{"b":1,"a":2.50}"#);
    // Documented normalisation: empty text (no parameters) is `{}` in
    // Anthropic and comes back as "{}".
    assert_eq!(b[2].arguments.text(), "{}");
    // The invalid text comes back raw from the INVALID_JSON wrapper.
    assert_eq!(
        b[1].arguments,
        Arguments::Invalid("{\"a\": \"unterminated".into())
    );
    assert_eq!(
        back.to_openai_chat()["tool_calls"][1],
        chat["tool_calls"][1]
    );
}

#[test]
fn malformed_turns_and_results_are_typed_errors() {
    let e = AssistantTurn::from_vendor(
        Vendor::Anthropic,
        &json!({"role": "assistant", "content": [
            {"type": "tool_use", "name": "x", "input": {}}
        ]}),
    )
    .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::MissingField { at, field: "id" } if at == "/content/0"),
        "{e:?}"
    );
    let e = AssistantTurn::from_vendor(Vendor::Anthropic, &json!({"role": "user", "content": []}))
        .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::UnknownShape { at, .. } if at == "/role"),
        "{e:?}"
    );
    let e =
        AssistantTurn::from_vendor(Vendor::Anthropic, &json!({"role": "assistant"})).unwrap_err();
    assert!(matches!(
        e,
        ProtocolError::MissingField {
            field: "content",
            ..
        }
    ));
    let e = AssistantTurn::from_vendor(
        Vendor::OpenAiChat,
        &json!({"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "x", "arguments": {"a": 1}}}
        ]}),
    )
    .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::WrongType { at, expected: "a string", .. } if at == "/tool_calls/0/function/arguments"),
        "{e:?}"
    );
    let e = AssistantTurn::from_vendor(
        Vendor::OpenAiResponses,
        &json!([{"type": "function_call", "name": "x", "arguments": "{}"}]),
    )
    .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::MissingField { at, field: "call_id" } if at == "/0"),
        "{e:?}"
    );
    assert!(AssistantTurn::from_vendor(Vendor::OpenAiResponses, &json!("x")).is_err());
    let e = ToolResults::from_vendor(
        Vendor::Anthropic,
        std::slice::from_ref(&json!({"role": "user", "content": [
            {"type": "tool_result", "content": "x"}
        ]})),
    )
    .unwrap_err();
    assert!(matches!(
        e,
        ProtocolError::MissingField {
            field: "tool_use_id",
            ..
        }
    ));
    let e = ToolResults::from_vendor(
        Vendor::Anthropic,
        std::slice::from_ref(&json!({"role": "user", "content": [
            {"type": "text", "text": "here you go"},
            {"type": "tool_result", "tool_use_id": "t", "content": "x"}
        ]})),
    )
    .unwrap_err();
    assert!(
        matches!(e, ProtocolError::UnknownShape { .. }),
        "results come first"
    );
    let e = ToolResults::from_vendor(
        Vendor::OpenAiChat,
        &[json!({"role": "user", "content": "x"})],
    )
    .unwrap_err();
    assert!(matches!(e, ProtocolError::UnknownShape { .. }));
    let e = ToolResults::from_vendor(Vendor::Anthropic, &[]).unwrap_err();
    assert!(matches!(e, ProtocolError::UnknownShape { .. }));
    let e = ToolResult::from_vendor(
        Vendor::Anthropic,
        &json!({"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}),
    )
    .unwrap_err();
    assert!(matches!(
        e,
        ProtocolError::WrongType {
            expected: "a boolean",
            ..
        }
    ));
}

fn two_call_turn() -> AssistantTurn {
    AssistantTurn::new(
        vec![
            TurnPart::Call(ToolCall::new(
                "toolu_01",
                "get_weather",
                Arguments::from_value(json!({"location": "Paris"})),
            )),
            TurnPart::Call(ToolCall::new(
                "toolu_02",
                "get_time",
                Arguments::from_value(json!({"timezone": "UTC"})),
            )),
        ],
        Some(StopReason::ToolUse),
    )
}

#[test]
fn correlation_reports_missing_unknown_and_duplicate() {
    let turn = two_call_turn();
    let e = turn
        .reply([("toolu_02".to_string(), ToolOutcome::text("12:00"))])
        .unwrap_err();
    assert_eq!(e.missing, ["toolu_01"]);
    assert!(e.unknown.is_empty() && e.duplicate_results.is_empty());
    assert_eq!(e.to_string(), "no result for call(s) [\"toolu_01\"]");
    let e = turn
        .reply([
            ("toolu_01".to_string(), ToolOutcome::text("sunny")),
            ("toolu_02".to_string(), ToolOutcome::text("12:00")),
            ("toolu_02".to_string(), ToolOutcome::text("12:01")),
            ("toolu_99".to_string(), ToolOutcome::text("?")),
        ])
        .unwrap_err();
    assert_eq!(
        (
            e.missing.len(),
            e.unknown.as_slice(),
            e.duplicate_results.as_slice()
        ),
        (
            0,
            &["toolu_99".to_string()][..],
            &["toolu_02".to_string()][..]
        )
    );
    // A turn that repeats an id.
    assert_eq!(
        correlate(&["a", "a"], &["a"]).unwrap_err().duplicate_calls,
        ["a"]
    );
    // The reply is in call order whatever the order of outcomes.
    let reply = turn
        .reply([
            ("toolu_02".to_string(), ToolOutcome::text("12:00")),
            (
                "toolu_01".to_string(),
                Err::<String, String>("timeout".into()).into(),
            ),
        ])
        .unwrap();
    assert_eq!(reply.call_ids(), ["toolu_01", "toolu_02"]);
    assert!(reply.results[0].is_error && !reply.results[1].is_error);
    turn.check_results(&reply).unwrap();
    // Filling: the missing call gets an error result; the unknown id is dropped.
    let (reply, report) = turn.reply_filling(
        [
            ("toolu_99".to_string(), ToolOutcome::text("?")),
            ("toolu_02".to_string(), ToolOutcome::text("12:00")),
        ],
        |call| ToolOutcome::error(format!("Not executed: {} was skipped.", call.name)),
    );
    let report = report.unwrap();
    assert_eq!(
        (report.missing.as_slice(), report.unknown.as_slice()),
        (&["toolu_01".to_string()][..], &["toolu_99".to_string()][..])
    );
    assert_eq!(reply.call_ids(), ["toolu_01", "toolu_02"]);
    assert_eq!(
        reply.to_vendor(Vendor::Anthropic).lossless().unwrap()[0]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "Not executed: get_weather was skipped.", "is_error": true})
    );
}

#[test]
fn retry_results_say_path_expected_found() {
    let set = ToolSet::new([
        ToolDefinition::new("get_weather", None, json!({"type": "object"})).unwrap(),
    ])
    .unwrap();
    // Invalid JSON.
    let raw = r#"{"location": "Paris" "unit": "celsius"}"#;
    let call = ToolCall::new("call_1", "get_weather", Arguments::from_text(raw));
    let problem = set.check_call(&call).unwrap_err();
    assert!(matches!(problem, CallProblem::InvalidJson { .. }));
    let result = set.retry_result(&call).unwrap();
    assert!(result.is_error);
    assert_eq!(result.call_id, "call_1");
    let text = result.content.text();
    assert_eq!(
        text,
        "The tool input is not valid JSON, so the tool was not run.\n\
         problem: expected ',' or '}', found '\"' at line 1 column 22 (byte 21)\n\
         path: /location\n\
         expected: ',' or '}'\n\
         found: '\"'\n\
         input received: {\"INVALID_JSON\":\"{\\\"location\\\": \\\"Paris\\\" \\\"unit\\\": \\\"celsius\\\"}\"}\n\
         Call the tool again with the whole input as one valid JSON object."
    );
    // Truncated (max_tokens in the middle of a string).
    let raw = r#"{"location": "San Fr"#;
    let err = tooljson::from_str(raw).unwrap_err();
    let result = parse_error_result("toolu_9", raw, &err);
    let text = result.content.text();
    assert!(
        text.starts_with("The tool input is incomplete JSON"),
        "{text}"
    );
    assert!(text.contains("path: /location\n"), "{text}");
    assert!(text.contains("expected: the rest of a string"), "{text}");
    assert!(text.contains("found: the end of the input"), "{text}");
    // Unknown tool.
    let call = ToolCall::new("call_2", "rm_rf", Arguments::from_text("{}"));
    let result = set.retry_result(&call).unwrap();
    assert_eq!(
        result.content.text(),
        "There is no tool named \"rm_rf\", so nothing was run. Available tools: get_weather. \
         Call one of them by its exact name."
    );
    // Schema violations, with every path, expected and found.
    let set = ToolSet::from_request_json(&corpus("anthropic_request_weather.json")).unwrap();
    let call = ToolCall::new(
        "toolu_3",
        "get_weather",
        Arguments::from_text(r#"{"unit": "kelvin", "location": ["SF"]}"#),
    );
    let CallProblem::SchemaViolations { violations, tool } = set.check_call(&call).unwrap_err()
    else {
        panic!("expected schema violations")
    };
    assert_eq!(tool, "get_weather");
    assert_eq!(violations.len(), 2);
    let result = set.retry_result(&call).unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.content.text(),
        "The tool input does not match the input schema of get_weather, so the tool was not run.\n\
         - path /unit: expected one of \"celsius\", \"fahrenheit\", found \"kelvin\"\n\
         - path /location: expected string, found an array of 1 item\n\
         Call the tool again with input that matches the schema."
    );
    assert_eq!(
        result.to_vendor(Vendor::Anthropic).accept_losses().0["is_error"],
        json!(true)
    );
    let call = ToolCall::new(
        "toolu_4",
        "get_weather",
        Arguments::from_text(r#"{"location": "SF", "unit": "celsius"}"#),
    );
    assert!(set.check_call(&call).is_ok());
    // A number beyond f64.
    let call = ToolCall::new(
        "toolu_5",
        "get_weather",
        Arguments::from_text(r#"{"location": 1e400}"#),
    );
    assert!(matches!(
        set.check_call(&call),
        Err(CallProblem::NumberOutOfRange { .. })
    ));
    let set = ToolSet::new([
        ToolDefinition::new("get_weather", None, json!({"type": "object"})).unwrap(),
    ])
    .unwrap();
    // A good call has no retry.
    let call = ToolCall::new(
        "call_3",
        "get_weather",
        Arguments::from_text(r#"{"location":"Paris"}"#),
    );
    assert!(set.retry_result(&call).is_none());
    // Long input is echoed cut at a character boundary.
    let raw = format!("{{\"a\": \"{}", "é".repeat(5000));
    let err = tooljson::from_str(&raw).unwrap_err();
    let text = parse_error_result("x", &raw, &err).content.text();
    assert!(
        text.contains(&format!("of {} bytes)", raw.len())),
        "{}",
        &text[text.len() - 200..]
    );
}

#[test]
fn error_flag_crosses_openai_by_prefix() {
    let r = ToolResult::new(
        "c1",
        ToolOutcome::Error(ResultContent::Parts(vec![ResultPart::Native {
            vendor: Vendor::Anthropic,
            part: json!({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}),
        }])),
    );
    // Through Responses (which takes images in outputs) the flag and the
    // image cross; Chat tool messages take no image: reported, not sent.
    let responses = r.to_vendor(Vendor::OpenAiResponses).lossless().unwrap();
    assert_eq!(
        responses["output"][0],
        json!({"type": "input_text", "text": "Error: "})
    );
    let back = ToolResult::from_vendor(Vendor::OpenAiResponses, &responses).unwrap();
    assert_eq!(
        back.to_vendor(Vendor::Anthropic).accept_losses().0,
        r.to_vendor(Vendor::Anthropic).accept_losses().0
    );
    let chat = r.to_vendor(Vendor::OpenAiChat);
    assert_eq!(chat.losses().len(), 1);
    assert_eq!(chat.losses()[0].part, "image");
    // A non-error OpenAI result that starts with the prefix reads as an error
    // (the convention), and writes back the same text.
    let m = json!({"role": "tool", "tool_call_id": "c", "content": "Error: disk full"});
    let r = ToolResult::from_vendor(Vendor::OpenAiChat, &m).unwrap();
    assert!(r.is_error);
    assert_eq!(r.content, ResultContent::Text("disk full".into()));
    assert_eq!(r.to_vendor(Vendor::OpenAiChat).accept_losses().0, m);
}
