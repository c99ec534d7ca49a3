//! `tooljson replay [--tools TOOLS.json] [--ndjson] [--chunk N] [FILE]`:
//! replays a recorded streaming response (stdin when no FILE) through
//! `tooljson::providers::ToolCallStream`, fed in chunks of N bytes (default:
//! whole lines, as recorded). Bare `tooljson` replays the bundled demo.
//!
//! A file whose first non-blank byte is `{` is read as one event JSON per
//! line (no SSE framing), as some SDK test fixtures store them.
//! A Bedrock `ConverseStream` body (binary event-stream frames) is read as
//! it is.
//!
//! # Output
//!
//! Without `--ndjson`: a preview of each call, its name and arguments
//! growing, then its status. On a terminal it is redrawn in place (ANSI),
//! paced so the stream can be watched; otherwise only the final frame is
//! printed, as plain text.
//!
//! With `--ndjson`, one JSON object per line, in stream order. Every call
//! event has `call` (the call's number, from 0, in start order), `key` (the
//! vendor's key: the content block index for Anthropic, `[choice, index]`
//! for OpenAI Chat, the output index for Responses), `id` and `name` (or
//! `null` while unknown):
//!
//! | `event` | further fields |
//! |---|---|
//! | `call_started` | `kind`: `client`, `server`, `mcp` or `custom` |
//! | `arguments_appended` | `text`: the raw argument text that arrived; `preview_changed`: whether the partial value changed with it |
//! | `value_completed` | `path` (JSON Pointer, `""` for the root), `value` |
//! | `call_doomed` | `error`: why the call can no longer be valid (reported once, as soon as certain) |
//! | `call_finished` | `kind`; `status`: `complete`, `truncated`, `aborted` or `invalid`; `arguments`: the final value, `null` unless complete; `partial`: the best-effort value when not complete (`null` if nothing was visible); `raw`: the argument text; `errors`: messages (JSON errors, schema violations as `"<pointer>: <message>"`, unknown tool, the stop that cut it) |
//! | `message_started` | `id`, `model` (not a call event: no `call`, `key`, `id`, `name`) |
//! | `text_appended`, `thinking_appended`, `refusal_appended` | `at` (Anthropic content block index, Chat choice index, Responses output index), `text` |
//! | `thinking_signed` | `at`, `signature` |
//! | `redacted_thinking` | `at`, `data` |
//! | `server_tool_result` | `at`, `block`: the result block as sent |
//! | `usage` | the counts given so far: `input_tokens`, `output_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens` |
//! | `malformed` | `message`: an event that could not be read and was skipped |
//! | `message_finished` | just before `stream_finished`: `message`, the final assistant message in the provider's own JSON (Anthropic: the `message` object as returned unstreamed; OpenAI Chat: `{"index", "message", "finish_reason"}`, one line per choice; Responses: `{"output": [...]}`) |
//! | `stream_finished` | always last: `stop_reason` (`tool_use`, `end_turn`, `max_tokens`, `stop_sequence`, `refusal`, `content_filter`, `pause_turn`, `error`, `end_of_stream`, or the vendor's word), `error` (the message for `error`, else `null`), `vendor` (`anthropic`, `openai-chat`, `openai-responses`, `gemini` or `bedrock`), `calls` (how many), `choice_error` (the `tool_choice` check, when `--tools` was given and it failed, else `null`) |
//!
//! # Exit codes
//!
//! 0 every call complete (and valid, with `--tools`) and the response ended
//! normally; 3 a call truncated, aborted or invalid, the response cut short
//! (error, `max_tokens`, end of input) or `tool_choice` not met; 1 a
//! malformed stream (a fatal protocol or framing error, an unreadable event,
//! or no vendor recognised); 2 usage or I/O error.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use tooljson::Value;
use tooljson::partial::PartialNode;
use tooljson::providers::{CallEvent, CallStatus, StopReason, StreamedCall, ToolCallStream};

use crate::{Failure, parse_chunk, read_input};

/// The demo transcript bare `tooljson` replays (synthetic; see
/// corpus/transcripts/README.md).
pub const DEMO: &[u8] = include_bytes!("../../../corpus/transcripts/demo-parallel-write.sse");

const REPLAY_USAGE: &str = "\
usage: tooljson replay [--tools TOOLS.json] [--ndjson] [--chunk N] [FILE]

