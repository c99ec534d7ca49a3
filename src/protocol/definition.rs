//! Tool definitions in the five vendor shapes, the vendors' name rule, and
//! the schema compiled once per definition.

use crate::value::{Map, Value};

use super::Vendor;
use super::error::{NameProblem, ProtocolError, json_type, ptr, short};
use super::gemini_schema::{self, GeminiSchema};
use super::loss::{Converted, Loss};
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
/// its input, in any of the five vendor shapes.
///
/// | vendor | JSON |
/// |---|---|
/// | Anthropic | `{"name", "description", "input_schema", "strict"?}` |
/// | OpenAI Chat | `{"type":"function", "function":{"name", "description", "parameters", "strict"?}}` |
/// | OpenAI Responses | `{"type":"function", "name", "description", "parameters", "strict"?}` |
/// | Gemini | `{"name", "description", "parameters" \| "parametersJsonSchema"}` (an entry of `tools[].functionDeclarations`) |
/// | Bedrock Converse | `{"toolSpec": {"name", "description", "inputSchema": {"json"}}}` (an entry of `toolConfig.tools`) |
///
/// A definition remembers the shape it was read from ([`source`](Self::source)),
/// its members' order, and every member beyond the common four
/// (`cache_control`, `eager_input_streaming`, Gemini `behavior`, a `null`
/// description...): written back in its own shape it is the same JSON.
/// Written in another vendor's shape ([`to_vendor`](Self::to_vendor)) the
/// vendor-only members, and `strict` for Gemini and Bedrock (which have no
/// such switch), are left out and reported as [`Loss`]es.
///
/// Gemini's `parameters` is an OpenAPI 3.0 subset, read into JSON Schema as
/// described in [`GeminiSchema`]'s module; written for Gemini, a schema goes
/// into `parameters` when the subset says it exactly, else verbatim into
/// `parametersJsonSchema` ([`to_gemini`](Self::to_gemini) chooses).
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
/// use tooljson::json;
/// use tooljson::protocol::{ToolDefinition, Vendor};
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
/// assert_eq!(def.to_vendor(Vendor::Anthropic).lossless()?, anthropic);
/// assert_eq!(
///     def.to_vendor(Vendor::OpenAiChat).lossless()?,
///     json!({"type": "function", "function": {
///         "name": "get_weather",
///         "description": "Get the current weather in a given location",
///         "parameters": anthropic["input_schema"]
///     }})
/// );
/// assert_eq!(
///     def.to_vendor(Vendor::Bedrock).lossless()?,
///     json!({"toolSpec": {
///         "name": "get_weather",
///         "description": "Get the current weather in a given location",
///         "inputSchema": {"json": anthropic["input_schema"]}
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
    extra: Map,
    /// Chat: members beside `type` and `function`; Bedrock: beside `toolSpec`.
    extra_outer: Map,
    /// Gemini `parameters` as read (the OpenAPI subset), written back for
    /// Gemini; `input_schema` holds it read as JSON Schema.
    native_schema: Option<Value>,
    /// The members of the flat object (Chat `function`, Bedrock `toolSpec`)
    /// and of the outer one, in the order read, for writing back in order.
    order: Vec<String>,
    outer_order: Vec<String>,
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
            && self.native_schema == other.native_schema
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
    /// use tooljson::json;
    /// use tooljson::protocol::{ProtocolError, ToolDefinition, Vendor};
    /// let def = ToolDefinition::new("get_time", Some("Current time"), json!({"type": "object"}))?;
    /// assert_eq!(def.to_vendor(Vendor::OpenAiResponses).lossless()?["name"], "get_time");
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
                openapi: false,
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

    /// Reads a definition in any of the five vendor shapes (see the table
    /// on [`ToolDefinition`]). Without `type`, `toolSpec` means Bedrock and
    /// `parameters` / `parametersJsonSchema` without `input_schema` mean
    /// Gemini; use [`from_vendor`](Self::from_vendor) for a Gemini
    /// declaration without parameters.
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

    /// Reads a definition in `vendor`'s shape.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{ToolDefinition, Vendor};
    /// let gemini = json!({"name": "now", "description": "The time"});
    /// let def = ToolDefinition::from_vendor(Vendor::Gemini, &gemini)?;
    /// assert_eq!(def.to_vendor(Vendor::Gemini).lossless()?, gemini);
    /// // Responses requires `parameters` (null: none) and reads an absent
    /// // `strict` as true.
    /// assert_eq!(def.to_vendor(Vendor::OpenAiResponses).lossless()?,
    ///     json!({"type": "function", "name": "now", "description": "The time",
    ///            "parameters": null, "strict": false}));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn from_vendor(vendor: Vendor, v: &Value) -> Result<ToolDefinition, ProtocolError> {
        let def = match vendor {
            Vendor::Gemini => {
                let obj = as_definition(v, "")?;
                Self::read_flat(obj, "", Vendor::Gemini)
            }
            _ => Self::from_vendor_json_at(v, ""),
        }?;
        if def.source != vendor {
            return Err(ProtocolError::UnknownShape {
                at: String::new(),
                expected: vendor_definition(vendor),
                found: short(v),
            });
        }
        Ok(def)
    }

    pub(crate) fn from_vendor_json_at(
        v: &Value,
        at: &str,
    ) -> Result<ToolDefinition, ProtocolError> {
        let obj = as_definition(v, at)?;
        match classify(obj) {
            Shape::Anthropic => Self::read_flat(obj, at, Vendor::Anthropic),
            Shape::OpenAiResponses => Self::read_flat(obj, at, Vendor::OpenAiResponses),
            Shape::Gemini => Self::read_flat(obj, at, Vendor::Gemini),
            Shape::OpenAiChat | Shape::Bedrock => {
                let (inner, source) = match classify(obj) {
                    Shape::OpenAiChat => ("function", Vendor::OpenAiChat),
                    _ => ("toolSpec", Vendor::Bedrock),
                };
                let fat = ptr(at, inner);
                let f = match obj.get(inner) {
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
                            field: inner,
                        });
                    }
                };
                let mut def = Self::read_flat(f, &fat, source)?;
                def.extra_outer = obj
                    .iter()
                    .filter(|(k, _)| *k != "type" && *k != inner)
                    .map(|(k, v)| (k.to_owned(), v.clone()))
                    .collect();
                def.outer_order = obj.keys().map(str::to_owned).collect();
                Ok(def)
            }
            Shape::Other => Err(ProtocolError::UnknownShape {
                at: at.to_owned(),
                expected: "a client tool definition (Anthropic, OpenAI Chat or Responses function, Gemini function declaration, Bedrock toolSpec)",
                found: short(v),
            }),
        }
    }

    /// Reads the flat member set: Anthropic, Responses and Gemini top level,
    /// the Chat `function` object, the Bedrock `toolSpec` object.
    fn read_flat(obj: &Map, at: &str, source: Vendor) -> Result<ToolDefinition, ProtocolError> {
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
        let mut native_schema = None;
        for (k, v) in obj {
            let is_schema = schema_keys(source).contains(&k);
            match (k, v) {
                ("name", _) => {}
                ("type", _) if matches!(source, Vendor::OpenAiChat | Vendor::OpenAiResponses) => {}
                ("description", Value::String(s)) => description = Some(s.clone()),
                ("strict", Value::Bool(b)) => strict = Some(*b),
                (key, v) if is_schema && !v.is_null() => {
                    if schema.is_some() {
                        return Err(ProtocolError::UnknownShape {
                            at: ptr(at, key),
                            expected: "one of parameters and parametersJsonSchema",
                            found: "both".to_owned(),
                        });
                    }
                    schema = Some(match (source, key) {
                        (Vendor::Gemini, "parameters") => {
                            native_schema = Some(v.clone());
                            gemini_schema::from_openapi(v)
                        }
                        (Vendor::Bedrock, _) => bedrock_json(v, &ptr(at, key))?.clone(),
                        _ => v.clone(),
                    });
                }
                // `null` for an optional member stays as given (Responses
                // sends `"description": null`, `"parameters": null`).
                (_, Value::Null) => {
                    extra.insert(k.to_owned(), Value::Null);
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
                    extra.insert(k.to_owned(), v.clone());
                }
            }
        }
        let schema_given = schema.is_some();
        let input_schema = match schema {
            Some(s) => s,
            None if matches!(source, Vendor::Anthropic | Vendor::Bedrock) => {
                return Err(ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: schema_keys(source)[0],
                });
            }
            None => empty_object_schema(),
        };
        let mut def = ToolDefinition::build(
            Parts {
                name,
                description,
                input_schema,
                schema_given,
                strict,
                source,
                extra,
                openapi: native_schema.is_some(),
            },
            at,
        )?;
        def.native_schema = native_schema;
        def.order = obj.keys().map(str::to_owned).collect();
        Ok(def)
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
        let full = schema_pointer(p.source, p.openapi);
        let schema_at = format!("{at}{}", &full[member_base(p.source).len()..]);
        let compiled = CompiledSchema::from_value(&p.input_schema).map_err(|error| {
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
            native_schema: None,
            order: Vec::new(),
            outer_order: Vec::new(),
            compiled,
            schema_error: None,
        })
    }

    /// Reads one entry of a tools list at `at`: a Gemini declaration when
    /// `gemini`, else any shape; `lenient` as in
    /// [`ToolSet::from_request_json_lenient`](super::ToolSet::from_request_json_lenient).
    pub(crate) fn read_entry(
        v: &Value,
        at: &str,
        gemini: bool,
        lenient: bool,
    ) -> Result<ToolDefinition, ProtocolError> {
        let vendor = gemini.then_some(Vendor::Gemini);
        match (lenient, gemini) {
            (true, _) => Self::from_vendor_json_lenient_at(v, at, vendor),
            (false, true) => Self::read_flat(as_definition(v, at)?, at, Vendor::Gemini),
            (false, false) => Self::from_vendor_json_at(v, at),
        }
    }

    /// As [`from_vendor_json`](Self::from_vendor_json), except that a schema
    /// that does not compile is kept as given, reported by
    /// [`schema_error`](Self::schema_error), and checks nothing
    /// ([`compiled_schema`](Self::compiled_schema) accepts any arguments).
    pub(crate) fn from_vendor_json_lenient_at(
        v: &Value,
        at: &str,
        vendor: Option<Vendor>,
    ) -> Result<ToolDefinition, ProtocolError> {
        let read = |v: &Value| match vendor {
            Some(Vendor::Gemini) => Self::read_flat(as_definition(v, at)?, at, Vendor::Gemini),
            _ => Self::from_vendor_json_at(v, at),
        };
        let error = match read(v) {
            Err(e @ ProtocolError::SchemaDoesNotCompile { .. }) => e,
            other => return other,
        };
        let mut accepting = v.clone();
        let mut original = None;
        for pointer in [
            "/input_schema",
            "/parameters",
            "/parametersJsonSchema",
            "/function/parameters",
            "/toolSpec/inputSchema/json",
        ] {
            if let Some(slot) = accepting.pointer_mut(pointer) {
                original = Some(std::mem::replace(slot, Value::Object(Map::new())));
            }
        }
        let mut def = read(&accepting)?;
        if let Some(schema) = original {
            if def.native_schema.is_some() {
                def.input_schema = gemini_schema::from_openapi(&schema);
                def.native_schema = Some(schema);
            } else {
                def.input_schema = schema;
            }
        }
        def.schema_error = Some(std::sync::Arc::new(error));
        Ok(def)
    }

    /// Validates finished arguments against the compiled schema, O(their
    /// size) (a streamed call's arguments are checked as they arrive
    /// instead).
    ///
    /// # Errors
    ///
    /// Every violation, in the schema's order.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::ToolDefinition;
    /// let def = ToolDefinition::new("f", None, json!({"type": "object", "required": ["a"]}))?;
    /// assert!(def.validate_json(&json!({"a": 1})).is_ok());
    /// assert_eq!(def.validate_json(&json!({})).unwrap_err()[0].to_string(),
    ///     r#": expected required property "a", found an object without it"#);
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn validate_json(&self, arguments: &Value) -> Result<(), Vec<crate::schema::Violation>> {
        self.compiled.validate(arguments)
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
    /// use tooljson::json;
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
    pub fn extra(&self) -> &Map {
        &self.extra
    }

    /// The definition in `vendor`'s shape, and what that shape cannot carry:
    /// members only the source vendor has, and `strict` for Gemini and
    /// Bedrock. In its own shape it is the JSON it was read from. For
    /// Gemini the schema goes where [`GeminiSchema::Auto`] says.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{ToolDefinition, Vendor};
    /// let def = ToolDefinition::from_vendor_json(&json!({
    ///     "name": "f", "input_schema": {"type": "object"},
    ///     "cache_control": {"type": "ephemeral"}
    /// }))?;
    /// let (chat, losses) = def.to_vendor(Vendor::OpenAiChat).accept_losses();
    /// assert_eq!(chat, json!({"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}));
    /// assert_eq!((losses[0].at.as_str(), losses[0].part.as_str()), ("/cache_control", "cache_control"));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn to_vendor(&self, vendor: Vendor) -> Converted<Value> {
        self.write(vendor, GeminiSchema::Auto)
    }

    /// The Gemini function declaration, with the schema where `schema`
    /// says: [`GeminiSchema::OpenApi`] reports what the subset cannot say.
    /// A definition read from Gemini `parameters` keeps them as given
    /// unless `schema` is [`GeminiSchema::JsonSchema`].
    pub fn to_gemini(&self, schema: GeminiSchema) -> Converted<Value> {
        self.write(Vendor::Gemini, schema)
    }

    fn write(&self, vendor: Vendor, gemini: GeminiSchema) -> Converted<Value> {
        let own = vendor == self.source;
        let mut losses = Vec::new();
        if !own {
            let inner = member_base(self.source);
            let carried = |k: &str, v: &Value| {
                v.is_null() || (self.source == Vendor::Anthropic && k == "type" && v == "custom")
            };
            for (base, members) in [(inner, &self.extra), ("", &self.extra_outer)] {
                for (k, _) in members.iter().filter(|(k, v)| !carried(k, v)) {
                    losses.push(Loss::dropped(ptr(base, k),
                        k, format!(
                            "a member of the {} definition that {vendor} has no place for; left out",
                            self.source
                        ),
                    ));
                }
            }
        }
        if !own && !self.schema_given && matches!(vendor, Vendor::Anthropic | Vendor::Bedrock) {
            losses.push(Loss::changed(member_base(self.source),
                "parameters", format!(
                    "{vendor} requires a schema: the absent parameters are written as the empty object schema (the same meaning), which stays present on the way back"
                ),
            ));
        }
        let mut flat = if own { self.extra.clone() } else { Map::new() };
        flat.insert("name".to_owned(), Value::String(self.name.clone()));
        if let Some(d) = &self.description {
            flat.insert("description".to_owned(), Value::String(d.clone()));
        }
        // An absent OpenAI / Gemini schema stays absent for them; Anthropic
        // and Bedrock require one, so they get the empty object schema.
        match vendor {
            Vendor::Anthropic => {
                flat.insert("input_schema".to_owned(), self.input_schema.clone());
            }
            Vendor::Bedrock => {
                let mut json = Map::new();
                json.insert("json".to_owned(), self.input_schema.clone());
                flat.insert("inputSchema".to_owned(), Value::Object(json));
            }
            Vendor::Gemini if self.schema_given => {
                let (key, schema) = self.gemini_schema(own, gemini, &mut losses);
                flat.insert(key.to_owned(), schema);
            }
            _ if self.schema_given => {
                flat.insert("parameters".to_owned(), self.input_schema.clone());
            }
            // Responses requires the member; `null` is its "no parameters".
            Vendor::OpenAiResponses if !own => {
                flat.insert("parameters".to_owned(), Value::Null);
            }
            _ => {}
        }
        // Responses reads an absent `strict` as true, the others as false
        // (or have none): a tool that is not strict says so for Responses,
        // and a `false` is left to the default for the others.
        if !own
            && self.source == Vendor::OpenAiResponses
            && self.strict.is_none()
            && !self.extra.contains_key("strict")
        {
            // The member is absent: the pointer names the tool.
            losses.push(Loss::changed(
                member_base(self.source),
                "strict",
                format!(
                    "Responses reads an absent strict as true, {vendor} as not strict: \
                     written without it"
                ),
            ));
        }
        let strict = match (own, vendor, self.strict) {
            (false, Vendor::OpenAiResponses, None) => Some(false),
            (false, _, Some(false)) if vendor != Vendor::OpenAiResponses => None,
            (_, _, s) => s,
        };
        if let Some(s) = strict {
            if own || !matches!(vendor, Vendor::Gemini | Vendor::Bedrock) {
                flat.insert("strict".to_owned(), Value::Bool(s));
            } else {
                losses.push(Loss::dropped(
                    ptr(member_base(self.source), "strict"),
                    "strict",
                    format!("{vendor} has no strict switch on a tool; left out"),
                ));
            }
        }
        if own {
            flat = in_order(flat, &self.order);
        }
        let value = match vendor {
            Vendor::Anthropic | Vendor::Gemini => Value::Object(flat),
            Vendor::OpenAiResponses => {
                let mut o = Map::new();
                o.insert("type".to_owned(), Value::String("function".to_owned()));
                o.extend(flat);
                Value::Object(if own { in_order(o, &self.order) } else { o })
            }
            Vendor::OpenAiChat | Vendor::Bedrock => {
                let mut outer = Map::new();
                if vendor == Vendor::OpenAiChat {
                    outer.insert("type".to_owned(), Value::String("function".to_owned()));
                }
                outer.insert(member_base(vendor)[1..].to_owned(), Value::Object(flat));
                if own {
                    outer.extend(self.extra_outer.clone());
                    outer = in_order(outer, &self.outer_order);
                }
                Value::Object(outer)
            }
        };
        Converted::new(value, losses)
    }

    /// The Gemini schema member and its value.
    fn gemini_schema(
        &self,
        own: bool,
        gemini: GeminiSchema,
        losses: &mut Vec<Loss>,
    ) -> (&'static str, Value) {
        if let (true, Some(native), GeminiSchema::Auto | GeminiSchema::OpenApi) =
            (own, &self.native_schema, gemini)
        {
            return ("parameters", native.clone());
        }
        let json_schema = ("parametersJsonSchema", self.input_schema.clone());
        match gemini {
            GeminiSchema::JsonSchema => json_schema,
            GeminiSchema::Auto if own => json_schema,
            GeminiSchema::Auto => match gemini_schema::fits_openapi(&self.input_schema) {
                Some(p) => ("parameters", p),
                None => json_schema,
            },
            GeminiSchema::OpenApi => {
                let at = schema_pointer(self.source, self.native_schema.is_some());
                let (p, lost) = gemini_schema::to_openapi(&self.input_schema, at);
                losses.extend(lost);
                ("parameters", p)
            }
        }
    }
}

