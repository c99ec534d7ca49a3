//! The event-stream decoder: the cases of SPEC.md section 0 and the WHATWG
//! rules, every split point of each case, and a property test against a
//! naive whole-input reference.

use proptest::prelude::*;
use tooljson::sse::{Decoder, Event, SseError};

use crate::common::counting_alloc;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Owned {
    event: String,
    data: String,
    id: String,
}

fn own(e: Event<'_>) -> Owned {
    Owned {
        event: e.event.to_owned(),
        data: e.data.to_owned(),
        id: e.id.to_owned(),
    }
}

fn decode_pieces(pieces: &[&[u8]]) -> Vec<Owned> {
    let mut d = Decoder::new();
    let mut out = Vec::new();
    for p in pieces {
        d.feed(p, &mut |e: Event<'_>| out.push(own(e))).unwrap();
    }
    d.finish();
    out
}

/// Decodes `input` whole and split at every single point and every pair of
/// points; all must agree. Returns the events.
fn decode_all_splits(input: &[u8]) -> Vec<Owned> {
    let whole = decode_pieces(&[input]);
    for i in 0..=input.len() {
        let (a, b) = input.split_at(i);
        assert_eq!(decode_pieces(&[a, b]), whole, "split at {i} of {input:?}");
        for j in i..=input.len() {
            let (b1, c) = input[i..].split_at(j - i);
            assert_eq!(
                decode_pieces(&[a, b1, c]),
                whole,
                "split at {i},{j} of {input:?}"
            );
        }
    }
    whole
}

fn ev(event: &str, data: &str) -> Owned {
    Owned {
        event: event.to_owned(),
        data: data.to_owned(),
        id: String::new(),
    }
}

#[test]
fn named_event() {
    assert_eq!(
        decode_all_splits(b"event: message_start\ndata: {\"a\":1}\n\n"),
        [ev("message_start", "{\"a\":1}")]
    );
}

#[test]
fn data_only_defaults_to_message() {
    assert_eq!(
        decode_all_splits(b"data: {}\n\ndata: [DONE]\n\n"),
        [ev("message", "{}"), ev("message", "[DONE]")]
    );
}

#[test]
fn crlf_cr_and_lf_line_ends() {
    for input in [
        &b"event: x\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n"[..],
        b"event: x\rdata: 1\r\rdata: 2\r\r",
        b"event: x\ndata: 1\n\ndata: 2\n\n",
        b"event: x\r\ndata: 1\r\rdata: 2\n\r\n",
    ] {
        assert_eq!(
            decode_all_splits(input),
            [ev("x", "1"), ev("message", "2")],
            "{input:?}"
        );
    }
}

#[test]
fn event_without_data_is_not_dispatched() {
    // `event: ping` alone: no data buffer, so no event (WHATWG), and the
    // type does not leak into the next event.
    assert_eq!(
        decode_all_splits(b"event: ping\n\ndata: x\n\n"),
        [ev("message", "x")]
    );
}

#[test]
fn multi_line_data_with_empty_lines() {
    assert_eq!(
        decode_all_splits(b"data: a\ndata:\ndata: b\ndata\n\n"),
        [ev("message", "a\n\nb\n")]
    );
}

#[test]
fn space_after_colon_is_optional_and_only_one_is_removed() {
    assert_eq!(
        decode_all_splits(b"data:x\n\ndata: x\n\ndata:  x\n\n"),
        [ev("message", "x"), ev("message", "x"), ev("message", " x")]
    );
}

#[test]
fn u2028_and_u2029_are_not_line_ends() {
    let input = "data: {\"t\":\"a\u{2028}b\u{2029}c\u{85}d\"}\n\n";
    assert_eq!(
        decode_all_splits(input.as_bytes()),
        [ev("message", "{\"t\":\"a\u{2028}b\u{2029}c\u{85}d\"}")]
    );
}

#[test]
fn multi_byte_characters_split_anywhere() {
    // decode_all_splits cuts inside every multi-byte sequence.
    let input = "data: h\u{e9}llo \u{1F600} \u{4e16}\n\n";
    assert_eq!(
        decode_all_splits(input.as_bytes()),
        [ev("message", "h\u{e9}llo \u{1F600} \u{4e16}")]
    );
}

#[test]
fn invalid_utf8_is_replaced() {
    assert_eq!(
        decode_all_splits(b"data: a\xffb\n\n"),
        [ev("message", "a\u{fffd}b")]
    );
}

#[test]
fn comments_and_unknown_fields_are_skipped() {
    assert_eq!(
        decode_all_splits(b": keep-alive\n:\nfoo: bar\ndata: x\n: mid\n\n"),
        [ev("message", "x")]
    );
}

#[test]
fn whitespace_before_the_final_brace_is_kept() {
    let got = decode_all_splits(b"data: {\"type\": \"ping\"}      \n\n");
    assert_eq!(got, [ev("message", "{\"type\": \"ping\"}      ")]);
}

#[test]
fn id_persists_and_nul_is_ignored() {
    let got =
        decode_all_splits(b"id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid\ndata: d\n\n");
    let ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["7", "7", "7", ""]);
}

