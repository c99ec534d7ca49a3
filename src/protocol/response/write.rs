//! Writing a [`Response`] for a vendor: the same JSON for its own vendor,
//! the target's envelope around the converted turn for another, with every
//! part that cannot cross in the loss report.

use crate::value::{Map, Value};

use super::super::error::ptr;
use super::super::loss::{Converted, LossEffect, Losses, UNMODELLED};

use super::super::turn::place_losses;
use super::super::turn::{stop_as_bedrock, stop_as_gemini, stop_from_bedrock, stop_from_gemini};
use super::super::{StopReason, TurnPart, Vendor};
use super::order::KeyOrder;
use super::usage::convert_usage;
use super::{CONSTANTS, Response};

/// Whether a member carries anything (`null`, `[]`, `{}` do not).
fn carries(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => true,
    }
}

/// The stop reason as `to` reads back what it is written as.
fn reads_back(r: &StopReason, to: Vendor, has_calls: bool) -> StopReason {
    match to {
        Vendor::Anthropic => StopReason::from_anthropic(r.as_anthropic()),
        Vendor::OpenAiChat => StopReason::from_openai_chat(r.as_openai_chat()),
        Vendor::Gemini => stop_from_gemini(stop_as_gemini(r), has_calls),
        Vendor::Bedrock => stop_from_bedrock(stop_as_bedrock(r)),
        _ => match r {
            StopReason::MaxTokens | StopReason::EndOfStream => StopReason::MaxTokens,
            StopReason::Refusal | StopReason::ContentFilter => StopReason::Refusal,
            _ if has_calls => StopReason::ToolUse,
            _ => StopReason::EndTurn,
        },
    }
}

