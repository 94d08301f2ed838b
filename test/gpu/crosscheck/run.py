#!/usr/bin/env python3
"""GPU cross-check: libts's verdict on mutants of the examples against what the GPU does.

The mutation harness (test/mutation) labels each single-fault mutant BUG or
VALID from a model of the runtime, and scores the plugin against the labels.
This script checks both on the hardware: every selected mutant of
examples/tma_copy.cu, examples/reduce.cu and examples/gemm_sm90.cu is
emitted with its libts errors downgraded (-Wno-error=<group>) and with the
hang watchdog (-debug-hangs), compiled with nvcc, run at a small size with
the example's own self-check, and the outcome (hang, trap/fault, wrong
result, clean) is set beside libts's verdict.

Three phases (Python 3 standard library only):

  prepare  (development machine: clang 19 and the plugin, no GPU)
      python3 test/gpu/crosscheck/run.py prepare --plugin build/lib/libts.so \\
          [--clang /usr/lib/llvm-19/bin/clang++] [--dir build/crosscheck] \\
          [--max 40 | --max 0] [--jobs 2] [--build] [--debug-hangs 1000] [--only op,op] \\
          [--sets tma_copy,reduce,gemm_sm90 | --sets tma_copy+store,gemm_sm90+cluster2]
    Generates the mutants with test/mutation/tsmut.py (the harness's own
    generator and labels; TOLERATED mutants are left out), selects at most
    --max of them deterministically (every mutant libts accepts first, since
    an accepted mutant that fails on the GPU is a missed bug; then the
    refused ones round-robin over file and operator, BUG and VALID; --max 0
    takes all of them: 88 on 2026-12-01, about 160 s on the H200), and for
    each one and for the three unmutated examples (controls):
      1. compiles it once with the plugin as the harness does, recording the
         verdict: accepted, refused (with the -Wts-... groups of its errors),
         or uncompilable (clang's own errors);
      2. compiles it again with -Wno-error=<group> for every group of its
         errors and `-plugin-arg-ts -emit=<dir>/emit/<id>.cu
         -plugin-arg-ts -debug-hangs=<ms>`, so a hang traps with a message.
         An error without a group (ts-syntax, e.g. a TMA descriptor in a
         parameter that is not __grid_constant__) cannot be downgraded: that
         mutant is "not emitted".
    With --build it also compiles each emitted file with nvcc here
    (`nvcc -std=c++17 -arch=sm_90a -O3 -I include -cudart shared`, about
    56 KB a binary, so they travel with the working tree), which checks
    that they build before any device time is spent. Writes
    <dir>/manifest.json.

  run  (GPU machine: nvcc, an H200, compute-sanitizer; no clang)
      python3 test/gpu/crosscheck/run.py run [--dir build/crosscheck] \\
          [--out $OUT] [--timeout 20] [--budget 420] [--jobs 16] \\
          [--sanitize racecheck,synccheck]
    Compiles every emitted file that has no binary yet (nvcc as above, in
    parallel), runs each binary with the example's small self-checking
    arguments and a timeout, and classifies the outcome:
      hang         the watchdog's "libts -debug-hangs" line, or the timeout
      fault        the program reported a CUDA error (trap, illegal address,
                   launch failure) or died of a signal
      wrong        the self-check failed (exit status 1, MISMATCH)
      clean        exit status 0
    With --sanitize, every binary that ran clean (controls first) is run
    again under each compute-sanitizer tool at a smaller size while the
    --budget (seconds for the whole phase) lasts. Writes <out>/results.json
    after every run, and every command with its output to <out>/log.txt, so
    a run cut short still leaves what it measured. A second, targeted run:
    --ids a,b (ids that contain one of these), --big (the larger sizes of
    BIG_ARGS: more iterations per CTA, for faults that did not show),
    --repeat N (the outcome is the first failure of N runs), --sanitize-all
    (sanitize every selected binary, clean or not).

  table  (anywhere)
      python3 test/gpu/crosscheck/run.py table [--dir build/crosscheck] \\
          --results <out>/results.json [--stress <out2>/results.json]
    Joins manifest and results; prints a markdown table (operator, mutant,
    label, libts verdict, GPU outcome, agreement) and the totals. A mutant
    that ran clean in the first run and failed in the --stress run counts
    as failed ("large: ..." in its cell).

With the device tool (docs/verifier.md, "GPU cross-check", has the exact
commands of 2026-12-01), each GPU run is one call with carry
["build/crosscheck"]:
    run: python3 test/gpu/crosscheck/run.py run --out $OUT --sanitize racecheck

Agreement classes (table):
  shows        BUG, refused, the GPU fails: libts and the GPU agree
  silent       BUG, refused, the GPU ran clean (a race that did not show at
               this size, a hang the launch shape does not reach, ...)
  MISSED       libts accepts it and the GPU fails (whatever the label): a
               bug libts does not see
  missed/silent  BUG accepted, the GPU ran clean: a harness miss the GPU did
               not confirm
  ok           VALID, accepted, clean
  ok (wrong by design)  VALID, accepted, the self-check fails because the
               operator changes what is computed (BY_DESIGN: guard_pair)
  false alarm  VALID, refused, the GPU ran clean
  refused, fails  VALID, refused, the GPU fails: the label is wrong
"""

