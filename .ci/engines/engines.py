"""Adapters for the open-source grammar engines behind schemacast's grammar providers.

Each adapter has ``compile(schema) -> handle`` (raising ``Rejected`` with the engine's
message when the serving software would refuse the request) and
``refusal(handle, text) -> int | None``: ``None`` when the whole text is accepted *and*
the grammar may stop there, else the byte offset (in UTF-8) of the first refused byte,
the text's length when the grammar refuses to stop. Every engine is called the way its
serving software calls it:

- ``xgrammar``   vLLM's xgrammar backend: vLLM's request-time checks (the unsupported
  keyword pre-check and ``Grammar.from_json_schema``), then
  ``GrammarCompiler.compile_json_schema(schema, any_whitespace=True)`` with the
  defaults vLLM leaves (``strict_mode=True``); tokens are fed one at a time.
- ``guidance``   vLLM's guidance backend: ``LLMatcher.grammar_from_json_schema(schema,
  defaults={"whitespace_flexible": True})``, ``LLMatcher.validate_grammar``, ``LLMatcher``.
- ``outlines``   vLLM's outlines backend: ``build_regex_from_schema(schema_text)`` (default
  whitespace pattern), vLLM's regex buildability check, ``Index`` + ``Guide``.
- ``llamacpp``   llama.cpp server's converter ``json_schema_to_grammar`` and its GBNF
  parser and matcher, through a small C++ driver (see build_llamacpp.sh); the driver
  binary is passed in (``--llamacpp-new`` / ``--llamacpp-old``).
- ``llguidance-llamacpp``  llama.cpp built with ``LLAMA_LLGUIDANCE``: the converter returns
  ``%llguidance {}\\nstart: %json <schema>``, compiled as Lark by llguidance.

A byte-level vocabulary is used wherever a tokenizer is needed: token ``i`` is the byte
``i`` (0..255) and token 256 is EOS.

Run ``python engines.py --selftest [--llamacpp-new PATH] [--llamacpp-old PATH]`` for a
smoke test (install.sh does), or ``python engines.py --worker ENGINE ...`` (used by
run_conformance.py).
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from typing import Any

EOS = 256
BYTE_TOKENS = [bytes([i]) for i in range(256)]


class Rejected(Exception):
    """The serving software would refuse this schema (HTTP 400 or a compile error)."""


# ---------------------------------------------------------------------------
# xgrammar (vLLM backend "xgrammar")
# ---------------------------------------------------------------------------

def _stub_module(name: str) -> None:
    """A placeholder for a heavy import xgrammar makes at module level but never uses on
    the JSON-schema compile and string-matching path (torch: bitmask tensors;
    transformers: building a TokenizerInfo from a Hugging Face tokenizer)."""
    import importlib.machinery
    import types

    class _Anything(type):
        def __getattr__(cls, attr):
            if attr.startswith("__"):
                raise AttributeError(attr)
            return _Anything(attr, (), {})

        def __call__(cls, *args, **kwargs):
            return _Anything("value", (), {})

        def __getitem__(cls, key):
            return cls

        def __or__(cls, other):
            return cls

        __ror__ = __or__

    module = types.ModuleType(name)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    module.__path__ = []

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Anything(attr, (), {})

    module.__getattr__ = __getattr__
    sys.modules[name] = module


def import_xgrammar():
    for heavy in ("torch", "transformers"):
        try:
            __import__(heavy)
        except ImportError:
            _stub_module(heavy)
    import xgrammar

    return xgrammar


# vLLM's list of string formats xgrammar implements (backend_xgrammar.py).
XGRAMMAR_FORMATS = {
    "email", "date", "time", "date-time", "duration", "ipv4", "ipv6", "hostname", "uuid",
    "uri", "uri-reference", "uri-template", "json-pointer", "relative-json-pointer",
}


def _types_of(node: dict) -> set:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _length_with_generator(node: dict) -> bool:
    return ("pattern" in node or "format" in node) and ("minLength" in node or "maxLength" in node)


def vllm_xgrammar_precheck(schema: Any) -> str | None:
    """The keyword checks vLLM makes before it hands a schema to xgrammar
    (``has_xgrammar_unsupported_json_features``). Returns the reason, or None.
    With ``--structured-outputs-config.backend xgrammar`` a hit is a 400; with the
    default ``auto`` it sends the request to guidance (or outlines) instead."""

    def walk(node: Any) -> str | None:
        if isinstance(node, list):
            for x in node:
                r = walk(x)
                if r:
                    return r
            return None
        if not isinstance(node, dict):
            return None
        types = _types_of(node)
        if types & {"integer", "number"} and "multipleOf" in node:
            return "multipleOf on a number"
        if "array" in types and any(k in node for k in ("uniqueItems", "contains", "minContains", "maxContains")):
            return "uniqueItems/contains on an array"
        if "string" in types and "format" in node and node["format"] not in XGRAMMAR_FORMATS:
            return f"string format {node['format']!r}"
        if "string" in types and _length_with_generator(node):
            return "minLength/maxLength beside pattern or format"
        if "object" in types and isinstance(node.get("propertyNames"), dict) and _length_with_generator(node["propertyNames"]):
            return "propertyNames with pattern/format and a length"
        if "object" in types and "propertyNames" in node and (
            "properties" in node or "patternProperties" in node
            or isinstance(node.get("additionalProperties"), dict)
            or node.get("unevaluatedProperties", True) is not True
        ):
            return "propertyNames beside properties"
        if "object" in types and isinstance(node.get("patternProperties"), dict) and (
            "properties" in node or len(node["patternProperties"]) > 1
        ):
            return "patternProperties beside properties, or several"
        for v in node.values():
            if isinstance(v, (dict, list)):
                r = walk(v)
                if r:
                    return r
        return None

    return walk(schema)


class XGrammar:
    name = "xgrammar"

    def __init__(self, **_):
        self.xgr = import_xgrammar()
        info = self.xgr.TokenizerInfo(
            BYTE_TOKENS + [b"</s>"], self.xgr.VocabType.RAW, vocab_size=EOS + 1, stop_token_ids=[EOS]
        )
        self.compiler = self.xgr.GrammarCompiler(info, max_threads=1, cache_enabled=False)

    @staticmethod
    def version() -> str:
        import importlib.metadata as md

        return md.version("xgrammar")

    def compile(self, schema):
        reason = vllm_xgrammar_precheck(schema)
        if reason:
            raise Rejected(f"vLLM precheck: features not supported by xgrammar: {reason}")
        text = json.dumps(schema)
        try:
            self.xgr.Grammar.from_json_schema(text)  # vLLM's request validation
            return self.compiler.compile_json_schema(text, any_whitespace=True)
        except Exception as e:  # xgrammar raises RuntimeError/ValueError subclasses
            raise Rejected(f"{type(e).__name__}: {e}") from None

    def refusal(self, compiled, text: str) -> int | None:
        m = self.xgr.GrammarMatcher(compiled)
        data = text.encode("utf-8")
        for i, b in enumerate(data):
            if not m.accept_token(b):
                return i
        return None if m.accept_token(EOS) else len(data)


# ---------------------------------------------------------------------------
# llguidance (vLLM backend "guidance"; llama.cpp built with LLAMA_LLGUIDANCE)
# ---------------------------------------------------------------------------

class _ByteTokenizer:
    eos_token_id = EOS
    bos_token_id = None
    tokens = BYTE_TOKENS + [b"<eos>"]
    special_token_ids = [EOS]

    def __call__(self, s):
        return list(s.encode("utf-8") if isinstance(s, str) else s)


class _LLGuidanceBase:
    def __init__(self, **_):
        import llguidance

        self.llg = llguidance
        self.tok = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_ByteTokenizer()), slices=[])

    @staticmethod
    def version() -> str:
        import importlib.metadata as md

        return md.version("llguidance")

    def _matcher(self, grammar: str):
        err = self.llg.LLMatcher.validate_grammar(grammar, self.tok)
        if err:
            raise Rejected(err)
        m = self.llg.LLMatcher(self.tok, grammar, log_level=0)
        if m.is_error():
            raise Rejected(m.get_error())
        return m

    def refusal(self, matcher, text: str) -> int | None:
        m = matcher.deep_copy()
        data = text.encode("utf-8")
        for i, b in enumerate(data):
            if m.is_stopped() or not m.consume_token(b) or m.is_error():
                return i
        if m.is_stopped() or (m.consume_token(EOS) and not m.is_error()):
            return None
        return len(data)


class Guidance(_LLGuidanceBase):
    """vLLM's guidance backend (defaults: disable_any_whitespace=False,
    disable_additional_properties=False)."""

    name = "guidance"

    def compile(self, schema):
        try:
            grammar = self.llg.LLMatcher.grammar_from_json_schema(
                json.dumps(schema), defaults={"whitespace_flexible": True}
            )
        except (ValueError, KeyError, TypeError) as e:
            raise Rejected(f"Invalid grammar specification: {e}") from None
        return self._matcher(grammar)


class LLGuidanceLlamaCpp(_LLGuidanceBase):
    """llama.cpp built with LLAMA_LLGUIDANCE: json_schema_to_grammar returns a Lark
    grammar that embeds the schema, compiled by llguidance with its defaults."""

    name = "llguidance-llamacpp"

    def compile(self, schema):
        if isinstance(schema, dict) and not schema:
            schema = {"type": "object"}  # llama-server: an empty schema means any object
        lark = "%llguidance {}\nstart: %json " + json.dumps(schema)
        return self._matcher(self.llg.LLMatcher.grammar_from_lark(lark))


# ---------------------------------------------------------------------------
# outlines-core (vLLM backend "outlines")
# ---------------------------------------------------------------------------

def vllm_regex_problem(pattern: str) -> str | None:
    """vLLM's check that outlines-core (regex-automata) can build a regex: it must parse
    with Python's parser, use no back-references, look-around or word boundaries, and not
    need context (an anchor or look-around) before its first consuming item."""
    import re._constants as C
    import re._parser as P

    try:
        parsed = P.parse(pattern)
    except re.error as e:
        return f"Error parsing regex: {e}"

    def unsupported(items) -> str | None:
        for op, arg in items:
            if op in (C.GROUPREF, C.GROUPREF_EXISTS):
                return "Backreferences are unsupported."
            if op in (C.ASSERT, C.ASSERT_NOT):
                return "Look-Around assertion are unsupported."
            if op == C.AT and arg in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
                return "Unicode word boundaries are unsupported."
            if op == C.BRANCH:
                for b in arg[1]:
                    r = unsupported(b)
                    if r:
                        return r
            if op == C.MAX_REPEAT:
                r = unsupported(arg[2])
                if r:
                    return r
        return None

    def consumes(items) -> bool:
        for op, arg in items:
            if op in (C.LITERAL, C.IN, C.ANY):
                return True
            if op == C.MAX_REPEAT and arg[1] != 0 and consumes(arg[2]):
                return True
            if op == C.BRANCH and any(consumes(b) for b in arg[1]):
                return True
            if op == C.SUBPATTERN and consumes(arg[3]):
                return True
        return False

    # `_prefix_needs_context` of vLLM's outlines backend
    # (vllm/v1/structured_output/backend_outlines.py), branch for branch: a group, an
    # alternation and a repeat each return True when their inside needs context and stop
    # the scan (False) when it consumes. The three near-identical branches are vLLM's,
    # kept as they are so the two stay comparable line by line.
    def needs_context(items) -> bool:
        for op, arg in items:
            if op == C.AT or op in (C.ASSERT, C.ASSERT_NOT):
                return True
            if op == C.SUBPATTERN:
                if needs_context(arg[3]):
                    return True
                if consumes(arg[3]):
                    return False
            elif op == C.BRANCH:
                seen = False
                for b in arg[1]:
                    if needs_context(b):
                        return True
                    seen = seen or consumes(b)
                if seen:
                    return False
            elif op in (C.LITERAL, C.IN, C.ANY):
                return False
            elif op == C.MAX_REPEAT:
                if needs_context(arg[2]):
                    return True
                if consumes(arg[2]):
                    return False
        return False

    r = unsupported(parsed)
    if r:
        return r
    if needs_context(parsed):
        return "Regex does not have an anchored universal start state"
    return None


class Outlines:
    name = "outlines"

    def __init__(self, **_):
        import outlines_core
        from outlines_core.json_schema import build_regex_from_schema

        self.oc = outlines_core
        self.build = build_regex_from_schema
        self.vocab = outlines_core.Vocabulary(EOS, {bytes([i]): [i] for i in range(256)})

    @staticmethod
    def version() -> str:
        import importlib.metadata as md

        return md.version("outlines_core")

    def compile(self, schema):
        try:
            regex = self.build(json.dumps(schema))
        except Exception as e:
            raise Rejected(f"Failed to transform json schema into a regex: {e}") from None
        problem = vllm_regex_problem(regex)
        if problem:
            raise Rejected(problem)
        try:
            return self.oc.Index(regex, self.vocab)
        except Exception as e:
            raise Rejected(f"Index: {e}") from None

    def refusal(self, index, text: str) -> int | None:
        guide = self.oc.Guide(index)
        tokens = list(text.encode("utf-8"))
        if tokens and not guide.accepts_tokens(tokens):
            guide = self.oc.Guide(index)  # find the refused byte
            for i, t in enumerate(tokens):
                if not guide.accepts_tokens([t]):
                    return i
                guide.advance(t)
            return len(tokens)
        for t in tokens:
            guide.advance(t)
        return None if guide.is_finished() else len(tokens)


# ---------------------------------------------------------------------------
# llama.cpp's converter and GBNF matcher (llama-server, Ollama)
# ---------------------------------------------------------------------------

class LlamaCpp:
    """Drives the C++ driver built by build_llamacpp.sh: llama.cpp's own
    json_schema_to_grammar, GBNF parser and grammar matcher."""

    name = "llamacpp"

    def __init__(self, driver: str, label: str = "llamacpp", empty_is_object: bool = True, **_):
        if not driver or not os.path.exists(driver):
            raise FileNotFoundError(f"llama.cpp driver not found: {driver!r} (run build_llamacpp.sh)")
        self.driver = driver
        self.name = label
        self.empty_is_object = empty_is_object
        self.proc = None
        self.version_text = open(driver + ".version").read().strip() if os.path.exists(driver + ".version") else "?"

    def version(self) -> str:
        return self.version_text

    def _start(self):
        self.proc = subprocess.Popen([self.driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def _request(self, cmd: str, payload: str) -> tuple[str, str]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        data = payload.encode("utf-8")
        self.proc.stdin.write(f"{cmd} {len(data)}\n".encode() + data)
        self.proc.stdin.flush()
        head = self.proc.stdout.readline().split()
        if len(head) != 2:
            self.proc = None
            raise Rejected("llama.cpp driver crashed (the converter or parser aborted)")
        body = self.proc.stdout.read(int(head[1])).decode("utf-8", "replace")
        return head[0].decode(), body

    def compile(self, schema):
        if self.empty_is_object and isinstance(schema, dict) and not schema:
            schema = {"type": "object"}
        status, body = self._request("S", json.dumps(schema))
        if status != "OK":
            raise Rejected(body)
        return body  # the GBNF grammar, now loaded in the driver

    def refusal(self, grammar, text: str) -> int | None:
        status, body = self._request("A", text)
        if status != "OK":
            raise RuntimeError(body)
        return None if body == "1" else int(body.split()[1])


ENGINES = {
    "xgrammar": XGrammar,
    "guidance": Guidance,
    "outlines": Outlines,
    "llguidance-llamacpp": LLGuidanceLlamaCpp,
    "llamacpp-new": LlamaCpp,
    "llamacpp-old": LlamaCpp,
}


def make_engine(name: str, llamacpp_new: str | None = None, llamacpp_old: str | None = None):
    if name == "llamacpp-new":
        return LlamaCpp(llamacpp_new, label=name, empty_is_object=True)
    if name == "llamacpp-old":
        return LlamaCpp(llamacpp_old, label=name, empty_is_object=False)
    return ENGINES[name]()


def engine_version(engine) -> str:
    v = engine.version
    return v() if callable(v) else str(v)


# ---------------------------------------------------------------------------
# Worker: one engine in its own process, so a runaway compile can be killed.
# Protocol: one JSON request per line on stdin, one JSON reply per line on stdout.
#   {"op":"compile","schema":...} -> {"ok":true,"s":secs} | {"ok":false,"error":...,"s":secs}
#   {"op":"accept","texts":[...]} -> {"results":[null | refused byte offset, ...],
#                                     "errors":{index: message}}  (an engine fault)
#   {"op":"version"}              -> {"version": "..."}
# ---------------------------------------------------------------------------

def worker(name: str, llamacpp_new: str | None, llamacpp_old: str | None) -> None:
    engine = make_engine(name, llamacpp_new, llamacpp_old)
    handle = None
    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        op = req.get("op")
        if op == "compile":
            t0 = time.perf_counter()
            try:
                handle = engine.compile(req["schema"])
                reply = {"ok": True, "s": time.perf_counter() - t0}
            except Rejected as e:
                handle = None
                reply = {"ok": False, "error": str(e)[:4000], "s": time.perf_counter() - t0}
        elif op == "accept":
            results, errors = [], {}
            for i, t in enumerate(req["texts"]):
                try:
                    results.append(engine.refusal(handle, t) if handle is not None else 0)
                except Exception as e:  # an engine fault on one text counts as a refusal
                    results.append(0)
                    errors[i] = f"{type(e).__name__}: {e}"
            reply = {"results": results, "errors": errors}
        elif op == "version":
            reply = {"version": engine_version(engine)}
        else:
            reply = {"error": f"unknown op {op!r}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


class WorkerClient:
    """Parent side of a worker, with a time-out on every reply."""

    def __init__(self, name: str, llamacpp_new: str | None = None, llamacpp_old: str | None = None):
        self.name, self.args = name, (llamacpp_new, llamacpp_old)
        self.proc = None

    def _start(self):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", self.name]
        if self.args[0]:
            cmd += ["--llamacpp-new", self.args[0]]
        if self.args[1]:
            cmd += ["--llamacpp-old", self.args[1]]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def call(self, req: dict, timeout: float) -> dict | None:
        """The reply, or None on a time-out (the worker is then killed)."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.kill()
            return None
        line = self.proc.stdout.readline()
        if not line:
            self.kill()
            return {"ok": False, "error": "engine process died", "crashed": True}
        return json.loads(line)


