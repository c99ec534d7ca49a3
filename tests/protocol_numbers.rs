//! Issue 42 (features only add) and issue 45 items 1 and 3: the protocol
//! layer keeps key order without serde_json's `preserve_order`, numbers come
//! out of every path with the text they came in with (or a reported loss),
//! and arguments that are not one JSON object, or repeat a key, are reported,
//! never silently changed.

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use tooljson::protocol::{Arguments, AssistantTurn, LossEffect, Vendor};
use tooljson::providers::ToolCallStream;
use tooljson::{Value, json};

/// Numbers whose text an `f64` does not give back, from issue 45.
const HOSTILE: [&str; 7] = [
    "12345678901234567890123",
    "-0",
    "1E2",
    "0.1000000000000000055511151231257827",
    "1e-400",
    "1e400",
    "1.10",
];

/// A Chat turn with one call whose argument text is `args`.
fn chat_turn(args: &str) -> AssistantTurn {
    AssistantTurn::from_vendor(
        Vendor::OpenAiChat,
        &json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": "call_1", "type": "function",
            "function": {"name": "f", "arguments": args}}]}),
    )
    .unwrap()
}

/// The arguments as each vendor's message holds them, as text.
fn args_in(vendor: Vendor, message: &Value) -> String {
    let v = match vendor {
        Vendor::Anthropic => &message["content"][0]["input"],
        Vendor::OpenAiChat => {
            return message["tool_calls"][0]["function"]["arguments"]
                .as_str()
                .unwrap()
                .to_owned();
        }
        Vendor::OpenAiResponses => return message[0]["arguments"].as_str().unwrap().to_owned(),
        Vendor::Gemini => &message["parts"][0]["functionCall"]["args"],
        Vendor::Bedrock => &message["content"][0]["toolUse"]["input"],
        other => panic!("no arguments member known for {other}"),
    };
    v.to_string()
}

/// A serde_json map built in this test crate (every feature of tooljson on)
/// iterates in sorted order: nothing in tooljson turned `preserve_order` on
/// for the whole build. Fails when a feature of tooljson enables it.
#[test]
fn serde_json_maps_elsewhere_in_the_build_are_unchanged() {
    let mut m = serde_json::Map::new();
    m.insert("b".into(), 1.into());
    m.insert("a".into(), 2.into());
    assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
}