import argparse
import concurrent.futures
import datetime
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
MUT = os.path.join(ROOT, "test", "mutation")

# What --sets may name: an example, or an example built with macros (its
# `// libts-variant:` line, or an #if of the example): the plugin and nvcc
# both get the macros, since the emitted file keeps the example's #ifs.
SETS = {
    "tma_copy": ("examples/tma_copy.cu", []),
    "reduce": ("examples/reduce.cu", []),
    "gemm_sm90": ("examples/gemm_sm90.cu", []),
    "tma_copy+store": ("examples/tma_copy.cu", ["-DTMA_STORE=1"]),
    "gemm_sm90+cluster2": ("examples/gemm_sm90.cu", ["-DGEMM_CLUSTER=2"]),
}
# Self-check arguments: small, but each CTA still runs several iterations
# (so a stage is reused): tma_copy 2048 tiles on <= 132 CTAs, reduce 4097
# chunks on about 400 blocks, the GEMM 512 tiles of 8 k-steps on 132 CTAs.
RUN_ARGS = {"tma_copy": ["64", "1"], "reduce": ["64", "1"], "gemm_sm90": ["4096", "4096", "512", "1"]}
# Under compute-sanitizer (10-100x slower): fewer iterations.
SAN_ARGS = {"tma_copy": ["8", "1"], "reduce": ["8", "1"], "gemm_sm90": ["512", "512", "256", "1"]}
# --big: many more iterations per CTA (tma_copy 32768 tiles, reduce 65537
# chunks, the GEMM 512 tiles of 64 k-steps).
BIG_ARGS = {"tma_copy": ["1024", "1"], "reduce": ["1024", "1"], "gemm_sm90": ["4096", "4096", "4096", "1"]}
NVCC_FLAGS = ["-std=c++17", "-arch=sm_90a", "-O3", "-I", "include"]


_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def configure(src, defines):
    """src as the mutation generator should read it under -DNAME=VAL: an
    `#if` of a defined name keeps its taken branch (the other lines and the
    directives blanked, so line numbers hold), and the default
    `#ifndef NAME / #define NAME x` says VAL, which the generator reads."""
    vals = dict(d[2:].split("=", 1) if "=" in d else (d[2:], "1") for d in defines)
    out, stack = [], []  # per open #if: (resolved, this branch taken, any taken)
    for line in src.split("\n"):
        m = _DIRECTIVE.match(line)
        kind, rest = (m.group(1), m.group(2).split("//")[0].strip()) if m else (None, "")
        active = all(taken for res, taken, _ in stack if res)
        if kind in ("if", "ifdef", "ifndef"):
            name = re.sub(r"^!|^defined\s*\(\s*|\s*\)$", "", rest).strip()
            if kind in ("if", "ifdef") and name in vals:
                on = (vals[name] != "0") if kind == "if" and not rest.startswith("!") else \
                    (name in vals) if kind == "ifdef" or "defined" in rest else vals[name] == "0"
                stack.append((True, on, on))
                out.append("")
                continue
            stack.append((False, True, True))
            if kind == "ifndef" and name in vals:
                stack[-1] = (False, True, True)
                out.append(line)
                continue
        elif kind in ("else", "elif") and stack and stack[-1][0]:
            res, taken, anyt = stack[-1]
            stack[-1] = (True, not anyt, True)
            out.append("")
            continue
        elif kind == "endif" and stack:
            res = stack.pop()[0]
            out.append("" if res else line)
            continue
        d = re.match(r"^(\s*#\s*define\s+)(\w+)\b.*$", line)
        if d and d.group(2) in vals:
            line = d.group(1) + d.group(2) + " " + vals[d.group(2)]
        out.append(line if active else "")
    return "\n".join(out)


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _rel(p):
    return os.path.relpath(p, ROOT)


