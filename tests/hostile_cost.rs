//! Bounded cost on hostile schemas and large values (issue 32, schema
//! items): `uniqueItems`, in-place fan-out, `enum` / `const` in the stream
//! check, `multipleOf` with huge numbers, and `format: "regex"`.
//!
//! Work is counted, never timed: the crate's work counter (feature
//! `cost-counters`, [`tooljson::schema::work_done`]) for time, and a
//! counting allocator (peak bytes live on the test's thread) for memory.
//! Each test runs a case at two sizes and holds the growth to linear, or
//! holds an absolute bound written in `src/schema/budget.rs`.

use proptest::prelude::*;
use serde_json::json;
use tooljson::schema::{DEFAULT_MAX_FANOUT, reset_work, work_done};
use tooljson::{CompiledSchema, Parser, Value};

use crate::common::counting_alloc::peak_during;

/// The work units `f` takes.
fn work<T>(f: impl FnOnce() -> T) -> (T, u64) {
    reset_work();
    let out = f();
    (out, work_done())
}

fn value(text: &str) -> Value {
    tooljson::from_str(text).unwrap()
}

/// `validate`, then the stream check fed `text` in `chunk`-byte pieces:
/// both verdicts, and the work of each.
fn both_ways(schema: &CompiledSchema, text: &str, chunk: usize) -> ((bool, u64), (bool, u64)) {
    let v = value(text);
    let (whole, w_whole) = work(|| schema.validate(&v).is_ok());
    let (streamed, w_stream) = work(|| {
        let mut check = schema.stream_check();
        let mut p = Parser::new();
        for piece in text.as_bytes().chunks(chunk) {
            p.feed(piece, &mut check).unwrap();
        }
        p.finish(&mut check).unwrap();
        check.finish().is_ok()
    });
    ((whole, w_whole), (streamed, w_stream))
}

/// Holds `small` work at size n and `large` at size 8n to linear growth
/// (a factor of 12 allows for fixed costs; quadratic work grows 64 times).
fn assert_linear(what: &str, small: u64, large: u64) {
    assert!(
        large <= small.saturating_mul(12).max(1),
        "{what}: work grew from {small} to {large} for 8 times the input (not linear)"
    );
}

// ---- 1. uniqueItems -------------------------------------------------------

fn integers(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!("[{}]", items.join(","))
}

#[test]
fn unique_items_is_linear() {
    let schema = CompiledSchema::from_json_str(r#"{"uniqueItems": true}"#).unwrap();
    let mut works = Vec::new();
    for n in [2_000, 16_000] {
        let text = integers(n);
        let ((ok, w), (streamed, ws)) = both_ways(&schema, &text, 16);
        assert!(ok && streamed, "distinct integers are unique");
        // Each item hashed once and compared with the few of its hash.
        assert!(
            w <= 4 * n as u64 + 64,
            "validate: {w} work units for {n} items"
        );
        assert!(
            ws <= 4 * n as u64 + 64,
            "stream check: {ws} work units for {n} items"
        );
        works.push((w, ws));
    }
    assert_linear("uniqueItems validate", works[0].0, works[1].0);
    assert_linear("uniqueItems stream check", works[0].1, works[1].1);
}

#[test]
fn unique_items_compares_numbers_by_value_and_objects_unordered() {
    let schema = CompiledSchema::from_json_str(r#"{"uniqueItems": true}"#).unwrap();
    // Past the pairwise cut-off, so the hashed path decides.
    let pad: Vec<String> = (100..120).map(|i| format!("\"s{i}\"")).collect();
    let pad = pad.join(",");
    for (dup, i, j) in [
        ("1, 1.0", 20, 21),
        ("-0, 0.0e5", 20, 21),
        ("100, 1e2", 20, 21),
        ("12.50, 1.25e1", 20, 21),
        (r#"{"a": 1, "b": [2.0]}, {"b": [2], "a": 1.0}"#, 20, 21),
        ("[1, [2, 3]], [1.0, [2, 3e0]]", 20, 21),
    ] {
        let text = format!("[{pad}, {dup}]");
        let errs = schema.validate(&value(&text)).unwrap_err();
        assert_eq!(
            errs[0].message,
            format!("expected unique items, found items {i} and {j} equal"),
            "{dup}"
        );
    }
    for distinct in [
        "1, 1.5",
        "1, -1",
        r#"{"a": 1}, {"a": 1, "b": 1}"#,
        r#"{"a": 1}, {"b": 1}"#,
        "[1, 2], [2, 1]",
        "\"1\", 1",
        "true, 1",
        "null, false",
        "1e900000000, 1e900000001",
    ] {
        let text = format!("[{pad}, {distinct}]");
        assert!(schema.is_valid(&value(&text)), "{distinct}");
    }
    // The first duplicate is the one whose later item comes first.
    let text = format!("[{pad}, 7, 8, 8, 7]");
    let errs = schema.validate(&value(&text)).unwrap_err();
    assert_eq!(
        errs[0].message,
        "expected unique items, found items 21 and 22 equal"
    );
}

// ---- 3. in-place fan-out ----------------------------------------------------

/// `$defs` d0..d`levels`, each applying the one before twice with
/// `applicator` (`allOf`, `anyOf`, `oneOf`), `$ref` to the last.
fn doubling(applicator: &str, levels: usize, extra: serde_json::Value) -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"type": "string"}));
    for i in 1..=levels {
        let prev = format!("#/$defs/d{}", i - 1);
        let mut d = json!({applicator: [{"$ref": prev}, {"$ref": prev}]});
        if let (Some(d), Some(extra)) = (d.as_object_mut(), extra.as_object()) {
            d.extend(extra.clone());
        }
        defs.insert(format!("d{i}"), d);
    }
    json!({"$defs": defs, "allOf": [{"$ref": format!("#/$defs/d{levels}")}]})
}

