//! Tool results in Bedrock Converse JSON: `{"toolResult": {"toolUseId",
//! "content": [...], "status"?}}` blocks, all results of a turn in one
//! `role: "user"` message, with what the user says after them as further
//! blocks. `status: "error"` is `is_error`; content blocks are `text`,
//! `json`, `image`, `document` (and `video`, `searchResult`, kept for
//! Bedrock only).

use crate::value::{Map, Value};

use super::{ResultContent, ResultPart, ToolResult, ToolResults};
use crate::protocol::Vendor;
use crate::protocol::content::{Place, read_part, write_part};
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::{
    expect_object, expect_role, other_members, required_array, required_str,
};
use crate::protocol::loss::Losses;
use crate::protocol::native::Native;
use crate::protocol::slots::slotted;

/// Reads a block list as content: none is [`ResultContent::Empty`], one
/// text alone a string, anything else parts.
pub(crate) fn read_blocks(blocks: &[Value], at: &str) -> Result<ResultContent, ProtocolError> {
    let mut parts = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        expect_object(b, &ptr_i(at, i), "a content block object")?;
        parts.push(
            read_part(Vendor::Bedrock, b).unwrap_or_else(|| ResultPart::Native {
                vendor: Vendor::Bedrock,
                part: b.clone(),
            }),
        );
    }
    Ok(match parts.as_slice() {
        [] => ResultContent::Empty,
        [ResultPart::Text(t)] => ResultContent::Text(t.clone()),
        _ => ResultContent::Parts(parts),
    })
}

/// Writes content as a block list for Bedrock at `place`.
pub(crate) fn write_blocks(
    c: &ResultContent,
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Vec<Value> {
    let v = Vendor::Bedrock;
    match c {
        ResultContent::Empty => Vec::new(),
        ResultContent::Text(t) => vec![
            write_part(&ResultPart::Text(t.clone()), v, None, place, at, losses)
                .unwrap_or(Value::Null),
        ],
        ResultContent::Parts(ps) => ps
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let pat = ptr_i(at, i);
                match p {
                    // A Gemini response object is the output: JSON here.
                    ResultPart::Native {
                        vendor: Vendor::Gemini,
                        part,
                    } if place == Place::ToolResult && part.get("response").is_some() => {
                        let mut o = Map::new();
                        o.insert("json".into(), part["response"].clone());
                        Some(Value::Object(o))
                    }
                    _ => write_part(p, v, None, place, &pat, losses),
                }
            })
            .collect(),
    }
}

impl ToolResult {
    /// Reads a Bedrock `{"toolResult": {...}}` block.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{ToolResult, Vendor};
    /// let block = json!({"toolResult": {"toolUseId": "tooluse_1",
    ///     "content": [{"json": {"song": "Elemental Hotel"}}], "status": "success"}});
    /// let r = ToolResult::from_vendor(Vendor::Bedrock, &block)?;
    /// assert!(!r.is_error);
    /// assert_eq!(r.to_vendor(Vendor::Bedrock).lossless().unwrap(), block);
    /// // Anthropic takes no JSON block: its text, reported.
    /// let (a, losses) = r.to_vendor(Vendor::Anthropic).accept_losses();
    /// assert_eq!(a["content"][0]["text"], r#"{"song":"Elemental Hotel"}"#);
    /// assert_eq!(losses.len(), 1);
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub(crate) fn from_bedrock(v: &Value) -> Result<ToolResult, ProtocolError> {
        Self::from_bedrock_at(v, "")
    }

    pub(crate) fn from_bedrock_at(v: &Value, at: &str) -> Result<ToolResult, ProtocolError> {
        let o = expect_object(v, at, "a toolResult block")?;
        let tat = ptr(at, "toolResult");
        let t = expect_object(
            o.get("toolResult")
                .ok_or_else(|| ProtocolError::MissingField {
                    at: at.to_owned(),
                    field: "toolResult",
                })?,
            &tat,
            "a toolResult object",
        )?;
        let call_id = required_str(t, "toolUseId", &tat)?.to_owned();
        let (is_error, explicit_flag) = match t.get("status") {
            None => (false, false),
            Some(Value::String(st)) if st == "error" => (true, true),
            Some(Value::String(st)) if st == "success" => (false, true),
            Some(other) => {
                return Err(ProtocolError::UnknownShape {
                    at: ptr(&tat, "status"),
                    expected: "status \"success\" or \"error\"",
                    found: other.to_string(),
                });
            }
        };
        let cat = ptr(&tat, "content");
        let content = read_blocks(required_array(t, "content", &tat)?, &cat)?;
        let mut members = slotted(o, &["toolResult"]);
        let extra = slotted(t, &["toolUseId", "content", "status"]);
        if extra.values().any(|v| !v.is_null()) {
            members.insert("toolResult".into(), Value::Object(extra));
        }
        Ok(ToolResult {
            call_id,
            name: None,
            content,
            is_error,
            explicit_flag,
            native: Native::of(Vendor::Bedrock, members),
        })
    }

