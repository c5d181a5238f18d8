"""The Python API: arguments, options, results, errors, threads."""

from __future__ import annotations

import concurrent.futures
import copy
import doctest
import enum
import importlib.metadata
import json
import pickle
import re
from pathlib import Path
from typing import Any, List, Literal, Optional

import pydantic
import pytest
import schemacast
from helpers import APPS, FIXTURES, REPO, app_schemas, instances, load
from schemacast._errors import BY_KIND

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
    "required": ["city", "celsius"],
    "additionalProperties": False,
}


class Ticket(pydantic.BaseModel):
    title: str
    priority: Literal["low", "normal", "high"]
    tags: List[str] = []
    assignee: Optional[str] = None


# --- emit: schemas in every accepted form -------------------------------------


def test_emit_returns_plain_values_ready_for_kwargs() -> None:
    em = schemacast.emit(WEATHER, "openai")
    assert isinstance(em, schemacast.Emission)
    assert em.enforcement == "exact"
    assert em.provider == "openai" and em.mode == "schema" and em.reshaped is False
    assert em.body == {
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "structured_output", "strict": True, "schema": WEATHER},
        }
    }
    assert type(em.body) is dict and em.headers == {} and em.notes == []
    assert em.schema == WEATHER
    assert em.native_schema == WEATHER
    # Fresh objects each time: mutating one never changes the emission.
    em.body["response_format"]["type"] = "changed"
    assert em.body["response_format"]["type"] == "json_schema"


def test_json_text_bytes_and_dict_give_the_same_emission() -> None:
    text = json.dumps(WEATHER)
    expected = schemacast.emit(WEATHER, "gemini").to_dict()
    assert schemacast.emit(text, "gemini").to_dict() == expected
    assert schemacast.emit(text.encode(), "gemini").to_dict() == expected
    assert schemacast.emit(bytearray(text.encode()), "gemini").to_dict() == expected


def test_key_order_is_kept_both_ways() -> None:
    schema = {"type": "object", "properties": {k: {"type": "string"} for k in "zyxabc"}}
    em = schemacast.emit(schema, "ollama")
    assert list(em.body["format"]["properties"]) == list("zyxabc")
    answer = {"z": "1", "a": "2", "y": "3"}
    assert list(em.decode(em.response_for(answer))) == ["z", "a", "y"]


def test_a_pydantic_model_class_is_a_schema_and_names_it() -> None:
    em = schemacast.emit(Ticket, "openai")
    sent = em.body["response_format"]["json_schema"]
    assert sent["name"] == "Ticket"
    assert em.schema == Ticket.model_json_schema()
    assert schemacast.emit(Ticket, "openai", name="triage").body["response_format"]["json_schema"]["name"] == "triage"


def test_a_generic_model_name_is_made_a_valid_schema_name() -> None:
    T = pydantic.BaseModel  # noqa: N806

    class Page(pydantic.BaseModel):
        items: List[int]

    Named = pydantic.create_model("Page[Item] über", __base__=T, n=(int, ...))  # noqa: N806
    assert schemacast.emit(Named, "openai").body["response_format"]["json_schema"]["name"] == "Page_Item___ber"
    assert schemacast.emit(Page, "openai").body["response_format"]["json_schema"]["name"] == "Page"


def test_a_type_adapter_is_a_schema_and_a_model() -> None:
    adapter = pydantic.TypeAdapter(List[Ticket])
    em = schemacast.emit(adapter, "gemini", gemini_dialect="json-schema")
    answer = [{"title": "a", "priority": "low"}]
    decoded = em.decode(em.response_for(answer), model=adapter)
    assert decoded == [Ticket(title="a", priority="low")]


def test_a_bool_schema_and_non_schema_values() -> None:
    assert schemacast.emit(True, "ollama", mode="json").enforcement == "prompt"
    for not_a_schema in ([], 3, 2.5, (1,)):
        with pytest.raises(schemacast.SchemaError) as info:
            schemacast.emit(not_a_schema, "openai")
        assert info.value.kind == "invalid_schema"