#[test]
fn retry_takes_digits_only() {
    let mut d = Decoder::new();
    d.feed(
        b"retry: 1500\n\nretry: 12a\n\nretry:\n\n",
        &mut |_: Event<'_>| {},
    )
    .unwrap();
    assert_eq!(d.retry(), Some(1500));
}

#[test]
fn leading_bom_is_skipped_once() {
    assert_eq!(
        decode_all_splits(b"\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n"),
        // The second BOM is part of a field name, so that line is ignored.
        [ev("message", "a")]
    );
}

#[test]
fn unterminated_last_event_is_discarded_by_finish() {
    let mut d = Decoder::new();
    let mut n = 0;
    d.feed(b"data: a\n\ndata: b\n", &mut |_: Event<'_>| n += 1)
        .unwrap();
    assert_eq!(n, 1);
    assert!(d.finish());
    let mut d = Decoder::new();
    d.feed(b"data: a\n\n", &mut |_: Event<'_>| {}).unwrap();
    assert!(!d.finish());
}

#[test]
fn finish_flush_dispatches_the_unterminated_event() {
    for tail in [&b"data: b"[..], b"data: b\n", b"data: b\r"] {
        let mut d = Decoder::new();
        let mut got = Vec::new();
        let mut input = b"data: a\n\n".to_vec();
        input.extend_from_slice(tail);
        d.feed(&input, &mut |e: Event<'_>| got.push(own(e)))
            .unwrap();
        assert!(d.finish_flush(&mut |e: Event<'_>| got.push(own(e))));
        assert_eq!(got, [ev("message", "a"), ev("message", "b")], "{tail:?}");
    }
}

#[test]
fn line_length_is_bounded_with_a_typed_error() {
    let mut d = Decoder::with_max_line_bytes(16);
    let r = d.feed(
        b"data: 0123456789\n\ndata: 0123456789ab",
        &mut |_: Event<'_>| {},
    );
    assert_eq!(
        r,
        Err(SseError::LineTooLong {
            limit: 16,
            offset: 18
        })
    );
    // It stays failed.
    assert!(d.feed(b"\n\n", &mut |_: Event<'_>| {}).is_err());
    // Split into one-byte feeds, the same error at the same line.
    let mut d = Decoder::with_max_line_bytes(16);
    let mut err = None;
    for b in b"data: 0123456789\n\ndata: 0123456789ab".chunks(1) {
        if let Err(e) = d.feed(b, &mut |_: Event<'_>| {}) {
            err = Some(e);
            break;
        }
    }
    assert_eq!(
        err,
        Some(SseError::LineTooLong {
            limit: 16,
            offset: 18
        })
    );
    assert!(err.unwrap().to_string().contains("longer than 16 bytes"));
}

#[test]
fn event_data_is_bounded() {
    let mut d = Decoder::with_max_line_bytes(16);
    let r = d.feed(b"data: 01234567\ndata: 01234567\n\n", &mut |_: Event<
        '_,
    >| {});
    assert!(
        matches!(r, Err(SseError::EventTooLarge { limit: 16, .. })),
        "{r:?}"
    );
}

/// The reference: the whole input at once, lines split by a plain scan.
fn reference(input: &[u8]) -> Vec<Owned> {
    let mut input = input;
    if input.starts_with(b"\xEF\xBB\xBF") {
        input = &input[3..];
    }
    let mut lines: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut terminated = true;
    while i < input.len() {
        match input[i] {
            b'\r' => {
                lines.push(&input[start..i]);
                i += if input.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            b'\n' => {
                lines.push(&input[start..i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < input.len() {
        terminated = false;
    }
    let _ = terminated; // an unterminated last line is never dispatched
    let (mut data, mut has, mut ty, mut id) = (String::new(), false, String::new(), String::new());
    let mut out = Vec::new();
    for l in lines {
        let l = String::from_utf8_lossy(l);
        if l.is_empty() {
            if has {
                data.pop();
                out.push(Owned {
                    event: if ty.is_empty() {
                        "message".into()
                    } else {
                        ty.clone()
                    },
                    data: data.clone(),
                    id: id.clone(),
                });
            }
            data.clear();
            has = false;
            ty.clear();
            continue;
        }
        if l.starts_with(':') {
            continue;
        }
        let (f, v) = match l.find(':') {
            Some(i) => (&l[..i], l[i + 1..].strip_prefix(' ').unwrap_or(&l[i + 1..])),
            None => (&l[..], ""),
        };
        match f {
            "data" => {
                data.push_str(v);
                data.push('\n');
                has = true;
            }
            "event" => ty = v.to_owned(),
            "id" if !v.contains('\0') => id = v.to_owned(),
            _ => {}
        }
    }
    out
}

fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"data: ".to_vec()),
        Just(b"data:".to_vec()),
        Just(b"event: ".to_vec()),
        Just(b"id: ".to_vec()),
        Just(b": c".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\n\n".to_vec()),
        Just(b"{\"a\": 1}".to_vec()),
        Just("\u{2028}\u{e9}\u{1F600}".as_bytes().to_vec()),
        Just(b" ".to_vec()),
        Just(b":".to_vec()),
        Just(b"\0".to_vec()),
        Just(b"\xff".to_vec()),
        "[a-z]{1,4}".prop_map(|s| s.into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn matches_the_reference_at_any_split(
        pieces in proptest::collection::vec(piece(), 0..40),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let input: Vec<u8> = pieces.concat();
        let want = reference(&input);
        prop_assert_eq!(decode_pieces(&[&input]), want.clone());
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(input.len() + 1)).collect();
        points.sort();
        let mut parts: Vec<&[u8]> = Vec::new();
        let mut last = 0;
        for p in points {
            parts.push(&input[last..p]);
            last = p;
        }
        parts.push(&input[last..]);
        prop_assert_eq!(decode_pieces(&parts), want);
    }
}

/// An event fed whole (its data line and the blank line in one chunk) is
/// handed over borrowed from the chunk; a long data line cut by chunk ends
/// is copied once, into the line buffer that then holds the data.
#[test]
fn event_data_is_copied_at_most_once() {
    const LEN: usize = 1 << 20;
    let body = format!("event: big\ndata: {}\n\n", "x".repeat(LEN));
    let mut d = Decoder::with_max_line_bytes(4 << 20);
    let mut seen = 0;
    let ((), whole) = counting_alloc::peak_during(|| {
        d.feed(body.as_bytes(), &mut |e: Event<'_>| seen += e.data.len())
            .unwrap();
    });
    assert_eq!(seen, LEN);
    assert!(
        whole < 4096,
        "{whole} bytes allocated for an event fed whole"
    );

    // Cut into 64 KiB pieces: the line buffer grows to the line (twice its
    // size at most, and both blocks while it moves), and no second copy.
    let ((), cut) = counting_alloc::peak_during(|| {
        for piece in body.as_bytes().chunks(64 << 10) {
            d.feed(piece, &mut |e: Event<'_>| seen += e.data.len())
                .unwrap();
        }
    });
    assert_eq!(seen, 2 * LEN);
    assert!(
        cut < 3 * LEN + 4096,
        "peak {cut} bytes for a {LEN}-byte line fed in pieces"
    );
    // A huge event's buffers are not kept once it is dispatched.
    let after = counting_alloc::live();
    drop(d);
    assert!(
        after - counting_alloc::live() < 128 << 10,
        "the decoder kept {} bytes",
        after - counting_alloc::live()
    );
}
