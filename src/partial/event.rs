//! [`ValueEvent`], what changed in the document, and the sinks that receive
//! it.

use crate::path::{Path, PathRef};
use crate::value::{Value, write_json_string};

/// What [`ValueEvent::Opened`] opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpenedKind {
    /// `{`
    Object,
    /// `[`
    Array,
    /// The opening quote of a string value.
    String,
}

impl OpenedKind {
    fn as_str(self) -> &'static str {
        match self {
            OpenedKind::Object => "object",
            OpenedKind::Array => "array",
            OpenedKind::String => "string",
        }
    }
}

/// What changed in the document, in document order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueEvent<'a> {
    /// A container or string opened at `path`.
    Opened {
        /// Where.
        path: PathRef<'a>,
        /// What opened.
        kind: OpenedKind,
    },
    /// Decoded text was appended to the string at `path`.
    Appended {
        /// Where.
        path: PathRef<'a>,
        /// The new text (never half a character or escape).
        text: &'a str,
    },
    /// The value at `path` is complete and will not change.
    Completed {
        /// Where.
        path: PathRef<'a>,
        /// The value. Always `Some` with the tree; in events-only mode
        /// `Some` for numbers, booleans and null, `None` for strings and
        /// containers (their text came in `Appended` events).
        value: Option<&'a Value>,
    },
}

impl ValueEvent<'_> {
    /// The path the event is about.
    pub fn path(&self) -> PathRef<'_> {
        match self {
            ValueEvent::Opened { path, .. }
            | ValueEvent::Appended { path, .. }
            | ValueEvent::Completed { path, .. } => *path,
        }
    }

    /// An owned copy.
    pub fn to_owned_event(&self) -> OwnedValueEvent {
        match *self {
            ValueEvent::Opened { path, kind } => OwnedValueEvent::Opened {
                path: path.to_path(),
                kind,
            },
            ValueEvent::Appended { path, text } => OwnedValueEvent::Appended {
                path: path.to_path(),
                text: text.to_owned(),
            },
            ValueEvent::Completed { path, value } => OwnedValueEvent::Completed {
                path: path.to_path(),
                value: value.cloned(),
            },
        }
    }

    /// Writes the event as one line of JSON (no newline):
    /// `{"event":"opened","path":"/a","kind":"array"}`,
    /// `{"event":"appended","path":"/content","text":"..."}`,
    /// `{"event":"completed","path":"/a/0","value":...}` (`value` left out
    /// when the event has none).
    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"event\":\"");
        let (name, path) = match self {
            ValueEvent::Opened { path, .. } => ("opened", path),
            ValueEvent::Appended { path, .. } => ("appended", path),
            ValueEvent::Completed { path, .. } => ("completed", path),
        };
        out.push_str(name);
        out.push_str("\",\"path\":");
        write_json_string(out, &path.to_string());
        match self {
            ValueEvent::Opened { kind, .. } => {
                out.push_str(",\"kind\":\"");
                out.push_str(kind.as_str());
                out.push('"');
            }
            ValueEvent::Appended { text, .. } => {
                out.push_str(",\"text\":");
                write_json_string(out, text);
            }
            ValueEvent::Completed { value, .. } => {
                if let Some(v) = value {
                    out.push_str(",\"value\":");
                    v.write_compact(out);
                }
            }
        }
        out.push('}');
    }
}

/// An owned [`ValueEvent`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum OwnedValueEvent {
    Opened { path: Path, kind: OpenedKind },
    Appended { path: Path, text: String },
    Completed { path: Path, value: Option<Value> },
}

/// Receives [`ValueEvent`]s. Implemented for closures `FnMut(ValueEvent)`,
/// for `Vec<OwnedValueEvent>` and for `()` (discards them).
pub trait EventSink {
    /// Called once per event, in document order.
    fn event(&mut self, event: ValueEvent<'_>);
}

impl<F: FnMut(ValueEvent<'_>)> EventSink for F {
    fn event(&mut self, event: ValueEvent<'_>) {
        self(event)
    }
}

impl EventSink for Vec<OwnedValueEvent> {
    fn event(&mut self, event: ValueEvent<'_>) {
        self.push(event.to_owned_event());
    }
}

impl EventSink for () {
    fn event(&mut self, _event: ValueEvent<'_>) {}
}
