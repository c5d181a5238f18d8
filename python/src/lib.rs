//! `schemacast._native`: the Python binding of the schemacast crate.
//!
//! Layer 8 of the architecture (an entry point): it converts Python values to
//! JSON and back, maps keyword arguments onto `Options`, and the core's errors
//! onto the exceptions of `schemacast._errors`. Nothing here decides anything
//! about schemas or providers.

mod args;
mod convert;
mod errors;
mod stream;

use args::{response_arg, schema_arg, value_arg};
use convert::to_py;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};
use schemacast::{ClaudeMechanism, Draft, GeminiDialect, Mode, Options, Provider};
use std::str::FromStr;

fn compile_error(py: Python<'_>) -> impl Fn(schemacast::Error) -> PyErr + '_ {
    move |e| errors::from_error(py, &e)
}

/// A compiled structured-output request fragment for one provider and mode.
///
/// Immutable and thread-safe: compile once, keep it, and use it from any
/// thread. Every property returns a fresh plain `dict`/`list`/`str`.
#[pyclass(frozen, module = "schemacast", name = "Emission")]
struct PyEmission {
    inner: schemacast::Emission,
}

#[pymethods]
impl PyEmission {
    /// The JSON object to deep-merge into the provider request body
    /// (`client.create(..., **emission.body)`).
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.inner.body())
    }

    /// HTTP headers to add to the request (usually none).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.headers() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// How strongly the provider enforces the schema: `exact`, `widened`,
    /// `json`, `prompt` or `none`.
    #[getter]
    fn enforcement(&self) -> &'static str {
        self.inner.enforcement().as_str()
    }

    /// Every keyword dropped or rewritten, every fallback and why, as
    /// `{"pointer", "keyword", "action", "reason"}` dicts.
    #[getter]
    fn notes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for note in self.inner.notes() {
            list.append(to_py(py, &note.to_json())?)?;
        }
        Ok(list)
    }

    /// What the provider may return, as a JSON Schema, or `None` when nothing
    /// native constrains the answer.
    #[getter]
    fn native_schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.native_schema() {
            Some(v) => to_py(py, &v),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// The provider's name (`openai`, `gemini`, …).
    #[getter]
    fn provider(&self) -> &'static str {
        self.inner.provider().name()
    }

    /// The mode: `schema`, `json` or `text`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.inner.mode().name()
    }

    /// Whether reversible rewrites shape the answers (`decode` undoes them).
    #[getter]
    fn reshaped(&self) -> bool {
        self.inner.is_reshaped()
    }

    /// The caller's schema, or `None` for an emission without one.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.source_schema() {
            Some(v) => to_py(py, v),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// Reads the provider's whole response (a `dict`, a JSON string, or the
    /// SDK's response object), validates the answer against the schema, and
    /// returns it; with `model`, as `model.model_validate(answer)`.
    #[pyo3(signature = (response, *, model = None))]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        response: &Bound<'py, PyAny>,
        model: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let answer = self.answer(py, response)?;
        answer_value(py, &answer, model)
    }

    /// `decode`, with why the provider stopped: an `Answer` whose `value` is
    /// what `decode` returns and whose `finish_reason` is the core's name for it.
    #[pyo3(signature = (response, *, model = None))]
    fn decode_answer<'py>(
        &self,
        py: Python<'py>,
        response: &Bound<'py, PyAny>,
        model: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyAnswer> {
        let answer = self.answer(py, response)?;
        let value = answer_value(py, &answer, model)?.unbind();
        Ok(PyAnswer { value, finish_reason: answer.finish_reason().to_string() })
    }

    /// A decoder for this emission's answer streamed by the provider: `push`
    /// each event (or `feed` raw response bytes), read `Partial`s, then `finish`.
    fn stream(slf: &Bound<'_, Self>) -> stream::PyStream {
        stream::PyStream::new(slf.clone().unbind())
    }

    /// This provider's streaming events (plain dicts) for a response carrying
    /// `answer`, its JSON text cut into pieces of `piece_len` bytes: for tests
    /// without the network.
    #[pyo3(signature = (answer, piece_len = 16))]
    fn events_for<'py>(
        &self,
        py: Python<'py>,
        answer: &Bound<'py, PyAny>,
        piece_len: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        stream::events_for(py, &self.inner, answer, piece_len)
    }

    /// A minimal successful response body of this provider's shape carrying
    /// `answer` (reshaped when the emission reshapes): for tests without the network.
    fn response_for<'py>(&self, py: Python<'py>, answer: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let answer = value_arg(py, answer)?;
        to_py(py, &self.inner.response_for(&answer))
    }

    /// Validates `value` against the schema as this emission reads it (its
    /// draft, documents and format assertion); raises `SchemaViolation`
    /// listing every violation.
    fn validate(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = value_arg(py, value)?;
        py.detach(|| self.inner.validate(&value)).map_err(|e| errors::from_decode(py, &e))
    }

    /// The closed-world projection of `value`: what the provider may return
    /// for it (undeclared keys of closable objects dropped, unions closed,
    /// provably valid defaults filled in).
    fn project<'py>(&self, py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let value = value_arg(py, value)?;
        let projected = py.detach(|| self.inner.project(&value));
        to_py(py, &projected)
    }

    /// The whole emission as a dict `{"provider", "mode", "enforcement",
    /// "body", "headers", "notes"}` (the CLI's output).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.to_json())
    }

    /// `to_dict()` as JSON text, compact or indented by `indent` spaces.
    #[pyo3(signature = (*, indent = None))]
    fn to_json(&self, indent: Option<usize>) -> String {
        let value = self.inner.to_json();
        match indent {
            None => value.to_string(),
            Some(n) => {
                let spaces = vec![b' '; n];
                let mut out = Vec::new();
                let formatter = serde_json::ser::PrettyFormatter::with_indent(&spaces);
                let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
                // Serializing a `Value` into memory cannot fail.
                let _ = serde::Serialize::serialize(&value, &mut ser);
                String::from_utf8(out).unwrap_or_default()
            }
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<Emission provider={:?} mode={:?} enforcement={:?} notes={}>",
            self.inner.provider().name(),
            self.inner.mode().name(),
            self.inner.enforcement().as_str(),
            self.inner.notes().len()
        )
    }
}

