//! `tool_choice`: the four postures and their JSON in the five vendor
//! shapes (Gemini `functionCallingConfig`, Bedrock `toolChoice` included).

use crate::value::{Map, Value};

use super::Vendor;
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};
use super::loss::{Converted, Loss};

/// How the model may use the tools: the four postures all vendors have
/// (Bedrock has no `none`).
///
/// | posture | Anthropic | OpenAI Chat | OpenAI Responses | Gemini `functionCallingConfig` | Bedrock `toolChoice` |
/// |---|---|---|---|---|---|
/// | [`Auto`](Self::Auto) | `{"type":"auto"}` | `"auto"` | `"auto"` | `{"mode":"AUTO"}` | `{"auto":{}}` |
/// | [`Any`](Self::Any) | `{"type":"any"}` | `"required"` | `"required"` | `{"mode":"ANY"}` | `{"any":{}}` |
/// | [`Tool`](Self::Tool) | `{"type":"tool","name":"x"}` | `{"type":"function","function":{"name":"x"}}` | `{"type":"function","name":"x"}` | `{"mode":"ANY","allowedFunctionNames":["x"]}` | `{"tool":{"name":"x"}}` |
/// | [`None`](Self::None) | `{"type":"none"}` | `"none"` | `"none"` | `{"mode":"NONE"}` | none: a [`Loss`] (see [`ToolSet::to_request_json`](super::ToolSet::to_request_json)) |
///
/// Parallel calls are a separate flag ([`ToolSet::parallel_tool_calls`](super::ToolSet::parallel_tool_calls)):
/// Anthropic puts it inside `tool_choice` as `disable_parallel_tool_use`,
/// OpenAI beside it as `parallel_tool_calls`; Gemini and Bedrock have no
/// such switch, so a flag written for them is a [`Loss`].
///
/// Gemini's `VALIDATED` mode and `ANY` with several `allowedFunctionNames`
/// have no posture here: read them with [`ToolSet`](super::ToolSet), which keeps them.
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{ToolChoice, Vendor};
/// let (choice, parallel) = ToolChoice::from_vendor_json(&json!({"type": "any", "disable_parallel_tool_use": true}))?;
/// assert_eq!(choice, ToolChoice::Any);
/// assert_eq!(parallel, Some(false));
/// assert_eq!(choice.to_vendor(Vendor::OpenAiChat, None).lossless()?, Some(json!("required")));
/// assert_eq!(choice.to_vendor(Vendor::Bedrock, None).lossless()?, Some(json!({"any": {}})));
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ToolChoice {
    /// The model decides whether to call tools (the default of every vendor).
    #[default]
    Auto,
    /// The model must call at least one tool (Anthropic `any`, OpenAI `required`).
    Any,
    /// The model must call this tool.
    Tool(String),
    /// The model must not call tools.
    None,
}

/// A `tool_choice` as read: posture, parallel flag, the shape it had, and
/// for Gemini the names `ANY` allows and whether the mode was `VALIDATED`.
pub(crate) struct ReadChoice {
    pub(crate) choice: ToolChoice,
    pub(crate) parallel: Option<bool>,
    pub(crate) vendor: Option<Vendor>,
    pub(crate) allowed: Option<Vec<String>>,
    pub(crate) validated: bool,
}

impl ToolChoice {
    /// Reads a `tool_choice` of any vendor: Anthropic's object, OpenAI's
    /// string or function object, Gemini's `functionCallingConfig` object or
    /// Bedrock's `toolChoice` object. Returns the posture and, for
    /// Anthropic, the parallel flag from `disable_parallel_tool_use`
    /// (`Some(false)` when parallel calls are disabled).
    ///
    /// A Gemini `VALIDATED` mode, or `ANY` with several
    /// `allowedFunctionNames`, is [`ProtocolError::UnknownShape`] here: no
    /// posture says it (read the request with [`ToolSet`](super::ToolSet)).
    pub fn from_vendor_json(v: &Value) -> Result<(ToolChoice, Option<bool>), ProtocolError> {
        let r = Self::from_vendor_json_at(v, "")?;
        if r.validated || r.allowed.is_some() {
            return Err(ProtocolError::UnknownShape {
                at: String::new(),
                expected: "a tool_choice posture (Gemini VALIDATED and several allowedFunctionNames are read by ToolSet)",
                found: short(v),
            });
        }
        Ok((r.choice, r.parallel))
    }

