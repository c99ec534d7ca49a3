//! The tool set of a request (definitions, `tool_choice` and the
//! parallel-calls flag) in the five vendor shapes, and the check that a
//! turn's calls obeyed the choice.

use std::collections::HashMap;
use std::fmt;

use crate::value::{Map, Value};

use super::Vendor;
use super::definition::{Shape, ToolDefinition, classify};
use super::error::{ProtocolError, json_type, ptr, ptr_i, short};
use super::gemini_schema::GeminiSchema;
use super::loss::{Converted, Loss};
use super::tool_choice::{ToolChoice, choice_json, read_bedrock_choice, read_gemini_choice};
use super::tool_config::Native;

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
    /// The model called a tool outside Gemini's `allowedFunctionNames`.
    NotAllowed(String),
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
            ChoiceViolation::NotAllowed(n) => write!(
                f,
                "the model called {n:?}, which allowedFunctionNames does not list"
            ),
        }
    }
}

impl std::error::Error for ChoiceViolation {}

/// One entry of the original tool list, in order.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// A client tool: index into `ToolSet::tools`.
    Client(usize),
    /// A Gemini `tools[]` entry: its declarations (indices into
    /// `ToolSet::tools`), its other members, and its pointer.
    GeminiGroup(Vec<usize>, Map, String),
    /// A server / hosted / custom tool, kept verbatim (it has no schema
    /// here), with the vendor whose request it came from (when known) and
    /// its pointer.
    Other(Value, Option<Vendor>, String),
}

/// The tools of one request, how the model may use them, and whether it may
/// call several at once.
///
/// Reads and writes the tool members of all five request shapes: `tools`,
/// `tool_choice` and `parallel_tool_calls` (Anthropic, OpenAI Chat and
/// Responses); `tools[].functionDeclarations` and
/// `toolConfig.functionCallingConfig` (Gemini); `toolConfig.tools` and
/// `toolConfig.toolChoice` (Bedrock). Written for another vendor, what it
/// cannot carry is a [`Loss`] (see [`to_request_json`](Self::to_request_json)).
///
/// # Examples
///
/// ```
/// use tooljson::json;
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
///     set.to_request_json(Vendor::Anthropic).lossless()?["tool_choice"],
///     json!({"type": "any", "disable_parallel_tool_use": true})
/// );
/// // Gemini has no parallel switch: said out loud.
/// let (gemini, losses) = set.to_request_json(Vendor::Gemini).accept_losses();
/// assert_eq!(gemini["toolConfig"], json!({"functionCallingConfig": {"mode": "ANY"}}));
/// assert_eq!(losses[0].at, "/parallel_tool_calls");
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolSet {
    tools: Vec<ToolDefinition>,
    /// Each client tool's pointer in the request it was read from.
    tool_at: Vec<String>,
    by_name: HashMap<String, usize>,
    slots: Vec<Slot>,
    other_names: Vec<String>,
    choice: ToolChoice,
    choice_given: bool,
    parallel: Option<bool>,
    /// Gemini: the names `ANY` / `VALIDATED` is restricted to.
    allowed: Option<Vec<String>>,
    /// The request shape it was read from, when known.
    source: Option<Vendor>,
    /// Gemini's `toolConfig` as read.
    native: Option<Native>,
}

impl ToolSet {
    /// A set of client tools with `tool_choice` auto. Errors on two tools
    /// with one name.
    pub fn new(tools: impl IntoIterator<Item = ToolDefinition>) -> Result<ToolSet, ProtocolError> {
        let mut set = ToolSet::default();
        for (i, t) in tools.into_iter().enumerate() {
            let at = ptr_i("/tools", i);
            set.push_client(t, &at)?;
            set.slots.push(Slot::Client(set.tools.len() - 1));
        }
        Ok(set)
    }

