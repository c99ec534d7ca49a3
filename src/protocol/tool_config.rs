//! Gemini's `toolConfig` as read, so that a Gemini request written back
//! for Gemini is the JSON it was, and what no other vendor can carry is
//! known.

use crate::value::Value;

use super::error::ptr;
use super::tool_choice::{ReadChoice, ToolChoice};

/// A Gemini `toolConfig` as read, written back verbatim for Gemini while
/// the posture is unchanged. `lost` lists what no other vendor has (as
/// pointer, part, why): `VALIDATED`, and members beside `mode` and
/// `allowedFunctionNames` (`streamFunctionCallArguments`, `retrievalConfig`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Native {
    pub(crate) json: Value,
    pub(crate) choice: ToolChoice,
    pub(crate) allowed: Option<Vec<String>>,
    pub(crate) lost: Vec<(String, String, String)>,
}

impl Native {
    pub(crate) fn gemini(tool_config: &Value, read: Option<&ReadChoice>) -> Native {
        let mut lost = Vec::new();
        let base = "/toolConfig";
        if let Value::Object(tc) = tool_config {
            for (k, v) in tc {
                if k == "functionCallingConfig" {
                    for k in v.as_object().into_iter().flat_map(|f| f.keys()) {
                        if k != "mode" && k != "allowedFunctionNames" {
                            lost.push((
                                ptr(&ptr(base, "functionCallingConfig"), k),
                                k.to_owned(),
                                "a Gemini functionCallingConfig member with no counterpart; left out"
                                    .to_owned(),
                            ));
                        }
                    }
                } else {
                    lost.push((
                        ptr(base, k),
                        k.to_owned(),
                        "a Gemini toolConfig member with no counterpart; left out".to_owned(),
                    ));
                }
            }
        }
        if read.is_some_and(|r| r.validated) {
            lost.push((
                format!("{base}/functionCallingConfig/mode"),
                "mode".to_owned(),
                "Gemini's VALIDATED mode (calls held to the schema, or text) has no counterpart; written as auto".to_owned(),
            ));
        }
        Native {
            json: tool_config.clone(),
            choice: read.map(|r| r.choice.clone()).unwrap_or_default(),
            allowed: read.and_then(|r| r.allowed.clone()),
            lost,
        }
    }
}
