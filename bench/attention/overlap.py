#!/usr/bin/env python3
"""Whether an attention kernel's main loop overlaps the softmax with PV in
SASS, as FA3's intra-warpgroup schedule means to:

    python3 bench/attention/overlap.py DUMP -k REGEX [--label NAME]

DUMP: `cuobjdump -sass` or `nvdisasm` output; -k: a regular expression
selecting one kernel. The main loop is bench/gemm/sass_diff.py's (the
innermost loop with the most HGMMA). In it, the PV MMAs are the HGMMA with
a register A operand (`HGMMA... R<n>, R<m>, gdesc...`), the softmax the
MUFU.EX2. Prints, in the loop's address order, where the last PV is issued,
where each `WARPGROUP.DEPBAR.LE gsb0, 0x0` (wait_group 0) stands and where
the softmax's exponentials run, then the verdict:

    verdict: softmax overlaps PV            the only full wait in the loop
                                            comes after the last exponential
    verdict: softmax waits for PV (...)     a full wait stands between the
                                            last PV and an exponential, or
                                            before the PV is issued (ptxas
                                            inserted it: C7517 / C7519)

A full wait ahead of the PV issue (ptxas waiting for QK^T first) is named
too. Last, where the stage arrival after the wait for S (`WARPGROUP.DEPBAR.LE
gsb0, 0x1`, the K release) stands:

    release after S: before the softmax     ahead of the first exponential
    release after S: early (N of M ...)     in the softmax's first half
    release after S: late (N of M ...)      ptxas sank it into the second
                                            half or past the softmax: the
                                            stage is held about a softmax
                                            longer
    release after S: none                   no arrival follows that wait

Exit status 0 whatever the verdict, 2 for malformed input.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gemm"))
import sass_diff  # noqa: E402

RE_PV = re.compile(r"^R\d+, R\d+, gdesc")
FULL_WAIT = ("WARPGROUP.DEPBAR.LE", "gsb0, 0x0")


def classify(insn):
    if insn.opcode.startswith("HGMMA"):
        return "pv" if RE_PV.match(insn.operands) else "mma"
    if insn.opcode == FULL_WAIT[0] and insn.operands.replace(" ", "") == FULL_WAIT[1].replace(" ", ""):
        return "wait0"
    if insn.opcode.startswith("MUFU.EX2"):
        return "ex2"
    return None


def verdict(events):
    """events: (kind, addr) in address order; returns the verdict line."""
    pvs = [i for i, (k, _) in enumerate(events) if k == "pv"]
    if not pvs:
        return "verdict: no PV (register-A HGMMA) in the main loop"
    first_pv, last_pv = pvs[0], pvs[-1]
    waits = [i for i, (k, _) in enumerate(events) if k == "wait0"]
    ex2 = [i for i, (k, _) in enumerate(events) if k == "ex2"]
    problems = []
    if any(w < first_pv and any(e[0] == "mma" for e in events[:w]) for w in waits):
        problems.append("a full wait before the PV issue")
    if ex2 and any(last_pv < w < ex2[-1] for w in waits):
        problems.append("a full wait between the PV issue and the softmax")
    if not problems:
        return "verdict: softmax overlaps PV"
    return "verdict: softmax waits for PV (%s)" % "; ".join(problems)


def release_line(insns):
    """Where the first mbarrier arrival after the wait for S stands."""
    waits = [n for n, i in enumerate(insns) if i.opcode == FULL_WAIT[0]
             and i.operands.replace(" ", "") == "gsb0,0x1"]
    if not waits:
        return "release after S: none"
    rest = insns[waits[0] + 1:]
    arrive = next((n for n, i in enumerate(rest) if i.opcode.startswith("SYNCS.ARRIVE")), None)
    if arrive is None:
        return "release after S: none"
    ex2 = sum(1 for i in rest[:arrive] if i.opcode.startswith("MUFU.EX2"))
    total = sum(1 for i in rest if i.opcode.startswith("MUFU.EX2"))
    if ex2 == 0:
        return "release after S: before the softmax"
    return "release after S: %s (%d of %d exponentials before it)" % (
        "early" if 2 * ex2 < total else "late", ex2, total)


def run(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dump")
    ap.add_argument("-k", "--kernel", required=True)
    ap.add_argument("--label", default="kernel")
    opts = ap.parse_args(argv)
    funcs = sass_diff.parse_dump(sass_diff.read(opts.dump), opts.dump)
    f = sass_diff.select(funcs, opts.kernel, None, opts.label)
    lp, note = sass_diff.main_loop(f, re.compile("HGMMA"))
    if lp is None:
        raise sass_diff.Malformed("%s: %s" % (f.name, note))
    insns = sorted(lp.all_insns(), key=lambda i: i.addr)
    events = [(classify(i), i.addr) for i in insns]
    events = [e for e in events if e[0]]
    print("%s: %s main loop %s" % (opts.label, f.name, lp.range()))
    line, last = [], None
    for kind, addr in events:  # runs of one kind, in order
        if last and last[0] == kind:
            last[1] += 1
            continue
        last = [kind, 1, addr]
        line.append(last)
    print("order: " + ", ".join("%s x%d @0x%04x" % (k, n, a) for k, n, a in line))
    print(verdict(events))
    print(release_line(insns))
    return 0


def main(argv=None):
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except sass_diff.Malformed as e:
        print("overlap.py: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
