//! Whole non-streamed responses of Anthropic Messages, OpenAI Chat and OpenAI
//! Responses: the API reference examples in `corpus/protocol/responses/`
//! read and written back the same (members and order), converted to every
//! other vendor (lossless and back the same, or a named loss), and a streamed
//! response accumulated to its end equal to the same response received whole.

use tooljson::protocol::{Response, Vendor};
use tooljson::{Map, Value, json};

use crate::common;

const VENDORS: [Vendor; 3] = [
    Vendor::Anthropic,
    Vendor::OpenAiChat,
    Vendor::OpenAiResponses,
];

fn vendor_of(name: &str) -> Vendor {
    if name.starts_with("anthropic") {
        Vendor::Anthropic
    } else if name.starts_with("openai_chat") {
        Vendor::OpenAiChat
    } else if name.starts_with("openai_responses") {
        Vendor::OpenAiResponses
    } else {
        panic!("{name}: the file name says no vendor")
    }
}

/// The JSON with object members in order (serde_json `Value` equality
/// ignores order; the text does not).
fn text(v: &Value) -> String {
    v.to_string()
}

/// The JSON without the members that carry nothing (`null`, `[]`, `{}`, and
/// zero counts in `usage`): what "the same response" means across vendors.
fn carried(v: &Value, in_usage: bool) -> Value {
    match v {
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, m) in o {
                let m = carried(m, in_usage || k == "usage");
                let empty = match &m {
                    Value::Null => true,
                    Value::Array(a) => a.is_empty(),
                    Value::Object(o) => o.is_empty(),
                    Value::Number(n) => in_usage && n.as_u64() == Some(0),
                    _ => false,
                };
                if !empty {
                    out.insert(k.to_owned(), m);
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|m| carried(m, in_usage)).collect()),
        other => other.clone(),
    }
}

/// The body without the members whose value is fixed by the API (`type:
/// "message"`, `role`, `object`): a conversion writes them even when an
/// example left them out.
fn without_envelope(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["type", "role", "object"] {
            o.shift_remove(k);
        }
    }
    v
}

/// The members every body of `vendor` has.
fn check_envelope(vendor: Vendor, v: &Value) -> Result<(), String> {
    let want: &[(&str, Value)] = match vendor {
        Vendor::Anthropic => &[("type", json!("message")), ("role", json!("assistant"))],
        Vendor::OpenAiChat => &[("object", json!("chat.completion"))],
        _ => &[("object", json!("response"))],
    };
    for (k, val) in want {
        if v.get(k) != Some(val) {
            return Err(format!("{k} is {:?}, not {val}", v.get(k)));
        }
    }
    let list = match vendor {
        Vendor::Anthropic => "content",
        Vendor::OpenAiChat => "choices",
        _ => "output",
    };
    if !v.get(list).is_some_and(Value::is_array) {
        return Err(format!("no {list} array"));
    }
    Ok(())
}

/// Reads `body` as `a`: written back for `a` it is the same text; for every
/// other vendor, the output has the target's envelope, and either no loss
/// and the trip back carries the same members, or each loss is named.
fn round_trips(a: Vendor, body: &Value, what: &str) -> Vec<(Vendor, usize)> {
    let r = Response::from_vendor(a, body).unwrap_or_else(|e| panic!("{what}: {e}"));
    let same = r
        .to_vendor(a)
        .lossless()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(text(&same), text(body), "{what}: written back for {a}");
    let mut out = Vec::new();
    for b in VENDORS.into_iter().filter(|b| *b != a) {
        let (there, losses) = r.to_vendor(b).accept_losses();
        check_envelope(b, &there).unwrap_or_else(|e| panic!("{what} as {b}: {e}\n{there:#}"));
        let read =
            Response::from_vendor(b, &there).unwrap_or_else(|e| panic!("{what} as {b}: {e}"));
        assert_eq!(read.id, r.id, "{what} as {b}: id");
        assert_eq!(read.model, r.model, "{what} as {b}: model");
        if losses.is_empty() {
            let back = read
                .to_vendor(a)
                .lossless()
                .unwrap_or_else(|e| panic!("{what}: {a} -> {b} -> {a}: {e}"));
            assert_eq!(
                without_envelope(carried(&back, false)),
                without_envelope(carried(body, false)),
                "{what}: {a} -> {b} -> {a}\nvia {there:#}"
            );
        } else {
            for l in &losses {
                assert!(!l.part.is_empty() && !l.why.is_empty(), "{what}: {l:?}");
            }
        }
        out.push((b, losses.len()));
    }
    out
}

