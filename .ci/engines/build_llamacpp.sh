#!/usr/bin/env bash
# Builds the llama.cpp driver (lcpp_driver.cpp: llama.cpp's own json_schema_to_grammar,
# GBNF parser and grammar matcher behind a line protocol) from the llama.cpp sources
# vendored in llama-cpp-python's sdist on PyPI, for two pinned llama.cpp revisions:
#   new: llama-cpp-python 0.3.36 -> llama.cpp@0c1e57098 (llama-server today, after the
#        Sep 2026 converter rewrite)
#   old: llama-cpp-python 0.3.35 -> llama.cpp@4df29be4f (Aug 2026, next to the b10488
#        that Ollama pins)
# Only the converter, the grammar code and their small dependencies are compiled
# (no ggml, no model code). The sdists are downloaded with pip and checked against
# their sha256; nothing of llama.cpp is kept in the repository.
#
# usage: build_llamacpp.sh PYTHON OUTDIR   -> OUTDIR/new/driver, OUTDIR/old/driver
# env:   CXX (g++), BUILD_JOBS (2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${1:?usage: build_llamacpp.sh PYTHON OUTDIR}"
out="${2:?usage: build_llamacpp.sh PYTHON OUTDIR}"
cxx="${CXX:-g++}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# tag  llama-cpp-python version  llama.cpp revision  sdist sha256  defines  sources
new_sources="src/unicode.cpp common/json-schema-to-grammar.cpp src/llama-grammar.cpp common/json.cpp
  common/json-schema.cpp src/unicode-data.cpp common/trie.cpp common/unicode.cpp"
old_sources="common/json-schema-to-grammar.cpp src/unicode.cpp src/llama-grammar.cpp src/unicode-data.cpp"
revisions=(
  "new 0.3.36 0c1e57098 832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e -DSC_NEW"
  "old 0.3.35 4df29be4f 1139dbb54509074b70893fab8554e3b079aa9f4d312058ce4018ef0019e3de12 -DSC_OLD_JSON"
)

fetch() {  # fetch TAG VERSION SHA256: download, check, extract the needed folders
  local tag="$1" version="$2" sha="$3" dl="$out/sdist-$1"
  rm -rf "$dl" && mkdir -p "$dl/src"
  env -u PIP_NO_CACHE_DIR PIP_CONSTRAINT="$here/constraints-sdist.txt" PIP_CACHE_DIR="$out/pip-cache" \
    "$py" -m pip download --quiet --no-deps --no-binary llama-cpp-python -d "$dl" "llama-cpp-python==$version"
  local sdist="$dl/llama_cpp_python-$version.tar.gz"
  echo "$sha  $sdist" | sha256sum -c --quiet
  local top="llama_cpp_python-$version/vendor/llama.cpp"
  tar -xzf "$sdist" -C "$dl/src" --strip-components=3 --wildcards \
    "$top/common/*" "$top/src/*" "$top/include/*" "$top/ggml/include/*" "$top/vendor/nlohmann/*"
  rm -f "$sdist"
}

compile() {  # compile TAG VERSION REV DEFINES: every object, BUILD_JOBS at a time, then link
  local tag="$1" version="$2" rev="$3" defines="$4" src="$out/sdist-$1/src" sources="${1}_sources" f path
  mkdir -p "$out/$tag"
  for f in ${!sources} "$here/lcpp_driver.cpp" "$here/lcpp_stubs.cpp"; do
    path="$f"; [ -f "$path" ] || path="$src/$f"
    echo "$defines -I$src/common -I$src/src -I$src/include -I$src/ggml/include -I$src/vendor" \
      "-c $path -o $out/$tag/$(basename "$(dirname "$f")")-$(basename "$f" .cpp).o"
  done | xargs -P "${BUILD_JOBS:-2}" -L 1 "$cxx" -std=c++17 -O2 -w
  "$cxx" -o "$out/$tag/driver" "$out/$tag"/*.o
  rm -rf "$out/$tag"/*.o "$out/sdist-$tag"
  echo "llama.cpp@$rev (llama-cpp-python $version sdist)" >"$out/$tag/driver.version"
}

# Each revision compiles while the next one downloads. The sdists' metadata step
# fetches the same CMake wheel: a pip cache inside OUTDIR, deleted at the end, fetches
# it once. The source lists name the slow files first (10-25 s each at -O2).
t0=$(date +%s)
pids=()
for r in "${revisions[@]}"; do
  read -r tag version rev sha defines <<<"$r"
  fetch "$tag" "$version" "$sha"
  compile "$tag" "$version" "$rev" "$defines" & pids+=($!)
done
rm -rf "$out/pip-cache"
for p in "${pids[@]}"; do wait "$p"; done
echo "llama.cpp drivers built in $(($(date +%s) - t0)) s: $out/new/driver $out/old/driver"
