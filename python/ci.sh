#!/usr/bin/env bash
# The Python package's CI, from the repository root on a machine with Rust and python3:
# a fresh venv under target/python-ci, the pinned test requirements and ./python from
# PyPI and the checkout (maturin builds the extension), then pytest. Prints its duration.
set -euo pipefail

start=$(date +%s)
root=$(pwd)
if [[ ! -f "$root/python/pyproject.toml" ]]; then
    echo "python/ci.sh: run it from the repository root" >&2
    exit 2
fi
# The Python is whatever python3 is on PATH: .ci/run runs this script as it is and pins no
# Python version. constraints-test.txt was frozen with CPython 3.11; on another version, a
# package only that version needs is resolved freely (the constraints file's header).
if ! command -v python3 >/dev/null; then
    echo "python/ci.sh: needs python3 (CPython 3.10 or later) on PATH" >&2
    exit 2
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "python/ci.sh: needs Python 3.10 or later (pyproject.toml's requires-python); python3 is $(python3 -V 2>&1)" >&2
    exit 2
fi
echo "python/ci.sh: $(python3 -V 2>&1)"
ci="$root/target/python-ci"
venv="$ci/venv"
rm -rf "$ci"
python3 -m venv "$venv"
# Nothing cached: no pip cache, and the extension is built in a fresh cargo target folder.
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 CARGO_TARGET_DIR="$ci/cargo"
# The requirements pinned exactly, and everything they bring pinned by the constraints.
"$venv/bin/python" -m pip install --quiet -r python/requirements-test.txt -c python/constraints-test.txt
echo "python/ci.sh: building and installing ./python"
"$venv/bin/python" -m pip install --quiet ./python
installed=$(date +%s)
echo "python/ci.sh: installed in $((installed - start)) s"

cd python
# The pytest script, not `python -m pytest`: that puts python/ first on sys.path, where
# the source package (without its compiled extension) would shadow the installed one.
"$venv/bin/pytest" -q -p no:cacheprovider
end=$(date +%s)
echo "python/ci.sh: pytest took $((end - installed)) s; $((end - start)) s in all"
