//! What the crate writes for a provider is what that provider's SDK types
//! accept, and a loss is reported only where a part reads back with another
//! meaning, at its pointer in the source JSON: one named test per defect of
//! the provider-true issue (each failed before its fix). The outside check
//! of the same properties against the SDKs themselves is
//! `tests/sdk_oracle/run`.

use tooljson::protocol::{LossEffect, Request, Vendor};
use tooljson::{Value, json};

fn read(vendor: Vendor, body: &Value) -> Request {
    Request::from_vendor(vendor, body)
        .unwrap_or_else(|e| panic!("{vendor} request does not read: {e}\n{body:#}"))
}

/// The body for `to` and the pointers and parts of its losses.
fn write(r: &Request, to: Vendor) -> (Value, Vec<(String, String)>) {
    let (v, losses) = r.to_vendor(to).accept_losses();
    let l = losses.into_iter().map(|l| (l.at, l.part)).collect();
    (v, l)
}

fn weather_tool() -> Value {
    json!({"name": "get_weather", "description": "Weather in a city",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}})
}

// 1. Responses reads an absent `strict` as true: a tool that is not strict
//    must say `"strict": false`.
#[test]
fn responses_tool_that_is_not_strict_is_written_strict_false() {
    let anthropic = json!({
        "model": "m", "max_tokens": 10,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [weather_tool()]
    });
    let chat = json!({
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f",
                   "parameters": {"type": "object", "properties": {}}}}]
    });
    for (from, body) in [(Vendor::Anthropic, anthropic), (Vendor::OpenAiChat, chat)] {
        let r = read(from, &body);
        let out = r.to_vendor(Vendor::OpenAiResponses).lossless().unwrap();
        assert_eq!(
            out["tools"][0]["strict"],
            json!(false),
            "from {from}: {out:#}"
        );
        // ... and back, no strict appears where none was.
        let back = read(Vendor::OpenAiResponses, &out)
            .to_vendor(from)
            .lossless();
        assert_eq!(back.unwrap(), body, "from {from}");
    }
    // A strict tool stays strict.
    let strict = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f", "strict": true,
                   "parameters": {"type": "object", "properties": {},
                                  "additionalProperties": false}}}]});
    let out = read(Vendor::OpenAiChat, &strict)
        .to_vendor(Vendor::OpenAiResponses)
        .lossless()
        .unwrap();
    assert_eq!(out["tools"][0]["strict"], json!(true));
}

// 2. An assistant text goes into a Responses `input` in a form the SDK's
//    input types take: the easy input message (an output message item
//    would need the `id` and `status` only the API can give).
#[test]
fn responses_assistant_text_is_written_as_an_easy_input_message() {
    let anthropic = json!({
        "model": "m", "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "Hello."},
                                              {"type": "text", "text": "How can I help?"}]},
            {"role": "user", "content": "weather?"}
        ]
    });
    let out = read(Vendor::Anthropic, &anthropic)
        .to_vendor(Vendor::OpenAiResponses)
        .lossless()
        .unwrap();
    assert_eq!(
        out["input"],
        json!([
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "Hello."},
            {"role": "assistant", "content": "How can I help?"},
            {"role": "user", "content": "weather?"}
        ])
    );
    let back = read(Vendor::OpenAiResponses, &out)
        .to_vendor(Vendor::Anthropic)
        .lossless()
        .unwrap();
    assert_eq!(back, anthropic);
}

// 3. The easy input message of any role reads from a Responses `input`,
//    and an error in a run of items names the item it is in.
#[test]
fn responses_easy_input_messages_read_and_errors_name_their_item() {
    let body = json!({
        "model": "m",
        "input": [
            {"role": "developer", "content": "Be terse."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "Hello."},
            {"type": "message", "role": "user", "content": "weather?"}
        ]
    });
    let r = read(Vendor::OpenAiResponses, &body);
    assert_eq!(
        r.to_vendor(Vendor::OpenAiResponses).lossless().unwrap(),
        body
    );
    let (chat, _) = write(&r, Vendor::OpenAiChat);
    assert_eq!(
        chat["messages"][2],
        json!({"role": "assistant", "content": "Hello."})
    );

    let broken = json!({
        "model": "m",
        "input": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "Let me look."},
            {"type": "function_call", "call_id": "c1", "name": "f"}
        ]
    });
    let e = Request::from_vendor(Vendor::OpenAiResponses, &broken).unwrap_err();
    assert!(
        e.to_string().contains("/input/2"),
        "the error names the item without arguments: {e}"
    );
    let broken_output = json!({
        "model": "m",
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
            {"type": "function_call_output", "output": "ok"}
        ]
    });
    let e = Request::from_vendor(Vendor::OpenAiResponses, &broken_output).unwrap_err();
    assert!(e.to_string().contains("/input/3"), "{e}");
}

