#!/usr/bin/env bash
# Runs every test: GoogleTest unit tests (model, verifier, layout, lowering)
# and the lit suite (diagnostics with -verify, rewrites with FileCheck, PTX,
# nvcc compiles of the emitted sources), the mutation harness, concurrent
# parses and the installed package; then all of it again in a sanitized
# build with a short fuzzing run (scripts/sanitize.sh). CTest prints the
# summaries.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/build.sh
export PATH=/usr/local/cuda/bin:$PATH
# Two at a time: the single-threaded tests (package, html) overlap the
# others, which keeps CI under 30 minutes on two cores.
(cd build && ctest --output-on-failure -j "${JOBS:-2}")
# The same suite with ASan + UBSan in the plugin, and a short fuzzing run.
bash scripts/sanitize.sh
