//! Property tests of the stream check: for random instances of several
//! schemas, cut at random places, the stream verdict equals `validate` of
//! the final value, and the offsets at which violations are reported do not
//! depend on the chunking.

use proptest::prelude::*;
use serde_json::json;
use tooljson::{CompiledSchema, Parser, PartialParser, Value, ValueBuilder};

fn schemas() -> Vec<CompiledSchema> {
    let list = [
        // A typical tool: types, enum, bounds, required, closed object.
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 6},
                "unit": {"enum": ["celsius", "fahrenheit", "kelvin"]},
                "n": {"type": "integer", "minimum": -5, "maximum": 50, "multipleOf": 5},
                "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-c]+$"}, "maxItems": 3, "uniqueItems": true},
                "x": {"type": ["number", "null"], "exclusiveMaximum": 2.5}
            },
            "required": ["name", "unit"],
            "additionalProperties": false
        }),
        // Applicators that need the whole subvalue.
        json!({
            "anyOf": [
                {"type": "object", "required": ["a"]},
                {"type": "array", "minItems": 2, "contains": {"const": 1}}
            ],
            "not": {"type": "object", "required": ["b"], "properties": {"b": {"const": true}}},
            "oneOf": [{"maxProperties": 2}, {"minItems": 3}, {"type": "object", "minProperties": 4}]
        }),
        // Recursion through $ref, conditionals, dependent keywords.
        json!({
            "$defs": {"tree": {"type": "object", "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/tree"}}, "n": {"type": "number"}}, "additionalProperties": {"type": ["string", "boolean"]}}},
            "$ref": "#/$defs/tree",
            "if": {"required": ["n"]},
            "then": {"properties": {"n": {"minimum": 0}}},
            "else": {"maxProperties": 3},
            "dependentRequired": {"x": ["name"]},
            "propertyNames": {"maxLength": 4}
        }),
        // Arrays: prefixItems, items, unevaluated members.
        json!({
            "type": ["array", "object", "string"],
            "prefixItems": [{"type": "integer"}, {"enum": ["a", "b", null]}],
            "items": {"type": ["string", "array"], "maxLength": 3},
            "minItems": 1,
            "properties": {"a": true},
            "patternProperties": {"^n": {"type": "number"}},
            "unevaluatedProperties": {"type": "string"},
            "maxLength": 4
        }),
        // Strings only: const prefix, lengths.
        json!({"anyOf": [{"const": "abcab"}, {"type": "string", "minLength": 7}], "maxLength": 9}),
    ];
    list.iter()
        .map(|s| CompiledSchema::compile(s).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Random JSON whose strings need no escapes, so a part's bytes are its text.
fn value() -> impl Strategy<Value = serde_json::Value> {
    let key = prop::sample::select(vec![
        "a", "b", "n", "x", "name", "unit", "tags", "nn", "long_key",
    ]);
    let text = prop::string::string_regex("[a-c]{0,4}|celsius|kelvin|kel|abcab|abc|fahrenheit|é€")
        .unwrap();
    let leaf = prop_oneof![
        Just(json!(null)),
        any::<bool>().prop_map(|b| json!(b)),
        (-10i64..60).prop_map(|n| json!(n)),
        (-300i32..300).prop_map(|n| json!(f64::from(n) / 100.0)),
        text.prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|members| {
                let mut m = serde_json::Map::new();
                for (k, v) in members {
                    m.insert(k.to_owned(), v);
                }
                serde_json::Value::Object(m)
            }),
        ]
    })
}

/// Parses `text` into `sink`, cut after each length in `cuts` (the rest in
/// one last chunk).
fn feed_cut<S: tooljson::TokenSink>(text: &[u8], cuts: &[usize], sink: &mut S) {
    let mut p = Parser::new();
    let mut at = 0;
    for &c in cuts {
        let end = (at + c).min(text.len());
        p.feed(&text[at..end], sink).unwrap();
        at = end;
    }
    p.feed(&text[at..], sink).unwrap();
    p.finish(sink).unwrap();
}

/// (verdict, offsets of every violation) from streaming `text` in `cuts`.
fn stream(schema: &CompiledSchema, text: &[u8], cuts: &[usize]) -> (bool, Vec<u64>) {
    let mut check = schema.stream_check();
    feed_cut(text, cuts, &mut check);
    let offsets = check.violations().iter().map(|v| v.offset).collect();
    (check.finish().is_ok(), offsets)
}

