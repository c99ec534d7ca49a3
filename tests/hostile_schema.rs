//! Hostile schemas (issue 7): a `$ref` cycle with no base case, a pattern
//! built to be slow, a schema nested 10,000 deep, and a recursive schema
//! against the deepest instance the parser lets through. Each ends in a
//! clean compile error or a verdict, in bounded time, never a crash.

use std::time::{Duration, Instant};

use serde_json::json;
use tooljson::schema::MAX_SCHEMA_DEPTH;
use tooljson::{CompiledSchema, Limits, Parser, ValueBuilder};

/// `{"properties": {"a": ... {"type": "string"} ...}}`, `levels` deep.
fn nested_schema(levels: usize) -> String {
    let mut s = String::from(r#"{"type":"string"}"#);
    for _ in 0..levels {
        s = format!(r#"{{"properties":{{"a":{s}}}}}"#);
    }
    s
}

fn parse_unlimited(text: &str) -> tooljson::Value {
    let limits = Limits {
        max_depth: 1_000_000,
        ..Limits::default()
    };
    let mut p = Parser::with_limits(limits);
    let mut b = ValueBuilder::new();
    p.feed_str(text, &mut b).unwrap();
    p.finish(&mut b).unwrap();
    b.into_value().unwrap()
}

#[test]
fn ref_cycle_without_base_case_is_refused() {
    let t = Instant::now();
    let e = CompiledSchema::compile(&json!({
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "$ref": "#/$defs/a"
    }))
    .unwrap_err();
    println!(
        "| `$ref` cycle, no base case | refused: {e} | {:?} |",
        t.elapsed()
    );
    assert!(e.to_string().contains("loops"), "{e}");
    // A self-reference that steps into the instance is fine: it ends with
    // the instance.
    let s = CompiledSchema::compile(&json!({"properties": {"a": {"$ref": "#"}}})).unwrap();
    let v = tooljson::from_str(&format!("{}1{}", r#"{"a":"#.repeat(100), "}".repeat(100))).unwrap();
    assert!(s.is_valid(&v));
}

#[test]
fn slow_pattern_is_linear() {
    // `^(a+)+$` on "aaaa…b" is exponential for a backtracking engine; the
    // `regex` crate matches in linear time.
    let s = CompiledSchema::compile(&json!({"type": "string", "pattern": "^(a+)+$"})).unwrap();
    let bad = tooljson::Value::from(serde_json::Value::String("a".repeat(100_000) + "b"));
    let t = Instant::now();
    assert!(!s.is_valid(&bad));
    let errs = s.validate(&bad).unwrap_err();
    let took = t.elapsed();
    println!(
        "| `pattern: ^(a+)+$` on 100,000 × a + b | invalid, {} violation | {took:?} |",
        errs.len()
    );
    assert_eq!(errs[0].keyword, "pattern");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn schema_nested_ten_thousand_deep_is_refused() {
    // As JSON text with the default limits, the parser stops at depth 128.
    let text = nested_schema(10_000);
    let e = CompiledSchema::from_json_str(&text).unwrap_err();
    assert!(e.to_string().contains("nesting depth limit of 128"), "{e}");
    // Built with the parser's depth limit lifted, the compiler's own limit
    // refuses it before recursing.
    let v = parse_unlimited(&text);
    let t = Instant::now();
    let e = CompiledSchema::from_value(&v).unwrap_err();
    println!(
        "| schema nested 10,000 deep | refused: {e} | {:?} |",
        t.elapsed()
    );
    assert!(
        e.to_string()
            .contains(&format!("the limit is {MAX_SCHEMA_DEPTH}")),
        "{e}"
    );
    // Just inside the limit compiles and validates, on a test thread's
    // default stack.
    let levels = MAX_SCHEMA_DEPTH / 2 - 1;
    let s = CompiledSchema::from_value(&parse_unlimited(&nested_schema(levels))).unwrap();
    let mut inst = String::from("7");
    for _ in 0..levels {
        inst = format!(r#"{{"a":{inst}}}"#);
    }
    let inst = parse_unlimited(&inst);
    assert!(!s.is_valid(&inst));
    let errs = s.validate(&inst).unwrap_err();
    assert_eq!(errs[0].keyword, "type");
}

#[test]
fn recursive_schema_over_a_very_deep_instance_fails_closed() {
    // The validator follows the instance, with its own depth bound: past it
    // the value is reported invalid, never silently accepted, and the stack
    // stays bounded (this runs on a test thread's 2 MiB stack).
    let s = CompiledSchema::compile(&json!({"properties": {"a": {"$ref": "#"}}})).unwrap();
    let mut inst = String::from("1");
    for _ in 0..10_000 {
        inst = format!(r#"{{"a":{inst}}}"#);
    }
    let inst = parse_unlimited(&inst);
    let t = Instant::now();
    assert!(!s.is_valid(&inst));
    let errs = s.validate(&inst).unwrap_err();
    println!(
        "| recursive `$ref` over an instance 10,000 deep | invalid: {} | {:?} |",
        errs[0],
        t.elapsed()
    );
    assert!(errs[0].message.contains("nesting"), "{}", errs[0]);
    // The stream check counts nesting as the validator does and fails
    // closed at the same node: same verdict, same first message.
    let streamed = stream_check_unlimited(&s, &inst_text(10_000));
    let first = &streamed.as_ref().unwrap_err()[0];
    assert_eq!(first.message, errs[0].message);
    assert_eq!(first.instance_path, errs[0].instance_path);
    // Just inside the bound both accept.
    let shallow = inst_text(200);
    assert!(s.is_valid(&parse_unlimited(&shallow)));
    assert_eq!(stream_check_unlimited(&s, &shallow), Ok(()));
}

/// `{"a":{"a":...1...}}`, `levels` deep.
fn inst_text(levels: usize) -> String {
    let mut inst = String::from("1");
    for _ in 0..levels {
        inst = format!(r#"{{"a":{inst}}}"#);
    }
    inst
}

fn stream_check_unlimited(
    s: &CompiledSchema,
    text: &str,
) -> Result<(), Vec<tooljson::schema::Violation>> {
    let limits = Limits {
        max_depth: 1_000_000,
        ..Limits::default()
    };
    let mut p = Parser::with_limits(limits);
    let mut check = s.stream_check();
    for chunk in text.as_bytes().chunks(7) {
        p.feed(chunk, &mut check).unwrap();
    }
    p.finish(&mut check).unwrap();
    check.finish()
}

#[test]
fn a_long_ref_chain_fails_closed_in_validate_and_the_stream_check() {
    // 2,000 definitions, each a `$ref` to the next: the schema is shallow
    // (compiles), but following it nests 2,000 applications. Both the
    // validator and the stream check stop at the same bound, without
    // exhausting the stack, and agree.
    let n = 2_000;
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        let next = if i + 1 == n {
            json!({"type": "integer"})
        } else {
            json!({"$ref": format!("#/$defs/d{}", i + 1)})
        };
        defs.insert(format!("d{i}"), next);
    }
    let s = CompiledSchema::compile(&json!({"$ref": "#/$defs/d0", "$defs": defs})).unwrap();
    let t = Instant::now();
    let errs = s.validate(&tooljson::from_str("5").unwrap()).unwrap_err();
    assert!(errs[0].message.contains("nesting"), "{}", errs[0]);
    let streamed = stream_check_unlimited(&s, "5").unwrap_err();
    assert_eq!(streamed[0].message, errs[0].message);
    println!(
        "| `$ref` chain of 2,000 definitions | invalid: {} | {:?} |",
        errs[0],
        t.elapsed()
    );
    // A chain inside the bound is followed to its end.
    let mut defs = serde_json::Map::new();
    for i in 0..100 {
        defs.insert(
            format!("d{i}"),
            if i == 99 {
                json!({"type": "integer"})
            } else {
                json!({"$ref": format!("#/$defs/d{}", i + 1)})
            },
        );
    }
    let s = CompiledSchema::compile(&json!({"$ref": "#/$defs/d0", "$defs": defs})).unwrap();
    assert!(s.is_valid(&tooljson::from_str("5").unwrap()));
    assert!(!s.is_valid(&tooljson::from_str("\"x\"").unwrap()));
    assert_eq!(stream_check_unlimited(&s, "5"), Ok(()));
    assert!(stream_check_unlimited(&s, "\"x\"").is_err());
}
