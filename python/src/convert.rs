//! Values between Rust and Python: the crate's `Value` (the protocol
//! layer's too) and `PartialNode`, and `serde_json::Value` (event members),
//! to plain `dict` / `list` / `str` / `int` / `float` / `decimal.Decimal` /
//! `None`, and Python objects back to `Value`.
//!
//! Every walk here recurses once per level of nesting, so each is bounded by
//! [`MAX_DEPTH`]: a Python object nested deeper (or holding itself) is a
//! `ValueError`, never a stack overflow.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use tooljson::partial::PartialNode;
use tooljson::{Number, Value};

/// The deepest nesting converted in either direction (the parser's own
/// default limit is 128; a caller may raise it up to this).
pub const MAX_DEPTH: usize = 1024;

static DECIMAL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn decimal_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    DECIMAL
        .get_or_try_init(py, || {
            py.import("decimal")?.getattr("Decimal").map(Bound::unbind)
        })
        .map(|t| t.bind(py))
}

/// How numbers that are not integers become Python objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decimals {
    /// `float` when a float holds the written value exactly as written
    /// (shortest round trip), `decimal.Decimal` otherwise (`1e400`,
    /// `0.1000000000000000000001`).
    Auto,
    /// Always `decimal.Decimal`.
    Always,
    /// Always `float` (`1e400` is `inf`, as `json.loads` gives).
    Never,
}

impl Decimals {
    pub fn parse(s: &str) -> PyResult<Decimals> {
        match s {
            "auto" => Ok(Decimals::Auto),
            "always" => Ok(Decimals::Always),
            "never" => Ok(Decimals::Never),
            _ => Err(PyValueError::new_err(format!(
                "decimals must be 'auto', 'always' or 'never', not {s:?}"
            ))),
        }
    }
}

/// A JSON number: integers as `int` (any size), others per `decimals`.
pub fn number_to_py<'py>(
    py: Python<'py>,
    n: &Number,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    if n.is_integer() {
        if let Some(i) = n.as_i64() {
            return Ok(i.into_pyobject(py)?.into_any());
        }
        if let Some(u) = n.as_u64() {
            return Ok(u.into_pyobject(py)?.into_any());
        }
        // Beyond 64 bits: Python's int reads the digits; past its
        // digit limit for str -> int (4300 by default), the exact Decimal.
        return match py.get_type::<PyInt>().call1((n.as_str(),)) {
            Ok(i) => Ok(i),
            Err(_) => decimal_type(py)?.call1((n.as_str(),)),
        };
    }
    let f = n.as_f64().unwrap_or(f64::INFINITY);
    let float = match decimals {
        Decimals::Never => true,
        Decimals::Always => false,
        Decimals::Auto => f.is_finite() && float_is_exact(n.as_str(), f),
    };
    if !float {
        // Decimal refuses exponents past its own bound (`1e99999999999999999999`);
        // such a number is the float it rounds to (inf or 0.0), as `json.loads` gives.
        if let Ok(d) = decimal_type(py)?.call1((n.as_str(),)) {
            return Ok(d);
        }
    }
    Ok(PyFloat::new(py, f).into_any())
}

/// Whether `f` (the nearest float to `lexeme`) prints as the same decimal
/// value as `lexeme`: then nothing written is lost by taking the float.
fn float_is_exact(lexeme: &str, f: f64) -> bool {
    match (normalize(lexeme), normalize(&format!("{f:e}"))) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// A decimal text as (negative, significant digits, exponent) with the
/// value `0.digits × 10^exponent`; zero has no digits (and no sign).
fn normalize(text: &str) -> Option<(bool, String, i64)> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = int.chars().chain(frac.chars()).collect();
    let mut exp = exp.checked_add(i64::try_from(int.len()).ok()?)?;
    let lead = digits.len() - digits.trim_start_matches('0').len();
    digits.drain(..lead);
    exp = exp.checked_sub(i64::try_from(lead).ok()?)?;
    let kept = digits.trim_end_matches('0').len();
    digits.truncate(kept);
    if digits.is_empty() {
        return Some((false, digits, 0));
    }
    Some((neg, digits, exp))
}

/// The crate's `Value` as plain Python objects.
pub fn value_to_py<'py>(
    py: Python<'py>,
    v: &Value,
    decimals: Decimals,
) -> PyResult<Bound<'py, PyAny>> {
    value_to_py_at(py, v, decimals, 0)
}

