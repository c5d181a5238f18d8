"""Provider responses of the shape the real APIs return (field for field as in
their API references and recorded exchanges), carrying the answer that
`Emission.response_for` puts where each provider puts it, and the headers the
real services send."""

from __future__ import annotations

import copy
from typing import Any

OPENAI_HEADERS = {
    "content-type": "application/json",
    "x-request-id": "req_9b3f2c1e8a7d4e6f9a0b1c2d3e4f5a6b",
    "openai-organization": "user-abc123",
    "openai-processing-ms": "812",
    "openai-version": "2020-10-01",
    "x-ratelimit-limit-requests": "10000",
    "x-ratelimit-remaining-requests": "9999",
    "x-ratelimit-reset-requests": "6ms",
}

ANTHROPIC_HEADERS = {
    "content-type": "application/json",
    "request-id": "req_011CVqKgGvWmJ3hQbX8Ypz1N",
    "anthropic-organization-id": "5f0e2c1a-7b3d-4e8f-9a6b-0c1d2e3f4a5b",
    "anthropic-ratelimit-requests-limit": "4000",
    "anthropic-ratelimit-requests-remaining": "3999",
    "via": "1.1 google",
}

GEMINI_HEADERS = {
    "content-type": "application/json; charset=UTF-8",
    "vary": "Origin, X-Origin, Referer",
    "server": "scaffolding on HTTPServer2",
    "server-timing": "gfet4t7; dur=1418",
    "x-content-type-options": "nosniff",
}

OLLAMA_HEADERS = {"content-type": "application/json; charset=utf-8"}

_CHAT_COMPLETION: dict[str, Any] = {
    "id": "chatcmpl-CGz7kq2Zb1x0a9PfT3mNvW8sYdE4R",
    "object": "chat.completion",
    "created": 1764460800,
    "model": "gpt-4o-2024-08-06",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": None, "refusal": None, "annotations": []},
            "logprobs": None,
            "finish_reason": None,
        }
    ],
    "usage": {
        "prompt_tokens": 81,
        "completion_tokens": 64,
        "total_tokens": 145,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    },
    "service_tier": "default",
    "system_fingerprint": "fp_cbf1785567",
}

_RESPONSE: dict[str, Any] = {
    "id": "resp_68d1c2b3a4f58190a1b2c3d4e5f60718",
    "object": "response",
    "created_at": 1764460800,
    "status": "completed",
    "background": False,
    "error": None,
    "incomplete_details": None,
    "instructions": None,
    "max_output_tokens": None,
    "model": "gpt-4.1-2025-04-14",
    "output": [
        {
            "id": "msg_68d1c2b4e7c08190b2c3d4e5f6071829",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": None, "annotations": [], "logprobs": []}],
        }
    ],
    "parallel_tool_calls": True,
    "previous_response_id": None,
    "reasoning": {"effort": None, "summary": None},
    "store": True,
    "temperature": 1.0,
    "text": None,
    "tool_choice": "auto",
    "tools": [],
    "top_p": 1.0,
    "truncation": "disabled",
    "usage": {
        "input_tokens": 52,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 61,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 113,
    },
    "user": None,
    "metadata": {},
}

_MESSAGE: dict[str, Any] = {
    "id": "msg_01HxQ7tGm2c5Vb3KdP9sWn4E",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-5",
    "content": None,
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {
        "input_tokens": 612,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 97,
        "service_tier": "standard",
    },
}

_GENERATE_CONTENT: dict[str, Any] = {
    "candidates": [{"content": None, "finishReason": None, "avgLogprobs": -0.0412, "index": 0}],
    "usageMetadata": {
        "promptTokenCount": 48,
        "candidatesTokenCount": 73,
        "totalTokenCount": 121,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 48}],
    },
    "modelVersion": "gemini-2.5-flash",
    "responseId": "mGjdaL2bBLGz1MkP8c2QmQ4",
}

_OLLAMA_CHAT: dict[str, Any] = {
    "model": "llama3.1:8b",
    "created_at": "2026-11-30T08:00:00.123456789Z",
    "message": None,
    "done_reason": None,
    "done": True,
    "total_duration": 4883583458,
    "load_duration": 1334875,
    "prompt_eval_count": 26,
    "prompt_eval_duration": 342546000,
    "eval_count": 82,
    "eval_duration": 4535599000,
}


def chat_completion(minimal: dict[str, Any]) -> dict[str, Any]:
    """A Chat Completions body around `response_for`'s choice."""
    body = copy.deepcopy(_CHAT_COMPLETION)
    choice = minimal["choices"][0]
    body["choices"][0]["message"]["content"] = choice["message"]["content"]
    body["choices"][0]["finish_reason"] = choice["finish_reason"]
    return body


def response(minimal: dict[str, Any], text_config: dict[str, Any]) -> dict[str, Any]:
    """A Responses API body around `response_for`'s message item; `text`
    echoes the request's `text` setting, as the API does."""
    body = copy.deepcopy(_RESPONSE)
    message = next(item for item in minimal["output"] if item["type"] == "message")
    body["output"][0]["content"][0]["text"] = message["content"][0]["text"]
    body["text"] = text_config
    return body


def message(minimal: dict[str, Any]) -> dict[str, Any]:
    """An Anthropic Messages body around `response_for`'s content blocks."""
    body = copy.deepcopy(_MESSAGE)
    body["content"] = copy.deepcopy(minimal["content"])
    for block in body["content"]:
        if block["type"] == "tool_use":
            block["id"] = "toolu_01A09q90qw90lq917835lq9"
    body["stop_reason"] = minimal["stop_reason"]
    return body


def generate_content(minimal: dict[str, Any]) -> dict[str, Any]:
    """A Gemini generateContent body around `response_for`'s candidate."""
    body = copy.deepcopy(_GENERATE_CONTENT)
    candidate = minimal["candidates"][0]
    body["candidates"][0]["content"] = copy.deepcopy(candidate["content"])
    body["candidates"][0]["finishReason"] = candidate["finishReason"]
    return body


def ollama_chat(minimal: dict[str, Any]) -> dict[str, Any]:
    """An Ollama /api/chat body around `response_for`'s message."""
    body = copy.deepcopy(_OLLAMA_CHAT)
    body["message"] = copy.deepcopy(minimal["message"])
    body["done_reason"] = minimal["done_reason"]
    return body
