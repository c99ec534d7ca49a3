//! JSON Schema, compiled once: validate finished tool-call arguments, and
//! check them while they stream.
//!
//! [`CompiledSchema`] is built from a schema (draft 2020-12 by default,
//! draft-07 when `$schema` says so or [`SchemaBuilder::draft`] asks) into a
//! flat arena of nodes with precomputed keyword lists; it is immutable
//! (apart from a guess of the order properties come in, which speeds up
//! lookups and which every lookup verifies), `Send + Sync`, and cheap to
//! clone (an `Arc`). [`CompiledSchema::validate`]
//! returns every [`Violation`] with its instance path, schema path, keyword
//! and a message worded "expected X, found Y" that can be sent back to a
//! model as is. [`StreamCheck`] is a [`crate::TokenSink`]: fed the parser's
//! tokens, it reports each violation at the byte offset where it became
//! certain, and its [`StreamCheck::finish`] verdict equals `validate` of the
//! final value. [`CheckedSink`] puts it beside another sink (a
//! [`crate::ValueBuilder`], say) on the same pass.
//!
//! # Example: validate arguments and send the errors back
//!
//! ```
//! use tooljson::CompiledSchema;
//! let schema = CompiledSchema::compile(&serde_json::json!({
//!     "type": "object",
//!     "properties": {
//!         "path": {"type": "string"},
//!         "mode": {"enum": ["read", "write"]}
//!     },
//!     "required": ["path"],
//!     "additionalProperties": false
//! }))?;
//! let args = tooljson::from_str(r#"{"mode": "append", "force": true}"#)?;
//! let errors = schema.validate(&args).unwrap_err();
//! let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
//! assert_eq!(lines, [
//!     r#": expected required property "path", found an object without it"#,
//!     r#"/mode: expected one of "read", "write", found "append""#,
//!     r#": expected only properties "mode", "path", found unexpected property "force""#,
//! ]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example: stop a doomed call while it streams
//!
//! ```
//! use tooljson::{CompiledSchema, Parser};
//! let schema = CompiledSchema::from_json_str(r#"{"properties": {"n": {"maximum": 10}}}"#)?;
//! let mut check = schema.stream_check();
//! let mut parser = Parser::new();
//! parser.feed(br#"{"n": 11, "rest": "#, &mut check)?;
//! assert!(check.is_doomed());
//! assert_eq!(check.first_violation_offset(), Some(9)); // the byte after `11`
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is supported
//!
//! Every validation keyword of draft 2020-12 and draft-07, including
//! `unevaluatedProperties` / `unevaluatedItems`, `if` / `then` / `else`,
//! `dependentSchemas`, `dependentRequired`, `contains` with
//! `minContains` / `maxContains`, and draft-07 `dependencies`. The 2019-09
//! `$recursiveRef` is refused in strict mode (listed by
//! [`CompiledSchema::ignored_keywords`] in lenient mode). `$ref`
//! resolves `$defs` / `definitions`, JSON pointers, `$id`, `$anchor`,
//! `$dynamicRef` / `$dynamicAnchor`, the bundled meta-schemas and resources
//! registered with [`SchemaBuilder::resource`]; there is no network access.
//! Numbers compare exactly (decimal arithmetic on the lexemes). `pattern` is
//! ECMA-262 translated to the `regex` crate; look-around and back references
//! fail compilation with a message naming them.

mod automaton;
mod budget;
mod compile;
mod doc;
mod ecma;
mod format;
mod idna;
mod number;
mod options;
mod sequence;
mod stream;
mod uri;
mod validate;

use std::fmt;
use std::sync::Arc;

pub use budget::DEFAULT_MAX_FANOUT;
#[cfg(feature = "cost-counters")]
pub use budget::{reset_work, work_done};
pub use compile::MAX_SCHEMA_DEPTH;
pub use stream::{CheckedSink, StreamCheck, StreamViolation};

use crate::{Path, PathRef, Value};

/// The JSON Schema dialect a schema is read as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Draft {
    /// Draft 2020-12 (the default).
    #[default]
    Draft202012,
    /// Draft-07 (array `items` + `additionalItems`, `definitions`,
    /// `dependencies`, `$ref` overriding its siblings).
    Draft7,
}

