#!/usr/bin/env python3
"""Engine conformance: does each grammar engine compile schemacast's native schemas
(no rejection) and accept every valid instance of the caller's schema (no narrowing)?

Reads the cases written by `SCHEMACAST_ENGINE_CASES=FILE cargo test --lib engine_cases`
(one JSON line per provider and distinct native schema), runs each through every
engine that serves its provider, prints a summary per provider and engine and then
every failure (source case, native schema, text, the engine's message), and exits 1
on any rejection, narrowing, time-out or error (a worker that dies or answers with
something else than its protocol), when a (case, engine) pair was never checked, or
when there is nothing to check: no case for the selection, no native schema that
compiled, or no value checked (everything timed out under --allow-timeouts, or the
schemas that compiled have no values).

  python run_conformance.py CASES --llamacpp-new DRIVER --llamacpp-old DRIVER
      [--engines a,b] [--providers p,q] [--jobs 2] [--report report.json]

A value is *narrowed* when the engine refuses every spelling of it (key orders,
whitespace, `2` and `2.0`, literals as written). A value of which only some spellings
are refused counts as a "variant refusal": the engine can still produce it.
A narrowing that a documented provider limit explains (LIMITS below: the emission
carries the note, and the value is beyond the limit) is counted apart and does not fail.
"""

from __future__ import annotations

import argparse
import collections
import decimal
import json
import os
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engines import WorkerClient  # noqa: E402

# Which engines serve each provider.
SERVES = {
    "vllm": ["xgrammar", "guidance", "outlines"],
    "llamacpp": ["llamacpp-new", "llamacpp-old", "llguidance-llamacpp"],
    "ollama": ["llamacpp-old", "llamacpp-new"],
}
# outlines-core is left out unless asked for (README: "outlines").
DEFAULT_ENGINES = ["xgrammar", "guidance", "llamacpp-new", "llamacpp-old", "llguidance-llamacpp"]
ENGINES = sorted({e for es in SERVES.values() for e in es})


# ---------------------------------------------------------------------------
# Documented provider limits: narrowings the emission itself announces.
# ---------------------------------------------------------------------------

def _numbers(v):
    if isinstance(v, bool):
        return
    if isinstance(v, (int, float)):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from _numbers(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _numbers(x)


def _beyond_16_digits(n) -> bool:
    """More than 16 integral or 16 fraction digits in the number's plain decimal form."""
    d = decimal.Decimal(repr(n) if isinstance(n, float) else n)
    if not d.is_finite():
        return True
    _, digits, exp = d.normalize().as_tuple()
    return len(digits) + exp > 16 or -exp > 16


LIMITS = [
    {
        "id": "llama.cpp number digits",
        "engines": {"llamacpp-new", "llamacpp-old"},
        "note": "llama.cpp's number grammar allows at most 16 integral and 16 fraction digits",
        "applies": lambda value: any(_beyond_16_digits(n) for n in _numbers(value)),
    },
]


def documented_limit(case, engine, value) -> str | None:
    notes = case.get("notes", [])
    for limit in LIMITS:
        if engine in limit["engines"] and any(limit["note"] in n for n in notes) and limit["applies"](value):
            return limit["id"]
    return None


# ---------------------------------------------------------------------------
# Spellings the engines generate that the case writer does not add.
# ---------------------------------------------------------------------------

def has_key(node, key) -> bool:
    if isinstance(node, dict):
        return key in node or any(has_key(v, key) for v in node.values())
    if isinstance(node, list):
        return any(has_key(v, key) for v in node)
    return False


def _resolve(node, root, depth=0):
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#") and depth < 16:
        target = root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                return node
        return _resolve(target, root, depth + 1)
    return node


def _type_fits(node, v):
    t = node.get("type") if isinstance(node, dict) else None
    if t is None:
        return True
    names = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
             dict: "object"}
    name = names.get(type(v), "?")
    ts = [t] if isinstance(t, str) else t
    return name in ts or (name == "integer" and "number" in ts)


