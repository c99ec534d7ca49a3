//! A Gemini `generateContent` request body read into [`Request`] and
//! written from it: `contents` (`role: "user"` / `"model"` with `parts`),
//! `systemInstruction`, `tools` and `toolConfig`, `generationConfig`
//! (`maxOutputTokens`, `temperature`, `topP`, `topK`, `stopSequences`,
//! `responseMimeType` with `responseJsonSchema`). Other members
//! (`safetySettings`, `cachedContent`, `generationConfig.thinkingConfig`,
//! `candidateCount`...) are kept for Gemini and a loss for another vendor.
//! The model travels in the URL; a body's `model` member is read when
//! given. Streaming is another endpoint (`streamGenerateContent`), so
//! `stream` is no member here.

use crate::value::{Map, Number, Value};

use super::{Message, Request, ResponseFormat, Shape, SystemPrompt, SystemRole, UserMessage};
use crate::protocol::content::{Place, read_part, write_part};
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::expect_object;
use crate::protocol::loss::{Converted, LossEffect, Losses};
use crate::protocol::native::Native;
use crate::protocol::slots::slotted;
use crate::protocol::turn::name_idless_calls;
use crate::protocol::{AssistantTurn, ResultContent, ResultPart, ToolResults, ToolSet, Vendor};

use super::prefixed;

fn wrong(at: String, expected: &'static str, v: &Value) -> ProtocolError {
    ProtocolError::WrongType {
        at,
        expected,
        found: json_type(v),
    }
}

/// `o[key]` as a count (absent or `null`: none).
pub(super) fn count(o: &Map, key: &str, at: &str) -> Result<Option<u64>, ProtocolError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| wrong(ptr(at, key), "a non-negative integer", v)),
    }
}

/// `o[key]` as a number (absent or `null`: none).
pub(super) fn number(o: &Map, key: &str, at: &str) -> Result<Option<Number>, ProtocolError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(Some(n.clone())),
        Some(v) => Err(wrong(ptr(at, key), "a number", v)),
    }
}

/// `o[key]` as a list of strings (absent or `null`: none).
pub(super) fn strings(o: &Map, key: &str, at: &str) -> Result<Option<Vec<String>>, ProtocolError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| wrong(ptr_i(&ptr(at, key), i), "a string", x))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(v) => Err(wrong(ptr(at, key), "an array of strings", v)),
    }
}

/// The keys of `o` among `keys` whose value is set (not `null`).
pub(super) fn present<'a>(o: &Map, keys: &[&'a str]) -> Vec<&'a str> {
    keys.iter()
        .copied()
        .filter(|k| o.get(k).is_some_and(|v| !v.is_null()))
        .collect()
}

/// Gemini parts as content: one text alone is a string.
pub(crate) fn read_parts(parts: &[Value], at: &str) -> Result<ResultContent, ProtocolError> {
    let mut out = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        expect_object(p, &ptr_i(at, i), "a part object")?;
        out.push(
            read_part(Vendor::Gemini, p).unwrap_or_else(|| ResultPart::Native {
                vendor: Vendor::Gemini,
                part: p.clone(),
            }),
        );
    }
    Ok(match out.as_slice() {
        [ResultPart::Text(t)] => ResultContent::Text(t.clone()),
        _ => ResultContent::Parts(out),
    })
}

/// Content as Gemini parts at `place`.
pub(crate) fn write_parts(
    c: &ResultContent,
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Vec<Value> {
    let v = Vendor::Gemini;
    match c {
        ResultContent::Empty => Vec::new(),
        ResultContent::Text(t) => {
            write_part(&ResultPart::Text(t.clone()), v, None, place, at, losses)
                .into_iter()
                .collect()
        }
        ResultContent::Parts(ps) => ps
            .iter()
            .enumerate()
            .filter_map(|(i, p)| write_part(p, v, None, place, &ptr_i(at, i), losses))
            .collect(),
    }
}

/// A `Content` object's `parts`.
fn parts_of<'a>(o: &'a Map, at: &str) -> Result<&'a [Value], ProtocolError> {
    match o.get("parts") {
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(wrong(ptr(at, "parts"), "an array of parts", other)),
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: "parts",
        }),
    }
}

/// The kept members of a content with `role` as a slot when given, so a
/// content read without one is written back without one.
fn content_native(o: &Map) -> Native {
    let user = o.get("role").and_then(Value::as_str) == Some("user");
    let mut m = slotted(o, if user { &["role"] } else { &[] });
    m.shift_remove("parts");
    Native::of(Vendor::Gemini, m)
}