/// A schema that does not compile: what is wrong and where in the schema.
///
/// # Examples
///
/// ```
/// let err = tooljson::CompiledSchema::from_json_str(r#"{"properties": {"a": {"minLength": -1}}}"#).unwrap_err();
/// assert_eq!(err.to_string(), "invalid schema at /properties/a/minLength: expected a non-negative integer, found -1");
/// assert_eq!(err.schema_path(), "/properties/a/minLength");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    path: String,
    message: String,
}

impl SchemaError {
    pub(crate) fn new(path: String, message: String) -> SchemaError {
        SchemaError { path, message }
    }

    /// Where in the schema (a JSON Pointer, or a URI for other resources).
    pub fn schema_path(&self) -> &str {
        &self.path
    }

    /// What is wrong, without the location.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "invalid schema at the root: {}", self.message)
        } else {
            write!(f, "invalid schema at {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for SchemaError {}

/// One way an instance fails its schema.
///
/// Displays as `<instance pointer>: <message>`, e.g.
/// `/mode: expected one of "read", "write", found "append"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where in the instance (JSON Pointer display; the root is `""`).
    pub instance_path: Path,
    /// Where in the schema the failing keyword is, e.g. `/properties/mode/enum`.
    pub schema_path: String,
    /// The failing keyword, e.g. `enum`.
    pub keyword: String,
    /// "expected X, found Y".
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.instance_path, self.message)
    }
}

/// The default of [`SchemaBuilder::max_pattern_memory`]: 32 MiB.
pub const DEFAULT_MAX_PATTERN_MEMORY: u64 = 32 << 20;

/// Options for compiling a schema; see [`CompiledSchema::builder`].
///
/// # Examples
///
/// ```
/// use tooljson::{CompiledSchema, Draft};
/// let schema = CompiledSchema::builder()
///     .draft(Draft::Draft7)
///     .assert_formats(true)
///     .resource("http://example.com/name.json", serde_json::json!({"type": "string", "minLength": 1}))
///     .build(&serde_json::json!({"properties": {"name": {"$ref": "http://example.com/name.json"}, "at": {"format": "date"}}}))?;
/// assert!(schema.is_valid(&tooljson::from_str(r#"{"name": "x", "at": "2024-02-29"}"#)?));
/// assert!(!schema.is_valid(&tooljson::from_str(r#"{"name": "", "at": "2023-02-29"}"#)?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SchemaBuilder {
    opts: compile::Options,
    resources: Vec<(String, Value)>,
    /// See [`SchemaBuilder::max_fanout`].
    max_fanout: u64,
}

impl Default for SchemaBuilder {
    fn default() -> Self {
        SchemaBuilder::new()
    }
}

impl SchemaBuilder {
    /// Defaults: draft 2020-12 unless `$schema` says otherwise, strict,
    /// formats as annotations, patterns within
    /// [`DEFAULT_MAX_PATTERN_MEMORY`] (32 MiB) once compiled.
    pub fn new() -> SchemaBuilder {
        SchemaBuilder {
            opts: compile::Options {
                draft: Draft::Draft202012,
                strict: true,
                assert_formats: false,
                max_pattern_memory: DEFAULT_MAX_PATTERN_MEMORY,
            },
            resources: Vec::new(),
            max_fanout: DEFAULT_MAX_FANOUT,
        }
    }

    /// The draft for schemas whose `$schema` does not name one.
    pub fn draft(mut self, draft: Draft) -> SchemaBuilder {
        self.opts.draft = draft;
        self
    }

    /// Strict (the default): a keyword that affects validity and is not
    /// supported, or a keyword with a malformed value, fails compilation.
    /// Lenient: such keywords are ignored and listed by
    /// [`CompiledSchema::ignored_keywords`].
    pub fn strict(mut self, strict: bool) -> SchemaBuilder {
        self.opts.strict = strict;
        self
    }

    /// Assert `format` (date-time, date, time, email, hostname, ipv4, ipv6,
    /// uri, uri-reference, uuid, json-pointer, relative-json-pointer, regex,
    /// duration) instead of treating it as an annotation. Other format names
    /// stay annotations and are listed by [`CompiledSchema::ignored_keywords`].
    pub fn assert_formats(mut self, assert: bool) -> SchemaBuilder {
        self.opts.assert_formats = assert;
        self
    }

