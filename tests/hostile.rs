//! Hostile inputs: what the parser and the partial tree do with each, with
//! peak heap memory (a counting global allocator) and time, printed as the
//! README's table rows (`cargo test --release --all-features --test main hostile:: -- --nocapture`)
//! and asserted against bounds. Run in release mode; the file takes a few
//! seconds there.
//!
//! The allocator counts per thread (`common/counting_alloc.rs`), so a peak
//! is one test's alone; the tests also take one lock, so their timings do
//! not overlap.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tooljson::error::{ErrorCode, LimitKind};
use tooljson::partial::PartialParser;
use tooljson::{Category, DuplicateKeys, Error, Limits, Parser, Value, ValueBuilder};

use crate::common::counting_alloc;

/// This thread's net allocation so far.
fn mine_now() -> isize {
    counting_alloc::live() as isize
}

static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> std::sync::MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f`, returning its result, the peak heap above the level at the
/// start (bytes), and the time taken.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, Duration) {
    let t = Instant::now();
    let (out, peak) = counting_alloc::peak_during(f);
    (out, peak, t.elapsed())
}

fn mib(b: usize) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.1} KiB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}

fn row(input: &str, how: &str, behaviour: &str, peak: usize, took: Duration) {
    println!(
        "| {input} | {how} | {behaviour} | {} | {:.1} ms |",
        mib(peak),
        took.as_secs_f64() * 1e3
    );
}

/// How a document is fed.
#[derive(Clone, Copy, Debug)]
enum Feed {
    /// `Parser` with no sink (syntax check only).
    Check,
    /// `Parser` building a `Value`.
    Build,
    /// `PartialParser` events only.
    Events,
    /// `PartialParser` with the tree.
    Tree,
}

impl Feed {
    fn name(self) -> &'static str {
        match self {
            Feed::Check => "Parser, no sink",
            Feed::Build => "Parser + ValueBuilder",
            Feed::Events => "PartialParser events-only",
            Feed::Tree => "PartialParser tree",
        }
    }
}

/// Feeds `doc` in chunks of `chunk` bytes (0 = whole), then finishes.
fn run(
    doc: &[u8],
    chunk: usize,
    feed: Feed,
    limits: Limits,
    policy: DuplicateKeys,
) -> Result<Option<Value>, Error> {
    let chunk = if chunk == 0 { doc.len().max(1) } else { chunk };
    let mut parser = Parser::with_limits(limits);
    parser.set_duplicate_keys(policy);
    match feed {
        Feed::Check | Feed::Build => {
            let mut builder = ValueBuilder::with_duplicate_keys(policy);
            for piece in doc.chunks(chunk) {
                if matches!(feed, Feed::Check) {
                    parser.feed(piece, &mut ())?;
                } else {
                    parser.feed(piece, &mut builder)?;
                }
            }
            parser.finish(&mut builder)?;
            Ok(builder.into_value())
        }
        Feed::Events | Feed::Tree => {
            let mut p = PartialParser::with_parser(parser, matches!(feed, Feed::Tree));
            for piece in doc.chunks(chunk) {
                p.feed(piece, &mut ())?;
            }
            p.finish(&mut ())?;
            Ok(p.into_value())
        }
    }
}

fn chunk_name(c: usize) -> String {
    if c == 0 {
        "whole".to_owned()
    } else {
        format!("{c} B chunks")
    }
}

const ALL: [Feed; 4] = [Feed::Check, Feed::Build, Feed::Events, Feed::Tree];

#[test]
fn a_million_nested_brackets() {
    let _g = lock();
    let doc = vec![b'['; 1_000_000];
    for feed in ALL {
        for chunk in [0, 4096, 1] {
            let (r, peak, took) = measure(|| {
                run(
                    &doc,
                    chunk,
                    feed,
                    Limits::default(),
                    DuplicateKeys::LastWins,
                )
            });
            let e = r.unwrap_err();
            assert_eq!(e.category(), Category::LimitExceeded);
            assert_eq!(
                e.code(),
                &ErrorCode::LimitExceeded {
                    kind: LimitKind::Depth,
                    limit: 128
                }
            );
            assert_eq!(e.offset(), 128, "at the 129th bracket");
            assert!(peak < 64 << 10, "{feed:?}: {peak} bytes for a depth error");
            if chunk == 0 || matches!(feed, Feed::Check) {
                row(
                    "1,000,000 × `[`",
                    &format!("{}, {}", feed.name(), chunk_name(chunk)),
                    "LimitExceeded (depth 128) at offset 128",
                    peak,
                    took,
                );
            }
        }
    }
    // With the depth limit raised the explicit stack holds a million levels:
    // no recursion, no stack overflow, memory linear in the depth.
    let deep = Limits {
        max_depth: 2_000_000,
        ..Limits::default()
    };
    let (r, peak, took) = measure(|| run(&doc, 65536, Feed::Check, deep, DuplicateKeys::LastWins));
    let e = r.unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path().len(), 1_000_000);
    assert!(
        peak < 100 * doc.len(),
        "{peak} bytes for a million open arrays"
    );
    row(
        "1,000,000 × `[`",
        "Parser, no sink, max_depth 2,000,000",
        "Truncated at finish (path depth 1,000,000): explicit stack, no recursion",
        peak,
        took,
    );
}

#[test]
fn a_value_nested_a_million_objects_deep_is_dropped_without_recursion() {
    let _g = lock();
    let levels = 1_000_000;
    let mut doc = "{\"a\":".repeat(levels).into_bytes();
    doc.push(b'0');
    doc.extend(std::iter::repeat_n(b'}', levels));
    let deep = Limits {
        max_depth: 2_000_000,
        ..Limits::default()
    };
    let ((), peak, took) = measure(|| {
        let mut p = Parser::with_limits(deep);
        let mut b = ValueBuilder::new();
        p.feed(&doc, &mut b).unwrap();
        p.finish(&mut b).unwrap();
        let v = b.into_value().unwrap();
        let mut depth = 0;
        let mut at = &v;
        while let Some(inner) = at.get("a") {
            at = inner;
            depth += 1;
        }
        assert_eq!(depth, levels);
        assert_eq!(at.as_i64(), Some(0));
        // On the test thread's 2 MiB stack: recursive drop glue, a few
        // dozen bytes of stack per level, would overflow it.
        drop(v);
    });
    row(
        "1,000,000 nested objects `{\"a\":…}`",
        "Parser + ValueBuilder, max_depth 2,000,000, value dropped",
        "Ok; the value is torn down without recursion",
        peak,
        took,
    );
}

#[test]
fn a_hundred_megabyte_string() {
    let _g = lock();
    let mut doc = Vec::with_capacity(100_000_002);
    doc.push(b'"');
    doc.resize(100_000_001, b'a');
    doc.push(b'"');
    let limit = 16 << 20;
    for (feed, chunk) in [
        (Feed::Check, 0),
        (Feed::Build, 0),
        (Feed::Tree, 4096),
        (Feed::Events, 4096),
    ] {
        let (r, peak, took) = measure(|| {
            run(
                &doc,
                chunk,
                feed,
                Limits::default(),
                DuplicateKeys::LastWins,
            )
        });
        let e = r.unwrap_err();
        assert_eq!(
            e.code(),
            &ErrorCode::LimitExceeded {
                kind: LimitKind::StringBytes,
                limit: limit as u64
            }
        );
        assert_eq!(
            e.offset(),
            2 + limit as u64,
            "just after the first byte past 16 MiB"
        );
        // At most the 16 MiB kept so far, with growth slack.
        assert!(peak < 3 * limit, "{feed:?}: {peak}");
        row(
            "100 MB string",
            &format!("{}, {}, default limits", feed.name(), chunk_name(chunk)),
            "LimitExceeded (string 16 MiB) at offset 16,777,218",
            peak,
            took,
        );
    }
    let raised = Limits {
        max_input_bytes: 1 << 30,
        max_string_bytes: 1 << 30,
        ..Limits::default()
    };
    for (feed, chunk) in [
        (Feed::Check, 0),
        (Feed::Build, 0),
        (Feed::Build, 4096),
        (Feed::Tree, 65536),
    ] {
        let (r, peak, took) = measure(|| {
            let v = run(&doc, chunk, feed, raised, DuplicateKeys::LastWins).unwrap();
            v.map(|v| v.as_str().map(str::len))
        });
        match feed {
            Feed::Check => {
                assert_eq!(r, None);
                assert!(peak < 64 << 10, "no sink keeps no text: {peak}");
            }
            _ => assert_eq!(r, Some(Some(100_000_000))),
        }
        assert!(
            peak < 4 * doc.len(),
            "{feed:?}: {peak} bytes for a 100 MB string"
        );
        row(
            "100 MB string",
            &format!("{}, {}, string limit 1 GiB", feed.name(), chunk_name(chunk)),
            "parses",
            peak,
            took,
        );
    }
}

#[test]
fn a_number_with_a_million_digits() {
    let _g = lock();
    let mut doc = vec![b'['];
    doc.resize(1_000_001, b'7');
    doc.push(b']');
    for feed in ALL {
        for chunk in [0, 1000] {
            let (r, peak, took) = measure(|| {
                run(
                    &doc,
                    chunk,
                    feed,
                    Limits::default(),
                    DuplicateKeys::LastWins,
                )
            });
            let e = r.unwrap_err();
            assert_eq!(
                e.code(),
                &ErrorCode::LimitExceeded {
                    kind: LimitKind::NumberBytes,
                    limit: 4096
                }
            );
            assert_eq!(e.offset(), 1 + 4096);
            assert!(peak < 64 << 10, "{feed:?}: {peak}");
            if chunk == 0 {
                row(
                    "number of 1,000,000 digits",
                    &format!("{}, {}, default limits", feed.name(), chunk_name(chunk)),
                    "LimitExceeded (number 4096 bytes) at offset 4097",
                    peak,
                    took,
                );
            }
        }
    }
    let raised = Limits {
        max_number_bytes: 2_000_000,
        ..Limits::default()
    };
    for (feed, chunk) in [(Feed::Build, 0), (Feed::Build, 1000), (Feed::Tree, 4096)] {
        let (r, peak, took) = measure(|| {
            run(&doc, chunk, feed, raised, DuplicateKeys::LastWins)
                .unwrap()
                .unwrap()
        });
        let n = r[0].as_number().unwrap();
        assert_eq!(n.as_str().len(), 1_000_000);
        assert!(n.as_str().bytes().all(|b| b == b'7'), "lexeme kept exactly");
        assert_eq!(
            (n.as_u64(), n.as_f64()),
            (None, None),
            "out of range for u64 and f64"
        );
        assert!(peak < 8 * doc.len(), "{feed:?}: {peak}");
        row(
            "number of 1,000,000 digits",
            &format!(
                "{}, {}, number limit 2,000,000",
                feed.name(),
                chunk_name(chunk)
            ),
            "parses; lexeme kept; `as_u64`/`as_f64` None",
            peak,
            took,
        );
    }
}

#[test]
fn huge_exponents_are_valid_and_kept() {
    let _g = lock();
    for chunk in [0, 1, 3] {
        for feed in [Feed::Build, Feed::Tree] {
            let doc = b"[1e999999, -1e999999, 1e-999999, 1E+999999999999999999999]";
            let (r, peak, took) =
                measure(|| run(doc, chunk, feed, Limits::default(), DuplicateKeys::LastWins));
            let v = r.unwrap().unwrap();
            assert_eq!(
                v.to_string(),
                "[1e999999,-1e999999,1e-999999,1E+999999999999999999999]"
            );
            let a = v.as_array().unwrap();
            // Overflow to infinity: as_f64 says None (serde_json: "number out
            // of range"); underflow is a plain 0.
            assert_eq!(a[0].as_f64(), None);
            assert_eq!(a[1].as_f64(), None);
            assert_eq!(a[2].as_f64(), Some(0.0));
            assert_eq!(a[0].as_number().unwrap().to_serde_json(), None);
            assert!(peak < 16 << 10);
            if chunk == 0 {
                row(
                    "`1e999999`",
                    &format!("{}, {}", feed.name(), chunk_name(chunk)),
                    "valid; lexeme kept; `as_f64()` None (would be inf), `1e-999999` gives 0.0",
                    peak,
                    took,
                );
            }
        }
    }
}

#[test]
fn a_million_keys() {
    let _g = lock();
    let mut doc = String::from("{");
    for i in 0..1_000_000 {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!("\"k{i}\":{i}"));
    }
    doc.push('}');
    let doc = doc.into_bytes();
    for (feed, chunk, policy) in [
        (Feed::Check, 0, DuplicateKeys::LastWins),
        (Feed::Check, 16, DuplicateKeys::LastWins),
        (Feed::Check, 0, DuplicateKeys::Error),
        (Feed::Build, 4096, DuplicateKeys::LastWins),
        (Feed::Events, 4096, DuplicateKeys::LastWins),
        (Feed::Tree, 4096, DuplicateKeys::LastWins),
    ] {
        let (r, peak, took) = measure(|| {
            run(&doc, chunk, feed, Limits::default(), policy)
                .unwrap()
                .map(|v| v.as_object().map(|m| m.len()))
        });
        match feed {
            Feed::Check | Feed::Events => {
                assert_eq!(r, None);
                if policy == DuplicateKeys::Error {
                    // The key set of the open object.
                    assert!(peak < 8 * doc.len(), "{peak}");
                } else {
                    assert!(peak < 64 << 10, "{feed:?} keeps nothing per key: {peak}");
                }
            }
            _ => {
                assert_eq!(r, Some(Some(1_000_000)));
                // A tree: about 200 B (builder) to 300 B (partial tree, which
                // holds its member list and the finished map at the moment
                // the object closes) per member of 17 input bytes.
                assert!(peak < 24 * doc.len(), "{feed:?}: {peak}");
            }
        }
        row(
            &format!("1,000,000 keys ({:.1} MB)", doc.len() as f64 / 1e6),
            &format!("{}, {}, {policy:?}", feed.name(), chunk_name(chunk)),
            "parses",
            peak,
            took,
        );
    }
}

