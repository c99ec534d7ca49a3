//! Approximations the caller opts into (`DecodeOptions::approximate`):
//! each keyword the decoder cannot decide exactly is refused by default
//! and, with the option, allows a superset and is listed on the
//! constraint. Small schemas per keyword, then the jsonschemabench schemas
//! (`tests/data/`, found by `common::testdata`; the tests fail with a
//! plain message when it is absent).
use crate::common;
use crate::common::decode_data::{
    bench_cases, bytes_vocab, refused_at, samples, shuffled, tool_like,
};

use tooljson::decode::{Constraint, DecodeError, DecodeOptions, Sampler, Vocabulary};
use tooljson::{CompiledSchema, Value};

const APPROXIMATE: DecodeOptions = DecodeOptions {
    key_order: tooljson::decode::KeyOrder::Any,
    whitespace: tooljson::decode::Whitespace::None,
    approximate: true,
    assert_formats: true,
};

/// Whether the whole of `text` is allowed and may end there.
fn accepts(c: &Constraint, text: &str) -> bool {
    let mut m = c.matcher();
    m.commit_bytes(text.as_bytes()).is_ok() && m.is_complete()
}

fn schema(text: &str) -> CompiledSchema {
    CompiledSchema::builder()
        .assert_formats(true)
        .build_str(text)
        .unwrap()
}

/// `schema` is refused by default naming `keyword` at `path`; with the
/// option it compiles, lists exactly that keyword there, accepts each of
/// `allowed` (which the schema itself refuses, so the approximation is
/// real) and refuses each of `refused`.
fn approximated(schema_text: &str, keyword: &str, path: &str, allowed: &[&str], refused: &[&str]) {
    let s = schema(schema_text);
    let v = bytes_vocab();
    match Constraint::new(&s, &v) {
        Err(DecodeError::Unsupported {
            keyword: k,
            schema_path,
            ..
        }) => {
            assert_eq!(
                (k.as_str(), schema_path.as_str()),
                (keyword, path),
                "{schema_text}"
            );
        }
        other => panic!("{schema_text}: expected a refusal naming {keyword}, got {other:?}"),
    }
    let c = Constraint::with_options(&s, &v, &APPROXIMATE)
        .unwrap_or_else(|e| panic!("{schema_text}: {e}"));
    let list: Vec<(&str, &str)> = c
        .approximations()
        .iter()
        .map(|a| (a.keyword(), a.schema_path()))
        .collect();
    assert_eq!(list, [(keyword, path)], "{schema_text}");
    let a = &c.approximations()[0];
    assert!(!a.what().is_empty());
    assert_eq!(a.to_string(), format!("{keyword} at {path}: {}", a.what()));
    for t in allowed {
        let inst = tooljson::from_str(t).unwrap();
        assert!(
            !s.is_valid(&inst),
            "{schema_text}: {t} is valid, it shows nothing"
        );
        assert!(
            accepts(&c, t),
            "{schema_text}: {t} refused under the approximation"
        );
    }
    for t in refused {
        assert!(!accepts(&c, t), "{schema_text}: {t} allowed");
    }
}

