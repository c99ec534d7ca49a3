//! Every recorded transcript in `tests/data/vendor-streams/` for the
//! three vendors, replayed through `ToolCallStream` fed as recorded (line by
//! line), whole, and in chunks of 1, 7 and 64 bytes. The expected arguments
//! come from an independent oracle: a naive event-stream split, serde_json
//! on each event, the fragments concatenated per call key and parsed with
//! serde_json. Statuses and stop reasons are from a table read off the
//! files (see PROVENANCE.md there).

use crate::common;

use std::path::PathBuf;

use serde_json::Value as J;
use tooljson::providers::{
    CallEvent, CallKey, CallKind, CallStatus, StopReason, StreamError, ToolCallStream, Vendor,
};

fn dir(vendor: &str) -> PathBuf {
    common::testdata("vendor-streams").join(vendor)
}

/// The naive event-stream reading: CRLF to LF, events split at blank
/// lines, `data:` lines joined.
fn naive_events(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8(bytes.to_vec())
        .unwrap()
        .replace("\r\n", "\n");
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let data: Vec<&str> = block
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect();
        if !data.is_empty() {
            out.push(data.join("\n"));
        }
    }
    out
}

/// One call as the oracle sees it.
#[derive(Debug)]
struct Expected {
    key: CallKey,
    kind: CallKind,
    text: String,
    start_input: Option<J>,
}

impl Expected {
    /// The arguments the concatenated fragments give.
    fn value(&self) -> J {
        if self.kind == CallKind::Custom {
            return J::String(self.text.clone());
        }
        if self.text.is_empty() {
            return self
                .start_input
                .clone()
                .unwrap_or_else(|| J::Object(Default::default()));
        }
        serde_json::from_str(&self.text).expect("oracle: fragments parse")
    }
}

fn oracle(vendor: Vendor, events: &[String]) -> Vec<Expected> {
    let mut calls: Vec<Expected> = Vec::new();
    let mut message_id: Option<J> = None;
    for data in events {
        let Ok(ev) = serde_json::from_str::<J>(data) else {
            continue;
        };
        let ty = ev["type"].as_str().unwrap_or("");
        match vendor {
            Vendor::Anthropic => match ty {
                "message_start" => {
                    let id = ev["message"]["id"].clone();
                    if message_id.is_some() && message_id.as_ref() != Some(&id) {
                        break; // the spliced stream: the adapter stops here
                    }
                    message_id = Some(id);
                    for (i, b) in ev["message"]["content"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        if b["type"] == "tool_use" {
                            calls.push(Expected {
                                key: CallKey::Block(i as u64),
                                kind: CallKind::Client,
                                text: String::new(),
                                start_input: Some(b["input"].clone()),
                            });
                        }
                    }
                }
                "content_block_start" => {
                    let kind = match ev["content_block"]["type"].as_str() {
                        Some("tool_use") => CallKind::Client,
                        Some("server_tool_use") => CallKind::Server,
                        Some("mcp_tool_use") => CallKind::Mcp,
                        _ => continue,
                    };
                    calls.push(Expected {
                        key: CallKey::Block(ev["index"].as_u64().unwrap()),
                        kind,
                        text: String::new(),
                        start_input: Some(ev["content_block"]["input"].clone()),
                    });
                }
                "content_block_delta" if ev["delta"]["type"] == "input_json_delta" => {
                    let key = CallKey::Block(ev["index"].as_u64().unwrap());
                    let c = calls.iter_mut().rev().find(|c| c.key == key).unwrap();
                    c.text
                        .push_str(ev["delta"]["partial_json"].as_str().unwrap());
                }
                _ => {}
            },
            Vendor::OpenAiChat => {
                for ch in ev["choices"].as_array().into_iter().flatten() {
                    let choice = ch["index"].as_u64().unwrap();
                    for tc in ch["delta"]["tool_calls"].as_array().into_iter().flatten() {
                        let key = CallKey::Choice {
                            choice,
                            index: tc["index"].as_u64().unwrap(),
                        };
                        if !calls.iter().any(|c| c.key == key) {
                            calls.push(Expected {
                                key,
                                kind: CallKind::Client,
                                text: String::new(),
                                start_input: None,
                            });
                        }
                        let c = calls.iter_mut().find(|c| c.key == key).unwrap();
                        c.text
                            .push_str(tc["function"]["arguments"].as_str().unwrap_or(""));
                    }
                }
            }
            Vendor::OpenAiResponses => match ty {
                "response.output_item.added" => {
                    let kind = match ev["item"]["type"].as_str() {
                        Some("function_call") => CallKind::Client,
                        Some("mcp_call") => CallKind::Mcp,
                        Some("custom_tool_call") => CallKind::Custom,
                        _ => continue,
                    };
                    calls.push(Expected {
                        key: CallKey::Output(ev["output_index"].as_u64().unwrap()),
                        kind,
                        text: String::new(),
                        start_input: None,
                    });
                }
                "response.function_call_arguments.delta"
                | "response.mcp_call_arguments.delta"
                | "response.custom_tool_call_input.delta" => {
                    let key = CallKey::Output(ev["output_index"].as_u64().unwrap());
                    let c = calls.iter_mut().rev().find(|c| c.key == key).unwrap();
                    c.text.push_str(ev["delta"].as_str().unwrap());
                }
                _ => {}
            },
            other => panic!("no transcript oracle for {other}"),
        }
    }
    calls
}

