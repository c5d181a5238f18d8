//! Reading Python arguments as JSON: schemas (dicts, JSON texts, Pydantic
//! models and `TypeAdapter`s), values, whole responses and stream events (SDK
//! objects, dicts, JSON texts).

use crate::convert::to_value;
use crate::errors;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;

/// A JSON text (from `str`, `bytes` or `bytearray`), or `None` for other objects.
fn json_text(obj: &Bound<'_, PyAny>) -> PyResult<Option<Result<Value, serde_json::Error>>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(serde_json::from_str(s.to_str()?)));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Some(serde_json::from_slice(b.as_bytes())));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Some(serde_json::from_slice(&b.to_vec())));
    }
    Ok(None)
}

/// A schema argument: a JSON value (a `dict` or `bool` schema, or any other
/// JSON value, which the core reports as not a schema), a JSON text, a Pydantic
/// model class (anything with `model_json_schema()`), or a Pydantic
/// `TypeAdapter` (`json_schema()`). Returns the schema and, for a model class,
/// its name.
pub(crate) fn schema_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<(Value, Option<String>)> {
    if let Some(parsed) = json_text(obj)? {
        return parsed.map(|v| (v, None)).map_err(|e| errors::from_error(py, &schemacast::Error::not_json(&e)));
    }
    if obj.cast::<PyDict>().is_ok()
        || obj.cast::<PyBool>().is_ok()
        || obj.cast::<PyList>().is_ok()
        || obj.cast::<PyTuple>().is_ok()
        || obj.cast::<PyInt>().is_ok()
        || obj.cast::<PyFloat>().is_ok()
    {
        // Any JSON value: what is not a schema is the core's `invalid_schema`.
        return Ok((to_value(obj)?, None));
    }
    if let Ok(method) = obj.getattr(pyo3::intern!(py, "model_json_schema")) {
        let schema = to_value(&method.call0()?)?;
        let name = obj.getattr(pyo3::intern!(py, "__name__")).and_then(|n| n.extract::<String>()).ok();
        return Ok((schema, name));
    }
    if obj.hasattr(pyo3::intern!(py, "validate_python"))?
        && let Ok(method) = obj.getattr(pyo3::intern!(py, "json_schema"))
    {
        return Ok((to_value(&method.call0()?)?, None));
    }
    Err(PyTypeError::new_err(format!(
        "schema must be a dict, a bool, a JSON string or a Pydantic model class, not {}",
        obj.get_type().name()?
    )))
}

/// A JSON value argument: plain JSON, or a Pydantic model instance (dumped
/// in JSON mode, by alias, as its schema names the fields).
pub(crate) fn value_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    match to_value(obj) {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyTypeError>(py) && obj.hasattr(pyo3::intern!(py, "model_dump"))? => {
            to_value(&dump(py, obj, false)?)
        }
        Err(e) => Err(e),
    }
}

/// `model_dump(mode="json", by_alias=True)`, optionally without `None` fields.
fn dump<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>, exclude_none: bool) -> PyResult<Bound<'py, PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("mode", "json")?;
    kwargs.set_item("by_alias", true)?;
    if exclude_none {
        kwargs.set_item("exclude_none", true)?;
    }
    obj.call_method(pyo3::intern!(py, "model_dump"), (), Some(&kwargs))
}

/// A response argument: a `dict`, a JSON text, or an SDK response object
/// ([`sdk_object`]).
pub(crate) fn response_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Some(parsed) = json_text(obj)? {
        return parsed.map_err(|e| {
            errors::from_decode(py, &schemacast::DecodeError::NoAnswer(format!("the response body is not JSON: {e}")))
        });
    }
    sdk_object(py, obj)?.ok_or_else(|| {
        let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        PyTypeError::new_err(format!("response must be a dict, a JSON string or an SDK response object, not {name}"))
    })
}

/// One streaming event given as an object: a `dict`, or an SDK's chunk or
/// event object ([`sdk_object`]; text events are read by the stream itself).
pub(crate) fn event_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    sdk_object(py, obj)?.ok_or_else(|| {
        let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        PyTypeError::new_err(format!(
            "event must be a dict, a str or bytes (an SSE data field), or an SDK event object, not {name}"
        ))
    })
}

/// A `dict`, or an SDK's response, chunk or event object as its wire JSON: a
/// Pydantic model dumped by alias without `None` fields (the alias is the wire
/// spelling: camelCase for google-genai), or anything with `to_dict()`;
/// `None` for anything else.
fn sdk_object(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    if obj.cast::<PyDict>().is_ok() {
        return to_value(obj).map(Some);
    }
    if obj.hasattr(pyo3::intern!(py, "model_dump"))? {
        return to_value(&dump(py, obj, true)?).map(Some);
    }
    if let Ok(method) = obj.getattr(pyo3::intern!(py, "to_dict")) {
        return to_value(&method.call0()?).map(Some);
    }
    Ok(None)
}
