//! The conversions the SDK oracle checks (`tests/sdk_oracle/run`), built
//! once for two readers: the `protocol-cases` binary of `benches/`, which
//! writes them for `check.py` to validate against the providers' SDK types,
//! and `tests/protocol_sdk_cases.rs`, which holds the crate's own promises
//! over them (lossless means equal and no loss; a loss is said; no text
//! is dropped).
//!
//! Conversations of every shape are generated as Anthropic requests, written
//! as each vendor's request, and each of those converted to every other
//! vendor and back; the request fixtures of `corpus/protocol/requests/` and
//! the final message of every recorded stream go through the same pairs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tooljson::protocol::{AssistantTurn, LossEffect, Request, Vendor};
use tooljson::providers::ToolCallStream;
use tooljson::{Map, Value, json};

/// One directed conversion `from -> to`, and back.
pub struct Case {
    /// Which conversation (`gen/...`, `fixture/...`, `stream/...`).
    pub conversation: String,
    pub from: Vendor,
    pub to: Vendor,
    /// The request in `from`'s shape.
    pub source: Value,
    /// Written for `to` (`null` when the conversion failed).
    pub forward: Value,
    /// The losses reported, as `"<part> at <pointer>: <why>"`.
    pub losses: Vec<String>,
    /// `forward` read back as `to` and written for `from` (`null` when
    /// that failed).
    pub back: Value,
    /// The losses of writing `back`.
    pub back_losses: Vec<String>,
    /// Whether `back` says what `source` says (see [`same_meaning`]).
    pub round_trip_equal: bool,
    /// Texts of `source` found nowhere in `forward`.
    pub texts_dropped: Vec<String>,
    /// Why the conversion failed, if it did (a vendor not modelled, a body
    /// that does not read back).
    pub error: Option<String>,
}

impl Case {
    pub fn to_json(&self) -> Value {
        json!({
            "conversation": self.conversation,
            "from": self.from.as_str(),
            "to": self.to.as_str(),
            "source": self.source,
            "forward": self.forward,
            "losses": self.losses,
            "back": self.back,
            "back_losses": self.back_losses,
            "round_trip_equal": self.round_trip_equal,
            "texts_dropped": self.texts_dropped,
            "error": self.error,
        })
    }
}

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PDF: &str = "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK";

fn tools() -> Value {
    json!([
        {"name": "get_weather", "description": "Current weather in a city",
         "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"]}},
        {"name": "get_time", "description": "Current time in a zone", "strict": true,
         "input_schema": {"type": "object", "properties": {"zone": {"type": "string"}},
                          "required": ["zone"], "additionalProperties": false}}
    ])
}