/// Whether to write `role`: always for content of another source; for
/// Gemini's own, when it was read with one.
fn writes_role(n: &Native) -> bool {
    n.vendor != Some(Vendor::Gemini) || n.members.contains_key("role")
}

const CONFIG_TYPED: [&str; 7] = [
    "maxOutputTokens",
    "temperature",
    "topP",
    "topK",
    "stopSequences",
    "responseMimeType",
    "responseJsonSchema",
];

pub(super) fn read(v: &Value) -> Result<Request, ProtocolError> {
    let vendor = Vendor::Gemini;
    let o = expect_object(v, "", "a request body object")?;
    let model = match o.get("model") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(m)) => m.clone(),
        Some(other) => return Err(wrong("/model".into(), "a string", other)),
    };
    let mut r = Request::new(model, Vec::new());
    let mut shape = Shape {
        vendor: Some(vendor),
        order: o.keys().map(str::to_owned).collect(),
        ..Shape::default()
    };
    let mut known = vec!["model", "contents", "tools", "toolConfig"];
    if o.contains_key("tools") || o.contains_key("toolConfig") {
        let mut sub = Map::new();
        for k in ["tools", "toolConfig"] {
            if let Some(x) = o.get(k) {
                sub.insert(k.to_owned(), x.clone());
            }
        }
        sub.entry("tools").or_insert(Value::Array(Vec::new()));
        r.tools = Some(ToolSet::from_request_json_lenient(&Value::Object(sub))?);
    }
    if let Some(si) = o.get("systemInstruction") {
        known.push("systemInstruction");
        let so = expect_object(si, "/systemInstruction", "a Content object")?;
        let content = read_parts(
            parts_of(so, "/systemInstruction")?,
            "/systemInstruction/parts",
        )?;
        r.system = Some(SystemPrompt {
            role: SystemRole::System,
            content,
            native: content_native(so),
        });
    }
    if let Some(gc) = o.get("generationConfig") {
        known.push("generationConfig");
        let at = "/generationConfig";
        let g = expect_object(gc, at, "an object")?;
        r.max_tokens = count(g, "maxOutputTokens", at)?;
        r.temperature = number(g, "temperature", at)?;
        r.top_p = number(g, "topP", at)?;
        r.top_k = count(g, "topK", at)?;
        r.stop = strings(g, "stopSequences", at)?;
        let mut typed = present(g, &CONFIG_TYPED[..5]);
        let mime = g.get("responseMimeType").and_then(Value::as_str);
        let schema = g.get("responseJsonSchema").filter(|s| !s.is_null());
        let format = match (mime, schema, g.contains_key("responseSchema")) {
            (Some("application/json"), Some(s), false) => Some(ResponseFormat::JsonSchema {
                name: None,
                description: None,
                schema: s.clone(),
                strict: None,
            }),
            (Some("application/json"), None, false) => Some(ResponseFormat::JsonObject),
            (Some("text/plain"), None, false) => Some(ResponseFormat::Text),
            _ => None,
        };
        if format.is_some() {
            typed.extend(present(g, &CONFIG_TYPED[5..]));
        }
        r.response_format = format;
        shape.config_native = slotted(g, &typed);
    }
    let contents = match o.get("contents") {
        Some(Value::Array(a)) => a.as_slice(),
        Some(other) => {
            return Err(wrong(
                "/contents".into(),
                "an array of Content objects",
                other,
            ));
        }
        None => {
            return Err(ProtocolError::MissingField {
                at: String::new(),
                field: "contents",
            });
        }
    };
    for (i, c) in contents.iter().enumerate() {
        let at = ptr_i("/contents", i);
        let co = expect_object(c, &at, "a Content object")?;
        match co.get("role").and_then(Value::as_str) {
            Some("model") => r.messages.push(Message::Assistant(
                AssistantTurn::from_vendor(Vendor::Gemini, c).map_err(|e| prefixed(e, &at))?,
            )),
            Some("function") => r.messages.push(Message::Results(
                ToolResults::from_gemini(c).map_err(|e| prefixed(e, &at))?,
            )),
            Some("user") | None if co.get("role").is_none_or(Value::is_string) => {
                let parts = parts_of(co, &at)?;
                if parts.iter().any(|p| p.get("functionResponse").is_some()) {
                    r.messages.push(Message::Results(
                        ToolResults::from_gemini(c).map_err(|e| prefixed(e, &at))?,
                    ));
                } else {
                    r.messages.push(Message::User(UserMessage {
                        content: read_parts(parts, &ptr(&at, "parts"))?,
                        native: content_native(co),
                    }));
                }
            }
            _ => {
                return Err(ProtocolError::UnknownShape {
                    at: ptr(&at, "role"),
                    expected: "role \"user\", \"model\" or \"function\"",
                    found: co.get("role").map(Value::to_string).unwrap_or_default(),
                });
            }
        }
    }
    name_idless(&mut r.messages);
    shape.native = o
        .iter()
        .filter(|(k, _)| !known.contains(k))
        .map(|(k, v)| (k.to_owned(), v.clone()))
        .collect();
    r.shape = shape;
    Ok(r)
}

