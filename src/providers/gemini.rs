//! Google Gemini `streamGenerateContent?alt=sse` (the Gemini API and Vertex
//! AI): each SSE event is a whole `GenerateContentResponse` (CRLF framing,
//! no event names, no `[DONE]`), with `candidates[].content.parts[]`,
//! `finishReason` on the last chunk, `usageMetadata`, `modelVersion` and
//! `responseId`.
//!
//! Tool calls come in two forms, and both go through the call's own parser,
//! so the events, the partial tree and the schema check behave as for the
//! JSON-text fragments of the other providers:
//!
//! * A whole `functionCall` part (`{"name", "args": {...}}`): `args` is
//!   already an object; its serialized text is fed, and the call ends
//!   (unless the part says `willContinue`).
//! * Streamed arguments (Vertex `streamFunctionCallArguments`): a part
//!   `{"name", "willContinue": true}` opens the call; parts with
//!   `partialArgs` (`{"jsonPath": "$.a.b[0]", "stringValue" | "numberValue"
//!   | "boolValue" | "nullValue", "willContinue"}`) follow; a part without
//!   `willContinue` (often the empty `functionCall: {}`) ends it, and so
//!   does `finishReason: "STOP"` when that terminator is missing. Each
//!   path/value event is written as the JSON text it stands for (the
//!   containers on the path opened, the ones left closed, a string's pieces
//!   appended inside its open quotes), so strings grow piece by piece and
//!   scalars arrive whole: the monotone contract holds unchanged.
//!
//! A call's id is `functionCall.id` when Gemini sends one, else none: SPEC
//! section 6 notes the id is optional and often absent, and Gemini matches a
//! `functionResponse` to its call by name and order, so no id is made up
//! (one would have to be invented the same way by whoever sends the result
//! back). A call is keyed [`CallKey::Choice`] `{choice: candidate index, index: the
//! call's position among that candidate's calls}`.
//!
//! Which call a part belongs to follows the protocol: `willContinue` on a
//! `functionCall` means more parts follow "for the current FunctionCall", so
//! a call is the span of parts from its named part to the first part
//! without `willContinue` (SPEC section 6: "a call span between
//! terminators"). A part with an `id` continues the open call with that id
//! (so calls with ids may interleave); a part with a name starts a new call
//! (ending the open span's call if it has no id: nothing could continue it);
//! any other part continues the candidate's current span. Candidates are
//! separate: their spans may interleave. A path event that cannot be written
//! (an array index out of order, a path back into a value already closed, a
//! key into an array) is reported as [`CallEvent::Malformed`] and skipped.
//!
//! A response may have at most 1,024 candidates (Gemini allows 8); the
//! index past that bound ends the stream with [`StreamError::Protocol`]
//! naming it, as the 1,024 tool calls do with
//! [`StreamError::TooManyCalls`].
//!
//! Text parts are [`CallEvent::TextAppended`], `thought: true` parts
//! [`CallEvent::ThinkingAppended`], a `thoughtSignature`
//! [`CallEvent::ThinkingSigned`] (all `at` the candidate index). An
//! `{"error": {...}}` event ends the response as
//! [`StopReason::Error`](super::StopReason::Error) with the error's `status`
//! as its kind. `finishReason` is kept and given at the end of the input:
//! `STOP` as `tool_use` when client calls were made, else `end_turn`;
//! `MAX_TOKENS` as `max_tokens` (open calls truncated); the safety reasons
//! as `content_filter`; any other word as it is.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::{Map, Value as J};

