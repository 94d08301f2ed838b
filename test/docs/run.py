#!/usr/bin/env python3
"""Runs every command of README.md and docs/guide.md as written.

A command is a line of a ```sh block (a trailing backslash continues it).
Each runs with bash from a scratch copy of the checkout's top level
(symlinks; `build` is the build under test) with HOME inside it, and must
exit 0, or N when it ends in `# exit status N`. One that ends in
`# needs an H200` runs only where nvidia-smi lists a GPU. When a plain
``` block follows a ```sh block with nothing but blank lines between, each
of its lines other than `...` must appear, in that order, among the lines
the block's commands print (stdout and stderr together; indentation aside):
the docs show real output.

The README's two set-up commands (indented, not ```sh) are not run here:
`bash scripts/test.sh` is the suite that runs this test, and
`bash scripts/examples.sh` is the main job.

  run.py <source dir> <build dir>
"""
import os
import re
import shutil
import subprocess
import sys

DOCS = {"README.md": 2, "docs/guide.md": 15}  # file: fewest commands expected
MARK = re.compile(r"\s+#\s+(exit status (\d+)|needs an H200)\s*$")


def blocks(path):
    """The file as a sequence of fenced blocks (info, unindented lines, line
    number) and prose runs (None, None, line number)."""
    seq, cur = [], None
    with open(path) as f:
        for n, line in enumerate(f.read().split("\n"), 1):
            stripped = line.strip()
            if cur is None and stripped.startswith("```"):
                cur = (stripped[3:].strip(), [], n, len(line) - len(line.lstrip()))
            elif cur is not None and stripped == "```":
                seq.append(cur[:3])
                cur = None
            elif cur is not None:
                cur[1].append(line[cur[3]:] if not line[:cur[3]].strip() else line)
            elif stripped and (not seq or seq[-1][0] is not None):
                seq.append((None, None, n))
    return seq


def commands(lines):
    cmds, acc = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            acc += line.rstrip()[:-1] + " "
            continue
        line = acc + line
        acc = ""
        if line.strip() and not line.strip().startswith("#"):
            cmds.append(line.strip())
    return cmds


def pairs(path):
    """Each ```sh block with the output block right after it, if any."""
    seq = blocks(path)
    result = []
    for i, (info, lines, n) in enumerate(seq):
        if info != "sh":
            continue
        nxt = seq[i + 1] if i + 1 < len(seq) else (None, None, 0)
        shown = nxt[1] if nxt[0] in ("", "text") else None
        result.append((n, commands(lines), shown))
    return result


def has_gpu():
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    except OSError:
        return False


def scratch(src, build):
    work = os.path.join(build, "test", "docs-work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "home"))
    for entry in os.listdir(src):
        if entry not in ("build", ".git"):
            os.symlink(os.path.join(src, entry), os.path.join(work, entry))
    os.symlink(build, os.path.join(work, "build"))
    return work


def in_order(shown, printed):
    """The first shown line not found in order, or None."""
    got = [l.strip() for l in printed.split("\n")]
    at = 0
    for want in shown:
        want = want.strip()
        if not want or want == "...":
            continue
        while at < len(got) and got[at] != want:
            at += 1
        if at == len(got):
            return want
        at += 1
    return None


def run_block(work, env, gpu, doc, n, cmds, shown):
    printed, failures, ran = "", [], 0
    for cmd in cmds:
        m = MARK.search(cmd)
        want = int(m.group(2)) if m and m.group(2) else 0
        if m and m.group(1) == "needs an H200" and not gpu:
            print("  skip (no GPU): %s" % cmd)
            return 0, []
        p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True,
                           text=True, timeout=600)
        ran += 1
        printed += p.stdout + p.stderr
        ok = p.returncode == want
        print("  %s %s (exit %d)" % ("ok  " if ok else "FAIL", cmd, p.returncode))
        if not ok:
            failures.append("%s:%d: `%s` exited %d, expected %d\n%s%s" % (
                doc, n, cmd, p.returncode, want, p.stdout, p.stderr))
            return ran, failures
    if shown is not None:
        missing = in_order(shown, printed)
        if missing is not None:
            failures.append("%s:%d: the output shown after the block differs; not printed "
                            "(in order): %r\n--- printed:\n%s" % (doc, n, missing, printed))
    return ran, failures


def main(src, build):
    src, build = os.path.abspath(src), os.path.abspath(build)
    work = scratch(src, build)
    env = dict(os.environ, HOME=os.path.join(work, "home"),
               PATH="/usr/local/cuda/bin:" + os.environ.get("PATH", ""))
    shutil.rmtree(os.path.join(build, "reduce-project"), ignore_errors=True)
    gpu = has_gpu()
    failures = []
    for doc, fewest in DOCS.items():
        found = pairs(os.path.join(src, doc))
        count = sum(len(c) for _, c, _ in found)
        print("%s: %d commands in %d blocks" % (doc, count, len(found)))
        if count < fewest:
            failures.append("%s: %d commands, expected at least %d" % (doc, count, fewest))
        for n, cmds, shown in found:
            failures += run_block(work, env, gpu, doc, n, cmds, shown)[1]
    for f in failures:
        print("FAIL: " + f)
    print("docs: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
