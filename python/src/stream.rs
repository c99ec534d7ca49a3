//! `ToolCallStream`: the crate's provider adapters over a raw response body
//! (SSE or AWS event-stream bytes), its events as small objects, the calls
//! with their arguments, and the final message as the provider's own dict.

use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use tooljson::providers::{CallEvent, StreamError, StreamedCall, ToolCallStream};

use crate::convert::{Decimals, json_to_py, node_to_py, value_to_py};
use crate::errors::{ProviderError, StreamFailed, UnrecognizedStream};
use crate::events::stream_event;
use crate::partial::with_chunk;
use crate::protocol::{PyAssistantTurn, PyToolCall, PyToolResult, PyToolSet, vendor};

/// One tool call of the response: a live view into its stream (each read
/// gives the call as it stands then).
#[pyclass(module = "tooljson", name = "StreamedCall", frozen)]
pub struct PyStreamedCall {
    stream: Py<PyToolCallStream>,
    index: usize,
}

impl PyStreamedCall {
    fn with<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&StreamedCall, Decimals) -> PyResult<R>,
    ) -> PyResult<R> {
        let stream = self.stream.bind(py).try_borrow()?;
        let call = stream
            .inner
            .call(self.index)
            .ok_or_else(|| PyAttributeError::new_err("no such call"))?;
        f(call, stream.decimals)
    }
}

#[pymethods]
impl PyStreamedCall {
    /// The index of the call in ``ToolCallStream.calls`` (events name it).
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// The call id (``toolu_…``, ``call_…``), once known.
    #[getter]
    fn id(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.with(py, |c, _| Ok(c.id().map(str::to_owned)))
    }

    /// The tool's name, once known.
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.with(py, |c, _| Ok(c.name().map(str::to_owned)))
    }

    /// ``client``, ``server``, ``mcp`` or ``custom`` (free-text input).
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.with(py, |c, _| Ok(c.kind().as_str()))
    }

    /// ``streaming``, ``complete``, ``truncated``, ``aborted`` or ``invalid``.
    #[getter]
    fn status(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.with(py, |c, _| Ok(c.status().as_str()))
    }

    /// The raw argument text received so far.
    #[getter]
    fn arguments_text(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |c, _| Ok(c.arguments_text().to_owned()))
    }

    /// The final arguments, once the call is complete (else ``None``).
    #[getter]
    fn arguments<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.with(py, |c, d| {
            c.value().map(|v| value_to_py(py, v, d)).transpose()
        })
    }

    /// The monotone preview of the arguments so far, or ``None``.
    #[getter]
    fn preview<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.with(py, |c, d| {
            c.partial().map(|n| node_to_py(py, n, d, 0)).transpose()
        })
    }

    /// What went wrong, in the order found (messages).
    #[getter]
    fn errors(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.with(py, |c, _| {
            Ok(c.errors().iter().map(|e| e.to_string()).collect())
        })
    }

    /// Whether the client should run this call now: a complete client call.
    #[getter]
    fn is_executable(&self, py: Python<'_>) -> PyResult<bool> {
        self.with(py, |c, _| Ok(c.is_executable()))
    }

    /// The ``is_error`` result to send instead of running the call, or
    /// ``None`` when it can run.
    fn retry_result(&self, py: Python<'_>) -> PyResult<Option<PyToolResult>> {
        self.with(py, |c, _| {
            Ok(c.retry_result().map(|inner| PyToolResult { inner }))
        })
    }

    /// The call in the protocol's terms (for ``ToolSet.check_call`` and
    /// ``AssistantTurn``).
    fn to_tool_call(&self, py: Python<'_>) -> PyResult<PyToolCall> {
        self.with(py, |c, _| {
            Ok(PyToolCall {
                inner: c.to_tool_call(),
            })
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |c, _| {
            Ok(format!(
                "StreamedCall(id={:?}, name={:?}, status={:?})",
                c.id(),
                c.name(),
                c.status().as_str()
            ))
        })
    }
}

