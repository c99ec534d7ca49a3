//! `tool_choice` (the four postures and the parallel-calls flag), the tool
//! set of a request, and the check that a turn's calls obeyed the choice.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::Vendor;
use super::definition::{Shape, ToolDefinition, classify};
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};

/// How the model may use the tools: the four postures all three vendors have.
///
/// | posture | Anthropic | OpenAI Chat | OpenAI Responses |
/// |---|---|---|---|
/// | [`Auto`](Self::Auto) | `{"type":"auto"}` | `"auto"` | `"auto"` |
/// | [`Any`](Self::Any) | `{"type":"any"}` | `"required"` | `"required"` |
/// | [`Tool`](Self::Tool) | `{"type":"tool","name":"x"}` | `{"type":"function","function":{"name":"x"}}` | `{"type":"function","name":"x"}` |
/// | [`None`](Self::None) | `{"type":"none"}` | `"none"` | `"none"` |
///
/// Parallel calls are a separate flag ([`ToolSet::parallel_tool_calls`]):
/// Anthropic puts it inside `tool_choice` as `disable_parallel_tool_use`,
/// OpenAI beside it as `parallel_tool_calls`.
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use tooljson::protocol::{ToolChoice, Vendor};
/// let (choice, parallel) = ToolChoice::from_vendor_json(&json!({"type": "any", "disable_parallel_tool_use": true}))?;
/// assert_eq!(choice, ToolChoice::Any);
/// assert_eq!(parallel, Some(false));
/// assert_eq!(choice.to_vendor(Vendor::OpenAiChat, None), json!("required"));
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

impl ToolChoice {
    /// Reads a `tool_choice` of any vendor. Returns the posture and, for
    /// Anthropic, the parallel flag from `disable_parallel_tool_use`
    /// (`Some(false)` when parallel calls are disabled).
    pub fn from_vendor_json(v: &Value) -> Result<(ToolChoice, Option<bool>), ProtocolError> {
        Self::from_vendor_json_at(v, "").map(|(c, p, _)| (c, p))
    }

