#!/usr/bin/env python3
"""Single-fault mutation harness for the libts verifier.

    python3 test/mutation/run.py --plugin build/lib/libts.so [--jobs 2]
        [--expect test/mutation/expected.txt] [--update] [--shard K/N]

Takes a corpus of valid kernels, applies one fault at a time (tsmut.py has
the operators and their BUG/VALID labels), runs the plugin on every mutant
with -fsyntax-only and scores: BUG mutants must be refused with a libts
error, VALID ones must verify. See test/mutation/README.md.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tsmut  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPUS = ["examples/*.cu", "test/lit/verify/clean.cu", "test/lit/verify/registers-ok.cu",
          "test/mutation/corpus/*.cu"]
CLANG = "/usr/lib/llvm-19/bin/clang++"
# The command of the brief; -fdiagnostics-show-category=name only adds
# "[Semantic Issue]"-style tags to clang's own diagnostics, which is how an
# error of clang (an uncompilable mutant) is told from one of libts (custom
# diagnostics have no category).
FLAGS = ["-x", "cuda", "-std=c++17", "--cuda-device-only", "--cuda-gpu-arch=sm_90a",
         "--cuda-path=/usr/local/cuda", "-nocudalib", "-Wno-unknown-cuda-version",
         "-Wno-unknown-attributes", "-isystem", "/usr/local/cuda/include/cccl",
         "-I", "tools/shim", "-I", "include"]
TAIL = ["-fsyntax-only", "-ferror-limit=0", "-fdiagnostics-show-category=name"]

DIAG = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                  r"(?P<sev>error|fatal error|warning): (?P<msg>.*)$")


# ----------------------------------------------------------------------------
# Running clang

SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s*(<[^>]+>)", re.M)


def build_pch(clang, plugin, texts, tmp):
    """Precompiles every <...> header the corpus includes, ts/ts.h first.

    Parsing the CUDA and CCCL headers is nearly all of a compile's time; the
    mutants never change an include, and the plugin only looks at the main
    file, so each compile reads the headers from one PCH instead.
    """
    headers = ["<ts/ts.h>"]
    for text in texts:
        for h in SYSTEM_INCLUDE.findall(text):
            if h not in headers:
                headers.append(h)
    prefix = os.path.join(tmp, "prefix.h")
    with open(prefix, "w") as fh:
        fh.writelines("#include %s\n" % h for h in headers)
    pch = os.path.join(tmp, "prefix.pch")
    cmd = [clang] + FLAGS + ["-fplugin=" + plugin, "-fsyntax-only", "-Xclang", "-emit-pch",
                             "-Xclang", "-o", "-Xclang", pch, prefix]
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0 or not os.path.isfile(pch):
        sys.exit("run.py: precompiling the corpus headers failed (--no-pch skips it):\n" + p.stdout)
    return pch



def compile_file(clang, plugin, path, orig_dir, timeout, pch=None):
    prefix = ["-include-pch", pch] if pch else []
    cmd = [clang] + FLAGS + ["-I", orig_dir, "-fplugin=" + plugin] + prefix + TAIL + [path]
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, universal_newlines=True)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.output.decode() if isinstance(e.output, bytes) else (e.output or "")
        return "timeout", out


def classify_diags(output):
    """(plugin errors, clang errors, other problems, plugin warnings) of one compile."""
    plugin, clang, other, warnings = [], [], [], []
    for line in output.splitlines():
        m = DIAG.match(line)
        if not m:
            if re.match(r"^(clang\S*|error): ", line) or "PLEASE submit a bug report" in line:
                other.append(line)
            continue
        msg = m.group("msg")
        bm = re.search(r" \[([^\[\]]*)\]$", msg)
        tags = [t.strip() for t in bm.group(1).split(",")] if bm else []
        if m.group("sev") == "warning":
            if any(re.match(r"-Wts(-|$)", t) for t in tags):
                warnings.append(msg)
            continue
        if any(re.match(r"-W(error=)?ts(-|$)", t) for t in tags):
            plugin.append(msg[:bm.start()])
        elif tags and (any(not t.startswith("-W") for t in tags) or all(t.startswith("-W") for t in tags)):
            clang.append(msg)
        else:
            plugin.append(msg)  # libts's own messages (ts-syntax) carry no flag
    return plugin, clang, other, warnings


def outcome(rc, output, baseline_errors):
    """clean / error / uncompilable / crash, and the messages that decided it."""
    plugin, clang, other, _ = classify_diags(output)
    if rc == "timeout" or rc not in (0, 1) or any("PLEASE submit" in o for o in other):
        return "crash", other[:3] or ["exit status %s" % rc]
    if clang:
        return "uncompilable", clang[:3]
    new = [m for m in plugin if m not in baseline_errors]
    if new:
        return "error", new
    if rc == 1 and not plugin:
        return "crash", other[:3] or ["exit status 1 without diagnostics"]
    return "clean", []


# ----------------------------------------------------------------------------
# Corpus and selection


def corpus_files():
    files = []
    for pat in CORPUS:
        files += sorted(glob.glob(os.path.join(ROOT, pat)))
    return [os.path.relpath(f, ROOT) for f in files]


def select(file, op, cands, cap):
    """At most `cap` of one operator's mutants in one file: evenly spread,
    starting at an offset fixed by the file and operator names (so a cap of
    1 does not always pick the first site, and other files do not move it)."""
    n = len(cands)
    if cap <= 0 or n <= cap:
        return cands
    start = zlib.crc32(("%s:%s" % (file, op)).encode()) % n
    idx = sorted({(start + (k * n) // cap) % n for k in range(cap)})
    return [cands[i] for i in idx]


class Job:
    def __init__(self, file, mutant, text, seed=False):
        self.file = file
        self.mutant = mutant  # None for the unmutated file
        self.text = text
        self.seed = seed
        self.rc = None
        self.output = ""
        self.result = None
        self.detail = []


# ----------------------------------------------------------------------------
# Report


def fmt_pct(a, b):
    return "%.0f%%" % (100.0 * a / b) if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plugin", required=True, help="libts.so")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--expect", help="file of known misses; exit 1 when the misses differ")
    ap.add_argument("--update", action="store_true", help="rewrite the --expect file")
    ap.add_argument("--cap", type=int, default=1,
                    help="mutants per operator per file (evenly spread; 0: all). Default 1")
    ap.add_argument("--only", help="comma-separated operators")
    ap.add_argument("--tolerated", action="store_true",
                    help="also compile TOLERATED mutants (protocol misuse the runtime happens to "
                         "survive; reported, never scored)")
    ap.add_argument("--files", help="comma-separated substrings: only corpus files matching one")
    ap.add_argument("--clang", default=CLANG)
    ap.add_argument("--timeout", type=int, default=30,
                    help="seconds per compile before it counts as a hang (default 30)")
    ap.add_argument("--no-pch", action="store_true",
                    help="parse the headers in every compile instead of from one precompiled header")
    ap.add_argument("--keep", help="write every mutant under this directory and keep it")
    ap.add_argument("--list", action="store_true", help="list the mutants, compile nothing")
    ap.add_argument("--shard", metavar="K/N",
                    help="compile only the mutants at positions K, K + N, K + 2N, ... of the ordered "
                         "mutant list (0 <= K < N); the unmutated files are compiled in every shard. "
                         "--expect then compares only this shard's findings")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each mutant's diagnostics")
    args = ap.parse_args()

    plugin = os.path.abspath(args.plugin)
    if not args.list and not os.path.isfile(plugin):
        sys.exit("run.py: no plugin at %s (bash scripts/build.sh builds it)" % plugin)
    if args.update and not args.expect:
        sys.exit("run.py: --update needs --expect FILE")
    shard = None
    if args.shard:
        sm = re.fullmatch(r"(\d+)/(\d+)", args.shard.strip())
        if not sm or int(sm.group(2)) < 1 or int(sm.group(1)) >= int(sm.group(2)):
            sys.exit("run.py: --shard takes K/N with 0 <= K < N, not %r" % args.shard)
        shard = (int(sm.group(1)), int(sm.group(2)))
        if args.update:
            sys.exit("run.py: --update rewrites every finding; run it without --shard")
    only = set(args.only.split(",")) if args.only else None
    known = {name for name, _ in tsmut.OPERATORS}
    if only and only - known:
        sys.exit("run.py: unknown operator(s) %s; known: %s" % (
            ", ".join(sorted(only - known)), ", ".join(sorted(known))))

    try:
        rt = tsmut.detect_runtime(open(os.path.join(ROOT, "include", "ts", "pipeline.h")).read())
    except (OSError, ValueError) as e:
        sys.exit("run.py: %s" % e)

    files = corpus_files()
    if args.files:
        pats = args.files.split(",")
        files = [f for f in files if any(p in f for p in pats)]

    jobs = []
    generated = {}
    for f in files:
        src = open(os.path.join(ROOT, f)).read()
        source = tsmut.parse(f, src)
        if source.annotations.get("skip"):
            continue
        seed = tsmut.is_seed_bug(source, rt)
        jobs.append(Job(f, None, src, seed))
        if seed:
            continue  # a known-bad schedule: only checked to be refused
        muts = tsmut.mutants(source, rt, only)
        by_op = {}
        for m in muts:
            by_op.setdefault(m.op, []).append(m)
        generated[f] = len(muts)
        for op in sorted(by_op):
            scored = [m for m in by_op[op] if m.label != tsmut.TOLERATED]
            chosen = select(f, op, scored, args.cap)
            if args.tolerated:
                chosen += select(f, op + ":tolerated",
                                 [m for m in by_op[op] if m.label == tsmut.TOLERATED], args.cap)
            for m in sorted(chosen, key=lambda m: m.index):
                jobs.append(Job(f, m, m.apply(src)))

    # Every selected mutant, before sharding (stale expectations are judged on it).
    selected = {(j.file, j.mutant.op, j.mutant.index) for j in jobs if j.mutant}
    n_selected = len(selected)
    if shard:
        k, n = shard
        kept, pos = [], 0
        for j in jobs:
            if j.mutant is None:
                kept.append(j)  # baselines: every shard needs them
                continue
            if pos % n == k:
                kept.append(j)
            pos += 1
        jobs = kept
    shard_note = "; shard %d/%d: %d of the %d selected mutants" % (
        shard[0], shard[1], sum(1 for j in jobs if j.mutant), n_selected) if shard else ""

    if args.list:
        for j in jobs:
            if j.mutant:
                m = j.mutant
                print("%-5s %s:%d %s#%d  %s" % (m.label, m.file, m.line, m.op, m.index, m.what))
        print("%d mutants (%d generated before the cap%s)" % (
            sum(1 for j in jobs if j.mutant), sum(generated.values()), shard_note))
        return 0

    tmp = args.keep or tempfile.mkdtemp(prefix="ts-mutation-")
    os.makedirs(tmp, exist_ok=True)
    # A private copy: a rebuild of build/ during the run must not change it.
    shutil.copy2(plugin, os.path.join(tmp, "libts.so"))
    args.plugin_orig = plugin
    with open(plugin, "rb") as fh:
        plugin_id = "sha256 %s, built %s" % (
            hashlib.sha256(fh.read()).hexdigest()[:12],
            time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(os.path.getmtime(plugin))))
    plugin = os.path.join(tmp, "libts.so")
    for n, j in enumerate(jobs):
        d = os.path.join(tmp, "%04d" % n)
        os.makedirs(d, exist_ok=True)
        j.path = os.path.join(d, os.path.basename(j.file))
        with open(j.path, "w") as fh:
            fh.write(j.text)

    pch = None if args.no_pch else build_pch(args.clang, plugin, [j.text for j in jobs], tmp)

    def run(j):
        j.rc, j.output = compile_file(args.clang, plugin, j.path,
                                      os.path.dirname(os.path.join(ROOT, j.file)), args.timeout,
                                      pch)
        return j

    t0 = time.time()
    baselines = [j for j in jobs if j.mutant is None]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        list(ex.map(run, baselines))
        base_errors, base_warnings = {}, {}
        for j in baselines:
            j.result, j.detail = outcome(j.rc, j.output, set())
            if j.result in ("crash", "uncompilable"):
                print(j.output, file=sys.stderr)
                if j.result == "crash" and j.rc != "timeout" and not j.output.strip():
                    sys.exit("run.py: clang failed on %s" % j.file)
            base_errors[j.file] = set(classify_diags(j.output)[0])
            base_warnings[j.file] = set(classify_diags(j.output)[3])
        # A plugin that does not load fails every file the same way: stop early.
        if all(j.result == "crash" for j in baselines):
            sys.exit("run.py: every corpus file failed to compile; first output:\n" + baselines[0].output)
        mutants = [j for j in jobs if j.mutant is not None]
        list(ex.map(run, mutants))
    for j in mutants:
        j.result, j.detail = outcome(j.rc, j.output, base_errors[j.file])
    elapsed = time.time() - t0
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)

    # ---- score -------------------------------------------------------------
    ops = [name for name, _ in tsmut.OPERATORS if not only or name in only]
    rows = {op: dict(bug=0, caught=0, valid=0, refused=0, tol=0, tol_refused=0, uncompilable=0, crash=0)
            for op in ops}
    findings = []  # (kind, file, op, index, line, what, why)
    uncompilable, tolerated = [], []
    for j in mutants:
        m = j.mutant
        r = rows[m.op]
        if j.result == "uncompilable":
            r["uncompilable"] += 1
            uncompilable.append(j)
            continue
        if j.result == "crash":
            r["crash"] += 1
            findings.append(("crash", m.file, m.op, m.index, m.line, m.what, "; ".join(j.detail)))
            continue
        if m.label == tsmut.BUG:
            r["bug"] += 1
            if j.result == "error":
                r["caught"] += 1
            else:
                warned = [w for w in classify_diags(j.output)[3] if w not in base_warnings[j.file]]
                findings.append(("missed", m.file, m.op, m.index, m.line, m.what, m.reason +
                                 (" || libts only warned: " + warned[0] if warned else "")))
        elif m.label == tsmut.VALID:
            r["valid"] += 1
            if j.result == "error":
                r["refused"] += 1
                findings.append(("refused", m.file, m.op, m.index, m.line, m.what,
                                 m.reason + " || libts: " + j.detail[0]))
        else:  # TOLERATED: informational only
            r["tol"] += 1
            if j.result == "error":
                r["tol_refused"] += 1
            tolerated.append(j)

    seed_bug = [j for j in baselines if j.seed]
    corpus_valid = [j for j in baselines if not j.seed]
    for j in baselines:
        if j.result == "crash":
            findings.append(("crash", j.file, "baseline", 0, 0, "unmutated file", "; ".join(j.detail)))
        elif j.result == "uncompilable":
            findings.append(("uncompilable", j.file, "baseline", 0, 0, "unmutated file", "; ".join(j.detail)))
        elif j.seed and j.result != "error":
            findings.append(("missed", j.file, "seed", 0, 0, "unmutated seed-bug file",
                             "annotated '// mutation: seed-bug'"))
        elif not j.seed and j.result == "error":
            findings.append(("refused", j.file, "baseline", 0, 0, "unmutated corpus file",
                             "libts: " + " | ".join(j.detail)))

    print("libts mutation score: %d files, %d mutants compiled (%d generated, cap %s per operator "
          "per file%s), %.0f s on %d jobs" % (
              len(baselines), len(mutants), sum(generated.values()),
              args.cap if args.cap > 0 else "none", shard_note, elapsed, args.jobs))
    print("plugin: %s (%s)" % (os.path.relpath(args.plugin_orig), plugin_id))
    print("runtime (include/ts/pipeline.h): %s" % rt.describe())
    print()
    hdr = "%-18s %11s %14s %18s %13s %6s" % ("operator", "BUG caught", "VALID refused",
                                             "TOLERATED refused", "uncompilable", "crash")
    print(hdr)
    print("-" * len(hdr))
    tot = dict(bug=0, caught=0, valid=0, refused=0, tol=0, tol_refused=0, uncompilable=0, crash=0)

    def frac(a, b):
        return "%d/%d" % (a, b) if b else "-"

    for op in ops:
        r = rows[op]
        for k in tot:
            tot[k] += r[k]
        print("%-18s %11s %14s %18s %13d %6d" % (
            op, frac(r["caught"], r["bug"]), frac(r["refused"], r["valid"]),
            frac(r["tol_refused"], r["tol"]), r["uncompilable"], r["crash"]))
    seed_caught = sum(1 for j in seed_bug if j.result == "error")
    base_refused = sum(1 for j in corpus_valid if j.result == "error")
    print("%-18s %11s %14s %18s %13s %6s" % ("unmutated corpus", frac(seed_caught, len(seed_bug)),
                                             frac(base_refused, len(corpus_valid)), "-", "-", "-"))
    print("-" * len(hdr))
    bugs = tot["bug"] + len(seed_bug)
    caught = tot["caught"] + seed_caught
    valid = tot["valid"] + len(corpus_valid)
    refused = tot["refused"] + base_refused
    print("real bugs caught: %d/%d (%s)" % (caught, bugs, fmt_pct(caught, bugs)))
    print("valid schedules refused: %d/%d (%d of %d unmutated corpus files, %d of %d VALID mutants)" % (
        refused, valid, base_refused, len(corpus_valid), tot["refused"], tot["valid"]))
    print("tolerated misuse refused (not scored): %d/%d" % (tot["tol_refused"], tot["tol"]))
    print("uncompilable mutants (excluded): %d; crashes/hangs: %d" % (
        tot["uncompilable"], tot["crash"] + sum(1 for j in baselines if j.result == "crash")))
    for j in corpus_valid:
        if j.result == "error":
            print("note: %s is refused unmutated; its mutants count only errors it did not already have" % j.file)

    findings.sort(key=lambda f: (f[1], f[2], f[3], f[0]))
    titles = [("missed", "BUG mutants that verify (misses)"),
              ("refused", "VALID schedules refused"),
              ("crash", "crashes / timeouts"),
              ("uncompilable", "corpus files that do not compile")]
    for kind, title in titles:
        sel = [f for f in findings if f[0] == kind]
        if not sel:
            continue
        print()
        print("%s (%d):" % (title, len(sel)))
        for _, file, op, idx, line, what, why in sel:
            print("  %s:%d  %s#%d  %s" % (file, line, op, idx, what))
            print("      %s" % why)
    if uncompilable:
        print()
        print("uncompilable mutants (%d, not scored):" % len(uncompilable))
        for j in sorted(uncompilable, key=lambda j: (j.file, j.mutant.op, j.mutant.index)):
            m = j.mutant
            print("  %s:%d  %s#%d  %s  -- %s" % (m.file, m.line, m.op, m.index, m.what,
                                                  j.detail[0] if j.detail else "?"))
    if args.verbose:
        for j in sorted(mutants, key=lambda j: (j.file, j.mutant.op, j.mutant.index)):
            m = j.mutant
            print("\n=== %s %s#%d [%s -> %s] %s\n%s" % (m.file, m.op, m.index, m.label, j.result,
                                                        m.what, j.output.strip()))

    # ---- expectations ----------------------------------------------------------
    current = {}
    for kind, file, op, idx, line, what, why in findings:
        current["%s %s %s %d" % (kind, file, op, idx)] = what
    if not args.expect:
        return 0
    exp_path = args.expect
    if args.update:
        with open(exp_path, "w") as fh:
            fh.write("# Known findings of test/mutation/run.py (rewrite with --update).\n"
                     "# kind file operator occurrence  # what the mutant is\n"
                     "# missed: BUG mutant that verifies; refused: VALID schedule with a libts error;\n"
                     "# crash: clang crashed or timed out.\n")
            for k in sorted(current):
                fh.write("%s  # %s\n" % (k, current[k]))
        print("\nwrote %s (%d entries)" % (exp_path, len(current)))
        return 0
    expected = {}
    if os.path.exists(exp_path):
        for line in open(exp_path):
            key = line.split("#", 1)[0].strip()
            if key:
                expected[" ".join(key.split())] = line.split("#", 1)[1].strip() if "#" in line else ""
    # Only entries this run could have produced are compared (--only/--files,
    # and --shard: another shard's mutants are neither fixed nor stale here).
    ran = {(j.file, j.mutant.op if j.mutant else None, j.mutant.index if j.mutant else None) for j in jobs}
    ran_files = {j.file for j in jobs}

    def in_scope(key):
        kind, file, op, idx = key.split()
        if file not in ran_files:
            return False
        if op in ("baseline", "seed"):
            return True
        return (file, op, int(idx)) in ran

    new = sorted(k for k in current if k not in expected)
    gone = sorted(k for k in expected if k not in current and in_scope(k))

    def in_other_shard(key):
        kind, file, op, idx = key.split()
        return shard is not None and (file, op, int(idx)) in selected

    stale = sorted(k for k in expected if k not in current and not in_scope(k) and not args.only
                   and not args.files and not in_other_shard(k))
    print()
    if new:
        print("NEW findings not in %s (regressions):" % exp_path)
        for k in new:
            print("  %s  # %s" % (k, current[k]))
    if gone:
        print("listed in %s but no longer found (fixed? update the file):" % exp_path)
        for k in gone:
            j = [x for x in jobs if x.mutant and "%s %s %d" % (x.file, x.mutant.op, x.mutant.index)
                 == " ".join(k.split()[1:])]
            print("  %s  # %s%s" % (k, expected[k], " [now %s]" % j[0].result if j else ""))
    if stale:
        print("listed in %s but not generated any more (corpus or cap changed; update the file):" % exp_path)
        for k in stale:
            print("  %s  # %s" % (k, expected[k]))
    if new or gone or stale:
        print("expectations: FAIL (%d new, %d fixed, %d stale)" % (len(new), len(gone), len(stale)))
        return 1
    print("expectations: OK (%d known findings%s)" % (
        len(expected), ", %d of them in this shard" % sum(1 for k in expected if in_scope(k))
        if shard else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
