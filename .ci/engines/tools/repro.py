#!/usr/bin/env python3
"""One minimal reproduction: compiles SCHEMA with ENGINE and checks each TEXT.

  python tools/repro.py [--llamacpp-new DRIVER] [--llamacpp-old DRIVER] [--gbnf] ENGINE 'SCHEMA' 'TEXT'...

Prints REJECTED with the engine's message, or one line per text: `+` accepted,
`- @N` refused at byte N. --gbnf prints llama.cpp's grammar.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from engines import Rejected, make_engine  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--llamacpp-new")
ap.add_argument("--llamacpp-old")
ap.add_argument("--gbnf", action="store_true")
ap.add_argument("engine")
ap.add_argument("schema")
ap.add_argument("texts", nargs="*")
a = ap.parse_args()
engine = make_engine(a.engine, a.llamacpp_new, a.llamacpp_old)
try:
    handle = engine.compile(json.loads(a.schema))
except Rejected as e:
    print("REJECTED:", str(e)[:2000])
    sys.exit(0)
if a.gbnf and isinstance(handle, str):
    print(handle)
for t in a.texts:
    r = engine.refusal(handle, t)
    print("+" if r is None else f"- @{r}", t)