    /// Also says which vendor's shape it was (`None` for the strings that both
    /// OpenAI APIs use).
    pub(crate) fn from_vendor_json_at(
        v: &Value,
        at: &str,
    ) -> Result<(ToolChoice, Option<bool>, Option<Vendor>), ProtocolError> {
        let unknown = || ProtocolError::UnknownShape {
            at: at.to_owned(),
            expected: "a tool_choice: auto, any/required, a named tool or none",
            found: short(v),
        };
        match v {
            Value::String(s) => match s.as_str() {
                "auto" => Ok((ToolChoice::Auto, None, None)),
                "required" => Ok((ToolChoice::Any, None, None)),
                "none" => Ok((ToolChoice::None, None, None)),
                _ => Err(unknown()),
            },
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
                let name_at = |obj: &Map<String, Value>, at: String| match obj.get("name") {
                    Some(Value::String(n)) => Ok(n.clone()),
                    Some(other) => Err(ProtocolError::WrongType {
                        at: ptr(&at, "name"),
                        expected: "a string",
                        found: json_type(other),
                    }),
                    None => Err(ProtocolError::MissingField { at, field: "name" }),
                };
                let a = Some(Vendor::Anthropic);
                match ty {
                    "auto" => Ok((ToolChoice::Auto, parallel, a)),
                    "any" => Ok((ToolChoice::Any, parallel, a)),
                    "none" => Ok((ToolChoice::None, parallel, a)),
                    "tool" => Ok((ToolChoice::Tool(name_at(o, at.to_owned())?), parallel, a)),
                    "function" => match o.get("function") {
                        Some(Value::Object(f)) => Ok((
                            ToolChoice::Tool(name_at(f, ptr(at, "function"))?),
                            None,
                            Some(Vendor::OpenAiChat),
                        )),
                        Some(other) => Err(ProtocolError::WrongType {
                            at: ptr(at, "function"),
                            expected: "an object",
                            found: json_type(other),
                        }),
                        None => Ok((
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

    /// The `tool_choice` JSON for `vendor`. `parallel` is only written for
    /// Anthropic (as `disable_parallel_tool_use: !parallel`); OpenAI carries it
    /// beside `tool_choice` (see [`ToolSet::to_request_json`]).
    pub fn to_vendor(&self, vendor: Vendor, parallel: Option<bool>) -> Value {
        let s = |t: &str| Value::String(t.to_owned());
        match vendor {
            Vendor::Anthropic => {
                let mut o = Map::new();
                let ty = match self {
                    ToolChoice::Auto => "auto",
                    ToolChoice::Any => "any",
                    ToolChoice::Tool(_) => "tool",
                    ToolChoice::None => "none",
                };
                o.insert("type".to_owned(), s(ty));
                if let ToolChoice::Tool(n) = self {
                    o.insert("name".to_owned(), s(n));
                }
                if let Some(p) = parallel {
                    o.insert("disable_parallel_tool_use".to_owned(), Value::Bool(!p));
                }
                Value::Object(o)
            }
            Vendor::OpenAiChat | Vendor::OpenAiResponses => match self {
                ToolChoice::Auto => s("auto"),
                ToolChoice::Any => s("required"),
                ToolChoice::None => s("none"),
                ToolChoice::Tool(n) => {
                    let mut name = Map::new();
                    name.insert("name".to_owned(), s(n));
                    let mut o = Map::new();
                    o.insert("type".to_owned(), s("function"));
                    if vendor == Vendor::OpenAiChat {
                        o.insert("function".to_owned(), Value::Object(name));
                    } else {
                        o.extend(name);
                    }
                    Value::Object(o)
                }
            },
        }
    }
}

/// How a turn's calls broke the request's `tool_choice` (see
/// [`ToolSet::check_choice`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChoiceViolation {
    /// The model called a tool that the request does not declare.
    UndeclaredTool(String),
    /// `tool_choice` was none, yet the model called tools.
    CalledWithNone(Vec<String>),
    /// `tool_choice` was any / required / a named tool, yet no tool was called.
    NoCall,
    /// `tool_choice` named `expected`, the model called `called`.
    WrongTool {
        /// The tool that `tool_choice` names.
        expected: String,
        /// The tool that was called instead.
        called: String,
    },
    /// Parallel calls were disabled, yet the turn has this many calls.
    TooManyCalls(usize),
}

impl fmt::Display for ChoiceViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChoiceViolation::UndeclaredTool(n) => {
                write!(f, "the model called tool {n:?}, which is not declared")
            }
            ChoiceViolation::CalledWithNone(ns) => {
                write!(f, "tool_choice is none, yet the model called {ns:?}")
            }
            ChoiceViolation::NoCall => {
                f.write_str("tool_choice requires a tool call, yet the model called none")
            }
            ChoiceViolation::WrongTool { expected, called } => write!(
                f,
                "tool_choice names {expected:?}, yet the model called {called:?}"
            ),
            ChoiceViolation::TooManyCalls(n) => write!(
                f,
                "parallel tool calls are disabled, yet the model made {n} calls"
            ),
        }
    }
}

impl std::error::Error for ChoiceViolation {}

/// One entry of the original `tools` array, in order.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// A client tool: index into `ToolSet::tools`.
    Client(usize),
    /// A server / hosted / custom tool, kept verbatim (it has no schema here).
    Other(Value),
}

/// The tools of one request, how the model may use them, and whether it may
/// call several at once.
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use tooljson::protocol::{ToolSet, ToolChoice, Vendor, ChoiceViolation};
///
/// let request = json!({
///     "model": "gpt-4.1",
///     "tools": [{"type": "function", "function": {
///         "name": "get_weather",
///         "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}
///     }}],
///     "tool_choice": "required",
///     "parallel_tool_calls": false
/// });
/// let set = ToolSet::from_request_json(&request)?;
/// assert_eq!(set.choice(), &ToolChoice::Any);
/// assert_eq!(set.parallel_tool_calls(), Some(false));
/// assert!(set.get("get_weather").is_some());
/// assert_eq!(set.check_choice(&[]), Err(ChoiceViolation::NoCall));
/// assert_eq!(set.check_choice(&["get_weather", "get_weather"]), Err(ChoiceViolation::TooManyCalls(2)));
/// assert!(set.check_choice(&["get_weather"]).is_ok());
/// assert_eq!(
///     set.to_request_json(Vendor::Anthropic)["tool_choice"],
///     json!({"type": "any", "disable_parallel_tool_use": true})
/// );
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolSet {
    tools: Vec<ToolDefinition>,
    by_name: HashMap<String, usize>,
    slots: Vec<Slot>,
    other_names: Vec<String>,
    choice: ToolChoice,
    choice_given: bool,
    parallel: Option<bool>,
}

impl ToolSet {
    /// A set of client tools with `tool_choice` auto. Errors on two tools
    /// with one name.
    pub fn new(tools: impl IntoIterator<Item = ToolDefinition>) -> Result<ToolSet, ProtocolError> {
        let mut set = ToolSet::default();
        for (i, t) in tools.into_iter().enumerate() {
            set.push_client(t, &ptr_i("/tools", i))?;
        }
        Ok(set)
    }

