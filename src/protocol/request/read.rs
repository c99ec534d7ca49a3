//! Reading a request body of each vendor into [`Request`].

use crate::value::{Map, Value};

use super::{Message, Request, ResponseFormat, Shape, SystemPrompt, SystemRole, UserMessage};
use crate::protocol::error::{ProtocolError, json_type, ptr, ptr_i};
use crate::protocol::json_read::{expect_object, other_members, required_array, required_str};
use crate::protocol::native::Native;
use crate::protocol::result::read_content;
use crate::protocol::{AssistantTurn, ResultContent, ToolResults, ToolSet, Vendor};

/// The members each vendor's request has that [`Request`] types.
fn known(vendor: Vendor) -> &'static [&'static str] {
    match vendor {
        Vendor::Gemini | Vendor::Bedrock => &[],
        Vendor::Anthropic => &[
            "model",
            "system",
            "messages",
            "tools",
            "tool_choice",
            "max_tokens",
            "stop_sequences",
            "temperature",
            "top_p",
            "top_k",
            "metadata",
            "stream",
            "output_format",
        ],
        Vendor::OpenAiChat => &[
            "model",
            "messages",
            "tools",
            "tool_choice",
            "parallel_tool_calls",
            "max_completion_tokens",
            "max_tokens",
            "stop",
            "temperature",
            "top_p",
            "metadata",
            "stream",
            "response_format",
        ],
        Vendor::OpenAiResponses => &[
            "model",
            "instructions",
            "input",
            "tools",
            "tool_choice",
            "parallel_tool_calls",
            "max_output_tokens",
            "temperature",
            "top_p",
            "metadata",
            "stream",
            "text",
        ],
    }
}

/// The error with `prefix` put before its pointer (a message read on its
/// own reports pointers from the message).
pub(crate) fn prefixed(e: ProtocolError, prefix: &str) -> ProtocolError {
    map_at(e, |at| format!("{prefix}{at}"))
}

/// The error of a run of items read on their own, its pointer into the
/// list (see [`rebase_at`](crate::protocol::error::rebase_at)).
fn rebased(e: ProtocolError, list: &str, start: usize) -> ProtocolError {
    map_at(e, |at| crate::protocol::error::rebase_at(&at, list, start))
}

fn map_at(e: ProtocolError, p: impl Fn(String) -> String) -> ProtocolError {
    use ProtocolError as E;
    match e {
        E::MissingField { at, field } => E::MissingField { at: p(at), field },
        E::WrongType {
            at,
            expected,
            found,
        } => E::WrongType {
            at: p(at),
            expected,
            found,
        },
        E::UnknownShape {
            at,
            expected,
            found,
        } => E::UnknownShape {
            at: p(at),
            expected,
            found,
        },
        E::ArgumentsNotObject { at, found } => E::ArgumentsNotObject { at: p(at), found },
        other => other,
    }
}

fn wrong(at: String, expected: &'static str, v: &Value) -> ProtocolError {
    ProtocolError::WrongType {
        at,
        expected,
        found: json_type(v),
    }
}

fn opt_u64(o: &Map, key: &str) -> Result<Option<u64>, ProtocolError> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| wrong(ptr("", key), "a non-negative integer", v)),
    }
}

fn opt_num(o: &Map, key: &str) -> Result<Option<crate::Number>, ProtocolError> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(Some(n.clone())),
        Some(v) => Err(wrong(ptr("", key), "a number", v)),
    }
}

fn opt_bool(o: &Map, key: &str) -> Result<Option<bool>, ProtocolError> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(wrong(ptr("", key), "a boolean", v)),
    }
}

fn strings(v: &Value, at: &str) -> Result<Vec<String>, ProtocolError> {
    match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| wrong(ptr_i(at, i), "a string", s))
            })
            .collect(),
        other => Err(wrong(at.to_owned(), "an array of strings", other)),
    }
}

fn content(v: Option<&Value>, at: &str, vendor: Vendor) -> Result<ResultContent, ProtocolError> {
    match v {
        None => Err(ProtocolError::MissingField {
            at: at.to_owned(),
            field: "content",
        }),
        Some(c) => read_content(Some(c), &ptr(at, "content"), vendor),
    }
}

fn role(o: &Map, at: &str) -> Result<String, ProtocolError> {
    required_str(o, "role", at).map(str::to_owned)
}

fn system_role(r: &str) -> Option<SystemRole> {
    match r {
        "system" => Some(SystemRole::System),
        "developer" => Some(SystemRole::Developer),
        _ => None,
    }
}

/// A Responses input item that belongs to an assistant turn.
fn is_assistant_item(item: &Value) -> bool {
    let ty = item.get("type").and_then(Value::as_str);
    item.get("role").and_then(Value::as_str) == Some("assistant")
        || matches!(ty, Some("function_call" | "reasoning"))
        || ty.is_some_and(|t| t.ends_with("_call") && t != "function_call_output")
}

