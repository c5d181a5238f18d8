"""Streaming: `Emission.stream()` fed events, raw bytes and SDK stream objects."""

from __future__ import annotations

import asyncio
import json
from typing import Any, List, Literal, Optional

import anthropic
import httpx
import httpx2
import ollama
import openai
import pydantic
import pytest
import recorded
import schemacast
from google import genai
from google.genai import types as genai_types
from helpers import app_schemas, instances, load


class Ticket(pydantic.BaseModel):
    title: str
    priority: Literal["low", "normal", "high"]
    tags: List[str] = []
    assignee: Optional[str] = None


TICKET = Ticket(title='Fix "login" – ünïcode', priority="high", tags=["auth", "web"])
PROVIDERS = [p["name"] for p in schemacast.providers()]


def transcript(provider: str, events: list[dict[str, Any]], done: bool = True) -> bytes:
    """The raw response body of a stream: NDJSON for Ollama, else SSE (named by
    `type` where the provider names its events), ending with OpenAI's `[DONE]`
    (which the decoder skips) unless `done` is false."""
    if provider == "ollama":
        return b"".join(json.dumps(e).encode() + b"\n" for e in events)
    named = provider in ("claude", "openai-responses")
    parts = [(f"event: {e['type']}\n" if named else "") + f"data: {json.dumps(e)}\n\n" for e in events]
    return "".join(parts + (["data: [DONE]\n\n"] if done else [])).encode()


def prefix_of(partial: Any, final: Any) -> bool:
    """`partial` is `final` cut somewhere: a prefix of each open string, array and object."""
    if isinstance(partial, dict) and isinstance(final, dict):
        keys = list(partial)
        return keys == list(final)[: len(keys)] and all(prefix_of(partial[k], final[k]) for k in keys)
    if isinstance(partial, list) and isinstance(final, list):
        return len(partial) <= len(final) and all(prefix_of(a, b) for a, b in zip(partial, final))
    if isinstance(partial, str) and isinstance(final, str):
        return final.startswith(partial)
    return bool(partial == final)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_provider_streams_to_what_decode_returns(provider: str) -> None:
    em = schemacast.emit(Ticket, provider)
    answer = em.project(TICKET.model_dump(mode="json"))
    whole = em.decode_answer(em.response_for(answer), model=Ticket)
    events = em.events_for(answer, 5)
    assert len(events) > 10
    stream = em.stream()
    seen = []
    for event in events:
        partial = stream.push(event)
        assert partial.error is None
        value = partial.value
        if value is not None:
            assert prefix_of(value, answer), (value, answer)
        seen.extend(partial.completed)
    assert stream.value == answer
    result = stream.finish_answer(model=Ticket)
    assert result.value == whole.value == TICKET
    assert result.finish_reason == whole.finish_reason
    # Every part of the answer was reported complete once, the root last.
    assert seen[-1] == "" and len(seen) == len(set(seen))
    assert "/title" in seen and "/tags/1" in seen


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("size", [1, 7, 4096])
def test_raw_bytes_in_chunks_cut_anywhere(provider: str, size: int) -> None:
    em = schemacast.emit(Ticket, provider)
    answer = em.project(TICKET.model_dump(mode="json"))
    body = transcript(provider, em.events_for(answer, 3))
    pushed = em.stream()
    expected = [p for e in em.events_for(answer, 3) for p in pushed.push(e).completed]
    stream = em.stream()
    completed = []
    for i in range(0, len(body), size):
        partial = stream.feed(body[i : i + size])
        assert partial.error is None
        completed.extend(partial.completed)
    # Each pointer once, as the events pushed one by one report them.
    assert completed == expected and completed[-1] == ""
    assert stream.finish(model=Ticket) == TICKET


def test_an_ndjson_body_without_its_last_newline_is_read_at_finish() -> None:
    em = schemacast.emit(Ticket, "ollama")
    answer = TICKET.model_dump(mode="json")
    body = transcript("ollama", em.events_for(answer, 4)).rstrip(b"\n")
    stream = em.stream()
    stream.feed(body)
    assert stream.finish() == answer


def test_events_as_text_bytes_dicts_and_model_objects() -> None:
    em = schemacast.emit(Ticket, "openai")
    answer = TICKET.model_dump(mode="json")
    events = em.events_for(answer, 6)

    class Chunk(pydantic.BaseModel):
        """Stands for an SDK chunk object (it has `model_dump`)."""

        model_config = pydantic.ConfigDict(extra="allow")

    stream = em.stream()
    forms = [json.dumps, lambda e: json.dumps(e).encode(), lambda e: e, lambda e: Chunk(**e)]
    for i, event in enumerate(events):
        stream.push(forms[i % 4](event))
    assert stream.push("[DONE]").error is None
    assert stream.push("").error is None
    assert stream.finish() == answer
    with pytest.raises(TypeError, match="event must be"):
        em.stream().push(42)
    with pytest.raises(TypeError, match="chunk must be"):
        em.stream().feed(42)


