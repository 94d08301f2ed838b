#!/usr/bin/env python3
"""Attention forward benchmark: hand-written (and later libts) Hopper kernels
against PyTorch SDPA's cuDNN and flash backends, in one process, on the same
tensors.

    python3 bench/attention/bench.py --lib-dir DIR [--check] [--shape B,S,H,D]...
                                     [--causal 0|1|both] [--impl NAME:LIB:SYMBOL]...

Every implementation in IMPLS (plus --impl ones) is a shared library exporting

    int SYMBOL(const void *q, const void *k, const void *v, void *o, float *lse,
               int batch, int seqlen, int heads, int head_dim, int causal,
               cudaStream_t stream);   // 0 = launched

with Q, K, V, O bf16 [batch][seqlen][heads][head_dim] contiguous and LSE fp32
[batch][heads][seqlen], natural log (test/gpu/handwritten/attention_sm90_hand.cu).
SDPA takes (B, H, S, D): it gets transposed views of the same tensors.

For each shape and mask: the result of every implementation is compared with
an fp32 PyTorch reference (max |O - ref| and max |LSE - ref|; SDPA's O too, as
the bf16 yardstick), then all are timed together: warm-up, then many
launches of each between two CUDA events, interleaved (one launch of every
implementation per step, in a shuffled order, a new one every step), so that the
GPU's clock and power state, which drift over tens of milliseconds, weigh on
every implementation alike; the median launch of each, --rounds times (3),
and the median round kept. TFLOP/s counts 4*B*H*S*S*D flops (causal: half). Default shapes: FlashAttention-3's (16 heads, head dim 128,
batch * seqlen = 16384, seqlen 1k..16k), non-causal and causal.
"""
import argparse
import ctypes
import math
import os
import random
import statistics
import sys

import torch
import torch.nn.functional as F

# (name, shared library (relative to --lib-dir unless absolute), symbol).
# Add the libts kernel with one line, e.g.
#   ("libts", "attention_sm90_libts.so", "attention_sm90_libts"),
IMPLS = [
    ("hand", "attention_sm90_hand.so", "attention_sm90_hand"),
    ("hand_nopp", "attention_sm90_hand.so", "attention_sm90_hand_nopp"),
    ("hand_regstore", "attention_sm90_hand.so", "attention_sm90_hand_regstore"),
]

