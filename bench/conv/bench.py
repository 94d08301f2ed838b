#!/usr/bin/env python3
"""Implicit-GEMM convolution benchmark: the libts kernel (examples/conv_sm90.cu)
against cuDNN through PyTorch, in one process, on the same tensors.

    python3 bench/conv/bench.py --lib LIB [--shape N,H,W,C,K]... [--rounds 3]

LIB is the example built as a shared library exporting

    int conv_sm90_libts(const void *x, const void *w, void *y,
                        int N, int H, int W, int C, int K, cudaStream_t s);

(nvcc -std=c++17 -arch=sm_90a -O3 -Iinclude -DCONV_NO_MAIN -Xcompiler -fPIC
-shared emitted.cu -o libconv.so). x, w and y are PyTorch channels_last
tensors (NHWC, KRSC, NHWK in memory); the convolution is 3 x 3, stride 1,
padding 1, bf16 with fp32 accumulation. For each shape both results are
compared with an fp32 PyTorch reference (max |y - ref| / max |ref|), then
both are timed: cudnn.benchmark picks cuDNN's algorithm, warm-up, then
launches alternated between the two, each between two CUDA events; the
median of each over --iters launches per round, the median round kept.
TFLOP/s counts 2 * N * H * W * K * 9 * C flops.
"""
import argparse
import ctypes
import statistics

import torch
import torch.nn.functional as F

DEFAULT_SHAPES = [
    (32, 56, 56, 128, 256),
    (32, 28, 28, 256, 512),
    (32, 14, 14, 512, 512),
    (64, 56, 56, 64, 256),
    (16, 64, 64, 256, 256),
    (128, 28, 28, 128, 128),
]


def parse_shape(text):
    parts = tuple(int(v) for v in text.split(","))
    if len(parts) != 5:
        raise argparse.ArgumentTypeError("--shape N,H,W,C,K")
    return parts


def timed(fn, iters):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    out = []
    for _ in range(iters):
        start.record()
        fn()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end))
    return statistics.median(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--shape", type=parse_shape, action="append")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=50)
    args = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    fn = ctypes.CDLL(args.lib).conv_sm90_libts
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 5 + [ctypes.c_void_p]
    stream = torch.cuda.current_stream().cuda_stream
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"cuDNN {torch.backends.cudnn.version()}")
    print("| N, H, W, C, K | libts ms | libts TFLOP/s | cuDNN ms | cuDNN TFLOP/s | "
          "libts / cuDNN | libts error | cuDNN error |")
    print("|---|---|---|---|---|---|---|---|")
    bad = 0
    for (n, h, w, c, k) in args.shape or DEFAULT_SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(0)
        x = (torch.rand(n, c, h, w, device="cuda", generator=gen) * 2 - 1).to(torch.bfloat16)
        x = x.contiguous(memory_format=torch.channels_last)
        wt = (torch.rand(k, c, 3, 3, device="cuda", generator=gen) * 2 - 1).to(torch.bfloat16)
        wt = wt.contiguous(memory_format=torch.channels_last)
        y = torch.empty(n, k, h, w, device="cuda", dtype=torch.bfloat16,
                        memory_format=torch.channels_last)

        def libts():
            rc = fn(x.data_ptr(), wt.data_ptr(), y.data_ptr(), n, h, w, c, k, stream)
            if rc:
                raise RuntimeError(f"conv_sm90_libts returned {rc}")

        def cudnn():
            return F.conv2d(x, wt, padding=1)

        ref = F.conv2d(x.float(), wt.float(), padding=1)
        libts()
        got = cudnn()
        torch.cuda.synchronize()
        scale = ref.abs().max().item()
        err_l = (y.float() - ref).abs().max().item() / scale
        err_c = (got.float() - ref).abs().max().item() / scale
        bad += err_l > 1e-2
        for _ in range(5):
            libts()
            cudnn()
        rounds_l, rounds_c = [], []
        for _ in range(args.rounds):
            tl, tc = [], []
            for _ in range(args.iters):
                tl.append(timed(libts, 1))
                tc.append(timed(cudnn, 1))
            rounds_l.append(statistics.median(tl))
            rounds_c.append(statistics.median(tc))
        ml, mc = statistics.median(rounds_l), statistics.median(rounds_c)
        flops = 2.0 * n * h * w * k * 9 * c
        print(f"| {n}, {h}, {w}, {c}, {k} | {ml:.3f} | {flops / ml / 1e9:.1f} | {mc:.3f} | "
              f"{flops / mc / 1e9:.1f} | {mc / ml:.3f} | {err_l:.1e} | {err_c:.1e} |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
