//! The words of a violation, shared by `validate` and the stream check so
//! that both say the same thing: "expected X, found Y", with values shown
//! short (`"abc"`, `5`, `an array of 3 items`) and types named as the
//! schema names them.

use super::instance::{Instance, Object as _, View};
use super::types::{T_ARR, T_BOOL, T_FRAC, T_INT, T_NULL, T_OBJ, T_STR};

/// Short rendering of a value for messages: `"abc"`, `5`, `true`, `an array`.
pub(crate) fn show(v: &impl Instance) -> String {
    match v.view() {
        View::Null => "null".into(),
        View::Bool(b) => b.to_string(),
        View::Number(n) => n.text().as_str().to_owned(),
        View::String(s) => show_str(s),
        View::Array(a) => format!(
            "an array of {} item{}",
            a.len(),
            if a.len() == 1 { "" } else { "s" }
        ),
        View::Object(m) => format!(
            "an object with {} propert{}",
            m.len(),
            if m.len() == 1 { "y" } else { "ies" }
        ),
    }
}

/// A string quoted as JSON, cut after 60 characters.
pub(crate) fn show_str(s: &str) -> String {
    let mut out = String::new();
    let cut: String = s.chars().take(60).collect();
    crate::value::write_json_string(&mut out, &cut);
    if cut.len() < s.len() {
        out.insert(out.len() - 1, '…');
    }
    out
}

/// `show` with the type named first for scalars: `number 5`, `string "a"`.
pub(crate) fn show_typed(v: &impl Instance) -> String {
    match v.view() {
        View::Null => "null".into(),
        View::Bool(b) => format!("boolean {b}"),
        View::Number(n) => format!("number {}", n.text().as_str()),
        View::String(s) => format!("string {}", show_str(s)),
        _ => show(v),
    }
}

/// Type names in a mask, for "expected X": `string or null`.
pub(crate) fn type_names(mask: u8) -> String {
    let mut names = Vec::new();
    if mask & T_NULL != 0 {
        names.push("null");
    }
    if mask & T_BOOL != 0 {
        names.push("boolean");
    }
    if mask & T_INT != 0 && mask & T_FRAC != 0 {
        names.push("number");
    } else if mask & T_INT != 0 {
        names.push("integer");
    }
    if mask & T_STR != 0 {
        names.push("string");
    }
    if mask & T_ARR != 0 {
        names.push("array");
    }
    if mask & T_OBJ != 0 {
        names.push("object");
    }
    if names.is_empty() {
        return "no value".into();
    }
    names.join(" or ")
}

pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The message for a key that `additionalProperties: false` refuses.
pub(crate) fn unknown_key_message<N>(
    props: &[(compact_str::CompactString, N)],
    key: &str,
) -> String {
    if props.is_empty() {
        return format!(
            "expected no properties beyond those the schema allows, found unexpected property {}",
            show_str(key)
        );
    }
    let mut allowed = String::new();
    for (i, (k, _)) in props.iter().enumerate().take(20) {
        if i > 0 {
            allowed.push_str(", ");
        }
        allowed.push_str(&show_str(k));
    }
    if props.len() > 20 {
        allowed.push_str(", …");
    }
    format!(
        "expected only properties {allowed}, found unexpected property {}",
        show_str(key)
    )
}
