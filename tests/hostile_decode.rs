//! The second hostile pass (issue 45) over constrained decoding: decode
//! and `validate` agreeing on schema nesting (item 4), the formats each
//! asserts (item 5), tokenizing a hostile text (item 7) and the cost of
//! compiling a hostile schema (item 8). Each case was a silent
//! disagreement, a panic or a cost far past the input's size before it
//! was fixed.

use serde_json::{Value as J, json};
use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, DecodeError, Vocabulary};
use tooljson::schema::MAX_SCHEMA_NESTING;

/// Every single byte as a token, and an end of sequence.
fn bytes_vocab() -> Vocabulary {
    let toks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).chain([Vec::new()]).collect();
    Vocabulary::from_bytes(toks, vec![256]).unwrap()
}

fn compile(schema: &J) -> CompiledSchema {
    CompiledSchema::from_json_str(&schema.to_string()).unwrap()
}

/// The root, then a chain of `n` `$ref`s, then a digit.
fn ref_chain(n: usize) -> J {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("d{i}"),
            json!({ "$ref": format!("#/$defs/d{}", i + 1) }),
        );
    }
    defs.insert(
        format!("d{n}"),
        json!({ "type": "integer", "minimum": 0, "maximum": 9 }),
    );
    json!({ "$ref": "#/$defs/d0", "$defs": defs })
}

fn nesting_refusal(e: &DecodeError) -> bool {
    matches!(e, DecodeError::Budget { what } if what.contains("MAX_SCHEMA_NESTING")
        && what.contains(&MAX_SCHEMA_NESTING.to_string()))
}

/// Item 4: where `validate` refuses every value for its schema nesting, the
/// decoder refuses the schema (naming the shared bound); one level less,
/// both accept, and what the decoder writes validates.
#[test]
fn decode_and_validate_share_the_schema_nesting_bound() {
    let vocab = bytes_vocab();
    let one = tooljson::from_str("1").unwrap();
    for n in [500usize, 511] {
        let s = compile(&ref_chain(n));
        assert!(s.validate(&one).is_ok(), "{n}");
        let c = Constraint::new(&s, &vocab).unwrap_or_else(|e| panic!("{n}: {e}"));
        let text = c.matcher().shortest_completion();
        let v = tooljson::from_slice(&text).unwrap();
        assert!(
            s.validate(&v).is_ok(),
            "{n}: {}",
            String::from_utf8_lossy(&text)
        );
    }
    for n in [512usize, 600] {
        let s = compile(&ref_chain(n));
        let errs = s.validate(&one).unwrap_err();
        assert!(
            errs[0].to_string().contains("at most 512 levels"),
            "{errs:?}"
        );
        let e = Constraint::new(&s, &vocab).unwrap_err();
        assert!(nesting_refusal(&e), "{n}: {e}");
    }
}

/// Item 4, across instance levels: a recursive schema that spends four
/// applications per level reaches the bound within the decoder's nesting,
/// so `validate` refuses a deep text the decoder would write: refused. One
/// that spends two per level never does, and compiles.
#[test]
fn a_recursive_schema_past_the_nesting_bound_is_refused() {
    let vocab = bytes_vocab();
    let four = compile(&json!({
        "$ref": "#/$defs/a",
        "$defs": {
            "a": { "$ref": "#/$defs/b" },
            "b": { "$ref": "#/$defs/c" },
            "c": { "$ref": "#/$defs/n" },
            "n": { "type": "object", "properties": { "x": { "$ref": "#/$defs/a" } } }
        }
    }));
    let mut deep = String::from("{}");
    for _ in 0..110 {
        deep = format!("{{\"x\":{deep}}}");
    }
    let deep = tooljson::from_str(&deep).unwrap();
    assert!(four.validate(&deep).is_err());
    let e = Constraint::new(&four, &vocab).unwrap_err();
    assert!(nesting_refusal(&e), "{e}");

    let two = compile(&json!({
        "$ref": "#/$defs/n",
        "$defs": { "n": { "type": "object", "properties": {
            "c": { "type": "array", "items": { "$ref": "#/$defs/n" } } } } }
    }));
    let c = Constraint::new(&two, &vocab).unwrap();
    // The deepest text the decoder writes validates.
    let mut m = c.matcher();
    let mut text = Vec::new();
    for _ in 0..59 {
        m.commit_bytes(b"{\"c\":[").unwrap();
        text.extend_from_slice(b"{\"c\":[");
    }
    text.extend(m.shortest_completion());
    let v = tooljson::from_slice(&text).unwrap();
    assert!(two.validate(&v).is_ok());
}

