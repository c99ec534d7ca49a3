//! Gemini's schema subset (`functionDeclarations[].parameters`, an OpenAPI
//! 3.0 `Schema` object) to and from the JSON Schema every other vendor takes.
//!
//! Gemini also takes plain JSON Schema in `parametersJsonSchema`; this file
//! is for `parameters`, which every Gemini model and endpoint accepts.
//!
//! # What is mapped
//!
//! Read (`parameters` to JSON Schema) is exact for the subset:
//!
//! | Gemini `parameters` | JSON Schema |
//! |---|---|
//! | `type: "STRING"` (any case) | `type: "string"` (likewise `NUMBER`, `INTEGER`, `BOOLEAN`, `ARRAY`, `OBJECT`, `NULL`); `TYPE_UNSPECIFIED` is left out |
//! | `nullable: true` beside a `type` | `type: [t, "null"]`, and `null` added to an `enum` |
//! | `nullable: false`, or `nullable` without `type` | left out (no `type` already allows `null`) |
//! | `properties`, `items`, `anyOf` | the same, each subschema mapped |
//! | every other member (`format`, `enum`, `required`, `minItems`, `pattern`, `example`, `propertyOrdering`, ...) | the same member |
//!
//! Write (JSON Schema to `parameters`) carries what the subset can say and
//! reports every other keyword as a [`Loss`] at its pointer:
//!
//! | JSON Schema | Gemini `parameters` |
//! |---|---|
//! | `type: "string"` ... | `type: "string"` ... (lower case, as the Gemini documentation's REST examples write it; the API reads either case) |
//! | `type: [t, "null"]` | `type: t, nullable: true` |
//! | `type: [a, b, ...]` (two or more besides `null`) | `anyOf: [{type: a}, {type: b}, ...]` (lost when `anyOf` is also given) |
//! | `const: "x"` (a string) | `enum: ["x"]` |
//! | `const` of another type | lost (Gemini enums hold strings only) |
//! | `enum` of strings (and `null`) | `enum` of the strings (and `nullable: true`) |
//! | `enum` with a number, boolean, array or object | lost |
//! | `format` | kept for `date-time` and `enum` on strings, `float` / `double` on numbers, `int32` / `int64` on integers (the formats Gemini documents); any other is lost |
//! | `additionalProperties: true` or `{}` | left out (the default) |
//! | `additionalProperties: false` or a schema | lost (Gemini cannot forbid or constrain extra members) |
//! | `$ref` to `#/$defs/...` or `#/definitions/...` | the target inlined (so `$defs` / `definitions` are left out); a recursive `$ref`, or one that is not local, is lost |
//! | `anyOf` | `anyOf`, each subschema mapped |
//! | `oneOf` | lost (written as nothing: `anyOf` would drop the "exactly one") |
//! | `title`, `description`, `default`, `example`, `required`, `properties`, `items` (one schema), `minItems`, `maxItems`, `minProperties`, `maxProperties`, `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `propertyOrdering`, `nullable` | the same |
//! | `$schema`, `$comment` | left out (they constrain nothing) |
//! | anything else (`allOf`, `not`, `if`, `exclusiveMinimum`, `multipleOf`, `uniqueItems`, `prefixItems`, `patternProperties`, `examples`, `$id`, ...) | lost |
//!
//! A schema whose write is lossless *and* reads back to the same JSON is
//! written as `parameters` by [`GeminiSchema::Auto`]; any other goes
//! verbatim into `parametersJsonSchema`.
//!
//! Cost: one walk over the schema; an inlined `$ref` is walked again at each
//! use, bounded by [`MAX_INLINED_NODES`] schema objects written in all (past
//! it, the `$ref` is reported lost instead of inlined).

use crate::value::{Map, Value};

use super::error::{ptr, ptr_i};
use super::loss::Loss;

/// The most schema objects one write may produce by inlining `$ref`s.
pub const MAX_INLINED_NODES: usize = 10_000;

