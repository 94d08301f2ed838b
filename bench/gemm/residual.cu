// Times the libts GEMM with a residual epilogue (examples/gemm_residual_sm90.cu,
// built with -DGEMM_NO_MAIN) against what a user calls instead: cuBLAS
// with beta = 1 and C holding R (C = A B^T + C, in place), and plain
// cuBLAS (beta = 0) for the cost of the epilogue's extra read. bf16 in,
// fp32 accumulation, bf16 out; A M x K and B N x K K-major, R and C M x N.
//
//   nvcc -arch=sm_90a -O3 -std=c++17 -Iinclude -DGEMM_NO_MAIN emitted.cu \
//     bench/gemm/residual.cu -lcublas -o residual && ./residual [M N K]...
//
// For each shape: error = max |C_libts - C_cublas| / max |C_cublas|;
// time = median of 50 launches after 5 warm-ups, each timed by events.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "bench_util.h"

cudaError_t gemm_residual_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                     const __nv_bfloat16 *R, __nv_bfloat16 *C, int M, int N,
                                     int K, cudaStream_t s);

static cublasHandle_t g_cublas;

static void run_shape(int M, int N, int K) {
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(N) * K), hr(size_t(M) * N);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&ha, &hb, &hr})
    for (auto &e : *v)
      e = __float2bfloat16(rnd());
  __nv_bfloat16 *A, *B, *R, *C, *Cref;
  CHECK(cudaMalloc(&A, ha.size() * 2));
  CHECK(cudaMalloc(&B, hb.size() * 2));
  CHECK(cudaMalloc(&R, hr.size() * 2));
  CHECK(cudaMalloc(&C, hr.size() * 2));
  CHECK(cudaMalloc(&Cref, hr.size() * 2));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(R, hr.data(), hr.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(Cref, R, hr.size() * 2, cudaMemcpyDeviceToDevice));
  cublas_gemm(g_cublas, A, B, Cref, M, N, K, 1.f);
  CHECK(gemm_residual_sm90_libts(A, B, R, C, M, N, K, 0));
  CHECK(cudaDeviceSynchronize());
  std::vector<__nv_bfloat16> hc(hr.size()), href(hr.size());
  CHECK(cudaMemcpy(hc.data(), C, hc.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(href.data(), Cref, href.size() * 2, cudaMemcpyDeviceToHost));
  double err = 0, ref = 0;
  for (size_t e = 0; e < hc.size(); ++e) {
    err = std::max(err, double(std::fabs(__bfloat162float(hc[e]) - __bfloat162float(href[e]))));
    ref = std::max(ref, double(std::fabs(__bfloat162float(href[e]))));
  }
  const double t_libts = median_ms([&] { CHECK(gemm_residual_sm90_libts(A, B, R, C, M, N, K, 0)); });
  // In place: each launch adds to what the last one left; the time is the same.
  const double t_beta1 = median_ms([&] { cublas_gemm(g_cublas, A, B, Cref, M, N, K, 1.f); });
  const double t_beta0 = median_ms([&] { cublas_gemm(g_cublas, A, B, Cref, M, N, K, 0.f); });
  auto tf = [&](double ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; };
  std::printf("| %d x %d x %d | %.3f | %.1f | %.1f | %.1f | %.3f | %.3f | %.1e |\n", M, N, K,
              t_libts, tf(t_libts), tf(t_beta1), tf(t_beta0), t_beta1 / t_libts,
              t_beta0 / t_libts, err / std::max(ref, 1e-30));
  for (void *p : {(void *)A, (void *)B, (void *)R, (void *)C, (void *)Cref})
    CHECK(cudaFree(p));
}

int main(int argc, char **argv) {
  CHECK_CUBLAS(cublasCreate(&g_cublas));
  std::printf("| M x N x K | libts ms | libts TFLOP/s | cuBLAS beta=1 TFLOP/s | cuBLAS beta=0 "
              "TFLOP/s | libts / beta=1 | libts / beta=0 | error |\n|---|---|---|---|---|---|---|"
              "---|\n");
  if (argc >= 4) {
    for (int i = 1; i + 2 < argc; i += 3)
      run_shape(std::atoi(argv[i]), std::atoi(argv[i + 1]), std::atoi(argv[i + 2]));
  } else {
    for (int s : {2048, 4096, 6144, 8192})
      run_shape(s, s, s);
    run_shape(8192, 8192, 2048);
  }
  CHECK_CUBLAS(cublasDestroy(g_cublas));
  return 0;
}
