#!/usr/bin/env bash
# Builds libts with AddressSanitizer + UndefinedBehaviorSanitizer (clang 19)
# into build-sanitize/ and runs the whole test suite there: unit tests, lit
# (clang and clangd load the sanitized plugin through wrappers that preload
# the ASan runtime), the mutation harness, concurrent parses, and a short
# fuzzing run (test/fuzz). Any sanitizer report fails the test it came from.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh
export PATH=/usr/local/cuda/bin:$PATH
CC=/usr/lib/llvm-19/bin/clang CXX=/usr/lib/llvm-19/bin/clang++ \
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DLIBTS_SANITIZE=ON >/dev/null
ninja -C build-sanitize -j "${JOBS:-2}"
cd build-sanitize
ctest --output-on-failure -j "${JOBS:-2}" "$@"
