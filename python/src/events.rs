//! The events Python is handed, each converted from the core's in one
//! place: `PartialParser`'s `Opened`, `Appended` and `Completed`, and
//! `ToolCallStream`'s `StreamEvent`.
//!
//! A streaming client feeds one small delta at a time, so the fixed cost
//! of a call is most of what it pays: the names (event types, attribute
//! keys) are interned strings, the path of a run of events at one place is
//! shared, the list of a feed's events is built from a buffer kept between
//! calls, and the event classes keep a free list.

use std::sync::Arc;

use pyo3::exceptions::PyAttributeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use tooljson::Error;
use tooljson::partial::{EventSink, OpenedKind, ValueEvent};
use tooljson::path::{Path, PathRef, Segment};
use tooljson::providers::{CallEvent, ToolCallStream};

use crate::convert::{Decimals, json_to_py, value_to_py};
use crate::errors::json_error;

/// A path's segments as a tuple of `str` keys and `int` indices.
fn segments_tuple<'py>(py: Python<'py>, path: &Path) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<Bound<'py, PyAny>> = path
        .segments()
        .iter()
        .map(|s| -> PyResult<Bound<'py, PyAny>> {
            Ok(match s {
                Segment::Key(k) => PyString::new(py, k).into_any(),
                Segment::Index(i) => i.into_pyobject(py)?.into_any(),
            })
        })
        .collect::<PyResult<_>>()?;
    PyTuple::new(py, items)
}

/// A string, an array or an object opened at `path` (its preview is now
/// visible: `""`, `[]`, `{}`).
#[pyclass(module = "tooljson", frozen, freelist = 32)]
pub struct Opened {
    path: Arc<Path>,
    kind: OpenedKind,
}

#[pymethods]
impl Opened {
    #[classattr]
    #[allow(non_upper_case_globals)]
    const __match_args__: (&'static str, &'static str) = ("path", "kind");

    /// The JSON Pointer of the value (`""` is the root).
    #[getter]
    fn path(&self) -> String {
        self.path.to_string()
    }

    /// The path as a tuple of `str` keys and `int` indices.
    #[getter]
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        segments_tuple(py, &self.path)
    }

    /// `"object"`, `"array"` or `"string"`.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> &Bound<'py, PyString> {
        match self.kind {
            OpenedKind::Object => intern!(py, "object"),
            OpenedKind::Array => intern!(py, "array"),
            OpenedKind::String => intern!(py, "string"),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Opened(path={:?}, kind={:?})",
            self.path.to_string(),
            self.kind(py).to_string()
        )
    }
}

/// Decoded text appended to the string at `path` (never half a character
/// or half an escape).
#[pyclass(module = "tooljson", frozen, freelist = 32)]
pub struct Appended {
    path: Arc<Path>,
    /// The new text.
    #[pyo3(get)]
    text: Py<PyString>,
}

#[pymethods]
impl Appended {
    #[classattr]
    #[allow(non_upper_case_globals)]
    const __match_args__: (&'static str, &'static str) = ("path", "text");

    /// The JSON Pointer of the string (`""` is the root).
    #[getter]
    fn path(&self) -> String {
        self.path.to_string()
    }

    /// The path as a tuple of `str` keys and `int` indices.
    #[getter]
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        segments_tuple(py, &self.path)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Appended(path={:?}, text={:?})",
            self.path.to_string(),
            self.text.bind(py).to_string()
        )
    }
}

/// The value at `path` is complete and will not change; fires once per
/// value, in document order, the root last.
#[pyclass(module = "tooljson", frozen, freelist = 32)]
pub struct Completed {
    path: Arc<Path>,
    /// The finished value, as plain Python objects (`None` for JSON null).
    #[pyo3(get)]
    value: Py<PyAny>,
}

#[pymethods]
impl Completed {
    #[classattr]
    #[allow(non_upper_case_globals)]
    const __match_args__: (&'static str, &'static str) = ("path", "value");

    /// The JSON Pointer of the value (`""` is the root).
    #[getter]
    fn path(&self) -> String {
        self.path.to_string()
    }

    /// The path as a tuple of `str` keys and `int` indices.
    #[getter]
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        segments_tuple(py, &self.path)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Completed(path={:?}, value={})",
            self.path.to_string(),
            self.value.bind(py).repr()?
        ))
    }
}

/// What turns a parser's events into Python objects, kept by the parser
/// between calls.
#[derive(Default)]
pub struct ValueEvents {
    /// The path of the last event, shared by the next at the same path
    /// (the appended text of one long string is most of a stream's
    /// events): no allocation per event for it.
    last_path: Option<Arc<Path>>,
    /// The events of the call under way; empty between calls, its
    /// capacity kept.
    buffer: Vec<Py<PyAny>>,
}

