"""Fixtures shared by the test modules (helpers live in helpers.py)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import APPS, instances, load


@pytest.fixture
def invoice() -> tuple[dict[str, Any], dict[str, Any]]:
    """An application schema (Pydantic's output) and one valid instance."""
    path = APPS / "pydantic-invoice.json"
    return load(path), instances(path)[0]
