//! `validate_json` / `is_valid_json` (a `serde_json::Value` read where it
//! lies) against `validate` / `is_valid` of the same tree converted to a
//! `tooljson::Value`: the same verdict and the same violations, in the same
//! order, on every case of JSON-Schema-Test-Suite (draft 2020-12 and
//! draft-07, `remotes/` registered, formats asserted) and on instances
//! generated for schemas of every keyword.

use crate::common;

use std::path::Path as FsPath;

use proptest::prelude::*;
use serde_json::json;
use tooljson::{CompiledSchema, Draft, Value};

fn read(path: &FsPath) -> Option<serde_json::Value> {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_slice(&bytes).ok()
}

/// Both ways must agree on `instance`; returns whether it was valid.
fn agree(schema: &CompiledSchema, instance: &serde_json::Value, what: &str) -> bool {
    let converted = Value::from(instance);
    let own = schema.validate(&converted);
    let read_in_place = schema.validate_json(instance);
    assert_eq!(
        own, read_in_place,
        "{what}: validate and validate_json differ on {instance}"
    );
    assert_eq!(
        schema.is_valid(&converted),
        schema.is_valid_json(instance),
        "{what}: is_valid and is_valid_json differ on {instance}"
    );
    assert_eq!(
        own.is_ok(),
        schema.is_valid_json(instance),
        "{what}: verdicts differ"
    );
    own.is_ok()
}

#[test]
fn the_suite_gives_the_same_violations_both_ways() {
    let suite = common::testdata("JSON-Schema-Test-Suite");
    let mut remote_files = Vec::new();
    common::walk(&suite.join("remotes"), "", &mut remote_files);
    let (mut cases, mut invalid, mut unreadable, mut refused) = (0usize, 0usize, 0usize, 0usize);
    for (folder, draft) in [
        ("draft2020-12", Draft::Draft202012),
        ("draft7", Draft::Draft7),
    ] {
        let mut b = CompiledSchema::builder().draft(draft).assert_formats(true);
        for (rel, p) in &remote_files {
            let other_draft = [
                "draft3/",
                "draft4/",
                "draft6/",
                "draft7/",
                "draft2019-09/",
                "draft2020-12/",
                "v1/",
            ]
            .iter()
            .any(|d| rel.starts_with(d));
            if (!other_draft || rel.starts_with(&format!("{folder}/")))
                && let Some(doc) = read(p)
            {
                b = b.resource(format!("http://localhost:1234/{rel}"), doc);
            }
        }
        let mut files = Vec::new();
        common::walk(&suite.join("tests").join(folder), "", &mut files);
        for (rel, path) in files {
            let Some(groups) = read(&path) else {
                // serde_json refuses numbers past f64 (`float-overflow`).
                println!("{folder}/{rel}: not readable by serde_json, not run");
                unreadable += 1;
                continue;
            };
            for group in groups.as_array().into_iter().flatten() {
                let Ok(schema) = b.build(&group["schema"]) else {
                    refused += 1;
                    continue;
                };
                for case in group["tests"].as_array().into_iter().flatten() {
                    let what = format!(
                        "{folder}/{rel}: {} / {}",
                        group["description"], case["description"]
                    );
                    if !agree(&schema, &case["data"], &what) {
                        invalid += 1;
                    }
                    cases += 1;
                }
            }
        }
    }
    println!(
        "{cases} cases ({invalid} invalid), {refused} groups refused, {unreadable} files unread"
    );
    assert!(
        cases > 1500 && invalid > 500,
        "too few cases ran: {cases} ({invalid} invalid)"
    );
    assert!(unreadable <= 2, "{unreadable} files unread");
}

/// Schemas of every keyword family.
fn schemas() -> Vec<CompiledSchema> {
    [
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 2, "multipleOf": 2}, "b": {"enum": ["x", 1.5, null, [1]]}}, "required": ["a"], "additionalProperties": {"type": "string", "maxLength": 3}}),
        json!({"type": "array", "prefixItems": [{"const": 1}], "items": {"anyOf": [{"type": "string", "pattern": "^a+$"}, {"type": "number", "exclusiveMaximum": 10}]}, "uniqueItems": true, "contains": {"type": "boolean"}, "minContains": 1, "maxItems": 12}),
        json!({"oneOf": [{"type": "object", "propertyNames": {"maxLength": 2}}, {"type": "array", "unevaluatedItems": false, "prefixItems": [true]}, {"not": {"type": "null"}}]}),
        json!({"$defs": {"n": {"anyOf": [{"$ref": "#/$defs/t"}, {"$ref": "#/$defs/t"}]}, "t": {"type": ["object", "integer"], "properties": {"a": {"$ref": "#/$defs/n"}}, "dependentRequired": {"a": ["b"]}}}, "$ref": "#/$defs/n"}),
        json!({"if": {"type": "object", "minProperties": 2}, "then": {"unevaluatedProperties": {"type": "integer"}, "properties": {"k": true}}, "else": {"maxProperties": 1, "patternProperties": {"^x": {"format": "date"}}}}),
    ]
    .iter()
    .map(|s| CompiledSchema::builder().assert_formats(true).build(s).unwrap())
    .collect()
}

fn instance() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        (-20i64..20).prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(serde_json::Value::from),
        (-40i32..40).prop_map(|i| serde_json::Value::from(f64::from(i) / 4.0)),
        "[ax]{0,5}".prop_map(serde_json::Value::from),
        Just(json!("2024-02-29")),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            proptest::collection::vec(("[abkx]{1,3}", inner), 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn generated_instances_give_the_same_violations_both_ways(v in instance()) {
        for (i, s) in schemas().iter().enumerate() {
            agree(s, &v, &format!("schema {i}"));
        }
    }
}
