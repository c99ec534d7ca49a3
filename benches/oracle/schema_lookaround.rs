//! Patterns with look-around and back references, which run on the
//! backtracking engine within a backtrack budget: verdicts in `pattern`,
//! `patternProperties` and the stream check, against the `jsonschema` crate
//! (which uses the same engine) where ECMA-262 and it agree, and the
//! documented verdict of a match past the budget.

use serde_json::json;
use tooljson::schema::DEFAULT_MAX_PATTERN_BACKTRACKS;
use tooljson::{CompiledSchema, Parser};

fn string(s: &str) -> tooljson::Value {
    tooljson::from_str(&serde_json::to_string(s).unwrap()).unwrap()
}

/// Pattern, strings it matches, strings it does not (ECMA-262 verdicts).
const CASES: &[(&str, &[&str], &[&str])] = &[
    (
        "^(?=.*[A-Z]).{8,}$",
        &["Password", "abcdefgH", "ABCDEFGHIJ"],
        &["password", "Short", "", "abcdefg\nH"],
    ),
    (
        "^(?=.*\\d)(?=.*[a-z])\\S{6,}$",
        &["abc123", "1a2b3c4d"],
        &["abcdef", "123456", "ab 123"],
    ),
    (
        "^(?!admin$|root$)[a-z]+$",
        &["alice", "admins", "roots"],
        &["admin", "root", "Alice"],
    ),
    (
        "(?<=\\$)\\d+",
        &["cost $12", "$0"],
        &["cost 12", "$ 1", "$"],
    ),
    (
        "^[a-z.]+(?<!\\.tmp)$",
        &["notes.txt", "tmp", "a.tmpx"],
        &["notes.tmp", ".tmp"],
    ),
    (
        "^(['\"]).*\\1$",
        &["'quoted'", "\"x\"", "''"],
        &["'mixed\"", "'", "plain"],
    ),
    (
        "^(?<word>[a-z]+)-\\k<word>$",
        &["ab-ab", "x-x"],
        &["ab-ba", "ab-abc", "-"],
    ),
    (
        "\\b(\\w+) \\1\\b",
        &["the the end", "a a"],
        &["the them", "ab b"],
    ),
];

#[test]
fn look_around_and_back_references_match_as_ecmascript_and_jsonschema() {
    let mut compared = 0;
    for (pattern, good, bad) in CASES {
        let schema_json = json!({"type": "string", "pattern": pattern});
        let ours =
            CompiledSchema::compile(&schema_json).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        // The `jsonschema` crate refuses named back references (`\k<..>`),
        // which ECMA-262 has: compared with it on every other pattern.
        let theirs = jsonschema::validator_for(&schema_json);
        assert_eq!(theirs.is_err(), pattern.contains("\\k<"), "{pattern}");
        for (strings, expected) in [(*good, true), (*bad, false)] {
            for s in strings {
                assert_eq!(ours.is_valid(&string(s)), expected, "{pattern} on {s:?}");
                if let Ok(theirs) = &theirs {
                    assert_eq!(
                        theirs.is_valid(&json!(s)),
                        expected,
                        "jsonschema, {pattern} on {s:?}"
                    );
                    compared += 1;
                }
            }
        }
        // The violation names the pattern.
        let errs = ours.validate(&string(bad[0])).unwrap_err();
        assert_eq!(errs[0].keyword, "pattern");
        assert!(errs[0].message.contains("expected a string matching"));
    }
    assert!(compared >= 35, "{compared}");
}

#[test]
fn a_group_that_did_not_match_is_referenced_as_empty_as_in_ecmascript() {
    // ECMA-262: a back reference to a group that took no part matches the
    // empty string (node: /^(a)?b\1$/.test("b") is true).
    let s = CompiledSchema::compile(&json!({"pattern": "^(a)?b\\1$"})).unwrap();
    assert!(s.is_valid(&string("b")));
    assert!(s.is_valid(&string("aba")));
    assert!(!s.is_valid(&string("ab")));
    let alt = CompiledSchema::compile(&json!({"pattern": "^(?:(x)|y)z\\1$"})).unwrap();
    assert!(alt.is_valid(&string("yz")));
    assert!(alt.is_valid(&string("xzx")));
    assert!(!alt.is_valid(&string("xz")));
}

#[test]
fn references_before_their_group_closes_are_refused_by_name() {
    for (pattern, why) in [
        ("\\1(a)", "before that group"),
        ("(a\\1)", "inside that group"),
        ("(a)\\2", "before that group"),
        ("\\k<n>(?<n>a)", "names no group"),
    ] {
        let e = CompiledSchema::compile(&json!({"pattern": pattern})).unwrap_err();
        assert!(e.to_string().contains(why), "{pattern}: {e}");
        // Lenient: ignored and listed, the rest of the schema kept.
        let lenient = CompiledSchema::builder()
            .strict(false)
            .build(&json!({"pattern": pattern, "type": "string"}))
            .unwrap();
        assert_eq!(lenient.ignored_keywords().len(), 1, "{pattern}");
        assert!(!lenient.is_valid(&tooljson::Value::Null));
    }
}

fn stream_verdict(schema: &CompiledSchema, text: &str) -> Result<(), Vec<tooljson::Violation>> {
    let mut check = schema.stream_check();
    let mut p = Parser::new();
    // Byte by byte: the verdicts must not depend on the chunking.
    for b in text.as_bytes() {
        p.feed(std::slice::from_ref(b), &mut check).unwrap();
    }
    p.finish(&mut check).unwrap();
    check.finish()
}

