//! The vendor-neutral state the adapters drive: the calls of one response,
//! the event queue, the memory budgets and the stop reason. Each adapter
//! turns its vendor's events into these operations.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use super::{
    CallError, CallEvent, CallKey, CallKind, CallStatus, StopReason, StreamError, StreamedCall,
    response, tools,
};
use crate::parser::DuplicateKeys;
use crate::partial::{EventSink, OpenedKind, PartialNode, ValueEvent};
use crate::value::Value;

#[cfg(doc)]
use crate::partial::PartialParser;

/// The default bound on calls in one response.
pub const DEFAULT_MAX_CALLS: usize = 1024;

/// The default memory budget of one call's partial tree, as estimated by
/// [`PartialParser::held_bytes`]: 8 times the default 64 MiB text limit.
/// Arguments of strings and small objects estimate at 1 to 10 bytes per
/// byte of text, so a call at the text limit passes; an array of tiny
/// values (`[0,0,0,...]`, 33 per byte) is refused at about 16 MiB.
pub const DEFAULT_MAX_CALL_TREE_BYTES: u64 = 8 * (64 << 20);

/// The default memory budget of the partial trees of all the calls of one
/// response together (the same estimate, summed).
pub const DEFAULT_MAX_RESPONSE_TREE_BYTES: u64 = 1 << 30;

/// The length past which a call's text grows by a quarter of itself.
const LONG_TEXT: usize = 1 << 20;

/// The vendor-neutral state shared by the adapters: the calls and the event
/// queue. Adapters translate vendor events into these operations.
#[derive(Debug)]
pub(crate) struct Calls {
    pub(super) calls: Vec<StreamedCall>,
    pub(super) events: VecDeque<CallEvent>,
    pub(super) max_calls: usize,
    /// Memory budgets of one call's tree and of all of them, and the
    /// estimate of what the calls' trees hold now.
    pub(super) max_call_tree_bytes: u64,
    pub(super) max_response_tree_bytes: u64,
    pub(super) tree_bytes: u64,
    pub(super) stop: Option<StopReason>,
    pub(super) malformed: usize,
    pub(super) tools: Option<Arc<tools::Tools>>,
    pub(super) choice_error: Option<crate::protocol::ChoiceViolation>,
    /// `None`: `Error` for calls checked against a schema, else `LastWins`.
    pub(super) duplicate_keys: Option<DuplicateKeys>,
    /// Everything of the response that is not a call.
    pub(crate) response: response::Response,
    /// The text, thinking and refusal of each choice, as they arrived.
    pub(super) texts: BTreeMap<u64, ChoiceText>,
    /// Events handled, and the first one no vendor was detected from.
    pub(super) events_seen: u64,
    pub(super) undetected: Option<String>,
}

/// What a choice said, accumulated from its events.
#[derive(Debug, Default)]
pub(super) struct ChoiceText {
    pub(super) text: String,
    pub(super) thinking: String,
    pub(super) refusal: String,
}

impl Calls {
    pub(super) fn new(max_calls: usize) -> Calls {
        Calls {
            calls: Vec::new(),
            events: VecDeque::new(),
            max_calls,
            max_call_tree_bytes: DEFAULT_MAX_CALL_TREE_BYTES,
            max_response_tree_bytes: DEFAULT_MAX_RESPONSE_TREE_BYTES,
            tree_bytes: 0,
            stop: None,
            malformed: 0,
            tools: None,
            choice_error: None,
            duplicate_keys: None,
            response: response::Response::default(),
            texts: BTreeMap::new(),
            events_seen: 0,
            undetected: None,
        }
    }

    /// Starts a call and returns its number.
    pub(crate) fn start(
        &mut self,
        key: CallKey,
        id: Option<String>,
        name: Option<String>,
        kind: CallKind,
    ) -> Result<usize, StreamError> {
        if self.calls.len() >= self.max_calls {
            return Err(StreamError::TooManyCalls(self.max_calls));
        }
        let n = self.calls.len();
        self.events.push_back(CallEvent::CallStarted {
            call: n,
            key,
            id: id.clone(),
            name: name.clone(),
            kind,
        });
        self.calls.push(StreamedCall::new(key, id, name, kind));
        self.check_duplicate_id(n);
        Ok(n)
    }