/// Item 7: 1 MiB of NUL bytes and a long run of one letter are tokenized
/// in pieces: no panic (tiktoken-rs unwraps its regex's error on the whole
/// run), the tokens spell the text, and the time is far from quadratic.
#[cfg(feature = "tiktoken")]
#[test]
fn tokenizing_long_runs_is_bounded_and_never_panics() {
    use tooljson::decode::Tokenizer;
    let nul = "\0".repeat(1 << 20);
    let e_acute = format!("\"{}\"", "é".repeat(40_000));
    for tok in [Tokenizer::o200k().unwrap(), Tokenizer::cl100k().unwrap()] {
        for text in [nul.as_str(), e_acute.as_str()] {
            let t = std::time::Instant::now();
            let ids = tok.encode(text).unwrap();
            // A guard against the quadratic cost, not a speed target: the
            // whole-run encoding took seconds for a tenth of this, so all
            // of it would take minutes (and panicked).
            assert!(t.elapsed().as_secs_f64() < 30.0, "{:?}", t.elapsed());
            let spelled: Vec<u8> = ids
                .iter()
                .flat_map(|&i| tok.vocabulary().token_bytes(i).to_vec())
                .collect();
            assert_eq!(spelled, text.as_bytes());
        }
    }
}

/// Item 7: cut where the split patterns end a piece, the pieces give the
/// tokens of the whole text, as tiktoken-rs encodes it in one call.
#[cfg(feature = "tiktoken")]
#[test]
fn pieces_keep_the_whole_text_tokens_on_ordinary_text() {
    use tooljson::decode::Tokenizer;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let rows: Vec<J> = (0..200)
        .map(|i| json!({ "id": i, "city": "Zürich", "temp_c": -3.5, "tags": ["a b", "ünï"] }))
        .collect();
    let json = serde_json::to_string_pretty(&rows).unwrap();
    let words = "alpha beta, gamma 12345 δέλτα\n\n  x ".repeat(500);
    for text in [readme.as_str(), json.as_str(), words.as_str()] {
        assert!(text.len() > 1024, "more than one piece");
        let ours = Tokenizer::o200k().unwrap().encode(text).unwrap();
        let whole = tiktoken_rs::o200k_base_singleton().encode_ordinary(text);
        assert_eq!(ours, whole);
        let ours = Tokenizer::cl100k().unwrap().encode(text).unwrap();
        let whole = tiktoken_rs::cl100k_base_singleton().encode_ordinary(text);
        assert_eq!(ours, whole);
    }
}

