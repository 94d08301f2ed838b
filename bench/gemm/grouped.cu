// Times the libts grouped GEMM (examples/gemm_grouped_sm90.cu, built with
// -DGEMM_NO_MAIN) against what a user calls instead: a loop of cuBLAS GEMMs,
// one per group, on one stream, and cuBLAS's grouped batched GEMM
// (cublasGemmGroupedBatchedEx, one group of size 1 per problem). bf16 in,
// fp32 accumulation, bf16 out; A_g M_g x K_g and B_g N_g x K_g K-major,
// C_g M_g x N_g.
//
//   nvcc -arch=sm_90a -O3 -std=c++17 -Iinclude -DGEMM_NO_MAIN emitted.cu \
//     bench/gemm/grouped.cu -lcublas -o grouped && ./grouped
//
// For each set: error = the worst over groups of max |C_libts - C_cublas| /
// max |C_cublas|; time = median of 50 launches after 5 warm-ups, each
// timed by events; TFLOP/s over all groups.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_util.h"

struct GroupedProblem {
  const __nv_bfloat16 *A, *B;
  __nv_bfloat16 *C;
  int M, N, K;
};
cudaError_t gemm_grouped_sm90_libts(const GroupedProblem *groups, int count, cudaStream_t s);

static cublasHandle_t g_cublas;

/// One group through cuBLAS (nothing for an empty group).
static void group_gemm(const GroupedProblem &q, __nv_bfloat16 *C) {
  if (q.M)
    cublas_gemm(g_cublas, q.A, q.B, C, q.M, q.N, q.K);
}

/// The same problems through cublasGemmGroupedBatchedEx: one call, each
/// problem a group of one. The matrix pointer arrays live on the device,
/// the shapes and scalars on the host.
struct CublasGrouped {
  std::vector<cublasOperation_t> ta, tb;
  std::vector<int> m, n, k, lda, ldb, ldc, size;
  std::vector<float> alpha, beta;
  std::vector<const void *> a, b;
  std::vector<void *> c;
  explicit CublasGrouped(const std::vector<GroupedProblem> &qs,
                         const std::vector<__nv_bfloat16 *> &out) {
    for (size_t g = 0; g < qs.size(); ++g) {
      const GroupedProblem &q = qs[g];
      if (q.M == 0)
        continue;
      ta.push_back(CUBLAS_OP_T);
      tb.push_back(CUBLAS_OP_N);
      m.push_back(q.N);
      n.push_back(q.M);
      k.push_back(q.K);
      lda.push_back(q.K);
      ldb.push_back(q.K);
      ldc.push_back(q.N);
      size.push_back(1);
      alpha.push_back(1.f);
      beta.push_back(0.f);
      a.push_back(q.B);
      b.push_back(q.A);
      c.push_back(out[g]);
    }
    upload();
  }
  const void **da = nullptr, **db = nullptr;
  void **dc = nullptr;
  void upload() {
    const size_t bytes = c.size() * sizeof(void *);
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice));
  }
  ~CublasGrouped() {
    for (const void *p : {(const void *)da, (const void *)db, (const void *)dc})
      CHECK(cudaFree(const_cast<void *>(p)));
  }
  cublasStatus_t run() {
    return cublasGemmGroupedBatchedEx(
        g_cublas, ta.data(), tb.data(), m.data(), n.data(), k.data(), alpha.data(), da,
        CUDA_R_16BF, lda.data(), db, CUDA_R_16BF, ldb.data(), beta.data(), dc, CUDA_R_16BF,
        ldc.data(), int(size.size()), size.data(), CUBLAS_COMPUTE_32F);
  }
};

static double max_abs(const std::vector<__nv_bfloat16> &v) {
  double m = 0;
  for (const __nv_bfloat16 &e : v)
    m = std::max(m, double(std::fabs(__bfloat162float(e))));
  return m;
}