fn too_deep() -> PyErr {
    PyValueError::new_err(format!(
        "a value nested deeper than {MAX_DEPTH} levels cannot be converted"
    ))
}

fn value_to_py_at<'py>(
    py: Python<'py>,
    v: &Value,
    decimals: Decimals,
    depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => number_to_py(py, n, decimals)?,
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_py_at(py, item, decimals, depth + 1)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map.iter() {
                dict.set_item(k, value_to_py_at(py, item, decimals, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}

/// A node of the partial tree as plain Python objects: open strings as
/// their text so far, open containers with their visible children.
pub fn node_to_py<'py>(
    py: Python<'py>,
    node: &PartialNode,
    decimals: Decimals,
    depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    Ok(match node {
        PartialNode::Complete(v) => value_to_py_at(py, v, decimals, depth)?,
        PartialNode::String(s) => PyString::new(py, s).into_any(),
        PartialNode::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(node_to_py(py, item, decimals, depth + 1)?)?;
            }
            list.into_any()
        }
        PartialNode::Object(members) => {
            let dict = PyDict::new(py);
            for (k, item) in members {
                dict.set_item(k, node_to_py(py, item, decimals, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}

/// JSON as plain Python objects, members in their order: the protocol's
/// [`Value`] (numbers per [`Decimals::Auto`]: a float when it holds the
/// number as written, else a `Decimal`), or an event's `serde_json::Value`.
pub fn json_to_py<'py, J: JsonToPy + ?Sized>(
    py: Python<'py>,
    v: &J,
) -> PyResult<Bound<'py, PyAny>> {
    v.to_py(py)
}

/// JSON that [`json_to_py`] converts.
pub trait JsonToPy {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

impl JsonToPy for Value {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        value_to_py(py, self, Decimals::Auto)
    }
}

impl JsonToPy for serde_json::Value {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py_at(py, self, 0)
    }
}

fn json_to_py_at<'py>(
    py: Python<'py>,
    v: &serde_json::Value,
    depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    Ok(match v {
        serde_json::Value::Null => py.None().into_bound(py),
        serde_json::Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        serde_json::Value::String(s) => PyString::new(py, s).into_any(),
        serde_json::Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py_at(py, item, depth + 1)?)?;
            }
            list.into_any()
        }
        serde_json::Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py_at(py, item, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}

/// A Python object as a [`Value`]: `dict` with `str` keys, `list` /
/// `tuple`, `str`, `bool`, `int` (any size: its digits), finite `float`,
/// `decimal.Decimal` (its text, as written), `None`. Anything else is a
/// `TypeError`.
pub fn py_to_json(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    py_to_json_at(obj, 0)
}

fn py_to_json_at(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    use Value as J;
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    if obj.is_none() {
        return Ok(J::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(J::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(J::String(s.to_cow()?.into_owned()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(J::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(J::from(u));
        }
        // Beyond 64 bits: the digits, as a JSON number keeps them.
        let text = obj.str()?.to_cow()?.into_owned();
        return Number::from_lexeme(&text)
            .map(J::Number)
            .ok_or_else(|| PyValueError::new_err(format!("int {text} is not a JSON number")));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let f = f.value();
        return Number::from_f64(f)
            .map(J::Number)
            .ok_or_else(|| PyValueError::new_err(format!("{f} is not a JSON number")));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = tooljson::Map::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key = k
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err("JSON object keys must be str"))?
                .to_cow()?
                .into_owned();
            map.insert(key, py_to_json_at(&v, depth + 1)?);
        }
        return Ok(J::Object(map));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let mut items = Vec::with_capacity(l.len());
        for v in l.iter() {
            items.push(py_to_json_at(&v, depth + 1)?);
        }
        return Ok(J::Array(items));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let mut items = Vec::with_capacity(t.len());
        for v in t.iter() {
            items.push(py_to_json_at(&v, depth + 1)?);
        }
        return Ok(J::Array(items));
    }
    if obj.is_instance(decimal_type(obj.py())?)? {
        let text = obj.str()?.to_cow()?.into_owned();
        return Number::from_lexeme(&text)
            .map(J::Number)
            .ok_or_else(|| PyValueError::new_err(format!("Decimal {text} is not a JSON number")));
    }
    Err(PyTypeError::new_err(format!(
        "{} is not JSON (dict, list, tuple, str, int, float, bool, None or Decimal)",
        obj.get_type().name()?
    )))
}