/// What each transcript must end as: call statuses in order, the stop
/// reason, whether the stream fails fatally, and how many events are
/// malformed.
fn table(vendor: &str, name: &str) -> (Vec<CallStatus>, &'static str, bool, usize) {
    use CallStatus::*;
    match (vendor, name) {
        ("anthropic", "sdk-go-cassette-text-then-tool-use.sse")
        | ("anthropic", "sdk-go-tool-use-single-delta.sse")
        | ("anthropic", "sdk-python-cassette-tool-use-haiku45-a.sse")
        | ("anthropic", "sdk-python-cassette-tool-use-haiku45-b.sse")
        | ("anthropic", "sdk-python-text-then-tool-use.sse")
        | ("anthropic", "vercel-programmatic-tool-calling-prefilled-message-start.sse")
        | ("anthropic", "vercel-tool-use-no-args.sse") => (vec![Complete], "tool_use", false, 0),
        ("anthropic", "sdk-python-error-event-overloaded.sse") => (vec![], "error", false, 0),
        ("anthropic", "sdk-python-max-tokens-truncated-tool-input.sse") => {
            (vec![Truncated], "max_tokens", false, 0)
        }
        ("anthropic", "sdk-python-server-tool-use-web-search.sse") => {
            (vec![Complete], "refusal", false, 0)
        }
        ("anthropic", "vercel-mcp-tool-use.sse") => (vec![Complete], "end_turn", false, 0),
        ("anthropic", "vercel-spliced-message-start-INVALID.sse") => {
            (vec![Aborted], "error", true, 0)
        }
        ("openai-chat", "sdk-node-json-content-leading-newlines.sse")
        | ("openai-chat", "sdk-python-n3-choices-json-content.sse")
        | ("openai-chat", "sdk-python-refusal.sse") => (vec![], "end_turn", false, 0),
        ("openai-chat", "sdk-python-non-strict-tool-call.sse")
        | ("openai-chat", "sdk-python-single-tool-call.sse")
        | ("openai-chat", "sdk-python-strict-tool-call.sse") => {
            (vec![Complete], "tool_use", false, 0)
        }
        ("openai-chat", "sdk-python-parallel-tool-calls.sse") => {
            (vec![Complete, Complete], "tool_use", false, 0)
        }
        ("openai-responses", "pydantic-ai-function-call-gpt4o-2025-03.sse")
        | ("openai-responses", "pydantic-ai-reasoning-then-function-call-gpt5.sse")
        | ("openai-responses", "vercel-custom-tool-call-input-SYNTHETIC.sse") => {
            (vec![Complete], "tool_use", false, 0)
        }
        ("openai-responses", "vercel-error-event-then-response-failed.sse") => {
            (vec![], "error", false, 0)
        }
        ("openai-responses", "vercel-mcp-call-arguments.sse") => {
            (vec![Complete], "end_turn", false, 0)
        }
        // Its response.created and response.completed lines are broken JSON:
        // both are reported and skipped, so no terminal event arrives and the
        // stray [DONE] ends the stream.
        ("openai-responses", "vercel-multi-tool-use-parallel-wrapper-SYNTHETIC.sse") => {
            (vec![Complete], "end_of_stream", false, 2)
        }
        _ => panic!("transcript {vendor}/{name} is not in the table: add it"),
    }
}

