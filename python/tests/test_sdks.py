"""Round trips through the official Python SDKs, with no network.

Each test spreads an emission into the SDK's ordinary call, captures the
request the SDK actually sends (an httpx MockTransport under the SDK's own
client), checks that the fragment arrived intact where the provider expects
it, answers with a response of the provider's recorded shape carrying
`emission.response_for(answer)`'s answer, and decodes the SDK's own response
object back to the answer.

openai, anthropic and google-genai run on httpx2 (the httpx fork they moved
to), ollama on httpx; each test injects a transport of the library its SDK uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, List, Literal, NamedTuple, Optional

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
from helpers import APPS, RESPONSES, app_schemas, fixture_kwargs, instances, load

Body = Callable[[dict[str, Any]], dict[str, Any]]


class Item(pydantic.BaseModel):
    sku: str = pydantic.Field(pattern=r"^[A-Z]{3}-\d{4}$")
    quantity: int = pydantic.Field(ge=1)


class Order(pydantic.BaseModel):
    """A model defined here: its schema has `$defs`, a pattern, bounds, an enum and an optional field."""

    order_id: str
    status: Literal["pending", "shipped", "delivered"]
    items: List[Item]
    note: Optional[str] = None


ORDER = Order(order_id="A-17", status="shipped", items=[Item(sku="ABC-1234", quantity=2)])

# Application schemas (fixtures/apps) as their generators emit them.
APP_CASES = ["pydantic-invoice", "openai-docs-ui-generation", "mcp-github-create-issue", "gemini-docs-recipe-list"]


class Case(NamedTuple):
    schema: Any  # the Order model, or an application schema
    answer: Any  # a valid answer, as JSON


@pytest.fixture(params=["Order", *APP_CASES])
def case(request: pytest.FixtureRequest) -> Case:
    """Each schema the SDK round trips run on: the Order model, then the application schemas."""
    if request.param == "Order":
        return Case(Order, ORDER.model_dump(mode="json"))
    path = APPS / f"{request.param}.json"
    return Case(load(path), instances(path)[0])


class Server:
    """A MockTransport handler: records every request the SDK sends and answers
    with `respond(request_json)` and the provider's headers."""

    def __init__(self, http: Any, respond: Callable[[dict[str, Any]], dict[str, Any]], headers: dict[str, str]):
        self.http = http
        self.respond = respond
        self.headers = headers
        self.requests: list[Any] = []

    def __call__(self, request: Any) -> Any:
        self.requests.append(request)
        return self.http.Response(200, json=self.respond(self.sent), headers=self.headers)

    @property
    def sent(self) -> dict[str, Any]:
        """The JSON body of the last request, exactly as the SDK serialised it."""
        parsed: dict[str, Any] = json.loads(self.requests[-1].content)
        return parsed

    @property
    def last(self) -> Any:
        return self.requests[-1]

    def client(self) -> Any:
        return self.http.Client(transport=self.http.MockTransport(self))


# Each provider's HTTP library (see the module docstring), its response of the recorded
# shape around `response_for`'s minimal one (given the request's JSON), and its headers.
DEFAULT_TEXT = {"format": {"type": "text"}, "verbosity": "medium"}
WIRE: dict[str, tuple[Any, Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]], dict[str, str]]] = {
    "openai": (httpx2, lambda minimal, _: recorded.chat_completion(minimal), recorded.OPENAI_HEADERS),
    "openai-responses": (
        httpx2,
        lambda minimal, sent: recorded.response(minimal, sent.get("text", DEFAULT_TEXT)),
        recorded.OPENAI_HEADERS,
    ),
    "claude": (httpx2, lambda minimal, _: recorded.message(minimal), recorded.ANTHROPIC_HEADERS),
    "gemini": (httpx2, lambda minimal, _: recorded.generate_content(minimal), recorded.GEMINI_HEADERS),
    "ollama": (httpx, lambda minimal, _: recorded.ollama_chat(minimal), recorded.OLLAMA_HEADERS),
}


def serve(em: schemacast.Emission, answer: Any) -> Server:
    """A server for `em`'s provider that answers every request with `answer`."""
    http, wrap, headers = WIRE[em.provider]
    return Server(http, lambda sent: wrap(em.response_for(answer), sent), headers)


