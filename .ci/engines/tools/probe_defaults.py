#!/usr/bin/env python3
"""Probes each engine's defaults with minimal schemas and texts; prints one line per
probe and engine: R (rejected), T (compile time-out) or a string of +/- for the texts
in order (+ accepted as a whole answer, - refused).

  python tools/probe_defaults.py --llamacpp-new DRIVER --llamacpp-old DRIVER [--only NAME]

The defaults table of README.md was read off this output.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from engines import ENGINES, WorkerClient  # noqa: E402

P = [
    # name, schema, texts
    ("closes object without additionalProperties", {"type": "object", "properties": {"a": {"type": "integer"}}},
     ['{"a":1}', '{"a":1,"b":2}']),
    ("additionalProperties:true opens", {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": True},
     ['{"a":1,"b":2}', '{"b":2}', '{"b":2,"a":1}']),
    ("undeclared key that prefixes a declared name (open object)", {"type": "object", "properties": {"abc": {"type": "integer"}}, "additionalProperties": True},
     ['{"ab":1}', '{"abcd":1}', '{"":1}']),
    ("declared order enforced", {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]},
     ['{"a":1,"b":2}', '{"b":2,"a":1}']),
    ("required first, then optional", {"type": "object", "properties": {"o": {"type": "integer"}, "r": {"type": "integer"}}, "required": ["r"]},
     ['{"o":1,"r":2}', '{"r":2,"o":1}']),
    ("whitespace", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}},
     ['{"a":[1,2]}', '{"a": [1, 2]}', '{ "a" : [ 1 , 2 ] }', '{\n  "a": [1,2]\n}', '{"a":[1,2]}  ']),
    ("{} property", {"type": "object", "properties": {"a": {}}, "required": ["a"]},
     ['{"a":1}', '{"a":"s"}', '{"a":{"x":1}}', '{"a":[1]}', '{"a":null}']),
    ("true property", {"type": "object", "properties": {"a": True}, "required": ["a"]},
     ['{"a":1}', '{"a":{"x":1}}']),
    ("{} root", {}, ['1', '"s"', '{"x":1}', '[1]']),
    ("array without items", {"type": "array"}, ['[]', '[1,"a",{"b":null}]']),
    ("array without items, minItems 2", {"type": "array", "minItems": 2}, ['[1,2]']),
    ("array items {} minItems 2", {"type": "array", "items": {}, "minItems": 2}, ['[1,"a"]']),
    ("prefixItems alone (extra items?)", {"type": "array", "prefixItems": [{"type": "integer"}]}, ['[]', '[1]', '[1,2]']),
    ("prefixItems + items", {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}}, ['[1,"a"]', '[1,2]']),
    ("pattern whole string (^a$ vs a)", {"type": "string", "pattern": "a"}, ['"a"', '"xa"', '"ax"']),
    ("anchored pattern", {"type": "string", "pattern": "^a+$"}, ['"a"', '"aa"', '"ba"']),
    ("pattern with escapes in value", {"type": "string", "pattern": "^[\\s\\S]*$"}, ['"a\\"b"', '"a\\\\b"', '"a\\nb"', '"é"']),
    ("pattern with \\d", {"type": "string", "pattern": "^\\d+$"}, ['"12"']),
    ("pattern [\"] class", {"type": "string", "pattern": '^["]$'}, ['"\\""']),
    ("string escapes (no bounds)", {"type": "string"}, ['"a\\"b"', '"a\\\\b"', '"a\\nb"', '"a\\tb"', '"é中"', '"\\u0001"', '"\\u00e9"', '"\x7f"']),
    ("maxLength with escapes", {"type": "string", "maxLength": 280}, ['"ab"', '"a\\"b"', '"a\\nb"', '"é"']),
    ("minLength 1 with escapes", {"type": "string", "minLength": 1}, ['"a"', '"\\""', '"\\n"']),
    ("maxLength counts code points", {"type": "string", "maxLength": 2}, ['"éé"', '"中中"', '"😀"']),
    ("format date", {"type": "string", "format": "date"}, ['"2020-01-31"', '"x"']),
    ("format date-time", {"type": "string", "format": "date-time"}, ['"2020-01-31T10:00:00Z"', '"2020-01-31T10:00:00.123+02:00"', '"2020-01-31t10:00:00z"']),
    ("format time", {"type": "string", "format": "time"}, ['"10:00:00Z"', '"10:00:00+02:00"', '"10:00:00.5Z"']),
    ("format uuid", {"type": "string", "format": "uuid"}, ['"123e4567-e89b-12d3-a456-426614174000"', '"123E4567-E89B-12D3-A456-426614174000"']),
    ("format ipv4", {"type": "string", "format": "ipv4"}, ['"1.2.3.4"', '"255.255.255.255"']),
    ("format email", {"type": "string", "format": "email"}, ['"a@b.co"', '"a.b+c@example.com"']),
    ("format unknown", {"type": "string", "format": "x-unknown"}, ['"anything"']),
    ("number unbounded", {"type": "number"}, ['1', '1.5', '0.1234567', '1e5', '-0.5', '1E+2']),
    ("number with minimum", {"type": "number", "minimum": 0}, ['0', '1.5', '0.123456', '0.1234567', '100000000000000000000']),
    ("number with fractional bounds", {"type": "number", "minimum": 0.5, "maximum": 2.5}, ['0.5', '1', '2.5', '2.6']),
    ("exclusiveMinimum number", {"type": "number", "exclusiveMinimum": 0}, ['0', '0.001', '1']),
    ("integer bounds", {"type": "integer", "minimum": -5, "maximum": 1000}, ['-5', '0', '1000', '1001']),
    ("integer beyond 2^63", {"type": "integer", "minimum": 0}, ['0', '99999999999999999999']),
    ("integer 1.0", {"type": "integer"}, ['1', '1.0']),
    ("multipleOf", {"type": "integer", "multipleOf": 5}, ['5', '7']),
    ("$ref/$defs", {"$defs": {"n": {"type": "integer"}}, "type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}, "required": ["a"]}, ['{"a":1}']),
    ("recursive $ref", {"$defs": {"t": {"type": "object", "properties": {"c": {"type": "array", "items": {"$ref": "#/$defs/t"}}}}}, "$ref": "#/$defs/t"},
     ['{"c":[{"c":[]}]}']),
    ("anyOf", {"anyOf": [{"type": "integer"}, {"type": "string"}]}, ['1', '"a"', 'null']),
    ("oneOf overlap (both match)", {"oneOf": [{"type": "integer"}, {"type": "number"}]}, ['1', '1.5']),
    ("allOf merge", {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                              {"properties": {"b": {"type": "string"}}}]}, ['{"a":1}', '{"a":1,"b":"x"}']),
    ("enum of non-strings", {"enum": [1, 2.5, None, True, [1, 2], {"k": "v"}]}, ['1', '2.5', 'null', 'true', '[1,2]', '{"k":"v"}', '{"k": "v"}']),
    ("const object", {"const": {"a": [1, 2]}}, ['{"a":[1,2]}', '{"a": [1, 2]}']),
    ("type array", {"type": ["string", "null"]}, ['"a"', 'null']),
    ("minProperties (open)", {"type": "object", "minProperties": 1}, ['{"a":1}', '{}']),
    ("minProperties with properties, additionalProperties true", {"type": "object", "properties": {"a": {"type": "integer"}}, "minProperties": 1, "additionalProperties": True}, ['{"a":1}']),
    ("maxProperties", {"type": "object", "maxProperties": 1}, ['{"a":1}', '{"a":1,"b":2}']),
    ("patternProperties", {"type": "object", "patternProperties": {"^x": {"type": "integer"}}}, ['{"x1":1}', '{"y":1}']),
    ("propertyNames", {"type": "object", "propertyNames": {"maxLength": 2}}, ['{"ab":1}', '{"abc":1}']),
    ("uniqueItems", {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}, ['[1,2]', '[1,1]']),
    ("contains", {"type": "array", "contains": {"type": "integer"}}, ['[1]', '["a"]']),
    ("not", {"not": {"type": "string"}}, ['1', '"a"']),
    ("if/then", {"if": {"type": "string"}, "then": {"minLength": 2}}, ['1', '"ab"']),
    ("dependentRequired", {"type": "object", "dependentRequired": {"a": ["b"]}}, ['{}', '{"a":1}']),
    ("unknown keyword", {"type": "string", "x-foo": 1, "frobnicate": True}, ['"a"']),
    ("nullable (OpenAPI)", {"type": "string", "nullable": True}, ['"a"', 'null']),
    ("minItems/maxItems", {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2}, ['[1]', '[1,2]', '[]', '[1,2,3]']),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llamacpp-new")
    ap.add_argument("--llamacpp-old")
    ap.add_argument("--only")
    ap.add_argument("--json", help="write results as JSON here")
    ap.add_argument("--timeout", type=float, default=10.0)
    a = ap.parse_args()
    names = [n for n in ENGINES if not a.only or n in a.only.split(",")]
    if not a.llamacpp_new:
        names.remove("llamacpp-new")
    if not a.llamacpp_old:
        names.remove("llamacpp-old")
    engines = {n: WorkerClient(n, a.llamacpp_new, a.llamacpp_old) for n in names}
    out = []
    width = max(len(n) for n in engines)
    for title, schema, texts in P:
        print(f"## {title}: {json.dumps(schema)}")
        print(f"   texts: {'  '.join(texts)}")
        for n, w in engines.items():
            r = w.call({"op": "compile", "schema": schema}, a.timeout)
            err = ""
            if r is None:
                res = "T"
                err = f"compile time-out ({a.timeout:g} s)"
            elif not r.get("ok"):
                res = "R"
                err = (r.get("error") or "rejected").strip().splitlines()[0][:160] if (r.get("error") or "").strip() else "rejected"
            else:
                acc = w.call({"op": "accept", "texts": texts}, 60)
                res = "".join("+" if x is None else "-" for x in acc["results"]) if acc else "T"
            print(f"   {n:<{width}} {res} {err}", flush=True)
            out.append({"probe": title, "schema": schema, "texts": texts, "engine": n, "result": res, "error": err})
    for w in engines.values():
        w.kill()
    if a.json:
        json.dump(out, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