#[test]
fn many_duplicate_keys_under_each_policy() {
    let _g = lock();
    let mut doc = String::from("{");
    for i in 0..200_000 {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!("\"a\":{i}"));
    }
    doc.push('}');
    let doc = doc.into_bytes();
    for policy in [
        DuplicateKeys::LastWins,
        DuplicateKeys::FirstWins,
        DuplicateKeys::Error,
    ] {
        for (feed, chunk) in [
            (Feed::Build, 0),
            (Feed::Build, 7),
            (Feed::Tree, 4096),
            (Feed::Events, 4096),
        ] {
            let (r, peak, took) = measure(|| run(&doc, chunk, feed, Limits::default(), policy));
            let behaviour = match (policy, r) {
                (DuplicateKeys::Error, Err(e)) => {
                    assert_eq!(e.code(), &ErrorCode::DuplicateKey("a".to_owned()));
                    assert_eq!((e.offset(), e.path().to_string().as_str()), (9, "/a"));
                    assert!(peak < 64 << 10);
                    "Invalid: `duplicate key \"a\"` at the second key".to_owned()
                }
                (_, Ok(v)) => {
                    if let Some(v) = v {
                        let want = if policy == DuplicateKeys::FirstWins {
                            "{\"a\":0}"
                        } else {
                            "{\"a\":199999}"
                        };
                        assert_eq!(v.to_string(), want);
                    }
                    match feed {
                        Feed::Events => assert!(peak < 64 << 10, "{policy:?}: {peak}"),
                        // The builder holds every occurrence until the object
                        // closes (its flat member buffer), then keeps one:
                        // linear in the input.
                        Feed::Build => assert!(peak < 24 * doc.len(), "{policy:?}: {peak}"),
                        // The streaming tree shows every occurrence until
                        // the object closes (documented), so it grows with them.
                        _ => assert!(peak < 64 * doc.len(), "{peak}"),
                    }
                    format!(
                        "{} wins",
                        if policy == DuplicateKeys::FirstWins {
                            "first"
                        } else {
                            "last"
                        }
                    )
                }
                (p, Err(e)) => panic!("{p:?}: {e}"),
            };
            row(
                "200,000 × the same key",
                &format!("{}, {}, {policy:?}", feed.name(), chunk_name(chunk)),
                &behaviour,
                peak,
                took,
            );
        }
    }
}

