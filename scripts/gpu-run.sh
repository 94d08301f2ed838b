#!/usr/bin/env bash
# Compile and run libts kernels on the GPU machine (nvcc, no clang there).
#
# Input: the .cu files the plugin emitted on a development machine
# (build/emitted/*.cu, from clang++ -fplugin=libts.so -plugin-arg-ts -emit=<file>),
# or the hand-lowered twins in test/gpu/handwritten/ when none were emitted or
# --hand is given. Each program checks its own result and exits non-zero on a
# mismatch; by convention it takes [MiB] [reps] arguments.
#
# usage: scripts/gpu-run.sh [--hand | --both] [--quick] [--sanitize]
#                           [--prebuilt EXE]... [--log FILE] [FILE.cu ...] [-- ARGS...]
#   --hand      use the hand twins even if emitted files exist
#   --both      emitted files and hand twins (benchmark baseline) in one log
#   --quick     small sizes (ARGS = "16 2") for a fast check
#   --sanitize  also run each binary under compute-sanitizer (memcheck by
#               default; SANITIZE_TOOLS="memcheck racecheck" for more) on a
#               small size (SANITIZE_ARGS, default "4 1")
#   --prebuilt  also run a program built on the development machine (e.g.
#               the package test's CMake project, build/test/package-work/proj/reduce,
#               carried over): its own default arguments, sanitizers with
#               PREBUILT_SANITIZE_ARGS (default "1000003")
#   ARGS        passed to every program (default: none, its own defaults)
# Env: NVCC (nvcc), ARCH (sm_90a), NVCC_FLAGS (extra flags), OUT (if set,
# the log is copied there too: the device tool returns that folder).
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

NVCC=${NVCC:-nvcc}
ARCH=${ARCH:-sm_90a}
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
SANITIZE_TOOLS=${SANITIZE_TOOLS:-memcheck}
SANITIZE_ARGS=${SANITIZE_ARGS:-4 1}
mode=auto sanitize=0 log="" files=() args=() prebuilt=()

while [ $# -gt 0 ]; do
  case "$1" in
    --hand) mode=hand ;;
    --both) mode=both ;;
    --quick) args=(16 2) ;;
    --sanitize) sanitize=1 ;;
    --log) shift; log=$1 ;;
    --prebuilt) shift; prebuilt+=("$1") ;;
    --) shift; args=("$@"); break ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    -*) echo "gpu-run: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1") ;;
  esac
  shift
done

emitted=(build/emitted/*.cu)
[ -e "${emitted[0]}" ] || emitted=()
hand=(test/gpu/handwritten/*.cu)
if [ ${#files[@]} -eq 0 ]; then
  case $mode in
    hand) files=("${hand[@]}") ;;
    both) files=("${emitted[@]}" "${hand[@]}") ;;
    auto)
      if [ ${#emitted[@]} -gt 0 ]; then files=("${emitted[@]}")
      else echo "gpu-run: no build/emitted/*.cu, using the hand twins"; files=("${hand[@]}"); fi ;;
  esac
fi

bin=build/gpu-run/bin
mkdir -p "$bin"
log=${log:-build/gpu-run/gpu-run-$(date +%Y%m%d-%H%M%S).log}
mkdir -p "$(dirname "$log")"

# run_one NAME EXE SANITIZE_ARGS [ARGS...]: runs it, then under each
# sanitizer, and adds its line to the summary.
run_one() {
  local name=$1 exe=$2 san_args=$3 status rc
  shift 3
  echo "\$ $exe $*"
  if "$exe" "$@"; then status="run ok"
  else rc=$?; status="RUN FAILED (rc $rc)"; failed=1; fi
  if [ $sanitize -eq 1 ]; then
    for tool in $SANITIZE_TOOLS; do
      echo "\$ $SANITIZER --tool $tool --error-exitcode 99 $exe $san_args"
      # shellcheck disable=SC2086
      if "$SANITIZER" --tool "$tool" --error-exitcode 99 "$exe" $san_args; then
        status="$status, $tool clean"
      else rc=$?; status="$status, $tool FAILED (rc $rc)"; failed=1; fi
    done
  fi
  summary+=("$name: $status")
}

run_all() {
  echo "# libts gpu-run $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  if git rev-parse --git-dir >/dev/null 2>&1; then
    echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo none)$(git diff --quiet HEAD 2>/dev/null || echo ' (dirty)')"
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/# device: /'
  echo "# $($NVCC --version | tail -n 2 | head -n 1)"
  echo "# files: ${files[*]}"
  echo "# args: ${args[*]:-(program defaults)}"

  failed=0
  summary=()
  for src in "${files[@]}"; do
    name=$(basename "$src" .cu)
    [[ $src == build/emitted/* ]] && name="emitted-$name"
    exe="$bin/$name"
    echo
    echo "== $name ($src)"
    # A source may set its own arguments or ask to be left out:
    #   // gpu-run-args: ...   // gpu-run-sanitize-args: ...   // gpu-run: skip (why)
    skip=$(sed -n 's|^// gpu-run: skip *||p' "$src" | head -n 1)
    if [ -n "$skip" ]; then
      echo "skipped: $skip"; summary+=("$name: skipped $skip"); continue
    fi
    run_args=("${args[@]}")
    own=$(sed -n 's|^// gpu-run-args: *||p' "$src" | head -n 1)
    # shellcheck disable=SC2206  # a list of words
    [ -n "$own" ] && run_args=($own)
    san_args=$(sed -n 's|^// gpu-run-sanitize-args: *||p' "$src" | head -n 1)
    san_args=${san_args:-$SANITIZE_ARGS}
    # shellcheck disable=SC2206  # NVCC_FLAGS is a list of words
    cmd=("$NVCC" -std=c++17 -arch="$ARCH" -O3 -I include ${NVCC_FLAGS:-} -o "$exe" "$src")
    echo "\$ ${cmd[*]}"
    if ! "${cmd[@]}"; then
      summary+=("$name: COMPILE FAILED"); failed=1; continue
    fi
    run_one "$name" "$exe" "$san_args" "${run_args[@]}"
  done
  for exe in "${prebuilt[@]}"; do
    echo
    echo "== prebuilt $(basename "$exe") ($exe)"
    run_one "prebuilt-$(basename "$exe")" "$exe" "${PREBUILT_SANITIZE_ARGS:-1000003}"
  done

  echo
  echo "== summary"
  printf '%s\n' "${summary[@]}"
  echo "log: $log"
  return $failed
}

run_all 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then cp "$log" "$OUT/"; fi
exit "$status"