/// A stream error as its exception: ``ProviderError`` (the provider
/// reported an error in the stream) and ``UnrecognizedStream`` (no
/// provider's stream in the body) are ``StreamFailed``, as is every other;
/// each says whether sending the request again may well succeed
/// (``retryable``) and carries the events queued before it (``events``).
fn stream_error<'py>(py: Python<'py>, e: &StreamError, events: Bound<'py, PyList>) -> PyErr {
    let err = match e {
        StreamError::Provider { .. } => ProviderError::new_err(e.to_string()),
        StreamError::Unrecognized { .. } => UnrecognizedStream::new_err(e.to_string()),
        _ => StreamFailed::new_err(e.to_string()),
    };
    let value = err.value(py);
    // Plain attributes on a fresh exception: if setting one fails, the
    // exception still carries its message.
    let _ = (|| -> PyResult<()> {
        value.setattr("retryable", e.is_retryable())?;
        value.setattr("events", events)?;
        match e {
            StreamError::Provider { kind, message } => {
                value.setattr("kind", kind)?;
                value.setattr("message", message)?;
            }
            StreamError::Unrecognized {
                bytes,
                events,
                first,
            } => {
                value.setattr("bytes", bytes)?;
                value.setattr("event_count", events)?;
                value.setattr("first", first)?;
            }
            _ => {}
        }
        Ok(())
    })();
    err
}

/// A streamed response (Anthropic Messages, OpenAI Chat Completions, OpenAI
/// Responses, Gemini, Bedrock ``ConverseStream``) read from its raw body.
///
/// ``feed`` takes the body's bytes as they arrive, split anywhere, and
/// returns the events they completed; ``finish`` ends the body. The calls,
/// text, usage, stop reason and final message are read at any time.
///
/// ``ToolCallStream()`` detects the provider from the first event;
/// ``ToolCallStream("anthropic")`` names it. With ``tools`` (a
/// ``ToolSet``) each call is checked against its tool's schema as it
/// streams, and ``tool_choice`` at the end.
#[pyclass(module = "tooljson", name = "ToolCallStream")]
pub struct PyToolCallStream {
    inner: ToolCallStream,
    decimals: Decimals,
}

impl PyToolCallStream {
    /// The queued events, or the error carrying them.
    fn settle<'py>(
        &mut self,
        py: Python<'py>,
        result: Result<(), StreamError>,
    ) -> PyResult<Bound<'py, PyList>> {
        let events = self.drain(py)?;
        match result {
            Ok(()) => Ok(events),
            Err(e) => Err(stream_error(py, &e, events)),
        }
    }

    fn drain<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let events: Vec<CallEvent> = self.inner.drain_events().collect();
        let out = PyList::empty(py);
        for e in events {
            out.append(stream_event(py, &self.inner, self.decimals, e)?)?;
        }
        Ok(out)
    }
}

#[pymethods]
impl PyToolCallStream {
    #[new]
    #[pyo3(signature = (vendor_name = None, *, tools = None, decimals = "auto"))]
    fn new(
        vendor_name: Option<&str>,
        tools: Option<PyRef<'_, PyToolSet>>,
        decimals: &str,
    ) -> PyResult<Self> {
        let mut inner = match vendor_name {
            Some(v) => ToolCallStream::for_vendor(vendor(v)?),
            None => ToolCallStream::new(),
        };
        if let Some(t) = tools {
            inner = inner.with_tools(t.inner.clone());
        }
        Ok(PyToolCallStream {
            inner,
            decimals: Decimals::parse(decimals)?,
        })
    }

