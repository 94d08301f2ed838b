"""Source model and mutation operators for the libts mutation harness.

Everything here works on the source text of one .cu file: comments, string
literals and preprocessor lines are masked out, `#if` regions that are not
compiled (as far as the file's own `#define`s tell) are masked too, and a
small statement splitter finds the [[ts::task]] functions, their
ts::domain loop (and a ts::domain loop nested directly in its body: a
k-loop in a tile loop), the first/last guards, the pipeline-op statements and the
ts::pdl_wait() / ts::pdl_launch_dependents() statements (grid-level, never
pipeline ops); [[ts::kernel(...)]] gives the tasks and the ts::alias<...>,
ts::grid_dependent<...>, ts::pdl_waited and ts::cluster_shape(...)
arguments; [[ts::resource(...)]] its kind, stages and ts::multicast; the
task bodies their ts::tma::load_multicast calls, and a domain loop's
`.nonempty()` (it traps instead of running 0 times).
Mutation operators turn that model into text edits, each labelled

  BUG        the mutant hangs or corrupts data on the GPU for some launch;
  VALID      it follows the documented rules and runs correctly;
  TOLERATED  it breaks the documented protocol, but the device runtime
             happens to run it correctly (reported, never scored);

with the reason. Labels follow the device runtime in include/ts/pipeline.h,
whose cursor semantics detect_runtime() reads: either acquire()/wait() move
the task's cursor and commit(s)/release(s) arrive on stage s (a task may
hold several stages), or commit()/release() arrive on the cursor's stage
and move it (acquire()/wait() only wait). A tma_async acquire() arms the
stage's transaction bytes; the TMA bytes, not commit(), complete its full
barrier.
"""

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

BUG = "BUG"
VALID = "VALID"
# Breaks the documented protocol, yet the runtime in include/ts happens to
# run it correctly (a redundant op, a no-op commit, a forged token on a stage
# that is still fresh). Reported, never scored.
TOLERATED = "TOLERATED"

BLOCKING = ("acquire", "wait")
TRIES = ("try_acquire", "try_wait")
CLOSES = ("commit", "release")
# tma_umma: TMA fills like tma_async (its commit does nothing either), its
# release is a tcgen05.commit; umma_async: the commit is a tcgen05.commit.
TMA_KINDS = ("tma_async", "tma_umma")
PIPELINED_KINDS = ("async_async", "tma_async", "tma_umma", "umma_async")
OPEN_OF = {"commit": "acquire", "release": "wait"}
CLOSE_OF = {"acquire": "commit", "wait": "release"}
BLOCK_OF_TRY = {"try_acquire": "acquire", "try_wait": "wait"}


# ----------------------------------------------------------------------------
# The runtime's cursor semantics (labels depend on them)


@dataclass
class Runtime:
    """What include/ts/pipeline.h does, as far as labels care.

    open_advances: acquire()/wait() move the task's cursor and commit(s) /
    release(s) arrive on the stage they are given (a task may hold several
    stages). Otherwise commit()/release() arrive on the cursor's stage and
    move the cursor, and acquire()/wait() only wait (one stage at a time).
    tma_commit_noop: commit() of a tma_async stage does nothing at all."""
    open_advances: bool
    tma_commit_noop: bool

    def describe(self) -> str:
        return ("acquire()/wait() move the cursor, commit(s)/release(s) hand back stage s"
                if self.open_advances else
                "commit()/release() move the cursor, acquire()/wait() only wait") + \
            ("; a tma_async commit() does nothing" if self.tma_commit_noop else "")


def _method_body(text: str, signature: str) -> str:
    m = re.search(signature, text)
    if not m:
        raise ValueError("pipeline.h: no method matching %r" % signature)
    b = text.index("{", m.end())
    return text[b:_match(text, b) + 1]


def detect_runtime(pipeline_h: str) -> Runtime:
    t = _mask_comments_strings(pipeline_h)
    acquire = _method_body(t, r"\bacquire\s*\(\s*token\s+\w+\s*\)")
    wait = _method_body(t, r"\bwait\s*\(\s*token\s+\w+\s*\)")
    commit = _method_body(t, r"\bvoid\s+commit\s*\(")
    release = _method_body(t, r"\bvoid\s+release\s*\(")
    opens = "advance" in acquire and "advance" in wait
    closes = "advance" in commit and "advance" in release
    if opens == closes:
        raise ValueError("pipeline.h: cannot tell which ops move the cursor "
                         "(acquire/wait: %s, commit/release: %s)" % (opens, closes))
    noop = "advance" not in commit and "tma" not in commit
    return Runtime(opens, noop)



# ----------------------------------------------------------------------------
# Masking and the preprocessor


