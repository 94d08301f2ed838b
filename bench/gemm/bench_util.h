// What the GEMM benchmark drivers (residual.cu, grouped.cu, dynamic.cu)
// share: error checks, cuBLAS's row-major GEMM and the median event time.
#ifndef LIBTS_BENCH_GEMM_BENCH_UTIL_H
#define LIBTS_BENCH_GEMM_BENCH_UTIL_H

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)
#define CHECK_CUBLAS(x)                                                                        \
  do {                                                                                         \
    if ((x) != CUBLAS_STATUS_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x);                      \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

/// C = A B^T + beta C, row-major, bf16 with fp32 accumulation: cuBLAS sees
/// C^T = B A^T, column-major.
inline void cublas_gemm(cublasHandle_t h, const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        __nv_bfloat16 *C, int M, int N, int K, float beta = 0.f) {
  const float alpha = 1.f;
  CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16BF, K, A,
                            CUDA_R_16BF, K, &beta, C, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
}

/// The median of 50 launches of `run` after 5 warm-ups, each timed by events.
inline double median_ms(const std::function<void()> &run) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int r = -5; r < 50; ++r) {
    CHECK(cudaEventRecord(e0));
    run();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 0)
      ms.push_back(t);
  }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

#endif