/// Key order survives a conversion with serde_json's `preserve_order` off
/// (see the test above): schema properties and argument members.
#[test]
fn key_order_is_kept_through_conversions() {
    let tools = tooljson::protocol::ToolSet::from_request_json(
        &tooljson::from_str(
            r#"{"tools": [{"name": "f", "input_schema": {"type": "object",
                "properties": {"zeta": {"type": "string"}, "alpha": {"type": "integer"},
                               "mid": {"type": "object", "properties": {"y": {}, "b": {}}}}}}]}"#,
        )
        .unwrap(),
    )
    .unwrap();
    for vendor in Vendor::ALL {
        let (req, _) = tools.to_request_json(vendor).accept_losses();
        let text = req.to_string();
        let (z, a, m) = (
            text.find("\"zeta\"").unwrap(),
            text.find("\"alpha\"").unwrap(),
            text.find("\"mid\"").unwrap(),
        );
        assert!(z < a && a < m, "{vendor}: {text}");
        assert!(
            text.find("\"y\"").unwrap() < text.find("\"b\"").unwrap(),
            "{vendor}: {text}"
        );
    }
    let turn = chat_turn(r#"{"zeta": 1, "alpha": {"y": 2, "b": 3}}"#);
    for vendor in Vendor::ALL {
        let (message, _) = turn.to_vendor(vendor).accept_losses();
        let args = args_in(vendor, &message);
        let compact: String = args.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(compact, r#"{"zeta":1,"alpha":{"y":2,"b":3}}"#, "{vendor}");
    }
}

/// Item 1: each hostile number keeps its text from Chat arguments into
/// Anthropic, Responses and Bedrock, losslessly; for Gemini (doubles) it is
/// kept or the change is a reported loss.
#[test]
fn numbers_keep_their_text_through_each_conversion() {
    for lexeme in HOSTILE {
        let turn = chat_turn(&format!(r#"{{"n": {lexeme}}}"#));
        assert!(
            turn.parts.iter().any(|p| matches!(p,
            tooljson::protocol::TurnPart::Call(c) if c.arguments.is_valid())),
            "{lexeme}"
        );
        for vendor in [
            Vendor::Anthropic,
            Vendor::OpenAiChat,
            Vendor::OpenAiResponses,
            Vendor::Bedrock,
        ] {
            let message = turn
                .to_vendor(vendor)
                .lossless()
                .unwrap_or_else(|e| panic!("{lexeme} {vendor}: {e}"));
            let args = args_in(vendor, &message);
            assert!(
                args.contains(&format!(":{lexeme}}}")) || args.contains(&format!(": {lexeme}}}")),
                "{lexeme} {vendor}: {args}"
            );
            // And back: the turn read from that vendor writes the same text for Chat.
            let back = AssistantTurn::from_vendor(vendor, &message).unwrap();
            let chat = back.to_vendor(Vendor::OpenAiChat).accept_losses().0;
            assert!(
                args_in(Vendor::OpenAiChat, &chat).contains(lexeme),
                "{lexeme} {vendor} -> chat"
            );
        }
        // Gemini's `args` is a protobuf Struct (doubles): none of these
        // comes back from a double as written, so each is a reported loss.
        let (message, losses) = turn.to_vendor(Vendor::Gemini).accept_losses();
        let args = args_in(Vendor::Gemini, &message);
        assert!(args.contains(lexeme), "{lexeme}: Gemini args {args}");
        assert!(
            losses
                .iter()
                .any(|l| l.part == "number" && l.why.contains(lexeme)),
            "{lexeme}: {losses:?}"
        );
    }
}

/// Item 1, the stream: an Anthropic `input_json_delta` with the hostile
/// numbers gives them back in the final message, the turn, and the call.
#[test]
fn anthropic_final_message_keeps_numbers() {
    let args = format!(
        "{{{}}}",
        HOSTILE
            .iter()
            .enumerate()
            .map(|(i, n)| format!("\"n{i}\":{n}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let s = anthropic_stream(&args);
    let message = &s.final_messages_json()[0];
    assert_eq!(message["content"][0]["input"].to_string(), args);
    let turn = s.to_assistant_message().unwrap();
    let anthropic = turn.to_vendor(Vendor::Anthropic).lossless().unwrap();
    assert_eq!(anthropic["content"][0]["input"].to_string(), args);
    assert_eq!(s.calls()[0].to_tool_call().arguments.text(), args);
}

fn anthropic_stream(args: &str) -> ToolCallStream {
    let mut s = ToolCallStream::for_vendor(Vendor::Anthropic);
    for (name, data) in anthropic_events(args) {
        s.feed_event(Some(name), &data).unwrap();
    }
    s.finish().unwrap();
    s
}

fn anthropic_events(args: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "model": "m", "content": [], "stop_reason": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}}})
            .to_string(),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}})
            .to_string(),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": args}})
            .to_string(),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}).to_string(),
        ),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 5}})
            .to_string(),
        ),
        ("message_stop", json!({"type": "message_stop"}).to_string()),
    ]
}

