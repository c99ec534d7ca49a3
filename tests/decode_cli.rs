//! `tooljson decode`: the contract scripts rely on (exit codes 0 / 3 / 2,
//! NDJSON lines, the mask-time line last), on fixtures in `corpus/decode/`
//! with the o200k vocabulary.
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/decode/");
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a.ends_with(".json") {
                format!("{dir}{a}")
            } else {
                (*a).to_owned()
            }
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tooljson"))
        .arg("decode")
        .args(&args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn last_line_has_mask_times(stdout: &str) {
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(last["masks"].as_u64().unwrap() > 0, "{stdout}");
    for k in ["avg", "p50", "p99", "max"] {
        assert!(last["mask_us"][k].as_f64().unwrap() >= 0.0, "{stdout}");
    }
}

#[test]
fn check_accepts_a_valid_file() {
    let (code, out, err) = run(&[
        "--schema",
        "weather.schema.json",
        "--check",
        "weather.valid.json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 1);
    last_line_has_mask_times(&out);
}

#[test]
fn check_reports_the_refused_token() {
    let (code, out, err) = run(&[
        "--schema",
        "weather.schema.json",
        "--vocab",
        "o200k",
        "--check",
        "weather.refused.json",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let text = first["text"].as_str().unwrap();
    assert!(text.starts_with(r#"{"city":"Paris","days":"#), "{out}");
    assert!(first["refused"].as_u64().unwrap() > 0);
    last_line_has_mask_times(&out);
}

#[test]
fn sample_prints_valid_texts() {
    let (code, out, err) = run(&[
        "--schema",
        "weather.schema.json",
        "--vocab",
        "cl100k",
        "--sample",
        "5",
        "--seed",
        "3",
        "--max-tokens",
        "40",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6);
    let schema = tooljson::CompiledSchema::from_json_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus/decode/weather.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    for l in &lines[..5] {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(v["tokens"].as_u64().unwrap() > 0);
        let inst = tooljson::from_str(v["text"].as_str().unwrap()).unwrap();
        assert!(schema.is_valid(&inst), "{l}");
    }
    last_line_has_mask_times(&out);
}

#[test]
fn an_undecidable_schema_exits_2_naming_the_keyword() {
    let (code, out, err) = run(&["--schema", "pattern.schema.json", "--sample", "1"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("`pattern`"), "{err}");
}

#[test]
fn approximate_lists_what_it_does_not_enforce() {
    let (code, out, err) = run(&[
        "--schema",
        "tags.schema.json",
        "--approximate",
        "--check",
        "tags.valid.json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("approximated: uniqueItems at /properties/tags/uniqueItems: "),
        "{err}"
    );
    last_line_has_mask_times(&out);
    // Without the flag the keyword is refused, as before.
    let (code, out, err) = run(&["--schema", "tags.schema.json", "--check", "tags.valid.json"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("`uniqueItems`"), "{err}");
    assert!(!err.contains("approximated"), "{err}");
}

#[test]
fn approximate_on_an_exact_schema_prints_nothing_more() {
    let (code, out, err) = run(&[
        "--schema",
        "weather.schema.json",
        "--approximate",
        "--check",
        "weather.valid.json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.lines().count(), 1);
}

/// Formats are asserted by default (`--assert-formats` still read);
/// `--format-annotation` leaves them unconstrained.
#[test]
fn formats_are_asserted_unless_format_annotation() {
    let dir = std::env::temp_dir().join(format!("tooljson-decode-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("email-schema");
    std::fs::write(
        &schema,
        r#"{"type": "object", "properties": {"to": {"type": "string", "format": "email"}}, "required": ["to"], "additionalProperties": false}"#,
    )
    .unwrap();
    let text = dir.join("not-an-email");
    std::fs::write(&text, r#"{"to":"nobody"}"#).unwrap();
    let (s, t) = (schema.to_str().unwrap(), text.to_str().unwrap());
    let (code, out, err) = run(&["--schema", s, "--check", t]);
    assert_eq!(code, 3, "{out}{err}");
    let (code, out, err) = run(&["--schema", s, "--assert-formats", "--check", t]);
    assert_eq!(code, 3, "{out}{err}");
    let (code, out, err) = run(&["--schema", s, "--format-annotation", "--check", t]);
    assert_eq!(code, 0, "{out}{err}");
    // Samples hold the format, as the schema layer's checker asserts it.
    let (code, out, err) = run(&["--schema", s, "--sample", "20", "--seed", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    let check = tooljson::CompiledSchema::builder()
        .assert_formats(true)
        .build_str(&std::fs::read_to_string(&schema).unwrap())
        .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21, "{out}");
    for line in &lines[..20] {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let inst = tooljson::from_str(v["text"].as_str().unwrap()).unwrap();
        assert!(check.is_valid(&inst), "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
