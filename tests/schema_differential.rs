//! Differential test of the compiled schema against the `jsonschema` crate
//! (issue 4) on the jsonschemabench data (`jsonschemabench/data/*.json`).
//!
//! Both validators compile each schema with format assertion on; for every
//! labelled instance the two `is_valid` verdicts are compared. Where they
//! differ, the label recorded in the data (the verdict of the benchmark's
//! reference validators) decides who is right, and the disagreement is put
//! in one of the documented [`Category`]s. The test fails on a disagreement
//! that fits no documented category, in particular any where tooljson is the
//! one that departs from the label. Schemas that only one side compiles are
//! counted and listed separately (tooljson's refusals are in strict mode, by
//! design: an unsupported keyword is never silently treated as valid).
//!
//! Run with `--nocapture` to see the counts and every disagreement.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use tooljson::{CompiledSchema, SchemaError, Value};

/// Why the two validators disagree on an instance. Each one is documented
/// with the cause; a disagreement that fits none fails the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    /// The `jsonschema` crate's verdict differs from the recorded label and
    /// tooljson's matches it.
    CrateDepartsFromLabel,
}

impl Category {
    fn explain(self) -> &'static str {
        match self {
            Category::CrateDepartsFromLabel => {
                "the jsonschema crate departs from the reference label, tooljson agrees with it"
            }
        }
    }
}

/// Ours: the builder with format assertion on, draft from `$schema`.
fn compile_ours(schema: &Value) -> Result<CompiledSchema, SchemaError> {
    CompiledSchema::builder()
        .assert_formats(true)
        .build_value(schema)
}

/// The refusal's kind: the message up to its first detail (quote or colon).
fn reason_kind(e: &SchemaError) -> String {
    let m = e.message();
    m.split([':', '"', '`'])
        .next()
        .unwrap_or(m)
        .trim()
        .to_owned()
}

struct Disagreement {
    file: String,
    index: usize,
    label: bool,
    ours: bool,
    theirs: bool,
    category: Option<Category>,
    data: String,
}

#[test]
fn differential_against_jsonschema_crate() {
    let dir = common::testdata().join("jsonschemabench/data");
    let files = common::files_in(&dir);
    assert!(
        files.len() >= 200,
        "expected the 206 jsonschemabench files, found {}",
        files.len()
    );

    let mut schemas = 0usize;
    let mut both_compile = 0usize;
    let mut only_ours: Vec<String> = Vec::new();
    let mut only_theirs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut neither: Vec<String> = Vec::new();
    let mut compared = 0usize;
    let mut agree = 0usize;
    let mut crate_vs_label_total = 0usize;
    let mut disagreements: Vec<Disagreement> = Vec::new();

    for (name, bytes) in &files {
        let doc = tooljson::from_slice(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let jdoc: serde_json::Value =
            serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        schemas += 1;
        let ours = compile_ours(&doc["schema"]);
        let theirs = jsonschema::options()
            .should_validate_formats(true)
            .build(&jdoc["schema"]);
        let (ours, theirs) = match (ours, theirs) {
            (Ok(o), Ok(t)) => (o, t),
            (Ok(_), Err(e)) => {
                only_ours.push(format!("{name}: jsonschema crate refuses: {e}"));
                continue;
            }
            (Err(e), Ok(_)) => {
                only_theirs
                    .entry(reason_kind(&e))
                    .or_default()
                    .push(format!("{name}: {e}"));
                continue;
            }
            (Err(e), Err(f)) => {
                neither.push(format!("{name}: tooljson: {e}; jsonschema crate: {f}"));
                continue;
            }
        };
        both_compile += 1;
        let tests = doc["tests"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no tests"));
        let jtests = jdoc["tests"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no tests"));
        assert_eq!(tests.len(), jtests.len());
        for (i, (t, jt)) in tests.iter().zip(jtests).enumerate() {
            let label = t["valid"]
                .as_bool()
                .unwrap_or_else(|| panic!("{name}#{i}: no label"));
            let o = ours.is_valid(&t["data"]);
            let th = theirs.is_valid(&jt["data"]);
            compared += 1;
            if th != label {
                crate_vs_label_total += 1;
            }
            if o == th {
                agree += 1;
                continue;
            }
            let category = if o == label {
                Some(Category::CrateDepartsFromLabel)
            } else {
                None
            };
            let data = t["data"].to_string();
            disagreements.push(Disagreement {
                file: name.clone(),
                index: i,
                label,
                ours: o,
                theirs: th,
                category,
                data: if data.len() > 300 {
                    format!("{}...", &data[..data.floor_char_boundary(300)])
                } else {
                    data
                },
            });
        }
    }

    let mut out = String::new();
    writeln!(out, "schemas: {schemas}; both compile: {both_compile}; only tooljson compiles: {}; only the jsonschema crate compiles: {}; neither: {}",
        only_ours.len(), only_theirs.values().map(Vec::len).sum::<usize>(), neither.len()).unwrap();
    for (kind, list) in &only_theirs {
        writeln!(out, "  tooljson refuses ({kind}): {}", list.len()).unwrap();
        for l in list {
            writeln!(out, "    {l}").unwrap();
        }
    }
    for l in only_ours.iter().chain(&neither) {
        writeln!(out, "  {l}").unwrap();
    }
    writeln!(out, "instances compared: {compared}; same verdict: {agree}; different: {}; jsonschema crate vs label: {crate_vs_label_total} differ", disagreements.len()).unwrap();
    let mut by_cat: BTreeMap<Option<Category>, usize> = BTreeMap::new();
    for d in &disagreements {
        *by_cat.entry(d.category).or_default() += 1;
        writeln!(
            out,
            "  {}#{}: label {} tooljson {} jsonschema {} -> {}\n    data: {}",
            d.file,
            d.index,
            d.label,
            d.ours,
            d.theirs,
            d.category.map_or("UNDOCUMENTED", |c| c.explain()),
            d.data
        )
        .unwrap();
    }
    for (c, n) in &by_cat {
        writeln!(
            out,
            "category {}: {n}",
            c.map_or("UNDOCUMENTED (tooljson departs from the label)", |c| c
                .explain())
        )
        .unwrap();
    }
    println!("{out}");
    let undocumented = by_cat.get(&None).copied().unwrap_or(0);
    assert_eq!(
        undocumented, 0,
        "disagreements outside the documented categories:\n{out}"
    );
    assert!(compared > 0, "no instance compared:\n{out}");
}