    /// The `toolResult` block (`at`: the result's pointer in the source).
    pub(crate) fn write_bedrock(&self, at: &str, losses: &mut Losses) -> Value {
        let v = Vendor::Bedrock;
        self.reported_native().report_dropped(v, at, losses);
        let content_at = self.content_at(at);
        let content = write_blocks(&self.content, Place::ToolResult, &content_at, losses);
        let mut o = self.native.start(v);
        let mut t = match o.get("toolResult") {
            Some(Value::Object(extra)) => extra.clone(),
            _ => Map::new(),
        };
        t.insert("toolUseId".into(), Value::from(&self.call_id));
        t.insert("content".into(), Value::Array(content));
        if self.is_error {
            t.insert("status".into(), Value::from("error"));
        } else if self.explicit_flag {
            t.insert("status".into(), Value::from("success"));
        } else {
            t.shift_remove("status");
        }
        o.insert("toolResult".into(), Value::Object(t));
        Value::Object(o)
    }
}

impl ToolResults {
    /// Reads a Bedrock `role: "user"` message whose blocks begin with
    /// `toolResult` blocks; the blocks after them are
    /// [`trailing`](Self::trailing).
    pub(crate) fn from_bedrock(v: &Value) -> Result<ToolResults, ProtocolError> {
        let o = expect_object(v, "", "a user message object")?;
        expect_role(o, "", "user")?;
        let blocks = match o.get("content") {
            Some(Value::Array(b)) => b,
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    at: "/content".into(),
                    expected: "an array of content blocks",
                    found: json_type(other),
                });
            }
            None => {
                return Err(ProtocolError::MissingField {
                    at: String::new(),
                    field: "content",
                });
            }
        };
        let mut out = ToolResults {
            native: Native::of(Vendor::Bedrock, other_members(o, &["role", "content"])),
            ..ToolResults::default()
        };
        for (i, b) in blocks.iter().enumerate() {
            let at = ptr_i("/content", i);
            let is_result = b.get("toolResult").is_some();
            if is_result && out.trailing.is_empty() {
                out.results.push(ToolResult::from_bedrock_at(b, &at)?);
            } else if is_result {
                return Err(ProtocolError::UnknownShape {
                    at,
                    expected: "toolResult blocks before any other block",
                    found: "a toolResult after another block".into(),
                });
            } else {
                expect_object(b, &at, "a content block object")?;
                out.trailing
                    .push(
                        read_part(Vendor::Bedrock, b).unwrap_or_else(|| ResultPart::Native {
                            vendor: Vendor::Bedrock,
                            part: b.clone(),
                        }),
                    );
            }
        }
        Ok(out)
    }

    /// The one `role: "user"` message for Bedrock.
    pub(crate) fn write_bedrock(&self, losses: &mut Losses) -> Value {
        let v = Vendor::Bedrock;
        let mut native = self.native.clone();
        native.members.shift_remove("type");
        native.report_dropped(v, &self.native_at(), losses);
        let mut blocks: Vec<Value> = self
            .results
            .iter()
            .enumerate()
            .map(|(i, r)| r.write_bedrock(&self.result_at(i), losses))
            .collect();
        for (j, p) in self.trailing.iter().enumerate() {
            if let Some(w) = write_part(p, v, None, Place::User, &self.trailing_at(j), losses) {
                blocks.push(w);
            }
        }
        let mut o = self.native.start(v);
        o.insert("role".into(), Value::from("user"));
        o.insert("content".into(), Value::Array(blocks));
        Value::Object(o)
    }
}