/// Item 7 on the command line: `decode --check` of 1 MiB of NUL bytes is a
/// refused text (exit 3), not a panic.
#[cfg(all(feature = "tiktoken", feature = "cli"))]
#[test]
fn decode_check_of_a_nul_megabyte_is_refused_not_a_panic() {
    let dir = std::env::temp_dir();
    let file = dir.join(format!("tooljson-hd-{}-nul", std::process::id()));
    let schema = dir.join(format!("tooljson-hd-{}-schema.json", std::process::id()));
    std::fs::write(&file, vec![0u8; 1 << 20]).unwrap();
    std::fs::write(&schema, "{}").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tooljson"))
        .arg("decode")
        .arg("--schema")
        .arg(&schema)
        .arg("--check")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[cfg(feature = "cli")]
fn cli(args: &[&str]) -> (Option<i32>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tooljson"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[cfg(feature = "cli")]
fn temp(name: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("tooljson-hd-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

/// Item 5: a format with no checker (`idn-email`, `iri-reference`) or no
/// JSON Schema format at all is never passed in silence: `validate
/// --assert-formats` (whole and streamed) warns, naming it; the library
/// lists it; the decoder refuses the unchecked ones (it cannot follow
/// them) and warns on an unknown name. An asserted format still refuses.
#[cfg(feature = "cli")]
#[test]
fn unasserted_formats_are_warned_about_or_refused_never_silent() {
    let x = temp("x.json", b"\"x\"");
    for (name, decode_refuses) in [
        ("idn-email", true),
        ("iri-reference", true),
        ("iri", true),
        ("idn-hostname", true),
        ("no-such-format", false),
    ] {
        let body = json!({ "type": "string", "format": name }).to_string();
        let s = CompiledSchema::builder()
            .assert_formats(true)
            .build_str(&body)
            .unwrap();
        let listed = s.ignored_keywords();
        assert!(
            listed.len() == 1 && listed[0].contains(name),
            "{name}: {listed:?}"
        );
        let schema = temp(&format!("{name}.json"), body.as_bytes());
        for chunk in [None, Some("1")] {
            let mut args = vec!["validate", "--assert-formats", "--schema", &schema];
            if let Some(c) = chunk {
                args.extend(["--chunk", c]);
            }
            args.push(&x);
            let (code, err) = cli(&args);
            assert_eq!(code, Some(0), "{name} {chunk:?}: {err}");
            assert!(
                err.contains("warning") && err.contains(name),
                "{name}: {err}"
            );
        }
        let vocab = bytes_vocab();
        let refused = Constraint::new(&s, &vocab);
        assert_eq!(refused.is_err(), decode_refuses, "{name}");
        if let Err(e) = refused {
            assert_eq!(e.keyword(), Some("format"), "{name}: {e}");
        }
        #[cfg(feature = "tiktoken")]
        {
            let (code, err) = cli(&[
                "decode", "--vocab", "cl100k", "--schema", &schema, "--sample", "1",
            ]);
            assert!(err.contains(name), "{name}: {err}");
            assert_eq!(
                code,
                Some(if decode_refuses { 2 } else { 0 }),
                "{name}: {err}"
            );
        }
    }
    // An asserted format refuses "x", with no warning.
    let schema = temp(
        "email.json",
        json!({ "format": "email" }).to_string().as_bytes(),
    );
    let (code, err) = cli(&["validate", "--assert-formats", "--schema", &schema, &x]);
    assert_eq!(code, Some(3), "{err}");
    assert!(!err.contains("warning"), "{err}");
}

/// Item 8: a schema file past the 64 MiB input limit is refused before it
/// is read, by `validate` and `decode`, naming the limit.
#[cfg(feature = "cli")]
#[test]
fn a_schema_past_the_input_limit_is_refused_before_it_is_read() {
    let limit = tooljson::Limits::default().max_input_bytes;
    let p = std::env::temp_dir().join(format!("tooljson-hd-{}-big.json", std::process::id()));
    // Sparse: the size is there, the bytes are not written.
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(limit + 1).unwrap();
    let big = p.display().to_string();
    let x = temp("one.json", b"1");
    let mut runs = vec![vec!["validate", "--schema", big.as_str(), x.as_str()]];
    if cfg!(feature = "tiktoken") {
        runs.push(vec!["decode", "--schema", big.as_str(), "--sample", "1"]);
    }
    for args in runs {
        let (code, err) = cli(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("max_input_bytes"), "{args:?}: {err}");
    }
    std::fs::remove_file(&p).unwrap();
}

/// Seconds to compile a decode constraint for an `enum` of `n` options
/// (integers, or strings), the best of three.
fn enum_compile_seconds(n: usize, strings: bool) -> f64 {
    let opts: Vec<J> = (0..n)
        .map(|i| {
            if strings {
                json!(format!("opt{i}"))
            } else {
                json!(i)
            }
        })
        .collect();
    let s = compile(&json!({ "enum": opts }));
    let vocab = bytes_vocab();
    (0..3)
        .map(|_| {
            let t = std::time::Instant::now();
            let c = Constraint::new(&s, &vocab).unwrap();
            let e = t.elapsed().as_secs_f64();
            drop(c);
            e
        })
        .fold(f64::INFINITY, f64::min)
}

/// Item 8: each `enum` option is checked against the schema it came from,
/// whose own `enum` answers by hash, so a long `enum` compiles in near
/// linear time (each option scanned the whole list before: 30k integers
/// took seconds, 10^5 strings more).
#[test]
fn a_long_enum_compiles_in_linear_time() {
    for strings in [false, true] {
        let small = enum_compile_seconds(5_000, strings);
        let large = enum_compile_seconds(20_000, strings);
        assert!(
            large < 8.0 * small + 0.05,
            "enum of 20k: {large:.3} s, of 5k: {small:.3} s (strings: {strings}): grows faster than linear"
        );
    }
}