/// Names the calls read without id `gemini_{i}_{k}` (message `i`, call
/// `k`), and gives each result read without id the id of the call it
/// answers: the one of its name, in order, in the turn before it.
fn name_idless(messages: &mut [Message]) {
    let mut calls: Vec<(String, String)> = Vec::new();
    for (i, m) in messages.iter_mut().enumerate() {
        match m {
            Message::Assistant(t) => {
                name_idless_calls(t, &format!("gemini_{i}_"));
                calls = t.calls().map(|c| (c.id.clone(), c.name.clone())).collect();
            }
            Message::Results(rs) => {
                for r in rs.results.iter_mut().filter(|r| r.call_id.is_empty()) {
                    let name = r.name.as_deref().unwrap_or_default();
                    if let Some(k) = calls.iter().position(|(_, n)| n == name) {
                        r.call_id = calls.remove(k).0;
                    }
                }
                calls.clear();
            }
            _ => calls.clear(),
        }
    }
}

/// The results with each missing name taken from the call of the same id
/// in an earlier assistant turn.
pub(super) fn named(results: &ToolResults, earlier: &[Message]) -> ToolResults {
    let mut out = results.clone();
    for r in out.results.iter_mut().filter(|r| r.name.is_none()) {
        r.name = earlier.iter().rev().find_map(|m| match m {
            Message::Assistant(t) => t
                .calls()
                .find(|c| c.id == r.call_id)
                .map(|c| c.name.clone()),
            _ => None,
        });
    }
    out
}

impl Request {
    /// Records the kept members of the source's `generationConfig` (or
    /// Bedrock `inferenceConfig`) as dropped for another vendor.
    pub(super) fn report_config(&self, vendor: Vendor, losses: &mut Losses) {
        let at = match self.shape.vendor {
            Some(Vendor::Gemini) if vendor != Vendor::Gemini => "/generationConfig",
            Some(Vendor::Bedrock) if vendor != Vendor::Bedrock => "/inferenceConfig",
            _ => return,
        };
        for (k, v) in &self.shape.config_native {
            if !v.is_null() {
                losses.push(
                    &ptr(at, k),
                    k,
                    LossEffect::Dropped,
                    &format!("not carried to {vendor}"),
                );
            }
        }
    }

    /// Writes the request for Gemini.
    pub(super) fn write_gemini(&self) -> Converted<Value> {
        let v = Vendor::Gemini;
        let same = self.shape.vendor == Some(v);
        let mut losses = Losses::default();
        let mut out: Vec<(String, Value)> = Vec::new();
        let mut put = |k: &str, x: Value| out.push((k.to_owned(), x));
        if !self.model.is_empty() {
            put("model", Value::from(&self.model));
        }
        let (system, first) = self.system_or_leading(
            "Gemini has one systemInstruction: a leading system message reads back as it",
            &mut losses,
        );
        put("contents", self.gemini_contents(first, &mut losses));
        if let Some(p) = &system {
            put(
                "systemInstruction",
                self.gemini_system_instruction(p, same, &mut losses),
            );
        }
        if let Some(set) = &self.tools
            && let Value::Object(t) = losses.absorb(set.to_request_json(v), "")
        {
            for (k, x) in t {
                if k == "tools"
                    && x.as_array().is_some_and(Vec::is_empty)
                    && !self.shape.order.iter().any(|o| o == "tools")
                {
                    continue;
                }
                put(&k, x);
            }
        }
        if let Some(config) = self.gemini_generation_config(same, &mut losses) {
            put("generationConfig", config);
        }
        if self.stream.is_some() {
            losses.push(
                &self.field_at("stream"),
                "stream",
                LossEffect::Dropped,
                "Gemini streams through another endpoint (streamGenerateContent), not a member",
            );
        }
        if self.metadata.is_some() {
            losses.push(
                &self.field_at("metadata"),
                "metadata",
                LossEffect::Dropped,
                "Gemini has no request metadata",
            );
        }
        for (k, x) in &self.shape.native {
            if same {
                put(k, x.clone());
            } else {
                losses.push(&ptr("", k), k, LossEffect::Dropped, "not carried to gemini");
            }
        }
        losses.finish(self.ordered(out, same))
    }

