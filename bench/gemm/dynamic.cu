// Times the libts GEMM with a dynamic tile scheduler
// (examples/gemm_dynamic_sm90.cu, built with -DGEMM_NO_MAIN) against cuBLAS
// and against the same GEMM with the static scheduler
// (examples/gemm_sm90.cu, -DGEMM_NO_MAIN). bf16 in, fp32 accumulation,
// bf16 out; A M x K and B N x K K-major, C M x N.
//
//   nvcc -arch=sm_90a -O3 -std=c++17 -Iinclude -DGEMM_NO_MAIN dynamic_emitted.cu \
//     gemm_emitted.cu bench/gemm/dynamic.cu -lcublas -o dynamic && ./dynamic [M N K]...
//
// For each shape: error = max |C_dynamic - C_cublas| / max |C_cublas|;
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

cudaError_t gemm_dynamic_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                    __nv_bfloat16 *C, int M, int N, int K, int *sched,
                                    cudaStream_t s);
cudaError_t gemm_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                            int M, int N, int K, cudaStream_t s);

static cublasHandle_t g_cublas;

static void run_shape(int M, int N, int K, int *sched) {
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(N) * K);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&ha, &hb})
    for (auto &e : *v)
      e = __float2bfloat16(rnd());
  __nv_bfloat16 *A, *B, *C, *Cref;
  const size_t n = size_t(M) * N;
  CHECK(cudaMalloc(&A, ha.size() * 2));
  CHECK(cudaMalloc(&B, hb.size() * 2));
  CHECK(cudaMalloc(&C, n * 2));
  CHECK(cudaMalloc(&Cref, n * 2));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  cublas_gemm(g_cublas, A, B, Cref, M, N, K);
  CHECK(gemm_dynamic_sm90_libts(A, B, C, M, N, K, sched, 0));
  CHECK(cudaDeviceSynchronize());
  std::vector<__nv_bfloat16> hc(n), href(n);
  CHECK(cudaMemcpy(hc.data(), C, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(href.data(), Cref, n * 2, cudaMemcpyDeviceToHost));
  double err = 0, ref = 0;
  for (size_t e = 0; e < n; ++e) {
    err = std::max(err, double(std::fabs(__bfloat162float(hc[e]) - __bfloat162float(href[e]))));
    ref = std::max(ref, double(std::fabs(__bfloat162float(href[e]))));
  }
  const double t_dyn =
      median_ms([&] { CHECK(gemm_dynamic_sm90_libts(A, B, C, M, N, K, sched, 0)); });
  const double t_static = median_ms([&] { CHECK(gemm_sm90_libts(A, B, C, M, N, K, 0)); });
  const double t_cublas = median_ms([&] { cublas_gemm(g_cublas, A, B, Cref, M, N, K); });
  auto tf = [&](double ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; };
  std::printf("| %d x %d x %d | %.3f | %.1f | %.1f | %.1f | %.3f | %.3f | %.1e |\n", M, N, K,
              t_dyn, tf(t_dyn), tf(t_static), tf(t_cublas), t_cublas / t_dyn, t_static / t_dyn,
              err / std::max(ref, 1e-30));
  for (void *p : {(void *)A, (void *)B, (void *)C, (void *)Cref})
    CHECK(cudaFree(p));
}

int main(int argc, char **argv) {
  CHECK_CUBLAS(cublasCreate(&g_cublas));
  int *sched;
  CHECK(cudaMalloc(&sched, 2 * sizeof(int)));
  CHECK(cudaMemset(sched, 0, 2 * sizeof(int)));
  std::printf("| M x N x K | dynamic ms | dynamic TFLOP/s | static TFLOP/s | cuBLAS TFLOP/s | "
              "dynamic / cuBLAS | dynamic / static | error |\n|---|---|---|---|---|---|---|---|\n");
  if (argc >= 4) {
    for (int i = 1; i + 2 < argc; i += 3)
      run_shape(std::atoi(argv[i]), std::atoi(argv[i + 1]), std::atoi(argv[i + 2]), sched);
  } else {
    for (int s : {2048, 4096, 6144, 8192})
      run_shape(s, s, s, sched);
    run_shape(8192, 8192, 2048, sched);
    run_shape(4096, 4096, 16384, sched);
  }
  CHECK(cudaFree(sched));
  CHECK_CUBLAS(cublasDestroy(g_cublas));
  return 0;
}
