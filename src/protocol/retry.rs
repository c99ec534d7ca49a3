//! The retry path: when a call's arguments do not parse, are cut short, or
//! break the tool's schema, the `is_error` result that tells the model
//! exactly what was wrong (path, expected, found) so it can call again.

use std::fmt;

use crate::error::ErrorCode;
use crate::schema::Violation;

use super::result::{ToolOutcome, ToolResult};
use super::tool_call::{Arguments, ToolCall, invalid_json_input};
use super::tool_set::ToolSet;

/// At most this many bytes of the model's broken input are echoed in a
/// retry message (cut at a character boundary); the call itself keeps all.
pub const MAX_ECHOED_INPUT: usize = 4096;

/// Why a finished call cannot be run.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CallProblem {
    /// The call names a tool that is not declared.
    UnknownTool {
        /// The name called.
        name: String,
        /// The names declared, in order.
        available: Vec<String>,
    },
    /// The argument text is not JSON (invalid, or cut short: see
    /// [`crate::Error::is_truncated`]).
    InvalidJson {
        /// The raw text.
        raw: String,
        /// The parse error: what, where, path.
        error: crate::Error,
    },
    /// The argument text is JSON but holds a number beyond `f64`
    /// (`1e400`), which no JSON library the tool could use will read.
    NumberOutOfRange {
        /// The raw text.
        raw: String,
    },
    /// The arguments are JSON but break the tool's input schema.
    SchemaViolations {
        /// The tool's name.
        tool: String,
        /// Every violation, in the schema's order.
        violations: Vec<Violation>,
    },
}

impl CallProblem {
    /// The text for the model: what was wrong, at which path, what was
    /// expected and what was found, and what to do. (The result built by
    /// [`CallProblem::to_result`] carries `is_error`, so the text does not
    /// repeat "Error".)
    pub fn message(&self) -> String {
        match self {
            CallProblem::UnknownTool { name, available } => format!(
                "There is no tool named {name:?}, so nothing was run. Available tools: {}. \
                 Call one of them by its exact name.",
                if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                }
            ),
            CallProblem::InvalidJson { raw, error } => parse_error_message(raw, error),
            CallProblem::NumberOutOfRange { raw } => format!(
                "The tool input holds a number too large to represent, so the tool was not run.\n\
                 expected: numbers within the range of a 64-bit float\n\
                 input received: {}\n\
                 Call the tool again with smaller numbers (or the number as a string if the \
                 schema allows it).",
                echo(raw)
            ),
            CallProblem::SchemaViolations { tool, violations } => {
                violations_message(tool, violations)
            }
        }
    }

    /// The `is_error` tool result answering `call_id`.
    pub fn to_result(&self, call_id: &str) -> ToolResult {
        ToolResult::new(call_id, ToolOutcome::error(self.message()))
    }
}

impl fmt::Display for CallProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallProblem::UnknownTool { name, .. } => write!(f, "unknown tool {name:?}"),
            CallProblem::InvalidJson { error, .. } => write!(f, "invalid arguments: {error}"),
            CallProblem::NumberOutOfRange { .. } => f.write_str("a number out of range"),
            CallProblem::SchemaViolations { tool, violations } => write!(
                f,
                "the arguments break the schema of {tool:?} ({} violation(s))",
                violations.len()
            ),
        }
    }
}

impl std::error::Error for CallProblem {}

