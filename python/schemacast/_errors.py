"""The exceptions schemacast raises (the extension module raises these classes).

Each ``DecodeError`` subclass's ``kind`` is the core's name for its error
(``DecodeError::kind`` in src/decode/mod.rs), and ``BY_KIND`` registers the class
under it: the extension raises ``BY_KIND[kind]`` for the core's kind."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple, Type

from ._types import Violation

__all__ = [
    "Error",
    "SchemaError",
    "DecodeError",
    "NoAnswer",
    "Refusal",
    "Truncated",
    "NotJson",
    "SchemaViolation",
    "RepeatedKey",
]


def _restore(cls: type, message: str, fields: Dict[str, Any]) -> "Error":
    return cls(message, **fields)


class Error(Exception):
    """Base class of every schemacast exception."""

    kind: str = "error"
    _fields: Tuple[str, ...] = ()

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        unknown = set(fields) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        missing = [f for f in self._fields if f not in fields]
        if missing:
            raise TypeError(f"{type(self).__name__} needs the field {missing[0]!r}")
        for name, value in fields.items():
            setattr(self, name, value)

    def __reduce__(self) -> Tuple[Any, ...]:
        fields = {name: getattr(self, name) for name in self._fields}
        return (_restore, (type(self), self.args[0], fields))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.args[0]!r})"


class SchemaError(Error, ValueError):
    """The schema (or an option) cannot be compiled.

    ``kind`` is ``invalid_json``, ``invalid_schema``, ``unsupported``,
    ``limit_exceeded`` or ``invalid_option``; ``problems`` lists every located
    problem as ``(pointer, message)``, ``pointer`` and ``message`` are the first.
    """

    _fields = ("kind", "problems")
    kind: str
    problems: List[Tuple[str, str]]

    @property
    def pointer(self) -> str:
        """JSON Pointer into the schema of the first problem (``""`` is the root)."""
        return self.problems[0][0] if self.problems else ""

    @property
    def message(self) -> str:
        """What is wrong at the first problem."""
        return self.problems[0][1] if self.problems else str(self)


class DecodeError(Error):
    """No valid answer could be taken from a response.

    Each kind of decode error has its subclass below; a kind that has none in
    ``BY_KIND`` (``deserialize``, which only the Rust crate's ``decode_as`` returns,
    or one the core added after this package's classes) comes as a plain
    ``DecodeError`` with the core's ``kind`` and message."""

    kind = "decode_error"

    def __init__(self, message: str, **fields: Any) -> None:
        # Only the plain class takes a `kind`: each subclass's is fixed.
        kind = fields.pop("kind", None) if type(self) is DecodeError else None
        super().__init__(message, **fields)
        if kind is not None:
            self.kind = kind

    def __reduce__(self) -> Tuple[Any, ...]:
        restore, (cls, message, fields) = super().__reduce__()
        if "kind" in vars(self):
            fields = {**fields, "kind": self.kind}
        return (restore, (cls, message, fields))


class NoAnswer(DecodeError):
    """Nothing where the answer should be: an error body, no candidates, a
    blocked prompt, an empty message. ``detail`` says which."""

    kind = "no_answer"
    _fields = ("detail",)
    detail: str


class Refusal(DecodeError):
    """The model refused; ``text`` is its refusal."""

    kind = "refusal"
    _fields = ("text",)
    text: str


class Truncated(DecodeError):
    """The output limit cut the answer off; ``text`` is what came back."""

    kind = "truncated"
    _fields = ("text",)
    text: str


class NotJson(DecodeError):
    """The answer is not JSON: ``text`` (one Markdown fence already removed)
    and the parser's ``error``."""

    kind = "not_json"
    _fields = ("text", "error")
    text: str
    error: str


class SchemaViolation(DecodeError):
    """The answer is JSON but violates the schema: the parsed ``value`` and
    every violation, each ``{"pointer", "schema_pointer", "message"}``."""

    kind = "schema_violation"
    _fields = ("value", "violations")
    value: Any
    violations: List[Violation]


class RepeatedKey(DecodeError):
    """A map sent as key/value pairs (``reshape=True``) repeats ``key``; ``pointer``
    is the pair that repeats it, in the answer as sent."""

    kind = "repeated_key"
    _fields = ("pointer", "key")
    pointer: str
    key: str


BY_KIND: Dict[str, Type[DecodeError]] = {
    cls.kind: cls for cls in (NoAnswer, Refusal, Truncated, NotJson, SchemaViolation, RepeatedKey)
}
"""The ``DecodeError`` subclass of each kind the core names."""
