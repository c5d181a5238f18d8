"""The type stubs: stubtest compares them with the compiled module, mypy
--strict checks a sample of typed use (which also runs), and the Literal aliases
of _types.py hold exactly the names the core accepts and returns."""

from __future__ import annotations

import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
import schemacast
from helpers import REPO
from schemacast import _types

HERE = Path(__file__).resolve().parent
ALLOWLIST = HERE.parent / "stubtest-allowlist.txt"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=HERE, check=False)


def test_stubs_match_the_runtime() -> None:
    done = run("mypy.stubtest", "schemacast", "--allowlist", str(ALLOWLIST))
    assert done.returncode == 0, done.stdout + done.stderr


def test_typed_use_passes_mypy_strict() -> None:
    done = run("mypy", "--strict", "--no-incremental", "--python-version", "3.10", "typing_sample.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_typed_sample_runs() -> None:
    import typing_sample

    typing_sample.main()


@pytest.mark.parametrize(
    ("wrong", "code"),
    [("em.decode(r, model=City).nope", "attr-defined"), ("schemacast.emit({}, 'openai', mode='yaml')", "arg-type")],
)
def test_mypy_catches_misuse(tmp_path: Path, wrong: str, code: str) -> None:
    sample = tmp_path / "misuse.py"
    sample.write_text(
        "import pydantic, schemacast\n"
        "class City(pydantic.BaseModel):\n    name: str\n"
        "em = schemacast.emit(City, 'openai')\nr = em.response_for({'name': 'x'})\n"
        f"{wrong}\n"
    )
    done = run("mypy", "--strict", "--no-incremental", str(sample))
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    # Exactly one error, on the misuse (line 6), of the expected code: the lines
    # before it type-check.
    assert done.returncode == 1 and len(errors) == 1, done.stdout
    assert re.fullmatch(rf"\S*misuse\.py:6: error: .*  \[{code}\]", errors[0]), done.stdout


def known_names(option: str, provider: str = "claude") -> list[str]:
    """The names the core accepts for `option`, as its `invalid_option` error lists them."""
    with pytest.raises(schemacast.SchemaError) as info:
        schemacast.emit({}, provider, **{option: "?"})
    found = re.search(r"\(known: ([^)]*)\)$", info.value.message)
    assert info.value.kind == "invalid_option" and found, info.value.message
    return found.group(1).split(", ")


def test_mode_literal_is_the_core_modes() -> None:
    modes = typing.get_args(_types.Mode)
    assert list(modes) == known_names("mode")
    for mode in modes:
        assert schemacast.emit({}, "openai", mode=mode).mode == mode


@pytest.mark.parametrize(
    ("alias", "option", "provider"),
    [(_types.GeminiDialect, "gemini_dialect", "gemini"), (_types.ClaudeMechanism, "claude_mechanism", "claude")],
)
def test_option_literals_are_the_core_names(alias: Any, option: str, provider: str) -> None:
    names = typing.get_args(alias)
    assert list(names) == known_names(option, provider)
    for name in names:
        schemacast.emit({}, provider, **{option: name})


def test_draft_literal_is_the_core_drafts() -> None:
    drafts = typing.get_args(_types.Draft)
    names = [d for d in drafts if isinstance(d, str)]
    numbers = [d for d in drafts if isinstance(d, int)]
    assert names == known_names("default_draft")
    # The numbers are the drafts whose name is one: `7` as `"7"`.
    assert [str(n) for n in numbers] == [n for n in names if n.isdigit()]
    for draft in drafts:
        schemacast.emit({}, "openai", default_draft=draft)


def test_enforcement_literal_is_every_enforcement_the_snapshots_show() -> None:
    """test_goldens.py checks that the binding gives the snapshots' enforcement for
    every fixture, target and mode; together they name every enforcement."""
    seen = {
        line.split(": ", 1)[1]
        for snap in (REPO / "snapshots").glob("*/*.snap")
        for line in snap.read_text(encoding="utf-8").splitlines()
        if line.startswith("enforcement: ")
    }
    assert seen == set(typing.get_args(_types.Enforcement))
