#!/usr/bin/env python3
"""Static comparison of two CUDA kernels' SASS (their main loops, optionally
the whole kernels), to check claims such as "the libts GEMM's main loop is
the hand-written twin's, up to register names".

    python3 bench/gemm/sass_diff.py A.sass [B.sass] -a REGEX -b REGEX
        [--label-a NAME] [--label-b NAME] [--whole] [--normalize-cbank]
        [--side-by-side] [--loop-labels] [--context N] [--mma REGEX]
        [--loop-a HEX] [--loop-b HEX] [--arch sm_90a]

A.sass / B.sass: the text of `cuobjdump -sass <binary>` or `nvdisasm
[-hex] <cubin>` ("-" reads stdin). With one dump both kernels are taken from
it. -a / -b: regular expressions (re.search) on the mangled function names;
each must select exactly one function.

The main loop of a kernel is the innermost loop (a backward branch to an
earlier address whose target dominates it; ptxas's ELECT ... BRA.U.ANY
single-lane issue regions are not loops) whose body holds an instruction
matching --mma (default HGMMA); of several innermost ones, the one with the
most such instructions. Its address range runs from the loop head to the
backward branch; blocks of the loop placed elsewhere (barrier retry code
after the EXIT) are listed after it as "out-of-line". --loop-a/--loop-b
choose the loop by its head's address instead.

Instructions are compared normalised: R<n> -> R, UR<n> -> UR, P<n> -> P,
UP<n> -> UP, B<n> -> B, branch targets (addresses or labels) -> label
(--loop-labels: loop+<index> for targets inside the loop), .reuse dropped;
constant-bank offsets c[0x0][0x...] are kept unless --normalize-cbank.

Prints both loops' ranges, their per-opcode counts side by side with the
totals, a diff of the normalised loop bodies (unified, or --side-by-side:
both loops' original text, "!" / "<" / ">" marking lines that differ after
normalisation) and, last, the verdict: "verdict: main loops identical up to
register names" or "verdict: differ: N lines" (N: lines of the longer side
in each differing stretch). --whole adds the whole kernels' opcode counts and
their normalised difference (and with --whole a kernel without such a loop
is no error). Exit status 0 whatever the verdict, 2 for malformed input or
a bad selection. Standard library only. Test: bench/gemm/sass_diff_test.py.
"""

import argparse
import collections
import difflib
import os
import re
import sys

MARKER_OUT_OF_LINE = "-- out-of-line --"


class Malformed(Exception):
    pass


class Insn:
    __slots__ = ("addr", "guard", "opcode", "operands", "lineno", "target")

    def __init__(self, addr, guard, opcode, operands, lineno):
        self.addr = addr
        self.guard = guard  # "" or "@P0", "@!UP1", ...
        self.opcode = opcode  # "HGMMA.64x256x16.F32.BF16"
        self.operands = operands  # "R24, gdesc[UR4], RZ, !UPT, gsb0"
        self.lineno = lineno
        self.target = None  # resolved branch target address

    @property
    def base(self):
        return self.opcode.split(".")[0]

    def text(self):
        s = (self.guard + " " if self.guard else "") + self.opcode
        return s + (" " + self.operands if self.operands else "")


class Function:
    def __init__(self, name, arch, source, lineno):
        self.name = name
        self.arch = arch
        self.source = source
        self.lineno = lineno
        self.insns = []
        self.labels = {}  # label -> address (None: end of function)
        self._pending = []

    def where(self):
        return "%s (%s line %d)" % (self.name, self.source, self.lineno)


# ---------------------------------------------------------------- parsing

RE_CUOBJ_FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)\s*$")
RE_SECTION = re.compile(r"^\s*\.section\s+([^,\s]+)")
RE_CODE_FOR = re.compile(r"^\s*(?:code for|\.target)\s+(sm_\w+)")
RE_ARCH = re.compile(r"^\s*arch\s*=\s*(sm_\w+)")
RE_INSN = re.compile(r"^\s*/\*([0-9a-fA-F]+)\*/\s*(.*)$")
RE_LABEL = re.compile(r"^\s*([A-Za-z_.$][\w.$@]*):\s*$")
RE_TRAILING_COMMENT = re.compile(r"\s*/\*[^*]*\*/\s*$")
RE_GUARD = re.compile(r"^(@!?U?P(?:T|\d+))\s+(.*)$")