/// Serializes in the shape the definition was read from.
impl serde::Serialize for ToolDefinition {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Its own shape loses nothing.
        let (v, _) = self.to_vendor(self.source).accept_losses();
        v.serialize(s)
    }
}

/// Deserializes any of the five shapes, with the checks of
/// [`ToolDefinition::from_vendor_json`].
impl<'de> serde::Deserialize<'de> for ToolDefinition {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        ToolDefinition::from_vendor_json(&v).map_err(serde::de::Error::custom)
    }
}

/// `map`'s members in `order` first (those it has), then the rest.
fn in_order(mut map: Map, order: &[String]) -> Map {
    let mut out = Map::new();
    for k in order {
        if let Some(v) = map.shift_remove(k) {
            out.insert(k.clone(), v);
        }
    }
    out.extend(map);
    out
}

/// The members that hold the schema in `source`'s flat object.
fn schema_keys(source: Vendor) -> &'static [&'static str] {
    match source {
        Vendor::Anthropic => &["input_schema"],
        Vendor::Gemini => &["parameters", "parametersJsonSchema"],
        Vendor::Bedrock => &["inputSchema"],
        _ => &["parameters"],
    }
}

/// Where the flat members are in `source`'s shape.
fn member_base(source: Vendor) -> &'static str {
    match source {
        Vendor::OpenAiChat => "/function",
        Vendor::Bedrock => "/toolSpec",
        _ => "",
    }
}

