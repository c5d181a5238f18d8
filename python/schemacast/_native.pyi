"""The compiled extension (python/src): its types. The package's `__init__.py`
re-exports these names; `_errors.py` and `_types.py` carry their annotations inline."""

from typing import Any, Generic, Literal, TypeVar, final, overload

from ._errors import DecodeError
from ._types import JSON, Adapter, ClaudeMechanism, Draft, Enforcement, GeminiDialect, Mode, Note, ProviderInfo, Schema

__version__: str

_M = TypeVar("_M")
_T_co = TypeVar("_T_co", covariant=True)

@final
class Answer(Generic[_T_co]):
    """A decoded answer and why the provider stopped (``Emission.decode_answer``)."""

    @property
    def value(self) -> _T_co:
        """The validated answer (a ``model`` instance when one was given)."""
    @property
    def finish_reason(self) -> str:
        """Why the provider stopped: ``stop``, ``length``, ``tool_calls``,
        ``content_filter``, ``refusal``, or the provider's own value."""

@final
class Emission:
    """A compiled request fragment for one provider and mode. Immutable and
    thread-safe; every property returns a fresh plain object."""

    @property
    def body(self) -> dict[str, Any]:
        """The JSON object to deep-merge into the request body (``create(..., **em.body)``)."""
    @property
    def headers(self) -> dict[str, str]:
        """HTTP headers to add to the request (usually none)."""
    @property
    def enforcement(self) -> Enforcement:
        """How strongly the provider enforces the schema."""
    @property
    def notes(self) -> list[Note]:
        """Every keyword dropped or rewritten, every fallback and why."""
    @property
    def native_schema(self) -> dict[str, Any] | None:
        """What the provider may return, as a JSON Schema (``None``: nothing native)."""
    @property
    def provider(self) -> str: ...
    @property
    def mode(self) -> Mode: ...
    @property
    def reshaped(self) -> bool:
        """Whether reversible rewrites shape the answers (``decode`` undoes them)."""
    @property
    def schema(self) -> JSON:
        """The caller's schema (``None`` without one)."""
    @overload
    def decode(self, response: Any, *, model: None = None) -> Any: ...
    @overload
    def decode(self, response: Any, *, model: type[_M]) -> _M: ...
    @overload
    def decode(self, response: Any, *, model: Adapter[_M]) -> _M: ...
    @overload
    def decode_answer(self, response: Any, *, model: None = None) -> Answer[Any]: ...
    @overload
    def decode_answer(self, response: Any, *, model: type[_M]) -> Answer[_M]: ...
    @overload
    def decode_answer(self, response: Any, *, model: Adapter[_M]) -> Answer[_M]: ...
    def stream(self) -> Stream:
        """A decoder for this emission's answer streamed by the provider."""
    def events_for(self, answer: Any, piece_len: int = 16) -> list[dict[str, Any]]:
        """The provider's streaming events for a response carrying ``answer``."""
    def response_for(self, answer: Any) -> dict[str, Any]: ...
    def validate(self, value: Any) -> None:
        """Checks ``value`` against the schema as this emission reads it (draft,
        documents, format assertion); raises ``SchemaViolation``."""
    def project(self, value: Any) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self, *, indent: int | None = None) -> str: ...

@final
class EarlyError:
    """Why a streamed answer can already no longer be valid (``Partial.error``)."""

    @property
    def kind(self) -> Literal["no_answer", "refusal", "not_json", "schema_violation"]:
        """The kind of the ``DecodeError`` that ``finish`` will raise."""
    @property
    def pointer(self) -> str | None:
        """The instance pointer, for ``not_json`` and ``schema_violation``."""
    @property
    def message(self) -> str: ...

@final
class Partial:
    """What one ``Stream.push`` or ``Stream.feed`` told."""

    @property
    def value(self) -> Any:
        """The answer so far, or ``None``; raises ``RuntimeError`` once the stream has read more."""
    @property
    def completed(self) -> list[str]:
        """The JSON Pointers of the values this event completed, children first."""
    @property
    def open(self) -> str | None:
        """The pointer of the innermost value still being read."""
    @property
    def error(self) -> EarlyError | None:
        """The first certain early error (cancel the request)."""

@final
class Stream:
    """A streamed answer being decoded (``Emission.stream()``)."""

    def push(self, event: Any, *, name: str | None = None) -> Partial:
        """Reads one event: an SDK chunk or event object, a ``dict``, or one SSE ``data:`` text."""
    def feed(self, chunk: bytes | bytearray | str) -> Partial:
        """Reads raw SSE or NDJSON response bytes, in chunks cut anywhere."""
    @property
    def value(self) -> Any:
        """The answer so far, or ``None``; raises ``RuntimeError`` once finished."""
    @overload
    def finish(self, *, model: None = None) -> Any: ...
    @overload
    def finish(self, *, model: type[_M]) -> _M: ...
    @overload
    def finish(self, *, model: Adapter[_M]) -> _M: ...
    @overload
    def finish_answer(self, *, model: None = None) -> Answer[Any]: ...
    @overload
    def finish_answer(self, *, model: type[_M]) -> Answer[_M]: ...
    @overload
    def finish_answer(self, *, model: Adapter[_M]) -> Answer[_M]: ...

def emit(
    schema: Schema | None,
    provider: str,
    *,
    mode: Mode | None = None,
    name: str | None = None,
    reshape: bool | None = None,
    closed_world: bool | None = None,
    union_closing: bool | None = None,
    default_filling: bool | None = None,
    format_assertion: bool | None = None,
    deny_unknown_keywords: bool | None = None,
    gemini_dialect: GeminiDialect | None = None,
    claude_mechanism: ClaudeMechanism | None = None,
    claude_json_tool: bool | None = None,
    claude_thinking: bool | None = None,
    default_draft: Draft | None = None,
    resources: dict[str, Schema] | None = None,
    base_uri: str | None = None,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    max_enum: int | None = None,
) -> Emission:
    """Compiles ``schema`` for ``provider`` (a name, an alias or a ``Provider``).
    An option left ``None`` keeps the core's default."""

def validate(schema: Schema, value: Any) -> None:
    """Raises ``SchemaViolation`` (every violation) unless ``value`` is valid."""

def instruction(schema: Schema) -> str:
    """The prompt text that asks for JSON conforming to ``schema``."""

def repair(schema: Schema, bad_output: str, error: DecodeError) -> str:
    """The message for one repair round trip after ``error``."""

def project(schema: Schema, value: Any) -> Any:
    """The closed-world projection of ``value`` under ``schema``."""

def providers() -> list[ProviderInfo]:
    """Every provider and what it enforces, in table order."""