# ----------------------------------------------------------------------------
# prepare


GROUP = re.compile(r"\[(-W(?:error=)?ts-[a-z0-9-]+)[^\]]*\]$")


def error_groups(output):
    """The -Wts-... groups of the errors in clang's output (without -Werror=)."""
    groups = []
    for line in output.splitlines():
        if ": error: " not in line:
            continue
        m = GROUP.search(line)
        if m:
            g = m.group(1).replace("-Werror=", "-W")[2:]
            if g not in groups:
                groups.append(g)
    return groups


def select(cands, maxn):
    """Deterministic choice of at most maxn mutants: every accepted one, then
    the refused ones round-robin over (file, operator), in source order."""
    accepted = [c for c in cands if c["verdict"] == "accepted"]
    rest = [c for c in cands if c["verdict"] != "accepted"]
    chosen = list(accepted)
    if maxn <= 0:
        maxn = len(cands)
    queues = {}
    for c in rest:
        queues.setdefault((c["example"], c["op"]), []).append(c)
    keys = sorted(queues)
    while len(chosen) < maxn and any(queues[k] for k in keys):
        for k in keys:
            if queues[k] and len(chosen) < maxn:
                chosen.append(queues[k].pop(0))
    order = {c["id"]: n for n, c in enumerate(cands)}
    return sorted(chosen, key=lambda c: order[c["id"]])