def exchange(case: Case, provider: str, **options: Any) -> tuple[schemacast.Emission, Any, Server]:
    """The case's schema compiled for `provider`, its answer as the provider may return
    it (the projection), and a server that answers with it."""
    em = schemacast.emit(case.schema, provider, **options)
    answer = em.project(case.answer)
    return em, answer, serve(em, answer)


def same_json(a: Any, b: Any) -> bool:
    """Equal, key order included (the order of `properties` is the order the model writes)."""
    return json.dumps(a) == json.dumps(b)


def arrived(sent: dict[str, Any], em: schemacast.Emission) -> None:
    """Every field of the fragment is in the request body, unchanged; an empty
    fragment (enforcement `prompt`: the schema goes in the prompt) sends nothing."""
    for field, value in em.body.items():
        assert same_json(sent[field], value), field
    if not em.body:
        assert em.enforcement == "prompt"


# --- OpenAI ---------------------------------------------------------------------------


def openai_client(server: Server) -> openai.OpenAI:
    return openai.OpenAI(
        api_key="sk-test", base_url="https://api.openai.test/v1", http_client=server.client(), max_retries=0
    )


@pytest.mark.parametrize("reshape", [False, True], ids=["plain", "reshaped"])
def test_openai_chat_completions(case: Case, reshape: bool) -> None:
    em, answer, server = exchange(case, "openai", reshape=reshape)
    completion = openai_client(server).chat.completions.create(
        model="gpt-4o-2024-08-06",
        messages=[{"role": "user", "content": "Extract the data."}],
        **em.body,
    )
    assert server.last.method == "POST" and server.last.url.path == "/v1/chat/completions"
    arrived(server.sent, em)
    if em.body:
        # The SDK's own request type accepts the fragment.
        pydantic.TypeAdapter(openai.types.chat.completion_create_params.ResponseFormat).validate_python(
            em.body["response_format"]
        )
    else:
        assert "response_format" not in server.sent
    assert isinstance(completion, openai.types.chat.ChatCompletion)
    assert completion._request_id == recorded.OPENAI_HEADERS["x-request-id"]
    assert em.decode(completion) == answer
    if case.schema is Order:
        assert em.decode(completion, model=Order) == ORDER
        assert em.body["response_format"]["json_schema"]["name"] == "Order"


def test_openai_json_mode_needs_the_word_json() -> None:
    em = schemacast.emit(Order, "openai", mode="json")
    assert em.body == {"response_format": {"type": "json_object"}}
    assert any('"json"' in n["reason"] for n in em.notes)
    server = serve(em, ORDER.model_dump(mode="json"))
    completion = openai_client(server).chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "Answer in JSON."}], **em.body
    )
    assert server.sent["response_format"] == {"type": "json_object"}
    assert em.decode(completion, model=Order) == ORDER


def test_openai_responses_api(case: Case) -> None:
    em, answer, server = exchange(case, "openai-responses")
    result = openai_client(server).responses.create(model="gpt-4.1", input="Extract the data.", **em.body)
    assert server.last.url.path == "/v1/responses"
    arrived(server.sent, em)
    if em.body:
        pydantic.TypeAdapter(openai.types.responses.ResponseTextConfigParam).validate_python(em.body["text"])
    assert json.loads(result.output_text) == answer
    assert em.decode(result) == answer


# --- Anthropic ------------------------------------------------------------------------


def anthropic_client(server: Server) -> anthropic.Anthropic:
    return anthropic.Anthropic(
        api_key="sk-ant-test", base_url="https://api.anthropic.test", http_client=server.client(), max_retries=0
    )


@pytest.mark.parametrize("mechanism", ["tool", "strict-tool", "output-format"])
def test_anthropic_messages(case: Case, mechanism: str) -> None:
    em, answer, server = exchange(case, "claude", claude_mechanism=mechanism)
    message = anthropic_client(server).messages.create(
        model="claude-sonnet-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Extract the data."}],
        **em.body,
        extra_headers=em.headers,
    )
    assert server.last.url.path == "/v1/messages"
    arrived(server.sent, em)
    # The mechanism asked for, or the fallback the notes explain; the SDK's types accept either.
    if "output_config" in em.body:
        pydantic.TypeAdapter(anthropic.types.OutputConfigParam).validate_python(em.body["output_config"])
    if "tools" in em.body:
        assert em.body["tool_choice"] == {"type": "tool", "name": em.body["tools"][0]["name"]}
        pydantic.TypeAdapter(anthropic.types.ToolParam).validate_python(em.body["tools"][0])
        pydantic.TypeAdapter(anthropic.types.ToolChoiceParam).validate_python(em.body["tool_choice"])
        if em.body["tools"][0].get("strict"):
            assert mechanism == "strict-tool"
    assert message._request_id == recorded.ANTHROPIC_HEADERS["request-id"]
    assert em.decode(message) == answer


