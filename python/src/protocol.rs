//! The protocol layer in Python's terms: `ToolSet` (compile a request's
//! tools, check a call, build the retry result), `ToolCall`, `ToolResult`,
//! and the conversions between providers (`Request`, `AssistantTurn`,
//! `ToolResults`), whose loss reports are `Loss` objects inside a
//! `Converted` result. Dicts in, dicts out.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use tooljson::protocol::{
    self as proto, Arguments, CallProblem, Loss, ToolOutcome, TurnPart, Vendor,
};

use crate::convert::{json_to_py, py_to_json};
use crate::errors::{ChoiceError, CorrelationError, ProtocolError, json_error, loss_error};

/// A vendor name: `anthropic`, `openai-chat`, `openai-responses`, `gemini`
/// or `bedrock`.
pub fn vendor(name: &str) -> PyResult<Vendor> {
    name.parse::<Vendor>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn protocol_error(e: proto::ProtocolError) -> PyErr {
    ProtocolError::new_err(e.to_string())
}

/// One part a conversion between providers could not carry faithfully.
#[pyclass(module = "tooljson", name = "Loss", frozen, get_all)]
pub struct PyLoss {
    /// Where the part is in the source JSON (a JSON Pointer; `""` is the root).
    at: String,
    /// What the part is (`image`, `is_error`, `thinking`, `cache_control`...).
    part: String,
    /// `"dropped"`, `"reads back differently"` or `"missing but required"`.
    effect: String,
    /// Why, in the target's terms.
    why: String,
    text: String,
}

#[pymethods]
impl PyLoss {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Loss(at={:?}, part={:?}, effect={:?}, why={:?})",
            self.at, self.part, self.effect, self.why
        )
    }
}

fn loss_list<'py>(py: Python<'py>, losses: &[Loss]) -> PyResult<Bound<'py, PyList>> {
    let items = losses
        .iter()
        .map(|l| {
            Py::new(
                py,
                PyLoss {
                    at: l.at.clone(),
                    part: l.part.clone(),
                    effect: l.effect.as_str().to_owned(),
                    why: l.why.clone(),
                    text: l.to_string(),
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// The output of a conversion and the parts it could not carry. The value
/// is reached only by saying what to do about losses: ``lossless()``
/// raises ``LossError`` if anything was lost, ``accept_losses()`` returns
/// the value and the losses.
#[pyclass(module = "tooljson", frozen)]
pub struct Converted {
    value: Py<PyAny>,
    losses: Py<PyList>,
    report: Option<String>,
}

impl Converted {
    fn new<T>(
        py: Python<'_>,
        converted: proto::Converted<T>,
        to_py: impl FnOnce(Python<'_>, &T) -> PyResult<Py<PyAny>>,
    ) -> PyResult<Converted> {
        let report = (!converted.is_lossless())
            .then(|| proto::LossReport(converted.losses().to_vec()).to_string());
        let (value, losses) = converted.accept_losses();
        Ok(Converted {
            value: to_py(py, &value)?,
            losses: loss_list(py, &losses)?.unbind(),
            report,
        })
    }
}

#[pymethods]
impl Converted {
    /// Whether every part crossed faithfully.
    #[getter]
    fn is_lossless(&self) -> bool {
        self.report.is_none()
    }

    /// The parts that could not cross, in source order (a new list).
    #[getter]
    fn losses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.losses.bind(py).iter())
    }

    /// The value; raises ``LossError`` (with ``losses``) if any part was lost.
    fn lossless(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.report {
            None => Ok(self.value.clone_ref(py)),
            Some(report) => Err(loss_error(py, report, self.losses(py)?)),
        }
    }

    /// The value and the list of losses the caller takes on.
    fn accept_losses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                self.value.clone_ref(py).into_bound(py),
                self.losses(py)?.into_any(),
            ],
        )
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Converted(losses={})", self.losses.bind(py).len())
    }
}

fn json_value(py: Python<'_>, v: &tooljson::Value) -> PyResult<Py<PyAny>> {
    Ok(json_to_py(py, v)?.unbind())
}

// `Converted::new` hands the converted value by reference: here a `Vec`.
#[allow(clippy::ptr_arg)]
fn json_values(py: Python<'_>, v: &Vec<tooljson::Value>) -> PyResult<Py<PyAny>> {
    let items = v
        .iter()
        .map(|x| json_to_py(py, x))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.into_any().unbind())
}