fn call(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

fn result(id: &str, content: Value, is_error: bool) -> Value {
    let mut r = json!({"type": "tool_result", "tool_use_id": id, "content": content});
    if is_error {
        r["is_error"] = json!(true);
    }
    r
}

/// The message shapes: each a list of Anthropic messages.
fn shapes() -> Vec<(&'static str, Value)> {
    let user = |t: &str| json!({"role": "user", "content": t});
    let weather = || call("toolu_01", "get_weather", json!({"city": "Oslo"}));
    vec![
        ("text", json!([user("Hello there.")])),
        (
            "image_base64",
            json!([{"role": "user", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                {"type": "text", "text": "What is in this image?"}]}]),
        ),
        (
            "image_url",
            json!([{"role": "user", "content": [
                {"type": "text", "text": "Describe this picture."},
                {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}]}]),
        ),
        (
            "document_pdf",
            json!([{"role": "user", "content": [
                {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}},
                {"type": "text", "text": "Summarise the document."}]}]),
        ),
        (
            "cache_control_text",
            json!([{"role": "user", "content": [
                {"type": "text", "text": "A long shared context.", "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": "Answer from the context."}]}]),
        ),
        (
            "assistant_text",
            json!([user("Hi."),
                   {"role": "assistant", "content": [{"type": "text", "text": "Hello! How can I help?"}]},
                   user("Weather in Oslo?")]),
        ),
        (
            "one_call",
            json!([user("Weather in Oslo?"),
                   {"role": "assistant", "content": [weather()]},
                   {"role": "user", "content": [result("toolu_01", json!("15 degrees, clear"), false)]}]),
        ),
        (
            "text_and_call",
            json!([user("Weather in Oslo?"),
                   {"role": "assistant", "content": [{"type": "text", "text": "Let me check."}, weather()]},
                   {"role": "user", "content": [result("toolu_01", json!("15 degrees"), false)]},
                   {"role": "assistant", "content": [{"type": "text", "text": "It is 15 degrees in Oslo."}]},
                   user("Thanks.")]),
        ),
        (
            "parallel_calls_error",
            json!([user("Weather and time in Oslo?"),
                   {"role": "assistant", "content": [
                       weather(),
                       call("toolu_02", "get_time", json!({"zone": "Europe/Oslo"}))]},
                   {"role": "user", "content": [
                       result("toolu_01", json!("15 degrees"), false),
                       result("toolu_02", json!("unknown zone"), true)]}]),
        ),
        (
            "text_after_results",
            json!([user("Weather in Oslo?"),
                   {"role": "assistant", "content": [weather()]},
                   {"role": "user", "content": [
                       result("toolu_01", json!([{"type": "text", "text": "15 degrees"}]), false),
                       {"type": "text", "text": "And tomorrow?"}]}]),
        ),
        (
            "result_with_image",
            json!([user("Show the weather chart."),
                   {"role": "assistant", "content": [weather()]},
                   {"role": "user", "content": [result("toolu_01", json!([
                       {"type": "text", "text": "The chart:"},
                       {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]),
                       false)]}]),
        ),
    ]
}

/// Conversations of every shape, as Anthropic requests: each message shape
/// with each system prompt, `tool_choice` posture and parallel flag.
pub fn conversations() -> Vec<(String, Value)> {
    let systems: [(&str, Option<Value>); 3] = [
        ("no_system", None),
        ("system", Some(json!("You are terse."))),
        (
            "system_cache",
            Some(json!([{"type": "text", "text": "You are terse.",
                         "cache_control": {"type": "ephemeral"}}])),
        ),
    ];
    let choices: [(&str, Option<Value>); 5] = [
        ("choice_absent", None),
        ("auto", Some(json!({"type": "auto"}))),
        ("any", Some(json!({"type": "any"}))),
        ("tool", Some(json!({"type": "tool", "name": "get_weather"}))),
        ("none", Some(json!({"type": "none"}))),
    ];
    let mut out = Vec::new();
    for (shape, messages) in shapes() {
        for (sname, system) in &systems {
            for (cname, choice) in &choices {
                for serial in [true, false] {
                    // Anthropic's `none` choice has no parallel switch.
                    if !serial && (cname == &"none" || choice.is_none()) {
                        continue;
                    }
                    let mut body = Map::new();
                    body.insert("model".into(), json!("claude-sonnet-4-5"));
                    body.insert("max_tokens".into(), json!(1024));
                    if let Some(s) = system {
                        body.insert("system".into(), s.clone());
                    }
                    body.insert("messages".into(), messages.clone());
                    body.insert("tools".into(), tools());
                    if let Some(c) = choice {
                        let mut c = c.clone();
                        if !serial {
                            c["disable_parallel_tool_use"] = json!(true);
                        }
                        body.insert("tool_choice".into(), c);
                    }
                    let p = if serial { "" } else { "/serial" };
                    out.push((
                        format!("gen/{shape}/{sname}/{cname}{p}"),
                        Value::Object(body),
                    ));
                }
            }
        }
    }
    out
}

