//! Which jsonschemabench schemas compile for constrained decoding, and
//! what blocks the others: the first keyword `Constraint::new` names, and
//! every keyword outside the decoder's exact set that the schema uses (a
//! schema is only unblocked once all of them are). Reads
//! `tests/data/jsonschemabench/` (found by `common::testdata`) and fails
//! with a plain message when it is absent.
use crate::common;
use crate::common::decode_data::{bytes_vocab, tool_like};

use std::collections::{BTreeMap, BTreeSet};

use tooljson::Value;
use tooljson::decode::{Constraint, DecodeError};

/// Keywords that a decoder may refuse (everything but the exact core).
const HARD: &[&str] = &[
    "pattern",
    "format",
    "not",
    "patternProperties",
    "oneOf",
    "multipleOf",
    "if",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "uniqueItems",
    "contains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

/// Keys whose value is a map from names to subschemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keys whose value is data, not a schema.
const DATA: &[&str] = &["enum", "const", "default", "examples", "required"];

/// The keywords of `HARD` that `schema` uses somewhere.
fn hard_keywords(schema: &Value, out: &mut BTreeSet<&'static str>) {
    match schema {
        Value::Object(m) => {
            for (k, v) in m.iter() {
                let k: &str = k;
                if DATA.contains(&k) {
                    continue;
                }
                if let Some(h) = HARD.iter().find(|h| **h == k) {
                    // A numeric bound is only hard when it is not an integer.
                    let numeric = matches!(
                        k,
                        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
                    );
                    let hard = !numeric || v.as_f64().is_some_and(|f| f.fract() != 0.0);
                    if hard {
                        out.insert(h);
                    }
                }
                if SCHEMA_MAPS.contains(&k) {
                    if let Value::Object(sub) = v {
                        for (_, s) in sub.iter() {
                            hard_keywords(s, out);
                        }
                    }
                } else {
                    hard_keywords(v, out);
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                hard_keywords(x, out);
            }
        }
        _ => {}
    }
}

/// Compiles every jsonschemabench schema (format assertion on) and
/// prints what blocks the refused ones. Returns (compiled, all, tool
/// compiled, tool all).
fn coverage() -> (usize, usize, usize, usize) {
    let dir = common::testdata("jsonschemabench/data");
    let files = common::files_in(&dir);
    assert!(
        files.len() >= 200,
        "expected the 206 jsonschemabench files in {}, found {}",
        dir.display(),
        files.len()
    );
    let v = bytes_vocab();
    let (mut ok, mut all, mut tool_ok, mut tool_all) = (0, 0, 0, 0);
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut any: BTreeMap<&str, usize> = BTreeMap::new();
    let mut only: BTreeMap<String, usize> = BTreeMap::new();
    let mut tool_refused: Vec<String> = Vec::new();
    for (name, bytes) in files {
        let doc = tooljson::from_slice(&bytes).unwrap();
        all += 1;
        let tl = tool_like(&name);
        tool_all += usize::from(tl);
        let schema = match common::compile_asserting_formats(&doc["schema"]) {
            Ok(s) => s,
            Err(e) => {
                *first
                    .entry(format!("(schema: {})", common::refusal_kind(&e)))
                    .or_default() += 1;
                continue;
            }
        };
        match Constraint::new(&schema, &v) {
            Ok(_) => {
                ok += 1;
                tool_ok += usize::from(tl);
            }
            Err(e) => {
                let k = match &e {
                    // Formats by name: each has its own reason.
                    DecodeError::Unsupported { keyword, why, .. } if keyword == "format" => {
                        format!("format ({why})")
                    }
                    DecodeError::Unsupported { keyword, .. } => keyword.clone(),
                    other => other.to_string(),
                };
                if tl {
                    tool_refused.push(format!("{name}: {e}"));
                }
                *first.entry(k).or_default() += 1;
                let mut hard = BTreeSet::new();
                hard_keywords(&doc["schema"], &mut hard);
                for h in &hard {
                    *any.entry(h).or_default() += 1;
                }
                let joined: Vec<&str> = hard.into_iter().collect();
                *only.entry(joined.join("+")).or_default() += 1;
            }
        }
    }
    println!("compiled for decoding {ok}/{all} ({tool_ok}/{tool_all} tool-like)");
    println!("first keyword named by Constraint::new:");
    for (k, n) in &first {
        println!("  {n:3} {k}");
    }
    println!("schemas using each keyword, among the refused:");
    for (k, n) in &any {
        println!("  {n:3} {k}");
    }
    println!("tool-like schemas refused:");
    for t in &tool_refused {
        println!("  {t}");
    }
    println!("refused schemas by the whole set of such keywords they use:");
    for (k, n) in &only {
        println!("  {n:3} {k}");
    }
    (ok, all, tool_ok, tool_all)
}

#[test]
fn jsonschemabench_coverage_and_blockers() {
    let (ok, all, tool_ok, tool_all) = coverage();
    assert_eq!(all, 206, "the jsonschemabench set changed");
    assert_eq!(tool_all, 75, "the tool-like subset changed");
    // The coverage the decoder has reached: a regression fails here.
    assert!(ok >= 170, "compiled {ok}/{all}");
    assert!(tool_ok >= 73, "compiled {tool_ok}/{tool_all} tool-like");
}

/// The exact oracle for `pattern` with `minLength` / `maxLength`: every
/// string over a small set of characters up to the length bound is
/// checked by `validate`, and written in the only way the byte alphabet
/// allows (`"`, `\` and newline escaped, the rest as themselves), so the
/// viable prefixes are exactly the prefixes of those texts. The decoder
/// must agree on every byte after every prefix, its token masks with
/// committing each token, and its shortest completions must validate.
mod pattern_oracle {
    use std::collections::HashSet;

    use proptest::prelude::*;
    use tooljson::CompiledSchema;
    use tooljson::decode::{Constraint, Vocabulary};

    /// Bytes of the texts: no `b`, `f`, `r`, `t`, `u` or `/`, so the only
    /// escapes are `\"`, `\\` and `\n`.
    const SIGMA: &[u8] = b"\"\\ac1-n\xc3\xa9";
    /// Every character those bytes can write.
    const CHARS: &[char] = &['a', 'c', '1', '-', 'n', 'é', '\n', '\\', '"'];

    const ATOMS: &[&str] = &[
        "a", "c", "1", "-", "n", "é", r"\d", r"\w", r"\W", ".", "[ac]", "[^a]", r"\n", r"\\", "\"",
        "[a-c1]",
    ];
    const QUANTIFIERS: &[&str] = &["", "", "", "?", "*", "+", "{2}", "{1,2}", "{0,}"];

    fn tree() -> impl Strategy<Value = String> {
        let leaf = (0..ATOMS.len(), 0..QUANTIFIERS.len())
            .prop_map(|(a, q)| format!("{}{}", ATOMS[a], QUANTIFIERS[q]));
        leaf.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
                (proptest::collection::vec(inner, 1..3), 0..QUANTIFIERS.len())
                    .prop_map(|(v, q)| format!("(?:{}){}", v.join("|"), QUANTIFIERS[q])),
            ]
        })
    }

    fn encode(s: &str) -> String {
        let mut t = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => t.push_str("\\\""),
                '\\' => t.push_str("\\\\"),
                '\n' => t.push_str("\\n"),
                c => t.push(c),
            }
        }
        t.push('"');
        t
    }

    fn vocab() -> Vocabulary {
        let mut toks: Vec<Vec<u8>> = SIGMA.iter().map(|&b| vec![b]).collect();
        for w in [
            "\"a", "ac", "11", "\\n", "\\\"", "a\"", "é", "-\"", "\"\"", "nn",
        ] {
            toks.push(w.as_bytes().to_vec());
        }
        toks.push(vec![b'a', 0xc3]);
        toks.push(Vec::new());
        let eos = toks.len() as u32 - 1;
        Vocabulary::from_bytes(toks, vec![eos]).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn masks_match_the_listed_valid_strings(
            body in tree(),
            anchors in 0..4u8,
            min in 0u64..3,
            extra in 0u64..4,
        ) {
            // `extra` 3: no `maxLength`; the listed strings (up to 4
            // characters) are then some of the valid ones, and only the
            // implications that hold for a part are checked.
            let bounded = extra < 3;
            let pattern = format!(
                "{}{}{}",
                if anchors & 1 == 1 { "^" } else { "" },
                body,
                if anchors & 2 == 2 { "$" } else { "" }
            );
            let max = if bounded { min + extra } else { 4 };
            let doc = if bounded {
                serde_json::json!({
                    "type": "string", "pattern": pattern, "minLength": min, "maxLength": max
                })
            } else {
                serde_json::json!({"type": "string", "pattern": pattern, "minLength": min})
            };
            let schema = CompiledSchema::compile(&doc).unwrap();
            let v = vocab();
            let c = match Constraint::new(&schema, &v) {
                Ok(c) => c,
                Err(e) => {
                    // Refused: only by naming the pattern (one the crate
                    // leaves to the regex crate), or as unsatisfiable.
                    let k = e.keyword().unwrap_or("");
                    prop_assert!(k == "pattern" || k == "(schema)", "{}: {}", pattern, e);
                    return Ok(());
                }
            };
            // Every string of CHARS up to `max` characters.
            let mut all = vec![String::new()];
            let mut layer = vec![String::new()];
            for _ in 0..max {
                layer = layer
                    .iter()
                    .flat_map(|s| CHARS.iter().map(move |&ch| format!("{s}{ch}")))
                    .collect();
                all.extend(layer.iter().cloned());
            }
            let valid: Vec<String> = all
                .iter()
                .filter(|s| schema.is_valid(&tooljson::Value::String(s.to_string())))
                .map(|s| encode(s))
                .collect();
            prop_assert!(!valid.is_empty() || !bounded, "{}: compiled, but no string is valid", pattern);
            let mut prefixes: HashSet<&[u8]> = HashSet::new();
            for t in &valid {
                for n in 0..=t.len() {
                    prefixes.insert(&t.as_bytes()[..n]);
                }
            }
            let complete: HashSet<&[u8]> = valid.iter().map(|t| t.as_bytes()).collect();
            let mut mask = vec![0u64; v.mask_words()];
            let mut list: Vec<&[u8]> = prefixes.iter().copied().collect();
            list.sort();
            for pre in list.iter().step_by(1 + list.len() / 200) {
                let mut m = c.matcher();
                prop_assert!(m.commit_bytes(pre).is_ok() || pre.is_empty(), "{}: valid prefix refused: {:?}", pattern, String::from_utf8_lossy(pre));
                if bounded {
                    prop_assert_eq!(m.is_complete(), complete.contains(pre), "{}: completeness of {:?}", pattern, String::from_utf8_lossy(pre));
                } else if complete.contains(pre) {
                    prop_assert!(m.is_complete(), "{}: {:?} is valid", pattern, String::from_utf8_lossy(pre));
                }
                for &b in SIGMA {
                    let mut with = pre.to_vec();
                    with.push(b);
                    let oracle = prefixes.contains(with.as_slice());
                    let mut m2 = m.clone();
                    let ours = m2.commit_bytes(&[b]).is_ok();
                    // After a lone `\`, `\u` escapes (outside the byte
                    // alphabet) may still write any character: there only
                    // the listed texts are checked.
                    let open_escape = with[1..].iter().rev().take_while(|&&x| x == b'\\').count() % 2 == 1;
                    if bounded && !open_escape {
                        prop_assert_eq!(ours, oracle, "{} (length {}..={}): byte {:?} after {:?}", pattern, min, max, b as char, String::from_utf8_lossy(pre));
                    } else if oracle {
                        prop_assert!(ours, "{} (length {}..={}): byte {:?} after {:?} refused", pattern, min, max, b as char, String::from_utf8_lossy(pre));
                    }
                    if ours {
                        let mut text = with.clone();
                        text.extend(m2.shortest_completion());
                        let val = tooljson::from_slice(&text).map(|x| schema.is_valid(&x));
                        prop_assert_eq!(val.ok(), Some(true), "{}: completion {:?}", pattern, String::from_utf8_lossy(&text));
                    }
                }
                m.fill_mask(&mut mask);
                for id in 0..v.len() as u32 {
                    let bit = mask[id as usize / 64] >> (id % 64) & 1 == 1;
                    let mut m3 = m.clone();
                    let ok = m3.commit_token(id).is_ok();
                    prop_assert_eq!(bit, ok, "{}: token {} after {:?}", pattern, id, String::from_utf8_lossy(pre));
                }
            }
        }
    }
}