    fn push_client(&mut self, t: ToolDefinition, at: &str) -> Result<(), ProtocolError> {
        if self.by_name.contains_key(t.name()) || self.other_names.iter().any(|n| n == t.name()) {
            return Err(ProtocolError::DuplicateTool {
                at: at.to_owned(),
                name: t.name().to_owned(),
            });
        }
        self.by_name.insert(t.name().to_owned(), self.tools.len());
        self.slots.push(Slot::Client(self.tools.len()));
        self.tools.push(t);
        Ok(())
    }

    /// The same set with `tool_choice` set. Errors when it names a tool that
    /// is not declared.
    pub fn with_choice(mut self, choice: ToolChoice) -> Result<ToolSet, ProtocolError> {
        self.check_declared(&choice)?;
        self.choice = choice;
        self.choice_given = true;
        Ok(self)
    }

    /// The same set with the parallel flag set: `Some(false)` disables
    /// parallel calls, `None` leaves the vendor default (allowed).
    pub fn with_parallel_tool_calls(mut self, parallel: Option<bool>) -> ToolSet {
        self.parallel = parallel;
        self
    }

    fn check_declared(&self, choice: &ToolChoice) -> Result<(), ProtocolError> {
        match choice {
            ToolChoice::Tool(n) if !self.is_declared(n) => {
                Err(ProtocolError::UndeclaredToolInChoice { name: n.clone() })
            }
            _ => Ok(()),
        }
    }

    fn is_declared(&self, name: &str) -> bool {
        self.by_name.contains_key(name) || self.other_names.iter().any(|n| n == name)
    }

    /// Reads the tools of a request body of any of the three vendors
    /// (`{"tools": [...], "tool_choice": ..., "parallel_tool_calls": ...}`,
    /// other members ignored), or a bare tools array.
    ///
    /// Server, hosted and custom tools (`{"type":"web_search_20250305",...}`,
    /// `{"type":"file_search"}`) are kept verbatim in their place; their
    /// names count as declared for `tool_choice`, and they have no schema.
    ///
    /// Errors: every error of [`ToolDefinition::from_vendor_json`] (with the
    /// pointer into this body), [`ProtocolError::DuplicateTool`], a
    /// `tool_choice` of unknown shape, and
    /// [`ProtocolError::UndeclaredToolInChoice`].
    pub fn from_request_json(v: &Value) -> Result<ToolSet, ProtocolError> {
        Self::read_request(v, false)
    }

