#!/usr/bin/env python3
"""FP8 GEMM with per-block scaling: the libts kernel (examples/gemm_fp8_sm90.cu)
against torch._scaled_mm, in one process, on the same tensors.

    python3 bench/gemm/fp8.py --lib LIB [--shape M,N,K]... [--rounds 3]

LIB is the example built as a shared library exporting

    cudaError_t gemm_fp8_sm90_libts(const void *A, const void *B,
                                    const float *SA, const float *SB, void *C,
                                    int M, int N, int K, cudaStream_t s);

(nvcc -std=c++17 -arch=sm_90a -O3 -Iinclude -DGEMM_NO_MAIN -Xcompiler -fPIC
-shared emitted.cu -o libfp8.so). A (M x K) and B (N x K) are e4m3; SA is
one scale per row and 128 of K, (M, K/128) with strides (1, M); SB one per
128 x 128 block of B, (N/128, K/128) contiguous. Those are the layouts
torch._scaled_mm takes for its 1x128 x 128x128 block-wise recipe (the
DeepSeek-V3 one), so `_scaled_mm block` is the same product on the same
tensors. `_scaled_mm tensor` (one scale per operand, no promotion inside the
kernel) is the ceiling a block-scaled kernel is usually held to; its ratio
is printed beside.

For each shape, both block-scaled results are compared with an fp32
reference (max |C - ref| / max |ref|), then every kernel is timed:
warm-up, then launches alternated, each between two CUDA events; the
median of --iters launches per round, the median round kept. TFLOP/s counts
2 * M * N * K.
"""
import argparse
import ctypes
import statistics

import torch

DEFAULT_SHAPES = [
    (8192, 8192, 8192),
    (4096, 4096, 4096),
    (4096, 7168, 2048),
    (4096, 4096, 7168),
    (6144, 24576, 1536),
    (16384, 4096, 7168),
]


def parse_shape(text):
    parts = tuple(int(v) for v in text.split(","))
    if len(parts) != 3:
        raise argparse.ArgumentTypeError("--shape M,N,K")
    return parts


def timed(fn):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def operands(m, n, k):
    """e4m3 operands and dequantization scales in _scaled_mm's layouts."""
    gen = torch.Generator(device="cuda").manual_seed(0)
    a = ((torch.rand(m, k, device="cuda", generator=gen) * 2 - 1) * 8).to(torch.float8_e4m3fn)
    b = ((torch.rand(n, k, device="cuda", generator=gen) * 2 - 1) * 8).to(torch.float8_e4m3fn)
    sa = torch.rand(m, k // 128, device="cuda", generator=gen) + 0.5
    sb = torch.rand(n // 128, k // 128, device="cuda", generator=gen) + 0.5
    return a, b, sa.t().contiguous().t(), sb


def reference(a, b, sa, sb):
    """fp32: every A element times its row's block scale, every B element
    times its block's."""
    af = a.float() * sa.repeat_interleave(128, dim=1)
    bf = b.float() * sb.repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)
    return af @ bf.t()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--shape", type=parse_shape, action="append")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=30)
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    fn = ctypes.CDLL(args.lib).gemm_fp8_sm90_libts
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_void_p]
    stream = torch.cuda.current_stream().cuda_stream
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"cuBLAS {torch.backends.cuda.preferred_blas_library()}")
    print("| M, N, K | libts ms | libts TFLOP/s | _scaled_mm block ms | block TFLOP/s | "
          "libts / block | _scaled_mm tensor TFLOP/s | libts / tensor | libts error | "
          "block error |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    bad = 0
    for (m, n, k) in args.shape or DEFAULT_SHAPES:
        a, b, sa, sb = operands(m, n, k)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        one = torch.ones((), device="cuda")

        def libts():
            rc = fn(a.data_ptr(), b.data_ptr(), sa.data_ptr(), sb.data_ptr(), c.data_ptr(),
                    m, n, k, stream)
            if rc:
                raise RuntimeError(f"gemm_fp8_sm90_libts returned {rc}")

        def block():
            return torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb.t(),
                                    out_dtype=torch.bfloat16)

        def tensor():
            return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                    out_dtype=torch.bfloat16)

        ref = reference(a, b, sa, sb)
        scale = ref.abs().max().item()
        libts()
        err_l = (c.float() - ref).abs().max().item() / scale
        try:
            err_b = (block().float() - ref).abs().max().item() / scale
        except RuntimeError as e:  # a PyTorch without the block-wise recipe
            print(f"# _scaled_mm block-wise: {str(e).splitlines()[0]}")
            block, err_b = None, float("nan")
        del ref
        torch.cuda.synchronize()
        bad += err_l > 1e-2
        kernels = [libts, tensor] + ([block] if block else [])
        for _ in range(5):
            for f in kernels:
                f()
        rounds = {f: [] for f in kernels}
        for _ in range(args.rounds):
            times = {f: [] for f in kernels}
            for _ in range(args.iters):
                for f in kernels:
                    times[f].append(timed(f))
            for f in kernels:
                rounds[f].append(statistics.median(times[f]))
        ms = {f: statistics.median(rounds[f]) for f in kernels}
        flops = 2.0 * m * n * k
        tl, tt = ms[libts], ms[tensor]
        tb = ms[block] if block else float("nan")
        print(f"| {m}, {n}, {k} | {tl:.3f} | {flops / tl / 1e9:.1f} | {tb:.3f} | "
              f"{flops / tb / 1e9:.1f} | {tb / tl:.3f} | {flops / tt / 1e9:.1f} | {tt / tl:.3f} | "
              f"{err_l:.1e} | {err_b:.1e} |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