/// Strings that must be rejected, with the error offset, at every chunk size
/// and in both parsers.
#[test]
fn surrogates_and_bad_utf8_are_invalid_at_every_chunking() {
    let _g = lock();
    let cases: &[(&str, &[u8], u64, &str)] = &[
        (
            "lone high surrogate",
            br#"["\ud800"]"#,
            8,
            "lone surrogate \\ud800 in string",
        ),
        (
            "lone high surrogate at end",
            br#"["\uD83D"]"#,
            8,
            "lone surrogate \\ud83d in string",
        ),
        (
            "lone low surrogate",
            br#"["\udc00"]"#,
            7,
            "lone surrogate \\udc00 in string",
        ),
        (
            "high + non-surrogate escape",
            br#"["\ud800\u0041"]"#,
            13,
            "lone surrogate \\ud800 in string",
        ),
        (
            "high + high",
            br#"["\ud800\ud800"]"#,
            13,
            "lone surrogate \\ud800 in string",
        ),
        (
            "high + plain text",
            br#"["\ud800abc"]"#,
            8,
            "lone surrogate \\ud800 in string",
        ),
        (
            "low + high (reversed pair)",
            br#"["\ude00\ud83d"]"#,
            7,
            "lone surrogate \\ude00 in string",
        ),
        (
            "overlong '/' (C0 AF)",
            b"[\"\xc0\xaf\"]",
            2,
            "invalid UTF-8 in string",
        ),
        (
            "overlong NUL (E0 80 80)",
            b"[\"\xe0\x80\x80\"]",
            2,
            "invalid UTF-8 in string",
        ),
        (
            "overlong (F0 80 80 AF)",
            b"[\"\xf0\x80\x80\xaf\"]",
            2,
            "invalid UTF-8 in string",
        ),
        (
            "encoded surrogate (ED A0 80)",
            b"[\"\xed\xa0\x80\"]",
            2,
            "invalid UTF-8 in string",
        ),
        (
            "encoded low surrogate (ED BF BF)",
            b"[\"x\xed\xbf\xbf\"]",
            3,
            "invalid UTF-8 in string",
        ),
        (
            "past U+10FFFF (F4 90 80 80)",
            b"[\"\xf4\x90\x80\x80\"]",
            2,
            "invalid UTF-8 in string",
        ),
        (
            "stray continuation byte",
            b"[\"a\x80\"]",
            3,
            "invalid UTF-8 in string",
        ),
        (
            "truncated sequence then quote",
            b"[\"\xe2\x82\"]",
            2,
            "invalid UTF-8 in string",
        ),
        (
            "bad byte in a key",
            b"{\"k\xff\":1}",
            3,
            "invalid UTF-8 in string",
        ),
        (
            "lone surrogate in a key",
            br#"{"\udfff":1}"#,
            7,
            "lone surrogate \\udfff in string",
        ),
    ];
    let mut rows = 0;
    for &(name, doc, offset, message) in cases {
        let (_, peak, took) = measure(|| {
            for feed in ALL {
                for chunk in 0..=8 {
                    let e = run(doc, chunk, feed, Limits::default(), DuplicateKeys::LastWins)
                        .expect_err(name);
                    assert_eq!(e.category(), Category::Invalid, "{name}");
                    assert_eq!(e.offset(), offset, "{name}: {feed:?} chunk {chunk}: {e}");
                    assert_eq!(e.description(), message, "{name}");
                }
            }
        });
        assert!(peak < 16 << 10);
        rows += 1;
        row(
            name,
            "all four, whole and chunks of 1-8",
            &format!("Invalid: `{message}` at offset {offset}"),
            peak,
            took,
        );
    }
    // The valid pair, split at every byte, is one character.
    let doc = br#"["\ud83d\ude00"]"#;
    for feed in ALL {
        for chunk in 0..=8 {
            let v = run(doc, chunk, feed, Limits::default(), DuplicateKeys::LastWins).unwrap();
            if let Some(v) = v {
                assert_eq!(v[0].as_str(), Some("😀"));
            }
        }
    }
    assert_eq!(rows, cases.len());
}

