//! Issue 32, item 7: the memory a partial tree holds per byte of argument
//! text, and the budgets that bound it. Measured by a counting allocator
//! (live bytes on the test's thread), not by time.

use tooljson::partial::PartialParser;

#[path = "../benches/common/documents.rs"]
mod generators;

use crate::common::counting_alloc;

/// The counts are global: one measuring test at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Live bytes held by a parser fed `doc` in `chunk`-byte pieces: while the
/// root is still open (all but the last byte) and once finished, with the
/// peak over the whole feed.
struct Held {
    /// The parser's own estimate ([`PartialParser::held_bytes`]), open.
    estimate_open: u64,
    /// The same once finished.
    estimate_finished: u64,
    open: usize,
    finished: usize,
    peak: usize,
}

fn held_by_tree(doc: &[u8], chunk: usize) -> Held {
    let base = counting_alloc::live();
    counting_alloc::reset_peak();
    let mut p = PartialParser::new();
    let (head, tail) = doc.split_at(doc.len() - 1);
    for piece in head.chunks(chunk) {
        p.feed(piece, &mut ()).unwrap();
    }
    let open = counting_alloc::live().saturating_sub(base);
    let estimate_open = p.held_bytes();
    p.feed(tail, &mut ()).unwrap();
    p.finish(&mut ()).unwrap();
    let finished = counting_alloc::live().saturating_sub(base);
    let estimate_finished = p.held_bytes();
    let peak = counting_alloc::peak().saturating_sub(base);
    assert!(p.value().is_some());
    drop(p);
    Held {
        estimate_open,
        estimate_finished,
        open,
        finished,
        peak,
    }
}

const SIZE: usize = 1 << 20;

