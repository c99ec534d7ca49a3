//! A Bedrock `ConverseResponse` read into [`Response`] and written from it:
//! `output.message` and `stopReason` (the turn), `usage`; `metrics`,
//! `additionalModelResponseFields`, `trace`... kept for Bedrock. A
//! ConverseResponse has no id and does not name the model.

use crate::value::{Map, Value};

use super::super::error::ProtocolError;
use super::super::json_read::expect_object;
use super::super::loss::Losses;
use super::super::{AssistantTurn, Vendor};
use super::order::KeyOrder;
use super::usage::convert_usage;
use super::{Response, Shape};

pub(super) fn read(v: &Value) -> Result<Response, ProtocolError> {
    let vendor = Vendor::Bedrock;
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
    let mut turn_json = Map::new();
    for (k, val) in o {
        match k {
            "output" | "stopReason" => {
                turn_json.insert(k.to_owned(), val.clone());
            }
            "usage" if !val.is_null() => r.usage = Some((vendor, val.clone())),
            _ => {
                r.shape.native.insert(k.to_owned(), val.clone());
            }
        }
    }
    r.choices.push(AssistantTurn::from_vendor(
        Vendor::Bedrock,
        &Value::Object(turn_json),
    )?);
    Ok(r)
}

impl Response {
    /// The body for Bedrock (the report of what cannot cross is made by the
    /// caller).
    pub(super) fn write_bedrock(&self, losses: &mut Losses) -> Value {
        let v = Vendor::Bedrock;
        let same = self.shape.vendor == Some(v);
        let mut o = if same {
            self.shape.native.clone()
        } else {
            Map::new()
        };
        match self.choices.first().map(AssistantTurn::to_bedrock) {
            Some(Value::Object(m)) if m.contains_key("output") => o.extend(m),
            Some(message) => {
                let mut out = Map::new();
                out.insert("message".into(), message);
                o.insert("output".into(), Value::Object(out));
            }
            None => {}
        }
        if let Some((uv, u)) = &self.usage {
            let usage = if *uv == v {
                u.clone()
            } else {
                convert_usage(*uv, u, v, self.usage_at(), losses)
            };
            o.insert("usage".into(), usage);
        }
        let mut out = Value::Object(o);
        if same {
            self.shape.order.apply(&mut out);
        } else {
            KeyOrder::names(&["output", "stopReason", "usage", "metrics"]).apply(&mut out);
        }
        out
    }
}