def test_values_that_are_not_json_are_refused_with_their_place() -> None:
    with pytest.raises(TypeError, match=r"not a JSON value \(at /properties/a/default\)"):
        schemacast.emit({"properties": {"a": {"default": object()}}}, "openai")
    with pytest.raises(TypeError, match="keys must be str"):
        schemacast.emit({"enum": [{1: "x"}]}, "openai")
    with pytest.raises(ValueError, match=r"NaN is not a JSON number \(at /maximum\)"):
        schemacast.emit({"maximum": float("nan")}, "openai")
    with pytest.raises(TypeError, match="not object"):
        schemacast.emit(object(), "openai")
    deep: Any = {}
    for _ in range(2000):
        deep = {"not": deep}
    with pytest.raises(ValueError, match="nested more than 1024 levels"):
        schemacast.emit(deep, "openai")


def test_numbers_cross_as_json_numbers() -> None:
    class Level(enum.IntEnum):
        HIGH = 3

    class Color(str, enum.Enum):
        RED = "red"

    schema = {"enum": [2**63 - 1, 2**64 - 1, 2**70, 1.5, Level.HIGH, Color.RED, True, None]}
    em = schemacast.emit(schema, "ollama")
    # 2**70 has no 64-bit integer form: a float, as serde_json reads it from text.
    assert em.schema == {"enum": [2**63 - 1, 2**64 - 1, float(2**70), 1.5, 3, "red", True, None]}
    assert type(em.schema["enum"][4]) is int and type(em.schema["enum"][5]) is str


def test_tuples_are_arrays() -> None:
    em = schemacast.emit({"type": "array", "prefixItems": ({"type": "string"},), "items": False}, "xai")
    assert em.schema["prefixItems"] == [{"type": "string"}]


# --- options ------------------------------------------------------------------


def test_every_provider_name_alias_and_enum_member_is_accepted() -> None:
    infos = schemacast.providers()
    assert [p.value for p in schemacast.Provider] == [i["name"] for i in infos]
    for info in infos:
        for name in [info["name"], *info["aliases"], info["name"].upper()]:
            assert schemacast.emit(WEATHER, name).provider == info["name"]
    assert schemacast.emit(WEATHER, schemacast.Provider.OPENAI_RESPONSES).provider == "openai-responses"
    assert str(schemacast.Provider.GEMINI) == "gemini"


def test_providers_describe_each_provider() -> None:
    infos = schemacast.providers()
    claude = next(i for i in infos if i["name"] == "claude")
    assert claude["aliases"] == ["anthropic"] and claude["api"] == "Anthropic Messages API"
    assert set(claude) == {
        "name", "aliases", "api", "schema_request", "json_request", "enforces", "keywords", "limits", "options",
    }  # fmt: skip
    # The typed dict the stubs declare is the core's field list (`ProviderInfo::to_json`).
    assert set(claude) == set(schemacast.ProviderInfo.__annotations__)


def test_modes() -> None:
    assert schemacast.emit(WEATHER, "openai", mode="json").body == {"response_format": {"type": "json_object"}}
    text = schemacast.emit(WEATHER, "openai", mode="text")
    assert text.body == {} and text.enforcement == "none" and text.native_schema is None
    no_schema = schemacast.emit(None, "ollama", mode="json")
    assert no_schema.body == {"format": "json"} and no_schema.schema is None
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit(None, "ollama")
    assert info.value.kind == "invalid_option"


@pytest.mark.parametrize(
    ("kwargs", "kind", "needle"),
    [
        ({"mode": "yaml"}, "invalid_option", "unknown mode `yaml`"),
        ({"gemini_dialect": "openapi"}, "invalid_option", "unknown Gemini dialect"),
        ({"claude_mechanism": "magic"}, "invalid_option", "unknown Claude mechanism"),
        ({"default_draft": "3"}, "invalid_option", "unknown draft `3`"),
        ({"name": "has space"}, "invalid_option", "option `name` must match"),
        ({"max_depth": 300}, "invalid_option", "option `max_depth` is at most 256"),
        ({"max_depth": 1}, "limit_exceeded", "nests deeper than 1 levels (option `max_depth`)"),
        ({"max_nodes": 3}, "limit_exceeded", "more than 3 JSON values (option `max_nodes`)"),
    ],
)
def test_bad_options_are_schema_errors(kwargs: dict[str, Any], kind: str, needle: str) -> None:
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit(WEATHER, "openai", **kwargs)
    assert info.value.kind == kind and needle in str(info.value)
    assert isinstance(info.value, ValueError)


