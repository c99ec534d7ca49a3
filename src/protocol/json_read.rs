//! Reading the members of vendor JSON: a required object, string or array,
//! or a `ProtocolError` that names where it was and what was found there;
//! the members a reader does not model; the `role` a message must have.

use crate::value::{Map, Value};

use super::error::{ProtocolError, json_type, ptr, short};

/// The members of `obj` not named in `known`.
pub(crate) fn other_members(obj: &Map, known: &[&str]) -> Map {
    obj.iter()
        .filter(|(k, _)| !known.contains(k))
        .map(|(k, v)| (k.to_owned(), v.clone()))
        .collect()
}

/// `v` as an object, or a wrong-type error at `at` (`expected` says what
/// the object is, e.g. "a content block").
pub(crate) fn expect_object<'a>(
    v: &'a Value,
    at: &str,
    expected: &'static str,
) -> Result<&'a Map, ProtocolError> {
    v.as_object().ok_or_else(|| ProtocolError::WrongType {
        at: at.to_owned(),
        expected,
        found: json_type(v),
    })
}

/// The string member `key` of `obj`: missing or of another type is an error.
pub(crate) fn required_str<'a>(
    obj: &'a Map,
    key: &'static str,
    at: &str,
) -> Result<&'a str, ProtocolError> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "a string",
            found: json_type(other),
        }),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: key,
        }),
    }
}

/// The array member `key` of `obj`: missing or of another type is an error.
pub(crate) fn required_array<'a>(
    obj: &'a Map,
    key: &'static str,
    at: &str,
) -> Result<&'a [Value], ProtocolError> {
    match obj.get(key) {
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(ProtocolError::WrongType {
            at: ptr(at, key),
            expected: "an array",
            found: json_type(other),
        }),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: key,
        }),
    }
}

/// Checks that the message `o` has `"role": role`.
pub(crate) fn expect_role(o: &Map, at: &str, role: &'static str) -> Result<(), ProtocolError> {
    match o.get("role") {
        Some(Value::String(r)) if r == role => Ok(()),
        Some(other) => Err(ProtocolError::UnknownShape {
            at: ptr(at, "role"),
            expected: match role {
                "assistant" => "role \"assistant\"",
                "user" => "role \"user\"",
                _ => "role \"tool\"",
            },
            found: short(other),
        }),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: "role",
        }),
    }
}
