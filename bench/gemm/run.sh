#!/usr/bin/env bash
# Builds and runs the GEMM benchmark (bench/gemm/bench.cu) on an sm_90a GPU:
#
#   bash bench/gemm/run.sh [bench arguments...]
#
# Environment:
#   OUT=dir        build and log directory (default /tmp/gemm-bench)
#   NVCC=path      nvcc (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   VARIANTS=1     also benchmark the hand kernel's configurations (gemm.h)
#   LIBTS_SRC=f.cu also link the libts kernel (gemm_sm90_libts, the plugin's
#                  emitted file) and benchmark it as "libts"
#   LIBTS_CLUSTER_SRC=f.cu also the emitted -DGEMM_CLUSTER=2 build
#                  (build/emitted/gemm_sm90_cluster2.cu) as "libts_cluster2",
#                  compared in SASS with hand variant 2 ($OUT/sass-diff-cluster2.txt)
#   NO_RUN=1       kernels, registers and SASS only (no GPU needed: on a
#                  development machine with nvcc, pass a cuobjdump, e.g. from
#                  `pip install nvidia-cuda-cuobjdump`)
#   CUOBJDUMP=path cuobjdump (default: on PATH, else beside nvcc)
#   TIMEOUT=s      limit for the benchmark run (default 300)
#
# Writes $OUT/ptxas.txt (registers/spills per kernel), $OUT/bench.txt,
# $OUT/<impl>.sass and $OUT/<impl>-sass-counts.txt (instructions by opcode per
# kernel), so the hand and libts kernels can be compared side by side; with
# LIBTS_SRC also $OUT/sass-diff.txt: bench/gemm/sass_diff.py's comparison of
# the libts kernel's main (HGMMA) loop with its twin's, hand variant 4
# (SASS_DIFF_HAND / SASS_DIFF_LIBTS: other kernel name regexes).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/gemm-bench}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUBIN_DIR=$(dirname "$NVCC")
FLAGS=(-arch=sm_90a -O3 -std=c++17 -Iinclude -Ibench/gemm)
DEFS=()
[[ ${VARIANTS:-0} == 1 ]] && DEFS+=(-DGEMM_HAND_VARIANTS=1)

objs=("$OUT/hand.o")
echo "== build ($("$NVCC" --version | tail -1))"
"$NVCC" "${FLAGS[@]}" -Xptxas -v -c test/gpu/handwritten/gemm_sm90_hand.cu -o "$OUT/hand.o" \
  2> "$OUT/ptxas-hand.txt"
if [[ -n ${LIBTS_SRC:-} ]]; then
  DEFS+=(-DGEMM_WITH_LIBTS=1)
  "$NVCC" "${FLAGS[@]}" -DGEMM_NO_MAIN -Xptxas -v -c "$LIBTS_SRC" -o "$OUT/libts.o" 2> "$OUT/ptxas-libts.txt"
  objs+=("$OUT/libts.o")
fi
if [[ -n ${LIBTS_CLUSTER_SRC:-} ]]; then
  DEFS+=(-DGEMM_WITH_LIBTS_CLUSTER=1)
  # Renamed so that it links beside the one-CTA build.
  "$NVCC" "${FLAGS[@]}" -DGEMM_NO_MAIN -Dgemm=gemm_cluster2 \
    -Dgemm_sm90_libts=gemm_sm90_libts_cluster2 -Xptxas -v -c "$LIBTS_CLUSTER_SRC" \
    -o "$OUT/libts_cluster2.o" 2> "$OUT/ptxas-libts_cluster2.txt"
  objs+=("$OUT/libts_cluster2.o")
fi
[[ ${NO_RUN:-0} == 1 ]] ||
  "$NVCC" "${FLAGS[@]}" "${DEFS[@]}" bench/gemm/bench.cu "${objs[@]}" -lcublas -o "$OUT/bench"

echo "== registers / spills (ptxas -v)"
cat "$OUT"/ptxas-*.txt > "$OUT/ptxas.txt"
awk '/Compiling entry function/ { f = $7 } /spill stores/ { s = $0 } /Used [0-9]+ registers/ {
       gsub(/^ +/, "", s); printf "%s\n    %s; %s\n", f, $0, s }' "$OUT/ptxas.txt" \
  | sed 's/ptxas info    : //'

echo "== SASS (cuobjdump -sass): instructions by opcode, per kernel"
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$CUBIN_DIR/cuobjdump")}
for o in "${objs[@]}"; do
  name=$(basename "$o" .o)
  "$CUOBJDUMP" -sass "$o" > "$OUT/$name.sass"
  # one "kernel opcode" line per instruction (predicate and modifiers dropped)
  awk '/Function :/ { f = $3 }
       /^ +\/\*[0-9a-f]+\*\/ / { op = ($2 ~ /^@/) ? $3 : $2; sub(/;$/, "", op); split(op, b, ".")
                                 print f, b[1] }' "$OUT/$name.sass" > "$OUT/$name-ops.txt"
  for f in $(cut -d' ' -f1 "$OUT/$name-ops.txt" | sort -u); do
    echo "$f: $(grep -c "^$f " "$OUT/$name-ops.txt") instructions"
    grep "^$f " "$OUT/$name-ops.txt" | cut -d' ' -f2 | sort | uniq -c | sort -rn
  done > "$OUT/$name-sass-counts.txt"
  cat "$OUT/$name-sass-counts.txt"
done
if [[ -n ${LIBTS_SRC:-} ]]; then
  echo "== SASS main loop, libts against the twin (hand variant 4): $OUT/sass-diff.txt"
  if python3 bench/gemm/sass_diff.py "$OUT/hand.sass" "$OUT/libts.sass" \
      -a "${SASS_DIFF_HAND:-_ZN9gemm_hand11gemm_kernelILi1ELb1ELb1E}" \
      -b "${SASS_DIFF_LIBTS:-_ZN4gemm11gemm_kernel}" --label-a hand --label-b libts \
      --whole --side-by-side > "$OUT/sass-diff.txt" 2>&1; then
    grep -E '^(hand|libts) main loop:|^whole kernels|^verdict:' "$OUT/sass-diff.txt"
  else
    echo "sass_diff.py failed: $(tail -1 "$OUT/sass-diff.txt")"
  fi
fi

if [[ -n ${LIBTS_CLUSTER_SRC:-} ]]; then
  echo "== SASS main loop, libts cluster2 against hand variant 2: $OUT/sass-diff-cluster2.txt"
  if python3 bench/gemm/sass_diff.py "$OUT/hand.sass" "$OUT/libts_cluster2.sass" \
      -a _ZN9gemm_hand11gemm_kernelILi2ELb1ELb1E -b _ZN13gemm_cluster211gemm_kernel \
      --label-a hand_v2 --label-b libts_cluster2 --whole --side-by-side \
      > "$OUT/sass-diff-cluster2.txt" 2>&1; then
    grep -E '^(hand_v2|libts_cluster2) main loop:|^whole kernels|^verdict:' \
      "$OUT/sass-diff-cluster2.txt"
  else
    echo "sass_diff.py failed: $(tail -1 "$OUT/sass-diff-cluster2.txt")"
  fi
fi

[[ ${NO_RUN:-0} == 1 ]] && exit 0
echo "== bench $*"
timeout "${TIMEOUT:-300}" "$OUT/bench" "$@" | tee "$OUT/bench.txt"