fn is_user_message(item: &Value) -> bool {
    item.get("role").and_then(Value::as_str) == Some("user")
        && matches!(
            item.get("type").and_then(Value::as_str),
            None | Some("message")
        )
}

impl Request {
    /// Reads a request body in `vendor`'s shape.
    ///
    /// Errors (typed, with the JSON Pointer): a body that is no object, no
    /// `model`, members of the wrong type, messages of unknown role, and every
    /// error of [`ToolSet::from_request_json_lenient`](crate::protocol::ToolSet::from_request_json_lenient),
    /// [`AssistantTurn::from_vendor`](crate::protocol::AssistantTurn::from_vendor)
    /// and [`ToolResults::from_vendor`](crate::protocol::ToolResults::from_vendor).
    pub fn from_vendor(vendor: Vendor, v: &Value) -> Result<Request, ProtocolError> {
        match vendor {
            Vendor::Gemini => return super::gemini::read(v),
            Vendor::Bedrock => return super::bedrock::read(v),
            _ => {}
        }
        let o = expect_object(v, "", "a request body object")?;
        let mut r = Request::new(required_str(o, "model", "")?, Vec::new());
        let mut known: Vec<&str> = known(vendor).to_vec();
        let mut shape = Shape {
            vendor: Some(vendor),
            order: o.keys().map(str::to_owned).collect(),
            ..Shape::default()
        };
        if ["tools", "tool_choice", "parallel_tool_calls"]
            .iter()
            .any(|k| o.contains_key(k))
        {
            let mut sub = Map::new();
            for k in ["tools", "tool_choice", "parallel_tool_calls"] {
                if let Some(x) = o.get(k) {
                    sub.insert(k.to_owned(), x.clone());
                }
            }
            if !sub.contains_key("tools") {
                sub.insert("tools".into(), Value::Array(Vec::new()));
            }
            r.tools = Some(ToolSet::from_request_json_lenient(&Value::Object(sub))?);
        }
        r.temperature = opt_num(o, "temperature")?;
        r.top_p = opt_num(o, "top_p")?;
        r.stream = opt_bool(o, "stream")?;
        if let Some(m) = o.get("metadata") {
            r.metadata = Some((vendor, m.clone()));
        }
        match vendor {
            // Read above.
            Vendor::Gemini | Vendor::Bedrock => {}
            Vendor::Anthropic => {
                r.max_tokens = opt_u64(o, "max_tokens")?;
                r.top_k = opt_u64(o, "top_k")?;
                if let Some(s) = o.get("stop_sequences") {
                    r.stop = Some(strings(s, "/stop_sequences")?);
                }
                if let Some(s) = o.get("system") {
                    shape.system_at = Some(("/system".into(), "/system".into()));
                    r.system = Some(SystemPrompt::new(
                        SystemRole::System,
                        read_content(Some(s), "/system", vendor)?,
                    ));
                }
                match o.get("output_format") {
                    Some(Value::Object(f))
                        if f.len() == 2
                            && f.get("type").and_then(Value::as_str) == Some("json_schema")
                            && f.contains_key("schema") =>
                    {
                        r.response_format = Some(ResponseFormat::JsonSchema {
                            name: None,
                            description: None,
                            schema: f["schema"].clone(),
                            strict: None,
                        });
                    }
                    _ => known.retain(|k| *k != "output_format"),
                }
                let messages = required_array(o, "messages", "")?;
                for (i, m) in messages.iter().enumerate() {
                    let at = ptr_i("/messages", i);
                    r.messages.push(read_anthropic_message(m, &at)?);
                    shape.message_at.push(("/messages", i));
                }
            }
            Vendor::OpenAiChat => {
                r.max_tokens = opt_u64(o, "max_completion_tokens")?;
                if r.max_tokens.is_some() {
                    known.retain(|k| *k != "max_tokens");
                } else {
                    r.max_tokens = opt_u64(o, "max_tokens")?;
                    shape.chat_old_max_tokens = r.max_tokens.is_some();
                }
                match o.get("stop") {
                    None | Some(Value::Null) => known.retain(|k| *k != "stop"),
                    Some(Value::String(s)) => {
                        shape.stop_string = true;
                        r.stop = Some(vec![s.clone()]);
                    }
                    Some(s) => r.stop = Some(strings(s, "/stop")?),
                }
                match o
                    .get("response_format")
                    .map(|f| read_chat_format(f, &mut shape))
                {
                    Some(Some(f)) => r.response_format = Some(f),
                    _ => known.retain(|k| *k != "response_format"),
                }
                let messages = required_array(o, "messages", "")?;
                read_chat_messages(messages, &mut r, &mut shape)?;
            }
            Vendor::OpenAiResponses => {
                r.max_tokens = opt_u64(o, "max_output_tokens")?;
                match o.get("instructions") {
                    None | Some(Value::Null) => known.retain(|k| *k != "instructions"),
                    Some(Value::String(t)) => {
                        shape.system_at = Some(("/instructions".into(), "/instructions".into()));
                        r.system = Some(SystemPrompt::new(
                            SystemRole::System,
                            ResultContent::Text(t.clone()),
                        ))
                    }
                    Some(_) => known.retain(|k| *k != "instructions"),
                }
                match o.get("text") {
                    Some(Value::Object(t)) if t.contains_key("format") => {
                        match read_responses_format(&t["format"]) {
                            Some(f) => {
                                r.response_format = Some(f);
                                shape.format_native = other_members(t, &["format"]);
                            }
                            None => known.retain(|k| *k != "text"),
                        }
                    }
                    _ => known.retain(|k| *k != "text"),
                }
                match o.get("input") {
                    Some(Value::String(t)) => {
                        shape.input_string = true;
                        shape.message_at.push(("/input", 0));
                        r.messages
                            .push(Message::User(UserMessage::new(ResultContent::Text(
                                t.clone(),
                            ))));
                    }
                    Some(Value::Array(items)) => read_responses_items(items, &mut r, &mut shape)?,
                    Some(other) => {
                        return Err(wrong(
                            "/input".into(),
                            "a string or an array of input items",
                            other,
                        ));
                    }
                    None => known.retain(|k| *k != "input"),
                }
            }
        }
        shape.native = other_members(o, &known);
        r.shape = shape;
        Ok(r)
    }
}

