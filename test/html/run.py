#!/usr/bin/env python3
"""The -html page as a browser shows it.

    python3 test/html/run.py --plugin build/lib/libts.so [--clang clang++]
        [--work DIR] [--docs docs/images]

Writes the page of examples/gemm_sm90.cu (a verified kernel) and of
test/html/deadlock.cu (a circular wait) with the plugin, renders each with
headless Chromium (scripts/deps.sh installs chromium-headless-shell) and
checks what came out:

  * the DOM Chromium built (--dump-dom): the kernel sections, the four
    pictures per kernel as <svg> with their lanes, bars and marks, the
    findings; so the page parses as intended, not just as text;
  * the screenshot (--screenshot): decoded here (zlib, no imaging library),
    it must not be blank and must show the fills the stylesheet gives the
    stages, the register bar and, for the deadlock, the blocked cells.

A missing Chromium fails the test: CI installs it, so a skip would only
hide a broken set-up. --docs copies the screenshots there (the pictures in
docs/images come from this command).
"""

import argparse
import html.parser
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CUDA = "/usr/local/cuda"
FLAGS = ["-x", "cuda", "-std=c++17", "--cuda-device-only", "--cuda-gpu-arch=sm_90a",
         "--cuda-path=" + CUDA, "-nocudalib", "-Wno-unknown-cuda-version",
         "-Wno-unknown-attributes", "-isystem", CUDA + "/include/cccl",
         "-I", "tools/shim", "-I", "include", "-fsyntax-only"]
BROWSERS = ["chromium-headless-shell", "chromium", "chromium-browser"]
TIMEOUT = 60
WINDOW = (1280, 1500)

# The pages: source, whether the plugin accepts it, screenshot name, what
# the DOM must hold ("re:" for a regular expression), and colours (the
# stylesheet's fills) the picture must.
PAGES = [
    {
        "source": "examples/gemm_sm90.cu",
        "accepted": True,
        "png": "report-gemm.png",
        "dom": ['<section class="kernel" id="kernel-0">',
                'class="verdict passed">PASSED</span>',
                'class="lane-name">load</text>', 'class="lane-name">mma</text>',
                'class="lane-name">Operands</text>',
                'class="op op-release', 'class="op op-mma',
                'class="stage-full"',
                # The example's sizes may change; the shape of the facts not.
                r're:<title>Operands #3: \d+ B at \d+ \([\d.]+%\)</title>',
                r're:data \d+ B \+ barriers \d+ B = \d+ B \(launch size \d+ B\) '
                r'/ capacity 232448 B: [\d.]+% used',
                '<td>setmaxnreg 232</td>', '<td>setmaxnreg 40</td>',
                r're:total \d+ of 65536 registers \([\d.]+%\)'],
        "svg": {"graph": 1, "timeline": 1, "smem-bar": 1, "reg-bar": 1},
        "absent": ['<h3>Findings</h3>'],
        "colours": {"stage": "54aeff", "register budget": "8250df", "task node": "ddf4ff"},
    },
    {
        "source": "test/html/deadlock.cu",
        "accepted": False,
        "png": "report-deadlock.png",
        "dom": ['class="verdict failed">FAILED</span>',
                '<h3>Findings</h3>',
                "deadlock: task 'task_a' blocks forever on wait of 'Y' (trip count 1)",
                "circular wait: task 'task_a' waits for 'Y' holding 'X'",
                'class="lane-name">task_a</text>', 'class="lane-name">task_b</text>',
                'class="op op-wait blocked"',
                '<g class="trace-mark"><title>finding 1, trace 1/1: task task_b acquire of Y',
                'counterexample: 1 event, numbered on the timeline'],
        "svg": {"graph": 1, "timeline": 1, "smem-bar": 1, "reg-bar": 1},
        "absent": [],
        "colours": {"blocked cell": "ffebe9", "error badge": "cf222e", "stage": "54aeff"},
    },
]


class Failures:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: " + what)
        return ok


def find_browser():
    path = os.environ.get("LIBTS_CHROMIUM")
    if path:
        return path if os.access(path, os.X_OK) else None
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def browser(chromium, profile, *args):
    # As root Chromium refuses its sandbox; a fresh profile per run keeps
    # the runs independent of each other and of any user's.
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
           "--window-size=%d,%d" % WINDOW] + list(args)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=TIMEOUT, universal_newlines=True)


# ----------------------------------------------------------------------------
# PNG: just enough of the format to count colours (8-bit RGB or RGBA).


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(kind, row, prev, bpp):
    if kind == 0:
        return row
    out = bytearray(row)
    n = len(out)
    if kind == 1:
        for i in range(bpp, n):
            out[i] = (out[i] + out[i - bpp]) & 0xff
    elif kind == 2:
        for i in range(n):
            out[i] = (out[i] + prev[i]) & 0xff
    elif kind == 3:
        for i in range(n):
            left = out[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + ((left + prev[i]) >> 1)) & 0xff
    elif kind == 4:
        for i in range(n):
            left = out[i - bpp] if i >= bpp else 0
            upleft = prev[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + paeth(left, prev[i], upleft)) & 0xff
    else:
        raise ValueError("bad PNG filter %d" % kind)
    return out


