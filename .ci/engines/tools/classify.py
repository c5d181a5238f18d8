#!/usr/bin/env python3
"""Classifies the failures of a run_conformance.py report by cause.

  python tools/classify.py REPORT.json [--examples N]

(REPORT.json: run_conformance.py --report.)

Each failure is matched against rules keyed on the engine, the failure kind, the
engine's error text, the native schema and the refused text. Unmatched failures are
listed so that new causes get a rule.
"""
import argparse
import collections
import json
import re


def walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def has(native, pred):
    return any(pred(n) for n in walk(native) if isinstance(n, dict))


def strings_in(text):
    try:
        v = json.loads(text)
    except Exception:
        return []
    out = []

    def go(x):
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, list):
            for y in x:
                go(y)
        elif isinstance(x, dict):
            for k, y in x.items():
                go(y)

    go(v)
    return out


def numbers_in(text):
    return re.findall(r'(?<![\w."])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?', re.sub(r'"(?:[^"\\]|\\.)*"', '""', text))


ESCAPED = re.compile(r'["\\\x00-\x1f]')
CTRL_U = re.compile(r'[\x00-\x07\x0b\x0e-\x1f]')  # only \uXXXX can spell these


def classify(f):
    e, kind, native = f["engine"], f["kind"], f["native"]
    err = f.get("error") or ""
    text = f.get("text") or ""
    strs = strings_in(text)
    nums = numbers_in(text)
    if kind == "error":
        return f"{e}: the worker died or broke its protocol: {err[:100]}"
    if kind in ("timeout", "accept-timeout"):
        if e == "outlines":
            return "outlines: regex→DFA index build exceeds the time-out (any-value `{}` unions, open maps, nested repetition)"
        return f"{e}: compile time-out"
    if kind == "rejected":
        if e == "xgrammar":
            if err.startswith("vLLM precheck"):
                return "xgrammar/vLLM precheck: " + err.split(": ", 2)[-1]
            if "minItems is greater than the number of prefixItems" in err:
                return "xgrammar strict mode: array without `items` + minItems>0 (absent items read as no items) → compile error"
            if "minProperties is greater" in err:
                return "xgrammar strict mode: minProperties on an object without additionalProperties → compile error"
            return "xgrammar: other compile error: " + err[:80]
        if e in ("guidance", "llguidance-llamacpp"):
            m = re.search(r"Unimplemented keys: \[([^\]]*)\]", err)
            if m:
                return f"llguidance: unimplemented keyword rejected (lenient=false): {m.group(1)}"
            if "oneOf constraints are not supported" in err:
                return "llguidance: oneOf whose branches are not provably disjoint rejected (coerce_one_of=false)"
            if "Unknown format" in err:
                return "llguidance: unknown `format` rejected"
            if "min/maxProperties" in err:
                return "llguidance: min/maxProperties with optional properties rejected"
            return f"llguidance: other rejection: {err[:100]}"
        if e == "outlines":
            if "is not supported by Outlines" in err:
                return "outlines: unsupported format rejected: " + (re.search(r"Format (\S+)", err) or [None, "?"])[1]
            if "Unsupported JSON Schema structure" in err:
                return "outlines: unsupported schema structure rejected (boolean schema, not, if/then, …)"
            if "universal start state" in err or "Error parsing regex" in err or "unsupported" in err.lower():
                return "outlines: vLLM regex buildability check fails on the generated regex: " + err[:80]
            return "outlines: other rejection: " + err[:100]
        if e.startswith("llamacpp"):
            if "failed to parse grammar" in err or "GBNF parser" in err:
                return f"{e}: converter output fails llama.cpp's own GBNF parser"
            if "crashed" in err:
                return f"{e}: converter aborted"
            return f"{e}: converter rejects the schema: " + err.replace("\n", " ")[:120]
    # narrowed
    if e == "xgrammar":
        array_kw = ("items", "prefixItems")
        structural = ("additionalProperties", "properties", "minItems", "maxItems", "maxProperties", "minProperties",
                      "patternProperties", "uniqueItems", "contains", "propertyNames", "required")

        def types(n):
            t = n.get("type")
            return {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()

        if has(native, lambda n: "array" in types(n) and not any(k in n for k in array_kw)
               and any(k in n for k in structural)) and "[" in text and re.search(r"\[\s*[^\]\s]", text):
            return ("xgrammar strict mode: a node that may be an array, has no `items` but has another structural "
                    "keyword (additionalProperties, maxItems, …) is generated with no items")
        if has(native, lambda n: "object" in types(n) and "additionalProperties" not in n and "properties" not in n
               and any(k in n for k in ("items", "minItems", "maxItems", "maxProperties", "minProperties"))):
            return "xgrammar strict mode: a node that may be an object, has no properties/additionalProperties but another structural keyword is generated as {}"
        if any(ESCAPED.search(s) for s in strs) and has(native, lambda n: "maxLength" in n or "minLength" in n):
            return "xgrammar: string with minLength/maxLength refuses escaped characters (\" \\ \\n \\t, controls)"
        if any(ESCAPED.search(s) for s in strs) and has(native, lambda n: "pattern" in n or "format" in n):
            return "xgrammar: string with pattern/format refuses escaped characters"
        if has(native, lambda n: any(k in n for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"))) and any(
            re.search(r"\.\d{7,}|[eE]", x) for x in nums
        ):
            return "xgrammar: bounded number refuses more than 6 decimals / exponent"
        if any(len(re.sub(r"[-.eE].*", "", x.lstrip("-"))) > 19 or "e+" in x for x in nums):
            return "xgrammar: integers beyond 64 bits refused under a numeric bound"
        return "xgrammar: other narrowing"
    if e == "outlines":
        if any(CTRL_U.search(s) for s in strs) or any(re.search(r"[\x7f-\x9f]", s) for s in strs):
            return "outlines: strings cannot hold U+0000–U+001F (no \\u escapes) or U+007F–U+009F"
        try:
            v = json.loads(text)
        except Exception:
            v = None
        if not isinstance(v, dict) and isinstance(native, dict) and "properties" in native and isinstance(native.get("type"), list):
            return "outlines: a node with `properties` is generated as an object only (its `type` list is ignored)"
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return "outlines (byte vocabulary): after an accepting prefix only tokens ending in an accepting state are allowed (root 1.5, -0.5)"
        if "pattern" in json.dumps(native) and any(ESCAPED.search(s) for s in strs):
            return "outlines: pattern matched against the JSON-escaped text"
        if has(native, lambda n: n.get("additionalProperties") is True or isinstance(n.get("additionalProperties"), dict)):
            return "outlines: `additionalProperties: true` ignored beside `properties` (object generated closed)"
        if has(native, lambda n: n == {} or ("anyOf" in n and len(n["anyOf"]) >= 6)):
            return "outlines: any-value node not generable"
        return "outlines: other narrowing"
    if e in ("guidance", "llguidance-llamacpp"):
        if any(CTRL_U.search(s) for s in strs):
            return "llguidance: strings cannot hold controls other than \\b\\f\\n\\r\\t (\\u escapes off by default)"
        return "llguidance: other narrowing"
    if e.startswith("llamacpp"):
        declared = {k for n in walk(native) if isinstance(n, dict) and isinstance(n.get("properties"), dict) for k in n["properties"]}
        keys = set(re.findall(r'"((?:[^"\\]|\\.)*)"\s*:', text))
        if any(k != d and d.startswith(k) for k in keys - declared for d in declared):
            return f"{e}: open object refuses an undeclared key that is a proper prefix of a declared name"
        if has(native, lambda n: "pattern" in n) and any(ESCAPED.search(s) for s in strs):
            return f"{e}: pattern matched against the JSON-escaped text"
        if any(len(re.sub(r"[-.eE].*", "", x.lstrip("-"))) > 16 or "e+" in x for x in nums):
            return f"{e}: numbers limited to 16 integral digits (no exponent on integers)"
        return f"{e}: other narrowing"
    return f"{e}: unclassified"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--examples", type=int, default=1)
    ap.add_argument("--json", help="write the classes with examples here")
    a = ap.parse_args()
    r = json.load(open(a.report))
    classes = collections.defaultdict(list)
    for f in r["failures"]:
        classes[(f["provider"], classify(f))].append(f)
    out = []
    for (p, c), fs in sorted(classes.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        sources = {f["source"] for f in fs}
        print(f"{p:9} {len(fs):5} fail / {len(sources):4} schemas  {c}")
        for f in fs[: a.examples]:
            print(f"            e.g. {f['source']}\n              native {json.dumps(f['native'])[:240]}\n              "
                  + (f"error {f.get('error', '')[:200]!r}" if f.get("error") else f"text {f.get('text', '')[:200]!r}"))
        out.append({"provider": p, "class": c, "failures": len(fs), "schemas": len(sources),
                    "examples": [{k: f.get(k) for k in ("source", "native", "text", "error", "engine")} for f in fs[:3]]})
    if a.json:
        json.dump(out, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