impl ValueEvents {
    /// Runs `f` (a feed or a finish of the core) with a sink that converts
    /// each event, and returns them as a list, or the first error: the
    /// core's, else the first conversion's.
    pub fn collect<'py, F>(
        &mut self,
        py: Python<'py>,
        decimals: Decimals,
        f: F,
    ) -> PyResult<Bound<'py, PyList>>
    where
        F: FnOnce(&mut Sink<'_, 'py>) -> Result<(), Error>,
    {
        self.buffer.clear();
        let mut sink = Sink {
            py,
            decimals,
            events: self,
            failed: None,
        };
        let result = f(&mut sink);
        let failed = sink.failed.take();
        let list = PyList::new(py, self.buffer.drain(..))?;
        if let Some(err) = failed {
            return Err(err);
        }
        result.map_err(|e| json_error(py, &e))?;
        Ok(list)
    }

    fn shared_path(&mut self, path: PathRef<'_>) -> Arc<Path> {
        match &self.last_path {
            Some(p) if p.as_ref().as_ref() == path => Arc::clone(p),
            _ => {
                let p = Arc::new(path.to_path());
                self.last_path = Some(Arc::clone(&p));
                p
            }
        }
    }

    fn convert(
        &mut self,
        py: Python<'_>,
        e: ValueEvent<'_>,
        decimals: Decimals,
    ) -> PyResult<Py<PyAny>> {
        Ok(match e {
            ValueEvent::Opened { path, kind } => Py::new(
                py,
                Opened {
                    path: self.shared_path(path),
                    kind,
                },
            )?
            .into_any(),
            ValueEvent::Appended { path, text } => Py::new(
                py,
                Appended {
                    path: self.shared_path(path),
                    text: PyString::new(py, text).unbind(),
                },
            )?
            .into_any(),
            ValueEvent::Completed { path, value } => {
                let value = match value {
                    Some(v) => value_to_py(py, v, decimals)?.unbind(),
                    None => py.None(),
                };
                Py::new(
                    py,
                    Completed {
                        path: self.shared_path(path),
                        value,
                    },
                )?
                .into_any()
            }
        })
    }
}

/// The core's event sink for one call of [`ValueEvents::collect`]: after a
/// conversion fails, the rest of the call's events are dropped.
pub struct Sink<'a, 'py> {
    py: Python<'py>,
    decimals: Decimals,
    events: &'a mut ValueEvents,
    failed: Option<PyErr>,
}

impl EventSink for Sink<'_, '_> {
    fn event(&mut self, e: ValueEvent<'_>) {
        if self.failed.is_some() {
            return;
        }
        match self.events.convert(self.py, e, self.decimals) {
            Ok(obj) => self.events.buffer.push(obj),
            Err(err) => self.failed = Some(err),
        }
    }
}

/// One event of a streamed response: ``type`` says which, the other
/// attributes depend on it (see the stub for each type's attributes).
/// ``call`` is an index into ``ToolCallStream.calls``.
#[pyclass(module = "tooljson", name = "StreamEvent", frozen, freelist = 32)]
pub struct PyStreamEvent {
    kind: Py<PyString>,
    fields: Py<PyDict>,
}

#[pymethods]
impl PyStreamEvent {
    /// ``call_started``, ``arguments_appended``, ``value_completed``,
    /// ``call_doomed``, ``call_finished``, ``message_started``,
    /// ``text_appended``, ``thinking_appended``, ``thinking_signed``,
    /// ``redacted_thinking``, ``refusal_appended``, ``server_tool_result``,
    /// ``other_content``, ``usage_updated``, ``malformed``,
    /// ``stream_finished``.
    #[getter(r#type)]
    fn kind(&self, py: Python<'_>) -> Py<PyString> {
        self.kind.clone_ref(py)
    }

    fn __getattr__(&self, py: Python<'_>, name: &Bound<'_, PyString>) -> PyResult<Py<PyAny>> {
        match self.fields.bind(py).get_item(name)? {
            Some(v) => Ok(v.unbind()),
            None => Err(PyAttributeError::new_err(format!(
                "a {} event has no attribute {:?}",
                self.kind.bind(py),
                name.to_cow()?
            ))),
        }
    }

    /// The event's attributes (``type`` aside) as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.fields.bind(py).copy()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::new();
        for (k, v) in self.fields.bind(py).iter() {
            parts.push(format!("{}={}", k.str()?, v.repr()?));
        }
        Ok(format!(
            "StreamEvent({:?}, {})",
            self.kind.bind(py).to_cow()?,
            parts.join(", ")
        ))
    }
}

/// Text appended to a block of one choice (text, thinking, refusal).
fn set_appended(d: &Bound<'_, PyDict>, choice: u64, block: u64, text: &str) -> PyResult<()> {
    let py = d.py();
    d.set_item(intern!(py, "choice"), choice)?;
    d.set_item(intern!(py, "block"), block)?;
    d.set_item(intern!(py, "text"), text)
}

