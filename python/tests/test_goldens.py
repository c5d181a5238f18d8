"""The binding against the core's golden snapshots: every fixture, every target
(provider or option variant) and every mode rendered from Python exactly as
src/tests/golden.rs renders them, and every recorded response decoded as
src/tests/decode.rs does. Any change of a value, a key order, an option's
mapping or an error's fields shows up as a difference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import schemacast
from helpers import FIXTURES, REPO, RESPONSES, fixture_kwargs, load

SNAPSHOTS = REPO / "snapshots"
MAX_SHOWN_BODY = 16 * 1024

# src/tests/golden.rs `targets()`: folder name -> emit keywords.
TARGETS: dict[str, dict[str, Any]] = {p["name"]: {"provider": p["name"]} for p in schemacast.providers()}
TARGETS.update(
    {
        "gemini-json-schema": {"provider": "gemini", "gemini_dialect": "json-schema"},
        "openai-reshape": {"provider": "openai", "reshape": True},
        "claude-reshape": {"provider": "claude", "reshape": True},
        "claude-strict-tool": {"provider": "claude", "claude_mechanism": "strict-tool"},
        "claude-output-format": {"provider": "claude", "claude_mechanism": "output-format"},
        "claude-output-format-beta": {"provider": "claude", "claude_mechanism": "output-format-beta"},
        "bedrock-strict-tool": {"provider": "bedrock", "claude_mechanism": "strict-tool"},
        "gemini-reshape": {"provider": "gemini", "reshape": True},
        "claude-output-format-reshape": {
            "provider": "claude",
            "claude_mechanism": "output-format",
            "reshape": True,
        },
        "claude-thinking": {"provider": "claude", "claude_thinking": True},
    }
)


# The snapshot folders that are not emission targets: those of src/tests/decode.rs,
# src/tests/stream.rs and src/tests/corpus.rs (the JSON-Schema-Test-Suite).
NOT_TARGETS = {"decode", "stream", "suite"}


def test_the_targets_are_the_core_snapshot_folders() -> None:
    """TARGETS copies golden.rs's list: every target here has a folder, and every
    folder of a target is here."""
    assert set(TARGETS) == {d.name for d in SNAPSHOTS.iterdir() if d.is_dir()} - NOT_TARGETS


def documents() -> dict[str, Any]:
    """The resources group's documents, under their path and their `$id` (as golden.rs)."""
    out: dict[str, Any] = {}
    for f in sorted((FIXTURES / "resources" / "documents").glob("*.json")):
        doc = load(f)
        if isinstance(doc, dict) and isinstance(doc.get("$id"), str):
            out[doc["$id"]] = doc
        out[f"documents/{f.name}"] = doc
    return out


def pretty(value: Any) -> str:
    """serde_json's `to_string_pretty`."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def at(pointer: str) -> str:
    return pointer if pointer else "(root)"


def render_mode(schema: Any, kwargs: dict[str, Any], mode: str) -> str:
    out = []
    try:
        em = schemacast.emit(schema, mode=mode, **kwargs)
    except schemacast.SchemaError as e:
        out.append(f"error: {e.kind}")
        out.extend(f"- at {at(p)}: {m}" for p, m in e.problems)
        return "".join(line + "\n" for line in out)
    out.append(f"enforcement: {em.enforcement}")
    body = pretty(em.body)
    if len(body.encode()) > MAX_SHOWN_BODY:
        raw = body.encode()
        out.append(f"body: ({len(raw)} bytes, fnv1a-64 {fnv1a(raw):016x}; too large to show)")
    else:
        out.append(f"body: {body}")
    out.extend(f"header: {k}: {v}" for k, v in em.headers.items())
    for n in em.notes:
        if n["keyword"]:
            out.append(f"- {at(n['pointer'])}: `{n['keyword']}` {n['action']}: {n['reason']}")
        else:
            out.append(f"- {at(n['pointer'])}: {n['action']}: {n['reason']}")
    return "".join(line + "\n" for line in out)


def render(schema: Any, kwargs: dict[str, Any]) -> str:
    sections: list[tuple[list[str], str]] = []
    for mode in ("schema", "json", "text"):
        text = render_mode(schema, kwargs, mode)
        if sections and sections[-1][1] == text:
            sections[-1][0].append(mode)
        else:
            sections.append(([mode], text))
    return "".join(f"== {', '.join(names)}\n{text}\n" for names, text in sections)


def snapshot_text(path: Path) -> str:
    """The snapshot's content after insta's header, as insta compares it."""
    text = path.read_text(encoding="utf-8")
    _, _, content = text.partition("\n---\n")
    return content.strip("\n")


def fixture_cases() -> list[Path]:
    # An empty list fails at collection (pytest's `empty_parameter_set_mark`, pyproject.toml).
    groups = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name != "json-schema-test-suite")
    return [f for g in groups for f in sorted(g.glob("*.json"))]


@pytest.mark.parametrize("fixture", fixture_cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_target_and_mode_matches_the_core_snapshot(fixture: Path) -> None:
    schema = load(fixture)
    group = fixture.parent.name
    docs = documents() if group == "resources" else None
    checked = 0
    for target, kwargs in TARGETS.items():
        snap = SNAPSHOTS / target / f"{group}__{fixture.stem}.snap"
        if not snap.exists():
            continue
        kw = dict(kwargs)
        if docs:
            kw["resources"] = docs
        assert render(schema, kw).strip("\n") == snapshot_text(snap), f"{target}: {snap}"
        checked += 1
    assert checked == len(TARGETS), f"a snapshot is missing for {fixture}"


def response_cases() -> list[Path]:
    # An empty list fails at collection (pytest's `empty_parameter_set_mark`, pyproject.toml).
    return sorted(RESPONSES.glob("*/*.json"))


def render_decode(case: dict[str, Any], provider: str) -> str:
    em = schemacast.emit(case["schema"], provider, **fixture_kwargs(case))
    out = [f"enforcement: {em.enforcement}"]
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    try:
        answer = em.decode_answer(case["body"])
    except schemacast.SchemaViolation as e:
        out += [f"error: {e.kind}", f"value: {json.dumps(e.value, **compact)}"]  # type: ignore[arg-type]
        out += [f"- at {at(v['pointer'])}: {v['message']} [schema {v['schema_pointer']}]" for v in e.violations]
    except schemacast.DecodeError as e:
        out += [f"error: {e.kind}", f"- {e}"]
    else:
        out.append(f"ok, finish_reason: {answer.finish_reason}")
        out.append(f"value: {json.dumps(answer.value, **compact)}")  # type: ignore[arg-type]
    return "\n".join(out)


@pytest.mark.parametrize("path", response_cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_recorded_response_decodes_as_the_core_snapshot(path: Path) -> None:
    provider = path.parent.name
    expected = snapshot_text(SNAPSHOTS / "decode" / f"{provider}__{path.stem}.snap")
    assert render_decode(load(path), provider) == expected


def test_every_decode_snapshot_has_its_recorded_response() -> None:
    """The recorded responses are the decode snapshots' cases, one for one (and there are some)."""
    cases = {f"{p.parent.name}__{p.stem}" for p in response_cases()}
    assert cases and cases == {s.stem for s in (SNAPSHOTS / "decode").glob("*.snap")}
