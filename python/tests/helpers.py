"""Shared helpers: paths to the repository's fixtures, and loaders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
APPS = FIXTURES / "apps"
RESPONSES = REPO / "src" / "tests" / "responses"


def load(path: Path) -> Any:
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def instances(schema_path: Path) -> list[Any]:
    """The valid instances kept beside an apps fixture (one JSON value a line)."""
    lines = schema_path.with_suffix(".instances.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def fixture_kwargs(case: dict[str, Any]) -> dict[str, Any]:
    """The `emit` keywords a recorded response names, as src/tests/mod.rs's
    `fixture_emission` reads them: its `mode` (default `schema`), `reshape`,
    Claude's `mechanism` and `thinking`."""
    kwargs: dict[str, Any] = {
        "mode": case.get("mode", "schema"),
        "reshape": case.get("reshape") is True,
        "claude_thinking": case.get("thinking") is True,
    }
    if "mechanism" in case:
        kwargs["claude_mechanism"] = case["mechanism"]
    return kwargs


def app_schemas() -> list[Path]:
    return sorted(p for p in APPS.glob("*.json"))