def parse_insn_text(text):
    """'@P0 BRA 0x3c0 ;  /* 0x... */' -> (guard, opcode, operands), or None."""
    while True:
        t = RE_TRAILING_COMMENT.sub("", text)
        if t == text:
            break
        text = t
    text = text.strip()
    if text.startswith("{"):
        text = text[1:].strip()
    if text.endswith("}"):
        text = text[:-1].strip()
    if text.endswith(";"):
        text = text[:-1].strip()
    if not text or text.startswith("."):  # .byte / .word data, directives
        return None
    guard = ""
    m = RE_GUARD.match(text)
    if m:
        guard, text = m.group(1), m.group(2)
    parts = text.split(None, 1)
    opcode = parts[0]
    if not re.match(r"^[A-Z][A-Z0-9_]*(\.[\w]+)*$", opcode):
        return None
    return guard, opcode, (parts[1].strip() if len(parts) > 1 else "")


def parse_dump(text, source):
    """All functions of a cuobjdump -sass / nvdisasm listing."""
    funcs = []
    cur = None
    arch = None

    def close():
        nonlocal cur
        if cur is not None:
            for lab in cur._pending:
                cur.labels[lab] = None
            cur._pending = []
        cur = None

    for lineno, line in enumerate(text.splitlines(), 1):
        m = RE_CODE_FOR.match(line) or RE_ARCH.match(line)
        if m:
            arch = m.group(1)
            continue
        m = RE_CUOBJ_FUNC.match(line)
        if m:
            close()
            cur = Function(m.group(1), arch, source, lineno)
            funcs.append(cur)
            continue
        m = RE_SECTION.match(line)
        if m:
            close()
            sec = m.group(1)
            if sec.startswith(".text."):
                cur = Function(sec[len(".text."):], arch, source, lineno)
                funcs.append(cur)
            continue
        if cur is None:
            continue
        if line.lstrip().startswith("Fatbin") or re.match(r"^\s*\.{6,}\s*$", line):
            close()
            continue
        m = RE_INSN.match(line)
        if m:
            parsed = parse_insn_text(m.group(2))
            if parsed is None:
                continue
            addr = int(m.group(1), 16)
            if cur.insns and addr <= cur.insns[-1].addr:
                raise Malformed("%s line %d: address 0x%04x does not follow 0x%04x"
                                % (source, lineno, addr, cur.insns[-1].addr))
            cur.insns.append(Insn(addr, parsed[0], parsed[1], parsed[2], lineno))
            for lab in cur._pending:
                cur.labels[lab] = addr
            cur._pending = []
            continue
        m = RE_LABEL.match(line)
        if m:
            cur._pending.append(m.group(1))
    close()
    return funcs


# ------------------------------------------------- control flow and loops

# Opcodes whose last operand (or `(label)) is a code address.
TARGET_OPS = {"BRA", "JMP", "CALL", "BSSY", "SSY", "PBK", "PCNT", "CAL", "JCAL", "PRET", "RET"}
RE_LABEL_REF = re.compile(r"`\(([^)]*)\)")
RE_HEX_LAST = re.compile(r"(-?0x[0-9a-fA-F]+)\s*$")
RE_BRANCH_TARGETS = re.compile(r"BRANCH_TARGETS\s+([^\"*]*)")


def raw_target(insn):
    """The written target of a branch-like instruction: ('label', name),
    ('addr', int) or None."""
    if insn.base not in TARGET_OPS:
        return None
    m = RE_LABEL_REF.search(insn.operands)
    if m:
        return ("label", m.group(1).strip())
    m = RE_HEX_LAST.search(insn.operands)
    if m and insn.base != "RET":
        return ("addr", int(m.group(1), 16))
    return None


def never(insn):
    return insn.guard in ("@!PT", "@!UPT")


def conditional(insn):
    return insn.guard not in ("", "@PT", "@UPT")


def successors_of(insn, next_addr):
    """Successor addresses of an instruction (None: the end of the code)."""
    if never(insn):
        return [next_addr]
    b = insn.base
    mods = set(insn.opcode.split(".")[1:])
    if b in ("BRA", "JMP"):
        nops = len([o for o in insn.operands.split(",") if o.strip()])
        uncond = (not conditional(insn) and nops <= 1
                  and not mods & {"DIV", "CONV", "ANY", "ALL"})
        out = [insn.target] if insn.target is not None else []
        return out if uncond else out + [next_addr]
    if b in ("BRX", "JMX"):
        out = []
        m = RE_BRANCH_TARGETS.search(insn.operands)
        if m:  # filled in by resolve() into insn.target as a list
            out = list(insn.target or [])
        return out + ([next_addr] if conditional(insn) else [])
    if b == "CALL":
        return ([insn.target] if insn.target is not None else []) + [next_addr]
    if b in ("EXIT", "RET", "KILL") or insn.opcode.startswith("BPT.TRAP"):
        return [next_addr] if conditional(insn) else []
    return [next_addr]


