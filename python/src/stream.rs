//! Streaming in Python: `Emission.stream()` gives a `Stream`, fed one provider
//! event at a time (an SDK's chunk or event object, a `dict`, or one SSE
//! `data:` text) or raw response bytes, which says after each what the answer
//! is so far and ends exactly as `Emission.decode` of the whole response.
//!
//! The core's `StreamDecoder` borrows its `Emission`; here the two live in one
//! `self_cell` (the emission's Python object is the owner), so a `Stream` is an
//! ordinary Python object. The `unsafe` blocks that make the self-reference
//! come from self_cell's macro (written and miri-tested there); this crate
//! writes none, and its `forbid(unsafe_code)` does not reach another crate's
//! macro.

use crate::args::{event_arg, value_arg};
use crate::convert::to_py;
use crate::{PyAnswer, PyEmission, answer_value, errors};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use schemacast::{EventSplitter, StreamDecoder, StreamEvent};
use serde_json::Value;

type Decoder<'e> = StreamDecoder<'e>;

self_cell::self_cell!(
    /// The emission's Python object and the decoder borrowing its `Emission`.
    struct Cell {
        owner: Py<PyEmission>,
        #[covariant]
        dependent: Decoder,
    }
);

/// What one event (or chunk of events) told, copied out of the decoder.
struct Seen {
    completed: Vec<String>,
    open: Option<String>,
    error: Option<PyEarlyError>,
}

fn seen(partial: &schemacast::Partial<'_>) -> Seen {
    Seen {
        completed: partial.completed().map(str::to_owned).collect(),
        open: partial.open(),
        error: partial.error().map(|e| PyEarlyError {
            kind: e.kind(),
            pointer: e.pointer().map(str::to_owned),
            message: e.to_string(),
        }),
    }
}

/// A streamed answer being decoded (`Emission.stream()`).
#[pyclass(module = "schemacast", name = "Stream")]
pub(crate) struct PyStream {
    /// `None` once finished.
    cell: Option<Cell>,
    splitter: EventSplitter,
    /// Pushes and feeds so far: a `Partial` answers for the stream only while it is current.
    events: u64,
}

impl PyStream {
    pub(crate) fn new(emission: Py<PyEmission>) -> PyStream {
        PyStream {
            cell: Some(Cell::new(emission, |owner| owner.get().inner.stream())),
            splitter: EventSplitter::new(),
            events: 0,
        }
    }

    fn cell(&mut self) -> PyResult<&mut Cell> {
        self.cell.as_mut().ok_or_else(|| PyRuntimeError::new_err("this Stream is finished"))
    }

    /// Runs `run` (which pushes one event or a chunk's events) on the decoder,
    /// and returns what it told as this stream's latest `Partial`.
    fn read(slf: &Bound<'_, Self>, run: impl FnOnce(&mut StreamDecoder<'_>) -> Seen) -> PyResult<PyPartial> {
        let mut me = slf.borrow_mut();
        let seen = me.cell()?.with_dependent_mut(|_, decoder| run(decoder));
        me.events += 1;
        Ok(PyPartial {
            stream: slf.clone().unbind(),
            events: me.events,
            completed: seen.completed,
            open: seen.open,
            error: seen.error.map(|e| Py::new(slf.py(), e)).transpose()?,
        })
    }

    fn finished(&mut self) -> PyResult<Result<schemacast::Answer, schemacast::DecodeError>> {
        let mut cell = self.cell.take().ok_or_else(|| PyRuntimeError::new_err("this Stream is finished"))?;
        // The decoder is moved out for its consuming `finish`, a fresh one left in its place.
        Ok(cell.with_dependent_mut(|owner, decoder| std::mem::replace(decoder, owner.get().inner.stream()).finish()))
    }
}

#[pymethods]
impl PyStream {
    /// Reads one provider event: an SDK's chunk or event object, a `dict`, or
    /// the text of one SSE `data:` field or NDJSON line (`[DONE]`, blank data
    /// and text that is not JSON are skipped). `name` is the SSE `event:` field,
    /// which Bedrock payloads given without their wrapper need.
    #[pyo3(signature = (event, *, name = None))]
    fn push(slf: &Bound<'_, Self>, event: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<PyPartial> {
        let py = slf.py();
        if let Some(data) = text_arg(event)? {
            let event = StreamEvent { name, data };
            return Self::read(slf, |d| seen(&d.push_event(&event)));
        }
        let value = event_arg(py, event)?;
        match name {
            None => Self::read(slf, |d| seen(&d.push(&value))),
            Some(name) => {
                let event = StreamEvent { name: Some(name), data: value.to_string() };
                Self::read(slf, |d| seen(&d.push_event(&event)))
            }
        }
    }

    /// Reads raw response bytes (SSE or NDJSON, in chunks cut anywhere, as an
    /// HTTP client yields them) and every event they complete (an event cut by
    /// the chunk's end is read with the next); the `Partial` has the pointers
    /// all of them completed, and the rest as after the last.
    fn feed(slf: &Bound<'_, Self>, chunk: &Bound<'_, PyAny>) -> PyResult<PyPartial> {
        let events = {
            let mut me = slf.borrow_mut();
            let bytes = bytes_arg(chunk)?;
            me.splitter.feed(&bytes)
        };
        Self::read(slf, |d| {
            // Every pointer the chunk's events completed, in order; the rest as after the last.
            let mut completed = Vec::new();
            for e in &events {
                completed.extend(d.push_event(e).completed().map(str::to_owned));
            }
            Seen { completed, ..seen(&d.partial()) }
        })
    }