/// One tool call the model made: ``ToolCall(id, name, arguments)`` where
/// ``arguments`` is the argument text (``str``, as OpenAI sends it) or the
/// value (a ``dict``, as Anthropic sends it).
#[pyclass(module = "tooljson", name = "ToolCall", frozen)]
#[derive(Clone)]
pub struct PyToolCall {
    pub inner: proto::ToolCall,
}

#[pymethods]
impl PyToolCall {
    #[new]
    fn new(id: String, name: String, arguments: &Bound<'_, PyAny>) -> PyResult<Self> {
        let arguments = match arguments.extract::<String>() {
            Ok(text) => Arguments::from_text(&text),
            Err(_) => Arguments::from_value(py_to_json(arguments)?),
        };
        Ok(PyToolCall {
            inner: proto::ToolCall::new(id, name, arguments),
        })
    }

    /// The id the result must echo (``toolu_…``, ``call_…``).
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }

    /// The tool's name.
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// The parsed arguments, or ``None`` when the text is not one JSON value.
    #[getter]
    fn arguments<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .arguments
            .value()
            .map(|v| json_to_py(py, v))
            .transpose()
    }

    /// The argument text: as received, else the compact JSON of the value.
    #[getter]
    fn arguments_text(&self) -> String {
        self.inner.arguments.text().into_owned()
    }

    /// Whether the arguments are valid JSON.
    #[getter]
    fn is_valid(&self) -> bool {
        self.inner.arguments.is_valid()
    }

    /// The parse error of invalid arguments (a ``JsonError``), else ``None``.
    #[getter]
    fn parse_error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.inner
            .arguments
            .parse_error()
            .map(|e| json_error(py, &e).into_value(py).into_any())
    }

    /// Responses only: the output item id (``fc_…``).
    #[getter]
    fn item_id(&self) -> Option<&str> {
        self.inner.item_id.as_deref()
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolCall(id={:?}, name={:?}, arguments={:?})",
            self.inner.id,
            self.inner.name,
            self.inner.arguments.text()
        )
    }
}

/// One violation of a tool's input schema.
#[pyclass(module = "tooljson", name = "Violation", frozen, get_all)]
pub struct PyViolation {
    /// Where in the arguments (a JSON Pointer).
    path: String,
    /// Where in the schema the failing keyword is.
    schema_path: String,
    /// The failing keyword (``type``, ``enum``, ``required``...).
    keyword: String,
    /// "expected X, found Y".
    message: String,
}

#[pymethods]
impl PyViolation {
    fn __str__(&self) -> String {
        format!("{}: {}", self.path, self.message)
    }

    fn __repr__(&self) -> String {
        format!(
            "Violation(path={:?}, keyword={:?}, message={:?})",
            self.path, self.keyword, self.message
        )
    }
}

/// Why a finished call cannot be run, and the ``is_error`` result that
/// tells the model what to fix.
#[pyclass(module = "tooljson", name = "CallProblem", frozen)]
pub struct PyCallProblem {
    inner: CallProblem,
}

#[pymethods]
impl PyCallProblem {
    /// ``"unknown_tool"``, ``"invalid_json"``, ``"number_out_of_range"`` or
    /// ``"schema_violations"``.
    #[getter]
    fn kind(&self) -> &'static str {
        match &self.inner {
            CallProblem::UnknownTool { .. } => "unknown_tool",
            CallProblem::InvalidJson { .. } => "invalid_json",
            CallProblem::NumberOutOfRange { .. } => "number_out_of_range",
            CallProblem::SchemaViolations { .. } => "schema_violations",
            _ => "other",
        }
    }

    /// The text for the model: what was wrong, where, what was expected.
    #[getter]
    fn message(&self) -> String {
        self.inner.message()
    }

    /// The schema violations (empty for the other kinds).
    #[getter]
    fn violations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = match &self.inner {
            CallProblem::SchemaViolations { violations, .. } => violations
                .iter()
                .map(|v| {
                    Py::new(
                        py,
                        PyViolation {
                            path: v.instance_path.to_string(),
                            schema_path: v.schema_path.clone(),
                            keyword: v.keyword.clone(),
                            message: v.message.clone(),
                        },
                    )
                })
                .collect::<PyResult<Vec<_>>>()?,
            _ => Vec::new(),
        };
        PyList::new(py, items)
    }

    /// The parse error, for ``invalid_json`` (a ``JsonError``), else ``None``.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        match &self.inner {
            CallProblem::InvalidJson { error, .. } => {
                Some(json_error(py, error).into_value(py).into_any())
            }
            _ => None,
        }
    }

    /// The ``is_error`` result answering ``call_id``.
    fn to_result(&self, call_id: &str) -> PyToolResult {
        PyToolResult {
            inner: self.inner.to_result(call_id),
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "CallProblem(kind={:?}, {:?})",
            self.kind(),
            self.inner.to_string()
        )
    }
}