/// Where a Gemini function declaration's schema goes.
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{GeminiSchema, ToolDefinition};
/// let def = ToolDefinition::new("f", None, json!({
///     "type": "object",
///     "properties": {"n": {"type": ["integer", "null"]}, "k": {"const": "x"}}
/// }))?;
/// // `const` reads back as `enum`, so Auto keeps the JSON Schema as it is.
/// assert!(def.to_gemini(GeminiSchema::Auto).lossless()?.get("parametersJsonSchema").is_some());
/// let sub = def.to_gemini(GeminiSchema::OpenApi).lossless()?;
/// assert_eq!(sub["parameters"], json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer", "nullable": true}, "k": {"enum": ["x"], "type": "string"}}
/// }));
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GeminiSchema {
    /// `parameters` when the schema maps to the subset exactly and back,
    /// else `parametersJsonSchema`: never a loss.
    #[default]
    Auto,
    /// Always `parameters` (the subset); what it cannot say is reported.
    OpenApi,
    /// Always `parametersJsonSchema`, verbatim.
    JsonSchema,
}

/// Gemini `parameters` (the OpenAPI subset) read as JSON Schema.
pub(crate) fn from_openapi(v: &Value) -> Value {
    let Value::Object(o) = v else {
        return v.clone();
    };
    let nullable = o.get("nullable") == Some(&Value::Bool(true));
    let typed = o
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| !t.eq_ignore_ascii_case("TYPE_UNSPECIFIED"));
    let mut out = Map::new();
    for (k, val) in o {
        match k {
            "type" => match val.as_str() {
                Some(t) if t.eq_ignore_ascii_case("TYPE_UNSPECIFIED") => {}
                Some(t) => {
                    let t = Value::String(t.to_ascii_lowercase());
                    let t = if nullable && t != "null" {
                        Value::Array(vec![t, Value::String("null".to_owned())])
                    } else {
                        t
                    };
                    out.insert(k.to_owned(), t);
                }
                None => {
                    out.insert(k.to_owned(), val.clone());
                }
            },
            "nullable" if val.is_boolean() => {}
            "enum" if nullable && typed => {
                let mut e = val.as_array().cloned().unwrap_or_default();
                if !e.contains(&Value::Null) {
                    e.push(Value::Null);
                }
                out.insert(k.to_owned(), Value::Array(e));
            }
            "properties" => {
                let props = match val {
                    Value::Object(p) => Value::Object(
                        p.iter()
                            .map(|(name, s)| (name.to_owned(), from_openapi(s)))
                            .collect(),
                    ),
                    other => other.clone(),
                };
                out.insert(k.to_owned(), props);
            }
            "items" => {
                out.insert(k.to_owned(), from_openapi(val));
            }
            "anyOf" => {
                let all = match val {
                    Value::Array(a) => Value::Array(a.iter().map(from_openapi).collect()),
                    other => other.clone(),
                };
                out.insert(k.to_owned(), all);
            }
            _ => {
                out.insert(k.to_owned(), val.clone());
            }
        }
    }
    Value::Object(out)
}

/// JSON Schema written as Gemini `parameters`, and what could not be said.
/// `at` is the schema's pointer in the source JSON (losses are under it).
pub(crate) fn to_openapi(schema: &Value, at: &str) -> (Value, Vec<Loss>) {
    let mut w = Writer {
        root: schema,
        losses: Vec::new(),
        refs: Vec::new(),
        nodes: 0,
    };
    let out = w.schema(schema, at);
    (out, w.losses)
}

/// Whether `schema` is written as `parameters` by [`GeminiSchema::Auto`]: the
/// write loses nothing and reads back to the same JSON, key order included.
pub(crate) fn fits_openapi(schema: &Value) -> Option<Value> {
    let (out, losses) = to_openapi(schema, "");
    let back = from_openapi(&out);
    (losses.is_empty() && same_json(&back, schema)).then_some(out)
}

/// Equal values with their object members in the same order.
pub(crate) fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_json(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        _ => a == b,
    }
}

struct Writer<'a> {
    root: &'a Value,
    losses: Vec<Loss>,
    /// The `$ref`s being inlined, innermost last (a repeat is recursion).
    refs: Vec<String>,
    nodes: usize,
}

/// What one schema object is being written as: its members so far,
/// whether `null` is allowed, and the types besides "null" when `type` is
/// an array of several.
#[derive(Default)]
struct NodeOut {
    out: Map,
    nullable: bool,
    types: Option<Vec<String>>,
}

