//! The tool members of Gemini and Bedrock requests: Gemini
//! `toolConfig.functionCallingConfig` (`mode`, `allowedFunctionNames`) and
//! Bedrock `toolConfig.toolChoice`, read into [`ToolChoice`] and written
//! back.

use serde_json::{Map, Value};

use super::Vendor;
use super::choice::{ReadChoice, ToolChoice};
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};

/// Reads a Gemini `functionCallingConfig` object.
///
/// `AUTO` (or no mode, or `MODE_UNSPECIFIED`) is auto; `NONE` is none;
/// `ANY` is any, a named tool with one allowed name, or any restricted to
/// the names with several; `VALIDATED` is auto with the `validated` mark
/// (and its names, if any, as the restriction).
pub(crate) fn read_gemini_choice(
    o: &Map<String, Value>,
    at: &str,
) -> Result<ReadChoice, ProtocolError> {
    let mode = match o.get("mode") {
        None | Some(Value::Null) => "AUTO".to_owned(),
        Some(Value::String(m)) => m.to_ascii_uppercase(),
        Some(other) => {
            return Err(ProtocolError::WrongType {
                at: ptr(at, "mode"),
                expected: "a string",
                found: json_type(other),
            });
        }
    };
    let names = match o.get("allowedFunctionNames") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => {
            let mut names = Vec::with_capacity(a.len());
            for (i, n) in a.iter().enumerate() {
                match n {
                    Value::String(s) => names.push(s.clone()),
                    other => {
                        return Err(ProtocolError::WrongType {
                            at: ptr_i(&ptr(at, "allowedFunctionNames"), i),
                            expected: "a string",
                            found: json_type(other),
                        });
                    }
                }
            }
            Some(names)
        }
        Some(other) => {
            return Err(ProtocolError::WrongType {
                at: ptr(at, "allowedFunctionNames"),
                expected: "an array of names",
                found: json_type(other),
            });
        }
    };
    let names = names.filter(|n| !n.is_empty());
    let (choice, allowed, validated) = match (mode.as_str(), names) {
        ("AUTO" | "MODE_UNSPECIFIED", None) => (ToolChoice::Auto, None, false),
        ("NONE", None) => (ToolChoice::None, None, false),
        ("ANY", None) => (ToolChoice::Any, None, false),
        ("ANY", Some(n)) if n.len() == 1 => (ToolChoice::Tool(n[0].clone()), None, false),
        ("ANY", Some(n)) => (ToolChoice::Any, Some(n), false),
        ("VALIDATED", n) => (ToolChoice::Auto, n, true),
        (m, Some(_)) if m != "ANY" => {
            return Err(ProtocolError::UnknownShape {
                at: ptr(at, "allowedFunctionNames"),
                expected: "allowedFunctionNames only with mode ANY or VALIDATED",
                found: format!("mode {m}"),
            });
        }
        _ => {
            return Err(ProtocolError::UnknownShape {
                at: ptr(at, "mode"),
                expected: "a mode: AUTO, ANY, NONE or VALIDATED",
                found: short(o.get("mode").unwrap_or(&Value::Null)),
            });
        }
    };
    Ok(ReadChoice {
        choice,
        parallel: None,
        vendor: Some(Vendor::Gemini),
        allowed,
        validated,
    })
}

/// Reads a Bedrock `toolChoice`: `{"auto":{}}`, `{"any":{}}` or
/// `{"tool":{"name"}}`.
pub(crate) fn read_bedrock_choice(
    o: &Map<String, Value>,
    at: &str,
) -> Result<ToolChoice, ProtocolError> {
    let unknown = || ProtocolError::UnknownShape {
        at: at.to_owned(),
        expected: "a Bedrock toolChoice: {\"auto\":{}}, {\"any\":{}} or {\"tool\":{\"name\"}}",
        found: short(&Value::Object(o.clone())),
    };
    let mut members = o.iter();
    let (Some((key, inner)), None) = (members.next(), members.next()) else {
        return Err(unknown());
    };
    if !matches!(key.as_str(), "auto" | "any" | "tool") {
        return Err(unknown());
    }
    let Value::Object(inner) = inner else {
        return Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "an object",
            found: json_type(inner),
        });
    };
    match key.as_str() {
        "auto" if inner.is_empty() => Ok(ToolChoice::Auto),
        "any" if inner.is_empty() => Ok(ToolChoice::Any),
        "tool" => match inner.get("name") {
            Some(Value::String(n)) if inner.len() == 1 => Ok(ToolChoice::Tool(n.clone())),
            Some(Value::String(_)) => Err(unknown()),
            Some(other) => Err(ProtocolError::WrongType {
                at: ptr(&ptr(at, "tool"), "name"),
                expected: "a string",
                found: json_type(other),
            }),
            None => Err(ProtocolError::MissingField {
                at: ptr(at, "tool"),
                field: "name",
            }),
        },
        _ => Err(unknown()),
    }
}