def test_an_early_error_names_the_place_and_finish_raises_it() -> None:
    em = schemacast.emit(Ticket, "openai")
    stream = em.stream()
    first = None
    for event in em.events_for({"title": "x", "priority": "urgent", "tags": []}, 4):
        partial = stream.push(event)
        if partial.error is not None and first is None:
            first = partial.error
            # Certain before the string ends: no member of the enum starts with "ur".
            assert stream.value["priority"] in ("u", "ur", "urg", "urge", "urgen")
    assert first is not None
    assert partial.error is partial.error, "one EarlyError object per Partial"
    assert first.kind == "schema_violation" and first.pointer == "/priority"
    assert "enum" in first.message and str(first) == first.message
    assert "schema_violation" in repr(first)
    with pytest.raises(schemacast.SchemaViolation) as raised:
        stream.finish()
    assert raised.value.violations[0]["pointer"] == "/priority"


def test_refusal_and_truncation_are_the_decode_errors() -> None:
    em = schemacast.emit(Ticket, "openai")
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    refusal = em.stream()
    for piece in ["I can't", " help with that."]:
        partial = refusal.push({**chunk, "choices": [{"index": 0, "delta": {"refusal": piece}}]})
    assert partial.error is not None and partial.error.kind == "refusal" and partial.error.pointer is None
    with pytest.raises(schemacast.Refusal):
        refusal.finish()
    cut = em.stream()
    for event in em.events_for(TICKET.model_dump(mode="json"), 8)[:-1]:
        cut.push(event)
    cut.push({**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]})
    with pytest.raises(schemacast.Truncated):
        cut.finish()


def test_a_partial_answers_only_while_it_is_the_latest() -> None:
    em = schemacast.emit(Ticket, "openai")
    stream = em.stream()
    events = em.events_for(TICKET.model_dump(mode="json"), 4)
    first = None
    for event in events:
        partial = stream.push(event)
        if first is None and partial.value is not None:
            first = partial
    assert first is not None
    with pytest.raises(RuntimeError, match="stale"):
        first.value
    # What it told is kept; only the value is read from the stream.
    assert isinstance(first.completed, list) and (first.open is None or first.open.startswith("/") or first.open == "")
    assert partial.value == TICKET.model_dump(mode="json")
    assert "Partial" in repr(partial) and "open" in repr(stream)
    assert stream.finish() == TICKET.model_dump(mode="json")
    assert "finished" in repr(stream)
    for spent in (lambda: stream.finish(), lambda: stream.push(events[0]), lambda: stream.value):
        with pytest.raises(RuntimeError, match="finished"):
            spent()
    # A push refused after the end is not counted.
    assert f"after {len(events)} events" in repr(stream)
    with pytest.raises(RuntimeError, match="stale"):
        partial.value