fn fixtures(dir: &str) -> Vec<(String, Value)> {
    let dir = common::project_root().join(dir);
    let mut files: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            let v = tooljson::from_slice(&bytes).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, v)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

#[test]
fn api_reference_examples_round_trip_or_report() {
    for (name, body) in fixtures("corpus/protocol/responses") {
        round_trips(vendor_of(&name), &body, &name);
    }
}

#[test]
fn what_each_example_loses_is_named() {
    let files: Map = fixtures("corpus/protocol/responses").into_iter().collect();
    let losses = |file: &str, to: Vendor| -> Vec<String> {
        let r = Response::from_vendor(vendor_of(file), &files[file]).unwrap();
        r.to_vendor(to)
            .losses()
            .iter()
            .map(|l| format!("{} {}", l.at, l.part))
            .collect()
    };
    // A plain Anthropic answer crosses whole.
    assert_eq!(
        losses("anthropic_hello.json", Vendor::OpenAiChat),
        Vec::<String>::new()
    );
    assert_eq!(
        losses("anthropic_hello.json", Vendor::OpenAiResponses),
        Vec::<String>::new()
    );
    // Chat's service tier and the Responses echo of the request do not.
    assert_eq!(
        losses("openai_chat_default.json", Vendor::Anthropic),
        vec!["/created created", "/service_tier service_tier"]
    );
    let echo = losses("openai_responses_functions.json", Vendor::OpenAiChat);
    for part in [
        "/tools tools",
        "/temperature temperature",
        "/output/0/id id",
    ] {
        assert!(echo.iter().any(|l| l == part), "{part} not in {echo:?}");
    }
    // Reasoning tokens have no Anthropic counterpart.
    let reasoning = losses("openai_responses_reasoning.json", Vendor::Anthropic);
    assert!(
        reasoning
            .contains(&"/usage/output_tokens_details/reasoning_tokens reasoning_tokens".into()),
        "{reasoning:?}"
    );
}

#[test]
fn usage_means_the_same_input_in_every_vendor() {
    let body = json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Hi"}], "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 10, "cache_creation_input_tokens": 20,
                  "cache_read_input_tokens": 30, "output_tokens": 5}
    });
    let r = Response::from_vendor(Vendor::Anthropic, &body).unwrap();
    let chat = r.to_vendor(Vendor::OpenAiChat);
    // Cache writes are inside prompt_tokens; OpenAI cannot say how many.
    assert_eq!(chat.losses().len(), 1, "{:?}", chat.losses());
    assert_eq!(chat.losses()[0].part, "cache_creation_input_tokens");
    let (chat, _) = chat.accept_losses();
    assert_eq!(
        chat["usage"],
        json!({"prompt_tokens": 60, "completion_tokens": 5, "total_tokens": 65,
               "prompt_tokens_details": {"cached_tokens": 30}})
    );
    let responses = Response::from_vendor(Vendor::OpenAiChat, &chat)
        .unwrap()
        .to_vendor(Vendor::OpenAiResponses)
        .lossless()
        .unwrap();
    assert_eq!(
        responses["usage"],
        json!({"input_tokens": 60, "input_tokens_details": {"cached_tokens": 30},
               "output_tokens": 5, "total_tokens": 65})
    );
    // Back in Anthropic terms: uncached input is total minus cached.
    let back = Response::from_vendor(Vendor::OpenAiResponses, &responses)
        .unwrap()
        .to_vendor(Vendor::Anthropic)
        .lossless()
        .unwrap();
    assert_eq!(
        back["usage"],
        json!({"input_tokens": 30, "cache_read_input_tokens": 30, "output_tokens": 5})
    );
    // A stated total that is not the sum is reported.
    let odd = json!({"id": "c", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 3}});
    let c = Response::from_vendor(Vendor::OpenAiChat, &odd)
        .unwrap()
        .to_vendor(Vendor::OpenAiResponses);
    assert_eq!(c.losses()[0].part, "total_tokens");
}

