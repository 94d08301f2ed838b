// GEMM implementations the benchmark (bench/gemm/bench.cu) compares with
// cuBLAS. All compute, with bf16 inputs, fp32 accumulation and bf16 output,
//
//   C[M][N] = sum_k A[M][K] * B[N][K]       ("TN": A and B both K-major)
//
// A row-major M x K, B row-major N x K, C row-major M x N, all on the device.
// Each returns cudaErrorInvalidValue (after a message on stderr) for a shape
// it does not support, otherwise the launch's error; it does not
// synchronize.
#ifndef LIBTS_BENCH_GEMM_H
#define LIBTS_BENCH_GEMM_H

#include <cuda_bf16.h>
#include <cuda_runtime.h>

typedef cudaError_t (*gemm_fn)(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                               int M, int N, int K, cudaStream_t s);

/// Hand-written sm_90a kernel (test/gpu/handwritten/gemm_sm90_hand.cu):
/// 128 x 256 tiles; M % 128 == 0, N % 256 == 0, K % 64 == 0 (variant 2:
/// M % 256 == 0). Runs variant 4.
cudaError_t gemm_sm90_hand(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                           int M, int N, int K, cudaStream_t s);

/// Its configurations, measured to choose the one gemm_sm90_hand uses:
/// 0: one CTA, every consumer thread releases a stage (as libts' release),
///    epilogue straight from registers;
/// 1: one CTA, one arrival per consumer warp, epilogue from registers;
/// 2: 2-CTA cluster along M, B tile multicast, one arrival per warp and CTA,
///    TMA-store epilogue;
/// 3: as 0 with the TMA-store epilogue;
/// 4: as 1 with the TMA-store epilogue (the default).
cudaError_t gemm_sm90_hand_variant(int variant, const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                   __nv_bfloat16 *C, int M, int N, int K, cudaStream_t s);

/// The libts kernel (same tiles and schedule, written as libts tasks).
cudaError_t gemm_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                            int M, int N, int K, cudaStream_t s);
/// The same built with -DGEMM_CLUSTER=2 (2-CTA clusters, B multicast), its
/// names changed so both link into one benchmark (bench/gemm/run.sh).
cudaError_t gemm_sm90_libts_cluster2(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                     __nv_bfloat16 *C, int M, int N, int K, cudaStream_t s);

#endif