    /// Adds a client tool (its slot is the caller's).
    fn push_client(&mut self, t: ToolDefinition, at: &str) -> Result<(), ProtocolError> {
        if self.is_declared(t.name()) {
            return Err(ProtocolError::DuplicateTool {
                at: at.to_owned(),
                name: t.name().to_owned(),
            });
        }
        self.by_name.insert(t.name().to_owned(), self.tools.len());
        self.tools.push(t);
        self.tool_at.push(at.to_owned());
        Ok(())
    }

    /// The same set with `tool_choice` set (a Gemini restriction to several
    /// names is dropped with it). Errors when it names a tool that is not
    /// declared.
    pub fn with_choice(mut self, choice: ToolChoice) -> Result<ToolSet, ProtocolError> {
        self.check_declared(&choice)?;
        self.choice = choice;
        self.choice_given = true;
        self.allowed = None;
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

    /// Reads the tools of a request body of any of the five vendors, or a
    /// bare tools array (of Anthropic, OpenAI, Gemini `{functionDeclarations}`
    /// or Bedrock `{toolSpec}` entries); other members are ignored. A body
    /// with `toolConfig.tools` or `toolConfig.toolChoice` is Bedrock; one
    /// with `toolConfig.functionCallingConfig` or `functionDeclarations` is
    /// Gemini.
    ///
    /// Server, hosted and custom tools (`{"type":"web_search_20250305",...}`,
    /// `{"type":"file_search"}`, Gemini `{"googleSearch":{}}`, Bedrock
    /// `{"cachePoint":{...}}`) are kept verbatim in their place; their names
    /// count as declared for `tool_choice`, and they have no schema.
    ///
    /// Errors: every error of [`ToolDefinition::from_vendor_json`] (with the
    /// pointer into this body), [`ProtocolError::DuplicateTool`], a
    /// `tool_choice` of unknown shape, and
    /// [`ProtocolError::UndeclaredToolInChoice`].
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{ToolChoice, ToolSet, Vendor};
    /// let bedrock = json!({"toolConfig": {
    ///     "tools": [{"toolSpec": {"name": "top_song",
    ///         "inputSchema": {"json": {"type": "object", "properties": {"sign": {"type": "string"}}}}}}],
    ///     "toolChoice": {"tool": {"name": "top_song"}}
    /// }});
    /// let set = ToolSet::from_request_json(&bedrock)?;
    /// assert_eq!(set.choice(), &ToolChoice::Tool("top_song".into()));
    /// let gemini = set.to_request_json(Vendor::Gemini).lossless()?;
    /// assert_eq!(gemini["toolConfig"]["functionCallingConfig"],
    ///     json!({"mode": "ANY", "allowedFunctionNames": ["top_song"]}));
    /// let back = ToolSet::from_request_json(&gemini)?.to_request_json(Vendor::Bedrock).lossless()?;
    /// assert_eq!(back, bedrock);
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
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
    /// use tooljson::json;
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
        let (body, tool_config) = match v {
            Value::Array(a) => {
                let vendor = a.iter().find_map(|t| {
                    let o = t.as_object()?;
                    if o.contains_key("functionDeclarations") {
                        Some(Vendor::Gemini)
                    } else if o.contains_key("toolSpec") {
                        Some(Vendor::Bedrock)
                    } else {
                        None
                    }
                });
                let mut set = ToolSet::default();
                set.read_tools(a, "", vendor, lenient)?;
                return Ok(set);
            }
            Value::Object(o) => (o, o.get("toolConfig").filter(|c| !c.is_null())),
            other => {
                return Err(ProtocolError::WrongType {
                    at: String::new(),
                    expected: "a request object or a tools array",
                    found: json_type(other),
                });
            }
        };
        let mut set = ToolSet::default();
        if let Some(tc) = tool_config {
            let Value::Object(tco) = tc else {
                return Err(ProtocolError::WrongType {
                    at: "/toolConfig".to_owned(),
                    expected: "an object",
                    found: json_type(tc),
                });
            };
            if tco.contains_key("tools") || tco.contains_key("toolChoice") {
                let tools = array_at(tco, "tools", "/toolConfig")?;
                set.read_tools(tools, "/toolConfig/tools", Some(Vendor::Bedrock), lenient)?;
                set.source = Some(Vendor::Bedrock);
                if let Some(c) = tco.get("toolChoice").filter(|c| !c.is_null()) {
                    let at = "/toolConfig/toolChoice";
                    let Value::Object(co) = c else {
                        return Err(ProtocolError::WrongType {
                            at: at.to_owned(),
                            expected: "an object",
                            found: json_type(c),
                        });
                    };
                    let choice = read_bedrock_choice(co, at)?;
                    set.check_declared(&choice)?;
                    set.choice = choice;
                    set.choice_given = true;
                }
                return Ok(set);
            }
        }
        let tools = array_at(body, "tools", "")?;
        let gemini = tool_config.is_some()
            || tools
                .iter()
                .any(|t| t.get("functionDeclarations").is_some());
        if gemini {
            set.read_tools(tools, "/tools", Some(Vendor::Gemini), lenient)?;
            set.source = Some(Vendor::Gemini);
            let Some(tc) = tool_config else {
                return Ok(set);
            };
            let read = match tc.get("functionCallingConfig").filter(|c| !c.is_null()) {
                Some(Value::Object(f)) => {
                    Some(read_gemini_choice(f, "/toolConfig/functionCallingConfig")?)
                }
                Some(other) => {
                    return Err(ProtocolError::WrongType {
                        at: "/toolConfig/functionCallingConfig".to_owned(),
                        expected: "an object",
                        found: json_type(other),
                    });
                }
                None => None,
            };
            if let Some(r) = &read {
                set.check_declared(&r.choice)?;
                for n in r.allowed.iter().flatten() {
                    if !set.is_declared(n) {
                        return Err(ProtocolError::UndeclaredToolInChoice { name: n.clone() });
                    }
                }
                set.choice = r.choice.clone();
                set.choice_given = true;
                set.allowed = r.allowed.clone();
            }
            set.native = Some(Native::gemini(tc, read.as_ref()));
            return Ok(set);
        }
        set.read_tools(tools, "/tools", None, lenient)?;
        if let Some(c) = body.get("tool_choice").filter(|c| !c.is_null()) {
            let r = ToolChoice::from_vendor_json_at(c, "/tool_choice")?;
            if r.allowed.is_some() || r.validated {
                return Err(ProtocolError::UnknownShape {
                    at: "/tool_choice".to_owned(),
                    expected: "a tool_choice of Anthropic or OpenAI",
                    found: short(c),
                });
            }
            set.check_declared(&r.choice)?;
            set.choice = r.choice;
            set.choice_given = true;
            set.parallel = r.parallel;
            set.source = set.source.or(r.vendor);
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

    /// Reads a tools array at `at`; `vendor`: Gemini or Bedrock entries.
    fn read_tools(
        &mut self,
        tools: &[Value],
        at: &str,
        vendor: Option<Vendor>,
        lenient: bool,
    ) -> Result<(), ProtocolError> {
        for (i, t) in tools.iter().enumerate() {
            let at = ptr_i(at, i);
            let obj = t.as_object();
            let decls = obj.and_then(|o| o.get("functionDeclarations"));
            if vendor == Some(Vendor::Gemini) && decls.is_some() {
                let Some(Value::Array(decls)) = decls else {
                    return Err(ProtocolError::WrongType {
                        at: ptr(&at, "functionDeclarations"),
                        expected: "an array",
                        found: json_type(decls.unwrap_or(&Value::Null)),
                    });
                };
                let mut ids = Vec::with_capacity(decls.len());
                for (j, d) in decls.iter().enumerate() {
                    let dat = ptr_i(&ptr(&at, "functionDeclarations"), j);
                    let def = ToolDefinition::read_entry(d, &dat, true, lenient)?;
                    self.push_client(def, &dat)?;
                    ids.push(self.tools.len() - 1);
                }
                let rest = obj
                    .into_iter()
                    .flatten()
                    .filter(|(k, _)| *k != "functionDeclarations")
                    .map(|(k, v)| (k.to_owned(), v.clone()))
                    .collect();
                self.slots.push(Slot::GeminiGroup(ids, rest, at));
                continue;
            }
            let client = match (vendor, obj) {
                (Some(Vendor::Gemini), _) | (_, None) => false,
                (Some(Vendor::Bedrock), Some(o)) => o.contains_key("toolSpec"),
                (_, Some(o)) => classify(o) != Shape::Other,
            };
            if client {
                let def = ToolDefinition::read_entry(t, &at, false, lenient)?;
                self.source = self.source.or(Some(def.source()));
                self.push_client(def, &at)?;
                self.slots.push(Slot::Client(self.tools.len() - 1));
                continue;
            }
            let name = t
                .get("name")
                .or_else(|| t.get("systemTool").and_then(|s| s.get("name")))
                .and_then(Value::as_str);
            if let Some(n) = name {
                if self.is_declared(n) {
                    return Err(ProtocolError::DuplicateTool {
                        at,
                        name: n.to_owned(),
                    });
                }
                self.other_names.push(n.to_owned());
            }
            self.slots.push(Slot::Other(t.clone(), vendor, at));
        }
        Ok(())
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
            Slot::Other(v, ..) => Some(v),
            _ => None,
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

    /// Gemini `allowedFunctionNames` with more than one name (one name is
    /// [`ToolChoice::Tool`]): the tools a call may name.
    pub fn allowed_names(&self) -> Option<&[String]> {
        self.allowed.as_deref()
    }

    /// The request shape the set was read from, when it said.
    pub fn source(&self) -> Option<Vendor> {
        self.source
    }

    /// `Some(false)`: parallel calls disabled (Anthropic
    /// `disable_parallel_tool_use: true`, OpenAI `parallel_tool_calls:
    /// false`); `Some(true)`: explicitly allowed; `None`: not said (the
    /// vendors then allow them).
    pub fn parallel_tool_calls(&self) -> Option<bool> {
        self.parallel
    }

    /// Whether the names a turn called obey `tool_choice` and the parallel
    /// flag, in this order: every name declared; every name among Gemini's
    /// allowed names; none: no call; any: at least one call; a named tool:
    /// at least one call, all to it; parallel disabled: at most one call.
    pub fn check_choice(&self, called_names: &[&str]) -> Result<(), ChoiceViolation> {
        if let Some(n) = called_names.iter().find(|n| !self.is_declared(n)) {
            return Err(ChoiceViolation::UndeclaredTool((*n).to_owned()));
        }
        if let Some(allowed) = &self.allowed
            && let Some(n) = called_names
                .iter()
                .find(|n| !allowed.iter().any(|a| a == *n))
        {
            return Err(ChoiceViolation::NotAllowed((*n).to_owned()));
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

    /// The tool members of a request for `vendor`, and every [`Loss`] (its
    /// pointer into the request as read):
    ///
    /// - Anthropic, OpenAI: `tools` (client tools in `vendor`'s shape,
    ///   other tools in the original order), `tool_choice` when given (or,
    ///   for Anthropic, needed to carry the parallel flag), and
    ///   `parallel_tool_calls` for OpenAI when set.
    /// - Gemini: `tools` (the declarations of one Gemini entry stay
    ///   together; others go into one `{"functionDeclarations"}` entry per
    ///   run) and `toolConfig.functionCallingConfig` when the choice is
    ///   given. Schemas go where [`GeminiSchema::Auto`] says.
    /// - Bedrock: `toolConfig` with `tools` and `toolChoice` (when given),
    ///   left out when there is no tool. Bedrock has no `none`: the whole
    ///   `toolConfig` is then left out, so no tool can be called, and both
    ///   the choice and the tools are losses (Bedrock refuses a
    ///   conversation holding `toolUse` blocks without `toolConfig`).
    ///
    /// Losses: the losses of each definition; server and hosted tools of
    /// another vendor (left out: the target cannot run them); the parallel
    /// flag for Gemini and Bedrock; Gemini's `VALIDATED`, several
    /// `allowedFunctionNames` and other `toolConfig` members for the others.
    pub fn to_request_json(&self, vendor: Vendor) -> Converted<Value> {
        self.write(vendor, GeminiSchema::Auto)
    }

    /// The Gemini request members with each schema where `schema` says.
    pub fn to_gemini_request(&self, schema: GeminiSchema) -> Converted<Value> {
        self.write(Vendor::Gemini, schema)
    }

    fn write(&self, vendor: Vendor, gemini: GeminiSchema) -> Converted<Value> {
        let mut losses = Vec::new();
        let (entries, dropped_names) = self.tool_entries(vendor, gemini, &mut losses);
        let choice = self.written_choice(vendor, &dropped_names, &mut losses);
        if let Some(n) = self.native.as_ref().filter(|_| vendor != Vendor::Gemini) {
            for (at, part, why) in &n.lost {
                losses.push(Loss::dropped(at.clone(), part.as_str(), why.clone()));
            }
        }
        let o = match vendor {
            Vendor::Anthropic | Vendor::OpenAiChat | Vendor::OpenAiResponses => {
                self.openai_or_anthropic_members(vendor, entries, choice)
            }
            Vendor::Gemini => self.gemini_members(entries, choice),
            Vendor::Bedrock => self.bedrock_members(entries, choice, &mut losses),
        };
        Converted::new(Value::Object(o), losses)
    }

    /// The `tools` entries for `vendor`, in order (Gemini: client tools
    /// gathered into `functionDeclarations` entries), and the names of the
    /// server or hosted tools left out: a choice naming one cannot be
    /// written (the provider refuses an undeclared name).
    fn tool_entries(
        &self,
        vendor: Vendor,
        gemini: GeminiSchema,
        losses: &mut Vec<Loss>,
    ) -> (Vec<Value>, Vec<&str>) {
        let mut entries: Vec<Value> = Vec::new();
        let mut dropped_names: Vec<&str> = Vec::new();
        // Gemini: client tools not from a Gemini entry, gathered into one.
        let mut run: Vec<Value> = Vec::new();
        for slot in &self.slots {
            match slot {
                Slot::Client(i) => {
                    if let Some(v) = self.definition(*i, vendor, gemini, losses) {
                        if vendor == Vendor::Gemini {
                            run.push(v);
                        } else {
                            entries.push(v);
                        }
                    }
                }
                Slot::GeminiGroup(ids, rest, at) => {
                    let decls: Vec<Value> = ids
                        .iter()
                        .filter_map(|i| self.definition(*i, vendor, gemini, losses))
                        .collect();
                    if vendor == Vendor::Gemini {
                        flush_declarations(&mut run, &mut entries);
                        let mut o = Map::new();
                        o.insert("functionDeclarations".to_owned(), Value::Array(decls));
                        o.extend(rest.clone());
                        entries.push(Value::Object(o));
                    } else {
                        entries.extend(decls);
                        for k in rest.keys() {
                            losses.push(Loss::dropped(
                                ptr(at, k),
                                k,
                                format!("a Gemini tool that {vendor} cannot run; left out"),
                            ));
                        }
                    }
                }
                Slot::Other(v, from, at) => {
                    let from = from.or(self.source);
                    let same = match from {
                        Some(f) => f == vendor,
                        None => !matches!(vendor, Vendor::Gemini | Vendor::Bedrock),
                    };
                    if same {
                        if vendor == Vendor::Gemini {
                            flush_declarations(&mut run, &mut entries);
                        }
                        entries.push(v.clone());
                    } else {
                        if let Some(n) = other_name(v) {
                            dropped_names.push(n);
                        }
                        let from = from.map_or("another vendor's".to_owned(), |f| format!("a {f}"));
                        losses.push(Loss::dropped(
                            at.clone(),
                            "tool",
                            format!(
                                "{from} server or hosted tool that {vendor} cannot run; left out"
                            ),
                        ));
                    }
                }
            }
        }
        flush_declarations(&mut run, &mut entries);
        (entries, dropped_names)
    }

    /// Tool definition `i` written for `vendor`, its losses placed under
    /// the tool's pointer in the source.
    fn definition(
        &self,
        i: usize,
        vendor: Vendor,
        gemini: GeminiSchema,
        losses: &mut Vec<Loss>,
    ) -> Option<Value> {
        let t = self.tools.get(i)?;
        let converted = if vendor == Vendor::Gemini {
            t.to_gemini(gemini)
        } else {
            t.to_vendor(vendor)
        };
        let (v, lost) = converted.accept_losses();
        let at = self.tool_at.get(i).map(String::as_str).unwrap_or("");
        losses.extend(lost.into_iter().map(|mut l| {
            l.at = format!("{at}{}", l.at);
            l
        }));
        Some(v)
    }

    /// The choice as `vendor` writes it, and whether it must be written;
    /// what the vendor cannot say is a loss at the choice's place in the
    /// source. A choice naming a tool left out becomes the vendor's default.
    fn written_choice(
        &self,
        vendor: Vendor,
        dropped_names: &[&str],
        losses: &mut Vec<Loss>,
    ) -> WrittenChoice {
        let source = self.source.unwrap_or(Vendor::Anthropic);
        let (choice_at, parallel_at) = match source {
            Vendor::Anthropic => ("/tool_choice", "/tool_choice/disable_parallel_tool_use"),
            Vendor::Gemini => ("/toolConfig/functionCallingConfig", "/parallel_tool_calls"),
            Vendor::Bedrock => ("/toolConfig/toolChoice", "/parallel_tool_calls"),
            _ => ("/tool_choice", "/parallel_tool_calls"),
        };
        let mut needed = self.choice_given || self.allowed.is_some();
        let (mut json, lost) =
            choice_json(&self.choice, vendor, self.parallel, self.allowed.as_deref());
        if let ToolChoice::Tool(n) = &self.choice
            && dropped_names.contains(&n.as_str())
        {
            losses.push(Loss::dropped(
                choice_at,
                "tool_choice",
                format!("names {n:?}, a tool left out for {vendor}; the vendor's default choice is written instead"),
            ));
            needed = false;
            json = choice_json(&ToolChoice::Auto, vendor, self.parallel, None).0;
        }
        for (part, why) in lost {
            let at = match part {
                "parallel_tool_calls" => parallel_at.to_owned(),
                "allowedFunctionNames" => format!("{choice_at}/allowedFunctionNames"),
                _ => choice_at.to_owned(),
            };
            // A choice that was never given is not lost.
            if part != "tool_choice" || needed {
                losses.push(if part == "allowedFunctionNames" {
                    Loss::changed(at, part, why)
                } else {
                    Loss::dropped(at, part, why)
                });
            }
        }
        WrittenChoice {
            json,
            needed,
            at: choice_at,
        }
    }

    /// Anthropic and OpenAI: `tools`, `tool_choice`, `parallel_tool_calls`.
    fn openai_or_anthropic_members(
        &self,
        vendor: Vendor,
        entries: Vec<Value>,
        choice: WrittenChoice,
    ) -> Map {
        let mut o = Map::new();
        o.insert("tools".to_owned(), Value::Array(entries));
        // Anthropic carries the flag inside tool_choice: an auto
        // choice, the default, which reads back with the same meaning.
        let anthropic_parallel = vendor == Vendor::Anthropic && self.parallel.is_some();
        if let (true, Some(c)) = (choice.needed || anthropic_parallel, choice.json) {
            o.insert("tool_choice".to_owned(), c);
        }
        if let (Some(p), false) = (self.parallel, vendor == Vendor::Anthropic) {
            o.insert("parallel_tool_calls".to_owned(), Value::Bool(p));
        }
        o
    }

    /// Gemini: `tools` and `toolConfig` (the source's own when the choice
    /// is unchanged).
    fn gemini_members(&self, entries: Vec<Value>, choice: WrittenChoice) -> Map {
        let mut o = Map::new();
        o.insert("tools".to_owned(), Value::Array(entries));
        let unchanged = self
            .native
            .as_ref()
            .filter(|n| n.choice == self.choice && n.allowed == self.allowed);
        if let Some(n) = unchanged {
            o.insert("toolConfig".to_owned(), n.json.clone());
        } else if let (true, Some(c)) = (choice.needed, choice.json) {
            let mut tc = Map::new();
            tc.insert("functionCallingConfig".to_owned(), c);
            o.insert("toolConfig".to_owned(), Value::Object(tc));
        }
        o
    }

    /// Bedrock: `toolConfig`, left out with no tools or with the `none`
    /// choice Bedrock cannot say.
    fn bedrock_members(
        &self,
        entries: Vec<Value>,
        choice: WrittenChoice,
        losses: &mut Vec<Loss>,
    ) -> Map {
        let mut o = Map::new();
        let none = self.choice == ToolChoice::None && self.choice_given;
        if none && !entries.is_empty() {
            losses.push(Loss::dropped(
                "/tools",
                "tools",
                "left out with the \"none\" choice, so that no tool can be called",
            ));
        } else if entries.is_empty() {
            if choice.needed && !none {
                losses.push(Loss::dropped(
                    choice.at,
                    "tool_choice",
                    "Bedrock takes no toolChoice without tools; left out",
                ));
            }
        } else {
            let mut tc = Map::new();
            tc.insert("tools".to_owned(), Value::Array(entries));
            if let (true, Some(c)) = (choice.needed, choice.json) {
                tc.insert("toolChoice".to_owned(), c);
            }
            o.insert("toolConfig".to_owned(), Value::Object(tc));
        }
        o
    }
}

/// The `tool_choice` as one vendor writes it.
struct WrittenChoice {
    /// The vendor's JSON (`None`: the vendor has no way to say it).
    json: Option<Value>,
    /// It must be written: it was given (or Gemini's allowed names were).
    needed: bool,
    /// Its pointer in the source.
    at: &'static str,
}

/// Gemini: the client tools gathered so far, as one `functionDeclarations`
/// entry.
fn flush_declarations(run: &mut Vec<Value>, entries: &mut Vec<Value>) {
    if !run.is_empty() {
        let mut o = Map::new();
        o.insert(
            "functionDeclarations".to_owned(),
            Value::Array(std::mem::take(run)),
        );
        entries.push(Value::Object(o));
    }
}

/// The array `o[key]` (none: empty), or a typed error at `at/key`.
fn array_at<'a>(o: &'a Map, key: &str, at: &str) -> Result<&'a [Value], ProtocolError> {
    match o.get(key) {
        Some(Value::Array(a)) => Ok(a.as_slice()),
        Some(Value::Null) | None => Ok(&[][..]),
        Some(other) => Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "an array",
            found: json_type(other),
        }),
    }
}

/// The name a server or hosted tool entry declares (as [`ToolSet`] reads it).
fn other_name(v: &Value) -> Option<&str> {
    v.get("name")
        .or_else(|| v.get("systemTool").and_then(|s| s.get("name")))
        .and_then(Value::as_str)
}
