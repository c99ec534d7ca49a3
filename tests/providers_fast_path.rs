//! The delta fast path (`src/providers/fast.rs`) against the adapters' full
//! readers: every recorded stream and transcript, and a table of tricky
//! envelopes (escapes, `\u` escapes and surrogate pairs, extra, duplicate
//! and reordered members, whitespace, unknown types, a call that is not
//! open), give the same events and final state both ways; and the argument
//! text the fast path reads is serde_json's decoding of the envelopes.

use std::path::Path;

use crate::common;
use crate::common::fast_path_check::{fast_path, outcome, same_both_ways};
use tooljson::providers::ToolCallStream;

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "sse") {
            out.push(p);
        }
    }
}

#[test]
fn recorded_streams_and_transcripts_read_the_same_both_ways() {
    let mut paths = Vec::new();
    files(&common::testdata("vendor-streams"), &mut paths);
    let recorded = paths.len();
    files(
        &common::project_root().join("corpus/transcripts"),
        &mut paths,
    );
    assert!(recorded >= 10, "too few recorded streams: {recorded}");
    assert!(paths.len() > recorded, "no transcripts");
    for p in &paths {
        let body = std::fs::read(p).unwrap();
        for piece in [1, 7, 1400] {
            same_both_ways(&body, piece);
        }
    }
}

/// Anthropic deltas, each between a `tool_use` block 0 and a text block 1.
const ANTHROPIC: &[&str] = &[
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"a\\nb\", "}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"c\": \"\u00e9\ud83d\ude00\u4e2d\/\b\f\r\t\""}}"#,
    r#"{"index":0,"delta":{"partial_json":", \"d\": 1","type":"input_json_delta"},"type":"content_block_delta"}"#,
    r#"{"type":"content_block_delta","index":0,"extra":"x","n":-12,"t":true,"e":[],"o":{},"delta":{"type":"input_json_delta","partial_json":", \"e\": 2","more":null}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":", \"f\": \"\ud83d\""}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\ude00"}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\x"}}"#,
    r#"{"type":"content_block_delta", "index":0,"delta":{"type":"input_json_delta","partial_json":", \"g\": 3"}}"#,
    "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\t\"}}",
    r#"{"type":"content_block_delta","index":0,"index":0,"delta":{"type":"input_json_delta","partial_json":"1"}}"#,
    r#"{"type":"content_block_delta","index":00,"delta":{"type":"input_json_delta","partial_json":"1"}}"#,
    r#"{"type":"content_block_delta","index":0.0,"delta":{"type":"input_json_delta","partial_json":"1"}}"#,
    r#"{"type":"content_block_delta","index":18446744073709551616,"delta":{"type":"input_json_delta","partial_json":"1"}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":", \"h\": 4"}} "#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":1}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","text":"x"}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"1"}}"#,
    r#"{"type":"content_block_delta","index":7,"delta":{"type":"input_json_delta","partial_json":"1"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi \"there\" \u00e9"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","thinking":" alias"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"a","thinking":"b"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"hm"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":""}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"x":1}}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"s"}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"},"usage":{"output_tokens":3}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"}}}"#,
    r#"{"type":"content_block_d\u0065lta","index":1,"delta":{"type":"text_delta","text":"x"}}"#,
    r#"{"typ\u0065":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"}}"#,
    r#"{"type":"ping"}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"}"}}"#,
];

const CHAT: &[&str] = &[
    r#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": \"a\\nb\\u00e9\", "}}]},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"xy"}"#,
    r#"{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"\"c\": \"\ud83d\ude00\""},"index":0}]},"finish_reason":null,"index":0}],"model":"m"}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"arguments":", \"d\": 1"}}]}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_f","function":{"arguments":", \"e\": 1"}}]}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"g","arguments":", \"f\": 1"}}]}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":-1,"function":{"arguments":", \"g\": 1"}}]}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"role":null,"content":"Hi \"you\"\n"}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":""}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":null}}]}"#,
    r#"{"id":"c","choices":[{"index":1,"delta":{"content":"second"}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a","tool_calls":[{"index":0,"function":{"arguments":" "}}]}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"x"}}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"x"}}],"error":null}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"x"}}],"choices":[]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"x"}}],"created":1.5}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"x"}}],"system_fingerprint":"f\u0000"}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}"#,
    r#"{"id":"c", "choices":[{"index":0,"delta":{"content":"x"}}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"content":"x\ud800"}}]}"#,
];

