//! The synthetic transcripts in `corpus/transcripts/` (what no recording
//! covers), each fed whole, line by line and in chunks of 1, 7 and 64 bytes,
//! plus arguments cut inside `\uXXXX` escapes at every offset.

use serde_json::{Value as J, json};
use tooljson::partial::PartialNode;
use tooljson::protocol::ChoiceViolation;
use tooljson::providers::{
    CallEvent, CallKey, CallKind, CallStatus, StopReason, StreamError, ToolCallStream, Vendor,
};

fn corpus(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/transcripts")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Replays `bytes` at every chunking; all must give the same events. Returns
/// the stream and its events.
fn replay_all(bytes: &[u8]) -> (ToolCallStream, Vec<CallEvent>) {
    let mut first: Option<(ToolCallStream, Vec<CallEvent>)> = None;
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    let chunkings: Vec<Vec<&[u8]>> = vec![
        vec![bytes],
        lines,
        bytes.chunks(1).collect(),
        bytes.chunks(7).collect(),
        bytes.chunks(64).collect(),
    ];
    for pieces in chunkings {
        let mut s = ToolCallStream::new();
        let mut events = Vec::new();
        for p in pieces {
            // A fatal error is part of the outcome; stop feeding then.
            if s.feed(p).is_err() {
                break;
            }
            events.extend(s.drain_events());
        }
        if s.fatal_error().is_none() {
            match s.finish() {
                Ok(()) => {}
                // A provider's error event: the stop reason says the same.
                Err(StreamError::Provider { kind, message }) => {
                    assert_eq!(s.stop_reason(), Some(&StopReason::Error { kind, message }))
                }
                Err(e) => panic!("{e}"),
            }
        }
        events.extend(s.drain_events());
        match &first {
            None => first = Some((s, events)),
            Some((_, e)) => assert_eq!(&events, e, "events depend on the chunking"),
        }
    }
    first.unwrap()
}

fn value_json(s: &ToolCallStream, i: usize) -> serde_json::Value {
    s.calls()[i].value().unwrap().to_serde_json().unwrap()
}

#[test]
fn anthropic_parallel_interleaved_blocks() {
    let (s, events) = replay_all(&corpus("anthropic-parallel-interleaved.sse"));
    assert_eq!(s.vendor(), Some(Vendor::Anthropic));
    assert_eq!(s.calls().len(), 2);
    assert_eq!(s.calls()[0].key(), CallKey::Block(1));
    assert_eq!(s.calls()[1].key(), CallKey::Block(2));
    assert_eq!(
        value_json(&s, 0),
        json!({"city": "Paris", "unit": "celsius", "days": [1, 2, 3]})
    );
    assert_eq!(
        value_json(&s, 1),
        json!({"timezone": "Europe/Paris", "format": "24h"})
    );
    assert!(
        s.calls()
            .iter()
            .all(|c| c.status() == CallStatus::Complete && c.is_executable())
    );
    assert_eq!(s.stop_reason(), Some(&StopReason::ToolUse));
    // The deltas really interleave: the appended texts alternate calls.
    let order: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            CallEvent::ArgumentsAppended { call, .. } => Some(*call),
            _ => None,
        })
        .collect();
    assert!(
        order.windows(2).filter(|w| w[0] != w[1]).count() >= 6,
        "{order:?}"
    );
    // Stops came in reverse order: call 1 finished first.
    let finished: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            CallEvent::CallFinished { call, .. } => Some(*call),
            _ => None,
        })
        .collect();
    assert_eq!(finished, [1, 0]);
}

#[test]
fn responses_two_function_calls() {
    let (s, _) = replay_all(&corpus("openai-responses-two-function-calls.sse"));
    assert_eq!(s.vendor(), Some(Vendor::OpenAiResponses));
    let keys: Vec<CallKey> = s.calls().iter().map(|c| c.key()).collect();
    assert_eq!(keys, [CallKey::Output(1), CallKey::Output(2)]);
    assert_eq!(s.calls()[0].id(), Some("call_synth_a"));
    assert_eq!(s.calls()[0].item_id(), Some("fc_synth_a"));
    assert_eq!(s.calls()[1].name(), Some("get_stock_price"));
    assert_eq!(
        value_json(&s, 0),
        json!({"location": "Lyon", "unit": "celsius"})
    );
    assert_eq!(
        value_json(&s, 1),
        json!({"ticker": "AAPL", "exchange": "NASDAQ"})
    );
    assert!(s.calls().iter().all(|c| c.errors().is_empty()));
    assert_eq!(s.stop_reason(), Some(&StopReason::ToolUse));
}