/// Feeds `bytes` in the given pieces and returns the stream and its events.
fn replay(pieces: &[&[u8]], vendor: Option<Vendor>) -> (ToolCallStream, Vec<CallEvent>, bool) {
    let mut s = match vendor {
        Some(v) => ToolCallStream::for_vendor(v),
        None => ToolCallStream::new(),
    };
    let mut events = Vec::new();
    let mut fatal = false;
    for p in pieces {
        if s.feed(p).is_err() {
            fatal = true;
            break;
        }
        events.extend(s.drain_events());
    }
    if !fatal {
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
    (s, events, fatal)
}

fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

fn check_vendor(vendor_dir: &str, vendor: Vendor) -> usize {
    let mut checked = 0;
    for (name, bytes) in common::files_in(&dir(vendor_dir)) {
        if !name.ends_with(".sse") {
            continue;
        }
        let (statuses, stop, fatal, malformed) = table(vendor_dir, &name);
        let expected = oracle(vendor, &naive_events(&bytes));
        let chunkings: Vec<(String, Vec<&[u8]>)> = vec![
            ("as recorded".into(), lines(&bytes)),
            ("whole".into(), vec![&bytes[..]]),
            ("1".into(), bytes.chunks(1).collect()),
            ("7".into(), bytes.chunks(7).collect()),
            ("64".into(), bytes.chunks(64).collect()),
        ];
        for detect in [None, Some(vendor)] {
            let mut reference: Option<Vec<CallEvent>> = None;
            for (how, pieces) in &chunkings {
                let ctx = format!("{vendor_dir}/{name} fed {how}, vendor {detect:?}");
                let (s, events, was_fatal) = replay(pieces, detect);
                assert_eq!(s.vendor(), Some(vendor), "{ctx}: vendor");
                assert_eq!(was_fatal, fatal, "{ctx}: fatal error {:?}", s.fatal_error());
                assert_eq!(s.malformed_events(), malformed, "{ctx}: malformed events");
                let got: Vec<CallStatus> = s.calls().iter().map(|c| c.status()).collect();
                assert_eq!(got, statuses, "{ctx}: statuses");
                assert_eq!(
                    s.stop_reason().map(|r| r.as_str().to_owned()).as_deref(),
                    Some(stop),
                    "{ctx}: stop reason"
                );
                assert_eq!(
                    s.calls().len(),
                    expected.len(),
                    "{ctx}: call count vs oracle"
                );
                for (i, (call, exp)) in s.calls().iter().zip(&expected).enumerate() {
                    assert_eq!(call.key(), exp.key, "{ctx}: call {i} key");
                    assert_eq!(call.kind(), exp.kind, "{ctx}: call {i} kind");
                    if call.status() == CallStatus::Complete {
                        let v = call
                            .value()
                            .expect("complete has a value")
                            .to_serde_json()
                            .unwrap();
                        assert_eq!(v, exp.value(), "{ctx}: call {i} arguments");
                        if !exp.text.is_empty() {
                            assert_eq!(call.arguments_text(), exp.text, "{ctx}: call {i} raw text");
                        }
                        assert!(
                            call.id().is_some() && call.name().is_some(),
                            "{ctx}: call {i} id/name"
                        );
                    } else {
                        assert!(
                            call.value().is_none(),
                            "{ctx}: call {i} must not offer a value"
                        );
                        assert_eq!(
                            call.arguments_text(),
                            exp.text,
                            "{ctx}: call {i} raw text kept"
                        );
                        assert!(
                            !events.iter().any(|e| matches!(e, CallEvent::CallFinished { call, status: CallStatus::Complete } if *call == i)),
                            "{ctx}: call {i} reported complete"
                        );
                    }
                }
                // Exactly one CallFinished per call, and StreamFinished last.
                for i in 0..s.calls().len() {
                    let n = events
                        .iter()
                        .filter(|e| matches!(e, CallEvent::CallFinished { call, .. } if *call == i))
                        .count();
                    assert_eq!(n, 1, "{ctx}: CallFinished count for call {i}");
                }
                assert!(
                    matches!(events.last(), Some(CallEvent::StreamFinished { .. })),
                    "{ctx}: last event"
                );
                // SSE events are whole before the adapters see them, so the
                // event sequence is the same for every chunking.
                match &reference {
                    None => reference = Some(events),
                    Some(r) => {
                        assert_eq!(&events, r, "{ctx}: events differ from the first chunking")
                    }
                }
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn anthropic_transcripts() {
    assert_eq!(check_vendor("anthropic", Vendor::Anthropic), 12);
}

#[test]
fn openai_chat_transcripts() {
    assert_eq!(check_vendor("openai-chat", Vendor::OpenAiChat), 7);
}

#[test]
fn openai_responses_transcripts() {
    assert_eq!(check_vendor("openai-responses", Vendor::OpenAiResponses), 6);
}

/// The Go SDK's interleaved-blocks case is stored as one event JSON per line
/// (no SSE framing): fed with `feed_event`.
#[test]
fn anthropic_interleaved_blocks_jsonl() {
    let text =
        std::fs::read_to_string(dir("anthropic").join("sdk-go-interleaved-content-blocks.jsonl"))
            .unwrap();
    let mut s = ToolCallStream::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        s.feed_event(None, line).unwrap();
    }
    s.finish().unwrap();
    assert_eq!(s.vendor(), Some(Vendor::Anthropic));
    assert_eq!(s.calls().len(), 1);
    let c = &s.calls()[0];
    assert_eq!(c.key(), CallKey::Block(2));
    assert_eq!(c.status(), CallStatus::Complete);
    assert_eq!(c.value().unwrap().to_string(), r#"{"city":"Los Angeles"}"#);
}

/// The truncated Anthropic input keeps its raw text and a best-effort partial
/// value; nothing turns it into `{}`.
#[test]
fn truncated_call_keeps_partial_value() {
    let bytes =
        std::fs::read(dir("anthropic").join("sdk-python-max-tokens-truncated-tool-input.sse"))
            .unwrap();
    let (s, _, _) = replay(&[&bytes[..]], None);
    let c = &s.calls()[0];
    assert_eq!(c.status(), CallStatus::Truncated);
    let partial = c.partial().expect("a partial value").to_string();
    assert!(partial.starts_with("{\""), "{partial}");
    assert!(partial.contains("Filing taxes"), "{partial}");
    assert!(
        c.arguments_text().ends_with("Filing taxes"),
        "{}",
        c.arguments_text()
    );
    assert_eq!(
        c.invalid_json_input()["INVALID_JSON"].as_str(),
        Some(c.arguments_text())
    );
}
