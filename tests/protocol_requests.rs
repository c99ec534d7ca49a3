//! Whole requests across Anthropic Messages, OpenAI Chat and OpenAI
//! Responses: the six cases of the issue as named regressions, the API
//! reference examples in corpus/protocol/requests/, and a property test of
//! A -> B -> A round trips; every output checked against the target API's
//! published shape.

use std::collections::HashMap;
use std::path::PathBuf;

use proptest::prelude::*;
use tooljson::protocol::{
    AssistantTurn, LossEffect, Request, ResultContent, ToolResult, ToolResults, Vendor,
};
use tooljson::{Value, json};

const VENDORS: [Vendor; 3] = [
    Vendor::Anthropic,
    Vendor::OpenAiChat,
    Vendor::OpenAiResponses,
];

// ---------------------------------------------------------------------------
// The published shapes: required members, part types per role, and every
// tool call answered exactly once.

fn ty(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn parts_ok(content: &Value, allowed: &[&str], what: &str) -> Result<(), String> {
    match content {
        Value::String(_) => Ok(()),
        Value::Array(parts) => {
            for p in parts {
                if !allowed.contains(&ty(p)) {
                    return Err(format!("{what}: part type {:?} not allowed", ty(p)));
                }
            }
            Ok(())
        }
        other => Err(format!(
            "{what}: content {other} is neither a string nor parts"
        )),
    }
}

/// Call ids in order, and answers per id: each call answered exactly once,
/// no answer without a call.
fn calls_answered(calls: &[String], answers: &[String]) -> Result<(), String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for a in answers {
        *count.entry(a).or_default() += 1;
    }
    for c in calls {
        match count.remove(c.as_str()) {
            Some(1) => {}
            Some(n) => return Err(format!("call {c} answered {n} times")),
            None => return Err(format!("call {c} not answered")),
        }
    }
    match count.keys().next() {
        Some(extra) => Err(format!("answer for unknown call {extra}")),
        None => Ok(()),
    }
}

fn check_anthropic(v: &Value, max_tokens_reported: bool) -> Result<(), String> {
    if !v["model"].is_string() {
        return Err("model missing".into());
    }
    if !v["max_tokens"].is_u64() && !max_tokens_reported {
        return Err("max_tokens missing".into());
    }
    if let Some(s) = v.get("system") {
        parts_ok(s, &["text"], "system")?;
    }
    let msgs = v["messages"].as_array().ok_or("messages missing")?;
    let (mut calls, mut answers) = (Vec::new(), Vec::new());
    for m in msgs {
        let c = &m["content"];
        match m["role"].as_str() {
            Some("user") => {
                parts_ok(
                    c,
                    &["text", "image", "document", "tool_result", "search_result"],
                    "user",
                )?;
                let mut seen_other = false;
                for b in c.as_array().into_iter().flatten() {
                    if ty(b) == "tool_result" {
                        if seen_other {
                            return Err("tool_result after another block".into());
                        }
                        answers.push(b["tool_use_id"].as_str().ok_or("tool_use_id")?.to_owned());
                        if let Some(rc) = b.get("content") {
                            parts_ok(
                                rc,
                                &["text", "image", "document", "search_result"],
                                "tool_result",
                            )?;
                        }
                    } else {
                        seen_other = true;
                    }
                }
            }
            Some("assistant") => {
                parts_ok(
                    c,
                    &[
                        "text",
                        "tool_use",
                        "thinking",
                        "redacted_thinking",
                        "server_tool_use",
                        "web_search_tool_result",
                    ],
                    "assistant",
                )?;
                for b in c.as_array().into_iter().flatten() {
                    if ty(b) == "tool_use" {
                        if !b["input"].is_object() {
                            return Err("tool_use input is no object".into());
                        }
                        calls.push(b["id"].as_str().ok_or("tool_use id")?.to_owned());
                    }
                }
            }
            other => return Err(format!("role {other:?}")),
        }
    }
    calls_answered(&calls, &answers)
}

