//! `tooljson replay [--tools TOOLS.json] [--ndjson] [--chunk N] [--speed X]
//! [FILE]`: replays a streaming response, recorded (FILE) or live (stdin, as
//! in `curl -N ... | tooljson replay`), through
//! `tooljson::providers::ToolCallStream`, each piece fed as it arrives: N-byte
//! chunks, or by default each line. `tooljson demo` and bare `tooljson`
//! replay the bundled demo.
//!
//! A file whose first non-blank byte is `{` is read as one event JSON per
//! line (no SSE framing), as some SDK test fixtures store them.
//! A Bedrock `ConverseStream` body (binary event-stream frames) is read as
//! it is.
//!
//! # Output
//!
//! Without `--ndjson`: a preview of each call, its name and arguments
//! growing, then its status, and a summary line (elapsed time, bytes,
//! bytes/s). On a terminal it is redrawn in place (see `preview`); otherwise,
//! or with `NO_COLOR` set, only the final frame is printed, as plain text.
//!
//! A recording (FILE, the demo) shown live is paced so the stream can be
//! watched: a pause after each piece that changed a call's preview,
//! `--speed` times shorter (`--speed 0`: no pauses). Stdin is live data and
//! is not paced unless `--speed` is given, which also paces `--ndjson`
//! (a recording replayed as a live feed for another program).
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
//! | `text_appended`, `thinking_appended`, `refusal_appended` | `choice` (the Chat choice or Gemini candidate index, else 0), `block` (the Anthropic or Bedrock content block index, the Responses output index, else 0), `text` |
//! | `thinking_signed` | `at`, `signature` |
//! | `redacted_thinking` | `at`, `data` |
//! | `server_tool_result` | `at`, `block`: the result block as sent |
//! | `other_content` | `at`, `block`: another block or item (Anthropic `compaction`, a Responses `computer_call`...), as sent |
//! | `usage` | the counts given so far: `input_tokens`, `output_tokens`, `reasoning_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens` |
//! | `malformed` | `message`: an event that could not be read and was skipped |
//! | `message_finished` | just before `stream_finished`: `message`, the final assistant message in the provider's own JSON (Anthropic: the `message` object as returned unstreamed; OpenAI Chat: `{"index", "message", "finish_reason"}`, one line per choice; Responses: the `response` object (`id`, `model`, `status`, `output`, `usage`); Gemini: `{"index", "content": {"role": "model", "parts"}, "finishReason", "usageMetadata"}`, one line per candidate; Bedrock: `{"output": {"message"}, "stopReason", "usage", "metrics"}`) |
//! | `stream_finished` | always last: `stop_reason` (`tool_use`, `end_turn`, `max_tokens`, `stop_sequence`, `refusal`, `content_filter`, `pause_turn`, `error`, `end_of_stream`, or the vendor's word), `error` (the message for `error`, else `null`), `vendor` (`anthropic`, `openai-chat`, `openai-responses`, `gemini` or `bedrock`), `calls` (how many), `choice_error` (the `tool_choice` check, when `--tools` was given and it failed, else `null`) |
//!
//! # Exit codes
//!
//! 0 every call complete (and valid, with `--tools`) and the response ended
//! normally; 3 a call truncated, aborted or invalid, the response cut short
//! (error, `max_tokens`, end of input) or `tool_choice` not met, with a
//! summary on stderr naming what happened to the response and to each such
//! call (see `summary`); 1 a malformed stream (a fatal protocol or framing
//! error, an unreadable event, or no vendor recognised); 2 usage or I/O error.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tooljson::providers::{CallEvent, StreamError, ToolCallStream};

use crate::input::Input;
use crate::ndjson;
use crate::parse::byte_count;
use crate::preview::{Progress, Screen, stdout_is_live};
use crate::summary;
use crate::{Failure, read_input};