    pub(crate) fn from_vendor_json_at(v: &Value, at: &str) -> Result<ReadChoice, ProtocolError> {
        let unknown = || ProtocolError::UnknownShape {
            at: at.to_owned(),
            expected: "a tool_choice: auto, any/required, a named tool or none",
            found: short(v),
        };
        let plain = |choice, parallel, vendor| ReadChoice {
            choice,
            parallel,
            vendor,
            allowed: None,
            validated: false,
        };
        match v {
            Value::String(s) => match s.as_str() {
                "auto" => Ok(plain(ToolChoice::Auto, None, None)),
                "required" => Ok(plain(ToolChoice::Any, None, None)),
                "none" => Ok(plain(ToolChoice::None, None, None)),
                _ => Err(unknown()),
            },
            Value::Object(o) if o.get("type").is_none() => {
                if o.contains_key("mode") || o.contains_key("allowedFunctionNames") {
                    read_gemini_choice(o, at)
                } else {
                    read_bedrock_choice(o, at)
                        .map(|choice| plain(choice, None, Some(Vendor::Bedrock)))
                }
            }
            Value::Object(o) => {
                let ty = o.get("type").and_then(Value::as_str).ok_or_else(unknown)?;
                let parallel = match o.get("disable_parallel_tool_use") {
                    None => None,
                    Some(Value::Bool(b)) => Some(!*b),
                    Some(other) => {
                        return Err(ProtocolError::WrongType {
                            at: ptr(at, "disable_parallel_tool_use"),
                            expected: "a boolean",
                            found: json_type(other),
                        });
                    }
                };
                let a = Some(Vendor::Anthropic);
                match ty {
                    "auto" => Ok(plain(ToolChoice::Auto, parallel, a)),
                    "any" => Ok(plain(ToolChoice::Any, parallel, a)),
                    "none" => Ok(plain(ToolChoice::None, parallel, a)),
                    "tool" => Ok(plain(
                        ToolChoice::Tool(name_at(o, at.to_owned())?),
                        parallel,
                        a,
                    )),
                    "function" => match o.get("function") {
                        Some(Value::Object(f)) => Ok(plain(
                            ToolChoice::Tool(name_at(f, ptr(at, "function"))?),
                            None,
                            Some(Vendor::OpenAiChat),
                        )),
                        Some(other) => Err(ProtocolError::WrongType {
                            at: ptr(at, "function"),
                            expected: "an object",
                            found: json_type(other),
                        }),
                        None => Ok(plain(
                            ToolChoice::Tool(name_at(o, at.to_owned())?),
                            None,
                            Some(Vendor::OpenAiResponses),
                        )),
                    },
                    _ => Err(unknown()),
                }
            }
            _ => Err(unknown()),
        }
    }

    /// The `tool_choice` JSON for `vendor` (Gemini: the
    /// `functionCallingConfig` object; Bedrock: the `toolChoice` object), or
    /// `None` where the vendor has no member for it (Bedrock `none`, a
    /// [`Loss`]). `parallel` is written for Anthropic as
    /// `disable_parallel_tool_use: !parallel`; OpenAI carries it beside
    /// `tool_choice` (see [`ToolSet::to_request_json`](super::ToolSet::to_request_json)); for Gemini and
    /// Bedrock a `Some` is a [`Loss`]. Loss pointers are relative to the
    /// choice (`""`).
    pub fn to_vendor(&self, vendor: Vendor, parallel: Option<bool>) -> Converted<Option<Value>> {
        let (value, lost) = choice_json(self, vendor, parallel, None);
        let losses = lost
            .into_iter()
            .map(|(part, why)| {
                if part == "allowedFunctionNames" {
                    Loss::changed("", part, why)
                } else {
                    Loss::dropped("", part, why)
                }
            })
            .collect();
        Converted::new(value, losses)
    }
}

fn name_at(obj: &Map, at: String) -> Result<String, ProtocolError> {
    match obj.get("name") {
        Some(Value::String(n)) => Ok(n.clone()),
        Some(other) => Err(ProtocolError::WrongType {
            at: ptr(&at, "name"),
            expected: "a string",
            found: json_type(other),
        }),
        None => Err(ProtocolError::MissingField { at, field: "name" }),
    }
}