#[test]
fn what_cannot_cross_is_reported() {
    // A stop sequence: Chat says "stop", which reads back as end_turn.
    let body = json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": [{"type": "text", "text": "1, 2, 3"}],
        "stop_reason": "stop_sequence", "stop_sequence": "4"});
    let r = Response::from_vendor(Vendor::Anthropic, &body).unwrap();
    let parts: Vec<String> = r
        .to_vendor(Vendor::OpenAiChat)
        .losses()
        .iter()
        .map(|l| format!("{} {}", l.at, l.part))
        .collect();
    assert_eq!(
        parts,
        vec!["/stop_sequence stop_sequence", "/stop_reason stop reason"]
    );
    // Several Chat choices: Anthropic and Responses hold one turn.
    let n2 = json!({"id": "c", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "a"}, "logprobs": null, "finish_reason": "stop"},
            {"index": 1, "message": {"role": "assistant", "content": "b"}, "logprobs": null, "finish_reason": "stop"}]});
    let r = Response::from_vendor(Vendor::OpenAiChat, &n2).unwrap();
    assert_eq!(r.choices.len(), 2);
    for to in [Vendor::Anthropic, Vendor::OpenAiResponses] {
        let c = r.to_vendor(to);
        assert!(
            c.losses()
                .iter()
                .any(|l| l.at == "/choices/1" && l.part == "choice"),
            "{to}: {:?}",
            c.losses()
        );
    }
    // A refusal's text, and a thinking block, have no place elsewhere.
    let refusal = json!({"id": "c", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                     "refusal": "I can't help with that."}, "logprobs": null, "finish_reason": "stop"}]});
    let r = Response::from_vendor(Vendor::OpenAiChat, &refusal).unwrap();
    for to in [Vendor::Anthropic, Vendor::OpenAiResponses] {
        assert!(
            r.to_vendor(to).losses().iter().any(|l| l.part == "refusal"),
            "{to}"
        );
    }
    let thinking = json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": [{"type": "thinking", "thinking": "hmm", "signature": "sig"},
                    {"type": "text", "text": "4"}],
        "stop_reason": "end_turn", "stop_sequence": null});
    let r = Response::from_vendor(Vendor::Anthropic, &thinking).unwrap();
    for to in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
        let c = r.to_vendor(to);
        assert!(
            c.losses()
                .iter()
                .any(|l| l.at == "/content/0" && l.part == "thinking"),
            "{to}: {:?}",
            c.losses()
        );
    }
}

#[test]
fn malformed_responses_are_typed_errors_with_pointers() {
    let cases = [
        (Vendor::Anthropic, json!([]), ""),
        (
            Vendor::Anthropic,
            json!({"role": "assistant", "content": 7}),
            "/content",
        ),
        (Vendor::OpenAiChat, json!({"choices": {}}), "/choices"),
        (
            Vendor::OpenAiChat,
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": 1}}]}),
            "/choices/0/message/tool_calls",
        ),
        (Vendor::OpenAiResponses, json!({"output": [7]}), "/output/0"),
    ];
    for (v, body, at) in cases {
        let e = Response::from_vendor(v, &body).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("at {}", if at.is_empty() { "/" } else { at }))
                || e.to_string().contains(at),
            "{v} {body}: {e}"
        );
    }
    // A Gemini response may hold no candidate (a blocked prompt); a
    // Bedrock one always holds its output.
    assert!(Response::from_vendor(Vendor::Gemini, &json!({"candidates": 7})).is_err());
    assert!(Response::from_vendor(Vendor::Bedrock, &json!({})).is_err());
}

/// A streamed response accumulated to its end equals the same response
/// received whole.
///
/// "Equal" means: the same id, model and token counts ([`Usage`]); per
/// choice, the same stop reason and the same turn: its parts in order
/// (text, thinking, calls with ids, names and argument values) and the
/// message as it goes into the next request. The whole Anthropic and Chat
/// bodies are composed from the transcript's events by a separate reader
/// (`corpus/protocol/responses/streamed/`, see the README there); the whole
/// Responses body is the transcript's own `response.completed`. Members a
/// stream does not carry (Chat `usage` when not asked for, `logprobs`) are
/// not compared.
#[cfg(feature = "providers")]
mod streamed {
    use super::*;
    use tooljson::protocol::StopReason;
    use tooljson::providers::ToolCallStream;

    /// Transcripts with no whole counterpart, and why.
    const NO_WHOLE: [(&str, &str); 5] = [
        (
            "anthropic/sdk-python-error-event-overloaded.sse",
            "ends in an error event",
        ),
        (
            "anthropic/sdk-python-max-tokens-truncated-tool-input.sse",
            "the tool input is cut off: a whole body would hold the partial input, which the stream cannot be compared against as JSON",
        ),
        (
            "anthropic/vercel-spliced-message-start-INVALID.sse",
            "invalid on purpose",
        ),
        (
            "openai-responses/vercel-error-event-then-response-failed.sse",
            "ends in response.failed",
        ),
        (
            "openai-responses/vercel-multi-tool-use-parallel-wrapper-SYNTHETIC.sse",
            "its response.completed data is unparsable on purpose (SPEC.md section 0, rule 4)",
        ),
    ];