#[test]
fn fan_out_past_the_budget_is_refused_at_compile_time() {
    for (applicator, extra) in [
        ("allOf", json!({})),
        ("anyOf", json!({})),
        ("oneOf", json!({})),
        ("allOf", json!({"unevaluatedProperties": false})),
        ("anyOf", json!({"unevaluatedItems": false})),
    ] {
        let schema = doubling(applicator, 30, extra.clone());
        let err = CompiledSchema::compile(&schema).unwrap_err();
        assert!(
            err.message().contains("max_fanout") && err.message().contains("fan-out budget"),
            "{applicator} {extra}: {err}"
        );
    }
    // `unevaluatedProperties` re-checks each branch: a chain that never
    // doubles still multiplies, and is counted.
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"type": "object"}));
    for i in 1..=40 {
        let prev = format!("#/$defs/d{}", i - 1);
        defs.insert(
            format!("d{i}"),
            json!({"anyOf": [{"$ref": prev}], "unevaluatedProperties": false}),
        );
    }
    let chain = json!({"$defs": defs, "$ref": "#/$defs/d40"});
    let err = CompiledSchema::compile(&chain).unwrap_err();
    assert!(err.message().contains("max_fanout"), "{err}");
}

#[test]
fn within_the_budget_validation_stays_within_it() {
    // 2^11 visits per location (about 11 × 2^11 to report a failed
    // `anyOf`): under the default budget.
    for applicator in ["allOf", "anyOf", "oneOf"] {
        let schema = CompiledSchema::compile(&doubling(applicator, 11, json!({}))).unwrap();
        for text in [r#""text""#, "17", "[1, 2, 3]"] {
            let ((_, w), (_, ws)) = both_ways(&schema, text, 16);
            let locations = 1 + text.matches(',').count() as u64 + 1;
            assert!(
                w <= DEFAULT_MAX_FANOUT * locations,
                "{applicator} on {text}: validate did {w} visits"
            );
            assert!(
                ws <= 2 * DEFAULT_MAX_FANOUT * locations,
                "{applicator} on {text}: the stream check did {ws} visits"
            );
        }
    }
    // The budget is the builder's to set.
    let schema = doubling("allOf", 12, json!({}));
    let err = CompiledSchema::builder()
        .max_fanout(1000)
        .build(&schema)
        .unwrap_err();
    assert!(err.message().contains("max_fanout = 1000"), "{err}");
}

// ---- 3. fan-out across instance levels --------------------------------------

