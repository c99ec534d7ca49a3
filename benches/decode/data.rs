//! The workload: the jsonschemabench schemas and their valid instances,
//! each instance written compactly with its object keys in the schema's
//! `properties` order (the one order llguidance accepts; tooljson accepts
//! any), and the caps that keep a run short.

use serde_json::Value;

/// One jsonschemabench file.
pub struct Case {
    pub name: String,
    /// A function-calling schema (BFCL, Glaive, MCP, json-mode-eval), as the
    /// decode tests count them.
    pub tool_like: bool,
    pub schema: Value,
    /// The valid instances, compact, keys in `properties` order.
    pub instances: Vec<String>,
}

/// The tool-like subset, as `tests/decode_bench_data.rs` defines it.
pub fn tool_like(name: &str) -> bool {
    ["BFCL", "Glaiveai2K", "MCPspec", "JME"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// `rel` (a file or folder of the test data) in the first folder that has
/// it, searched as `testdata` in `tests/common/mod.rs` does:
/// `$TOOLJSON_TESTDATA` when set, the repository's `tests/data/`, then
/// `../shared/testdata` beside it (where the Llama 3.1 vocabulary, which the
/// repository does not carry, may be). Panics with a plain message when
/// none has it.
pub fn testdata(rel: &str) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut roots: Vec<std::path::PathBuf> = std::env::var_os("TOOLJSON_TESTDATA")
        .map(std::path::PathBuf::from)
        .into_iter()
        .collect();
    roots.push(root.join("tests/data"));
    roots.push(root.join("../shared/testdata"));
    roots
        .iter()
        .map(|r| r.join(rel))
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!(
                "{rel} not found in any of {roots:?}: set TOOLJSON_TESTDATA to a folder holding it"
            )
        })
}

/// A positive integer from the environment, else `default`.
pub fn env_cap(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(s) => s
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, got {s:?}")),
        Err(_) => default,
    }
}

/// The cases: at most `max_schemas` files, evenly spaced over the sorted
/// list (so a capped run keeps the mix of sources), and at most
/// `max_instances` valid instances each.
pub fn cases(max_schemas: usize, max_instances: usize) -> Vec<Case> {
    let dir = testdata("jsonschemabench/data");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 200,
        "expected the 206 jsonschemabench files in {}, found {}",
        dir.display(),
        names.len()
    );
    let total = names.len();
    let take = max_schemas.min(total);
    let picked: Vec<&String> = (0..take).map(|i| &names[i * total / take]).collect();
    picked
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(dir.join(name)).unwrap();
            let doc: Value =
                serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: not JSON: {e}"));
            let schema = doc["schema"].clone();
            let instances = doc["tests"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t["valid"] == Value::Bool(true))
                .take(max_instances)
                .map(|t| serde_json::to_string(&reorder(&schema, &schema, &t["data"])).unwrap())
                .collect();
            Case {
                name: name.trim_end_matches(".json").to_owned(),
                tool_like: tool_like(name),
                schema,
                instances,
            }
        })
        .collect()
}

/// How deep `$ref`s and combinators are followed when looking for a
/// subschema's properties.
const MAX_VIEW_DEPTH: usize = 8;