    fn accumulate(bytes: &[u8]) -> ToolCallStream {
        let mut s = ToolCallStream::new();
        s.feed(bytes).unwrap();
        s.finish().unwrap();
        s
    }

    /// The data of the last `response.completed` event.
    fn completed(bytes: &[u8]) -> Option<Value> {
        let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
        text.split("\n\n")
            .filter_map(|ev| {
                let data: Vec<&str> = ev
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(|d| d.strip_prefix(' ').unwrap_or(d))
                    .collect();
                tooljson::from_str(&data.join("\n")).ok()
            })
            .filter(|v| v["type"] == "response.completed")
            .last()
            .map(|v| v["response"].clone())
    }

    fn same(what: &str, vendor: Vendor, whole: &Response, streamed: &Response) {
        assert_eq!(streamed.id, whole.id, "{what}: id");
        assert_eq!(streamed.model, whole.model, "{what}: model");
        if whole.usage().is_some() {
            assert_eq!(streamed.usage(), whole.usage(), "{what}: usage");
        }
        assert_eq!(
            streamed.choices.len(),
            whole.choices.len(),
            "{what}: choices"
        );
        for (i, (s, w)) in streamed.choices.iter().zip(&whole.choices).enumerate() {
            assert_eq!(
                s.stop_reason, w.stop_reason,
                "{what}: choice {i} stop reason"
            );
            assert_eq!(s.parts, w.parts, "{what}: choice {i} parts");
            let (sm, _) = s.to_vendor(vendor).accept_losses();
            let (wm, _) = w.to_vendor(vendor).accept_losses();
            assert_eq!(
                text(&sm),
                text(&wm),
                "{what}: choice {i} as the next request's message"
            );
        }
    }

    #[test]
    fn a_streamed_response_accumulated_equals_the_whole_response() {
        let root = common::testdata("vendor-streams");
        let whole_dir = common::project_root().join("corpus/protocol/responses/streamed");
        let mut compared = 0;
        for (dir, vendor) in [
            ("anthropic", Vendor::Anthropic),
            ("openai-chat", Vendor::OpenAiChat),
            ("openai-responses", Vendor::OpenAiResponses),
        ] {
            for (name, bytes) in common::files_in(&root.join(dir)) {
                let Some(stem) = name.strip_suffix(".sse") else {
                    continue;
                };
                let what = format!("{dir}/{name}");
                if NO_WHOLE.iter().any(|(n, _)| *n == what) {
                    continue;
                }
                let s = accumulate(&bytes);
                let whole_json = if vendor == Vendor::OpenAiResponses {
                    completed(&bytes).unwrap_or_else(|| panic!("{what}: no response.completed"))
                } else {
                    let file = whole_dir.join(format!("{}__{stem}.json", dir.replace('-', "_")));
                    let text = std::fs::read(&file).unwrap_or_else(|e| {
                        panic!("{what}: no whole body {}: {e}", file.display())
                    });
                    tooljson::from_slice(&text).unwrap()
                };
                let whole = Response::from_vendor(vendor, &whole_json)
                    .unwrap_or_else(|e| panic!("{what}: whole: {e}"));
                // The accumulated response, in the vendor's body.
                let messages = s.final_messages_json();
                let mut body = match vendor {
                    Vendor::Anthropic => messages[0].clone(),
                    Vendor::OpenAiChat => json!({"object": "chat.completion", "choices": messages}),
                    _ => {
                        let mut o = messages[0].clone();
                        let status = match s.stop_reason() {
                            Some(StopReason::MaxTokens) => "incomplete",
                            _ => "completed",
                        };
                        o["status"] = json!(status);
                        o
                    }
                };
                if let Some(id) = s.message_id() {
                    body["id"] = json!(id);
                }
                if let Some(m) = s.model() {
                    body["model"] = json!(m);
                }
                let mut streamed = Response::from_vendor(vendor, &body)
                    .unwrap_or_else(|e| panic!("{what}: accumulated: {e}\n{body:#}"));
                if vendor != Vendor::Anthropic
                    && let Some(u) = s.usage()
                {
                    // The adapter keeps the counts, not the vendor's object.
                    streamed.set_usage_json(Vendor::Anthropic, u.to_json());
                }
                same(&what, vendor, &whole, &streamed);
                compared += 1;
            }
        }
        assert!(compared >= 20, "only {compared} transcripts compared");
    }
}
