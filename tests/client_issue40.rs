//! What a newcomer writing a streaming client from the README ran into
//! (issue 40), one test per point, each on a recorded stream where one
//! shows it: the custom call's preview and `preview_changed`, text per
//! choice, provider errors, the Responses final turn, a schema violation's
//! one wording, the event loop, plain body chunks, unknown bodies, and one
//! way each for values, previews and token counts.

use crate::common;

use serde_json::Value as J;
use tooljson::protocol::{Arguments, CallProblem, StopReason, ToolSet};
use tooljson::providers::{CallEvent, CallStatus, StreamError, ToolCallStream};

fn recording(path: &str) -> Vec<u8> {
    let p = common::testdata("vendor-streams").join(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(common::project_root().join("corpus/transcripts").join(name)).unwrap()
}

/// Feeds `bytes` in reads of `n` and takes every event after each read.
fn replay(bytes: &[u8], n: usize) -> (ToolCallStream, Vec<CallEvent>, Result<(), StreamError>) {
    let mut s = ToolCallStream::new();
    let mut events = Vec::new();
    for chunk in bytes.chunks(n) {
        if let Err(e) = s.feed(chunk) {
            events.extend(s.drain_events());
            return (s, events, Err(e));
        }
        events.extend(s.drain_events());
    }
    let end = s.finish();
    events.extend(s.drain_events());
    (s, events, end)
}

/// Point 1: A custom (free-text) call's preview is its text, and
/// `preview_changed` is true exactly when a call's rendered preview changed
/// (checked on every recording, each read a byte, against the rendering
/// before and after the read).
#[test]
fn point1_a_custom_calls_preview_is_its_text_and_preview_changed_means_it_changed() {
    let body = recording("openai-responses/vercel-custom-tool-call-input-SYNTHETIC.sse");
    let (s, _, end) = replay(&body, 7);
    end.unwrap();
    let call = &s.calls()[0];
    assert_eq!(call.status(), CallStatus::Complete);
    assert_eq!(
        call.partial().unwrap().to_string(),
        J::String("SELECT * FROM users WHERE age > 25".into()).to_string()
    );

    let root = common::testdata("vendor-streams");
    let mut changes = (0, 0);
    for dir in ["anthropic", "openai-chat", "openai-responses", "gemini"] {
        for (name, bytes) in common::files_in(&root.join(dir)) {
            if !name.ends_with(".sse") {
                continue;
            }
            let mut s = ToolCallStream::new();
            let mut shown: Vec<Option<String>> = Vec::new();
            for b in bytes.chunks(1) {
                if s.feed(b).is_err() {
                    break;
                }
                let now: Vec<Option<String>> = s
                    .calls()
                    .iter()
                    .map(|c| c.partial().map(|p| p.to_string()))
                    .collect();
                // Per call, over this read's text: did any piece say the
                // preview changed?
                let mut said = std::collections::BTreeMap::new();
                while let Some(e) = s.next_event() {
                    if let CallEvent::ArgumentsAppended {
                        call,
                        preview_changed,
                        ..
                    } = e
                    {
                        *said.entry(call).or_insert(false) |= preview_changed;
                    }
                }
                for (call, preview_changed) in said {
                    let before = shown.get(call).cloned().flatten();
                    let changed = now[call] != before;
                    assert_eq!(
                        preview_changed, changed,
                        "{dir}/{name}: call {call}: {before:?} -> {:?}",
                        now[call]
                    );
                    if preview_changed {
                        assert!(now[call].is_some(), "{dir}/{name}: changed but not shown");
                        changes.0 += 1;
                    } else {
                        changes.1 += 1;
                    }
                }
                shown = now;
            }
        }
    }
    // Both kinds occur: a check that cannot fail one way is no check.
    assert!(changes.0 > 50 && changes.1 > 50, "{changes:?}");
}

/// Point 2: Text per choice: the `n = 3` Chat recording's three answers, kept
/// apart, each equal to the SDK's accumulated `content`.
#[test]
fn point2_text_and_thinking_per_choice() {
    let body = recording("openai-chat/sdk-python-n3-choices-json-content.sse");
    let (s, events, end) = replay(&body, 7);
    end.unwrap();
    let want: J = serde_json::from_slice(
        &std::fs::read(common::project_root().join(
            "corpus/transcripts/expected/openai-chat/sdk-python-n3-choices-json-content.sse.json",
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(s.choices(), [0, 1, 2]);
    for m in want["messages"].as_array().unwrap() {
        let c = m["index"].as_u64().unwrap();
        assert_eq!(
            s.text(c),
            m["message"]["content"].as_str().unwrap(),
            "choice {c}"
        );
        assert_eq!(s.thinking(c), "");
    }
    // Each event names its choice; the choices' texts interleave.
    let mut per_choice = [String::new(), String::new(), String::new()];
    let mut order = Vec::new();
    for e in events {
        if let CallEvent::TextAppended {
            choice,
            block,
            text,
        } = e
        {
            assert_eq!(block, 0);
            per_choice[choice as usize].push_str(&text);
            order.push(choice);
        }
    }
    assert_eq!(
        per_choice.map(|t| t.len()),
        [0, 1, 2].map(|c| s.text(c).len())
    );
    assert!(order.windows(2).any(|w| w[0] != w[1]));
    // Thinking: the Anthropic thinking blocks of a recording (before its
    // spliced second message_start).
    let body = recording("anthropic/vercel-spliced-message-start-INVALID.sse");
    let (s, _, end) = replay(&body, 64);
    assert!(matches!(end, Err(StreamError::Protocol(_))));
    assert_eq!(s.thinking(0), "I will call the tool.");
}

/// Point 3: Provider errors: `finish()` is an `Err` with kind and message; the
/// partial response stays readable; its stop reason says the same.
#[test]
fn point3_a_provider_error_is_an_err_from_finish() {
    for (path, kind, retry) in [
        (
            "anthropic/sdk-python-error-event-overloaded.sse",
            "overloaded_error",
            true,
        ),
        (
            "openai-responses/vercel-error-event-then-response-failed.sse",
            "insufficient_quota",
            false,
        ),
    ] {
        for n in [1, 7, 64] {
            let (s, _, end) = replay(&recording(path), n);
            let Err(StreamError::Provider { kind: k, message }) = &end else {
                panic!("{path}: {end:?}");
            };
            assert_eq!(k, kind);
            assert!(!message.is_empty());
            assert_eq!(end.as_ref().unwrap_err().is_retryable(), retry, "{path}");
            assert_eq!(
                s.stop_reason(),
                Some(&StopReason::Error {
                    kind: kind.into(),
                    message: message.clone()
                })
            );
            // What arrived stays readable: the final message in the
            // provider's JSON (the Responses one holds its response).
            let messages = if path.starts_with("openai-responses") {
                1
            } else {
                0
            };
            assert_eq!(s.final_messages_json().len(), messages, "{path}");
        }
    }
    // The Chat error chunk in the middle of a call: the call is aborted, its
    // partial arguments readable.
    let (s, _, end) = replay(&corpus("openai-chat-error-mid-call.sse"), 7);
    assert!(matches!(end, Err(StreamError::Provider { .. })), "{end:?}");
    assert_eq!(s.calls()[0].status(), CallStatus::Aborted);
    assert!(s.calls()[0].partial().is_some());
}

/// Point 4: The Responses final turn has its stop reason, and
/// `final_messages_json()` is the whole `response` object.
#[test]
fn point4_the_responses_final_turn_has_its_stop_reason_and_the_whole_response() {
    for (file, stop) in [
        (
            "pydantic-ai-function-call-gpt4o-2025-03.sse",
            StopReason::ToolUse,
        ),
        (
            "pydantic-ai-reasoning-then-function-call-gpt5.sse",
            StopReason::ToolUse,
        ),
        ("vercel-mcp-call-arguments.sse", StopReason::EndTurn),
    ] {
        let (s, _, end) = replay(&recording(&format!("openai-responses/{file}")), 64);
        end.unwrap();
        let turn = s.to_assistant_message().unwrap();
        assert_eq!(turn.stop_reason, Some(stop), "{file}");
        let whole = &s.final_messages_json()[0];
        assert_eq!(whole["object"], "response", "{file}");
        assert_eq!(whole["status"], "completed", "{file}");
        assert_eq!(whole["id"].as_str(), s.message_id(), "{file}");
        assert!(whole["usage"]["output_tokens"].is_u64(), "{file}");
        assert!(whole["output"].is_array(), "{file}");
    }
}

/// Point 5: A call whose JSON is valid but breaks its schema converts as JSON, and
/// the three paths that report the violation word it the same.
#[test]
fn point5_a_schema_violation_is_one_violation_in_one_wording() {
    let tools = ToolSet::from_request_json(&tooljson::json!({"tools": [{"name": "get_weather",
        "input_schema": {"type": "object", "required": ["city"],
            "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}}}}]}))
    .unwrap();
    let body = corpus("readme-anthropic-weather.sse");
    let mut s = ToolCallStream::new().with_tools(tools.clone());
    s.feed(&body).unwrap();
    s.finish().unwrap();
    let call = &s.calls()[1];
    assert_eq!(call.status(), CallStatus::Invalid);
    let tool_call = call.to_tool_call();
    assert_eq!(
        tool_call.arguments,
        Arguments::Json {
            value: tooljson::json!({"city": 7}),
            text: Some(call.arguments_text().to_owned())
        }
    );
    let Err(CallProblem::SchemaViolations { violations, .. }) = tools.check_call(&tool_call) else {
        panic!("{:?}", tools.check_call(&tool_call));
    };
    let streamed: Vec<String> = call.errors().iter().map(|e| e.to_string()).collect();
    let checked: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
    assert_eq!(streamed, checked);
    assert_eq!(checked, ["/city: expected string, found number 7"]);
    assert_eq!(
        call.retry_result().unwrap().content.text(),
        tools.retry_result(&tool_call).unwrap().content.text()
    );
    assert_eq!(
        call.deserialize::<J>().unwrap_err().content.text(),
        tools.retry_result(&tool_call).unwrap().content.text()
    );
}

/// Point 6: The loop a newcomer writes first reads the stream between events:
/// `for e in stream.drain_events()` with `stream.call(i)` in its body
/// compiles (E0502 while `drain_events` borrowed the stream), and gives what
/// the documented `while let Some(e) = stream.next_event()` loop gives.
#[test]
fn point6_the_event_loop_reads_the_stream_between_events() {
    let body = corpus("readme-anthropic-weather.sse");
    let mut a = ToolCallStream::new();
    let mut b = ToolCallStream::new();
    let (mut seen_a, mut seen_b) = (Vec::new(), Vec::new());
    for chunk in body.chunks(40) {
        a.feed(chunk).unwrap();
        for e in a.drain_events() {
            if let CallEvent::ArgumentsAppended { call, .. } = e {
                seen_a.push(a.call(call).unwrap().arguments_text().to_owned());
            }
        }
        b.feed(chunk).unwrap();
        while let Some(e) = b.next_event() {
            if let CallEvent::ArgumentsAppended { call, .. } = e {
                seen_b.push(b.call(call).unwrap().arguments_text().to_owned());
            }
        }
    }
    assert_eq!(seen_a, seen_b);
    assert!(
        seen_a.iter().any(|t| t == r#"{"city": "Paris"}"#),
        "{seen_a:?}"
    );
}

/// Point 7: `into_events` takes plain chunks (`Vec<u8>`, `&[u8]`, `Bytes`, as
/// `futures::stream::iter` gives them), and hands the `ToolCallStream` back
/// under a name that says so.
#[cfg(feature = "stream")]
#[test]
fn point7_into_events_takes_plain_byte_chunks() {
    use futures_core::Stream;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    /// `futures::stream::iter`.
    struct Iter<I>(I);
    impl<I: Iterator + Unpin> Stream for Iter<I> {
        type Item = I::Item;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<I::Item>> {
            Poll::Ready(self.0.next())
        }
    }
    fn run<S: Stream + Unpin>(body: S) -> ToolCallStream
    where
        S::Item: tooljson::providers::futures::BodyChunk,
        <S::Item as tooljson::providers::futures::BodyChunk>::Error: std::fmt::Debug,
    {
        let mut events = ToolCallStream::new().into_events(body);
        let mut cx = Context::from_waker(Waker::noop());
        while let Poll::Ready(Some(item)) = Pin::new(&mut events).poll_next(&mut cx) {
            item.unwrap();
        }
        assert!(events.tool_call_stream().is_finished());
        events.into_tool_call_stream()
    }
    let body = corpus("readme-openai-chat-weather.sse");
    let got = [
        run(Iter(
            body.chunks(7)
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
                .into_iter(),
        )),
        run(Iter(body.chunks(7))),
        run(Iter(
            body.chunks(7)
                .map(bytes::Bytes::copy_from_slice)
                .collect::<Vec<_>>()
                .into_iter(),
        )),
    ];
    for s in got {
        assert_eq!(
            s.calls()[0].value().unwrap().to_string(),
            r#"{"city":"Paris"}"#
        );
    }
}

/// Point 8: A body that is no provider's stream is a typed error that says so and
/// where: an event log (`.jsonl`), a JSON error body, SSE of unknown events.
#[test]
fn point8_an_unknown_body_is_an_unrecognized_error() {
    let jsonl = recording("anthropic/sdk-go-interleaved-content-blocks.jsonl");
    let (_, _, end) = replay(&jsonl, 7);
    let Err(StreamError::Unrecognized {
        bytes,
        events,
        first,
    }) = &end
    else {
        panic!("{end:?}");
    };
    assert_eq!((*bytes, *events), (jsonl.len() as u64, 0));
    assert!(first.starts_with(r#""{"#), "{first}");
    let message = end.unwrap_err().to_string();
    assert!(
        message.starts_with("no provider's stream was recognised"),
        "{message}"
    );
    assert!(message.contains("feed_event"), "{message}");

    let (_, _, end) = replay(b"data: {\"hello\": \"world\"}\n\n", 64);
    let Err(StreamError::Unrecognized {
        events: 1, first, ..
    }) = &end
    else {
        panic!("{end:?}");
    };
    assert!(first.contains("hello"), "{first}");
    // Told its vendor, a stream does not detect, so it does not refuse.
    let mut s = ToolCallStream::for_vendor(tooljson::protocol::Vendor::Anthropic);
    s.feed(&jsonl).unwrap();
    assert!(!matches!(s.finish(), Err(StreamError::Unrecognized { .. })));
}

/// Point 9: One way each: token counts with reasoning (thinking) and cache-write
/// counts from every provider's spelling; the arguments as the crate's
/// `Value` or, through `deserialize`, serde_json's; one typed preview.
#[test]
fn point9_one_way_each_for_usage_values_and_previews() {
    let (s, _, _) = replay(
        &recording("openai-responses/pydantic-ai-reasoning-then-function-call-gpt5.sse"),
        64,
    );
    assert_eq!(s.usage().unwrap().reasoning_tokens, Some(448));
    let (s, _, _) = replay(
        &recording("gemini/vercel-vertex-partialargs-two-calls.sse"),
        64,
    );
    assert_eq!(s.usage().unwrap().reasoning_tokens, Some(132));
    let (s, _, _) = replay(
        &recording("openai-chat/sdk-python-n3-choices-json-content.sse"),
        64,
    );
    assert_eq!(s.usage().unwrap().reasoning_tokens, Some(0));
    // Anthropic's cache-write count, from the message_start usage.
    let mut a = ToolCallStream::new();
    a.feed(b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":3,\"cache_creation_input_tokens\":2048,\"output_tokens\":1}}}\n\n").unwrap();
    assert_eq!(a.usage().unwrap().cache_creation_input_tokens, Some(2048));

    let (s, _, _) = replay(
        &recording("anthropic/sdk-python-text-then-tool-use.sse"),
        64,
    );
    let call = s
        .calls()
        .iter()
        .find(|c| c.status() == CallStatus::Complete)
        .unwrap();
    let as_json: J = call.deserialize().unwrap();
    assert_eq!(as_json, call.value().unwrap().to_serde_json().unwrap());

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Card {
        path: Option<String>,
        content: Option<String>,
    }
    let mut p = tooljson::PartialParser::new();
    p.feed(br#"{"path": "a.md", "content": "Tit"#, &mut ())
        .unwrap();
    let card: Card = p.snapshot().unwrap().deserialize_growing_preview().unwrap();
    assert_eq!(
        card,
        Card {
            path: Some("a.md".into()),
            content: Some("Tit".into())
        }
    );
}