/// The state one stream holds between chunks: `size_of` plus heap, after a
/// typical tool-arguments prefix (cut inside a string, after an escape).
#[test]
fn memory_per_waiting_stream() {
    let _g = lock();
    let prefix = br#"{"path": "src/main.rs", "mode": 420, "edits": [{"line": 12, "old": "foo", "new": "bar"}], "content": "fn main() {\n    println!(\"hel"#;
    // Counted on this thread alone: the test harness's other threads may
    // free memory while this runs (a test that has just finished, its
    // captured output), which a process-wide count would subtract (CI once
    // read less than `size_of::<Parser>()` that way).
    let held = |f: &dyn Fn() -> Box<dyn std::any::Any>| {
        let base = mine_now();
        let kept = f();
        let heap = mine_now() - base;
        drop(kept);
        usize::try_from(heap).expect("a stream holds what it allocated")
    };
    let parser_heap = held(&|| {
        let mut p = Parser::new();
        p.feed(prefix, &mut ()).unwrap();
        Box::new(p)
    }) - std::mem::size_of::<Parser>();
    let events_heap = held(&|| {
        let mut p = PartialParser::events_only();
        p.feed(prefix, &mut ()).unwrap();
        Box::new(p)
    }) - std::mem::size_of::<PartialParser>();
    let tree_heap = held(&|| {
        let mut p = PartialParser::new();
        p.feed(prefix, &mut ()).unwrap();
        Box::new(p)
    }) - std::mem::size_of::<PartialParser>();
    let rows = [
        ("Parser", std::mem::size_of::<Parser>(), parser_heap),
        (
            "PartialParser events-only",
            std::mem::size_of::<PartialParser>(),
            events_heap,
        ),
        (
            "PartialParser tree",
            std::mem::size_of::<PartialParser>(),
            tree_heap,
        ),
    ];
    for (name, size, heap) in rows {
        println!(
            "| waiting stream: {name} after a {}-byte arguments prefix | size_of {size} B + heap {heap} B = {} B | ×100,000 streams = {} |",
            prefix.len(),
            size + heap,
            mib((size + heap) * 100_000)
        );
    }
    assert!(
        std::mem::size_of::<Parser>() + parser_heap < 1024,
        "{parser_heap}"
    );
    assert!(
        std::mem::size_of::<PartialParser>() + events_heap < 1024,
        "{events_heap}"
    );
    // The tree holds the decoded text so far (about 100 bytes here) and its
    // nodes.
    assert!(
        std::mem::size_of::<PartialParser>() + tree_heap < 4096,
        "{tree_heap}"
    );
    assert!(tree_heap > events_heap, "the tree costs something");
}

