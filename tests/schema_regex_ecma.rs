//! `pattern` against ECMAScript itself: verdicts that node's `RegExp`
//! recorded (`corpus/regex/ecma_verdicts.json`, made by
//! `corpus/regex/record.py`) for 1,200 random patterns, each with and
//! without the `u` flag, and six strings.
//!
//! What must hold: a pattern this crate compiles is one ECMAScript compiles
//! (Annex B's legacy syntax included), and it matches exactly the strings
//! ECMAScript matches: with the `u` flag wherever that compiles it (JSON
//! Schema asks for Unicode semantics: `\p{L}` is a property, not `p{L}`),
//! else as the legacy syntax reads it (`[a-]`, a lone `{`), except that
//! `\p{..}` and `\u{..}` keep their Unicode meaning there too (the legacy
//! syntax reads them as the letters `p` and `u` repeated; such patterns are
//! counted, and left out of the comparison). A
//! pattern ECMAScript compiles and this crate refuses must be refused for a
//! construct it does not run (a back reference before its group closes,
//! `\B` in a class), named in the error. Look-around and back references
//! run on the backtracking engine and are compared like the rest.

use serde_json::{Value, json};
use tooljson::CompiledSchema;

#[test]
fn patterns_match_what_ecmascript_matches() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/regex/ecma_verdicts.json");
    let text = std::fs::read_to_string(&path).expect("corpus/regex/ecma_verdicts.json");
    let recorded: Value = serde_json::from_str(&text).unwrap();
    let cases = recorded["cases"].as_array().unwrap();
    assert!(cases.len() >= 1000, "{} cases", cases.len());
    let (mut agreed, mut refused_like_js, mut unsupported, mut mixed) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for case in cases {
        let p = case["p"].as_str().unwrap();
        let strings: Vec<&str> = case["s"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let annex_b = case["annex_b"].as_array();
        let unicode = case["u"].as_array();
        match CompiledSchema::compile(&json!({"pattern": p})) {
            Ok(schema) => {
                if annex_b.is_none() && unicode.is_none() {
                    failures.push(format!("{p:?}: compiled here, a SyntaxError in ECMAScript"));
                    continue;
                }
                if unicode.is_none() && (p.contains(r"\p{") || p.contains(r"\u{")) {
                    mixed += 1;
                    continue;
                }
                let Some((expected, mode)) = unicode
                    .map(|u| (u, "with the u flag"))
                    .or(annex_b.map(|b| (b, "legacy syntax")))
                else {
                    failures.push(format!("{p:?}: compiled here, a SyntaxError in ECMAScript"));
                    continue;
                };
                for (i, s) in strings.iter().enumerate() {
                    let ours = schema.is_valid(&tooljson::Value::String((*s).into()));
                    let theirs = expected[i].as_bool().unwrap();
                    if ours != theirs {
                        failures.push(format!(
                            "{p:?} on {s:?}: {ours} here, {theirs} in ECMAScript ({mode})"
                        ));
                    }
                }
                agreed += 1;
            }
            Err(e) => {
                if annex_b.is_none() && unicode.is_none() {
                    refused_like_js += 1;
                    continue;
                }
                let e = e.to_string();
                if [
                    "look-ahead",
                    "look-behind",
                    "back reference",
                    "inside a class",
                ]
                .iter()
                .any(|why| e.contains(why))
                {
                    unsupported += 1;
                } else {
                    failures.push(format!("{p:?}: refused here ({e}), compiles in ECMAScript"));
                }
            }
        }
    }
    println!(
        "{} recorded patterns: {agreed} compiled and matched as ECMAScript matches; \
         {refused_like_js} refused as ECMAScript refuses them; {unsupported} refused for \
         look-around, back references or \\B in a class; {mixed} legacy-only patterns \
         with \\p{{..}} or \\u{{..}} not compared",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The recording must exercise both outcomes.
    assert!(
        agreed > 300 && refused_like_js > 100 && mixed < 60,
        "{agreed} / {refused_like_js} / {mixed}"
    );
}
