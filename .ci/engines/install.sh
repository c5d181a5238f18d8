#!/usr/bin/env bash
# Installs the engine conformance suite's engines from scratch into DIR:
#   DIR/venv                  Python venv with the pinned engines (requirements-engines.txt)
#   DIR/llamacpp/{new,old}/   llama.cpp drivers built from the pinned PyPI sdists
# then smoke-tests every engine. Everything comes from PyPI; nothing is cached.
#
# usage: install.sh DIR       (needs python3 with venv, g++, and PyPI)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: install.sh DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
export PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
t0=$(date +%s)
rm -rf "$dir/venv" "$dir/llamacpp"
python3 -m venv "$dir/venv"
py="$dir/venv/bin/python"

# The llama.cpp build (downloads, then two compilers) and the wheels in parallel.
"$here/build_llamacpp.sh" "$py" "$dir/llamacpp" &
build=$!
"$py" -m pip install --quiet --no-deps -r "$here/requirements-engines.txt"
echo "engines installed in $(($(date +%s) - t0)) s"
wait "$build"

"$py" "$here/engines.py" --selftest --llamacpp-new "$dir/llamacpp/new/driver" --llamacpp-old "$dir/llamacpp/old/driver"
echo "install.sh: done in $(($(date +%s) - t0)) s"