#[test]
fn each_keyword_not_enforced_allows_what_it_would_refuse() {
    approximated(
        r#"{"type": "array", "uniqueItems": true}"#,
        "uniqueItems",
        "/uniqueItems",
        &["[1,1]"],
        &["{}"],
    );
    approximated(
        r#"{"type": "integer", "not": {"const": 3}}"#,
        "not",
        "/not",
        &["3"],
        &["\"a\""],
    );
    approximated(
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        "contains",
        "/contains",
        &["[1]"],
        &["1"],
    );
    approximated(
        r#"{"type": "integer", "if": {"minimum": 0}, "then": {"minimum": 5}, "else": {"maximum": -5}}"#,
        "if",
        "/if",
        &["3", "-1"],
        &["1.5"],
    );
    approximated(
        r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
        "dependentRequired",
        "/dependentRequired",
        &[r#"{"a":1}"#],
        &["[]"],
    );
    approximated(
        r#"{"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}}"#,
        "dependentSchemas",
        "/dependentSchemas",
        &[r#"{"a":1}"#],
        &["[]"],
    );
    approximated(
        r#"{"type": "object", "propertyNames": {"maxLength": 2}}"#,
        "propertyNames",
        "/propertyNames",
        &[r#"{"abc":1}"#],
        &["[]"],
    );
    approximated(
        r#"{"type": "integer", "multipleOf": 5}"#,
        "multipleOf",
        "/multipleOf",
        &["7"],
        &["7.5"],
    );
    approximated(
        r#"{"type": "object", "properties": {"a": {"type": "integer"}}, "unevaluatedProperties": false}"#,
        "unevaluatedProperties",
        "/unevaluatedProperties",
        &[r#"{"b":1}"#],
        &[r#"{"a":"x"}"#],
    );
    approximated(
        r#"{"type": "array", "prefixItems": [{"type": "integer"}], "unevaluatedItems": false}"#,
        "unevaluatedItems",
        "/unevaluatedItems",
        &["[1,2]"],
        &["[\"a\"]"],
    );
    approximated(
        r##"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$dynamicAnchor": "node",
            "type": "object", "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}}}"##,
        "$dynamicRef",
        "/properties/kids/items/$dynamicRef",
        &[r#"{"kids":[1]}"#],
        &[r#"{"kids":1}"#],
    );
}

#[test]
fn an_overlapping_one_of_is_read_as_any_of() {
    approximated(
        r#"{"type": "object", "properties": {"n": {"oneOf": [{"type": "integer"}, {"minimum": 0}]}}}"#,
        "oneOf",
        "/properties/n/oneOf",
        &[r#"{"n":5}"#],
        &[r#"{"n":-1.5}"#, r#"{"n":-2.5}"#],
    );
}

#[test]
fn a_fractional_bound_is_widened_outward_and_a_huge_one_dropped() {
    approximated(
        r#"{"type": "number", "minimum": 1.5}"#,
        "minimum",
        "/minimum",
        &["1.2", "1"],
        &["0.5", "-1"],
    );
    approximated(
        r#"{"type": "number", "exclusiveMinimum": -0.5}"#,
        "exclusiveMinimum",
        "/exclusiveMinimum",
        &["-1"],
        &["-2"],
    );
    approximated(
        r#"{"type": "integer", "exclusiveMaximum": 2.5}"#,
        "exclusiveMaximum",
        "/exclusiveMaximum",
        &["3"],
        &["4", "2.5"],
    );
    approximated(
        r#"{"type": "number", "maximum": -7.25}"#,
        "maximum",
        "/maximum",
        &["-7", "-7.1"],
        &["-6"],
    );
    approximated(
        r#"{"type": "integer", "minimum": 1e300}"#,
        "minimum",
        "/minimum",
        &["0", "-5"],
        &["0.5"],
    );
    let c = Constraint::with_options(
        &schema(r#"{"type": "integer", "minimum": 1.5}"#),
        &bytes_vocab(),
        &APPROXIMATE,
    )
    .unwrap();
    assert!(
        c.approximations()[0]
            .what()
            .contains("widened outward to 1"),
        "{}",
        c.approximations()[0]
    );
}

#[test]
fn pattern_properties_leave_other_keys_open() {
    let text = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^x": {"type": "string"}}, "additionalProperties": false, "required": ["a"]}"#;
    approximated(
        text,
        "patternProperties",
        "/patternProperties",
        &[r#"{"a":1,"x1":5}"#, r#"{"a":1,"zzz":true}"#],
        &[r#"{"a":"s"}"#, r#"{"x1":"s"}"#, r#"{"a":1,"a":2}"#],
    );
    let c = Constraint::with_options(&schema(text), &bytes_vocab(), &APPROXIMATE).unwrap();
    let what = c.approximations()[0].what();
    assert!(what.contains("additionalProperties"), "{what}");
}

#[test]
fn a_pattern_or_format_not_followed_allows_any_string() {
    approximated(
        r#"{"type": "string", "pattern": "^(a)\\1$"}"#,
        "pattern",
        "/pattern",
        &["\"zz\""],
        &["1"],
    );
    approximated(
        r#"{"type": "string", "format": "regex"}"#,
        "format",
        "/format",
        &["\"(\""],
        &["1"],
    );
    // Two on one string: the first is followed, the second is not.
    let s = schema(r#"{"type": "string", "pattern": "^a", "allOf": [{"pattern": "b$"}]}"#);
    let v = bytes_vocab();
    assert_eq!(
        Constraint::new(&s, &v).unwrap_err().keyword(),
        Some("pattern")
    );
    let c = Constraint::with_options(&s, &v, &APPROXIMATE).unwrap();
    assert_eq!(c.approximations().len(), 1);
    assert_eq!(c.approximations()[0].keyword(), "pattern");
    assert!(accepts(&c, "\"ab\""));
    assert!(accepts(&c, "\"ac\"") || accepts(&c, "\"cb\""));
    assert!(
        !accepts(&c, "\"cc\""),
        "the pattern that is followed still holds"
    );
}

#[test]
fn exact_schemas_list_nothing_and_the_limits_stay_errors() {
    let v = bytes_vocab();
    let exact = schema(
        r#"{"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"},
            "n": {"oneOf": [{"type": "integer"}, {"type": "string"}]}, "e": {"enum": [1, 2], "multipleOf": 2}},
            "required": ["a"]}"#,
    );
    let c = Constraint::with_options(&exact, &v, &APPROXIMATE).unwrap();
    assert!(c.approximations().is_empty(), "{:?}", c.approximations());
    assert!(
        Constraint::new(&exact, &v)
            .unwrap()
            .approximations()
            .is_empty()
    );
    // No value: still an error.
    let none = schema(r#"{"type": "integer", "minimum": 5, "maximum": 3, "uniqueItems": true}"#);
    let e = Constraint::with_options(&none, &v, &APPROXIMATE).unwrap_err();
    assert_eq!(e.keyword(), Some("(schema)"), "{e}");
    // More than 64 named keys: still an error.
    let props: Vec<String> = (0..65).map(|i| format!("\"k{i}\": {{}}")).collect();
    let wide = schema(&format!(
        r#"{{"type": "object", "properties": {{{}}}}}"#,
        props.join(",")
    ));
    let e = Constraint::with_options(&wide, &v, &APPROXIMATE).unwrap_err();
    assert_eq!(e.keyword(), Some("properties"), "{e}");
}

#[test]
fn a_keyword_reached_twice_is_listed_once() {
    let s = schema(
        r##"{"$defs": {"u": {"type": "array", "uniqueItems": true}}, "type": "object",
            "properties": {"a": {"$ref": "#/$defs/u"}, "b": {"$ref": "#/$defs/u"}, "c": {"multipleOf": 3}}}"##,
    );
    let c = Constraint::with_options(&s, &bytes_vocab(), &APPROXIMATE).unwrap();
    let mut list: Vec<String> = c
        .approximations()
        .iter()
        .map(|a| format!("{} {}", a.keyword(), a.schema_path()))
        .collect();
    list.sort();
    assert_eq!(
        list,
        [
            "multipleOf /properties/c/multipleOf",
            "uniqueItems /$defs/u/uniqueItems"
        ]
    );
}

/// The jsonschemabench schemas the decoder refused before approximations
/// existed, with the keyword each was refused for (`name keyword`), as
/// recorded by `tooljson decode --assert-formats --sample 0` on each.
const REFUSED_BEFORE: &str = include_str!("../corpus/decode/jsonschemabench-refusals.txt");

/// A refusal the option leaves a refusal: a budget, no value, a limit on
/// named keys.
fn stays_refused(e: &DecodeError) -> bool {
    match e {
        DecodeError::Unsupported { keyword, why, .. } => {
            keyword == "(schema)" || why.contains("more than 64")
        }
        _ => true,
    }
}

/// Takes approximation `a` out of schema `doc` (a JSON Pointer path into
/// it): the keyword removed (`oneOf` made `anyOf`; `if` with its `then` /
/// `else`; `contains` with its counts; `patternProperties` with
/// `additionalProperties`), so that the schema left allows at least what
/// the mask does. `false` when the path does not lead into `doc`.
fn strip(doc: &mut serde_json::Value, path: &str, keyword: &str) -> bool {
    let Some(parent) = path.strip_suffix(keyword).and_then(|p| p.strip_suffix('/')) else {
        return false;
    };
    let Some(serde_json::Value::Object(node)) = doc.pointer_mut(parent) else {
        return false;
    };
    // Draft-07 `dependencies` is read as `dependentRequired` /
    // `dependentSchemas`, at the path of the name it is read as.
    let Some(taken) = node.remove(keyword).or_else(|| {
        keyword
            .starts_with("dependent")
            .then(|| node.remove("dependencies"))
            .flatten()
    }) else {
        return false;
    };
    match keyword {
        "oneOf" if !node.contains_key("anyOf") => {
            node.insert("anyOf".into(), taken);
        }
        "oneOf" => match node.get_mut("allOf") {
            Some(serde_json::Value::Array(all)) => all.push(serde_json::json!({"anyOf": taken})),
            _ => {
                node.insert("allOf".into(), serde_json::json!([{"anyOf": taken}]));
            }
        },
        "if" => {
            node.remove("then");
            node.remove("else");
        }
        "contains" => {
            node.remove("minContains");
            node.remove("maxContains");
        }
        "patternProperties" => {
            node.remove("additionalProperties");
        }
        _ => {}
    }
    true
}

#[derive(Default)]
struct Tally {
    approximated: usize,
    approximated_tool: usize,
    compiled: usize,
    compiled_tool: usize,
    tool: usize,
    instances: usize,
    samples: usize,
    limited: Vec<String>,
    exact: Vec<String>,
    not_taken_out: Vec<String>,
    problems: Vec<String>,
}

/// Every case under `vocab`, default and approximating. `tokens` checks a
/// valid instance token by token (`None`: byte by byte only).
fn run(
    label: &str,
    vocab: &Vocabulary,
    tokens: &dyn Fn(&Constraint, &str) -> Option<String>,
    samples: usize,
    max_tokens: usize,
) {
    let before: std::collections::BTreeMap<&str, &str> = REFUSED_BEFORE
        .lines()
        .filter_map(|l| l.split_once(' '))
        .collect();
    let mut t = Tally::default();
    let cases = bench_cases();
    for case in &cases {
        let tl = tool_like(&case.name);
        t.tool += usize::from(tl);
        let exact = Constraint::new(&case.schema, vocab);
        // Default off: refused exactly as before.
        let was = before.get(case.name.as_str()).copied();
        let now = exact
            .as_ref()
            .err()
            .map(|e| e.keyword().unwrap_or("(budget)").to_owned());
        if was != now.as_deref() {
            t.problems.push(format!(
                "{}: refused before for {was:?}, now {now:?}",
                case.name
            ));
        }
        let approx = Constraint::with_options(&case.schema, vocab, &APPROXIMATE);
        let c = match (&exact, approx) {
            (Ok(_), Ok(c)) => {
                t.compiled += 1;
                t.compiled_tool += usize::from(tl);
                if !c.approximations().is_empty() {
                    t.problems.push(format!(
                        "{}: exact, but lists {}",
                        case.name,
                        c.approximations()[0]
                    ));
                }
                continue;
            }
            (Err(e), _) if stays_refused(e) => continue,
            // Approximated, it meets a limit that stays (more than 64 keys).
            (Err(_), Err(e)) if stays_refused(&e) => {
                t.limited.push(case.name.clone());
                continue;
            }
            (Err(_), Err(e)) => {
                t.problems
                    .push(format!("{}: still refused with the option: {e}", case.name));
                continue;
            }
            (Ok(_), Err(e)) => {
                t.problems.push(format!(
                    "{}: exact, refused with the option: {e}",
                    case.name
                ));
                continue;
            }
            (Err(_), Ok(c)) => c,
        };
        t.compiled += 1;
        t.compiled_tool += usize::from(tl);
        t.approximated += 1;
        t.approximated_tool += usize::from(tl);
        let Err(DecodeError::Unsupported {
            keyword,
            schema_path,
            ..
        }) = &exact
        else {
            unreachable!("a refusal the option lifts is a refused keyword");
        };
        let named = c
            .approximations()
            .iter()
            .any(|a| a.keyword() == keyword && a.schema_path() == schema_path);
        if c.approximations().is_empty() {
            // Refused by default though exact: a `patternProperties` or an
            // inexact bound under `enum` / `const`, whose options decide;
            // its samples are checked against the whole schema below.
            t.exact.push(case.name.clone());
        } else if !named {
            t.problems.push(format!(
                "{}: refused for {keyword} at {schema_path}, approximations {:?}",
                case.name,
                c.approximations()
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
            ));
        }
        // Valid instances: never refused (a superset).
        let mut seed = 0x1234_5678u64;
        for (i, v) in case.valid.iter().enumerate() {
            for (how, v) in [
                ("own order", v.clone()),
                ("shuffled", shuffled(v, &mut seed)),
            ] {
                t.instances += 1;
                let text = v.to_string();
                let p = match refused_at(&c, text.as_bytes()) {
                    Some(at) => Some(format!(
                        "refused at byte {at}: {}",
                        &text[..at.min(text.len())]
                    )),
                    None => tokens(&c, &text),
                };
                if let Some(p) = p {
                    t.problems
                        .push(format!("{label} {}#{i} ({how}): {p}", case.name));
                }
            }
        }
        // The schema with the approximated keywords taken out: it compiles
        // exactly (every refusal was recorded) and accepts every sample.
        // A keyword in another document (a remote `$ref`) cannot be taken
        // out: that schema's samples are only parsed.
        let mut doc = case.doc.clone();
        let whole = c
            .approximations()
            .iter()
            .all(|a| strip(&mut doc, a.schema_path(), a.keyword()));
        let loose = if whole {
            match common::compile_asserting_formats(&Value::from(&doc)) {
                Ok(s) => Some(s),
                Err(e) => {
                    t.problems.push(format!(
                        "{}: the schema taken out does not compile: {e}",
                        case.name
                    ));
                    continue;
                }
            }
        } else {
            t.not_taken_out.push(case.name.clone());
            None
        };
        if let Some(loose) = &loose
            && !c.approximations().is_empty()
            && let Err(e) = Constraint::new(loose, vocab)
        {
            t.problems.push(format!(
                "{}: with the approximations taken out still refused: {e}",
                case.name
            ));
        }
        let mut sampler = Sampler::new(&c, 7, max_tokens);
        for k in 0..samples {
            t.samples += 1;
            match sampler.sample() {
                Ok(s) => {
                    let checked = common::decode_check::parse_no_repeats(&s.text)
                        .map_err(|e| format!("parse: {e}"))
                        .and_then(|v| match &loose {
                            Some(l) => l.validate(&v).map_err(|e| format!("invalid: {}", e[0])),
                            None => Ok(()),
                        });
                    if let Err(e) = checked {
                        t.problems.push(format!(
                            "{label} {} sample {k}: {e}: {}",
                            case.name,
                            String::from_utf8_lossy(&s.text)
                        ));
                    }
                }
                Err(e) => t
                    .problems
                    .push(format!("{label} {} sample {k}: {e}", case.name)),
            }
        }
    }
    println!(
        "{label}: with approximations {}/{} compile ({}/{} tool-like); {} refused before now approximated ({} tool-like); {} instances, {} samples",
        t.compiled,
        cases.len(),
        t.compiled_tool,
        t.tool,
        t.approximated,
        t.approximated_tool,
        t.instances,
        t.samples
    );
    println!("  approximated, then refused for a limit: {:?}", t.limited);
    println!("  refused by default, exact with the option: {:?}", t.exact);
    println!(
        "  samples only parsed (a keyword in another document): {:?}",
        t.not_taken_out
    );
    for p in t.problems.iter().take(40) {
        println!("{p}");
    }
    assert!(
        t.problems.is_empty(),
        "{label}: {} problems",
        t.problems.len()
    );
    assert!(
        t.approximated > 20,
        "{label}: only {} approximated",
        t.approximated
    );
}

#[test]
fn jsonschemabench_bytes() {
    run("bytes", &bytes_vocab(), &|_, _| None, samples(10), 300);
}

#[cfg(feature = "tiktoken")]
#[test]
fn jsonschemabench_o200k() {
    use crate::common::decode_data::tokens_refused;
    let tok = tooljson::decode::Tokenizer::o200k().unwrap();
    run(
        "o200k",
        tok.vocabulary(),
        &|c, text| tokens_refused(c, &tok, text),
        samples(3),
        120,
    );
}
