//! Tool results in Gemini's JSON: `{"functionResponse": {"id"?, "name",
//! "response"}}` parts, all results of a turn in one `role: "user"`
//! content, with what the user says after them as further parts.
//!
//! `response` follows the convention of Google's docs: `{"output": ...}`
//! for what the function returned, `{"error": ...}` for a failure (so
//! `is_error` crosses), any other object the whole output. A string output
//! is text; any other output is a JSON result (as Bedrock's `json` block).

use crate::value::{Map, Value};

use super::{ResultContent, ResultPart, ToolResult, ToolResults};
use crate::protocol::Vendor;
use crate::protocol::content::{Place, read_part, write_part};
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::{expect_object, other_members, required_str};
use crate::protocol::loss::{LossEffect, Losses};
use crate::protocol::native::Native;
use crate::protocol::slots::{IDLESS, slotted};

/// A JSON output, in the form Bedrock writes it (`{"json": value}`), the
/// one JSON result part this layer has.
fn json_part(v: &Value) -> ResultPart {
    let mut o = Map::new();
    o.insert("json".into(), v.clone());
    ResultPart::Native {
        vendor: Vendor::Bedrock,
        part: Value::Object(o),
    }
}

/// The content and error flag of a `response` object.
fn read_response(r: &Value) -> (ResultContent, bool) {
    let Some(o) = r.as_object() else {
        return (ResultContent::Parts(vec![json_part(r)]), false);
    };
    if o.is_empty() {
        return (ResultContent::Empty, false);
    }
    if o.len() == 1 {
        for (key, error) in [("output", false), ("error", true)] {
            match o.get(key) {
                Some(Value::String(t)) => return (ResultContent::Text(t.clone()), error),
                Some(v) => return (ResultContent::Parts(vec![json_part(v)]), error),
                None => {}
            }
        }
    }
    // Any other object is the output itself (Google's convention); kept as
    // given for Gemini.
    let mut o = Map::new();
    o.insert("response".into(), r.clone());
    (
        ResultContent::Parts(vec![ResultPart::Native {
            vendor: Vendor::Gemini,
            part: Value::Object(o),
        }]),
        false,
    )
}

impl ToolResult {
    /// Reads a Gemini `{"functionResponse": {...}}` part.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{ToolResult, Vendor};
    /// let part = json!({"functionResponse": {"id": "c1", "name": "get_weather",
    ///                                        "response": {"error": "city not found"}}});
    /// let r = ToolResult::from_vendor(Vendor::Gemini, &part)?;
    /// assert!(r.is_error);
    /// assert_eq!(r.name.as_deref(), Some("get_weather"));
    /// assert_eq!(r.to_vendor(Vendor::Gemini).lossless().unwrap(), part);
    /// assert_eq!(r.to_vendor(Vendor::Anthropic).lossless().unwrap(), json!({
    ///     "type": "tool_result", "tool_use_id": "c1", "content": "city not found", "is_error": true}));
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub(crate) fn from_gemini(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_gemini_at(v, "")
    }