def test_options_left_none_keep_the_core_defaults() -> None:
    unset = dict.fromkeys(
        ["mode", "name", "reshape", "closed_world", "union_closing", "default_filling", "format_assertion",
         "deny_unknown_keywords", "gemini_dialect", "claude_mechanism", "claude_json_tool", "claude_thinking",
         "default_draft",
         "resources", "base_uri", "max_depth", "max_nodes", "max_enum"]
    )  # fmt: skip
    for provider in ("openai", "gemini", "claude", "bedrock"):
        assert schemacast.emit(WEATHER, provider, **unset).to_dict() == schemacast.emit(WEATHER, provider).to_dict()
    # A value given is set (the tests of each option below check the others).
    assert schemacast.emit(WEATHER, "openai", mode="text", gemini_dialect=None).mode == "text"


def test_option_types_are_checked() -> None:
    with pytest.raises(TypeError):
        schemacast.emit(WEATHER, "openai", reshape="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        schemacast.emit(WEATHER, "openai", "json")  # type: ignore[misc]
    with pytest.raises(OverflowError):
        schemacast.emit(WEATHER, "openai", max_depth=-1)


def test_max_enum() -> None:
    schema = {"enum": list(range(10))}
    with pytest.raises(schemacast.SchemaError, match="limit_exceeded"):
        schemacast.emit(schema, "ollama", max_enum=5)
    assert schemacast.emit(schema, "ollama", max_enum=10).body == {"format": {"type": "integer", **schema}}


def test_closed_world_union_closing_and_default_filling() -> None:
    open_object = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert schemacast.emit(open_object, "gemini").enforcement == "exact"
    assert schemacast.emit(open_object, "gemini", closed_world=False).enforcement == "json"
    assert schemacast.emit(open_object, "gemini").project({"a": "x", "b": 1}) == {"a": "x"}
    assert schemacast.emit(open_object, "gemini", closed_world=False).project({"a": "x", "b": 1}) == {"a": "x", "b": 1}

    with_default = {"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}
    assert schemacast.emit(with_default, "gemini").project({}) == {"n": 1}
    assert schemacast.emit(with_default, "gemini", default_filling=False).project({}) == {}

    union = {
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
        ]
    }
    assert schemacast.emit(union, "gemini").enforcement == "exact"  # each branch closed
    assert schemacast.emit(union, "gemini", union_closing=False).enforcement == "json"


def test_format_assertion_and_unknown_keywords() -> None:
    schema = {"type": "object", "properties": {"d": {"type": "string", "format": "date"}}, "required": ["d"]}
    assert schemacast.emit(schema, "ollama").body["format"]["properties"]["d"] == {"type": "string", "format": "date"}
    assert schemacast.emit(schema, "ollama", format_assertion=False).body["format"]["properties"]["d"] == {
        "type": "string"
    }
    odd = {"type": "string", "x-widget": "textarea"}
    assert any(n["keyword"] == "x-widget" for n in schemacast.emit(odd, "ollama").notes)
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit(odd, "ollama", deny_unknown_keywords=True)
    assert info.value.kind == "unsupported" and info.value.pointer == "/x-widget"


def test_gemini_dialect_and_claude_options() -> None:
    assert "responseJsonSchema" in schemacast.emit(WEATHER, "gemini", gemini_dialect="json-schema").body[
        "generationConfig"
    ]
    assert schemacast.emit(WEATHER, "claude", mode="json").body == {}
    assert "tools" in schemacast.emit(WEATHER, "claude", mode="json", claude_json_tool=True).body
    offered = schemacast.emit(WEATHER, "claude", claude_mechanism="strict-tool", claude_thinking=True)
    assert offered.body["tool_choice"] == {"type": "auto"} and offered.enforcement == "prompt"
    assert schemacast.emit(WEATHER, "claude", claude_mechanism="strict-tool").body["tool_choice"]["type"] == "tool"
    beta = schemacast.emit(WEATHER, "claude", claude_mechanism="output-format-beta")
    assert beta.headers == {"anthropic-beta": "structured-outputs-2025-11-13"}
    assert list(beta.body) == ["output_format"]


def test_drafts_resources_and_base_uri() -> None:
    draft4 = {"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True}}}
    with pytest.raises(schemacast.SchemaError):
        schemacast.emit(draft4, "openai")  # a boolean exclusiveMinimum is not 2020-12
    for draft in ("4", 4, "draft-04"):
        em = schemacast.emit(draft4, "openai", default_draft=draft)  # type: ignore[arg-type]
        with pytest.raises(schemacast.SchemaViolation):
            em.decode(em.response_for({"n": 0}))

    doc = {"$defs": {"name": {"type": "string", "minLength": 1}}}
    schema = {"type": "object", "properties": {"n": {"$ref": "defs.json#/$defs/name"}}, "required": ["n"]}
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit(schema, "openai")
    assert info.value.kind == "unsupported" and info.value.pointer == "/properties/n/$ref"
    base = "https://example.com/schemas/root.json"
    em = schemacast.emit(
        schema, "openai", resources={"https://example.com/schemas/defs.json": json.dumps(doc)}, base_uri=base
    )
    assert em.decode(em.response_for({"n": "x"})) == {"n": "x"}
    with pytest.raises(schemacast.SchemaViolation):
        em.decode(em.response_for({"n": ""}))
    with pytest.raises(TypeError, match="resources keys"):
        schemacast.emit(schema, "openai", resources={1: doc})  # type: ignore[dict-item]


# --- the emission ---------------------------------------------------------------


def test_notes_are_dicts() -> None:
    em = schemacast.emit({"type": "string", "format": "email"}, "gemini")
    assert em.notes and all(set(n) == {"pointer", "keyword", "action", "reason"} for n in em.notes)


def test_to_dict_and_to_json_are_the_cli_output() -> None:
    em = schemacast.emit(WEATHER, "claude", claude_mechanism="output-format-beta")
    d = em.to_dict()
    assert list(d) == ["provider", "mode", "enforcement", "body", "headers", "notes"]
    assert d["headers"] == em.headers and d["body"] == em.body
    assert json.loads(em.to_json()) == d
    assert em.to_json(indent=2) == json.dumps(d, indent=2, ensure_ascii=False)
    assert "\n" not in em.to_json()


def test_repr() -> None:
    em = schemacast.emit(WEATHER, "gemini")
    assert repr(em) == '<Emission provider="gemini" mode="schema" enforcement="exact" notes=0>'


def test_emission_is_immutable() -> None:
    em = schemacast.emit(WEATHER, "openai")
    with pytest.raises(AttributeError):
        em.body = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        schemacast.Emission()  # type: ignore[call-arg]


def test_reshape_round_trip_through_decode() -> None:
    schema = {
        "type": "object",
        "properties": {"title": {"type": "string"}, "counts": {"type": "object", "additionalProperties": {"type": "integer"}}},
        "required": ["title"],
    }
    assert schemacast.emit(schema, "openai").enforcement == "json"  # optional and a map: outside strict mode
    em = schemacast.emit(schema, "openai", reshape=True)
    assert em.reshaped and em.enforcement == "widened"  # the pairs may repeat a key
    sent = em.body["response_format"]["json_schema"]["schema"]
    assert sent["required"] == ["title", "counts"]  # optional became required-and-nullable
    answer = {"title": "t", "counts": {"a": 1, "b": 2}}
    response = em.response_for(answer)
    carried = json.loads(response["choices"][0]["message"]["content"])
    assert carried["counts"] == [{"key": "a", "value": 1}, {"key": "b", "value": 2}]
    assert em.decode(response) == answer
    assert em.decode(em.response_for({"title": "t"})) == {"title": "t"}


# --- decode -----------------------------------------------------------------------


def chat(content: Any, finish: str = "stop", **message: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content, **message}, "finish_reason": finish}]}


