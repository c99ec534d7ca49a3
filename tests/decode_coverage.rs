//! Which jsonschemabench schemas compile for constrained decoding, and
//! what blocks the others: the first keyword `Constraint::new` names, and
//! every keyword outside the decoder's exact set that the schema uses (a
//! schema is only unblocked once all of them are). Reads
//! `../shared/testdata` (or `TOOLJSON_TESTDATA`) and fails with a plain
//! message when it is absent.
use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use tooljson::Value;
use tooljson::decode::{Constraint, DecodeError, Vocabulary};

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

fn tool_like(name: &str) -> bool {
    ["BFCL", "Glaiveai2K", "MCPspec", "JME"]
        .iter()
        .any(|p| name.starts_with(p))
}

fn vocab() -> Vocabulary {
    let mut toks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    toks.push(Vec::new());
    Vocabulary::from_bytes(toks, vec![256]).unwrap()
}

/// Compiles every jsonschemabench schema (format assertion on) and
/// prints what blocks the refused ones. Returns (compiled, all, tool
/// compiled, tool all).
fn coverage() -> (usize, usize, usize, usize) {
    let dir = common::testdata().join("jsonschemabench/data");
    let files = common::files_in(&dir);
    assert!(
        files.len() >= 200,
        "expected the 206 jsonschemabench files in {}, found {}",
        dir.display(),
        files.len()
    );
    let v = vocab();
    let (mut ok, mut all, mut tool_ok, mut tool_all) = (0, 0, 0, 0);
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut any: BTreeMap<&str, usize> = BTreeMap::new();
    let mut only: BTreeMap<String, usize> = BTreeMap::new();
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
                    DecodeError::Unsupported { keyword, .. } => keyword.clone(),
                    other => other.to_string(),
                };
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
    assert!(ok >= 153, "compiled {ok}/{all}");
    assert!(tool_ok >= 63, "compiled {tool_ok}/{tool_all} tool-like");
}
