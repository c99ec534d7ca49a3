//! `PartialParser`: the crate's resumable parser and partial tree, fed
//! `str` or `bytes`, giving the completion events as small objects and the
//! monotone preview as plain Python values.

use std::collections::HashSet;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString};
use tooljson::parser::{DuplicateKeys, Limits, Parser};
use tooljson::partial::PartialParser;

use crate::convert::{Decimals, MAX_DEPTH, node_to_py, value_to_py};
use crate::errors::json_error;
use crate::events::ValueEvents;

/// The bytes of a `str`, `bytes`, `bytearray` or `memoryview` chunk.
pub fn chunk_bytes(chunk: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = chunk.cast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    if let Ok(b) = chunk.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = chunk.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    // memoryview and other buffers: through bytes(), which copies once.
    let builtins = chunk.py().import("builtins")?;
    if chunk.is_instance(&builtins.getattr("memoryview")?)? {
        let b = builtins.getattr("bytes")?.call1((chunk,))?;
        return Ok(b.cast::<PyBytes>()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "a chunk is str, bytes, bytearray or memoryview, not {}",
        chunk.get_type().name()?
    )))
}

/// Runs `f` with the chunk's bytes, borrowing `str` and `bytes` in place.
pub fn with_chunk<R>(chunk: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    if let Ok(b) = chunk.cast::<PyBytes>() {
        return Ok(f(b.as_bytes()));
    }
    if let Ok(s) = chunk.cast::<PyString>() {
        // The limited API of 3.9 has no borrowed UTF-8 view: one encode,
        // read in place (`to_cow` would copy it once more).
        let encoded = s.encode_utf8()?;
        return Ok(f(encoded.as_bytes()));
    }
    let owned = chunk_bytes(chunk)?;
    Ok(f(&owned))
}

/// A resumable JSON parser for one document (one tool call's arguments)
/// that arrives in pieces.
///
/// ``feed`` takes the next piece (``str`` or ``bytes``, split anywhere,
/// even inside a UTF-8 character or an escape) and returns what it
/// completed; ``snapshot`` gives the best-effort value so far; ``finish``
/// ends the input. Each byte is looked at once: a feed costs O(its piece).
///
/// The preview is monotone: a value never changes type once visible, a
/// visible number, ``true`` / ``false`` / ``null`` never changes, and a
/// string only grows by appending. Numbers appear once proven complete
/// (``12`` at the end of a piece may still become ``123``). A member
/// appears once its key is complete and its value has begun.
///
/// Errors are raised as ``TruncatedError`` (only from ``finish``),
/// ``InvalidJsonError``, ``TrailingDataError`` or ``LimitExceededError``,
/// each with ``offset``, ``line``, ``column`` and ``path``.
///
/// Example::
///
///     >>> p = PartialParser()
///     >>> p.feed('{"path": "a.txt", "content": "hel')
///     [Opened(path="", kind="object"), Opened(path="/path", kind="string"), ...]
///     >>> p.snapshot()
///     {'path': 'a.txt', 'content': 'hel'}
///     >>> events = p.feed('lo"}') + p.finish()
///     >>> events[-1].value
///     {'path': 'a.txt', 'content': 'hello'}
#[pyclass(module = "tooljson", name = "PartialParser")]
pub struct PyPartialParser {
    inner: PartialParser,
    decimals: Decimals,
    events: ValueEvents,
}