#[test]
fn openai_chat_error_mid_call_aborts() {
    let (s, events) = replay_all(&corpus("openai-chat-error-mid-call.sse"));
    assert_eq!(s.vendor(), Some(Vendor::OpenAiChat));
    assert_eq!(s.calls().len(), 1);
    let c = &s.calls()[0];
    assert_eq!(c.status(), CallStatus::Aborted);
    assert!(c.value().is_none());
    assert!(!events.iter().any(|e| matches!(
        e,
        CallEvent::CallFinished {
            status: CallStatus::Complete,
            ..
        }
    )));
    assert_eq!(
        c.arguments_text(),
        r#"{"path": "notes/todo.md", "content": "- buy milk\n- call"#
    );
    // The best-effort partial value has what had arrived.
    let partial = c.partial().unwrap();
    assert_eq!(partial.get("path").unwrap().as_str(), Some("notes/todo.md"));
    assert_eq!(
        partial.get("content").unwrap().as_str(),
        Some("- buy milk\n- call")
    );
    match s.stop_reason() {
        Some(StopReason::Error { kind, message }) => {
            assert_eq!(kind, "server_error");
            assert!(message.contains("server had an error"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_argument_tool_is_an_empty_object() {
    let (s, _) = replay_all(&corpus("openai-chat-no-argument-tool.sse"));
    assert_eq!(s.calls().len(), 1);
    assert_eq!(s.calls()[0].status(), CallStatus::Complete);
    assert_eq!(s.calls()[0].name(), Some("get_current_time"));
    assert_eq!(value_json(&s, 0), json!({}));
    assert_eq!(s.stop_reason(), Some(&StopReason::ToolUse));
}

#[test]
fn unicode_escapes_whole() {
    let (s, _) = replay_all(&corpus("anthropic-unicode-escapes.sse"));
    assert_eq!(value_json(&s, 0), json!({"text": "caf\u{e9} \u{1F600} ok"}));
}

#[test]
fn cut_inside_a_surrogate_escape_is_truncated() {
    let (s, _) = replay_all(&corpus("anthropic-cut-inside-unicode-escape.sse"));
    let c = &s.calls()[0];
    assert_eq!(c.status(), CallStatus::Truncated);
    assert_eq!(s.stop_reason(), Some(&StopReason::MaxTokens));
    // The high surrogate waits for its low half: never shown alone.
    assert_eq!(
        c.partial().unwrap().get("text").unwrap().as_str(),
        Some("caf\u{e9} ")
    );
}

const ESCAPED: &str = r#"{"text": "caf\u00e9 \ud83d\ude00 ok"}"#;

/// An Anthropic transcript whose tool input arrives as `deltas`, ending
/// with `stop` (`tool_use` closes the block first; `max_tokens` does not).
fn transcript(deltas: &[&str], stop: &str) -> Vec<u8> {
    let mut evs = vec![
        json!({"type":"message_start","message":{"id":"msg_x","content":[]}}),
        json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_x","name":"echo","input":{}}}),
    ];
    for d in deltas {
        evs.push(json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":d}}));
    }
    if stop != "max_tokens" {
        evs.push(json!({"type":"content_block_stop","index":0}));
    }
    evs.push(json!({"type":"message_delta","delta":{"stop_reason":stop}}));
    evs.push(json!({"type":"message_stop"}));
    let mut out = String::new();
    for e in evs {
        out.push_str(&format!(
            "event: {}\ndata: {}\n\n",
            e["type"].as_str().unwrap(),
            e
        ));
    }
    out.into_bytes()
}

#[test]
fn escape_split_at_every_offset_completes() {
    let want = json!({"text": "caf\u{e9} \u{1F600} ok"});
    for i in 0..=ESCAPED.len() {
        for j in i..=ESCAPED.len() {
            let bytes = transcript(&[&ESCAPED[..i], &ESCAPED[i..j], &ESCAPED[j..]], "tool_use");
            let mut s = ToolCallStream::new();
            s.feed(&bytes).unwrap();
            s.finish().unwrap();
            let c = &s.calls()[0];
            assert_eq!(c.status(), CallStatus::Complete, "cut at {i},{j}");
            assert_eq!(
                c.value().unwrap().to_serde_json().unwrap(),
                want,
                "cut at {i},{j}"
            );
        }
    }
}

#[test]
fn arguments_cut_at_every_offset_are_truncated_never_complete() {
    let final_text = "caf\u{e9} \u{1F600} ok";
    for k in 0..ESCAPED.len() {
        let bytes = transcript(&[&ESCAPED[..k]], "max_tokens");
        for chunk in [1, 7, bytes.len()] {
            let mut s = ToolCallStream::new();
            let mut events = Vec::new();
            for p in bytes.chunks(chunk) {
                s.feed(p).unwrap();
                events.extend(s.drain_events());
                // At every point the visible text is a clean prefix.
                if let Some(PartialNode::Object(m)) = s.calls().first().and_then(|c| c.partial())
                    && let Some((_, n)) = m.first()
                {
                    let t = n.as_str().unwrap();
                    assert!(final_text.starts_with(t), "cut {k}: {t:?}");
                }
            }
            s.finish().unwrap();
            events.extend(s.drain_events());
            let c = &s.calls()[0];
            assert_eq!(c.status(), CallStatus::Truncated, "cut at {k}");
            assert!(c.value().is_none());
            assert_eq!(c.arguments_text(), &ESCAPED[..k]);
            assert!(!events.iter().any(|e| matches!(
                e,
                CallEvent::CallFinished {
                    status: CallStatus::Complete,
                    ..
                }
            )));
            assert_eq!(s.stop_reason(), Some(&StopReason::MaxTokens));
        }
    }
}

#[test]
fn server_and_mcp_calls_are_not_executable() {
    let sse = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"content\":[]}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\":\\\"x\\\"}\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );
    let mut s = ToolCallStream::new();
    s.feed(sse.as_bytes()).unwrap();
    s.finish().unwrap();
    let c = &s.calls()[0];
    assert_eq!(c.kind(), CallKind::Server);
    assert_eq!(c.status(), CallStatus::Complete);
    assert!(!c.is_executable());
}

#[test]
fn chat_compat_quirks() {
    // Index 1 first, a repeated id and name (kept, not concatenated), index
    // -1, and a new id at a used index (a new call).
    let chunk = |tc: serde_json::Value| {
        format!(
            "data: {}\n\n",
            json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[tc]}}]})
        )
    };
    let mut body = String::new();
    body += &chunk(json!({"index":1,"id":"call_a","function":{"name":"f","arguments":"{\"a\":"}}));
    body += &chunk(json!({"index":1,"id":"call_a","function":{"name":"f","arguments":"1}"}}));
    body += &chunk(json!({"index":1,"id":"call_b","function":{"name":"g","arguments":"{}"}}));
    body += &chunk(json!({"index":-1,"id":"call_c","function":{"name":"h","arguments":"[]"}}));
    body += &format!(
        "data: {}\n\ndata: [DONE]\n\n",
        json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})
    );
    let mut s = ToolCallStream::new();
    s.feed(body.as_bytes()).unwrap();
    s.finish().unwrap();
    let summary: Vec<(String, String, String, CallStatus)> = s
        .calls()
        .iter()
        .map(|c| {
            (
                c.key().to_string(),
                c.id().unwrap().to_owned(),
                c.name().unwrap().to_owned(),
                c.status(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "0/1".into(),
                "call_a".into(),
                "f".into(),
                CallStatus::Complete
            ),
            (
                "0/1".into(),
                "call_b".into(),
                "g".into(),
                CallStatus::Complete
            ),
            (
                "0/0".into(),
                "call_c".into(),
                "h".into(),
                CallStatus::Complete
            ),
        ]
    );
    assert_eq!(s.calls()[0].value().unwrap().to_string(), r#"{"a":1}"#);
}

#[test]
fn chat_length_truncates_and_eof_truncates() {
    let mk = |finish: Option<&str>| {
        let mut b = format!(
            "data: {}\n\n",
            json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\": [1, 2"}}]}}]})
        );
        if let Some(f) = finish {
            b += &format!(
                "data: {}\n\ndata: [DONE]\n\n",
                json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":f}]})
            );
        }
        b
    };
    for (finish, stop) in [
        (Some("length"), StopReason::MaxTokens),
        (None, StopReason::EndOfStream),
    ] {
        let mut s = ToolCallStream::new();
        s.feed(mk(finish).as_bytes()).unwrap();
        s.finish().unwrap();
        assert_eq!(s.calls()[0].status(), CallStatus::Truncated, "{finish:?}");
        assert_eq!(s.stop_reason(), Some(&stop));
    }
    // finish_reason "tool_calls" with the root still open: the block ended,
    // the JSON did not: invalid, never complete.
    let mut s = ToolCallStream::new();
    s.feed(mk(Some("tool_calls")).as_bytes()).unwrap();
    s.finish().unwrap();
    assert_eq!(s.calls()[0].status(), CallStatus::Invalid);
    assert!(
        s.calls()[0]
            .errors()
            .iter()
            .any(|e| e.to_string().contains("EOF while parsing"))
    );
}

