//! `is_valid` answers some subschemas without walking their keywords: a
//! property or item schema made only of `type`, string length bounds and
//! integer number bounds is checked in place, and a plain decimal instance
//! number is read once for all its integer bounds. The JSON-Schema-Test-Suite
//! puts most such keywords at the root, where that path is not taken, so this
//! file generates them one level down and checks `is_valid` against
//! `validate` (which walks every keyword) and, where f64 holds the instance
//! exactly, against the `jsonschema` crate.

use proptest::prelude::*;
use serde_json::{Value as Json, json};
use tooljson::CompiledSchema;

/// An integer bound near the instance numbers below, sometimes at the edges
/// of i64 (and past them, where the bound is no longer an i64).
fn bound() -> impl Strategy<Value = Json> {
    prop_oneof![
        12 => (-3i64..=3).prop_map(Json::from),
        1 => Just(json!(i64::MAX)),
        1 => Just(json!(i64::MIN)),
        1 => Just(json!(999_999_999_999_999_999i64)),
        1 => Just(json!(-999_999_999_999_999_999i64)),
        // Not integers: these nodes take the keyword path.
        1 => Just(json!(2.5)),
        1 => Just(serde_json::from_str::<Json>("18446744073709551616").unwrap()),
    ]
}

/// An `enum` (strings, numbers that equal the instance numbers below in
/// other spellings, null) or a `pattern`, which a leaf may hold one of.
fn extra() -> impl Strategy<Value = Option<(&'static str, Json)>> {
    prop_oneof![
        3 => Just(None),
        1 => Just(Some(("enum", json!(["a", "é☕", "aaaa", 1, 2.5, null])))),
        1 => Just(Some(("enum", serde_json::from_str::<Json>(r#"[1.0, -2, 0, "😀"]"#).unwrap()))),
        1 => Just(Some(("pattern", json!("^a*$")))),
        1 => Just(Some(("pattern", json!("☕")))),
    ]
}

/// A subschema of the kinds the in-place check handles, or one more keyword
/// that makes it take the keyword path.
fn leaf() -> impl Strategy<Value = Json> {
    let ty = prop_oneof![
        Just(None),
        Just(Some(json!("integer"))),
        Just(Some(json!("number"))),
        Just(Some(json!("string"))),
        Just(Some(json!(["string", "integer"]))),
        Just(Some(json!(["number", "null"]))),
    ];
    (
        ty,
        proptest::option::of(0u64..5),
        proptest::option::of(0u64..5),
        proptest::option::of((bound(), any::<bool>())),
        proptest::option::of((bound(), any::<bool>())),
        extra(),
        extra(),
        any::<bool>(),
    )
        .prop_map(|(ty, min_len, max_len, lo, hi, one, two, more)| {
            let mut m = serde_json::Map::new();
            if let Some(t) = ty {
                m.insert("type".into(), t);
            }
            if let Some(n) = min_len {
                m.insert("minLength".into(), json!(n));
            }
            if let Some(n) = max_len {
                m.insert("maxLength".into(), json!(n));
            }
            if let Some((b, open)) = lo {
                let k = if open { "exclusiveMinimum" } else { "minimum" };
                m.insert(k.into(), b);
            }
            if let Some((b, open)) = hi {
                let k = if open { "exclusiveMaximum" } else { "maximum" };
                m.insert(k.into(), b);
            }
            // Two of them (when both are the same keyword, one) make a
            // node that walks its keywords, as does `multipleOf`.
            for (k, v) in [one, two].into_iter().flatten() {
                m.insert(k.into(), v);
            }
            if more {
                m.insert("multipleOf".into(), json!(1));
            }
            Json::Object(m)
        })
}

/// Instance numbers: small integers and decimals around the bounds, 18, 19
/// and 20 digit integers, negative zero, exponents.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (-4i64..=4).prop_map(|i| i.to_string()),
        8 => (-4i64..=4, 0u8..3).prop_map(|(i, f)| match f {
            0 => format!("{i}.0"),
            1 => format!("{i}.5"),
            _ => format!("{i}.000001"),
        }),
        1 => Just("-0".to_owned()),
        1 => Just("-0.0".to_owned()),
        1 => Just("999999999999999999".to_owned()),
        1 => Just("999999999999999999.5".to_owned()),
        1 => Just("-999999999999999999.5".to_owned()),
        1 => Just("9223372036854775807".to_owned()),
        1 => Just("9223372036854775808".to_owned()),
        1 => Just("-9223372036854775809".to_owned()),
        1 => Just("9230000000000000000".to_owned()),
        1 => Just("99999999999999999999".to_owned()),
        1 => Just("1e1".to_owned()),
        1 => Just("-2E0".to_owned()),
        1 => Just("25e-1".to_owned()),
    ]
}

fn string_text() -> impl Strategy<Value = String> {
    // Multi-byte characters, so that byte and code point lengths differ.
    proptest::collection::vec(
        prop_oneof![Just("a"), Just("é"), Just("☕"), Just("😀")],
        0..5,
    )
    .prop_map(|parts| serde_json::to_string(&parts.concat()).unwrap())
}

fn instance_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => number_text(),
        3 => string_text(),
        1 => Just("null".to_owned()),
        1 => Just("true".to_owned()),
        1 => Just("[]".to_owned()),
        1 => Just("{}".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 4000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The subschema under a property, under `items`, and at the root: all
    /// three verdicts equal `validate`'s, and the jsonschema crate's.
    #[test]
    fn in_place_checks_agree_with_the_keywords(sub in leaf(), inst in instance_text()) {
        let value = tooljson::from_str(&inst).unwrap();
        let json: Json = serde_json::from_str(&inst).unwrap();
        for (schema, wrap, wrap_json) in [
            (
                json!({"type": "object", "properties": {"a": sub.clone()}}),
                tooljson::from_str(&format!(r#"{{"a": {inst}}}"#)).unwrap(),
                json!({"a": json.clone()}),
            ),
            (
                json!({"type": "array", "items": sub.clone()}),
                tooljson::from_str(&format!("[0, {inst}, {inst}]")).unwrap(),
                json!([0, json.clone(), json.clone()]),
            ),
            (sub.clone(), value.clone(), json.clone()),
        ] {
            let ours = CompiledSchema::compile(&schema).unwrap();
            let full = ours.validate(&wrap).is_ok();
            prop_assert_eq!(ours.is_valid(&wrap), full, "schema {} instance {}", schema, inst);
            // jsonschema compares through f64 (999999999999999999.5 is an
            // integer to it), so it is asked only about short numbers.
            if inst.len() > 12 {
                continue;
            }
            let theirs = jsonschema::validator_for(&schema).unwrap();
            prop_assert_eq!(
                theirs.is_valid(&wrap_json),
                full,
                "jsonschema disagrees: schema {} instance {}",
                schema,
                inst
            );
        }
    }
}

/// Cases found while the in-place check was written, and the edges of the
/// integer read (18 digits fit, a 19th is left to the exact comparison).
#[test]
fn in_place_check_edges() {
    let cases: &[(Json, &str, bool)] = &[
        (json!({"exclusiveMinimum": 0}), "0", false),
        (json!({"exclusiveMinimum": 0}), "0.000001", true),
        (json!({"exclusiveMaximum": 0}), "-0.5", true),
        (json!({"exclusiveMaximum": 0}), "-0", false),
        (json!({"maximum": 10}), "9230000000000000000", false),
        (json!({"minimum": -10}), "-9230000000000000000", false),
        (json!({"maximum": i64::MAX}), "9223372036854775808", false),
        (json!({"maximum": i64::MAX}), "9223372036854775807", true),
        (json!({"minimum": i64::MIN}), "-9223372036854775809", false),
        (json!({"maximum": 1}), "1.5", false),
        (json!({"maximum": 1}), "10e-1", true),
        (json!({"type": "integer", "maximum": 1}), "1.0", true),
        (json!({"type": "integer"}), "1.5", false),
        (json!({"maxLength": 2}), "\"😀😀\"", true),
        (json!({"maxLength": 1}), "\"😀😀\"", false),
        (json!({"minLength": 2}), "\"😀\"", false),
        (json!({"minLength": 2, "maxLength": 2}), "\"é☕\"", true),
        (json!({"type": "string", "maximum": 0}), "5", false),
        (json!({"maximum": 0}), "\"long string\"", true),
    ];
    for (sub, inst, want) in cases {
        let s = CompiledSchema::compile(&json!({"properties": {"a": sub}})).unwrap();
        let v = tooljson::from_str(&format!(r#"{{"a": {inst}}}"#)).unwrap();
        assert_eq!(s.is_valid(&v), *want, "{sub} on {inst}");
        assert_eq!(s.validate(&v).is_ok(), *want, "{sub} on {inst} (validate)");
    }
}