    /// Reports the call's id when an earlier call of the response has it.
    pub(crate) fn check_duplicate_id(&mut self, n: usize) {
        let Some(id) = self.calls.get(n).and_then(|c| c.id.clone()) else {
            return;
        };
        if self.calls[..n].iter().any(|c| c.id.as_deref() == Some(&id)) {
            self.doom(n, CallError::DuplicateId(id));
        }
    }

    /// The open call with this key, if any (the latest one).
    pub(crate) fn open(&self, key: CallKey) -> Option<usize> {
        self.calls
            .iter()
            .rposition(|c| c.key == key && c.status == CallStatus::Streaming)
    }

    /// The latest call with this key, open or not.
    pub(crate) fn latest(&self, key: CallKey) -> Option<usize> {
        self.calls.iter().rposition(|c| c.key == key)
    }

    pub(crate) fn call(&self, n: usize) -> Option<&StreamedCall> {
        self.calls.get(n)
    }

    pub(crate) fn call_mut(&mut self, n: usize) -> Option<&mut StreamedCall> {
        self.calls.get_mut(n)
    }

    pub(crate) fn has_calls_of(&self, kind: CallKind) -> bool {
        self.calls.iter().any(|c| c.kind == kind)
    }

    pub(super) fn doom(&mut self, n: usize, error: CallError) {
        if let Some(c) = self.calls.get_mut(n) {
            c.errors.push(error.clone());
            if !c.doomed {
                c.doomed = true;
                self.events
                    .push_back(CallEvent::CallDoomed { call: n, error });
            }
        }
    }