def resolve(func):
    """Sets insn.target for branch-like instructions; checks the targets."""
    addrs = {i.addr for i in func.insns}
    for insn in func.insns:
        if insn.base in ("BRX", "JMX"):
            m = RE_BRANCH_TARGETS.search(insn.operands)
            if m:
                ts = []
                for lab in re.findall(r"[A-Za-z_.$][\w.$@]*", m.group(1)):
                    if func.labels.get(lab) is not None:
                        ts.append(func.labels[lab])
                insn.target = ts
            continue
        t = raw_target(insn)
        if t is None:
            continue
        if t[0] == "label":
            if t[1] in func.labels and func.labels[t[1]] is not None:
                insn.target = func.labels[t[1]]
            elif insn.base in ("BRA", "JMP", "BSSY", "SSY", "PBK", "PCNT"):
                raise Malformed("%s line %d: branch to undefined label %s"
                                % (func.source, insn.lineno, t[1]))
        else:
            if t[1] in addrs:
                insn.target = t[1]
            elif insn.base in ("BRA", "JMP") and t[1] != func.insns[-1].addr + 16:
                raise Malformed("%s line %d: branch target 0x%x is no instruction of %s"
                                % (func.source, insn.lineno, t[1], func.name))


class CFG:
    def __init__(self, func):
        insns = func.insns
        self.func = func
        n = len(insns)
        index = {ins.addr: k for k, ins in enumerate(insns)}
        succ_addrs = []
        leaders = {0}
        for k, ins in enumerate(insns):
            nxt = insns[k + 1].addr if k + 1 < n else None
            s = [a for a in successors_of(ins, nxt)]
            succ_addrs.append(s)
            if s != [nxt] and k + 1 < n:
                leaders.add(k + 1)
            for a in s:
                if a is not None and a in index:
                    leaders.add(index[a])
        starts = sorted(leaders)
        self.starts = starts  # block b covers insns[starts[b]:ends[b]]
        self.ends = starts[1:] + [n]
        self.block_of = [0] * n
        for b, (s, e) in enumerate(zip(starts, self.ends)):
            for k in range(s, e):
                self.block_of[k] = b
        nb = len(starts)
        self.succ = [[] for _ in range(nb)]
        self.pred = [[] for _ in range(nb)]
        for b in range(nb):
            for a in succ_addrs[self.ends[b] - 1]:
                if a is None or a not in index:
                    continue
                c = self.block_of[index[a]]
                if c not in self.succ[b]:
                    self.succ[b].append(c)
                    self.pred[c].append(b)
        self._dominators()

    def _dominators(self):
        nb = len(self.starts)
        # reverse postorder from the entry (iterative DFS)
        seen = [False] * nb
        post = []
        stack = [(0, iter(self.succ[0]))]
        seen[0] = True
        while stack:
            b, it = stack[-1]
            for c in it:
                if not seen[c]:
                    seen[c] = True
                    stack.append((c, iter(self.succ[c])))
                    break
            else:
                post.append(b)
                stack.pop()
        rpo = post[::-1]
        self.reachable = seen
        full = (1 << nb) - 1
        dom = [full] * nb
        dom[0] = 1
        changed = True
        while changed:
            changed = False
            for b in rpo[1:]:
                d = full
                for p in self.pred[b]:
                    if seen[p]:
                        d &= dom[p]
                d |= 1 << b
                if d != dom[b]:
                    dom[b] = d
                    changed = True
        self.dom = dom

    def dominates(self, a, b):
        return bool(self.dom[b] >> a & 1)


class Loop:
    def __init__(self, cfg, head, latches):
        f = cfg.func
        self.head = head
        self.head_addr = f.insns[cfg.starts[head]].addr
        self.end_addr = max(f.insns[cfg.ends[l] - 1].addr for l in latches)
        body = {head}
        work = [l for l in latches if l != head]
        body.update(work)
        while work:
            b = work.pop()
            for p in cfg.pred[b]:
                if p not in body and cfg.reachable[p]:
                    body.add(p)
                    work.append(p)
        self.blocks = body
        self.insns = [i for i in f.insns if self.head_addr <= i.addr <= self.end_addr]
        self.out_of_line = []
        for b in sorted(body):
            for k in range(cfg.starts[b], cfg.ends[b]):
                a = f.insns[k].addr
                if not self.head_addr <= a <= self.end_addr:
                    self.out_of_line.append(f.insns[k])

    def all_insns(self):
        return self.insns + self.out_of_line

    def range(self):
        return "0x%04x-0x%04x" % (self.head_addr, self.end_addr)


