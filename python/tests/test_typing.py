"""The type stubs: stubtest compares them with the compiled module, and mypy
--strict checks a sample of typed use (which also runs)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

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
