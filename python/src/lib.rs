//! The Python binding of tooljson (`import tooljson`): a thin PyO3 layer
//! over the same core. Values cross as plain `dict` / `list` / `str` /
//! `int` / `float` / `decimal.Decimal`; errors as the exceptions of
//! `errors.rs`. The Python package (`tooljson/__init__.py`) re-exports
//! this module and adds the async helper.

// As in the crate: the unsafe code is PyO3's, none of it written here.
#![forbid(unsafe_code)]

mod convert;
mod errors;
mod events;
mod partial;
mod protocol;
mod stream;

use pyo3::prelude::*;

#[pymodule]
fn _tooljson(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<partial::PyPartialParser>()?;
    m.add_class::<events::Opened>()?;
    m.add_class::<events::Appended>()?;
    m.add_class::<events::Completed>()?;
    m.add_function(wrap_pyfunction!(partial::loads, m)?)?;
    m.add_class::<protocol::PyToolSet>()?;
    m.add_class::<protocol::PyToolCall>()?;
    m.add_class::<protocol::PyCallProblem>()?;
    m.add_class::<protocol::PyViolation>()?;
    m.add_class::<protocol::PyToolResult>()?;
    m.add_class::<protocol::PyToolResults>()?;
    m.add_class::<protocol::PyAssistantTurn>()?;
    m.add_class::<protocol::PyRequest>()?;
    m.add_class::<protocol::PyLoss>()?;
    m.add_class::<protocol::Converted>()?;
    m.add_class::<stream::PyToolCallStream>()?;
    m.add_class::<stream::PyStreamedCall>()?;
    m.add_class::<events::PyStreamEvent>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
