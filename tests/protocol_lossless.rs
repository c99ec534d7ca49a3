//! No silent drop: every conversion between Anthropic, OpenAI Chat and OpenAI
//! Responses (tool definitions, tool sets with `tool_choice`, results,
//! assistant turns, whole responses), fed generated vendor JSON with the
//! members only one vendor has, either carries everything back (A -> B -> A
//! gives A's JSON) or returns a non-empty loss report.
//!
//! "Carries everything back" compares the JSON without members that carry
//! nothing (`null`, `[]`, `{}`, and zero counts in `usage`): leaving those
//! out is not a loss.

use proptest::prelude::*;
use tooljson::protocol::{
    AssistantTurn, Converted, ProtocolError, Response, ToolDefinition, ToolResult, ToolSet, Vendor,
};
use tooljson::{Map, Value, json};

const VENDORS: [Vendor; 3] = [
    Vendor::Anthropic,
    Vendor::OpenAiChat,
    Vendor::OpenAiResponses,
];

fn carried(v: &Value) -> Value {
    carried_in(v, false)
}

/// In `usage`, a count of zero carries nothing either; nor does `"strict":
/// false` outside a Responses tool (Anthropic and Chat read its absence as
/// false; Responses as true), nor an OpenAI `"tool_choice": "auto"` (the
/// default when there are tools), nor an image `"detail": "auto"` (the
/// default, which Responses requires spelled out).
fn carried_in(v: &Value, usage: bool) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, m)| (k, carried_in(m, usage || k == "usage")))
                .filter(|(k, m)| {
                    let responses_tool = o.get("type").and_then(Value::as_str) == Some("function")
                        && o.contains_key("name");
                    match (*k, m) {
                        ("strict", Value::Bool(false)) => responses_tool,
                        ("tool_choice" | "detail", Value::String(c)) => c != "auto",
                        _ => true,
                    }
                })
                .filter(|(_, m)| match m {
                    Value::Null => false,
                    Value::Array(a) => !a.is_empty(),
                    Value::Object(o) => !o.is_empty(),
                    Value::Number(n) => !(usage && n.as_u64() == Some(0)),
                    _ => true,
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|m| carried_in(m, usage)).collect()),
        other => other.clone(),
    }
}

/// Reads `original` as `a`; for every target `b`, the conversion either
/// reports a loss or `a -> b -> a` gives `original`'s members back.
fn no_silent_drop<T>(
    kind: &str,
    a: Vendor,
    original: &Value,
    read: impl Fn(Vendor, &Value) -> Result<T, ProtocolError>,
    write: impl Fn(&T, Vendor) -> Converted<Value>,
) -> Result<(), TestCaseError> {
    let t = read(a, original).map_err(|e| TestCaseError::fail(format!("{kind} {a}: {e}")))?;
    let same = write(&t, a)
        .lossless()
        .map_err(|e| TestCaseError::fail(format!("{kind} {a} -> {a}: {e}")))?;
    for b in VENDORS.into_iter().filter(|b| *b != a) {
        let (there, losses) = write(&t, b).accept_losses();
        for l in &losses {
            prop_assert!(
                original.pointer(&l.at).is_some(),
                "{} {} -> {}: the loss {:?} points at nothing in the source\noriginal {:#}",
                kind,
                a,
                b,
                l,
                original
            );
        }
        if !losses.is_empty() {
            continue;
        }
        let read_b =
            read(b, &there).map_err(|e| TestCaseError::fail(format!("{kind} as {b}: {e}")))?;
        let (back, _) = write(&read_b, a).accept_losses();
        prop_assert_eq!(
            carried(&back),
            carried(&same),
            "{} {} -> {} -> {} lost something without a report\noriginal {:#}\nvia {:#}",
            kind,
            a,
            b,
            a,
            original,
            there
        );
    }
    Ok(())
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![Just("get_weather".to_owned()), Just("get_time".to_owned())]
}

fn schema() -> impl Strategy<Value = Value> {
    (any::<bool>(), proptest::option::of("[a-z ]{1,8}")).prop_map(|(required, desc)| {
        let mut p = json!({"type": "string"});
        if let Some(d) = desc {
            p["description"] = json!(d);
        }
        let mut s = json!({"type": "object", "properties": {"city": p}});
        if required {
            s["required"] = json!(["city"]);
        }
        s
    })
}

