#!/usr/bin/env bash
# Runs every test: GoogleTest unit tests (model, verifier, layout, lowering)
# and the lit suite (diagnostics with -verify, rewrites with FileCheck, PTX,
# nvcc compiles of the emitted sources). CTest prints the summary.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/build.sh
export PATH=/usr/local/cuda/bin:$PATH
cd build
ctest --output-on-failure
