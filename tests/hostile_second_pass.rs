//! The second hostile pass (issue 45) over the command line, the Gemini
//! adapter, provider detection and the one-shot parse: each case a panic, a
//! silent change or a cost far past the input's size before it was fixed.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value as J, json};
use tooljson::eventstream::EventStreamError;
use tooljson::providers::{CallEvent, CallStatus, ProtocolViolation, StreamError, ToolCallStream};

use crate::common;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tooljson"))
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("tooljson-h2-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Feeds `body` whole, then finishes; returns the events and the first
/// error.
fn replay(body: &[u8]) -> (ToolCallStream, Vec<CallEvent>, Result<(), StreamError>) {
    let mut s = ToolCallStream::new();
    let mut end = s.feed(body);
    if end.is_ok() {
        end = s.finish();
    }
    let events = s.drain_events().collect();
    (s, events, end)
}

/// One Gemini SSE event holding `candidates`.
fn gemini(candidates: J) -> String {
    format!("data: {}\r\n\r\n", json!({ "candidates": candidates }))
}

/// One Gemini SSE event: candidate 0 with these parts.
fn gemini_parts(parts: J, finish: Option<&str>) -> String {
    let mut c = json!({ "content": { "role": "model", "parts": parts } });
    if let Some(f) = finish {
        c["finishReason"] = json!(f);
    }
    gemini(json!([c]))
}

/// A streamed Gemini call `f` whose arguments come as these `partialArgs`
/// entries, one per event.
fn gemini_partial_call(entries: &[J]) -> String {
    let mut body = gemini_parts(
        json!([{ "functionCall": { "name": "f", "willContinue": true } }]),
        None,
    );
    for e in entries {
        body += &gemini_parts(
            json!([{ "functionCall": { "partialArgs": [e], "willContinue": true } }]),
            None,
        );
    }
    body + &gemini_parts(json!([{ "functionCall": {} }]), Some("STOP"))
}

fn malformed(events: &[CallEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            CallEvent::Malformed { message } => Some(message.as_str()),
            _ => None,
        })
        .collect()
}

/// Item 6: a pacing no `Duration` can hold (or one that never ends) is a
/// usage error, not a panic.
#[test]
fn replay_speed_outside_its_range_is_a_usage_error_not_a_panic() {
    let file = format!(
        "{}/corpus/transcripts/demo-parallel-write.sse",
        env!("CARGO_MANIFEST_DIR")
    );
    for speed in ["1e-300", "1e-12", "0.001", "-1", "inf", "NaN"] {
        let o = bin()
            .args(["replay", "--ndjson", &format!("--speed={speed}"), &file])
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "--speed {speed}: {err}");
        assert!(err.contains("--speed"), "--speed {speed}: {err}");
        assert!(!err.contains("panicked"), "--speed {speed}: {err}");
    }
    // No pauses, and the smallest accepted factor is parsed (not run: it
    // pauses 1.2 s per piece).
    let o = bin()
        .args(["replay", "--ndjson", "--speed", "0", &file])
        .output()
        .unwrap();
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("stream_finished"));
}