replays a streaming response (Anthropic Messages, OpenAI Chat Completions or OpenAI
Responses; SSE, or one event JSON per line) from FILE or stdin, fed in chunks of N
bytes (default: whole lines, as recorded); prints a live preview of the tool calls,
or with --ndjson one JSON event per line. --tools takes a request body (Anthropic,
OpenAI Chat or Responses: tools, tool_choice, parallel flag) or a bare tools array, and
validates every call against its tool's schema and the response against tool_choice.

exit codes: 0 every call complete and valid, 3 a call truncated/aborted/invalid or the
response cut short, 1 a malformed stream, 2 usage or I/O error";

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: format!("{}\n\n{REPLAY_USAGE}", message.into()),
    }
}

fn write_failure(e: std::io::Error) -> Failure {
    Failure {
        code: 2,
        message: format!("error: writing stdout: {e}"),
    }
}

struct Options {
    tools: Option<tooljson::protocol::ToolSet>,
    ndjson: bool,
    chunk: Option<usize>,
    file: Option<String>,
}

/// `tooljson replay ...`
pub fn run(args: Vec<String>) -> Result<(), Failure> {
    let mut opts = Options {
        tools: None,
        ndjson: false,
        chunk: None,
        file: None,
    };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--ndjson" => opts.ndjson = true,
            "--tools" => {
                let path = it
                    .next()
                    .ok_or_else(|| usage("error: --tools needs a file"))?;
                opts.tools = Some(load_tools(&read_input(Some(&path))?, &path)?);
            }
            "--chunk" => opts.chunk = Some(parse_chunk(it.next()).map_err(|f| usage(f.message))?),
            "-h" | "--help" => {
                println!("{REPLAY_USAGE}");
                return Ok(());
            }
            s if s.starts_with("--") => {
                return Err(usage(format!("error: unknown option {s:?}")));
            }
            _ if opts.file.is_some() => return Err(usage("error: more than one FILE")),
            _ => opts.file = Some(a),
        }
    }
    let input = read_input(opts.file.as_deref())?;
    replay(&input, &opts)
}

/// Bare `tooljson`: the demo, as a live preview.
pub fn demo() -> Result<(), Failure> {
    let opts = Options {
        tools: Some(demo_tools()?),
        ndjson: false,
        chunk: None,
        file: None,
    };
    replay(DEMO, &opts)
}

/// The demo's tool definitions (synthetic, beside the demo transcript).
const DEMO_TOOLS: &[u8] = include_bytes!("../../../corpus/transcripts/demo-tools.json");

fn demo_tools() -> Result<tooljson::protocol::ToolSet, Failure> {
    load_tools(DEMO_TOOLS, "the bundled demo tools")
}

/// Reads `--tools`: a request body of any of the three vendors (its `tools`,
/// `tool_choice`, parallel flag) or a bare tools array.
fn load_tools(bytes: &[u8], what: &str) -> Result<tooljson::protocol::ToolSet, Failure> {
    let bad = |m: String| Failure {
        code: 2,
        message: format!("error: {what}: {m}"),
    };
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| bad(e.to_string()))?;
    tooljson::protocol::ToolSet::from_request_json(&v).map_err(|e| bad(e.to_string()))
}