/// The Gemini `functionCallingConfig` for a posture (`allowed`: the names
/// `ANY` is restricted to, when more than one).
pub(crate) fn gemini_choice(choice: &ToolChoice, allowed: Option<&[String]>) -> Value {
    let s = |t: &str| Value::String(t.to_owned());
    let mut o = Map::new();
    let mode = match choice {
        ToolChoice::Auto => "AUTO",
        ToolChoice::Any | ToolChoice::Tool(_) => "ANY",
        ToolChoice::None => "NONE",
    };
    o.insert("mode".to_owned(), s(mode));
    let names: Option<Vec<Value>> = match (choice, allowed) {
        (ToolChoice::Tool(n), _) => Some(vec![s(n)]),
        (ToolChoice::Any, Some(a)) => Some(a.iter().map(|n| s(n)).collect()),
        _ => None,
    };
    if let Some(names) = names {
        o.insert("allowedFunctionNames".to_owned(), Value::Array(names));
    }
    Value::Object(o)
}

/// The Bedrock `toolChoice` for a posture; `None` for [`ToolChoice::None`],
/// which Bedrock cannot say.
pub(crate) fn bedrock_choice(choice: &ToolChoice) -> Option<Value> {
    let mut o = Map::new();
    match choice {
        ToolChoice::Auto => o.insert("auto".to_owned(), Value::Object(Map::new())),
        ToolChoice::Any => o.insert("any".to_owned(), Value::Object(Map::new())),
        ToolChoice::Tool(n) => {
            let mut name = Map::new();
            name.insert("name".to_owned(), Value::String(n.clone()));
            o.insert("tool".to_owned(), Value::Object(name))
        }
        ToolChoice::None => return None,
    };
    Some(Value::Object(o))
}

/// A Gemini `toolConfig` as read, written back verbatim for Gemini while
/// the posture is unchanged. `lost` lists what no other vendor has (as
/// pointer, part, why): `VALIDATED`, and members beside `mode` and
/// `allowedFunctionNames` (`streamFunctionCallArguments`, `retrievalConfig`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Native {
    pub(crate) json: Value,
    pub(crate) choice: ToolChoice,
    pub(crate) allowed: Option<Vec<String>>,
    pub(crate) lost: Vec<(String, String, String)>,
}

impl Native {
    pub(crate) fn gemini(tool_config: &Value, read: Option<&ReadChoice>) -> Native {
        let mut lost = Vec::new();
        let base = "/toolConfig";
        if let Value::Object(tc) = tool_config {
            for (k, v) in tc {
                if k == "functionCallingConfig" {
                    for k in v.as_object().into_iter().flat_map(|f| f.keys()) {
                        if k != "mode" && k != "allowedFunctionNames" {
                            lost.push((
                                ptr(&ptr(base, "functionCallingConfig"), k),
                                k.clone(),
                                "a Gemini functionCallingConfig member with no counterpart; left out"
                                    .to_owned(),
                            ));
                        }
                    }
                } else {
                    lost.push((
                        ptr(base, k),
                        k.clone(),
                        "a Gemini toolConfig member with no counterpart; left out".to_owned(),
                    ));
                }
            }
        }
        if read.is_some_and(|r| r.validated) {
            lost.push((
                format!("{base}/functionCallingConfig/mode"),
                "mode".to_owned(),
                "Gemini's VALIDATED mode (calls held to the schema, or text) has no counterpart; written as auto".to_owned(),
            ));
        }
        Native {
            json: tool_config.clone(),
            choice: read.map(|r| r.choice.clone()).unwrap_or_default(),
            allowed: read.and_then(|r| r.allowed.clone()),
            lost,
        }
    }
}