def elect_retry(loop):
    """ptxas's single-lane issue (`@P ELECT ...` until `@P BRA.U.ANY`, the
    shape of a lane-0 or elect.sync region it makes warp-uniform): one pass
    per active lane group, not a loop of the program."""
    last = loop.insns[-1] if loop.insns else None
    return (last is not None and last.opcode.startswith("BRA.U.ANY")
            and any(i.base == "ELECT" for i in loop.insns))


def find_loops(cfg):
    f = cfg.func
    latches = collections.defaultdict(list)
    for b in range(len(cfg.starts)):
        if not cfg.reachable[b]:
            continue
        last = f.insns[cfg.ends[b] - 1]
        for h in cfg.succ[b]:
            if (f.insns[cfg.starts[h]].addr <= last.addr and cfg.dominates(h, b)
                    and last.base in ("BRA", "JMP", "BRX", "JMX")):
                latches[h].append(b)
    loops = [Loop(cfg, h, ls) for h, ls in sorted(latches.items())]
    return [lp for lp in loops if not elect_retry(lp)]


def main_loop(func, mma, choose_head=None):
    """(loop, note) of the kernel's main loop; loop None when none found."""
    cfg = CFG(func)
    loops = find_loops(cfg)
    if choose_head is not None:
        for lp in loops:
            if lp.head_addr == choose_head:
                return lp, "chosen by its head 0x%04x" % choose_head
        raise Malformed("%s: no loop has its head at 0x%04x (loops: %s)"
                        % (func.name, choose_head, ", ".join(l.range() for l in loops) or "none"))
    count = lambda lp: sum(1 for i in lp.all_insns() if mma.match(i.opcode))
    cands = [lp for lp in loops if count(lp)]
    if not cands:
        return None, "no loop holds %s" % mma.pattern
    inner = [lp for lp in cands
             if not any(o is not lp and o.head in lp.blocks for o in cands)]
    if not inner:  # irreducible flow: loops that contain each other
        inner = [lp for lp in cands if len(lp.blocks) == min(len(o.blocks) for o in cands)]
    inner.sort(key=lambda lp: (-count(lp), lp.head_addr))
    note = "loops holding %s: %s" % (mma.pattern, ", ".join(l.range() for l in cands))
    if len(inner) > 1:
        note += "; innermost: %s, the first with the most" % ", ".join(l.range() for l in inner)
    return inner[0], note


# ---------------------------------------------------------- normalisation

RE_CBANK = re.compile(r"\b(c\[0x[0-9a-fA-F]+\])\[0x[0-9a-fA-F]+\]")
NORMALISE = [
    (re.compile(r"\.reuse\b"), ""),
    (re.compile(r"(?<![A-Za-z0-9_])UR\d+\b"), "UR"),
    (re.compile(r"(?<![A-Za-z0-9_])R\d+\b"), "R"),
    (re.compile(r"(?<![A-Za-z0-9_])UP\d+\b"), "UP"),
    (re.compile(r"(?<![A-Za-z0-9_])P\d+\b"), "P"),
    (re.compile(r"(?<![A-Za-z0-9_])B\d+\b"), "B"),
]


def normalise(insn, opts, target_name=None):
    ops = insn.operands
    if raw_target(insn) is not None:
        name = target_name or "label"
        if RE_LABEL_REF.search(ops):
            ops = RE_LABEL_REF.sub(name, ops)
        else:
            ops = RE_HEX_LAST.sub(name, ops)
    if opts.normalize_cbank:
        ops = RE_CBANK.sub(r"\1[C]", ops)
    guard = insn.guard
    for rx, rep in NORMALISE:
        ops = rx.sub(rep, ops)
        guard = rx.sub(rep, guard)
    s = (guard + " " if guard else "") + insn.opcode
    return s + (" " + ops if ops else "")