fn read_anthropic_message(m: &Value, at: &str) -> Result<Message, ProtocolError> {
    let o = expect_object(m, at, "a message object")?;
    match role(o, at)?.as_str() {
        "user" => {
            let starts_with_result = o
                .get("content")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .and_then(|b| b.get("type"))
                .and_then(Value::as_str)
                == Some("tool_result");
            if starts_with_result {
                ToolResults::from_anthropic(m)
                    .map(Message::Results)
                    .map_err(|e| prefixed(e, at))
            } else {
                Ok(Message::User(UserMessage {
                    content: content(o.get("content"), at, Vendor::Anthropic)?,
                    native: Native::of(Vendor::Anthropic, other_members(o, &["role", "content"])),
                }))
            }
        }
        "assistant" => AssistantTurn::from_vendor(Vendor::Anthropic, m)
            .map(Message::Assistant)
            .map_err(|e| prefixed(e, at)),
        other => Err(ProtocolError::UnknownShape {
            at: ptr(at, "role"),
            expected: "role \"user\" or \"assistant\"",
            found: format!("{other:?}"),
        }),
    }
}

fn read_chat_format(f: &Value, shape: &mut Shape) -> Option<ResponseFormat> {
    let o = f.as_object()?;
    match o.get("type")?.as_str()? {
        "text" if o.len() == 1 => Some(ResponseFormat::Text),
        "json_object" if o.len() == 1 => Some(ResponseFormat::JsonObject),
        "json_schema" if o.len() == 2 => {
            let js = o.get("json_schema")?.as_object()?;
            let (name, description, schema, strict) = schema_members(js)?;
            shape.format_native = other_members(js, &["name", "description", "schema", "strict"]);
            Some(ResponseFormat::JsonSchema {
                name,
                description,
                schema,
                strict,
            })
        }
        _ => None,
    }
}

type SchemaMembers = (Option<String>, Option<String>, Value, Option<bool>);

fn schema_members(o: &Map) -> Option<SchemaMembers> {
    let optional_str = |k: &str| match o.get(k) {
        None => Some(None),
        Some(Value::String(t)) => Some(Some(t.clone())),
        Some(_) => None,
    };
    let strict = match o.get("strict") {
        None => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => return None,
    };
    Some((
        optional_str("name")?,
        optional_str("description")?,
        o.get("schema")?.clone(),
        strict,
    ))
}

fn read_responses_format(f: &Value) -> Option<ResponseFormat> {
    let o = f.as_object()?;
    match o.get("type")?.as_str()? {
        "text" if o.len() == 1 => Some(ResponseFormat::Text),
        "json_object" if o.len() == 1 => Some(ResponseFormat::JsonObject),
        "json_schema" => {
            if o.keys()
                .any(|k| !["type", "name", "description", "schema", "strict"].contains(&k))
            {
                return None;
            }
            let (name, description, schema, strict) = schema_members(o)?;
            Some(ResponseFormat::JsonSchema {
                name,
                description,
                schema,
                strict,
            })
        }
        _ => None,
    }
}