/// One set of problems, given as M N K triples.
static void run_set(const char *name, const std::vector<int> &shapes) {
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  std::vector<GroupedProblem> qs;
  std::vector<__nv_bfloat16 *> ref;
  double flops = 0;
  for (size_t i = 0; i + 2 < shapes.size(); i += 3) {
    GroupedProblem q{nullptr, nullptr, nullptr, shapes[i], shapes[i + 1], shapes[i + 2]};
    std::vector<__nv_bfloat16> ha(size_t(q.M) * q.K), hb(size_t(q.N) * q.K);
    for (auto *v : {&ha, &hb})
      for (auto &e : *v)
        e = __float2bfloat16(rnd());
    __nv_bfloat16 *A, *B, *C, *R;
    CHECK(cudaMalloc(&A, ha.size() * 2 + 16));
    CHECK(cudaMalloc(&B, hb.size() * 2 + 16));
    CHECK(cudaMalloc(&C, size_t(q.M) * q.N * 2 + 16));
    CHECK(cudaMalloc(&R, size_t(q.M) * q.N * 2 + 16));
    CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    q.A = A;
    q.B = B;
    q.C = C;
    qs.push_back(q);
    ref.push_back(R);
    flops += 2.0 * q.M * q.N * q.K;
  }
  const int count = int(qs.size());
  CHECK(gemm_grouped_sm90_libts(qs.data(), count, 0));
  for (int g = 0; g < count; ++g)
    group_gemm(qs[g], ref[g]);
  CHECK(cudaDeviceSynchronize());
  double err = 0;
  for (int g = 0; g < count; ++g) {
    const size_t n = size_t(qs[g].M) * qs[g].N;
    std::vector<__nv_bfloat16> hc(n), hr(n);
    CHECK(cudaMemcpy(hc.data(), qs[g].C, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hr.data(), ref[g], n * 2, cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t i = 0; i < n; ++i)
      e = std::max(e, double(std::fabs(__bfloat162float(hc[i]) - __bfloat162float(hr[i]))));
    if (n)
      err = std::max(err, e / std::max(max_abs(hr), 1e-30));
  }
  const double t_libts = median_ms([&] { CHECK(gemm_grouped_sm90_libts(qs.data(), count, 0)); });
  const double t_loop = median_ms([&] {
    for (int g = 0; g < count; ++g)
      group_gemm(qs[g], ref[g]);
  });
  CublasGrouped grouped(qs, ref);
  double t_grouped = -1;
  if (grouped.run() == CUBLAS_STATUS_SUCCESS) { // not every cuBLAS has it for bf16
    CHECK(cudaDeviceSynchronize());
    t_grouped = median_ms([&] { CHECK_CUBLAS(grouped.run()); });
  }
  auto tf = [&](double ms) { return flops / (ms * 1e-3) / 1e12; };
  std::string g_tf = "n/a", g_ratio = "n/a";
  if (t_grouped > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", tf(t_grouped));
    g_tf = buf;
    std::snprintf(buf, sizeof buf, "%.3f", t_grouped / t_libts);
    g_ratio = buf;
  }
  std::printf("| %s | %d | %.3f | %.1f | %.1f | %s | %.3f | %s | %.1e |\n", name, count, t_libts,
              tf(t_libts), tf(t_loop), g_tf.c_str(), t_loop / t_libts, g_ratio.c_str(), err);
  for (int g = 0; g < count; ++g)
    for (void *p : {(void *)qs[g].A, (void *)qs[g].B, (void *)qs[g].C, (void *)ref[g]})
      CHECK(cudaFree(p));
}

int main(int argc, char **argv) {
  CHECK_CUBLAS(cublasCreate(&g_cublas));
  std::printf("| set | groups | libts ms | libts TFLOP/s | cuBLAS loop TFLOP/s | cuBLAS grouped "
              "TFLOP/s | libts / loop | libts / grouped | error |\n|---|---|---|---|---|---|---|"
              "---|---|\n");
  if (argc > 1) { // one set: M N K triples
    std::vector<int> shapes;
    for (int i = 1; i < argc; ++i)
      shapes.push_back(std::atoi(argv[i]));
    run_set("command line", shapes);
  } else {
    // Mixture-of-experts layers: 16k tokens routed unevenly over 8 experts
    // (hidden 4096 -> 4096 and 7168 -> 2048), 2k tokens over 16 experts, and
    // 8 equal groups.
    const std::vector<int> tokens8 = {3072, 1536, 2560, 1024, 2048, 3584, 512, 2048};
    const std::vector<int> tokens16 = {256, 64, 192, 128, 96, 160, 128, 32,
                                       224, 128, 64, 160, 96, 128, 64, 128};
    auto moe = [](const std::vector<int> &tokens, int n, int k) {
      std::vector<int> s;
      for (int m : tokens)
        s.insert(s.end(), {m, n, k});
      return s;
    };
    run_set("8 experts, 16k tokens, N 4096, K 4096", moe(tokens8, 4096, 4096));
    run_set("8 experts, 16k tokens, N 2048, K 7168", moe(tokens8, 2048, 7168));
    run_set("16 experts, 2k tokens, N 4096, K 4096", moe(tokens16, 4096, 4096));
    run_set("8 x 2048 x 4096 x 4096", moe(std::vector<int>(8, 2048), 4096, 4096));
    run_set("mixed M, N, K (the example's default)",
            {1024, 4096, 4096, 3000, 4096, 4096, 0,    4096, 4096, 2048,
             4096, 4096, 777,  4096, 4096, 4096, 4096, 4096, 1920, 4096,
             4096, 256,  2048, 1024, 640,  1000, 2056, 1536, 4096, 512});
  }
  CHECK_CUBLAS(cublasDestroy(g_cublas));
  return 0;
}