    /// As [`from_request_json`](Self::from_request_json), but each tool is
    /// compiled on its own: a tool whose schema does not compile is kept,
    /// reported by name in [`schema_errors`](Self::schema_errors), and its
    /// calls are accepted without a schema check; the other tools validate
    /// as usual.
    ///
    /// # Examples
    ///
    /// ```
    /// use serde_json::json;
    /// use tooljson::protocol::ToolSet;
    /// let set = ToolSet::from_request_json_lenient(&json!({"tools": [
    ///     {"name": "ok", "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}}},
    ///     {"name": "broken", "input_schema": {"type": "object", "properties": {"a": {"type": 7}}}}
    /// ]}))?;
    /// let broken: Vec<&str> = set.schema_errors().map(|(name, _)| name).collect();
    /// assert_eq!(broken, ["broken"]);
    /// assert!(set.get("ok").unwrap().compiled_schema().is_valid(&tooljson::from_str(r#"{"a": 1}"#)?));
    /// assert!(!set.get("ok").unwrap().compiled_schema().is_valid(&tooljson::from_str(r#"{"a": "x"}"#)?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_request_json_lenient(v: &Value) -> Result<ToolSet, ProtocolError> {
        Self::read_request(v, true)
    }

    /// The tools read leniently whose schema did not compile: name and why.
    pub fn schema_errors(&self) -> impl Iterator<Item = (&str, &ProtocolError)> {
        self.tools
            .iter()
            .filter_map(|t| t.schema_error().map(|e| (t.name(), e)))
    }

