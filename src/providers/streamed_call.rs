//! One tool call of a streamed response: its id, name, status, raw text,
//! partial tree and final value, and what to do with it (run it, convert it
//! to the protocol's [`ToolCall`], or answer it with a retry result).

use super::{CallError, CallKey, CallKind, CallStatus, tools};
use crate::parser::DuplicateKeys;
use crate::partial::{PartialNode, PartialParser};
use crate::path::{Path, Segment};
use crate::protocol::{Arguments, ToolCall, ToolOutcome, ToolResult};
use crate::schema::Violation;
use crate::value::Value;

/// One tool call of the response.
#[derive(Debug)]
pub struct StreamedCall {
    pub(super) key: CallKey,
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) kind: CallKind,
    pub(super) status: CallStatus,
    pub(super) text: String,
    pub(super) parser: PartialParser,
    /// A custom call's preview: its free text as a growing string, then
    /// complete (its final value); a JSON call's is its parser's tree.
    pub(super) custom_preview: Option<PartialNode>,
    /// The partial tree's open string is shown (see `stream_state::ValueEvents`).
    pub(super) string_shown: bool,
    pub(super) errors: Vec<CallError>,
    pub(super) doomed: bool,
    /// Anthropic's start `input`, used when no delta follows.
    pub(super) placeholder: Option<Value>,
    /// Responses `item_id`, checked against later events.
    pub(super) item_id: Option<String>,
    /// Bytes fed past the parser's failure are kept in `text` only.
    pub(super) parser_failed: bool,
    /// The schema check, when the stream has tools.
    pub(super) check: tools::CallCheck,
}

impl StreamedCall {
    pub(super) fn new(
        key: CallKey,
        id: Option<String>,
        name: Option<String>,
        kind: CallKind,
    ) -> StreamedCall {
        StreamedCall {
            key,
            id,
            name,
            kind,
            status: CallStatus::Streaming,
            text: String::new(),
            parser: PartialParser::new(),
            custom_preview: None,
            string_shown: false,
            errors: Vec::new(),
            doomed: false,
            placeholder: None,
            item_id: None,
            parser_failed: false,
            check: tools::CallCheck::default(),
        }
    }

    /// The vendor's key.
    pub fn key(&self) -> CallKey {
        self.key
    }

    /// The call id the tool result must echo (Anthropic `toolu_…`, Chat
    /// `call_…`, Responses `call_id`), when known.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The Responses item id (`fc_…`), when there is one.
    pub fn item_id(&self) -> Option<&str> {
        self.item_id.as_deref()
    }

    /// The tool name, when known.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Who runs the tool.
    pub fn kind(&self) -> CallKind {
        self.kind
    }

    /// Where the call stands.
    pub fn status(&self) -> CallStatus {
        self.status
    }

    /// The raw argument text so far (for an Anthropic call with no deltas,
    /// the start event's `input` as JSON).
    pub fn arguments_text(&self) -> &str {
        &self.text
    }

    /// The best-effort partial value so far, for a live preview (see
    /// [`crate::partial`]; `to_string()` renders it as compact JSON); for a
    /// truncated or aborted call, what had arrived. For a custom
    /// (free-text) call, its text as a growing string. `None` before
    /// anything is visible: never after an
    /// [`ArgumentsAppended`](super::CallEvent::ArgumentsAppended) with
    /// `preview_changed: true`.
    pub fn partial(&self) -> Option<&PartialNode> {
        match self.kind {
            CallKind::Custom => self.custom_preview.as_ref(),
            _ => self.parser.snapshot(),
        }
    }

    /// The final arguments: `Some` only when the call is
    /// [`CallStatus::Complete`]. For a custom call, the free text as a JSON
    /// string.
    ///
    /// This is the one accessor of the arguments, in the crate's
    /// [`Value`] (exact number lexemes, no copy). For your own type, or for
    /// a `serde_json::Value`, use [`deserialize`](Self::deserialize)
    /// (`call.deserialize::<serde_json::Value>()`), which also gives the
    /// `is_error` reply when the call cannot be run.
    pub fn value(&self) -> Option<&Value> {
        if self.status != CallStatus::Complete {
            return None;
        }
        self.parsed()
    }