    /// Appends argument text to an open call (empty text is a no-op).
    ///
    /// The text is stored once, in the call's text: an owned first
    /// fragment becomes that text, a later one is copied in and dropped
    /// before the parser reads it from there, and the queued
    /// [`CallEvent::ArgumentsAppended`] names its range rather than copying
    /// it. So a large fragment is held by its decoded event, the call's text
    /// and the tree, never more at once.
    pub(crate) fn append<'t>(&mut self, n: usize, text: impl Into<Cow<'t, str>>) {
        let text = text.into();
        if text.is_empty() {
            return;
        }
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.status != CallStatus::Streaming {
            return;
        }
        let limit = c.parser.parser().limits().max_input_bytes;
        if (c.text.len() + text.len()) as u64 > limit {
            // The parser reports the limit; the raw text stops growing too.
            if !c.parser_failed {
                c.parser_failed = true;
                let err = c
                    .parser
                    .feed(text.as_bytes(), &mut ())
                    .err()
                    .map(CallError::Json);
                if let Some(e) = err {
                    self.doom(n, e);
                }
            }
            return;
        }
        let start = c.text.len();
        if c.text.capacity() - start < text.len() && start >= LONG_TEXT {
            // A long text grows by a quarter rather than doubling: its room
            // stays small beside what the tree holds, and the growth is
            // still geometric, so appending stays linear.
            c.text.reserve_exact(text.len().max(start / 4));
        }
        match text {
            Cow::Owned(owned) if start == 0 => c.text = owned,
            text => c.text.push_str(&text),
        }
        let range = start..c.text.len();
        let appended = self.events.len();
        if c.kind == CallKind::Custom {
            // Free text: the preview is the text itself, a growing string.
            let piece = c.text.get(range.clone()).unwrap_or_default();
            match &mut c.custom_preview {
                Some(PartialNode::String(s)) => s.push_str(piece),
                other => *other = Some(PartialNode::String(piece.to_owned())),
            }
        }
        self.events.push_back(CallEvent::ArgumentsAppended {
            call: n,
            range: range.clone(),
            preview_changed: c.kind == CallKind::Custom,
        });
        if c.kind == CallKind::Custom || c.parser_failed {
            return;
        }
        if let Some(e) = tools::prepare(c, self.tools.as_ref(), self.duplicate_keys) {
            self.doom(n, e);
        }
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        let mut sink = ValueEvents {
            call: n,
            queue: &mut self.events,
            changed: false,
            string_shown: &mut c.string_shown,
        };
        let held_before = c.parser.held_bytes();
        let fed = match c.text.get(range) {
            Some(text) => c.parser.feed(text.as_bytes(), &mut sink),
            None => Ok(()),
        };
        let changed = sink.changed;
        let certain = tools::newly_certain(c);
        if fed.is_err() {
            c.parser_failed = true;
        }
        // Violations certain in this fragment came before the byte where
        // the parser stopped: in the order they happened.
        for e in certain {
            self.doom(n, e);
        }
        if let Err(e) = fed {
            self.doom(n, CallError::Json(e));
        }
        self.check_tree_budgets(n, held_before);
        // A budget may have dropped the tree just now: then nothing shows.
        let shown = self
            .calls
            .get(n)
            .is_some_and(|c| c.parser.snapshot().is_some());
        if changed
            && shown
            && let Some(CallEvent::ArgumentsAppended {
                preview_changed, ..
            }) = self.events.get_mut(appended)
        {
            *preview_changed = true;
        }
    }

    /// After call `n` was fed: past either memory budget, ends the call's
    /// parsing and drops its tree. Checked per fragment, so a budget is
    /// passed by at most what one fragment adds.
    fn check_tree_budgets(&mut self, n: usize, held_before: u64) {
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        let held = c.parser.held_bytes();
        self.tree_bytes = (self.tree_bytes + held).saturating_sub(held_before);
        let error = if held > self.max_call_tree_bytes {
            CallError::CallTreeBudget(self.max_call_tree_bytes)
        } else if self.tree_bytes > self.max_response_tree_bytes {
            CallError::ResponseTreeBudget(self.max_response_tree_bytes)
        } else {
            return;
        };
        c.parser_failed = true;
        c.parser.reset();
        self.tree_bytes = self.tree_bytes.saturating_sub(held);
        self.doom(n, error);
    }

    /// The vendor ended the call's block: decide complete or invalid.
    pub(crate) fn end(&mut self, n: usize) {
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.status != CallStatus::Streaming {
            return;
        }
        if c.text.is_empty() {
            // No arguments: the placeholder (Anthropic), else `{}`.
            let text = match &c.placeholder {
                Some(v) => v.to_string(),
                None if c.kind == CallKind::Custom => String::new(),
                None => "{}".to_owned(),
            };
            self.append(n, text);
        }
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.kind == CallKind::Custom {
            c.custom_preview = Some(PartialNode::Complete(Value::String(c.text.clone())));
            self.finish_call(n, CallStatus::Complete);
            return;
        }
        if !c.parser_failed {
            let mut sink = ValueEvents {
                call: n,
                queue: &mut self.events,
                changed: false,
                string_shown: &mut c.string_shown,
            };
            let finished = c.parser.finish(&mut sink);
            match finished {
                Ok(()) => {
                    // The final value stays in the parser's tree, read in
                    // place (a copy would double what a call holds).
                    let mut errors = tools::newly_certain(c);
                    errors.extend(tools::verdict(c));
                    for e in errors {
                        self.doom(n, e);
                    }
                }
                Err(e) => {
                    c.parser_failed = true;
                    self.doom(n, CallError::Json(e));
                }
            }
        }
        let status = match self.calls.get(n) {
            Some(c) if c.doomed => CallStatus::Invalid,
            _ => CallStatus::Complete,
        };
        self.finish_call(n, status);
    }

    /// The response stopped during the call.
    pub(crate) fn cut(&mut self, n: usize, status: CallStatus, reason: &StopReason) {
        let Some(c) = self.calls.get_mut(n) else {
            return;
        };
        if c.status != CallStatus::Streaming {
            return;
        }
        c.errors.push(CallError::Cut(reason.clone()));
        // A call already known to be invalid JSON stays invalid.
        let status = if c.doomed {
            CallStatus::Invalid
        } else {
            status
        };
        self.finish_call(n, status);
    }

    /// Cuts every open call.
    pub(crate) fn cut_open(&mut self, status: CallStatus, reason: &StopReason) {
        for n in 0..self.calls.len() {
            self.cut(n, status, reason);
        }
    }

    /// Ends every open call normally (the vendor ended the response).
    pub(crate) fn end_open(&mut self, filter: impl Fn(&CallKey) -> bool) {
        for n in 0..self.calls.len() {
            if filter(&self.calls[n].key) {
                self.end(n);
            }
        }
    }

    fn finish_call(&mut self, n: usize, status: CallStatus) {
        if let Some(c) = self.calls.get_mut(n) {
            c.status = status;
            self.events
                .push_back(CallEvent::CallFinished { call: n, status });
        }
    }

    /// Queues an event of the response (text, thinking, usage, ...); text,
    /// thinking and refusals are also added to their choice's whole text.
    pub(crate) fn push(&mut self, event: CallEvent) {
        let (choice, text, which): (u64, &str, fn(&mut ChoiceText) -> &mut String) = match &event {
            CallEvent::TextAppended { choice, text, .. } => (*choice, text, |c| &mut c.text),
            CallEvent::ThinkingAppended { choice, text, .. } => {
                (*choice, text, |c| &mut c.thinking)
            }
            CallEvent::RefusalAppended { choice, text, .. } => (*choice, text, |c| &mut c.refusal),
            _ => {
                self.events.push_back(event);
                return;
            }
        };
        which(self.texts.entry(choice).or_default()).push_str(text);
        self.events.push_back(event);
    }

    /// Records a skipped, unreadable event.
    pub(crate) fn malformed(&mut self, message: String) {
        self.malformed += 1;
        self.events.push_back(CallEvent::Malformed { message });
    }

    /// Ends the response: cuts what is still open, queues `StreamFinished`.
    pub(crate) fn finish_stream(&mut self, stop: StopReason) {
        if self.stop.is_some() {
            return;
        }
        let status = match stop {
            StopReason::Error { .. } => CallStatus::Aborted,
            _ => CallStatus::Truncated,
        };
        self.cut_open(status, &stop);
        self.stop = Some(stop.clone());
        let choice_error = self
            .tools
            .as_ref()
            .and_then(|t| tools::check_choice(t, &self.calls));
        self.choice_error = choice_error.clone();
        self.events.push_back(CallEvent::StreamFinished {
            stop_reason: stop,
            choice_error,
        });
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.stop.is_some()
    }
}