def prepare(args):
    tsmut = _load("tsmut", os.path.join(MUT, "tsmut.py"))
    harness = _load("mutation_run", os.path.join(MUT, "run.py"))
    d = os.path.abspath(args.dir)
    for sub in ("src", "emit", "bin", "log"):
        shutil.rmtree(os.path.join(d, sub), ignore_errors=True)
        os.makedirs(os.path.join(d, sub))
    plugin = os.path.join(d, "libts.so")  # a private copy: a rebuild must not change it
    shutil.copy2(args.plugin, plugin)
    rt = tsmut.detect_runtime(open(os.path.join(ROOT, "include", "ts", "pipeline.h")).read())

    cands = []
    for name in args.sets.split(","):
        if name not in SETS:
            sys.exit("crosscheck: unknown set %r (known: %s)" % (name, ", ".join(sorted(SETS))))
        f, defines = SETS[name]
        ex = os.path.splitext(os.path.basename(f))[0]
        src = configure(open(os.path.join(ROOT, f)).read(), defines)
        cands.append(dict(id="%s.control" % name, example=ex, file=f, op="control", index=0,
                          label="VALID", line=0, what="unmutated example", defines=defines,
                          reason="the example as committed", text=src))
        only = args.only.split(",") if args.only else None
        for m in tsmut.mutants(tsmut.parse(f, src), rt, only):
            if m.label == tsmut.TOLERATED:
                continue
            cands.append(dict(id="%s.%s.%d" % (name, m.op, m.index), example=ex, file=f,
                              op=m.op, index=m.index, label=m.label, line=m.line, what=m.what,
                              reason=m.reason, text=m.apply(src), defines=defines))
    for c in cands:
        c["src"] = _rel(os.path.join(d, "src", c["id"] + ".cu"))
        with open(os.path.join(ROOT, c["src"]), "w") as fh:
            fh.write(c["text"])

    base = [args.clang] + harness.FLAGS + ["-fplugin=" + plugin]
    # The verdicts read the headers from one PCH, as the harness does (same
    # diagnostics, a fifth of the time); the emitting compiles parse them.
    pch = harness.build_pch(args.clang, plugin, [c["text"] for c in cands], d)

    def verdict(c):
        cmd = (base + c["defines"] + ["-I", os.path.dirname(os.path.join(ROOT, c["file"])),
                                      "-include-pch", pch] + harness.TAIL + [c["src"]])
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=120)
        plug, clang, other, warns = harness.classify_diags(p.stdout)
        c["groups"] = error_groups(p.stdout)
        c["errors"] = plug[:4]
        c["warnings"] = warns[:4]
        if clang:
            c["verdict"], c["errors"] = "uncompilable", clang[:3]
        elif plug:
            c["verdict"] = "refused"
            if any(not GROUP.search(l) for l in p.stdout.splitlines()
                   if ": error: " in l and l.split(": error: ", 1)[1] in plug):
                c["groups"].append("(no group)")
        elif p.returncode != 0:
            c["verdict"], c["errors"] = "crash", (other or ["exit status %d" % p.returncode])[:3]
        else:
            c["verdict"] = "accepted"
        return c

    def emit(c):
        c["emitted"] = None
        if c["verdict"] not in ("accepted", "refused") or "(no group)" in c["groups"]:
            c["emit_note"] = "not emitted: " + ("an error without a group (ts-syntax) cannot be "
                                               "downgraded" if c["verdict"] == "refused"
                                               else c["verdict"])
            return c
        out = _rel(os.path.join(d, "emit", c["id"] + ".cu"))
        c["emit_flags"] = ["-Wno-error=" + g for g in c["groups"]] + [
            "-Xclang", "-plugin-arg-ts", "-Xclang", "-debug-hangs=%d" % args.debug_hangs]
        cmd = (base + c["defines"] + ["-I", os.path.dirname(os.path.join(ROOT, c["file"])),
                                      "-fsyntax-only"] + c["emit_flags"] + ["-Xclang", "-plugin-arg-ts", "-Xclang", "-emit=" + out, c["src"]])
        c["emit_cmd"] = " ".join(cmd).replace(plugin, args.plugin)
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=120)
        if p.returncode == 0 and os.path.isfile(os.path.join(ROOT, out)):
            c["emitted"] = out
            c["emit_note"] = "emitted"
        else:
            c["emit_note"] = "not emitted: " + (p.stdout.strip().splitlines() or ["rc %d" % p.returncode])[-1]
        return c

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        list(ex.map(verdict, cands))
    controls = [c for c in cands if c["op"] == "control"]
    for c in controls:
        if c["verdict"] != "accepted":
            sys.exit("crosscheck: the unmutated %s is not accepted: %s" % (c["file"], c["errors"]))
    muts = select([c for c in cands if c["op"] != "control"], args.max)
    chosen = controls + muts
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        list(ex.map(emit, chosen))
    for c in cands:
        if c not in chosen:
            os.remove(os.path.join(ROOT, c["src"]))
    print("libts verdicts of %d mutants, %d selected, emitted in %.0f s" % (
        len(cands) - len(controls), len(muts), time.time() - t0))

    if args.build:
        def build(c):
            if not c["emitted"]:
                return c
            exe = _rel(os.path.join(d, "bin", c["id"]))
            cmd = ([args.nvcc] + NVCC_FLAGS + c["defines"] +
                   ["-cudart", "shared", "-o", exe, c["emitted"]])
            p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            with open(os.path.join(d, "log", c["id"] + ".nvcc.txt"), "w") as fh:
                fh.write(" ".join(cmd) + "\n" + p.stdout)
            c["built_here"] = p.returncode == 0
            if p.returncode == 0:
                c["binary"] = exe
            else:
                c["build_error"] = [l for l in p.stdout.splitlines() if "error" in l][:3]
            return c
        t1 = time.time()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            list(ex.map(build, chosen))
        print("nvcc built %d of %d emitted files here in %.0f s" % (
            sum(1 for c in chosen if c.get("binary")), sum(1 for c in chosen if c["emitted"]),
            time.time() - t1))

    for c in chosen:
        c.pop("text", None)
        c["args"] = RUN_ARGS[c["example"]]
        c["sanitize_args"] = SAN_ARGS[c["example"]]
    plugin_sha = subprocess.run(["sha256sum", args.plugin], stdout=subprocess.PIPE,
                                universal_newlines=True).stdout.split()[0][:12]
    manifest = dict(
        created=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        commit=subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              stdout=subprocess.PIPE, universal_newlines=True).stdout.strip(),
        dirty=subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode != 0,
        plugin="%s (sha256 %s)" % (args.plugin, plugin_sha), runtime=rt.describe(),
        debug_hangs_ms=args.debug_hangs, generated=len(cands) - len(controls),
        nvcc_flags=NVCC_FLAGS, mutants=chosen)
    with open(os.path.join(d, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
    for f in (plugin, pch, os.path.join(d, "prefix.h")):
        os.remove(f)
    counts = {}
    for c in muts:
        k = (c["label"], c["verdict"])
        counts[k] = counts.get(k, 0) + 1
    print("selected: " + ", ".join("%s %s: %d" % (k[0], k[1], v) for k, v in sorted(counts.items())))
    print("not emitted: %d; wrote %s" % (sum(1 for c in chosen if not c["emitted"]),
                                         _rel(os.path.join(d, "manifest.json"))))
    return 0


# ----------------------------------------------------------------------------
# run (on the GPU machine)


def classify(rc, out):
    if "libts -debug-hangs" in out:
        return "hang"
    if rc == "timeout":
        return "hang"
    if rc == 0:
        return "clean"
    if rc == 1 and re.search(r"MISMATCH|mismatch", out):
        return "wrong"
    return "fault"


def detail(rc, out):
    for pat in (r"libts -debug-hangs: .*", r"\S+\.cu:\d+: .*: (.*)", r".*MISMATCH.*",
                r".*[Ee]rror.*"):
        m = re.search(pat, out)
        if m:
            return m.group(0)[:300]
    return "rc %s" % rc


def run_cmd(cmd, timeout, env):
    t = time.time()
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        rc, out = "timeout", e.output or b""
    out = out.decode("utf-8", "replace") if isinstance(out, bytes) else out
    if isinstance(rc, int) and rc < 0:
        out += "\n(killed by signal %d)" % -rc
    return rc, out, time.time() - t


def run(args):
    t0 = time.time()
    d = os.path.abspath(args.dir)
    man = json.load(open(os.path.join(d, "manifest.json")))
    out_dir = os.path.abspath(args.out or os.environ.get("OUT") or os.path.join(d, "out"))
    os.makedirs(out_dir, exist_ok=True)
    logf = open(os.path.join(out_dir, "log.txt"), "a")

    def log(cmd, out, rc, secs):
        logf.write("$ %s\n%s\nrc %s, %.1f s\n\n" % (" ".join(cmd), out[-6000:], rc, secs))
        logf.flush()
    env = dict(os.environ)
    cuda = os.path.dirname(os.path.dirname(shutil.which(args.nvcc) or "/usr/local/cuda/bin/nvcc"))
    env["LD_LIBRARY_PATH"] = os.path.join(cuda, "lib64") + ":" + env.get("LD_LIBRARY_PATH", "")
    info = dict(started=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                timeout_s=args.timeout, big=args.big, repeat=args.repeat, ids=args.ids)
    for key, cmd in (("gpu", ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]),
                     ("nvcc", [args.nvcc, "--version"])):
        try:
            info[key] = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True).stdout.strip().splitlines()[-1]
        except OSError as e:
            info[key] = str(e)
    results = dict(info=info, results={})

    def save():
        info["elapsed_s"] = round(time.time() - t0, 1)
        with open(os.path.join(out_dir, "results.json"), "w") as fh:
            json.dump(results, fh, indent=1)

    todo = [c for c in man["mutants"] if c.get("emitted")]
    if args.ids:
        todo = [c for c in todo if any(x in c["id"] for x in args.ids.split(","))]
    for c in todo:
        if args.big:
            c["args"] = BIG_ARGS[c["example"]]
    bindir = os.path.join(out_dir, "bin")
    os.makedirs(bindir, exist_ok=True)

    def build(c):
        exe = os.path.join(ROOT, c["binary"]) if c.get("binary") else None
        if exe and os.path.isfile(exe) and not args.rebuild:
            c["exe"] = exe
            return c
        exe = os.path.join(bindir, c["id"])
        cmd = [args.nvcc] + man["nvcc_flags"] + c.get("defines", []) + ["-o", exe, c["emitted"]]
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if p.returncode == 0:
            c["exe"] = exe
        else:
            c["build_error"] = p.stdout[-2000:]
        return c

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        list(ex.map(build, todo))
    info["built_on_device"] = sum(1 for c in todo if c.get("exe", "").startswith(bindir))
    info["build_s"] = round(time.time() - t0, 1)
    shutil.rmtree(bindir, ignore_errors=True) if not info["built_on_device"] else None

    for c in todo:  # controls first: they come first in the manifest
        r = results["results"].setdefault(c["id"], {})
        if "exe" not in c:
            r.update(outcome="build failed", detail=c.get("build_error", "")[-300:])
            continue
        if time.time() - t0 > args.budget - args.timeout:
            r.update(outcome="not run", detail="time budget spent")
            continue
        outcomes = []
        for _ in range(args.repeat):
            cmd = [c["exe"]] + c["args"]
            rc, out, secs = run_cmd(cmd, args.timeout, env)
            if rc == 127 and "error while loading shared libraries" in out and not args.rebuild:
                c.pop("binary")  # a prebuilt binary that cannot start here: build it on the device
                build(c)
                if "exe" in c:
                    cmd = [c["exe"]] + c["args"]
                    rc, out, secs = run_cmd(cmd, args.timeout, env)
            log(cmd, out, rc, secs)
            outcomes.append(classify(rc, out))
            r.update(outcome=outcomes[-1], rc=rc, seconds=round(secs, 1), detail=detail(rc, out),
                     args=c["args"], outcomes=outcomes)
            if outcomes[-1] != "clean" or time.time() - t0 > args.budget - args.timeout:
                break
        print("%-40s %-6s %5.1f s  %s" % (c["id"], r["outcome"], secs, r["detail"][:100]), flush=True)
        save()
        if c["op"] == "control" and r["outcome"] != "clean" and all(
                results["results"].get(x["id"], {}).get("outcome") not in (None, "clean")
                for x in todo if x["op"] == "control"):
            info["aborted"] = "every control failed (no GPU? no libcudart?): nothing else run"
            print(info["aborted"])
            save()
            return 1

    tools = [t for t in (args.sanitize or "").split(",") if t]
    if tools:
        san = shutil.which("compute-sanitizer") or os.path.join(cuda, "bin", "compute-sanitizer")
        # Controls first, then BUG mutants that ran clean (a fault that did not
        # show may still be a race the sanitizer sees), then the rest.
        clean = [c for c in todo if args.sanitize_all or
                 results["results"][c["id"]].get("outcome") == "clean"]
        clean.sort(key=lambda c: (c["op"] != "control", c["label"] != "BUG"))
        for c in clean:
            r = results["results"][c["id"]]
            for tool in tools:
                if time.time() - t0 > args.budget - args.san_timeout:
                    r.setdefault("sanitize", {})[tool] = "not run (time budget)"
                    continue
                cmd = [san, "--tool", tool, "--error-exitcode", "99", c["exe"]] + c["sanitize_args"]
                rc, out, secs = run_cmd(cmd, args.san_timeout, env)
                m = re.search(r"ERROR SUMMARY: (\d+) error", out) or re.search(
                    r"RACECHECK SUMMARY: (\d+) hazard", out)
                if rc == "timeout":
                    v = "timeout"
                elif "libts -debug-hangs" in out:
                    v = "watchdog fired under the sanitizer"
                elif rc == 0:
                    v = "clean"
                elif rc == 99:
                    v = "%s error(s): %s" % (m.group(1) if m else "?", (re.findall(
                        r"========= (?:Error|Warning|Race|Barrier)[^\n]*", out) or [""])[0][:200])
                elif m and m.group(1) == "0":
                    v = "clean (0 hazards; the program exited %s)" % rc
                else:
                    v = "rc %s: %s" % (rc, detail(rc, out)[:200])
                r.setdefault("sanitize", {})[tool] = v
                log(cmd, out, rc, secs)
                print("%-40s %-10s %5.1f s  %s" % (c["id"], tool, secs, v[:100]), flush=True)
                save()
    save()
    counts = {}
    for r in results["results"].values():
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print("outcomes: %s; %.0f s; wrote %s" % (counts, time.time() - t0,
                                             os.path.join(out_dir, "results.json")))
    return 0


