//! Property tests of the vendor conversions: any turn written for one vendor,
//! read, written for another, read and written for the first again is the
//! same JSON; the same for results; and a built reply answers every call id
//! exactly once.

use std::collections::HashSet;

use proptest::prelude::*;
use tooljson::Value;
use tooljson::protocol::{
    Arguments, AssistantTurn, ERROR_PREFIX, ResultContent, ResultPart, StopReason, TextPart,
    ToolCall, ToolOutcome, ToolResult, ToolResults, TurnPart, Vendor,
};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| tooljson::json!(n)),
        (-1e12f64..1e12).prop_map(|f| tooljson::json!(f)),
        "[a-z\"\\\\\n\té😀]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,6}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    prop::collection::vec(("[a-zA-Z_]{1,8}", json_value()), 0..4)
        .prop_map(|kv| Value::Object(kv.into_iter().collect()))
}

/// Arguments as each vendor can produce them: an object (any vendor), or
/// OpenAI text that is not JSON (cut short or broken). Not the empty text:
/// it means `{}`, and through Anthropic (whose `input` is an object) it
/// comes back as `"{}"`; a documented normalisation, tested in
/// protocol_messages.rs.
fn arguments() -> impl Strategy<Value = Arguments> {
    prop_oneof![
        6 => object().prop_map(Arguments::from_value),
        2 => object().prop_map(|v| Arguments::from_text(&v.to_string())),
        1 => (object(), 1usize..40).prop_map(|(v, cut)| {
            let t = v.to_string();
            let end = t.char_indices().map(|(i, _)| i).take_while(|&i| i < cut).last().unwrap_or(0);
            Arguments::from_text(t.get(..end.max(1)).unwrap_or("{"))
        }),
        1 => "[{\\[\"a-z:,]{1,12}".prop_map(|t| Arguments::from_text(&t)),
    ]
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 .,'é😀\n]{0,24}"
}

#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Call(String, Arguments),
}

/// A turn: pieces in any order, unique call ids, a stop reason consistent
/// with its calls (Responses has no stop reason field: it is inferred from
/// `status` and the presence of calls).
fn turn(interleaved: bool) -> impl Strategy<Value = AssistantTurn> {
    let piece = prop_oneof![
        text().prop_map(Piece::Text),
        ("[a-z][a-z0-9_-]{0,15}", arguments()).prop_map(|(n, a)| Piece::Call(n, a)),
    ];
    (prop::collection::vec(piece, 0..7), 0u8..4).prop_map(move |(mut pieces, stop)| {
        if !interleaved {
            pieces.sort_by_key(|p| matches!(p, Piece::Call(..)));
        }
        let mut parts = Vec::new();
        for (i, p) in pieces.into_iter().enumerate() {
            parts.push(match p {
                Piece::Text(t) => TurnPart::Text(TextPart::new(t)),
                Piece::Call(n, a) => TurnPart::Call(ToolCall::new(format!("call_{i:02}"), n, a)),
            });
        }
        let has_calls = parts.iter().any(|p| matches!(p, TurnPart::Call(_)));
        let stop = match stop {
            0 => None,
            1 if has_calls => Some(StopReason::ToolUse),
            1 => Some(StopReason::EndTurn),
            2 => Some(StopReason::MaxTokens),
            _ => Some(StopReason::Refusal),
        };
        AssistantTurn::new(parts, stop)
    })
}

fn there_and_back(turn: &AssistantTurn, a: Vendor, b: Vendor) -> (Value, Value) {
    let first = only_wrapped_arguments(turn.to_vendor(a));
    let read = AssistantTurn::from_vendor(a, &first).expect("own output reads");
    let other = only_wrapped_arguments(read.to_vendor(b));
    let read = AssistantTurn::from_vendor(b, &other).expect("other vendor's output reads");
    (first, only_wrapped_arguments(read.to_vendor(a)))
}

/// The conversion's value, when its only losses are arguments that are not
/// one JSON object where the target takes one (reported; the `INVALID_JSON`
/// wrapper, or the value as it is, reads back as the same arguments).
fn only_wrapped_arguments(c: tooljson::protocol::Converted<Value>) -> Value {
    let (v, losses) = c.accept_losses();
    for l in &losses {
        assert!(
            l.part == "arguments" && l.why.contains("takes an object"),
            "{l}"
        );
    }
    v
}