    /// The one system prompt of a Gemini or Bedrock body (the request's,
    /// else a leading system message, which reads back as it: `why`), and
    /// the index of the first message still to write.
    pub(super) fn system_or_leading(
        &self,
        why: &str,
        losses: &mut Losses,
    ) -> (Option<SystemPrompt>, usize) {
        if self.system.is_none()
            && let Some(Message::System(p)) = self.messages.first()
        {
            losses.push(
                &self.message_at(0),
                "system",
                LossEffect::ReadsBackDifferently,
                why,
            );
            return (Some(p.clone()), 1);
        }
        (self.system.clone(), 0)
    }

    /// The Gemini `contents` from message `first` on.
    fn gemini_contents(&self, first: usize, losses: &mut Losses) -> Value {
        let v = Vendor::Gemini;
        let mut contents = Vec::new();
        for (i, m) in self.messages.iter().enumerate().skip(first) {
            let at = self.place_in_source(i, "");
            match m {
                Message::System(_) => losses.push(
                    &at,
                    "system",
                    LossEffect::Dropped,
                    "Gemini takes a system instruction only at the head",
                ),
                Message::User(u) => {
                    u.native.report_dropped(v, &at, losses);
                    let mut o = u.native.start(v);
                    if writes_role(&u.native) {
                        o.insert("role".into(), Value::from("user"));
                    }
                    let parts =
                        write_parts(&u.content, Place::User, &self.user_content_at(&at), losses);
                    o.insert("parts".into(), Value::Array(parts));
                    contents.push(Value::Object(o));
                }
                Message::Assistant(t) => contents
                    .push(losses.absorb_with(t.to_vendor(v), |l| self.place_in_source(i, l))),
                Message::Results(r) => {
                    let r = named(r, &self.messages[..i]);
                    contents.extend(losses.absorb(r.to_vendor(v), &at));
                }
                Message::Native { vendor: from, item } => {
                    if *from == v {
                        contents.push(item.clone());
                    } else {
                        losses.push(
                            &at,
                            item.get("type").and_then(Value::as_str).unwrap_or("item"),
                            LossEffect::Dropped,
                            &format!("Gemini has no counterpart of this {from} input item"),
                        );
                    }
                }
            }
        }
        Value::Array(contents)
    }

    /// The `systemInstruction` content of prompt `p`.
    fn gemini_system_instruction(
        &self,
        p: &SystemPrompt,
        same: bool,
        losses: &mut Losses,
    ) -> Value {
        let v = Vendor::Gemini;
        let sat = self.system_at();
        p.native.report_dropped(v, sat, losses);
        if p.role == SystemRole::Developer {
            losses.push(
                sat,
                "developer",
                LossEffect::ReadsBackDifferently,
                "Gemini has no developer role: it reads back as system",
            );
        }
        let mut o = p.native.start(v);
        if same && p.native.members.get("role") == Some(&Value::Null) {
            o.insert("role".into(), Value::from("user"));
        }
        o.insert(
            "parts".into(),
            Value::Array(write_parts(&p.content, Place::System, sat, losses)),
        );
        Value::Object(o)
    }

    /// `generationConfig`: limits, sampling and the response format, with
    /// the source's own members when written back for Gemini; `None` when
    /// empty.
    fn gemini_generation_config(&self, same: bool, losses: &mut Losses) -> Option<Value> {
        let mut config = if same {
            self.shape.config_native.clone()
        } else {
            self.report_config(Vendor::Gemini, losses);
            Map::new()
        };
        if let Some(n) = self.max_tokens {
            config.insert("maxOutputTokens".into(), Value::from(n));
        }
        if let Some(t) = &self.temperature {
            config.insert("temperature".into(), Value::Number(t.clone()));
        }
        if let Some(p) = &self.top_p {
            config.insert("topP".into(), Value::Number(p.clone()));
        }
        if let Some(k) = self.top_k {
            config.insert("topK".into(), Value::from(k));
        }
        if let Some(stop) = &self.stop {
            config.insert(
                "stopSequences".into(),
                Value::Array(stop.iter().map(Value::from).collect()),
            );
        }
        if let Some(f) = &self.response_format {
            self.gemini_response_format(f, &mut config, losses);
        }
        // Typed members left unset are no slots to write.
        config.retain(|k, x| !(x.is_null() && CONFIG_TYPED.contains(&k)));
        (!config.is_empty()).then_some(Value::Object(config))
    }