    /// The answer so far (plain JSON), or `None` before any of it is known.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let cell = self.cell.as_ref().ok_or_else(|| PyRuntimeError::new_err("this Stream is finished"))?;
        to_py(py, cell.borrow_dependent().partial().value().unwrap_or(&Value::Null))
    }

    /// The stream ended: the validated answer (a `model` instance when one is
    /// given), exactly as `Emission.decode` returns it for the whole response;
    /// raises the same `DecodeError` subclasses. The stream is spent after it.
    #[pyo3(signature = (*, model = None))]
    fn finish<'py>(&mut self, py: Python<'py>, model: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let answer = self.finish_core(py)?;
        answer_value(py, &answer, model)
    }

    /// `finish`, with why the provider stopped (an `Answer`, as `decode_answer`).
    #[pyo3(signature = (*, model = None))]
    fn finish_answer<'py>(&mut self, py: Python<'py>, model: Option<&Bound<'py, PyAny>>) -> PyResult<PyAnswer> {
        let answer = self.finish_core(py)?;
        let value = answer_value(py, &answer, model)?.unbind();
        Ok(PyAnswer { value, finish_reason: answer.finish_reason().to_string() })
    }

    fn __repr__(&self) -> String {
        let state = if self.cell.is_some() { "open" } else { "finished" };
        format!("<Stream {state} after {} events>", self.events)
    }
}

impl PyStream {
    fn finish_core(&mut self, py: Python<'_>) -> PyResult<schemacast::Answer> {
        // Whatever the splitter still holds (a last line without its newline) is read first.
        let rest = std::mem::take(&mut self.splitter).finish();
        if let Some(cell) = self.cell.as_mut() {
            cell.with_dependent_mut(|_, d| {
                for e in &rest {
                    let _ = d.push_event(e);
                }
            });
        }
        self.finished()?.map_err(|e| errors::from_decode(py, &e))
    }
}

/// `str` as it is; `bytes` and `bytearray` as UTF-8 (replacing what is not).
fn text_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(s.to_str()?.to_owned()));
    }
    if obj.cast::<PyBytes>().is_ok() || obj.cast::<PyByteArray>().is_ok() {
        return Ok(Some(String::from_utf8_lossy(&bytes_arg(obj)?).into_owned()));
    }
    Ok(None)
}

fn bytes_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_str()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!("chunk must be bytes, bytearray or str, not {}", obj.get_type().name()?)))
}

/// What one `push` or `feed` told: the answer so far (read from the stream
/// while this is its latest `Partial`), the pointers it completed, the open
/// one, and the first certain early error.
#[pyclass(frozen, module = "schemacast", name = "Partial")]
pub(crate) struct PyPartial {
    stream: Py<PyStream>,
    events: u64,
    completed: Vec<String>,
    open: Option<String>,
    error: Option<Py<PyEarlyError>>,
}

#[pymethods]
impl PyPartial {
    /// The answer's JSON completed as far as it is known (open strings, arrays
    /// and objects closed; an unfinished name, number or literal left out;
    /// reversible rewrites undone where decidable), or `None`. Converted on
    /// access, so a `Partial` whose value is never read costs nothing for it;
    /// reading it after the stream has taken more events raises `RuntimeError`.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let stream = self.stream.bind(py).borrow();
        if stream.events != self.events || stream.cell.is_none() {
            return Err(PyRuntimeError::new_err(
                "this Partial is stale: the stream has read more since (use the latest Partial, or Stream.value)",
            ));
        }
        stream.value(py)
    }

    /// The JSON Pointers of the values this event completed, children first.
    #[getter]
    fn completed(&self) -> Vec<String> {
        self.completed.clone()
    }

    /// The pointer of the innermost value still being read, or `None`.
    #[getter]
    fn open(&self) -> Option<String> {
        self.open.clone()
    }

    /// The first certain early error (it stays once found): cancel the request.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<Py<PyEarlyError>> {
        self.error.as_ref().map(|e| e.clone_ref(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Partial completed={:?} open={:?} error={:?}>",
            self.completed,
            self.open,
            self.error.as_ref().map(|e| e.get().kind)
        )
    }
}

/// Why a streamed answer can already no longer be valid (`Partial.error`).
#[pyclass(frozen, module = "schemacast", name = "EarlyError")]
pub(crate) struct PyEarlyError {
    kind: &'static str,
    pointer: Option<String>,
    message: String,
}

#[pymethods]
impl PyEarlyError {
    /// `no_answer`, `refusal`, `not_json` or `schema_violation` (the names of
    /// the `DecodeError` that `finish` will raise).
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind
    }

    /// The instance pointer, for `not_json` and `schema_violation`.
    #[getter]
    fn pointer(&self) -> Option<String> {
        self.pointer.clone()
    }

    #[getter]
    fn message(&self) -> String {
        self.message.clone()
    }

    fn __str__(&self) -> String {
        self.message.clone()
    }

    fn __repr__(&self) -> String {
        format!("<EarlyError {} at {:?}: {}>", self.kind, self.pointer, self.message)
    }
}

/// `Emission.events_for`: the provider's streaming events for `answer`.
pub(crate) fn events_for<'py>(
    py: Python<'py>,
    emission: &schemacast::Emission,
    answer: &Bound<'py, PyAny>,
    piece_len: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let answer = value_arg(py, answer)?;
    to_py(py, &Value::Array(emission.events_for(&answer, piece_len.max(1))))
}