/// Item 3: argument text that is not one JSON object reaches a target that
/// takes an object (Anthropic, Gemini, Bedrock) as the documented wrapper,
/// and the conversion says so; OpenAI keeps the text as it is, losslessly.
#[test]
fn arguments_that_are_not_one_object_are_a_reported_loss() {
    let deep = "[".repeat(200) + &"]".repeat(200);
    for text in [
        r#"{"a": "#,
        r#"{"a": "\ud800"}"#,
        "[1, 2]",
        "\"x\"",
        deep.as_str(),
        "{} {}",
    ] {
        let turn = chat_turn(text);
        for vendor in [Vendor::Anthropic, Vendor::Gemini, Vendor::Bedrock] {
            let c = turn.to_vendor(vendor);
            let losses = c.losses();
            assert!(
                losses.iter().any(|l| l.part == "arguments"
                    && l.effect == LossEffect::ReadsBackDifferently
                    && l.at == "/tool_calls/0/function/arguments"),
                "{text:?} -> {vendor}: {losses:?}"
            );
        }
        for vendor in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
            let message = turn.to_vendor(vendor).lossless().unwrap();
            assert_eq!(args_in(vendor, &message), text, "{vendor}");
        }
    }
}

/// Item 3: a repeated key is not resolved silently: the text is kept, and a
/// target that takes an object reports it.
#[test]
fn a_repeated_key_is_reported() {
    let text = r#"{"a":1,"a":2}"#;
    let a = Arguments::from_text(text);
    assert!(!a.is_valid());
    assert!(
        a.parse_error().unwrap().to_string().contains("a"),
        "{:?}",
        a.parse_error()
    );
    let turn = chat_turn(text);
    let anthropic = turn.to_vendor(Vendor::Anthropic);
    assert!(
        anthropic.losses().iter().any(|l| l.part == "arguments"),
        "{:?}",
        anthropic.losses()
    );
    assert_eq!(
        args_in(
            Vendor::OpenAiChat,
            &turn.to_vendor(Vendor::OpenAiChat).lossless().unwrap()
        ),
        text
    );
}

/// Item 3, streamed: a call whose arguments repeat a key (kept as the last
/// value by the stream's default, as serde_json does) is the text alone in
/// the protocol's model, so a conversion reports it rather than passing one
/// of the two values on.
#[test]
fn a_streamed_call_with_a_repeated_key_is_its_text_alone() {
    let mut s = ToolCallStream::new();
    for e in [
        r#"{"type":"message_start","message":{"id":"m","content":[]}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1,\"a\":2}"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
    ] {
        s.feed_event(None, e).unwrap();
    }
    let call = s.calls()[0].to_tool_call();
    assert!(!call.arguments.is_valid(), "{:?}", call.arguments);
    let turn = AssistantTurn::new(vec![tooljson::protocol::TurnPart::Call(call)], None);
    for vendor in [Vendor::Anthropic, Vendor::Gemini, Vendor::Bedrock] {
        let out = turn.to_vendor(vendor);
        assert!(
            out.losses().iter().any(|l| l.part == "arguments"),
            "{vendor:?}: {:?}",
            out.losses()
        );
    }
    assert_eq!(
        args_in(
            Vendor::OpenAiChat,
            &turn.to_vendor(Vendor::OpenAiChat).lossless().unwrap()
        ),
        r#"{"a":1,"a":2}"#
    );
}