fn check_chat(v: &Value) -> Result<(), String> {
    if !v["model"].is_string() {
        return Err("model missing".into());
    }
    let msgs = v["messages"].as_array().ok_or("messages missing")?;
    let (mut calls, mut answers) = (Vec::new(), Vec::new());
    for m in msgs {
        let c = &m["content"];
        match m["role"].as_str() {
            Some("system" | "developer") => parts_ok(c, &["text"], "system")?,
            Some("user") => parts_ok(c, &["text", "image_url", "input_audio", "file"], "user")?,
            Some("assistant") => {
                if !c.is_null() {
                    parts_ok(c, &["text", "refusal"], "assistant")?;
                }
                for t in m["tool_calls"].as_array().into_iter().flatten() {
                    if !t["function"]["arguments"].is_string() || ty(t) != "function" {
                        return Err("tool call shape".into());
                    }
                    calls.push(t["id"].as_str().ok_or("tool call id")?.to_owned());
                }
            }
            Some("tool") => {
                parts_ok(c, &["text"], "tool")?;
                answers.push(m["tool_call_id"].as_str().ok_or("tool_call_id")?.to_owned());
            }
            other => return Err(format!("role {other:?}")),
        }
    }
    calls_answered(&calls, &answers)
}

fn check_responses(v: &Value) -> Result<(), String> {
    if !v["model"].is_string() {
        return Err("model missing".into());
    }
    if let Some(i) = v.get("instructions")
        && !i.is_string()
    {
        return Err("instructions is no string".into());
    }
    let items = match &v["input"] {
        Value::String(_) => return Ok(()),
        Value::Array(a) => a,
        _ => return Err("input missing".into()),
    };
    let input_parts = ["input_text", "input_image", "input_file"];
    let (mut calls, mut answers) = (Vec::new(), Vec::new());
    for it in items {
        match (ty(it), it.get("role").and_then(Value::as_str)) {
            ("message" | "", Some("user" | "system" | "developer")) => {
                parts_ok(&it["content"], &input_parts, "input message")?
            }
            ("message" | "", Some("assistant")) => parts_ok(
                &it["content"],
                &["output_text", "refusal"],
                "assistant message",
            )?,
            ("function_call", _) => {
                if !it["arguments"].is_string() || !it["name"].is_string() {
                    return Err("function_call shape".into());
                }
                calls.push(it["call_id"].as_str().ok_or("call_id")?.to_owned());
            }
            ("function_call_output", _) => {
                parts_ok(&it["output"], &input_parts, "function_call_output")?;
                answers.push(it["call_id"].as_str().ok_or("call_id")?.to_owned());
            }
            ("reasoning", _) => {}
            (t, r) => return Err(format!("input item type {t:?} role {r:?}")),
        }
    }
    calls_answered(&calls, &answers)
}

fn check_shape(
    vendor: Vendor,
    v: &Value,
    losses: &[tooljson::protocol::Loss],
) -> Result<(), String> {
    match vendor {
        Vendor::Anthropic => check_anthropic(
            v,
            losses
                .iter()
                .any(|l| l.part == "max_tokens" && l.effect == LossEffect::MissingRequired),
        ),
        Vendor::OpenAiChat => check_chat(v),
        Vendor::OpenAiResponses => check_responses(v),
        other => Err(format!("no request shape is modelled for {other}")),
    }
}

/// The JSON without image `"detail": "auto"`: the default, which Responses
/// requires spelled out and the others leave out.
fn without_auto_detail(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, m)| !(*k == "detail" && m.as_str() == Some("auto")))
                .map(|(k, m)| (k.to_owned(), without_auto_detail(m)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_auto_detail).collect()),
        other => other.clone(),
    }
}

/// Reads `body` as `a`, checks it writes back the same, and for every other
/// vendor: the output has the target's shape, and either no loss and the
/// trip back gives `body`, or a loss report that names each part.
fn round_trips(
    a: Vendor,
    body: &Value,
    what: &str,
) -> Vec<(Vendor, Vec<tooljson::protocol::Loss>)> {
    let r = Request::from_vendor(a, body).unwrap_or_else(|e| panic!("{what}: {e}"));
    let same = r
        .to_vendor(a)
        .lossless()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(&same, body, "{what}: written back for {a}");
    let mut report = Vec::new();
    for b in VENDORS {
        let (there, losses) = r.to_vendor(b).accept_losses();
        check_shape(b, &there, &losses).unwrap_or_else(|e| panic!("{what} as {b}: {e}\n{there:#}"));
        if losses.is_empty() {
            let read =
                Request::from_vendor(b, &there).unwrap_or_else(|e| panic!("{what} as {b}: {e}"));
            let back = read
                .to_vendor(a)
                .lossless()
                .unwrap_or_else(|e| panic!("{what}: {a} -> {b} -> {a}: {e}"));
            assert_eq!(
                without_auto_detail(&back),
                without_auto_detail(body),
                "{what}: {a} -> {b} -> {a}\nvia {there:#}"
            );
        } else {
            for l in &losses {
                assert!(!l.part.is_empty() && !l.why.is_empty(), "{what}: {l:?}");
            }
        }
        report.push((b, losses));
    }
    report
}

