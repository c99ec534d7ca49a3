//! The protocol layer's errors: malformed definitions, unknown shapes, a
//! `tool_choice` naming an undeclared tool. Every one says where, as a JSON
//! Pointer into the JSON that was given.

use std::fmt;

/// Why a tool name is refused by the vendors (`^[a-zA-Z0-9_-]{1,64}$` for
/// Anthropic, OpenAI Chat and OpenAI Responses alike).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is the empty string.
    Empty,
    /// Longer than 64 characters (the length is given).
    TooLong(usize),
    /// A character outside `a-z A-Z 0-9 _ -` (the first one is given).
    BadCharacter(char),
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("the name is empty"),
            NameProblem::TooLong(n) => write!(f, "the name has {n} characters, at most 64 allowed"),
            NameProblem::BadCharacter(c) => write!(
                f,
                "the name contains {c:?}; only a-z, A-Z, 0-9, '_' and '-' are allowed"
            ),
        }
    }
}

/// An error of the protocol layer. `at` fields are JSON Pointers into the
/// JSON handed in (`""` is its root).
#[derive(Debug)]
#[non_exhaustive]
pub enum ProtocolError {
    /// A required member is absent, e.g. a tool definition without `name`.
    MissingField {
        /// Where the object that lacks it is.
        at: String,
        /// The member's name.
        field: &'static str,
    },
    /// A member has the wrong JSON type.
    WrongType {
        /// Where the value is.
        at: String,
        /// The JSON type the vendor requires, e.g. `"a string"`.
        expected: &'static str,
        /// The JSON type found.
        found: &'static str,
    },
    /// A value that fits none of the shapes this layer knows, e.g. a
    /// `tool_choice` of `"sometimes"` or a content block of unknown type.
    UnknownShape {
        /// Where the value is.
        at: String,
        /// What was expected there.
        expected: &'static str,
        /// A short rendering of what was found.
        found: String,
    },
    /// A tool name the vendors refuse.
    InvalidToolName {
        /// Where the name is.
        at: String,
        /// The name.
        name: String,
        /// What is wrong with it.
        problem: NameProblem,
    },
    /// The tool's schema does not compile.
    SchemaDoesNotCompile {
        /// Where the schema is.
        at: String,
        /// The tool's name.
        tool: String,
        /// What the schema compiler said, and where in the schema.
        error: crate::schema::SchemaError,
    },
    /// Two tools in one set share a name.
    DuplicateTool {
        /// Where the second one is.
        at: String,
        /// The name.
        name: String,
    },
    /// `tool_choice` names a tool that is not declared in `tools`.
    UndeclaredToolInChoice {
        /// The name that `tool_choice` gives.
        name: String,
    },
    /// The tool-call arguments are not a JSON object where the vendor needs
    /// one (Anthropic `input` is always an object).
    ArgumentsNotObject {
        /// Where the arguments are.
        at: String,
        /// The JSON type found.
        found: &'static str,
    },
    /// A conversion could not carry these parts to the target vendor, and
    /// the caller asked for a lossless one ([`Converted::lossless`](crate::protocol::Converted::lossless)).
    Lossy {
        /// Every part left behind or changed, in document order.
        losses: Vec<super::Loss>,
    },
    /// The conversion has no counterpart for this vendor (kept for a
    /// vendor whose messages this layer does not model).
    UnsupportedVendor {
        /// The vendor asked for.
        vendor: super::Vendor,
        /// What could not be read or written, e.g. `"an assistant turn"`.
        what: &'static str,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn at(p: &str) -> &str {
            if p.is_empty() { "the root" } else { p }
        }
        match self {
            ProtocolError::MissingField { at: a, field } => {
                write!(f, "missing field \"{field}\" at {}", at(a))
            }
            ProtocolError::WrongType {
                at: a,
                expected,
                found,
            } => write!(f, "expected {expected}, found {found} at {}", at(a)),
            ProtocolError::UnknownShape {
                at: a,
                expected,
                found,
            } => write!(f, "expected {expected}, found {found} at {}", at(a)),
            ProtocolError::InvalidToolName {
                at: a,
                name,
                problem,
            } => write!(
                f,
                "tool name {name:?} at {} is refused by the vendors: {problem}",
                at(a)
            ),
            ProtocolError::SchemaDoesNotCompile { at: a, tool, error } => write!(
                f,
                "the schema of tool {tool:?} at {} does not compile: {error}",
                at(a)
            ),
            ProtocolError::DuplicateTool { at: a, name } => {
                write!(f, "tool {name:?} is declared twice (again at {})", at(a))
            }
            ProtocolError::UndeclaredToolInChoice { name } => write!(
                f,
                "tool_choice names tool {name:?}, which is not declared in tools"
            ),
            ProtocolError::ArgumentsNotObject { at: a, found } => write!(
                f,
                "tool-call arguments must be a JSON object, found {found} at {}",
                at(a)
            ),
            ProtocolError::Lossy { losses } => {
                write!(f, "the conversion loses {} part(s)", losses.len())?;
                for (i, l) in losses.iter().enumerate() {
                    write!(f, "{} {l}", if i == 0 { ":" } else { ";" })?;
                }
                Ok(())
            }
            ProtocolError::UnsupportedVendor { vendor, what } => {
                write!(f, "{what} cannot be converted to or from {vendor}")
            }
        }
    }
}