def normalised_lines(insns, out_of_line, opts):
    pos = {}
    if opts.loop_labels:
        for k, i in enumerate(insns + out_of_line):
            pos[i.addr] = k
    lines = []
    for i in insns:
        lines.append(normalise(i, opts, "loop+%d" % pos[i.target]
                               if isinstance(i.target, int) and i.target in pos else None))
    if out_of_line:
        lines.append(MARKER_OUT_OF_LINE)
        for i in out_of_line:
            lines.append(normalise(i, opts, "loop+%d" % pos[i.target]
                                   if isinstance(i.target, int) and i.target in pos else None))
    return lines


# ----------------------------------------------------------------- output

def count_table(la, lb, insns_a, insns_b, full):
    key = (lambda i: i.opcode) if full else (lambda i: i.base)
    ca = collections.Counter(key(i) for i in insns_a)
    cb = collections.Counter(key(i) for i in insns_b)
    ops = sorted(set(ca) | set(cb), key=lambda o: (-max(ca[o], cb[o]), o))
    w = max([len("opcode"), len("total")] + [len(o) for o in ops])
    wa, wb = max(len(la), 5), max(len(lb), 5)
    out = ["%-*s  %*s  %*s  %s" % (w, "opcode", wa, la, wb, lb, "%s-%s" % (lb, la))]
    for o in ops + ["total"]:
        a = sum(ca.values()) if o == "total" else ca[o]
        b = sum(cb.values()) if o == "total" else cb[o]
        out.append(("%-*s  %*d  %*d  %s" % (w, o, wa, a, wb, b, "%+d" % (b - a) if a != b else ""))
                   .rstrip())
    return out


def changed_lines(a, b):
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sm, sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in sm.get_opcodes()
                   if tag != "equal")


def side_by_side(sm, raw_a, raw_b):
    w = max([len(s) for s in raw_a] + [10])
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for x, y in zip(raw_a[i1:i2], raw_b[j1:j2]):
                out.append("  %-*s | %s" % (w, x, y))
            continue
        xs, ys = raw_a[i1:i2], raw_b[j1:j2]
        for k in range(max(len(xs), len(ys))):
            x = xs[k] if k < len(xs) else ""
            y = ys[k] if k < len(ys) else ""
            mark = "!" if x and y else ("<" if x else ">")
            out.append(("%s %-*s | %s" % (mark, w, x, y)).rstrip())
    return out


def raw_lines(insns, out_of_line):
    lines = ["%04x  %s" % (i.addr, i.text()) for i in insns]
    if out_of_line:
        lines.append(MARKER_OUT_OF_LINE)
        lines += ["%04x  %s" % (i.addr, i.text()) for i in out_of_line]
    return lines


def select(funcs, regex, arch, what):
    try:
        rx = re.compile(regex)
    except re.error as e:
        raise Malformed("%s: bad regular expression %r: %s" % (what, regex, e))
    hits = [f for f in funcs if rx.search(f.name) and (arch is None or f.arch == arch)]
    if len(hits) != 1:
        names = ", ".join("%s [%s]" % (f.name, f.arch or "?") for f in hits)
        if not hits:
            names = "none; functions: " + ", ".join(f.name for f in funcs)
        raise Malformed("%s: %r selects %d functions (exactly one needed): %s%s"
                        % (what, regex, len(hits), names,
                           " (use --arch)" if len({f.arch for f in hits}) > 1 else ""))
    f = hits[0]
    if not f.insns:
        raise Malformed("%s: %s has no instructions" % (what, f.where()))
    resolve(f)
    return f


def read(path):
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError as e:
        raise Malformed("cannot read %s: %s" % (path, e.strerror or e))


