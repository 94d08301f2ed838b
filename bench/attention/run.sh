#!/usr/bin/env bash
# Builds the attention kernels into shared libraries and runs
# bench/attention/bench.py (PyTorch SDPA cuDNN / flash as the yardsticks):
#
#   bash bench/attention/run.sh [bench.py arguments...]     # e.g. --check, --shape 1,4096,16,128
#
# Environment:
#   OUT=dir       build and log directory (default /tmp/attention-bench)
#   NVCC=path     nvcc (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   PYTHON=path   python with torch (default python3)
#   NO_BUILD=1    use the libraries already in $OUT (built elsewhere)
#   LIBTS_SRC=f.cu  also build the libts kernel from its emitted source
#                 (build/bin/libts-clang++ --libts-emit=f.cu examples/attention_sm90.cu)
#                 and benchmark it as "libts"
#   NO_RUN=1      build only (no GPU needed)
#   SANITIZE=1    also build the hand kernel's self-check program and run it
#                 under compute-sanitizer memcheck on batch 1, seqlen 256,
#                 2 heads (SANITIZE_ARGS), before the benchmark
#
# Writes $OUT/attention_sm90_hand.so, $OUT/ptxas.txt (registers / spills per
# kernel), $OUT/bench.txt (the benchmark's output).
#
# Another implementation (the libts kernel): build it into $OUT here as one
# more shared library with the same C entry point signature (bench.py's
# docstring), and add its (name, library, symbol) line to IMPLS in bench.py,
# or pass --impl NAME:LIB:SYMBOL.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/attention-bench}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
PYTHON=${PYTHON:-python3}
FLAGS=(-arch=sm_90a -O3 -std=c++17 -Iinclude)
HAND=test/gpu/handwritten/attention_sm90_hand.cu

if [[ ${NO_BUILD:-0} != 1 ]]; then
  echo "== build ($("$NVCC" --version | tail -1))"
  "$NVCC" "${FLAGS[@]}" -DATTN_HAND_LIBRARY -shared -Xcompiler -fPIC -Xptxas -v "$HAND" \
    -o "$OUT/attention_sm90_hand.so" 2> "$OUT/ptxas-hand.txt"
  if [[ -n ${LIBTS_SRC:-} ]]; then
    "$NVCC" "${FLAGS[@]}" -DATTN_NO_MAIN -shared -Xcompiler -fPIC -Xptxas -v "$LIBTS_SRC" \
      -o "$OUT/attention_sm90_libts.so" 2> "$OUT/ptxas-libts.txt"
  fi
  cat "$OUT"/ptxas-*.txt > "$OUT/ptxas.txt"
  echo "== registers / spills (ptxas -v)"
  awk '/Compiling entry function/ { f = $7 } /spill stores/ { s = $0 } /Used [0-9]+ registers/ {
         gsub(/^ +/, "", s); printf "%s\n    %s; %s\n", f, $0, s }' "$OUT/ptxas.txt"
  if [[ ${SANITIZE:-0} == 1 ]]; then
    "$NVCC" "${FLAGS[@]}" "$HAND" -o "$OUT/attention_check"
  fi
fi
[[ ${NO_RUN:-0} == 1 ]] && exit 0

if [[ ${SANITIZE:-0} == 1 ]]; then
  SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
  echo "== compute-sanitizer memcheck: attention_check ${SANITIZE_ARGS:-1 256 2}"
  # shellcheck disable=SC2086  # a list of words
  "$SANITIZER" --tool memcheck --error-exitcode 99 "$OUT/attention_check" ${SANITIZE_ARGS:-1 256 2} \
    2>&1 | tee "$OUT/sanitize.txt"
fi

echo "== bench ($*)"
LIBTS_IMPL=()
[[ -f $OUT/attention_sm90_libts.so ]] &&
  LIBTS_IMPL=(--impl "libts:$OUT/attention_sm90_libts.so:attention_sm90_libts")
"$PYTHON" bench/attention/bench.py --lib-dir "$OUT" "${LIBTS_IMPL[@]}" "$@" 2>&1 | tee "$OUT/bench.txt"
