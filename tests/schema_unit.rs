//! Focused tests of the schema layer: keyword semantics, messages, schema
//! errors, and the offsets at which the stream check reports.

use serde_json::json;
use tooljson::{CompiledSchema, Draft, Parser, Path};

fn schema(s: serde_json::Value) -> CompiledSchema {
    CompiledSchema::compile(&s).unwrap_or_else(|e| panic!("{e}"))
}

fn errors(s: &CompiledSchema, instance: &str) -> Vec<String> {
    let v = tooljson::from_str(instance).unwrap();
    match s.validate(&v) {
        Ok(()) => Vec::new(),
        Err(list) => list.iter().map(|e| e.to_string()).collect(),
    }
}

/// Streams `text` through the check in `chunk`-byte pieces; returns
/// (offset, display) of each violation and the finish verdict.
fn stream(s: &CompiledSchema, text: &str, chunk: usize) -> (Vec<(u64, String)>, bool) {
    let mut check = s.stream_check();
    let mut p = Parser::new();
    for c in text.as_bytes().chunks(chunk.max(1)) {
        p.feed(c, &mut check).unwrap();
    }
    p.finish(&mut check).unwrap();
    let seen = check
        .violations()
        .iter()
        .map(|v| (v.offset, v.violation.to_string()))
        .collect();
    (seen, check.finish().is_ok())
}

