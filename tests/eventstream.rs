//! The event-stream frame decoder: the recorded Bedrock bodies decode to the
//! frames their `.jsonl` decodes list, at any chunking and any cut; each
//! fault gives its typed error naming the right frame; random frames round
//! trip through the test's own encoder.

use crate::common;
use crate::common::eventstream_check;

use eventstream_check::{chunk_ranges, encode_frame, event_frame, frame_from_raw, run};
use proptest::prelude::*;
use tooljson::eventstream::{
    DEFAULT_MAX_FRAME_BYTES, Decoder, EventStreamError, Frame, Header, HeaderValue,
};

/// What a test compares of one frame: its offset, the three string headers
/// Bedrock sends, and the payload as JSON.
#[derive(Debug, PartialEq)]
struct Seen {
    offset: u64,
    event_type: Option<String>,
    message_type: Option<String>,
    content_type: Option<String>,
    payload: serde_json::Value,
}

fn seen(f: Frame<'_>) -> Seen {
    let s = |name| f.header_str(name).map(str::to_owned);
    Seen {
        offset: f.offset(),
        event_type: s(":event-type"),
        message_type: s(":message-type"),
        content_type: s(":content-type"),
        payload: serde_json::from_slice(f.payload()).expect("payload is JSON"),
    }
}

fn decode(doc: &[u8], ranges: &[(usize, usize)]) -> Result<Vec<Seen>, EventStreamError> {
    let mut d = Decoder::new();
    let mut out = Vec::new();
    for &(a, b) in ranges {
        d.feed(&doc[a..b], &mut |f| out.push(seen(f)))?;
    }
    d.finish()?;
    Ok(out)
}

/// (name, body, the frames the recording's `.jsonl` lists) per recorded body.
fn recorded() -> Vec<(String, Vec<u8>, Vec<serde_json::Value>)> {
    let dir = common::testdata("vendor-streams/bedrock");
    let files = common::files_in(&dir);
    let mut out = Vec::new();
    for (name, body) in &files {
        let Some(stem) = name.strip_suffix(".eventstream") else {
            continue;
        };
        let (_, jsonl) = files
            .iter()
            .find(|(n, _)| *n == format!("{stem}.jsonl"))
            .unwrap_or_else(|| panic!("{name} has no .jsonl decode beside it"));
        let lines = std::str::from_utf8(jsonl)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        out.push((name.clone(), body.clone(), lines));
    }
    assert!(
        out.len() >= 2,
        "expected the recorded Bedrock bodies in {}",
        dir.display()
    );
    out
}