/// Replay a vendor's streaming response from FILE or stdin, as it arrives.
///
/// Anthropic Messages, OpenAI Chat Completions, OpenAI Responses, Gemini or
/// Bedrock ConverseStream; SSE, event-stream frames, or one event JSON per
/// line. Prints a live preview of the tool calls, or with --ndjson one JSON
/// event per line.
#[derive(clap::Args)]
pub struct Args {
    /// A request body (Anthropic, OpenAI Chat or Responses: tools,
    /// tool_choice, parallel flag) or a bare tools array: every call is
    /// validated against its tool's schema, the response against
    /// tool_choice.
    #[arg(long, value_name = "TOOLS.json")]
    tools: Option<PathBuf>,
    /// One JSON event per line instead of the preview.
    #[arg(long)]
    ndjson: bool,
    /// Feed N-byte chunks (default: each line as it arrives).
    #[arg(long, value_name = "N", value_parser = byte_count)]
    chunk: Option<usize>,
    /// Pacing of a replay: 2 is twice as fast, 0 no pauses, at least 0.01
    /// otherwise (default: 1 for a FILE shown live, no pauses for stdin and
    /// --ndjson).
    #[arg(long, value_name = "FACTOR", value_parser = parse_speed)]
    speed: Option<f64>,
    /// The recorded stream; stdin when absent or `-`.
    file: Option<PathBuf>,
}

/// Replay the bundled demo transcript as a live preview (also bare
/// `tooljson`).
#[derive(clap::Args, Default)]
pub struct DemoArgs {
    /// Pacing: 2 is twice as fast, 0 no pauses, at least 0.01 otherwise.
    #[arg(long, value_name = "FACTOR", value_parser = parse_speed)]
    speed: Option<f64>,
}

/// The slowest pacing `--speed` accepts: a pause of 1.2 s per piece. Slower
/// factors would make a replay last for ages (1e-12: 380 years per piece)
/// and, below about 1e-300, a pause no `Duration` can hold.
const MIN_SPEED: f64 = 0.01;

fn parse_speed(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f == 0.0 || (f.is_finite() && f >= MIN_SPEED) => Ok(f),
        _ => Err(format!(
            "expected 0 (no pauses) or a factor from {MIN_SPEED} (2: twice as fast), got {s:?}"
        )),
    }
}

/// The pause after a piece that changed a preview, at speed 1.
const PACE: Duration = Duration::from_millis(12);

/// How often an unpaced live preview is redrawn at most.
const REDRAW: Duration = Duration::from_millis(40);

/// `tooljson replay ...`
pub fn run(args: Args) -> Result<(), Failure> {
    let tools = match &args.tools {
        Some(path) => {
            let name = path.to_string_lossy();
            Some(load_tools(&read_input(Some(&name))?, &name)?)
        }
        None => None,
    };
    let input = Input::open(args.file.as_ref())?;
    let live = !args.ndjson && stdout_is_live();
    let speed = match args.speed {
        Some(s) => Some(s),
        None if live && !input.is_stdin() => Some(1.0),
        None => None,
    };
    replay(input, args.chunk, tools, args.ndjson, live, speed)
}

/// `tooljson demo`, bare `tooljson`: the demo, as a live preview.
pub fn demo(args: DemoArgs) -> Result<(), Failure> {
    let tools = load_tools(DEMO_TOOLS, "the bundled demo tools")?;
    let input = Input::bytes("the bundled demo", DEMO);
    let live = stdout_is_live();
    let speed = args.speed.or(live.then_some(1.0));
    replay(input, None, Some(tools), false, live, speed)
}

/// The demo transcript bare `tooljson` replays (synthetic; see
/// corpus/transcripts/README.md).
const DEMO: &[u8] = include_bytes!("../../../corpus/transcripts/demo-parallel-write.sse");

/// The demo's tool definitions (synthetic, beside the demo transcript).
const DEMO_TOOLS: &[u8] = include_bytes!("../../../corpus/transcripts/demo-tools.json");

/// Reads `--tools`: a request body of any of the three vendors (its `tools`,
/// `tool_choice`, parallel flag) or a bare tools array.
fn load_tools(bytes: &[u8], what: &str) -> Result<tooljson::protocol::ToolSet, Failure> {
    let bad = |m: String| Failure::usage(format!("error: {what}: {m}"));
    let v = tooljson::from_slice(bytes).map_err(|e| bad(e.to_string()))?;
    tooljson::protocol::ToolSet::from_request_json(&v).map_err(|e| bad(e.to_string()))
}