fn replay(input: &[u8], opts: &Options) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let live = !opts.ndjson && stdout.is_terminal();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut stream = ToolCallStream::new();
    if let Some(t) = &opts.tools {
        stream = stream.with_tools(t.clone());
    }
    let mut screen = Screen::default();
    let mut fatal = None;

    let is_jsonl = input
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{');
    let pieces: Vec<&[u8]> = match opts.chunk {
        Some(n) => input.chunks(n).collect(),
        None => input.split_inclusive(|&b| b == b'\n').collect(),
    };
    let mut jsonl_buf = String::new();
    for piece in pieces {
        let result = if is_jsonl {
            feed_jsonl(&mut stream, &mut jsonl_buf, piece, false)
        } else {
            stream.feed(piece)
        };
        let progressed = emit(&mut stream, opts, &mut out)?;
        if live && progressed {
            screen.draw(&stream, &mut out, true)?;
            out.flush().map_err(write_failure)?;
            std::thread::sleep(Duration::from_millis(12));
        }
        if let Err(e) = result {
            fatal = Some(e);
            break;
        }
    }
    if fatal.is_none() {
        let r = if is_jsonl {
            feed_jsonl(&mut stream, &mut jsonl_buf, b"", true)
        } else {
            Ok(())
        };
        fatal = r.and_then(|()| stream.finish()).err();
    }
    emit(&mut stream, opts, &mut out)?;
    if !opts.ndjson {
        screen.draw(&stream, &mut out, live)?;
        if let Some(e) = stream.choice_error() {
            let l = format!("tool_choice not met: {e}");
            writeln!(out, "{}", paint(live, "31", &l)).map_err(write_failure)?;
        }
    }
    out.flush().map_err(write_failure)?;
    drop(out);

    if let Some(e) = fatal {
        return Err(Failure {
            code: 1,
            message: format!("error: {e}"),
        });
    }
    if stream.malformed_events() > 0 {
        return Err(Failure {
            code: 1,
            message: format!(
                "error: {} event(s) could not be read",
                stream.malformed_events()
            ),
        });
    }
    if stream.provider_name().is_none() {
        return Err(Failure {
            code: 1,
            message: "error: no vendor event found in the input".to_owned(),
        });
    }
    let bad_calls = stream
        .calls()
        .iter()
        .filter(|c| c.status() != CallStatus::Complete)
        .count();
    let stop_ok = stream.stop_reason().is_some_and(StopReason::is_normal);
    if let Some(e) = stream.choice_error() {
        return Err(Failure {
            code: 3,
            message: format!("error: tool_choice: {e}"),
        });
    }
    if bad_calls > 0 || !stop_ok {
        let stop = stream
            .stop_reason()
            .map(|s| s.to_string())
            .unwrap_or_default();
        let why: Vec<String> = stream
            .calls()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.status() != CallStatus::Complete)
            .filter_map(|(n, c)| c.errors().first().map(|e| format!("\n  call {n}: {e}")))
            .collect();
        return Err(Failure {
            code: 3,
            message: format!(
                "error: {bad_calls} call(s) not complete; stop reason: {stop}{}",
                why.concat()
            ),
        });
    }
    Ok(())
}

/// Feeds complete lines of a one-event-per-line file.
fn feed_jsonl(
    stream: &mut ToolCallStream,
    buf: &mut String,
    piece: &[u8],
    last: bool,
) -> Result<(), tooljson::providers::StreamError> {
    buf.push_str(&String::from_utf8_lossy(piece));
    while let Some(i) = buf.find('\n') {
        let line: String = buf.drain(..=i).collect();
        if !line.trim().is_empty() {
            stream.feed_event(None, line.trim())?;
        }
    }
    if last && !buf.trim().is_empty() {
        let line = std::mem::take(buf);
        stream.feed_event(None, line.trim())?;
    }
    Ok(())
}

/// Writes the queued events as NDJSON (or drops them), and says whether any
/// call text arrived.
fn emit(
    stream: &mut ToolCallStream,
    opts: &Options,
    out: &mut impl Write,
) -> Result<bool, Failure> {
    let events: Vec<CallEvent> = stream.drain_events().collect();
    let mut progressed = false;
    for e in &events {
        if matches!(
            e,
            CallEvent::ArgumentsAppended {
                preview_changed: true,
                ..
            }
        ) {
            progressed = true;
        }
        if opts.ndjson {
            if let CallEvent::StreamFinished { .. } = e {
                for message in stream.final_messages_json() {
                    let mut m = Obj::new();
                    m.insert("event", "message_finished".into());
                    m.insert("message", message);
                    writeln!(out, "{m}").map_err(write_failure)?;
                }
            }
            let line = ndjson(stream, e);
            writeln!(out, "{line}").map_err(write_failure)?;
        }
    }
    Ok(progressed)
}

/// A JSON object that keeps its members in insertion order (`event` first).
struct Obj(Vec<(&'static str, serde_json::Value)>);

impl Obj {
    fn new() -> Obj {
        Obj(Vec::new())
    }

    fn insert(&mut self, key: &'static str, value: serde_json::Value) {
        self.0.push((key, value));
    }
}

impl std::fmt::Display for Obj {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::from("{");
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            tooljson::value::write_json_string(&mut s, k);
            s.push(':');
            s.push_str(&v.to_string());
        }
        s.push('}');
        f.write_str(&s)
    }
}

fn call_fields(call: Option<&StreamedCall>, n: usize, event: &str) -> Obj {
    let mut m = Obj::new();
    m.insert("event", event.into());
    m.insert("call", n.into());
    m.insert("key", call.map(|c| c.key().to_json()).unwrap_or_default());
    m.insert("id", call.and_then(|c| c.id()).into());
    m.insert("name", call.and_then(|c| c.name()).into());
    m
}

fn to_json(v: &Value) -> serde_json::Value {
    // Out-of-range numbers have no serde_json form: their lexeme as a string.
    v.to_serde_json()
        .unwrap_or_else(|_| serde_json::Value::String(v.to_string()))
}