/// Peak resident memory of a running process, in kB (Linux).
#[cfg(target_os = "linux")]
fn vm_hwm_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Item 10: blank lines before the provider is known are not all held:
/// 64 MiB of them leave the process well below their size, and the stream
/// that follows is still read.
#[cfg(target_os = "linux")]
#[test]
fn replay_holds_a_blank_start_in_constant_memory() {
    let mut child = bin()
        .args(["replay", "--ndjson"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let blank = vec![b'\n'; 1 << 20];
    for _ in 0..64 {
        stdin.write_all(&blank).unwrap();
    }
    stdin.flush().unwrap();
    // The pipe holds at most 64 KiB: the process has read all but that.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let hwm = vm_hwm_kb(child.id());
    stdin
        .write_all(gemini_parts(json!([{ "text": "hi" }]), Some("STOP")).as_bytes())
        .unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains(r#""vendor":"gemini""#));
    assert!(hwm < 32 << 10, "{hwm} kB peak after 64 MiB of blank lines");
}

/// Item 11: a response may not open candidates without bound; past 1,024
/// the stream ends with an error naming the bound. Eight (Gemini's own
/// maximum) are read.
#[test]
fn gemini_candidates_past_the_bound_end_the_stream() {
    let mut eight = String::new();
    for i in 0..8 {
        eight += &gemini(json!([{ "index": i, "content": { "parts": [{ "text": "x" }] } }]));
    }
    let (s, _, end) = replay(eight.as_bytes());
    end.unwrap();
    assert_eq!(s.final_messages_json().len(), 8);

    let mut many = String::new();
    for i in 0..1100 {
        many += &gemini(json!([{ "index": i, "content": { "parts": [{ "text": "x" }] } }]));
    }
    let (_, _, end) = replay(many.as_bytes());
    match end {
        Err(e @ StreamError::Protocol(ProtocolViolation::TooManyCandidates(1024))) => {
            assert!(e.to_string().contains("1024 candidates"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

/// Item 2: a `partialArgs` path that comes back to a key already closed
/// (deeper than the latest child) is reported and skipped: the value first
/// written stays.
#[test]
fn gemini_path_back_into_a_closed_key_is_malformed_and_skipped() {
    let body = gemini_partial_call(&[
        json!({ "jsonPath": "$.a.b.c", "numberValue": 1 }),
        json!({ "jsonPath": "$.d", "numberValue": 2 }),
        json!({ "jsonPath": "$.a.b.e", "numberValue": 3 }),
    ]);
    let (s, events, end) = replay(body.as_bytes());
    end.unwrap();
    let m = malformed(&events);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("\"a\""), "{m:?}");
    let call = &s.calls()[0];
    assert_eq!(call.status(), CallStatus::Complete);
    let got: J = serde_json::from_str(call.arguments_text()).unwrap();
    assert_eq!(got, json!({ "a": { "b": { "c": 1 } }, "d": 2 }));
}

/// Item 2: a string continued after a sibling was written is reported and
/// skipped, not restarted.
#[test]
fn gemini_string_continued_after_a_sibling_is_malformed_and_skipped() {
    let body = gemini_partial_call(&[
        json!({ "jsonPath": "$.a", "stringValue": "ab", "willContinue": true }),
        json!({ "jsonPath": "$.b", "numberValue": 1 }),
        json!({ "jsonPath": "$.a", "stringValue": "ef" }),
        json!({ "jsonPath": "$.c[0]", "boolValue": true }),
        json!({ "jsonPath": "$.c[0]", "boolValue": false }),
    ]);
    let (s, events, end) = replay(body.as_bytes());
    end.unwrap();
    assert_eq!(malformed(&events).len(), 2, "{:?}", malformed(&events));
    let got: J = serde_json::from_str(s.calls()[0].arguments_text()).unwrap();
    assert_eq!(got, json!({ "a": "ab", "b": 1, "c": [true] }));
}

/// Item 1: a `partialArgs` `numberValue` comes out as Gemini wrote it
/// (read as `f64`, the digits past a double's were lost and a `1e400`
/// failed the whole chunk), and `nullValue` still counts when present.
#[test]
fn gemini_partial_number_values_keep_their_text() {
    let numbers = [
        "12345678901234567890123",
        "-0",
        "1E2",
        "0.1000000000000000055511151231257827",
        "1e-400",
        "1e400",
    ];
    let mut body = gemini_parts(
        json!([{ "functionCall": { "name": "f", "willContinue": true } }]),
        None,
    );
    // Written by hand: `json!` would hold each number as a double.
    let entry = |path: String, value: &str| {
        format!(
            "data: {{\"candidates\":[{{\"content\":{{\"role\":\"model\",\"parts\":[{{\"functionCall\":\
             {{\"partialArgs\":[{{\"jsonPath\":\"{path}\",{value}}}],\"willContinue\":true}}}}]}}}}]}}\r\n\r\n"
        )
    };
    for (i, n) in numbers.iter().enumerate() {
        body += &entry(format!("$.n{i}"), &format!("\"numberValue\": {n}"));
    }
    body += &entry("$.z".into(), "\"nullValue\":null");
    body += &gemini_parts(json!([{ "functionCall": {} }]), Some("STOP"));
    let (s, events, end) = replay(body.as_bytes());
    end.unwrap();
    assert!(malformed(&events).is_empty(), "{:?}", malformed(&events));
    let call = &s.calls()[0];
    assert_eq!(call.status(), CallStatus::Complete);
    let want: Vec<String> = numbers
        .iter()
        .enumerate()
        .map(|(i, n)| format!("\"n{i}\":{n}"))
        .chain(["\"z\":null".to_owned()])
        .collect();
    assert_eq!(call.arguments_text(), format!("{{{}}}", want.join(",")));
}

/// A Bedrock prelude: total length, headers length, CRC32 of the two.
fn prelude(total: u32) -> Vec<u8> {
    let mut p = total.to_be_bytes().to_vec();
    p.extend_from_slice(&0u32.to_be_bytes());
    let crc = crc32fast::hash(&p);
    p.extend_from_slice(&crc.to_be_bytes());
    p
}

/// Item 13: a first frame whose prelude claims 2^32-1 bytes gets the
/// frame bound's error at once, as the same frame does after a good one.
#[test]
fn a_first_bedrock_frame_past_the_bound_gets_the_bound_error() {
    let path = common::testdata("vendor-streams")
        .join("bedrock")
        .join("pydantic-ai-nova-text-then-tooluse.eventstream");
    let good = std::fs::read(path).unwrap();
    let mut later = good.clone();
    later.extend_from_slice(&prelude(u32::MAX));
    let (_, _, end) = replay(&later);
    let Err(StreamError::EventStream(EventStreamError::FrameTooLarge { total, .. })) = end else {
        panic!("after a good frame: {end:?}");
    };
    assert_eq!(total, u32::MAX);

    for tail in [0usize, 1 << 20] {
        let mut first = prelude(u32::MAX);
        first.resize(first.len() + tail, 0);
        let mut s = ToolCallStream::new();
        let end = s.feed(&first).and_then(|()| s.finish());
        match end {
            Err(StreamError::EventStream(EventStreamError::FrameTooLarge {
                offset: 0,
                total: u32::MAX,
                ..
            })) => {}
            other => panic!("first frame, {tail} bytes after: {other:?}"),
        }
    }
}

/// Item 12: `parse` and `validate` of `[1,1,1,...]` stop at their value's
/// memory budget, early and naming it, rather than at the 64 MiB input
/// limit after a gigabyte; a document of strings of the same size passes.
#[test]
fn parse_and_validate_stop_a_dense_array_at_the_value_budget() {
    let n = 16 << 20;
    let mut doc = Vec::with_capacity(2 * n + 1);
    doc.push(b'[');
    for _ in 0..n - 1 {
        doc.extend_from_slice(b"1,");
    }
    doc.extend_from_slice(b"1]");
    let file = temp_file("ones.json", &doc);
    let schema = temp_file("schema.json", b"{}");
    for args in [
        vec!["parse", file.as_str()],
        vec!["validate", "--schema", schema.as_str(), file.as_str()],
    ] {
        let o = bin().args(&args).output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("--max-tree-bytes"), "{args:?}: {err}");
        // Refused within the first 16 MiB, not at the end.
        let at: u64 = err
            .split("at byte ")
            .nth(1)
            .and_then(|t| t.split(',').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{err}"));
        assert!(at < 16 << 20, "{args:?}: {err}");
    }
    // Raised, the same document passes.
    let o = bin()
        .args(["parse", "--max-tree-bytes", "4000000000", &file])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let strings = serde_json::to_vec(&vec!["x".repeat(100); 80_000]).unwrap();
    let file = temp_file("strings.json", &strings);
    let o = bin()
        .args(["validate", "--schema", &schema, &file])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Item 12: `ValueBuilder::held_bytes` bounds what the built value holds,
/// as the allocator counts it.
#[test]
fn value_builder_held_bytes_bounds_the_allocated_bytes() {
    let docs: [Vec<u8>; 4] = [
        format!("[{}1]", "1,".repeat(100_000)).into_bytes(),
        format!("[{}{{}}]", r#"{"a":1,"bb":[2,3]},"#.repeat(20_000)).into_bytes(),
        serde_json::to_vec(&vec!["y".repeat(300); 2_000]).unwrap(),
        format!("[{}0]", "[[[0]]],".repeat(20_000)).into_bytes(),
    ];
    for doc in &docs {
        let ((held, value), peak) = common::counting_alloc::peak_during(|| {
            let mut p = tooljson::Parser::new();
            let mut b = tooljson::ValueBuilder::new();
            let mut held = 0;
            for step in doc.chunks(4096) {
                p.feed(step, &mut b).unwrap();
                held = held.max(b.held_bytes());
            }
            p.finish(&mut b).unwrap();
            (held.max(b.held_bytes()), b.into_value())
        });
        assert!(value.is_some());
        let live = peak as u64;
        // The estimate is within a factor of the truth on either side.
        assert!(held * 3 >= live, "held {held}, allocated {live}");
        assert!(held <= live * 4, "held {held}, allocated {live}");
    }
}
