//! Every recorded transcript in `tests/data/vendor-streams/` (Anthropic,
//! OpenAI Chat, OpenAI Responses, Gemini, Bedrock) replays, fed in 1, 7 and
//! 64-byte reads and whole (an event log one event per line), to the final
//! assistant message that the provider's own SDK accumulates from it. The
//! expected messages are in `corpus/transcripts/expected/<provider>/<file>.json`,
//! written by the SDKs' accumulators (`corpus/transcripts/expected/sdk_accumulate.py`)
//! or, for Gemini and Bedrock, whose SDKs do not accumulate streams, by the
//! rules of the spec's sections 4 and 5 (`spec_accumulate.py`), never by this
//! crate. Compared with null members left out on both sides (the SDKs write
//! every optional member, the wire leaves some out), and without the `index`
//! that openai-python keeps in each Chat `tool_calls` entry (the unstreamed
//! message has none). For Responses, the `output` of the response object
//! (the SDK's file holds that member alone).

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value as J;
use tooljson::protocol::Vendor;
use tooljson::providers::{StopReason, ToolCallStream};

fn expected_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/transcripts/expected")
}

fn normalize(v: &J, chat: bool) -> J {
    match v {
        J::Object(o) => J::Object(
            o.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| {
                    let mut x = normalize(x, chat);
                    if chat
                        && k == "tool_calls"
                        && let J::Array(calls) = &mut x
                    {
                        for c in calls {
                            if let Some(o) = c.as_object_mut() {
                                o.remove("index");
                            }
                        }
                    }
                    (k.clone(), x)
                })
                .collect(),
        ),
        J::Array(a) => J::Array(a.iter().map(|x| normalize(x, chat)).collect()),
        other => other.clone(),
    }
}

/// How a transcript is fed.
#[derive(Clone, Copy, Debug)]
enum Reads {
    /// The body in reads of this many bytes.
    Bytes(usize),
    /// The whole body in one read.
    Whole,
    /// One event per line (`.jsonl` event logs).
    Lines,
}

/// Replays a file: a known vendor's stream is told its vendor; Gemini and
/// Bedrock (no protocol vendor) are detected.
fn replay(bytes: &[u8], vendor: Option<Vendor>, reads: Reads) -> ToolCallStream {
    let mut s = match vendor {
        Some(v) => ToolCallStream::for_vendor(v),
        None => ToolCallStream::new(),
    };
    let chunk = match reads {
        Reads::Lines => {
            for line in std::str::from_utf8(bytes).unwrap().lines() {
                if !line.trim().is_empty() && s.feed_event(None, line.trim()).is_err() {
                    return s;
                }
            }
            let _ = s.finish();
            return s;
        }
        Reads::Bytes(n) => n,
        Reads::Whole => bytes.len().max(1),
    };
    for piece in bytes.chunks(chunk) {
        if s.feed(piece).is_err() {
            return s;
        }
    }
    let _ = s.finish();
    s
}

#[test]
fn every_transcript_ends_with_the_expected_message_at_every_read_size() {
    let mut checked = 0;
    let mut replays = 0;
    let mut failures = Vec::new();
    for (vendor, name, ext) in [
        (Some(Vendor::Anthropic), "anthropic", None),
        (Some(Vendor::OpenAiChat), "openai-chat", None),
        (Some(Vendor::OpenAiResponses), "openai-responses", None),
        (None, "gemini", None),
        // The decoded `.jsonl` beside each recording is not a body.
        (None, "bedrock", Some("eventstream")),
    ] {
        let dir = common::testdata("vendor-streams").join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| ext.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no transcripts in {}", dir.display());
        for path in files {
            let file = path.file_name().unwrap().to_str().unwrap().to_owned();
            let want_path = expected_dir().join(name).join(format!("{file}.json"));
            let want: J = serde_json::from_slice(
                &std::fs::read(&want_path)
                    .unwrap_or_else(|e| panic!("{}: {e}", want_path.display())),
            )
            .unwrap();
            let chat = vendor == Some(Vendor::OpenAiChat);
            let want_messages: Vec<J> = want["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| normalize(m, chat))
                .collect();
            let bytes = std::fs::read(&path).unwrap();
            let all_reads: &[Reads] = if file.ends_with(".jsonl") {
                &[Reads::Lines]
            } else {
                &[
                    Reads::Bytes(1),
                    Reads::Bytes(7),
                    Reads::Bytes(64),
                    Reads::Whole,
                ]
            };
            for &reads in all_reads {
                let stream = replay(&bytes, vendor, reads);
                // Responses: the SDK's file holds the `output`; the stream
                // gives the whole `response` object around it.
                let got: Vec<J> = stream
                    .final_messages_json()
                    .iter()
                    .map(|m| match vendor {
                        Some(Vendor::OpenAiResponses) => {
                            let m = m.to_serde_json().unwrap();
                            normalize(&serde_json::json!({"output": m["output"]}), chat)
                        }
                        _ => normalize(&m.to_serde_json().unwrap(), chat),
                    })
                    .collect();
                if got != want_messages {
                    failures.push(format!(
                        "{name}/{file} ({reads:?}): the final message differs from the expected one\n got: {}\nwant: {}",
                        J::Array(got),
                        J::Array(want_messages.clone())
                    ));
                }
                if want.get("sdk_error").is_some() {
                    // The SDK raises here; the stream ends in an error too.
                    assert!(
                        matches!(stream.stop_reason(), Some(StopReason::Error { .. })),
                        "{name}/{file}: {:?}",
                        stream.stop_reason()
                    );
                }
                replays += 1;
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 34);
    assert_eq!(replays, 33 * 4 + 1);
}