/// Where the schema is in `source`'s shape (`openapi`: Gemini `parameters`).
fn schema_pointer(source: Vendor, openapi: bool) -> &'static str {
    match source {
        Vendor::Anthropic => "/input_schema",
        Vendor::OpenAiChat => "/function/parameters",
        Vendor::Gemini if !openapi => "/parametersJsonSchema",
        Vendor::Bedrock => "/toolSpec/inputSchema/json",
        _ => "/parameters",
    }
}

/// Bedrock's `inputSchema`: `{"json": <schema>}`.
fn bedrock_json<'a>(v: &'a Value, at: &str) -> Result<&'a Value, ProtocolError> {
    match v {
        Value::Object(o) if o.len() == 1 && o.contains_key("json") => Ok(&o["json"]),
        _ => Err(ProtocolError::UnknownShape {
            at: at.to_owned(),
            expected: "an inputSchema of the form {\"json\": <schema>}",
            found: short(v),
        }),
    }
}

fn as_definition<'a>(v: &'a Value, at: &str) -> Result<&'a Map, ProtocolError> {
    v.as_object().ok_or_else(|| ProtocolError::WrongType {
        at: at.to_owned(),
        expected: "a tool definition object",
        found: json_type(v),
    })
}

fn vendor_definition(vendor: Vendor) -> &'static str {
    match vendor {
        Vendor::Anthropic => "an Anthropic tool definition",
        Vendor::OpenAiChat => "an OpenAI Chat function tool",
        Vendor::OpenAiResponses => "an OpenAI Responses function tool",
        Vendor::Gemini => "a Gemini function declaration",
        Vendor::Bedrock => "a Bedrock toolSpec entry",
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
    extra: Map,
    /// Gemini: the schema came from `parameters` (the OpenAPI subset).
    openapi: bool,
}

