//! The exit of `tooljson replay`: what happened to the response and to each
//! call that cannot be used, in words a reader can act on.

use tooljson::providers::{CallError, CallStatus, StopReason, StreamedCall, ToolCallStream};

use crate::Failure;
use crate::preview::describe_error;

/// Ok when every call is complete (and valid, with tools), the response
/// ended normally and `tool_choice` was met; else exit 3, saying which of
/// these failed and how.
pub fn verdict(stream: &ToolCallStream) -> Result<(), Failure> {
    let stop = stream.stop_reason();
    let stop_ok = stop.is_some_and(StopReason::is_normal);
    let bad: Vec<(usize, &StreamedCall)> = stream
        .calls()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.status() != CallStatus::Complete)
        .collect();
    let choice = stream.choice_error();
    if stop_ok && bad.is_empty() && choice.is_none() {
        return Ok(());
    }
    let mut lines = Vec::new();
    if !stop_ok {
        lines.push(match stop {
            Some(StopReason::Error { kind, message }) => {
                format!("response aborted by a provider error: {kind}: {message}")
            }
            Some(StopReason::MaxTokens) => {
                "response truncated: the model reached its output limit (max_tokens)".to_owned()
            }
            Some(StopReason::EndOfStream) | None => {
                "response truncated: the input ended before the provider's final event".to_owned()
            }
            Some(other) => format!("response stopped: {other}"),
        });
    }
    if !bad.is_empty() {
        let total = stream.calls().len();
        lines.push(format!(
            "{} of {total} call(s) not usable: {}",
            bad.len(),
            counts(&bad)
        ));
    }
    if let Some(e) = choice {
        lines.push(format!("tool_choice not met: {e}"));
    }
    let mut message = format!("error: {}", lines.join("; "));
    for (n, c) in &bad {
        message.push_str(&format!("\n  call #{n} {}: {}", who(c), what_happened(c)));
    }
    Err(Failure { code: 3, message })
}

/// `2 invalid, 1 truncated`, in status order.
fn counts(bad: &[(usize, &StreamedCall)]) -> String {
    let order = [
        CallStatus::Invalid,
        CallStatus::Truncated,
        CallStatus::Aborted,
        CallStatus::Streaming,
    ];
    order
        .iter()
        .filter_map(|s| {
            let n = bad.iter().filter(|(_, c)| c.status() == *s).count();
            (n > 0).then(|| format!("{n} {s}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `write_file (toolu_01)`.
fn who(c: &StreamedCall) -> String {
    format!(
        "{} ({})",
        c.name().unwrap_or("?"),
        c.id().unwrap_or("no id")
    )
}

/// The status in words, then the call's errors.
fn what_happened(c: &StreamedCall) -> String {
    let errors = c.errors();
    let cut = errors.iter().find_map(|e| match e {
        CallError::Cut(reason) => Some(reason),
        _ => None,
    });
    let mut s = match (c.status(), cut) {
        (CallStatus::Invalid, _) if errors.iter().any(|e| matches!(e, CallError::Json(_))) => {
            "invalid: the arguments are not one JSON value".to_owned()
        }
        (CallStatus::Invalid, _) => "complete but invalid".to_owned(),
        (CallStatus::Aborted, Some(StopReason::Error { kind, message })) => {
            format!("aborted by a provider error during the call: {kind}: {message}")
        }
        (CallStatus::Aborted, _) => "aborted: the response failed during the call".to_owned(),
        (CallStatus::Truncated, Some(reason)) => {
            format!("truncated: the response stopped during the call ({reason})")
        }
        (CallStatus::Truncated, None) => {
            "truncated: the response stopped during the call".to_owned()
        }
        (CallStatus::Streaming | CallStatus::Complete, _) => "not finished".to_owned(),
    };
    let rest: Vec<&CallError> = errors
        .iter()
        .filter(|e| !matches!(e, CallError::Cut(_)))
        .collect();
    let shown: Vec<String> = rest.iter().take(3).map(|e| describe_error(e)).collect();
    if !shown.is_empty() {
        s.push_str(": ");
        s.push_str(&shown.join("; "));
    }
    if rest.len() > shown.len() {
        s.push_str(&format!("; and {} more", rest.len() - shown.len()));
    }
    s
}