impl PyEmission {
    /// The core's decode of a response argument.
    fn answer(&self, py: Python<'_>, response: &Bound<'_, PyAny>) -> PyResult<schemacast::Answer> {
        let body = response_arg(py, response)?;
        py.detach(|| self.inner.decode(&body)).map_err(|e| errors::from_decode(py, &e))
    }
}

/// The answer's value as Python objects; with `model`, as `model.model_validate(value)`.
fn answer_value<'py>(
    py: Python<'py>,
    answer: &schemacast::Answer,
    model: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let value = to_py(py, answer.value())?;
    match model {
        None => Ok(value),
        Some(m) => validate_model(py, m, &value),
    }
}

/// A decoded answer and why the provider stopped (`Emission.decode_answer`).
#[pyclass(frozen, module = "schemacast", name = "Answer")]
struct PyAnswer {
    value: Py<PyAny>,
    finish_reason: String,
}

#[pymethods]
impl PyAnswer {
    /// The validated answer (a `model` instance when one was given); the same
    /// object on each access.
    #[getter]
    fn value(&self, py: Python<'_>) -> Py<PyAny> {
        self.value.clone_ref(py)
    }

    /// Why the provider stopped: `stop`, `length`, `tool_calls`, `content_filter`,
    /// `refusal`, or the provider's own value for any other reason.
    #[getter]
    fn finish_reason(&self) -> &str {
        &self.finish_reason
    }

    /// `Answer[T]` in annotations evaluated at run time, as for a generic class.
    #[classmethod]
    fn __class_getitem__<'py>(cls: &Bound<'py, PyType>, item: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        cls.py().import("types")?.getattr("GenericAlias")?.call1((cls, item))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<Answer finish_reason={:?} value={}>", self.finish_reason, self.value.bind(py).repr()?))
    }
}

fn validate_model<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(method) = model.getattr(pyo3::intern!(py, "model_validate")) {
        return method.call1((value,));
    }
    if let Ok(method) = model.getattr(pyo3::intern!(py, "validate_python")) {
        return method.call1((value,));
    }
    Err(PyTypeError::new_err(format!(
        "model must be a Pydantic model class or TypeAdapter, not {}",
        model.get_type().name()?
    )))
}

fn parse<T: FromStr<Err = schemacast::Error>>(py: Python<'_>, s: &str) -> PyResult<T> {
    T::from_str(s).map_err(compile_error(py))
}

/// `set(opts, value)` when the caller gave `value`; otherwise `opts` as they are,
/// with the core's default.
fn given<T>(opts: Options, value: Option<T>, set: impl FnOnce(Options, T) -> Options) -> Options {
    match value {
        Some(v) => set(opts, v),
        None => opts,
    }
}