fn result_content(error: bool) -> impl Strategy<Value = ResultContent> {
    let part = prop_oneof![
        "[a-zA-Z0-9 .é]{1,16}".prop_map(ResultPart::Text),
        "[a-z]{1,8}".prop_map(|u| ResultPart::Native {
            vendor: Vendor::Anthropic,
            part: tooljson::json!({"type": "image", "source": {"type": "url", "url": format!("https://example.com/{u}.png")}}),
        }),
    ];
    prop_oneof![
        text().prop_map(ResultContent::Text),
        prop::collection::vec(part, 0..4).prop_map(ResultContent::Parts),
    ]
    // The one ambiguity of the OpenAI error convention: a success whose
    // text starts with the prefix reads back as an error.
    .prop_filter("success text starting with the error prefix", move |c| {
        error || !first_text(c).starts_with(ERROR_PREFIX)
    })
}

fn first_text(c: &ResultContent) -> &str {
    match c {
        ResultContent::Text(t) => t,
        ResultContent::Parts(ps) => match ps.first() {
            Some(ResultPart::Text(t)) => t,
            _ => "",
        },
        ResultContent::Empty => "",
    }
}

fn results() -> impl Strategy<Value = ToolResults> {
    prop::collection::vec(
        any::<bool>().prop_flat_map(|error| {
            result_content(error).prop_map(move |c| {
                if error {
                    ToolOutcome::Error(c)
                } else {
                    ToolOutcome::Success(c)
                }
            })
        }),
        1..5,
    )
    .prop_map(|outcomes| {
        ToolResults::new(
            outcomes
                .into_iter()
                .enumerate()
                .map(|(i, o)| ToolResult::new(format!("toolu_{i}"), o))
                .collect(),
        )
    })
}