#[test]
fn pattern_properties_and_the_stream_check_use_the_same_engine() {
    let schema = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {"password": {"type": "string", "pattern": "^(?=.*[A-Z])(?=.*\\d).{8,}$"}},
        "patternProperties": {"^(?!x_)[a-z_]+_id$": {"type": "integer"}},
        "additionalProperties": {"type": "string"}
    }))
    .unwrap();
    for (text, valid) in [
        (
            r#"{"password": "Secret123", "user_id": 1, "x_id": "s"}"#,
            true,
        ),
        (r#"{"password": "secret123"}"#, false),
        (r#"{"password": "Secret123", "user_id": "one"}"#, false),
        (r#"{"x_id": 3}"#, false),
        (r#"{"x_id": "free text"}"#, true),
    ] {
        let v = tooljson::from_str(text).unwrap();
        assert_eq!(schema.is_valid(&v), valid, "{text}");
        assert_eq!(schema.validate(&v).is_ok(), valid, "{text}");
        assert_eq!(
            stream_verdict(&schema, text).is_ok(),
            valid,
            "stream: {text}"
        );
        let theirs = jsonschema::validator_for(&serde_json::from_str(
            r#"{"type": "object",
                "properties": {"password": {"type": "string", "pattern": "^(?=.*[A-Z])(?=.*\\d).{8,}$"}},
                "patternProperties": {"^(?!x_)[a-z_]+_id$": {"type": "integer"}},
                "additionalProperties": {"type": "string"}}"#,
        )
        .unwrap())
        .unwrap();
        assert_eq!(
            theirs.is_valid(&serde_json::from_str(text).unwrap()),
            valid,
            "jsonschema: {text}"
        );
    }
}

/// `^((?=a)a+)+$`: the look-ahead keeps the nested repetition on the
/// backtracking engine, where a string of `a`s that ends in `b` takes about
/// 2^n backtracks to refuse.
const CATASTROPHIC: &str = "^((?=a)a+)+$";

fn hostile(n: usize) -> tooljson::Value {
    string(&format!("{}b", "a".repeat(n)))
}

#[test]
fn a_catastrophic_pattern_stops_at_the_backtrack_budget_with_a_violation_naming_it() {
    // The same string, two budgets: one large enough for the 2^10-odd
    // backtracks gives the real verdict (no match), one of 100 backtracks
    // stops with the budget verdict. The count that decides is the
    // engine's backtrack count, not time.
    let short = hostile(10);
    let roomy = CompiledSchema::builder()
        .max_pattern_backtracks(1 << 16)
        .build(&json!({"pattern": CATASTROPHIC}))
        .unwrap();
    let errs = roomy.validate(&short).unwrap_err();
    assert!(
        errs[0].message.contains("expected a string matching"),
        "{errs:?}"
    );
    let tight = CompiledSchema::builder()
        .max_pattern_backtracks(100)
        .build(&json!({"pattern": CATASTROPHIC}))
        .unwrap();
    let errs = tight.validate(&short).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].keyword, "pattern");
    assert!(
        errs[0].message.contains("within 100 backtracks")
            && errs[0].message.contains("max_pattern_backtracks"),
        "{}",
        errs[0].message
    );
    // A match within the budget is still found.
    assert!(tight.is_valid(&string("aaaa")));

    // The default budget on a long string: 2^60 backtracks would never end;
    // the budget ends it, the same way on every run, never valid.
    let schema = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {"p": {"pattern": CATASTROPHIC}},
        "patternProperties": {CATASTROPHIC: true}
    }))
    .unwrap();
    let long = hostile(60);
    let s = CompiledSchema::compile(&json!({"pattern": CATASTROPHIC})).unwrap();
    for _ in 0..2 {
        assert!(!s.is_valid(&long));
        let errs = s.validate(&long).unwrap_err();
        assert!(
            errs[0].message.contains(&format!(
                "within {DEFAULT_MAX_PATTERN_BACKTRACKS} backtracks"
            )),
            "{}",
            errs[0].message
        );
    }
    // In patternProperties, a key past the budget is a violation at that
    // key, in `validate` and in the stream check alike.
    let key = format!("{}b", "a".repeat(60));
    let text = format!(r#"{{"{key}": 1}}"#);
    let v = tooljson::from_str(&text).unwrap();
    assert!(!schema.is_valid(&v));
    let errs = schema.validate(&v).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].keyword, "patternProperties");
    assert!(errs[0].message.contains("max_pattern_backtracks"));
    let streamed = stream_verdict(&schema, &text).unwrap_err();
    assert_eq!(streamed.len(), 1, "{streamed:?}");
    assert_eq!(streamed[0].keyword, "patternProperties");
    assert_eq!(streamed[0].instance_path, errs[0].instance_path);
    // And in `pattern`, through the stream check (checked at string end).
    let text = format!(r#"{{"p": "{key}"}}"#);
    let streamed = stream_verdict(&schema, &text).unwrap_err();
    assert_eq!(streamed[0].keyword, "pattern");
    assert!(streamed[0].message.contains("max_pattern_backtracks"));
}

#[test]
fn patterns_without_look_around_keep_the_linear_engines() {
    // `^(a+)+$` alone is linear on the `regex` crate: the same long string
    // is refused as a plain mismatch, under the smallest budget.
    let s = CompiledSchema::builder()
        .max_pattern_backtracks(1)
        .build(&json!({"pattern": "^(a+)+$"}))
        .unwrap();
    let errs = s.validate(&hostile(10_000)).unwrap_err();
    assert!(
        errs[0].message.contains("expected a string matching"),
        "{}",
        errs[0].message
    );
    assert!(s.is_valid(&string(&"a".repeat(10_000))));
}