/// How the input is framed, decided by its first non-blank byte.
enum Framing {
    /// Not decided yet: the blank bytes seen so far.
    Unknown(Vec<u8>),
    /// SSE or Bedrock event-stream frames, fed to the stream as bytes.
    Bytes,
    /// One event JSON per line: the start of a line not complete yet.
    JsonLines(Vec<u8>),
}

/// One replay in progress.
struct Replay<'o, W: Write> {
    stream: ToolCallStream,
    out: &'o mut W,
    screen: Screen,
    ndjson: bool,
    framing: Framing,
    /// The pause after a piece that changed a preview.
    pause: Option<Duration>,
    start: Instant,
    bytes: u64,
    last_draw: Option<Instant>,
}

fn replay(
    input: Input,
    chunk: Option<usize>,
    tools: Option<tooljson::protocol::ToolSet>,
    ndjson: bool,
    live: bool,
    speed: Option<f64>,
) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut stream = ToolCallStream::new();
    if let Some(t) = tools {
        stream = stream.with_tools(t);
    }
    let mut r = Replay {
        stream,
        out: &mut out,
        screen: Screen::new(live),
        ndjson,
        framing: Framing::Unknown(Vec::new()),
        // `parse_speed` keeps the factor where this division is finite; a
        // pause that still did not fit would be no pause rather than a panic.
        pause: speed
            .filter(|&s| s > 0.0)
            .and_then(|s| Duration::try_from_secs_f64(PACE.as_secs_f64() / s).ok()),
        start: Instant::now(),
        bytes: 0,
        last_draw: None,
    };
    let mut fatal = None;
    input.for_each_piece(chunk, |mut read| {
        // Blank lines before the framing is known are one piece: they carry
        // nothing, and a body of them is read at the speed of its bytes.
        if chunk.is_none() && matches!(r.framing, Framing::Unknown(_)) {
            let blank = read.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if let Some(end) = read[..blank].iter().rposition(|&b| b == b'\n') {
                if let Err(e) = r.piece(&read[..=end])? {
                    fatal = Some(e);
                    return Ok(false);
                }
                read = &read[end + 1..];
            }
        }
        // Without a chunk size, each line is a piece, as recorded.
        for piece in read.split_inclusive(|&b| chunk.is_some() || b == b'\n') {
            if let Err(e) = r.piece(piece)? {
                fatal = Some(e);
                break;
            }
        }
        r.out.flush().map_err(Failure::write)?;
        Ok(fatal.is_none())
    })?;
    if fatal.is_none() {
        // A provider's error event ends the response: the summary reports
        // it (exit 3), as any cut response.
        fatal = r
            .finish()
            .err()
            .filter(|e| !matches!(e, StreamError::Provider { .. }));
    }
    r.emit()?;
    if !ndjson {
        let progress = r.progress();
        r.screen.draw_final(&r.stream, progress, r.out)?;
    }
    r.out.flush().map_err(Failure::write)?;
    let stream = r.stream;
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
    summary::verdict(&stream)
}