/// `stream` through a [`tooljson::CheckedSink`] beside a `ValueBuilder`:
/// (verdict, offsets, value).
fn stream_beside(schema: &CompiledSchema, text: &[u8], cuts: &[usize]) -> (bool, Vec<u64>, Value) {
    let mut sink = schema.stream_check().beside(ValueBuilder::new());
    feed_cut(text, cuts, &mut sink);
    let (builder, check) = sink.into_parts();
    let offsets = check.violations().iter().map(|v| v.offset).collect();
    (
        check.finish().is_ok(),
        offsets,
        builder.into_value().unwrap(),
    )
}

/// `stream` through a check attached to a partial tree
/// ([`PartialParser::attach_check`], the vendor adapters' path), with the
/// schema's `enum` / `const` strings held back when `hold` is set:
/// (verdict, offsets, value).
fn stream_attached(
    schema: &CompiledSchema,
    text: &[u8],
    cuts: &[usize],
    hold: bool,
) -> (bool, Vec<u64>, Value) {
    let mut p = PartialParser::new();
    if hold {
        let held = schema.clone();
        p.hold_strings(move |path| held.holds_string_at(path));
    }
    p.attach_check(schema.stream_check());
    let mut at = 0;
    for &c in cuts {
        let end = (at + c).min(text.len());
        p.feed(&text[at..end], &mut ()).unwrap();
        at = end;
    }
    p.feed(&text[at..], &mut ()).unwrap();
    p.finish(&mut ()).unwrap();
    let check = p.take_check().unwrap();
    let offsets = check.violations().iter().map(|v| v.offset).collect();
    (check.finish().is_ok(), offsets, p.into_value().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn stream_verdict_equals_validate(v in value(), cuts in prop::collection::vec(1usize..9, 0..40)) {
        let value = Value::from(v);
        let text = value.to_string();
        for schema in schemas() {
            let valid = schema.validate(&value).is_ok();
            prop_assert_eq!(valid, schema.is_valid(&value));
            let (whole_ok, whole_offsets) = stream(&schema, text.as_bytes(), &[]);
            prop_assert_eq!(whole_ok, valid, "whole text {}", text);
            let (ok, offsets) = stream(&schema, text.as_bytes(), &cuts);
            prop_assert_eq!(ok, valid, "chunked {:?} text {}", cuts, text);
            prop_assert_eq!(&offsets, &whole_offsets, "offsets differ by chunking for {}", text);
            let (one_ok, one_offsets) = stream(&schema, text.as_bytes(), &vec![1; text.len()]);
            prop_assert_eq!(one_ok, valid);
            prop_assert_eq!(&one_offsets, &whole_offsets);
            // Every early report is within the text.
            prop_assert!(whole_offsets.iter().all(|&o| o as usize <= text.len()));

            // The same attached to the partial tree, in 3-byte chunks.
            let mut partial = PartialParser::new();
            partial.attach_check(schema.stream_check());
            for piece in text.as_bytes().chunks(3) {
                partial.feed(piece, &mut ()).unwrap();
            }
            partial.finish(&mut ()).unwrap();
            let check = partial.take_check().unwrap();
            prop_assert_eq!(check.violations().iter().map(|v| v.offset).collect::<Vec<_>>(), whole_offsets.clone());
            prop_assert_eq!(check.finish().is_ok(), valid);

            // The same beside a value builder, in one sink.
            let (ok, offsets, built) = stream_beside(&schema, text.as_bytes(), &cuts);
            prop_assert_eq!(ok, valid);
            prop_assert_eq!(&offsets, &whole_offsets);
            prop_assert_eq!(&built, &value);
            // And attached to a partial tree, holding strings back or not.
            for hold in [false, true] {
                let (ok, offsets, built) = stream_attached(&schema, text.as_bytes(), &cuts, hold);
                prop_assert_eq!(ok, valid);
                prop_assert_eq!(&offsets, &whole_offsets);
                prop_assert_eq!(&built, &value);
            }
        }
    }
}

/// Long strings under bounds far enough in for the value builder's buffer
/// to take their text (see `tooljson::CheckedSink`), or for a partial tree
/// to take their pieces alone (`PartialParser::attach_check`): whatever the
/// chunking, uniform or small deltas followed by a large chunk, the check
/// beside the builder, and the check attached to the tree, report what the
/// check alone reports, at the same offsets, and the value is built.
#[test]
fn checked_sink_agrees_with_the_check_alone_on_long_strings() {
    let schema = CompiledSchema::compile(&json!({"properties": {
        "content": {"type": "string", "maxLength": 400},
        "at_least": {"type": "string", "minLength": 300},
        "free": {"type": "string"},
        "both": {"type": "string", "minLength": 10, "maxLength": 170}
    }}))
    .unwrap();
    // Lines of plain ASCII, escapes, 2- to 4-byte characters and a
    // surrogate pair: one character each, of 1 to 12 raw bytes.
    let line = r#"fn main() { \"héllo\" \\ wörld ☕ \ud83d\ude00 \u00e9\t}\n"#;
    let docs = [
        // Past the bound, at 21 lines (more than 400 characters).
        format!(
            r#"{{"content": "{}", "free": "{}"}}"#,
            line.repeat(21),
            line.repeat(9)
        ),
        // Within the bound: valid.
        format!(
            r#"{{"free": "{}", "content": "{}"}}"#,
            line.repeat(12),
            line.repeat(8)
        ),
        // Too short by characters (not by bytes), then too long.
        format!(
            r#"{{"at_least": "{}", "both": "{}"}}"#,
            "é".repeat(299),
            line.repeat(9)
        ),
        format!(
            r#"{{"both": "{}", "content": "{}"}}"#,
            "☕".repeat(171),
            "a".repeat(401)
        ),
        // Past the bound inside a run of 2-byte characters that began in
        // the small deltas: the piece that crosses it may end inside the
        // next character.
        format!(r#"{{"content": "{}"}}"#, "é".repeat(420)),
    ];
    for doc in &docs {
        let text = doc.as_bytes();
        let value = tooljson::from_str(doc).unwrap();
        let mut chunkings: Vec<Vec<usize>> =
            (1..=70).map(|n| vec![n; text.len() / n + 1]).collect();
        // Small deltas, then the rest in one chunk, from several places.
        for first in [50, 200, 333, 600] {
            for n in [1, 3, 7, 15, 64] {
                let mut cuts = vec![n; first / n];
                cuts.push(text.len());
                chunkings.push(cuts);
            }
        }
        // Small deltas, then a large chunk ending anywhere (inside a
        // character, just past a bound, before a quote), then the rest.
        for first in [64, 256] {
            for end in first + 65..text.len() {
                let mut cuts = vec![4; first / 4];
                cuts.push(end - first);
                chunkings.push(cuts);
            }
        }
        let (alone_ok, alone_offsets) = stream(&schema, text, &[]);
        assert_eq!(alone_ok, schema.is_valid(&value), "{doc}");
        for cuts in &chunkings {
            let (ok, offsets) = stream(&schema, text, cuts);
            assert_eq!((ok, &offsets), (alone_ok, &alone_offsets), "alone {cuts:?}");
            let (ok, offsets, built) = stream_beside(&schema, text, cuts);
            assert_eq!(
                (ok, &offsets),
                (alone_ok, &alone_offsets),
                "beside a builder, chunks {:?}, {doc}",
                &cuts[..cuts.len().min(3)]
            );
            assert_eq!(built, value);
            let (ok, offsets, built) = stream_attached(&schema, text, cuts, false);
            assert_eq!(
                (ok, &offsets),
                (alone_ok, &alone_offsets),
                "attached to a partial tree, chunks {:?}, {doc}",
                &cuts[..cuts.len().min(3)]
            );
            assert_eq!(built, value);
        }
    }
}

#[test]
fn doomed_calls_are_caught_before_the_end() {
    let schema = &schemas()[0];
    let text = br#"{"name": "ok", "unit": "rankine", "n": 3}"#;
    let mut check = schema.stream_check();
    let mut p = Parser::new();
    // Feed up to "ra": "r" already rules out every unit.
    p.feed(&text[..25], &mut check).unwrap();
    assert!(check.is_doomed());
    assert_eq!(check.first_violation_offset(), Some(25));
    p.feed(&text[25..], &mut check).unwrap();
    p.finish(&mut check).unwrap();
    let errs = check.finish().unwrap_err();
    let v = tooljson::from_slice(text).unwrap();
    let full = schema.validate(&v).unwrap_err();
    assert_eq!(errs.len(), full.len(), "{errs:?} vs {full:?}");
}

/// Escapes inside a string under `maxLength` and `enum`: the violation is
/// placed at the exact byte, whatever the chunking, directly, through the
/// partial tree's observer hook, and never early through a sink that does
/// not pass on the exact-offset request.
#[test]
fn offsets_inside_escaped_strings_are_exact_at_every_chunking() {
    let schema = CompiledSchema::compile(&json!({"properties": {
        "s": {"maxLength": 3},
        "e": {"enum": ["a\nb", "a\nbc"]},
        "t": {"maxLength": 5},
        "l": {"maxLength": 30}
    }}))
    .unwrap();
    // "s": a, \n, b, then é (as \u00e9) is the 4th character.
    let s_doc = r#"{"s": "a\nb\u00e9c\"d"}"#;
    let s_at = s_doc.find(r"\u00e9").unwrap() + 6;
    // "e": after "a\n", "c" fits no option.
    let e_doc = r#"{"e": "a\ncd\t"}"#;
    let e_at = e_doc.find("cd").unwrap() + 1;
    // A surrogate pair is one character: the 4th, ending after its second
    // escape.
    let p_doc = r#"{"s": "a\"\\\uD83D\uDE00"}"#;
    let p_at = p_doc.find(r"\uDE00").unwrap() + 6;
    // Past the bound in plain text after escapes (exact offsets start at
    // the bound: the pieces before it are joined as usual).
    let t_doc = r#"{"t": "\n\"abcdefgh\n"}"#;
    let t_at = t_doc.find("defgh").unwrap() + 1;
    let u_doc = r#"{"t": "ab\u00e9\tc\u00e9\n"}"#;
    let u_at = u_doc.rfind(r"\u00e9").unwrap() + 6;
    // A bound far into the string, reached chunks after it began: the
    // 31st character is the `a` of the 11th `ab\n`.
    let l_doc = format!(r#"{{"l": "{}"}}"#, r"ab\n".repeat(12));
    let l_at = l_doc.find(": \"").unwrap() + 3 + 10 * 4 + 1;
    for (doc, at) in [
        (l_doc.as_str(), l_at),
        (s_doc, s_at),
        (e_doc, e_at),
        (p_doc, p_at),
        (t_doc, t_at),
        (u_doc, u_at),
    ] {
        let text = doc.as_bytes();
        assert!(!schema.is_valid(&tooljson::from_str(doc).unwrap()));
        for n in 1..=text.len() {
            let cuts = vec![n; text.len() / n + 1];
            let (ok, offsets) = stream(&schema, text, &cuts);
            assert!(!ok);
            assert_eq!(
                offsets.first(),
                Some(&(at as u64)),
                "{doc} in chunks of {n}"
            );

            let mut partial = PartialParser::new();
            partial.attach_check(schema.stream_check());
            for piece in text.chunks(n) {
                partial.feed(piece, &mut ()).unwrap();
            }
            partial.finish(&mut ()).unwrap();
            let check = partial.take_check().unwrap();
            assert_eq!(
                check.first_violation_offset(),
                Some(at as u64),
                "{doc} attached in chunks, {n}"
            );
            let (_, offsets, _) = stream_attached(&schema, text, &cuts, true);
            assert_eq!(offsets.first(), Some(&(at as u64)), "{doc} attached, {n}");

            // A closure that does not pass the request on: late or exact.
            let mut check = schema.stream_check();
            let mut p = Parser::new();
            let mut wrap = |t: tooljson::Token<'_>, l: &tooljson::parser::Location<'_>| {
                tooljson::TokenSink::token(&mut check, t, l)
            };
            for piece in text.chunks(n) {
                p.feed(piece, &mut wrap).unwrap();
            }
            p.finish(&mut wrap).unwrap();
            let first = check.first_violation_offset().unwrap();
            assert!(
                first >= at as u64,
                "{doc} early through a wrapper: {first} < {at}"
            );
        }
    }
}

/// A check attached to an events-only parser (no tree to count from) is
/// shown every piece; `take_check` in the middle of a string counts what
/// the check had not been shown, so that it can go on as an observer;
/// `reset` drops it.
#[test]
fn attached_check_without_a_tree_taken_mid_string_and_reset() {
    let schema = CompiledSchema::compile(&json!({"properties": {"s": {"maxLength": 5}}})).unwrap();
    let text = br#"{"s": "abcdefgh"}"#;
    let (ok, alone) = stream(&schema, text, &[]);
    assert!(!ok);
    assert_eq!(alone, [13]); // just past the sixth character, `f`
    let offsets =
        |c: &tooljson::StreamCheck| c.violations().iter().map(|v| v.offset).collect::<Vec<_>>();

    let mut p = PartialParser::events_only();
    p.attach_check(schema.stream_check());
    for c in text.chunks(2) {
        p.feed(c, &mut ()).unwrap();
    }
    p.finish(&mut ()).unwrap();
    let check = p.take_check().unwrap();
    assert_eq!(offsets(&check), alone);
    assert!(check.finish().is_err());

    for cut in 7..text.len() {
        let mut p = PartialParser::new();
        p.attach_check(schema.stream_check());
        for c in text[..cut].chunks(1) {
            p.feed(c, &mut ()).unwrap();
        }
        // Taken mid-string and attached again: it resumes where it was.
        let check = p.take_check().unwrap();
        p.attach_check(check);
        p.feed(&text[cut..], &mut ()).unwrap();
        p.finish(&mut ()).unwrap();
        let check = p.take_check().unwrap();
        assert_eq!(offsets(&check), alone, "taken after {cut} bytes");
    }

    let mut p = PartialParser::new();
    p.attach_check(schema.stream_check());
    p.feed(&text[..9], &mut ()).unwrap();
    p.reset();
    assert!(p.check().is_none());
}
