#!/usr/bin/env bash
# Writes what a plugin makes of every example and lit input into OUTDIR:
# the rewrite (-emit), the report, the JSON report and the diagnostics of a
# -fsyntax-only run, and for the examples the device PTX of a code-generating
# run. A restructuring change compares two snapshots with `diff -r`: they
# must be byte-identical (docs/architecture.md, "Changing the layers").
#
#   bash scripts/snapshot.sh OUTDIR [PLUGIN]   (PLUGIN: build/lib/libts.so)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
plugin=$(realpath "${2:-$root/build/lib/libts.so}")
cd "$root"
cuda=/usr/local/cuda
clang=(/usr/lib/llvm-19/bin/clang++ -x cuda -std=c++17 --cuda-device-only
  --cuda-gpu-arch=sm_90a --cuda-path=$cuda -nocudalib -Wno-unknown-cuda-version
  -Wno-unknown-attributes -isystem $cuda/include/cccl -I tools/shim
  -I include -fplugin="$plugin")
arg() { printf -- '-Xclang\n-plugin-arg-ts\n-Xclang\n%s\n' "$1"; }
for src in examples/*.cu $(find test/lit -name '*.cu' -not -path '*/Inputs/*' | sort); do
  name=$(echo "$src" | tr / _)
  mapfile -t flags < <(arg "-emit=$out/$name.rewrite" ; arg "-report=$out/$name.report";
                       arg "-json=$out/$name.json")
  "${clang[@]}" -fsyntax-only "${flags[@]}" "$src" > "$out/$name.stdout" \
    2> "$out/$name.diag"
  echo "exit $?" >> "$out/$name.diag"
  case $src in examples/*)
    "${clang[@]}" -O3 -S "$src" -o "$out/$name.ptx" 2> "$out/$name.ptx.diag" ;;
  esac
done
echo "snapshot of $(ls "$out" | wc -l) files in $out"
