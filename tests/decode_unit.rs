//! Constrained decoding, case by case: the matcher's operations, the edges
//! of strings (escapes, surrogate pairs, UTF-8 split across tokens),
//! numbers under bounds, keys, refusals at compile time, vocabulary
//! loaders, and the `tooljson decode` command's contract.
use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, Tokenizer, Vocabulary};

/// Every single byte, then the given words, then the end of sequence.
fn vocab(words: &[&[u8]]) -> Vocabulary {
    let mut t: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    t.extend(words.iter().map(|w| w.to_vec()));
    t.push(Vec::new());
    let eos = t.len() as u32 - 1;
    Vocabulary::from_bytes(t, vec![eos]).unwrap()
}

fn constraint(schema: &str, v: &Vocabulary) -> Constraint {
    Constraint::new(&CompiledSchema::from_json_str(schema).unwrap(), v).unwrap()
}

/// Whether `text` is accepted byte by byte and complete at the end.
fn accepts(c: &Constraint, text: &[u8]) -> bool {
    let mut m = c.matcher();
    text.iter().all(|b| m.commit_bytes(&[*b]).is_ok()) && m.is_complete()
}

/// Whether `text` is a viable prefix.
fn viable(c: &Constraint, text: &[u8]) -> bool {
    c.matcher().commit_bytes(text).is_ok()
}