/// The test data folder: `tests/data` in the repository, else
/// `TOOLJSON_TESTDATA`, else `../shared/testdata` beside the repository.
/// Panics when none is there: a missing folder is a failure, never a skip.
pub fn testdata(root: &Path) -> PathBuf {
    let candidates = [
        Some(root.join("tests/data")),
        std::env::var_os("TOOLJSON_TESTDATA").map(PathBuf::from),
        Some(root.join("../shared/testdata")),
    ];
    for dir in candidates.into_iter().flatten() {
        if dir.join("vendor-streams").is_dir() {
            return dir;
        }
    }
    panic!(
        "test data with vendor-streams/ not found under {}/tests/data, TOOLJSON_TESTDATA or \
         ../shared/testdata",
        root.display()
    );
}

/// The vendor a fixture's file name starts with.
fn fixture_vendor(name: &str) -> Option<Vendor> {
    [
        ("anthropic_", Vendor::Anthropic),
        ("openai_chat_", Vendor::OpenAiChat),
        ("openai_responses_", Vendor::OpenAiResponses),
        ("gemini_", Vendor::Gemini),
        ("bedrock_", Vendor::Bedrock),
    ]
    .into_iter()
    .find(|(p, _)| name.starts_with(p))
    .map(|(_, v)| v)
}

/// The request fixtures (`corpus/protocol/requests/*.json` and the whole
/// requests beside them), each with its vendor.
pub fn fixtures(root: &Path) -> Vec<(String, Vendor, Value)> {
    let mut out = Vec::new();
    for dir in ["corpus/protocol/requests", "corpus/protocol"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for p in files {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let is_request = dir.ends_with("requests") || name.contains("_request_");
            if let (true, Some(v)) = (is_request, fixture_vendor(&name)) {
                let body: Value = tooljson::from_slice(&std::fs::read(&p).unwrap())
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                out.push((format!("fixture/{name}"), v, body));
            }
        }
    }
    out
}

