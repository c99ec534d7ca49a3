//! Property tests of the partial-value contract: for random documents and
//! random chunkings, every snapshot extends the one before, events do not
//! depend on the chunking, and the last snapshot is the final value, which
//! is what serde_json reads.

use crate::common::checks;

use checks::{extends, merge_appends as normalize};
use proptest::prelude::*;
use tooljson::Value;
use tooljson::partial::{NodeRef, OwnedValueEvent, PartialNode, PartialParser};

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<u64>().prop_map(|n| serde_json::json!(n)),
        (-1e12f64..1e12).prop_map(|f| serde_json::json!(f)),
        "[a-z\"\\\\\n\t\u{0}-\u{1f}é😀\u{2028}]{0,12}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::vec(("[a-z_é]{0,6}", inner), 0..6)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn document() -> impl Strategy<Value = String> {
    (json_value(), any::<bool>()).prop_map(|(v, pretty)| {
        let root = match v {
            v @ (serde_json::Value::Array(_) | serde_json::Value::Object(_)) => v,
            other => serde_json::json!({ "v": other }),
        };
        if pretty {
            serde_json::to_string_pretty(&root).unwrap()
        } else {
            serde_json::to_string(&root).unwrap()
        }
    })
}

fn cut(len: usize, cuts: &[usize]) -> Vec<usize> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    points.push(0);
    points.push(len);
    points.sort();
    points.dedup();
    points
}

fn run(doc: &[u8], points: &[usize], keep_tree: bool) -> (Vec<OwnedValueEvent>, Option<Value>) {
    let mut p = if keep_tree {
        PartialParser::new()
    } else {
        PartialParser::events_only()
    };
    let mut events = Vec::new();
    let mut prev: Option<PartialNode> = None;
    for w in points.windows(2) {
        p.feed(&doc[w[0]..w[1]], &mut events).unwrap();
        if keep_tree {
            if let (Some(a), Some(b)) = (&prev, p.snapshot()) {
                extends(NodeRef::Partial(a), NodeRef::Partial(b)).unwrap();
            } else if prev.is_some() {
                panic!("snapshot vanished");
            }
            prev = p.snapshot().cloned();
        }
    }
    p.finish(&mut events).unwrap();
    if let (Some(a), Some(b)) = (&prev, p.snapshot()) {
        extends(NodeRef::Partial(a), NodeRef::Partial(b)).unwrap();
    }
    (normalize(events), p.into_value())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn snapshots_grow_monotonically_and_events_ignore_chunking(
        doc in document(),
        cuts_a in prop::collection::vec(any::<usize>(), 0..40),
        cuts_b in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let bytes = doc.as_bytes();
        let (events_whole, value_whole) = run(bytes, &[0, bytes.len()], true);
        let (events_a, value_a) = run(bytes, &cut(bytes.len(), &cuts_a), true);
        let (events_b, _) = run(bytes, &cut(bytes.len(), &cuts_b), true);
        prop_assert_eq!(&events_a, &events_whole);
        prop_assert_eq!(&events_b, &events_whole);
        let value = value_whole.expect("a complete document has a value");
        prop_assert_eq!(value_a.as_ref(), Some(&value));
        let oracle: serde_json::Value = serde_json::from_str(&doc).unwrap();
        prop_assert_eq!(value.to_serde_json().unwrap(), oracle);

        // Completed fires once per value, root last.
        let completed: Vec<_> = events_whole.iter().filter_map(|e| match e {
            OwnedValueEvent::Completed { path, .. } => Some(path.to_string()),
            _ => None,
        }).collect();
        prop_assert_eq!(completed.last().map(String::as_str), Some(""));
        let mut unique = completed.clone();
        unique.sort();
        unique.dedup();
        prop_assert_eq!(unique.len(), completed.len());

        // Events-only mode reports the same events, with values only for scalars.
        let (events_only, none) = run(bytes, &cut(bytes.len(), &cuts_a), false);
        prop_assert!(none.is_none());
        prop_assert_eq!(events_only.len(), events_whole.len());
        for (a, b) in events_only.iter().zip(&events_whole) {
            match (a, b) {
                (OwnedValueEvent::Completed { path: pa, value: va }, OwnedValueEvent::Completed { path: pb, value: vb }) => {
                    prop_assert_eq!(pa, pb);
                    match vb {
                        Some(Value::String(_) | Value::Array(_) | Value::Object(_)) => prop_assert!(va.is_none()),
                        _ => prop_assert_eq!(va, vb),
                    }
                }
                _ => prop_assert_eq!(a, b),
            }
        }
    }
}

/// Objects with repeated keys (from a small alphabet, some long enough not
/// to be held inline), nested, as JSON text: serde_json would merge them.
fn repeated_keys_document() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just("a_key_longer_than_twenty_four_bytes".to_owned()),
        "[a-c]{1,3}",
    ];
    let leaf = prop_oneof![
        any::<i32>().prop_map(|n| n.to_string()),
        "[a-z]{0,5}".prop_map(|s| format!("\"{s}\"")),
    ];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|kv| {
                let members: Vec<String> = kv
                    .into_iter()
                    .map(|(k, v)| format!("\"{k}\":{v}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The tree's final value equals `ValueBuilder`'s under each repeated-key
    /// policy, at any chunking: objects completed in place, their keys'
    /// buffers reused for later objects' keys.
    #[test]
    fn repeated_keys_complete_as_the_value_builder_builds_them(
        doc in repeated_keys_document(),
        cuts in prop::collection::vec(any::<usize>(), 0..24),
        first_wins in any::<bool>(),
    ) {
        use tooljson::{DuplicateKeys, Parser, ValueBuilder};
        let policy = if first_wins { DuplicateKeys::FirstWins } else { DuplicateKeys::LastWins };
        let bytes = doc.as_bytes();
        let mut parser = Parser::new();
        parser.set_duplicate_keys(policy);
        let mut builder = ValueBuilder::with_duplicate_keys(policy);
        parser.feed(bytes, &mut builder).unwrap();
        parser.finish(&mut builder).unwrap();
        let expected = builder.into_value().unwrap();

        let mut p = PartialParser::new();
        p.set_duplicate_keys(policy);
        let points = cut(bytes.len(), &cuts);
        for w in points.windows(2) {
            p.feed(&bytes[w[0]..w[1]], &mut ()).unwrap();
        }
        p.finish(&mut ()).unwrap();
        prop_assert_eq!(p.into_value(), Some(expected));
    }
}
