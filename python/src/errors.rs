//! The exceptions: one base per kind of failure, the JSON ones in the four
//! categories a caller must tell apart (truncated, invalid, trailing data,
//! limit exceeded), each carrying where it happened.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use tooljson::{Category, Error};

create_exception!(
    tooljson,
    ToolJsonError,
    PyValueError,
    "The base of every error this package raises for bad input."
);
create_exception!(
    tooljson,
    JsonError,
    ToolJsonError,
    "JSON text that is not (or not yet) one JSON value: offset, line, column, path."
);
create_exception!(
    tooljson,
    TruncatedError,
    JsonError,
    "The input ended inside the value (a stream cut short): never run such arguments."
);
create_exception!(
    tooljson,
    InvalidJsonError,
    JsonError,
    "A byte that can never be JSON at this place."
);
create_exception!(
    tooljson,
    TrailingDataError,
    JsonError,
    "A second value after the root, as in {\"a\":1}{\"a\":2}."
);
create_exception!(
    tooljson,
    LimitExceededError,
    JsonError,
    "A configured limit (depth, input, string or number size) was passed."
);
create_exception!(
    tooljson,
    MisuseError,
    JsonError,
    "The parser was used out of order (fed after finish, or after an error)."
);
create_exception!(
    tooljson,
    StreamFailed,
    ToolJsonError,
    "A streamed response that cannot be followed any further (framing, protocol, limits)."
);
create_exception!(
    tooljson,
    ProviderError,
    StreamFailed,
    "The provider reported an error inside the stream (overloaded, quota): kind, message, retryable."
);
create_exception!(
    tooljson,
    UnrecognizedStream,
    StreamFailed,
    "No provider's stream was recognised in the body: bytes, event_count, first."
);
create_exception!(
    tooljson,
    ProtocolError,
    ToolJsonError,
    "A request, turn, result or tool definition that is not of the shape its vendor defines."
);
create_exception!(
    tooljson,
    LossError,
    ToolJsonError,
    "A conversion asked to be lossless lost parts: `losses` lists them."
);
create_exception!(
    tooljson,
    ChoiceError,
    ToolJsonError,
    "The calls of a turn break the request's tool_choice or parallel flag."
);
create_exception!(
    tooljson,
    CorrelationError,
    ToolJsonError,
    "Results that do not answer a turn's calls one for one."
);

/// The category's name, as Python code compares it.
pub fn category_name(c: Category) -> &'static str {
    match c {
        Category::Truncated => "truncated",
        Category::Invalid => "invalid",
        Category::TrailingData => "trailing_data",
        Category::LimitExceeded => "limit_exceeded",
        Category::Misuse => "misuse",
    }
}

/// A parse error as the exception of its category, with `offset`, `line`,
/// `column`, `path` (a JSON Pointer), `category`, `expected`, `found`.
pub fn json_error(py: Python<'_>, e: &Error) -> PyErr {
    let message = e.to_string();
    let err = match e.category() {
        Category::Truncated => TruncatedError::new_err(message),
        Category::TrailingData => TrailingDataError::new_err(message),
        Category::LimitExceeded => LimitExceededError::new_err(message),
        Category::Misuse => MisuseError::new_err(message),
        Category::Invalid => InvalidJsonError::new_err(message),
    };
    let value = err.value(py);
    // Setting plain attributes on a fresh exception instance cannot fail
    // short of memory; if it does, the exception still carries its message.
    let _ = (|| -> PyResult<()> {
        value.setattr("offset", e.offset())?;
        value.setattr("line", e.line())?;
        value.setattr("column", e.column())?;
        value.setattr("path", e.path().to_string())?;
        value.setattr("category", category_name(e.category()))?;
        value.setattr("expected", e.expected())?;
        value.setattr("found", e.found())?;
        value.setattr("description", e.description())?;
        Ok(())
    })();
    err
}

/// A lossless conversion refused: the exception carries its `losses`.
pub fn loss_error(py: Python<'_>, report: &str, losses: Bound<'_, PyList>) -> PyErr {
    let err = LossError::new_err(report.to_owned());
    let _ = err.value(py).setattr("losses", losses);
    err
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ToolJsonError", py.get_type::<ToolJsonError>())?;
    m.add("JsonError", py.get_type::<JsonError>())?;
    m.add("TruncatedError", py.get_type::<TruncatedError>())?;
    m.add("InvalidJsonError", py.get_type::<InvalidJsonError>())?;
    m.add("TrailingDataError", py.get_type::<TrailingDataError>())?;
    m.add("LimitExceededError", py.get_type::<LimitExceededError>())?;
    m.add("MisuseError", py.get_type::<MisuseError>())?;
    m.add("StreamFailed", py.get_type::<StreamFailed>())?;
    m.add("ProviderError", py.get_type::<ProviderError>())?;
    m.add("UnrecognizedStream", py.get_type::<UnrecognizedStream>())?;
    m.add("ProtocolError", py.get_type::<ProtocolError>())?;
    m.add("LossError", py.get_type::<LossError>())?;
    m.add("ChoiceError", py.get_type::<ChoiceError>())?;
    m.add("CorrelationError", py.get_type::<CorrelationError>())?;
    Ok(())
}