/// Spellings of one meaning made one, for comparing a round trip: an OpenAI
/// `"tool_choice": "auto"` is the default it names; `"strict": false`
/// outside a Responses tool is its absence (Responses reads an absent
/// `strict` as true); a Responses input string is a list of one user
/// message; a Chat `stop` string a list of one; a `null` member is absent;
/// an image `"detail": "auto"` is the default (Responses requires it);
/// argument text is its JSON value (Anthropic input is an object, so it
/// comes back compact).
pub fn same_meaning(v: &Value) -> Value {
    fn walk(v: &Value) -> Value {
        match v {
            Value::Object(o) => {
                let responses_tool =
                    o.get("type") == Some(&Value::from("function")) && o.contains_key("name");
                Value::Object(
                    o.iter()
                        .filter(|(k, m)| match (*k, m) {
                            // `"refusal": null` and the like carry nothing.
                            (_, Value::Null) => false,
                            ("strict", Value::Bool(false)) => responses_tool,
                            ("tool_choice", Value::String(c)) => c != "auto",
                            ("detail", Value::String(d)) => d != "auto",
                            _ => true,
                        })
                        .map(|(k, m)| match (k, m) {
                            ("input", Value::String(t)) => {
                                (k.to_owned(), json!([{"role": "user", "content": t}]))
                            }
                            ("stop", Value::String(t)) => (k.to_owned(), json!([t])),
                            ("arguments", Value::String(t)) => (
                                k.to_owned(),
                                tooljson::from_str(t).unwrap_or_else(|_| m.clone()),
                            ),
                            _ => (k.to_owned(), walk(m)),
                        })
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(walk).collect()),
            other => other.clone(),
        }
    }
    walk(v)
}

/// The texts of a request, with their pointers: strings under `text`, and
/// string `content`, `system`, `instructions`, `input` and `output`.
pub fn texts(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    let key = |k: &str| k.replace('~', "~0").replace('/', "~1");
    match v {
        Value::Object(o) => {
            for (k, m) in o {
                let here = format!("{at}/{}", key(k));
                match (k, m) {
                    (
                        "text" | "content" | "system" | "instructions" | "input" | "output",
                        Value::String(t),
                    ) if !t.is_empty() => out.push((here, t.clone())),
                    _ => texts(m, &here, out),
                }
            }
        }
        Value::Array(a) => {
            for (i, m) in a.iter().enumerate() {
                texts(m, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Object(o) => o.values().for_each(|m| strings(m, out)),
        Value::Array(a) => a.iter().for_each(|m| strings(m, out)),
        _ => {}
    }
}

/// `source` (a `from` request) converted to `to` and back.
pub fn convert(conversation: &str, from: Vendor, source: &Value, to: Vendor) -> Case {
    let mut case = Case {
        conversation: conversation.to_owned(),
        from,
        to,
        source: source.clone(),
        forward: Value::Null,
        losses: Vec::new(),
        back: Value::Null,
        back_losses: Vec::new(),
        round_trip_equal: false,
        texts_dropped: Vec::new(),
        error: None,
    };
    let request = match Request::from_vendor(from, source) {
        Ok(r) => r,
        Err(e) => {
            case.error = Some(format!("the {from} source does not read: {e}"));
            return case;
        }
    };
    let (mut forward, mut losses) = request.to_vendor(to).accept_losses();
    // A member the target requires is not invented: the caller sets it and
    // converts again, as the loss says.
    if losses
        .iter()
        .any(|l| l.effect == LossEffect::MissingRequired && l.part == "max_tokens")
    {
        let mut r = request.clone();
        r.max_tokens = Some(1024);
        let (f, mut again) = r.to_vendor(to).accept_losses();
        forward = f;
        again.retain(|l| l.effect != LossEffect::MissingRequired);
        losses.retain(|l| l.effect == LossEffect::MissingRequired);
        losses.extend(again);
    }
    case.losses = losses.iter().map(ToString::to_string).collect();
    case.forward = forward;
    if case.forward.is_null() {
        case.error = Some(format!(
            "no {to} request written: {}",
            case.losses.join("; ")
        ));
        return case;
    }
    let mut have = Vec::new();
    strings(&case.forward, &mut have);
    let mut want = Vec::new();
    texts(source, "", &mut want);
    // A text inside a part reported as left out is a reported loss; an
    // error result's text crosses OpenAI as `Error: <text>` and comes back
    // as the flag and the text.
    let reported = |at: &str| {
        losses
            .iter()
            .any(|l| at == l.at || at.starts_with(&format!("{}/", l.at)))
    };
    case.texts_dropped = want
        .into_iter()
        .filter(|(at, t)| {
            let t = t.strip_prefix("Error: ").unwrap_or(t);
            !reported(at) && !have.iter().any(|h| h.contains(t))
        })
        .map(|(_, t)| t)
        .collect();
    match Request::from_vendor(to, &case.forward) {
        Ok(r) => {
            let (back, back_losses) = r.to_vendor(from).accept_losses();
            case.back_losses = back_losses.iter().map(ToString::to_string).collect();
            case.round_trip_equal = same_meaning(&back) == same_meaning(source);
            case.back = back;
        }
        Err(e) => case.error = Some(format!("the {to} request does not read back: {e}")),
    }
    case
}

/// Every case: generated conversations and fixtures along every directed
/// pair of the five vendors, and the final message of every recorded
/// stream appended to a request of each vendor (`streams`: the final
/// assistant turns, named).
pub fn all_cases(root: &Path, streams: &[(String, Vendor, AssistantTurn)]) -> Vec<Case> {
    let mut sources: Vec<(String, Vendor, Value)> = Vec::new();
    let add = |name: &str, body: &Value, sources: &mut Vec<(String, Vendor, Value)>| {
        // The conversation in each vendor's shape is a source; a vendor
        // the conversation cannot be written for is a failed case.
        let r =
            Request::from_vendor(Vendor::Anthropic, body).expect("the generator's requests read");
        for v in Vendor::ALL {
            let (b, _) = r.to_vendor(v).accept_losses();
            sources.push((name.to_owned(), v, b));
        }
    };
    for (name, body) in conversations() {
        add(&name, &body, &mut sources);
    }
    for (name, vendor, turn) in streams {
        // The final message appended to a request of its own vendor (the
        // form the next request carries it in), else of Anthropic.
        let own = |v: Vendor| -> Option<Value> {
            let (m, _) = turn.to_vendor(v).accept_losses();
            let user = json!({"role": "user", "content": "Go on."});
            let tools = Request::from_vendor(
                Vendor::Anthropic,
                &json!({
                "model": "m", "max_tokens": 1, "messages": [], "tools": tools()}),
            )
            .ok()?
            .to_vendor(v)
            .accept_losses()
            .0;
            let mut body = match v {
                Vendor::Anthropic => json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
                                            "messages": [user, m]}),
                Vendor::OpenAiChat => json!({"model": "gpt-4.1", "max_completion_tokens": 1024,
                                             "messages": [user, m]}),
                Vendor::OpenAiResponses => {
                    let mut input = vec![user];
                    input.extend(m.as_array()?.iter().cloned());
                    json!({"model": "gpt-4.1", "max_output_tokens": 1024, "input": input})
                }
                _ => return None,
            };
            body["tools"] = tools.get("tools")?.clone();
            Some(body)
        };
        let name = format!("stream/{name}");
        match own(*vendor).or_else(|| own(Vendor::Anthropic)) {
            Some(body) => {
                let from = if own(*vendor).is_some() {
                    *vendor
                } else {
                    Vendor::Anthropic
                };
                let r = Request::from_vendor(from, &body).expect("a stream's request reads");
                for v in Vendor::ALL {
                    let b = if v == from {
                        body.clone()
                    } else {
                        r.to_vendor(v).accept_losses().0
                    };
                    sources.push((name.clone(), v, b));
                }
            }
            None => panic!("{name}: the final message cannot be written for Anthropic"),
        }
    }
    for (name, v, body) in fixtures(root) {
        sources.push((name, v, body));
    }
    let mut out = Vec::new();
    for (name, from, body) in &sources {
        for to in Vendor::ALL.into_iter().filter(|t| t != from) {
            if body.is_null() {
                out.push(Case {
                    conversation: name.clone(),
                    from: *from,
                    to,
                    source: Value::Null,
                    forward: Value::Null,
                    losses: Vec::new(),
                    back: Value::Null,
                    back_losses: Vec::new(),
                    round_trip_equal: false,
                    texts_dropped: Vec::new(),
                    error: Some(format!(
                        "the conversation cannot be written as a {from} request"
                    )),
                });
            } else {
                out.push(convert(name, *from, body, to));
            }
        }
    }
    out
}

/// The final assistant message of every recorded stream under
/// `vendor-streams/` (Bedrock: its `.eventstream` recordings; a `.jsonl`
/// file is one event a line), each with its vendor and name. A recording
/// that ends before any message (an error event) has none.
pub fn stream_turns(testdata: &Path) -> Vec<(String, Vendor, AssistantTurn)> {
    let mut out = Vec::new();
    for (vendor, dir, ext) in [
        (Vendor::Anthropic, "anthropic", None),
        (Vendor::OpenAiChat, "openai-chat", None),
        (Vendor::OpenAiResponses, "openai-responses", None),
        (Vendor::Gemini, "gemini", None),
        (Vendor::Bedrock, "bedrock", Some("eventstream")),
    ] {
        let d = testdata.join("vendor-streams").join(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| ext.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no recordings in {}", d.display());
        for p in files {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            let mut s = match vendor {
                Vendor::Gemini | Vendor::Bedrock => ToolCallStream::new(),
                v => ToolCallStream::for_vendor(v),
            };
            if name.ends_with(".jsonl") {
                for line in String::from_utf8_lossy(&bytes).lines() {
                    if !line.trim().is_empty() && s.feed_event(None, line.trim()).is_err() {
                        break;
                    }
                }
            } else {
                let _ = s.feed(&bytes);
            }
            let _ = s.finish();
            if let Ok(turn) = s.to_assistant_message()
                && !turn.parts.is_empty()
            {
                out.push((format!("{dir}/{name}"), vendor, turn));
            }
        }
    }
    out
}