#[test]
fn recorded_bedrock_bodies_decode_to_their_listed_frames() {
    for (name, body, expected) in recorded() {
        let frames = decode(&body, &[(0, body.len())]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(frames.len(), expected.len(), "{name}: frame count");
        let mut next_offset = 0;
        for (i, (f, e)) in frames.iter().zip(&expected).enumerate() {
            assert_eq!(
                f.event_type.as_deref(),
                e["event-type"].as_str(),
                "{name} #{i}"
            );
            assert_eq!(
                f.message_type.as_deref(),
                e["message-type"].as_str(),
                "{name} #{i}"
            );
            assert_eq!(
                f.content_type.as_deref(),
                Some("application/json"),
                "{name} #{i}"
            );
            assert_eq!(f.payload, e["payload"], "{name} #{i}");
            assert!(f.offset >= next_offset, "{name} #{i}: offsets go back");
            next_offset = f.offset + 1;
        }
        for size in [1, 7, 64] {
            let split = decode(&body, &chunk_ranges(body.len(), &[size]))
                .unwrap_or_else(|e| panic!("{name} at {size}-byte reads: {e}"));
            assert_eq!(split, frames, "{name} at {size}-byte reads");
        }
    }
}

#[test]
fn recorded_bedrock_bodies_decode_alike_at_every_cut() {
    for (name, body, _) in recorded() {
        let whole = decode(&body, &[(0, body.len())]).unwrap();
        for cut in 0..=body.len() {
            let got = decode(&body, &[(0, cut), (cut, body.len())]);
            assert_eq!(got.as_ref(), Ok(&whole), "{name} cut at {cut}");
        }
        // Every proper prefix is a truncation, named at the frame it cuts.
        let starts: Vec<u64> = whole.iter().map(|f| f.offset).collect();
        for cut in 1..body.len() {
            let e = decode(&body[..cut], &[(0, cut)]);
            let frame = *starts.iter().rev().find(|&&s| s < cut as u64).unwrap();
            match e {
                Ok(_) if starts.contains(&(cut as u64)) => {}
                Err(EventStreamError::Truncated { offset, have, .. }) => {
                    assert_eq!(
                        (offset, have as u64),
                        (frame, cut as u64 - frame),
                        "{name} {cut}"
                    )
                }
                other => panic!("{name} cut at {cut}: {other:?}"),
            }
        }
    }
}

/// Three good event frames, for the faults to sit among.
fn three_frames() -> (Vec<u8>, [u64; 3]) {
    let mut doc = Vec::new();
    let mut starts = [0; 3];
    for (i, (ev, p)) in [
        ("messageStart", r#"{"role":"assistant"}"#),
        (
            "contentBlockDelta",
            r#"{"contentBlockIndex":0,"delta":{"text":"hi"}}"#,
        ),
        ("messageStop", r#"{"stopReason":"end_turn"}"#),
    ]
    .into_iter()
    .enumerate()
    {
        starts[i] = doc.len() as u64;
        doc.extend(event_frame(ev, p.as_bytes()));
    }
    (doc, starts)
}

/// Runs `doc` whole, one byte at a time and at 7-byte reads; all three must
/// agree, and the verdict is returned with the frames before it.
fn verdict(doc: &[u8], max: usize) -> (usize, Result<(), EventStreamError>) {
    let whole = run(doc, &[(0, doc.len())], max);
    for size in [1, 7] {
        assert_eq!(
            run(doc, &chunk_ranges(doc.len(), &[size]), max),
            whole,
            "{size}-byte reads"
        );
    }
    (whole.0.len(), whole.1)
}

#[test]
fn a_bad_prelude_crc_names_its_frame() {
    let (mut doc, starts) = three_frames();
    doc[starts[1] as usize + 9] ^= 0x40;
    let (n, end) = verdict(&doc, DEFAULT_MAX_FRAME_BYTES);
    assert_eq!(n, 1);
    match end {
        Err(EventStreamError::PreludeCrc {
            offset,
            stored,
            computed,
        }) => {
            assert_eq!(offset, starts[1]);
            assert_ne!(stored, computed);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bad_message_crc_names_its_frame() {
    let (doc, starts) = three_frames();
    // A flipped payload byte, and a flipped message CRC byte.
    for at in [starts[2] as usize + 40, doc.len() - 1] {
        let mut bad = doc.clone();
        bad[at] ^= 1;
        let (n, end) = verdict(&bad, DEFAULT_MAX_FRAME_BYTES);
        assert_eq!(n, 2, "byte {at}");
        let e = end.unwrap_err();
        assert!(
            matches!(e, EventStreamError::MessageCrc { offset, .. } if offset == starts[2]),
            "{e:?}"
        );
        assert!(
            e.to_string().contains(&format!("at byte {}", starts[2])),
            "{e}"
        );
    }
}

#[test]
fn a_frame_past_the_bound_is_refused_at_its_prelude() {
    let (doc, starts) = three_frames();
    let big = (starts[2] - starts[1]) as usize; // the middle frame is the largest
    let (n, end) = verdict(&doc, big - 1);
    assert_eq!(n, 1);
    assert_eq!(
        end,
        Err(EventStreamError::FrameTooLarge {
            offset: starts[1],
            total: big as u32,
            limit: big - 1
        })
    );
    // The bound is checked on the 12-byte prelude alone: nothing more of the
    // frame needs to arrive.
    let mut d = Decoder::with_max_frame_bytes(big - 1);
    let mut frames = 0;
    let cut = starts[1] as usize + 12;
    let e = d.feed(&doc[..cut], &mut |_| frames += 1).unwrap_err();
    assert_eq!((frames, e.offset()), (1, starts[1]));
    // The default bound takes a 1 MiB payload.
    let payload = vec![b'x'; 1 << 20];
    let one = event_frame("chunk", &payload);
    let (n, end) = verdict(&one, DEFAULT_MAX_FRAME_BYTES);
    assert_eq!((n, end), (1, Ok(())));
}

#[test]
fn a_stream_cut_inside_a_frame_is_truncated_at_finish() {
    let (doc, starts) = three_frames();
    for (cut, total) in [
        (starts[2] as usize + 5, None),
        (doc.len() - 1, Some(doc.len() as u64 - starts[2])),
    ] {
        let (n, end) = verdict(&doc[..cut], DEFAULT_MAX_FRAME_BYTES);
        assert_eq!(n, 2);
        assert_eq!(
            end,
            Err(EventStreamError::Truncated {
                offset: starts[2],
                have: cut - starts[2] as usize,
                total: total.map(|t| t as u32),
            })
        );
    }
    // After an error the decoder stays failed until finish.
    let mut d = Decoder::new();
    let mut bad = doc.clone();
    bad[8] ^= 1;
    let first = d.feed(&bad, &mut |_| {}).unwrap_err();
    assert_eq!(
        d.feed(&doc, &mut |_| panic!("decoded after an error")),
        Err(first.clone())
    );
    assert_eq!(d.finish(), Err(first));
    assert_eq!(d.feed(&doc, &mut |_| {}), Ok(()));
}

#[test]
fn every_header_type_decodes() {
    let headers = [
        ("t", HeaderValue::Bool(true)),
        ("f", HeaderValue::Bool(false)),
        ("byte", HeaderValue::Byte(-2)),
        ("short", HeaderValue::Short(-300)),
        ("int", HeaderValue::Int(70_000)),
        ("long", HeaderValue::Long(-(1 << 40))),
        ("bytes", HeaderValue::Bytes(b"\x00\xff")),
        ("string", HeaderValue::String("é")),
        ("ts", HeaderValue::Timestamp(1_700_000_000_000)),
        ("uuid", HeaderValue::Uuid([7; 16])),
    ]
    .map(|(name, value)| Header { name, value });
    let frame = encode_frame(headers, b"{}");
    // Hand-written bytes for two of them, so the encoder is not its own oracle.
    let raw = frame_from_raw(b"\x05short\x03\xfe\xd4\x01t\x00", b"{}");
    let mut got = Vec::new();
    let mut d = Decoder::new();
    d.feed(&frame, &mut |f| {
        got.push(
            f.headers()
                .map(|h| (h.name.to_owned(), format!("{:?}", h.value)))
                .collect::<Vec<_>>(),
        )
    })
    .unwrap();
    d.feed(&raw, &mut |f| {
        assert_eq!(f.header("short"), Some(HeaderValue::Short(-300)));
        assert_eq!(f.header("t"), Some(HeaderValue::Bool(true)));
        assert_eq!(f.header_str("t"), None);
        got.push(Vec::new());
    })
    .unwrap();
    d.finish().unwrap();
    let want: Vec<_> = headers
        .iter()
        .map(|h| (h.name.to_owned(), format!("{:?}", h.value)))
        .collect();
    assert_eq!(got, [want, Vec::new()]);
}

#[derive(Debug, Clone)]
enum OwnedValue {
    Bool(bool),
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Bytes(Vec<u8>),
    Str(String),
    Timestamp(i64),
    Uuid([u8; 16]),
}

impl OwnedValue {
    fn as_value(&self) -> HeaderValue<'_> {
        match self {
            OwnedValue::Bool(b) => HeaderValue::Bool(*b),
            OwnedValue::Byte(v) => HeaderValue::Byte(*v),
            OwnedValue::Short(v) => HeaderValue::Short(*v),
            OwnedValue::Int(v) => HeaderValue::Int(*v),
            OwnedValue::Long(v) => HeaderValue::Long(*v),
            OwnedValue::Bytes(b) => HeaderValue::Bytes(b),
            OwnedValue::Str(s) => HeaderValue::String(s),
            OwnedValue::Timestamp(v) => HeaderValue::Timestamp(*v),
            OwnedValue::Uuid(u) => HeaderValue::Uuid(*u),
        }
    }
}

fn value() -> impl Strategy<Value = OwnedValue> {
    prop_oneof![
        any::<bool>().prop_map(OwnedValue::Bool),
        any::<i8>().prop_map(OwnedValue::Byte),
        any::<i16>().prop_map(OwnedValue::Short),
        any::<i32>().prop_map(OwnedValue::Int),
        any::<i64>().prop_map(OwnedValue::Long),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(OwnedValue::Bytes),
        "\\PC{0,20}".prop_map(OwnedValue::Str),
        any::<i64>().prop_map(OwnedValue::Timestamp),
        any::<[u8; 16]>().prop_map(OwnedValue::Uuid),
    ]
}

/// A decoded frame as compared: offset, headers (name, value debug), payload.
type DecodedFrame = (u64, Vec<(String, String)>, Vec<u8>);

type OwnedFrame = (Vec<(String, OwnedValue)>, Vec<u8>);

fn frames() -> impl Strategy<Value = Vec<OwnedFrame>> {
    let header = ("[:a-z-]{1,12}", value());
    let frame = (
        proptest::collection::vec(header, 0..6),
        proptest::collection::vec(any::<u8>(), 0..200),
    );
    proptest::collection::vec(frame, 0..5)
}

proptest! {
    #[test]
    fn frames_round_trip_at_any_chunking(
        frames in frames(),
        sizes in proptest::collection::vec(0usize..40, 1..6),
    ) {
        let mut doc = Vec::new();
        let mut starts = Vec::new();
        for (headers, payload) in &frames {
            starts.push(doc.len() as u64);
            let hs = headers.iter().map(|(n, v)| Header { name: n, value: v.as_value() });
            doc.extend(encode_frame(hs, payload));
        }
        let mut got: Vec<DecodedFrame> = Vec::new();
        let mut d = Decoder::new();
        for (a, b) in chunk_ranges(doc.len(), &sizes) {
            d.feed(&doc[a..b], &mut |f| got.push((
                f.offset(),
                f.headers().map(|h| (h.name.to_owned(), format!("{:?}", h.value))).collect(),
                f.payload().to_vec(),
            ))).unwrap();
        }
        d.finish().unwrap();
        let want: Vec<_> = frames.iter().zip(&starts).map(|((hs, p), &s)| (
            s,
            hs.iter().map(|(n, v)| (n.clone(), format!("{:?}", v.as_value()))).collect(),
            p.clone(),
        )).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn mangled_streams_keep_the_check_invariants(
        frames in frames(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..3),
        cut in any::<prop::sample::Index>(),
        config in any::<u8>(),
    ) {
        let mut doc = vec![config & 0x0f];
        for (headers, payload) in &frames {
            let hs = headers.iter().map(|(n, v)| Header { name: n, value: v.as_value() });
            doc.extend(encode_frame(hs, payload));
        }
        for (at, x) in flips {
            let i = at.index(doc.len());
            doc[i] ^= x;
        }
        let keep = cut.index(doc.len() + 1);
        doc.truncate(keep.max(1));
        eventstream_check::eventstream(&doc);
    }
}

/// The fuzz seeds (corpus/fuzz/eventstream/, written by
/// corpus/make_eventstream_seeds.py) reach the verdicts their names promise,
/// so the fuzzer starts from every error path.
#[test]
fn each_fuzz_seed_reaches_the_verdict_its_name_says() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fuzz/eventstream");
    let seeds = common::files_in(&dir);
    assert!(
        seeds.len() >= 10,
        "only {} seeds in {}",
        seeds.len(),
        dir.display()
    );
    for (name, input) in seeds {
        let n = usize::from(input[0] & 7);
        let doc = &input[1 + n..];
        let max = if input[0] & 8 != 0 {
            64
        } else {
            DEFAULT_MAX_FRAME_BYTES
        };
        let (frames, end) = run(doc, &[(0, doc.len())], max);
        let kind = match end {
            Ok(()) => "ok",
            Err(EventStreamError::PreludeCrc { .. }) => "bad-prelude-crc",
            Err(EventStreamError::MessageCrc { .. }) => "bad-message-crc",
            Err(EventStreamError::BadLengths { .. }) => "bad-lengths",
            Err(EventStreamError::FrameTooLarge { .. }) => "too-large",
            Err(EventStreamError::MalformedHeader { .. }) => "header",
            Err(EventStreamError::Truncated { .. }) => "truncated",
        };
        let want = match name.as_str() {
            "bad-prelude-crc" | "bad-message-crc" | "bad-lengths" => name.as_str(),
            "too-large-for-64" => "too-large",
            "unknown-header-type" | "string-header-runs-over" => "header",
            n if n.starts_with("truncated") => "truncated",
            _ => "ok",
        };
        assert_eq!(kind, want, "{name}");
        assert!(!frames.is_empty() || name != "stream-whole", "{name}");
        eventstream_check::eventstream(&input);
    }
}