/// What the grammar expected and what was found, worded for the model.
fn expected_found(error: &crate::Error) -> (String, String) {
    match error.code() {
        ErrorCode::Eof(what) => (
            format!("the rest of {what} and then the closing brackets"),
            "the end of the input: the JSON text was cut off".to_owned(),
        ),
        ErrorCode::Expected { expected, found } => ((*expected).to_owned(), found.clone()),
        ErrorCode::ControlCharacterInString(b) => (
            "an escaped control character inside a string (\\n, \\t, \\u00XX)".to_owned(),
            format!("a raw control character U+{b:04X}"),
        ),
        ErrorCode::InvalidUtf8 => (
            "UTF-8 text".to_owned(),
            "bytes that are not UTF-8".to_owned(),
        ),
        ErrorCode::LoneSurrogate(u) => (
            "a \\uD800-\\uDBFF escape followed by a \\uDC00-\\uDFFF escape".to_owned(),
            format!("a lone surrogate \\u{u:04x}"),
        ),
        ErrorCode::DuplicateKey(k) => (
            "each key at most once per object".to_owned(),
            format!("the key {k:?} twice"),
        ),
        ErrorCode::TrailingCharacters(found) => (
            "nothing after the JSON value".to_owned(),
            format!("{found} after it (a second value?)"),
        ),
        _ => ("valid JSON".to_owned(), error.description()),
    }
}

/// The retry text for argument text that did not parse: the problem, its
/// position and path, expected and found, and the input echoed in the
/// `{"INVALID_JSON": "<raw text>"}` form (at most [`MAX_ECHOED_INPUT`] bytes).
///
/// # Examples
///
/// ```
/// use tooljson::protocol::parse_error_message;
/// let raw = r#"{"location": "Paris" "unit": "celsius"}"#;
/// let err = tooljson::from_str(raw).unwrap_err();
/// let text = parse_error_message(raw, &err);
/// assert!(text.contains("path: /location"), "{text}");
/// assert!(text.contains("expected: ',' or '}'"), "{text}");
/// assert!(text.contains("found: '\"'"), "{text}");
/// assert!(text.contains(r#"{"INVALID_JSON":"{\"location\": \"Paris\" \"unit\": \"celsius\"}"}"#), "{text}");
/// ```
pub fn parse_error_message(raw: &str, error: &crate::Error) -> String {
    let (expected, found) = expected_found(error);
    let path = error.path().to_string();
    let what = if error.is_truncated() {
        "The tool input is incomplete JSON (it ends too early), so the tool was not run."
    } else {
        "The tool input is not valid JSON, so the tool was not run."
    };
    let echo = echo(raw);
    format!(
        "{what}\n\
         problem: {} at line {} column {} (byte {})\n\
         path: {}\n\
         expected: {expected}\n\
         found: {found}\n\
         input received: {echo}\n\
         Call the tool again with the whole input as one valid JSON object.",
        error.description(),
        error.line(),
        error.column(),
        error.offset(),
        if path.is_empty() {
            "/ (the top level)"
        } else {
            path.as_str()
        },
    )
}

/// The input echoed in the `{"INVALID_JSON": "<raw text>"}` form, cut to at
/// most [`MAX_ECHOED_INPUT`] bytes at a character boundary.
fn echo(raw: &str) -> String {
    if raw.len() > MAX_ECHOED_INPUT {
        let mut cut = MAX_ECHOED_INPUT;
        while !raw.is_char_boundary(cut) {
            cut -= 1;
        }
        format!(
            "{} (the first {cut} of {} bytes)",
            invalid_json_input(raw.get(..cut).unwrap_or_default()),
            raw.len()
        )
    } else {
        invalid_json_input(raw).to_string()
    }
}

/// The retry text for arguments that break the tool's schema: one line per
/// violation with its path and the schema's "expected X, found Y".
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{violations_message, ToolDefinition};
/// let def = ToolDefinition::new("get_weather", None, json!({
///     "type": "object",
///     "properties": {"location": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}},
///     "required": ["location"]
/// }))?;
/// let args = tooljson::from_str(r#"{"unit": "kelvin"}"#)?;
/// let violations = def.compiled_schema().validate(&args).unwrap_err();
/// assert_eq!(violations_message("get_weather", &violations),
///     "The tool input does not match the input schema of get_weather, so the tool was not run.\n\
///      - path / (the top level): expected required property \"location\", found an object without it\n\
///      - path /unit: expected one of \"celsius\", \"fahrenheit\", found \"kelvin\"\n\
///      Call the tool again with input that matches the schema.");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn violations_message(tool: &str, violations: &[Violation]) -> String {
    let mut out = format!(
        "The tool input does not match the input schema of {tool}, so the tool was not run.\n"
    );
    for v in violations {
        let path = v.instance_path.to_string();
        out.push_str(&format!(
            "- path {}: {}\n",
            if path.is_empty() {
                "/ (the top level)"
            } else {
                path.as_str()
            },
            v.message
        ));
    }
    out.push_str("Call the tool again with input that matches the schema.");
    out
}