#[pymethods]
impl PyPartialParser {
    #[new]
    #[pyo3(signature = (
        *,
        max_depth = 128,
        max_input_bytes = 64 << 20,
        max_string_bytes = 16 << 20,
        max_number_bytes = 4096,
        duplicate_keys = "last",
        hold = None,
        decimals = "auto",
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        max_depth: usize,
        max_input_bytes: u64,
        max_string_bytes: usize,
        max_number_bytes: usize,
        duplicate_keys: &str,
        hold: Option<Vec<String>>,
        decimals: &str,
    ) -> PyResult<Self> {
        if max_depth > MAX_DEPTH {
            return Err(PyValueError::new_err(format!(
                "max_depth is at most {MAX_DEPTH} (the values are converted to Python recursively)"
            )));
        }
        let policy = match duplicate_keys {
            "last" => DuplicateKeys::LastWins,
            "first" => DuplicateKeys::FirstWins,
            "error" => DuplicateKeys::Error,
            other => {
                return Err(PyValueError::new_err(format!(
                    "duplicate_keys must be 'last', 'first' or 'error', not {other:?}"
                )));
            }
        };
        let limits = Limits {
            max_depth,
            max_input_bytes,
            max_string_bytes,
            max_number_bytes,
        };
        let mut inner = PartialParser::with_parser(Parser::with_limits(limits), true);
        inner.set_duplicate_keys(policy);
        if let Some(pointers) = hold {
            let held: HashSet<String> = pointers.into_iter().collect();
            inner.hold_strings(move |path| held.contains(&path.to_string()));
        }
        Ok(PyPartialParser {
            inner,
            decimals: Decimals::parse(decimals)?,
            events: ValueEvents::default(),
        })
    }

    /// Feeds the next piece (``str``, ``bytes``, ``bytearray`` or
    /// ``memoryview``) and returns its events in document order:
    /// ``Opened``, ``Appended`` and ``Completed``. An empty piece is just
    /// an empty piece.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let inner = &mut self.inner;
        with_chunk(chunk, |bytes| {
            self.events
                .collect(py, self.decimals, |sink| inner.feed(bytes, sink))
        })?
    }

    /// Ends the input and returns the last events (a number or literal at
    /// the very end completes here). Raises ``TruncatedError`` when the
    /// input ended inside the value.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let inner = &mut self.inner;
        self.events
            .collect(py, self.decimals, |sink| inner.finish(sink))
    }

    /// The best-effort value so far as plain Python objects, or ``None``
    /// before anything is visible. Builds a new object each call, O(the
    /// value's size): for a preview per delta, apply the events instead,
    /// or call this at the rate the screen redraws. An object that repeats
    /// a key shows its latest value under that key (a ``dict`` holds one
    /// per key), the one place where a preview can replace what it showed.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .snapshot()
            .map(|node| node_to_py(py, node, self.decimals, 0))
            .transpose()
    }

    /// The preview so far as compact JSON text (strings open so far are
    /// closed), or ``None`` before anything is visible.
    fn snapshot_json(&self) -> Option<String> {
        self.inner.snapshot().map(|node| node.to_string())
    }

    /// The finished value, once the root has closed (else ``None``, which
    /// is also the value of a finished JSON ``null``: see ``is_complete``).
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .value()
            .map(|v| value_to_py(py, v, self.decimals))
            .transpose()
    }

    /// Whether the root value has closed.
    #[getter]
    fn is_complete(&self) -> bool {
        self.inner.value().is_some()
    }

    /// Bytes read so far.
    #[getter]
    fn offset(&self) -> u64 {
        self.inner.parser().offset()
    }

    /// How many arrays and objects are open.
    #[getter]
    fn depth(&self) -> usize {
        self.inner.parser().depth()
    }

    /// An upper estimate of the bytes the partial tree holds.
    #[getter]
    fn held_bytes(&self) -> u64 {
        self.inner.held_bytes()
    }

    /// Starts over for the next document, keeping the configuration.
    fn reset(&mut self) {
        self.inner.reset();
    }

    fn __repr__(&self) -> String {
        format!(
            "PartialParser(offset={}, complete={})",
            self.inner.parser().offset(),
            self.inner.value().is_some()
        )
    }
}

/// Parses one complete JSON text (``str`` or ``bytes``) strictly, with the
/// default limits: the one-shot form of ``PartialParser``.
#[pyfunction]
#[pyo3(signature = (text, *, decimals = "auto"))]
pub fn loads<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    decimals: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let decimals = Decimals::parse(decimals)?;
    let value = with_chunk(text, tooljson::from_slice)?.map_err(|e| json_error(py, &e))?;
    value_to_py(py, &value, decimals)
}