impl<W: Write> Replay<'_, W> {
    fn progress(&self) -> Progress {
        Progress {
            bytes: self.bytes,
            elapsed: self.start.elapsed(),
        }
    }

    /// Feeds one piece, writes its events, redraws and paces. The outer
    /// error ends the command (I/O); the inner one is the stream's own,
    /// reported once what was fed so far is written.
    fn piece(&mut self, piece: &[u8]) -> Result<Result<(), StreamError>, Failure> {
        self.bytes += piece.len() as u64;
        let fed = self.feed(piece);
        if !self.emit()? {
            return Ok(fed);
        }
        let due = self.pause.is_some() || self.last_draw.is_none_or(|t| t.elapsed() >= REDRAW);
        if due && self.screen.is_live() {
            let progress = self.progress();
            self.screen.draw_live(&self.stream, progress, self.out)?;
            self.last_draw = Some(Instant::now());
        }
        if let Some(p) = self.pause {
            self.out.flush().map_err(Failure::write)?;
            std::thread::sleep(p);
        }
        Ok(fed)
    }

    fn feed(&mut self, piece: &[u8]) -> Result<(), StreamError> {
        if let Framing::Unknown(blank) = &mut self.framing {
            let Some(first) = piece.iter().find(|b| !b.is_ascii_whitespace()) else {
                blank.extend_from_slice(piece);
                if blank.len() > BLANK_HELD {
                    compact_blank(blank);
                }
                return Ok(());
            };
            let blank = std::mem::take(blank);
            if *first == b'{' {
                self.framing = Framing::JsonLines(blank);
            } else {
                self.framing = Framing::Bytes;
                self.stream.feed(&blank)?;
            }
        }
        match &mut self.framing {
            Framing::JsonLines(buf) => feed_json_lines(&mut self.stream, buf, piece, false),
            _ => self.stream.feed(piece),
        }
    }

    fn finish(&mut self) -> Result<(), StreamError> {
        match &mut self.framing {
            Framing::JsonLines(buf) => feed_json_lines(&mut self.stream, buf, b"", true)?,
            Framing::Unknown(blank) => {
                let blank = std::mem::take(blank);
                self.stream.feed(&blank)?;
            }
            Framing::Bytes => {}
        }
        self.stream.finish()
    }

    /// Writes the queued events as NDJSON (or drops them), and says whether
    /// any call's preview changed.
    fn emit(&mut self) -> Result<bool, Failure> {
        let events: Vec<CallEvent> = self.stream.drain_events().collect();
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
            if !self.ndjson {
                continue;
            }
            if let CallEvent::StreamFinished { .. } = e {
                for message in self.stream.final_messages_json() {
                    ndjson::message_finished(message)
                        .write_to(self.out)
                        .map_err(Failure::write)?;
                }
            }
            ndjson::line(&self.stream, e)
                .write_to(self.out)
                .map_err(Failure::write)?;
        }
        Ok(progressed)
    }
}

/// The most blank bytes held while the framing is not decided yet.
const BLANK_HELD: usize = 4096;

/// Shrinks the blank start of an input to what can still matter, so a body
/// of blank lines is held in constant memory. Lines that are complete and
/// blank mean nothing in either framing (SSE dispatches no event before any
/// data, a blank JSON line is skipped); of the line still open only whether
/// it has begun matters (SSE then ignores it as an unknown field, JSON
/// lines trim it). A blank body is never Bedrock: a frame begins with a NUL
/// byte.
fn compact_blank(blank: &mut Vec<u8>) {
    let open = match blank.iter().rposition(|&b| b == b'\n' || b == b'\r') {
        Some(i) => i + 1,
        None => 0,
    };
    let kept_open = (blank.len() - open).min(64);
    let mut kept = Vec::with_capacity(1 + kept_open);
    if open > 0 {
        kept.push(b'\n');
    }
    kept.extend_from_slice(&blank[open..open + kept_open]);
    *blank = kept;
}

/// Feeds the complete lines of a one-event-per-line input; `last` feeds the
/// rest too.
fn feed_json_lines(
    stream: &mut ToolCallStream,
    buf: &mut Vec<u8>,
    piece: &[u8],
    last: bool,
) -> Result<(), StreamError> {
    let mut rest = piece;
    while let Some(i) = rest.iter().position(|&b| b == b'\n') {
        let line = if buf.is_empty() {
            &rest[..i]
        } else {
            buf.extend_from_slice(&rest[..i]);
            &buf[..]
        };
        let text = String::from_utf8_lossy(line);
        if !text.trim().is_empty() {
            stream.feed_event(None, text.trim())?;
        }
        buf.clear();
        rest = &rest[i + 1..];
    }
    buf.extend_from_slice(rest);
    if last && !buf.is_empty() {
        let text = String::from_utf8_lossy(buf).into_owned();
        buf.clear();
        if !text.trim().is_empty() {
            stream.feed_event(None, text.trim())?;
        }
    }
    Ok(())
}