def png_pixels(path):
    """Width, height and the rows of RGB(A) bytes of an 8-bit PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("unsupported PNG (depth %d, colour %d)" % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        prev = unfilter(raw[start], raw[start + 1:start + 1 + stride], prev, bpp)
        rows.append(bytes(prev))
    return width, height, bpp, rows


def colour_census(path):
    """Distinct colours and the share of pixels that are not white."""
    width, height, bpp, rows = png_pixels(path)
    colours, ink = set(), 0
    for row in rows:
        pixels = [row[i:i + 3] for i in range(0, len(row), bpp)]
        colours.update(pixels)
        ink += len(pixels) - pixels.count(b"\xff\xff\xff")
    return colours, ink / float(width * height), (width, height)


# ----------------------------------------------------------------------------


class Elements(html.parser.HTMLParser):
    """Counts <svg class=...> and <section> in the DOM Chromium serialized."""

    def __init__(self):
        super().__init__()
        self.svg = {}
        self.sections = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg":
            cls = attrs.get("class", "")
            self.svg[cls] = self.svg.get(cls, 0) + 1
        elif tag == "section":
            self.sections += 1


def check_page(page, args, chromium, work, result):
    name = os.path.splitext(os.path.basename(page["source"]))[0]
    out = os.path.join(work, name + ".html")
    cmd = [args.clang] + FLAGS + ["-fplugin=" + args.plugin, page["source"],
                                  "-Xclang", "-plugin-arg-ts", "-Xclang", "-html=" + out]
    run = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=TIMEOUT, universal_newlines=True)
    if not result.check((run.returncode == 0) == page["accepted"],
                        "%s: plugin exit status %d\n%s" % (page["source"], run.returncode,
                                                            run.stdout[-2000:])):
        return
    if not result.check(os.path.exists(out), "%s: no page written" % page["source"]):
        return
    url = "file://" + out
    profile = tempfile.mkdtemp(prefix="profile-", dir=work)

    dom = browser(chromium, profile, "--dump-dom", url)
    result.check(dom.returncode == 0, "%s: --dump-dom exited %d: %s" %
                 (name, dom.returncode, dom.stderr[-1000:]))
    text = dom.stdout
    for want in page["dom"]:
        found = re.search(want[3:], text) if want.startswith("re:") else want in text
        result.check(bool(found), "%s: DOM lacks %r" % (name, want))
    for unwanted in page["absent"]:
        result.check(unwanted not in text, "%s: DOM has %r" % (name, unwanted))
    elements = Elements()
    elements.feed(text)
    result.check(elements.sections == 1, "%s: %d kernel sections" % (name, elements.sections))
    for cls, count in page["svg"].items():
        result.check(elements.svg.get(cls, 0) == count, "%s: %d <svg class=%s>, expected %d"
                     % (name, elements.svg.get(cls, 0), cls, count))

    png = os.path.join(work, page["png"])
    shot = browser(chromium, profile, "--screenshot=" + png, url)
    if not result.check(shot.returncode == 0 and os.path.exists(png),
                        "%s: --screenshot exited %d: %s" %
                        (name, shot.returncode, shot.stderr[-1000:])):
        return
    colours, ink, size = colour_census(png)
    result.check(size == WINDOW, "%s: screenshot is %dx%d" % ((name,) + size))
    # A blank or unstyled page has a handful of colours and little ink.
    result.check(len(colours) >= 64, "%s: only %d distinct colours" % (name, len(colours)))
    result.check(ink >= 0.05, "%s: only %.1f%% of the pixels are not white" % (name, 100 * ink))
    for what, hexa in page["colours"].items():
        result.check(bytes.fromhex(hexa) in colours,
                     "%s: no %s fill (#%s) on the screenshot" % (name, what, hexa))
    print("%s: %d colours, %.1f%% ink, %d DOM bytes" % (name, len(colours), 100 * ink, len(text)))
    if args.docs:
        os.makedirs(args.docs, exist_ok=True)
        shutil.copyfile(png, os.path.join(args.docs, page["png"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--clang", default="/usr/lib/llvm-19/bin/clang++")
    parser.add_argument("--work", help="scratch directory (default: a temporary one)")
    parser.add_argument("--docs", help="copy the screenshots into this directory")
    args = parser.parse_args()
    args.plugin = os.path.abspath(args.plugin)
    if args.docs:
        args.docs = os.path.abspath(args.docs)

    chromium = find_browser()
    if not chromium:
        print("FAIL: no headless Chromium (%s); install it with bash scripts/deps.sh"
              % ", ".join(BROWSERS))
        print("0 passed, 1 failed")
        return 1
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="libts-html-")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    start = time.time()
    result = Failures()
    for page in PAGES:
        check_page(page, args, chromium, work, result)
    print("html: %s, %.1f s" % (chromium, time.time() - start))
    print("%d passed, %d failed" % (result.passed, result.failed))
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