/// An Anthropic response whose tool call arrives as one `input_json_delta`
/// per byte of `args`.
fn anthropic_one_byte_deltas(args: &str) -> Vec<u8> {
    let mut body = String::new();
    body.push_str("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"m\",\"stop_reason\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n");
    body.push_str("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write_file\",\"input\":{}}}\n\n");
    for c in args.chars() {
        let delta = serde_json::to_string(&c.to_string()).unwrap();
        body.push_str("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":");
        body.push_str(&delta);
        body.push_str("}}\n\n");
    }
    body.push_str(
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    );
    body.push_str("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":5}}\n\n");
    body.push_str("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    body.into_bytes()
}

#[test]
fn a_stream_of_one_byte_sse_events() {
    use tooljson::providers::{CallStatus, ToolCallStream};
    use tooljson::sse::Decoder;
    let _g = lock();
    // The SSE decoder alone: 1,000,000 events of one data byte each.
    let body = "data: x\n\n".repeat(1_000_000).into_bytes();
    for chunk in [4096, 1] {
        let ((events, bytes), peak, took) = measure(|| {
            let mut d = Decoder::new();
            let (mut events, mut bytes) = (0usize, 0usize);
            let mut on = |e: tooljson::sse::Event<'_>| {
                events += 1;
                bytes += e.data.len();
            };
            for piece in body.chunks(chunk) {
                d.feed(piece, &mut on).unwrap();
            }
            d.finish_flush(&mut on);
            (events, bytes)
        });
        assert_eq!((events, bytes), (1_000_000, 1_000_000));
        assert!(peak < 4 << 10, "decoder state grew to {peak} bytes");
        row(
            "1,000,000 one-byte SSE events (`data: x`, 9 MB)",
            &format!("sse::Decoder, {}", chunk_name(chunk)),
            "1,000,000 events, none lost; the decoder keeps only the open line",
            peak,
            took,
        );
    }
    // A vendor stream: a 64 KiB write-file call, one delta event per byte.
    let content: String = (0..2_000)
        .map(|i| format!("line {i}: let x = \"{}\";\n", i % 97))
        .collect::<String>()
        .chars()
        .take(64 * 1024 - 64)
        .collect();
    let args =
        serde_json::to_string(&serde_json::json!({"path": "src/big.rs", "content": content}))
            .unwrap();
    let body = anthropic_one_byte_deltas(&args);
    let expected: serde_json::Value = serde_json::from_str(&args).unwrap();
    for chunk in [4096, 7] {
        let (value, peak, took) = measure(|| {
            let mut s = ToolCallStream::new();
            for piece in body.chunks(chunk) {
                s.feed(piece).unwrap();
                while s.next_event().is_some() {}
            }
            s.finish().unwrap();
            while s.next_event().is_some() {}
            let call = &s.calls()[0];
            assert_eq!(call.status(), CallStatus::Complete);
            call.value().unwrap().to_serde_json().unwrap()
        });
        assert_eq!(value, expected);
        // The raw argument text, its parsed value and the partial tree are
        // each about the size of the arguments: memory follows the
        // arguments, not the 8x larger event stream.
        assert!(
            peak < 8 * args.len() + (256 << 10),
            "{peak} bytes for {} bytes of arguments in {} bytes of SSE",
            args.len(),
            body.len()
        );
        row(
            &format!(
                "a {} KiB tool call as {} one-byte `input_json_delta` events ({:.1} MB of SSE)",
                args.len() >> 10,
                args.chars().count(),
                body.len() as f64 / 1e6
            ),
            &format!("ToolCallStream, {}", chunk_name(chunk)),
            "call complete, value equal to serde_json's parse of the arguments",
            peak,
            took,
        );
    }
}