/// The choice's JSON for `vendor` and what it could not say (part, why).
/// `allowed`: Gemini's names for `ANY` beyond one.
pub(crate) fn choice_json(
    choice: &ToolChoice,
    vendor: Vendor,
    parallel: Option<bool>,
    allowed: Option<&[String]>,
) -> (Option<Value>, Vec<(&'static str, String)>) {
    let mut lost = Vec::new();
    if let (Some(names), false) = (allowed, vendor == Vendor::Gemini) {
        lost.push((
            "allowedFunctionNames",
            format!("{vendor} cannot restrict the required call to {names:?}; written as any tool"),
        ));
    }
    if parallel.is_some() && matches!(vendor, Vendor::Gemini | Vendor::Bedrock) {
        lost.push((
            "parallel_tool_calls",
            format!("{vendor} has no switch for parallel calls; left out (it allows them)"),
        ));
    }
    let value = match vendor {
        Vendor::Anthropic => {
            let mut o = Map::new();
            let ty = match choice {
                ToolChoice::Auto => "auto",
                ToolChoice::Any => "any",
                ToolChoice::Tool(_) => "tool",
                ToolChoice::None => "none",
            };
            o.insert("type".to_owned(), Value::from(ty));
            if let ToolChoice::Tool(n) = choice {
                o.insert("name".to_owned(), Value::from(n));
            }
            if let Some(p) = parallel {
                o.insert("disable_parallel_tool_use".to_owned(), Value::Bool(!p));
            }
            Some(Value::Object(o))
        }
        Vendor::Gemini => Some(gemini_choice(choice, allowed)),
        Vendor::Bedrock => {
            let v = bedrock_choice(choice);
            if v.is_none() {
                lost.push((
                    "tool_choice",
                    "Bedrock has no \"none\" choice; left out".to_owned(),
                ));
            }
            v
        }
        Vendor::OpenAiChat | Vendor::OpenAiResponses => Some(match choice {
            ToolChoice::Auto => Value::from("auto"),
            ToolChoice::Any => Value::from("required"),
            ToolChoice::None => Value::from("none"),
            ToolChoice::Tool(n) => {
                let mut name = Map::new();
                name.insert("name".to_owned(), Value::from(n));
                let mut o = Map::new();
                o.insert("type".to_owned(), Value::from("function"));
                if vendor == Vendor::OpenAiChat {
                    o.insert("function".to_owned(), Value::Object(name));
                } else {
                    o.extend(name);
                }
                Value::Object(o)
            }
        }),
    };
    (value, lost)
}

/// Reads a Gemini `functionCallingConfig` object.
///
/// `AUTO` (or no mode, or `MODE_UNSPECIFIED`) is auto; `NONE` is none;
/// `ANY` is any, a named tool with one allowed name, or any restricted to
/// the names with several; `VALIDATED` is auto with the `validated` mark
/// (and its names, if any, as the restriction).
pub(crate) fn read_gemini_choice(o: &Map, at: &str) -> Result<ReadChoice, ProtocolError> {
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
pub(crate) fn read_bedrock_choice(o: &Map, at: &str) -> Result<ToolChoice, ProtocolError> {
    let unknown = || ProtocolError::UnknownShape {
        at: at.to_owned(),
        expected: "a Bedrock toolChoice: {\"auto\":{}}, {\"any\":{}} or {\"tool\":{\"name\"}}",
        found: short(&Value::Object(o.clone())),
    };
    let mut members = o.iter();
    let (Some((key, inner)), None) = (members.next(), members.next()) else {
        return Err(unknown());
    };
    if !matches!(key, "auto" | "any" | "tool") {
        return Err(unknown());
    }
    let Value::Object(inner) = inner else {
        return Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "an object",
            found: json_type(inner),
        });
    };
    match key {
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
    let mut o = Map::new();
    let mode = match choice {
        ToolChoice::Auto => "AUTO",
        ToolChoice::Any | ToolChoice::Tool(_) => "ANY",
        ToolChoice::None => "NONE",
    };
    o.insert("mode".to_owned(), Value::from(mode));
    let names: Option<Vec<Value>> = match (choice, allowed) {
        (ToolChoice::Tool(n), _) => Some(vec![Value::from(n)]),
        (ToolChoice::Any, Some(a)) => Some(a.iter().map(Value::from).collect()),
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
