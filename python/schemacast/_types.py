"""Types of the public API: the `Provider` names, the dicts returned, and the
aliases the signatures use."""

from __future__ import annotations

import enum
from typing import Any, Dict, List, Literal, Protocol, TypeAlias, TypedDict, TypeVar, Union


class Provider(str, enum.Enum):
    """Every provider, by its name. A member is a ``str``: pass it, or the
    name or an alias as a plain string, wherever a provider is asked for."""

    OPENAI = "openai"
    GROQ = "groq"
    MISTRAL = "mistral"
    OPENROUTER = "openrouter"
    GEMINI = "gemini"
    OLLAMA = "ollama"
    CLAUDE = "claude"
    AZURE = "azure"
    DEEPSEEK = "deepseek"
    OPENAI_RESPONSES = "openai-responses"
    XAI = "xai"
    CEREBRAS = "cerebras"
    TOGETHER = "together"
    FIREWORKS = "fireworks"
    PERPLEXITY = "perplexity"
    VLLM = "vllm"
    LLAMACPP = "llamacpp"
    COHERE = "cohere"
    BEDROCK = "bedrock"
    VERTEX = "vertex"

    def __str__(self) -> str:
        return str(self.value)


class Note(TypedDict):
    """One located note of an emission: a keyword dropped or rewritten, a fallback, a requirement."""

    pointer: str
    keyword: str
    action: str
    reason: str


class Violation(TypedDict):
    """One schema violation of an answer: where in the answer, which schema keyword, what."""

    pointer: str
    schema_pointer: str
    message: str


class ProviderInfo(TypedDict):
    """What a provider enforces and how it is asked (the README's provider table)."""

    name: str
    aliases: List[str]
    api: str
    schema_request: str
    json_request: str
    enforces: str
    keywords: str
    limits: str
    options: str


T_co = TypeVar("T_co", covariant=True)


class ModelClass(Protocol):
    """A Pydantic model class (anything with ``model_json_schema()``)."""

    def model_json_schema(self) -> Dict[str, Any]: ...


class Adapter(Protocol[T_co]):
    """A Pydantic ``TypeAdapter``."""

    def json_schema(self) -> Dict[str, Any]: ...

    def validate_python(self, object: Any, /) -> T_co: ...


JSON: TypeAlias = Union[Dict[str, Any], List[Any], str, int, float, bool, None]
"""A JSON value as plain Python objects."""

Schema: TypeAlias = Union[Dict[str, Any], bool, str, bytes, bytearray, ModelClass, "Adapter[Any]"]
"""A JSON Schema: a dict (or bool), JSON text, a Pydantic model class or TypeAdapter."""

Mode: TypeAlias = Literal["schema", "json", "text"]
Enforcement: TypeAlias = Literal["exact", "widened", "json", "prompt", "none"]
GeminiDialect: TypeAlias = Literal["response-schema", "json-schema"]
ClaudeMechanism: TypeAlias = Literal["tool", "strict-tool", "output-format", "output-format-beta"]
Draft: TypeAlias = Literal["4", "6", "7", "2019-09", "2020-12", 4, 6, 7]
