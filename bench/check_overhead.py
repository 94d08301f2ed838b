#!/usr/bin/env python3
"""How much time libts adds to a compile: the analysis path (-fsyntax-only,
what clangd runs) and the code-generating path (silent parse, rewrite,
analysis, compile of the rewrite), each against compiling the already
rewritten file without the plugin. Prints medians and ratios.

usage: bench/check_overhead.py [--runs N] [--plugin build/lib/libts.so] [files...]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA = "/usr/local/cuda"
CLANG = [
    "/usr/lib/llvm-19/bin/clang++", "-x", "cuda", "-std=c++17", "--cuda-device-only",
    "--cuda-gpu-arch=sm_90a", "--cuda-path=" + CUDA, "-nocudalib",
    "-Wno-unknown-cuda-version", "-Wno-unknown-attributes", "-isystem",
    CUDA + "/include/cccl", "-I", os.path.join(ROOT, "tools/shim"),
    "-I", os.path.join(ROOT, "include"),
]


def timed(cmd, runs):
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        samples.append(time.perf_counter() - t0)
        if r.returncode != 0:
            sys.exit("failed: " + " ".join(cmd) + "\n" + r.stderr.decode())
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build/lib/libts.so"))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or [os.path.join(ROOT, "examples", f)
                        for f in sorted(os.listdir(os.path.join(ROOT, "examples")))
                        if f.endswith(".cu")]
    plug = ["-fplugin=" + a.plugin, "-Wno-unknown-warning-option", "-Wno-ts-padding"]
    print(f"median of {a.runs} runs, seconds (clang 19, device job, sm_90a)")
    print(f"{'file':<16}{'syntax+ts':>10}{'syntax':>9}{'ratio':>7}"
          f"{'-S+ts':>9}{'-S':>8}{'ratio':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            emitted = os.path.join(tmp, "emitted.cu")
            subprocess.run(CLANG + plug + ["-fsyntax-only", f, "-Xclang",
                           "-plugin-arg-ts", "-Xclang", "-emit=" + emitted],
                           check=True, stderr=subprocess.DEVNULL)
            syn_ts = timed(CLANG + plug + ["-fsyntax-only", f], a.runs)
            syn = timed(CLANG + ["-fsyntax-only", emitted], a.runs)
            cg_ts = timed(CLANG + plug + ["-O3", "-S", "-o", os.devnull, f], a.runs)
            cg = timed(CLANG + ["-O3", "-S", "-o", os.devnull, emitted], a.runs)
            print(f"{os.path.basename(f):<16}{syn_ts:>10.3f}{syn:>9.3f}{syn_ts / syn:>7.2f}"
                  f"{cg_ts:>9.3f}{cg:>8.3f}{cg_ts / cg:>7.2f}")
    print("syntax: -fsyntax-only; -S: device PTX at -O3; baselines compile the "
          "emitted file without the plugin")


if __name__ == "__main__":
    main()
