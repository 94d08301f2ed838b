"""Drives clangd over LSP with several kernel files open at once.

Opens every file given, waits for each file's diagnostics, applies the
edits (file, new text) and waits for the diagnostics of the new versions,
then prints one line per published diagnostic set:

    <file> v<version>: <line>:<col> <severity> <message>   (or "<file> v<n>: clean")

so that FileCheck can hold each file to exactly its own diagnostics.

usage: lsp.py <clangd> <dir> <seconds> <file>... [--edit <file> <replacement>]...
"""
import json
import os
import subprocess
import sys
import time


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def main():
    clangd, root, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    args = sys.argv[4:]
    files, edits = [], []
    while args:
        if args[0] == "--edit":
            edits.append((args[1], args[2]))
            args = args[3:]
        else:
            files.append(args[0])
            args = args[1:]
    proc = subprocess.Popen([clangd, "--log=error"], cwd=root, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    uri = lambda f: "file://" + os.path.join(root, f)
    send = lambda m: (proc.stdin.write(frame(m)), proc.stdin.flush())
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": os.getpid(), "rootUri": "file://" + root,
                     "capabilities": {"textDocument": {"publishDiagnostics":
                                                       {"versionSupport": True}}}}})
    while True:
        m = read_message(proc.stdout)
        if m is None or m.get("id") == 1:
            break
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for f in files:
        with open(os.path.join(root, f)) as fh:
            send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                  "params": {"textDocument": {"uri": uri(f), "languageId": "cuda",
                                              "version": 1, "text": fh.read()}}})
    want = {uri(f): 1 for f in files}
    seen = {}

    def wait_for(want):
        deadline = time.time() + timeout
        while any(seen.get(u, (0,))[0] < v for u, v in want.items()):
            if time.time() > deadline:
                print("timeout waiting for diagnostics")
                sys.exit(1)
            m = read_message(proc.stdout)
            if m is None:
                print("clangd exited")
                sys.exit(1)
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m["params"]
                seen[p["uri"]] = (p.get("version", 0), p["diagnostics"])

    def show(u, f):
        version, diags = seen[u]
        libts = [d for d in diags if d.get("code", "").startswith("ts-") or
                 "ts::" in d["message"] or d["severity"] == 1]
        if not libts:
            print("%s v%d: clean" % (f, version))
        for d in sorted(libts, key=lambda d: (d["range"]["start"]["line"], d["message"])):
            s = d["range"]["start"]
            print("%s v%d: %d:%d %s %s" % (f, version, s["line"] + 1, s["character"] + 1,
                                            {1: "error", 2: "warning"}.get(d["severity"], "note"),
                                            d["message"].splitlines()[0]))

    start = time.time()
    wait_for(want)
    for f in files:
        show(uri(f), f)
    for f, replacement in edits:
        with open(os.path.join(root, replacement)) as fh:
            send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": uri(f), "version": 2},
                             "contentChanges": [{"text": fh.read()}]}})
    wait_for({uri(f): 2 for f, _ in edits})
    for f, _ in edits:
        show(uri(f), f)
    elapsed = time.time() - start
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=30)
    print("all diagnostics within %.0f s" % timeout if elapsed <= timeout else "slow")


main()