/// A member only some vendors have, or one none models.
fn definition_extra() -> impl Strategy<Value = Option<(&'static str, Value)>> {
    proptest::option::of(prop_oneof![
        Just(("cache_control", json!({"type": "ephemeral"}))),
        Just(("strict", json!(true))),
        Just(("strict", json!(false))),
        Just(("eager_input_streaming", json!(true))),
        Just(("x_custom", json!("kept"))),
    ])
}

fn definition(v: Vendor) -> impl Strategy<Value = Value> {
    (
        name(),
        proptest::option::of("[A-Za-z ]{1,12}"),
        proptest::option::of(schema()),
        definition_extra(),
    )
        .prop_map(move |(name, desc, schema, extra)| {
            let mut f = Map::new();
            f.insert("name".into(), json!(name));
            if let Some(d) = desc {
                f.insert("description".into(), json!(d));
            }
            let key = if v == Vendor::Anthropic {
                "input_schema"
            } else {
                "parameters"
            };
            match (schema, v) {
                (Some(s), _) => {
                    f.insert(key.into(), s);
                }
                (None, Vendor::Anthropic) => {
                    f.insert(key.into(), json!({"type": "object", "properties": {}}));
                }
                _ => {}
            }
            if let Some((k, val)) = extra {
                f.insert(k.into(), val);
            }
            match v {
                Vendor::Anthropic => Value::Object(f),
                Vendor::OpenAiChat => json!({"type": "function", "function": f}),
                _ => {
                    let mut o = Map::new();
                    o.insert("type".into(), json!("function"));
                    o.extend(f);
                    Value::Object(o)
                }
            }
        })
}

fn tool_set(v: Vendor) -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(definition(v), 1..3),
        0u8..5,
        proptest::option::of(any::<bool>()),
    )
        .prop_map(move |(mut tools, posture, parallel)| {
            // Distinct names, as every vendor requires.
            tools.dedup_by(|x, y| {
                x.pointer("/function/name").or(x.get("name"))
                    == y.pointer("/function/name").or(y.get("name"))
            });
            let mut body = json!({"tools": tools});
            let choice = match (posture, v) {
                (0, _) => None,
                (1, Vendor::Anthropic) => Some(json!({"type": "auto"})),
                (2, Vendor::Anthropic) => Some(json!({"type": "any"})),
                (3, Vendor::Anthropic) => Some(json!({"type": "none"})),
                (_, Vendor::Anthropic) => Some(json!({"type": "tool", "name": "get_weather"})),
                (1, _) => Some(json!("auto")),
                (2, _) => Some(json!("required")),
                (3, _) => Some(json!("none")),
                (_, Vendor::OpenAiChat) => {
                    Some(json!({"type": "function", "function": {"name": "get_weather"}}))
                }
                _ => Some(json!({"type": "function", "name": "get_weather"})),
            };
            let names_weather = tools_have(&body, "get_weather");
            if let Some(mut c) =
                choice.filter(|c| !c.to_string().contains("get_weather") || names_weather)
            {
                if v == Vendor::Anthropic
                    && let Some(p) = parallel
                {
                    c["disable_parallel_tool_use"] = json!(!p);
                }
                body["tool_choice"] = c;
            }
            if v != Vendor::Anthropic
                && let Some(p) = parallel
            {
                body["parallel_tool_calls"] = json!(p);
            }
            body
        })
}

fn tools_have(body: &Value, name: &str) -> bool {
    body["tools"].as_array().is_some_and(|ts| {
        ts.iter()
            .any(|t| t.get("name").or_else(|| t.pointer("/function/name")) == Some(&json!(name)))
    })
}

