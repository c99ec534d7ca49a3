//! The gateway comparison (issue 46): one 64 KiB write-file call in 16-byte
//! deltas as Anthropic, OpenAI Chat and OpenAI Responses SSE bodies, and the
//! bare serde client that tooljson's full path is held against: it splits
//! the events, deserializes each `data:` line into typed structs (borrowed
//! where serde allows), appends the argument strings and parses them once
//! at the end, with no preview, no partial values and no schema.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::json;

/// The vendors of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    Anthropic,
    Chat,
    Responses,
}

pub const WIRES: [Wire; 3] = [Wire::Anthropic, Wire::Chat, Wire::Responses];

impl Wire {
    pub fn name(self) -> &'static str {
        match self {
            Wire::Anthropic => "anthropic",
            Wire::Chat => "openai_chat",
            Wire::Responses => "openai_responses",
        }
    }
}

/// Cuts `text` into pieces of about `n` bytes on character boundaries.
pub fn pieces(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = n.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

fn sse(events: &[serde_json::Value], named: bool) -> String {
    let mut s = String::new();
    for e in events {
        if named {
            s.push_str(&format!("event: {}\n", e["type"].as_str().unwrap()));
        }
        s.push_str(&format!("data: {e}\n\n"));
    }
    s
}

/// The body of one `write_file` call with `args`, in `delta`-byte pieces,
/// as the vendor streams it (member order and spacing as the APIs send).
pub fn body(wire: Wire, args: &str, delta: usize) -> Vec<u8> {
    let mut ev = Vec::new();
    match wire {
        Wire::Anthropic => {
            ev.push(json!({"type":"message_start","message":{"id":"msg_g","type":"message","role":"assistant","model":"claude-g","content":[],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}}}));
            ev.push(json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_0","name":"write_file","input":{}}}));
            for d in pieces(args, delta) {
                ev.push(json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":d}}));
            }
            ev.push(json!({"type":"content_block_stop","index":0}));
            ev.push(json!({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":900}}));
            ev.push(json!({"type":"message_stop"}));
            sse(&ev, true).into_bytes()
        }
        Wire::Chat => {
            let chunk = |delta: serde_json::Value, finish: serde_json::Value| json!({"id":"chatcmpl-g","object":"chat.completion.chunk","created":1,"model":"gpt-4o","system_fingerprint":"fp","choices":[{"index":0,"delta":delta,"logprobs":null,"finish_reason":finish}]});
            ev.push(chunk(
                json!({"role":"assistant","content":null}),
                json!(null),
            ));
            ev.push(chunk(json!({"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"write_file","arguments":""}}]}), json!(null)));
            for d in pieces(args, delta) {
                ev.push(chunk(
                    json!({"tool_calls":[{"index":0,"function":{"arguments":d}}]}),
                    json!(null),
                ));
            }
            ev.push(chunk(json!({}), json!("tool_calls")));
            let mut s = sse(&ev, false);
            s.push_str("data: [DONE]\n\n");
            s.into_bytes()
        }
        Wire::Responses => {
            let mut seq = 0;
            let mut next = || {
                seq += 1;
                seq
            };
            ev.push(json!({"type":"response.created","sequence_number":next(),"response":{"id":"resp_g","status":"in_progress","output":[]}}));
            ev.push(json!({"type":"response.output_item.added","sequence_number":next(),"output_index":0,"item":{"id":"fc_0","type":"function_call","status":"in_progress","arguments":"","call_id":"call_0","name":"write_file"}}));
            for d in pieces(args, delta) {
                ev.push(json!({"type":"response.function_call_arguments.delta","sequence_number":next(),"item_id":"fc_0","output_index":0,"delta":d,"obfuscation":"abc"}));
            }
            ev.push(json!({"type":"response.function_call_arguments.done","sequence_number":next(),"item_id":"fc_0","output_index":0,"arguments":args}));
            ev.push(json!({"type":"response.completed","sequence_number":next(),"response":{"id":"resp_g","status":"completed"}}));
            sse(&ev, true).into_bytes()
        }
    }
}

/// tooljson's full path: the body in `read`-byte reads, the partial tree
/// kept current after every delta, every event drained. Returns the
/// number of complete calls.
pub fn tooljson_full(body: &[u8], read: usize) -> usize {
    use tooljson::providers::{CallStatus, ToolCallStream};
    let mut s = ToolCallStream::new();
    let mut events = 0usize;
    for piece in body.chunks(read) {
        s.feed(piece).unwrap();
        events += s.drain_events().count();
    }
    s.finish().unwrap();
    events += s.drain_events().count();
    std::hint::black_box(events);
    s.calls()
        .iter()
        .filter(|c| c.status() == CallStatus::Complete)
        .count()
}

// The bare client's typed events: only the members it reads; serde skips
// the rest.

#[derive(Deserialize)]
struct AnthropicEvent<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    index: Option<usize>,
    #[serde(borrow, default)]
    content_block: Option<AnthropicBlock<'a>>,
    #[serde(borrow, default)]
    delta: Option<AnthropicDelta<'a>>,
}

#[derive(Deserialize)]
struct AnthropicBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct AnthropicDelta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ChatChunk<'a> {
    #[serde(borrow, default)]
    choices: Vec<ChatChoice<'a>>,
}

#[derive(Deserialize)]
struct ChatChoice<'a> {
    #[serde(borrow)]
    delta: ChatDelta<'a>,
}

#[derive(Deserialize)]
struct ChatDelta<'a> {
    #[serde(borrow, default)]
    content: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_calls: Option<Vec<ChatToolCall<'a>>>,
}

#[derive(Deserialize)]
struct ChatToolCall<'a> {
    index: usize,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    function: Option<ChatFunction<'a>>,
}

#[derive(Deserialize)]
struct ChatFunction<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ResponsesEvent<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    output_index: Option<usize>,
    #[serde(borrow, default)]
    delta: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    item: Option<ResponsesItem<'a>>,
}

#[derive(Deserialize)]
struct ResponsesItem<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    call_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
}

/// One call as the bare client accumulates it.
#[derive(Default)]
pub struct BareCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

fn call_at(calls: &mut Vec<BareCall>, index: usize) -> &mut BareCall {
    if calls.len() <= index {
        calls.resize_with(index + 1, BareCall::default);
    }
    &mut calls[index]
}

fn handle(wire: Wire, data: &[u8], calls: &mut Vec<BareCall>, text: &mut String) {
    match wire {
        Wire::Anthropic => {
            let e: AnthropicEvent<'_> = serde_json::from_slice(data).unwrap();
            match e.kind.as_ref() {
                "content_block_start" => {
                    if let Some(b) = e.content_block
                        && b.kind == "tool_use"
                    {
                        let c = call_at(calls, e.index.unwrap());
                        c.id = b.id.unwrap_or_default().into_owned();
                        c.name = b.name.unwrap_or_default().into_owned();
                    }
                }
                "content_block_delta" => {
                    let d = e.delta.unwrap();
                    match d.kind.as_deref() {
                        Some("input_json_delta") => call_at(calls, e.index.unwrap())
                            .arguments
                            .push_str(&d.partial_json.unwrap_or_default()),
                        Some("text_delta") => text.push_str(&d.text.unwrap_or_default()),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        Wire::Chat => {
            if data == b"[DONE]" {
                return;
            }
            let chunk: ChatChunk<'_> = serde_json::from_slice(data).unwrap();
            for choice in chunk.choices {
                if let Some(t) = choice.delta.content {
                    text.push_str(&t);
                }
                for tc in choice.delta.tool_calls.unwrap_or_default() {
                    let c = call_at(calls, tc.index);
                    if let Some(id) = tc.id {
                        c.id = id.into_owned();
                    }
                    if let Some(f) = tc.function {
                        if let Some(n) = f.name {
                            c.name = n.into_owned();
                        }
                        if let Some(a) = f.arguments {
                            c.arguments.push_str(&a);
                        }
                    }
                }
            }
        }
        Wire::Responses => {
            let e: ResponsesEvent<'_> = serde_json::from_slice(data).unwrap();
            match e.kind.as_ref() {
                "response.output_item.added" => {
                    if let Some(item) = e.item
                        && item.kind == "function_call"
                    {
                        let c = call_at(calls, e.output_index.unwrap());
                        c.id = item.call_id.unwrap_or_default().into_owned();
                        c.name = item.name.unwrap_or_default().into_owned();
                    }
                }
                "response.function_call_arguments.delta" => call_at(calls, e.output_index.unwrap())
                    .arguments
                    .push_str(&e.delta.unwrap_or_default()),
                "response.output_text.delta" => text.push_str(&e.delta.unwrap_or_default()),
                _ => {}
            }
        }
    }
}

/// The bare serde client: `read`-byte reads into a buffer, events split at
/// blank lines, each `data:` line deserialized, arguments appended, each
/// call's arguments parsed once at the end. Returns the parsed arguments.
pub fn serde_client(wire: Wire, body: &[u8], read: usize) -> Vec<serde_json::Value> {
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut calls = Vec::new();
    let mut text = String::new();
    for piece in body.chunks(read) {
        buf.extend_from_slice(piece);
        let mut start = 0;
        while let Some(end) = memchr::memmem::find(&buf[start..], b"\n\n") {
            for line in buf[start..start + end].split(|&b| b == b'\n') {
                if let Some(data) = line.strip_prefix(b"data: ") {
                    handle(wire, data, &mut calls, &mut text);
                }
            }
            start += end + 2;
        }
        buf.drain(..start);
    }
    std::hint::black_box(&text);
    calls
        .iter()
        .map(|c| serde_json::from_str(&c.arguments).unwrap())
        .collect()
}