    /// Feeds the next bytes of the body and returns the events they
    /// completed. Raises ``StreamFailed`` when the stream cannot be
    /// followed; the events queued before it are the exception's
    /// ``events``, and what arrived stays readable.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let result = with_chunk(chunk, |bytes| self.inner.feed(bytes))?;
        self.settle(py, result)
    }

    /// Feeds one event whose framing was already read (a line of a
    /// ``.jsonl`` event log, an event from another SSE reader): its name
    /// (``None`` for data-only streams) and its data.
    #[pyo3(signature = (data, event = None))]
    fn feed_event<'py>(
        &mut self,
        py: Python<'py>,
        data: &str,
        event: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let result = self.inner.feed_event(event, data);
        self.settle(py, result)
    }

    /// Ends the body and returns the last events (open calls end as
    /// truncated when the provider's terminal event never came). Raises
    /// ``ProviderError`` when the provider reported an error in the stream
    /// (an overloaded reply: ``retryable``; an exhausted quota: not), and
    /// ``UnrecognizedStream`` when no provider's stream was in the body;
    /// the last events are then the exception's ``events``, and the
    /// response so far (text, calls, usage) stays readable.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let result = self.inner.finish();
        self.settle(py, result)
    }

    /// The events queued and not yet returned.
    fn drain_events<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.drain(py)
    }

    /// The provider, once detected (``anthropic``, ``openai-chat``, ...).
    #[getter]
    fn provider(&self) -> Option<&'static str> {
        self.inner.provider_name()
    }

    /// The calls, in the order they started (live views).
    #[getter]
    fn calls(slf: &Bound<'_, Self>) -> Vec<PyStreamedCall> {
        let n = slf.borrow().inner.calls().len();
        (0..n)
            .map(|index| PyStreamedCall {
                stream: slf.clone().unbind(),
                index,
            })
            .collect()
    }

    /// The text of ``choice`` so far (0 unless OpenAI Chat was asked for
    /// ``n > 1`` or Gemini for several candidates): every
    /// ``text_appended`` of that choice, joined.
    #[pyo3(signature = (choice = 0))]
    fn text(&self, choice: u64) -> &str {
        self.inner.text(choice)
    }

    /// The thinking of ``choice`` so far (Anthropic thinking, Responses
    /// reasoning summaries, Chat ``reasoning_content``, Gemini thoughts,
    /// Bedrock reasoning).
    #[pyo3(signature = (choice = 0))]
    fn thinking(&self, choice: u64) -> &str {
        self.inner.thinking(choice)
    }

    /// The refusal text of ``choice`` so far.
    #[pyo3(signature = (choice = 0))]
    fn refusal(&self, choice: u64) -> &str {
        self.inner.refusal(choice)
    }

    /// The choices that said anything or called a tool, in order: ``[0]``
    /// for most responses, ``[0, 1, 2]`` for Chat with ``n = 3``.
    #[getter]
    fn choices(&self) -> Vec<u64> {
        self.inner.choices()
    }

    /// The message id, once known.
    #[getter]
    fn message_id(&self) -> Option<&str> {
        self.inner.message_id()
    }

    /// The model, once known.
    #[getter]
    fn model(&self) -> Option<&str> {
        self.inner.model()
    }

    /// The token counts so far, as a dict (absent counts left out), or ``None``.
    #[getter]
    fn usage<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .usage()
            .map(|u| json_to_py(py, &u.to_json()))
            .transpose()
    }

    /// Why the response ended (``tool_use``, ``end_turn``, ``max_tokens``,
    /// ``error``, ...), once it has.
    #[getter]
    fn stop_reason(&self) -> Option<String> {
        self.inner.stop_reason().map(|s| s.as_str().to_owned())
    }

    /// Whether the response has ended.
    #[getter]
    fn is_finished(&self) -> bool {
        self.inner.is_finished()
    }

    /// The final assistant message(s) in the provider's own JSON, as its
    /// SDK accumulates them: one per OpenAI Chat choice or Gemini
    /// candidate, else one.
    fn final_messages<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .inner
            .final_messages_json()
            .iter()
            .map(|m| json_to_py(py, m))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The final assistant message in the protocol's model (the first
    /// choice), ready to convert for another provider.
    fn to_assistant_turn(&self) -> PyResult<PyAssistantTurn> {
        self.inner
            .to_assistant_message()
            .map(|inner| PyAssistantTurn { inner })
            .map_err(|e| crate::errors::ProtocolError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolCallStream(provider={:?}, calls={}, finished={})",
            self.inner.provider_name(),
            self.inner.calls().len(),
            self.inner.is_finished()
        )
    }
}
