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

/// A body being written for Anthropic or OpenAI: its members in the order
/// written, and what could not cross.
struct Body {
    vendor: Vendor,
    /// Written for the vendor the request was read from.
    same: bool,
    members: Vec<(String, Value)>,
    losses: Losses,
}

impl Body {
    fn put(&mut self, key: &str, value: Value) {
        self.members.push((key.to_owned(), value));
    }
}

/// The message lists of the three vendors: each written message goes to
/// the target's list.
#[derive(Default)]
struct MessageLists {
    anthropic: Vec<Value>,
    chat: Vec<Value>,
    input: Vec<Value>,
}

impl MessageLists {
    fn extend(&mut self, vendor: Vendor, written: Vec<Value>) {
        match vendor {
            // Written by their own writers.
            Vendor::Gemini | Vendor::Bedrock => {}
            Vendor::Anthropic => self.anthropic.extend(written),
            Vendor::OpenAiChat => self.chat.extend(written),
            Vendor::OpenAiResponses => self.input.extend(written),
        }
    }
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
        let mut body = Body {
            vendor,
            same: self.shape.vendor == Some(vendor),
            members: Vec::new(),
            losses: Losses::default(),
        };
        // Gemini and Bedrock bodies may leave the model to the URL.
        if self.model.is_empty() {
            body.losses.push(
                "/model",
                "model",
                LossEffect::MissingRequired,
                &format!("{vendor} requires a model"),
            );
        }
        body.put("model", Value::from(&self.model));
        self.write_conversation(&mut body);
        self.write_tools(&mut body);
        // Spellings of the source that another vendor writes its own way.
        if !body.same {
            self.report_spellings(&mut body.losses);
            self.report_config(vendor, &mut body.losses);
        }
        self.write_limits(&mut body);
        self.write_sampling(&mut body);
        if let Some(f) = &self.response_format
            && let Some((k, v)) = self.format(f, vendor, body.same, &mut body.losses)
        {
            body.put(k, v);
        }
        for (k, v) in &self.shape.native {
            if body.same {
                body.put(k, v.clone());
            } else {
                body.losses.push(
                    &ptr("", k),
                    k,
                    LossEffect::Dropped,
                    &format!("not carried to {vendor}"),
                );
            }
        }
        let written = self.ordered(body.members, body.same);
        body.losses.finish(written)
    }

    /// Where message `i` stood in the source, as the reader recorded it (else
    /// its place in [`Request::messages`]).
    fn recorded_message_at(&self, i: usize) -> String {
        let placed = self.shape.message_at.len() == self.messages.len();
        match self.shape.message_at.get(i) {
            Some((list, start)) if placed => ptr_i(list, *start),
            _ => ptr_i("/messages", i),
        }
    }

    /// A pointer `at` inside message `i`, rebased to where it stood in the
    /// source.
    fn recorded_place(&self, i: usize, at: &str) -> String {
        let placed = self.shape.message_at.len() == self.messages.len();
        match self.shape.message_at.get(i) {
            Some((list, start)) if placed => rebase_at(at, list, *start),
            _ => format!("{}{at}", ptr_i("/messages", i)),
        }
    }

    /// The system prompt and the messages, in the target's members
    /// (`system` / `instructions`, `messages` / `input`).
    fn write_conversation(&self, body: &mut Body) {
        let vendor = body.vendor;
        let mut lists = MessageLists::default();
        let first = self.write_system(body, &mut lists);
        for (i, m) in self.messages.iter().enumerate().skip(first) {
            let written = self.write_message(i, m, body);
            lists.extend(vendor, written);
        }
        match vendor {
            // Written by their own writers.
            Vendor::Gemini | Vendor::Bedrock => {}
            Vendor::Anthropic => body.put("messages", Value::Array(lists.anthropic)),
            Vendor::OpenAiChat => body.put("messages", Value::Array(lists.chat)),
            Vendor::OpenAiResponses => {
                let input = self.responses_input(body.same, lists.input);
                body.put("input", input);
            }
        }
    }

    /// Writes the system prompt (Anthropic `system`, a Chat system message,
    /// Responses `instructions` or a first input message); returns the
    /// index of the first message still to write (1 when a leading system
    /// message became Anthropic's system prompt).
    fn write_system(&self, body: &mut Body, lists: &mut MessageLists) -> usize {
        let vendor = body.vendor;
        let mut system = self.system.clone();
        let mut first = 0;
        if vendor == Vendor::Anthropic
            && system.is_none()
            && let Some(Message::System(p)) = self.messages.first()
        {
            body.losses.push(
                &self.recorded_message_at(0),
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
            body.losses.push(
                &self.recorded_message_at(0),
                "system",
                LossEffect::ReadsBackDifferently,
                "a Chat system message at the head reads back as the request's system prompt",
            );
        }
        let Some(p) = &system else {
            return first;
        };
        // A leading system message taken as the system prompt stood there.
        let (system_at, system_content_at) = if first == 1 {
            (
                self.recorded_message_at(0),
                ptr(&self.recorded_message_at(0), "content"),
            )
        } else {
            match &self.shape.system_at {
                Some((a, c)) => (a.clone(), c.clone()),
                None => ("/system".to_owned(), "/system".to_owned()),
            }
        };
        p.native
            .report_dropped(vendor, &system_at, &mut body.losses);
        match vendor {
            // Written by their own writers.
            Vendor::Gemini | Vendor::Bedrock => {}
            Vendor::Anthropic => {
                if p.role == SystemRole::Developer {
                    body.losses.push(
                        &system_at,
                        "developer",
                        LossEffect::ReadsBackDifferently,
                        "Anthropic has no developer role: it reads back as system",
                    );
                }
                let content = content_value(
                    &p.content,
                    (vendor, self.shape.vendor),
                    Place::System,
                    &system_content_at,
                    &mut body.losses,
                );
                body.put("system", content);
            }
            Vendor::OpenAiChat => {
                lists.chat.push(system_message(
                    p,
                    vendor,
                    (&system_at, &system_content_at),
                    &mut body.losses,
                ));
            }
            Vendor::OpenAiResponses => match (&p.content, p.role) {
                (ResultContent::Text(t), SystemRole::System) => {
                    body.put("instructions", Value::from(t))
                }
                _ => {
                    body.losses.push(
                        &system_at,
                        "system",
                        LossEffect::ReadsBackDifferently,
                        "Responses instructions are one system string: this prompt goes \
                         first in input and reads back as an input message",
                    );
                    lists.input.push(system_message(
                        p,
                        vendor,
                        (&system_at, &system_content_at),
                        &mut body.losses,
                    ));
                }
            },
        }
        first
    }

    /// Message `i` as the target's messages or input items (none, one, or
    /// the several of a turn or of results).
    fn write_message(&self, i: usize, m: &Message, body: &mut Body) -> Vec<Value> {
        let vendor = body.vendor;
        let losses = &mut body.losses;
        let at = self.recorded_message_at(i);
        match m {
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
                        losses,
                    )]
                }
            }
            Message::User(u) => vec![user_message(u, vendor, &at, losses)],
            Message::Assistant(t) => {
                let v = losses.absorb_with(t.to_vendor(vendor), |l| self.recorded_place(i, l));
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
                        &self.recorded_message_at(i + 1),
                        "user message",
                        LossEffect::ReadsBackDifferently,
                        "a user message right after tool results reads back as part of \
                         the results message",
                    );
                }
                losses.absorb_with(r.to_vendor(vendor), |l| self.recorded_place(i, l))
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
        }
    }

    /// Responses `input`: one plain text message is written as a string
    /// when the source wrote it so or is another vendor, else the items.
    fn responses_input(&self, same: bool, input: Vec<Value>) -> Value {
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
            Some(t) => Value::from(&t),
            None => Value::Array(input),
        }
    }

    /// The tool set's members; a server or hosted tool of another vendor is
    /// left out and reported.
    fn write_tools(&self, body: &mut Body) {
        let Some(set) = &self.tools else {
            return;
        };
        let Value::Object(t) = body.losses.absorb(set.to_request_json(body.vendor), "") else {
            return;
        };
        let (vendor, same) = (body.vendor, body.same);
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
                                let name =
                                    tool.get("type").and_then(Value::as_str).unwrap_or("tool");
                                body.losses.push(
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
            body.put(&k, v);
        }
    }

    /// The output token limit and the stop sequences, each under the
    /// target's name.
    fn write_limits(&self, body: &mut Body) {
        let same = body.same;
        match (body.vendor, self.max_tokens) {
            // Written by their own writers.
            (Vendor::Gemini | Vendor::Bedrock, _) => {}
            (Vendor::Anthropic, None) => body.losses.push(
                "/max_tokens",
                "max_tokens",
                LossEffect::MissingRequired,
                "Anthropic requires max_tokens",
            ),
            (Vendor::Anthropic, Some(n)) => body.put("max_tokens", Value::from(n)),
            (Vendor::OpenAiChat, Some(n)) if same && self.shape.chat_old_max_tokens => {
                body.put("max_tokens", Value::from(n))
            }
            (Vendor::OpenAiChat, Some(n)) => body.put("max_completion_tokens", Value::from(n)),
            (Vendor::OpenAiResponses, Some(n)) => body.put("max_output_tokens", Value::from(n)),
            (_, None) => {}
        }
        let Some(stop) = &self.stop else {
            return;
        };
        match body.vendor {
            // Written by their own writers.
            Vendor::Gemini | Vendor::Bedrock => {}
            Vendor::Anthropic => body.put(
                "stop_sequences",
                Value::Array(stop.iter().map(Value::from).collect()),
            ),
            Vendor::OpenAiChat => match stop.as_slice() {
                [one] if same && self.shape.stop_string => body.put("stop", Value::from(one)),
                _ => body.put("stop", Value::Array(stop.iter().map(Value::from).collect())),
            },
            Vendor::OpenAiResponses => body.losses.push(
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

    /// Temperature, `top_p`, `top_k`, metadata and the stream flag, where
    /// the target has them.
    fn write_sampling(&self, body: &mut Body) {
        let vendor = body.vendor;
        if let Some(t) = &self.temperature {
            if vendor == Vendor::Anthropic
                && t.as_f64().is_some_and(|x| x > ANTHROPIC_MAX_TEMPERATURE)
            {
                body.losses.push(
                    "/temperature",
                    "temperature",
                    LossEffect::Dropped,
                    "Anthropic temperature runs from 0 to 1",
                );
            } else {
                body.put("temperature", Value::Number(t.clone()));
            }
        }
        if let Some(p) = &self.top_p {
            body.put("top_p", Value::Number(p.clone()));
        }
        if let Some(k) = self.top_k {
            if vendor == Vendor::Anthropic {
                body.put("top_k", Value::from(k));
            } else {
                body.losses.push(
                    "/top_k",
                    "top_k",
                    LossEffect::Dropped,
                    "OpenAI has no top_k",
                );
            }
        }
        if let Some((from, m)) = &self.metadata {
            if same_family(*from, vendor) {
                body.put("metadata", m.clone());
            } else {
                body.losses.push(
                    "/metadata",
                    "metadata",
                    LossEffect::Dropped,
                    "Anthropic metadata ({user_id}) and OpenAI metadata (a string map) differ",
                );
            }
        }
        if let Some(b) = self.stream {
            body.put("stream", Value::Bool(b));
        }
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