def test_anthropic_legacy_beta_output_format_goes_through_extra_body() -> None:
    em = schemacast.emit(Order, "claude", claude_mechanism="output-format-beta")
    assert list(em.body) == ["output_format"]
    assert em.headers == {"anthropic-beta": "structured-outputs-2025-11-13"}
    server = serve(em, ORDER.model_dump(mode="json"))
    client = anthropic_client(server)
    kwargs: dict[str, Any] = {
        "model": "claude-sonnet-5",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Extract the order."}],
    }
    # anthropic 2.x dropped the `output_format` keyword (it keeps only `output_config`).
    with pytest.raises(TypeError, match="output_format"):
        client.messages.create(**kwargs, **em.body)
    assert server.requests == []
    message = client.messages.create(**kwargs, extra_body=em.body, extra_headers=em.headers)
    assert same_json(server.sent["output_format"], em.body["output_format"])
    assert server.last.headers["anthropic-beta"] == "structured-outputs-2025-11-13"
    assert em.decode(message, model=Order) == ORDER


# --- Google Gemini --------------------------------------------------------------------


def gemini_client(server: Server) -> genai.Client:
    return genai.Client(
        api_key="gemini-test",
        http_options=genai_types.HttpOptions(base_url="https://generativelanguage.test", httpx_client=server.client()),
    )


def camel(key: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key)