fn result(v: Vendor) -> impl Strategy<Value = Value> {
    // Not the empty text: an empty error result reads back from OpenAI
    // (`"Error: "`) as a result with no content, the same meaning.
    (
        "[a-zA-Z ]{1,10}",
        0u8..3,
        proptest::option::of(any::<bool>()),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(move |(text, shape, is_error, cache, error_prefix)| {
            let text = if error_prefix {
                format!("Error: {text}")
            } else {
                text
            };
            let image_url = "https://example.com/c.png";
            match v {
                Vendor::Anthropic => {
                    let content = match shape {
                        0 => json!(text),
                        1 => json!([{"type": "text", "text": text}]),
                        _ => json!([{"type": "text", "text": text},
                                    {"type": "image", "source": {"type": "url", "url": image_url}}]),
                    };
                    let mut b = json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": content});
                    if let Some(e) = is_error {
                        b["is_error"] = json!(e);
                    }
                    if cache {
                        b["cache_control"] = json!({"type": "ephemeral"});
                    }
                    b
                }
                Vendor::OpenAiChat => {
                    let content = match shape {
                        0 => json!(text),
                        _ => json!([{"type": "text", "text": text}]),
                    };
                    json!({"role": "tool", "tool_call_id": "call_1", "content": content})
                }
                _ => {
                    let output = match shape {
                        0 => json!(text),
                        1 => json!([{"type": "input_text", "text": text}]),
                        _ => json!([{"type": "input_text", "text": text},
                                    {"type": "input_image", "image_url": image_url}]),
                    };
                    let mut o = json!({"type": "function_call_output", "call_id": "call_1", "output": output});
                    if cache {
                        o["id"] = json!("fco_1");
                    }
                    o
                }
            }
        })
}

fn read_result(v: Vendor, j: &Value) -> Result<ToolResult, ProtocolError> {
    match v {
        Vendor::Anthropic => ToolResult::from_vendor(Vendor::Anthropic, j),
        Vendor::OpenAiChat => ToolResult::from_vendor(Vendor::OpenAiChat, j),
        _ => ToolResult::from_vendor(Vendor::OpenAiResponses, j),
    }
}

/// One part of a turn: text (maybe with a vendor-only member), a call, a
/// vendor-only part.
#[derive(Clone, Debug)]
enum Part {
    Text(String, bool),
    Call(String),
    Only,
}

fn part() -> impl Strategy<Value = Part> {
    prop_oneof![
        4 => ("[a-zA-Z ]{1,10}", any::<bool>()).prop_map(|(t, extra)| Part::Text(t, extra)),
        4 => "[a-z]{1,6}".prop_map(Part::Call),
        1 => Just(Part::Only),
    ]
}

fn turn(v: Vendor) -> impl Strategy<Value = Value> {
    (prop::collection::vec(part(), 1..5), any::<bool>()).prop_map(move |(parts, refusal)| {
        let args = |city: &str| json!({"city": city});
        match v {
            Vendor::Anthropic => {
                let blocks: Vec<Value> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, p)| match p {
                        Part::Text(t, false) => json!({"type": "text", "text": t}),
                        Part::Text(t, true) => json!({"type": "text", "text": t, "citations": [
                            {"type": "char_location", "cited_text": "x", "document_index": 0,
                             "start_char_index": 0, "end_char_index": 1}]}),
                        Part::Call(city) => json!({"type": "tool_use", "id": format!("toolu_{i}"),
                                                      "name": "get_weather", "input": args(city)}),
                        Part::Only => json!({"type": "thinking", "thinking": "hmm", "signature": "sig"}),
                    })
                    .collect();
                json!({"role": "assistant", "content": blocks})
            }
            Vendor::OpenAiChat => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter_map(|p| match p {
                        Part::Text(t, _) => Some(t.as_str()),
                        _ => None,
                    })
                    .collect();
                let calls: Vec<Value> = parts
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| match p {
                        Part::Call(city) => Some(json!({"id": format!("call_{i}"), "type": "function",
                            "function": {"name": "get_weather", "arguments": args(city).to_string()}})),
                        _ => None,
                    })
                    .collect();
                let mut m = json!({"role": "assistant",
                                   "content": if texts.is_empty() { Value::Null } else { json!(texts.concat()) }});
                if !calls.is_empty() {
                    m["tool_calls"] = json!(calls);
                }
                if refusal {
                    m["refusal"] = json!("I can't.");
                }
                if parts.iter().any(|p| matches!(p, Part::Only)) {
                    m["reasoning_content"] = json!("hmm");
                }
                m
            }
            _ => {
                let items: Vec<Value> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, p)| match p {
                        Part::Text(t, extra) => {
                            let mut item = json!({"type": "message", "role": "assistant",
                                "content": [{"type": "output_text", "text": t, "annotations": []}]});
                            if *extra {
                                item["id"] = json!(format!("msg_{i}"));
                                item["status"] = json!("completed");
                            }
                            item
                        }
                        Part::Call(city) => json!({"type": "function_call", "call_id": format!("call_{i}"),
                            "name": "get_weather", "arguments": args(city).to_string()}),
                        Part::Only => json!({"type": "reasoning", "id": format!("rs_{i}"),
                            "summary": [{"type": "summary_text", "text": "hmm"}]}),
                    })
                    .collect();
                json!(items)
            }
        }
    })
}