/// A recursive schema in which `n` applies `t` twice with `applicator`, and
/// `t` applies `n` to its property `a`: 3 visits per location, within any
/// fan-out budget, but the same definition meets the same value twice at
/// every level, so the work doubles per level of the instance unless each
/// (node, value) pair is evaluated once.
fn twice_per_level(applicator: &str) -> CompiledSchema {
    CompiledSchema::compile(&json!({
        "$defs": {
            "n": {applicator: [{"$ref": "#/$defs/t"}, {"$ref": "#/$defs/t"}]},
            "t": {"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}
        },
        "$ref": "#/$defs/n"
    }))
    .unwrap()
}

/// `{"a": {"a": … innermost …}}`, `depth` levels.
fn nested_a(depth: usize, innermost: &str) -> String {
    format!(
        "{}{innermost}{}",
        r#"{"a": "#.repeat(depth),
        "}".repeat(depth)
    )
}

#[test]
fn a_definition_applied_twice_per_level_costs_linear_work() {
    for applicator in ["allOf", "anyOf", "oneOf"] {
        let schema = twice_per_level(applicator);
        // `{}` ends a valid chain (for allOf / anyOf); `1` fails at the
        // bottom, so every alternative is tried and reported on.
        for innermost in ["{}", "1"] {
            let mut works = Vec::new();
            for depth in [12usize, 24] {
                let text = nested_a(depth, innermost);
                let v = value(&text);
                let expected = innermost == "{}" && applicator != "oneOf";
                let (ok, w_is_valid) = work(|| schema.is_valid(&v));
                assert_eq!(
                    ok, expected,
                    "{applicator} {innermost} depth {depth}: is_valid"
                );
                let ((ok, w_validate), (streamed, w_stream)) = both_ways(&schema, &text, 16);
                assert_eq!(
                    (ok, streamed),
                    (expected, expected),
                    "{applicator} {innermost} depth {depth}"
                );
                let (_, peak) = peak_during(|| {
                    let mut check = schema.stream_check();
                    let mut p = Parser::new();
                    p.feed(text.as_bytes(), &mut check).unwrap();
                    p.finish(&mut check).unwrap();
                    check.finish().is_ok()
                });
                let levels = depth as u64;
                for (what, w) in [
                    ("is_valid", w_is_valid),
                    ("validate", w_validate),
                    ("stream check", w_stream),
                ] {
                    assert!(
                        w <= 64 * levels * levels + 256,
                        "{applicator} {innermost}, {depth} levels: {what} did {w} work units"
                    );
                }
                works.push((w_is_valid, w_validate, w_stream, peak));
            }
            let [a, b] = [works[0], works[1]];
            // Twice the levels: at most 4 times the work (the reasons of a
            // failed alternative walk the levels below it: quadratic at
            // worst), where doubling per level would be 4,096 times.
            for (what, small, large) in [
                ("is_valid", a.0, b.0),
                ("validate", a.1, b.1),
                ("stream check", a.2, b.2),
            ] {
                assert!(
                    large <= 4 * small + 64,
                    "{applicator} {innermost}: {what} work grew from {small} to {large} for twice the levels"
                );
            }
            assert!(
                b.3 <= 4 * a.3 + (64 << 10),
                "{applicator} {innermost}: stream check peak memory grew from {} to {} bytes",
                a.3,
                b.3
            );
        }
    }
}

#[test]
fn a_definition_applied_twice_reports_each_violation_once() {
    let schema = twice_per_level("allOf");
    let errs = schema.validate(&value(&nested_a(30, "1"))).unwrap_err();
    let at_bottom = "/a".repeat(30);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].instance_path.to_string(), at_bottom);
    assert_eq!(errs[0].message, "expected object, found number 1");
    let mut check = schema.stream_check();
    let mut p = Parser::new();
    p.feed(nested_a(30, "1").as_bytes(), &mut check).unwrap();
    p.finish(&mut check).unwrap();
    assert_eq!(check.finish().unwrap_err(), errs);
}

// ---- 4. enum / const in the stream check ----------------------------------

