#!/usr/bin/env python3
"""Runs the libts fuzzer (ts-fuzz) over the seed corpus and prints a summary.

The seeds are every kernel file of the repository: examples, lit inputs and
the mutation corpus. New inputs and any crash go under --work, never into
the sources. Exit status 1 when the fuzzer found a crash, a sanitizer
report, a hang or an accepted kernel that does not compile.

  python3 test/fuzz/run.py --fuzzer build-sanitize/bin/ts-fuzz --work /tmp/fz --runs 200
  python3 test/fuzz/run.py ... --max-time 3600     # the long run (bench/fuzz.md)
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SEEDS = ["examples/*.cu", "test/lit/*/*.cu", "test/mutation/corpus/*.cu", "test/gpu/*.cu"]


def seed_corpus(work):
    seeds = os.path.join(work, "seeds")
    shutil.rmtree(seeds, ignore_errors=True)
    os.makedirs(seeds)
    n = 0
    for pattern in SEEDS:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            rel = os.path.relpath(path, ROOT).replace("/", "__")
            shutil.copy(path, os.path.join(seeds, rel))
            n += 1
    return seeds, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuzzer", required=True)
    ap.add_argument("--work", required=True, help="scratch directory (emptied)")
    ap.add_argument("--runs", type=int, help="inputs to run, seeds included")
    ap.add_argument("--max-time", type=int, help="seconds to fuzz")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    seeds, nseeds = seed_corpus(args.work)
    new = os.path.join(args.work, "new")
    os.makedirs(new)
    cmd = [args.fuzzer, "-seed=%d" % args.seed, "-max_len=16384", "-timeout=120",
           "-rss_limit_mb=6144", "-print_final_stats=1",
           "-artifact_prefix=" + os.path.join(args.work, "")]
    if args.runs:
        cmd.append("-runs=%d" % args.runs)
    if args.max_time:
        cmd.append("-max_total_time=%d" % args.max_time)
    cmd += [new, seeds]
    print("ts-fuzz: %d seed files; %s" % (nseeds, " ".join(cmd)), flush=True)
    start = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    wall = time.time() - start
    log = p.stdout
    with open(os.path.join(args.work, "fuzz.log"), "w") as f:
        f.write(log)
    stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", log, re.M))
    cov = re.findall(r"cov: (\d+) ft: (\d+)", log)
    crashes = sorted(glob.glob(os.path.join(args.work, "crash-*")) +
                     glob.glob(os.path.join(args.work, "timeout-*")) +
                     glob.glob(os.path.join(args.work, "oom-*")))
    print("ts-fuzz: %s executions in %.0f s (%.2f/s), coverage %s edges, %s features, "
          "%d new inputs, %d findings" % (
              stats.get("number_of_executed_units", "?"), wall,
              int(stats.get("number_of_executed_units", 0)) / max(wall, 1e-9),
              cov[-1][0] if cov else "?", cov[-1][1] if cov else "?",
              len(os.listdir(new)), len(crashes)))
    if p.returncode != 0 or crashes:
        print(log[-6000:])
        for c in crashes:
            print("finding: " + c)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
