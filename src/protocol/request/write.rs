//! Writing a [`Request`] for a vendor, with the report of what cannot cross.

use crate::value::{Map, Value};

use super::{Message, Request, ResponseFormat, SystemPrompt, SystemRole, UserMessage};
use crate::protocol::content::Place;
use crate::protocol::error::rebase_at;
use crate::protocol::error::{ptr, ptr_i};
use crate::protocol::loss::{Converted, LossEffect, Losses};

use crate::protocol::result::write_content;
use crate::protocol::{ResultContent, Vendor};

/// Anthropic's accepted temperature range ends at 1.
const ANTHROPIC_MAX_TEMPERATURE: f64 = 1.0;

fn content_value(
    c: &ResultContent,
    (vendor, from): (Vendor, Option<Vendor>),
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Value {
    write_content(c, vendor, from, place, at, losses).unwrap_or_else(|| Value::from(""))
}

/// Both OpenAI APIs read each other's string-map metadata the same way.
fn same_family(a: Vendor, b: Vendor) -> bool {
    a == b || (a != Vendor::Anthropic && b != Vendor::Anthropic)
}

impl Request {
    /// Writes the request body for `vendor`, with every part that cannot
    /// cross listed.
    /// For the vendor it was read from, it is the JSON it was read from.
    ///
    /// A loss points where the part stood in the JSON the request was read
    /// from (`/stop_sequences`, `/system/0/cache_control`,
    /// `/input/3/output/1`); a member the target requires and the source
    /// lacks, under the name it would take (`/max_tokens`). For a request
    /// built in code, `/messages/{i}` counts [`Request::messages`] and the
    /// system prompt is `/system`.
    pub fn to_vendor(&self, vendor: Vendor) -> Converted<Value> {
        match vendor {
            Vendor::Gemini => return self.write_gemini(),
            Vendor::Bedrock => return self.write_bedrock(),
            _ => {}
        }
        let mut losses = Losses::default();
        let same = self.shape.vendor == Some(vendor);
        // Where each message and the system prompt stood in the source.
        let placed = self.shape.message_at.len() == self.messages.len();
        let message_at = |i: usize| match self.shape.message_at.get(i) {
            Some((list, start)) if placed => ptr_i(list, *start),
            _ => ptr_i("/messages", i),
        };
        let place = |i: usize, at: &str| match self.shape.message_at.get(i) {
            Some((list, start)) if placed => rebase_at(at, list, *start),
            _ => format!("{}{at}", ptr_i("/messages", i)),
        };
        let (system_at, system_content_at) = match &self.shape.system_at {
            Some((a, c)) => (a.clone(), c.clone()),
            None => ("/system".to_owned(), "/system".to_owned()),
        };
        let mut out: Vec<(String, Value)> = Vec::new();
        let mut put = |k: &str, v: Value| out.push((k.to_owned(), v));
        // Gemini and Bedrock bodies may leave the model to the URL.
        if self.model.is_empty() {
            losses.push(
                "/model",
                "model",
                LossEffect::MissingRequired,
                &format!("{vendor} requires a model"),
            );
        }
        put("model", Value::from(&self.model));

        // The system prompt, and the messages.
        let mut system = self.system.clone();
        let mut first = 0;
        if vendor == Vendor::Anthropic
            && system.is_none()
            && let Some(Message::System(p)) = self.messages.first()
        {
            losses.push(
                &message_at(0),
                "system",
                LossEffect::ReadsBackDifferently,
                "Anthropic has one system prompt, at the head: a leading system message \
                 reads back as it",
            );
            system = Some(p.clone());
            first = 1;
        }
        if vendor == Vendor::OpenAiChat
            && system.is_none()
            && matches!(self.messages.first(), Some(Message::System(_)))
        {
            losses.push(
                &message_at(0),
                "system",
                LossEffect::ReadsBackDifferently,
                "a Chat system message at the head reads back as the request's system prompt",
            );
        }
        let mut chat_messages: Vec<Value> = Vec::new();
        let mut input: Vec<Value> = Vec::new();
        // A leading system message taken as the system prompt stood there.
        let (system_at, system_content_at) = if first == 1 {
            (message_at(0), ptr(&message_at(0), "content"))
        } else {
            (system_at, system_content_at)
        };
        if let Some(p) = &system {
            p.native.report_dropped(vendor, &system_at, &mut losses);
            match vendor {
                // Written by their own writers, above.
                Vendor::Gemini | Vendor::Bedrock => {}
                Vendor::Anthropic => {
                    if p.role == SystemRole::Developer {
                        losses.push(
                            &system_at,
                            "developer",
                            LossEffect::ReadsBackDifferently,
                            "Anthropic has no developer role: it reads back as system",
                        );
                    }
                    put(
                        "system",
                        content_value(
                            &p.content,
                            (vendor, self.shape.vendor),
                            Place::System,
                            &system_content_at,
                            &mut losses,
                        ),
                    );
                }
                Vendor::OpenAiChat => {
                    chat_messages.push(system_message(
                        p,
                        vendor,
                        (&system_at, &system_content_at),
                        &mut losses,
                    ));
                }
                Vendor::OpenAiResponses => match (&p.content, p.role) {
                    (ResultContent::Text(t), SystemRole::System) => {
                        put("instructions", Value::from(t))
                    }
                    _ => {
                        losses.push(
                            &system_at,
                            "system",
                            LossEffect::ReadsBackDifferently,
                            "Responses instructions are one system string: this prompt goes \
                             first in input and reads back as an input message",
                        );
                        input.push(system_message(
                            p,
                            vendor,
                            (&system_at, &system_content_at),
                            &mut losses,
                        ));
                    }
                },
            }
        }
        let mut anthropic_messages: Vec<Value> = Vec::new();
        for (i, m) in self.messages.iter().enumerate().skip(first) {
            let at = message_at(i);
            let written: Vec<Value> = match m {
                Message::System(p) => {
                    if vendor == Vendor::Anthropic {
                        losses.push(
                            &at,
                            "system",
                            LossEffect::Dropped,
                            "Anthropic takes a system prompt only at the head",
                        );
                        Vec::new()
                    } else {
                        vec![system_message(
                            p,
                            vendor,
                            (&at, &ptr(&at, "content")),
                            &mut losses,
                        )]
                    }
                }
                Message::User(u) => vec![user_message(u, vendor, &at, &mut losses)],
                Message::Assistant(t) => {
                    let v = losses.absorb_with(t.to_vendor(vendor), |l| place(i, l));
                    match v {
                        Value::Array(items) => {
                            if items.is_empty() {
                                losses.push(
                                    &at,
                                    "message",
                                    LossEffect::Dropped,
                                    "an empty assistant turn is no Responses item",
                                );
                            }
                            items
                        }
                        other => vec![other],
                    }
                }
                Message::Results(r) => {
                    if vendor != Vendor::Anthropic
                        && r.trailing.is_empty()
                        && matches!(self.messages.get(i + 1), Some(Message::User(_)))
                    {
                        losses.push(
                            &message_at(i + 1),
                            "user message",
                            LossEffect::ReadsBackDifferently,
                            "a user message right after tool results reads back as part of \
                             the results message",
                        );
                    }
                    losses.absorb_with(r.to_vendor(vendor), |l| place(i, l))
                }
                Message::Native { vendor: from, item } => {
                    if *from == vendor {
                        vec![item.clone()]
                    } else {
                        let ty = item.get("type").and_then(Value::as_str).unwrap_or("item");
                        losses.push(
                            &at,
                            ty,
                            LossEffect::Dropped,
                            &format!("{vendor} has no counterpart of this {from} input item"),
                        );
                        Vec::new()
                    }
                }
            };
            match vendor {
                // Written by their own writers, above.
                Vendor::Gemini | Vendor::Bedrock => {}
                Vendor::Anthropic => anthropic_messages.extend(written),
                Vendor::OpenAiChat => chat_messages.extend(written),
                Vendor::OpenAiResponses => input.extend(written),
            }
        }
        match vendor {
            // Written by their own writers, above.
            Vendor::Gemini | Vendor::Bedrock => {}
            Vendor::Anthropic => put("messages", Value::Array(anthropic_messages)),
            Vendor::OpenAiChat => put("messages", Value::Array(chat_messages)),
            Vendor::OpenAiResponses => {
                let as_string = !same || self.shape.input_string;
                let single_text = match (as_string, input.as_slice()) {
                    (true, [one]) => one
                        .get("content")
                        .and_then(Value::as_str)
                        .filter(|_| one.as_object().is_some_and(|o| o.len() == 2))
                        .map(str::to_owned),
                    _ => None,
                };
                match single_text {
                    Some(t) => put("input", Value::from(&t)),
                    None => put("input", Value::Array(input)),
                }
            }
        }

        // Tools.
        if let Some(set) = &self.tools
            && let Value::Object(t) = losses.absorb(set.to_request_json(vendor), "")
        {
            {
                let others: Vec<&Value> = set.other_tools().collect();
                for (k, v) in t {
                    let v = match (k.as_str(), v) {
                        ("tools", Value::Array(tools)) if !same => Value::Array(
                            tools
                                .into_iter()
                                .enumerate()
                                .filter(|(i, tool)| {
                                    let keep = !others.contains(&tool);
                                    if !keep {
                                        let name = tool
                                            .get("type")
                                            .and_then(Value::as_str)
                                            .unwrap_or("tool");
                                        losses.push(
                                            &ptr_i("/tools", *i),
                                            name,
                                            LossEffect::Dropped,
                                            &format!(
                                                "a server or hosted tool of the source means \
                                                 nothing to {vendor}"
                                            ),
                                        );
                                    }
                                    keep
                                })
                                .map(|(_, tool)| tool)
                                .collect(),
                        ),
                        (_, v) => v,
                    };
                    if k == "tools"
                        && v.as_array().is_some_and(Vec::is_empty)
                        && same
                        && !self.shape.order.iter().any(|o| o == "tools")
                    {
                        continue;
                    }
                    put(&k, v);
                }
            }
        }

        // Spellings of the source that another vendor writes its own way.
        if !same {
            self.report_spellings(&mut losses);
            self.report_config(vendor, &mut losses);
        }

        // Limits, sampling, metadata, streaming.
        match (vendor, self.max_tokens) {
            // Written by their own writers, above.
            (Vendor::Gemini | Vendor::Bedrock, _) => {}
            (Vendor::Anthropic, None) => losses.push(
                "/max_tokens",
                "max_tokens",
                LossEffect::MissingRequired,
                "Anthropic requires max_tokens",
            ),
            (Vendor::Anthropic, Some(n)) => put("max_tokens", Value::from(n)),
            (Vendor::OpenAiChat, Some(n)) if same && self.shape.chat_old_max_tokens => {
                put("max_tokens", Value::from(n))
            }
            (Vendor::OpenAiChat, Some(n)) => put("max_completion_tokens", Value::from(n)),
            (Vendor::OpenAiResponses, Some(n)) => put("max_output_tokens", Value::from(n)),
            (_, None) => {}
        }
        if let Some(stop) = &self.stop {
            match vendor {
                // Written by their own writers, above.
                Vendor::Gemini | Vendor::Bedrock => {}
                Vendor::Anthropic => put(
                    "stop_sequences",
                    Value::Array(stop.iter().map(Value::from).collect()),
                ),
                Vendor::OpenAiChat => match stop.as_slice() {
                    [one] if same && self.shape.stop_string => put("stop", Value::from(one)),
                    _ => put("stop", Value::Array(stop.iter().map(Value::from).collect())),
                },
                Vendor::OpenAiResponses => losses.push(
                    if self.shape.vendor == Some(Vendor::Anthropic) {
                        "/stop_sequences"
                    } else {
                        "/stop"
                    },
                    "stop",
                    LossEffect::Dropped,
                    "Responses has no stop sequences",
                ),
            }
        }
        if let Some(t) = &self.temperature {
            if vendor == Vendor::Anthropic
                && t.as_f64().is_some_and(|x| x > ANTHROPIC_MAX_TEMPERATURE)
            {
                losses.push(
                    "/temperature",
                    "temperature",
                    LossEffect::Dropped,
                    "Anthropic temperature runs from 0 to 1",
                );
            } else {
                put("temperature", Value::Number(t.clone()));
            }
        }
        if let Some(p) = &self.top_p {
            put("top_p", Value::Number(p.clone()));
        }
        if let Some(k) = self.top_k {
            if vendor == Vendor::Anthropic {
                put("top_k", Value::from(k));
            } else {
                losses.push(
                    "/top_k",
                    "top_k",
                    LossEffect::Dropped,
                    "OpenAI has no top_k",
                );
            }
        }
        if let Some((from, m)) = &self.metadata {
            if same_family(*from, vendor) {
                put("metadata", m.clone());
            } else {
                losses.push(
                    "/metadata",
                    "metadata",
                    LossEffect::Dropped,
                    "Anthropic metadata ({user_id}) and OpenAI metadata (a string map) differ",
                );
            }
        }
        if let Some(b) = self.stream {
            put("stream", Value::Bool(b));
        }
        if let Some(f) = &self.response_format
            && let Some((k, v)) = self.format(f, vendor, same, &mut losses)
        {
            put(k, v);
        }
        for (k, v) in &self.shape.native {
            if same {
                put(k, v.clone());
            } else {
                losses.push(
                    &ptr("", k),
                    k,
                    LossEffect::Dropped,
                    &format!("not carried to {vendor}"),
                );
            }
        }

        // The source's member order for its own vendor.
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
        let mut o = Map::new();
        for (k, v) in out {
            o.insert(k, v);
        }
        losses.finish(Value::Object(o))
    }

    /// Source spellings that come back spelled the target's way with
    /// another meaning: Chat `max_tokens` comes back `max_completion_tokens`
    /// (which counts reasoning tokens too). Spellings of the same meaning (a
    /// Chat `stop` string and a list of one, a Responses input string and a
    /// list of one user text) are no loss.
    fn report_spellings(&self, losses: &mut Losses) {
        if self.shape.vendor == Some(Vendor::OpenAiChat) && self.shape.chat_old_max_tokens {
            losses.push(
                "/max_tokens",
                "max_tokens",
                LossEffect::ReadsBackDifferently,
                "reads back as max_completion_tokens",
            );
        }
    }

    fn format(
        &self,
        f: &ResponseFormat,
        vendor: Vendor,
        same: bool,
        losses: &mut Losses,
    ) -> Option<(&'static str, Value)> {
        let at = self.format_at();
        let mut native = self.shape.format_native.clone();
        if !same {
            for k in native.keys() {
                losses.push(
                    &ptr(at, k),
                    k,
                    LossEffect::Dropped,
                    &format!("not carried to {vendor}"),
                );
            }
            native.clear();
        }
        let simple = |ty: &str| {
            let mut o = Map::new();
            o.insert("type".into(), Value::from(ty));
            Value::Object(o)
        };
        match (vendor, f) {
            (
                Vendor::Anthropic,
                ResponseFormat::JsonSchema {
                    name,
                    description,
                    schema,
                    strict,
                },
            ) => {
                for (k, present) in [
                    ("name", name.is_some()),
                    ("description", description.is_some()),
                    ("strict", strict.is_some()),
                ] {
                    if present {
                        losses.push(
                            &ptr(at, k),
                            k,
                            LossEffect::Dropped,
                            "Anthropic output_format takes a schema only",
                        );
                    }
                }
                let mut o = Map::new();
                o.insert("type".into(), Value::from("json_schema"));
                o.insert("schema".into(), schema.clone());
                Some(("output_format", Value::Object(o)))
            }
            (Vendor::Anthropic, _) => {
                losses.push(
                    at,
                    "response_format",
                    LossEffect::Dropped,
                    "Anthropic output_format has only json_schema",
                );
                None
            }
            (
                _,
                ResponseFormat::JsonSchema {
                    name,
                    description,
                    schema,
                    strict,
                },
            ) => {
                let mut o = Map::new();
                if vendor == Vendor::OpenAiResponses {
                    o.insert("type".into(), Value::from("json_schema"));
                }
                match name {
                    Some(n) => {
                        o.insert("name".into(), Value::from(n));
                    }
                    None => losses.push(
                        &ptr(at, "name"),
                        "name",
                        LossEffect::MissingRequired,
                        "OpenAI requires a name for a json_schema format",
                    ),
                }
                if let Some(d) = description {
                    o.insert("description".into(), Value::from(d));
                }
                o.insert("schema".into(), schema.clone());
                if let Some(b) = strict {
                    o.insert("strict".into(), Value::Bool(*b));
                }
                if vendor == Vendor::OpenAiResponses {
                    let mut text = Map::new();
                    text.insert("format".into(), Value::Object(o));
                    text.extend(native);
                    return Some(("text", Value::Object(text)));
                }
                o.extend(native);
                let mut outer = Map::new();
                outer.insert("type".into(), Value::from("json_schema"));
                outer.insert("json_schema".into(), Value::Object(o));
                Some(("response_format", Value::Object(outer)))
            }
            (_, ResponseFormat::Text | ResponseFormat::JsonObject) => {
                let ty = if matches!(f, ResponseFormat::Text) {
                    "text"
                } else {
                    "json_object"
                };
                if vendor == Vendor::OpenAiResponses {
                    let mut text = Map::new();
                    text.insert("format".into(), simple(ty));
                    text.extend(native);
                    Some(("text", Value::Object(text)))
                } else {
                    Some(("response_format", simple(ty)))
                }
            }
        }
    }
}

/// A system message; `at`: the prompt's pointer in the source and its
/// content's.
fn system_message(
    p: &SystemPrompt,
    vendor: Vendor,
    (at, content_at): (&str, &str),
    losses: &mut Losses,
) -> Value {
    let mut o = p.native.start(vendor);
    p.native.report_dropped(vendor, at, losses);
    o.insert("role".into(), Value::from(p.role.as_str()));
    o.insert(
        "content".into(),
        content_value(
            &p.content,
            (vendor, p.native.vendor),
            Place::System,
            content_at,
            losses,
        ),
    );
    Value::Object(o)
}

fn user_message(u: &UserMessage, vendor: Vendor, at: &str, losses: &mut Losses) -> Value {
    let mut o = u.native.start(vendor);
    let mut native = u.native.clone();
    // The Responses item type of a message is no content.
    native.members.remove("type");
    native.report_dropped(vendor, at, losses);
    o.insert("role".into(), Value::from("user"));
    o.insert(
        "content".into(),
        content_value(
            &u.content,
            (vendor, u.native.vendor),
            Place::User,
            &ptr(at, "content"),
            losses,
        ),
    );
    Value::Object(o)
}