    pub(crate) fn from_gemini_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = expect_object(v, at, "a functionResponse part")?;
        let fat = ptr(at, "functionResponse");
        let f = expect_object(
            o.get("functionResponse")
                .ok_or_else(|| ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "functionResponse",
                })?,
            &fat,
            "a functionResponse object",
        )?;
        let call_id = match f.get("id") {
            None => String::new(),
            Some(Value::String(id)) => id.clone(),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: ptr(&fat, "id"),
                    expected: "a string",
                    found: json_type(other),
                });
            }
        };
        let name = required_str(f, "name", &fat)?.to_owned();
        let (content, is_error) = match f.get("response") {
            Some(r) => read_response(r),
            None => (ResultContent::Empty, false),
        };
        let mut members = slotted(o, &["functionResponse"]);
        let mut extra = slotted(f, &["id", "name", "response"]);
        if call_id.is_empty() {
            extra.insert(IDLESS.into(), Value::Bool(true));
        }
        if extra.values().any(|v| !v.is_null()) {
            members.insert("functionResponse".into(), Value::Object(extra));
        }
        Ok(ToolResult {
            call_id,
            name: Some(name),
            content,
            is_error,
            explicit_flag: false,
            native: Native::of(Vendor::Gemini, members),
        })
    }

    /// The `functionResponse` part (`at`: the result's pointer in the
    /// source, for losses).
    pub(crate) fn write_gemini(&self, at: &str, losses: &mut Losses) -> Value {
        let v = Vendor::Gemini;
        self.reported_native().report_dropped(v, at, losses);
        if self.explicit_flag && !self.is_error {
            losses.push(
                &ptr(at, "is_error"),
                "is_error",
                LossEffect::ReadsBackDifferently,
                "Gemini has no success flag: an explicit success reads back absent",
            );
        }
        let content_at = self.content_at(at);
        let response = self.gemini_response(&content_at, losses);
        let mut o = self.native.start(v);
        let mut f = match o.get("functionResponse") {
            Some(Value::Object(extra)) => extra.clone(),
            _ => Map::new(),
        };
        // A response read without id is written back without the id it
        // was given.
        if f.shift_remove(IDLESS).is_some() || self.call_id.is_empty() {
            f.shift_remove("id");
        } else {
            f.insert("id".into(), Value::from(&self.call_id));
        }
        match &self.name {
            Some(n) => {
                f.insert("name".into(), Value::from(n));
            }
            None => {
                losses.push(
                    at,
                    "name",
                    LossEffect::MissingRequired,
                    "Gemini names the function a response answers: give the result its call's \
                     name (a request's results get it from the call)",
                );
                f.insert("name".into(), Value::from(""));
            }
        }
        f.insert("response".into(), response);
        o.insert("functionResponse".into(), Value::Object(f));
        Value::Object(o)
    }

    /// The kept members to report for another vendor: without the marker
    /// of an id the source did not give.
    pub(crate) fn reported_native(&self) -> Native {
        let mut n = self.native.clone();
        if let Some(Value::Object(f)) = n.members.get_mut("functionResponse") {
            f.shift_remove(IDLESS);
        }
        n
    }

    /// Where the source result held its content (`at`: the result).
    pub(crate) fn content_at(&self, at: &str) -> String {
        match self.native.vendor {
            Some(Vendor::OpenAiResponses) => ptr(at, "output"),
            Some(Vendor::Gemini) => ptr(&ptr(at, "functionResponse"), "response"),
            Some(Vendor::Bedrock) => ptr(&ptr(at, "toolResult"), "content"),
            _ => ptr(at, "content"),
        }
    }

    fn gemini_response(&self, at: &str, losses: &mut Losses) -> Value {
        let key = if self.is_error { "error" } else { "output" };
        let wrap = |v: Value| {
            let mut o = Map::new();
            o.insert(key.into(), v);
            Value::Object(o)
        };
        match &self.content {
            ResultContent::Empty if !self.is_error => Value::Object(Map::new()),
            ResultContent::Empty => wrap(Value::from("")),
            ResultContent::Text(t) => wrap(Value::from(t)),
            ResultContent::Parts(ps) => {
                if let [ResultPart::Native { vendor, part }] = ps.as_slice() {
                    match (vendor, part.get("response"), part.get("json")) {
                        (Vendor::Gemini, Some(r), _) if !self.is_error => return r.clone(),
                        (Vendor::Bedrock, _, Some(j))
                            if part.as_object().is_some_and(|o| o.len() == 1) =>
                        {
                            return wrap(j.clone());
                        }
                        _ => {}
                    }
                }
                let mut values = Vec::new();
                for (i, p) in ps.iter().enumerate() {
                    let pat = ptr_i(at, i);
                    match p {
                        ResultPart::Text(t) => values.push(Value::from(t)),
                        ResultPart::Native { vendor, part }
                            if *vendor == Vendor::Bedrock
                                && part.as_object().is_some_and(|o| o.len() == 1)
                                && part.get("json").is_some() =>
                        {
                            values.push(part["json"].clone());
                        }
                        other => {
                            // Reported (and left out) by the part writer.
                            write_part(
                                other,
                                Vendor::Gemini,
                                None,
                                Place::ToolResult,
                                &pat,
                                losses,
                            );
                        }
                    }
                }
                match values.len() {
                    0 => wrap(Value::from("")),
                    1 => wrap(values.remove(0)),
                    _ => {
                        losses.push(
                            at,
                            "content",
                            LossEffect::ReadsBackDifferently,
                            "a Gemini response has one output: the parts are joined",
                        );
                        if values.iter().all(Value::is_string) {
                            let texts: Vec<&str> =
                                values.iter().filter_map(Value::as_str).collect();
                            wrap(Value::from(&texts.join("\n")))
                        } else {
                            wrap(Value::Array(values))
                        }
                    }
                }
            }
        }
    }
}