fn vendor_pair() -> impl Strategy<Value = (Vendor, Vendor)> {
    (0usize..3, 0usize..3).prop_map(|(a, b)| (Vendor::ALL[a], Vendor::ALL[b]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Text before calls (how the models write a turn): lossless between
    /// every pair of vendors.
    #[test]
    fn any_turn_to_another_vendor_and_back_is_unchanged(t in turn(false), (a, b) in vendor_pair()) {
        let (first, again) = there_and_back(&t, a, b);
        prop_assert_eq!(first, again, "{} -> {} -> {}", a, b, a);
    }

    /// Text and calls interleaved: lossless between Anthropic and Responses
    /// (both keep one ordered list); through Chat (text in `content`, calls
    /// in `tool_calls`) each keeps its own order.
    #[test]
    fn interleaved_turns_keep_order(t in turn(true)) {
        for (a, b) in [(Vendor::Anthropic, Vendor::OpenAiResponses), (Vendor::OpenAiResponses, Vendor::Anthropic)] {
            let (first, again) = there_and_back(&t, a, b);
            prop_assert_eq!(first, again);
        }
        let via_chat = AssistantTurn::from_vendor(Vendor::OpenAiChat, &t.to_openai_chat()).unwrap();
        let texts = |t: &AssistantTurn| t.parts.iter().filter_map(|p| match p {
            TurnPart::Text(x) => Some(x.text.clone()), _ => None }).collect::<Vec<_>>();
        prop_assert_eq!(texts(&via_chat), texts(&t));
        let calls = |t: &AssistantTurn| t.calls().map(|c| (c.id.clone(), c.name.clone(), c.arguments.text().into_owned())).collect::<Vec<_>>();
        prop_assert_eq!(calls(&via_chat), calls(&t));
    }

    /// Results, including is_error and block content, between every pair.
    #[test]
    fn any_results_to_another_vendor_and_back_are_unchanged(r in results(), (a, b) in vendor_pair()) {
        // Chat tool messages take no image: reported, not sent.
        let (first, losses) = r.to_vendor(a).accept_losses();
        if !losses.is_empty() {
            prop_assert!(a == Vendor::OpenAiChat && losses.iter().all(|l| l.part == "image"));
            return Ok(());
        }
        let read = ToolResults::from_vendor(a, &first).unwrap();
        let (other, losses) = read.to_vendor(b).accept_losses();
        if !losses.is_empty() {
            prop_assert!(b == Vendor::OpenAiChat && losses.iter().all(|l| l.part == "image"));
            return Ok(());
        }
        let read = ToolResults::from_vendor(b, &other).unwrap();
        prop_assert_eq!(&read.results.iter().map(|x| x.is_error).collect::<Vec<_>>(),
                        &r.results.iter().map(|x| x.is_error).collect::<Vec<_>>());
        prop_assert_eq!(first, read.to_vendor(a).lossless().unwrap(), "{} -> {} -> {}", a, b, a);
    }

    /// Building a reply: every call id in exactly one result, in call order,
    /// for every vendor's JSON; `reply` refuses exactly when the outcomes
    /// are not a permutation of the call ids.
    #[test]
    fn every_call_id_appears_in_exactly_one_result(
        n in 0usize..6,
        answered in prop::collection::vec(any::<bool>(), 6),
        extra in prop::collection::vec(0usize..9, 0..3),
        seed in any::<u64>(),
    ) {
        let parts: Vec<TurnPart> = (0..n)
            .map(|i| TurnPart::Call(ToolCall::new(format!("call_{i}"), "f", Arguments::from_text("{}"))))
            .collect();
        let turn = AssistantTurn::new(parts, Some(StopReason::ToolUse));
        let mut outcomes: Vec<(String, ToolOutcome)> = (0..n)
            .filter(|i| answered[*i])
            .map(|i| (format!("call_{i}"), ToolOutcome::text(format!("r{i}"))))
            .collect();
        for e in &extra {
            outcomes.push((format!("call_{e}"), ToolOutcome::text("again or unknown")));
        }
        // Shuffle deterministically by the seed.
        let len = outcomes.len();
        if len > 1 {
            for i in 0..len {
                let j = ((seed >> (i % 32)) as usize).wrapping_add(i * 7) % len;
                outcomes.swap(i, j);
            }
        }
        let ids: Vec<String> = (0..n).map(|i| format!("call_{i}")).collect();
        let mut given: Vec<&str> = outcomes.iter().map(|(id, _)| id.as_str()).collect();
        given.sort();
        let mut want: Vec<&str> = ids.iter().map(String::as_str).collect();
        want.sort();
        let is_permutation = given == want;

        match turn.reply(outcomes.clone()) {
            Ok(reply) => {
                prop_assert!(is_permutation);
                prop_assert_eq!(reply.call_ids(), ids.iter().map(String::as_str).collect::<Vec<_>>());
            }
            Err(e) => {
                prop_assert!(!is_permutation, "{}", e);
                prop_assert!(!e.is_empty());
            }
        }
        let (reply, report) = turn.reply_filling(outcomes, |_| ToolOutcome::error("not run"));
        prop_assert_eq!(report.is_none(), is_permutation);
        for v in [Vendor::Anthropic, Vendor::OpenAiChat, Vendor::OpenAiResponses] {
            let json = reply.to_vendor(v).lossless().unwrap();
            let key = match v {
                Vendor::Anthropic => "tool_use_id",
                Vendor::OpenAiChat => "tool_call_id",
                Vendor::OpenAiResponses => "call_id",
                other => unreachable!("{other:?} is not iterated"),
            };
            let found: Vec<&str> = match v {
                Vendor::Anthropic => json[0]["content"].as_array().unwrap().iter()
                    .map(|b| b[key].as_str().unwrap()).collect(),
                _ => json.iter().map(|m| m[key].as_str().unwrap()).collect(),
            };
            prop_assert_eq!(found.len(), n);
            let unique: HashSet<&str> = found.iter().copied().collect();
            prop_assert_eq!(unique.len(), n);
            prop_assert_eq!(found, ids.iter().map(String::as_str).collect::<Vec<_>>());
            turn.check_results(&ToolResults::from_vendor(v, &json).unwrap()).unwrap();
        }
    }

    /// Argument text: what parses keeps its value and exact text; what does
    /// not is kept raw and crosses Anthropic in the INVALID_JSON wrapper.
    #[test]
    fn argument_text_survives(v in object(), pretty in any::<bool>(), cut in 0usize..30) {
        let t = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { v.to_string() };
        let a = Arguments::from_text(&t);
        prop_assert_eq!(a.value(), Some(&v));
        prop_assert_eq!(a.text(), t.as_str());
        let end = t.char_indices().map(|(i, _)| i).rfind(|&i| i > 0 && i <= cut);
        if let Some(end) = end.filter(|&e| e < t.len()) {
            let raw = &t[..end];
            let broken = Arguments::from_text(raw);
            prop_assert!(!broken.is_valid());
            prop_assert!(broken.parse_error().is_some());
            let input = broken.to_anthropic_input();
            prop_assert_eq!(Arguments::from_anthropic_input(&input), broken);
        }
    }
}
