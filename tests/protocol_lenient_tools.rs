//! Tool sets compiled per tool (issue 27): one tool whose schema does not
//! compile is reported by name and accepted without a schema check when
//! asked (`from_request_json_lenient`); the others validate as usual, also
//! through the stream.

use tooljson::json;
use tooljson::protocol::{ProtocolError, ToolSet};
use tooljson::providers::{CallStatus, ToolCallStream};

fn request() -> tooljson::Value {
    json!({"tools": [
        {"name": "ok", "input_schema": {"type": "object", "required": ["a"],
            "properties": {"a": {"type": "integer"}}}},
        {"name": "broken", "input_schema": {"type": "object", "properties": {"a": {"type": 7}}}},
        {"name": "password", "input_schema": {"type": "object",
            "properties": {"p": {"type": "string", "pattern": "^(?=.*[A-Z]).{8,}$"}}}}
    ]})
}

#[test]
fn strict_reading_still_refuses_the_broken_tool() {
    assert!(matches!(
        ToolSet::from_request_json(&request()),
        Err(ProtocolError::SchemaDoesNotCompile { tool, .. }) if tool == "broken"
    ));
}

#[test]
fn lenient_reading_reports_the_broken_tool_by_name_and_keeps_the_others() {
    let set = ToolSet::from_request_json_lenient(&request()).unwrap();
    assert_eq!(set.len(), 3);
    let broken: Vec<&str> = set.schema_errors().map(|(n, _)| n).collect();
    assert!(broken.contains(&"broken"), "{broken:?}");
    assert!(!broken.contains(&"ok"));
    for (name, e) in set.schema_errors() {
        assert!(e.to_string().contains(&format!("{name:?}")), "{e}");
    }
    // The broken tool keeps its schema as given.
    assert_eq!(
        set.get("broken").unwrap().input_schema()["properties"]["a"]["type"],
        7
    );
    let ok = set.get("ok").unwrap().compiled_schema();
    assert!(ok.is_valid(&tooljson::from_str(r#"{"a": 1}"#).unwrap()));
    assert!(!ok.is_valid(&tooljson::from_str(r#"{"a": "x"}"#).unwrap()));
    // The look-ahead tool compiles (a backtracking engine within a budget)
    // and validates both ways.
    assert!(!broken.contains(&"password"), "{broken:?}");
    let pw = set.get("password").unwrap();
    assert!(pw.schema_error().is_none());
    let s = pw.compiled_schema();
    assert!(s.is_valid(&tooljson::from_str(r#"{"p": "Abcdefgh"}"#).unwrap()));
    assert!(!s.is_valid(&tooljson::from_str(r#"{"p": "abcdefgh"}"#).unwrap()));
    assert!(!s.is_valid(&tooljson::from_str(r#"{"p": "Abc"}"#).unwrap()));
}

#[test]
fn in_a_stream_the_broken_tool_is_accepted_unchecked_and_the_others_are_checked() {
    let set = ToolSet::from_request_json_lenient(&request()).unwrap();
    let mut s = ToolCallStream::new().with_tools(set);
    s.feed_event(
        None,
        r#"{"type":"message_start","message":{"id":"m","content":[]}}"#,
    )
    .unwrap();
    for (i, name, args) in [
        (0, "ok", r#"{\"a\": \"x\"}"#),
        (1, "broken", r#"{\"a\": \"x\"}"#),
        (2, "ok", r#"{\"a\": 2}"#),
    ] {
        s.feed_event(None, &format!(r#"{{"type":"content_block_start","index":{i},"content_block":{{"type":"tool_use","id":"t{i}","name":"{name}","input":{{}}}}}}"#)).unwrap();
        s.feed_event(None, &format!(r#"{{"type":"content_block_delta","index":{i},"delta":{{"type":"input_json_delta","partial_json":"{args}"}}}}"#)).unwrap();
        s.feed_event(
            None,
            &format!(r#"{{"type":"content_block_stop","index":{i}}}"#),
        )
        .unwrap();
    }
    s.feed_event(None, r#"{"type":"message_stop"}"#).unwrap();
    let statuses: Vec<CallStatus> = s.calls().iter().map(|c| c.status()).collect();
    assert_eq!(
        statuses,
        [
            CallStatus::Invalid,
            CallStatus::Complete,
            CallStatus::Complete
        ]
    );
}
