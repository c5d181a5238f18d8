"""schemacast: compile a JSON Schema into each LLM provider's structured-output
request fragment, never narrower than the schema, and decode the answer.

>>> import schemacast
>>> em = schemacast.emit({"type": "object", "properties": {"city": {"type": "string"}},
...                       "required": ["city"], "additionalProperties": False}, "openai")
>>> em.enforcement
'exact'
>>> em.decode(em.response_for({"city": "Oslo"}))
{'city': 'Oslo'}
"""

from __future__ import annotations

from ._errors import (
    DecodeError,
    Error,
    NoAnswer,
    NotJson,
    Refusal,
    RepeatedKey,
    SchemaError,
    SchemaViolation,
    Truncated,
)
from ._native import (
    Answer,
    EarlyError,
    Emission,
    Partial,
    Stream,
    __version__,
    emit,
    instruction,
    project,
    providers,
    repair,
    validate,
)
from ._types import Note, Provider, ProviderInfo, Violation

__all__ = [
    "Answer",
    "DecodeError",
    "EarlyError",
    "Emission",
    "Error",
    "NoAnswer",
    "NotJson",
    "Note",
    "Partial",
    "Provider",
    "ProviderInfo",
    "Refusal",
    "RepeatedKey",
    "SchemaError",
    "SchemaViolation",
    "Stream",
    "Truncated",
    "Violation",
    "__version__",
    "emit",
    "instruction",
    "project",
    "providers",
    "repair",
    "validate",
]