def test_decode_accepts_a_dict_json_text_and_bytes() -> None:
    em = schemacast.emit(WEATHER, "openai")
    body = chat('{"city": "Oslo", "celsius": 1}')
    for response in (body, json.dumps(body), json.dumps(body).encode()):
        assert em.decode(response) == {"city": "Oslo", "celsius": 1}
    with pytest.raises(schemacast.NoAnswer, match="the response body is not JSON"):
        em.decode("<html>502</html>")
    with pytest.raises(TypeError, match="response must be"):
        em.decode(42)


def test_decode_errors_are_typed() -> None:
    em = schemacast.emit(WEATHER, "openai")
    with pytest.raises(schemacast.NoAnswer) as no_answer:
        em.decode({"error": {"message": "Rate limit reached", "type": "requests"}})
    assert no_answer.value.detail == "Rate limit reached" and no_answer.value.kind == "no_answer"

    with pytest.raises(schemacast.Refusal) as refusal:
        em.decode(chat(None, refusal="I can't help with that."))
    assert refusal.value.text == "I can't help with that."

    with pytest.raises(schemacast.Truncated) as truncated:
        em.decode(chat('{"city": "Os', finish="length"))
    assert truncated.value.text == '{"city": "Os'

    with pytest.raises(schemacast.NotJson) as not_json:
        em.decode(chat("Oslo, 1 degree"))
    assert not_json.value.text == "Oslo, 1 degree" and "expected value" in not_json.value.error

    with pytest.raises(schemacast.SchemaViolation) as violation:
        em.decode(chat('{"city": 7}'))
    assert violation.value.value == {"city": 7}
    assert violation.value.violations == [
        {"pointer": "", "schema_pointer": "/required", "message": '"celsius" is a required property'},
        {"pointer": "/city", "schema_pointer": "/properties/city/type", "message": '7 is not of type "string"'},
    ]
    for e in (no_answer, refusal, truncated, not_json, violation):
        assert isinstance(e.value, schemacast.DecodeError) and isinstance(e.value, schemacast.Error)
        assert not isinstance(e.value, ValueError)