#[test]
fn basic_keywords_and_messages() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 2, "maxLength": 4},
            "age": {"type": "integer", "minimum": 0, "exclusiveMaximum": 150},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "kind": {"const": "user"}
        },
        "required": ["name", "kind"],
        "additionalProperties": false
    }));
    assert!(errors(&s, r#"{"name": "ab", "kind": "user", "age": 3.0}"#).is_empty());
    assert_eq!(
        errors(
            &s,
            r#"{"name": "a", "kind": "admin", "age": 150, "tags": ["x", 1, "y"]}"#
        ),
        [
            "/name: expected a string of at least 2 characters, found 1 character",
            "/kind: expected \"user\", found \"admin\"",
            "/age: expected a number < 150, found 150",
            "/tags: expected an array of at most 2 items, found 3 items",
            "/tags/1: expected string, found number 1",
        ]
    );
    assert_eq!(
        errors(&s, r#"{"kind": "user", "x": null}"#),
        [
            ": expected required property \"name\", found an object without it",
            ": expected only properties \"age\", \"kind\", \"name\", \"tags\", found unexpected property \"x\"",
        ]
    );
    assert_eq!(
        errors(&s, "[]"),
        [": expected object, found an array of 0 items"]
    );
}

#[test]
fn code_points_not_bytes() {
    let s = schema(json!({"maxLength": 2, "minLength": 2}));
    assert!(errors(&s, r#""éé""#).is_empty());
    assert!(errors(&s, r#""😀😀""#).is_empty());
    assert_eq!(errors(&s, r#""😀😀😀""#).len(), 1);
}

#[test]
fn exact_numbers() {
    let s = schema(json!({"multipleOf": 0.01}));
    assert!(errors(&s, "19.99").is_empty());
    assert!(!errors(&s, "19.991").is_empty());
    let big =
        CompiledSchema::from_json_str(r#"{"maximum": 12345678901234567890123456789}"#).unwrap();
    assert!(errors(&big, "12345678901234567890123456789").is_empty());
    assert!(!errors(&big, "12345678901234567890123456790").is_empty());
    let int = schema(json!({"type": "integer"}));
    assert!(errors(&int, "1.0").is_empty());
    assert!(errors(&int, "1e3").is_empty());
    assert!(!errors(&int, "1.5").is_empty());
}

#[test]
fn refs_and_recursion() {
    let s = schema(json!({
        "$defs": {"node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "v": {"type": "integer"}}}},
        "$ref": "#/$defs/node"
    }));
    assert!(errors(&s, r#"{"v": 1, "children": [{"v": 2, "children": []}]}"#).is_empty());
    assert_eq!(
        errors(&s, r#"{"children": [{"children": [{"v": "x"}]}]}"#),
        ["/children/0/children/0/v: expected integer, found string \"x\""]
    );
    let d7 = CompiledSchema::builder()
        .draft(Draft::Draft7)
        .build(&json!({"definitions": {"a": {"type": "integer"}}, "properties": {"x": {"$ref": "#/definitions/a", "type": "string"}}}))
        .unwrap();
    // Draft-07: $ref overrides its siblings.
    assert!(d7.is_valid(&tooljson::from_str(r#"{"x": 1}"#).unwrap()));
}

#[test]
fn schema_errors_say_where() {
    let e = CompiledSchema::compile(&json!({"properties": {"a": {"$ref": "#/$defs/missing"}}}))
        .unwrap_err();
    assert_eq!(e.schema_path(), "/properties/a/$ref");
    // Look-around runs on the backtracking engine; a back reference before
    // its group closes is still refused, by name.
    let e = CompiledSchema::compile(&json!({"pattern": "\\1(a)"})).unwrap_err();
    assert!(e.to_string().contains("back reference"), "{e}");
    let e = CompiledSchema::compile(&json!({"$recursiveRef": "#"})).unwrap_err();
    assert!(e.to_string().contains("not supported"), "{e}");
    let lenient = CompiledSchema::builder()
        .strict(false)
        .build(&json!({"$recursiveRef": "#", "minLength": "x"}))
        .unwrap();
    assert_eq!(lenient.ignored_keywords().len(), 2);
    let e = CompiledSchema::compile(&json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})).unwrap_err();
    assert!(e.to_string().contains("loops"), "{e}");
}

#[test]
fn stream_reports_where_certain() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "unit": {"enum": ["celsius", "fahrenheit"]},
            "n": {"type": "integer", "maximum": 10},
            "list": {"type": "array", "maxItems": 1}
        },
        "required": ["unit"],
        "additionalProperties": false
    }));
    let text = r#"{"unit": "cx", "n": 11, "zz": 1, "list": [1, 2]}"#;
    for chunk in [1, 3, 7, text.len()] {
        let (seen, ok) = stream(&s, text, chunk);
        assert!(!ok);
        let offsets: Vec<u64> = seen.iter().map(|(o, _)| *o).collect();
        // "cx": the `x` (offset 12); 11: the byte after it (23); "zz": its
        // closing quote (28); the second list item, a number, is certain at
        // the `]` after it (47).
        assert_eq!(offsets, [12, 23, 28, 47], "chunk {chunk}: {seen:?}");
    }
    let (seen, ok) = stream(&s, "{}", 1);
    assert!(!ok);
    assert_eq!(
        seen,
        [(
            2,
            ": expected required property \"unit\", found an object without it".to_owned()
        )]
    );
    let (seen, _) = stream(&s, r#"{"n": "x"}"#, 1);
    // Wrong type at the first byte of the value (the opening quote, offset 7).
    assert_eq!(seen[0].0, 7);
}

#[test]
fn holds_strings_for_enums() {
    let s = schema(
        json!({"properties": {"a": {"items": {"anyOf": [{"const": "x"}, {"type": "integer"}]}}, "b": {"type": "string"}}}),
    );
    assert!(s.holds_string_at(Path::parse_pointer("/a/3").unwrap().as_ref()));
    assert!(!s.holds_string_at(Path::parse_pointer("/b").unwrap().as_ref()));
    assert!(!s.holds_string_at(Path::parse_pointer("/a").unwrap().as_ref()));
}

/// Runs the built `tooljson validate` with `args`, `stdin`; returns (code, stdout, stderr).
#[cfg(feature = "cli")]
fn cli(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tooljson"))
        .arg("validate")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A usage error exits before reading stdin: a broken pipe here is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[cfg(feature = "cli")]
#[test]
fn cli_exit_codes() {
    let dir = std::env::temp_dir().join(format!("tooljson-schema-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        r#"{"type": "object", "properties": {"n": {"maximum": 3}}, "required": ["a"]}"#,
    )
    .unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"pattern": "\\1(x)"}"#).unwrap();
    let good = good.to_str().unwrap();

    assert_eq!(
        cli(&["--schema", good], r#"{"a": 1, "n": 3}"#),
        (0, String::new(), String::new())
    );

    let (code, out, _) = cli(&["--schema", good], r#"{"n": 5}"#);
    assert_eq!(code, 3);
    assert_eq!(
        out,
        "(root): expected required property \"a\", found an object without it\n/n: expected a number <= 3, found 5\n"
    );

    let (code, out, _) = cli(&["--schema", good, "--chunk", "2"], r#"{"n": 5}"#);
    assert_eq!(code, 3);
    assert!(
        out.ends_with("/n: expected a number <= 3, found 5\nfirst violation certain at byte 8\n"),
        "{out}"
    );

    let (code, out, err) = cli(&["--schema", good], r#"{"n": 5"#);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("error: "), "{err}");

    let (code, _, err) = cli(&["--schema", bad.to_str().unwrap()], "1");
    assert_eq!(code, 2);
    assert!(err.contains("back reference"), "{err}");
    let (code, _, err) = cli(&[], "1");
    assert_eq!(code, 2);
    assert!(err.contains("--schema"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Schemas, checks and values move between threads (a gateway compiles a
/// request's tools once and checks calls on other tasks).
#[test]
fn schemas_checks_and_values_are_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<tooljson::CompiledSchema>();
    shared::<tooljson::schema::StreamCheck>();
    shared::<tooljson::Value>();
    shared::<tooljson::Map>();
    let schema = tooljson::CompiledSchema::from_json_str(
        r#"{"properties": {"id": {"pattern": "^[a-z]+$"}}}"#,
    )
    .unwrap();
    let moved = std::thread::spawn(move || {
        schema.is_valid(&tooljson::from_str(r#"{"id": "abc"}"#).unwrap())
    });
    assert!(moved.join().unwrap());
}
