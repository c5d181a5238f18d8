"""python/README.md's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

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


def streaming_example(text: str, heading: str) -> str:
    """The first Python block under `heading` that makes a stream."""
    section = text.split(heading, 1)[1]
    for block in re.findall(r"```python\n(.*?)```", section, re.S):
        if "em.stream()" in block:
            return str(block)
    raise AssertionError(f"no streaming example under {heading!r}")


def test_the_streaming_example_runs_and_both_readmes_show_it() -> None:
    ours = streaming_example(README.read_text(encoding="utf-8"), "\n## Streaming\n")
    top = streaming_example((README.parents[1] / "README.md").read_text(encoding="utf-8"), "\n## Python\n")
    assert ours == top
    namespace: dict[str, object] = {}
    exec(compile(example() + ours, str(README), "exec"), namespace)  # noqa: S102
    # The values its comment lists, in order (the last event only says why it stopped).
    em: Any = namespace["em"]
    stream = em.stream()
    values = [stream.push(e).value for e in em.events_for({"city": "Oslo"}, 5)]
    assert values == [None, {}, {"city": "O"}, {"city": "Oslo"}, {"city": "Oslo"}]
    assert 'events_for({"city": "Oslo"}, 5)' in ours