const KEPT: &[&str] = &[
    "title",
    "description",
    "default",
    "example",
    "required",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "propertyOrdering",
    "nullable",
];

impl Writer<'_> {
    fn lose(&mut self, at: String, part: &str, why: impl Into<String>) {
        self.losses.push(Loss::dropped(at, part, why));
    }

    fn schema(&mut self, s: &Value, at: &str) -> Value {
        self.nodes += 1;
        let o = match s {
            Value::Object(o) => o,
            Value::Bool(true) => return Value::Object(Map::new()),
            other => {
                self.lose(
                    at.to_owned(),
                    "schema",
                    format!(
                        "{other} as a schema has no counterpart in Gemini's subset; written as {{}}"
                    ),
                );
                return Value::Object(Map::new());
            }
        };
        if let Some(r) = o.get("$ref") {
            return self.inline(o, r, at);
        }
        let mut node = NodeOut::default();
        for (k, v) in o {
            self.keyword(s, o, (k, v), at, &mut node);
        }
        self.close(node, at)
    }

    /// Writes keyword `k` of schema object `o` (`s`, at `at`) into `node`,
    /// or records why Gemini's subset cannot say it.
    fn keyword(
        &mut self,
        s: &Value,
        o: &Map,
        (k, v): (&str, &Value),
        at: &str,
        node: &mut NodeOut,
    ) {
        let kat = ptr(at, k);
        match k {
            "type" => self.type_keyword(v, kat, node),
            "const" => match v {
                Value::String(_) => {
                    node.out
                        .insert("enum".to_owned(), Value::Array(vec![v.clone()]));
                    if !o.contains_key("type") {
                        node.out
                            .insert("type".to_owned(), Value::String("string".to_owned()));
                    }
                }
                Value::Null => node.nullable = true,
                _ => self.lose(
                    kat,
                    k,
                    "Gemini's enum holds strings only; the constant is left out",
                ),
            },
            "enum" => match v {
                Value::Array(e)
                    if e.iter().all(|x| x.is_string() || x.is_null())
                        && e.iter().any(Value::is_string) =>
                {
                    if e.contains(&Value::Null) {
                        node.nullable = true;
                    }
                    let strings = e.iter().filter(|x| x.is_string()).cloned().collect();
                    node.out.insert(k.to_owned(), Value::Array(strings));
                }
                _ => self.lose(
                    kat,
                    k,
                    "Gemini's enum holds strings only; the enum is left out",
                ),
            },
            "format" => {
                let ty = o.get("type").and_then(Value::as_str).unwrap_or("");
                let ok = matches!(
                    (ty, v.as_str().unwrap_or("")),
                    ("string", "date-time" | "enum")
                        | ("number", "float" | "double")
                        | ("integer", "int32" | "int64")
                );
                if ok {
                    node.out.insert(k.to_owned(), v.clone());
                } else {
                    self.lose(
                        kat,
                        k,
                        format!(
                            "Gemini documents no format {v} for type {ty:?}; the format is left out"
                        ),
                    );
                }
            }
            "additionalProperties" => match v {
                Value::Bool(true) => {}
                Value::Object(m) if m.is_empty() => {}
                _ => self.lose(
                    kat,
                    k,
                    "Gemini's subset cannot forbid or constrain extra members; left out",
                ),
            },
            "properties" | "items" | "anyOf" => self.subschemas(k, v, kat, node),
            "$schema" | "$comment" => {}
            "$defs" | "definitions" if std::ptr::eq(s, self.root) => {
                // Their targets are inlined where referenced.
            }
            key if KEPT.contains(&key) => {
                node.out.insert(k.to_owned(), v.clone());
            }
            _ => self.lose(
                kat,
                k,
                "Gemini's schema subset has no such keyword; left out",
            ),
        }
    }

    /// `type`: a name in lower case; an array with `null` is `nullable`,
    /// and several other names wait for [`Writer::close`].
    fn type_keyword(&mut self, v: &Value, kat: String, node: &mut NodeOut) {
        let k = "type";
        match v {
            Value::String(t) => {
                node.out
                    .insert(k.to_owned(), Value::String(t.to_ascii_lowercase()));
            }
            Value::Array(ts) if ts.iter().all(Value::is_string) => {
                let mut rest: Vec<String> = Vec::new();
                for t in ts.iter().filter_map(Value::as_str) {
                    if t == "null" {
                        node.nullable = true;
                    } else {
                        rest.push(t.to_ascii_lowercase());
                    }
                }
                match rest.as_slice() {
                    [] => {
                        node.out
                            .insert(k.to_owned(), Value::String("null".to_owned()));
                        node.nullable = false;
                    }
                    [one] => {
                        node.out.insert(k.to_owned(), Value::String(one.clone()));
                    }
                    _ => node.types = Some(rest),
                }
            }
            other => self.lose(kat, k, format!("a type of {other} is not a type name")),
        }
    }

    /// `properties`, `items` and `anyOf`: each subschema written in turn.
    fn subschemas(&mut self, k: &str, v: &Value, kat: String, node: &mut NodeOut) {
        match (k, v) {
            ("properties", Value::Object(p)) => {
                let mut props = Map::new();
                for (name, sub) in p {
                    let sub = self.schema(sub, &ptr(&kat, name));
                    props.insert(name.to_owned(), sub);
                }
                node.out.insert(k.to_owned(), Value::Object(props));
            }
            ("properties", _) => self.lose(kat, k, "properties is not an object"),
            ("items", Value::Object(_) | Value::Bool(true)) => {
                let sub = self.schema(v, &kat);
                node.out.insert(k.to_owned(), sub);
            }
            ("items", _) => self.lose(
                kat,
                k,
                "Gemini's items is one schema; this form is left out",
            ),
            (_, Value::Array(a)) => {
                let subs = a
                    .iter()
                    .enumerate()
                    .map(|(i, sub)| self.schema(sub, &ptr_i(&kat, i)))
                    .collect();
                node.out.insert(k.to_owned(), Value::Array(subs));
            }
            _ => self.lose(kat, k, "anyOf is not an array"),
        }
    }

    /// The schema object once every keyword is written: several types
    /// become an `anyOf` of one type each, and `nullable` is set last.
    fn close(&mut self, node: NodeOut, at: &str) -> Value {
        let NodeOut {
            mut out,
            nullable,
            types,
        } = node;
        if let Some(types) = types {
            if out.contains_key("anyOf") {
                self.lose(
                    ptr(at, "type"),
                    "type",
                    "several types and anyOf cannot both be said in Gemini's subset; the types are left out",
                );
            } else {
                let alts = types
                    .into_iter()
                    .map(|t| {
                        let mut m = Map::new();
                        m.insert("type".to_owned(), Value::String(t));
                        Value::Object(m)
                    })
                    .collect();
                out.insert("anyOf".to_owned(), Value::Array(alts));
            }
        }
        if nullable {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
        Value::Object(out)
    }

    fn inline(&mut self, o: &Map, r: &Value, at: &str) -> Value {
        let rat = ptr(at, "$ref");
        let target = r.as_str().and_then(|r| {
            let p = r.strip_prefix('#')?;
            (p.starts_with("/$defs/") || p.starts_with("/definitions/"))
                .then(|| self.root.pointer(p))
                .flatten()
                .map(|t| (r.to_owned(), t))
        });
        let Some((name, target)) = target else {
            self.lose(
                rat,
                "$ref",
                format!("{r} is not a local $defs / definitions reference; left out"),
            );
            return Value::Object(Map::new());
        };
        if self.refs.contains(&name) {
            self.lose(
                rat,
                "$ref",
                format!("{name} is recursive, which Gemini's subset cannot say; left out"),
            );
            return Value::Object(Map::new());
        }
        if self.nodes >= MAX_INLINED_NODES {
            self.lose(
                rat,
                "$ref",
                format!("inlining {name} passes {MAX_INLINED_NODES} schema objects; left out"),
            );
            return Value::Object(Map::new());
        }
        self.refs.push(name);
        let mut out = match self.schema(target, at) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        self.refs.pop();
        for (k, v) in o.iter().filter(|(k, _)| *k != "$ref") {
            if matches!(k, "description" | "title") {
                out.insert(k.to_owned(), v.clone());
            } else {
                self.lose(
                    ptr(at, k),
                    k,
                    "a keyword beside $ref is not merged into the inlined schema; left out",
                );
            }
        }
        Value::Object(out)
    }
}
