#!/usr/bin/env python3
"""Fetches cuobjdump and the nvdisasm it runs into DIR from NVIDIA's wheels
on PyPI.

    python3 scripts/fetch_cuobjdump.py DIR

The CUDA toolkit on the development and CI machines has nvcc and ptxas but
no cuobjdump; the GEMM's SASS comparison (test/lit/codegen/gemm-sass.cu,
bench/gemm/run.sh NO_RUN=1) needs one. Standard library only; the wheels
are pinned by version and SHA-256, so every machine disassembles alike.
"""

import hashlib
import io
import json
import os
import sys
import time
import urllib.parse
import urllib.request
import zipfile

VERSION = "13.5.37"
TAG = "py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64"
# package -> (SHA-256 of its wheel, the tool in it)
WHEELS = {
    "nvidia-cuda-cuobjdump":
        ("38780fee50863252a0b8926357faa91615ca1c8346490563f33a06100cd73f58", "cuobjdump"),
    "nvidia-cuda-nvdisasm":
        ("d3fdbdd49fa53e2e4aacd3db8259d052bd2b049ececdcb69e92e083c6728e7ca", "nvdisasm"),
}


def get(url):
    # PyPI hiccups: a few tries before giving up.
    for attempt in range(3):
        try:
            with urllib.request.urlopen(url, timeout=120) as r:
                return r.read()
        except OSError as e:
            if attempt == 2:
                sys.exit("fetch_cuobjdump: %s: %s" % (url, e))
            time.sleep(5)


def fetch(package, sha256, tool, outdir):
    wheel = "%s-%s-%s.whl" % (package.replace("-", "_"), VERSION, TAG)
    index = "https://pypi.org/pypi/%s/json" % package
    files = json.loads(get(index)).get("releases", {}).get(VERSION, [])
    # A mirror may answer with relative links.
    urls = [urllib.parse.urljoin(index, f["url"]) for f in files if f.get("filename") == wheel]
    if not urls:
        sys.exit("fetch_cuobjdump: PyPI lists no %s" % wheel)
    data = get(urls[0])
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        sys.exit("fetch_cuobjdump: %s has SHA-256 %s, expected %s" % (wheel, digest, sha256))
    out = os.path.join(outdir, tool)
    with zipfile.ZipFile(io.BytesIO(data)) as z, open(out + ".tmp", "wb") as fh:
        fh.write(z.read("nvidia/cu13/bin/" + tool))
    os.chmod(out + ".tmp", 0o755)
    os.replace(out + ".tmp", out)  # cuobjdump last: its presence means both are there


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fetch_cuobjdump.py DIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    for package in ("nvidia-cuda-nvdisasm", "nvidia-cuda-cuobjdump"):
        sha256, tool = WHEELS[package]
        fetch(package, sha256, tool, sys.argv[1])
    print("libts: cuobjdump and nvdisasm %s in %s" % (VERSION, sys.argv[1]))


if __name__ == "__main__":
    main()