/// One of a stream's events as its Python object; `stream` gives the text
/// and values the event points into.
pub fn stream_event(
    py: Python<'_>,
    stream: &ToolCallStream,
    decimals: Decimals,
    e: CallEvent,
) -> PyResult<PyStreamEvent> {
    let d = PyDict::new(py);
    let call_key = intern!(py, "call");
    let kind = match e {
        CallEvent::CallStarted {
            call,
            id,
            name,
            kind,
            ..
        } => {
            d.set_item(call_key, call)?;
            d.set_item(intern!(py, "id"), id)?;
            d.set_item(intern!(py, "name"), name)?;
            d.set_item(intern!(py, "kind"), kind.as_str())?;
            intern!(py, "call_started")
        }
        CallEvent::ArgumentsAppended {
            call,
            range,
            preview_changed,
        } => {
            let text = stream
                .call(call)
                .and_then(|c| c.arguments_text().get(range))
                .unwrap_or("");
            d.set_item(call_key, call)?;
            d.set_item(intern!(py, "text"), text)?;
            d.set_item(intern!(py, "preview_changed"), preview_changed)?;
            intern!(py, "arguments_appended")
        }
        CallEvent::ValueCompleted { call, path, value } => {
            let v = match value {
                Some(v) => Some(value_to_py(py, &v, decimals)?),
                None => stream
                    .call(call)
                    .and_then(|c| c.value_at(&path))
                    .map(|v| value_to_py(py, v, decimals))
                    .transpose()?,
            };
            d.set_item(call_key, call)?;
            d.set_item(intern!(py, "path"), path.to_string())?;
            d.set_item(intern!(py, "value"), v)?;
            intern!(py, "value_completed")
        }
        CallEvent::CallDoomed { call, error } => {
            d.set_item(call_key, call)?;
            d.set_item(intern!(py, "error"), error.to_string())?;
            intern!(py, "call_doomed")
        }
        CallEvent::CallFinished { call, status } => {
            d.set_item(call_key, call)?;
            d.set_item(intern!(py, "status"), status.as_str())?;
            intern!(py, "call_finished")
        }
        CallEvent::MessageStarted { id, model } => {
            d.set_item(intern!(py, "id"), id)?;
            d.set_item(intern!(py, "model"), model)?;
            intern!(py, "message_started")
        }
        CallEvent::TextAppended {
            choice,
            block,
            text,
        } => {
            set_appended(&d, choice, block, &text)?;
            intern!(py, "text_appended")
        }
        CallEvent::ThinkingAppended {
            choice,
            block,
            text,
        } => {
            set_appended(&d, choice, block, &text)?;
            intern!(py, "thinking_appended")
        }
        CallEvent::RefusalAppended {
            choice,
            block,
            text,
        } => {
            set_appended(&d, choice, block, &text)?;
            intern!(py, "refusal_appended")
        }
        CallEvent::ThinkingSigned { at, signature } => {
            d.set_item(intern!(py, "at"), at)?;
            d.set_item(intern!(py, "signature"), signature)?;
            intern!(py, "thinking_signed")
        }
        CallEvent::RedactedThinking { at, data } => {
            d.set_item(intern!(py, "at"), at)?;
            d.set_item(intern!(py, "data"), data)?;
            intern!(py, "redacted_thinking")
        }
        CallEvent::ServerToolResult { at, block } => {
            d.set_item(intern!(py, "at"), at)?;
            d.set_item(intern!(py, "block"), json_to_py(py, &block)?)?;
            intern!(py, "server_tool_result")
        }
        CallEvent::OtherContent { at, block } => {
            d.set_item(intern!(py, "at"), at)?;
            d.set_item(intern!(py, "block"), json_to_py(py, &block)?)?;
            intern!(py, "other_content")
        }
        CallEvent::UsageUpdated(usage) => {
            d.set_item(intern!(py, "usage"), json_to_py(py, &usage.to_json())?)?;
            intern!(py, "usage_updated")
        }
        CallEvent::Malformed { message } => {
            d.set_item(intern!(py, "message"), message)?;
            intern!(py, "malformed")
        }
        CallEvent::StreamFinished {
            stop_reason,
            choice_error,
        } => {
            d.set_item(intern!(py, "stop_reason"), stop_reason.as_str())?;
            d.set_item(
                intern!(py, "choice_error"),
                choice_error.map(|e| e.to_string()),
            )?;
            intern!(py, "stream_finished")
        }
        _ => intern!(py, "other"),
    };
    Ok(PyStreamEvent {
        kind: kind.clone().unbind(),
        fields: d.unbind(),
    })
}