// ---------------------------------------------------------------------------
// The six cases of the issue.

fn image_result() -> Value {
    json!({"role": "user", "content": [{
        "type": "tool_result", "tool_use_id": "t1",
        "content": [{"type": "text", "text": "the chart:"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]
    }]})
}

#[test]
fn case1_image_in_tool_result_to_chat_is_reported_not_sent() {
    let results =
        ToolResults::from_vendor(Vendor::Anthropic, std::slice::from_ref(&image_result())).unwrap();
    let chat = results.to_vendor(Vendor::OpenAiChat);
    assert_eq!(chat.losses().len(), 1);
    let loss = &chat.losses()[0];
    assert_eq!(
        (loss.part.as_str(), loss.at.as_str()),
        ("image", "/content/0/content/1")
    );
    assert_eq!(loss.effect, LossEffect::Dropped);
    assert!(chat.clone().lossless().is_err());
    let (messages, _) = chat.accept_losses();
    // What is sent is what Chat accepts: text parts only.
    assert_eq!(
        messages,
        vec![
            json!({"role": "tool", "tool_call_id": "t1", "content": [{"type": "text", "text": "the chart:"}]})
        ]
    );
    // Responses takes images in a function_call_output: lossless, and back.
    let items = results
        .to_vendor(Vendor::OpenAiResponses)
        .lossless()
        .unwrap();
    assert_eq!(
        items[0]["output"][1],
        json!({"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=",
               "detail": "auto"})
    );
    let back = ToolResults::from_vendor(Vendor::OpenAiResponses, &items).unwrap();
    assert_eq!(
        back.to_vendor(Vendor::Anthropic).lossless().unwrap(),
        vec![image_result()]
    );
}

#[test]
fn case2_text_after_results_crosses_as_a_user_message() {
    let anthropic = json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
        {"type": "text", "text": "Please continue."}
    ]});
    let results =
        ToolResults::from_vendor(Vendor::Anthropic, std::slice::from_ref(&anthropic)).unwrap();
    let chat = results.to_vendor(Vendor::OpenAiChat).lossless().unwrap();
    assert_eq!(
        chat,
        vec![
            json!({"role": "tool", "tool_call_id": "t1", "content": "ok"}),
            json!({"role": "user", "content": "Please continue."}),
        ]
    );
    let back = ToolResults::from_vendor(Vendor::OpenAiChat, &chat).unwrap();
    assert_eq!(
        back.to_vendor(Vendor::Anthropic).lossless().unwrap(),
        vec![anthropic.clone()]
    );
    let items = results
        .to_vendor(Vendor::OpenAiResponses)
        .lossless()
        .unwrap();
    assert_eq!(
        items[1],
        json!({"role": "user", "content": "Please continue."})
    );
    let back = ToolResults::from_vendor(Vendor::OpenAiResponses, &items).unwrap();
    assert_eq!(
        back.to_vendor(Vendor::Anthropic).lossless().unwrap(),
        vec![anthropic]
    );
}

#[test]
fn case3_explicit_is_error_false_is_reported_through_openai() {
    let block =
        json!({"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": false});
    let r = ToolResult::from_vendor(Vendor::Anthropic, &block).unwrap();
    assert_eq!(r.to_vendor(Vendor::Anthropic).lossless().unwrap(), block);
    for v in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
        let c = r.to_vendor(v);
        assert_eq!(c.losses().len(), 1, "{v}");
        assert_eq!(c.losses()[0].part, "is_error");
        assert_eq!(c.losses()[0].at, "/is_error");
        assert_eq!(c.losses()[0].effect, LossEffect::ReadsBackDifferently);
    }
    // Without the explicit flag, the trip is lossless.
    let plain = ToolResult::from_vendor(
        Vendor::Anthropic,
        &json!({"type": "tool_result", "tool_use_id": "t1", "content": "ok"}),
    )
    .unwrap();
    assert!(plain.to_vendor(Vendor::OpenAiChat).is_lossless());
}