/// A whole response around a generated turn.
fn response(v: Vendor) -> impl Strategy<Value = Value> {
    (
        turn(v),
        0u8..4,
        (1u64..1000, 1u64..1000, 0u64..3, 0u64..3),
        any::<bool>(),
    )
        .prop_map(move |(t, stop, (input, output, cached, extra), tier)| {
            let has_calls = t.to_string().contains("get_weather");
            match v {
                Vendor::Anthropic => {
                    let reason = match (stop, has_calls) {
                        (0, _) => "max_tokens",
                        (1, _) => "stop_sequence",
                        (_, true) => "tool_use",
                        _ => "end_turn",
                    };
                    let mut b = json!({"id": "msg_1", "type": "message", "role": "assistant",
                        "model": "claude-sonnet-4-5", "content": t["content"], "stop_reason": reason,
                        "stop_sequence": if reason == "stop_sequence" { json!("##") } else { Value::Null },
                        "usage": {"input_tokens": input, "cache_creation_input_tokens": extra,
                                  "cache_read_input_tokens": cached, "output_tokens": output}});
                    if tier {
                        b["usage"]["service_tier"] = json!("standard");
                    }
                    b
                }
                Vendor::OpenAiChat => {
                    let reason = match (stop, has_calls) {
                        (0, _) => "length",
                        (1, _) => "content_filter",
                        (_, true) => "tool_calls",
                        _ => "stop",
                    };
                    let mut b = json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1741569952,
                        "model": "gpt-4.1", "choices": [{"index": 0, "message": t, "logprobs": null,
                        "finish_reason": reason}],
                        "usage": {"prompt_tokens": input + cached, "completion_tokens": output,
                                  "total_tokens": input + cached + output,
                                  "prompt_tokens_details": {"cached_tokens": cached},
                                  "completion_tokens_details": {"reasoning_tokens": extra}}});
                    if tier {
                        b["service_tier"] = json!("default");
                    }
                    b
                }
                _ => {
                    let mut b = json!({"id": "resp_1", "object": "response", "created_at": 1741476542,
                        "status": "completed", "model": "gpt-4.1", "output": t,
                        "usage": {"input_tokens": input + cached, "input_tokens_details": {"cached_tokens": cached},
                                  "output_tokens": output, "output_tokens_details": {"reasoning_tokens": extra},
                                  "total_tokens": input + cached + output}});
                    if stop == 0 {
                        b["status"] = json!("incomplete");
                        b["incomplete_details"] = json!({"reason": "max_output_tokens"});
                    }
                    if tier {
                        b["temperature"] = json!(1.0);
                    }
                    b
                }
            }
        })
}

