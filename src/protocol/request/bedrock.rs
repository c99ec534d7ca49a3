//! A Bedrock Converse request body read into [`Request`] and written from
//! it: `modelId`, `messages` (`role: "user"` / `"assistant"` with content
//! blocks), `system` blocks, `inferenceConfig` (`maxTokens`,
//! `temperature`, `topP`, `stopSequences`), `toolConfig`,
//! `requestMetadata`, `outputConfig` (a JSON schema). Other members (`additionalModelRequestFields`,
//! `guardrailConfig`, `promptVariables`...) are kept for Bedrock and a loss
//! for another vendor. The model travels in the URL (`/model/{modelId}/
//! converse`); the SDKs take it as `modelId`, which is read and written.
//! Streaming is another operation (`ConverseStream`), so `stream` is no
//! member here.

use crate::value::{Map, Value};

use super::gemini::{count, named, number, present, strings};
use super::{Message, Request, ResponseFormat, Shape, SystemPrompt, SystemRole, UserMessage};
use crate::protocol::content::Place;
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::{expect_object, other_members};
use crate::protocol::loss::{Converted, LossEffect, Losses};
use crate::protocol::native::Native;
use crate::protocol::result::{read_blocks, write_blocks};
use crate::protocol::slots::slotted;
use crate::protocol::{AssistantTurn, ToolResults, ToolSet, Vendor};

use super::prefixed;

const CONFIG_TYPED: [&str; 4] = ["maxTokens", "temperature", "topP", "stopSequences"];

fn wrong(at: String, expected: &'static str, v: &Value) -> ProtocolError {
    ProtocolError::WrongType {
        at,
        expected,
        found: json_type(v),
    }
}

fn blocks<'a>(o: &'a Map, at: &str) -> Result<&'a [Value], ProtocolError> {
    match o.get("content") {
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(wrong(
            ptr(at, "content"),
            "an array of content blocks",
            other,
        )),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: "content",
        }),
    }
}

pub(super) fn read(v: &Value) -> Result<Request, ProtocolError> {
    let vendor = Vendor::Bedrock;
    let o = expect_object(v, "", "a request body object")?;
    let model = match o.get("modelId") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(m)) => m.clone(),
        Some(other) => return Err(wrong("/modelId".into(), "a string", other)),
    };
    let mut r = Request::new(model, Vec::new());
    let mut shape = Shape {
        vendor: Some(vendor),
        order: o.keys().map(str::to_owned).collect(),
        ..Shape::default()
    };
    let mut known = vec!["modelId", "messages", "toolConfig"];
    if let Some(tc) = o.get("toolConfig").filter(|t| !t.is_null()) {
        let mut sub = Map::new();
        sub.insert("toolConfig".into(), tc.clone());
        r.tools = Some(ToolSet::from_request_json_lenient(&Value::Object(sub))?);
    }
    if let Some(sys) = o.get("system") {
        known.push("system");
        let Value::Array(a) = sys else {
            return Err(wrong("/system".into(), "an array of system blocks", sys));
        };
        r.system = Some(SystemPrompt {
            role: SystemRole::System,
            content: read_blocks(a, "/system")?,
            native: Native::of(vendor, Map::new()),
        });
    }
    if let Some(ic) = o.get("inferenceConfig") {
        known.push("inferenceConfig");
        let at = "/inferenceConfig";
        let c = expect_object(ic, at, "an object")?;
        r.max_tokens = count(c, "maxTokens", at)?;
        r.temperature = number(c, "temperature", at)?;
        r.top_p = number(c, "topP", at)?;
        r.stop = strings(c, "stopSequences", at)?;
        shape.config_native = slotted(c, &present(c, &CONFIG_TYPED));
    }
    if let Some(f) = o.get("outputConfig").and_then(read_output_config) {
        known.push("outputConfig");
        r.response_format = Some(f);
    }
    if let Some(m) = o.get("requestMetadata") {
        known.push("requestMetadata");
        r.metadata = Some((vendor, m.clone()));
    }
    let messages = match o.get("messages") {
        Some(Value::Array(a)) => a.as_slice(),
        Some(other) => return Err(wrong("/messages".into(), "an array of messages", other)),
        None => {
            return Err(ProtocolError::MissingField {
                at: String::new(),
                field: "messages",
            });
        }
    };
    for (i, m) in messages.iter().enumerate() {
        let at = ptr_i("/messages", i);
        let mo = expect_object(m, &at, "a message object")?;
        match mo.get("role").and_then(Value::as_str) {
            Some("assistant") => r.messages.push(Message::Assistant(
                AssistantTurn::from_vendor(Vendor::Bedrock, m).map_err(|e| prefixed(e, &at))?,
            )),
            Some("user") => {
                let bs = blocks(mo, &at)?;
                if bs.first().is_some_and(|b| b.get("toolResult").is_some()) {
                    r.messages.push(Message::Results(
                        ToolResults::from_bedrock(m).map_err(|e| prefixed(e, &at))?,
                    ));
                } else {
                    r.messages.push(Message::User(UserMessage {
                        content: read_blocks(bs, &ptr(&at, "content"))?,
                        native: Native::of(vendor, other_members(mo, &["role", "content"])),
                    }));
                }
            }
            _ => {
                return Err(ProtocolError::UnknownShape {
                    at: ptr(&at, "role"),
                    expected: "role \"user\" or \"assistant\"",
                    found: mo.get("role").map(Value::to_string).unwrap_or_default(),
                });
            }
        }
    }
    shape.native = o
        .iter()
        .filter(|(k, _)| !known.contains(k))
        .map(|(k, v)| (k.to_owned(), v.clone()))
        .collect();
    r.shape = shape;
    Ok(r)
}