impl std::error::Error for ProtocolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProtocolError::SchemaDoesNotCompile { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The error of reading or writing `what` for a vendor whose messages and
/// requests this layer does not model (none of the five today).
pub(crate) fn unsupported(vendor: super::Vendor, what: &'static str) -> ProtocolError {
    ProtocolError::UnsupportedVendor { vendor, what }
}

/// Whether this layer models `vendor`'s messages and requests: all five
/// (kept as the one place to say otherwise for a vendor added later).
pub(crate) fn models_messages(_vendor: super::Vendor) -> bool {
    true
}

impl From<super::LossReport> for ProtocolError {
    /// A refused lossy conversion ([`Converted::lossless`](super::Converted::lossless))
    /// as a protocol error, so `?` carries it.
    fn from(report: super::LossReport) -> ProtocolError {
        ProtocolError::Lossy { losses: report.0 }
    }
}

/// The JSON type of a value, worded for messages: `"a string"`, `"an object"`.
pub(crate) fn json_type(v: &crate::value::Value) -> &'static str {
    match v {
        crate::value::Value::Null => "null",
        crate::value::Value::Bool(_) => "a boolean",
        crate::value::Value::Number(_) => "a number",
        crate::value::Value::String(_) => "a string",
        crate::value::Value::Array(_) => "an array",
        crate::value::Value::Object(_) => "an object",
    }
}

/// A short rendering of a value for an error message (at most ~60 chars).
pub(crate) fn short(v: &crate::value::Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= 60 {
        s
    } else {
        let mut t: String = s.chars().take(57).collect();
        t.push_str("...");
        t
    }
}

/// Appends a key to a JSON Pointer, escaping `~` and `/` (RFC 6901).
pub(crate) fn ptr(base: &str, key: &str) -> String {
    let mut out = String::with_capacity(base.len() + key.len() + 1);
    out.push_str(base);
    out.push('/');
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// Appends an index to a JSON Pointer.
pub(crate) fn ptr_i(base: &str, i: usize) -> String {
    format!("{base}/{i}")
}

/// A pointer into a run of items read on their own (`/{k}...`, or the
/// run's own members) as a pointer into the list the run starts in at
/// `start` (`{list}/{start + k}...`).
pub(crate) fn rebase_at(at: &str, list: &str, start: usize) -> String {
    let rest = at.strip_prefix('/').unwrap_or(at);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match rest[..digits].parse::<usize>() {
        Ok(k) if digits > 0 => format!("{list}/{}{}", start + k, &rest[digits..]),
        _ => format!("{list}/{start}{at}"),
    }
}