/// One NDJSON line for an event (documented in the module docs).
fn ndjson(stream: &ToolCallStream, e: &CallEvent) -> Obj {
    use serde_json::Value as J;
    let call = |n: usize| stream.calls().get(n);
    match e {
        CallEvent::CallStarted { call: n, kind, .. } => {
            let mut m = call_fields(call(*n), *n, "call_started");
            m.insert("kind", kind.as_str().into());
            m
        }
        CallEvent::ArgumentsAppended {
            call: n,
            text,
            preview_changed,
        } => {
            let mut m = call_fields(call(*n), *n, "arguments_appended");
            m.insert("text", text.as_str().into());
            m.insert("preview_changed", (*preview_changed).into());
            m
        }
        CallEvent::ValueCompleted {
            call: n,
            path,
            value,
        } => {
            let mut m = call_fields(call(*n), *n, "value_completed");
            m.insert("path", path.to_string().into());
            let value = value
                .as_ref()
                .or_else(|| call(*n).and_then(|c| c.value_at(path)));
            m.insert("value", value.map(to_json).unwrap_or(J::Null));
            m
        }
        CallEvent::CallDoomed { call: n, error } => {
            let mut m = call_fields(call(*n), *n, "call_doomed");
            m.insert("error", error.to_string().into());
            m
        }
        CallEvent::CallFinished { call: n, status } => {
            let c = call(*n);
            let mut m = call_fields(c, *n, "call_finished");
            m.insert(
                "kind",
                c.map(|c| c.kind().as_str()).unwrap_or_default().into(),
            );
            m.insert("status", status.as_str().into());
            let args = c.and_then(|c| c.value()).map(to_json).unwrap_or(J::Null);
            m.insert("arguments", args);
            if *status != CallStatus::Complete {
                let partial = c
                    .and_then(|c| c.partial())
                    .and_then(|p| serde_json::to_value(p).ok())
                    .unwrap_or(J::Null);
                m.insert("partial", partial);
            }
            m.insert(
                "raw",
                c.map(|c| c.arguments_text()).unwrap_or_default().into(),
            );
            let errors: Vec<J> = c
                .map(|c| {
                    c.errors()
                        .iter()
                        .map(|e| J::String(e.to_string()))
                        .collect()
                })
                .unwrap_or_default();
            m.insert("errors", J::Array(errors));
            m
        }
        CallEvent::MessageStarted { id, model } => {
            let mut m = Obj::new();
            m.insert("event", "message_started".into());
            m.insert("id", id.as_deref().into());
            m.insert("model", model.as_deref().into());
            m
        }
        CallEvent::TextAppended { at, text } => at_text("text_appended", *at, "text", text),
        CallEvent::ThinkingAppended { at, text } => at_text("thinking_appended", *at, "text", text),
        CallEvent::RefusalAppended { at, text } => at_text("refusal_appended", *at, "text", text),
        CallEvent::ThinkingSigned { at, signature } => {
            at_text("thinking_signed", *at, "signature", signature)
        }
        CallEvent::RedactedThinking { at, data } => at_text("redacted_thinking", *at, "data", data),
        CallEvent::ServerToolResult { at, block } => {
            let mut m = Obj::new();
            m.insert("event", "server_tool_result".into());
            m.insert("at", (*at).into());
            m.insert("block", block.clone());
            m
        }
        CallEvent::UsageUpdated(usage) => {
            let mut m = Obj::new();
            m.insert("event", "usage".into());
            if let J::Object(counts) = usage.to_json() {
                for (k, v) in counts {
                    m.insert(usage_key(&k), v);
                }
            }
            m
        }
        CallEvent::Malformed { message } => {
            let mut m = Obj::new();
            m.insert("event", "malformed".into());
            m.insert("message", message.as_str().into());
            m
        }
        CallEvent::StreamFinished {
            stop_reason,
            choice_error,
        } => {
            let mut m = Obj::new();
            m.insert("event", "stream_finished".into());
            m.insert("stop_reason", stop_reason.as_str().into());
            let error = match stop_reason {
                StopReason::Error { kind, message } => J::String(format!("{kind}: {message}")),
                _ => J::Null,
            };
            m.insert("error", error);
            m.insert("vendor", stream.provider_name().into());
            m.insert("calls", stream.calls().len().into());
            m.insert("choice_error", choice_error.as_deref().into());
            m
        }
        other => {
            let mut m = Obj::new();
            m.insert("event", "unknown".into());
            m.insert("debug", format!("{other:?}").into());
            m
        }
    }
}