#[test]
fn an_sse_line_with_no_end() {
    use tooljson::providers::{StreamError, ToolCallStream};
    use tooljson::sse::{Decoder, SseError};
    let _g = lock();
    // 100 MB of one `data:` line that never ends, fed in 64 KiB chunks: the
    // decoder fails at its line bound (16 MiB by default) instead of
    // buffering the rest, and keeps failing with the same error.
    let piece = vec![b'a'; 64 << 10];
    let total = 100_000_000usize;
    let (err, peak, took) = measure(|| {
        let mut d = Decoder::new();
        d.feed(b"data: ", &mut |_| {}).unwrap();
        let mut fed = 6usize;
        while fed < total {
            if let Err(e) = d.feed(&piece, &mut |_| {}) {
                assert_eq!(d.feed(b"\n\n", &mut |_| {}), Err(e.clone()), "stays failed");
                return (e, fed);
            }
            fed += piece.len();
        }
        panic!("100 MB line accepted");
    });
    let (err, fed) = err;
    match &err {
        SseError::LineTooLong { limit, offset } => {
            assert_eq!(*limit, tooljson::sse::DEFAULT_MAX_LINE_BYTES);
            assert!(*offset as usize <= fed + piece.len(), "{err}");
        }
        other => panic!("{other}"),
    }
    assert!(fed < 17 << 20, "failed only after {fed} bytes");
    assert!(peak < 40 << 20, "peak {peak}");
    row(
        "an SSE line with no end (100 MB offered)",
        "sse::Decoder, 64 KiB chunks",
        &format!(
            "`{err}` after {:.1} MiB; later feeds give the same error",
            fed as f64 / (1 << 20) as f64
        ),
        peak,
        took,
    );
    // Through the vendor layer, with a smaller bound: a fatal stream error,
    // and the open call is aborted, not completed.
    let (status, peak, took) = measure(|| {
        let mut s = ToolCallStream::new().with_sse_decoder(Decoder::with_max_line_bytes(1 << 20));
        let head = anthropic_one_byte_deltas("{\"a\":1}");
        let text = String::from_utf8(head).unwrap();
        let cut = text.find("event: content_block_stop").unwrap();
        s.feed(&text.as_bytes()[..cut]).unwrap();
        s.feed(b"event: content_block_delta\ndata: ").unwrap();
        let mut result = Ok(());
        for _ in 0..64 {
            result = s.feed(&piece);
            if result.is_err() {
                break;
            }
        }
        let e = result.unwrap_err();
        assert!(
            matches!(e, StreamError::Sse(SseError::LineTooLong { .. })),
            "{e}"
        );
        assert_eq!(s.feed(b"\n\n").unwrap_err(), e, "stays failed");
        s.calls()[0].status()
    });
    assert_ne!(status, tooljson::providers::CallStatus::Complete);
    row(
        "the same inside a vendor stream, line bound 1 MiB",
        "ToolCallStream, 64 KiB chunks",
        &format!("fatal `StreamError::Sse(LineTooLong)`; the open call ends {status:?}"),
        peak,
        took,
    );
}

