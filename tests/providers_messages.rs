//! Every recorded transcript in `../shared/testdata/vendor-streams/` (Anthropic,
//! OpenAI Chat, OpenAI Responses) replays to the final assistant message that
//! the provider's own SDK accumulates from it. The expected messages are in
//! `corpus/transcripts/expected/<provider>/<file>.json`, written by the SDKs'
//! accumulators (`corpus/transcripts/expected/sdk_accumulate.py`), not by this
//! crate. Compared with null members left out on both sides (the SDKs write
//! every optional member, the wire leaves some out), and without the `index`
//! that openai-python keeps in each Chat `tool_calls` entry (the unstreamed
//! message has none).

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

/// Replays a file as `tooljson replay` does: SSE fed in 7-byte chunks, or one
/// event per line.
fn replay(bytes: &[u8], vendor: Vendor) -> ToolCallStream {
    let mut s = ToolCallStream::for_vendor(vendor);
    let jsonl = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{');
    if jsonl {
        for line in std::str::from_utf8(bytes).unwrap().lines() {
            if !line.trim().is_empty() && s.feed_event(None, line.trim()).is_err() {
                return s;
            }
        }
    } else {
        for chunk in bytes.chunks(7) {
            if s.feed(chunk).is_err() {
                return s;
            }
        }
    }
    let _ = s.finish();
    s
}

#[test]
fn every_transcript_ends_with_the_sdk_message() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (vendor, name) in [
        (Vendor::Anthropic, "anthropic"),
        (Vendor::OpenAiChat, "openai-chat"),
        (Vendor::OpenAiResponses, "openai-responses"),
    ] {
        let dir = common::testdata().join("vendor-streams").join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
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
            let stream = replay(&std::fs::read(&path).unwrap(), vendor);
            let chat = vendor == Vendor::OpenAiChat;
            let got: Vec<J> = stream
                .final_messages_json()
                .iter()
                .map(|m| normalize(m, chat))
                .collect();
            let want_messages: Vec<J> = want["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| normalize(m, chat))
                .collect();
            if got != want_messages {
                failures.push(format!(
                    "{name}/{file}: the final message differs from the SDK's\n got: {}\nwant: {}",
                    J::Array(got),
                    J::Array(want_messages)
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
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 26);
}