def test_streams_are_independent_and_outlive_their_emission_name() -> None:
    em = schemacast.emit(Ticket, "claude")
    a, b = em.stream(), em.stream()
    del em
    answer = TICKET.model_dump(mode="json")
    events = schemacast.emit(Ticket, "claude").events_for(answer, 9)
    for event in events:
        a.push(event)
    for event in events[: len(events) // 2]:
        b.push(event)
    assert a.finish() == answer
    # Cut off with no stop reason: the tool input is not JSON, as `decode` says of it.
    with pytest.raises(schemacast.NotJson):
        b.finish()


@pytest.mark.parametrize("path", app_schemas(), ids=lambda p: p.stem)
def test_app_schemas_stream_with_reshape(path: Any) -> None:
    schema = load(path)
    for provider in ("openai", "gemini", "claude"):
        em = schemacast.emit(schema, provider, reshape=True)
        for instance in instances(path)[:2]:
            answer = em.project(instance)
            stream = em.stream()
            for event in em.events_for(answer, 11):
                stream.push(event)
            assert stream.finish() == em.decode(em.response_for(answer))


# --- the SDKs' own stream objects, over a mock transport ---------------------------------


def serve_stream(http: Any, body: bytes, content_type: str, headers: dict[str, str]) -> Any:
    """A mock transport of `http` (the SDK's HTTP library) answering every request with `body`."""

    def handler(request: Any) -> Any:
        return http.Response(200, content=body, headers={"content-type": content_type, **headers})

    return http.MockTransport(handler)


def pushed(stream: schemacast.Stream, items: Any, kind: type) -> int:
    """Pushes every item an SDK's stream yields (each a `kind`); how many there were."""
    n = 0
    for item in items:
        assert isinstance(item, kind)
        assert stream.push(item).error is None
        n += 1
    return n


def sse_client(provider: str, headers: dict[str, str]) -> tuple[schemacast.Emission, Any]:
    """The Ticket emission for `provider`, and an httpx2 client streaming its events back
    (5-byte pieces of the answer, as SSE)."""
    em = schemacast.emit(Ticket, provider)
    body = transcript(provider, em.events_for(TICKET.model_dump(mode="json"), 5), done=provider == "openai")
    return em, httpx2.Client(transport=serve_stream(httpx2, body, "text/event-stream", headers))


def test_openai_sdk_chunks() -> None:
    em, http = sse_client("openai", recorded.OPENAI_HEADERS)
    client = openai.OpenAI(api_key="sk-test", base_url="https://api.openai.test/v1", http_client=http, max_retries=0)
    stream = em.stream()
    chunks = client.chat.completions.create(model="gpt-4o", messages=[], stream=True, **em.body)
    assert pushed(stream, chunks, openai.types.chat.ChatCompletionChunk) > 10
    assert stream.finish(model=Ticket) == TICKET


def test_openai_async_sdk_chunks() -> None:
    """`push` is synchronous and cheap: an `async for` over the async client's stream feeds it."""
    em = schemacast.emit(Ticket, "openai")
    body = transcript("openai", em.events_for(TICKET.model_dump(mode="json"), 5))
    transport = serve_stream(httpx2, body, "text/event-stream", recorded.OPENAI_HEADERS)

    async def run() -> Any:
        async with httpx2.AsyncClient(transport=transport) as http:
            client = openai.AsyncOpenAI(
                api_key="sk-test", base_url="https://api.openai.test/v1", http_client=http, max_retries=0
            )
            stream = em.stream()
            chunks = await client.chat.completions.create(model="gpt-4o", messages=[], stream=True, **em.body)
            async for chunk in chunks:
                assert stream.push(chunk).error is None
            return stream.finish(model=Ticket)

    assert asyncio.run(run()) == TICKET


def test_anthropic_sdk_events() -> None:
    em, http = sse_client("claude", recorded.ANTHROPIC_HEADERS)
    client = anthropic.Anthropic(
        api_key="sk-ant-test", base_url="https://api.anthropic.test", http_client=http, max_retries=0
    )
    stream = em.stream()
    kinds = set()
    for event in client.messages.create(model="claude-sonnet-5", max_tokens=64, messages=[], stream=True, **em.body):
        kinds.add(event.type)
        stream.push(event)
    assert {"message_start", "content_block_start", "content_block_delta", "message_stop"} <= kinds
    answer = stream.finish_answer(model=Ticket)
    assert answer.value == TICKET and answer.finish_reason == "tool_calls"


def test_gemini_sdk_responses() -> None:
    em, http = sse_client("gemini", recorded.GEMINI_HEADERS)
    options = genai_types.HttpOptions(base_url="https://generativelanguage.test", httpx_client=http)
    client = genai.Client(api_key="gemini-test", http_options=options)
    config = genai_types.GenerateContentConfig(http_options=genai_types.HttpOptions(extra_body=em.body))
    stream = em.stream()
    responses = client.models.generate_content_stream(model="gemini-2.5-flash", contents="x", config=config)
    assert pushed(stream, responses, genai_types.GenerateContentResponse) > 10
    assert stream.finish(model=Ticket) == TICKET


def test_ollama_sdk_responses() -> None:
    em = schemacast.emit(Ticket, "ollama")
    answer = TICKET.model_dump(mode="json")
    body = transcript("ollama", em.events_for(answer, 5))
    transport = serve_stream(httpx, body, "application/x-ndjson", recorded.OLLAMA_HEADERS)
    client = ollama.Client(host="http://ollama.test:11434", transport=transport)
    stream = em.stream()
    assert pushed(stream, client.chat(model="m", messages=[], stream=True, **em.body), ollama.ChatResponse) > 10
    assert stream.finish(model=Ticket) == TICKET


def test_bedrock_payloads_named_by_their_sse_event() -> None:
    """Bedrock's payloads given without their `{"contentBlockDelta": …}` wrapper need the
    SSE `event:` name, as a dict or as text."""
    em = schemacast.emit(Ticket, "bedrock")
    answer = TICKET.model_dump(mode="json")
    for form in (lambda v: v, json.dumps):
        stream = em.stream()
        for event in em.events_for(answer, 6):
            ((name, payload),) = event.items()
            stream.push(form(payload), name=name)
        assert stream.finish() == answer
    # Without the name, a bare payload says nothing: the stream never started.
    unnamed = em.stream()
    for event in em.events_for(answer, 6):
        unnamed.push(next(iter(event.values())))
    with pytest.raises(schemacast.DecodeError):
        unnamed.finish()