/// Converse structured output, `{"textFormat": {"type": "json_schema",
/// "structure": {"jsonSchema": {"schema": "<JSON text>", "name"?,
/// "description"?}}}}`, when it is that alone and its schema text is the
/// compact JSON this layer writes (anything else is kept as read).
fn read_output_config(v: &Value) -> Option<ResponseFormat> {
    let only = |o: &Map, keys: &[&str]| o.keys().all(|k| keys.contains(&k));
    let oc = v.as_object()?;
    let tf = oc.get("textFormat")?.as_object()?;
    let js = tf
        .get("structure")?
        .as_object()?
        .get("jsonSchema")?
        .as_object()?;
    if !only(oc, &["textFormat"])
        || !only(tf, &["type", "structure"])
        || tf.get("type")?.as_str()? != "json_schema"
        || tf.get("structure")?.as_object()?.len() != 1
        || !only(js, &["schema", "name", "description"])
    {
        return None;
    }
    let text = js.get("schema")?.as_str()?;
    let schema = crate::from_str(text).ok()?;
    // Only a compact text reads back as itself.
    let mut compact = String::with_capacity(text.len());
    schema.write_compact(&mut compact);
    if compact != text {
        return None;
    }
    let optional_str = |k: &str| match js.get(k) {
        None => Some(None),
        Some(Value::String(t)) => Some(Some(t.clone())),
        Some(_) => None,
    };
    Some(ResponseFormat::JsonSchema {
        name: optional_str("name")?,
        description: optional_str("description")?,
        schema,
        strict: None,
    })
}

/// The `outputConfig` of a JSON-schema format.
fn output_config(name: &Option<String>, description: &Option<String>, schema: &Value) -> Value {
    let mut js = Map::new();
    js.insert("schema".into(), Value::from(&schema.to_string()));
    if let Some(n) = name {
        js.insert("name".into(), Value::from(n));
    }
    if let Some(d) = description {
        js.insert("description".into(), Value::from(d));
    }
    let mut structure = Map::new();
    structure.insert("jsonSchema".into(), Value::Object(js));
    let mut tf = Map::new();
    tf.insert("type".into(), Value::from("json_schema"));
    tf.insert("structure".into(), Value::Object(structure));
    let mut oc = Map::new();
    oc.insert("textFormat".into(), Value::Object(tf));
    Value::Object(oc)
}

impl Request {
    /// Writes the request for Bedrock Converse.
    pub(super) fn write_bedrock(&self) -> Converted<Value> {
        let v = Vendor::Bedrock;
        let same = self.shape.vendor == Some(v);
        let mut losses = Losses::default();
        let mut out: Vec<(String, Value)> = Vec::new();
        let mut put = |k: &str, x: Value| out.push((k.to_owned(), x));
        if self.model.is_empty() {
            losses.push(
                "/model",
                "modelId",
                LossEffect::MissingRequired,
                "Bedrock Converse requires a modelId",
            );
        } else {
            put("modelId", Value::from(&self.model));
        }
        let (system, first) = self.system_or_leading(
            "Bedrock has one system list, at the head: a leading system message reads back as it",
            &mut losses,
        );
        put("messages", self.bedrock_messages(first, &mut losses));
        if let Some(p) = &system {
            put("system", self.bedrock_system(p, &mut losses));
        }
        if let Some(config) = self.bedrock_inference_config(same, &mut losses) {
            put("inferenceConfig", config);
        }
        if let Some(set) = &self.tools
            && let Value::Object(t) = losses.absorb(set.to_request_json(v), "")
        {
            for (k, x) in t {
                put(&k, x);
            }
        }
        if self.top_k.is_some() {
            losses.push(
                &self.field_at("top_k"),
                "top_k",
                LossEffect::Dropped,
                "Converse has no top_k (it is a model's own field, in additionalModelRequestFields)",
            );
        }
        if let Some(config) = self.bedrock_output_config(&mut losses) {
            put("outputConfig", config);
        }
        if self.stream.is_some() {
            losses.push(
                &self.field_at("stream"),
                "stream",
                LossEffect::Dropped,
                "Bedrock streams through another operation (ConverseStream), not a member",
            );
        }
        if let Some((from, m)) = &self.metadata {
            if *from != Vendor::Anthropic {
                put("requestMetadata", m.clone());
            } else {
                losses.push(
                    &self.field_at("metadata"),
                    "metadata",
                    LossEffect::Dropped,
                    "Anthropic metadata ({user_id}) and Bedrock requestMetadata (a string map) differ",
                );
            }
        }
        for (k, x) in &self.shape.native {
            if same {
                put(k, x.clone());
            } else {
                losses.push(
                    &ptr("", k),
                    k,
                    LossEffect::Dropped,
                    "not carried to bedrock",
                );
            }
        }
        losses.finish(self.ordered(out, same))
    }