/// Item 1, `replay --ndjson`: the `call_finished` value and the
/// `message_finished` message hold each number as the provider wrote it.
#[test]
fn replay_ndjson_keeps_numbers() {
    let args = format!(
        "{{{}}}",
        HOSTILE
            .iter()
            .enumerate()
            .map(|(i, n)| format!("\"n{i}\":{n}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let lines = replay_ndjson(&args);
    let finished: Vec<&str> = lines
        .lines()
        .filter(|l| l.contains("\"message_finished\""))
        .collect();
    assert_eq!(finished.len(), 1, "{lines}");
    assert!(
        finished[0].contains(&format!("\"input\":{args}")),
        "{}",
        finished[0]
    );
    for line in lines.lines() {
        tooljson::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    }
}

fn replay_ndjson(args: &str) -> String {
    let mut sse = String::new();
    for (name, data) in anthropic_events(args) {
        sse.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooljson"))
        .args(["replay", "--ndjson", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(sse.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn lexeme() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        "(0|[1-9][0-9]{0,30})",
        proptest::option::of("[0-9]{1,25}"),
        proptest::option::of(("[eE]", "[+-]?", "[0-9]{1,4}")),
    )
        .prop_map(|(neg, int, frac, exp)| {
            let mut s = String::new();
            if neg {
                s.push('-');
            }
            s.push_str(&int);
            if let Some(f) = frac {
                s.push('.');
                s.push_str(&f);
            }
            if let Some((e, sign, digits)) = exp {
                s.push_str(&e);
                s.push_str(&sign);
                s.push_str(&digits);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Issue 45's property: any number in a provider's arguments comes out of
    /// every path (the final message, the turn, each conversion) with the
    /// same text, or with a reported loss naming it.
    #[test]
    fn any_number_comes_out_as_written_or_reported(ns in prop::collection::vec(lexeme(), 1..4)) {
        let args = format!("{{{}}}", ns.iter().enumerate()
            .map(|(i, n)| format!("\"n{i}\":[{n}]")).collect::<Vec<_>>().join(","));
        // The stream's final message and turn (Anthropic).
        let s = anthropic_stream(&args);
        prop_assert_eq!(s.final_messages_json()[0]["content"][0]["input"].to_string(), args.clone());
        let turn = s.to_assistant_message().unwrap();
        // Each conversion, from the streamed turn and from Chat text.
        for turn in [turn, chat_turn(&args)] {
            for vendor in Vendor::ALL {
                let (message, losses) = turn.to_vendor(vendor).accept_losses();
                let written = args_in(vendor, &message);
                for n in &ns {
                    let kept = written.contains(&format!("[{n}]"));
                    let reported = losses
                        .iter()
                        .any(|l| l.why.contains(&format!("doubles: {n} reads back")));
                    prop_assert!(kept || reported, "{} in {}: {} {:?}", n, vendor, written, losses);
                    // Gemini's doubles: a number is kept as written, and
                    // reported when a double would not give it back.
                    if vendor == Vendor::Gemini {
                        let double = n.parse::<f64>().ok().and_then(tooljson::Number::from_f64);
                        let same = double.is_some_and(|d| d.as_str() == n)
                            || n.parse::<i64>().is_ok_and(|i| i.unsigned_abs() <= 1 << 53 && i.to_string() == *n);
                        prop_assert_eq!(reported, !same, "{} {:?}", n, losses);
                    }
                }
            }
        }
    }
}

/// An Anthropic message of `n` `tool_use` blocks.
fn many_calls(n: usize) -> Value {
    let blocks: Vec<Value> = (0..n)
        .map(|i| json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": "f", "input": {"i": i}}))
        .collect();
    json!({"role": "assistant", "content": blocks})
}

/// Seconds for reading `n` calls and writing them for every vendor, best of 3.
fn convert_seconds(n: usize) -> f64 {
    let message = many_calls(n);
    (0..3)
        .map(|_| {
            let start = std::time::Instant::now();
            let turn = AssistantTurn::from_vendor(Vendor::Anthropic, &message).unwrap();
            for vendor in Vendor::ALL {
                let (out, _) = turn.to_vendor(vendor).accept_losses();
                AssistantTurn::from_vendor(vendor, &out).unwrap();
            }
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Issue 45 item 9: the cost of a turn of `n` calls grows linearly. Four
/// times the calls may take at most eight times as long (a quadratic step
/// takes sixteen: 64k calls took 3 s where 16k took 0.2 s).
#[test]
fn many_tool_use_blocks_convert_in_linear_time() {
    let small = convert_seconds(4_000);
    let large = convert_seconds(16_000);
    assert!(
        large < 8.0 * small + 0.05,
        "16k calls {large:.3} s, 4k calls {small:.3} s: grows faster than linear"
    );
}