def _mask_comments_strings(src: str) -> str:
    """Comments and string/char literal contents become spaces (newlines kept)."""
    out = list(src)
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if src[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


@dataclass
class PPLine:
    start: int
    end: int  # offset of the terminating newline (or len)
    directive: str
    rest: str


def _pp_lines(masked: str) -> List[PPLine]:
    lines = []
    pos = 0
    n = len(masked)
    while pos < n:
        eol = masked.find("\n", pos)
        eol = n if eol < 0 else eol
        line = masked[pos:eol]
        if line.lstrip().startswith("#"):
            start = pos
            # Continuations.
            while masked[pos:eol].rstrip().endswith("\\") and eol < n:
                pos = eol + 1
                eol = masked.find("\n", pos)
                eol = n if eol < 0 else eol
            text = masked[start:eol].replace("\\\n", " ")
            m = re.match(r"\s*#\s*(\w*)(.*)", text, re.S)
            lines.append(PPLine(start, eol, m.group(1), m.group(2).strip()))
        pos = eol + 1
    return lines


class _Unknown(Exception):
    pass


def _pp_eval(expr: str, defines: Dict[str, str]) -> bool:
    def defined(m):
        name = m.group(1) or m.group(2)
        if name in defines:
            return " 1 "
        if name.startswith("__"):
            raise _Unknown(name)
        return " 0 "

    e = re.sub(r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)", defined, expr)
    for _ in range(16):
        new = re.sub(r"\b([A-Za-z_]\w*)\b",
                     lambda m: " (%s) " % defines[m.group(1)] if m.group(1) in defines else m.group(0), e)
        if new == e:
            break
        e = new
    if "?" in e:
        raise _Unknown(e)

    def ident(m):
        if m.group(1).startswith("__"):
            raise _Unknown(m.group(1))
        return " 0 "

    e = re.sub(r"\b([A-Za-z_]\w*)\b", ident, e)
    e = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    try:
        return bool(eval(e, {"__builtins__": {}}, {}))
    except Exception as exc:  # anything we cannot evaluate
        raise _Unknown(e) from exc


def _preprocess(masked: str):
    """Returns (parse text, defines, pragma spans, dead spans).

    The parse text has every preprocessor line and every region that is
    not compiled (or that we cannot tell) replaced by spaces."""
    defines: Dict[str, str] = {}
    text = list(masked)
    pragmas: List[Tuple[int, int]] = []
    dead: List[Tuple[int, int]] = []
    # Stack of [parent_active, this_active (True/False/None), taken]
    stack: List[list] = []
    active = True  # True, False or None (unknown)
    region_start = None

    def blank(a, b):
        for k in range(a, b):
            if text[k] != "\n":
                text[k] = " "

    def cur_active():
        a = True
        for parent, this, _ in stack:
            if this is False:
                return False
            if this is None:
                a = None
        return a

    pos_of_region = 0
    for pp in _pp_lines(masked):
        before = cur_active()
        # Text between the previous directive and this one.
        if before is not True:
            blank(pos_of_region, pp.start)
            dead.append((pos_of_region, pp.start))
        pos_of_region = pp.end
        blank(pp.start, pp.end)
        d = pp.directive
        if d in ("if", "ifdef", "ifndef"):
            try:
                if d == "if":
                    v = _pp_eval(pp.rest, defines)
                else:
                    name = pp.rest.split()[0] if pp.rest.split() else ""
                    if name.startswith("__") and name not in defines:
                        raise _Unknown(name)
                    v = (name in defines) == (d == "ifdef")
            except _Unknown:
                v = None
            stack.append([before, v, v is True])
        elif d in ("elif", "else"):
            if not stack:
                continue
            fr = stack[-1]
            if fr[2]:
                fr[1] = False
            elif d == "else":
                fr[1] = None if fr[1] is None else True
                fr[2] = fr[1] is True
            else:
                try:
                    v = _pp_eval(pp.rest, defines)
                except _Unknown:
                    v = None
                fr[1] = v if fr[1] is not None else None
                fr[2] = fr[1] is True
        elif d == "endif":
            if stack:
                stack.pop()
        elif before is True and d == "define":
            m = re.match(r"(\w+)(?!\()\s*(.*)", pp.rest, re.S)
            if m and not re.match(r"\w+\(", pp.rest):
                defines[m.group(1)] = m.group(2).strip() or "1"
        elif before is True and d == "undef":
            defines.pop(pp.rest.split()[0] if pp.rest.split() else "", None)
        elif before is True and d == "pragma":
            pragmas.append((pp.start, pp.end))
    if cur_active() is not True:
        blank(pos_of_region, len(text))
        dead.append((pos_of_region, len(text)))
    return "".join(text), defines, pragmas, dead


# ----------------------------------------------------------------------------
# Statements


def _match(t: str, i: int) -> int:
    """Index of the bracket closing the one at t[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    j = i
    while j < len(t):
        c = t[j]
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if not stack or stack[-1] != c:
                raise ValueError("unbalanced %r at %d" % (c, j))
            stack.pop()
            if not stack:
                return j
        j += 1
    raise ValueError("unterminated bracket at %d" % i)


def _skip_ws(t: str, i: int, end: int) -> int:
    while i < end and t[i].isspace():
        i += 1
    return i


def _word_at(t: str, i: int) -> str:
    m = re.compile(r"[A-Za-z_]\w*").match(t, i)
    return m.group(0) if m else ""


def _stmt_end(t: str, i: int, end: int) -> int:
    """End (exclusive) of the statement starting at t[i]."""
    if t[i] == "{":
        return _match(t, i) + 1
    w = _word_at(t, i)
    if w in ("if", "for", "while", "switch"):
        k = t.index("(", i)
        m = _match(t, k)
        body = _skip_ws(t, m + 1, end)
        e = _stmt_end(t, body, end)
        if w == "if":
            n = _skip_ws(t, e, end)
            if _word_at(t, n) == "else":
                e = _stmt_end(t, _skip_ws(t, n + 4, end), end)
        return e
    if w == "do":
        body = _skip_ws(t, i + 2, end)
        e = _stmt_end(t, body, end)
        n = _skip_ws(t, e, end)
        return t.index(";", n) + 1
    if w == "else":
        return _stmt_end(t, _skip_ws(t, i + 4, end), end)
    j = i
    while j < end:
        c = t[j]
        if c in "([{":
            j = _match(t, j) + 1
            continue
        if c == ";":
            return j + 1
        j += 1
    raise ValueError("statement without ';' at %d" % i)


def split_block(t: str, a: int, b: int) -> List[Tuple[int, int]]:
    """Statements of a block's contents t[a:b], as (start, end) offsets."""
    out = []
    i = _skip_ws(t, a, b)
    while i < b:
        if t[i] == ";":  # empty statement
            i = _skip_ws(t, i + 1, b)
            continue
        e = _stmt_end(t, i, b)
        out.append((i, e))
        i = _skip_ws(t, e, b)
    return out


# ----------------------------------------------------------------------------
# The model


@dataclass
class Resource:
    name: str
    kind: str  # gmem / async_async / tma_async
    stages: Optional[int]
    stages_span: Optional[Tuple[int, int]]  # the argument of ts::stages(...)
    stages_text: str = ""
    # `, ts::multicast` in the attribute (the comma before it included)
    multicast: Optional[Tuple[int, int]] = None


@dataclass
class Stmt:
    start: int
    end: int
    block: "Block"
    index: int
    text: str  # parse text of the statement


@dataclass
class Block:
    stmts: List[Stmt] = field(default_factory=list)


@dataclass
class Op:
    task: "Task"
    stmt: Stmt
    method: str  # acquire / wait / try_* / commit / release
    handle: str
    resource: str
    role: str  # producer / consumer
    bound: Optional[str]  # variable the op's result is bound to
    arg: str  # argument text
    call_span: Tuple[int, int]  # span of the argument list contents
    section: str  # head / loop / inner (a nested domain loop's body) / tail
    guard: Optional[str]  # None / first / last (of the innermost domain loop around it)
    order: int = 0


@dataclass
class Pdl:
    """A `ts::pdl_wait();` / `ts::pdl_launch_dependents();` statement."""
    stmt: Stmt
    kind: str  # wait / launch
    section: str  # head / loop / inner / tail


@dataclass
class Task:
    name: str
    handles: Dict[str, Tuple[str, str]]  # handle -> (role, resource)
    body: Tuple[int, int]
    ops: List[Op] = field(default_factory=list)
    loop: Optional[Stmt] = None
    loop_var: str = ""
    domain_args: List[Tuple[int, int]] = field(default_factory=list)
    loop_block: Optional[Block] = None
    top: Optional[Block] = None
    stmts: List[Stmt] = field(default_factory=list)  # every statement seen
    pdl: List[Pdl] = field(default_factory=list)  # PDL calls, in source order
    # A ts::domain loop nested directly in the domain loop's body (a k-loop in
    # a tile loop): ops in it have section "inner", its guards test inner_var.
    inner: Optional[Stmt] = None
    inner_var: str = ""
    inner_args: List[Tuple[int, int]] = field(default_factory=list)
    inner_block: Optional[Block] = None
    warps: Optional[int] = None  # ts::warps(first, count): count, when constant
    trips: Optional[int] = None  # constant trip count of the domain loop (None: runtime)
    inner_trips: Optional[int] = None
    # `ts::domain(...).nonempty()`: the loop traps when its range is empty, so
    # it never runs 0 times (the span of `.nonempty()`, for drop_nonempty).
    nonempty: Optional[Tuple[int, int]] = None
    inner_nonempty: Optional[Tuple[int, int]] = None
    # Section ("loop" / "inner") -> the task whose `.nonempty()` domain keeps
    # that loop from running 0 times: this task's own, or a task of its
    # kernel that runs the same domain and certainly evaluates it (an empty
    # range traps the whole kernel there). See _set_traps.
    traps: Dict[str, str] = field(default_factory=dict)

    def var_of(self, section: str) -> str:
        """The variable that first()/last() guards of a section test."""
        return self.inner_var if section == "inner" else self.loop_var

    def loop_of(self, section: str) -> Optional[Stmt]:
        return self.inner if section == "inner" else self.loop

    def block_of(self, section: str) -> Optional[Block]:
        return self.inner_block if section == "inner" else self.loop_block

    def domain_of(self, section: str) -> List[Tuple[int, int]]:
        return self.inner_args if section == "inner" else self.domain_args

    def nonempty_of(self, section: str) -> Optional[Tuple[int, int]]:
        return self.inner_nonempty if section == "inner" else self.nonempty

    def never_empty(self, section: str) -> bool:
        """Whether that loop never runs 0 times in a launch that completes."""
        return section in self.traps


@dataclass
class Kernel:
    name: str
    tasks: List[str]
    # ts::alias<A, B, ...> groups: (phases in order, span of the text between < and >)
    aliases: List[Tuple[List[str], Tuple[int, int]]] = field(default_factory=list)
    grid_dependent: List[str] = field(default_factory=list)
    pdl_waited: bool = False
    args_end: int = 0  # offset of the ')' closing the ts::kernel(...) arguments
    # CTAs per cluster (ts::cluster_shape(x, y, z): x*y*z; 1 without one;
    # None when an extent is not a constant the model can evaluate)
    cluster: Optional[int] = 1
    cluster_x: Optional[int] = 1  # the x extent alone


@dataclass
class Source:
    path: str
    src: str
    text: str  # parse text
    defines: Dict[str, str]
    pragmas: List[Tuple[int, int]]
    resources: Dict[str, Resource]
    tasks: Dict[str, Task]
    kernels: List[Kernel]
    annotations: Dict[str, object]

    def line(self, off: int) -> int:
        return self.src.count("\n", 0, off) + 1


_STAGE_TYPES = r"(?:const\s+)?(?:auto|ts::stage\s*<\s*\w+\s*>|ts::token|token)\s*&?"
_BOUND_OP = re.compile(
    r"^" + _STAGE_TYPES + r"\s*(\w+)\s*=\s*(\w+)\s*\.\s*(acquire|wait|try_acquire|try_wait)\s*\(",
    re.S)
_PLAIN_OP = re.compile(r"^(\w+)\s*\.\s*(acquire|wait|try_acquire|try_wait|commit|release)\s*\(", re.S)
_PDL_CALL = re.compile(r"^(?:::)?ts\s*::\s*pdl_(wait|launch_dependents)\s*\(\s*\)\s*;$", re.S)
_DOMAIN_LOOP = re.compile(
    r"^for\s*\(\s*(?:const\s+)?auto\s*&{0,2}\s*(\w+)\s*:\s*(?:::)?ts::domain\s*\(", re.S)


def is_seed_bug(source: "Source", rt: "Runtime") -> bool:
    cond = source.annotations.get("seed_bug")
    if cond is True:
        return True
    if cond == "open-advances":
        return rt.open_advances
    if cond == "close-advances":
        return not rt.open_advances
    return False


def _annotations(src: str) -> Dict[str, object]:
    ann: Dict[str, object] = {"min_stages": {}, "seed_bug": False}
    for m in re.finditer(r"//\s*mutation:\s*(.*)", src):
        words = m.group(1).split()
        if not words:
            continue
        if words[0] == "min-stages":
            for kv in words[1:]:
                k, _, v = kv.partition("=")
                ann["min_stages"][k] = int(v)
        elif words[0] == "seed-bug":
            # "seed-bug" or "seed-bug if open-advances|close-advances"
            ann["seed_bug"] = words[2] if len(words) > 2 and words[1] == "if" else True
        elif words[0] == "skip":
            ann["skip"] = True
    return ann


def _top_level_args(t: str, a: int, b: int) -> List[Tuple[int, int]]:
    """Comma-separated arguments of t[a:b] (brackets respected), trimmed."""
    args = []
    depth = 0
    start = a
    j = a
    while j < b:
        c = t[j]
        if c in "([{<":
            if c == "<":
                # Template brackets only right after an identifier or ::.
                if not re.search(r"[\w:]\s*$", t[start:j]):
                    j += 1
                    continue
            depth += 1
        elif c in ")]}>":
            if c == ">" and t[j - 1:j] == "-":
                j += 1  # `->`, not a bracket
                continue
            depth -= 1
        elif c == "," and depth == 0:
            args.append((start, j))
            start = j + 1
        j += 1
    args.append((start, b))
    out = []
    for s, e in args:
        while s < e and t[s].isspace():
            s += 1
        while e > s and t[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


def parse(path: str, src: str) -> Source:
    masked = _mask_comments_strings(src)
    text, defines, pragmas, _ = _preprocess(masked)
    resources: Dict[str, Resource] = {}
    for m in re.finditer(r"\[\[\s*ts::resource\s*\(", text):
        po = m.end() - 1
        pc = _match(text, po)
        args = text[po + 1:pc]
        after = re.compile(r"\s*\]\]\s*(\w+)").match(text, pc + 1)
        if not after:
            continue
        name = after.group(1)
        km = re.search(r"ts::(gmem|async_async|tma_async|tma_umma|umma_async)\b", args)
        kind = km.group(1) if km else "?"
        stages = None
        span = None
        stext = ""
        sm = re.search(r"ts::stages\s*\(", args)
        if sm:
            so = po + 1 + sm.end() - 1
            sc = _match(text, so)
            span = (so + 1, sc)
            stext = src[so + 1:sc].strip()
            v = stext
            for _ in range(8):
                if v in defines:
                    v = defines[v].strip()
            try:
                stages = int(eval(re.sub(r"\b(\d+)[uU]\b", r"\1", v), {"__builtins__": {}}, {}))
            except Exception:
                stages = None
        mc = re.search(r"\s*,\s*(?:::)?ts\s*::\s*multicast\b", args)
        resources[name] = Resource(name, kind, stages, span, stext,
                                   (po + 1 + mc.start(), po + 1 + mc.end()) if mc else None)

    tasks: Dict[str, Task] = {}
    for m in re.finditer(r"\[\[\s*ts::task\s*\(", text):
        pc = _match(text, m.end() - 1)
        close = text.index("]]", pc) + 2
        po = text.index("(", close)
        name = re.search(r"(\w+)\s*$", text[close:po]).group(1)
        pe = _match(text, po)
        bo = _skip_ws(text, pe + 1, len(text))
        if text[bo] != "{":
            continue  # a declaration
        be = _match(text, bo)
        handles = {}
        for hm in re.finditer(r"ts::(producer|consumer)\s*<\s*(\w+)\s*>\s*(\w+)?", text[po + 1:pe]):
            if hm.group(3):
                handles[hm.group(3)] = (hm.group(1), hm.group(2))
        task = Task(name, handles, (bo + 1, be))
        wm = re.search(r"ts\s*::\s*warps\s*\(", text[m.end():pc])
        if wm:
            wo = m.end() + wm.end() - 1
            wargs = _top_level_args(text, wo + 1, _match(text, wo))
            task.warps = _const_value(text, defines, text[wargs[-1][0]:wargs[-1][1]]) if wargs else None
        _walk_task(text, src, task, resources)
        tasks[name] = task

    kernels = []
    for m in re.finditer(r"\[\[\s*ts::kernel\s*\(", text):
        po = m.end() - 1
        pc = _match(text, po)
        after = re.compile(r"\s*\]\][^;(]*?(\w+)\s*\(").match(text, pc + 1)
        k = Kernel(after.group(1) if after else "?", [], args_end=pc)
        for s, e in _top_level_args(text, po + 1, pc):
            a = text[s:e]
            if re.fullmatch(r"(?:::)?\w+", a):
                k.tasks.append(a.lstrip(":"))
                continue
            tm = re.match(r"(?:::)?ts\s*::\s*(alias|grid_dependent)\s*<", a)
            if tm and a.endswith(">"):
                lo, hi = s + tm.end(), e - 1
                phases = [text[x:y].lstrip(":") for x, y in _top_level_args(text, lo, hi)]
                if tm.group(1) == "alias":
                    k.aliases.append((phases, (lo, hi)))
                else:
                    k.grid_dependent += phases
            elif re.fullmatch(r"(?:::)?ts\s*::\s*pdl_waited", a):
                k.pdl_waited = True
            cm = re.match(r"(?:::)?ts\s*::\s*cluster_shape\s*\(", a)
            if cm and a.endswith(")"):
                ext = [_const_value(text, defines, text[x:y])
                       for x, y in _top_level_args(text, s + cm.end(), e - 1)]
                k.cluster = None if None in ext else _product(ext)
                k.cluster_x = ext[0] if ext else None
        kernels.append(k)
    _set_traps(text, tasks, kernels)
    return Source(path, src, text, defines, pragmas, resources, tasks, kernels,
                  _annotations(src))


def _reaches_loop(task: "Task", sect: str) -> bool:
    """Whether the task certainly evaluates the domain of that loop (on each
    tile, for a k-loop): no blocking op before it (in the head, and for a
    k-loop in the tile loop's body before the k-loop)."""
    loop = task.loop_of(sect)
    for o in task.ops:
        if o.method not in BLOCKING + TRIES:
            continue
        if o.section == "head" or (sect == "inner" and o.section == "loop" and
                                   o.stmt.start < loop.start):
            return False
    return True


def _set_traps(text: str, tasks: Dict[str, "Task"], kernels: List["Kernel"]):
    """Task.traps: a `.nonempty()` domain loop never runs 0 times (it traps
    first), and neither does the same loop (same section, same domain text,
    so the same trip count) of another task of its only kernel, once the
    trapping task certainly reaches its domain: the trap stops the kernel."""
    for task in tasks.values():
        for sect in ("loop", "inner"):
            if task.nonempty_of(sect) is not None and task.loop_of(sect) is not None:
                task.traps[sect] = task.name
    for k in kernels:
        ks = [tasks[n] for n in k.tasks if n in tasks]
        for sect in ("loop", "inner"):
            for x in ks:
                if sect not in x.traps or x.traps[sect] != x.name or not _reaches_loop(x, sect):
                    continue
                dom = tuple(_one_line(text[a:b]) for a, b in x.domain_of(sect))
                for y in ks:
                    if y is x or sect in y.traps or y.loop_of(sect) is None or \
                            sum(1 for kk in kernels if y.name in kk.tasks) != 1:
                        continue
                    if tuple(_one_line(text[a:b]) for a, b in y.domain_of(sect)) == dom:
                        y.traps[sect] = x.name


def _product(vals: List[int]) -> int:
    out = 1
    for v in vals:
        out *= v
    return out


def _const_value(text: str, defines: Dict[str, str], expr: str, depth: int = 0) -> Optional[int]:
    """An integer constant expression of the file: literals, the file's
    #defines and `constexpr int|unsigned NAME = ...;` declarations; None when
    it is anything else (a launch parameter, a function call)."""
    if depth > 8:
        return None

    def name(m):
        n = m.group(0)
        if n in defines:
            v = _const_value(text, defines, defines[n], depth + 1)
        else:
            d = re.search(r"\bconstexpr\b[^;=(){}]*?\b" + re.escape(n) + r"\s*=\s*([^;{}]+);", text)
            v = _const_value(text, defines, d.group(1), depth + 1) if d else None
        if v is None:
            raise _Unknown(n)
        return "(%d)" % v

    try:
        e = re.sub(r"\b(\d+)[uUlL]*\b", r"\1", expr)
        e = re.sub(r"\b(?!0x)[A-Za-z_]\w*\b", name, e)
        if not re.fullmatch(r"[\s\dxXa-fA-F()+\-*/%<>|&^~]*", e):
            return None
        v = eval(e.replace("/", "//"), {"__builtins__": {}}, {})
        return v if isinstance(v, int) else None
    except Exception:
        return None


_NONEMPTY = re.compile(r"\s*\.\s*nonempty\s*\(\s*\)")


def _nonempty_span(text: str, dc: int) -> Optional[Tuple[int, int]]:
    """The `.nonempty()` right after the `)` of `ts::domain(...)` at dc."""
    m = _NONEMPTY.match(text, dc + 1)
    return (m.start(), m.end()) if m else None


def _walk_task(text: str, src: str, task: Task, resources: Dict[str, Resource]):
    counter = [0]

    def op_of(st: Stmt, section: str, guard: Optional[str]) -> Optional[Op]:
        s = text[st.start:st.end]
        m = _BOUND_OP.match(s)
        bound = None
        if m:
            bound, handle, method = m.group(1), m.group(2), m.group(3)
        else:
            m = _PLAIN_OP.match(s)
            if not m:
                return None
            handle, method = m.group(1), m.group(2)
        if handle not in task.handles:
            return None
        role, res = task.handles[handle]
        po = st.start + m.end() - 1
        pc = _match(text, po)
        if text[pc + 1:st.end].strip() != ";":
            return None  # the op is part of a larger expression
        arg = text[po + 1:pc].strip()
        counter[0] += 1
        return Op(task, st, method, handle, res, role, bound, arg, (po + 1, pc), section,
                  guard, counter[0])

    def block(a: int, b: int, section: str, guard: Optional[str], top: bool,
              outer: bool = False) -> Block:
        blk = Block()
        for idx, (s, e) in enumerate(split_block(text, a, b)):
            st = Stmt(s, e, blk, idx, text[s:e])
            blk.stmts.append(st)
            task.stmts.append(st)
            o = op_of(st, section, guard)
            if o:
                task.ops.append(o)
                continue
            pm = _PDL_CALL.match(st.text)
            if pm:
                # Not a pipeline op: a grid-level wait / trigger (ts-pdl).
                task.pdl.append(Pdl(st, "wait" if pm.group(1) == "wait" else "launch", section))
                continue
            lm = _DOMAIN_LOOP.match(st.text)
            if top and lm and task.loop is None:
                task.loop = st
                task.loop_var = lm.group(1)
                do = s + lm.end() - 1
                dc = _match(text, do)
                task.domain_args = _top_level_args(text, do + 1, dc)
                task.nonempty = _nonempty_span(text, dc)
                hc = _match(text, text.index("(", s))
                bo = _skip_ws(text, hc + 1, e)
                task.trips = _domain_trips(text, task.domain_args)
                if text[bo] == "{":
                    task.loop_block = block(bo + 1, _match(text, bo), "loop", None, False, True)
                else:
                    task.loop_block = block(bo, e, "loop", None, False, True)
                section = "tail"
                continue
            if outer and lm and task.inner is None:
                # A k-loop nested directly in the domain loop's body.
                task.inner = st
                task.inner_var = lm.group(1)
                do = s + lm.end() - 1
                task.inner_args = _top_level_args(text, do + 1, _match(text, do))
                task.inner_nonempty = _nonempty_span(text, _match(text, do))
                task.inner_trips = _domain_trips(text, task.inner_args)
                hc = _match(text, text.index("(", s))
                bo = _skip_ws(text, hc + 1, e)
                if text[bo] == "{":
                    task.inner_block = block(bo + 1, _match(text, bo), "inner", None, False)
                else:
                    task.inner_block = block(bo, e, "inner", None, False)
                continue
            if section in ("loop", "inner") and guard is None and task.var_of(section):
                gm = re.match(r"^if\s*\(\s*" + re.escape(task.var_of(section)) +
                              r"\s*\.\s*(first|last)\s*\(\s*\)\s*\)", st.text)
                if gm:
                    bo = _skip_ws(text, s + gm.end(), e)
                    be = _stmt_end(text, bo, e)
                    if _skip_ws(text, be, e) == e:  # no else
                        if text[bo] == "{":
                            block(bo + 1, be - 1, section, gm.group(1), False)
                        else:
                            block(bo, be, section, gm.group(1), False)
        return blk

    task.top = block(task.body[0], task.body[1], "head", None, True)


# ----------------------------------------------------------------------------
# Mutants


@dataclass
class Mutant:
    file: str
    op: str
    index: int  # occurrence index of this operator in this file
    label: str
    line: int
    what: str
    reason: str
    edits: List[Tuple[int, int, str]]

    @property
    def key(self) -> str:
        return "%s %s %d" % (self.file, self.op, self.index)

    def apply(self, src: str) -> str:
        out = src
        # From the end backwards; edits at one offset keep their list order.
        order = sorted(range(len(self.edits)), key=lambda k: (self.edits[k][0], self.edits[k][1], k),
                       reverse=True)
        for k in order:
            s, e, r = self.edits[k]
            out = out[:s] + r + out[e:]
        return out


def _blank(src: str, s: int, e: int, note: str) -> str:
    """Replacement text for src[s:e] that keeps its line count."""
    return "/* mutation: %s */" % note + "\n" * src.count("\n", s, e)


def _one_line(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


class Ctx:
    def __init__(self, source: Source, rt: Runtime):
        self.s = source
        self.t = source.text
        self.rt = rt

    def s_ops(self) -> List["Op"]:
        """Every pipeline op of the file, in source order."""
        ops = [o for t in self.s.tasks.values() for o in t.ops]
        return sorted(ops, key=lambda o: o.stmt.start)

    def noop_commit(self, o: "Op") -> bool:
        return o.method == "commit" and self.kind(o.resource) in TMA_KINDS and self.rt.tma_commit_noop

    def stmt_src(self, st: Stmt) -> str:
        return self.s.src[st.start:st.end]

    def insert_before(self, st: Stmt) -> int:
        """Where to insert text before a statement: before its #pragma lines."""
        pos = st.start
        for a, b in sorted(self.s.pragmas, reverse=True):
            if b < pos and self.s.src[b:pos].strip() == "":
                pos = a
        return pos

    def kernel_tasks(self, task: Task) -> List[Task]:
        names = []
        for k in self.s.kernels:
            if task.name in k.tasks:
                names += [n for n in k.tasks if n not in names]
        return [self.s.tasks[n] for n in names if n in self.s.tasks]

    def pipelined(self, res: str) -> bool:
        r = self.s.resources.get(res)
        return bool(r and r.kind in PIPELINED_KINDS)

    def kind(self, res: str) -> str:
        r = self.s.resources.get(res)
        return r.kind if r else "?"

    def uses(self, st: Stmt, var: str) -> bool:
        return re.search(r"(?<![\w.])" + re.escape(var) + r"\b", st.text) is not None

    def pairs(self, task: Task):
        """(open op, close op) pairs: a close and the latest open before it."""
        out = []
        for c in task.ops:
            if c.method not in CLOSES:
                continue
            cands = [o for o in task.ops if o.method == OPEN_OF[c.method] and o.handle == c.handle
                     and o.bound and o.bound == c.arg and o.order < c.order]
            if cands:
                out.append((cands[-1], c))
        return out


def _mk(ctx: Ctx, op: str, label: str, at: int, what: str, reason: str, edits) -> Mutant:
    return Mutant(ctx.s.path, op, 0, label, ctx.s.line(at), what, reason, edits)


def op_drop_close(ctx: Ctx):
    for o in ctx.s_ops():
        if o.method in CLOSES and ctx.pipelined(o.resource):
            st = o.stmt
            label, reason = BUG, ("the stage is never handed back: the other side (or the producer's "
                                  "drain) waits forever" if o.method == "release" or ctx.rt.open_advances else
                                  "the cursor stays: the next acquire takes (and arms) the same stage again")
            if ctx.noop_commit(o):
                label, reason = TOLERATED, ("commit() of a tma_async stage does nothing in this runtime: the TMA bytes "
                          "complete the stage")
            yield _mk(ctx, "drop_close", label, st.start, "drop `%s`" % _one_line(ctx.stmt_src(st)),
                      reason,
                      [(st.start, st.end, _blank(ctx.s.src, st.start, st.end, "dropped"))])


def op_dup_close(ctx: Ctx):
    for o in ctx.s_ops():
        if o.method in CLOSES and ctx.pipelined(o.resource):
            st = o.stmt
            label, reason = BUG, ("the stage's barrier gets a second arrival from every thread: its "
                                  "next phase completes early" if ctx.rt.open_advances else
                                  "the cursor moves twice (and the barrier gets a second arrival)")
            if ctx.noop_commit(o):
                label, reason = TOLERATED, ("commit() of a tma_async stage does nothing in this runtime: the TMA bytes "
                          "complete the stage")
            yield _mk(ctx, "dup_close", label, st.start, "duplicate `%s`" % _one_line(ctx.stmt_src(st)),
                      reason,
                      [(st.end, st.end, " " + _one_line(ctx.stmt_src(st)))])


def op_extra_block(ctx: Ctx):
    """A plain blocking op right after an existing one, on the same handle."""
    for o in ctx.s_ops():
        if o.method not in BLOCKING or not ctx.pipelined(o.resource):
            continue
        ins = "%s.%s();" % (o.handle, o.method)
        if ctx.rt.open_advances:
            label, reason = BUG, ("%s() moves the cursor: the extra call takes the next stage, which "
                                  "is never handed back, and every later op takes the wrong stage" % o.method)
        elif o.method == "acquire" and ctx.kind(o.resource) in TMA_KINDS:
            label, reason = BUG, ("acquire() on a tma_async stage arms its transaction bytes: armed "
                                  "twice, the full barrier expects bytes that never come")
        else:
            label, reason = TOLERATED, ("the cursor does not move on %s(): the extra call waits on the "
                                    "same stage's barrier for the same, already completed phase "
                                    "(a no-op at run time)" % o.method)
        yield _mk(ctx, "extra_block", label, o.stmt.start, "add `%s` after `%s`" % (ins, _one_line(ctx.stmt_src(o.stmt))),
                  reason, [(o.stmt.end, o.stmt.end, " " + ins)])


def op_extra_block_next(ctx: Ctx):
    """A plain blocking op right after a close: it takes the next stage."""
    for o in ctx.s_ops():
        if o.method not in CLOSES or not ctx.pipelined(o.resource):
            continue
        blocking = OPEN_OF[o.method]
        same = [x for x in o.task.ops if x.handle == o.handle and x.method == blocking]
        if ctx.rt.open_advances:
            label, reason = BUG, ("%s() moves the cursor: the extra call takes a stage that is never "
                                  "handed back, and every later op takes the wrong stage" % blocking)
        elif blocking == "wait":
            if any(follows(x, o, final=True) for x in same):
                continue  # an early wait for a stage the task waits for anyway
            label, reason = BUG, ("waits for a stage after the task's last one: nothing fills it "
                                  "after the close's last run, the task hangs")
        elif ctx.kind(o.resource) == "tma_async" and any(follows(x, o, final=False) for x in same):
            label, reason = BUG, ("a tma_async acquire() arms the next stage's bytes, and the next "
                                  "acquire arms them again: the full barrier never completes")
        else:
            continue  # harmless: an early acquire, or an armed stage nobody waits for
        ins = "%s.%s();" % (o.handle, blocking)
        yield _mk(ctx, "extra_block_next", label, o.stmt.start,
                  "add `%s` after `%s`" % (ins, _one_line(ctx.stmt_src(o.stmt))), reason,
                  [(o.stmt.end, o.stmt.end, " " + ins)])


# The order the ops of one task run in, for given trip counts: the head,
# then per iteration of the domain loop its body (a nested k-loop's body N
# times in its place), then the tail; first()/last() guards applied.


def _guard_holds(guard: Optional[str], it: int, n: int) -> bool:
    return guard is None or (it == 0 if guard == "first" else it == n - 1)


def _op_runs(task: Task, outer: int, inner: int) -> List[Op]:
    ops = sorted(task.ops, key=lambda o: o.order)
    out = [o for o in ops if o.section == "head"]
    body = [o for o in ops if o.section in ("loop", "inner")]
    for t in range(outer):
        i = 0
        while i < len(body):
            if body[i].section == "loop":
                if _guard_holds(body[i].guard, t, outer):
                    out.append(body[i])
                i += 1
                continue
            j = i
            while j < len(body) and body[j].section == "inner":
                j += 1
            for k in range(inner):
                out += [x for x in body[i:j] if _guard_holds(x.guard, k, inner)]
            i = j
    return out + [o for o in ops if o.section == "tail"]


def _trip_choices(task: Task, hi: int) -> List[Tuple[int, int]]:
    """(outer, inner) trip counts to run: a constant one as it is (at most 64),
    a runtime one 0 .. hi (1 .. hi for a loop that never runs 0 times: a
    `.nonempty()` domain, Task.traps); inner 1 when the task nests no loop."""
    def r(n, present, nonempty):
        if not present:
            return [1]
        return [min(n, 64)] if n is not None else list(range(1 if nonempty else 0, hi + 1))
    return [(a, b) for a in r(task.trips, task.loop is not None, task.never_empty("loop"))
            for b in r(task.inner_trips, task.inner is not None, task.never_empty("inner"))]


def follows(x: Op, o: Op, final: bool) -> bool:
    """Whether op x (of o's task) can run after op o: after o's last run
    (final) or after its first, for some trip counts."""
    for outer, inner in _trip_choices(o.task, 4):
        seq = _op_runs(o.task, outer, inner)
        at = [i for i, y in enumerate(seq) if y is o]
        if at and any(y is x for y in seq[(at[-1] if final else at[0]) + 1:]):
            return True
    return False




def op_move_close(ctx: Ctx):
    """Move a close to just before the latest earlier statement that still uses its stage."""
    for task in ctx.s.tasks.values():
        for opn, cls in ctx.pairs(task):
            if not ctx.pipelined(cls.resource):
                continue
            blk = cls.stmt.block
            if opn.stmt.block is not blk:
                continue
            target = None
            for st in reversed(blk.stmts[opn.stmt.index + 1:cls.stmt.index]):
                if ctx.uses(st, cls.arg):
                    target = st
                    break
            if target is None:
                continue
            passed = blk.stmts[target.index:cls.stmt.index]
            users = [st for st in passed if ctx.uses(st, cls.arg)]
            only_tma_loads = all(re.match(r"^(?:::)?ts::tma::load\s*\(", st.text) for st in users)
            if ctx.noop_commit(cls):
                label, reason = TOLERATED, ("commit() of a tma_async stage does nothing in this runtime: the TMA bytes "
                          "complete the stage")
            elif cls.method == "commit" and ctx.kind(cls.resource) == "tma_async" and only_tma_loads:
                label, reason = TOLERATED, ("a tma_async commit() only moves the cursor; the TMA load "
                                        "still completes the stage's full barrier, so consumers "
                                        "cannot see the stage early")
            elif cls.method == "commit":
                label, reason = BUG, "the stage is published before it is written: consumers read stale data"
            else:
                label, reason = BUG, "the stage is handed back while still read: the producer may overwrite it"
            pos = ctx.insert_before(target)
            text = _one_line(ctx.stmt_src(cls.stmt))
            sep = "\n" if pos != target.start else " "
            yield _mk(ctx, "move_close", label, cls.stmt.start,
                      "move `%s` before line %d `%s`" % (text, ctx.s.line(target.start),
                                                       _one_line(ctx.stmt_src(target))[:60]),
                      reason,
                      [(cls.stmt.start, cls.stmt.end, _blank(ctx.s.src, cls.stmt.start, cls.stmt.end, "moved")),
                       (pos, pos, text + sep)])


def op_guard_close(ctx: Ctx):
    """One unguarded close of a domain loop (or of a nested k-loop: the guard
    then tests the k-loop's variable) alone under `if (i.first())` / `last()`."""
    for o in ctx.s_ops():
        if o.method in CLOSES and ctx.pipelined(o.resource) and o.section in ("loop", "inner") \
                and o.guard is None:
            trips = o.task.inner_trips if o.section == "inner" else o.task.trips
            if trips is not None and trips < 2:
                continue  # the guard holds on every run of the close
            label, reason = BUG, ("the stage taken every iteration is handed back once: with trip count "
                                  "> 1 stages leak (or the cursor falls behind) and a task hangs")
            if o.section == "inner":
                reason = ("the stage taken every k-step is handed back once per run of the nested "
                          "k-loop: with more than one k-step stages leak (or the cursor falls behind) "
                          "and a task hangs")
            if ctx.noop_commit(o):
                label, reason = TOLERATED, ("commit() of a tma_async stage does nothing in this runtime: the TMA bytes "
                          "complete the stage")
            var = o.task.var_of(o.section)
            for g in ("first", "last"):
                yield _mk(ctx, "guard_close", label, o.stmt.start,
                          "guard `%s` under `if (%s.%s())`" % (_one_line(ctx.stmt_src(o.stmt)), var, g),
                          reason,
                          [(o.stmt.start, o.stmt.start, "if (%s.%s()) " % (var, g))])


def op_guard_pair(ctx: Ctx):
    """Guard every open..close block of one resource, in every task of the kernel, alike."""
    for kernel in ctx.s.kernels:
        tasks = [ctx.s.tasks[n] for n in kernel.tasks if n in ctx.s.tasks]
        if len(tasks) != len(kernel.tasks):
            continue
        resources = sorted({o.resource for t in tasks for o in t.ops if ctx.pipelined(o.resource)})
        for res in resources:
            ops = [o for t in tasks for o in t.ops if o.resource == res]
            pairs = [p for t in tasks for p in ctx.pairs(t) if p[0].resource == res]
            ok = bool(pairs) and len(ops) == 2 * len(pairs)
            # Every block in the domain loop's body, or every one in the body
            # of a nested k-loop (guarded by the k-loop's variable).
            sect = pairs[0][0].section if pairs else ""
            for opn, cls in pairs:
                ok = ok and opn.section == sect and cls.section == sect and sect in ("loop", "inner") \
                    and opn.guard is None and cls.guard is None and opn.stmt.block is cls.stmt.block \
                    and opn.stmt.block is opn.task.block_of(sect)
                if not ok:
                    break
                a, b = opn.stmt.start, cls.stmt.end
                # Only ops of this resource inside (at any depth), and never the
                # nested k-loop (it must stay directly in the loop body).
                ok = all(o.resource == res for o in opn.task.ops if a <= o.stmt.start < b) and \
                    not (opn.task.inner is not None and a <= opn.task.inner.start < b)
                # Nor a first()/last() guard: guards do not nest (guide, "Device API").
                var = re.escape(opn.task.var_of(sect) or "")
                ok = ok and not (var and re.search(r"\bif\s*\(\s*!?\s*%s\s*\.\s*(?:first|last)\s*\(" % var,
                                                   ctx.t[a:b]))
            # The blocks wrapped in one task must not overlap.
            spans = sorted((p[0].stmt.start, p[1].stmt.end) for p in pairs)
            ok = ok and all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
            if not ok:
                continue
            # first()/last() agree across tasks only over the same domain.
            # (A nested k-loop's guards: the same outer and inner domains.)
            doms = {(tuple(ctx.s.src[a:b] for a, b in p[0].task.domain_args),
                     tuple(ctx.s.src[a:b] for a, b in p[0].task.inner_args) if sect == "inner" else ())
                    for p in pairs}
            if len(doms) != 1:
                continue
            hoists = []  # (decl stmt, the pair's open stmt)
            for opn, cls in pairs:
                h = _hoistable(ctx, opn, cls)
                if h is None:
                    ok = False
                    break
                hoists += [(d, opn.stmt) for d in h]
            if not ok:
                continue
            for g in ("first", "last"):
                edits = []
                for d, before in hoists:
                    edits.append((d.start, d.end, _blank(ctx.s.src, d.start, d.end, "hoisted")))
                    edits.append((before.start, before.start, _one_line(ctx.stmt_src(d)) + " "))
                for opn, cls in pairs:
                    edits.append((opn.stmt.start, opn.stmt.start, "if (%s.%s()) { " % (opn.task.var_of(sect), g)))
                    edits.append((cls.stmt.end, cls.stmt.end, " }"))
                first = min(p[0].stmt.start for p in pairs)
                yield _mk(ctx, "guard_pair", VALID, first,
                          "guard every %s block of '%s' under `if (%s.%s())` in %s%s" % (
                              "/".join(sorted({p[0].method + ".." + p[1].method for p in pairs})), res,
                              pairs[0][0].task.var_of(sect), g,
                              ", ".join(sorted({p[0].task.name for p in pairs})),
                              " (hoisting %s)" % ", ".join("`%s`" % _one_line(ctx.stmt_src(d)) for d, _ in hoists)
                              if hoists else ""),
                          "every task of '%s' takes and hands back the same stages on the same "
                          "iteration: balanced (what the kernel computes changes, its "
                          "synchronisation does not)" % res, edits)


_KEYWORDS = {"return", "if", "for", "while", "do", "switch", "else", "case", "goto", "break",
             "continue", "throw", "delete", "new", "sizeof", "co_return", "co_await"}
_DECL = re.compile(r"^(?:(?:const|constexpr|static|volatile|unsigned|signed|long|short)\s+)*"
                   r"([A-Za-z_][\w:]*)(?:\s*<[^;=]*>)?\s*[*&]*\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*"
                   r"(=|;|\{)", re.S)


def _decl_name(st: Stmt) -> Optional[str]:
    m = _DECL.match(st.text)
    if not m or m.group(1) in _KEYWORDS or m.group(2) in _KEYWORDS:
        return None
    return m.group(2)


def _hoistable(ctx: Ctx, opn: Op, cls: Op) -> Optional[List[Stmt]]:
    """Declarations inside open..close that later statements use, when they can
    move before the guard (they use nothing declared inside); None if one cannot."""
    blk = opn.stmt.block
    inner = blk.stmts[opn.stmt.index + 1:cls.stmt.index]
    after = blk.stmts[cls.stmt.index + 1:]
    declared = [opn.bound] if opn.bound else []
    out = []
    for st in inner:
        name = _decl_name(st)
        if not name:
            continue
        if any(ctx.uses(a, name) for a in after):
            if any(ctx.uses(st, d) for d in declared):
                return None
            out.append(st)
        declared.append(name)
    return out


def op_shrink_stages(ctx: Ctx):
    for r in sorted(ctx.s.resources.values(), key=lambda r: r.stages_span or (0, 0)):
        if r.kind == "gmem" or r.stages is None or r.stages < 2 or r.stages_span is None:
            continue
        s, e = r.stages_span
        new = str(r.stages - 1) if re.fullmatch(r"\d+", r.stages_text) else "%s - 1" % r.stages_text
        need = ctx.s.annotations["min_stages"].get(r.name, 1)
        if r.stages - 1 < need:
            label, reason = BUG, "the schedule needs %d stages of '%s' (annotated): deadlock" % (need, r.name)
        else:
            label, reason = VALID, "%d stages of '%s' suffice: the schedule needs %d (%s)" % (
                r.stages - 1, r.name, need, "annotated" if r.name in ctx.s.annotations["min_stages"]
                else "default: no '// mutation: min-stages' annotation")
        yield _mk(ctx, "shrink_stages", label, s, "ts::stages(%s) -> ts::stages(%s) on '%s'" % (r.stages_text, new, r.name),
                  reason, [(s, e, new)])


def _bumped(et: str) -> str:
    """A domain bound plus one."""
    if re.fullmatch(r"\d+", et):
        return str(int(et) + 1)
    if re.fullmatch(r"[\w.\->\[\]]+", et):
        return et + " + 1"
    return "(%s) + 1" % et


def op_domain_bound(ctx: Ctx):
    """In one task only: the domain loop's end + 1, its step -> 1; the same
    for a nested k-loop's bounds."""
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        if task.loop is None or not task.domain_args:
            continue
        t = ctx.s.src
        for sect in ("loop", "inner"):
            args = task.domain_args if sect == "loop" else task.inner_args
            if not args:
                continue
            # The ops whose trip count changes: for the domain loop every op
            # in its body (a nested k-loop's too), for the k-loop its own.
            ops = [o for o in task.ops if ctx.pipelined(o.resource) and
                   (o.section == "inner" or (sect == "loop" and o.section == "loop"))]
            partners = [x for x in ctx.kernel_tasks(task) if x is not task and
                        {o.resource for o in x.ops} & {o.resource for o in ops}]
            if not partners:
                continue
            end_arg = args[0] if len(args) == 1 else args[1]
            et = t[end_arg[0]:end_arg[1]]
            if sect == "inner" and task.inner_trips is not None and \
                    not any(o.guard is None for o in ops if o.resource in
                            {r.resource for x in partners for r in x.ops}):
                # A constant k-loop whose exchanges are all first()/last()
                # guarded: one more k-step runs them as often as before.
                continue
            if sect == "loop":
                reason = ("task '%s' exchanges stages in its loop with %s: different trip counts for some "
                          "launch leave a stage unconsumed or a wait unfilled" % (
                              task.name, ", ".join("'%s'" % x.name for x in partners)))
            else:
                reason = ("task '%s' exchanges stages in its nested k-loop with %s: a different number "
                          "of k-steps per tile (for some launch) leaves a stage unconsumed or a wait "
                          "unfilled, and shifts every later tile's stages (tasks that exchange stages "
                          "must nest alike: ts-domain)" % (
                              task.name, ", ".join("'%s'" % x.name for x in partners)))
            what = "domain" if sect == "loop" else "nested k-loop domain"
            new = _bumped(et)
            yield _mk(ctx, "domain_bound", BUG, end_arg[0],
                      "task '%s': %s end `%s` -> `%s`" % (task.name, what, et, new), reason,
                      [(end_arg[0], end_arg[1], new)])
            if len(args) == 3 and t[args[2][0]:args[2][1]].strip() != "1":
                st = t[args[2][0]:args[2][1]]
                yield _mk(ctx, "domain_bound", BUG, args[2][0],
                          "task '%s': %s step `%s` -> `1`" % (task.name, what, st), reason,
                          [(args[2][0], args[2][1], "1")])


def op_domain_bound_alike(ctx: Ctx):
    """In every task of a kernel that nests a k-loop: the k-loop's end + 1,
    alike (every such task of the kernel has the same k-loop bounds)."""
    for kernel in ctx.s.kernels:
        tasks = _kernel_tasks_of(ctx, kernel)
        if not tasks:
            continue
        nested = [x for x in tasks if x.inner is not None and x.inner_args]
        if not nested:
            continue
        t = ctx.s.src
        doms = {tuple(t[a:b] for a, b in x.inner_args) for x in nested}
        if len(doms) != 1:
            continue
        edits = []
        for x in nested:
            args = x.inner_args
            end_arg = args[0] if len(args) == 1 else args[1]
            edits.append((end_arg[0], end_arg[1], _bumped(t[end_arg[0]:end_arg[1]])))
        et = t[edits[0][0]:edits[0][1]]
        yield _mk(ctx, "domain_bound_alike", VALID, edits[0][0],
                  "kernel '%s': nested k-loop domain end `%s` -> `%s` in %s" % (
                      kernel.name, et, edits[0][2], ", ".join("'%s'" % x.name for x in nested)),
                  "every task that nests a k-loop runs one more k-step per tile, alike: stages are "
                  "still taken and handed back in matching numbers (what the kernel computes "
                  "changes, its synchronisation does not)", edits)


def _stage_classes(ctx: Ctx, tasks: List[Task]) -> List[List[Task]]:
    """The tasks that exchange stages, grouped: two tasks sharing a pipelined
    resource are in one class (the pairs whose inner counts must agree)."""
    classes: List[Tuple[set, List[Task]]] = []
    for t in tasks:
        res = {o.resource for o in t.ops if ctx.pipelined(o.resource)}
        joined = [c for c in classes if c[0] & res]
        merged = (set(res), [t])
        for c in joined:
            merged[0].update(c[0])
            merged[1][:0] = c[1]
            classes.remove(c)
        classes.append(merged)
    return [c[1] for c in classes]


def op_domain_bound_pair(ctx: Ctx):
    """In one class of tasks that exchange stages, when the kernel has more
    than one with nested k-loops: that class's k-loop end + 1 in each of its
    tasks, the other classes unchanged."""
    for kernel in ctx.s.kernels:
        tasks = _kernel_tasks_of(ctx, kernel) or []
        classes = [c for c in _stage_classes(ctx, tasks)
                   if all(x.inner is not None and x.inner_args for x in c) and len(c) > 1]
        if len(classes) < 2:
            continue
        t = ctx.s.src
        for cls in classes:
            edits = []
            for x in cls:
                end_arg = x.inner_args[0] if len(x.inner_args) == 1 else x.inner_args[1]
                edits.append((end_arg[0], end_arg[1], _bumped(t[end_arg[0]:end_arg[1]])))
            if len({t[a:b] for a, b, _ in edits}) != 1:
                continue
            yield _mk(ctx, "domain_bound_pair", VALID, edits[0][0],
                      "kernel '%s': k-loop end `%s` -> `%s` in %s only" % (
                          kernel.name, t[edits[0][0]:edits[0][1]], edits[0][2],
                          ", ".join("'%s'" % x.name for x in cls)),
                      "the tasks that exchange these stages still run the same k-steps; the other "
                      "pairs' counts are theirs", edits)


def _acquire_runs_once_early(o: Op, stages: int) -> bool:
    """Whether a forged acquire can only ever take a stage that was never used:
    for every trip count it runs at most once, after fewer than `stages`
    acquires of the same handle."""
    for outer, inner in _trip_choices(o.task, stages + 2):
        seq = _op_runs(o.task, outer, inner)
        at = [i for i, y in enumerate(seq) if y is o]
        if len(at) > 1:
            return False
        if at and sum(1 for y in seq[:at[0]] if y.handle == o.handle and y.method == "acquire") + 1 > stages:
            return False
    return True


def op_forge_token(ctx: Ctx):
    for o in ctx.s_ops():
        if o.method not in BLOCKING or not ctx.pipelined(o.resource):
            continue
        s, e = o.call_span
        if o.method == "wait":
            label, reason = BUG, "the consumer skips the full-barrier wait and reads a stage before it is filled"
        else:
            stages = ctx.s.resources[o.resource].stages or 1
            if _acquire_runs_once_early(o, stages):
                label, reason = TOLERATED, ("this acquire runs once and takes one of the first %d stages, "
                                        "which start empty: skipping the wait is harmless" % stages)
            else:
                label, reason = BUG, "the producer skips the empty-barrier wait and overwrites a stage still being read"
        yield _mk(ctx, "forge_token", label, o.stmt.start,
                  "`%s.%s(%s)` -> `%s.%s(ts::token(true))`" % (o.handle, o.method, o.arg, o.handle, o.method),
                  reason, [(s, e, "ts::token(true)")])


def _token_uses(ctx: Ctx, tr: Op):
    return [o for o in tr.task.ops if o.method == BLOCK_OF_TRY[tr.method] and o.handle == tr.handle
            and o.arg == tr.bound]


def op_reuse_token(ctx: Ctx):
    for tr in ctx.s_ops():
        if tr.method not in TRIES or not tr.bound or tr.section not in ("loop", "inner") or \
                tr.guard is not None:
            continue
        if tr.stmt.block is not tr.task.block_of(tr.section) or not _token_uses(ctx, tr):
            continue
        # Before the loop whose body it is in (a nested k-loop: before the
        # k-loop, so one token per tile serves every k-step).
        loop = tr.task.loop_of(tr.section)
        text = _one_line(ctx.stmt_src(tr.stmt))
        pos = ctx.insert_before(loop)
        sep = "\n" if pos != loop.start else " "
        yield _mk(ctx, "reuse_token", BUG, tr.stmt.start, "hoist `%s` before the loop" % text,
                  "one token taken once is passed to every iteration's %s: once it said ready, every "
                  "later %s skips its barrier wait" % (BLOCK_OF_TRY[tr.method], BLOCK_OF_TRY[tr.method]),
                  [(tr.stmt.start, tr.stmt.end, _blank(ctx.s.src, tr.stmt.start, tr.stmt.end, "hoisted")),
                   (pos, pos, text + sep)])


def op_drop_after_try(ctx: Ctx):
    for tr in ctx.s_ops():
        if tr.method not in TRIES or not tr.bound:
            continue
        for o in _token_uses(ctx, tr):
            st = o.stmt
            yield _mk(ctx, "drop_after_try", BUG, st.start, "drop `%s` (keep `%s`)" % (
                _one_line(ctx.stmt_src(st)), _one_line(ctx.stmt_src(tr.stmt))),
                "a try only tests: without the blocking op the stage is never taken",
                [(st.start, st.end, _blank(ctx.s.src, st.start, st.end, "dropped"))])


# ----------------------------------------------------------------------------
# Aliasing (ts::alias) and programmatic dependent launch (ts::pdl_*)


def _const_trips(ctx: Ctx, task: Task) -> Optional[int]:
    """The trip count of the task's domain loop when its bounds are integer
    literals; None when it depends on the launch."""
    vals = []
    for a, b in task.domain_args:
        m = re.fullmatch(r"(-?\d+)[uU]?", ctx.t[a:b].strip())
        if not m:
            return None
        vals.append(int(m.group(1)))
    if len(vals) == 1:
        vals = [0] + vals
    if len(vals) == 2:
        vals.append(1)
    if len(vals) != 3 or vals[2] <= 0:
        return None
    return len(range(*vals))


def _kernel_tasks_of(ctx: Ctx, kernel: Kernel) -> Optional[List[Task]]:
    tasks = [ctx.s.tasks[n] for n in kernel.tasks if n in ctx.s.tasks]
    return tasks if len(tasks) == len(kernel.tasks) else None


def _streams_in_loop(task: Task, res: str, ctx: Ctx) -> bool:
    """Whether the task takes stages of `res` on every iteration (an unguarded
    blocking op in the loop; bracketing hands them back in the same
    iteration) of a loop that runs twice for some launch."""
    if task.loop is None:
        return False
    for o in task.ops:
        if o.resource == res and o.section in ("loop", "inner") and o.guard is None and \
                o.method in BLOCKING:
            # Runs twice for some launch: the loops around it multiply.
            runs = [task.trips] + ([task.inner_trips] if o.section == "inner" else [])
            if all(n is not None for n in runs) and runs[0] * (runs[1] if len(runs) > 1 else 1) < 2:
                continue
            if any(n == 0 for n in runs):
                continue
            return True
    return False


def op_alias_live(ctx: Ctx):
    """Declare two resources that stream through the same loops one buffer."""
    for kernel in ctx.s.kernels:
        tasks = _kernel_tasks_of(ctx, kernel)
        if not tasks:
            continue
        aliased = {r for phases, _ in kernel.aliases for r in phases}
        live = {}
        for t in tasks:
            for o in t.ops:
                if ctx.pipelined(o.resource) and o.resource not in aliased and \
                        _streams_in_loop(t, o.resource, ctx):
                    live.setdefault(o.resource, set()).add(t.name)
        # Both sides (a producer and a consumer) of each must stream it.
        names = [r for r in sorted(live, key=lambda r: ctx.s.resources[r].stages_span or (0, 0))
                 if {o.role for t in tasks if t.name in live[r] for o in t.ops if o.resource == r}
                 == {"producer", "consumer"}]
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ins = ", ts::alias<%s, %s>" % (a, b)
                yield _mk(ctx, "alias_live", BUG, kernel.args_end,
                          "kernel '%s': add `ts::alias<%s, %s>`" % (kernel.name, a, b),
                          "'%s' (in %s) and '%s' (in %s) stream through domain loops that run "
                          "together: with one base, a stage of one is written while a stage of the "
                          "other that shares its bytes is still in use (both at the base)" % (
                              a, ", ".join(sorted(live[a])), b, ", ".join(sorted(live[b]))),
                          [(kernel.args_end, kernel.args_end, ins)])


def op_alias_reverse(ctx: Ctx):
    """Reverse the phase order of a ts::alias."""
    for kernel in ctx.s.kernels:
        for phases, (lo, hi) in kernel.aliases:
            if len(phases) < 2 or phases == phases[::-1]:
                continue
            # The layout (plugin/plan/Layout.cpp) gives an alias group one base
            # whatever the order: the generated kernel is the same. The order
            # only states which phase lives first (docs/verification.md,
            # ts-race), so the reversed declaration is a false statement the
            # GPU never sees.
            yield _mk(ctx, "alias_reverse", TOLERATED, lo,
                      "kernel '%s': `ts::alias<%s>` -> `ts::alias<%s>`" % (
                          kernel.name, ", ".join(phases), ", ".join(phases[::-1])),
                      "declares the phases in the wrong order (ts::alias lists them in the order "
                      "their lifetimes follow each other), but the layout gives the group one "
                      "base whatever the order: the generated kernel is unchanged",
                      [(lo, hi, ", ".join(phases[::-1]))])


def _pdl_kernels(ctx: Ctx, task: Task) -> List[Kernel]:
    """Kernels that run the task and whose PDL order the verifier checks."""
    return [k for k in ctx.s.kernels if task.name in k.tasks and not k.pdl_waited]


def _dependent_uses(ctx: Ctx, task: Task) -> List[str]:
    """Grid-dependent resources the task must wait for (ts-pdl): ones it
    produces with ops, or gmem ones it has a handle to (when it has ops)."""
    out = []
    for k in _pdl_kernels(ctx, task):
        for r in k.grid_dependent:
            roles = {role for role, res in task.handles.values() if res == r}
            if ctx.pipelined(r):
                hit = "producer" in roles and any(o.resource == r for o in task.ops)
            else:
                hit = bool(roles) and bool(task.ops)
            if hit and r not in out:
                out.append(r)
    return out


def op_launch_early(ctx: Ctx):
    """Move a ts::pdl_launch_dependents() to the very start of its task."""
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        if not _pdl_kernels(ctx, task) or not task.top.stmts:
            continue
        first = task.top.stmts[0]
        for pc in task.pdl:
            if pc.kind != "launch" or pc.stmt is first:
                continue
            text = _one_line(ctx.stmt_src(pc.stmt))
            pos = ctx.insert_before(first)
            sep = "\n" if pos != first.start else " "
            yield _mk(ctx, "launch_early", BUG, pc.stmt.start,
                      "task '%s': move `%s` to the start of the task" % (task.name, text),
                      "the launch runs first in '%s', ordered after no ts::pdl_wait(): dependent "
                      "grids may launch before any task of this grid waited for its predecessor "
                      "(the documented ts-pdl rule)" % task.name,
                      [(pc.stmt.start, pc.stmt.end, _blank(ctx.s.src, pc.stmt.start, pc.stmt.end, "moved")),
                       (pos, pos, text + sep)])


def op_drop_pdl_wait(ctx: Ctx):
    """Delete the ts::pdl_wait() of a task that touches grid-dependent data."""
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        deps = _dependent_uses(ctx, task)
        waits = [pc for pc in task.pdl if pc.kind == "wait"]
        if not deps or len(waits) != 1:
            continue
        st = waits[0].stmt
        yield _mk(ctx, "drop_pdl_wait", BUG, st.start,
                  "task '%s': drop `%s`" % (task.name, _one_line(ctx.stmt_src(st))),
                  "'%s' touches %s, which the previous grid writes, without waiting for that grid: "
                  "it may read data not yet written" % (task.name, ", ".join("'%s'" % r for r in deps)),
                  [(st.start, st.end, _blank(ctx.s.src, st.start, st.end, "dropped"))])


def op_late_pdl_wait(ctx: Ctx):
    """Move a head ts::pdl_wait() to just after the domain loop."""
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        deps = _dependent_uses(ctx, task)
        waits = [pc for pc in task.pdl if pc.kind == "wait"]
        if not deps or len(waits) != 1 or waits[0].section != "head" or task.loop is None:
            continue
        if _const_trips(ctx, task) == 0:
            continue
        in_loop = [r for r in deps if any((o.section == "loop" or (o.section == "inner" and
                                                                    task.inner_trips != 0)) and
                                          o.guard is None and
                                          (o.resource == r or not ctx.pipelined(r)) for o in task.ops)]
        if not in_loop:
            continue
        st = waits[0].stmt
        text = _one_line(ctx.stmt_src(st))
        yield _mk(ctx, "late_pdl_wait", BUG, st.start,
                  "task '%s': move `%s` after the domain loop" % (task.name, text),
                  "'%s' touches %s in every iteration, now before it waits for the previous grid, "
                  "which writes it: the loop may read data not yet written" % (
                      task.name, ", ".join("'%s'" % r for r in in_loop)),
                  [(st.start, st.end, _blank(ctx.s.src, st.start, st.end, "moved")),
                   (task.loop.end, task.loop.end, " " + text)])


# ----------------------------------------------------------------------------
# Asynchronous MMA readers (ts::wgmma)
#
# A model of one task's wgmma groups, written from the PTX rules and not from
# the verifier: `ts::wgmma::mma*` joins the open group and reads the stages
# it names (directly, through a pointer into one, or through a descriptor
# made from one); `commit_group()` closes the open group (uncommitted MMAs
# belong to no group, so no wait covers them); `wait_group<N>()` returns once
# every committed group but the newest N is complete. Handing a stage back
# (release(s), release_oldest(): the oldest stage the task holds) while a
# group that read it is not complete lets the producer overwrite what an MMA
# still reads. A carried stage variable (`ts::stage<R> prev;`, no
# initializer) holds no stage each time its declaration runs; `prev = s;`
# makes it hold the stage s holds, and `release(prev)` / `commit(prev)`
# hands back that stage. Handing back a variable that holds nothing is a
# fault: the default-constructed stage has index 0, so the release arrives
# on slot 0's empty barrier, a stage the task may not hold (the producer
# may refill it while it is read) and the stage it meant is never handed
# back. The task is run alone at the trip counts that matter (a
# constant one as it is; a runtime one 0 .. 4 + the largest N, or 0 .. 3 for
# a domain loop with another nested in it, whose trip count is then the same
# on every outer iteration), with `i.first()` / `i.last()` guards and their
# negations applied. An `if` the model does not know is allowed around
# wait_group only: "always" runs it, "never" skips it, "last" runs it on the
# last iteration of its innermost loop only (the epilogue's
# `if (k == k_tiles - 1)` of a launch with one tile). Every other op under
# such an `if`, a wgmma group op or a pipeline op inside a larger statement
# or a loop that is not a ts::domain, a stage handed back out of order: the
# model cannot decide, and no mutant is made.

_MMA_ISSUE = re.compile(r"\bwgmma\s*::\s*mma\w*\s*\(")
_MMA_GROUP_ANY = re.compile(r"\bwgmma\s*::\s*(?:commit_group|wait_group)\b")
_MMA_COMMIT = re.compile(r"^(?:::)?ts\s*::\s*wgmma\s*::\s*commit_group\s*\(\s*\)\s*;$", re.S)
_MMA_WAIT = re.compile(r"^(?:::)?ts\s*::\s*wgmma\s*::\s*wait_group\s*<\s*(\d+)\s*>\s*\(\s*\)\s*;$", re.S)
_OLDEST_OP = re.compile(r"^(\w+)\s*\.\s*release_oldest\s*\(\s*\)\s*;$", re.S)
# A carried stage variable: declared with no initializer, assigned a stage
# variable in a statement of its own (the verifier refuses any other form).
_CARRY_DECL = re.compile(r"^(?:::)?ts\s*::\s*stage\s*<\s*(\w+)\s*>\s*(\w+)\s*;$", re.S)
_CARRY_COPY = re.compile(r"^(\w+)\s*=\s*(\w+)\s*;$", re.S)
_CLOSE_OP = re.compile(r"^(\w+)\s*\.\s*(commit|release)\s*\(\s*(\w+)\s*\)\s*;$", re.S)
_TAKE_PLAIN = re.compile(r"^(\w+)\s*\.\s*(acquire|wait)\s*\([^;]*\)\s*;$", re.S)
_HANDLE_CALL = re.compile(r"(?<![\w.>])(\w+)\s*\.\s*(acquire|wait|try_acquire|try_wait|commit|release|"
                          r"release_oldest)\s*\(")


@dataclass
class MGuardIf:
    """An `if (i.first())`-style statement around an op (!i.first() etc.)."""
    start: int
    end: int
    head_end: int  # just past the `)` of the condition
    body: Tuple[int, int]
    body_stmts: List[Tuple[int, int]]
    lit: Tuple[str, str, bool]  # (loop variable, "first" | "last", True unless negated)
    has_else: bool
    block: int = 0  # the statement list the `if` stands in (MEv.block)


@dataclass
class MLoop:
    """A ts::domain loop: its variable, constant trip count (None: runtime)
    and body (events and nested loops, in order)."""
    var: str
    trips: Optional[int]
    start: int
    body: List[object] = field(default_factory=list)
    end: int = 0  # end of the `for` statement
    body_open: Optional[int] = None  # offset of the body's `{` (None: no braces)
    nested: bool = False  # holds another domain loop
    nonempty: bool = False  # never runs 0 times (`.nonempty()`, Task.traps)


@dataclass
class MEv:
    kind: str  # take / mma / group_commit / group_wait / close / oldest / carry_decl / carry
    start: int
    end: int
    section: str  # head / loop / tail
    guard: Tuple[Tuple[str, str, bool], ...]
    unknown: Optional[str]  # the unmodelled condition around it
    loop: Optional[MLoop] = None  # innermost domain loop around it
    top: bool = False  # a statement of that loop body's own block
    encl: Optional[MGuardIf] = None  # innermost first/last guard
    block: int = 0  # the statement list it stands in (one id per block walked)
    handle: str = ""
    var: str = ""  # take: the stage variable; close: its argument; carry*: the carried variable
    method: str = ""  # take: acquire/wait; close: commit/release
    n: int = 0  # group_wait
    reads: Tuple[str, ...] = ()  # mma: stage variables it reads
    src: str = ""  # carry: the stage variable copied (`var = src;`)


@dataclass
class MmaModel:
    src: "Source"
    task: Task
    body: List[object]  # the task body: events and domain loops
    events: List[MEv]  # every kept event, in source order
    loops: List[MLoop]
    why_not: Optional[str]  # why the model cannot decide


def _domain_trips(t: str, args: List[Tuple[int, int]]) -> Optional[int]:
    vals = []
    for a, b in args:
        m = re.fullmatch(r"(-?\d+)[uU]?", t[a:b].strip())
        if not m:
            return None
        vals.append(int(m.group(1)))
    if len(vals) == 1:
        vals = [0] + vals
    if len(vals) == 2:
        vals.append(1)
    if len(vals) != 3 or vals[2] <= 0:
        return None
    return len(range(*vals))


def _mma_model(src: "Source", task: Task, all_handles: bool = False) -> MmaModel:
    """The task's events (domain loops, guards, takes, hand-backs, MMAs and
    group ops, carried stage variables' declarations and copies). Only the
    handles whose stages MMAs read are kept, and a task without MMAs has no
    events, unless `all_handles` (drop_nonempty and the carry operators run
    the same walk over every handle of a task)."""
    t = src.text
    events: List[MEv] = []
    loops: List[MLoop] = []
    stage_vars: List[str] = []
    derived: Dict[str, set] = {}
    carried: Dict[str, str] = {}  # carried stage variable -> its handle
    problems: List[str] = []
    handles = task.handles
    st_ = {"section": "head"}
    blocks = [0]  # ids of the statement lists walked (MEv.block)

    def used(var: str, text: str) -> bool:
        return re.search(r"(?<![\w.])" + re.escape(var) + r"\b", text) is not None

    def refs(text: str) -> Tuple[str, ...]:
        out = {v for v in stage_vars if used(v, text)}
        for d, vs in derived.items():
            if used(d, text):
                out |= vs
        return tuple(sorted(out))

    class Ctx_:
        def __init__(self, out, guard, unknown, encl, loop, lvars, top):
            self.out, self.guard, self.unknown, self.encl = out, guard, unknown, encl
            self.loop, self.lvars, self.top = loop, lvars, top
            self.block = 0

        def sub(self, **kw):
            c = Ctx_(self.out, self.guard, self.unknown, self.encl, self.loop, self.lvars, False)
            for k, v in kw.items():
                setattr(c, k, v)
            return c

    def add(c, kind, s, e, **kw):
        ev = MEv(kind, s, e, "loop" if c.loop else st_["section"], c.guard, c.unknown, c.loop,
                 c.top, c.encl, c.block, **kw)
        events.append(ev)
        c.out.append(ev)

    def body(bo, be, c):
        if t[bo] == "{":
            walk(bo + 1, be - 1, c)
        else:
            walk(bo, be, c)

    def plain(s, e, st, c):
        line = src.line(s)
        m = _BOUND_OP.match(st)
        if m and m.group(2) in handles:
            pc = _match(t, s + m.end() - 1)
            if t[pc + 1:e].strip() != ";":
                problems.append("line %d: a pipeline op inside a larger statement" % line)
            elif m.group(3) in BLOCKING:
                add(c, "take", s, e, handle=m.group(2), var=m.group(1), method=m.group(3))
                stage_vars.append(m.group(1))
                derived.pop(m.group(1), None)
            return  # a try_ only tests a stage
        if carry(s, e, st, c):
            return
        for rx, kind in ((_TAKE_PLAIN, "take"), (_CLOSE_OP, "close"), (_OLDEST_OP, "oldest")):
            m = rx.match(st)
            if m and m.group(1) in handles:
                if kind == "take":
                    add(c, kind, s, e, handle=m.group(1), method=m.group(2))
                elif kind == "close":
                    add(c, kind, s, e, handle=m.group(1), method=m.group(2), var=m.group(3))
                else:
                    add(c, kind, s, e, handle=m.group(1))
                return
        if _MMA_COMMIT.match(st):
            add(c, "group_commit", s, e)
            return
        m = _MMA_WAIT.match(st)
        if m:
            add(c, "group_wait", s, e, n=int(m.group(1)))
            return
        if _MMA_GROUP_ANY.search(st):
            problems.append("line %d: a wgmma group op inside a larger statement" % line)
            return
        if any(h in handles for h, _ in _HANDLE_CALL.findall(st)):
            problems.append("line %d: a pipeline op inside a larger statement" % line)
            return
        if assigns_stage(st):
            problems.append("line %d: an assignment to a stage variable the model does not follow"
                            % line)
            return
        if _MMA_ISSUE.search(st):
            add(c, "mma", s, e, reads=refs(st))
            return
        name = _decl_name(Stmt(s, e, None, 0, st))
        if name:
            r = refs(st)
            if r:
                derived[name] = set(r)
            else:
                derived.pop(name, None)

    def carry(s, e, st, c) -> bool:
        """A carried variable's declaration or copy: an event (True)."""
        m = _CARRY_DECL.match(st)
        if m:
            hs = [h for h, (_, r) in handles.items() if r == m.group(1)]
            if len(hs) != 1:
                problems.append("line %d: a carried stage variable of '%s', of which the task has "
                                "%d handles" % (src.line(s), m.group(1), len(hs)))
                return True
            carried[m.group(2)] = hs[0]
            stage_vars.append(m.group(2))
            derived.pop(m.group(2), None)
            add(c, "carry_decl", s, e, handle=hs[0], var=m.group(2))
            return True
        m = _CARRY_COPY.match(st)
        if m and m.group(1) in carried:
            add(c, "carry", s, e, handle=carried[m.group(1)], var=m.group(1), src=m.group(2))
            return True
        return False

    def assigns_stage(st) -> bool:
        """Whether the statement assigns a stage variable (the verifier
        refuses that anywhere but as `prev = s;` of its own, prev carried)."""
        return any(re.search(r"(?<![\w.])" + re.escape(v) + r"\s*=(?!=)", st) for v in stage_vars)

    def walk(a, b, c):
        blocks[0] += 1
        c.block = blocks[0]
        for s, e in split_block(t, a, b):
            st = t[s:e]
            w = _word_at(t, s)
            dm = _DOMAIN_LOOP.match(st)
            if dm:
                do = s + dm.end() - 1
                args = _top_level_args(t, do + 1, _match(t, do))
                if any(used(v, t[x:y]) for v in c.lvars for x, y in args):
                    problems.append("line %d: a domain that depends on an outer loop" % src.line(s))
                hc = _match(t, t.index("(", s))
                bo = _skip_ws(t, hc + 1, e)
                loop = MLoop(dm.group(1), _domain_trips(t, args), s, end=e,
                             body_open=bo if t[bo] == "{" else None,
                             nonempty=_nonempty_span(t, _match(t, do)) is not None or
                             any(lp is not None and lp.start == s and task.never_empty(sect)
                                 for sect, lp in (("loop", task.loop), ("inner", task.inner))))
                if c.loop:
                    c.loop.nested = True
                loops.append(loop)
                c.out.append(loop)
                inner = c.sub(out=loop.body, encl=None, loop=loop, lvars=c.lvars + (loop.var,),
                              top=True)
                if t[bo] == "{":
                    walk(bo + 1, _match(t, bo), inner)
                else:
                    walk(bo, e, inner)
                if not c.loop:
                    st_["section"] = "tail"
                continue
            if w == "if":
                po = t.index("(", s)
                pc = _match(t, po)
                cond = _one_line(t[po + 1:pc])
                bo = _skip_ws(t, pc + 1, e)
                be = _stmt_end(t, bo, e)
                n = _skip_ws(t, be, e)
                els = None
                if _word_at(t, n) == "else":
                    els = (_skip_ws(t, n + 4, e), e)
                gm = re.fullmatch(r"(!?)\s*(\w+)\s*\.\s*(first|last)\s*\(\s*\)", cond)
                if gm and gm.group(2) in c.lvars:
                    lit = (gm.group(2), gm.group(3), gm.group(1) == "")
                    inner = split_block(t, bo + 1, be - 1) if t[bo] == "{" else [(bo, be)]
                    info = MGuardIf(s, e, pc + 1, (bo, be), inner, lit, els is not None, c.block)
                    body(bo, be, c.sub(guard=c.guard + (lit,), encl=info))
                    if els:
                        body(els[0], els[1], c.sub(guard=c.guard + ((lit[0], lit[1], not lit[2]),),
                                                   encl=None))
                else:
                    body(bo, be, c.sub(unknown=c.unknown or cond))
                    if els:
                        body(els[0], els[1], c.sub(unknown=c.unknown or ("else of " + cond)))
                continue
            if t[s] == "{":
                walk(s + 1, e - 1, c.sub())
                continue
            if w in ("for", "while", "do", "switch", "else"):
                if _MMA_GROUP_ANY.search(st) or any(h in handles for h, _ in _HANDLE_CALL.findall(st)) \
                        or _DOMAIN_LOOP.search(st) or assigns_stage(st):
                    problems.append("line %d: wgmma group or pipeline ops inside a loop that is not a "
                                    "ts::domain" % src.line(s))
                elif _MMA_ISSUE.search(st):
                    # A loop of MMAs (`for (kk ...) mma(...)`): it issues them.
                    add(c, "mma", s, e, reads=refs(st))
                continue
            plain(s, e, st, c)

    top: List[object] = []
    walk(task.body[0], task.body[1], Ctx_(top, (), None, None, None, (), False))
    read = {v for ev in events if ev.kind == "mma" for v in ev.reads}
    hs = {ev.handle for ev in events if ev.kind in ("take", "carry_decl") and ev.var in read}

    def keep(ev):
        return all_handles or ev.kind in ("mma", "group_commit", "group_wait") or ev.handle in hs

    def prune(items):
        out = []
        for it in items:
            if isinstance(it, MLoop):
                it.body = prune(it.body)
                out.append(it)
            elif keep(it):
                out.append(it)
        return out

    top = prune(top)
    events = [ev for ev in events if keep(ev)]
    if not all_handles and not any(ev.kind == "mma" for ev in events):
        events = []
    for ev in events:
        if ev.unknown and ev.kind != "group_wait":
            problems.append("line %d: under `if (%s)`, which the model does not know" % (
                src.line(ev.start), ev.unknown))
    return MmaModel(src, task, top, events, loops, "; ".join(problems) or None)


class _OutOfModel(Exception):
    pass


class _Fault(Exception):
    pass


def _mma_run(model: MmaModel, trips: Dict[int, int], mode: str) -> List[str]:
    """What goes wrong when the task runs alone with these trip counts (per
    loop, by id), the first problem only; raises _OutOfModel when the run
    leaves what the model follows before anything went wrong."""
    src = model.src
    st = {"committed": 0, "done": 0}  # groups closed / seen complete by a wait
    insts = []  # [take event, read group, read event, hand-back event, when taken]
    held: Dict[str, List[int]] = {}
    # stage variable -> the instance it holds (None: a carried variable
    # that holds nothing)
    bound: Dict[str, Optional[int]] = {}
    env: Dict[str, Tuple[int, int]] = {}  # loop variable -> (iteration, trips)

    def runs(ev):
        for var, which, pos in ev.guard:
            it, n = env[var]
            if ((it == 0) if which == "first" else (it == n - 1)) != pos:
                return False
        if ev.unknown:
            if mode == "never":
                return False
            if mode == "last" and ev.loop is not None:
                it, n = env[ev.loop.var]
                return it == n - 1
        return True

    def ln(ev):
        return src.line(ev.start)

    def code(ev):
        return _one_line(src.src[ev.start:ev.end])

    def res(h):
        return model.task.handles[h][1]

    def when(ev):
        if not env:
            return ev.section
        return "iteration " + ", ".join("%s = %d" % (v, it) for v, (it, _) in env.items())

    def give_back(ev, i):
        take, group, reader, back, taken = insts[i]
        if back is not None:
            raise _Fault("%s: `%s` (line %d) hands back the stage taken at line %d (%s) a second time" % (
                when(ev), code(ev), ln(ev), ln(take), taken))
        if ev.method != "commit" and group is not None and group >= st["done"]:
            how = ("its group was never committed" if group >= st["committed"] else
                   "%d group(s) committed since, and the last wait_group leaves %d pending" % (
                       st["committed"] - group, st["committed"] - st["done"]))
            raise _Fault("%s: `%s` (line %d) hands back the stage taken at line %d (%s) while the MMA "
                         "of line %d may still read it (%s)" % (
                             when(ev), code(ev), ln(ev), ln(take), taken, ln(reader), how))
        q = held[ev.handle]
        if q[0] != i:
            raise _OutOfModel("a stage handed back before an older one")
        q.pop(0)
        insts[i][3] = ev

    def step(ev):
        if ev.kind == "group_commit":
            st["committed"] += 1
        elif ev.kind == "group_wait":
            st["done"] = max(st["done"], st["committed"] - ev.n)
        elif ev.kind == "take":
            insts.append([ev, None, None, None, when(ev)])
            held.setdefault(ev.handle, []).append(len(insts) - 1)
            if ev.var:
                bound[ev.var] = len(insts) - 1
        elif ev.kind == "mma":
            for v in ev.reads:
                if bound.get(v) is None:
                    continue
                inst = insts[bound[v]]
                if inst[3] is not None:
                    raise _Fault("%s: the MMA of line %d reads the stage handed back at line %d" % (
                        when(ev), ln(ev), ln(inst[3])))
                inst[1], inst[2] = st["committed"], ev
        elif ev.kind == "close":
            if ev.var not in bound:
                raise _OutOfModel("`%s` hands back a stage the model does not follow" % code(ev))
            if bound[ev.var] is None:
                raise _Fault("%s: `%s` (line %d) hands back `%s`, which holds no stage here: the "
                             "default stage has index 0, so the release arrives on slot 0 of '%s', "
                             "a stage the task does not hold there (its producer may refill it "
                             "while it is read), and the stage meant is never handed back" % (
                                 when(ev), code(ev), ln(ev), ev.var, res(ev.handle)))
            give_back(ev, bound[ev.var])
        elif ev.kind == "carry_decl":
            bound[ev.var] = None  # each run of the declaration empties it
        elif ev.kind == "carry":
            if ev.src not in bound:
                raise _OutOfModel("`%s` copies a stage the model does not follow" % code(ev))
            bound[ev.var] = bound[ev.src]
        elif ev.kind == "oldest":
            q = held.get(ev.handle, [])
            if not q:
                raise _Fault("%s: `%s` (line %d) runs while the task holds no stage of '%s': it hands "
                             "back a stage it never waited for" % (when(ev), code(ev), ln(ev), res(ev.handle)))
            give_back(ev, q[0])

    def block(items):
        for item in items:
            if isinstance(item, MLoop):
                n = trips[id(item)]
                for it in range(n):
                    env[item.var] = (it, n)
                    block(item.body)
                env.pop(item.var, None)
            elif runs(item):
                step(item)

    try:
        block(model.body)
    except _Fault as f:
        return [str(f)]
    for h, q in held.items():
        if q:
            take = insts[q[0]][0]
            return ["the stage of '%s' taken at line %d (%s) is never handed back: the producer "
                    "waits for it forever" % (res(h), ln(take), insts[q[0]][4])]
    return []


def _mma_trip_choices(model: MmaModel) -> Optional[List[Dict[int, int]]]:
    deepest = max([ev.n for ev in model.events if ev.kind == "group_wait"] or [0])
    ranges = []
    for loop in model.loops:
        if loop.trips is not None:
            if loop.trips > 4096:
                return None
            ranges.append([loop.trips])
        else:
            ranges.append(list(range(1 if loop.nonempty else 0,
                                     4 if loop.nested else 5 + min(deepest, 8))))
    out = [{}]
    for loop, r in zip(model.loops, ranges):
        out = [{**d, id(loop): n} for d in out for n in r]
    return out


def _mma_verdict(model: MmaModel) -> Tuple[Optional[str], str]:
    """(BUG, why) / (VALID, why) / (None, why the model cannot decide)."""
    if model.why_not:
        return None, model.why_not
    if not model.events:
        return None, "the task issues no MMA on a stage"
    choices = _mma_trip_choices(model)
    if choices is None:
        return None, "constant trip count too large to run"

    def counts(trips):
        return ", ".join("%s = %d" % (lp.var, trips[id(lp)]) for lp in model.loops) or "no loop"

    def first_error(mode):
        for trips in choices:
            try:
                err = _mma_run(model, trips, mode)
            except _OutOfModel:
                continue
            if err:
                return "trip counts %s; %s" % (counts(trips), err[0])
        return None

    err = first_error("always")
    if err:
        return BUG, err
    err = first_error("last")
    if err:
        conds = sorted({ev.unknown for ev in model.events if ev.unknown})
        return BUG, "%s (the wait_group under %s counted on the last iteration only, as for a " \
                    "launch where that condition holds there alone)" % (
                        err, ", ".join("`if (%s)`" % c for c in conds))
    try:
        if all(not _mma_run(model, trips, "never") for trips in choices):
            return VALID, ("every stage is handed back once, oldest first, and none while an MMA "
                           "group that read it may be running")
    except _OutOfModel as e:
        return None, str(e)
    return None, "safe only through a wait_group under a condition the model does not know"


def _mma_models(ctx: Ctx) -> List[MmaModel]:
    out = []
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        model = _mma_model(ctx.s, task)
        if model.events:
            out.append(model)
    return out


def _mma_mutant(ctx: Ctx, model: MmaModel, name: str, want, at: int, what: str, why: str, edits,
                all_handles: bool = False):
    """The mutant, labelled by the model run on the mutated text; None when
    the verdict is not one the operator makes (`want`) or cannot be decided."""
    probe = Mutant(ctx.s.path, name, 0, "", 0, "", "", edits)
    try:
        mutated = parse(ctx.s.path, probe.apply(ctx.s.src))
        task = mutated.tasks.get(model.task.name)
        if task is None:
            return None
        label, reason = _mma_verdict(_mma_model(mutated, task, all_handles))
    except (ValueError, IndexError):
        return None
    if label not in want:
        return None
    return _mk(ctx, name, label, at, what, "%s: %s" % (why, reason), edits)


def _blank_stmt(ctx: Ctx, ev: MEv, note: str):
    return (ev.start, ev.end, _blank(ctx.s.src, ev.start, ev.end, note))


def op_mma_drop_commit(ctx: Ctx):
    """Delete a `ts::wgmma::commit_group();`."""
    for model in _mma_models(ctx):
        for ev in model.events:
            if ev.kind != "group_commit":
                continue
            m = _mma_mutant(ctx, model, "mma_drop_commit", (BUG,), ev.start,
                            "task '%s': drop `%s`" % (model.task.name, _one_line(ctx.s.src[ev.start:ev.end])),
                            "the MMAs stay in no group, which no wait_group waits for",
                            [_blank_stmt(ctx, ev, "dropped")])
            if m:
                yield m


def _wait_digits(ctx: Ctx, ev: MEv) -> Tuple[int, int]:
    m = re.compile(r"wait_group\s*<\s*(\d+)").search(ctx.t, ev.start, ev.end)
    return m.start(1), m.end(1)


def op_mma_raise_wait(ctx: Ctx):
    """wait_group<N> -> wait_group<N + 1>."""
    for model in _mma_models(ctx):
        for ev in model.events:
            if ev.kind != "group_wait":
                continue
            a, b = _wait_digits(ctx, ev)
            m = _mma_mutant(ctx, model, "mma_raise_wait", (BUG,), ev.start,
                            "task '%s': `wait_group<%d>` -> `wait_group<%d>` (line %d)" % (
                                model.task.name, ev.n, ev.n + 1, ctx.s.line(ev.start)),
                            "one more group may still run after the wait", [(a, b, str(ev.n + 1))])
            if m:
                yield m


def op_mma_lower_wait(ctx: Ctx):
    """wait_group<N> -> wait_group<N - 1> (N >= 1): waits longer."""
    for model in _mma_models(ctx):
        for ev in model.events:
            if ev.kind != "group_wait" or ev.n < 1:
                continue
            a, b = _wait_digits(ctx, ev)
            m = _mma_mutant(ctx, model, "mma_lower_wait", (VALID,), ev.start,
                            "task '%s': `wait_group<%d>` -> `wait_group<%d>` (line %d)" % (
                                model.task.name, ev.n, ev.n - 1, ctx.s.line(ev.start)),
                            "the wait returns later (slower, never wrong)", [(a, b, str(ev.n - 1))])
            if m:
                yield m


def op_mma_drop_wait(ctx: Ctx):
    """Delete a `ts::wgmma::wait_group<N>();`."""
    for model in _mma_models(ctx):
        for ev in model.events:
            if ev.kind != "group_wait":
                continue
            m = _mma_mutant(ctx, model, "mma_drop_wait", (BUG,), ev.start,
                            "task '%s': drop `%s` (line %d)" % (
                                model.task.name, _one_line(ctx.s.src[ev.start:ev.end]), ctx.s.line(ev.start)),
                            "nothing waits for the groups this wait covered",
                            [_blank_stmt(ctx, ev, "dropped")])
            if m:
                yield m


def _carried_vars(model: MmaModel) -> Dict[str, MEv]:
    """Carried stage variable -> its declaration."""
    return {ev.var: ev for ev in model.events if ev.kind == "carry_decl"}


def _lag_back(model: MmaModel, ev: MEv) -> bool:
    """A hand-back of a stage kept from an earlier iteration: release_oldest(),
    or release(v) / commit(v) of a carried variable v."""
    return ev.kind == "oldest" or (ev.kind == "close" and ev.var in _carried_vars(model))


def _unit_in(ev: MEv, block: int) -> Optional[Tuple[int, int]]:
    """The statement of that block that holds the event: the event itself,
    or the first/last guard directly around it (moved with its body)."""
    if ev.block == block:
        return ev.start, ev.end
    if ev.encl is not None and ev.encl.block == block:
        return ev.encl.start, ev.encl.end
    return None


def op_mma_unguard_oldest(ctx: Ctx):
    """Take `h.release_oldest();` or `h.release(prev);` (prev carried) out of
    its `if (!i.first())`."""
    for model in _mma_models(ctx):
        for ev in model.events:
            g = ev.encl
            if not _lag_back(model, ev) or g is None or ev.loop is None or \
                    g.lit != (ev.loop.var, "first", False) or g.has_else:
                continue
            text = _one_line(ctx.s.src[ev.start:ev.end])
            if g.body_stmts == [(ev.start, ev.end)]:
                # The guard's only statement: drop the `if (...)` (braces
                # stay, a plain block).
                edits = [(g.start, g.head_end, _blank(ctx.s.src, g.start, g.head_end, "unguarded"))]
            else:
                edits = [_blank_stmt(ctx, ev, "moved"), (g.end, g.end, " " + text)]
            m = _mma_mutant(ctx, model, "mma_unguard_oldest", (BUG,), ev.start,
                            "task '%s': move `%s` out of `if (!%s.first())`" % (
                                model.task.name, text, ev.loop.var),
                            "the lag's hand-back now runs on the first iteration too", edits)
            if m:
                yield m


def op_mma_release_newest(ctx: Ctx):
    """`h.release_oldest()` (or `h.release(prev)`, prev carried) -> `h.release(s)`,
    s the stage the iteration waited for."""
    for model in _mma_models(ctx):
        for k, ev in enumerate(model.events):
            if not _lag_back(model, ev) or ev.method == "commit" or ev.loop is None:
                continue
            takes = [x for x in model.events[:k] if x.kind == "take" and x.handle == ev.handle
                     and x.loop is ev.loop and x.top and not x.guard and not x.unknown and x.var]
            if not takes:
                continue
            var = takes[-1].var
            cm = re.compile(r"release_oldest\s*\(\s*\)" if ev.kind == "oldest" else
                            r"release\s*\(\s*" + re.escape(ev.var) + r"\s*\)").search(ctx.t, ev.start, ev.end)
            m = _mma_mutant(ctx, model, "mma_release_newest", (BUG,), ev.start,
                            "task '%s': `%s` -> `%s.release(%s);`" % (
                                model.task.name, _one_line(ctx.s.src[ev.start:ev.end]), ev.handle, var),
                            "the lag hands back the stage the MMAs just issued read, not the previous one",
                            [(cm.start(), cm.end(), "release(%s)" % var)])
            if m:
                yield m


def op_mma_release_early(ctx: Ctx):
    """Move a hand-back (with the first/last guard directly around it) to just
    before the wait_group that precedes it in its block."""
    for model in _mma_models(ctx):
        for ev in model.events:
            if ev.kind not in ("close", "oldest"):
                continue
            # What moves: the hand-back, when a wait_group precedes it in its
            # own block; else the first/last `if` around it (the lag's
            # `if (!k.first())` after its wait_group<1>).
            w, unit = None, None
            for block in (ev.block, ev.encl.block if ev.encl else None):
                u = _unit_in(ev, block) if block is not None else None
                waits = [x for x in model.events if u and x.kind == "group_wait" and
                         x.block == block and x.end <= u[0]]
                if waits:
                    w, unit = waits[-1], u
                    break
            if w is None:
                continue
            a, b = unit
            text = _one_line(ctx.t[a:b])  # comments masked: the unit becomes one line
            m = _mma_mutant(ctx, model, "mma_release_early", (BUG,), ev.start,
                            "task '%s': move `%s` before `%s` (line %d)" % (
                                model.task.name, text, _one_line(ctx.s.src[w.start:w.end]),
                                ctx.s.line(w.start)),
                            "the stage is handed back before the wait for its MMAs' group",
                            [(a, b, _blank(ctx.s.src, a, b, "moved")), (w.start, w.start, text + " ")])
            if m:
                yield m


# ----------------------------------------------------------------------------
# Carried stage variables (`ts::stage<R> prev;`, `prev = s;`)
#
# Operators on the declaration and the copy of a carried variable, labelled
# by the model above run on the mutated text with every handle of the task
# (a task without MMAs is followed too): releasing a variable that holds
# nothing, a stage twice, one an MMA may still read, or leaving one held is
# BUG; a mutant where every stage is still handed back once, after its MMAs,
# is VALID; one the model cannot follow is not made.


def _carry_models(ctx: Ctx) -> List[MmaModel]:
    out = []
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        model = _mma_model(ctx.s, task, all_handles=True)
        if _carried_vars(model):
            out.append(model)
    return out


def _carry_mutant(ctx: Ctx, model: MmaModel, name: str, at: int, what: str, why: str, edits):
    """[the mutant] labelled by the model, or [] when it cannot decide."""
    m = _mma_mutant(ctx, model, name, (BUG, VALID), at, what, why, edits, all_handles=True)
    return [m] if m else []


def op_carry_first(ctx: Ctx):
    """Move `prev = s;` before the hand-back of prev that precedes it in its block."""
    for model in _carry_models(ctx):
        for c in model.events:
            if c.kind != "carry":
                continue
            units = [u for u in (_unit_in(ev, c.block) for ev in model.events
                                 if ev.kind == "close" and ev.var == c.var and ev.end <= c.start) if u]
            if not units:
                continue
            a = units[-1][0]
            text = _one_line(ctx.s.src[c.start:c.end])
            pos = ctx.insert_before(Stmt(a, units[-1][1], None, 0, ""))
            yield from _carry_mutant(ctx, model, "carry_first", c.start,
                                "task '%s': move `%s` before line %d `%s`" % (
                                    model.task.name, text, ctx.s.line(a), _one_line(ctx.t[a:units[-1][1]])[:60]),
                                "the variable takes this iteration's stage before the previous one "
                                "is handed back",
                                [_blank_stmt(ctx, c, "moved"),
                                 (pos, pos, text + ("\n" if pos != a else " "))])


def op_drop_carry(ctx: Ctx):
    """Delete `prev = s;`."""
    for model in _carry_models(ctx):
        for c in model.events:
            if c.kind == "carry":
                yield from _carry_mutant(ctx, model, "drop_carry", c.start, "task '%s': drop `%s`" % (
                    model.task.name, _one_line(ctx.s.src[c.start:c.end])),
                    "the variable keeps what it held before", [_blank_stmt(ctx, c, "dropped")])


def op_carry_decl_in_loop(ctx: Ctx):
    """Move `ts::stage<R> prev;` to the start of the body of the innermost loop
    that copies into it (where every use of prev still compiles)."""
    for model in _carry_models(ctx):
        for d in _carried_vars(model).values():
            loops = {id(c.loop): c.loop for c in model.events if c.kind == "carry" and c.var == d.var}
            if len(loops) != 1:
                continue
            lp = next(iter(loops.values()))
            if lp is None or lp is d.loop or lp.body_open is None:
                continue
            body = model.task.body
            uses = [m.start() + body[0] for m in re.finditer(
                r"(?<![\w.])" + re.escape(d.var) + r"\b", ctx.t[body[0]:body[1]])]
            if any(not (d.start <= u < d.end or lp.start <= u < lp.end) for u in uses):
                continue  # used after the loop: out of scope there, it would not compile
            text = _one_line(ctx.s.src[d.start:d.end])
            yield from _carry_mutant(ctx, model, "carry_decl_in_loop", d.start,
                                "task '%s': move `%s` into the loop at line %d" % (
                                    model.task.name, text, ctx.s.line(lp.start)),
                                "the variable holds nothing at the start of every iteration",
                                [_blank_stmt(ctx, d, "moved"),
                                 (lp.body_open + 1, lp.body_open + 1, " " + text)])


def op_carry_decl_hoist(ctx: Ctx):
    """Move `ts::stage<R> prev;` from a loop body to the start of the task."""
    for model in _carry_models(ctx):
        first = model.task.top.stmts[0] if model.task.top and model.task.top.stmts else None
        for d in _carried_vars(model).values():
            if d.loop is None or first is None:
                continue
            text = _one_line(ctx.s.src[d.start:d.end])
            pos = ctx.insert_before(first)
            yield from _carry_mutant(ctx, model, "carry_decl_hoist", d.start,
                                "task '%s': move `%s` to the start of the task" % (model.task.name, text),
                                "the variable is emptied once, not on every iteration of its loop",
                                [_blank_stmt(ctx, d, "moved"),
                                 (pos, pos, text + ("\n" if pos != first.start else " "))])


# ----------------------------------------------------------------------------
# Clusters and TMA multicast; `.nonempty()` domains
#
# What the runtime does (include/ts/detail.h, pipe; include/ts/tma.h): a
# ts::multicast resource's stages have the mask of every CTA of the
# kernel's cluster (ts::cluster_shape(x, y, z): C = x*y*z CTAs), and every
# consumer's release arrives on each CTA's empty barrier; any other resource
# has the mask 1 (this CTA) and releases reach this CTA only. A stage's full
# barrier expects the whole stage's bytes in every CTA. `load_multicast(dst,
# &map, {c...}, s.barrier())` writes the CTAs of the stage's mask (a plain load
# where the mask is 1); `load_multicast<Mask>(...)` writes the CTAs of
# Mask (bit i: rank i), whatever the resource. `ts::domain(a, b).nonempty()`
# traps (stops the whole kernel) when the range is empty.

_MCAST_CALL = re.compile(r"(?<![\w:])(?:(?:::)?ts\s*::\s*)?tma\s*::\s*load_multicast\b")
_BARRIER_ARG = re.compile(r"(\w+)\s*(?:\.|->)\s*barrier\s*\(\s*\)")


@dataclass
class McastLoad:
    """A `ts::tma::load_multicast[<Mask>](...)` call in a task."""
    task: Task
    start: int  # the call
    name_end: int  # just past `load_multicast`: where `<Mask>` goes
    mask: Optional[str]  # the explicit mask's text, None without one
    resource: Optional[str]  # the resource of the stage whose barrier it names


def _mcast_loads(ctx: Ctx) -> List[McastLoad]:
    out = []
    t = ctx.t
    for task in sorted(ctx.s.tasks.values(), key=lambda x: x.body):
        for m in _MCAST_CALL.finditer(t, task.body[0], task.body[1]):
            j = _skip_ws(t, m.end(), task.body[1])
            mask = None
            if t[j] == "<":
                k = t.index(">", j)
                mask = _one_line(t[j + 1:k])
                j = _skip_ws(t, k + 1, task.body[1])
            if t[j] != "(":
                continue
            args = _top_level_args(t, j + 1, _match(t, j))
            res = None
            bm = _BARRIER_ARG.fullmatch(t[args[-1][0]:args[-1][1]].strip()) if args else None
            if bm:
                for o in task.ops:
                    if o.bound == bm.group(1) and o.method in ("acquire", "wait"):
                        res = o.resource
            out.append(McastLoad(task, m.start(), m.end(), mask, res))
    return out


def _kernels_of(ctx: Ctx, task: Task) -> List[Kernel]:
    return [k for k in ctx.s.kernels if task.name in k.tasks]


def op_drop_multicast(ctx: Ctx):
    """Remove `ts::multicast` from a resource that a task fills with a
    multicast load in a kernel whose cluster has more than one CTA."""
    loads = _mcast_loads(ctx)
    for r in sorted(ctx.s.resources.values(), key=lambda r: r.multicast or (0, 0)):
        if r.multicast is None:
            continue
        hits = [(ld, k) for ld in loads if ld.resource == r.name for k in _kernels_of(ctx, ld.task)
                if k.cluster is not None and k.cluster > 1]
        if not hits:
            continue
        why = []
        plain = [(ld, k) for ld, k in hits if ld.mask is None]
        masked = [(ld, k) for ld, k in hits if ld.mask is not None]
        if plain:
            ld, k = plain[0]
            why.append("the stages of '%s' get the mask of this CTA only, so `load_multicast` (line %d, "
                       "task '%s', kernel '%s' in clusters of %d CTAs) becomes a plain load: no peer "
                       "receives this CTA's share, and every CTA's full barrier waits for the bytes its "
                       "peers no longer send (a hang)" % (
                           r.name, ctx.s.line(ld.start), ld.task.name, k.name, k.cluster))
        if masked:
            ld, k = masked[0]
            why.append("`load_multicast<%s>` (line %d, kernel '%s') still writes its peers' stages, "
                       "but their consumers now hand a stage back to their own CTA only: this CTA "
                       "may refill a peer's stage while the peer still reads it" % (
                           ld.mask, ctx.s.line(ld.start), k.name))
        a, b = r.multicast
        yield _mk(ctx, "drop_multicast", BUG, a, "drop `ts::multicast` from '%s'" % r.name,
                  "; ".join(why), [(a, b, "")])


def op_mask_outside(ctx: Ctx):
    """`load_multicast(` -> `load_multicast<M>(`: M = 1 << C names rank C
    of a cluster of C CTAs (BUG); M = (1 << C) - 1 is the stage's own mask
    (VALID)."""
    for ld in _mcast_loads(ctx):
        if ld.mask is not None or ld.resource is None:
            continue
        cs = {k.cluster for k in _kernels_of(ctx, ld.task)}
        if len(cs) != 1 or None in cs:
            continue
        c = cs.pop()
        r = ctx.s.resources[ld.resource]
        if r.multicast is None and c > 1:
            continue  # the unmutated load is already wrong (drop_multicast's fault)
        name = "load_multicast"
        out = 1 << c
        yield _mk(ctx, "mask_outside", BUG, ld.start,
                  "task '%s': `%s(` -> `%s<0x%x>(` (cluster of %d CTA%s)" % (
                      ld.task.name, name, name, out, c, "s" if c > 1 else ""),
                  "mask 0x%x names CTA rank %d, but the cluster has ranks 0 to %d: the load targets a "
                  "CTA that does not exist, and no CTA of the cluster receives this share, so their "
                  "stages' full barriers wait for its bytes forever" % (out, c, c - 1),
                  [(ld.name_end, ld.name_end, "<0x%x>" % out)])
        own = (1 << c) - 1
        yield _mk(ctx, "mask_outside", VALID, ld.start,
                  "task '%s': `%s(` -> `%s<0x%x>(` (cluster of %d CTA%s)" % (
                      ld.task.name, name, name, own, c, "s" if c > 1 else ""),
                  "mask 0x%x is every CTA of the cluster of %d: the mask the stage of '%s' already "
                  "has%s, so the load writes the same CTAs" % (
                      own, c, r.name, " (ts::multicast)" if c > 1 else " (one CTA: a plain load)"),
                  [(ld.name_end, ld.name_end, "<0x%x>" % own)])


def op_drop_nonempty(ctx: Ctx):
    """Remove `.nonempty()` from a domain loop (a k-loop, or a tile loop)."""
    for task in sorted(ctx.s.tasks.values(), key=lambda t: t.body):
        for sect in ("loop", "inner"):
            span = task.nonempty_of(sect)
            if span is None:
                continue
            what = "task '%s': drop `.nonempty()` from its %s" % (
                task.name, "nested k-loop" if sect == "inner" else "domain loop")
            edits = [(span[0], span[1], "")]
            label, reason = _nonempty_verdict(ctx, task, sect, edits)
            if label is None:
                continue
            yield _mk(ctx, "drop_nonempty", label, span[0], what, reason, edits)


def _nonempty_verdict(ctx: Ctx, task: Task, sect: str, edits) -> Tuple[Optional[str], str]:
    """VALID when another task's `.nonempty()` over the same domain still
    keeps the loop from running 0 times (Task.traps, on the mutated text), or
    when nothing after the loop depends on it having run; BUG when, with the
    loop run 0 times, an op of the task hands back a stage the loop was to
    take (the task's events, every handle, run alone as the MMA model runs
    them); None when the model cannot tell."""
    probe = Mutant(ctx.s.path, "drop_nonempty", 0, "", 0, "", "", edits)
    try:
        mutated = parse(ctx.s.path, probe.apply(ctx.s.src))
        mt = mutated.tasks.get(task.name)
        if mt is None or mt.loop_of(sect) is None:
            return None, ""
        if mt.never_empty(sect):
            return VALID, ("task '%s' still runs the same domain with `.nonempty()` and reaches it "
                           "unblocked: an empty range traps the kernel there, so this loop never runs "
                           "0 times in a launch that completes" % mt.traps[sect])
        model = _mma_model(mutated, mt, all_handles=True)
    except (ValueError, IndexError):
        return None, ""
    if model.why_not:
        return None, model.why_not
    loop = [lp for lp in model.loops if lp.start == mt.loop_of(sect).start]
    choices = _mma_trip_choices(model)
    if len(loop) != 1 or choices is None:
        return None, ""
    loop = loop[0]

    def counts(trips):
        return ", ".join("%s = %d" % (lp.var, trips[id(lp)]) for lp in model.loops)

    fault = None
    for trips in choices:
        try:
            err = _mma_run(model, trips, "always")
        except _OutOfModel:
            return None, ""
        if err and trips[id(loop)] > 0:
            return None, ""  # the model finds a fault where the loop runs: it cannot judge
        if err and fault is None:
            fault = "trip counts %s; %s" % (counts(trips), err[0])
    if fault is None:
        return VALID, ("with the loop run 0 times the task's ops still pair up: nothing after it "
                       "depends on it having run")
    return BUG, ("the loop may now run 0 times, and an op after it depends on it having run: %s"
                 % fault)


# The CTAs of a cluster share a multicast stage, so each must load its own
# share (its rank in the destination and the coordinates) and all must run
# the same iterations (a loop over clusters, not CTAs).
_RANK_CALL = r"(?:(?:::)?ts\s*::\s*)?cluster\s*::\s*rank\s*\(\s*\)"
_RANK_DECL = re.compile(r"\b(?:const\s+)?(?:unsigned|int|auto)\s+(\w+)\s*=\s*" + _RANK_CALL + r"\s*;")
_CLUSTER_ID = re.compile(r"(?<![\w:])(?:(?:::)?ts\s*::\s*)?cluster\s*::\s*(id|count)\s*\(\s*\)")


def _multicast_kernel(ctx: Ctx, task: Task) -> Optional[Kernel]:
    """The one kernel of task, if its cluster has more than one CTA."""
    ks = _kernels_of(ctx, task)
    if len(ks) != 1 or ks[0].cluster is None or ks[0].cluster < 2:
        return None
    return ks[0]


def _rank_loads(ctx: Ctx):
    """(load, kernel, rank term, arguments) of each multicast load, without
    a mask, of a ts::multicast resource in a kernel with a cluster: the term
    matches `ts::cluster::rank()` and the locals initialised from it."""
    t = ctx.t
    for ld in _mcast_loads(ctx):
        k = _multicast_kernel(ctx, ld.task)
        if k is None or ld.mask is not None or ld.resource is None or \
                ctx.s.resources[ld.resource].multicast is None:
            continue
        names = [m.group(1) for m in _RANK_DECL.finditer(t, ld.task.body[0], ld.task.body[1])]
        term = re.compile(r"(?<![\w:])(?:" + "|".join([_RANK_CALL] + names) + r")(?!\w)")
        j = _skip_ws(t, ld.name_end, ld.task.body[1])
        args = _top_level_args(t, j + 1, _match(t, j))
        if len(args) >= 4:
            yield ld, k, term, args


def op_mcast_rankless(ctx: Ctx):
    """The CTA's rank -> 0u in a multicast load's destination, or in its
    coordinates (`ts::cluster::rank()` or a local initialised from it)."""
    t = ctx.t
    for ld, k, term, args in _rank_loads(ctx):
        for part, spans, reason in (
                ("destination", args[:1],
                 "every CTA of the cluster writes its share to the same offset of the stage in all "
                 "%d CTAs: the full barrier still counts every share's bytes, but the rest of the "
                 "shared field is never written, so consumers read stale data" % k.cluster),
                ("coordinates", args[2:-1],
                 "every CTA loads the same box as its share: each CTA's stage holds %d copies of "
                 "one share instead of the whole tile (wrong data)" % k.cluster)):
            edits = [(m.start(), m.end(), "0u") for a, b in spans for m in term.finditer(t, a, b)]
            if edits:
                yield _mk(ctx, "mcast_rankless", BUG, ld.start,
                          "task '%s': the CTA's rank -> 0u in the %s of `load_multicast`" % (
                              ld.task.name, part), reason, edits)


def op_mcast_past_cluster(ctx: Ctx):
    """The CTA's rank -> `blockIdx.x % 2C` in a multicast load's destination
    (a cluster of C CTAs along x): the position goes past the cluster."""
    t = ctx.t
    for ld, k, term, args in _rank_loads(ctx):
        if k.cluster_x != k.cluster:
            continue
        wide = "(blockIdx.x %% %du)" % (2 * k.cluster)
        edits = [(m.start(), m.end(), wide) for a, b in args[:1] for m in term.finditer(t, a, b)]
        if edits:
            yield _mk(ctx, "mcast_past_cluster", BUG, ld.start,
                      "task '%s': the CTA's rank -> `%s` in the destination of `load_multicast`"
                      % (ld.task.name, wide),
                      "in every other cluster the %d CTAs take the positions %d..%d and write "
                      "their shares past the shared field (out of the stage), while the field's "
                      "own shares are never written" % (k.cluster, k.cluster, 2 * k.cluster - 1),
                      edits)


def op_mask_partial(ctx: Ctx):
    """`load_multicast(` -> `load_multicast<M>(` with M every rank of
    the cluster but the last: every CTA still issues the load."""
    for ld in _mcast_loads(ctx):
        k = _multicast_kernel(ctx, ld.task)
        if k is None or ld.mask is not None or ld.resource is None or \
                ctx.s.resources[ld.resource].multicast is None:
            continue
        c = k.cluster
        m = (1 << (c - 1)) - 1
        name = "load_multicast"
        yield _mk(ctx, "mask_partial", BUG, ld.start,
                  "task '%s': `%s(` -> `%s<0x%x>(` (cluster of %d CTAs)" % (
                      ld.task.name, name, name, m, c),
                  "every CTA issues the load, so the CTAs of mask 0x%x receive this share from all "
                  "%d CTAs and rank %d receives none: one stage gets more bytes than its barrier "
                  "counts, the other waits forever" % (m, c, c - 1),
                  [(ld.name_end, ld.name_end, "<0x%x>" % m)])


def op_cta_loop(ctx: Ctx):
    """In every task of a kernel with a 1-D cluster of C CTAs along x:
    `ts::cluster::id()` -> `blockIdx.x` and `count()` -> `gridDim.x` in the
    domain bounds (BUG: a loop over CTAs)."""
    return (m for m in _cluster_index_mutants(ctx) if m.label == BUG)


def op_cluster_index_div(ctx: Ctx):
    """The same with `blockIdx.x / C` and `gridDim.x / C` (VALID: the
    cluster's index and count, spelled otherwise)."""
    return (m for m in _cluster_index_mutants(ctx) if m.label == VALID)


def _cluster_index_mutants(ctx: Ctx):
    for k in ctx.s.kernels:
        if k.cluster is None or k.cluster < 2 or k.cluster_x != k.cluster:
            continue
        tasks = [ctx.s.tasks[n] for n in k.tasks if n in ctx.s.tasks]
        if not any(ctx.s.resources[o.resource].multicast is not None for t in tasks for o in t.ops
                   if o.resource in ctx.s.resources):
            continue
        hits = [m for t in tasks for sect in ("loop", "inner") for a, b in t.domain_of(sect)
                for m in _CLUSTER_ID.finditer(ctx.t, a, b)]
        if not hits:
            continue
        c = k.cluster
        bug = [(m.start(), m.end(), "blockIdx.x" if m.group(1) == "id" else "gridDim.x")
               for m in hits]
        same = [(m.start(), m.end(), "(%s / %d)" % ("blockIdx.x" if m.group(1) == "id" else
                                                     "gridDim.x", c)) for m in hits]
        yield _mk(ctx, "cta_loop", BUG, hits[0].start(),
                  "kernel '%s': the domain loops over CTAs (`blockIdx.x`, `gridDim.x`) instead of "
                  "clusters" % k.name,
                  "the %d CTAs of a cluster run different units, so a CTA's multicast share lands "
                  "in its peers' stages for another unit (wrong data), and where the units are not "
                  "a multiple of the grid one CTA runs an iteration more and waits forever for its "
                  "peers' shares and releases" % c, bug)
        yield _mk(ctx, "cluster_index_div", VALID, hits[0].start(),
                  "kernel '%s': `ts::cluster::id()` / `count()` -> `blockIdx.x / %d` / `gridDim.x / "
                  "%d`" % (k.name, c, c),
                  "in a cluster of %d CTAs along x, blockIdx.x / %d is the cluster's index and "
                  "gridDim.x / %d the number of clusters: the same units in every CTA" % (c, c, c),
                  same)


# A tma_async stage's full barrier expects the whole payload's bytes unless
# the resource names ts::tx_bytes(N): every TMA load into the stage delivers
# part of them, so dropping any one leaves the barrier waiting (a hang).
_LOAD_STMT = re.compile(r"(?<![\w:])(?:(?:::)?ts\s*::\s*)?tma\s*::\s*load(?:_multicast)?\b(?!_)")
_RES_ATTR = re.compile(r"\[\[\s*(?:::)?ts\s*::\s*resource\s*\((.*?)\)\s*\]\]\s*(\w+)", re.S)


def op_drop_load(ctx: Ctx):
    """Drop one `ts::tma::load[_multicast](...)` statement from a producer task."""
    armed_whole = {m.group(2) for m in _RES_ATTR.finditer(ctx.t) if "tx_bytes" not in m.group(1)}
    for task in sorted(ctx.s.tasks.values(), key=lambda x: x.body):
        for st in task.stmts:
            m = _LOAD_STMT.match(st.text.strip())
            if not m:
                continue
            bm = _BARRIER_ARG.search(st.text)
            res = None
            for o in task.ops:
                if bm and o.bound == bm.group(1) and o.method in ("acquire", "try_acquire"):
                    res = o.resource
            if res is None or ctx.kind(res) != "tma_async" or res not in armed_whole:
                continue
            yield _mk(ctx, "drop_load", BUG, st.start, "task '%s': drop `%s`" % (
                          task.name, _one_line(ctx.stmt_src(st))),
                      "the stage's full barrier expects the whole payload of '%s' (no ts::tx_bytes) "
                      "and this load delivers part of it: the stage never completes, its consumers "
                      "wait forever" % res,
                      [(st.start, st.end, _blank(ctx.s.src, st.start, st.end, "dropped"))])


def op_lane_bound(ctx: Ctx):
    """In every task of a kernel alike: the domain loop's end `E` ->
    `(E) - int(threadIdx.x % 2)`, so the lanes of each warp run different
    trip counts while the tasks' domains stay the same text."""
    for k in ctx.s.kernels:
        tasks = [ctx.s.tasks[n] for n in k.tasks if n in ctx.s.tasks]
        looping = [t for t in tasks if t.loop is not None and t.domain_args and
                   any(ctx.pipelined(o.resource) for o in t.ops)]
        if not looping:
            continue
        edits = []
        for task in looping:
            args = task.domain_args
            a, b = args[0] if len(args) == 1 else args[1]
            edits.append((a, b, "(%s) - int(threadIdx.x %% 2)" % ctx.s.src[a:b].strip()))
        yield _mk(ctx, "lane_bound", BUG, edits[0][0],
                  "kernel '%s': every domain end `E` -> `(E) - int(threadIdx.x %% 2)`" % k.name,
                  "the odd lanes of every warp run one iteration fewer: a warp's arrivals are "
                  "made once per iteration by its elected lane while the others have left the "
                  "loop (or skip their own releases), so the barriers' counts no longer match "
                  "what the warps do", edits)


# TMA reads a descriptor through its address; a kernel parameter's address
# is a local copy's unless it is __grid_constant__ (the TMA unit faults).
_KERNEL_PARAMS = re.compile(r"__global__\s+void\s+\w+\s*\(([^)]*)\)")
_GRID_CONST = re.compile(r"\bconst\s+__grid_constant__\s+((?:\w+::)*\w+)\s+\w+")


def _holds_tensor_map(text: str, type_name: str) -> bool:
    if type_name == "CUtensorMap":
        return True
    m = re.search(r"\bstruct\s+%s\s*(?::[^{]*)?\{" % re.escape(type_name.split("::")[-1]), text)
    if not m:
        return False
    body = text[m.end():_match(text, m.end() - 1)]
    # A ts::tma::map is a CUtensorMap; so is a field of an alias of one.
    aliases = [a.group(1) for a in re.finditer(r"using\s+(\w+)\s*=\s*(?:ts\s*::\s*)?tma\s*::\s*map\s*<", text)]
    return "CUtensorMap" in body or _TYPED_MAP.search(body) is not None or \
        any(re.search(r"\b%s\s+\w+\s*;" % re.escape(a), body) for a in aliases)


def op_drop_grid_constant(ctx: Ctx):
    """`const __grid_constant__ Params p` -> `const Params p` on a kernel
    parameter that holds a TMA descriptor (BUG); -> `__grid_constant__ const
    Params p`, the same attribute spelled first (VALID)."""
    t = ctx.t
    for k in _KERNEL_PARAMS.finditer(t):
        for m in _GRID_CONST.finditer(t, k.start(1), k.end(1)):
            if not _holds_tensor_map(t, m.group(1)):
                continue
            a = m.start()
            b = m.start(1)
            yield _mk(ctx, "drop_grid_constant", BUG, a,
                      "`%s` -> `const %s`" % (_one_line(t[a:m.end()]), _one_line(t[m.start(1):m.end()])),
                      "the kernel parameter holds a TMA descriptor: without __grid_constant__ its "
                      "address is that of a local copy, and the TMA unit faults on it",
                      [(a, b, "const ")])
            yield _mk(ctx, "drop_grid_constant", VALID, a,
                      "`const __grid_constant__ T p` -> `__grid_constant__ const T p`",
                      "the same attribute, written before the qualifier", [(a, b, "__grid_constant__ const ")])


# 2-CTA MMA: ts::cta_pair on a tcgen05 resource of a cluster-of-two kernel.
_PAIR_ARG = re.compile(r",\s*ts::cta_pair\b")
_PAIR_CLUSTER = re.compile(r"ts::cluster_shape\(\s*2\s*\)")


def op_unpair(ctx: Ctx):
    """Drop `ts::cta_pair` from one of a pair kernel's tcgen05 resources
    (BUG: ptxas takes one group per kernel, and the plan's counts would mix
    a pair's and one CTA's); widen its cluster to 4 (BUG: a pair is two
    CTAs); write the cluster as (2, 1, 1) (VALID: the same shape)."""
    t = ctx.t
    pairs = list(_PAIR_ARG.finditer(t))
    for m in pairs:
        yield _mk(ctx, "unpair", BUG, m.start(), "drop `ts::cta_pair` from one resource",
                  "the other tcgen05 resources still span the pair: one kernel would need both "
                  "CTA groups, and rank 0's MMAs would write a stage the plan counts per CTA",
                  [(m.start(), m.end(), "")])
    if not pairs:
        return
    for m in _PAIR_CLUSTER.finditer(t):
        yield _mk(ctx, "unpair", BUG, m.start(), "`ts::cluster_shape(2)` -> `ts::cluster_shape(4)`",
                  "a CTA pair is a cluster of two: with four, ranks 2 and 3 would wait on barriers "
                  "no MMA of theirs commits to", [(m.start(), m.end(), "ts::cluster_shape(4)")])
        yield _mk(ctx, "unpair", VALID, m.start(), "`ts::cluster_shape(2)` -> `ts::cluster_shape(2, 1, 1)`",
                  "the same cluster shape", [(m.start(), m.end(), "ts::cluster_shape(2, 1, 1)")])


# A load's destination that is a whole member of the stage or the stage:
# the verifier knows the bytes it delivers (its box is the destination).
_WHOLE_DST = re.compile(r"\s*&?\s*(\w+)\s*(?:->\s*\w+|\.\s*get\s*\(\s*\))\s*")


def _plain_loads(ctx: Ctx, task: Task):
    """(statement, argument spans, resource) of each `ts::tma::load(...)`
    statement of a task whose barrier is a stage the task acquired."""
    for st in task.stmts:
        m = _LOAD_STMT.match(st.text.strip())
        if not m or "multicast" in m.group(0):
            continue
        po = ctx.t.index("(", st.start + (len(st.text) - len(st.text.lstrip())) + m.end() - 1)
        args = _top_level_args(ctx.t, po + 1, _match(ctx.t, po))
        bm = _BARRIER_ARG.search(st.text)
        res = None
        for o in task.ops:
            if bm and o.bound == bm.group(1) and o.method in ("acquire", "try_acquire"):
                res = o.resource
        if res is not None and len(args) == 4:
            yield st, args, res


def op_arm_tx_bytes(ctx: Ctx):
    """Add `ts::tx_bytes(16)` to a tma_async resource whose loads all write
    whole members of the stage (BUG: they deliver more than the 16 bytes
    armed, so a phase completes before its data lands)."""
    loads: Dict[str, List[bool]] = {}
    for task in ctx.s.tasks.values():
        for st, args, res in _plain_loads(ctx, task):
            whole = _WHOLE_DST.fullmatch(ctx.t[args[0][0]:args[0][1]]) is not None
            loads.setdefault(res, []).append(whole)
    for m in _RES_ATTR.finditer(ctx.t):
        res = m.group(2)
        if "tx_bytes" in m.group(1) or ctx.kind(res) != "tma_async" or not loads.get(res) or \
                not all(loads[res]):
            continue
        at = m.end(1)
        yield _mk(ctx, "arm_tx_bytes", BUG, at, "resource '%s': add `ts::tx_bytes(16)`" % res,
                  "its loads deliver whole members of the stage, far more than the 16 bytes "
                  "armed: the full phase completes before the data lands, and the surplus "
                  "counts against a later phase", [(at, at, ", ts::tx_bytes(16)")])


_TYPED_MAP = re.compile(r"(?<![\w:])(?:(?:::)?ts\s*::\s*)?tma\s*::\s*map\s*<\s*([^,<>]+?)\s*,\s*([^,<>]+?)\s*[,>]")


def _names_of_map(t: str, m) -> List[str]:
    """What a `ts::tma::map<...>` at m declares: the alias of `using X = ...`
    with the fields of type X, or the fields it types directly."""
    close = t.index(">", m.start())  # extents hold no nested template
    after = t[close + 1:close + 200]
    alias = re.search(r"using\s+(\w+)\s*=\s*$", t[max(0, m.start() - 80):m.start()])
    if alias:
        return re.findall(r"\b%s\s+(\w+)\s*;" % re.escape(alias.group(1)), t)
    field = re.match(r"\s*(\w+)\s*;", after)
    return [field.group(1)] if field else []


def op_shrink_box(ctx: Ctx):
    """Halve the first extent of a ts::tma::map whose descriptor a plain load
    uses into a tma_async stage armed with its payload (BUG: the box delivers
    fewer bytes than the acquire arms, so the consumers wait forever)."""
    loaded = {}
    for task in ctx.s.tasks.values():
        for st, args, res in _plain_loads(ctx, task):
            loaded.setdefault(ctx.t[args[1][0]:args[1][1]], set()).add(res)
    armed = {m.group(2): "tx_bytes" in m.group(1) for m in _RES_ATTR.finditer(ctx.t)}
    for m in _TYPED_MAP.finditer(ctx.t):
        names = _names_of_map(ctx.t, m)
        hit = sorted({r for arg, rs in loaded.items() for r in rs
                      if any(re.search(r"\b%s\s*$" % re.escape(n), arg) for n in names)})
        if not hit or any(ctx.kind(r) != "tma_async" or armed.get(r, True) for r in hit):
            continue
        a, b = m.start(2), m.end(2)
        yield _mk(ctx, "shrink_box", BUG, a,
                  "`%s` -> `(%s) / 2` in `ts::tma::map` of %s" % (ctx.t[a:b], ctx.t[a:b], ", ".join(names)),
                  "the box delivers half the bytes the acquire arms: the consumers of '%s' wait "
                  "forever" % hit[0], [(a, b, "(%s) / 2" % ctx.t[a:b])])


_TURN_PARAM = re.compile(r"(?<![\w:])(?:(?:::)?ts\s*::\s*)?turn\s*<\s*(\w+)\s*,\s*(\w+)\s*>\s*(\w+)")


def _turn_calls(ctx: Ctx, method: str):
    """(param match, call match) of each `t.<method>();` statement in the
    body of the task whose parameter `ts::turn<R, Pos> t` is."""
    for m in _TURN_PARAM.finditer(ctx.t):
        try:
            open_ = ctx.t.index("{", m.end())
            body = (open_, _match(ctx.t, open_))
        except ValueError:
            continue
        call = re.compile(r"\b%s\s*\.\s*%s\s*\(\s*\)\s*;" % (re.escape(m.group(3)), method))
        for c in call.finditer(ctx.t, body[0], body[1]):
            yield m, c


def op_drop_pass(ctx: Ctx):
    """Drop a `turn.pass();` (BUG: the next position of the ring waits forever)."""
    for m, c in _turn_calls(ctx, "pass"):
        yield _mk(ctx, "drop_pass", BUG, c.start(), "drop `%s`" % c.group(0),
                  "the turn of '%s' is never handed on: the next position waits forever" % m.group(1),
                  [(c.start(), c.end(), _blank(ctx.s.src, c.start(), c.end(), "dropped"))])


def op_dup_pass(ctx: Ctx):
    """Pass the turn twice (BUG: the next position's barrier gets two arrivals
    in one phase, so it runs without the turn)."""
    for m, c in _turn_calls(ctx, "pass"):
        yield _mk(ctx, "dup_pass", BUG, c.start(), "duplicate `%s`" % c.group(0),
                  "the next position of '%s' gets the turn twice" % m.group(1),
                  [(c.end(), c.end(), " " + c.group(0))])


def op_swap_turns(ctx: Ctx):
    """Exchange positions 0 and 1 of a two-task ring (VALID: the other task
    goes first)."""
    by_res: Dict[str, List] = {}
    for m in _TURN_PARAM.finditer(ctx.t):
        by_res.setdefault(m.group(1), []).append(m)
    for res, ms in sorted(by_res.items()):
        if sorted(x.group(2) for x in ms) != ["0", "1"]:
            continue
        edits = [(x.start(2), x.end(2), "1" if x.group(2) == "0" else "0") for x in ms]
        yield _mk(ctx, "swap_turns", VALID, ms[0].start(), "ring of '%s': positions 0 and 1 exchanged" % res,
                  "the other task takes the turn first; the ring is still whole", edits)


def op_load_per_warp(ctx: Ctx):
    """`ts::tma::load(d, m, c, s.barrier())` ->
    `ts::tma::load_with_barrier(d, m, c, static_cast<uint64_t *>(s.barrier()))`:
    lane 0 of every warp of the task issues it (BUG in a task of several
    warps: the stage receives its box once per warp; VALID with one warp)."""
    for task in sorted(ctx.s.tasks.values(), key=lambda x: x.body):
        if task.warps is None:
            continue
        for st, args, res in _plain_loads(ctx, task):
            if ctx.kind(res) != "tma_async":
                continue
            name = ctx.t.rindex("load", st.start, args[0][0])
            bar = args[3]
            edits = [(name, name + 4, "load_with_barrier"),
                     (bar[0], bar[0], "static_cast<uint64_t *>("), (bar[1], bar[1], ")")]
            bug = task.warps > 1
            yield _mk(ctx, "load_per_warp", BUG if bug else VALID, st.start,
                      "task '%s' (%d warps): `ts::tma::load` -> `load_with_barrier`" % (task.name, task.warps),
                      ("each of its %d warps issues the load into the stage armed once: the "
                       "stage receives its bytes %d times" % (task.warps, task.warps)) if bug else
                      "one warp issues the load on the stage's barrier, as the elected lane did",
                      edits)


# ----------------------------------------------------------------------------
# TMA stores from shared memory threads wrote (ts::tma::store_fence,
# issue_store, wait_store_reads): judged per function, the way an epilogue
# helper is written.

_STORE_STMT = re.compile(r"ts::tma::(store_fence|wait_store_reads|issue_store)\b")
_SYNC_STMT = re.compile(r"ts::sync_warpgroup\s*\(\s*\)\s*;")


def _function_of(t: str, pos: int) -> Optional[Tuple[int, int]]:
    """The outermost block around pos that follows `)`: a function body."""
    best = None
    for m in re.finditer(r"\)\s*(?:const\s*|noexcept\s*)*\{", t[:pos]):
        a = m.end() - 1
        try:
            b = _match(t, a)
        except ValueError:
            continue
        if a < pos < b and (best is None or a < best[0]):
            best = (a, b)
    return best


def _in_loop(t: str, fn: Tuple[int, int], pos: int) -> bool:
    for m in re.finditer(r"\bfor\s*\(", t[fn[0]:pos]):
        k = fn[0] + m.end() - 1
        body = _skip_ws(t, _match(t, k) + 1, fn[1])
        if _stmt_end(t, body, fn[1]) > pos:
            return True
    return False


def _rotation(t: str, fn: Tuple[int, int]) -> int:
    """K of a rotation over buffers (`[j & (K-1)]`, `[j % K]`) in fn, else 1."""
    m = re.search(r"\[\s*\w+\s*(&|%)\s*(\d+)\s*\]", t[fn[0]:fn[1]])
    if not m:
        return 1
    return int(m.group(2)) + 1 if m.group(1) == "&" else int(m.group(2))


def _store_sites(ctx: Ctx):
    """(statement start, end, call name, function span) of each TMA store call."""
    t = ctx.t
    for m in _STORE_STMT.finditer(t):
        fn = _function_of(t, m.start())
        if fn and "issue_store" in t[fn[0]:fn[1]]:
            yield m.start(), _stmt_end(t, m.start(), fn[1]), m.group(1), fn


def op_drop_store_fence(ctx: Ctx):
    for a, b, name, fn in _store_sites(ctx):
        if name == "store_fence":
            yield _mk(ctx, "drop_store_fence", BUG, a, "drop `%s`" % _one_line(ctx.s.src[a:b]),
                      "threads' writes reach the TMA store unfenced: the async proxy may read "
                      "stale shared memory", [(a, b, "(void)0;")])


def op_drop_store_wait(ctx: Ctx):
    for a, b, name, fn in _store_sites(ctx):
        if name == "wait_store_reads" and _in_loop(ctx.t, fn, a):
            yield _mk(ctx, "drop_store_wait", BUG, a, "drop `%s`" % _one_line(ctx.s.src[a:b]),
                      "the buffer is rewritten while the store issued from it may still read it",
                      [(a, b, "(void)0;")])


def _store_wait_arg(ctx: Ctx, a: int, b: int):
    m = re.compile(r"wait_store_reads\s*<\s*(\d+)\s*>").search(ctx.t, a, b)
    return (m.start(1), m.end(1), int(m.group(1))) if m else None


def op_raise_store_wait(ctx: Ctx):
    for a, b, name, fn in _store_sites(ctx):
        w = _store_wait_arg(ctx, a, b) if name == "wait_store_reads" else None
        if not w or not _in_loop(ctx.t, fn, a):
            continue
        k = _rotation(ctx.t, fn)
        bug = w[2] + 1 >= k
        yield _mk(ctx, "raise_store_wait", BUG if bug else VALID, a,
                  "`wait_store_reads<%d>` -> `<%d>` (%d buffers in turn)" % (w[2], w[2] + 1, k),
                  "the store of the buffer about to be rewritten may still read it" if bug else
                  "one more store in flight still leaves the rewritten buffer's store done",
                  [(w[0], w[1], str(w[2] + 1))])


def op_lower_store_wait(ctx: Ctx):
    for a, b, name, fn in _store_sites(ctx):
        w = _store_wait_arg(ctx, a, b) if name == "wait_store_reads" else None
        if w and w[2] > 0:
            yield _mk(ctx, "lower_store_wait", VALID, a,
                      "`wait_store_reads<%d>` -> `<%d>`" % (w[2], w[2] - 1),
                      "waiting for more stores is always safe",
                      [(w[0], w[1], str(w[2] - 1))])


def op_drop_store_sync(ctx: Ctx):
    """A barrier between the writers' fences and the issue, or between the
    issuer's wait and the next writes."""
    sites = list(_store_sites(ctx))
    for m in _SYNC_STMT.finditer(ctx.t):
        before = [s for s in sites if s[0] < m.start() and s[3][0] < m.start() < s[3][1]]
        if not before or before[-1][2] not in ("store_fence", "wait_store_reads"):
            continue
        why = ("the issuing thread may store before the other threads' writes" if
               before[-1][2] == "store_fence" else
               "the other threads rewrite the buffer while the store may still read it")
        yield _mk(ctx, "drop_store_sync", BUG, m.start(), "drop `ts::sync_warpgroup();` after `%s`"
                  % before[-1][2], why, [(m.start(), m.end(), "(void)0;")])


def op_skip_first_wait(ctx: Ctx):
    """`if (issuer) wait_store_reads<W>()` in a chunk loop -> `if (issuer &&
    j > 0)`: the first chunk skips the wait. The function runs once per
    tile, so the first chunk rewrites buffer 0, whose store from the last
    K - W chunks of the previous call may still be in flight when W = K - 1
    (BUG); with fewer in flight that store is done (VALID)."""
    t = ctx.t
    for a, b, name, fn in _store_sites(ctx):
        w = _store_wait_arg(ctx, a, b) if name == "wait_store_reads" else None
        g = re.compile(r"if\s*\(([^()]*)\)\s*$").search(t, fn[0], a)
        loops = list(re.finditer(r"\bfor\s*\(\s*int\s+(\w+)\s*=\s*0\s*;", t[fn[0]:a]))
        if not w or not g or not loops or not _in_loop(t, fn, a):
            continue
        j, k = loops[-1].group(1), _rotation(t, fn)
        bug = w[2] == k - 1
        yield _mk(ctx, "skip_first_wait", BUG if bug else VALID, a,
                  "`if (%s)` -> `if (%s && %s > 0)` before `wait_store_reads<%d>` (%d buffers)"
                  % (g.group(1), g.group(1), j, w[2], k),
                  ("the first chunk of the next call rewrites buffer 0, whose store from the "
                   "previous call may still read it" if bug else
                   "the previous call's stores of buffer 0 are waited for before it ends"),
                  [(g.end(1), g.end(1), " && %s > 0" % j)])


def op_unguard_issue(ctx: Ctx):
    for a, b, name, fn in _store_sites(ctx):
        if name != "issue_store":
            continue
        g = re.compile(r"if\s*\(([^()]*)\)\s*$").search(ctx.t, fn[0], a)
        waits = [s for s in _store_sites(ctx) if s[3] == fn and s[2] == "wait_store_reads"]
        if not g or not waits or not _in_loop(ctx.t, fn, a):
            continue
        yield _mk(ctx, "unguard_issue", BUG, a, "drop the guard `if (%s)` of `issue_store`" % g.group(1),
                  "every thread issues the store, and only the issuer's wait covers its own: the "
                  "others' stores still read the buffer when it is rewritten",
                  [(g.start(), g.end(), "")])


# ----------------------------------------------------------------------------
# Value flow: the same MMAs reached through a helper function, or with their
# descriptors computed by arithmetic. Both edits keep what the code does, so
# alone they are VALID, and beside an early hand-back the mutant is the bug
# that hand-back is (its label comes from the model run without them).

_MMA_NAME = re.compile(r"ts::wgmma::(mma_\w+)\s*\(")
_ADVANCE = re.compile(r"ts::wgmma::advance_k\s*\(")


def _helper_edits(ctx: Ctx):
    """Every ts::wgmma::mma_* call through a forwarding helper, defined just
    before the first task; None when there is no MMA after one."""
    calls = list(_MMA_NAME.finditer(ctx.t))
    first = ctx.t.find("[[ts::task")
    if not calls or first < 0 or first > calls[0].start():
        return None
    names = sorted({m.group(1) for m in calls})
    helper = "".join("template <class... A>\n__device__ __forceinline__ void ts_mut_%s(A &&...a) {\n"
                     "  ts::wgmma::%s(static_cast<A &&>(a)...);\n}\n" % (n, n) for n in names)
    return [(first, first, helper)] + [
        (m.start(), m.start(1) + len(m.group(1)), "ts_mut_" + m.group(1)) for m in calls]


def _arith_edits(ctx: Ctx):
    """`ts::wgmma::advance_k(d, b)` -> `(d + uint64_t((b) >> 4))`, its own
    definition (ts/wgmma.h); None when there is none."""
    out = []
    for m in _ADVANCE.finditer(ctx.t):
        k = m.end() - 1
        e = _match(ctx.t, k)
        args = _top_level_args(ctx.t, k + 1, e)
        if len(args) != 2:
            return None
        d, b = (ctx.s.src[a:z].strip() for a, z in args)
        out.append((m.start(), e + 1, "(%s + uint64_t((%s) >> 4))" % (d, b)))
    return out or None


def _flow_ops(name: str, edits_of):
    def plain(ctx: Ctx):
        ed = edits_of(ctx)
        if ed:
            yield _mk(ctx, name, VALID, ed[-1][0], "the MMAs' operands and calls as before, " + name,
                      "the same instructions on the same stages", ed)

    def early(ctx: Ctx):
        ed = edits_of(ctx)
        if not ed:
            return
        for m in op_mma_release_early(ctx):
            spans = [(a, b) for a, b, _ in m.edits]
            if any(a < z and x < b for a, b in spans for x, z, _ in ed if (x, z) != (a, b)):
                continue  # the moved hand-back holds an edited call
            yield _mk(ctx, name + "_release_early", m.label, m.edits[0][0],
                      m.what + "; " + name, m.reason, m.edits + ed)
    return plain, early


op_mma_helper, op_mma_helper_release_early = _flow_ops("mma_helper", _helper_edits)
op_desc_arith, op_desc_arith_release_early = _flow_ops("desc_arith", _arith_edits)


# ---------------------------------------------------------------------------
# Stream-K fix-up: `if (P.settle(sg, acc))` (include/ts/stream_k.h)

_SETTLE_IF = re.compile(r"if\s*\(\s*(?P<call>(?P<obj>[\w.\->\[\]]+)\.settle\s*\(\s*(?P<seg>\w+)\s*,[^;{}]*?\))\s*\)")


def _settles(ctx: Ctx):
    for m in _SETTLE_IF.finditer(ctx.t):
        yield m


def op_settle_owner_only(ctx: Ctx):
    """Only the segment that starts its tile settles."""
    for m in _settles(ctx):
        a = m.start("call")
        yield _mk(ctx, "settle_owner_only", BUG, a,
                  "`%s` -> `%s.k_begin == 0 && %s`" % (m.group("call"), m.group("seg"), m.group("call")),
                  "the other segments of a split tile never signal: its owner waits forever",
                  [(a, a, "%s.k_begin == 0 && " % m.group("seg"))])


def op_settle_drop(ctx: Ctx):
    """The settle replaced by `true`: every part of a split tile is stored."""
    for m in _settles(ctx):
        yield _mk(ctx, "settle_drop", BUG, m.start("call"), "`%s` -> `true`" % m.group("call"),
                  "split tiles are stored half summed, by every CTA holding a part",
                  [(m.start("call"), m.end("call"), "true")])


def _wait_zero_before(ctx: Ctx, pos: int) -> Optional[int]:
    """The last `ts::wgmma::wait_group<0>();` statement before pos, at a line start."""
    found = None
    for w in re.finditer(r"(?m)^[ \t]*ts::wgmma::wait_group\s*<\s*0\s*>\s*\(\s*\)\s*;", ctx.t[:pos]):
        found = w.start()
    return found


def op_settle_early(ctx: Ctx):
    """The settle moved before the wait for the segment's last MMAs."""
    for m in _settles(ctx):
        w = _wait_zero_before(ctx, m.start())
        if w is None:
            continue
        yield _mk(ctx, "settle_early", BUG, w,
                  "`%s` taken before the `wait_group<0>` of line %d" % (m.group("call"), ctx.s.line(w)),
                  "the partial sum is read while the last MMAs may still write the accumulators",
                  [(w, w, "const bool ts_mut_settled = %s;\n" % m.group("call")),
                   (m.start("call"), m.end("call"), "ts_mut_settled")])


def op_settle_hoist(ctx: Ctx):
    """The settle's result kept in a local first: the same protocol."""
    for m in _settles(ctx):
        yield _mk(ctx, "settle_hoist", VALID, m.start(),
                  "`%s` -> a const local before the if" % m.group("call"),
                  "the call still runs once per segment, after the same wait",
                  [(m.start(), m.start(), "const bool ts_mut_settled = %s;\n" % m.group("call")),
                   (m.start("call"), m.end("call"), "ts_mut_settled")])


OPERATORS = [
    ("drop_close", op_drop_close),
    ("dup_close", op_dup_close),
    ("extra_block", op_extra_block),
    ("extra_block_next", op_extra_block_next),
    ("move_close", op_move_close),
    ("guard_close", op_guard_close),
    ("guard_pair", op_guard_pair),
    ("shrink_stages", op_shrink_stages),
    ("domain_bound", op_domain_bound),
    ("domain_bound_alike", op_domain_bound_alike),
    ("domain_bound_pair", op_domain_bound_pair),
    ("forge_token", op_forge_token),
    ("reuse_token", op_reuse_token),
    ("drop_after_try", op_drop_after_try),
    ("alias_live", op_alias_live),
    ("alias_reverse", op_alias_reverse),
    ("launch_early", op_launch_early),
    ("drop_pdl_wait", op_drop_pdl_wait),
    ("late_pdl_wait", op_late_pdl_wait),
    ("mma_drop_commit", op_mma_drop_commit),
    ("mma_raise_wait", op_mma_raise_wait),
    ("mma_lower_wait", op_mma_lower_wait),
    ("mma_drop_wait", op_mma_drop_wait),
    ("mma_unguard_oldest", op_mma_unguard_oldest),
    ("mma_release_newest", op_mma_release_newest),
    ("mma_release_early", op_mma_release_early),
    ("carry_first", op_carry_first),
    ("drop_carry", op_drop_carry),
    ("carry_decl_in_loop", op_carry_decl_in_loop),
    ("carry_decl_hoist", op_carry_decl_hoist),
    ("drop_multicast", op_drop_multicast),
    ("mask_outside", op_mask_outside),
    ("drop_nonempty", op_drop_nonempty),
    ("mcast_rankless", op_mcast_rankless),
    ("mcast_past_cluster", op_mcast_past_cluster),
    ("mask_partial", op_mask_partial),
    ("cta_loop", op_cta_loop),
    ("cluster_index_div", op_cluster_index_div),
    ("drop_load", op_drop_load),
    ("lane_bound", op_lane_bound),
    ("drop_grid_constant", op_drop_grid_constant),
    ("arm_tx_bytes", op_arm_tx_bytes),
    ("load_per_warp", op_load_per_warp),
    ("shrink_box", op_shrink_box),
    ("drop_pass", op_drop_pass),
    ("dup_pass", op_dup_pass),
    ("swap_turns", op_swap_turns),
    ("drop_store_fence", op_drop_store_fence),
    ("drop_store_wait", op_drop_store_wait),
    ("raise_store_wait", op_raise_store_wait),
    ("lower_store_wait", op_lower_store_wait),
    ("drop_store_sync", op_drop_store_sync),
    ("unguard_issue", op_unguard_issue),
    ("skip_first_wait", op_skip_first_wait),
    ("mma_helper", op_mma_helper),
    ("mma_helper_release_early", op_mma_helper_release_early),
    ("desc_arith", op_desc_arith),
    ("desc_arith_release_early", op_desc_arith_release_early),
    ("settle_owner_only", op_settle_owner_only),
    ("settle_drop", op_settle_drop),
    ("settle_early", op_settle_early),
    ("settle_hoist", op_settle_hoist),
    ("unpair", op_unpair),
]


def mutants(source: Source, rt: Runtime, only=None) -> List[Mutant]:
    """Every mutant of one file, per operator in source order, indexed."""
    ctx = Ctx(source, rt)
    out = []
    for name, fn in OPERATORS:
        if only and name not in only:
            continue
        seen = set()
        idx = 0
        for m in fn(ctx):
            sig = tuple(sorted(m.edits))
            if sig in seen:
                continue
            seen.add(sig)
            m.index = idx
            idx += 1
            out.append(m)
    return out
