//! Tool definitions in the three vendor shapes, the vendors' name rule, and
//! the schema compiled once per definition.

use serde_json::{Map, Value};

use super::Vendor;
use super::error::{NameProblem, ProtocolError, json_type, ptr, short};
use crate::schema::CompiledSchema;

/// The longest tool name any of the three vendors accepts.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// Checks a tool name against the rule the vendors document,
/// `^[a-zA-Z0-9_-]{1,64}$` (Anthropic, OpenAI Chat and Responses agree).
///
/// # Examples
///
/// ```
/// use tooljson::protocol::{validate_tool_name, NameProblem};
/// assert!(validate_tool_name("get_weather").is_ok());
/// assert_eq!(validate_tool_name("get weather"), Err(NameProblem::BadCharacter(' ')));
/// assert_eq!(validate_tool_name(""), Err(NameProblem::Empty));
/// ```
pub fn validate_tool_name(name: &str) -> Result<(), NameProblem> {
    if name.is_empty() {
        return Err(NameProblem::Empty);
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(NameProblem::BadCharacter(c));
    }
    // All characters are ASCII here, so bytes == characters.
    if name.len() > MAX_TOOL_NAME_LEN {
        return Err(NameProblem::TooLong(name.len()));
    }
    Ok(())
}

/// One client tool: a name, an optional description and the JSON Schema of
/// its input, in any of the three vendor shapes.
///
/// | vendor | JSON |
/// |---|---|
/// | Anthropic | `{"name", "description", "input_schema", "strict"?}` |
/// | OpenAI Chat | `{"type":"function", "function":{"name", "description", "parameters", "strict"?}}` |
/// | OpenAI Responses | `{"type":"function", "name", "description", "parameters", "strict"?}` |
///
/// A definition remembers the shape it was read from ([`source`](Self::source))
/// and every member beyond the common four (`cache_control`,
/// `eager_input_streaming`, Anthropic's `"type":"custom"`, a `null`
/// description...): written back in its own shape it is the same JSON;
/// written in another vendor's shape those vendor-only members are left out.
///
/// The fields are private so that the compiled schema
/// ([`compiled_schema`](Self::compiled_schema), compiled once at
/// construction) can never disagree with
/// [`input_schema`](Self::input_schema): a definition is built, checked and
/// compiled at once by [`new`](Self::new) or
/// [`from_vendor_json`](Self::from_vendor_json).
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use tooljson::protocol::ToolDefinition;
///
/// let anthropic = json!({
///     "name": "get_weather",
///     "description": "Get the current weather in a given location",
///     "input_schema": {
///         "type": "object",
///         "properties": {"location": {"type": "string"}},
///         "required": ["location"]
///     }
/// });
/// let def = ToolDefinition::from_vendor_json(&anthropic)?;
/// assert_eq!(def.name(), "get_weather");
/// assert_eq!(def.to_anthropic(), anthropic);
/// assert_eq!(
///     def.to_openai_chat(),
///     json!({"type": "function", "function": {
///         "name": "get_weather",
///         "description": "Get the current weather in a given location",
///         "parameters": anthropic["input_schema"]
///     }})
/// );
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ToolDefinition {
    name: String,
    description: Option<String>,
    input_schema: Value,
    /// False when OpenAI `parameters` was absent (an empty parameter list);
    /// the schema is then `{"type":"object","properties":{}}`.
    schema_given: bool,
    strict: Option<bool>,
    source: Vendor,
    /// Members beyond the common ones: top level (Anthropic, Responses) or
    /// inside `function` (Chat).
    extra: Map<String, Value>,
    /// Chat only: members beside `type` and `function`.
    extra_outer: Map<String, Value>,
    /// `input_schema`, compiled once at construction (an `Arc` inside).
    compiled: CompiledSchema,
    /// Read leniently: why `input_schema` did not compile (`compiled` then
    /// accepts any arguments).
    schema_error: Option<std::sync::Arc<ProtocolError>>,
}

impl PartialEq for ToolDefinition {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.description == other.description
            && self.input_schema == other.input_schema
            && self.schema_given == other.schema_given
            && self.strict == other.strict
            && self.source == other.source
            && self.extra == other.extra
            && self.extra_outer == other.extra_outer
    }
}

/// The schema of a function declared without `parameters`.
fn empty_object_schema() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("object".to_owned()));
    m.insert("properties".to_owned(), Value::Object(Map::new()));
    Value::Object(m)
}