fn vendor() -> impl Strategy<Value = Vendor> {
    prop::sample::select(VENDORS.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn definitions_carry_everything_or_report((a, d) in vendor().prop_flat_map(|a| (Just(a), definition(a)))) {
        no_silent_drop("definition", a, &d, ToolDefinition::from_vendor, ToolDefinition::to_vendor)?;
    }

    #[test]
    fn tool_sets_carry_everything_or_report((a, body) in vendor().prop_flat_map(|a| (Just(a), tool_set(a)))) {
        no_silent_drop("tool set", a, &body, |_, v| ToolSet::from_request_json(v), ToolSet::to_request_json)?;
    }

    #[test]
    fn results_carry_everything_or_report((a, r) in vendor().prop_flat_map(|a| (Just(a), result(a)))) {
        no_silent_drop("result", a, &r, read_result, ToolResult::to_vendor)?;
    }

    #[test]
    fn turns_carry_everything_or_report((a, t) in vendor().prop_flat_map(|a| (Just(a), turn(a)))) {
        no_silent_drop("turn", a, &t, AssistantTurn::from_vendor, AssistantTurn::to_vendor)?;
    }

    #[test]
    fn responses_carry_everything_or_report((a, r) in vendor().prop_flat_map(|a| (Just(a), response(a)))) {
        no_silent_drop("response", a, &r, Response::from_vendor, Response::to_vendor)?;
    }
}

/// Drops the property test found: a Chat `refusal` beside the content, and
/// two Responses message items in a row (they come back as one item).
#[test]
fn found_silent_drops_are_now_reported() {
    let chat = json!({"role": "assistant", "content": "A", "refusal": "I can't."});
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiChat, &chat).unwrap();
    for to in [Vendor::Anthropic, Vendor::OpenAiResponses] {
        let c = turn.to_vendor(to);
        assert!(
            c.losses()
                .iter()
                .any(|l| l.at == "/refusal" && l.part == "refusal"),
            "{to}: {:?}",
            c.losses()
        );
    }
    let items = json!([
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a", "annotations": []}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "b", "annotations": []}]}
    ]);
    let turn = AssistantTurn::from_vendor(Vendor::OpenAiResponses, &items).unwrap();
    assert!(turn.to_vendor(Vendor::OpenAiResponses).is_lossless());
    for to in [Vendor::Anthropic, Vendor::OpenAiChat] {
        let c = turn.to_vendor(to);
        assert!(
            c.losses()
                .iter()
                .any(|l| l.at == "/1" && l.part == "message"),
            "{to}: {:?}",
            c.losses()
        );
    }
    for ok in [
        no_silent_drop(
            "turn",
            Vendor::OpenAiChat,
            &chat,
            AssistantTurn::from_vendor,
            AssistantTurn::to_vendor,
        ),
        no_silent_drop(
            "turn",
            Vendor::OpenAiResponses,
            &items,
            AssistantTurn::from_vendor,
            AssistantTurn::to_vendor,
        ),
    ] {
        ok.unwrap();
    }
}

/// A loss names where the part stood in the JSON it was read from: Chat
/// content parts and calls under their own arrays, Responses texts inside
/// their `message` item, and the envelope (a Chat choice's `message`, a
/// Responses object's `output`) in front.
#[test]
fn loss_pointers_point_into_the_source() {
    let chat = json!({"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant",
        "content": [{"type": "text", "text": "a", "annotations": [1]}, {"type": "refusal", "refusal": "no"}],
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}, "extra": 1}]
    }});
    let responses = json!({"status": "completed", "output": [
        {"type": "reasoning", "summary": []},
        {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "a", "annotations": [1]},
            {"type": "output_text", "text": "b", "logprobs": [1]}
        ]},
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "extra": 1}
    ]});
    let anthropic = json!({"role": "assistant", "content": "plain", "stop_reason": "end_turn"});
    let cases = [
        (
            Vendor::OpenAiChat,
            &chat,
            vec![
                "/message/content/0/annotations",
                "/message/content/1",
                "/message/tool_calls/0/extra",
            ],
        ),
        (
            Vendor::OpenAiResponses,
            &responses,
            vec![
                "/output/0",
                "/output/1/content/0/annotations",
                "/output/1/content/1/logprobs",
                "/output/2/extra",
            ],
        ),
        (Vendor::Anthropic, &anthropic, vec![]),
    ];
    for (from, source, expected) in cases {
        let turn = AssistantTurn::from_vendor(from, source).unwrap();
        for to in VENDORS.into_iter().filter(|v| *v != from) {
            let c = turn.to_vendor(to);
            let at: Vec<&str> = c.losses().iter().map(|l| l.at.as_str()).collect();
            for p in &at {
                assert!(
                    source.pointer(p).is_some(),
                    "{from} -> {to}: {p} is not in {source}"
                );
            }
            for p in &expected {
                assert!(at.contains(p), "{from} -> {to}: no loss at {p}: {at:?}");
            }
        }
    }
}