    fn read_request(v: &Value, lenient: bool) -> Result<ToolSet, ProtocolError> {
        let (tools, tools_at, body) = match v {
            Value::Array(a) => (a.as_slice(), String::new(), None),
            Value::Object(o) => match o.get("tools") {
                Some(Value::Array(a)) => (a.as_slice(), "/tools".to_owned(), Some(o)),
                Some(Value::Null) | None => (&[][..], "/tools".to_owned(), Some(o)),
                Some(other) => {
                    return Err(ProtocolError::WrongType {
                        at: "/tools".to_owned(),
                        expected: "an array",
                        found: json_type(other),
                    });
                }
            },
            other => {
                return Err(ProtocolError::WrongType {
                    at: String::new(),
                    expected: "a request object or a tools array",
                    found: json_type(other),
                });
            }
        };
        let mut set = ToolSet::default();
        for (i, t) in tools.iter().enumerate() {
            let at = ptr_i(&tools_at, i);
            let is_other = match t.as_object() {
                Some(o) => classify(o) == Shape::Other,
                None => false,
            };
            if is_other {
                if let Some(n) = t.get("name").and_then(Value::as_str) {
                    if set.is_declared(n) {
                        return Err(ProtocolError::DuplicateTool {
                            at,
                            name: n.to_owned(),
                        });
                    }
                    set.other_names.push(n.to_owned());
                }
                set.slots.push(Slot::Other(t.clone()));
            } else {
                let def = if lenient {
                    ToolDefinition::from_vendor_json_lenient_at(t, &at)?
                } else {
                    ToolDefinition::from_vendor_json_at(t, &at)?
                };
                set.push_client(def, &at)?;
            }
        }
        let Some(body) = body else {
            return Ok(set);
        };
        if let Some(c) = body.get("tool_choice").filter(|c| !c.is_null()) {
            let (choice, parallel, _) = ToolChoice::from_vendor_json_at(c, "/tool_choice")?;
            set.check_declared(&choice)?;
            set.choice = choice;
            set.choice_given = true;
            set.parallel = parallel;
        }
        match body.get("parallel_tool_calls") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(b)) => set.parallel = Some(*b),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/parallel_tool_calls".to_owned(),
                    expected: "a boolean",
                    found: json_type(other),
                });
            }
        }
        Ok(set)
    }

    /// The client tool of this name.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.by_name.get(name).and_then(|&i| self.tools.get(i))
    }

    /// The client tools, in request order.
    pub fn tools(&self) -> &[ToolDefinition] {
        &self.tools
    }

    /// Server, hosted and custom tools, verbatim, in request order.
    pub fn other_tools(&self) -> impl Iterator<Item = &Value> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Other(v) => Some(v),
            Slot::Client(_) => None,
        })
    }

    /// The number of client tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there is no client tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The posture (auto when the request gave none).
    pub fn choice(&self) -> &ToolChoice {
        &self.choice
    }

    /// Whether the request gave `tool_choice` explicitly.
    pub fn choice_given(&self) -> bool {
        self.choice_given
    }

    /// `Some(false)`: parallel calls disabled (Anthropic
    /// `disable_parallel_tool_use: true`, OpenAI `parallel_tool_calls:
    /// false`); `Some(true)`: explicitly allowed; `None`: not said (the
    /// vendors then allow them).
    pub fn parallel_tool_calls(&self) -> Option<bool> {
        self.parallel
    }

    /// Whether the names a turn called obey `tool_choice` and the parallel
    /// flag, in this order: every name declared; none: no call; any: at
    /// least one call; a named tool: at least one call, all to it; parallel
    /// disabled: at most one call.
    pub fn check_choice(&self, called_names: &[&str]) -> Result<(), ChoiceViolation> {
        if let Some(n) = called_names.iter().find(|n| !self.is_declared(n)) {
            return Err(ChoiceViolation::UndeclaredTool((*n).to_owned()));
        }
        match &self.choice {
            ToolChoice::Auto => {}
            ToolChoice::None => {
                if !called_names.is_empty() {
                    return Err(ChoiceViolation::CalledWithNone(
                        called_names.iter().map(|n| (*n).to_owned()).collect(),
                    ));
                }
            }
            ToolChoice::Any => {
                if called_names.is_empty() {
                    return Err(ChoiceViolation::NoCall);
                }
            }
            ToolChoice::Tool(expected) => {
                if called_names.is_empty() {
                    return Err(ChoiceViolation::NoCall);
                }
                if let Some(n) = called_names.iter().find(|n| **n != expected.as_str()) {
                    return Err(ChoiceViolation::WrongTool {
                        expected: expected.clone(),
                        called: (*n).to_owned(),
                    });
                }
            }
        }
        if self.parallel == Some(false) && called_names.len() > 1 {
            return Err(ChoiceViolation::TooManyCalls(called_names.len()));
        }
        Ok(())
    }

    /// The tools part of a request for `vendor`: `tools` (client tools in
    /// `vendor`'s shape, other tools verbatim, in the original order),
    /// `tool_choice` when given (or, for Anthropic, needed to carry the
    /// parallel flag), and `parallel_tool_calls` for OpenAI when set.
    pub fn to_request_json(&self, vendor: Vendor) -> Value {
        let mut o = Map::new();
        let tools: Vec<Value> = self
            .slots
            .iter()
            .filter_map(|s| match s {
                Slot::Client(i) => self.tools.get(*i).map(|t| t.to_vendor(vendor)),
                Slot::Other(v) => Some(v.clone()),
            })
            .collect();
        o.insert("tools".to_owned(), Value::Array(tools));
        match vendor {
            Vendor::Anthropic => {
                if self.choice_given || self.parallel.is_some() {
                    o.insert(
                        "tool_choice".to_owned(),
                        self.choice.to_vendor(vendor, self.parallel),
                    );
                }
            }
            Vendor::OpenAiChat | Vendor::OpenAiResponses => {
                if self.choice_given {
                    o.insert(
                        "tool_choice".to_owned(),
                        self.choice.to_vendor(vendor, None),
                    );
                }
                if let Some(p) = self.parallel {
                    o.insert("parallel_tool_calls".to_owned(), Value::Bool(p));
                }
            }
        }
        Value::Object(o)
    }
}