    /// The memory, in bytes, that the schema's `pattern`s and
    /// `patternProperties` may take once compiled, all together (default
    /// [`DEFAULT_MAX_PATTERN_MEMORY`], 32 MiB). A pattern short in text can
    /// be large compiled: `^(?:\\S+\\s+){0,999}\\S+$`, 22 characters, takes
    /// about 3 MiB in the `regex` crate, so a schema from an untrusted source
    /// could otherwise ask for gigabytes. Past the limit, the pattern that
    /// crosses it fails compilation as a malformed keyword does (an error
    /// when strict, ignored and listed when lenient).
    ///
    /// What a pattern takes is an estimate made before it is built: the
    /// exact size of the tables of the patterns matched without a regex,
    /// and for the others a bound from their parsed form (repetitions
    /// multiplied out) that covers the compiled program and the caches of
    /// its first searches.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// let schema = serde_json::json!({"type": "string", "pattern": "^(?:\\S+\\s+){0,999}\\S+$"});
    /// let err = CompiledSchema::builder().max_pattern_memory(1 << 20).build(&schema).unwrap_err();
    /// assert!(err.message().contains("max_pattern_memory"));
    /// assert!(CompiledSchema::builder().build(&schema).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_pattern_memory(mut self, bytes: u64) -> SchemaBuilder {
        self.opts.max_pattern_memory = bytes;
        self
    }

    /// Registers a schema document under `uri`, for `$ref`s to it.
    pub fn resource(mut self, uri: impl Into<String>, schema: serde_json::Value) -> SchemaBuilder {
        self.resources.push((uri.into(), Value::from(schema)));
        self
    }

    /// [`SchemaBuilder::resource`] for a [`Value`] (keeps number lexemes exact).
    pub fn resource_value(mut self, uri: impl Into<String>, schema: Value) -> SchemaBuilder {
        self.resources.push((uri.into(), schema));
        self
    }

    /// Compiles a `serde_json::Value` schema, read in place (not converted
    /// to a [`Value`] first).
    pub fn build(&self, schema: &serde_json::Value) -> Result<CompiledSchema, SchemaError> {
        self.build_doc(doc::Doc::Serde(schema))
    }

    /// Compiles a schema given as a [`Value`] (numbers keep their exact lexeme).
    pub fn build_value(&self, schema: &Value) -> Result<CompiledSchema, SchemaError> {
        self.build_doc(doc::Doc::Own(schema))
    }

    fn build_doc(&self, schema: doc::Doc<'_>) -> Result<CompiledSchema, SchemaError> {
        let prog = compile::compile(schema, &self.resources, &self.opts)?;
        validate::check_fanout(&prog, self.max_fanout)?;
        Ok(CompiledSchema {
            prog: Arc::new(prog),
        })
    }

    /// Compiles a schema given as JSON text.
    pub fn build_str(&self, text: &str) -> Result<CompiledSchema, SchemaError> {
        let v = crate::from_str(text).map_err(|e| {
            SchemaError::new(String::new(), format!("schema is not valid JSON: {e}"))
        })?;
        self.build_value(&v)
    }
}

/// A compiled JSON Schema: immutable (but for a verified guess of property
/// order, see the module docs), `Send + Sync`, cheap to clone.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// let schema = CompiledSchema::from_json_str(r#"{"type": "integer", "maximum": 18446744073709551616}"#)?;
/// assert!(schema.is_valid(&tooljson::from_str("18446744073709551616")?));
/// assert!(!schema.is_valid(&tooljson::from_str("18446744073709551617")?));
/// let err = &schema.validate(&tooljson::from_str("1.5")?).unwrap_err()[0];
/// assert_eq!(err.message, "expected integer, found number 1.5");
/// assert_eq!(err.schema_path, "/type");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CompiledSchema {
    prog: Arc<compile::Program>,
}

impl CompiledSchema {
    /// A builder for non-default options.
    pub fn builder() -> SchemaBuilder {
        SchemaBuilder::new()
    }

    /// Compiles with the defaults: draft 2020-12 unless `$schema` says
    /// draft-07, strict, formats as annotations.
    pub fn compile(schema: &serde_json::Value) -> Result<CompiledSchema, SchemaError> {
        SchemaBuilder::new().build(schema)
    }

    /// Compiles a schema held as a [`Value`].
    pub fn from_value(schema: &Value) -> Result<CompiledSchema, SchemaError> {
        SchemaBuilder::new().build_value(schema)
    }

    /// Compiles a schema given as JSON text.
    pub fn from_json_str(text: &str) -> Result<CompiledSchema, SchemaError> {
        SchemaBuilder::new().build_str(text)
    }

