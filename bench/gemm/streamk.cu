// Times the libts stream-K GEMM (examples/gemm_streamk_sm90.cu, built with
// -DGEMM_NO_MAIN) against cuBLAS and against the data-parallel libts GEMM
// with the same tiles (examples/gemm_sm90.cu, -DGEMM_NO_MAIN). bf16 in, fp32
// accumulation, bf16 out; A M x K and B N x K K-major, C M x N.
//
//   nvcc -arch=sm_90a -O3 -std=c++17 -Iinclude -DGEMM_NO_MAIN streamk_emitted.cu \
//     gemm_emitted.cu bench/gemm/streamk.cu -lcublas -o streamk && ./streamk [M N K]...
//
// For each shape: error = max |C_streamk - C_cublas| / max |C_cublas|;
// time = median of 50 launches after 5 warm-ups, each timed by events.
// The default shapes include tile counts whose last wave leaves much of
// the grid idle, and few tiles with a long K, where stream-K is meant to
// help.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_util.h"

extern "C" cudaError_t gemm_streamk_sm90_workspace(int M, int N, int K, size_t *bytes);
extern "C" cudaError_t gemm_streamk_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                               __nv_bfloat16 *C, int M, int N, int K,
                                               void *workspace, cudaStream_t s);
cudaError_t gemm_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C, int M,
                            int N, int K, cudaStream_t s);

static cublasHandle_t g_cublas;

static void run_shape(int M, int N, int K) {
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(N) * K);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&ha, &hb})
    for (auto &e : *v)
      e = __float2bfloat16(rnd());
  size_t ws_bytes = 0;
  CHECK(gemm_streamk_sm90_workspace(M, N, K, &ws_bytes));
  __nv_bfloat16 *A, *B, *C, *Cref;
  void *ws;
  const size_t n = size_t(M) * N;
  CHECK(cudaMalloc(&A, ha.size() * 2));
  CHECK(cudaMalloc(&B, hb.size() * 2));
  CHECK(cudaMalloc(&C, n * 2));
  CHECK(cudaMalloc(&Cref, n * 2));
  CHECK(cudaMalloc(&ws, ws_bytes));
  CHECK(cudaMemset(ws, 0, ws_bytes));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  cublas_gemm(g_cublas, A, B, Cref, M, N, K);
  CHECK(gemm_streamk_sm90_libts(A, B, C, M, N, K, ws, 0));
  CHECK(cudaDeviceSynchronize());
  std::vector<__nv_bfloat16> hc(n), href(n);
  CHECK(cudaMemcpy(hc.data(), C, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(href.data(), Cref, n * 2, cudaMemcpyDeviceToHost));
  double err = 0, ref = 0;
  for (size_t e = 0; e < n; ++e) {
    err = std::max(err, double(std::fabs(__bfloat162float(hc[e]) - __bfloat162float(href[e]))));
    ref = std::max(ref, double(std::fabs(__bfloat162float(href[e]))));
  }
  const double t_sk = median_ms([&] { CHECK(gemm_streamk_sm90_libts(A, B, C, M, N, K, ws, 0)); });
  const double t_dp = median_ms([&] { CHECK(gemm_sm90_libts(A, B, C, M, N, K, 0)); });
  const double t_cublas = median_ms([&] { cublas_gemm(g_cublas, A, B, Cref, M, N, K); });
  auto tf = [&](double ms) { return 2.0 * M * N * K / (ms * 1e-3) / 1e12; };
  std::printf("| %d x %d x %d | %d | %.3f | %.1f | %.1f | %.1f | %.3f | %.3f | %.1e |\n", M, N, K,
              (M / 128) * (N / 256), t_sk, tf(t_sk), tf(t_dp), tf(t_cublas), t_cublas / t_sk,
              t_dp / t_sk, err / std::max(ref, 1e-30));
  for (void *p : {(void *)A, (void *)B, (void *)C, (void *)Cref, ws})
    CHECK(cudaFree(p));
}

int main(int argc, char **argv) {
  CHECK_CUBLAS(cublasCreate(&g_cublas));
  std::printf("| M x N x K | tiles | stream-K ms | stream-K TFLOP/s | data-parallel TFLOP/s | "
              "cuBLAS TFLOP/s | stream-K / cuBLAS | stream-K / data-parallel | error |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  if (argc >= 4) {
    for (int i = 1; i + 2 < argc; i += 3)
      run_shape(std::atoi(argv[i]), std::atoi(argv[i + 1]), std::atoi(argv[i + 2]));
  } else {
    // Tile counts (128 x 256) against 132 SMs: 512 and 2048 fill their
    // waves (97 %), which the partition runs whole; 64, 192, 200 and 289 do
    // not (48 to 76 %), which it splits.
    const int shapes[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {1024, 2048, 16384},
                             {1536, 4096, 8192}, {2560, 2560, 8192}, {2176, 4352, 4096},
                             {2176, 4352, 8192}};
    for (const auto &s : shapes)
      run_shape(s[0], s[1], s[2]);
  }
  CHECK_CUBLAS(cublasDestroy(g_cublas));
  return 0;
}