/// Which shape a tool-list entry has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Anthropic,
    OpenAiChat,
    OpenAiResponses,
    /// A Gemini function declaration (`parameters` / `parametersJsonSchema`).
    Gemini,
    /// A Bedrock `{"toolSpec": {...}}` entry.
    Bedrock,
    /// Server / hosted / custom tools: `{"type":"web_search_20250305",...}`,
    /// `{"type":"file_search"}`, Responses `{"type":"custom"}` (free text).
    Other,
}

pub(crate) fn classify(obj: &Map) -> Shape {
    match obj.get("type").and_then(Value::as_str) {
        None if obj.contains_key("toolSpec") => Shape::Bedrock,
        None if !obj.contains_key("input_schema")
            && (obj.contains_key("parameters") || obj.contains_key("parametersJsonSchema")) =>
        {
            Shape::Gemini
        }
        None if obj.get("type").is_none() => Shape::Anthropic,
        Some("function") if obj.contains_key("function") => Shape::OpenAiChat,
        Some("function") => Shape::OpenAiResponses,
        // Anthropic client tools may say `"type":"custom"`; Responses custom
        // tools (free-text input with a grammar) have no input_schema.
        Some("custom") if obj.contains_key("input_schema") => Shape::Anthropic,
        _ => Shape::Other,
    }
}
