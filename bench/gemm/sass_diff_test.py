#!/usr/bin/env python3
"""Self-test of bench/gemm/sass_diff.py on the hand-made SASS dumps in
bench/gemm/testdata (no GPU, no CUDA tools): the loop ranges, the verdicts,
the exit status. ctest runs it as `sass-diff`; alone:

    python3 bench/gemm/sass_diff_test.py
"""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "sass_diff.py")
DATA = os.path.join(HERE, "testdata")
HAND = os.path.join(DATA, "hand.sass")
LIBTS = os.path.join(DATA, "libts.sass")
DIFFER = os.path.join(DATA, "libts-differ.nvdisasm")
V0, V1, LIB = "ILi1ELb0ELb0E", "ILi1ELb1ELb0E", "gemm_kernel"
NAMES = ["--label-a", "hand", "--label-b", "libts"]

HAND_LOOP = ("hand main loop: 0x0100-0x0220 (19 instructions, 4 HGMMA); "
             "loops holding HGMMA: 0x00c0-0x0290, 0x0100-0x0220")
HAND_OOL = "hand   out-of-line: 3 instructions at 0x0340, 0x0350, 0x0360"
LIBTS_LOOP = ("libts main loop: 0x0140-0x0260 (19 instructions, 4 HGMMA); "
              "loops holding HGMMA: 0x0100-0x02d0, 0x0140-0x0260")
LIBTS_OOL = "libts   out-of-line: 3 instructions at 0x0380, 0x0390, 0x03a0"
IDENTICAL = "verdict: main loops identical up to register names"

failures = []
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import sass_diff  # noqa: E402


def run(args, subprocess_=False):
    """(exit status, stdout lines, stderr) of sass_diff.py with args: in this
    process (python3 starts slowly), or as a command."""
    if subprocess_:
        p = subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True)
        return p.returncode, p.stdout.splitlines(), p.stderr
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = sass_diff.main(args)
        except SystemExit as e:  # argparse
            code = e.code
        except Exception:
            code = "an exception: " + traceback.format_exc()
    return code, out.getvalue().splitlines(), err.getvalue()


def check(name, args, rc=0, lines=(), last=None, err=None, subprocess_=False):
    code, out, stderr = run(args, subprocess_)
    problems = []
    if code != rc:
        problems.append("exit status %s, expected %d" % (code, rc))
    for l in lines:
        if l not in out:
            problems.append("no line %r" % l)
    if last is not None and (not out or out[-1] != last):
        problems.append("last line %r, expected %r" % (out[-1] if out else None, last))
    if err is not None and err not in stderr:
        problems.append("stderr lacks %r" % err)
    if problems:
        failures.append(name)
        print("FAIL %s: %s\n  args: %s\n--- stdout\n%s\n--- stderr\n%s"
              % (name, "; ".join(problems), " ".join(args), "\n".join(out), stderr))
    else:
        print("ok   %s" % name)


def variant(src, old, new, count=1):
    """A temporary copy of src with old replaced by new (count times)."""
    with open(src) as f:
        text = f.read()
    assert text.count(old) >= count, (src, old)
    fd, path = tempfile.mkstemp(suffix=os.path.splitext(src)[1])
    with os.fdopen(fd, "w") as f:
        f.write(text.replace(old, new, count))
    temps.append(path)
    return path