# ---------------------------------------------------------------------------

def _selftest(args) -> int:
    """Every engine compiles a small schema, accepts its answers and refuses others.
    An engine whose driver was named but cannot start fails."""
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer"}}, "required": ["a"],
              "additionalProperties": False}
    good = ['{"a":"x","n":1}', '{"a": "x", "n": 1}', '{"a":"q\\"\\\\\\n\\t\u00e9"}']
    bad = {'{"n":1}': 2, '{"a":"x"': 8, '{"a":"x","b":1}': 10}
    failures = 0
    for name in ENGINES:
        if (name == "llamacpp-new" and not args.llamacpp_new) or (name == "llamacpp-old" and not args.llamacpp_old):
            print(f"{name}: skipped (no driver given)")
            continue
        e = make_engine(name, args.llamacpp_new, args.llamacpp_old)
        h = e.compile(schema)
        g = [e.refusal(h, t) for t in good]
        b = [e.refusal(h, t) for t in bad]
        ok = g == [None] * len(good) and b == list(bad.values())
        failures += not ok
        print(f"{name} {engine_version(e)}: good {g} bad {b} -> {'ok' if ok else 'FAIL'}")
    return 1 if failures else 0


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--llamacpp-new")
    ap.add_argument("--llamacpp-old")
    a = ap.parse_args()
    if a.worker:
        worker(a.worker, a.llamacpp_new, a.llamacpp_old)
    else:
        sys.exit(_selftest(a))