/// Compiles `schema` for `provider` into an `Emission`. An option left `None`
/// is not set, so it keeps the core's default (`Options::new`).
#[pyfunction]
#[pyo3(signature = (
    schema, provider, *, mode = None, name = None, reshape = None, closed_world = None,
    union_closing = None, default_filling = None, format_assertion = None,
    deny_unknown_keywords = None, gemini_dialect = None, claude_mechanism = None,
    claude_json_tool = None, claude_thinking = None, default_draft = None, resources = None, base_uri = None,
    max_depth = None, max_nodes = None, max_enum = None
))]
#[allow(clippy::too_many_arguments)]
fn emit(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    provider: &str,
    mode: Option<&str>,
    name: Option<String>,
    reshape: Option<bool>,
    closed_world: Option<bool>,
    union_closing: Option<bool>,
    default_filling: Option<bool>,
    format_assertion: Option<bool>,
    deny_unknown_keywords: Option<bool>,
    gemini_dialect: Option<&str>,
    claude_mechanism: Option<&str>,
    claude_json_tool: Option<bool>,
    claude_thinking: Option<bool>,
    default_draft: Option<&Bound<'_, PyAny>>,
    resources: Option<&Bound<'_, PyDict>>,
    base_uri: Option<String>,
    max_depth: Option<usize>,
    max_nodes: Option<usize>,
    max_enum: Option<usize>,
) -> PyResult<PyEmission> {
    let provider: Provider = parse(py, provider)?;
    let mode = mode.map(|m| parse::<Mode>(py, m)).transpose()?;
    let gemini_dialect = gemini_dialect.map(|d| parse::<GeminiDialect>(py, d)).transpose()?;
    let claude_mechanism = claude_mechanism.map(|m| parse::<ClaudeMechanism>(py, m)).transpose()?;
    // `7` and `"7"` alike.
    let default_draft = default_draft.map(|d| parse::<Draft>(py, &d.str()?.to_string())).transpose()?;
    let mut opts = Options::new(provider);
    opts = given(opts, mode, Options::with_mode);
    opts = given(opts, reshape, Options::with_reshape);
    opts = given(opts, closed_world, Options::with_closed_world);
    opts = given(opts, union_closing, Options::with_union_closing);
    opts = given(opts, default_filling, Options::with_default_filling);
    opts = given(opts, format_assertion, Options::with_format_assertion);
    opts = given(opts, deny_unknown_keywords, Options::with_deny_unknown_keywords);
    opts = given(opts, gemini_dialect, Options::with_gemini_dialect);
    opts = given(opts, claude_mechanism, Options::with_claude_mechanism);
    opts = given(opts, claude_json_tool, Options::with_claude_json_tool);
    opts = given(opts, claude_thinking, Options::with_claude_thinking);
    opts = given(opts, default_draft, Options::with_default_draft);
    if let Some(res) = resources {
        for (uri, document) in res.iter() {
            let uri: String = uri.extract().map_err(|_| PyTypeError::new_err("resources keys must be str URIs"))?;
            let (doc, _) = schema_arg(py, &document)?;
            opts = opts.with_resource(uri, doc);
        }
    }
    opts = given(opts, base_uri, Options::with_base_uri);
    opts = given(opts, max_depth, Options::with_max_depth);
    opts = given(opts, max_nodes, Options::with_max_nodes);
    opts = given(opts, max_enum, Options::with_max_enum);
    let (schema, model_name) = if schema.is_none() {
        (None, None)
    } else {
        let (s, n) = schema_arg(py, schema)?;
        (Some(s), n)
    };
    opts = match (name, model_name) {
        (Some(n), _) => opts.with_name(n),
        // A model class's name, made a schema name by the core's rule.
        (None, Some(m)) => opts.with_name_from(&m),
        (None, None) => opts,
    };
    let compiled = py.detach(|| match &schema {
        Some(s) => opts.compile(s),
        None => opts.compile_without_schema(),
    });
    compiled.map(|inner| PyEmission { inner }).map_err(compile_error(py))
}

/// Validates `value` against `schema` with the local validator; raises
/// `SchemaViolation` listing every violation.
#[pyfunction]
fn validate(py: Python<'_>, schema: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let (schema, _) = schema_arg(py, schema)?;
    let value = value_arg(py, value)?;
    py.detach(|| schemacast::validate(&schema, &value)).map_err(|e| errors::from_decode(py, &e))
}

/// The prompt text that asks for JSON conforming to `schema`.
#[pyfunction]
fn instruction(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<String> {
    let (schema, _) = schema_arg(py, schema)?;
    Ok(schemacast::instruction(&schema))
}

/// The message for one repair round trip: what was wrong with `bad_output`
/// (`error`, a `DecodeError`), and the instruction again.
#[pyfunction]
fn repair(py: Python<'_>, schema: &Bound<'_, PyAny>, bad_output: &str, error: &Bound<'_, PyAny>) -> PyResult<String> {
    let (schema, _) = schema_arg(py, schema)?;
    let error = errors::to_decode(error)?;
    Ok(schemacast::repair(&schema, bad_output, &error))
}

/// The closed-world projection of `value` under `schema` (no validation).
#[pyfunction]
fn project<'py>(py: Python<'py>, schema: &Bound<'py, PyAny>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let (schema, _) = schema_arg(py, schema)?;
    let value = value_arg(py, value)?;
    let projected = py.detach(|| schemacast::project(&schema, &value));
    to_py(py, &projected)
}

/// Every provider and what it enforces, in table order.
#[pyfunction]
fn providers(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for p in Provider::ALL {
        let d = to_py(py, &p.info().to_json())?;
        list.append(d)?;
    }
    Ok(list)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyEmission>()?;
    m.add_class::<PyAnswer>()?;
    m.add_class::<stream::PyStream>()?;
    m.add_class::<stream::PyPartial>()?;
    m.add_class::<stream::PyEarlyError>()?;
    m.add_function(wrap_pyfunction!(emit, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(instruction, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(project, m)?)?;
    m.add_function(wrap_pyfunction!(providers, m)?)?;
    Ok(())
}
