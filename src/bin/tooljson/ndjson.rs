//! `tooljson replay --ndjson`: one JSON object per event, in stream order
//! (the members are documented in `replay`'s module docs).
//!
//! Lines are written straight to the output: a value, a partial tree or an
//! argument text is serialized from where it lives, never first copied into
//! a `serde_json::Value` or a `String` (a call's arguments can be as large as
//! the input).

use std::io::{self, Write};

use tooljson::Value;
use tooljson::partial::PartialNode;
use tooljson::providers::{CallEvent, CallStatus, StopReason, StreamedCall, ToolCallStream};

/// One member's value.
enum Member<'a> {
    Json(serde_json::Value),
    /// A message the stream built: written as it stands, numbers as the
    /// provider wrote them.
    Message(Value),
    Str(&'a str),
    Value(&'a Value),
    Partial(&'a PartialNode),
    Null,
}

impl From<serde_json::Value> for Member<'_> {
    fn from(v: serde_json::Value) -> Self {
        Member::Json(v)
    }
}

impl<'a> From<&'a str> for Member<'a> {
    fn from(s: &'a str) -> Self {
        Member::Str(s)
    }
}

impl<'a> From<Option<&'a str>> for Member<'a> {
    fn from(s: Option<&'a str>) -> Self {
        s.map_or(Member::Null, Member::Str)
    }
}

impl From<usize> for Member<'_> {
    fn from(n: usize) -> Self {
        Member::Json(n.into())
    }
}

impl From<u64> for Member<'_> {
    fn from(n: u64) -> Self {
        Member::Json(n.into())
    }
}

impl From<bool> for Member<'_> {
    fn from(b: bool) -> Self {
        Member::Json(b.into())
    }
}

/// A JSON object that keeps its members in insertion order (`event` first).
pub struct Line<'a>(Vec<(&'static str, Member<'a>)>);

impl<'a> Line<'a> {
    fn new(event: &'static str) -> Line<'a> {
        Line(vec![("event", Member::Str(event))])
    }

    fn insert(&mut self, key: &'static str, value: impl Into<Member<'a>>) {
        self.0.push((key, value.into()));
    }

    /// Writes the line and its newline.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(b"{")?;
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, k)?;
            out.write_all(b":")?;
            match v {
                Member::Json(j) => serde_json::to_writer(&mut *out, j)?,
                Member::Message(v) => write_value(out, v)?,
                Member::Str(s) => serde_json::to_writer(&mut *out, s)?,
                Member::Value(v) => write_value(out, v)?,
                Member::Partial(p) => serde_json::to_writer(&mut *out, p)?,
                Member::Null => out.write_all(b"null")?,
            }
        }
        out.write_all(b"}\n")
    }
}

/// `message_finished`: the final message in the provider's own JSON.
pub fn message_finished(message: Value) -> Line<'static> {
    let mut m = Line::new("message_finished");
    m.insert("message", Member::Message(message));
    m
}