def _fit(branch, root, v, depth=0):
    """How well `v` fits `branch`: a union scores as its best branch, a missing
    required key or a wrong type rules a branch out."""
    b = _resolve(branch, root)
    if not isinstance(b, dict) or depth > 16:
        return 0
    if not _type_fits(b, v):
        return -1000
    score = 0
    for k in ("anyOf", "oneOf"):
        if isinstance(b.get(k), list) and b[k]:
            score += max(_fit(x, root, v, depth + 1) for x in b[k])
    if isinstance(v, dict):
        score -= 200 * sum(1 for r in b.get("required", []) if isinstance(r, str) and r not in v)
    if "const" in b:
        score += 50 if b["const"] == v else -500
    if isinstance(b.get("enum"), list):
        score += 50 if v in b["enum"] else -500
    if isinstance(v, dict) and isinstance(b.get("properties"), dict):
        for k in v:
            if k in b["properties"]:
                # A member's own value counts too: union branches told apart by a
                # tag (`role: {"enum": ["user"]}`) declare the same names.
                score += 10 + _fit(b["properties"][k], root, v[k], depth + 1)
            elif b.get("additionalProperties") is False:
                score -= 100
            else:
                score -= 1
    if isinstance(v, list):
        # An array branch fits as its elements do (tuple positions, then the
        # rest), within its bounds: a union of arrays is told apart by them.
        most, least = b.get("maxItems"), b.get("minItems")
        if (isinstance(most, int) and len(v) > most) or (isinstance(least, int) and len(v) < least):
            score -= 500
        prefix = b.get("prefixItems") if isinstance(b.get("prefixItems"), list) else []
        items = b.get("items", {})
        for i, x in enumerate(v):
            sub = prefix[i] if i < len(prefix) else items
            if sub is False:
                score -= 500
            elif isinstance(sub, dict) and sub:
                score += _fit(sub, root, x, depth + 1)
    return score


def required_first(v, node, root, depth=0, declared=False):
    """The value with object keys in llama.cpp's generation order: the required
    properties in declared order, then the optional ones, then undeclared keys.
    With `declared`, in xgrammar's and llguidance's order: the declared order,
    then undeclared keys."""
    if depth > 64:
        return v
    node = _resolve(node, root)
    if not isinstance(node, dict):
        return v
    for k in ("anyOf", "oneOf"):
        if isinstance(node.get(k), list) and node[k]:
            best = max(range(len(node[k])), key=lambda i: (_fit(node[k][i], root, v), -i))
            return required_first(v, node[k][best], root, depth + 1, declared)
    if isinstance(v, dict):
        props, required = {}, []
        for n in [node] + [_resolve(b, root) for b in node.get("allOf", []) if isinstance(b, dict)]:
            if isinstance(n, dict):
                for k, sub in (n.get("properties") or {}).items():
                    props.setdefault(k, sub)
                required += [r for r in n.get("required", []) if isinstance(r, str)]
        required = set(required)
        order = list(props) if declared else [k for k in props if k in required] + [k for k in props if k not in required]
        extra = node.get("additionalProperties") if isinstance(node.get("additionalProperties"), dict) else {}
        out = {k: required_first(v[k], props[k], root, depth + 1, declared) for k in order if k in v}
        for k, x in v.items():
            if k not in out:
                out[k] = required_first(x, extra, root, depth + 1, declared)
        return out
    if isinstance(v, list):
        prefix = node.get("prefixItems") if isinstance(node.get("prefixItems"), list) else []
        items = node.get("items", {})
        return [required_first(x, prefix[i] if i < len(prefix) else items, root, depth + 1, declared) for i, x in enumerate(v)]
    return v