fn stream_work(schema: &CompiledSchema, text: &str, chunk: usize) -> (bool, u64) {
    work(|| {
        let mut check = schema.stream_check();
        let mut p = Parser::new();
        for piece in text.as_bytes().chunks(chunk) {
            p.feed(piece, &mut check).unwrap();
        }
        p.finish(&mut check).unwrap();
        check.finish().is_ok()
    })
}

#[test]
fn const_and_enum_strings_are_matched_piece_by_piece() {
    for chunk in [16, 4] {
        let mut works = Vec::new();
        for len in [16 << 10, 128 << 10] {
            let long = "ab".repeat(len / 2);
            let text = format!("\"{long}\"");
            let konst = CompiledSchema::compile(&json!({"const": long})).unwrap();
            let enm = CompiledSchema::compile(&json!({"enum": [
                format!("{long}x"), "short", long.clone(), format!("{}c", &long[..len / 2])
            ]}))
            .unwrap();
            let (ok, wc) = stream_work(&konst, &text, chunk);
            assert!(ok);
            let (ok, we) = stream_work(&enm, &text, chunk);
            assert!(ok);
            // A failing one: the last byte differs.
            let bad = format!("\"{}c\"", &long[..len - 1]);
            let (ok, wb) = stream_work(&konst, &bad, chunk);
            assert!(!ok);
            for (what, w) in [("const", wc), ("enum", we), ("failing const", wb)] {
                assert!(
                    w <= 8 * len as u64 + 4096,
                    "{what}, {len} bytes in {chunk}-byte chunks: {w} work units"
                );
            }
            works.push(wc + we + wb);
        }
        assert_linear(
            &format!("enum/const, {chunk}-byte chunks"),
            works[0],
            works[1],
        );
    }
}