/// `DecodeOptions`: keys in the order of `properties`, and whitespace
/// between tokens up to a bound.
mod options {
    use crate::common;

    use tooljson::decode::{Constraint, DecodeOptions, KeyOrder, Sampler, Vocabulary, Whitespace};
    use tooljson::{CompiledSchema, Value};

    fn bytes_vocab() -> Vocabulary {
        let mut toks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        for w in ["{\"", "\":", ",\"", "\": ", ", \"", "\n  ", "  ", "\n"] {
            toks.push(w.as_bytes().to_vec());
        }
        toks.push(Vec::new());
        let eos = toks.len() as u32 - 1;
        Vocabulary::from_bytes(toks, vec![eos]).unwrap()
    }

    fn accepts(c: &Constraint, text: &str) -> bool {
        let mut m = c.matcher();
        m.commit_bytes(text.as_bytes()).is_ok() && m.is_complete()
    }

    /// Every ordered subset of `keys` as an object text.
    fn arrangements(keys: &[&str]) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        let mut frontier = vec![Vec::new()];
        for _ in 0..keys.len() {
            let mut next = Vec::new();
            for a in &frontier {
                for k in 0..keys.len() {
                    if !a.contains(&k) {
                        let mut b: Vec<usize> = a.clone();
                        b.push(k);
                        next.push(b);
                    }
                }
            }
            out.extend(next.iter().cloned());
            frontier = next;
        }
        out
    }

    #[test]
    fn properties_order_allows_exactly_the_ordered_texts() {
        let text = r#"{"type": "object", "properties": {"c": {"type": "integer"}, "a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a"]}"#;
        let doc: serde_json::Value = serde_json::from_str(text).unwrap();
        // The order the compiled schema keeps: the declaration order when
        // serde_json preserves it (feature `protocol`), else by name.
        let declared: Vec<String> = doc["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let schema = CompiledSchema::compile(&doc).unwrap();
        let v = bytes_vocab();
        let opts = DecodeOptions {
            key_order: KeyOrder::Properties,
            ..DecodeOptions::default()
        };
        let ordered = Constraint::with_options(&schema, &v, &opts).unwrap();
        let any = Constraint::new(&schema, &v).unwrap();
        let keys: Vec<&str> = declared.iter().map(String::as_str).collect();
        let (mut yes, mut no) = (0, 0);
        for a in arrangements(&keys) {
            let body: Vec<String> = a.iter().map(|&k| format!("\"{}\":1", keys[k])).collect();
            let t = format!("{{{}}}", body.join(","));
            let valid = schema.is_valid(&tooljson::from_str(&t).unwrap());
            let in_order = a.windows(2).all(|w| w[0] < w[1]);
            assert_eq!(accepts(&any, &t), valid, "any order: {t}");
            assert_eq!(
                accepts(&ordered, &t),
                valid && in_order,
                "properties order: {t}"
            );
            if valid && in_order {
                yes += 1;
            } else if valid {
                no += 1;
            }
        }
        assert!(yes >= 4 && no >= 4, "{yes} ordered, {no} out of order");
        // A key outside `properties` comes after the named ones.
        let named_then_other = if keys[0] == "a" {
            r#"{"a":1,"z":0}"#.to_string()
        } else {
            format!(r#"{{"{}":1,"a":1,"z":0}}"#, keys[0])
        };
        assert!(accepts(&ordered, &named_then_other), "{named_then_other}");
        assert!(!accepts(&ordered, r#"{"z":0,"a":1}"#));
        assert!(accepts(&any, r#"{"z":0,"a":1}"#));
        // The shortest completion follows the order too.
        let mut m = ordered.matcher();
        m.commit_bytes(b"{").unwrap();
        let mut t = b"{".to_vec();
        t.extend(m.shortest_completion());
        assert_eq!(t, br#"{"a":0}"#);
    }

    #[test]
    fn whitespace_is_bounded_between_tokens_only() {
        let doc = serde_json::json!({
            "type": "object",
            "properties": {"s": {"type": "string"}, "n": {"type": "array", "items": {"type": "number"}}},
            "required": ["s"]
        });
        let schema = CompiledSchema::compile(&doc).unwrap();
        let v = bytes_vocab();
        let c = |n| {
            let opts = DecodeOptions {
                whitespace: Whitespace::Bounded(n),
                ..DecodeOptions::default()
            };
            Constraint::with_options(&schema, &v, &opts).unwrap()
        };
        let (none, two) = (Constraint::new(&schema, &v).unwrap(), c(2));
        for (t, ok_none, ok_two) in [
            (r#"{"s":"a b","n":[1,2.5]}"#, true, true),
            (r#"{ "s" : "a  b" , "n" : [ 1 , 2.5 ] }"#, false, true),
            ("\t{\"s\":\r\n\"x\"}\n\n", false, true),
            (r#"{"s":   "x"}"#, false, false),
            (r#"{"s":"x","n":[1   ]}"#, false, false),
            (r#"{"s":"x","n":[1 2]}"#, false, false),
            (r#"{"s":"x"}   "#, false, false),
        ] {
            assert_eq!(accepts(&none, t), ok_none, "compact: {t:?}");
            assert_eq!(accepts(&two, t), ok_two, "up to 2: {t:?}");
        }
    }

    /// Every valid jsonschemabench instance, pretty-printed, is accepted
    /// with enough whitespace; samples under each option validate and
    /// never reach a dead end.
    #[test]
    fn jsonschemabench_under_the_options() {
        let dir = common::testdata("jsonschemabench/data");
        let files = common::files_in(&dir);
        assert!(
            files.len() >= 200,
            "expected the jsonschemabench files in {}",
            dir.display()
        );
        let v = bytes_vocab();
        let pretty = DecodeOptions {
            whitespace: Whitespace::Bounded(255),
            ..DecodeOptions::default()
        };
        let ordered = DecodeOptions {
            key_order: KeyOrder::Properties,
            whitespace: Whitespace::Bounded(2),
            ..DecodeOptions::default()
        };
        let (mut instances, mut compiled) = (0, 0);
        let mut problems = Vec::new();
        for (name, bytes) in files {
            let doc = tooljson::from_slice(&bytes).unwrap();
            let Ok(schema) = common::compile_asserting_formats(&doc["schema"]) else {
                continue;
            };
            let Ok(c) = Constraint::with_options(&schema, &v, &pretty) else {
                continue;
            };
            compiled += 1;
            for t in doc["tests"].as_array().into_iter().flatten() {
                if t["valid"] != Value::Bool(true) {
                    continue;
                }
                let sj: serde_json::Value = serde_json::from_str(&t["data"].to_string()).unwrap();
                let text = serde_json::to_string_pretty(&sj).unwrap();
                instances += 1;
                if !accepts(&c, &text) {
                    problems.push(format!("{name}: pretty instance refused: {text}"));
                }
            }
            for opts in [&pretty, &ordered] {
                let c = Constraint::with_options(&schema, &v, opts).unwrap();
                let mut sampler = Sampler::new(&c, 7, 400);
                for k in 0..3 {
                    match sampler.sample() {
                        Ok(s) => {
                            let ok = tooljson::from_slice(&s.text).map(|x| schema.is_valid(&x));
                            if ok.ok() != Some(true) {
                                problems.push(format!(
                                    "{name} {opts:?} sample {k}: {}",
                                    String::from_utf8_lossy(&s.text)
                                ));
                            }
                        }
                        Err(e) => problems.push(format!("{name} {opts:?} sample {k}: {e}")),
                    }
                }
            }
        }
        for p in problems.iter().take(20) {
            println!("{p}");
        }
        assert!(problems.is_empty(), "{} problems", problems.len());
        assert!(
            compiled > 150 && instances > 150,
            "{compiled} schemas, {instances} instances"
        );
    }
}
