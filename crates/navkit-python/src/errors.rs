//! `navkit.NavError`, and the conversions of the library's errors into it.

use pyo3::PyErr;

pyo3::create_exception!(
    navkit,
    NavError,
    pyo3::exceptions::PyValueError,
    "A file navkit cannot read, or a question it cannot answer. The message is the command-line \
     tool's one line: what is wrong, the field and the byte offset."
);

/// A [`NavError`] carrying `message`.
pub(crate) fn nav_error(message: impl std::fmt::Display) -> PyErr {
    NavError::new_err(message.to_string())
}

/// A [`NavError`] for the state lock being poisoned, which only a panic in this crate causes.
pub(crate) fn poisoned<T>(_: T) -> PyErr {
    NavError::new_err("navkit: an earlier call on this Navmesh failed inside; open it again")
}