#[test]
fn enum_pieces_report_where_no_option_fits() {
    let schema = CompiledSchema::compile(&json!({"enum": ["abcdef", "abcxyz", "abé", 5]})).unwrap();
    for (text, offset) in [
        (r#""abcdeX""#, 7),
        (r#""abcxQ""#, 6),
        (r#""abéZ""#, 6),
        (r#""Z""#, 2),
        (r#""abcdefg""#, 8),
    ] {
        for chunk in [1, 2, 3, 16] {
            let mut check = schema.stream_check();
            let mut p = Parser::new();
            for piece in text.as_bytes().chunks(chunk) {
                p.feed(piece, &mut check).unwrap();
            }
            p.finish(&mut check).unwrap();
            assert_eq!(
                check.first_violation_offset(),
                Some(offset),
                "{text} in {chunk}-byte chunks"
            );
        }
    }
}

// ---- 5. multipleOf with huge numbers ---------------------------------------

#[test]
fn multiple_of_huge_numbers_is_bounded() {
    let mut works = Vec::new();
    for digits in [500usize, 4_001] {
        let divisor = format!("7{}", "3".repeat(digits - 1));
        let schema =
            CompiledSchema::from_json_str(&format!(r#"{{"items": {{"multipleOf": {divisor}}}}}"#))
                .unwrap();
        let numbers: Vec<String> = (0..20)
            .map(|i| format!("{}{}e900000000", i % 9 + 1, "9".repeat(digits - 1)))
            .collect();
        let text = format!("[{}]", numbers.join(","));
        let v = value(&text);
        // `validate` checks every number (`is_valid` stops at the first).
        let (_, w) = work(|| schema.validate(&v));
        // Per number: (its digits + 4 × the divisor's + 4) / 9 steps of
        // one pass over the divisor's limbs.
        let per = ((5 * digits + 4) / 9 + 2) as u64 * (digits / 9 + 2) as u64;
        assert!(
            w <= 20 * per + 1000,
            "{digits} digits: {w} work units, bound {}",
            20 * per
        );
        works.push(w);
    }
    // Quadratic in the divisor's digits by design (8 times the digits, 64
    // times the work at most); what was unbounded is the exponent.
    assert!(works[1] <= works[0] * 80, "{works:?}");
}

/// `digits × k` for a decimal integer written as digits.
fn times(digits: &str, k: u32) -> String {
    let mut out = Vec::new();
    let mut carry = 0u32;
    for d in digits.bytes().rev() {
        let v = u32::from(d - b'0') * k + carry;
        out.push(b'0' + (v % 10) as u8);
        carry = v / 10;
    }
    while carry > 0 {
        out.push(b'0' + (carry % 10) as u8);
        carry /= 10;
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

#[test]
fn multiple_of_stays_exact() {
    // Divisors past 37 significant digits take the long division.
    let p = "170141183460469231731687303715884105727"; // 2^127 - 1, prime
    let d = "123456789012345678901234567890123456789012345678901234567891";
    for divisor in [p, d] {
        let schema =
            CompiledSchema::from_json_str(&format!(r#"{{"multipleOf": {divisor}}}"#)).unwrap();
        let seven = times(divisor, 7);
        for (n, ok) in [
            (seven.clone(), true),
            (times(divisor, 123_456_789), true),
            (format!("{seven}e10"), true),
            (format!("{seven}e900000000"), true),
            (format!("-{seven}.000"), true),
            ("0".to_owned(), true),
            (times(&seven, 11), true),
            (format!("{}1", &seven[..seven.len() - 1]), false),
            (format!("{seven}e-1"), false),
            (format!("{seven}.5"), false),
            (divisor[1..].to_owned(), false),
            (format!("{divisor}1"), false),
        ] {
            assert_eq!(schema.is_valid(&value(&n)), ok, "{n} multiple of {divisor}");
        }
        // A fractional divisor: the same digits, 20 places down.
        let schema =
            CompiledSchema::from_json_str(&format!(r#"{{"multipleOf": {divisor}e-20}}"#)).unwrap();
        assert!(schema.is_valid(&value(&format!("{}e-20", times(divisor, 3)))));
        assert!(!schema.is_valid(&value(&format!("{}e-21", times(divisor, 3)))));
        assert!(schema.is_valid(&value(divisor)));
    }
}

// ---- 6. format "regex" ------------------------------------------------------

#[test]
fn regex_format_memory_is_a_small_multiple_of_the_pattern() {
    let schema = CompiledSchema::builder()
        .assert_formats(true)
        .build(&json!({"format": "regex"}))
        .unwrap();
    for (pattern, valid) in [
        ("a".repeat(1 << 20), true),
        ("(ab|c)[x-z]\\d+".repeat(1 << 16), true),
        (format!("({})", "é".repeat(1 << 19)), true),
        (
            format!(
                "{}(?<n>a){}(?<n>b)",
                "a".repeat(1 << 19),
                "b".repeat(1 << 19)
            ),
            false,
        ),
        // Look-ahead is ECMA-262 syntax (run on the backtracking engine).
        (format!("{}(?=x)", "a".repeat(1 << 20)), true),
        (format!("{}\\1(x)", "a".repeat(1 << 20)), true),
        (format!("{}[", "a".repeat(1 << 20)), false),
        (format!("({}", "a".repeat(1 << 20)), false),
    ] {
        let v = Value::String(pattern.clone());
        let (ok, peak) = peak_during(|| schema.is_valid(&v));
        assert_eq!(ok, valid, "{}…", &pattern[..40]);
        assert!(
            peak <= 4 << 20,
            "{} bytes of pattern took {peak} bytes at the peak",
            pattern.len()
        );
        let text = serde_json::to_string(&pattern).unwrap();
        let (ok, peak) = peak_during(|| {
            let mut check = schema.stream_check();
            let mut p = Parser::new();
            for piece in text.as_bytes().chunks(16) {
                p.feed(piece, &mut check).unwrap();
            }
            p.finish(&mut check).unwrap();
            check.finish().is_ok()
        });
        assert_eq!(ok, valid);
        // The stream check keeps the string (it reads it at its end).
        assert!(
            peak <= 3 * pattern.len() + (4 << 20),
            "stream check: {} bytes of pattern took {peak} bytes at the peak",
            pattern.len()
        );
    }
}

// ---- generated hostile shapes -----------------------------------------------

/// A schema of `$defs` d0..dn, each an in-place applicator over earlier
/// definitions (so the graph is a DAG) or a leaf, from `picks`.
fn generated_schema(picks: &[(u8, u8, u8)]) -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"type": "integer", "minimum": 0}));
    for (i, &(kind, a, b)) in picks.iter().enumerate() {
        let i = i + 1;
        let r = |k: u8| json!({"$ref": format!("#/$defs/d{}", usize::from(k) % i)});
        let d = match kind % 9 {
            0 => json!({"allOf": [r(a), r(b)]}),
            1 => json!({"anyOf": [r(a), r(b)]}),
            2 => json!({"oneOf": [r(a), r(b), r(a)]}),
            3 => json!({"not": r(a)}),
            4 => json!({"if": r(a), "then": r(b), "else": r(a)}),
            5 => json!({"allOf": [r(a)], "unevaluatedProperties": false}),
            6 => json!({"anyOf": [r(a), r(b)], "unevaluatedItems": false}),
            7 => json!({"dependentSchemas": {"k": r(a)}, "allOf": [r(b)]}),
            _ => json!({"enum": [1, "a", [1, 2], {"k": 1}], "uniqueItems": true}),
        };
        defs.insert(format!("d{i}"), d);
    }
    json!({"$defs": defs, "$ref": format!("#/$defs/d{}", picks.len())})
}

/// Instances of a few locations, every type.
const INSTANCES: [&str; 6] = [
    "1",
    r#""a""#,
    "[1, 2]",
    r#"{"k": 1}"#,
    "null",
    r#"{"k": [1, {"k": 2}]}"#,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any schema that compiles under a budget costs at most that budget
    /// per instance location, in `validate`, `is_valid` and the stream
    /// check (which adds one visit per application it keeps); one that
    /// does not names the budget.
    #[test]
    fn generated_fan_out_stays_within_the_budget(
        picks in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..24),
        budget in 50u64..5_000,
    ) {
        let schema = generated_schema(&picks);
        match CompiledSchema::builder().max_fanout(budget).build(&schema) {
            Err(e) => prop_assert!(e.message().contains("max_fanout"), "{}", e),
            Ok(compiled) => {
                for text in INSTANCES {
                    // Locations, at most: one per value.
                    let locations = 1 + text.matches([',', ':', '[']).count() as u64;
                    let v = value(text);
                    let (_, w) = work(|| compiled.validate(&v));
                    prop_assert!(w <= budget * locations, "validate {}: {} > {} × {}", text, w, budget, locations);
                    let (_, w) = work(|| compiled.is_valid(&v));
                    prop_assert!(w <= budget * locations, "is_valid {}: {}", text, w);
                    let ((ok, _), (streamed, ws)) = both_ways(&compiled, text, 1);
                    prop_assert_eq!(ok, streamed, "{}", text);
                    // Buffered containers are checked at each level that
                    // buffers them: at most one more pass per nesting level.
                    let depth = 1 + text.matches(['[', '{']).count() as u64;
                    prop_assert!(ws <= 3 * budget * locations * depth, "stream {}: {}", text, ws);
                }
            }
        }
    }

    /// `uniqueItems` on generated arrays (many equal numbers written
    /// differently) does work linear in the items and agrees with the
    /// pairwise definition.
    #[test]
    fn generated_unique_items_is_linear_and_exact(
        items in proptest::collection::vec((0u8..12, 0u8..4), 9..200),
    ) {
        let texts: Vec<String> = items.iter().map(|&(n, form)| match form {
            0 => n.to_string(),
            1 => format!("{n}.0"),
            2 => format!("{}e-1", u32::from(n) * 10),
            _ => format!("[{n}, {{\"n\": {n}}}]"),
        }).collect();
        let text = format!("[{}]", texts.join(","));
        let v = value(&text);
        let schema = CompiledSchema::from_json_str(r#"{"uniqueItems": true}"#).unwrap();
        let (ok, w) = work(|| schema.is_valid(&v));
        // The pairwise reference: numbers by value (n, n.0 and n0e-1 are
        // the same number), arrays by their items.
        let key = |&(n, form): &(u8, u8)| if form == 3 { 100 + n as u32 } else { n as u32 };
        let keys: Vec<u32> = items.iter().map(key).collect();
        let unique = (0..keys.len()).all(|j| (0..j).all(|i| keys[i] != keys[j]));
        prop_assert_eq!(ok, unique);
        prop_assert!(w <= 8 * items.len() as u64 + 64, "{} units for {} items", w, items.len());
    }
}