#[test]
fn case4_success_text_starting_with_error_prefix_is_reported() {
    let block = json!({"type": "tool_result", "tool_use_id": "t1", "content": "Error: none found (the search succeeded)"});
    let r = ToolResult::from_vendor(Vendor::Anthropic, &block).unwrap();
    assert!(!r.is_error);
    for v in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
        let c = r.to_vendor(v);
        assert_eq!(c.losses().len(), 1, "{v}");
        assert_eq!(c.losses()[0].at, "/content");
        assert_eq!(c.losses()[0].effect, LossEffect::ReadsBackDifferently);
        // The text itself is sent unchanged.
        let (m, _) = c.accept_losses();
        let text = if v == Vendor::OpenAiChat {
            &m["content"]
        } else {
            &m["output"]
        };
        assert_eq!(text, "Error: none found (the search succeeded)");
    }
    // An error result crosses without a report, flag and text intact.
    let err = ToolResult::from_vendor(
        Vendor::Anthropic,
        &json!({"type": "tool_result", "tool_use_id": "t1",
                                                  "content": "disk full", "is_error": true}),
    )
    .unwrap();
    let chat = err.to_vendor(Vendor::OpenAiChat).lossless().unwrap();
    assert_eq!(chat["content"], "Error: disk full");
    let back = ToolResult::from_vendor(Vendor::OpenAiChat, &chat).unwrap();
    assert!(back.is_error);
    assert_eq!(back.content, ResultContent::Text("disk full".into()));
}

/// The keys of an object in the order a serializer writes them.
fn key_order(v: &Value) -> Vec<String> {
    let text = v.to_string();
    let mut out = Vec::new();
    let o = v.as_object().unwrap();
    let mut from = 0;
    while let Some((k, at)) = o
        .keys()
        .filter_map(|k| {
            text[from..]
                .find(&format!("\"{k}\":"))
                .map(|i| (k, i + from))
        })
        .min_by_key(|(_, i)| *i)
    {
        out.push(k.to_owned());
        from = at + k.len() + 3;
        if out.len() == o.len() {
            break;
        }
    }
    out
}

#[test]
fn case5_schema_properties_keep_their_order_through_every_vendor() {
    let body = json!({"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "t", "input_schema": {"type": "object",
            "properties": {"z": {"type": "string"}, "a": {"type": "string"}, "m": {"type": "string"}}}}]});
    let r = Request::from_vendor(Vendor::Anthropic, &body).unwrap();
    let expected = ["z", "a", "m"];
    for b in VENDORS {
        let there = r.to_vendor(b).lossless().unwrap();
        let props = match b {
            Vendor::Anthropic => &there["tools"][0]["input_schema"]["properties"],
            Vendor::OpenAiChat => &there["tools"][0]["function"]["parameters"]["properties"],
            Vendor::OpenAiResponses => &there["tools"][0]["parameters"]["properties"],
            other => panic!("{other} is not among VENDORS"),
        };
        assert_eq!(key_order(props), expected, "as {b}");
        let back = Request::from_vendor(b, &there)
            .unwrap()
            .to_vendor(Vendor::Anthropic)
            .lossless()
            .unwrap();
        assert_eq!(
            key_order(&back["tools"][0]["input_schema"]["properties"]),
            expected,
            "via {b}"
        );
    }
}