/// A value as JSON, members in their order and numbers as written (`1E2`,
/// `-0`, `1e400`, a 30-digit integer): every lexeme the parser took is
/// RFC 8259 JSON, so the line stays JSON. Written from where the value
/// lives, without a copy.
fn write_value(out: &mut impl Write, v: &Value) -> io::Result<()> {
    // An explicit stack: values nest as deep as the parser allows.
    enum Step<'a> {
        Value(&'a Value),
        Raw(&'static [u8]),
        Key(&'a str),
    }
    let mut stack = vec![Step::Value(v)];
    let mut buf = String::new();
    while let Some(step) = stack.pop() {
        match step {
            Step::Raw(b) => out.write_all(b)?,
            Step::Key(k) => {
                buf.clear();
                tooljson::value::write_json_string(&mut buf, k);
                buf.push(':');
                out.write_all(buf.as_bytes())?;
            }
            Step::Value(Value::Array(a)) => {
                out.write_all(b"[")?;
                stack.push(Step::Raw(b"]"));
                for (i, item) in a.iter().enumerate().rev() {
                    stack.push(Step::Value(item));
                    if i > 0 {
                        stack.push(Step::Raw(b","));
                    }
                }
            }
            Step::Value(Value::Object(m)) => {
                out.write_all(b"{")?;
                stack.push(Step::Raw(b"}"));
                for (i, (k, item)) in m.iter().enumerate().rev() {
                    stack.push(Step::Value(item));
                    stack.push(Step::Key(k));
                    if i > 0 {
                        stack.push(Step::Raw(b","));
                    }
                }
            }
            Step::Value(scalar) => {
                buf.clear();
                scalar.write_compact(&mut buf);
                out.write_all(buf.as_bytes())?;
            }
        }
    }
    Ok(())
}

fn call_fields<'a>(call: Option<&'a StreamedCall>, n: usize, event: &'static str) -> Line<'a> {
    let mut m = Line::new(event);
    m.insert("call", n);
    m.insert("key", call.map(|c| c.key().to_json()).unwrap_or_default());
    m.insert("id", call.and_then(|c| c.id()));
    m.insert("name", call.and_then(|c| c.name()));
    m
}

/// One NDJSON line for an event (documented in `replay`'s module docs).
pub fn line<'a>(stream: &'a ToolCallStream, e: &'a CallEvent) -> Line<'a> {
    let call = |n: usize| stream.calls().get(n);
    match e {
        CallEvent::CallStarted { call: n, kind, .. } => {
            let mut m = call_fields(call(*n), *n, "call_started");
            m.insert("kind", kind.as_str());
            m
        }
        CallEvent::ArgumentsAppended {
            call: n,
            range,
            preview_changed,
        } => {
            let mut m = call_fields(call(*n), *n, "arguments_appended");
            let text = call(*n).and_then(|c| c.arguments_text().get(range.clone()));
            m.insert("text", text.unwrap_or_default());
            m.insert("preview_changed", *preview_changed);
            m
        }
        CallEvent::ValueCompleted {
            call: n,
            path,
            value,
        } => {
            let mut m = call_fields(call(*n), *n, "value_completed");
            m.insert("path", serde_json::Value::String(path.to_string()));
            let value = value
                .as_ref()
                .or_else(|| call(*n).and_then(|c| c.value_at(path)));
            m.insert("value", value.map_or(Member::Null, Member::Value));
            m
        }
        CallEvent::CallDoomed { call: n, error } => {
            let mut m = call_fields(call(*n), *n, "call_doomed");
            m.insert("error", serde_json::Value::String(error.to_string()));
            m
        }
        CallEvent::CallFinished { call: n, status } => {
            let c = call(*n);
            let mut m = call_fields(c, *n, "call_finished");
            m.insert("kind", c.map(|c| c.kind().as_str()).unwrap_or_default());
            m.insert("status", status.as_str());
            let args = c.and_then(|c| c.value());
            m.insert("arguments", args.map_or(Member::Null, Member::Value));
            if *status != CallStatus::Complete {
                let partial = c.and_then(|c| c.partial());
                m.insert("partial", partial.map_or(Member::Null, Member::Partial));
            }
            m.insert("raw", c.map(|c| c.arguments_text()).unwrap_or_default());
            let errors: Vec<serde_json::Value> = c
                .map(|c| c.errors().iter().map(|e| e.to_string().into()).collect())
                .unwrap_or_default();
            m.insert("errors", serde_json::Value::Array(errors));
            m
        }
        CallEvent::MessageStarted { id, model } => {
            let mut m = Line::new("message_started");
            m.insert("id", id.as_deref());
            m.insert("model", model.as_deref());
            m
        }
        CallEvent::TextAppended {
            choice,
            block,
            text,
        } => choice_text("text_appended", *choice, *block, text),
        CallEvent::ThinkingAppended {
            choice,
            block,
            text,
        } => choice_text("thinking_appended", *choice, *block, text),
        CallEvent::RefusalAppended {
            choice,
            block,
            text,
        } => choice_text("refusal_appended", *choice, *block, text),
        CallEvent::ThinkingSigned { at, signature } => {
            at_text("thinking_signed", *at, "signature", signature)
        }
        CallEvent::RedactedThinking { at, data } => at_text("redacted_thinking", *at, "data", data),
        CallEvent::ServerToolResult { at, block } => {
            let mut m = Line::new("server_tool_result");
            m.insert("at", *at);
            m.insert("block", block.clone());
            m
        }
        CallEvent::OtherContent { at, block } => {
            let mut m = Line::new("other_content");
            m.insert("at", *at);
            m.insert("block", block.clone());
            m
        }
        CallEvent::UsageUpdated(usage) => {
            let mut m = Line::new("usage");
            if let Value::Object(counts) = usage.to_json() {
                for (k, v) in counts {
                    m.insert(usage_key(&k), Member::Message(v));
                }
            }
            m
        }
        CallEvent::Malformed { message } => {
            let mut m = Line::new("malformed");
            m.insert("message", message.as_str());
            m
        }
        CallEvent::StreamFinished {
            stop_reason,
            choice_error,
        } => {
            let mut m = Line::new("stream_finished");
            m.insert("stop_reason", stop_reason.as_str());
            let error = match stop_reason {
                StopReason::Error { kind, message } => {
                    serde_json::Value::String(format!("{kind}: {message}"))
                }
                _ => serde_json::Value::Null,
            };
            m.insert("error", error);
            m.insert("vendor", stream.provider_name());
            m.insert("calls", stream.calls().len());
            m.insert(
                "choice_error",
                choice_error.as_ref().map_or(serde_json::Value::Null, |e| {
                    serde_json::Value::String(e.to_string())
                }),
            );
            m
        }
        other => {
            let mut m = Line::new("unknown");
            m.insert("debug", serde_json::Value::String(format!("{other:?}")));
            m
        }
    }
}

fn choice_text<'a>(event: &'static str, choice: u64, block: u64, text: &'a str) -> Line<'a> {
    let mut m = Line::new(event);
    m.insert("choice", choice);
    m.insert("block", block);
    m.insert("text", text);
    m
}

fn at_text<'a>(event: &'static str, at: u64, key: &'static str, text: &'a str) -> Line<'a> {
    let mut m = Line::new(event);
    m.insert("at", at);
    m.insert(key, text);
    m
}

fn usage_key(k: &str) -> &'static str {
    match k {
        "input_tokens" => "input_tokens",
        "output_tokens" => "output_tokens",
        "cache_creation_input_tokens" => "cache_creation_input_tokens",
        "reasoning_tokens" => "reasoning_tokens",
        _ => "cache_read_input_tokens",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(v: &Value) -> String {
        let mut out = Vec::new();
        write_value(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn values_are_written_with_their_numbers_as_written() {
        let text = r#"{"b":[1,2.50,-0,1E2,12345678901234567890123],"a":"x\ny","c":{}}"#;
        let v = tooljson::from_str(text).unwrap();
        assert_eq!(written(&v), text);
        let j: serde_json::Value = serde_json::from_str(&written(&v)).unwrap();
        assert_eq!(j["a"], "x\ny");
    }

    #[test]
    fn a_number_out_of_range_is_written_as_it_came() {
        let v = tooljson::from_str(r#"{"n":1e400}"#).unwrap();
        assert_eq!(written(&v), r#"{"n":1e400}"#);
    }
}