def run(argv):
    ap = argparse.ArgumentParser(description="Compare two kernels' SASS main loops.")
    ap.add_argument("dump_a", help="cuobjdump -sass / nvdisasm output ('-': stdin)")
    ap.add_argument("dump_b", nargs="?", help="second dump (default: the first)")
    ap.add_argument("-a", "--kernel-a", required=True, help="regex for kernel A's name")
    ap.add_argument("-b", "--kernel-b", required=True, help="regex for kernel B's name")
    ap.add_argument("--label-a", default="A")
    ap.add_argument("--label-b", default="B")
    ap.add_argument("--arch", help="only functions of this architecture (sm_90a)")
    ap.add_argument("--mma", default="HGMMA",
                    help="regex matched at the start of opcodes marking the main loop (HGMMA)")
    ap.add_argument("--loop-a", help="head address (hex) of A's loop to compare")
    ap.add_argument("--loop-b", help="head address (hex) of B's loop to compare")
    ap.add_argument("--whole", action="store_true", help="also compare whole kernels")
    ap.add_argument("--normalize-cbank", action="store_true",
                    help="c[0x0][0x210] -> c[0x0][C]")
    ap.add_argument("--loop-labels", action="store_true",
                    help="branch targets inside the loop as loop+<index>")
    ap.add_argument("--side-by-side", action="store_true", help="side-by-side diff")
    ap.add_argument("--full-opcodes", action="store_true", help="count opcodes with modifiers")
    ap.add_argument("--context", type=int, default=3, help="unified diff context (default 3)")
    opts = ap.parse_args(argv)

    text_a = read(opts.dump_a)
    funcs_a = parse_dump(text_a, opts.dump_a)
    if opts.dump_b is None or opts.dump_b == opts.dump_a:
        funcs_b, src_b = funcs_a, opts.dump_a
    else:
        funcs_b, src_b = parse_dump(read(opts.dump_b), opts.dump_b), opts.dump_b
    for funcs, src in ((funcs_a, opts.dump_a), (funcs_b, src_b)):
        if not funcs:
            raise Malformed("%s: no functions (not cuobjdump -sass / nvdisasm output?)" % src)
    la, lb = opts.label_a, opts.label_b
    fa = select(funcs_a, opts.kernel_a, opts.arch, la)
    fb = select(funcs_b, opts.kernel_b, opts.arch, lb)
    try:
        mma = re.compile(opts.mma)
        heads = [int(h, 16) if h else None for h in (opts.loop_a, opts.loop_b)]
    except (re.error, ValueError) as e:
        raise Malformed("bad --mma or --loop-a/--loop-b: %s" % e)

    out = []
    loops = []
    for label, f, head in ((la, fa, heads[0]), (lb, fb, heads[1])):
        out.append("%s: %s (%s, %s, %d instructions)"
                   % (label, f.name, f.source, f.arch or "?", len(f.insns)))
    for label, f, head in ((la, fa, heads[0]), (lb, fb, heads[1])):
        lp, note = main_loop(f, mma, head)
        loops.append(lp)
        if lp is None:
            if not opts.whole:
                raise Malformed("%s: %s: %s (--whole compares the whole kernels)"
                                % (label, f.name, note))
            out.append("%s main loop: none (%s)" % (label, note))
            continue
        n_mma = sum(1 for i in lp.all_insns() if mma.match(i.opcode))
        out.append("%s main loop: %s (%d instructions, %d %s); %s"
                   % (label, lp.range(), len(lp.insns), n_mma, mma.pattern, note))
        if lp.out_of_line:
            out.append("%s   out-of-line: %d instructions at %s"
                       % (label, len(lp.out_of_line),
                          ", ".join("0x%04x" % i.addr for i in lp.out_of_line)))

    verdict = None
    if all(loops):
        a, b = loops
        na = normalised_lines(a.insns, a.out_of_line, opts)
        nb = normalised_lines(b.insns, b.out_of_line, opts)
        out.append("")
        out.append("== opcodes in the main loops")
        out += count_table(la, lb, a.all_insns(), b.all_insns(), opts.full_opcodes)
        sm, n = changed_lines(na, nb)
        out.append("")
        if opts.side_by_side:
            out.append("== main loops side by side (original text; !<> differ when normalised)")
            out += side_by_side(sm, raw_lines(a.insns, a.out_of_line),
                                raw_lines(b.insns, b.out_of_line))
        else:
            out.append("== diff of the normalised main loops")
            d = list(difflib.unified_diff(na, nb, "%s %s" % (la, a.range()),
                                          "%s %s" % (lb, b.range()), n=opts.context,
                                          lineterm=""))
            out += d if d else ["(none)"]
        verdict = ("main loops identical up to register names" if n == 0
                   else "differ: %d lines" % n)

    if opts.whole:
        na = [normalise(i, opts) for i in fa.insns]
        nb = [normalise(i, opts) for i in fb.insns]
        _, n = changed_lines(na, nb)
        out.append("")
        out.append("== opcodes in the whole kernels")
        out += count_table(la, lb, fa.insns, fb.insns, opts.full_opcodes)
        whole = ("whole kernels identical up to register names" if n == 0
                 else "whole kernels differ: %d lines" % n)
        out.append(whole)
        if verdict is None:
            verdict = whole
    out.append("")
    out.append("verdict: " + verdict)
    try:
        print("\n".join(out))
        sys.stdout.flush()
    except BrokenPipeError:  # | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main(argv=None):
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except Malformed as e:
        print("sass_diff: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
