#!/usr/bin/env bash
# Installs what libts needs on a fresh Debian bookworm machine, idempotently:
# LLVM/Clang 19 (plugin API, FileCheck, lit; compiler-rt for the sanitized
# build and the fuzzer), GoogleTest, CMake, Ninja, Chromium's headless
# shell, which renders the -html report in test/html, ccache, which the
# package test runs libts-nvcc under, and clang-format (scripts/lint.sh).
# The CUDA toolkit (nvcc 13, CCCL) is expected under /usr/local/cuda.
set -eu
need=()
for p in clang-19 clangd-19 clang-format-19 libclang-19-dev llvm-19-dev llvm-19-tools libclang-rt-19-dev libgtest-dev cmake ninja-build python3 chromium-headless-shell ccache; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "libts: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  # Mirrors hiccup: try a few times before giving up.
  for try in 1 2 3; do
    if $SUDO apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null; then
      break
    fi
    [ "$try" = 3 ] && { echo "libts: apt-get failed" >&2; exit 1; }
    sleep 10
  done
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# cuobjdump, for the GEMM's SASS comparison (test/lit/codegen/gemm-sass.cu):
# the toolkit here has none, so NVIDIA's wheel from PyPI, pinned by hash.
if [ -x /usr/local/cuda/bin/nvcc ] && ! command -v cuobjdump >/dev/null &&
   [ ! -x /usr/local/cuda/bin/cuobjdump ] && [ ! -x "$root/build-tools/cuobjdump" ]; then
  python3 "$root/scripts/fetch_cuobjdump.py" "$root/build-tools"
fi
