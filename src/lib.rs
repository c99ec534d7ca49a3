//! # tooljson
//!
//! The streaming side of LLM tool calling: a resumable, sans-IO JSON parser that
//! takes tool-call argument text in fragments of any size and looks at each byte
//! once, a best-effort partial value for previews, a compiled JSON Schema, vendor
//! adapters (SSE in, tool calls out) and the protocol types around them.
//!
//! # Example: parse arguments that arrive in fragments
//!
//! ```
//! use tooljson::{Parser, ValueBuilder};
//!
//! let mut parser = Parser::new();
//! let mut builder = ValueBuilder::new();
//! for delta in [r#"{"path": "/tmp/a"#, r#".txt", "lines": [1, 2"#, "]}"] {
//!     parser.feed_str(delta, &mut builder)?;
//! }
//! parser.finish(&mut builder)?;
//! let value = builder.into_value().expect("root closed");
//! assert_eq!(value["path"].as_str(), Some("/tmp/a.txt"));
//! assert_eq!(value.to_string(), r#"{"path":"/tmp/a.txt","lines":[1,2]}"#);
//! # Ok::<(), tooljson::Error>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
/// AWS event-stream binary frames (the Bedrock `ConverseStream` body).
pub mod eventstream;
pub mod parser;
pub mod partial;
pub mod path;
pub mod value;

// Layer modules. Each layer adds its lines under its own marker (keeps
// parallel branches from touching the same lines).
// -- schema (issue 4)
pub mod schema;
pub use schema::{
    CheckedSink, CompiledSchema, DEFAULT_MAX_PATTERN_MEMORY, Draft, SchemaBuilder, SchemaError,
    StreamCheck, StreamViolation, Violation,
};

// -- sse + providers (issue 5)
pub mod providers;
pub mod sse;

// -- protocol (issue 6)
pub mod protocol;

// -- end of layer modules

pub use error::{Category, Error};
pub use parser::{
    DuplicateKeys, Limits, Location, OwnedToken, Parser, Token, TokenSink, ValueBuilder,
};
pub use partial::{PartialNode, PartialParser, ValueEvent};
pub use path::{Path, PathRef, Segment};
pub use value::{Map, Number, Value};

/// Parses a complete JSON text into a [`Value`] with the default [`Limits`].
///
/// This is the one-shot form of [`Parser`]: strict RFC 8259, trailing data is
/// an error.
///
/// # Examples
///
/// ```
/// let v = tooljson::from_slice(br#"{"a": [1, 2.50]}"#)?;
/// assert_eq!(v.to_string(), r#"{"a":[1,2.50]}"#);
/// assert!(tooljson::from_slice(b"{\"a\":").unwrap_err().is_truncated());
/// # Ok::<(), tooljson::Error>(())
/// ```
pub fn from_slice(bytes: &[u8]) -> Result<Value, Error> {
    parser::parse_with(bytes, Limits::default())
}

/// Parses a complete JSON text given as `&str`; see [`from_slice`].
///
/// # Examples
///
/// ```
/// let v = tooljson::from_str("[true, null]")?;
/// assert_eq!(v[0].as_bool(), Some(true));
/// # Ok::<(), tooljson::Error>(())
/// ```
pub fn from_str(text: &str) -> Result<Value, Error> {
    from_slice(text.as_bytes())
}

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