impl Response {
    /// The body in `vendor`'s shape.
    ///
    /// For the vendor it was read from, the same JSON (members, order, and
    /// the members this model does not type), and no loss. For another
    /// vendor: the target's envelope (`type` / `object`), the id and model,
    /// the turn converted as [`AssistantTurn::to_vendor`](super::AssistantTurn::to_vendor)
    /// converts it, the stop reason and the usage in the target's words; a
    /// [`Loss`](super::super::Loss) for each part, member or count that the
    /// target has no place for, a stop reason that reads back as another,
    /// and each Chat choice after the first (Anthropic and Responses hold one
    /// turn). Gemini keeps several candidates; a ConverseResponse has no id
    /// and does not name the model (both losses).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::json;
    /// use tooljson::protocol::{Response, Vendor};
    /// let body = json!({
    ///     "id": "resp_1", "object": "response", "created_at": 1741476542, "status": "completed",
    ///     "model": "gpt-4.1", "temperature": 1.0,
    ///     "output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
    ///                 "name": "get_weather", "arguments": "{\"city\":\"Oslo\"}", "status": "completed"}],
    ///     "usage": {"input_tokens": 20, "output_tokens": 7, "total_tokens": 27}
    /// });
    /// let r = Response::from_vendor(Vendor::OpenAiResponses, &body)?;
    /// let chat = r.to_vendor(Vendor::OpenAiChat);
    /// // The echoed temperature and the item ids (fc_1, its status) have no place in Chat.
    /// let parts: Vec<&str> = chat.losses().iter().map(|l| l.part.as_str()).collect();
    /// assert!(parts.contains(&"temperature") && parts.contains(&"id"));
    /// let (chat, _) = chat.accept_losses();
    /// assert_eq!(chat["created"], 1741476542);
    /// assert_eq!(chat["choices"][0]["message"]["tool_calls"][0]["id"], "call_1");
    /// # Ok::<(), tooljson::protocol::ProtocolError>(())
    /// ```
    pub fn to_vendor(&self, vendor: Vendor) -> Converted<Value> {
        let mut losses = Losses::default();
        if !super::super::error::models_messages(vendor) {
            losses.push("", "response", LossEffect::Dropped, UNMODELLED);
            return losses.finish(Value::Null);
        }
        let from = self.shape.vendor;
        let same = from == Some(vendor);
        if !same {
            self.report(vendor, &mut losses);
            self.report_id_model(vendor, &mut losses);
        }
        match vendor {
            Vendor::Gemini => {
                let out = self.write_gemini(&mut losses);
                return losses.finish(out);
            }
            Vendor::Bedrock => {
                let out = self.write_bedrock(&mut losses);
                return losses.finish(out);
            }
            _ => {}
        }
        let mut o = if same {
            self.shape.native.clone()
        } else {
            let mut o = Map::new();
            match vendor {
                Vendor::Anthropic => o.insert("type".into(), Value::from("message")),
                Vendor::OpenAiChat => o.insert("object".into(), Value::from("chat.completion")),
                _ => o.insert("object".into(), Value::from("response")),
            };
            // Chat `created` and Responses `created_at` are the same instant.
            let (src, dst) = match vendor {
                Vendor::OpenAiChat => ("created_at", "created"),
                _ => ("created", "created_at"),
            };
            if vendor != Vendor::Anthropic
                && let Some(t) = self.shape.native.get(src)
            {
                o.insert(dst.into(), t.clone());
            }
            o
        };
        if let Some(id) = &self.id {
            o.insert("id".into(), Value::from(id));
        }
        if let Some(m) = &self.model {
            o.insert("model".into(), Value::from(m));
        }
        match vendor {
            Vendor::Anthropic => {
                if let Some(t) = self.choices.first()
                    && let Value::Object(m) = t.to_anthropic()
                {
                    o.extend(m);
                }
                if !same {
                    o.entry("stop_sequence").or_insert(Value::Null);
                }
            }
            Vendor::OpenAiChat => {
                let choices = self
                    .choices
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let mut c = match t.to_openai_chat() {
                            Value::Object(c) if c.contains_key("message") => c,
                            message => {
                                let mut c = Map::new();
                                c.insert("message".into(), message);
                                c.insert("finish_reason".into(), Value::Null);
                                c
                            }
                        };
                        match self.shape.choice_native.get(i).filter(|_| same) {
                            Some(n) => c.extend(n.clone()),
                            None => {
                                c.insert("index".into(), i.into());
                                c.insert("logprobs".into(), Value::Null);
                            }
                        }
                        let mut c = Value::Object(c);
                        KeyOrder::names(&["index", "message", "logprobs", "finish_reason"])
                            .apply(&mut c);
                        c
                    })
                    .collect();
                o.insert("choices".into(), Value::Array(choices));
            }
            _ => match self.choices.first().map(|t| t.to_openai_responses()) {
                Some(Value::Object(m)) => o.extend(m),
                Some(items) => {
                    o.insert("output".into(), items);
                }
                None => {
                    o.insert("output".into(), Value::Array(Vec::new()));
                }
            },
        }
        if let Some((uv, u)) = &self.usage {
            let usage = if *uv == vendor {
                u.clone()
            } else {
                convert_usage(*uv, u, vendor, self.usage_at(), &mut losses)
            };
            o.insert("usage".into(), usage);
        }
        let mut out = Value::Object(o);
        if same {
            self.shape.order.apply(&mut out);
        } else {
            let names: &[&str] = match vendor {
                Vendor::Anthropic => &[
                    "id",
                    "type",
                    "role",
                    "model",
                    "content",
                    "stop_reason",
                    "stop_sequence",
                    "usage",
                ],
                Vendor::OpenAiChat => &["id", "object", "created", "model", "choices", "usage"],
                _ => &[
                    "id",
                    "object",
                    "created_at",
                    "status",
                    "incomplete_details",
                    "model",
                    "output",
                    "usage",
                ],
            };
            KeyOrder::names(names).apply(&mut out);
        }
        losses.finish(out)
    }

    /// Records what writing for `vendor` (not the source) leaves out or changes.
    fn report(&self, vendor: Vendor, losses: &mut Losses) {
        let from = self.shape.vendor;
        for (k, v) in &self.shape.native {
            let mapped = matches!(
                (k, vendor),
                ("created", Vendor::OpenAiResponses) | ("created_at", Vendor::OpenAiChat)
            );
            if CONSTANTS.contains(&k) || mapped || !carries(v) {
                continue;
            }
            let src = from.map_or("the source", |f| f.as_str());
            losses.push(
                &ptr("", k),
                k,
                LossEffect::Dropped,
                &format!("{vendor} has no counterpart of this {src} member"),
            );
        }
        for (i, turn) in self.choices.iter().enumerate() {
            let base = self.choice_at(i);
            if i > 0 && !matches!(vendor, Vendor::OpenAiChat | Vendor::Gemini) {
                losses.push(
                    &base,
                    "choice",
                    LossEffect::Dropped,
                    &format!("{vendor} holds one turn per response"),
                );
                continue;
            }
            if let Some(n) = self.shape.choice_native.get(i) {
                for (k, v) in n {
                    if k != "index" && carries(v) {
                        losses.push(
                            &ptr(&base, k),
                            k,
                            LossEffect::Dropped,
                            &format!("{vendor} has no counterpart of this choice member"),
                        );
                    }
                }
            }
            let mut turn_losses = Losses::default();
            turn.report(vendor, &mut turn_losses);
            // The turn reports Chat message members itself; the others'
            // (a Responses `status` it does not read) are the body's.
            if from != Some(Vendor::OpenAiChat) {
                turn.native_members()
                    .report_dropped(vendor, "", &mut turn_losses);
            }
            // The turn's pointers are from its message (Chat) or its list of
            // items (Responses).
            let prefix = match from {
                Some(Vendor::OpenAiChat) => ptr(&base, "message"),
                Some(Vendor::OpenAiResponses) => base.clone(),
                _ => String::new(),
            };
            place_losses(from, &prefix, &mut turn_losses.0);
            if from == Some(Vendor::Gemini) {
                for l in &mut turn_losses.0 {
                    l.at.insert_str(0, &base);
                }
            }
            losses.0.extend(turn_losses.0);
            if let Some(r) = &turn.stop_reason {
                let has_calls = turn.parts.iter().any(|p| matches!(p, TurnPart::Call(_)));
                let back = reads_back(r, vendor, has_calls);
                if &back != r {
                    let at = match from {
                        Some(Vendor::Anthropic) => "/stop_reason".to_owned(),
                        Some(Vendor::OpenAiChat) => ptr(&base, "finish_reason"),
                        Some(Vendor::Gemini) => ptr(&base, "finishReason"),
                        Some(Vendor::Bedrock) => "/stopReason".to_owned(),
                        _ => "/status".to_owned(),
                    };
                    losses.push(
                        &at,
                        "stop reason",
                        LossEffect::ReadsBackDifferently,
                        &format!(
                            "{vendor} has no word for {}: it reads back as {}",
                            r.as_str(),
                            back.as_str()
                        ),
                    );
                }
            }
        }
    }
}