impl ToolResults {
    /// Reads a Gemini `role: "user"` content whose parts begin with
    /// `functionResponse` parts; the parts after them are
    /// [`trailing`](Self::trailing).
    pub(crate) fn from_gemini(v: &Value) -> Result<ToolResults, ProtocolError> {
        let o = expect_object(v, "", "a Content object")?;
        // Google's older examples answer calls in a `role: "function"`
        // content; it is kept for Gemini.
        let role_kept = match o.get("role") {
            None => false,
            Some(Value::String(r)) if r == "user" => false,
            Some(Value::String(r)) if r == "function" => true,
            Some(other) => {
                return Err(ProtocolError::UnknownShape {
                    at: "/role".into(),
                    expected: "role \"user\" or \"function\"",
                    found: other.to_string(),
                });
            }
        };
        let parts = match o.get("parts") {
            Some(Value::Array(a)) => a,
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/parts".into(),
                    expected: "an array of parts",
                    found: json_type(other),
                });
            }
            None => {
                return Err(ProtocolError::MissingField {
                    at: String::new(),
                    field: "parts",
                });
            }
        };
        let mut out = ToolResults {
            native: Native::of(
                Vendor::Gemini,
                other_members(
                    o,
                    if role_kept {
                        &["parts"]
                    } else {
                        &["role", "parts"]
                    },
                ),
            ),
            ..ToolResults::default()
        };
        for (i, p) in parts.iter().enumerate() {
            let at = ptr_i("/parts", i);
            let is_result = p.get("functionResponse").is_some();
            if is_result && out.trailing.is_empty() {
                out.results.push(ToolResult::from_gemini_at(p, &at)?);
            } else if is_result {
                return Err(ProtocolError::UnknownShape {
                    at,
                    expected: "functionResponse parts before any other part",
                    found: "a functionResponse after another part".into(),
                });
            } else {
                expect_object(p, &at, "a part object")?;
                out.trailing
                    .push(
                        read_part(Vendor::Gemini, p).unwrap_or_else(|| ResultPart::Native {
                            vendor: Vendor::Gemini,
                            part: p.clone(),
                        }),
                    );
            }
        }
        Ok(out)
    }

    /// The one `role: "user"` content for Gemini.
    pub(crate) fn write_gemini(&self, losses: &mut Losses) -> Value {
        let v = Vendor::Gemini;
        let mut native = self.native.clone();
        // The Responses item type of a message is no content; Gemini's
        // `function` role means `user`.
        native.members.shift_remove("type");
        native.members.shift_remove("role");
        native.report_dropped(v, &self.native_at(), losses);
        let mut parts: Vec<Value> = self
            .results
            .iter()
            .enumerate()
            .map(|(i, r)| r.write_gemini(&self.result_at(i), losses))
            .collect();
        for (j, p) in self.trailing.iter().enumerate() {
            if let Some(w) = write_part(p, v, None, Place::User, &self.trailing_at(j), losses) {
                parts.push(w);
            }
        }
        let mut o = self.native.start(v);
        o.entry("role").or_insert_with(|| Value::from("user"));
        o.insert("parts".into(), Value::Array(parts));
        Value::Object(o)
    }
}