const RESPONSES: &[&str] = &[
    r#"{"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_f","output_index":0,"delta":"{\"path\": \"a\\nb\\u00e9\", ","obfuscation":"abc"}"#,
    r#"{"delta":"\"c\": \"\ud83d\ude00\"","output_index":0,"type":"response.function_call_arguments.delta"}"#,
    r#"{"type":"response.function_call_arguments.delta","item_id":"fc_f","delta":", \"d\": 1"}"#,
    r#"{"type":"response.function_call_arguments.delta","item_id":"fc_other","output_index":0,"delta":"1"}"#,
    r#"{"type":"response.function_call_arguments.delta","output_index":5,"delta":"1"}"#,
    r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":", \"e\": 1","arguments":"x"}"#,
    r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_f","output_index":1,"content_index":0,"delta":"Hi \"you\"","logprobs":[],"obfuscation":"q"}"#,
    r#"{"type":"response.output_text.delta","item_id":"msg_f","content_index":0,"delta":"no index"}"#,
    r#"{"type":"response.output_text.delta","output_index":1,"content_index":2,"delta":""}"#,
    r#"{"type":"response.refusal.delta","output_index":1,"content_index":0,"delta":"no"}"#,
    r#"{"type":"response.output_text.delta","output_index":1,"delta":"x","delta":"y"}"#,
    r#"{"type":"response.output_text.delta","output_index":1,"delta":"x","logprobs":[{"token":"x"}]}"#,
    r#"{"type":"response.output_text.delta","output_index":1,"item_id":"m\u0073g","delta":"x"}"#,
    r#"{"type":"response.output_text.delta","output_index":1,"delta":"x"}  "#,
    r#"{"type":"response.output_text.delta","output_index":1,"delta":"\u12"}"#,
];

/// A fuzz input: the vendor byte, the piece size byte, one event a line.
fn input(vendor: u8, piece: u8, lines: &[&str]) -> Vec<u8> {
    let mut v = vec![vendor, piece];
    v.extend_from_slice(lines.join("\n").as_bytes());
    v
}

#[test]
fn tricky_envelopes_read_the_same_both_ways() {
    for (vendor, table) in [(0u8, ANTHROPIC), (1, CHAT), (2, RESPONSES)] {
        // Each alone, then all in a row, in whole and small reads.
        for line in table {
            for piece in [0u8, 4, 63] {
                fast_path(&input(vendor, piece, &[line]));
            }
        }
        for piece in [0u8, 2, 16] {
            fast_path(&input(vendor, piece, table));
        }
    }
}

/// The argument text read on the fast path is serde_json's decoding of the
/// envelopes' strings, joined.
#[test]
fn arguments_are_serde_json_decoding_of_the_deltas() {
    let pieces = [
        "{\"path\": \"a\\nb\", ",
        "\"c\": \"\u{e9}\u{1F600}\u{4e2d}/\\\\\\\"\\t\", ",
        "\"d\": [1, 2.5e3, null, true]}",
    ];
    let mut body = String::from(
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_f\",\"name\":\"f\",\"input\":{}}}\n\n",
    );
    let mut want = String::new();
    for p in pieces {
        let env = serde_json::json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": p}});
        let data = env.to_string();
        // Also as \u escapes (how some servers write non-ASCII).
        let ascii: String = data
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    c.to_string()
                } else {
                    let mut b = [0u16; 2];
                    c.encode_utf16(&mut b)
                        .iter()
                        .map(|u| format!("\\u{u:04x}"))
                        .collect()
                }
            })
            .collect();
        for d in [data, ascii] {
            let back: serde_json::Value = serde_json::from_str(&d).unwrap();
            want.push_str(back["delta"]["partial_json"].as_str().unwrap());
            body.push_str(&format!("event: content_block_delta\ndata: {d}\n\n"));
        }
    }
    let mut s = ToolCallStream::new();
    s.feed(body.as_bytes()).unwrap();
    assert_eq!(s.calls()[0].arguments_text(), want);
    same_both_ways(body.as_bytes(), 5);
    assert_eq!(
        outcome(body.as_bytes(), &[(0, body.len())], true),
        outcome(body.as_bytes(), &[(0, body.len())], false)
    );
}
