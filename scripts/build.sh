#!/usr/bin/env bash
# Configures and builds the plugin and the unit tests into build/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build -j "${JOBS:-2}"
