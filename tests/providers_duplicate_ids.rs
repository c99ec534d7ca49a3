//! Two calls of one response with the same id: the second is reported, by
//! id, as a problem of the response (issue 32, case 8), in the library and in
//! `tooljson replay` (exit 3, the id named).

use tooljson::providers::{CallError, CallStatus, ToolCallStream};

const ANTHROPIC: &str = concat!(
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[]}}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_same\",\"name\":\"f\",\"input\":{}}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":1}\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_same\",\"name\":\"f\",\"input\":{}}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":2}\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n",
    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
);

const CHAT: &str = concat!(
    "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[",
    "{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}},",
    "{\"index\":1,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n",
    "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
    "data: [DONE]\n\n",
);

fn replayed(body: &str) -> ToolCallStream {
    let mut s = ToolCallStream::new();
    s.feed(body.as_bytes()).unwrap();
    s.finish().unwrap();
    s
}

#[test]
fn the_second_call_with_an_id_is_invalid_and_names_it() {
    for (body, id) in [(ANTHROPIC, "toolu_same"), (CHAT, "call_a")] {
        let s = replayed(body);
        assert_eq!(s.calls().len(), 2);
        assert_eq!(s.calls()[0].status(), CallStatus::Complete, "{id}");
        assert_eq!(s.calls()[1].status(), CallStatus::Invalid, "{id}");
        assert_eq!(
            s.calls()[1].errors(),
            [CallError::DuplicateId(id.to_owned())]
        );
        assert!(s.calls()[1].errors()[0].to_string().contains(id));
        // Found by id: the first one.
        assert!(std::ptr::eq(s.call_by_id(id).unwrap(), &s.calls()[0]));
        // The retry result names the id too.
        let retry = s.calls()[1].retry_result().unwrap();
        assert!(retry.is_error);
        assert!(retry.content.text().contains(id));
    }
}

#[test]
fn distinct_ids_are_not_reported() {
    let s = replayed(&CHAT.replacen("call_a", "call_b", 1));
    assert!(s.calls().iter().all(|c| c.status() == CallStatus::Complete));
}

#[cfg(feature = "cli")]
#[test]
fn replay_exits_3_naming_the_duplicate() {
    for (body, id) in [(ANTHROPIC, "toolu_same"), (CHAT, "call_a")] {
        let path = std::env::temp_dir().join(format!("tooljson-dup-{id}.sse"));
        std::fs::write(&path, body).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tooljson"))
            .args(["replay", "--ndjson", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(3));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains(&format!("duplicate tool call id {id:?}")),
            "{stderr}"
        );
    }
}