fn at_text(event: &str, at: u64, key: &'static str, text: &str) -> Obj {
    let mut m = Obj::new();
    m.insert("event", event.to_owned().into());
    m.insert("at", at.into());
    m.insert(key, text.into());
    m
}

fn usage_key(k: &str) -> &'static str {
    match k {
        "input_tokens" => "input_tokens",
        "output_tokens" => "output_tokens",
        "cache_creation_input_tokens" => "cache_creation_input_tokens",
        _ => "cache_read_input_tokens",
    }
}

/// The preview: one block per call, redrawn in place on a terminal.
#[derive(Default)]
struct Screen {
    drawn: usize,
}

const MAX_MEMBERS: usize = 12;

impl Screen {
    fn draw(
        &mut self,
        stream: &ToolCallStream,
        out: &mut impl Write,
        ansi: bool,
    ) -> Result<(), Failure> {
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|&w| w >= 40)
            .unwrap_or(100);
        let lines = frame(stream, width - 1, ansi);
        let mut text = String::new();
        if ansi && self.drawn > 0 {
            text.push_str(&format!("\r\x1b[{}A\x1b[J", self.drawn));
        }
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
        self.drawn = lines.len();
        out.write_all(text.as_bytes()).map_err(write_failure)
    }
}

fn paint(ansi: bool, code: &str, s: &str) -> String {
    if ansi {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_owned()
    }
}

/// Cuts `s` to `max` characters: the tail when the value is still growing
/// (so the growth shows), else the head.
fn fit(s: &str, max: usize, growing: bool) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_owned();
    }
    let keep = max.saturating_sub(1);
    if growing {
        let tail: String = s.chars().skip(n - keep).collect();
        format!("…{tail}")
    } else {
        let head: String = s.chars().take(keep).collect();
        format!("{head}…")
    }
}

fn frame(stream: &ToolCallStream, width: usize, ansi: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if stream.calls().is_empty() {
        lines.push("(no tool calls yet)".to_owned());
    }
    for (n, c) in stream.calls().iter().enumerate() {
        let (mark, color) = match c.status() {
            CallStatus::Streaming => ("…", "33"),
            CallStatus::Complete => ("✓", "32"),
            _ => ("✗", "31"),
        };
        let head = format!(
            "{mark} #{n} {} {} [{}] {} · {} bytes",
            c.name().unwrap_or("?"),
            c.id().unwrap_or("-"),
            c.kind(),
            c.status(),
            c.arguments_text().len()
        );
        lines.push(paint(ansi, color, &fit(&head, width, false)));
        let members: Vec<(String, String, bool)> = match c.partial() {
            Some(PartialNode::Object(ms)) => ms
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string(), !v.is_complete()))
                .collect(),
            Some(PartialNode::Complete(Value::Object(m))) => m
                .iter()
                .map(|(k, v)| (k.to_owned(), v.to_string(), false))
                .collect(),
            Some(other) => vec![(String::new(), other.to_string(), !other.is_complete())],
            None if !c.arguments_text().is_empty() => {
                vec![(
                    String::new(),
                    c.arguments_text().to_owned(),
                    c.status() == CallStatus::Streaming,
                )]
            }
            None => vec![],
        };
        for (k, v, growing) in members.iter().take(MAX_MEMBERS) {
            let label = if k.is_empty() {
                "    ".to_owned()
            } else {
                format!("    {k}: ")
            };
            let room = width.saturating_sub(label.chars().count()).max(8);
            lines.push(format!("{label}{}", fit(v, room, *growing)));
        }
        if members.len() > MAX_MEMBERS {
            lines.push(format!("    … {} more", members.len() - MAX_MEMBERS));
        }
        if c.status().is_finished() && c.status() != CallStatus::Complete {
            for e in c.errors().iter().take(3) {
                let l = fit(&format!("    ! {e}"), width, false);
                lines.push(paint(ansi, "31", &l));
            }
        }
    }
    let checked = if stream.tools().is_some() {
        " · validated"
    } else {
        ""
    };
    let foot = match stream.stop_reason() {
        Some(r) => format!(
            "stream finished: {r} · {} · {} call(s){checked}",
            stream.provider_name().unwrap_or("?"),
            stream.calls().len()
        ),
        None => "streaming…".to_owned(),
    };
    lines.push(paint(ansi, "2", &fit(&foot, width, false)));
    lines
}