use super::{
    CallEvent, CallKey, CallKind, CallStatus, Calls, ProtocolViolation, StopReason, StreamError,
    Usage,
};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk {
    #[serde(default)]
    candidates: Option<Vec<Candidate>>,
    #[serde(default)]
    usage_metadata: Option<J>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    model_version: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    response_id: Option<String>,
    #[serde(default)]
    error: Option<J>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    content: Option<Content>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    parts: Option<Vec<Part>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Part {
    #[serde(default, deserialize_with = "super::lenient_string")]
    text: Option<String>,
    #[serde(default)]
    thought: Option<bool>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    thought_signature: Option<String>,
    #[serde(default)]
    function_call: Option<FunctionCall>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FunctionCall {
    #[serde(default, deserialize_with = "super::lenient_string")]
    id: Option<String>,
    #[serde(default, deserialize_with = "super::lenient_string")]
    name: Option<String>,
    /// The text as Gemini wrote it (serde_json would read its numbers as
    /// `f64`, and fail the whole chunk on `1e400`).
    #[serde(default)]
    args: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    partial_args: Option<Vec<PartialArg>>,
    #[serde(default)]
    will_continue: Option<bool>,
}

/// One `partialArgs` entry. Its members are checked when it is used, so a
/// wrong type is reported for that entry alone.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartialArg {
    #[serde(default)]
    json_path: Option<J>,
    #[serde(default)]
    string_value: Option<J>,
    /// The number as Gemini wrote it (serde_json would read it as `f64`,
    /// and fail the whole chunk on `1e400`).
    #[serde(default)]
    number_value: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    bool_value: Option<J>,
    /// Present (with `null`) or absent, which an `Option` would not tell.
    #[serde(default, deserialize_with = "present")]
    null_value: bool,
    #[serde(default)]
    will_continue: Option<J>,
}

/// True for a member that is there, whatever its value.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    serde::de::IgnoredAny::deserialize(d).map(|_| true)
}

/// Whether an event's data is a Gemini response chunk (or a Gemini error,
/// which has a `status` word, unlike OpenAI's).
pub(crate) fn detect(data: &str) -> bool {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Probe {
        candidates: Option<serde::de::IgnoredAny>,
        usage_metadata: Option<serde::de::IgnoredAny>,
        prompt_feedback: Option<serde::de::IgnoredAny>,
        model_version: Option<serde::de::IgnoredAny>,
        error: Option<Map<String, J>>,
    }
    let Ok(p) = serde_json::from_str::<Probe>(data) else {
        return false;
    };
    p.candidates.is_some()
        || p.usage_metadata.is_some()
        || p.prompt_feedback.is_some()
        || p.model_version.is_some()
        || p.error
            .is_some_and(|e| e.get("status").is_some_and(J::is_string))
}

/// One segment of a `jsonPath`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(u64),
}

