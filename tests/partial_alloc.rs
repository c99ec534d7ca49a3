//! Events-only mode allocates nothing per chunk in the steady state: the
//! parser's scratch and path buffers are reused, and events borrow.

use tooljson::partial::{PartialParser, ValueEvent};

use crate::common::counting_alloc::allocations;

fn document() -> Vec<u8> {
    let mut content = String::new();
    for i in 0..2000 {
        content.push_str(&format!("line {i}: \"quoted\" \\ tab\t é 😀\n"));
    }
    let mut doc = serde_json::to_vec(&serde_json::json!({
        "path": "src/main.rs",
        "edits": (0..200).map(|i| serde_json::json!({"line": i, "ok": true, "note": "fixed"})).collect::<Vec<_>>(),
        "content": content,
    }))
    .unwrap();
    doc.extend_from_slice(b"\n");
    doc
}

#[test]
fn events_only_steady_state_allocates_nothing_per_chunk() {
    let doc = document();
    for chunk in [1usize, 4, 16, 64] {
        let mut p = PartialParser::events_only();
        let mut appended = 0usize;
        let mut completed = 0usize;
        let mut on_event = |e: ValueEvent<'_>| match e {
            ValueEvent::Appended { text, .. } => appended += text.len(),
            ValueEvent::Completed { .. } => completed += 1,
            ValueEvent::Opened { .. } => {}
        };
        let chunks: Vec<&[u8]> = doc.chunks(chunk).collect();
        // Warm up: one whole document, so the reused buffers (string
        // scratch, key segments) reach their working size; then a second
        // call's worth of chunks must not allocate at all.
        for c in &chunks {
            p.feed(c, &mut ()).unwrap();
        }
        p.finish(&mut ()).unwrap();
        p.reset();
        let warm = 0;
        let before = allocations();
        for c in &chunks[warm..] {
            p.feed(c, &mut on_event).unwrap();
        }
        let during = allocations() - before;
        p.finish(&mut on_event).unwrap();
        assert!(completed > 600, "events were delivered ({completed})");
        assert!(
            appended > 60_000,
            "string text was delivered ({appended} bytes)"
        );
        assert_eq!(
            during,
            0,
            "chunk size {chunk}: {during} allocations over {} steady-state chunks",
            chunks.len() - warm
        );
    }
}