def test_decode_answer_gives_the_finish_reason() -> None:
    em = schemacast.emit(WEATHER, "openai")
    answer = em.decode_answer(em.response_for({"city": "Oslo", "celsius": 1}))
    assert isinstance(answer, schemacast.Answer)
    assert (answer.value, answer.finish_reason) == ({"city": "Oslo", "celsius": 1}, "stop")
    assert repr(answer) == "<Answer finish_reason=\"stop\" value={'city': 'Oslo', 'celsius': 1}>"
    # A provider's own reason, and the normalised names, as the core gives them.
    assert em.decode_answer(chat('{"city": "Oslo", "celsius": 1}', finish="eos")).finish_reason == "eos"
    assert em.decode_answer(chat('{"city": "Oslo", "celsius": 1}', finish="content_filter")).finish_reason == (
        "content_filter"
    )
    claude = schemacast.emit(WEATHER, "claude")  # a forced tool: the answer ends with the tool call
    assert claude.decode_answer(claude.response_for({"city": "Oslo", "celsius": 1})).finish_reason == "tool_calls"
    # With a model, the value is what decode gives; errors are decode's.
    ticket = schemacast.emit(Ticket, "ollama")
    got = ticket.decode_answer(ticket.response_for({"title": "x", "priority": "low"}), model=Ticket)
    assert got.value == Ticket(title="x", priority="low") and got.value is got.value
    with pytest.raises(schemacast.SchemaViolation):
        em.decode_answer(chat('{"city": 7}'))
    with pytest.raises(AttributeError):
        answer.finish_reason = "length"  # type: ignore[misc]
    assert schemacast.Answer[Ticket] == schemacast.Answer[Ticket]  # subscriptable, as in the stubs


def test_repeated_key() -> None:
    schema = {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}}
    em = schemacast.emit(schema, "openai", reshape=True)
    pairs = '{"m": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}'
    with pytest.raises(schemacast.RepeatedKey) as info:
        em.decode(chat(pairs))
    assert info.value.key == "a" and info.value.pointer == "/m/1"
    assert info.value.kind == "repeated_key" and isinstance(info.value, schemacast.DecodeError)
    again = pickle.loads(pickle.dumps(info.value))
    assert (type(again), again.kind, again.key, again.pointer) == (schemacast.RepeatedKey, "repeated_key", "a", "/m/1")