/// Reads the RFC 9535 subset Gemini uses: `$`, then `.name`, `[n]` and
/// `['name']` / `["name"]` segments.
fn parse_path(path: &str) -> Option<Vec<Seg>> {
    let mut rest = path.strip_prefix('$')?;
    let mut out = Vec::new();
    while let Some(c) = rest.chars().next() {
        match c {
            '.' => {
                let body = &rest[1..];
                let end = body.find(['.', '[']).unwrap_or(body.len());
                if end == 0 {
                    return None;
                }
                out.push(Seg::Key(body[..end].to_owned()));
                rest = &body[end..];
            }
            '[' => {
                let body = &rest[1..];
                let q = body.chars().next()?;
                if q == '\'' || q == '"' {
                    let mut key = String::new();
                    let mut chars = body[1..].char_indices();
                    let close = loop {
                        let (i, ch) = chars.next()?;
                        match ch {
                            '\\' => key.push(chars.next()?.1),
                            c if c == q => break i,
                            c => key.push(c),
                        }
                    };
                    rest = body[1 + close + 1..].strip_prefix(']')?;
                    out.push(Seg::Key(key));
                } else {
                    let end = body.find(']')?;
                    let digits = &body[..end];
                    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                        return None;
                    }
                    out.push(Seg::Index(digits.parse().ok()?));
                    rest = &body[end + 1..];
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// An open container of the arguments being written.
#[derive(Debug)]
struct Open {
    array: bool,
    children: u64,
    /// The child written last (its value may still be open below).
    current: Option<Seg>,
    /// Every key written into this object: a path may not come back to one.
    keys: BTreeSet<String>,
}

/// Writes path/value events as the JSON text they stand for.
#[derive(Debug, Default)]
struct ArgsWriter {
    stack: Vec<Open>,
    /// The string at the current leaf is open: its pieces keep coming.
    open_string: bool,
    /// `args` came whole: no path event may follow.
    whole: bool,
}

/// A typed `partialArgs` value.
enum Leaf<'a> {
    Str(&'a str),
    Literal(String),
}

impl ArgsWriter {
    /// The JSON text for one path event, or why it cannot be written.
    fn write(&mut self, segs: &[Seg], leaf: Leaf<'_>, more: bool) -> Result<String, String> {
        if self.whole {
            return Err("a path event after whole args".to_owned());
        }
        if segs.is_empty() {
            return Err("a path event for the root".to_owned());
        }
        let mut out = String::new();
        // The open string continues.
        if self.open_string
            && self.stack.len() == segs.len()
            && self
                .stack
                .iter()
                .zip(segs)
                .all(|(o, s)| o.current.as_ref() == Some(s))
        {
            let Leaf::Str(s) = leaf else {
                return Err("a non-string value for an open string".to_owned());
            };
            push_escaped(&mut out, s);
            if !more {
                out.push('"');
                self.open_string = false;
            }
            return Ok(out);
        }
        // How far the new path follows the open one: `m` segments name
        // the values still open (each the latest child of its container).
        let m = self
            .stack
            .iter()
            .zip(segs)
            .take_while(|(o, s)| o.current.as_ref() == Some(*s))
            .count();
        if m == segs.len() {
            return Err("a path back into a value already written".to_owned());
        }
        if m > 0 && m == self.stack.len() {
            return Err("a path into a value already written".to_owned());
        }
        let keep = m + 1;
        // Check before writing anything: the first new segment goes into
        // the open container at depth `m`, where it must be a child not
        // written yet (not only other than the latest: a key or index
        // closed earlier stays closed); each later one into a new container.
        for (i, seg) in segs.iter().enumerate().skip(m) {
            let (array, children, seen) = match self.stack.get(i).filter(|_| i == m) {
                Some(o) => (o.array, o.children, Some(&o.keys)),
                None if i == 0 => (false, 0, None),
                None => (matches!(seg, Seg::Index(_)), 0, None),
            };
            match seg {
                Seg::Key(_) if array => return Err("a key into an array".to_owned()),
                Seg::Index(_) if !array => return Err("an index into an object".to_owned()),
                Seg::Index(n) if *n < children => {
                    return Err(format!("a path back into index {n}, already written"));
                }
                Seg::Index(n) if *n != children => {
                    return Err(format!("index {n} where {children} comes next"));
                }
                Seg::Key(k) if seen.is_some_and(|keys| keys.contains(k)) => {
                    return Err(format!("a path back into key {k:?}, already written"));
                }
                _ => {}
            }
        }
        if self.open_string {
            out.push('"');
            self.open_string = false;
        }
        while self.stack.len() > keep.max(1) {
            self.close_top(&mut out);
        }
        if self.stack.is_empty() {
            out.push('{');
            self.stack.push(Open {
                array: false,
                children: 0,
                current: None,
                keys: BTreeSet::new(),
            });
        }
        for (i, seg) in segs.iter().enumerate().skip(self.stack.len() - 1) {
            let top = self.stack.last_mut().expect("the root is open");
            if top.children > 0 {
                out.push(',');
            }
            if let Seg::Key(k) = seg {
                out.push('"');
                push_escaped(&mut out, k);
                out.push_str("\":");
            }
            top.children += 1;
            if let Seg::Key(k) = seg {
                top.keys.insert(k.clone());
            }
            top.current = Some(seg.clone());
            if let Some(next) = segs.get(i + 1) {
                let array = matches!(next, Seg::Index(_));
                out.push(if array { '[' } else { '{' });
                self.stack.push(Open {
                    array,
                    children: 0,
                    current: None,
                    keys: BTreeSet::new(),
                });
            }
        }
        match leaf {
            Leaf::Str(s) => {
                out.push('"');
                push_escaped(&mut out, s);
                if more {
                    self.open_string = true;
                } else {
                    out.push('"');
                }
            }
            Leaf::Literal(text) => out.push_str(&text),
        }
        Ok(out)
    }

    fn close_top(&mut self, out: &mut String) {
        if let Some(o) = self.stack.pop() {
            out.push(if o.array { ']' } else { '}' });
        }
    }

    /// The text that closes whatever is open (the call ended).
    fn close_all(&mut self) -> String {
        let mut out = String::new();
        if self.open_string {
            out.push('"');
            self.open_string = false;
        }
        while !self.stack.is_empty() {
            self.close_top(&mut out);
        }
        out
    }
}

/// Appends `s` as the inside of a JSON string.
fn push_escaped(out: &mut String, s: &str) {
    let quoted = J::String(s.to_owned()).to_string();
    out.push_str(&quoted[1..quoted.len() - 1]);
}

/// The leaf of one `partialArgs` entry, its path and whether more pieces
/// follow; `None` when it holds no typed value.
fn read_partial_arg(arg: &PartialArg) -> Result<(Vec<Seg>, Leaf<'_>, bool), String> {
    let path = arg
        .json_path
        .as_ref()
        .and_then(J::as_str)
        .ok_or("a partialArgs entry without jsonPath")?;
    let segs = parse_path(path).ok_or_else(|| format!("jsonPath {path:?} is not understood"))?;
    let more = arg.will_continue.as_ref().and_then(J::as_bool) == Some(true);
    let leaf = if let Some(v) = &arg.string_value {
        Leaf::Str(v.as_str().ok_or("stringValue is not a string")?)
    } else if let Some(v) = &arg.number_value {
        // Raw JSON text: a number starts with a minus sign or a digit.
        let text = v.get().trim();
        if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            return Err("numberValue is not a number".to_owned());
        }
        Leaf::Literal(text.to_owned())
    } else if let Some(v) = &arg.bool_value {
        Leaf::Literal(v.as_bool().ok_or("boolValue is not a boolean")?.to_string())
    } else if arg.null_value {
        Leaf::Literal("null".to_owned())
    } else {
        return Err(format!("the partialArgs entry for {path} has no value"));
    };
    Ok((segs, leaf, more))
}

fn stop_of(reason: &str, calls: &Calls) -> StopReason {
    match reason {
        "STOP" if calls.has_calls_of(CallKind::Client) => StopReason::ToolUse,
        "STOP" => StopReason::EndTurn,
        "MAX_TOKENS" => StopReason::MaxTokens,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            StopReason::ContentFilter
        }
        other => StopReason::Other(other.to_owned()),
    }
}

fn usage_of(u: &J) -> Option<Usage> {
    let o = u.as_object()?;
    let n = |k: &str| o.get(k).and_then(J::as_u64);
    let usage = Usage {
        input_tokens: n("promptTokenCount"),
        output_tokens: n("candidatesTokenCount"),
        reasoning_tokens: n("thoughtsTokenCount"),
        cache_creation_input_tokens: None,
        cache_read_input_tokens: n("cachedContentTokenCount"),
    };
    // Vertex sends `{"trafficType": ...}` alone before the counts.
    (usage != Usage::default()).then_some(usage)
}

/// Adapter state for one Gemini response.
#[derive(Debug, Default)]
pub(crate) struct State {
    started: bool,
    /// The writer of each call fed by path events, by call number.
    writers: BTreeMap<usize, ArgsWriter>,
    /// Calls started per candidate.
    started_calls: BTreeMap<u64, u64>,
    /// Per candidate, the call whose span is open: the "current
    /// FunctionCall" that a part without a name or id continues.
    current: BTreeMap<u64, usize>,
    /// The first `finishReason` seen.
    finish_reason: Option<String>,
    /// The candidate indexes seen (at most [`MAX_CANDIDATES`]).
    candidates: BTreeSet<u64>,
}

/// The most candidates one response may have. Gemini's `candidateCount`
/// allows 8; each candidate holds state for the whole response, so a stream
/// that opens a new index per chunk would grow without this bound.
pub(crate) const MAX_CANDIDATES: usize = 1024;

impl State {
    pub(crate) fn handle(&mut self, calls: &mut Calls, data: &str) -> Result<(), StreamError> {
        let chunk: Chunk = match serde_json::from_str(data) {
            Ok(c) => c,
            Err(e) => {
                calls.malformed(format!("{e}: {}", super::excerpt(data)));
                return Ok(());
            }
        };
        if let Some(error) = chunk.error {
            let word = |k: &str| error.get(k).and_then(J::as_str).map(str::to_owned);
            let kind = word("status")
                .or_else(|| error.get("code").map(J::to_string))
                .unwrap_or_else(|| "error".to_owned());
            calls.finish_stream(StopReason::Error {
                kind,
                message: word("message").unwrap_or_default(),
            });
            return Ok(());
        }
        if !self.started {
            self.started = true;
            calls.response.id = chunk.response_id.clone();
            calls.response.model = chunk.model_version.clone();
            calls.push(CallEvent::MessageStarted {
                id: chunk.response_id,
                model: chunk.model_version,
            });
        }
        for (i, candidate) in chunk.candidates.unwrap_or_default().into_iter().enumerate() {
            let at = candidate.index.unwrap_or(i as u64);
            if !self.candidates.contains(&at) {
                if self.candidates.len() >= MAX_CANDIDATES {
                    return Err(StreamError::Protocol(ProtocolViolation::TooManyCandidates(
                        MAX_CANDIDATES,
                    )));
                }
                self.candidates.insert(at);
            }
            let parts = candidate.content.and_then(|c| c.parts).unwrap_or_default();
            for part in parts {
                self.part(calls, at, part)?;
            }
            if let Some(reason) = candidate.finish_reason {
                if reason == "STOP" {
                    // The call terminator may be missing: STOP ends the call.
                    for n in self.open_calls(calls, at) {
                        self.end_call(calls, at, n);
                    }
                } else if reason == "MAX_TOKENS" {
                    for n in self.open_calls(calls, at) {
                        calls.cut(n, CallStatus::Truncated, &StopReason::MaxTokens);
                    }
                }
                calls.response.gemini.finish(at, &reason);
                self.finish_reason.get_or_insert(reason);
            }
        }
        if let Some(raw) = chunk.usage_metadata.as_ref() {
            calls.response.gemini.usage(raw);
            if let Some(u) = usage_of(raw) {
                calls.response.usage = Some(u.clone());
                calls.push(CallEvent::UsageUpdated(u));
            }
        }
        Ok(())
    }

    fn part(&mut self, calls: &mut Calls, at: u64, part: Part) -> Result<(), StreamError> {
        let Some(fc) = part.function_call else {
            let text = part.text.unwrap_or_default();
            let thought = part.thought == Some(true);
            calls
                .response
                .gemini
                .text(at, &text, thought, part.thought_signature.as_deref());
            if !text.is_empty() {
                calls.push(if thought {
                    CallEvent::ThinkingAppended {
                        choice: at,
                        block: 0,
                        text,
                    }
                } else {
                    CallEvent::TextAppended {
                        choice: at,
                        block: 0,
                        text,
                    }
                });
            }
            if let Some(signature) = part.thought_signature {
                calls.push(CallEvent::ThinkingSigned { at, signature });
            }
            return Ok(());
        };
        let Some(n) = self.route(calls, at, &fc)? else {
            return Ok(());
        };
        if let Some(signature) = part.thought_signature {
            calls.response.gemini.call_signature(at, n, &signature);
            calls.push(CallEvent::ThinkingSigned { at, signature });
        }
        if let Some(args) = fc.args {
            let writer = self.writers.entry(n).or_default();
            if writer.stack.is_empty() && !writer.whole {
                writer.whole = true;
                calls.append(n, args.get().to_owned());
            } else {
                calls.malformed(format!("whole args for call {n}, whose args had begun"));
            }
        }
        for arg in fc.partial_args.unwrap_or_default() {
            let written = read_partial_arg(&arg).and_then(|(segs, leaf, more)| {
                self.writers.entry(n).or_default().write(&segs, leaf, more)
            });
            match written {
                Ok(text) => calls.append(n, text),
                Err(why) => calls.malformed(format!("partialArgs of call {n}: {why}")),
            }
        }
        if fc.will_continue == Some(true) {
            self.current.insert(at, n);
        } else {
            self.end_call(calls, at, n);
        }
        Ok(())
    }

    /// The call a `functionCall` part belongs to. By the protocol a part
    /// with `willContinue` is followed by more parts "for the current
    /// FunctionCall": a call's parts form a span that ends at a part
    /// without `willContinue` (or at `finishReason`). So a part with an id
    /// continues the open call with that id; a part with a name starts a
    /// call (and, when the open span's call has no id, that call can no
    /// longer be continued: it ends there, as at a missing terminator); any
    /// other part continues the candidate's current span. `None`: nothing
    /// to do (a stray terminator) or reported as malformed.
    fn route(
        &mut self,
        calls: &mut Calls,
        at: u64,
        fc: &FunctionCall,
    ) -> Result<Option<usize>, StreamError> {
        let by_id = fc.id.as_deref().and_then(|id| {
            self.open_calls(calls, at)
                .into_iter()
                .rev()
                .find(|&n| calls.call(n).and_then(|c| c.id()) == Some(id))
        });
        if let Some(n) = by_id {
            return Ok(Some(n));
        }
        let current = self.current.get(&at).copied().filter(|&n| {
            calls
                .call(n)
                .is_some_and(|c| c.status == CallStatus::Streaming)
        });
        if fc.name.is_some() {
            if let Some(prev) = current
                && calls.call(prev).is_some_and(|c| c.id().is_none())
            {
                self.end_call(calls, at, prev);
            }
            let index = self.started_calls.entry(at).or_default();
            let key = CallKey::Choice {
                choice: at,
                index: *index,
            };
            *index += 1;
            let n = calls.start(key, fc.id.clone(), fc.name.clone(), CallKind::Client)?;
            calls.response.gemini.call(at, n, None);
            return Ok(Some(n));
        }
        let carries = fc.args.is_some() || fc.partial_args.is_some();
        match (&fc.id, current) {
            (None, Some(n)) => Ok(Some(n)),
            (None, None) if !carries => Ok(None),
            (Some(_), _) if !carries && fc.will_continue != Some(true) => Ok(None),
            (id, _) => {
                let whose = match id {
                    Some(id) => format!("for id {id:?}, which is not an open call"),
                    None => "with no name and no open call".to_owned(),
                };
                calls.malformed(format!("a functionCall part {whose} (candidate {at})"));
                Ok(None)
            }
        }
    }

    /// The candidate's calls still streaming, in the order they started.
    fn open_calls(&self, calls: &Calls, at: u64) -> Vec<usize> {
        (0..calls.calls.len())
            .filter(|&n| {
                let c = &calls.calls[n];
                c.status == CallStatus::Streaming
                    && matches!(c.key, CallKey::Choice { choice, .. } if choice == at)
            })
            .collect()
    }

    /// Closes what the call's path events left open, then ends it.
    fn end_call(&mut self, calls: &mut Calls, at: u64, n: usize) {
        if let Some(mut w) = self.writers.remove(&n) {
            let tail = w.close_all();
            calls.append(n, &tail);
        }
        if self.current.get(&at) == Some(&n) {
            self.current.remove(&at);
        }
        calls.end(n);
    }

    /// The stop reason at the end of the input: the `finishReason` seen,
    /// else the stream ended early.
    pub(crate) fn end_of_input(&mut self, calls: &mut Calls) -> StopReason {
        match &self.finish_reason {
            Some(r) => stop_of(r, calls),
            None => StopReason::EndOfStream,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(events: &[(&str, Leaf<'static>, bool)]) -> Result<String, String> {
        let mut w = ArgsWriter::default();
        let mut out = String::new();
        for (path, leaf, more) in events {
            let leaf = match leaf {
                Leaf::Str(s) => Leaf::Str(s),
                Leaf::Literal(l) => Leaf::Literal(l.clone()),
            };
            out.push_str(&w.write(&parse_path(path).unwrap(), leaf, *more)?);
        }
        out.push_str(&w.close_all());
        Ok(out)
    }

    #[test]
    fn paths_are_read() {
        assert_eq!(
            parse_path("$.recipe.ingredients[12].name"),
            Some(vec![
                Seg::Key("recipe".into()),
                Seg::Key("ingredients".into()),
                Seg::Index(12),
                Seg::Key("name".into()),
            ])
        );
        assert_eq!(
            parse_path("$['a.b'][\"c\\\"\"]"),
            Some(vec![Seg::Key("a.b".into()), Seg::Key("c\"".into())])
        );
        for bad in ["a.b", "$.", "$[x]", "$['a'", "$..a", "$[]"] {
            assert_eq!(parse_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn path_events_become_the_json_text_they_stand_for() {
        let got = text_of(&[
            ("$.r.items[0].name", Leaf::Str("fl\"o"), true),
            ("$.r.items[0].name", Leaf::Str("ur"), false),
            ("$.r.items[0].n", Leaf::Literal("2".into()), false),
            ("$.r.items[1].name", Leaf::Str("egg"), true),
            ("$.r.title", Leaf::Literal("null".into()), false),
            ("$.ok", Leaf::Literal("true".into()), false),
        ])
        .unwrap();
        assert_eq!(
            got,
            r#"{"r":{"items":[{"name":"fl\"our","n":2},{"name":"egg"}],"title":null},"ok":true}"#
        );
        assert!(serde_json::from_str::<J>(&got).is_ok());
    }

    #[test]
    fn paths_that_cannot_be_written_are_refused() {
        let cases: [&[(&str, Leaf<'static>, bool)]; 4] = [
            &[("$.a[1]", Leaf::Str("x"), false)],
            &[
                ("$.a", Leaf::Str("x"), false),
                ("$.a", Leaf::Str("y"), false),
            ],
            &[
                ("$.a[0]", Leaf::Str("x"), false),
                ("$.a.b", Leaf::Str("y"), false),
            ],
            &[
                ("$.a", Leaf::Str("x"), true),
                ("$.a", Leaf::Literal("1".into()), false),
            ],
        ];
        for events in cases {
            assert!(
                text_of(events).is_err(),
                "{:?}",
                events.iter().map(|e| e.0).collect::<Vec<_>>()
            );
        }
    }
}