/// The subschemas that apply to an object value with `schema` (`$ref`
/// targets, `allOf` members; of `anyOf` / `oneOf` the branch that names
/// most of the value's keys) into `views`, and their property names into
/// `order` in llguidance's order: the schema's keywords in the order
/// written, a combinator's properties where the combinator stands, each
/// block's `required` names after its `properties`.
fn flatten<'a>(
    root: &'a Value,
    schema: &'a Value,
    keys: &serde_json::Map<String, Value>,
    depth: usize,
    order: &mut Vec<&'a str>,
    views: &mut Vec<&'a Value>,
) {
    let Some(obj) = schema.as_object() else {
        return;
    };
    if depth > MAX_VIEW_DEPTH {
        return;
    }
    views.push(schema);
    let push = |order: &mut Vec<&'a str>, k: &'a str| {
        if !order.contains(&k) {
            order.push(k);
        }
    };
    for (k, v) in obj {
        match k.as_str() {
            "properties" => {
                for p in v.as_object().into_iter().flatten().map(|(p, _)| p) {
                    push(order, p);
                }
            }
            "$ref" => {
                if let Some(target) = v.as_str().and_then(|r| resolve(root, r)) {
                    flatten(root, target, keys, depth + 1, order, views);
                }
            }
            "allOf" => {
                for sub in v.as_array().into_iter().flatten() {
                    flatten(root, sub, keys, depth + 1, order, views);
                }
            }
            "anyOf" | "oneOf" => {
                let mut best: Option<(usize, Vec<&'a str>, Vec<&'a Value>)> = None;
                for sub in v.as_array().into_iter().flatten() {
                    let (mut o, mut w) = (Vec::new(), Vec::new());
                    flatten(root, sub, keys, depth + 1, &mut o, &mut w);
                    let score = keys.keys().filter(|k| o.contains(&k.as_str())).count();
                    if best.as_ref().is_none_or(|b| score > b.0) {
                        best = Some((score, o, w));
                    }
                }
                if let Some((_, o, w)) = best {
                    for k in o {
                        push(order, k);
                    }
                    views.extend(w);
                }
            }
            _ => {}
        }
    }
    for r in obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(r) = r.as_str() {
            push(order, r);
        }
    }
}

/// `schema` and every subschema that applies to the same value with it,
/// for an array or scalar (every `anyOf` / `oneOf` branch).
fn views<'a>(root: &'a Value, schema: &'a Value, depth: usize, out: &mut Vec<&'a Value>) {
    if depth > MAX_VIEW_DEPTH || !schema.is_object() {
        return;
    }
    out.push(schema);
    if let Some(target) = schema["$ref"].as_str().and_then(|r| resolve(root, r)) {
        views(root, target, depth + 1, out);
    }
    for kw in ["allOf", "anyOf", "oneOf"] {
        for sub in schema[kw].as_array().into_iter().flatten() {
            views(root, sub, depth + 1, out);
        }
    }
}

/// A local `$ref` (`#/...` JSON pointer).
fn resolve<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    let pointer = r.strip_prefix('#')?;
    let pointer = pointer.replace("%25", "%");
    root.pointer(&pointer)
}

/// `v` with each object's keys in the order llguidance writes them (see
/// [`flatten`]), other keys after them in their own order; arrays follow
/// `items` / `prefixItems`.
fn reorder(root: &Value, schema: &Value, v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let (mut order, mut vs) = (Vec::new(), Vec::new());
            flatten(root, schema, m, 0, &mut order, &mut vs);
            let rank = |k: &str| order.iter().position(|o| *o == k).unwrap_or(order.len());
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by_key(|k| rank(k));
            let mut out = serde_json::Map::new();
            for k in keys {
                let sub = vs
                    .iter()
                    .find_map(|s| s["properties"].get(k.as_str()))
                    .or_else(|| {
                        vs.iter()
                            .find_map(|s| s.get("additionalProperties").filter(|a| a.is_object()))
                    })
                    .unwrap_or(&Value::Null);
                out.insert(k.clone(), reorder(root, sub, &m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => {
            let mut vs = Vec::new();
            views(root, schema, 0, &mut vs);
            Value::Array(
                a.iter()
                    .enumerate()
                    .map(|(i, x)| {
                        let sub = vs
                            .iter()
                            .find_map(|s| {
                                s["prefixItems"]
                                    .get(i)
                                    .or_else(|| s["items"].get(i))
                                    .or_else(|| s.get("items").filter(|it| it.is_object()))
                            })
                            .unwrap_or(&Value::Null);
                        reorder(root, sub, x)
                    })
                    .collect(),
            )
        }
        other => other.clone(),
    }
}