    /// The arguments as parsed, whatever the verdict: `Some` for a call
    /// whose text is one JSON value (also when it broke its schema, or its
    /// tool is unknown), `None` for text that is not, or was cut short.
    fn parsed(&self) -> Option<&Value> {
        match self.kind {
            CallKind::Custom => self.custom_preview.as_ref()?.as_complete(),
            _ if self.parser_failed => None,
            _ => match self.status {
                CallStatus::Complete | CallStatus::Invalid => self.parser.value(),
                _ => None,
            },
        }
    }

    /// The completed value at `path` in the arguments (the root is the
    /// empty path), as soon as it is complete, even while the call is still
    /// streaming; `None` while it is not.
    ///
    /// ```
    /// use tooljson::providers::{CallEvent, ToolCallStream};
    /// let mut s = ToolCallStream::new();
    /// s.feed_event(None, r#"{"type":"message_start","message":{"id":"m","content":[]}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#)?;
    /// s.feed_event(None, r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": [1, 2], \"b\": \"x"}}"#)?;
    /// let completed: Vec<String> = s.drain_events().filter_map(|e| match e {
    ///     CallEvent::ValueCompleted { path, .. } => Some(path.to_string()),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(completed, ["/a/0", "/a/1", "/a"]);
    /// let path = tooljson::Path::from_segments([tooljson::Segment::from("a")]);
    /// assert_eq!(s.calls()[0].value_at(&path).unwrap().to_string(), "[1,2]");
    /// # Ok::<(), tooljson::providers::StreamError>(())
    /// ```
    pub fn value_at(&self, path: &Path) -> Option<&Value> {
        enum At<'a> {
            Node(&'a PartialNode),
            Value(&'a Value),
        }
        let mut at = At::Node(self.parser.snapshot()?);
        for segment in path.segments() {
            at = match (at, segment) {
                (At::Value(v), Segment::Key(k)) => At::Value(v.get(k)?),
                (At::Value(v), Segment::Index(i)) => At::Value(v.as_array()?.get(*i)?),
                (At::Node(PartialNode::Complete(v)), seg) => {
                    let v = match seg {
                        Segment::Key(k) => v.get(k)?,
                        Segment::Index(i) => v.as_array()?.get(*i)?,
                    };
                    At::Value(v)
                }
                (At::Node(PartialNode::Object(members)), Segment::Key(k)) => {
                    At::Node(&members.iter().rev().find(|(name, _)| name == k)?.1)
                }
                (At::Node(PartialNode::Array(items)), Segment::Index(i)) => {
                    At::Node(items.get(*i)?)
                }
                _ => return None,
            };
        }
        match at {
            At::Value(v) => Some(v),
            At::Node(n) => n.as_complete(),
        }
    }

    /// What went wrong (or was odd), in the order found.
    pub fn errors(&self) -> &[CallError] {
        &self.errors
    }

    /// Whether the client should run this call now: a complete client call.
    pub fn is_executable(&self) -> bool {
        self.status == CallStatus::Complete && self.kind == CallKind::Client
    }

    /// The argument text wrapped for sending back to the model when it is not
    /// valid JSON: `{"INVALID_JSON": "<text>"}`, as Anthropic's docs advise
    /// (see [`crate::protocol::invalid_json_input`]).
    pub fn invalid_json_input(&self) -> crate::Value {
        crate::protocol::invalid_json_input(&self.text)
    }

    /// The call in the protocol's model: id, name, item id and arguments.
    /// Text that is one JSON value with no key repeated in one object is
    /// [`Arguments::Json`] with its exact
    /// text, also when the value breaks its tool's schema (so
    /// [`ToolSet::check_call`](crate::protocol::ToolSet::check_call) names
    /// the violation); text that is not (invalid, cut short, a custom
    /// call's free text) is [`Arguments::Invalid`]. A call whose id never
    /// arrived has an empty id.
    pub fn to_tool_call(&self) -> ToolCall {
        let arguments = match (self.parsed(), self.kind) {
            (Some(_), CallKind::Custom) | (None, _) => Arguments::Invalid(self.text.clone()),
            // Parsed keeping one value of a repeated key: read again, so a
            // repeated key is the text alone (which a conversion carries or
            // reports), never one of its values passed on in silence.
            (Some(_), _) if self.parser.parser().duplicate_keys() != DuplicateKeys::Error => {
                Arguments::from_text(&self.text)
            }
            (Some(v), _) => Arguments::Json {
                value: v.clone(),
                text: Some(self.text.clone()),
            },
        };
        let mut call = ToolCall::new(
            self.id.clone().unwrap_or_default(),
            self.name.clone().unwrap_or_default(),
            arguments,
        );
        call.item_id = self.item_id.clone();
        call
    }

    /// The verdict: the final arguments of a complete call, else why it is
    /// not complete.
    pub fn verdict(&self) -> Result<&Value, &[CallError]> {
        self.value().ok_or(&self.errors)
    }

    /// The `is_error` result to send back instead of running the call, when
    /// it is not complete (`None` when it is): the parse error with the
    /// position and the text, or every schema violation with its path, or
    /// why the call was cut.
    pub fn retry_result(&self) -> Option<ToolResult> {
        if self.status == CallStatus::Complete {
            return None;
        }
        let id = self.id.as_deref().unwrap_or_default();
        if let Some(CallError::Json(e)) =
            self.errors.iter().find(|e| matches!(e, CallError::Json(_)))
        {
            return Some(crate::protocol::parse_error_result(id, &self.text, e));
        }
        let name = self.name.as_deref().unwrap_or_default();
        // Schema violations alone: the words `ToolSet::retry_result` uses.
        let violations: Vec<Violation> = self
            .errors
            .iter()
            .filter_map(|e| match e {
                CallError::Schema(v) => Some(v.violation.clone()),
                _ => None,
            })
            .collect();
        if !violations.is_empty() && violations.len() == self.errors.len() {
            return Some(crate::protocol::violations_result(id, name, &violations));
        }
        let why: Vec<String> = self.errors.iter().map(|e| format!("- {e}")).collect();
        let why = if why.is_empty() {
            format!("- the call ended {}", self.status)
        } else {
            why.join("\n")
        };
        Some(ToolResult::new(
            id,
            ToolOutcome::error(format!(
                "The call to {name} was not run:\n{why}\nCall the tool again with corrected arguments."
            )),
        ))
    }

    /// The arguments of a complete call as `T`, or the `is_error` result to
    /// send back: the call's [`retry_result`](Self::retry_result), or, when
    /// the value does not fit `T`, serde's message.
    ///
    /// # Errors
    ///
    /// The [`ToolResult`] to answer the call with.
    // The error is the reply itself (built once per failed call), not a cause to propagate.
    #[allow(clippy::result_large_err)]
    pub fn deserialize<T: serde::de::DeserializeOwned>(&self) -> Result<T, ToolResult> {
        if let Some(r) = self.retry_result() {
            return Err(r);
        }
        let id = self.id.as_deref().unwrap_or_default();
        let bad = |m: String| ToolResult::new(id, ToolOutcome::error(m));
        let value = self
            .value()
            .ok_or_else(|| bad("The call has no arguments.".to_owned()))?;
        let json = value
            .to_serde_json()
            .map_err(|e| bad(format!("The arguments could not be read: {e}")))?;
        serde_json::from_value(json).map_err(|e| {
            bad(format!(
                "The arguments of {} do not fit: {e}. Call the tool again with corrected arguments.",
                self.name.as_deref().unwrap_or_default()
            ))
        })
    }
}
