//! A Gemini `GenerateContentResponse` read into [`Response`] and written
//! from it: `candidates` (each a turn, its `index`, `safetyRatings`... kept
//! beside it), `usageMetadata`, `modelVersion` (the model), `responseId`
//! (the id); `promptFeedback` and other members kept for Gemini.

use crate::value::{Map, Value};

use super::super::error::{ProtocolError, json_type, ptr_i};
use super::super::json_read::expect_object;
use super::super::loss::{LossEffect, Losses};
use super::super::{AssistantTurn, Vendor};
use super::order::KeyOrder;
use super::usage::convert_usage;
use super::{Response, Shape};
use crate::protocol::request::prefixed;

pub(super) fn read(v: &Value) -> Result<Response, ProtocolError> {
    let vendor = Vendor::Gemini;
    let o = expect_object(v, "", "a response object")?;
    let mut r = Response {
        id: None,
        model: None,
        choices: Vec::new(),
        usage: None,
        shape: Shape {
            vendor: Some(vendor),
            order: KeyOrder::of(v),
            ..Shape::default()
        },
    };
    for (k, val) in o {
        match k {
            "responseId" if val.is_string() => r.id = val.as_str().map(str::to_owned),
            "modelVersion" if val.is_string() => r.model = val.as_str().map(str::to_owned),
            "usageMetadata" if !val.is_null() => r.usage = Some((vendor, val.clone())),
            "candidates" => {
                let Value::Array(cs) = val else {
                    return Err(ProtocolError::WrongType {
                        at: "/candidates".into(),
                        expected: "an array",
                        found: json_type(val),
                    });
                };
                for (i, c) in cs.iter().enumerate() {
                    let at = ptr_i("/candidates", i);
                    let co = expect_object(c, &at, "a candidate object")?;
                    let mut turn_json = Map::new();
                    let mut rest = Map::new();
                    for (ck, cv) in co {
                        if ck == "content" || ck == "finishReason" {
                            turn_json.insert(ck.to_owned(), cv.clone());
                        } else {
                            rest.insert(ck.to_owned(), cv.clone());
                        }
                    }
                    // A candidate stopped before any content (a safety
                    // block) has none.
                    turn_json.entry("content").or_insert_with(|| {
                        let mut c = Map::new();
                        c.insert("parts".into(), Value::Array(Vec::new()));
                        Value::Object(c)
                    });
                    let turn =
                        AssistantTurn::from_vendor(Vendor::Gemini, &Value::Object(turn_json))
                            .map_err(|e| prefixed(e, &at))?;
                    r.choices.push(turn);
                    r.shape.choice_native.push(rest);
                }
            }
            _ => {
                r.shape.native.insert(k.to_owned(), val.clone());
            }
        }
    }
    Ok(r)
}

impl Response {
    /// The body for Gemini (the report of what cannot cross is made by the
    /// caller).
    pub(super) fn write_gemini(&self, losses: &mut Losses) -> Value {
        let v = Vendor::Gemini;
        let same = self.shape.vendor == Some(v);
        let mut o = if same {
            self.shape.native.clone()
        } else {
            Map::new()
        };
        let candidates = self
            .choices
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut c = match t.to_gemini() {
                    Value::Object(c) if c.contains_key("content") => c,
                    content => {
                        let mut c = Map::new();
                        c.insert("content".into(), content);
                        c
                    }
                };
                match self.shape.choice_native.get(i).filter(|_| same) {
                    Some(n) => c.extend(n.clone()),
                    None => {
                        c.insert("index".into(), i.into());
                    }
                }
                Value::Object(c)
            })
            .collect();
        o.insert("candidates".into(), Value::Array(candidates));
        if let Some((uv, u)) = &self.usage {
            let usage = if *uv == v {
                u.clone()
            } else {
                convert_usage(*uv, u, v, self.usage_at(), losses)
            };
            o.insert("usageMetadata".into(), usage);
        }
        if let Some(m) = &self.model {
            o.insert("modelVersion".into(), Value::from(m));
        }
        if let Some(id) = &self.id {
            o.insert("responseId".into(), Value::from(id));
        }
        let mut out = Value::Object(o);
        if same {
            self.shape.order.apply(&mut out);
        } else {
            KeyOrder::names(&["candidates", "usageMetadata", "modelVersion", "responseId"])
                .apply(&mut out);
        }
        out
    }

    /// Where the source held choice `i` (the base of its turn's pointers).
    pub(super) fn choice_at(&self, i: usize) -> String {
        match self.shape.vendor {
            Some(Vendor::OpenAiChat) => ptr_i("/choices", i),
            Some(Vendor::Gemini) => ptr_i("/candidates", i),
            Some(Vendor::OpenAiResponses) => "/output".to_owned(),
            _ => String::new(),
        }
    }

    /// Where the source held the usage object.
    pub(super) fn usage_at(&self) -> &'static str {
        match self.shape.vendor {
            Some(Vendor::Gemini) => "/usageMetadata",
            _ => "/usage",
        }
    }

    /// Id and model a target without those members loses.
    pub(super) fn report_id_model(&self, vendor: Vendor, losses: &mut Losses) {
        if vendor != Vendor::Bedrock {
            return;
        }
        let (id_at, model_at) = match self.shape.vendor {
            Some(Vendor::Gemini) => ("/responseId", "/modelVersion"),
            _ => ("/id", "/model"),
        };
        if self.id.is_some() {
            losses.push(
                id_at,
                "id",
                LossEffect::Dropped,
                "a ConverseResponse has no id",
            );
        }
        if self.model.is_some() {
            losses.push(
                model_at,
                "model",
                LossEffect::Dropped,
                "a ConverseResponse does not name the model",
            );
        }
    }
}