impl ToolDefinition {
    /// A definition from its parts, in the Anthropic shape. Checks the name
    /// against the vendors' rule and compiles the schema.
    ///
    /// # Examples
    ///
    /// ```
    /// use serde_json::json;
    /// use tooljson::protocol::{ToolDefinition, ProtocolError};
    /// let def = ToolDefinition::new("get_time", Some("Current time"), json!({"type": "object"}))?;
    /// assert_eq!(def.to_openai_responses()["name"], "get_time");
    /// assert!(matches!(
    ///     ToolDefinition::new("get.time", None, json!({})),
    ///     Err(ProtocolError::InvalidToolName { .. })
    /// ));
    /// # Ok::<(), ProtocolError>(())
    /// ```
    pub fn new(
        name: impl Into<String>,
        description: Option<&str>,
        input_schema: Value,
    ) -> Result<ToolDefinition, ProtocolError> {
        ToolDefinition::build(
            Parts {
                name: name.into(),
                description: description.map(str::to_owned),
                input_schema,
                schema_given: true,
                strict: None,
                source: Vendor::Anthropic,
                extra: Map::new(),
            },
            "",
        )
    }

    /// The same definition with `strict` set (`Some(true)`: the vendor
    /// guarantees the arguments match the schema).
    pub fn with_strict(mut self, strict: Option<bool>) -> ToolDefinition {
        self.strict = strict;
        self
    }

    /// Reads a definition in any of the three vendor shapes (see the table
    /// on [`ToolDefinition`]).
    ///
    /// Errors: [`ProtocolError::MissingField`] (no `name`, Anthropic without
    /// `input_schema`), [`ProtocolError::WrongType`],
    /// [`ProtocolError::InvalidToolName`],
    /// [`ProtocolError::SchemaDoesNotCompile`], and
    /// [`ProtocolError::UnknownShape`] for a value that is no client tool
    /// definition (use [`ToolSet`](super::ToolSet) to keep server tools).
    pub fn from_vendor_json(v: &Value) -> Result<ToolDefinition, ProtocolError> {
        Self::from_vendor_json_at(v, "")
    }

    pub(crate) fn from_vendor_json_at(
        v: &Value,
        at: &str,
    ) -> Result<ToolDefinition, ProtocolError> {
        let Some(obj) = v.as_object() else {
            return Err(ProtocolError::WrongType {
                at: at.to_owned(),
                expected: "a tool definition object",
                found: json_type(v),
            });
        };
        match classify(obj) {
            Shape::Anthropic => Self::read_flat(obj, at, Vendor::Anthropic),
            Shape::OpenAiResponses => Self::read_flat(obj, at, Vendor::OpenAiResponses),
            Shape::OpenAiChat => {
                let fat = ptr(at, "function");
                let f = match obj.get("function") {
                    Some(Value::Object(f)) => f,
                    Some(other) => {
                        return Err(ProtocolError::WrongType {
                            at: fat,
                            expected: "an object",
                            found: json_type(other),
                        });
                    }
                    None => {
                        return Err(ProtocolError::MissingField {
                            at: at.to_owned(),
                            field: "function",
                        });
                    }
                };
                let mut def = Self::read_flat(f, &fat, Vendor::OpenAiChat)?;
                def.extra_outer = obj
                    .iter()
                    .filter(|(k, _)| k.as_str() != "type" && k.as_str() != "function")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Ok(def)
            }
            Shape::Other => Err(ProtocolError::UnknownShape {
                at: at.to_owned(),
                expected: "a client tool definition (Anthropic, OpenAI Chat or Responses function)",
                found: short(v),
            }),
        }
    }