/// The `is_error` result for arguments that break the schema (see
/// [`violations_message`]).
pub fn violations_result(call_id: &str, tool: &str, violations: &[Violation]) -> ToolResult {
    ToolResult::new(
        call_id,
        ToolOutcome::error(violations_message(tool, violations)),
    )
}

/// The `is_error` result for argument text that did not parse (see
/// [`parse_error_message`]).
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{parse_error_result, Vendor};
/// let raw = r#"{"location": "San Fra"#;
/// let err = tooljson::from_str(raw).unwrap_err();
/// let result = parse_error_result("toolu_01", raw, &err);
/// assert!(result.is_error);
/// let block = result.to_vendor(Vendor::Anthropic).lossless().unwrap();
/// assert_eq!(block["is_error"], json!(true));
/// assert!(block["content"].as_str().unwrap().contains("incomplete JSON"));
/// // OpenAI has no is_error: the text says it.
/// assert!(result.to_vendor(Vendor::OpenAiChat).accept_losses().0["content"].as_str().unwrap().starts_with("Error: "));
/// ```
pub fn parse_error_result(call_id: &str, raw: &str, error: &crate::Error) -> ToolResult {
    ToolResult::new(call_id, ToolOutcome::error(parse_error_message(raw, error)))
}

impl ToolSet {
    /// Checks a finished call before running it: the tool is declared, the
    /// arguments are JSON, and they match the tool's compiled schema.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{Arguments, CallProblem, ToolCall, ToolSet};
    /// let set = ToolSet::from_request_json(&json!([{
    ///     "name": "get_weather",
    ///     "input_schema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}
    /// }]))?;
    /// let call = ToolCall::new("toolu_1", "get_weather", Arguments::from_text(r#"{"location": 7}"#));
    /// let Err(CallProblem::SchemaViolations { violations, .. }) = set.check_call(&call) else { panic!() };
    /// assert_eq!(violations[0].to_string(), "/location: expected string, found number 7");
    /// let retry = set.retry_result(&call).unwrap();
    /// assert!(retry.is_error);
    /// assert!(retry.content.text().contains("- path /location: expected string, found number 7"));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn check_call(&self, call: &ToolCall) -> Result<(), CallProblem> {
        let Some(def) = self.get(&call.name) else {
            return Err(CallProblem::UnknownTool {
                name: call.name.clone(),
                available: self.tools().iter().map(|t| t.name().to_owned()).collect(),
            });
        };
        let parsed;
        let value = match &call.arguments {
            Arguments::Invalid(raw) => match super::tool_call::parse_arguments(raw) {
                Err(error) => {
                    return Err(CallProblem::InvalidJson {
                        raw: raw.clone(),
                        error,
                    });
                }
                Ok(v) => {
                    parsed = v;
                    &parsed
                }
            },
            Arguments::Json { value, .. } => value,
        };
        if beyond_f64(value) {
            return Err(CallProblem::NumberOutOfRange {
                raw: call.arguments.text().into_owned(),
            });
        }
        def.compiled_schema()
            .validate(value)
            .map_err(|violations| CallProblem::SchemaViolations {
                tool: def.name().to_owned(),
                violations,
            })
    }

    /// The `is_error` result to send instead of running `call`, if
    /// [`check_call`](Self::check_call) finds a problem.
    pub fn retry_result(&self, call: &ToolCall) -> Option<ToolResult> {
        self.check_call(call).err().map(|p| p.to_result(&call.id))
    }
}

/// Whether `v` holds a number beyond `f64` (`1e400`).
fn beyond_f64(v: &crate::Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            crate::Value::Number(n) if n.as_f64().is_none() => return true,
            crate::Value::Array(a) => stack.extend(a),
            crate::Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}
