//! The retry path: when a call's arguments do not parse, are cut short, or
//! break the tool's schema, the `is_error` result that tells the model
//! exactly what was wrong (path, expected, found) so it can call again.

use std::fmt;

use crate::error::ErrorCode;

use super::choice::ToolSet;
use super::message::{Arguments, ToolCall, invalid_json_input};
use super::result::{ToolOutcome, ToolResult};

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
    let echo = if raw.len() > MAX_ECHOED_INPUT {
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
    };
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

/// The `is_error` result for argument text that did not parse (see
/// [`parse_error_message`]).
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use tooljson::protocol::{parse_error_result, Vendor};
/// let raw = r#"{"location": "San Fra"#;
/// let err = tooljson::from_str(raw).unwrap_err();
/// let result = parse_error_result("toolu_01", raw, &err);
/// assert!(result.is_error);
/// let block = result.to_anthropic();
/// assert_eq!(block["is_error"], json!(true));
/// assert!(block["content"].as_str().unwrap().contains("incomplete JSON"));
/// // OpenAI has no is_error: the text says it.
/// assert!(result.to_openai_chat()["content"].as_str().unwrap().starts_with("Error: "));
/// ```
pub fn parse_error_result(call_id: &str, raw: &str, error: &crate::Error) -> ToolResult {
    ToolResult::new(call_id, ToolOutcome::error(parse_error_message(raw, error)))
}

impl ToolSet {
    /// Checks a finished call before running it: the tool is declared and
    /// the arguments are JSON.
    pub fn check_call(&self, call: &ToolCall) -> Result<(), CallProblem> {
        if self.get(&call.name).is_none() {
            return Err(CallProblem::UnknownTool {
                name: call.name.clone(),
                available: self.tools().iter().map(|t| t.name().to_owned()).collect(),
            });
        }
        if let Arguments::Invalid(raw) = &call.arguments
            && let Err(error) = crate::from_str(raw)
        {
            return Err(CallProblem::InvalidJson {
                raw: raw.clone(),
                error,
            });
        }
        Ok(())
    }

    /// The `is_error` result to send instead of running `call`, if
    /// [`check_call`](Self::check_call) finds a problem.
    pub fn retry_result(&self, call: &ToolCall) -> Option<ToolResult> {
        self.check_call(call).err().map(|p| p.to_result(&call.id))
    }
}