#[test]
fn case6_a_whole_request_with_every_part_kind_converts() {
    let body = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 512,
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "What is in these?"},
                {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
                {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}}
            ]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": "toolu_1", "name": "ocr", "input": {"page": 1}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "A cat.", "is_error": true},
                {"type": "text", "text": "Go on."}
            ]}
        ],
        "tools": [{"name": "ocr", "description": "Read a page", "input_schema":
            {"type": "object", "properties": {"page": {"type": "integer"}}, "required": ["page"]}}],
        "tool_choice": {"type": "tool", "name": "ocr", "disable_parallel_tool_use": true},
        "temperature": 0.5,
        "stop_sequences": ["END"],
        "stream": false
    });
    let report = round_trips(Vendor::Anthropic, &body, "case 6");
    // Chat and Responses carry all of it but the stop sequences (Responses has none).
    let chat = &report
        .iter()
        .find(|(v, _)| *v == Vendor::OpenAiChat)
        .unwrap()
        .1;
    assert!(chat.is_empty(), "{chat:?}");
    let resp = &report
        .iter()
        .find(|(v, _)| *v == Vendor::OpenAiResponses)
        .unwrap()
        .1;
    assert_eq!(
        resp.iter().map(|l| l.part.as_str()).collect::<Vec<_>>(),
        ["stop"]
    );
    let chat = Request::from_vendor(Vendor::Anthropic, &body)
        .unwrap()
        .to_vendor(Vendor::OpenAiChat)
        .lossless()
        .unwrap();
    assert_eq!(
        chat["messages"][0],
        json!({"role": "system", "content": "You are terse."})
    );
    assert_eq!(
        chat["messages"][1]["content"][2],
        json!({"type": "file", "file": {"file_data": "data:application/pdf;base64,JVBERi0x"}})
    );
    assert_eq!(
        chat["tool_choice"],
        json!({"type": "function", "function": {"name": "ocr"}})
    );
    assert_eq!(chat["parallel_tool_calls"], json!(false));
    assert_eq!(chat["messages"][3]["content"], "Error: A cat.");
    assert_eq!(
        chat["messages"][4],
        json!({"role": "user", "content": "Go on."})
    );
}

// ---------------------------------------------------------------------------
// The API reference examples.

#[test]
fn api_reference_examples_round_trip_or_report() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/protocol/requests");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    let mut lossless = 0;
    for name in &names {
        let vendor = if name.starts_with("anthropic_") {
            Vendor::Anthropic
        } else if name.starts_with("openai_chat_") {
            Vendor::OpenAiChat
        } else if name.starts_with("openai_responses_") {
            Vendor::OpenAiResponses
        } else {
            panic!("{name}: no vendor prefix")
        };
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let body: Value = tooljson::from_str(&text).unwrap();
        check_shape(vendor, &body, &[]).unwrap_or_else(|e| panic!("{name} itself: {e}"));
        for (_, losses) in round_trips(vendor, &body, name) {
            lossless += usize::from(losses.is_empty());
        }
    }
    // Most examples cross every way without a loss.
    assert!(
        lossless >= names.len() * 2,
        "{lossless} lossless of {}",
        names.len() * 3
    );
}

#[test]
fn chat_without_max_tokens_to_anthropic_reports_the_required_member() {
    let chat = json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": "Hello!"}]});
    let c = Request::from_vendor(Vendor::OpenAiChat, &chat)
        .unwrap()
        .to_vendor(Vendor::Anthropic);
    assert_eq!(c.losses().len(), 1);
    assert_eq!(c.losses()[0].effect, LossEffect::MissingRequired);
    assert_eq!(c.losses()[0].part, "max_tokens");
}

#[test]
fn vendor_only_parts_and_members_are_reported() {
    let body = json!({"model": "m", "max_tokens": 100, "top_k": 5,
    "thinking": {"type": "enabled", "budget_tokens": 2000},
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "...", "signature": "sig"},
            {"type": "text", "text": "hello"}]}
    ]});
    let r = Request::from_vendor(Vendor::Anthropic, &body).unwrap();
    for v in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
        let c = r.to_vendor(v);
        let mut parts: Vec<&str> = c.losses().iter().map(|l| l.part.as_str()).collect();
        parts.sort_unstable();
        assert_eq!(parts, ["thinking", "thinking", "top_k"], "{v}");
        assert!(
            c.losses().iter().any(|l| l.at == "/messages/1/content/0"),
            "{v}"
        );
    }
}