/// Each workload with the most bytes its tree may hold per byte of text
/// once finished, and at its peak (a list or string that grows by a half
/// holds 2.5 times what it held for the moment it moves). A `Value` is 32
/// bytes, so an array of one-digit numbers (`[0,0,...]`, 2 bytes an item)
/// cannot go below 16 per byte.
fn workloads() -> [(&'static str, String, f64, f64); 5] {
    let zeros = format!("[{}0]", "0,".repeat(SIZE / 2));
    [
        (
            "numeric_array",
            generators::numeric_array_args(SIZE),
            3.8,
            9.5,
        ),
        ("zeros", zeros, 18.5, 31.0),
        // Members in the order written (serde_json `preserve_order`, which
        // `protocol` turns on): the long `content` string comes last and its
        // last growth step sets the peak.
        ("write_file", generators::write_file_args(SIZE), 1.0, 2.0),
        (
            "parallel_edits",
            generators::parallel_edits_args(SIZE),
            2.45,
            2.7,
        ),
        (
            "nested_config",
            generators::nested_config_args(SIZE),
            6.0,
            6.1,
        ),
    ]
}

/// A finished array is built in place from its open nodes, which needs a
/// node and a value to be the same size; both are 32 bytes.
#[test]
fn a_node_is_the_size_of_a_value() {
    use std::mem::size_of;
    assert_eq!(size_of::<tooljson::PartialNode>(), 32);
    assert_eq!(size_of::<tooljson::Value>(), 32);
}

/// Prints the bytes held per byte of argument text (run with
/// `--nocapture` to read them) and bounds them.
#[test]
fn a_partial_tree_holds_a_bounded_multiple_of_its_text() {
    let _one = one_at_a_time();
    for (name, doc, most_finished, most_peak) in workloads() {
        let held = held_by_tree(doc.as_bytes(), 16);
        let per = |n: usize| n as f64 / doc.len() as f64;
        println!(
            "{name}: {} bytes; held open {:.2}x, finished {:.2}x, peak {:.2}x; estimated {:.2}x, {:.2}x",
            doc.len(),
            per(held.open),
            per(held.finished),
            per(held.peak),
            per(held.estimate_open as usize),
            per(held.estimate_finished as usize),
        );
        assert!(
            held.finished > 0 && held.open > 0,
            "{name}: nothing counted"
        );
        assert!(
            per(held.finished) <= most_finished && per(held.open) <= most_finished,
            "{name}: {:.2}x held open, {:.2}x finished, over {most_finished}x",
            per(held.open),
            per(held.finished)
        );
        assert!(
            per(held.peak) <= most_peak,
            "{name}: peak {:.2}x, over {most_peak}x",
            per(held.peak)
        );
        // The estimate a budget compares against bounds what is held, and
        // not so loosely that a budget would refuse a fraction of it.
        for (estimate, real) in [
            (held.estimate_open, held.open),
            (held.estimate_finished, held.finished),
        ] {
            assert!(
                estimate >= real as u64,
                "{name}: estimate {estimate} < held {real}"
            );
            assert!(
                estimate <= 3 * real as u64,
                "{name}: estimate {estimate} > 3x held {real}"
            );
        }
    }
}

fn delta_event(index: usize, partial_json: &str) -> String {
    serde_json::json!({"type": "content_block_delta", "index": index,
        "delta": {"type": "input_json_delta", "partial_json": partial_json}})
    .to_string()
}

fn start_event(index: usize) -> String {
    serde_json::json!({"type": "content_block_start", "index": index,
        "content_block": {"type": "tool_use", "id": format!("toolu_{index}"), "name": "f", "input": {}}})
    .to_string()
}

/// Live bytes on this thread after `run`, which must not panic.
fn live_after(run: impl FnOnce() -> ToolCallStream) -> (usize, ToolCallStream) {
    let base = counting_alloc::live();
    let stream = run();
    let live = counting_alloc::live().saturating_sub(base);
    (live, stream)
}

/// Streams `calls` calls, each `[0,0,...]` of `doc_bytes` in 4 KiB deltas.
fn tiny_values(stream: ToolCallStream, calls: usize, doc_bytes: usize) -> ToolCallStream {
    let mut s = stream;
    let doc = format!("[{}0]", "0,".repeat(doc_bytes / 2));
    for i in 0..calls {
        s.feed_event(Some("content_block_start"), &start_event(i))
            .unwrap();
        for piece in doc.as_bytes().chunks(4096) {
            let piece = std::str::from_utf8(piece).unwrap();
            s.feed_event(Some("content_block_delta"), &delta_event(i, piece))
                .unwrap();
            // A client reads the events as they come.
            s.drain_events().for_each(drop);
        }
    }
    s
}

use tooljson::providers::{CallError, CallStatus, ToolCallStream};

#[test]
fn a_call_past_its_memory_budget_ends_with_an_error_naming_it() {
    let _one = one_at_a_time();
    const BUDGET: u64 = 8 << 20;
    // 4 MiB of tiny values: a tree of about 64 MiB with no budget.
    let (live, s) = live_after(|| {
        tiny_values(
            ToolCallStream::new().with_max_call_tree_bytes(BUDGET),
            1,
            4 << 20,
        )
    });
    // The raw text (4 MiB) is kept; the tree is not.
    assert!(
        live < (4 << 20) + 2 * BUDGET as usize,
        "{live} bytes live with a budget of {BUDGET}"
    );
    let call = &s.calls()[0];
    assert!(
        call.errors().contains(&CallError::CallTreeBudget(BUDGET)),
        "{:?}",
        call.errors()
    );
    assert!(call.partial().is_none());
    assert!(
        call.errors()[0]
            .to_string()
            .contains("per-call memory budget"),
        "{}",
        call.errors()[0]
    );
}

#[test]
fn the_calls_of_a_response_share_a_memory_budget() {
    let _one = one_at_a_time();
    const BUDGET: u64 = 16 << 20;
    // Eight calls of 1 MiB of tiny values: each about 16 MiB of tree, all
    // under the per-call default, far past the response's budget together.
    let (live, mut s) = live_after(|| {
        tiny_values(
            ToolCallStream::new().with_max_response_tree_bytes(BUDGET),
            8,
            1 << 20,
        )
    });
    // The raw texts (8 MiB) are kept; the trees past the budget are not.
    assert!(
        live < (8 << 20) + 2 * BUDGET as usize,
        "{live} bytes live with a response budget of {BUDGET}"
    );
    let over: Vec<usize> = (0..8)
        .filter(|&i| {
            s.calls()[i]
                .errors()
                .contains(&CallError::ResponseTreeBudget(BUDGET))
        })
        .collect();
    assert!(!over.is_empty(), "no call named the response budget");
    s.finish().unwrap();
    for &i in &over {
        assert_eq!(s.calls()[i].status(), CallStatus::Invalid);
    }
}