    /// A response format as `responseMimeType` (and `responseJsonSchema`);
    /// a schema's name, description and strict flag are losses.
    fn gemini_response_format(&self, f: &ResponseFormat, config: &mut Map, losses: &mut Losses) {
        let at = self.format_at();
        match f {
            ResponseFormat::Text => {
                config.insert("responseMimeType".into(), Value::from("text/plain"));
            }
            ResponseFormat::JsonObject => {
                config.insert("responseMimeType".into(), Value::from("application/json"));
            }
            ResponseFormat::JsonSchema {
                name,
                description,
                schema,
                strict,
            } => {
                for (k, given) in [
                    ("name", name.is_some()),
                    ("description", description.is_some()),
                    ("strict", strict.is_some()),
                ] {
                    if given {
                        losses.push(
                            &ptr(at, k),
                            k,
                            LossEffect::Dropped,
                            "Gemini takes a response schema only",
                        );
                    }
                }
                config.insert("responseMimeType".into(), Value::from("application/json"));
                config.insert("responseJsonSchema".into(), schema.clone());
            }
        }
    }

    /// The body from its members, in the source's order for its own vendor.
    pub(super) fn ordered(&self, mut out: Vec<(String, Value)>, same: bool) -> Value {
        if same {
            let rank = |k: &str| {
                self.shape
                    .order
                    .iter()
                    .position(|o| o == k)
                    .unwrap_or(usize::MAX)
            };
            out.sort_by_key(|(k, _)| rank(k));
        }
        Value::Object(out.into_iter().collect())
    }

    /// Where message `i` stood in the source: one message is one Gemini
    /// content, one Anthropic or Bedrock message; for OpenAI (where a run
    /// of tool messages or of items is one message) the place in
    /// [`Request::messages`].
    pub(super) fn message_at(&self, i: usize) -> String {
        match self.shape.vendor {
            Some(Vendor::Gemini) => ptr_i("/contents", i),
            _ => ptr_i("/messages", i),
        }
    }

    /// Where `inner` (a pointer under message `i`) stood in the source: the
    /// reader's record of where each message began (a Responses item, a run
    /// of Chat tool messages), else [`Request::message_at`].
    pub(super) fn place_in_source(&self, i: usize, inner: &str) -> String {
        match self.shape.message_at.get(i) {
            Some((list, start)) if self.shape.message_at.len() == self.messages.len() => {
                crate::protocol::error::rebase_at(inner, list, *start)
            }
            _ => format!("{}{inner}", self.message_at(i)),
        }
    }

    /// Where the source held a user message's content (`at`: the message).
    pub(super) fn user_content_at(&self, at: &str) -> String {
        match self.shape.vendor {
            Some(Vendor::Gemini) => ptr(at, "parts"),
            _ => ptr(at, "content"),
        }
    }

    /// Where the source held its system prompt's content.
    pub(super) fn system_at(&self) -> &'static str {
        match self.shape.vendor {
            Some(Vendor::Gemini) => "/systemInstruction/parts",
            _ => "/system",
        }
    }

    /// Where the source held the structured-output format.
    pub(super) fn format_at(&self) -> &'static str {
        match self.shape.vendor {
            Some(Vendor::Anthropic) => "/output_format",
            Some(Vendor::OpenAiResponses) => "/text/format",
            Some(Vendor::Gemini) => "/generationConfig/responseJsonSchema",
            Some(Vendor::Bedrock) => "/outputConfig/textFormat/structure/jsonSchema",
            _ => "/response_format",
        }
    }

    /// Where the source held a top-level member the model types.
    pub(super) fn field_at(&self, field: &str) -> String {
        let name = match (self.shape.vendor, field) {
            (Some(Vendor::Bedrock), "metadata") => "requestMetadata",
            _ => field,
        };
        ptr("", name)
    }
}
