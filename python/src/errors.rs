//! The core's errors as the Python exceptions of `schemacast._errors`, and back
//! (for `repair`, which needs the decode error it explains).

use crate::convert::{to_py, to_value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyModule, PyTuple};
use schemacast::{DecodeError, Violation};

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// A name of `schemacast._errors`: an exception class, or the `BY_KIND` registry.
fn member<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let module = ERRORS.get_or_try_init(py, || py.import("schemacast._errors").map(Bound::unbind))?;
    module.bind(py).getattr(name)
}

/// Builds an instance of the exception class `cls` with `message` and keyword fields.
fn raise(cls: PyResult<Bound<'_, PyAny>>, message: String, fields: &Bound<'_, PyDict>) -> PyErr {
    match cls.and_then(|cls| cls.call((message,), Some(fields))) {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// `SchemaError` with a kind and located problems `(pointer, message)`.
pub(crate) fn schema_error(py: Python<'_>, kind: &str, message: String, problems: &[(&str, &str)]) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let list = PyList::empty(py);
        for (pointer, what) in problems {
            list.append(PyTuple::new(py, [pointer, what])?)?;
        }
        let fields = PyDict::new(py);
        fields.set_item("kind", kind)?;
        fields.set_item("problems", list)?;
        Ok(raise(member(py, "SchemaError"), message, &fields))
    };
    build().unwrap_or_else(|e| e)
}

/// The core's compile error as `SchemaError`.
pub(crate) fn from_error(py: Python<'_>, e: &schemacast::Error) -> PyErr {
    let problems: Vec<(&str, &str)> = e.problems().iter().map(|p| (p.pointer.as_str(), p.message.as_str())).collect();
    schema_error(py, e.kind().as_str(), e.to_string(), &problems)
}

/// A decode error as the `DecodeError` subclass of its kind (`SchemaError` for a
/// schema that fails preflight). The kind is the core's (`DecodeError::kind`), and
/// the class is the one `schemacast._errors.BY_KIND` registers under it; a kind with
/// no class there (`deserialize`, which only the core's `decode_as` returns, or one
/// the core adds later) comes as the base class carrying the core's kind.
pub(crate) fn from_decode(py: Python<'_>, e: &DecodeError) -> PyErr {
    if let DecodeError::Schema(err) = e {
        return from_error(py, err);
    }
    let build = || -> PyResult<PyErr> {
        let fields = PyDict::new(py);
        match e {
            DecodeError::NoAnswer(detail) => fields.set_item("detail", detail)?,
            DecodeError::Refusal(text) | DecodeError::Truncated { text } => fields.set_item("text", text)?,
            DecodeError::NotJson { text, message } => {
                fields.set_item("text", text)?;
                fields.set_item("error", message)?;
            }
            DecodeError::Invalid { value, violations } => {
                fields.set_item("value", to_py(py, value)?)?;
                let list = PyList::empty(py);
                for v in violations {
                    let d = PyDict::new(py);
                    d.set_item("pointer", &v.pointer)?;
                    d.set_item("schema_pointer", &v.schema_pointer)?;
                    d.set_item("message", &v.message)?;
                    list.append(d)?;
                }
                fields.set_item("violations", list)?;
            }
            DecodeError::RepeatedKey { pointer, key } => {
                fields.set_item("pointer", pointer)?;
                fields.set_item("key", key)?;
            }
            // `Deserialize` and any later variant: no fields, only the kind and the message.
            _ => {}
        }
        let kind = e.kind();
        let registered = member(py, "BY_KIND")?.cast_into::<PyDict>()?.get_item(kind)?;
        let cls = match registered {
            Some(cls) => cls,
            None => {
                fields.set_item("kind", kind)?;
                member(py, "DecodeError")?
            }
        };
        Ok(raise(Ok(cls), e.to_string(), &fields))
    };
    build().unwrap_or_else(|err| err)
}

/// The core's decode error back from a `schemacast.DecodeError` instance, read
/// from its fields (so an unpickled or hand-made one works too).
pub(crate) fn to_decode(error: &Bound<'_, PyAny>) -> PyResult<DecodeError> {
    let py = error.py();
    if !error.is_instance(&member(py, "DecodeError")?)? {
        let got = error.get_type().name()?;
        return Err(PyTypeError::new_err(format!("error must be a schemacast.DecodeError, not {got}")));
    }
    let text = |field: &str| -> PyResult<String> { error.getattr(field)?.extract() };
    let kind: String = error.getattr("kind")?.extract()?;
    let rebuilt = match kind.as_str() {
        "no_answer" => DecodeError::NoAnswer(text("detail")?),
        "refusal" => DecodeError::Refusal(text("text")?),
        "truncated" => DecodeError::Truncated { text: text("text")? },
        "not_json" => DecodeError::NotJson { text: text("text")?, message: text("error")? },
        "schema_violation" => {
            let value = to_value(&error.getattr("value")?)?;
            let mut violations = Vec::new();
            for v in error.getattr("violations")?.try_iter()? {
                let v = v?;
                let field = |name: &str| -> PyResult<String> { v.get_item(name)?.extract() };
                violations.push(Violation {
                    pointer: field("pointer")?,
                    schema_pointer: field("schema_pointer")?,
                    message: field("message")?,
                });
            }
            DecodeError::Invalid { value, violations }
        }
        "repeated_key" => DecodeError::RepeatedKey { pointer: text("pointer")?, key: text("key")? },
        // No core variant carries a free message, so a plain `DecodeError` (a kind this
        // binding has no subclass for, or a hand-made one) has nothing to be rebuilt as.
        other => {
            return Err(PyValueError::new_err(format!("repair cannot rebuild a decode error of kind `{other}`")));
        }
    };
    // The arms above spell the core's kinds; the core names what they built, so an arm
    // whose kind the core renamed fails here instead of rebuilding under a stale name.
    if rebuilt.kind() != kind {
        return Err(PyValueError::new_err(format!(
            "repair rebuilt a decode error of kind `{kind}` as the core's `{}`",
            rebuilt.kind()
        )));
    }
    Ok(rebuilt)
}