def _spaced(v):
    if isinstance(v, list):
        return "[" + ", ".join(_spaced(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + _spaced(x) for k, x in v.items()) + "}"
    return json.dumps(v, ensure_ascii=False)


def _short_exponents(v):
    """`v` compact, its floats' exponents written without `+` or leading zeros
    (`1e-9`, as serde_json, JavaScript and grammar engines write them; Python
    writes `1e-09`, which llama.cpp's number rule does not produce)."""
    if isinstance(v, list):
        return "[" + ",".join(_short_exponents(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _short_exponents(x) for k, x in v.items()) + "}"
    if isinstance(v, float) and "e" in repr(v):
        mantissa, exp = repr(v).split("e")
        sign = "-" if exp.startswith("-") else ""
        return f"{mantissa}e{sign}{exp.lstrip('+-').lstrip('0') or '0'}"
    return json.dumps(v, ensure_ascii=False)


def _same(a, b) -> bool:
    """JSON equality: numbers by value, booleans apart from numbers, objects unordered."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _literals(native):
    out = []

    def walk(n):
        if isinstance(n, dict):
            if "const" in n:
                out.append(n["const"])
            if isinstance(n.get("enum"), list):
                out.extend(n["enum"])
            for k, v in n.items():
                if k not in ("const", "enum"):
                    walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)

    walk(native)
    return out


def respell(v, literals):
    """Sub-values equal to an enum/const literal of the native schema, spelled as that
    literal (its key order, 2.0 vs 2): engines emit literals exactly as written."""
    for lit in literals:
        if _same(v, lit):
            return lit
    if isinstance(v, dict):
        return {k: respell(x, literals) for k, x in v.items()}
    if isinstance(v, list):
        return [respell(x, literals) for x in v]
    return v


def _numbers_as(v, to_float):
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and to_float and abs(v) < 2**53:
        return float(v)
    if isinstance(v, float) and not to_float and v.is_integer():
        return int(v)
    if isinstance(v, dict):
        return {k: _numbers_as(x, to_float) for k, x in v.items()}
    if isinstance(v, list):
        return [_numbers_as(x, to_float) for x in v]
    return v


def add_spellings(case):
    """Adds the spellings of each value that engines generate and the case writer does
    not: llama.cpp's required-properties-first key order, xgrammar's and llguidance's
    declared key order, enum/const literals as
    written, integral numbers as `2` and as `2.0`, exponents as `1e-9` (not Python's
    `1e-09`), and DEL (U+007F) escaped as `\\u007f`,
    which llama.cpp's and llguidance's string rules take only escaped (JSON allows it
    raw; it can occur only inside strings). Objects are unordered and 2 == 2.0 in JSON
    Schema, so each spelling is the same value."""
    texts, groups = case["texts"], case["groups"]
    index = {t: i for i, t in enumerate(texts)}
    literals = _literals(case["native"])
    for g, value in zip(groups, case["values"]):
        spellings = [required_first(value, case["native"], case["native"]),
                     required_first(value, case["native"], case["native"], declared=True)]
        if literals:
            spellings.append(respell(value, literals))
        spellings += [_numbers_as(value, True), _numbers_as(value, False)]
        for sp in spellings:
            compact, spaced = json.dumps(sp, ensure_ascii=False, separators=(",", ":")), _spaced(sp)
            for t in (compact, spaced, compact.replace("\x7f", "\\u007f"), _short_exponents(sp)):
                if t not in index:
                    index[t] = len(texts)
                    texts.append(t)
                if index[t] not in g:
                    g.append(index[t])


# ---------------------------------------------------------------------------
# Running the engines.
# ---------------------------------------------------------------------------

class WorkerError(Exception):
    """The worker died, or its reply is not what the protocol says."""


def call(client, request, timeout) -> dict | None:
    """The worker's reply (None on a time-out); WorkerError when the worker died."""
    reply = client.call(request, timeout)
    if reply is not None and reply.get("crashed"):
        raise WorkerError(f"{reply.get('error', 'engine process died')} (op {request['op']})")
    return reply


def check_group(client, engine, cases, group, args) -> dict:
    """Compiles the native schema of the cases in `group` and checks all their texts."""
    native = cases[group[0]]["native"]
    reply = call(client, {"op": "compile", "schema": native}, args.timeout)
    rec = {"engine": engine}
    if reply is None:
        rec["status"] = "timeout"
    elif not reply.get("ok"):
        rec["status"] = "rejected"
        rec["error"] = reply.get("error", "")
    else:
        rec["status"] = "compiled"
        rec["compile_s"] = reply.get("s")
        texts = list(dict.fromkeys(t for i in group for t in cases[i]["texts"]))
        acc = call(client, {"op": "accept", "texts": texts}, args.accept_timeout) if texts else {"results": []}
        if acc is None:
            rec["status"] = "accept-timeout"
        elif not isinstance(acc.get("results"), list) or len(acc["results"]) != len(texts):
            raise WorkerError(f"no verdict for each of the {len(texts)} texts: {shorten(json.dumps(acc), 300)}")
        else:
            rec["refused"] = dict(zip(texts, acc["results"]))
            rec["faults"] = {texts[int(k)]: m for k, m in acc.get("errors", {}).items()}
    return rec


def run_engine(engine, cases, idxs, args, results, lock):
    """Compiles each distinct native schema once (llama.cpp serves two providers) and
    checks the texts of every case that sends it. A schema group the worker fails on
    (it dies, or replies with something else than JSON of the protocol) is recorded
    with the status `error`, and the worker is restarted for the next group."""
    client = WorkerClient(engine, args.llamacpp_new, args.llamacpp_old)
    try:
        version = client.call({"op": "version"}, 120)
    except Exception as e:  # the groups below report the failing worker
        client.kill()
        version = {"version": f"? ({type(e).__name__}: {e})"}
    with lock:
        results["versions"][engine] = (version or {}).get("version", "?")
    by_native = collections.defaultdict(list)
    for i in idxs:
        by_native[json.dumps(cases[i]["native"], sort_keys=False)].append(i)
    for group in by_native.values():
        t0 = time.perf_counter()
        try:
            rec = check_group(client, engine, cases, group, args)
        except Exception as e:  # WorkerError, a reply that is not JSON, a broken pipe
            client.kill()
            rec = {"engine": engine, "status": "error", "error": f"{type(e).__name__}: {e}"}
        rec["wall_s"] = time.perf_counter() - t0
        with lock:
            results["groups"][engine][rec["status"]] += 1
            for i in group:
                results["records"][(i, engine)] = rec
    client.kill()


def excerpt(text: str, at: int | None, width: int = 60) -> str:
    """The text around byte offset `at`, with the refused byte marked."""
    data = text.encode("utf-8")
    if at is None:
        return ""
    if at >= len(data):
        return "the grammar refuses to end here: …" + data[max(0, len(data) - width):].decode("utf-8", "replace")
    before = data[max(0, at - width):at].decode("utf-8", "replace")
    after = data[at:at + width // 2].decode("utf-8", "replace")
    return f"refused at byte {at}: …{before}⟦{after[:1]}⟧{after[1:]}…"


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


def main() -> int:
    ap = argparse.ArgumentParser(description="schemacast engine conformance")
    ap.add_argument("cases")
    ap.add_argument("--llamacpp-new", help="driver built from the current llama.cpp")
    ap.add_argument("--llamacpp-old", help="driver built from llama.cpp as Ollama pins it")
    ap.add_argument("--engines", default=",".join(DEFAULT_ENGINES),
                    help="comma-separated engines (default: all but outlines)")
    ap.add_argument("--providers", default=",".join(SERVES), help="comma-separated providers")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per compile")
    # xgrammar needs about 60 s alone for the texts of fixtures/limits/long-length-and-item-bounds
    # (arrays of 2,000 items against `minItems: 2000`) and over 120 s on a loaded 2-core machine;
    # the budget is for catching an engine that never answers, not for timing it.
    ap.add_argument("--accept-timeout", type=float, default=600.0, help="seconds for all texts of one schema")
    ap.add_argument("--allow-timeouts", action="store_true", help="report time-outs without failing")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--report", help="write the summary, every failure and every record as JSON here")
    ap.add_argument("--native-chars", type=int, default=800, help="characters of a native schema shown per failure")
    args = ap.parse_args()

    providers = set(args.providers.split(","))
    wanted = set(args.engines.split(","))
    for what, names, known in (("provider", providers, list(SERVES)), ("engine", wanted, ENGINES)):
        if names - set(known):
            unknown = ", ".join(map(repr, sorted(names - set(known))))
            ap.error(f"unknown {what}(s) {unknown} (known: {', '.join(known)})")
    for name, path in (("llamacpp-new", args.llamacpp_new), ("llamacpp-old", args.llamacpp_old)):
        if name in wanted and not path:
            ap.error(f"{name} needs --{name} DRIVER (or leave it out of --engines)")

    t_start = time.perf_counter()
    cases = [json.loads(line) for line in open(args.cases, encoding="utf-8") if line.strip()]
    if not cases:
        print(f"engine conformance: FAILED: no cases in {args.cases}")
        return 1
    for c in cases:
        add_spellings(c)

    per_engine = collections.defaultdict(list)
    for i, c in enumerate(cases):
        if c["provider"] in providers:
            for e in SERVES[c["provider"]]:
                if e in wanted:
                    per_engine[e].append(i)
    expected = {(i, e) for e, idxs in per_engine.items() for i in idxs}
    if not expected:
        print(f"engine conformance: FAILED: nothing to check (of the {len(cases)} case(s) in {args.cases}, none is "
              f"for the providers {', '.join(sorted(providers))} on the engines {', '.join(sorted(wanted))})")
        return 1

    results = {"records": {}, "versions": {}, "groups": collections.defaultdict(collections.Counter)}
    lock = threading.Lock()
    weight = {"xgrammar": 3, "outlines": 10}  # rough cost per case, for the schedule
    queue = sorted(per_engine, key=lambda e: -len(per_engine[e]) * weight.get(e, 1))

    def pump():
        while True:
            with lock:
                if not queue:
                    return
                e = queue.pop(0)
            try:
                run_engine(e, cases, per_engine[e], args, results, lock)
            except Exception:  # its cases are reported below as never checked
                print(f"engine conformance: {e} stopped:\n{traceback.format_exc()}", file=sys.stderr)

    threads = [threading.Thread(target=pump) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    # Every (case, engine) pair has a record, or it was never checked: an error.
    unchecked = sorted(expected - set(results["records"]))
    for i, e in unchecked:
        results["records"][(i, e)] = {"engine": e, "status": "error", "error": "never checked: its run stopped"}

    # Tally per provider and engine; collect failures.
    stats = collections.defaultdict(collections.Counter)
    failures = []
    for (i, engine), rec in sorted(results["records"].items()):
        c = cases[i]
        s = stats[(c["provider"], engine)]
        s["cases"] += 1
        base = {"provider": c["provider"], "engine": engine, "case": i, "native": c["native"]}
        if rec["status"] == "error":
            s["errors"] += 1
            failures.append({**base, "kind": "error", "source": c["source"], "error": rec["error"]})
            continue
        if rec["status"] in ("timeout", "accept-timeout"):
            s["timeouts"] += 1
            failures.append({**base, "kind": rec["status"], "source": c["source"],
                             "error": f"no answer within {args.timeout if rec['status'] == 'timeout' else args.accept_timeout:g} s"})
            continue
        if rec["status"] == "rejected":
            s["rejected"] += 1
            failures.append({**base, "kind": "rejected", "source": c["source"], "error": rec["error"]})
            continue
        s["compiled"] += 1
        s["values"] += len(c["groups"])  # each value has a verdict for every spelling
        narrowed_here = False
        for gi, (g, value) in enumerate(zip(c["groups"], c["values"])):
            refused = [rec["refused"][c["texts"][j]] for j in g]
            if all(r is None for r in refused):
                continue
            if any(r is None for r in refused):
                s["variant_refusals"] += 1
                continue
            source = c.get("sources", [c["source"]])[c["group_sources"][gi]] if "group_sources" in c else c["source"]
            limit = documented_limit(c, engine, value)
            if limit:
                s["documented_limit"] += 1
                continue
            s["narrowed_values"] += 1
            narrowed_here = True
            text = c["texts"][g[0]]
            failures.append({**base, "kind": "narrowed", "source": source, "text": text,
                             "spellings": len(g), "refused_at": refused[0],
                             "error": rec["faults"].get(text) or excerpt(text, refused[0])})
        s["narrowed_cases"] += narrowed_here

    # vLLM's default backend "auto": xgrammar when it takes the schema, else guidance,
    # or outlines when the schema has patternProperties (README: "vLLM auto").
    for i, c in enumerate(cases):
        if c["provider"] != "vllm" or (i, "xgrammar") not in results["records"]:
            continue
        x = results["records"][(i, "xgrammar")]
        pick = "xgrammar" if x["status"] == "compiled" else (
            "outlines" if has_key(c["native"], "patternProperties") else "guidance")
        s = stats[("vllm", "auto")]
        s["cases"] += 1
        s["routed_" + pick] += 1
        rec = results["records"].get((i, pick))
        if rec is None:
            s["not_run"] += 1
        elif rec["status"] == "rejected":
            s["rejected"] += 1
        elif rec["status"] == "error":
            s["errors"] += 1
        elif rec["status"] == "compiled":
            s["compiled"] += 1
            s["values"] += len(c["groups"])
            n = sum(1 for g in c["groups"] if all(rec["refused"][c["texts"][j]] is not None for j in g))
            s["narrowed_values"] += n
            s["narrowed_cases"] += bool(n)
        else:
            s["timeouts"] += 1

    elapsed = time.perf_counter() - t_start
    print(f"engine conformance: {len(cases)} cases in {elapsed:.0f} s")
    for e, v in sorted(results["versions"].items()):
        print(f"  {e}: {v}")
    print()
    cols = ["cases", "compiled", "values", "rejected", "timeouts", "errors", "narrowed_cases", "narrowed_values",
            "documented_limit", "variant_refusals"]
    heads = ["cases", "compiled", "values checked", "rejected", "time-outs", "errors", "narrowed cases",
             "narrowed values", "documented limit", "variant-only"]
    print(f"{'provider':9} {'engine':20} " + " ".join(f"{h:>{max(len(h), 5)}}" for h in heads))
    for (p, e), s in sorted(stats.items()):
        line = f"{p:9} {e:20} " + " ".join(f"{s[k]:>{max(len(h), 5)}}" for k, h in zip(cols, heads))
        if e == "auto":
            line += f"   (routed: xgrammar {s['routed_xgrammar']}, guidance {s['routed_guidance']}, " \
                    f"outlines {s['routed_outlines']}{', not run ' + str(s['not_run']) if s['not_run'] else ''})"
        print(line)

    # Every failure, grouped by engine and native schema.
    blocks = collections.defaultdict(list)
    for f in failures:
        blocks[(f["provider"], f["engine"], f["case"])].append(f)
    if blocks:
        print(f"\n{len(failures)} failure(s):")
    for (p, e, i), fs in blocks.items():
        native = json.dumps(cases[i]["native"], ensure_ascii=False)
        print(f"\n[{fs[0]['kind']}] {p}/{e}  case {i}: {cases[i]['source']}"
              + (f" (+{len(cases[i].get('sources', [])) - 1} more sources)" if len(cases[i].get("sources", [])) > 1 else ""))
        print(f"  native: {shorten(native, args.native_chars)}")
        for f in fs:
            if f["kind"] == "narrowed":
                print(f"  text: {shorten(f['text'], 300)}   (from {f['source']}; all {f['spellings']} spellings refused)")
                print(f"    {f['error']}")
            else:
                print(f"  engine: {shorten(f['error'].strip(), 1500)}")

    if unchecked:
        i, e = unchecked[0]
        print(f"\n{len(unchecked)} (case, engine) pair(s) never checked, e.g. case {i} on {e}")
    # A run that compiled nothing, or checked no value, proves nothing (vLLM "auto"
    # only re-reads the other engines' records, so it is not counted).
    values_checked = sum(s["values"] for (p, e), s in stats.items() if e != "auto")
    groups_compiled = sum(g["compiled"] for g in results["groups"].values())
    groups_run = sum(sum(g.values()) for g in results["groups"].values())
    print(f"\ntotal: {values_checked} value(s) checked, {groups_compiled} of {groups_run} distinct "
          f"(engine, native schema) pair(s) compiled")
    nothing = []
    if groups_compiled == 0:
        nothing.append("no native schema compiled on any engine")
    if values_checked == 0:
        nothing.append("no value was checked")
    for why in nothing:
        print(f"engine conformance: {why}")
    fail = bool(nothing) or any(
        s["rejected"] or s["narrowed_values"] or s["errors"] or (s["timeouts"] and not args.allow_timeouts)
        for (p, e), s in stats.items() if e != "auto")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as fh:
            json.dump({"elapsed_s": elapsed, "versions": results["versions"],
                       "values_checked": values_checked, "groups_compiled": groups_compiled,
                       "stats": {f"{p}/{e}": dict(s) for (p, e), s in stats.items()}, "failures": failures,
                       "records": [{"case": i, **r, "refused": None} for (i, _), r in results["records"].items()]},
                      fh)
    print(f"\nengine conformance: {'FAILED' if fail else 'passed'}")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