    /// Every violation of `instance`, in schema order.
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<Violation>> {
        let mut errs = Vec::new();
        let v = validate::Validator { prog: &self.prog };
        if v.check::<true>(
            self.prog.root,
            instance,
            &validate::At::ROOT,
            None,
            0,
            &mut errs,
        ) {
            Ok(())
        } else {
            if errs.is_empty() {
                // Every failing path pushes; this is a guard, not a path taken.
                errs.push(Violation {
                    instance_path: Path::root(),
                    schema_path: String::new(),
                    keyword: String::new(),
                    message: "expected a valid value, found an invalid one".into(),
                });
            }
            Err(errs)
        }
    }

    /// Whether `instance` is valid (stops at the first failure).
    pub fn is_valid(&self, instance: &Value) -> bool {
        let v = validate::Validator { prog: &self.prog };
        v.check::<false>(
            self.prog.root,
            instance,
            &validate::At::ROOT,
            None,
            0,
            &mut Vec::new(),
        )
    }

    /// Keywords ignored in lenient mode (unsupported, or with a malformed
    /// value), and unknown formats under [`SchemaBuilder::assert_formats`]
    /// (in either mode), as `schema path` or `schema path: why`.
    pub fn ignored_keywords(&self) -> &[String] {
        &self.prog.ignored
    }

    /// A fresh stream check; it owns a clone of this schema.
    pub fn stream_check(&self) -> StreamCheck {
        StreamCheck::new(self.clone())
    }

    /// Contract point 7: whether the value at `path` is held by a string
    /// `enum` / `const` (so a partial view should show it only when complete).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::{CompiledSchema, Path};
    /// let s = CompiledSchema::from_json_str(r#"{"properties": {"name": {"enum": ["Alice", "Bob"]}, "note": {"type": "string"}}}"#)?;
    /// assert!(s.holds_string_at(Path::parse_pointer("/name").unwrap().as_ref()));
    /// assert!(!s.holds_string_at(Path::parse_pointer("/note").unwrap().as_ref()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn holds_string_at(&self, path: PathRef<'_>) -> bool {
        stream::string_options_at(&self.prog, path, &mut |_| true)
    }

    /// The one `enum` / `const` string at `path` that starts with `prefix`,
    /// if exactly one does: lets a partial view show a prefix that can only
    /// become that option.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::{CompiledSchema, Path};
    /// let s = CompiledSchema::from_json_str(r#"{"properties": {"name": {"enum": ["Alice", "Albert", "Bob"]}}}"#)?;
    /// let p = Path::parse_pointer("/name").unwrap();
    /// assert_eq!(s.unique_option_at(p.as_ref(), "B"), Some("Bob"));
    /// assert_eq!(s.unique_option_at(p.as_ref(), "Al"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unique_option_at(&self, path: PathRef<'_>, prefix: &str) -> Option<&str> {
        stream::unique_option_at(&self.prog, path, prefix)
    }

    pub(crate) fn program(&self) -> &compile::Program {
        &self.prog
    }
}

impl SchemaBuilder {
    /// The fan-out budget: the most subschema visits that validating one
    /// value may cost at its own location (default [`DEFAULT_MAX_FANOUT`],
    /// 100,000). In-place applicators multiply: a definition that refers to
    /// the one before it twice, 30 levels deep, is 2^30 visits in 2 KB of
    /// schema, and `anyOf` / `oneOf` / `unevaluated*` fan-outs do the same.
    /// A schema over the budget fails compilation with an error that names
    /// it, so that `validate`, `is_valid` and the stream check all stay
    /// within the budget per instance location.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// // Each definition refers to the one before twice: 2^20 visits.
    /// let mut defs = serde_json::Map::new();
    /// defs.insert("d0".into(), serde_json::json!({"type": "integer"}));
    /// for i in 1..=20 {
    ///     let prev = format!("#/$defs/d{}", i - 1);
    ///     defs.insert(format!("d{i}"), serde_json::json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}));
    /// }
    /// let schema = serde_json::json!({"$defs": defs, "$ref": "#/$defs/d20"});
    /// let err = CompiledSchema::compile(&schema).unwrap_err();
    /// assert!(err.message().contains("max_fanout"), "{err}");
    /// let allowed = CompiledSchema::builder().max_fanout(1 << 22).build(&schema)?;
    /// assert!(allowed.is_valid(&tooljson::from_str("1")?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_fanout(mut self, visits: u64) -> SchemaBuilder {
        self.max_fanout = visits;
        self
    }
}