/// The result of one call: ``ToolResult(call_id, content, is_error=False)``
/// with text content; results with images or documents are read with
/// ``ToolResult.from_vendor``.
#[pyclass(module = "tooljson", name = "ToolResult", frozen)]
#[derive(Clone)]
pub struct PyToolResult {
    pub inner: proto::ToolResult,
}

#[pymethods]
impl PyToolResult {
    #[new]
    #[pyo3(signature = (call_id, content, is_error = false))]
    fn new(call_id: String, content: String, is_error: bool) -> Self {
        let outcome = if is_error {
            ToolOutcome::error(content)
        } else {
            ToolOutcome::text(content)
        };
        PyToolResult {
            inner: proto::ToolResult::new(call_id, outcome),
        }
    }

    /// Reads one result in ``vendor``'s shape: an Anthropic ``tool_result``
    /// block, an OpenAI Chat ``role: "tool"`` message, a Responses
    /// ``function_call_output`` item.
    #[staticmethod]
    fn from_vendor(vendor_name: &str, result: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = py_to_json(result)?;
        let inner = match vendor(vendor_name)? {
            Vendor::Anthropic => proto::ToolResult::from_vendor(Vendor::Anthropic, &v),
            Vendor::OpenAiChat => proto::ToolResult::from_vendor(Vendor::OpenAiChat, &v),
            Vendor::OpenAiResponses => proto::ToolResult::from_vendor(Vendor::OpenAiResponses, &v),
            other => {
                return Err(PyValueError::new_err(format!(
                    "results are read for anthropic, openai-chat and openai-responses, not {other}"
                )));
            }
        }
        .map_err(protocol_error)?;
        Ok(PyToolResult { inner })
    }

    /// The id of the call this answers.
    #[getter]
    fn call_id(&self) -> &str {
        &self.inner.call_id
    }

    /// Whether this reports a failure.
    #[getter]
    fn is_error(&self) -> bool {
        self.inner.is_error
    }

    /// The text of the content (text parts joined).
    #[getter]
    fn text(&self) -> String {
        self.inner.content.text()
    }

    /// The result in ``vendor``'s shape, and what it could not carry.
    fn to_vendor(&self, py: Python<'_>, vendor_name: &str) -> PyResult<Converted> {
        Converted::new(py, self.inner.to_vendor(vendor(vendor_name)?), json_value)
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolResult(call_id={:?}, text={:?}, is_error={})",
            self.inner.call_id,
            self.inner.content.text(),
            if self.inner.is_error { "True" } else { "False" }
        )
    }
}

/// The results answering one assistant turn, in the order of its calls.
#[pyclass(module = "tooljson", name = "ToolResults", frozen)]
pub struct PyToolResults {
    inner: proto::ToolResults,
}

#[pymethods]
impl PyToolResults {
    #[new]
    fn new(results: Vec<PyRef<'_, PyToolResult>>) -> Self {
        PyToolResults {
            inner: proto::ToolResults::new(results.iter().map(|r| r.inner.clone()).collect()),
        }
    }

    /// Reads the reply in ``vendor``'s shape: for Anthropic one user message
    /// (a ``dict``); for OpenAI Chat the ``role: "tool"`` messages, for
    /// Responses the ``function_call_output`` items (a ``list``).
    #[staticmethod]
    fn from_vendor(vendor_name: &str, messages: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = py_to_json(messages)?;
        let list = match v {
            tooljson::Value::Array(items) => items,
            other => vec![other],
        };
        let inner =
            proto::ToolResults::from_vendor(vendor(vendor_name)?, &list).map_err(protocol_error)?;
        Ok(PyToolResults { inner })
    }