def test_decode_with_a_model_returns_a_validated_instance() -> None:
    em = schemacast.emit(Ticket, "openai")
    answer = {"title": "Printer on fire", "priority": "high", "tags": ["hw"], "assignee": None}
    ticket = em.decode(em.response_for(answer), model=Ticket)
    assert ticket == Ticket(title="Printer on fire", priority="high", tags=["hw"])
    with pytest.raises(TypeError, match="model must be"):
        em.decode(em.response_for(answer), model=dict)

    class Strict(pydantic.BaseModel):
        title: str

        @pydantic.field_validator("title")
        @classmethod
        def no_fire(cls, v: str) -> str:
            if "fire" in v:
                raise ValueError("no fires")
            return v

    # The schema passed: the model's own validators still run, and their error is Pydantic's.
    with pytest.raises(pydantic.ValidationError):
        em.decode(em.response_for(answer), model=Strict)


def test_response_for_and_project_take_model_instances() -> None:
    em = schemacast.emit(Ticket, "ollama")
    ticket = Ticket(title="x", priority="low")
    assert em.decode(em.response_for(ticket), model=Ticket) == ticket
    assert em.project(ticket) == ticket.model_dump(mode="json")


# --- module functions ---------------------------------------------------------------


def test_validate() -> None:
    schemacast.validate(WEATHER, {"city": "Oslo", "celsius": 1})
    schemacast.validate(Ticket, Ticket(title="x", priority="low"))
    with pytest.raises(schemacast.SchemaViolation) as info:
        schemacast.validate(WEATHER, {"city": "Oslo"})
    assert info.value.violations[0]["message"] == '"celsius" is a required property'
    with pytest.raises(schemacast.SchemaError) as bad:
        schemacast.validate({"type": "nope"}, 1)
    assert bad.value.kind == "invalid_schema" and bad.value.pointer == "/type"


def test_emission_validate_reads_as_the_emission() -> None:
    # A naive time fails RFC 3339's full-time unless formats are annotations.
    schema = {"type": "object", "properties": {"at": {"type": "string", "format": "time"}}, "required": ["at"]}
    naive = {"at": "18:30:00"}
    with pytest.raises(schemacast.SchemaViolation) as info:
        schemacast.emit(schema, "openai").validate(naive)
    assert info.value.violations[0]["pointer"] == "/at"
    schemacast.emit(schema, "openai").validate({"at": "18:30:00Z"})
    schemacast.emit(schema, "openai", format_assertion=False).validate(naive)
    # Draft 4 without `$schema`: a boolean exclusiveMaximum excludes 5.
    draft4 = schemacast.emit({"type": "integer", "maximum": 5, "exclusiveMaximum": True}, "openai", default_draft="4")
    draft4.validate(4)
    with pytest.raises(schemacast.SchemaViolation):
        draft4.validate(5)
    # A model instance is read as its JSON, as `validate` reads it.
    schemacast.emit(Ticket, "openai").validate(Ticket(title="x", priority="low"))


def test_project_module_function() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert schemacast.project(schema, {"a": 1, "extra": True}) == {"a": 1}
    assert schemacast.project({"type": "object", "additionalProperties": {"type": "integer"}}, {"x": 1}) == {"x": 1}


def test_instruction_and_repair() -> None:
    text = schemacast.instruction(WEATHER)
    assert "JSON" in text and '"celsius"' in text
    assert schemacast.instruction(Ticket) == schemacast.instruction(Ticket.model_json_schema())

    em = schemacast.emit(WEATHER, "openai")
    bad = '{"city": 7}'
    with pytest.raises(schemacast.SchemaViolation) as info:
        em.decode(chat(bad))
    message = schemacast.repair(WEATHER, bad, info.value)
    assert message.startswith("Your previous answer does not conform")
    assert "- at /city: 7 is not of type \"string\"" in message and text in message

    # Every decode error, raised or rebuilt by pickling, explains itself the same way.
    for response in (chat("nope"), chat('{"c', finish="length"), chat(None, refusal="no"), {"error": {"message": "x"}}):
        with pytest.raises(schemacast.DecodeError) as err:
            em.decode(response)
        line = f"- {err.value}\n"
        assert line in schemacast.repair(WEATHER, "out", err.value)
        assert line in schemacast.repair(WEATHER, "out", pickle.loads(pickle.dumps(err.value)))
    with pytest.raises(TypeError, match="must be a schemacast.DecodeError"):
        schemacast.repair(WEATHER, "out", ValueError("x"))  # type: ignore[arg-type]