#[test]
fn invalid_json_is_doomed_early() {
    let sse = concat!(
        "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"content\":[]}}\n\n",
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": tru\"}}\n\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"x}\"}}\n\n",
        "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "data: {\"type\":\"message_stop\"}\n\n",
    );
    let mut s = ToolCallStream::new();
    let mut doomed_before_stop = false;
    for line in sse.split_inclusive("\n\n") {
        s.feed(line.as_bytes()).unwrap();
        let events: Vec<CallEvent> = s.drain_events().collect();
        for e in events {
            if let CallEvent::CallDoomed { .. } = e {
                doomed_before_stop = s.calls()[0].status() == CallStatus::Streaming;
            }
        }
    }
    s.finish().unwrap();
    assert!(doomed_before_stop);
    assert_eq!(s.calls()[0].status(), CallStatus::Invalid);
    assert_eq!(s.calls()[0].arguments_text(), "{\"a\": trux}");
}

#[test]
fn schema_check_dooms_early_and_holds_enum_strings() {
    use tooljson::protocol::ToolSet;
    let tools = ToolSet::from_request_json(
        &tooljson::json!({"tools": [{"type": "function", "function": {"name": "set",
        "parameters": {"type": "object", "properties": {
            "unit": {"enum": ["celsius", "fahrenheit"]},
            "n": {"type": "integer", "maximum": 10}}}}}],
        "tool_choice": "required"}),
    )
    .unwrap();
    let chunk = |args: &str| {
        format!(
            "data: {}\n\n",
            json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"set","arguments":args}}]}}]})
        )
    };
    let mut s = ToolCallStream::new().with_tools(tools.clone());
    s.feed(chunk(r#"{"unit": "cels"#).as_bytes()).unwrap();
    // The enum string is held back until complete.
    assert_eq!(s.calls()[0].partial().unwrap().to_string(), "{}");
    s.feed(chunk(r#"ius", "n": 11, "#).as_bytes()).unwrap();
    assert_eq!(
        s.calls()[0]
            .partial()
            .unwrap()
            .get("unit")
            .unwrap()
            .as_str(),
        Some("celsius")
    );
    // n = 11 > maximum: certain before the block ends.
    let events: Vec<CallEvent> = s.drain_events().collect();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, CallEvent::CallDoomed { .. }))
    );
    assert_eq!(s.calls()[0].status(), CallStatus::Streaming);
    s.feed(chunk("\"x\": 1}").as_bytes()).unwrap();
    s.feed(format!("data: {}\n\ndata: [DONE]\n\n", json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})).as_bytes()).unwrap();
    s.finish().unwrap();
    assert_eq!(s.calls()[0].status(), CallStatus::Invalid);
    assert_eq!(
        s.calls()[0].errors().len(),
        1,
        "{:?}",
        s.calls()[0].errors()
    );
    assert!(s.calls()[0].errors()[0].to_string().starts_with("/n: "));
    assert_eq!(s.choice_error(), None);

    // tool_choice required and no call at all.
    let mut s = ToolCallStream::new().with_tools(tools);
    s.feed(format!("data: {}\n\ndata: [DONE]\n\n", json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]})).as_bytes()).unwrap();
    s.finish().unwrap();
    let choice = s.choice_error().unwrap();
    assert_eq!(choice, &ChoiceViolation::NoCall);
    assert!(choice.to_string().contains("requires a tool call"));
}