    /// The results, in order.
    #[getter]
    fn results(&self) -> Vec<PyToolResult> {
        self.inner
            .results
            .iter()
            .map(|r| PyToolResult { inner: r.clone() })
            .collect()
    }

    /// The call ids, in order.
    #[getter]
    fn call_ids(&self) -> Vec<String> {
        self.inner
            .call_ids()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The messages (a list) in ``vendor``'s shape, and what they could not carry.
    fn to_vendor(&self, py: Python<'_>, vendor_name: &str) -> PyResult<Converted> {
        Converted::new(py, self.inner.to_vendor(vendor(vendor_name)?), json_values)
    }

    fn __len__(&self) -> usize {
        self.inner.results.len()
    }

    fn __repr__(&self) -> String {
        format!("ToolResults(call_ids={:?})", self.inner.call_ids())
    }
}

/// A finished assistant turn: its text, calls and stop reason, read from
/// and written to any of the three message APIs.
#[pyclass(module = "tooljson", name = "AssistantTurn", frozen)]
pub struct PyAssistantTurn {
    pub inner: proto::AssistantTurn,
}

#[pymethods]
impl PyAssistantTurn {
    /// Reads a turn: an Anthropic message, an OpenAI Chat choice (or
    /// message, or whole completion), a Responses response (or its output).
    #[staticmethod]
    fn from_vendor(vendor_name: &str, turn: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = py_to_json(turn)?;
        let inner =
            proto::AssistantTurn::from_vendor(vendor(vendor_name)?, &v).map_err(protocol_error)?;
        Ok(PyAssistantTurn { inner })
    }

    /// The tool calls, in order.
    #[getter]
    fn calls(&self) -> Vec<PyToolCall> {
        self.inner
            .calls()
            .map(|c| PyToolCall { inner: c.clone() })
            .collect()
    }

