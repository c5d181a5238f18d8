"""python/README.md's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def example() -> str:
    """The first Python block under the "## Example" heading."""
    section = README.read_text(encoding="utf-8").split("\n## Example\n", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def test_the_top_level_readme_shows_the_same_example() -> None:
    top = README.parents[1] / "README.md"
    section = top.read_text(encoding="utf-8").split("\n## Python\n", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    assert found.group(1) == example()


def test_the_readme_example_is_five_lines_and_runs() -> None:
    code = example()
    assert len(code.strip().splitlines()) == 5
    namespace: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102
    em = namespace["em"]
    assert em.enforcement == "exact"  # type: ignore[attr-defined]
    assert em.body["response_format"]["type"] == "json_schema"  # type: ignore[attr-defined]