fn read_chat_messages(
    messages: &[Value],
    r: &mut Request,
    shape: &mut Shape,
) -> Result<(), ProtocolError> {
    let vendor = Vendor::OpenAiChat;
    let mut i = 0;
    while i < messages.len() {
        if r.messages.len() > shape.message_at.len() {
            shape.message_at.push(("/messages", i - 1));
        }
        let at = ptr_i("/messages", i);
        let o = expect_object(&messages[i], &at, "a message object")?;
        let role = role(o, &at)?;
        match role.as_str() {
            "system" | "developer" => {
                let p = SystemPrompt {
                    role: system_role(&role).unwrap_or_default(),
                    content: content(o.get("content"), &at, vendor)?,
                    native: Native::of(vendor, other_members(o, &["role", "content"])),
                };
                if i == 0 {
                    shape.system_at = Some(("/messages/0".into(), "/messages/0/content".into()));
                    r.system = Some(p);
                } else {
                    r.messages.push(Message::System(p));
                }
            }
            "user" => r.messages.push(Message::User(UserMessage {
                content: content(o.get("content"), &at, vendor)?,
                native: Native::of(vendor, other_members(o, &["role", "content"])),
            })),
            "assistant" => r.messages.push(Message::Assistant(
                AssistantTurn::from_vendor(Vendor::OpenAiChat, &messages[i])
                    .map_err(|e| prefixed(e, &at))?,
            )),
            "tool" => {
                let start = i;
                while i < messages.len()
                    && messages[i].get("role").and_then(Value::as_str) == Some("tool")
                {
                    i += 1;
                }
                if i < messages.len() && is_user_message(&messages[i]) {
                    i += 1;
                }
                let results = ToolResults::from_vendor(vendor, &messages[start..i])
                    .map_err(|e| rebased(e, "/messages", start))?;
                r.messages.push(Message::Results(results));
                shape.message_at.push(("/messages", start));
                continue;
            }
            other => {
                return Err(ProtocolError::UnknownShape {
                    at: ptr(&at, "role"),
                    expected: "role \"system\", \"developer\", \"user\", \"assistant\" or \"tool\"",
                    found: format!("{other:?}"),
                });
            }
        }
        i += 1;
    }
    if r.messages.len() > shape.message_at.len() {
        shape.message_at.push(("/messages", messages.len() - 1));
    }
    Ok(())
}

fn read_responses_items(
    items: &[Value],
    r: &mut Request,
    shape: &mut Shape,
) -> Result<(), ProtocolError> {
    let vendor = Vendor::OpenAiResponses;
    let mut i = 0;
    while i < items.len() {
        if r.messages.len() > shape.message_at.len() {
            shape.message_at.push(("/input", i - 1));
        }
        let at = ptr_i("/input", i);
        let o = expect_object(&items[i], &at, "an input item object")?;
        let ty = o.get("type").and_then(Value::as_str);
        if ty == Some("function_call_output") {
            let start = i;
            while i < items.len()
                && items[i].get("type").and_then(Value::as_str) == Some("function_call_output")
            {
                i += 1;
            }
            if i < items.len() && is_user_message(&items[i]) {
                i += 1;
            }
            let results = ToolResults::from_vendor(vendor, &items[start..i])
                .map_err(|e| rebased(e, "/input", start))?;
            r.messages.push(Message::Results(results));
            shape.message_at.push(("/input", start));
            continue;
        }
        if is_assistant_item(&items[i]) {
            let start = i;
            while i < items.len() && is_assistant_item(&items[i]) {
                i += 1;
            }
            let turn = AssistantTurn::from_vendor(
                Vendor::OpenAiResponses,
                &Value::Array(items[start..i].to_vec()),
            )
            .map_err(|e| rebased(e, "/input", start))?;
            r.messages.push(Message::Assistant(turn));
            shape.message_at.push(("/input", start));
            continue;
        }
        let role = o.get("role").and_then(Value::as_str);
        let is_message = matches!(ty, None | Some("message")) && role.is_some();
        match role {
            Some(rl) if is_message => {
                let c = content(o.get("content"), &at, vendor)?;
                let native = Native::of(vendor, other_members(o, &["role", "content"]));
                match system_role(rl) {
                    Some(sr) => r.messages.push(Message::System(SystemPrompt {
                        role: sr,
                        content: c,
                        native,
                    })),
                    None if rl == "user" => r
                        .messages
                        .push(Message::User(UserMessage { content: c, native })),
                    None => {
                        return Err(ProtocolError::UnknownShape {
                            at: ptr(&at, "role"),
                            expected: "role \"user\", \"assistant\", \"system\" or \"developer\"",
                            found: format!("{rl:?}"),
                        });
                    }
                }
            }
            _ => r.messages.push(Message::Native {
                vendor,
                item: items[i].clone(),
            }),
        }
        i += 1;
    }
    if r.messages.len() > shape.message_at.len() {
        shape.message_at.push(("/input", items.len() - 1));
    }
    Ok(())
}