PAPER_SHAPES = [(16384 // s, s, 16, 128) for s in (1024, 2048, 4096, 8192, 16384)]
CHECK_SHAPES = [(1, 256, 16, 128), (2, 1024, 16, 128), (1, 4096, 4, 128)]
O_TOL, LSE_TOL = 2e-2, 1e-3


def parse_shape(text):
    parts = [int(x) for x in text.split(",")]
    if len(parts) != 4:
        raise argparse.ArgumentTypeError("--shape B,S,H,D")
    return tuple(parts)


class Impl:
    def __init__(self, name, lib_path, symbol):
        self.name = name
        self.fn = getattr(ctypes.CDLL(lib_path), symbol)
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 5 + [ctypes.c_void_p]

    def __call__(self, q, k, v, o, lse, causal):
        B, S, H, D = q.shape
        rc = self.fn(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(),
                     B, S, H, D, int(causal), torch.cuda.current_stream().cuda_stream)
        if rc != 0:
            raise RuntimeError(f"{self.name}: returned {rc} for shape {(B, S, H, D)}")


def sdpa_backends():
    """(name, backend) for the SDPA backends this PyTorch has."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return [], None
    out = []
    for name, attr in (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION")):
        if hasattr(SDPBackend, attr):
            out.append((name, getattr(SDPBackend, attr)))
    return out, sdpa_kernel


def reference(q, k, v, causal):
    """fp32 reference, (B*H, S, D) O and (B*H, S) LSE, in chunks of heads."""
    B, S, H, D = q.shape
    qt = q.permute(0, 2, 1, 3).reshape(B * H, S, D)
    kt = k.permute(0, 2, 1, 3).reshape(B * H, S, D)
    vt = v.permute(0, 2, 1, 3).reshape(B * H, S, D)
    o = torch.empty(B * H, S, D, dtype=torch.float32, device=q.device)
    lse = torch.empty(B * H, S, dtype=torch.float32, device=q.device)
    chunk = max(1, (1 << 28) // (S * S))  # ~1 GiB of fp32 scores at a time
    scale = 1.0 / math.sqrt(D)
    mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1) if causal else None
    for i in range(0, B * H, chunk):
        j = min(B * H, i + chunk)
        s = torch.bmm(qt[i:j].float(), kt[i:j].float().transpose(1, 2)) * scale
        if causal:
            s.masked_fill_(mask, float("-inf"))
        l = torch.logsumexp(s, dim=-1)
        lse[i:j] = l
        s.sub_(l.unsqueeze(-1)).exp_()
        o[i:j] = torch.bmm(s, vt[i:j].float())
        del s
    return o, lse


def time_interleaved(fns, warmup, reps):
    """{name: median ms} over reps steps, each launching every fn once."""
    for _, fn in fns:
        for _ in range(warmup):
            fn()
    torch.cuda.synchronize()
    events = {name: [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                     for _ in range(reps)] for name, _ in fns}
    # A fresh order every step: a rotation keeps each implementation behind
    # the same neighbour, and what ran just before (its power draw) moved an
    # implementation by up to 1-2% (docs/benchmarks.md, session 30).
    rng = random.Random(12345)
    for r in range(reps):
        order = list(fns)
        rng.shuffle(order)
        for name, fn in order:
            a, b = events[name][r]
            a.record()
            fn()
            b.record()
    torch.cuda.synchronize()
    return {name: statistics.median(a.elapsed_time(b) for a, b in events[name]) for name, _ in fns}


def time_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for a, b in zip(starts, ends):
        a.record()
        fn()
        b.record()
    torch.cuda.synchronize()
    return statistics.median(a.elapsed_time(b) for a, b in zip(starts, ends))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib-dir", default=os.environ.get("OUT", "/tmp/attention-bench"))
    ap.add_argument("--shape", type=parse_shape, action="append",
                    help="B,S,H,D (repeatable; default: the FA3 paper shapes)")
    ap.add_argument("--check", action="store_true", help="correctness only (small shapes)")
    ap.add_argument("--causal", choices=["0", "1", "both"], default="both")
    ap.add_argument("--impl", action="append", default=[],
                    help="NAME:LIB:SYMBOL, another implementation")
    ap.add_argument("--only", help="comma-separated implementation names to run")
    ap.add_argument("--no-sdpa", action="store_true")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--reps", type=int, default=0, help="timed steps per round (0: about 1 s)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of interleaved timing; the median round is kept")
    args = ap.parse_args()

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    print(f"# device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"cuda {torch.version.cuda}, cudnn {torch.backends.cudnn.version()}")

    specs = list(IMPLS) + [tuple(x.split(":", 2)) for x in args.impl]
    if args.only:
        keep = set(args.only.split(","))
        specs = [s for s in specs if s[0] in keep]
    impls = []
    for name, lib, sym in specs:
        path = lib if os.path.isabs(lib) else os.path.join(args.lib_dir, lib)
        impls.append(Impl(name, path, sym))
    backends, sdpa_kernel = ([], None) if args.no_sdpa else sdpa_backends()

    shapes = args.shape or (CHECK_SHAPES if args.check else PAPER_SHAPES)
    masks = {"0": [False], "1": [True], "both": [False, True]}[args.causal]
    failures = 0
    rows = []
    for (B, S, H, D) in shapes:
        torch.manual_seed(0)
        q = torch.randn(B, S, H, D, dtype=torch.bfloat16, device=dev)
        k = torch.randn(B, S, H, D, dtype=torch.bfloat16, device=dev)
        v = torch.randn(B, S, H, D, dtype=torch.bfloat16, device=dev)
        o = torch.empty_like(q)
        lse = torch.empty(B, H, S, dtype=torch.float32, device=dev)
        qs, ks, vs = (x.transpose(1, 2) for x in (q, k, v))  # (B, H, S, D) views
        for causal in masks:
            o_ref, lse_ref = reference(q, k, v, causal)
            errs = {}
            for impl in impls:
                o.fill_(float("nan"))
                lse.fill_(float("nan"))
                impl(q, k, v, o, lse, causal)
                torch.cuda.synchronize()
                eo = (o.permute(0, 2, 1, 3).reshape(B * H, S, D).float() - o_ref).abs().max().item()
                el = (lse.reshape(B * H, S) - lse_ref).abs().max().item()
                ok = eo < O_TOL and el < LSE_TOL  # NaN compares False
                failures += not ok
                errs[impl.name] = (eo, el, ok)
            sdpa_fns = {}
            for name, backend in backends:
                def run_sdpa(backend=backend, causal=causal):
                    with sdpa_kernel([backend]):
                        return F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal)
                try:
                    out = run_sdpa()
                    torch.cuda.synchronize()
                except RuntimeError as e:
                    print(f"# sdpa {name} unavailable for {(B, S, H, D)} causal={int(causal)}: "
                          f"{str(e).splitlines()[0]}")
                    continue
                eo = (out.reshape(B * H, S, D).float() - o_ref).abs().max().item()
                errs[name] = (eo, None, True)
                sdpa_fns[name] = run_sdpa
                del out
            del o_ref, lse_ref
            for name, (eo, el, ok) in errs.items():
                el_s = f", max|LSE-ref| {el:.3e}" if el is not None else ""
                print(f"check B={B} S={S} H={H} D={D} causal={int(causal)} {name:>10}: "
                      f"max|O-ref| {eo:.3e}{el_s}{'' if ok else '  FAIL'}")
            if args.check:
                continue
            flops = 4.0 * B * H * S * S * D * (0.5 if causal else 1.0)
            tflops = {}
            fns = [(i.name, (lambda i=i: i(q, k, v, o, lse, causal))) for i in impls]
            fns += list(sdpa_fns.items())
            reps = args.reps
            if reps <= 0:  # about a second of launches per round
                step = sum(time_ms(fn, 1, 3) for _, fn in fns)
                reps = int(min(2000, max(20, 1000.0 / max(step, 1e-3))))
            times = {name: [] for name, _ in fns}
            for _ in range(args.rounds):
                for name, ms in time_interleaved(fns, args.warmup, reps).items():
                    times[name].append(ms)
            for name, _ in fns:
                tflops[name] = flops / (statistics.median(times[name]) * 1e-3) / 1e12
            rows.append(((B, S, H, D), causal, tflops))
            line = " ".join(f"{n} {t:7.1f}" for n, t in tflops.items())
            print(f"time  B={B} S={S} H={H} D={D} causal={int(causal)}: TFLOP/s {line}")
        del q, k, v, o, lse

    if rows:
        names = list(rows[0][2].keys())
        base = [n for n in ("cudnn", "flash") if n in names]
        own = [n for n in names if n not in ("cudnn", "flash")]
        head = ["B", "S", "H", "D", "causal"] + [f"{n} TF/s" for n in names]
        head += [f"{a}/{b}" for a in own for b in base]
        print()
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for (shape, causal, t) in rows:
            cells = [str(x) for x in shape] + [str(int(causal))]
            cells += [f"{t[n]:.1f}" if n in t else "-" for n in names]
            cells += [f"{t[a] / t[b]:.3f}" if a in t and b in t else "-" for a in own for b in base]
            print("| " + " | ".join(cells) + " |")
    print(f"\n{'FAILED: ' + str(failures) + ' check(s)' if failures else 'all checks passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