/// A repeated key in a call checked against a schema: by default the call is
/// invalid at the repeat (so the verdict is never one `validate` of a value
/// would contradict); the policy can be chosen, with its stated effect.
#[test]
fn repeated_keys_in_validated_calls() {
    use tooljson::parser::DuplicateKeys;
    use tooljson::protocol::ToolSet;
    use tooljson::providers::CallError;
    let tools = ToolSet::from_request_json(&tooljson::json!({"tools": [{"name": "set",
        "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}}}]}))
    .unwrap();
    let run = |stream: ToolCallStream, args: &str| {
        let mut s = stream;
        let sse = format!(
            "data: {}\n\ndata: {}\n\ndata: {}\n\ndata: {}\n\n",
            json!({"type":"message_start","message":{"id":"m","content":[]}}),
            json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"set","input":{}}}),
            json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":args}}),
            json!({"type":"content_block_stop","index":0}),
        );
        for piece in sse.as_bytes().chunks(5) {
            s.feed(piece).unwrap();
        }
        s.finish().unwrap();
        s
    };
    let args = r#"{"a": 1, "a": 2}"#;

    // With tools: DuplicateKeys::Error, the parser's error at the repeat.
    let s = run(ToolCallStream::new().with_tools(tools.clone()), args);
    let call = &s.calls()[0];
    assert_eq!(call.status(), CallStatus::Invalid);
    assert_eq!(call.errors().len(), 1, "{:?}", call.errors());
    let CallError::Json(e) = &call.errors()[0] else {
        panic!("expected a JSON error, got {:?}", call.errors());
    };
    assert_eq!(
        e.to_string(),
        r#"duplicate key "a" at line 1 column 12 (at /a)"#
    );
    assert_eq!(e.offset(), 11);
    assert!(call.value().is_none());

    // Without tools: the last value wins, as in serde_json.
    let s = run(ToolCallStream::new(), args);
    assert_eq!(s.calls()[0].status(), CallStatus::Complete);
    assert_eq!(s.calls()[0].value().unwrap().to_string(), r#"{"a":2}"#);

    // Chosen explicitly, with tools: first wins, and the value is checked.
    let s = run(
        ToolCallStream::new()
            .with_tools(tools.clone())
            .with_duplicate_keys(DuplicateKeys::FirstWins),
        args,
    );
    assert_eq!(s.calls()[0].status(), CallStatus::Complete);
    assert_eq!(s.calls()[0].value().unwrap().to_string(), r#"{"a":1}"#);

    // The stated cost of LastWins with a schema: every occurrence is
    // checked, so a replaced value that breaks the schema still counts.
    let s = run(
        ToolCallStream::new()
            .with_tools(tools.clone())
            .with_duplicate_keys(DuplicateKeys::LastWins),
        r#"{"a": "x", "a": 2}"#,
    );
    assert_eq!(s.calls()[0].status(), CallStatus::Invalid);
    assert_eq!(
        s.calls()[0].errors()[0].to_string(),
        "/a: expected integer, found a string"
    );
    // Under the default, that document stops at the repeat instead.
    let s = run(
        ToolCallStream::new().with_tools(tools),
        r#"{"a": "x", "a": 2}"#,
    );
    assert_eq!(s.calls()[0].status(), CallStatus::Invalid);
    assert!(
        matches!(s.calls()[0].errors().last(), Some(CallError::Json(_))),
        "{:?}",
        s.calls()[0].errors()
    );
}

/// Feeds one event per line (`event` name, data) and finishes.
fn feed_events(vendor: Vendor, events: &[(&str, serde_json::Value)]) -> ToolCallStream {
    let mut s = ToolCallStream::for_vendor(vendor);
    for (name, data) in events {
        let name = (!name.is_empty()).then_some(*name);
        s.feed_event(name, &data.to_string()).unwrap();
    }
    if !s.is_finished() {
        s.finish().unwrap();
    }
    s
}

#[test]
fn chat_reasoning_content_is_thinking_and_kept_in_the_message() {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        json!({"id": "chatcmpl-r", "object": "chat.completion.chunk", "model": "deepseek-reasoner",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut s = feed_events(
        Vendor::OpenAiChat,
        &[
            (
                "",
                chunk(
                    json!({"role": "assistant", "reasoning_content": "Think"}),
                    None,
                ),
            ),
            ("", chunk(json!({"reasoning_content": "ing."}), None)),
            ("", chunk(json!({"content": "Hi."}), Some("stop"))),
        ],
    );
    let thinking: Vec<String> = s
        .drain_events()
        .filter_map(|e| match e {
            CallEvent::ThinkingAppended {
                choice: 0, text, ..
            } => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(thinking, ["Think", "ing."]);
    let m = &s.final_messages_json()[0];
    assert_eq!(m["message"]["reasoning_content"], "Thinking.");
    assert_eq!(m["message"]["content"], "Hi.");
    // `reasoning` (OpenRouter, newer vLLM) is kept under its own name.
    let s = feed_events(
        Vendor::OpenAiChat,
        &[(
            "",
            chunk(
                json!({"role": "assistant", "reasoning": "Hmm."}),
                Some("stop"),
            ),
        )],
    );
    let m = &s.final_messages_json()[0]["message"];
    assert_eq!(m["reasoning"], "Hmm.");
    assert!(m.get("reasoning_content").is_none());
}

#[test]
fn responses_hosted_tool_items_arrive_whole() {
    let search = json!({"type": "web_search_call", "id": "ws_1", "status": "completed",
        "action": {"type": "search", "query": "rust"}});
    let computer = json!({"type": "computer_call", "id": "cu_1", "call_id": "call_c",
        "action": {"type": "click", "x": 1, "y": 2}, "status": "completed"});
    let mut s = feed_events(
        Vendor::OpenAiResponses,
        &[
            (
                "response.created",
                json!({"type": "response.created", "response": {"id": "resp_1", "model": "gpt-5"}}),
            ),
            (
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": 0,
                "item": {"type": "web_search_call", "id": "ws_1", "status": "in_progress"}}),
            ),
            (
                "response.output_item.done",
                json!({"type": "response.output_item.done", "output_index": 0, "item": search}),
            ),
            (
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": 1,
                "item": {"type": "computer_call", "id": "cu_1", "status": "in_progress"}}),
            ),
            (
                "response.output_item.done",
                json!({"type": "response.output_item.done", "output_index": 1, "item": computer}),
            ),
        ],
    );
    let whole: Vec<CallEvent> = s
        .drain_events()
        .filter(|e| {
            matches!(
                e,
                CallEvent::ServerToolResult { .. } | CallEvent::OtherContent { .. }
            )
        })
        .collect();
    assert_eq!(
        whole,
        [
            CallEvent::ServerToolResult {
                at: 0,
                block: search.clone()
            },
            CallEvent::OtherContent {
                at: 1,
                block: computer.clone()
            },
        ]
    );
    assert_eq!(s.calls().len(), 0);
    // Not completed: the output is the items as `output_item.done` gave
    // them, in the response object of `response.created`.
    assert_eq!(
        s.final_messages_json(),
        [json!({"id": "resp_1", "model": "gpt-5", "output": [search, computer]})]
    );
}

#[test]
fn anthropic_compaction_and_unknown_blocks_are_carried_through() {
    let ev = |t: &str, data: serde_json::Value| {
        let mut d = data;
        d["type"] = json!(t);
        (t.to_owned(), d)
    };
    let events = [
        ev(
            "message_start",
            json!({"message": {"id": "msg_c", "type": "message", "role": "assistant",
            "model": "claude-x", "content": [], "stop_reason": null, "usage": {"input_tokens": 9, "output_tokens": 1}}}),
        ),
        ev(
            "content_block_start",
            json!({"index": 0, "content_block": {"type": "compaction", "content": ""}}),
        ),
        ev(
            "content_block_delta",
            json!({"index": 0, "delta": {"type": "compaction_delta", "content": "Summary.", "encrypted_content": "ZW5j"}}),
        ),
        ev("content_block_stop", json!({"index": 0})),
        ev(
            "content_block_start",
            json!({"index": 1, "content_block": {"type": "future_block", "payload": {"a": 1}}}),
        ),
        ev(
            "content_block_delta",
            json!({"index": 1, "delta": {"type": "future_delta", "x": 2}}),
        ),
        ev("content_block_stop", json!({"index": 1})),
        ev(
            "content_block_start",
            json!({"index": 2, "content_block": {"type": "text", "text": ""}}),
        ),
        ev(
            "content_block_delta",
            json!({"index": 2, "delta": {"type": "text_delta", "text": "Done."}}),
        ),
        ev("content_block_stop", json!({"index": 2})),
        ev(
            "message_delta",
            json!({"delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}}),
        ),
        ev("message_stop", json!({})),
    ];
    let refs: Vec<(&str, serde_json::Value)> = events
        .iter()
        .map(|(n, d)| (n.as_str(), d.clone()))
        .collect();
    let mut s = feed_events(Vendor::Anthropic, &refs);
    let compaction =
        json!({"type": "compaction", "content": "Summary.", "encrypted_content": "ZW5j"});
    let future = json!({"type": "future_block", "payload": {"a": 1}});
    let other: Vec<CallEvent> = s
        .drain_events()
        .filter(|e| matches!(e, CallEvent::OtherContent { .. }))
        .collect();
    assert_eq!(
        other,
        [
            CallEvent::OtherContent {
                at: 0,
                block: compaction.clone()
            },
            CallEvent::OtherContent {
                at: 1,
                block: future.clone()
            },
        ]
    );
    let m = &s.final_messages_json()[0];
    assert_eq!(
        m["content"],
        json!([compaction, future, {"type": "text", "text": "Done."}])
    );
    assert_eq!(m["stop_reason"], "end_turn");
}

/// Each way events break a vendor's protocol, as its typed value and its
/// text: the text is the sentence the stream has always given, so both are
/// held here, one row per kind and vendor.
#[test]
fn protocol_violations_are_typed_and_keep_their_text() {
    use tooljson::providers::ProtocolViolation as P;
    let events = |vendor: Vendor, events: &[&str]| {
        let mut s = ToolCallStream::for_vendor(vendor);
        let mut last = Ok(());
        for e in events {
            last = s.feed_event(None, e);
            if last.is_err() {
                break;
            }
        }
        last.expect_err("the events break the protocol")
    };
    let start = r#"{"type":"message_start","message":{"id":"m1","content":[]}}"#;
    let tool = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#;
    let no_delta = r#"{"type":"content_block_delta","index":0}"#;
    let added = |i: u64, item: &str| {
        json!({"type": "response.output_item.added", "output_index": i,
            "item": {"type": "function_call", "id": item, "call_id": "c", "name": "f", "arguments": ""}})
        .to_string()
    };
    let chunk =
        |choice: J| json!({"object": "chat.completion.chunk", "choices": [choice]}).to_string();
    let rows: Vec<(StreamError, StreamError, String)> = vec![
        (
            events(Vendor::Anthropic, &[start, tool, no_delta]),
            StreamError::Protocol(P::MissingMember {
                event: "content_block_delta".into(),
                member: "delta",
                excerpt: no_delta.into(),
            }),
            format!("protocol error: content_block_delta without delta: {no_delta}"),
        ),
        (
            events(
                Vendor::Anthropic,
                &[start, r#"{"type":"message_start","message":{"id":"m2","content":[]}}"#],
            ),
            StreamError::Protocol(P::SecondMessage {
                id: Some("m2".into()),
                open: Some("m1".into()),
            }),
            "protocol error: a second message_start (m2) while message m1 is open".into(),
        ),
        (
            events(Vendor::Anthropic, &[start, tool, tool]),
            StreamError::Protocol(P::AlreadyOpen {
                event: "content_block_start",
                key: CallKey::Block(0),
            }),
            "protocol error: content_block_start for block 0, which is still open".into(),
        ),
        (
            events(
                Vendor::Anthropic,
                &[start, r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{"}}"#],
            ),
            StreamError::Protocol(P::DeltaWithoutCall {
                event: "input_json_delta",
                key: Some(CallKey::Block(3)),
                item_id: None,
            }),
            "protocol error: input_json_delta for block 3, which is not an open tool block".into(),
        ),
        (
            events(
                Vendor::OpenAiResponses,
                &[&added(0, "fc_a"), &added(0, "fc_a")],
            ),
            StreamError::Protocol(P::AlreadyOpen {
                event: "output_item.added",
                key: CallKey::Output(0),
            }),
            "protocol error: output_item.added at output_index 0, which is still open".into(),
        ),
        (
            events(
                Vendor::OpenAiResponses,
                &[r#"{"type":"response.function_call_arguments.delta","output_index":5,"item_id":"fc_x","delta":"{"}"#],
            ),
            StreamError::Protocol(P::DeltaWithoutCall {
                event: "arguments event",
                key: Some(CallKey::Output(5)),
                item_id: Some("fc_x".into()),
            }),
            r#"protocol error: arguments event for output_index Some(5) / item_id Some("fc_x"), which is not an open call"#.into(),
        ),
        (
            events(
                Vendor::OpenAiResponses,
                &[
                    &added(0, "fc_a"),
                    &added(1, "fc_b"),
                    r#"{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_b","delta":"{"}"#,
                ],
            ),
            StreamError::Protocol(P::KeysDisagree {
                item_id: "fc_b".into(),
                output_index: 0,
            }),
            "protocol error: item_id fc_b and output_index 0 name different calls".into(),
        ),
        (
            events(
                Vendor::OpenAiChat,
                &[
                    &chunk(json!({"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}})),
                    &chunk(json!({"index":0,"delta":{},"finish_reason":"tool_calls"})),
                    &chunk(json!({"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" "}}]}})),
                ],
            ),
            StreamError::Protocol(P::DeltaWithoutCall {
                event: "tool call delta",
                key: Some(CallKey::Choice {
                    choice: 0,
                    index: 0,
                }),
                item_id: None,
            }),
            "protocol error: tool call delta for choice 0 index 0 after it ended".into(),
        ),
    ];
    for (got, want, text) in rows {
        assert_eq!(got, want);
        assert_eq!(got.to_string(), text);
    }
}

/// Bedrock's frames name their offset where an SSE event shows its data.
#[test]
fn bedrock_protocol_violations_are_typed_and_keep_their_text() {
    use crate::common::eventstream_check::event_frame;
    use tooljson::providers::ProtocolViolation as P;
    let start = event_frame(
        "contentBlockStart",
        br#"{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t1","name":"f"}}}"#,
    );
    let cases: Vec<(Vec<u8>, Vec<u8>, StreamError, String)> = vec![
        (
            start.clone(),
            event_frame(
                "contentBlockDelta",
                br#"{"delta":{"toolUse":{"input":"{"}}}"#,
            ),
            StreamError::Protocol(P::MissingFrameMember {
                event: "contentBlockDelta".into(),
                member: "contentBlockIndex",
                offset: start.len() as u64,
            }),
            format!(
                "protocol error: contentBlockDelta without contentBlockIndex (frame at byte {})",
                start.len()
            ),
        ),
        (
            start.clone(),
            start.clone(),
            StreamError::Protocol(P::AlreadyOpen {
                event: "contentBlockStart",
                key: CallKey::Block(0),
            }),
            "protocol error: contentBlockStart for block 0, which is still open".into(),
        ),
        (
            start.clone(),
            event_frame(
                "contentBlockDelta",
                br#"{"contentBlockIndex":2,"delta":{"toolUse":{"input":"{"}}}"#,
            ),
            StreamError::Protocol(P::DeltaWithoutCall {
                event: "toolUse delta",
                key: Some(CallKey::Block(2)),
                item_id: None,
            }),
            "protocol error: toolUse delta for block 2, which is not an open tool block".into(),
        ),
    ];
    for (first, second, want, text) in cases {
        let mut s = ToolCallStream::for_vendor(Vendor::Bedrock);
        s.feed(&first).unwrap();
        let got = s.feed(&second).unwrap_err();
        assert_eq!(got, want);
        assert_eq!(got.to_string(), text);
        // Fatal: the stream ended as a protocol error.
        assert!(
            matches!(s.stop_reason(), Some(StopReason::Error { kind, .. }) if kind == "protocol")
        );
    }
}

/// Misuse of the stream is its own variant, never a protocol error.
#[test]
fn misuse_is_apart_from_bad_input() {
    use tooljson::providers::Misuse;
    let mut s = ToolCallStream::for_vendor(Vendor::Bedrock);
    let err = s.feed_event(None, "{}").unwrap_err();
    assert_eq!(err, StreamError::Misuse(Misuse::TextEventForBedrock));
    assert_eq!(
        err.to_string(),
        "protocol error: Bedrock sends binary event-stream frames, not text events"
    );

    let mut s = ToolCallStream::for_vendor(Vendor::OpenAiChat);
    s.feed(b"data: [DONE]\n\n").unwrap();
    s.finish().unwrap();
    for again in [s.feed(b"x"), s.feed_event(None, "{}"), s.finish()] {
        assert_eq!(again, Err(StreamError::Misuse(Misuse::AfterFinish)));
    }
    assert_eq!(
        StreamError::Misuse(Misuse::AfterFinish).to_string(),
        "stream used after finish()"
    );
}
