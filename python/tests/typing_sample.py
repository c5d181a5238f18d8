"""Checked by mypy --strict (test_typing.py) and run: the stubs say what the API returns."""

from __future__ import annotations

from typing import Any, List

import pydantic
import schemacast
from typing_extensions import assert_type


class City(pydantic.BaseModel):
    name: str
    population: int


def main() -> None:
    em = schemacast.emit(City, schemacast.Provider.OPENAI, mode="schema", reshape=True, max_depth=32)
    assert_type(em, schemacast.Emission)
    assert_type(em.body, dict[str, Any])
    assert_type(em.headers, dict[str, str])
    notes: list[schemacast.Note] = em.notes
    assert all(isinstance(n["reason"], str) for n in notes)
    assert em.enforcement in ("exact", "widened", "json", "prompt", "none")
    response = em.response_for({"name": "Oslo", "population": 709000})
    city = em.decode(response, model=City)
    assert_type(city, City)
    cities = schemacast.emit(pydantic.TypeAdapter(List[City]), "gemini", gemini_dialect="json-schema")
    many = cities.decode(cities.response_for([]), model=pydantic.TypeAdapter(List[City]))
    assert_type(many, List[City])
    plain = em.decode(response)
    assert_type(plain, Any)
    answer = em.decode_answer(response, model=City)
    assert_type(answer, schemacast.Answer[City])
    assert_type(answer.value, City)
    assert_type(answer.finish_reason, str)
    assert_type(em.decode_answer(response).value, Any)
    try:
        em.decode(em.response_for({"name": "Oslo", "population": "many"}))
    except schemacast.SchemaViolation as e:
        violations: list[schemacast.Violation] = e.violations
        assert violations and violations[0]["pointer"] == "/population"
        assert_type(e.kind, str)
    else:
        raise AssertionError("an answer violating the schema decoded")
    try:
        schemacast.emit({"type": "nope"}, "openai")
    except schemacast.SchemaError as e:
        assert_type(e.problems, List[tuple[str, str]])
        assert_type(e.pointer, str)
    else:
        raise AssertionError("an invalid schema compiled")
    stream = em.stream()
    assert_type(stream, schemacast.Stream)
    for event in em.events_for({"name": "Oslo", "population": 709000}, 8):
        partial = stream.push(event)
        assert_type(partial, schemacast.Partial)
        assert_type(partial.completed, list[str])
        assert_type(partial.open, str | None)
        early = partial.error
        assert_type(early, schemacast.EarlyError | None)
        assert early is None, early
    assert_type(stream.feed(b""), schemacast.Partial)
    assert_type(stream.finish(model=City), City)
    infos: list[schemacast.ProviderInfo] = schemacast.providers()
    assert infos[0]["name"] == "openai"
    schemacast.validate({"type": "integer"}, 3)
    assert_type(schemacast.instruction(City), str)


if __name__ == "__main__":
    main()