#[test]
fn malformed_requests_are_typed_errors_with_pointers() {
    let cases = [
        (Vendor::Anthropic, json!([]), ""),
        (Vendor::Anthropic, json!({"messages": []}), ""),
        (
            Vendor::Anthropic,
            json!({"model": "m", "messages": [{"role": "robot", "content": "x"}]}),
            "/messages/0/role",
        ),
        (
            Vendor::OpenAiChat,
            json!({"model": "m", "messages": [{"role": "user"}]}),
            "/messages/0",
        ),
        (
            Vendor::OpenAiChat,
            json!({"model": "m", "messages": [], "temperature": "hot"}),
            "/temperature",
        ),
        (
            Vendor::OpenAiResponses,
            json!({"model": "m", "input": 7}),
            "/input",
        ),
        (
            Vendor::Anthropic,
            json!({"model": "m", "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "n"}]}]}),
            "/messages/0/content/0",
        ),
    ];
    for (v, body, at) in cases {
        let e = Request::from_vendor(v, &body).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains(if at.is_empty() { "" } else { at }),
            "{v} {body}: {text}"
        );
    }
}

#[test]
fn append_ready_assistant_message_goes_into_the_next_request() {
    let response = json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "ocr", "input": {"page": 1}}],
        "stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}});
    let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &response).unwrap();
    for v in VENDORS {
        let message = turn.to_vendor(v).lossless().unwrap();
        let results = turn
            .reply([(
                "toolu_1".to_string(),
                tooljson::protocol::ToolOutcome::text("A cat."),
            )])
            .unwrap();
        let replies = results.to_vendor(v).lossless().unwrap();
        let mut conversation = vec![json!({"role": "user", "content": "Read page 1."})];
        match message {
            Value::Array(items) => conversation.extend(items),
            m => conversation.push(m),
        }
        conversation.extend(replies);
        let body = match v {
            Vendor::Anthropic => json!({"model": "m", "max_tokens": 10, "messages": conversation}),
            Vendor::OpenAiChat => json!({"model": "m", "messages": conversation}),
            Vendor::OpenAiResponses => json!({"model": "m", "input": conversation}),
            other => panic!("{other} is not among VENDORS"),
        };
        check_shape(v, &body, &[]).unwrap_or_else(|e| panic!("{v}: {e}\n{body:#}"));
        round_trips(v, &body, &format!("append-ready {v}"));
    }
}

/// A user message right after tool results (a new round) is written for
/// Responses as `{"role":"user",...}`, reads back there as the text sent with
/// the results, and crosses Anthropic inside the results message: the way back
/// must spell it as it was written (both writers leave out the optional
/// `type: "message"`).
#[test]
fn responses_user_message_after_results_comes_back_the_same_through_anthropic() {
    let anthropic = json!({"model": "m", "max_tokens": 10, "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"location": "Oslo"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "15"}]},
        {"role": "user", "content": "And tomorrow?"}
    ]});
    let (responses, _) = Request::from_vendor(Vendor::Anthropic, &anthropic)
        .unwrap()
        .to_vendor(Vendor::OpenAiResponses)
        .accept_losses();
    assert_eq!(
        responses["input"][3],
        json!({"role": "user", "content": "And tomorrow?"})
    );
    round_trips(
        Vendor::OpenAiResponses,
        &responses,
        "user message after results",
    );
}

// ---------------------------------------------------------------------------
// Property: generated requests with every part kind and tool_choice posture.

fn user_part() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-zA-Z .é]{1,12}".prop_map(|t| json!({"type": "text", "text": t})),
        "[a-zA-Z0-9]{4,8}".prop_map(|d| json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": d}})),
        "[a-z]{1,8}".prop_map(|u| json!({"type": "image", "source": {"type": "url", "url": format!("https://example.com/{u}.png")}})),
        "[a-zA-Z0-9]{4,8}".prop_map(|d| json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": d}})),
    ]
}

fn user_content() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-zA-Z ?]{1,12}".prop_map(Value::from),
        prop::collection::vec(user_part(), 1..4).prop_map(Value::from),
    ]
}

/// One round: a user message, an assistant turn with 0-2 calls, and the
/// results (text, or text and an image; some errors; maybe a text after).
fn round(n: usize) -> impl Strategy<Value = Vec<Value>> {
    (
        user_content(),
        proptest::option::of("[a-zA-Z ]{1,10}"),
        prop::collection::vec((any::<bool>(), any::<bool>(), 0u8..100), 0..3),
        proptest::option::of("[a-zA-Z ]{1,10}"),
    )
        .prop_map(move |(user, said, calls, after)| {
            let mut out = vec![json!({"role": "user", "content": user})];
            let mut blocks = Vec::new();
            if let Some(t) = said {
                blocks.push(json!({"type": "text", "text": t}));
            }
            for (i, (_, _, arg)) in calls.iter().enumerate() {
                let (name, input) = if i % 2 == 0 {
                    ("get_weather", json!({"location": format!("city {arg}")}))
                } else {
                    ("get_time", json!({"timezone": format!("tz {arg}")}))
                };
                blocks.push(json!({"type": "tool_use", "id": format!("toolu_{n}_{i}"), "name": name, "input": input}));
            }
            if blocks.is_empty() {
                blocks.push(json!({"type": "text", "text": "ok"}));
            }
            out.push(json!({"role": "assistant", "content": blocks}));
            if !calls.is_empty() {
                let mut results: Vec<Value> = calls
                    .iter()
                    .enumerate()
                    .map(|(i, (error, image, arg))| {
                        let content = if *image {
                            json!([{"type": "text", "text": format!("r{arg}")},
                                   {"type": "image", "source": {"type": "url", "url": "https://example.com/r.png"}}])
                        } else {
                            json!(format!("r{arg}"))
                        };
                        let mut b = json!({"type": "tool_result", "tool_use_id": format!("toolu_{n}_{i}"), "content": content});
                        if *error {
                            b["is_error"] = json!(true);
                        }
                        b
                    })
                    .collect();
                if let Some(t) = after {
                    results.push(json!({"type": "text", "text": t}));
                }
                out.push(json!({"role": "user", "content": results}));
            }
            out
        })
}