// 4. A text block with `cache_control` keeps its text for OpenAI; only
//    `cache_control` is lost, at its own pointer.
#[test]
fn cache_control_text_blocks_keep_their_text_for_openai() {
    let anthropic = json!({
        "model": "m", "max_tokens": 10,
        "system": [{"type": "text", "text": "You are terse.",
                    "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "A long document.", "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "Summarise it."}
        ]}]
    });
    let r = read(Vendor::Anthropic, &anthropic);
    for to in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
        let (out, losses) = write(&r, to);
        let text = out.to_string();
        for t in ["You are terse.", "A long document.", "Summarise it."] {
            assert!(text.contains(t), "{t:?} dropped for {to}: {out:#}");
        }
        // Responses `instructions` is one string: a prompt of blocks goes
        // first in `input`, which is said apart.
        let cache: Vec<_> = losses.iter().filter(|(_, p)| p != "system").collect();
        assert_eq!(
            cache,
            vec![
                &(
                    "/system/0/cache_control".to_owned(),
                    "cache_control".to_owned()
                ),
                &(
                    "/messages/0/content/0/cache_control".to_owned(),
                    "cache_control".to_owned()
                ),
            ],
            "for {to}"
        );
        assert_eq!(
            losses.len() - cache.len(),
            usize::from(to == Vendor::OpenAiResponses)
        );
    }
}

// 5a. A Chat parallel flag without a tool_choice: Anthropic carries it in
//     an auto choice, which reads back as the same request.
#[test]
fn chat_parallel_flag_without_choice_crosses_to_anthropic_losslessly() {
    let chat = json!({
        "model": "m", "max_completion_tokens": 10,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f",
                   "parameters": {"type": "object", "properties": {}}}}],
        "parallel_tool_calls": false
    });
    let r = read(Vendor::OpenAiChat, &chat);
    let out = r.to_vendor(Vendor::Anthropic).lossless().unwrap();
    assert_eq!(
        out["tool_choice"],
        json!({"type": "auto", "disable_parallel_tool_use": true})
    );
    let back = read(Vendor::Anthropic, &out);
    assert_eq!(
        back.tools.as_ref().unwrap().parallel_tool_calls(),
        Some(false)
    );
}

// 5b. `[{"role":"user","content":"hi"}]` and `"hi"` are the same Responses
//     input.
#[test]
fn responses_input_list_of_one_user_text_is_no_loss() {
    let body = json!({"model": "m", "input": [{"role": "user", "content": "hi"}]});
    let r = read(Vendor::OpenAiResponses, &body);
    for to in [Vendor::Anthropic, Vendor::OpenAiChat] {
        let (_, losses) = write(&r, to);
        assert!(
            losses.iter().all(|(_, part)| part != "input"),
            "to {to}: {losses:?}"
        );
    }
}

// 6. Request loss pointers point into the source JSON.
#[test]
fn request_loss_pointers_point_into_the_source_json() {
    let anthropic = json!({
        "model": "m", "max_tokens": 10, "stop_sequences": ["END"],
        "system": [{"type": "text", "text": "a"},
                   {"type": "text", "text": "b", "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": "hi"}]
    });
    let (_, losses) = write(
        &read(Vendor::Anthropic, &anthropic),
        Vendor::OpenAiResponses,
    );
    let at: Vec<&str> = losses.iter().map(|(a, _)| a.as_str()).collect();
    assert!(at.contains(&"/stop_sequences"), "{losses:?}");
    assert!(at.contains(&"/system/1/cache_control"), "{losses:?}");
    assert!(
        !at.iter()
            .any(|a| a.starts_with("/stop") && *a != "/stop_sequences"
                || a.starts_with("/system/content")),
        "{losses:?}"
    );

    // Chat: the system message is message 0; a run of tool messages is one
    // model message, yet each loss names its own message.
    let chat = json!({
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be terse."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": null, "refusal": "no",
             "tool_calls": [{"id": "c1", "type": "function",
                             "function": {"name": "f", "arguments": "{}"}},
                            {"id": "c2", "type": "function",
                             "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            {"role": "tool", "tool_call_id": "c2", "content": "Error: no", "name": "f"}
        ],
        "tools": [{"type": "function", "function": {"name": "f"}}]
    });
    let (_, losses) = write(&read(Vendor::OpenAiChat, &chat), Vendor::Anthropic);
    let at: Vec<&str> = losses.iter().map(|(a, _)| a.as_str()).collect();
    assert!(at.contains(&"/messages/2/refusal"), "{losses:?}");
    assert!(at.contains(&"/messages/4/name"), "{losses:?}");

    // Responses: items of a run keep their index in `input`.
    let responses = json!({
        "model": "m",
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": [
                {"type": "input_text", "text": "chart:"},
                {"type": "input_image", "image_url": "https://example.com/c.png"}]}
        ],
        "tools": [{"type": "function", "name": "f", "strict": false,
                   "parameters": {"type": "object", "properties": {}}}]
    });
    let (_, losses) = write(
        &read(Vendor::OpenAiResponses, &responses),
        Vendor::OpenAiChat,
    );
    assert_eq!(
        losses,
        vec![("/input/2/output/1".to_owned(), "image".to_owned())],
        "{losses:?}"
    );
    let effect = read(Vendor::OpenAiResponses, &responses)
        .to_vendor(Vendor::OpenAiChat)
        .losses()[0]
        .effect;
    assert_eq!(effect, LossEffect::Dropped);
}