# --- exceptions ----------------------------------------------------------------------


def test_schema_error_fields() -> None:
    bad = {"type": "object", "properties": {"a": {"type": 5}, "b": {"minimum": "x"}}}
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit(bad, "openai")
    e = info.value
    assert e.kind == "invalid_schema"
    assert [p for p, _ in e.problems] == ["/properties/a/type", "/properties/b/minimum"]
    assert (e.pointer, e.message) == e.problems[0]
    assert str(e).startswith("invalid_schema: at /properties/a/type: ")
    again = pickle.loads(pickle.dumps(e))
    assert (type(again), str(again), again.kind, again.problems) == (type(e), str(e), e.kind, e.problems)
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit("{", "openai")
    assert info.value.kind == "invalid_json" and info.value.pointer == ""
    # The core's message style: `kind: at pointer: message`.
    assert str(info.value) == f"invalid_json: at (root): {info.value.message}"
    assert info.value.message.startswith("the schema is not JSON: EOF while parsing")


def test_exception_classes() -> None:
    assert issubclass(schemacast.SchemaError, ValueError)
    for cls in (schemacast.NoAnswer, schemacast.Refusal, schemacast.Truncated, schemacast.NotJson,
                schemacast.SchemaViolation, schemacast.RepeatedKey):  # fmt: skip
        assert issubclass(cls, schemacast.DecodeError)
    e = schemacast.SchemaViolation("bad", value={"a": 1}, violations=[])
    assert copy.deepcopy(e).value == {"a": 1} and repr(e) == "SchemaViolation('bad')"
    with pytest.raises(TypeError, match="needs the field 'violations'"):
        schemacast.SchemaViolation("bad", value=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="has no field 'oops'"):
        schemacast.Truncated("x", text="", oops=1)  # type: ignore[call-arg]


# The core's decode kinds that have no subclass here: `deserialize` comes only from
# the Rust crate's `decode_as`, which the binding does not expose.
KINDS_WITHOUT_SUBCLASS = {"deserialize"}


def core_decode_kinds() -> dict[str, str]:
    """Each arm of the core's `DecodeError::kind()` (src/decode/mod.rs): variant -> what it returns."""
    source = (REPO / "src" / "decode" / "mod.rs").read_text(encoding="utf-8")
    body = source.split("pub fn kind(&self) -> &'static str {", 1)[1].split("\n    }\n", 1)[0]
    arms = dict(re.findall(r"^\s*DecodeError::(\w+)\b[^\n]*=> ([^\n]+),$", body, re.MULTILINE))
    assert len(arms) == body.count("DecodeError::"), body  # every arm read
    return arms


def test_every_core_decode_kind_is_a_class_of_that_kind() -> None:
    arms = core_decode_kinds()
    # A schema failing preflight is a SchemaError, with the compile error's kind.
    assert arms.pop("Schema") == "e.kind().as_str()"
    literals = [re.fullmatch(r'"([a-z_]+)"', returned) for returned in arms.values()]
    assert all(literals), arms
    kinds = {m.group(1) for m in literals if m}
    assert len(kinds) == len(arms) >= 7
    assert KINDS_WITHOUT_SUBCLASS <= kinds
    assert set(BY_KIND) == kinds - KINDS_WITHOUT_SUBCLASS
    for kind, cls in BY_KIND.items():
        assert cls.kind == kind and issubclass(cls, schemacast.DecodeError) and cls is not schemacast.DecodeError
        assert getattr(schemacast, cls.__name__) is cls