/// A schema of patterns short in text and large compiled: each
/// `^(?:\S+\s+){0,999}\S+…$` takes about 3 MiB in the `regex` crate, so
/// 64 of them in a 3 KiB schema asked for 208 MiB and 1.0 s before the
/// schema's pattern budget (`SchemaBuilder::max_pattern_memory`); now the
/// pattern that crosses the 32 MiB budget fails compilation, before it is
/// built, and a raised limit compiles more.
#[test]
fn a_schema_of_patterns_large_when_compiled() {
    let _g = lock();
    let schema = |count: usize| {
        let props: serde_json::Map<String, serde_json::Value> = (0..count)
            .map(|i| {
                (
                    format!("p{i:02}"),
                    serde_json::json!({"pattern": format!("^(?:\\S+\\s+){{0,999}}\\S+{i}$")}),
                )
            })
            .collect();
        serde_json::json!({"type": "object", "properties": props})
    };
    let hostile = schema(64);
    let text_len = hostile.to_string().len();
    let (r, peak, took) = measure(|| tooljson::CompiledSchema::compile(&hostile));
    let err = r.unwrap_err();
    assert!(
        err.message().contains("max_pattern_memory"),
        "{}",
        err.message()
    );
    // The eighth or ninth pattern crosses the budget (about 3.9 MiB each
    // by the estimate, 3.2 MiB built).
    assert!(
        err.schema_path().starts_with("/properties/p0"),
        "{}",
        err.schema_path()
    );
    assert!(peak < 48 << 20, "{peak} bytes");
    row(
        &format!("schema of 64 patterns `^(?:\\S+\\s+){{0,999}}\\S+N$` ({text_len} B)"),
        "`CompiledSchema::compile`",
        "schema error naming `max_pattern_memory` at the pattern past the 32 MiB budget",
        peak,
        took,
    );
    // Lenient: the patterns past the budget are listed, never treated as
    // valid silently.
    let lenient = tooljson::CompiledSchema::builder()
        .strict(false)
        .build(&hostile)
        .unwrap();
    let listed = lenient
        .ignored_keywords()
        .iter()
        .filter(|k| k.contains("max_pattern_memory"))
        .count();
    assert!((50..64).contains(&listed), "{listed} listed");
    // A limit raised for a trusted schema compiles a few of them, and they
    // match as they should.
    let few = schema(10);
    let s = tooljson::CompiledSchema::builder()
        .max_pattern_memory(64 << 20)
        .build(&few)
        .unwrap();
    assert!(s.is_valid(&tooljson::from_str(r#"{"p03": "a b c3"}"#).unwrap()));
    assert!(!s.is_valid(&tooljson::from_str(r#"{"p03": "a b c4"}"#).unwrap()));
    assert!(tooljson::CompiledSchema::compile(&few).is_err());
}

/// A schema of many distinct patterns, each read into a 64-position
/// automaton: compile memory grows with the schema text, with the follow
/// tables held to their budget per schema (without it, 545 MB for a 1 MB
/// schema of this kind; see the README's `is_valid` notes).
#[test]
fn a_schema_of_many_large_patterns() {
    let _g = lock();
    let mut text = String::from(r#"{"type": "object", "properties": {"#);
    let mut n = 0;
    while text.len() < 256 << 10 {
        if n > 0 {
            text.push(',');
        }
        // 62 positions for the group, then `c` and a digit: 64 in all.
        text.push_str(&format!(
            r#""p{n}": {{"pattern": "^(a|b){{31}}c{}$"}}"#,
            n % 10
        ));
        n += 1;
    }
    text.push_str("}}");
    let (schema, peak, took) = measure(|| tooljson::CompiledSchema::from_json_str(&text).unwrap());
    let body = "ab".repeat(15) + "b";
    let good = tooljson::from_str(&format!(
        r#"{{"p0": "{body}c0", "p{}": "{body}c{}"}}"#,
        n - 1,
        (n - 1) % 10
    ))
    .unwrap();
    let bad = tooljson::from_str(&format!(r#"{{"p{}": "{body}c{}"}}"#, n - 1, n % 10)).unwrap();
    assert!(schema.is_valid(&good));
    assert!(!schema.is_valid(&bad));
    // About 4.5 KiB per pattern (its ASCII table, a class per position,
    // the follow sets) for about 45 bytes of text; unbounded follow tables
    // would add 16 KiB per pattern, over 400 times the text.
    assert!(
        peak < 160 * text.len(),
        "{peak} bytes for {} of schema",
        text.len()
    );
    row(
        &format!(
            "schema of {n} distinct 64-position patterns ({} KiB)",
            text.len() >> 10
        ),
        "`CompiledSchema::from_json_str`",
        "compiles; patterns match as they should",
        peak,
        took,
    );
}