/// Collects the partial parser's completion events for one call.
struct ValueEvents<'q> {
    call: usize,
    queue: &'q mut VecDeque<CallEvent>,
    /// Whether the rendered preview changed: a value opened, a string
    /// grew, a scalar or a held-back string appeared.
    changed: bool,
    /// The call's open string is shown (it was opened visibly), so its
    /// completion changes nothing on screen; a string held back by its
    /// schema appears only when it completes.
    string_shown: &'q mut bool,
}

impl EventSink for ValueEvents<'_> {
    fn event(&mut self, event: ValueEvent<'_>) {
        match &event {
            ValueEvent::Opened { kind, .. } => {
                self.changed = true;
                if *kind == OpenedKind::String {
                    *self.string_shown = true;
                }
            }
            ValueEvent::Appended { text, .. } => self.changed |= !text.is_empty(),
            // A string or container that closes looks the same open or
            // closed (`"Par"`, `{}`); a scalar appears when it completes.
            ValueEvent::Completed { value, .. } => match value {
                Some(Value::String(_)) => {
                    self.changed |= !std::mem::take(&mut *self.string_shown);
                }
                Some(Value::Array(_) | Value::Object(_)) | None => {}
                Some(_) => self.changed = true,
            },
        }
        if let ValueEvent::Completed {
            path,
            value: Some(v),
        } = event
        {
            // Scalars are copied once each; containers are read in place.
            let value = match v {
                Value::Array(_) | Value::Object(_) => None,
                scalar => Some(scalar.clone()),
            };
            self.queue.push_back(CallEvent::ValueCompleted {
                call: self.call,
                path: path.to_path(),
                value,
            });
        }
    }
}