fn tool_choice() -> impl Strategy<Value = Option<Value>> {
    (0u8..5, proptest::option::of(any::<bool>())).prop_map(|(posture, parallel_off)| {
        let mut c = match posture {
            0 => {
                return parallel_off
                    .map(|p| json!({"type": "auto", "disable_parallel_tool_use": p}));
            }
            1 => json!({"type": "auto"}),
            2 => json!({"type": "any"}),
            3 => json!({"type": "tool", "name": "get_time"}),
            _ => return Some(json!({"type": "none"})),
        };
        if let Some(p) = parallel_off {
            c["disable_parallel_tool_use"] = json!(p);
        }
        Some(c)
    })
}

fn anthropic_request() -> impl Strategy<Value = Value> {
    (
        proptest::option::of("[a-zA-Z ]{1,12}"),
        prop::collection::vec(0usize..1, 1..3),
        tool_choice(),
        1u64..4096,
        proptest::option::of(0u8..=10),
        proptest::option::of(prop::collection::vec("[A-Z]{1,4}", 1..3)),
        proptest::option::of(any::<bool>()),
    )
        .prop_flat_map(|(system, rounds, choice, max_tokens, temp, stop, stream)| {
            let n = rounds.len();
            (0..n).map(round).collect::<Vec<_>>().prop_map(move |rounds| {
                let mut body = json!({"model": "claude-sonnet-4-5", "max_tokens": max_tokens});
                if let Some(s) = &system {
                    body["system"] = json!(s);
                }
                body["messages"] = Value::from(rounds.into_iter().flatten().collect::<Vec<_>>());
                body["tools"] = json!([
                    {"name": "get_weather", "description": "Weather", "input_schema": {"type": "object",
                        "properties": {"location": {"type": "string"}}, "required": ["location"]}},
                    {"name": "get_time", "input_schema": {"type": "object", "properties": {"timezone": {"type": "string"}}}}
                ]);
                if let Some(c) = &choice {
                    body["tool_choice"] = c.clone();
                }
                if let Some(t) = temp {
                    body["temperature"] = json!(f64::from(t) / 10.0);
                }
                if let Some(s) = &stop {
                    body["stop_sequences"] = json!(s);
                }
                if let Some(s) = stream {
                    body["stream"] = json!(s);
                }
                body
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// For every start vendor A (the generated Anthropic request written for
    /// A, Responses included) and every target B: B's output has B's shape,
    /// and A -> B -> A gives A's body back exactly, or the conversion named
    /// what it lost.
    #[test]
    fn requests_round_trip_between_every_pair_or_report(body in anthropic_request()) {
        let r = Request::from_vendor(Vendor::Anthropic, &body).unwrap();
        for a in VENDORS {
            let (start, losses) = r.to_vendor(a).accept_losses();
            check_shape(a, &start, &losses).map_err(|e| TestCaseError::fail(format!("{a}: {e}\n{start:#}")))?;
            // Only images in tool results (to Chat), the stop sequences (to
            // Responses) and a user message right after results (it joins
            // them in OpenAI) may be reported on the way out of Anthropic.
            for l in &losses {
                prop_assert!(
                    ["image", "stop", "user message", "content"].contains(&l.part.as_str()),
                    "{}: {}", a, l
                );
            }
            round_trips(a, &start, &format!("from {a}"));
        }
    }
}