def normal(value: Any) -> Any:
    """Field names camelCased (the API reads both spellings), keys sorted, 2.0 as 2."""
    if isinstance(value, dict):
        return {camel(k): normal(v) for k, v in sorted(value.items(), key=lambda kv: camel(kv[0]))}
    if isinstance(value, list):
        return [normal(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def test_gemini_generation_config_response_schema(case: Case) -> None:
    em, answer, server = exchange(case, "gemini")
    fragment = em.body["generationConfig"]
    client = gemini_client(server)

    # The path the SDK documents: its own request type accepts the camelCase fragment...
    config = genai_types.GenerateContentConfig(**fragment)
    result = client.models.generate_content(model="gemini-2.5-flash", contents="Extract the data.", config=config)
    assert server.last.url.path.endswith("/models/gemini-2.5-flash:generateContent")
    sent = server.sent["generationConfig"]
    if "responseSchema" in fragment:
        # ...but google-genai rebuilds `responseSchema` (t_schema/process_schema): keys
        # reordered, some field names sent snake_case (`property_ordering`, `min_items`).
        assert not same_json(sent, fragment)
        assert normal(sent) == normal(fragment)  # the same schema, spelled differently
    else:
        assert em.enforcement == "json" and same_json(sent, fragment)
    assert em.decode(result) == answer

    # The path that sends the fragment unchanged: the body merged by `http_options.extra_body`.
    config = genai_types.GenerateContentConfig(
        temperature=0.2, http_options=genai_types.HttpOptions(extra_body=em.body)
    )
    result = client.models.generate_content(model="gemini-2.5-flash", contents="Extract the data.", config=config)
    sent = server.sent["generationConfig"]
    assert sent["temperature"] == 0.2
    assert same_json({k: v for k, v in sent.items() if k != "temperature"}, fragment)
    assert isinstance(result, genai_types.GenerateContentResponse)
    assert em.decode(result) == answer
    if case.schema is Order:
        assert em.decode(result, model=Order) == ORDER


def test_gemini_generation_config_response_json_schema(case: Case) -> None:
    em, answer, server = exchange(case, "gemini", gemini_dialect="json-schema")
    fragment = em.body["generationConfig"]
    assert "responseJsonSchema" in fragment  # every case has a native schema in this dialect
    config = genai_types.GenerateContentConfig(**fragment)
    result = gemini_client(server).models.generate_content(
        model="gemini-2.5-flash", contents="Extract the data.", config=config
    )
    # `response_json_schema` is passed through untouched.
    assert same_json(server.sent["generationConfig"], fragment)
    assert em.decode(result) == answer


@pytest.mark.parametrize("path", app_schemas(), ids=lambda p: p.stem)
def test_gemini_sdk_keeps_every_app_schema_equivalent(path: Path) -> None:
    """Over every application schema: the SDK's rewrite of `responseSchema`
    changes spelling and order only, and `extra_body` sends it byte for byte."""
    em = schemacast.emit(load(path), "gemini")
    server = serve(em, {})
    client = gemini_client(server)
    fragment = em.body["generationConfig"]
    client.models.generate_content(
        model="gemini-2.5-flash", contents="x", config=genai_types.GenerateContentConfig(**fragment)
    )
    assert normal(server.sent["generationConfig"]) == normal(fragment)
    client.models.generate_content(
        model="gemini-2.5-flash",
        contents="x",
        config=genai_types.GenerateContentConfig(http_options=genai_types.HttpOptions(extra_body=em.body)),
    )
    assert same_json(server.sent["generationConfig"], fragment)


# --- Ollama ---------------------------------------------------------------------------


def ollama_client(server: Server) -> ollama.Client:
    return ollama.Client(host="http://ollama.test:11434", transport=httpx.MockTransport(server))


@pytest.mark.parametrize("mode", ["schema", "json"])
def test_ollama_chat(case: Case, mode: str) -> None:
    em, answer, server = exchange(case, "ollama", mode=mode)
    result = ollama_client(server).chat(
        model="llama3.1:8b", messages=[{"role": "user", "content": "Extract the data."}], **em.body
    )
    assert server.last.url.path == "/api/chat"
    arrived(server.sent, em)
    if em.body:
        assert (em.body["format"] == "json") is (mode == "json")
    # The SDK's own request type accepts the fragment.
    ollama._types.ChatRequest(model="llama3.1:8b", messages=[], **em.body)
    assert isinstance(result, ollama.ChatResponse)
    assert em.decode(result) == answer


# --- every recorded response, through each SDK's response object ------------------------

SDK_CALLS: dict[str, Callable[[Server, schemacast.Emission], Any]] = {
    "openai": lambda s, em: openai_client(s).chat.completions.create(model="gpt-4o", messages=[], **em.body),
    "openai-responses": lambda s, em: openai_client(s).responses.create(model="gpt-4.1", input="x", **em.body),
    "claude": lambda s, em: anthropic_client(s).messages.create(
        model="claude-sonnet-5", max_tokens=64, messages=[], extra_body=em.body
    ),
    "gemini": lambda s, em: gemini_client(s).models.generate_content(
        model="gemini-2.5-flash",
        contents="x",
        config=genai_types.GenerateContentConfig(http_options=genai_types.HttpOptions(extra_body=em.body)),
    ),
    "ollama": lambda s, em: ollama_client(s).chat(model="m", messages=[], **em.body),
}


def recorded_cases() -> list[Path]:
    # Error bodies come with an HTTP error status, which every SDK raises as its own exception.
    # An empty list fails at collection (pytest's `empty_parameter_set_mark`, pyproject.toml).
    return [p for name in SDK_CALLS for p in sorted((RESPONSES / name).glob("*.json")) if p.stem != "error-body"]


def test_every_sdk_has_recorded_responses() -> None:
    assert {p.parent.name for p in recorded_cases()} == set(SDK_CALLS)


def outcome(em: schemacast.Emission, response: Any) -> tuple[str, ...]:
    try:
        answer = em.decode_answer(response)
    except schemacast.DecodeError as e:
        return (type(e).__name__, str(e))
    return ("ok", json.dumps(answer.value), answer.finish_reason)


@pytest.mark.parametrize("path", recorded_cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_sdk_response_objects_decode_as_their_wire_body(path: Path) -> None:
    """Refusals, truncations, thoughts, safety stops, violations: decoding the
    SDK's parsed object gives what decoding the raw body gives."""
    case = load(path)
    provider = path.parent.name
    em = schemacast.emit(case["schema"], provider, **fixture_kwargs(case))
    http = WIRE[provider][0]
    server = Server(http, lambda _: case["body"], {"content-type": "application/json"})
    sdk_object = SDK_CALLS[provider](server, em)
    assert not isinstance(sdk_object, dict)
    assert outcome(em, sdk_object) == outcome(em, case["body"])
