//! # tooljson
//!
//! The streaming side of LLM tool calling: a resumable, sans-IO JSON parser that
//! takes tool-call argument text in fragments of any size and looks at each byte
//! once, a best-effort partial value for previews, a compiled JSON Schema that
//! also checks a stream as it grows, provider adapters (SSE or AWS event-stream
//! bytes in; text, thinking, usage and tool calls out) and the protocol types
//! around them (tool definitions, `tool_choice`, calls and results, converted
//! between providers).
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
//!
//! # Example: stream a provider's response
//!
//! Feed the body as it arrives; after each chunk, take the events. The
//! provider is detected; `finish()` returns the provider's own error
//! (an overloaded reply) as an `Err`. The [`providers`] docs hold the
//! whole client loop (tools, retries, the next request's messages).
//!
//! ```
//! # #[cfg(feature = "providers")] {
//! use tooljson::providers::{CallEvent, ToolCallStream};
//!
//! let body = concat!(
//!     "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Checking.\",",
//!     "\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\": \\\"Par\"}}]}}]}\n\n",
//!     "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,",
//!     "\"function\":{\"arguments\":\"is\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
//! );
//! let mut stream = ToolCallStream::new();
//! let mut previews = Vec::new();
//! for chunk in body.as_bytes().chunks(16) {
//!     stream.feed(chunk)?;
//!     while let Some(event) = stream.next_event() {
//!         if let CallEvent::ArgumentsAppended { call, preview_changed: true, .. } = event {
//!             previews.push(stream.calls()[call].partial().expect("shown once changed").to_string());
//!         }
//!     }
//! }
//! stream.finish()?;
//! assert_eq!(stream.text(0), "Checking.");
//! assert_eq!(previews.last().unwrap(), r#"{"city":"Paris"}"#);
//! assert_eq!(stream.calls()[0].value().unwrap()["city"].as_str(), Some("Paris"));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The manual, module by module
//!
//! Data flows one way, and imports follow it:
//!
//! | module | owns |
//! |---|---|
//! | [`sse`], [`eventstream`] | framing: the WHATWG event stream, AWS event-stream binary frames |
//! | [`providers`] | one adapter per provider API and the accumulated response: text, thinking, usage, stop reason, tool calls, the final message; the client loop for each provider |
//! | [`protocol`] | tool definitions, `tool_choice`, calls, results and turns in each provider's JSON, converted between them; the retry message |
//! | [`decode`] | constrained decoding: a vocabulary, a constraint compiled from a schema, a matcher per sequence that writes token masks, a BPE tokenizer, a sampler |
//! | [`parser`] | the resumable tokenizer: state machine, strings, numbers, [`ValueBuilder`], limits, errors (the plain reference parser the tests trust is test-only) |
//! | [`partial`] | the partial tree, its monotone contract, and completion events |
//! | [`schema`] | compile once, `validate`, the stream check, formats, patterns, cost bounds |
//! | [`value`], [`path`], [`error`] | the value with exact number lexemes, JSON Pointer paths, errors with positions |
//!
//! # Errors
//!
//! Each path has its own error, typed to the end; its `Display` is the
//! sentence to show. The ones a user meets, by path:
//!
//! | path | entry points | error |
//! |---|---|---|
//! | parse | [`from_slice`], [`Parser::feed`] / [`Parser::finish`] | [`Error`]: [`Error::category`] ([`Category`]: truncated, invalid, trailing data, limit, misuse), [`Error::code`] ([`error::ErrorCode`]), offset, line, column, path |
//! | partial | [`PartialParser::feed`] / [`PartialParser::finish`] | [`Error`], as the parser's |
//! | schema compile | [`CompiledSchema::from_json_str`], [`SchemaBuilder::build`] | [`SchemaError`]: message and schema path |
//! | schema validate | [`CompiledSchema::validate`] | [`Violation`]s: instance path, schema path, keyword, message |
//! | schema stream check | [`StreamCheck::violations`] | [`StreamViolation`]: the [`Violation`] and the offset where it became certain |
//! | provider stream | [`providers::ToolCallStream::feed`] / `finish` | [`providers::StreamError`] (fatal: [`providers::ProtocolViolation`] for events that break the vendor's protocol, [`sse::SseError`], [`eventstream::EventStreamError`], the provider's own error, [`providers::Misuse`] for API misuse, kept apart); per call, [`providers::CallError`] (its JSON [`Error`], its schema [`StreamViolation`], an unknown tool, a cut); at the end, [`protocol::ChoiceViolation`] |
//! | provider stream, async | `providers::futures::CallEvents` (feature `stream`) | `providers::futures::CallEventsError`: the transport's error or a [`providers::StreamError`] |
//! | protocol conversion | [`protocol::ToolSet::from_request_json`], `from_vendor` readers of turns, results, requests | [`protocol::ProtocolError`] (a bad tool name names its [`protocol::NameProblem`]; a schema that does not compile holds its [`SchemaError`]); what a conversion drops is no error but a [`protocol::LossReport`] |
//! | before running a call | [`protocol::ToolSet::check_call`], [`protocol::ToolSet::check_choice`] | [`protocol::CallProblem`] (with the retry message for the model), [`protocol::ChoiceViolation`] |
//! | matching results to calls | [`protocol::correlate`] | [`protocol::CorrelationError`]: every missing, unknown and repeated id at once |
//! | decode | [`decode`] (feature `decode`) | [`decode::DecodeError`] |
//! | framing alone | [`sse::Decoder`], [`eventstream::Decoder`] | [`sse::SseError`]; [`eventstream::EventStreamError`] (a bad header names its [`eventstream::HeaderProblem`]) |
//!
//! # Crate features
//!
//! The parser ([`parser`], [`from_slice`]), the partial tree ([`partial`]),
//! [`value`], [`path`] and [`error`] are always built; they need `memchr`,
//! `simdutf8`, `smallvec`, `compact_str`, `zmij` and `serde` (no derive).
//!
//! | feature | adds | dependencies |
//! |---|---|---|
//! | `serde_json` | `Value` / `PartialNode` to and from `serde_json::Value`, `deserialize_into`, `deserialize_growing_preview` | `serde_json` |
//! | `schema` | [`schema`]: compile, validate, the stream check, formats, ECMA-262 patterns; `PartialParser::attach_check` | `serde_json`, `regex`, `regex-syntax`, `fancy-regex` |
//! | `protocol` | [`protocol`]: tool definitions, `tool_choice`, calls, results, turns, retry messages (implies `schema`) | `serde` derive; turns on `serde_json`'s `preserve_order` |
//! | `providers` (default) | [`sse`], [`eventstream`], [`providers`]: provider adapters and the accumulated response (implies `protocol`) | `crc32fast` |
//! | `stream` | `providers::futures`: a `futures_core::Stream` of call events over a stream of body chunks (`bytes::Bytes` or any `AsRef<[u8]>`) | `futures-core` |
//! | `cli` | the `tooljson` binary (implies `providers`; its `decode` subcommand with `decode`) | `clap`, `terminal_size`, `unicode-width` |
//! | `decode` | [`decode`]: constrained decoding, a compiled schema as a token mask over a vocabulary (Hugging Face `tokenizer.json` or raw token bytes) (implies `schema`) | none |
//! | `tiktoken` | `decode::Vocabulary::o200k` / `cl100k` and `decode::Tokenizer::o200k` / `cl100k`: OpenAI's vocabularies (implies `decode`) | `tiktoken-rs` |
//! | `cost-counters` | `schema::work_done`, a thread-local count of the schema layer's work, read by the tests that hold its cost bounds; leave it off otherwise | none |
//!
//! Format assertion (`SchemaBuilder::assert_formats`) is part of `schema`,
//! not a feature of its own: it needs no dependency, and a feature that
//! turned it off would change verdicts for every crate in a build that
//! shares `tooljson` (features must only add).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// Modules in the order data flows: bytes, providers, calls, parser, then the
// tree, events and checks the parser feeds.
#[cfg(feature = "providers")]
pub mod eventstream;
#[cfg(feature = "providers")]
pub mod sse;

#[cfg(feature = "protocol")]
pub mod protocol;
#[cfg(feature = "providers")]
pub mod providers;

#[cfg(feature = "decode")]
pub mod decode;
pub mod error;
pub mod parser;
pub mod partial;
pub mod path;
#[cfg(feature = "schema")]
pub mod schema;
pub mod value;

pub use error::{Category, Error};
pub use parser::{
    DuplicateKeys, Limits, Location, OwnedToken, Parser, Token, TokenSink, ValueBuilder,
};
pub use partial::{PartialNode, PartialParser, ValueEvent};
pub use path::{Path, PathRef, Segment};
#[cfg(feature = "schema")]
pub use schema::{
    CheckedSink, CompiledSchema, DEFAULT_MAX_PATTERN_BACKTRACKS, DEFAULT_MAX_PATTERN_MEMORY, Draft,
    SchemaBuilder, SchemaError, StreamCheck, StreamViolation, Violation,
};
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

// The README's recipes use the default features (`providers` and below).
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "providers"))]
pub struct ReadmeDoctests;