#[test]
fn strings_count_code_points_and_escapes() {
    let v = vocab(&[]);
    let c = constraint(r#"{"type": "string", "minLength": 2, "maxLength": 3}"#, &v);
    assert!(accepts(&c, br#""ab""#));
    assert!(accepts(&c, "\"é😀\"".as_bytes()));
    assert!(accepts(&c, br#""\n\u00e9\ud83d\ude00""#));
    assert!(!accepts(&c, br#""a""#));
    assert!(!viable(&c, br#""abcd"#));
    // A pending escape takes the last slot.
    assert!(viable(&c, br#""ab\"#));
    assert!(!viable(&c, br#""abc\"#));
    // Lone surrogates are refused at the first digit that shows them.
    assert!(!viable(&c, br#""\udc"#));
    assert!(!viable(&c, br#""\ud83d\u00"#));
    assert!(!viable(&c, br#""\ud83dx"#));
    // Bad UTF-8 and raw control characters.
    assert!(!viable(&c, b"\"\xc3\x28"));
    assert!(!viable(&c, b"\"\xed\xa0"));
    assert!(!viable(&c, b"\"\n"));
}

#[test]
fn a_token_may_end_inside_a_character() {
    let v = vocab(&[b"\"a\xc3", b"\xa9\""]);
    let c = constraint(r#"{"type": "string", "maxLength": 2}"#, &v);
    let mut m = c.matcher();
    m.commit_token(256).unwrap();
    let mut mask = vec![0u64; v.mask_words()];
    m.fill_mask(&mut mask);
    let allowed: Vec<u32> = (0..v.len() as u32)
        .filter(|&i| mask[i as usize / 64] >> (i % 64) & 1 == 1)
        .collect();
    // Only continuation bytes, and the token that finishes `é"`.
    assert!(
        allowed
            .iter()
            .all(|&i| (0x80..=0xbf).contains(&i) || i == 257),
        "{allowed:?}"
    );
    assert!(allowed.contains(&257));
    m.commit_token(257).unwrap();
    assert!(m.is_complete());
}

#[test]
fn integer_and_number_bounds() {
    let v = vocab(&[]);
    let c = constraint(
        r#"{"type": "integer", "minimum": 10, "exclusiveMaximum": 13}"#,
        &v,
    );
    for (t, ok) in [
        ("10", true),
        ("12", true),
        ("13", false),
        ("9", false),
        ("-1", false),
        ("1", false),
        ("010", false),
    ] {
        assert_eq!(accepts(&c, t.as_bytes()), ok, "{t}");
    }
    assert!(viable(&c, b"1"));
    assert!(!viable(&c, b"2"));
    assert!(!viable(&c, b"1.0"));
    let n = constraint(
        r#"{"type": "number", "exclusiveMinimum": 0, "maximum": 1}"#,
        &v,
    );
    for (t, ok) in [
        ("0.5", true),
        ("1", true),
        ("1.0", true),
        ("1.01", false),
        ("0", false),
        ("0.0", false),
        ("0.001", true),
        ("-0.1", false),
    ] {
        assert_eq!(accepts(&n, t.as_bytes()), ok, "{t}");
    }
    assert!(!viable(&n, b"2"));
    assert!(!viable(&n, b"1e"));
    let free = constraint(r#"{"type": "number"}"#, &v);
    assert!(accepts(&free, b"-0.5e+10"));
    assert!(!viable(&free, b"01"));
}

#[test]
fn keys_any_order_once_required_before_close() {
    let v = vocab(&[]);
    let c = constraint(
        r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "boolean"}}, "required": ["a"], "additionalProperties": false}"#,
        &v,
    );
    assert!(accepts(&c, br#"{"a":1,"b":true}"#));
    assert!(accepts(&c, br#"{"b":true,"a":1}"#));
    assert!(!viable(&c, br#"{"b":true}"#));
    assert!(!viable(&c, br#"{"a":1,"a""#));
    assert!(!viable(&c, br#"{"c"#));
    assert!(!viable(&c, br#"{ "#));
    let open = constraint(
        r#"{"properties": {"a": {"type": "integer"}}, "maxProperties": 2}"#,
        &v,
    );
    assert!(accepts(&open, br#"{"x":[1,{"y":null}],"a":2}"#));
    assert!(!viable(&open, br#"{"a":"s"#));
    assert!(!viable(&open, br#"{"x":1,"x""#));
    assert!(!viable(&open, br#"{"x":1,"y":2,"#));
}

#[test]
fn rollback_fork_forced_and_completion() {
    let v = vocab(&[b"{\"", b"name", b"\":\"", b"\"}"]);
    let c = constraint(
        r#"{"type": "object", "properties": {"name": {"type": "string"}, "n": {"const": 12}}, "required": ["name", "n"], "additionalProperties": false}"#,
        &v,
    );
    let mut m = c.matcher();
    // Both keys start with `n`.
    assert_eq!(m.forced_bytes(), b"{\"n");
    m.commit_token(256).unwrap();
    let fork = m.clone();
    m.commit_token(257).unwrap();
    m.commit_token(258).unwrap();
    assert_eq!(m.committed(), 3);
    assert_eq!(m.rollback(2), 2);
    assert_eq!(m.committed(), 1);
    m.commit_bytes(b"n\":").unwrap();
    assert_eq!(m.forced_bytes(), b"12,\"name\":\"");
    let mut done = m.clone();
    let rest = done.shortest_completion();
    done.commit_bytes(&rest).unwrap();
    assert!(done.is_complete());
    let text = [b"{\"n\":".as_slice(), &rest].concat();
    let schema = CompiledSchema::from_json_str(r#"{"required": ["name", "n"]}"#).unwrap();
    assert!(schema.is_valid(&tooljson::from_slice(&text).unwrap()));
    // The fork did not move.
    assert_eq!(fork.committed(), 1);
    let mut logits = vec![0.0f32; v.len()];
    fork.apply_mask(&mut logits);
    assert!(logits[b'n' as usize].is_finite());
    assert_eq!(logits[b'x' as usize], f32::NEG_INFINITY);
    // End of sequence only when complete, nothing after it.
    let eos = v.eos_ids()[0];
    assert!(fork.clone().commit_token(eos).is_err());
    done.commit_token(eos).unwrap();
    assert!(done.commit_bytes(b" ").is_err());
}

#[test]
fn anyof_refs_and_recursion() {
    let v = vocab(&[]);
    let c = constraint(
        r##"{"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2}, "v": {"anyOf": [{"type": "string", "maxLength": 1}, {"type": "integer", "minimum": 5}]}}, "additionalProperties": false}}, "$ref": "#/$defs/node"}"##,
        &v,
    );
    assert!(accepts(&c, br#"{"kids":[{"kids":[{"v":"a"}]},{"v":7}]}"#));
    assert!(viable(&c, br#"{"v":4"#));
    assert!(!viable(&c, br#"{"v":4}"#));
    assert!(!viable(&c, br#"{"v":"ab"#));
    assert!(!viable(&c, br#"{"kids":[{},{},"#));
}

#[test]
fn keywords_that_cannot_be_decided_are_named() {
    let v = vocab(&[]);
    for (schema, kw) in [
        // A back reference: left to a regex, so not followed.
        (r#"{"type": "string", "pattern": "^(a)\\1$"}"#, "pattern"),
        (r#"{"not": {"type": "string"}}"#, "not"),
        (r#"{"type": "number", "multipleOf": 0.5}"#, "multipleOf"),
        (r#"{"type": "number", "maximum": 1.5}"#, "maximum"),
        (
            r#"{"oneOf": [{"type": "integer"}, {"minimum": 2}]}"#,
            "oneOf",
        ),
        (r#"{"type": "array", "uniqueItems": true}"#, "uniqueItems"),
        (r#"{"patternProperties": {"^x": {}}}"#, "patternProperties"),
    ] {
        let s = CompiledSchema::from_json_str(schema).unwrap();
        let e = Constraint::new(&s, &v).unwrap_err();
        assert_eq!(e.keyword(), Some(kw), "{schema}: {e}");
    }
    // Under `enum`, every keyword holds through `validate`.
    let c = constraint(r#"{"enum": ["ab", "c", 3], "pattern": "^a"}"#, &v);
    assert!(accepts(&c, br#""ab""#));
    assert!(!viable(&c, br#""c"#));
    // A disjoint `oneOf` compiles.
    let c = constraint(
        r#"{"oneOf": [{"type": "integer"}, {"type": "string"}]}"#,
        &v,
    );
    assert!(accepts(&c, b"12") && accepts(&c, br#""x""#));
}

#[test]
fn tokenizer_json_byte_level_and_byte_fallback() {
    let bl = r#"{"model": {"type": "BPE", "vocab": {"a": 0, "Ġ": 1, "Ġa": 2, "{": 3, "}": 4}, "merges": ["Ġ a"]},
        "pre_tokenizer": {"type": "ByteLevel"}, "added_tokens": [{"id": 5, "content": "<|im_end|>", "special": true}]}"#;
    let t = Tokenizer::from_tokenizer_json(bl, &[]).unwrap();
    assert_eq!(t.vocabulary().token_bytes(2), b" a");
    assert_eq!(t.vocabulary().eos_ids(), &[5]);
    assert_eq!(t.encode(" a").unwrap(), [2]);
    let sp = r#"{"model": {"type": "BPE", "byte_fallback": true, "vocab": {"▁a": 0, "a": 1, "▁": 2, "<0x0A>": 3, "<0xC3>": 4, "<0xA9>": 5},
        "merges": [["▁", "a"]]}, "added_tokens": [{"id": 6, "content": "<eos>", "special": true}]}"#;
    let mut s = sp.to_string();
    for i in 0..256 {
        if ![0x0A, 0xC3, 0xA9].contains(&i) {
            s = s.replacen(
                "\"<0xA9>\": 5",
                &format!("\"<0xA9>\": 5, \"<0x{i:02X}>\": {}", 7 + i),
                1,
            );
        }
    }
    let t = Tokenizer::from_tokenizer_json(&s, &[]).unwrap();
    assert_eq!(t.vocabulary().token_bytes(0), b" a");
    assert_eq!(t.vocabulary().token_bytes(4), b"\xc3");
    assert_eq!(t.encode(" a\né").unwrap(), [0, 3, 4, 5]);
    assert!(Tokenizer::from_tokenizer_json("{}", &[]).is_err());
    assert!(Vocabulary::from_bytes(vec![b"a".to_vec()], vec![3]).is_err());
}

/// Found by the `decode` fuzz target: after `-` (or `-0`) under a bound
/// below zero, the completion must go on with a digit other than `0` (or a
/// fraction), not stop.
#[test]
fn a_number_under_a_bound_below_zero_completes_after_its_minus() {
    let v = vocab(&[]);
    let c = constraint(r#"{"type": "number", "exclusiveMaximum": 0}"#, &v);
    for (prefix, whole) in [("-", "-1"), ("-0", "-0.5")] {
        let mut m = c.matcher();
        m.commit_bytes(prefix.as_bytes()).unwrap();
        let rest = m.shortest_completion();
        assert_eq!(format!("{prefix}{}", String::from_utf8_lossy(&rest)), whole);
        m.commit_bytes(&rest).unwrap();
        assert!(m.is_complete(), "{prefix} + {rest:?}");
    }
}

/// No key repeats in any object, one of any value too (found by the mask
/// equivalence test: a nested object under `{"type": "object"}` took a
/// key twice, which the vendor layer's strict parse refuses).
#[test]
fn a_key_repeats_in_no_object_even_one_of_any_value() {
    let v = vocab(&[]);
    let c = constraint(
        r#"{"type": "object", "properties": {"p": {"type": "object"}}}"#,
        &v,
    );
    for text in [
        &br#"{"a":1,"a""#[..],
        br#"{"x":{"a":1,"a""#,
        br#"{"p":{"a":1,"a""#,
        br#"{"x":[{"a":{"b":1,"b""#,
    ] {
        assert!(!viable(&c, text), "{}", String::from_utf8_lossy(text));
    }
    for text in [
        &br#"{"x":{"a":1,"ab""#[..],
        br#"{"x":[{"a":1},{"a""#,
        br#"{"x":{"a":{"a":1},"b""#,
        br#"{"x":{"a":1},"y":{"a""#,
    ] {
        assert!(viable(&c, text), "{}", String::from_utf8_lossy(text));
    }
    assert!(accepts(&c, br#"{"x":[{"a":1},{"a":2}],"p":{"a":{"a":1}}}"#));
}

/// A `minProperties` too large to build a shortest text for counts as no
/// value: compiling refuses it at once instead of writing the members out
/// (found by the decode fuzz target as a timeout; the input is replayed).
#[test]
fn a_huge_minimum_count_is_refused_at_compile_time() {
    let v = vocab(&[]);
    for schema in [
        r#"{"type": "object", "additionalProperties": {"type": "number"}, "minProperties": 188888888888}"#,
        r#"{"type": "array", "minItems": 188888888888}"#,
    ] {
        let s = CompiledSchema::from_json_str(schema).unwrap();
        let e = Constraint::new(&s, &v).unwrap_err();
        assert_eq!(e.keyword(), Some("(schema)"), "{schema}: {e}");
    }
    // At the bound a value is still built.
    let at = r#"{"type": "object", "minProperties": 65536}"#;
    assert!(Constraint::new(&CompiledSchema::from_json_str(at).unwrap(), &v).is_ok());
}

/// `fill_masks` gives each sequence of a batch the mask `fill_mask`
/// gives it alone, on one thread or several, over sequences of two
/// constraints at different positions, in rows wider than the masks.
#[test]
fn fill_masks_is_fill_mask_per_row_on_any_number_of_threads() {
    use tooljson::decode::fill_masks;
    let v = vocab(&[b"{\"", b"\":", b"true", b"\"a"]);
    let c1 = constraint(
        r#"{"type": "object", "properties": {"a": {"type": "boolean"}, "b": {"type": "string", "format": "date"}}}"#,
        &v,
    );
    let c2 = constraint(
        r#"{"type": "array", "items": {"type": "integer", "maximum": 50}}"#,
        &v,
    );
    let mut batch = Vec::new();
    for (c, text) in [
        (&c1, &b""[..]),
        (&c1, b"{\""),
        (&c1, b"{\"a\":"),
        (&c1, b"{\"b\":\"2024-0"),
        (&c2, b"[4"),
        (&c2, b"[1,"),
        (&c2, b"[5"),
    ] {
        let mut m = c.matcher();
        m.commit_bytes(text).unwrap();
        batch.push(m);
    }
    let words = v.mask_words();
    let width = words + 2;
    let alone: Vec<Vec<u64>> = batch
        .iter()
        .map(|m| {
            let mut row = vec![0u64; words];
            m.fill_mask(&mut row);
            row
        })
        .collect();
    assert!(alone.iter().all(|r| r.iter().any(|&w| w != 0)));
    for threads in [0, 1, 2, 3, 7, 100] {
        // One word past the last row stays as it is.
        let mut masks = vec![u64::MAX; width * batch.len() + 1];
        fill_masks(&batch, &mut masks[..width * batch.len()], threads);
        for (i, want) in alone.iter().enumerate() {
            let row = &masks[i * width..(i + 1) * width];
            assert_eq!(&row[..words], &want[..], "row {i}, {threads} threads");
            assert!(row[words..].iter().all(|&w| w == 0), "row {i} tail");
        }
        assert_eq!(masks[width * batch.len()], u64::MAX);
    }
    // No sequences: nothing to do.
    fill_masks(&[], &mut [0u64; 4], 2);
}
