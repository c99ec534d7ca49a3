//! Issue 32, case 2: a long string nested deep, closed by one delta, must not
//! be copied once per enclosing container into the event queue. Measured by a
//! counting allocator (peak live bytes), not by time: on a copy per level the
//! peak is about `depth` times the string.

use tooljson::providers::{CallEvent, CallStatus, ToolCallStream};

use crate::common::counting_alloc;

const DEPTH: usize = 120;
const STRING: usize = 4 << 20;

fn event(partial_json: &str) -> String {
    let data = serde_json::json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "input_json_delta", "partial_json": partial_json}});
    format!("event: content_block_delta\ndata: {data}\n\n")
}

#[test]
fn a_deep_long_string_closed_by_one_delta_is_not_copied_per_level() {
    let head = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"content\":[]}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\n",
    );
    let open = format!(
        "{}\"{}",
        "{\"a\":[".to_owned() + &"[".repeat(DEPTH - 1),
        "x".repeat(STRING)
    );
    let close = format!("\"{}]}}", "]".repeat(DEPTH - 1));
    let body = [
        head.to_owned(),
        event(&open),
        event(&close),
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
            .to_owned(),
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n".to_owned(),
    ];
    let input: usize = body.iter().map(String::len).sum();

    let mut stream = ToolCallStream::new();
    let base = counting_alloc::live();
    counting_alloc::reset_peak();
    let mut completed = 0;
    for piece in &body {
        stream.feed(piece.as_bytes()).unwrap();
        for e in stream.drain_events() {
            if let CallEvent::ValueCompleted { .. } = e {
                completed += 1;
            }
        }
    }
    stream.finish().unwrap();
    let peak = counting_alloc::peak().saturating_sub(base);
    eprintln!(
        "peak {peak} bytes live for an input of {input} bytes ({:.1}x)",
        peak as f64 / input as f64
    );

    assert_eq!(stream.calls()[0].status(), CallStatus::Complete);
    assert_eq!(completed, DEPTH + 2);
    let root = stream.calls()[0].value().unwrap();
    let mut v = &root["a"];
    for _ in 0..DEPTH - 1 {
        v = &v[0];
    }
    assert_eq!(v[0].as_str().map(str::len), Some(STRING));
    // The event's data is borrowed from the fed bytes, not copied; the
    // string is held by the delta's decoded text, the call's text, the
    // event that carried the text and the tree, each once. A copy per
    // level would be over a hundred.
    assert!(
        peak < 9 * input / 2,
        "peak {peak} bytes live for an input of {input} bytes ({:.1}x)",
        peak as f64 / input as f64
    );
}
