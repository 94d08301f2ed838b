#!/usr/bin/env bash
# The main job: builds libts, then compiles every example through it. For
# each kernel it prints the schedule table and the verification and layout
# report, writes the rewritten source to build/emitted/<name>.cu (what nvcc
# users compile) and the device PTX to build/emitted/<name>.ptx, and checks
# that nvcc 13 compiles the rewritten source for sm_90a.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/build.sh
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p build/emitted
# libts-clang++ adds the plugin and the flags CUDA 13 needs (README.md);
# clang 19 builds the device code only, nvcc the whole program.
clang_cuda=(build/bin/libts-clang++)
status=0
# One example, emitted as build/emitted/$2.cu with the plugin flags $3...
# An example marked `// libts-target: sm_100a` (Blackwell) is only verified
# and rewritten by clang 19, which has no sm_100a; nvcc builds it for that.
build_one() {
  local src=$1 name=$2
  shift 2
  echo "==== $src${*:+ ($*)}"
  local target arch=(-arch=sm_90a) device=(-O3 -S -o "build/emitted/$name.ptx")
  target=$(sed -n 's|^// libts-target: *||p' "$src")
  if [ "$target" = sm_100a ]; then
    arch=(-gencode=arch=compute_100a,code=sm_100a)
    device=(-fsyntax-only)
  fi
  if ! "${clang_cuda[@]}" "$@" "${device[@]}" "$src" \
      -Xclang -plugin-arg-ts -Xclang -report \
      -Xclang -plugin-arg-ts -Xclang "-emit=build/emitted/$name.cu"; then
    echo "FAILED: libts rejected $src"; status=1; return
  fi
  if [ "$target" = sm_100a ]; then
    echo "-- emitted build/emitted/$name.cu (sm_100a: compile-verified only)"
  else
    echo "-- emitted build/emitted/$name.cu and build/emitted/$name.ptx ($(grep -c 'mbarrier' "build/emitted/$name.ptx") mbarrier instructions)"
  fi
  # The emitted file carries the -D definitions it was made with.
  if command -v nvcc >/dev/null; then
    if nvcc -std=c++17 "${arch[@]}" -O3 -I include -c "build/emitted/$name.cu" \
        -o "build/emitted/$name.o" -Xptxas -v 2> "build/emitted/$name.ptxas.log"; then
      echo "-- nvcc 13 compiled build/emitted/$name.cu for ${target:-sm_90a}:" \
        "$(grep -o 'Used [0-9]* registers' "build/emitted/$name.ptxas.log" | head -n 1)," \
        "$(grep -o '[0-9]* bytes spill stores' "build/emitted/$name.ptxas.log" | head -n 1)"
    else
      cat "build/emitted/$name.ptxas.log"
      echo "FAILED: nvcc could not compile build/emitted/$name.cu"; status=1
    fi
  fi
}
for src in examples/*.cu; do
  name=$(basename "$src" .cu)
  build_one "$src" "$name"
  # Variants an example builds with macros: `// libts-variant: <suffix> -DX=Y ...`.
  while read -r suffix flags; do
    [ -n "$suffix" ] && build_one "$src" "${name}_$suffix" $flags
  done < <(sed -n 's|^// libts-variant: *||p' "$src")
done
[ $status -eq 0 ] && echo "==== all examples verified, rewritten and compiled" || echo "==== some examples FAILED"
exit $status