temps = []
try:
    # Loops equal but for register numbers, .reuse and addresses: identical.
    check("identical", [HAND, LIBTS, "-a", V0, "-b", LIB] + NAMES,
          lines=[HAND_LOOP, HAND_OOL, LIBTS_LOOP, LIBTS_OOL, "(none)"], last=IDENTICAL)
    check("identical-loop-labels", [HAND, LIBTS, "-a", V0, "-b", LIB, "--loop-labels"],
          last=IDENTICAL)
    # One instruction differs (and the dump is nvdisasm's, branch targets as labels).
    # (as a command, once)
    check("differ", [HAND, DIFFER, "-a", V0, "-b", LIB] + NAMES,
          lines=[HAND_LOOP, LIBTS_LOOP, "-WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "+WARPGROUP.DEPBAR.LE gsb0, 0x0"],
          last="verdict: differ: 1 lines", subprocess_=True)
    # Both kernels from one dump; --whole and --side-by-side.
    check("one-dump-whole", [HAND, "-a", V0, "-b", V1, "--whole", "--side-by-side"],
          lines=["A main loop: 0x0100-0x0220 (19 instructions, 4 HGMMA); "
                 "loops holding HGMMA: 0x00c0-0x0290, 0x0100-0x0220",
                 "B main loop: 0x0100-0x0230 (20 instructions, 4 HGMMA); "
                 "loops holding HGMMA: 0x00c0-0x02a0, 0x0100-0x0230",
                 "total         22     23  +1", "total          59     60  +1",
                 "whole kernels differ: 1 lines"],
          last="verdict: differ: 1 lines")
    check("whole", [HAND, LIBTS, "-a", V0, "-b", LIB, "--whole"] + NAMES,
          lines=["total          59     63  +4", "whole kernels differ: 4 lines"], last=IDENTICAL)
    # The outer (tile) loops, chosen by their heads.
    check("chosen-loops", [HAND, LIBTS, "-a", V0, "-b", LIB, "--loop-a", "c0",
                           "--loop-b", "0x100"] + NAMES,
          lines=["hand main loop: 0x00c0-0x0290 (30 instructions, 4 HGMMA); "
                 "chosen by its head 0x00c0"], last=IDENTICAL)
    # ptxas's single-lane issue region (ELECT ... BRA.U.ANY) inside a k-loop
    # is no loop: the k-loop is the main loop (tcgen05 on sm_100a).
    ELECT = os.path.join(DATA, "elect.sass")
    check("elect-region", [ELECT, "-a", "elect_k", "-b", "elect_k", "--mma", "UTCHMMA"],
          lines=["A main loop: 0x0010-0x0080 (8 instructions, 1 UTCHMMA); "
                 "loops holding UTCHMMA: 0x0010-0x0080"], last=IDENTICAL)
    # A parameter offset in the loop: kept by default, normalised on request.
    cb = variant(LIBTS, "LDC R9, c[0x0][0x40c]", "LDC R9, c[0x0][0x410]")
    check("cbank-kept", [HAND, cb, "-a", V0, "-b", LIB], last="verdict: differ: 1 lines")
    check("cbank-normalised", [HAND, cb, "-a", V0, "-b", LIB, "--normalize-cbank"],
          last=IDENTICAL)
    # A kernel without an HGMMA loop: an error, unless --whole.
    check("no-loop", [LIBTS, "-a", "reference", "-b", "reference"], rc=2,
          err="no loop holds HGMMA")
    check("no-loop-whole", [LIBTS, DIFFER, "-a", "reference", "-b", "reference", "--whole"],
          lines=["A main loop: none (no loop holds HGMMA)"],
          last="verdict: whole kernels identical up to register names")
    # Malformed input and bad selections: exit status 2.
    empty = variant(LIBTS, "", "")
    with open(empty, "w"):
        pass
    check("empty", [empty, "-a", V0, "-b", LIB], rc=2, err="no functions")
    check("missing-file", [os.path.join(DATA, "nonexistent.sass"), "-a", V0, "-b", LIB], rc=2,
          err="cannot read")
    check("ambiguous", [HAND, "-a", V0, "-b", LIB], rc=2, err="selects 2 functions")
    check("no-match", [HAND, LIBTS, "-a", "nomatch", "-b", LIB], rc=2, err="selects 0 functions")
    check("usage", [HAND, "-a", V0], rc=2, err="required")
    check("addresses", [variant(HAND, "/*0110*/", "/*00f0*/"), "-a", V0, "-b", V1], rc=2,
          err="address 0x00f0 does not follow 0x0100")
    check("undefined-label", [variant(DIFFER, ".L_x_8:\n", ""), "-a", LIB, "-b", LIB], rc=2,
          err="branch to undefined label .L_x_8")
    check("bad-target", [variant(HAND, "@!P0 BRA 0x100 ;", "@!P0 BRA 0x104 ;"), "-a", V0,
                         "-b", V0], rc=2, err="branch target 0x104 is no instruction")
finally:
    for t in temps:
        os.unlink(t)

if failures:
    print("sass_diff_test: %d failed: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("sass_diff_test: all passed")
