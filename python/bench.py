"""Side-by-side timing: schemacast.emit against litellm's and google-genai's own
schema conversions, on the same schemas (the repository's fixtures).

Each row pairs schemacast with one other converter producing the same kind of
request fragment from a JSON Schema dict:

- Gemini `responseSchema`: litellm's Gemini mapping of an OpenAI `response_format`
  (for a model that is sent `responseSchema`), and google-genai's `t_schema`, which the
  SDK runs on a `response_schema` dict before sending it.
- Gemini `responseJsonSchema`: litellm's mapping for a Gemini 2+ model.
- Claude forced tool and `output_config.format`: litellm's Anthropic mappings of a
  `response_format`.

schemacast is timed from the Python dict to the Python dict (`emit(...).body`),
conversions both ways included. A schema that a converter raises on is left out of
its pair, and the count is printed. `copy.deepcopy` of each schema is timed too,
for scale: a conversion that passes the schema through costs about that. Each figure is the best of `--repeat` runs of
`--rounds` passes over the schemas. This is a script that prints figures, not a test.

    python bench.py [--rounds N] [--repeat N] [--only apps|all]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
# The installed package, not the source folder beside this script (it has no compiled
# extension): Python puts the script's folder first on sys.path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import schemacast  # noqa: E402

REPO = HERE.parent
FIXTURES = REPO / "fixtures"

Convert = Callable[[dict[str, Any]], Any]


def schemas(only: str) -> dict[str, list[dict[str, Any]]]:
    """Object-rooted schema dicts: the application schemas, and every other fixture group
    (not the invalid ones, the referenced documents or the JSON-Schema-Test-Suite)."""
    groups: dict[str, list[dict[str, Any]]] = {"apps": [], "other fixtures": []}
    skip = {"invalid", "json-schema-test-suite", "resources"}
    for group in sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name not in skip):
        if only == "apps" and group.name != "apps":
            continue
        for f in sorted(group.glob("*.json")):
            doc = json.loads(f.read_text(encoding="utf-8"))
            if isinstance(doc, dict):
                groups["apps" if group.name == "apps" else "other fixtures"].append(doc)
    return {k: v for k, v in groups.items() if v}


def converters() -> list[tuple[str, Convert, str, Convert]]:
    """(label, schemacast's conversion, other's name, other's conversion)."""
    # litellm fetches its model price list from the network at import unless told not to.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from google import genai
    from google.genai import _transformers
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import VertexGeminiConfig

    gemini = VertexGeminiConfig()
    anthropic = AnthropicConfig()
    client = genai.Client(api_key="bench-no-network")  # t_schema reads the client's API kind only

    def response_format(s: dict[str, Any]) -> dict[str, Any]:
        return {"type": "json_schema", "json_schema": {"name": "structured_output", "schema": s}}

    def litellm_gemini(model: str, key: str) -> Convert:
        def convert(s: dict[str, Any]) -> Any:
            params: dict[str, Any] = {}
            gemini.apply_response_schema_transformation(response_format(s), params, model)
            return params[key]

        return convert

    return [
        (
            "gemini responseSchema",
            lambda s: schemacast.emit(s, "gemini").body,
            "litellm",
            litellm_gemini("gemini-1.5-flash", "response_schema"),
        ),
        (
            "gemini responseSchema",
            lambda s: schemacast.emit(s, "gemini").body,
            "google-genai t_schema",
            # t_schema rewrites the dict it is given: the SDK's caller's copy.
            lambda s: _transformers.t_schema(client._api_client, copy.deepcopy(s)),
        ),
        (
            "gemini responseJsonSchema",
            lambda s: schemacast.emit(s, "gemini", gemini_dialect="json-schema").body,
            "litellm",
            litellm_gemini("gemini-2.5-flash", "response_json_schema"),
        ),
        (
            "claude forced tool",
            lambda s: schemacast.emit(s, "claude").body,
            "litellm",
            lambda s: anthropic.map_response_format_to_anthropic_tool(response_format(s), {}, True),
        ),
        (
            "claude output_config.format",
            lambda s: schemacast.emit(s, "claude", claude_mechanism="output-format").body,
            "litellm",
            lambda s: anthropic.map_response_format_to_anthropic_output_format(response_format(s)),
        ),
    ]


def works(convert: Convert, s: dict[str, Any]) -> bool:
    try:
        convert(s)
    except Exception:  # noqa: BLE001 - a converter that raises leaves the schema out
        return False
    return True


def best(convert: Convert, docs: list[dict[str, Any]], rounds: int, repeat: int) -> float:
    """Seconds per schema: the best of `repeat` runs of `rounds` passes."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            for s in docs:
                convert(s)
        times.append(time.perf_counter() - start)
    return min(times) / (rounds * len(docs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["apps", "all"], default="all")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    from importlib.metadata import version

    print(
        f"python {platform.python_version()}, schemacast {schemacast.__version__}, "
        f"litellm {version('litellm')}, google-genai {version('google-genai')}"
    )
    print(f"best of {args.repeat} runs of {args.rounds} passes; times are per schema\n")
    header = f"{'fragment':<29} {'schemas':<15} {'other':<22} {'n':>4} {'left out':>8} {'schemacast':>11} {'other':>11} {'other/schemacast':>17}"
    print(header)
    print("-" * len(header))
    corpus = schemas(args.only)
    for group, docs in corpus.items():
        t_copy = best(copy.deepcopy, docs, args.rounds, args.repeat)
        print(f"{'(copy.deepcopy, for scale)':<29} {group:<15} {'':<22} {len(docs):>4} {0:>8} {'':>11} {t_copy * 1e6:>9.1f}µs")
    for label, ours, other_name, theirs in converters():
        for group, docs in corpus.items():
            both = [s for s in docs if works(ours, s) and works(theirs, s)]
            if not both:
                continue
            t_ours = best(ours, both, args.rounds, args.repeat)
            t_theirs = best(theirs, both, args.rounds, args.repeat)
            print(
                f"{label:<29} {group:<15} {other_name:<22} {len(both):>4} {len(docs) - len(both):>8} "
                f"{t_ours * 1e6:>9.1f}µs {t_theirs * 1e6:>9.1f}µs {t_theirs / t_ours:>16.2f}x"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