    /// The names called, in order.
    #[getter]
    fn called_names(&self) -> Vec<String> {
        self.inner
            .called_names()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The text parts, joined.
    #[getter]
    fn text(&self) -> String {
        self.inner
            .parts
            .iter()
            .filter_map(|p| match p {
                TurnPart::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The stop reason in Anthropic's words (``tool_use``, ``end_turn``,
    /// ``max_tokens``...), or ``None``.
    #[getter]
    fn stop_reason(&self) -> Option<String> {
        self.inner
            .stop_reason
            .as_ref()
            .map(|s| s.as_str().to_owned())
    }

    /// The turn in ``vendor``'s shape, and what it could not carry.
    fn to_vendor(&self, py: Python<'_>, vendor_name: &str) -> PyResult<Converted> {
        Converted::new(py, self.inner.to_vendor(vendor(vendor_name)?), json_value)
    }

    /// The results answering this turn, one per call, in the order of the
    /// calls; raises ``CorrelationError`` for a missing, unknown or repeated id.
    fn reply(&self, results: Vec<PyRef<'_, PyToolResult>>) -> PyResult<PyToolResults> {
        let outcomes = results.iter().map(|r| {
            let content = r.inner.content.clone();
            let outcome = if r.inner.is_error {
                ToolOutcome::Error(content)
            } else {
                ToolOutcome::Success(content)
            };
            (r.inner.call_id.clone(), outcome)
        });
        self.inner
            .reply(outcomes)
            .map(|inner| PyToolResults { inner })
            .map_err(|e| CorrelationError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "AssistantTurn(calls={:?}, stop_reason={:?})",
            self.inner.called_names(),
            self.stop_reason()
        )
    }
}

/// A whole request body (model, system prompt, messages, tools, sampling),
/// read from and written to any of the three message APIs.
#[pyclass(module = "tooljson", name = "Request", frozen)]
pub struct PyRequest {
    inner: proto::Request,
}

#[pymethods]
impl PyRequest {
    /// Reads a request body in ``vendor``'s shape.
    #[staticmethod]
    fn from_vendor(vendor_name: &str, body: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = py_to_json(body)?;
        let inner =
            proto::Request::from_vendor(vendor(vendor_name)?, &v).map_err(protocol_error)?;
        Ok(PyRequest { inner })
    }

    /// The model.
    #[getter]
    fn model(&self) -> &str {
        &self.inner.model
    }

    /// The vendor it was read from.
    #[getter]
    fn source(&self) -> Option<&'static str> {
        self.inner.source().map(Vendor::as_str)
    }

    /// How many messages (the system prompt aside).
    #[getter]
    fn message_count(&self) -> usize {
        self.inner.messages.len()
    }

    /// The request's tools, compiled, or ``None``.
    #[getter]
    fn tools(&self) -> Option<PyToolSet> {
        self.inner
            .tools
            .as_ref()
            .map(|t| PyToolSet { inner: t.clone() })
    }

    /// The body in ``vendor``'s shape, and what it could not carry.
    fn to_vendor(&self, py: Python<'_>, vendor_name: &str) -> PyResult<Converted> {
        Converted::new(py, self.inner.to_vendor(vendor(vendor_name)?), json_value)
    }

    fn __repr__(&self) -> String {
        format!(
            "Request(model={:?}, messages={})",
            self.inner.model,
            self.inner.messages.len()
        )
    }
}

/// The tools of a request, each schema compiled once: check the calls a
/// turn makes, and build the ``is_error`` result that asks the model to
/// call again.
///
/// ``ToolSet(request)`` reads a request body of any of the five vendors,
/// or a bare ``tools`` list. With ``lenient=True`` a tool whose schema
/// does not compile is kept (see ``schema_errors``) and its calls are not
/// checked.
#[pyclass(module = "tooljson", name = "ToolSet", frozen)]
#[derive(Clone)]
pub struct PyToolSet {
    pub inner: proto::ToolSet,
}

#[pymethods]
impl PyToolSet {
    #[new]
    #[pyo3(signature = (request, *, lenient = false))]
    fn new(request: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Self> {
        let v = py_to_json(request)?;
        let inner = if lenient {
            proto::ToolSet::from_request_json_lenient(&v)
        } else {
            proto::ToolSet::from_request_json(&v)
        }
        .map_err(protocol_error)?;
        Ok(PyToolSet { inner })
    }

    /// The client tools' names, in order.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner
            .tools()
            .iter()
            .map(|t| t.name().to_owned())
            .collect()
    }

    /// The tools read leniently whose schema did not compile: (name, why).
    #[getter]
    fn schema_errors(&self) -> Vec<(String, String)> {
        self.inner
            .schema_errors()
            .map(|(n, e)| (n.to_owned(), e.to_string()))
            .collect()
    }

    /// The parallel flag: ``False`` when disabled, ``None`` when not set.
    #[getter]
    fn parallel_tool_calls(&self) -> Option<bool> {
        self.inner.parallel_tool_calls()
    }

    /// The input schema of a tool, or ``None`` for an unknown name.
    fn input_schema<'py>(
        &self,
        py: Python<'py>,
        name: &str,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .get(name)
            .map(|t| json_to_py(py, t.input_schema()))
            .transpose()
    }

    /// Raises ``ChoiceError`` unless the names a turn called obey
    /// ``tool_choice`` and the parallel flag.
    fn check_choice(&self, called_names: Vec<String>) -> PyResult<()> {
        let names: Vec<&str> = called_names.iter().map(String::as_str).collect();
        self.inner
            .check_choice(&names)
            .map_err(|v| ChoiceError::new_err(v.to_string()))
    }

    /// What is wrong with a finished call (unknown tool, arguments that are
    /// not JSON, or that break the tool's schema), or ``None`` when it can run.
    fn check_call(&self, call: PyRef<'_, PyToolCall>) -> Option<PyCallProblem> {
        self.inner
            .check_call(&call.inner)
            .err()
            .map(|inner| PyCallProblem { inner })
    }

    /// The ``is_error`` result to send instead of running the call, or
    /// ``None`` when it can run.
    fn retry_result(&self, call: PyRef<'_, PyToolCall>) -> Option<PyToolResult> {
        self.inner
            .retry_result(&call.inner)
            .map(|inner| PyToolResult { inner })
    }

    /// The tool members of a request for ``vendor`` (``tools``,
    /// ``tool_choice``...), and what they could not carry.
    fn to_request(&self, py: Python<'_>, vendor_name: &str) -> PyResult<Converted> {
        Converted::new(
            py,
            self.inner.to_request_json(vendor(vendor_name)?),
            json_value,
        )
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __contains__(&self, name: &str) -> bool {
        self.inner.get(name).is_some()
    }

    fn __repr__(&self) -> String {
        format!("ToolSet({:?})", self.names())
    }
}