# ----------------------------------------------------------------------------
# table


# Operators that change what the kernel computes on purpose (their label
# is about synchronisation only): guard_pair runs the guarded blocks on one
# iteration, so the self-check fails with no fault. Their "wrong" is no
# disagreement; their hang or fault would be.
BY_DESIGN = {"guard_pair": "computes one tile/chunk per CTA by design"}


def agreement(c, verdict, gpu):
    label = c["label"]
    failed = gpu in ("hang", "fault", "wrong")
    if gpu not in ("hang", "fault", "wrong", "clean"):
        return "-"
    if verdict == "accepted":
        if gpu == "wrong" and label == "VALID" and c["op"] in BY_DESIGN:
            return "ok (wrong by design)"
        if failed:
            return "**MISSED**"
        return "ok" if label == "VALID" else "missed/silent"
    if label == "BUG":
        return "shows" if failed else "silent"
    return "refused, fails" if failed else "false alarm"


def table(args):
    d = os.path.abspath(args.dir)
    man = json.load(open(os.path.join(d, "manifest.json")))
    res = json.load(open(args.results))
    R = res["results"]
    S = json.load(open(args.stress))["results"] if args.stress else {}
    rows = []
    for c in man["mutants"]:
        r = R.get(c["id"], {})
        gpu = r.get("outcome") or "not run"
        if not c.get("emitted"):
            gpu = "not emitted"
        s = S.get(c["id"], {})
        # A fault that shows only in the stress run counts: the GPU fails.
        final = s["outcome"] if gpu == "clean" and s.get("outcome") in ("hang", "fault", "wrong") else gpu
        verdict = c["verdict"]
        if verdict == "refused":
            verdict = "refused (%s)" % ", ".join(c["groups"])
        cell = gpu
        if gpu == "hang":
            cell = "hang (watchdog)" if "libts -debug-hangs" in r.get("detail", "") else "hang (timeout)"
        if s.get("outcomes") and (gpu == "clean" or c["op"] in BY_DESIGN):
            cell += "; large: %s" % (s["outcome"] if len(s["outcomes"]) == 1 or s["outcome"] != "clean"
                                     else "clean x%d" % len(s["outcomes"]))
        san = dict(r.get("sanitize") or {})
        san.update(s.get("sanitize") or {})
        if san:
            cell += "; " + "; ".join("%s %s" % (k, v.split(" (")[0].split(":")[0]) for k, v in sorted(san.items()))
        rows.append((c, verdict, final, cell, agreement(c, c["verdict"], final)))
    info = res.get("info", {})
    print("plugin %s, commit %s%s; %s; %s; watchdog %d ms, run timeout %s s" % (
        man["plugin"], man["commit"], " (dirty)" if man.get("dirty") else "", info.get("gpu", "?"),
        info.get("nvcc", "?"), man["debug_hangs_ms"], info.get("timeout_s", "?")))
    print()
    print("| operator | mutant | label | libts verdict | GPU outcome | agreement |")
    print("|---|---|---|---|---|---|")
    for c, verdict, gpu, cell, agree in rows:
        what = c["what"].replace("|", "\\|")
        mut = "`%s` l.%d: %s" % (c["id"], c["line"], what) if c["line"] else "`%s`" % c["id"]
        print("| %s | %s | %s | %s | %s | %s |" % (c["op"], mut, c["label"], verdict, cell, agree))
    print()
    muts = [x for x in rows if x[0]["op"] != "control"]
    fails = ("hang", "fault", "wrong")

    def n(pred):
        return sum(1 for x in muts if pred(x))
    bug = lambda x: x[0]["label"] == "BUG"
    ref = lambda x: x[0]["verdict"] == "refused"
    acc = lambda x: x[0]["verdict"] == "accepted"
    ran = lambda x: x[2] in fails + ("clean",)
    design = lambda x: x[4] == "ok (wrong by design)"
    print("| total | count |")
    print("|---|---|")
    print("| controls clean on the GPU | %d/%d |" % (
        sum(1 for x in rows if x[0]["op"] == "control" and x[2] == "clean"),
        sum(1 for x in rows if x[0]["op"] == "control")))
    print("| mutants run (of %d selected, %d generated) | %d |" % (len(muts), man["generated"], n(ran)))
    print("| BUG refused by libts, the GPU fails | %d |" % n(lambda x: bug(x) and ref(x) and x[2] in fails))
    print("| BUG refused by libts, clean on the GPU | %d |" % n(lambda x: bug(x) and ref(x) and x[2] == "clean"))
    print("| accepted by libts, the GPU fails (missed bugs) | %d |" % n(
        lambda x: acc(x) and x[2] in fails and not design(x)))
    print("| VALID accepted, wrong result by design (%s) | %d |" % (", ".join(sorted(BY_DESIGN)), n(design)))
    print("| BUG accepted by libts, clean on the GPU | %d |" % n(lambda x: bug(x) and acc(x) and x[2] == "clean"))
    print("| VALID accepted, clean | %d |" % n(lambda x: not bug(x) and acc(x) and x[2] == "clean"))
    print("| VALID refused (false alarms), clean on the GPU | %d |" % n(
        lambda x: not bug(x) and ref(x) and x[2] == "clean"))
    print("| VALID refused, the GPU fails (label wrong) | %d |" % n(lambda x: not bug(x) and ref(x) and x[2] in fails))
    print("| not emitted (ts-syntax or uncompilable) | %d |" % n(lambda x: x[2] == "not emitted"))
    print("| not run / build failed | %d |" % n(lambda x: x[2] in ("not run", "build failed")))
    kinds = {}
    for x in muts:
        if x[2] in fails and not design(x):
            kinds[x[2]] = kinds.get(x[2], 0) + 1
    print()
    print("GPU failures of mutants by kind (by-design results left out): %s" % ", ".join(
        "%s %d" % kv for kv in sorted(kinds.items())))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="phase", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--plugin", required=True)
    p.add_argument("--clang", default="/usr/lib/llvm-19/bin/clang++")
    p.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    p.add_argument("--dir", default=os.path.join(ROOT, "build", "crosscheck"))
    p.add_argument("--max", type=int, default=40, help="mutants at most (default 40; 0: all)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--build", action="store_true", help="also build the binaries here with nvcc")
    p.add_argument("--debug-hangs", type=int, default=1000, help="watchdog, ms (default 1000)")
    p.add_argument("--only", help="comma-separated operators (default: every one)")
    p.add_argument("--sets", default="tma_copy,reduce,gemm_sm90",
                   help="comma-separated examples and variants (SETS; default: the three "
                        "examples as committed)")
    r = sub.add_parser("run")
    r.add_argument("--dir", default=os.path.join(ROOT, "build", "crosscheck"))
    r.add_argument("--out", help="results folder (default $OUT, else <dir>/out)")
    r.add_argument("--nvcc", default="nvcc" if shutil.which("nvcc") else "/usr/local/cuda/bin/nvcc")
    r.add_argument("--timeout", type=int, default=20, help="seconds per run (default 20)")
    r.add_argument("--san-timeout", type=int, default=60, help="seconds per sanitizer run")
    r.add_argument("--budget", type=int, default=420, help="seconds for the whole phase")
    r.add_argument("--jobs", type=int, default=16)
    r.add_argument("--rebuild", action="store_true", help="compile on this machine even if built")
    r.add_argument("--sanitize", help="comma-separated compute-sanitizer tools for clean runs")
    r.add_argument("--sanitize-all", action="store_true", help="sanitize every selected binary")
    r.add_argument("--ids", help="comma-separated substrings: only mutants whose id has one")
    r.add_argument("--big", action="store_true", help="the larger sizes of BIG_ARGS")
    r.add_argument("--repeat", type=int, default=1, help="runs per mutant while clean")
    t = sub.add_parser("table")
    t.add_argument("--dir", default=os.path.join(ROOT, "build", "crosscheck"))
    t.add_argument("--results", required=True)
    t.add_argument("--stress", help="results.json of a second, targeted run (--big/--repeat)")
    args = ap.parse_args()
    return {"prepare": prepare, "run": run, "table": table}[args.phase](args)


if __name__ == "__main__":
    sys.exit(main())