    /// Reads the flat member set: Anthropic top level, Responses top level or
    /// the Chat `function` object.
    fn read_flat(
        obj: &Map<String, Value>,
        at: &str,
        source: Vendor,
    ) -> Result<ToolDefinition, ProtocolError> {
        let schema_key = match source {
            Vendor::Anthropic => "input_schema",
            Vendor::OpenAiChat | Vendor::OpenAiResponses => "parameters",
        };
        let name = match obj.get("name") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: ptr(at, "name"),
                    expected: "a string",
                    found: json_type(other),
                });
            }
            None => {
                return Err(ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "name",
                });
            }
        };
        let mut extra = Map::new();
        let mut description = None;
        let mut strict = None;
        let mut schema = None;
        for (k, v) in obj {
            match (k.as_str(), v) {
                ("name", _) => {}
                ("type", _) if source != Vendor::Anthropic => {}
                ("description", Value::String(s)) => description = Some(s.clone()),
                ("strict", Value::Bool(b)) => strict = Some(*b),
                (key, v) if key == schema_key && !v.is_null() => schema = Some(v.clone()),
                // `null` for an optional member stays as given (Responses
                // sends `"description": null`, `"parameters": null`).
                (_, Value::Null) => {
                    extra.insert(k.clone(), Value::Null);
                }
                ("description", other) | ("strict", other) => {
                    return Err(ProtocolError::WrongType {
                        at: ptr(at, k),
                        expected: if k == "strict" {
                            "a boolean"
                        } else {
                            "a string"
                        },
                        found: json_type(other),
                    });
                }
                _ => {
                    extra.insert(k.clone(), v.clone());
                }
            }
        }
        let schema_given = schema.is_some();
        let input_schema = match schema {
            Some(s) => s,
            None if source == Vendor::Anthropic => {
                return Err(ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "input_schema",
                });
            }
            None => empty_object_schema(),
        };
        ToolDefinition::build(
            Parts {
                name,
                description,
                input_schema,
                schema_given,
                strict,
                source,
                extra,
            },
            at,
        )
    }

    /// The checks every constructor runs (the name rule, then the schema
    /// compiles), and the compiled schema.
    fn build(p: Parts, at: &str) -> Result<ToolDefinition, ProtocolError> {
        if let Err(problem) = validate_tool_name(&p.name) {
            return Err(ProtocolError::InvalidToolName {
                at: ptr(at, "name"),
                name: p.name,
                problem,
            });
        }
        let schema_at = ptr(
            at,
            match p.source {
                Vendor::Anthropic => "input_schema",
                _ => "parameters",
            },
        );
        let compiled = CompiledSchema::compile(&p.input_schema).map_err(|error| {
            ProtocolError::SchemaDoesNotCompile {
                at: schema_at,
                tool: p.name.clone(),
                error,
            }
        })?;
        Ok(ToolDefinition {
            name: p.name,
            description: p.description,
            input_schema: p.input_schema,
            schema_given: p.schema_given,
            strict: p.strict,
            source: p.source,
            extra: p.extra,
            extra_outer: Map::new(),
            compiled,
            schema_error: None,
        })
    }

    /// As [`from_vendor_json`](Self::from_vendor_json), except that a schema
    /// that does not compile is kept as given, reported by
    /// [`schema_error`](Self::schema_error), and checks nothing
    /// ([`compiled_schema`](Self::compiled_schema) accepts any arguments).
    pub(crate) fn from_vendor_json_lenient_at(
        v: &Value,
        at: &str,
    ) -> Result<ToolDefinition, ProtocolError> {
        let error = match Self::from_vendor_json_at(v, at) {
            Err(e @ ProtocolError::SchemaDoesNotCompile { .. }) => e,
            other => return other,
        };
        let mut accepting = v.clone();
        let mut original = None;
        for pointer in ["/input_schema", "/parameters", "/function/parameters"] {
            if let Some(slot) = accepting.pointer_mut(pointer) {
                original = Some(std::mem::replace(slot, Value::Object(Map::new())));
            }
        }
        let mut def = Self::from_vendor_json_at(&accepting, at)?;
        if let Some(schema) = original {
            def.input_schema = schema;
        }
        def.schema_error = Some(std::sync::Arc::new(error));
        Ok(def)
    }

    /// Validates arguments the user holds as a `serde_json::Value` against
    /// the compiled schema (the value is converted once, O(its size); a
    /// streamed call's arguments are checked as they arrive instead).
    ///
    /// # Errors
    ///
    /// Every violation, in the schema's order.
    ///
    /// # Examples
    ///
    /// ```
    /// use serde_json::json;
    /// use tooljson::protocol::ToolDefinition;
    /// let def = ToolDefinition::new("f", None, json!({"type": "object", "required": ["a"]}))?;
    /// assert!(def.validate_json(&json!({"a": 1})).is_ok());
    /// assert_eq!(def.validate_json(&json!({})).unwrap_err()[0].to_string(),
    ///     r#": expected required property "a", found an object without it"#);
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn validate_json(&self, arguments: &Value) -> Result<(), Vec<crate::schema::Violation>> {
        self.compiled
            .validate(&crate::Value::from(arguments.clone()))
    }

    /// Why the schema did not compile, for a definition read leniently
    /// ([`ToolSet::from_request_json_lenient`](super::ToolSet::from_request_json_lenient));
    /// its calls are then accepted without a schema check.
    pub fn schema_error(&self) -> Option<&ProtocolError> {
        self.schema_error.as_deref()
    }

    /// The input schema, compiled (once, when the definition was built):
    /// validate finished arguments with it, or check them as they stream
    /// with [`CompiledSchema::stream_check`].
    ///
    /// # Examples
    ///
    /// ```
    /// use serde_json::json;
    /// use tooljson::protocol::ToolDefinition;
    /// let def = ToolDefinition::new("get_weather", None, json!({
    ///     "type": "object",
    ///     "properties": {"unit": {"enum": ["celsius", "fahrenheit"]}},
    ///     "required": ["location"]
    /// }))?;
    /// let args = tooljson::from_str(r#"{"unit": "kelvin"}"#)?;
    /// let violations = def.compiled_schema().validate(&args).unwrap_err();
    /// assert_eq!(violations.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compiled_schema(&self) -> &CompiledSchema {
        &self.compiled
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description, if one was given.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The JSON Schema of the input (`input_schema` / `parameters`). A
    /// function declared without `parameters` has
    /// `{"type":"object","properties":{}}`.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// `strict`, if given.
    pub fn strict(&self) -> Option<bool> {
        self.strict
    }

    /// The shape the definition was read from ([`Vendor::Anthropic`] for
    /// [`new`](Self::new)).
    pub fn source(&self) -> Vendor {
        self.source
    }

    /// Members beyond `name`, `description`, the schema and `strict`, kept as
    /// given for the [`source`](Self::source) shape (for Chat: those inside
    /// `function`).
    pub fn extra(&self) -> &Map<String, Value> {
        &self.extra
    }

    /// The definition in `vendor`'s shape.
    pub fn to_vendor(&self, vendor: Vendor) -> Value {
        let own = vendor == self.source;
        let mut flat = if own { self.extra.clone() } else { Map::new() };
        flat.insert("name".to_owned(), Value::String(self.name.clone()));
        if let Some(d) = &self.description {
            flat.insert("description".to_owned(), Value::String(d.clone()));
        }
        // An absent OpenAI `parameters` stays absent for OpenAI; Anthropic
        // requires `input_schema`, so it gets the empty object schema.
        let schema_key = match vendor {
            Vendor::Anthropic => "input_schema",
            _ => "parameters",
        };
        if self.schema_given || vendor == Vendor::Anthropic {
            flat.insert(schema_key.to_owned(), self.input_schema.clone());
        }
        if let Some(s) = self.strict {
            flat.insert("strict".to_owned(), Value::Bool(s));
        }
        match vendor {
            Vendor::Anthropic => Value::Object(flat),
            Vendor::OpenAiResponses => {
                flat.insert("type".to_owned(), Value::String("function".to_owned()));
                Value::Object(flat)
            }
            Vendor::OpenAiChat => {
                let mut outer = if own {
                    self.extra_outer.clone()
                } else {
                    Map::new()
                };
                outer.insert("type".to_owned(), Value::String("function".to_owned()));
                outer.insert("function".to_owned(), Value::Object(flat));
                Value::Object(outer)
            }
        }
    }

    /// The Anthropic shape: `{"name", "description", "input_schema", ...}`.
    pub fn to_anthropic(&self) -> Value {
        self.to_vendor(Vendor::Anthropic)
    }

    /// The OpenAI Chat shape: `{"type":"function","function":{...,"parameters"}}`.
    pub fn to_openai_chat(&self) -> Value {
        self.to_vendor(Vendor::OpenAiChat)
    }

    /// The OpenAI Responses shape: `{"type":"function","name",...,"parameters"}`.
    pub fn to_openai_responses(&self) -> Value {
        self.to_vendor(Vendor::OpenAiResponses)
    }
}

