//! JSON values between Python and `serde_json`, walked directly (no text in
//! between), keeping dict key order both ways.
//!
//! Python to JSON follows `json.dumps` where JSON has an answer: `str`, `int`,
//! `float`, `bool`, `None`, `dict` with `str` keys, `list` and `tuple` (and their
//! subclasses, so `str`-based enums are their value). It is stricter where
//! `json.dumps` writes something that is not JSON: `NaN` and infinities are
//! refused, and so are non-`str` keys. Integers beyond 64 bits become floats,
//! as `serde_json` reads such a number from text.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted from Python: deeper values are refused rather than
/// risking the stack (the core's own limits are far below: 256 levels at most).
pub(crate) const MAX_NESTING: usize = 1024;

/// A Python object as a JSON value.
pub(crate) fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    walk(obj, 0).map_err(Fail::into_err)
}

/// Why a conversion failed, and where: the path is collected while unwinding,
/// so the success path allocates nothing for it.
struct Fail {
    type_error: bool,
    message: String,
    reversed_path: Vec<String>,
}

impl Fail {
    fn new(type_error: bool, message: String) -> Self {
        Fail { type_error, message, reversed_path: Vec::new() }
    }

    fn py(err: PyErr) -> Self {
        Fail::new(false, err.to_string())
    }

    fn under(mut self, token: String) -> Self {
        self.reversed_path.push(token);
        self
    }

    fn into_err(self) -> PyErr {
        let at = if self.reversed_path.is_empty() {
            "at the root".to_owned()
        } else {
            let tokens = self.reversed_path.iter().rev();
            let pointer: String = tokens.map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1"))).collect();
            format!("at {pointer}")
        };
        let message = format!("{} ({at})", self.message);
        if self.type_error { PyTypeError::new_err(message) } else { PyValueError::new_err(message) }
    }
}

fn walk(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, Fail> {
    if depth > MAX_NESTING {
        return Err(Fail::new(false, format!("the value is nested more than {MAX_NESTING} levels deep")));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str().map_err(Fail::py)?.to_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::with_capacity(d.len());
        for (k, v) in d.iter() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(Fail::new(true, format!("JSON object keys must be str, not {}", type_name(&k))));
            };
            let key = key.to_str().map_err(Fail::py)?;
            let value = walk(&v, depth + 1).map_err(|f| f.under(key.to_owned()))?;
            map.insert(key.to_owned(), value);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let mut items = Vec::with_capacity(l.len());
        for (i, v) in l.iter().enumerate() {
            items.push(walk(&v, depth + 1).map_err(|f| f.under(i.to_string()))?);
        }
        return Ok(Value::Array(items));
    }
    // `bool` before `int`: `True` is an `int` in Python.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        if let Ok(n) = i.extract::<i64>() {
            return Ok(Value::from(n));
        }
        if let Ok(n) = i.extract::<u64>() {
            return Ok(Value::from(n));
        }
        let f: f64 = i.extract().map_err(|_| Fail::new(false, "the integer is too large for JSON".to_owned()))?;
        return finite(f);
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return finite(f.value());
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let mut items = Vec::with_capacity(t.len());
        for (i, v) in t.iter().enumerate() {
            items.push(walk(&v, depth + 1).map_err(|f| f.under(i.to_string()))?);
        }
        return Ok(Value::Array(items));
    }
    Err(Fail::new(true, format!("an object of type {} is not a JSON value", type_name(obj))))
}

fn finite(f: f64) -> Result<Value, Fail> {
    Number::from_f64(f).map(Value::Number).ok_or_else(|| Fail::new(false, format!("{f} is not a JSON number")))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A JSON value as plain Python objects (`dict`, `list`, `str`, `int`,
/// `float`, `bool`, `None`), key order kept.
pub(crate) fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(PyString::new(py, k), to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}