def test_each_decode_kind_is_raised_as_its_class_and_rebuilt_by_repair() -> None:
    em = schemacast.emit(WEATHER, "openai")
    reshaped = schemacast.emit(
        {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}},
        "openai",
        reshape=True,
    )
    raised: dict[str, schemacast.DecodeError] = {}
    for emission, response in [
        (em, {"error": {"message": "x"}}),
        (em, chat(None, refusal="no")),
        (em, chat('{"c', finish="length")),
        (em, chat("nope")),
        (em, chat('{"city": 7}')),
        (reshaped, chat('{"m": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}')),
    ]:
        with pytest.raises(schemacast.DecodeError) as info:
            emission.decode(response)
        raised[info.value.kind] = info.value
    assert set(raised) == set(BY_KIND)
    for kind, e in raised.items():
        assert type(e) is BY_KIND[kind]
        # repair reads the fields back into the core's error of the same kind, which
        # it explains: each violation on its line, any other error by its message.
        message = schemacast.repair(WEATHER, "out", e)
        if isinstance(e, schemacast.SchemaViolation):
            assert all(f"- at {v['pointer'] or '(root)'}: {v['message']}\n" in message for v in e.violations)
        else:
            assert f"- {e}\n" in message


def test_a_decode_error_without_a_subclass_keeps_the_core_kind() -> None:
    # What the binding raises for a core decode error it has no subclass for.
    e = schemacast.DecodeError("the valid answer does not deserialise", kind="deserialize")
    assert type(e) is schemacast.DecodeError and not isinstance(e, schemacast.NoAnswer)
    assert e.kind == "deserialize" and schemacast.DecodeError("x").kind == "decode_error"
    again = pickle.loads(pickle.dumps(e))
    assert (type(again), str(again), again.kind) == (schemacast.DecodeError, str(e), "deserialize")
    # A subclass's kind is its own.
    with pytest.raises(TypeError, match="has no field 'kind'"):
        schemacast.NoAnswer("x", detail="", kind="other")
    # repair has no core error to rebuild it as (not `NoAnswer`, whose message differs).
    with pytest.raises(ValueError, match="repair cannot rebuild a decode error of kind `deserialize`"):
        schemacast.repair(WEATHER, "out", e)


def cargo_version(manifest: Path) -> str:
    """The `[package]` version of a Cargo.toml."""
    package = manifest.read_text(encoding="utf-8").split("[package]\n", 1)[1].split("\n[", 1)[0]
    found = re.search(r'^version = "([^"]+)"$', package, re.MULTILINE)
    assert found, manifest
    return found.group(1)


def test_the_version_is_the_crates() -> None:
    core, binding = cargo_version(REPO / "Cargo.toml"), cargo_version(REPO / "python" / "Cargo.toml")
    assert schemacast.__version__ == core == binding
    assert importlib.metadata.version("schemacast") == schemacast.__version__


# --- threads -----------------------------------------------------------------------------


def test_one_emission_serves_many_threads() -> None:
    paths = app_schemas()[:12]
    cases = [(load(p), instances(p)) for p in paths]
    emissions = [schemacast.emit(s, "gemini") for s, _ in cases]

    def work(i: int) -> bool:
        em = emissions[i % len(emissions)]
        for inst in cases[i % len(cases)][1]:
            sent = em.project(inst)
            if em.decode(em.response_for(sent)) != sent:
                return False
        fresh = schemacast.emit(cases[i % len(cases)][0], "gemini")
        return fresh.to_dict() == em.to_dict()

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(work, range(96)))


# --- every application schema, every provider --------------------------------------------


@pytest.mark.parametrize("path", app_schemas(), ids=lambda p: p.stem)
def test_every_app_instance_round_trips_on_every_provider(path: Any) -> None:
    schema = load(path)
    for provider in schemacast.Provider:
        for reshape in (False, True):
            em = schemacast.emit(schema, provider, reshape=reshape)
            for inst in instances(path):
                sent = em.project(inst)  # what the provider may return for it
                assert em.decode(em.response_for(sent)) == sent, (provider, reshape)


def test_module_docstring_examples() -> None:
    failures, tried = doctest.testmod(schemacast, verbose=False)
    assert tried >= 3 and failures == 0


def test_fixture_paths_exist() -> None:
    assert APPS.is_dir() and FIXTURES.is_dir() and len(app_schemas()) >= 50