/// Serializes in the shape the definition was read from.
impl serde::Serialize for ToolDefinition {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_vendor(self.source).serialize(s)
    }
}

/// Deserializes any of the three shapes, with the checks of
/// [`ToolDefinition::from_vendor_json`].
impl<'de> serde::Deserialize<'de> for ToolDefinition {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        ToolDefinition::from_vendor_json(&v).map_err(serde::de::Error::custom)
    }
}

/// The members of a definition before its checks.
struct Parts {
    name: String,
    description: Option<String>,
    input_schema: Value,
    schema_given: bool,
    strict: Option<bool>,
    source: Vendor,
    extra: Map<String, Value>,
}

/// Which shape a tool-list entry has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Anthropic,
    OpenAiChat,
    OpenAiResponses,
    /// Server / hosted / custom tools: `{"type":"web_search_20250305",...}`,
    /// `{"type":"file_search"}`, Responses `{"type":"custom"}` (free text).
    Other,
}

pub(crate) fn classify(obj: &Map<String, Value>) -> Shape {
    match obj.get("type").and_then(Value::as_str) {
        None if obj.get("type").is_none() => Shape::Anthropic,
        Some("function") if obj.contains_key("function") => Shape::OpenAiChat,
        Some("function") => Shape::OpenAiResponses,
        // Anthropic client tools may say `"type":"custom"`; Responses custom
        // tools (free-text input with a grammar) have no input_schema.
        Some("custom") if obj.contains_key("input_schema") => Shape::Anthropic,
        _ => Shape::Other,
    }
}
