//! End to end: transcript bytes of a streaming response to finished,
//! validated tool calls, in MB/s of transcript (`validated`: with the
//! request's tools, so a schema stream check runs beside every call and the
//! final value is checked; `unvalidated`: without). Each vendor's framing carries the same
//! arguments (a write-file call and a parallel-edits call) in 16-byte
//! deltas (Gemini: whole `args` objects, and `partialArgs` path events with
//! 16-byte string pieces; Bedrock: binary event-stream frames); the body is
//! fed in 1400-byte network-sized reads. Every bench
//! checks its answer first: both calls complete, their values equal
//! serde_json's parse of the argument text.
//!
//! `cargo bench -p tooljson-benches --bench providers`

mod common;
#[path = "../tests/common/eventstream_check.rs"]
mod eventstream_check;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use tooljson::protocol::ToolSet;
use tooljson::providers::{CallStatus, ToolCallStream};

/// Cuts `text` into pieces of about `n` bytes on character boundaries.
fn deltas(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = n.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

fn sse(events: &[serde_json::Value], named: bool) -> String {
    let mut s = String::new();
    for e in events {
        if named {
            s.push_str(&format!("event: {}\n", e["type"].as_str().unwrap()));
        }
        s.push_str(&format!("data: {e}\n\n"));
    }
    s
}

fn anthropic(calls: &[(&str, &str)], delta: usize) -> String {
    let mut ev = vec![
        json!({"type":"message_start","message":{"id":"msg_b","type":"message","role":"assistant","content":[],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}}}),
    ];
    for (i, (name, args)) in calls.iter().enumerate() {
        ev.push(json!({"type":"content_block_start","index":i,"content_block":{"type":"tool_use","id":format!("toolu_{i}"),"name":name,"input":{}}}));
        for d in deltas(args, delta) {
            ev.push(json!({"type":"content_block_delta","index":i,"delta":{"type":"input_json_delta","partial_json":d}}));
        }
        ev.push(json!({"type":"content_block_stop","index":i}));
    }
    ev.push(json!({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":900}}));
    ev.push(json!({"type":"message_stop"}));
    sse(&ev, true)
}

fn chat(calls: &[(&str, &str)], delta: usize) -> String {
    let chunk = |delta: serde_json::Value, finish: serde_json::Value| json!({"id":"chatcmpl-b","object":"chat.completion.chunk","created":1,"model":"gpt-4o","system_fingerprint":"fp","choices":[{"index":0,"delta":delta,"logprobs":null,"finish_reason":finish}]});
    let mut ev = vec![chunk(
        json!({"role":"assistant","content":null}),
        json!(null),
    )];
    for (i, (name, args)) in calls.iter().enumerate() {
        ev.push(chunk(json!({"tool_calls":[{"index":i,"id":format!("call_{i}"),"type":"function","function":{"name":name,"arguments":""}}]}), json!(null)));
        for d in deltas(args, delta) {
            ev.push(chunk(
                json!({"tool_calls":[{"index":i,"function":{"arguments":d}}]}),
                json!(null),
            ));
        }
    }
    ev.push(chunk(json!({}), json!("tool_calls")));
    let mut s = sse(&ev, false);
    s.push_str("data: [DONE]\n\n");
    s
}

fn responses(calls: &[(&str, &str)], delta: usize) -> String {
    let mut seq = 0;
    let mut next = || {
        seq += 1;
        seq
    };
    let mut ev = vec![
        json!({"type":"response.created","sequence_number":next(),"response":{"id":"resp_b","status":"in_progress","output":[]}}),
    ];
    for (i, (name, args)) in calls.iter().enumerate() {
        let item = format!("fc_{i}");
        ev.push(json!({"type":"response.output_item.added","sequence_number":next(),"output_index":i,"item":{"id":item,"type":"function_call","status":"in_progress","arguments":"","call_id":format!("call_{i}"),"name":name}}));
        for d in deltas(args, delta) {
            ev.push(json!({"type":"response.function_call_arguments.delta","sequence_number":next(),"item_id":item,"output_index":i,"delta":d,"obfuscation":"abc"}));
        }
        ev.push(json!({"type":"response.function_call_arguments.done","sequence_number":next(),"item_id":item,"output_index":i,"arguments":args}));
    }
    ev.push(json!({"type":"response.completed","sequence_number":next(),"response":{"id":"resp_b","status":"completed"}}));
    sse(&ev, true)
}

fn gemini_chunk(parts: serde_json::Value, finish: Option<&str>) -> serde_json::Value {
    let mut c = json!({"candidates":[{"content":{"role":"model","parts":parts},"index":0}],"modelVersion":"gemini-b","responseId":"resp_b"});
    if let Some(f) = finish {
        c["candidates"][0]["finishReason"] = json!(f);
        c["usageMetadata"] = json!({"promptTokenCount":10,"candidatesTokenCount":900});
    }
    c
}

/// Gemini's default: each call one part with its `args` object.
fn gemini_whole(calls: &[(&str, &str)]) -> String {
    let mut ev = Vec::new();
    for (name, args) in calls {
        let args: serde_json::Value = serde_json::from_str(args).unwrap();
        ev.push(gemini_chunk(
            json!([{"functionCall":{"name":name,"args":args}}]),
            None,
        ));
    }
    ev.push(gemini_chunk(json!([{"text":""}]), Some("STOP")));
    sse(&ev, false).replace('\n', "\r\n")
}

/// The `partialArgs` events of a value: one per scalar, strings in pieces
/// of about `n` bytes (the last piece without `willContinue`).
fn path_events(v: &serde_json::Value, path: &str, n: usize, out: &mut Vec<serde_json::Value>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, v) in o {
                path_events(v, &format!("{path}.{k}"), n, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                path_events(v, &format!("{path}[{i}]"), n, out);
            }
        }
        serde_json::Value::String(s) => {
            for d in deltas(s, n) {
                out.push(json!({"jsonPath":path,"stringValue":d,"willContinue":true}));
            }
            out.push(json!({"jsonPath":path,"stringValue":""}));
        }
        serde_json::Value::Number(x) => out.push(json!({"jsonPath":path,"numberValue":x})),
        serde_json::Value::Bool(x) => out.push(json!({"jsonPath":path,"boolValue":x})),
        serde_json::Value::Null => out.push(json!({"jsonPath":path,"nullValue":null})),
    }
}

/// Vertex `streamFunctionCallArguments`: a named part, one part per path
/// event, the empty `functionCall` terminator.
fn gemini_partial(calls: &[(&str, &str)], delta: usize) -> String {
    let mut ev = Vec::new();
    for (name, args) in calls {
        ev.push(gemini_chunk(
            json!([{"functionCall":{"name":name,"willContinue":true}}]),
            None,
        ));
        let mut events = Vec::new();
        path_events(
            &serde_json::from_str(args).unwrap(),
            "$",
            delta,
            &mut events,
        );
        for e in events {
            ev.push(gemini_chunk(
                json!([{"functionCall":{"partialArgs":[e],"willContinue":true}}]),
                None,
            ));
        }
        ev.push(gemini_chunk(json!([{"functionCall":{}}]), None));
    }
    ev.push(gemini_chunk(json!([{"text":""}]), Some("STOP")));
    sse(&ev, false).replace('\n', "\r\n")
}

/// Bedrock `ConverseStream`: event-stream frames, each payload padded.
fn bedrock(calls: &[(&str, &str)], delta: usize) -> Vec<u8> {
    let frame = |ty: &str, payload: serde_json::Value| {
        eventstream_check::event_frame(ty, payload.to_string().as_bytes())
    };
    let mut out = frame("messageStart", json!({"role":"assistant","p":"abcdef"}));
    for (i, (name, args)) in calls.iter().enumerate() {
        out.extend(frame("contentBlockStart", json!({"contentBlockIndex":i,"start":{"toolUse":{"toolUseId":format!("tooluse_{i}"),"name":name}},"p":"abc"})));
        for d in deltas(args, delta) {
            out.extend(frame(
                "contentBlockDelta",
                json!({"contentBlockIndex":i,"delta":{"toolUse":{"input":d}},"p":"abcdefghij"}),
            ));
        }
        out.extend(frame(
            "contentBlockStop",
            json!({"contentBlockIndex":i,"p":"ab"}),
        ));
    }
    out.extend(frame(
        "messageStop",
        json!({"stopReason":"tool_use","p":"abcd"}),
    ));
    out.extend(frame(
        "metadata",
        json!({"usage":{"inputTokens":10,"outputTokens":900},"metrics":{"latencyMs":1},"p":"a"}),
    ));
    out
}

fn tools() -> ToolSet {
    ToolSet::from_request_json(&tooljson::json!({"tools": [
        {"name": "write_file", "input_schema": {"type": "object", "properties": {
            "path": {"type": "string", "minLength": 1}, "content": {"type": "string"}},
            "required": ["path", "content"], "additionalProperties": false}},
        {"name": "apply_edits", "input_schema": {"type": "object", "properties": {
            "edits": {"type": "array", "items": {"type": "object", "properties": {
                "file": {"type": "string"}, "line": {"type": "integer", "minimum": 0},
                "old": {"type": "string"}, "new": {"type": "string"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1}},
                "required": ["file", "line", "old", "new"]}}},
            "required": ["edits"]}}],
        "tool_choice": {"type": "any"}}))
    .unwrap()
}

/// The whole pipeline: bytes in network-sized reads, events drained, calls
/// finished (and validated when `tools` is given). Returns the number of
/// complete calls.
fn replay(body: &[u8], read: usize, tools: Option<&ToolSet>) -> usize {
    let mut s = ToolCallStream::new();
    if let Some(t) = tools {
        s = s.with_tools(t.clone());
    }
    let mut events = 0usize;
    for piece in body.chunks(read) {
        s.feed(piece).unwrap();
        events += s.drain_events().count();
    }
    s.finish().unwrap();
    events += s.drain_events().count();
    black_box(events);
    s.calls()
        .iter()
        .filter(|c| c.status() == CallStatus::Complete)
        .count()
}

fn check(body: &[u8], calls: &[(&str, &str)], tools: &ToolSet) {
    let mut s = ToolCallStream::new().with_tools(tools.clone());
    for piece in body.chunks(1400) {
        s.feed(piece).unwrap();
    }
    s.finish().unwrap();
    assert_eq!(s.calls().len(), calls.len());
    for (c, (name, args)) in s.calls().iter().zip(calls) {
        assert_eq!(c.status(), CallStatus::Complete);
        assert_eq!(c.name(), Some(*name));
        let want: serde_json::Value = serde_json::from_str(args).unwrap();
        assert_eq!(c.value().unwrap().to_serde_json().unwrap(), want);
        assert!(c.errors().is_empty());
    }
    assert_eq!(s.choice_error(), None);
}

fn bench(c: &mut Criterion) {
    let write = common::write_file_args(64 * 1024);
    let edits = common::parallel_edits_args(16 * 1024);
    let calls = [
        ("write_file", write.as_str()),
        ("apply_edits", edits.as_str()),
    ];
    let tools = tools();
    let mut group = c.benchmark_group("vendor_end_to_end");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (vendor, body) in [
        ("anthropic", anthropic(&calls, 16).into_bytes()),
        ("openai_chat", chat(&calls, 16).into_bytes()),
        ("openai_responses", responses(&calls, 16).into_bytes()),
        ("gemini_whole_args", gemini_whole(&calls).into_bytes()),
        (
            "gemini_partial_args",
            gemini_partial(&calls, 16).into_bytes(),
        ),
        ("bedrock", bedrock(&calls, 16)),
    ] {
        check(&body, &calls, &tools);
        assert_eq!(replay(&body, 1400, Some(&tools)), 2);
        assert_eq!(replay(&body, 1400, None), 2);
        group.throughput(Throughput::Bytes(body.len() as u64));
        for (mode, t) in [("validated", Some(&tools)), ("unvalidated", None)] {
            group.bench_with_input(
                BenchmarkId::new(
                    format!("{vendor}/{mode}"),
                    format!("{}KiB", body.len() / 1024),
                ),
                &body,
                |b, body| b.iter(|| replay(body, 1400, t)),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