    /// The Converse `messages` from message `first` on.
    fn bedrock_messages(&self, first: usize, losses: &mut Losses) -> Value {
        let v = Vendor::Bedrock;
        let mut messages = Vec::new();
        for (i, m) in self.messages.iter().enumerate().skip(first) {
            let at = self.place_in_source(i, "");
            match m {
                Message::System(_) => losses.push(
                    &at,
                    "system",
                    LossEffect::Dropped,
                    "Bedrock takes system blocks only at the head",
                ),
                Message::User(u) => {
                    let mut native = u.native.clone();
                    native.members.shift_remove("type");
                    native.report_dropped(v, &at, losses);
                    let mut o = u.native.start(v);
                    o.insert("role".into(), Value::from("user"));
                    let content =
                        write_blocks(&u.content, Place::User, &self.user_content_at(&at), losses);
                    o.insert("content".into(), Value::Array(content));
                    messages.push(Value::Object(o));
                }
                Message::Assistant(t) => messages
                    .push(losses.absorb_with(t.to_vendor(v), |l| self.place_in_source(i, l))),
                Message::Results(r) => {
                    let r = named(r, &self.messages[..i]);
                    messages.extend(losses.absorb(r.to_vendor(v), &at));
                }
                Message::Native { vendor: from, item } => {
                    if *from == v {
                        messages.push(item.clone());
                    } else {
                        losses.push(
                            &at,
                            item.get("type").and_then(Value::as_str).unwrap_or("item"),
                            LossEffect::Dropped,
                            &format!("Bedrock has no counterpart of this {from} input item"),
                        );
                    }
                }
            }
        }
        Value::Array(messages)
    }

    /// The Converse `system` blocks of prompt `p`.
    fn bedrock_system(&self, p: &SystemPrompt, losses: &mut Losses) -> Value {
        let sat = self.system_at();
        p.native.report_dropped(Vendor::Bedrock, sat, losses);
        if p.role == SystemRole::Developer {
            losses.push(
                sat,
                "developer",
                LossEffect::ReadsBackDifferently,
                "Bedrock has no developer role: it reads back as system",
            );
        }
        Value::Array(write_blocks(&p.content, Place::System, sat, losses))
    }

    /// `inferenceConfig`: the limits and sampling Converse has, with the
    /// source's own members when written back for Bedrock; `None` when
    /// empty.
    fn bedrock_inference_config(&self, same: bool, losses: &mut Losses) -> Option<Value> {
        let mut config = if same {
            self.shape.config_native.clone()
        } else {
            self.report_config(Vendor::Bedrock, losses);
            Map::new()
        };
        if let Some(n) = self.max_tokens {
            config.insert("maxTokens".into(), Value::from(n));
        }
        if let Some(t) = &self.temperature {
            config.insert("temperature".into(), Value::Number(t.clone()));
        }
        if let Some(p) = &self.top_p {
            config.insert("topP".into(), Value::Number(p.clone()));
        }
        if let Some(stop) = &self.stop {
            config.insert(
                "stopSequences".into(),
                Value::Array(stop.iter().map(Value::from).collect()),
            );
        }
        config.retain(|k, x| !(x.is_null() && CONFIG_TYPED.contains(&k)));
        (!config.is_empty()).then_some(Value::Object(config))
    }

    /// `outputConfig` for a JSON-schema response format; any other format is
    /// a loss.
    fn bedrock_output_config(&self, losses: &mut Losses) -> Option<Value> {
        match &self.response_format {
            None => None,
            Some(ResponseFormat::JsonSchema {
                name,
                description,
                schema,
                strict,
            }) => {
                if strict.is_some() {
                    losses.push(
                        &ptr(self.format_at(), "strict"),
                        "strict",
                        LossEffect::Dropped,
                        "Converse structured output has no strict switch",
                    );
                }
                Some(output_config(name, description, schema))
            }
            Some(f) => {
                losses.push(
                    self.format_at(),
                    if matches!(f, ResponseFormat::Text) {
                        "text"
                    } else {
                        "json_object"
                    },
                    LossEffect::Dropped,
                    "Converse structured output takes a JSON schema only",
                );
                None
            }
        }
    }
}
