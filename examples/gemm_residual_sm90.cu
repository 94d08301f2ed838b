// Hopper bf16 GEMM with a residual epilogue, written with libts:
// C = A x B^T + R, bf16 in, fp32 accumulate, bf16 out. A is M x K, B is
// N x K (both K-major), R and C are M x N, all row-major.
//
// The GEMM of examples/gemm_sm90.cu (128 x 256 tiles, a 4-stage operand
// pipeline, two consumer warpgroups, persistent grouped tile order) with
// an epilogue loop: each tile runs its k-loop, then a loop over four
// 128 x 64 subtiles of C. For each subtile the producer loads the matching
// tile of R by TMA into a second pipeline (Residual, 2 stages); the MMA
// warpgroups add it to their accumulators in place, in the stage's
// 128-byte swizzled layout, and store the stage to C by TMA. A tile thus
// holds two k-loops, verified pair by pair for every pair of counts, and the
// stage goes back to the producer only once the TMA store has read it (the
// plan derives that from the store in the task).
//
//   ./gemm_residual_sm90 [M N K = 4096 4096 4096] [reps = 20]
// gpu-run-args: 4096 4096 4096 20
// gpu-run-sanitize-args: 256 512 128 1
#include <ts/ts.h>
#include <ts/tensor_map.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gemm_residual {

constexpr int BM = 128, BN = 256, BK = 64; // BK: one 128-byte swizzle row of bf16
constexpr int kGroupM = 16;                // rasterization: M-blocks per group
constexpr int kSubCols = 64;               // a subtile: 128 x 64, one swizzle row wide
constexpr int kSubtiles = BN / kSubCols;

struct Params {
  ts::tma::map<__nv_bfloat16, BM, BK> a;
  ts::tma::map<__nv_bfloat16, BN, BK> b;
  ts::tma::map<__nv_bfloat16, BM, kSubCols> r; // a subtile of R
  ts::tma::map<__nv_bfloat16, 64, kSubCols> c; // a warpgroup's half of a subtile of C
  int k_tiles; // K / 64
  int units_m; // M / 128
  int units_n; // N / 256
  int units;   // tiles
};

struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] Operands {
  __nv_bfloat16 a[BM * BK]; // 16 KiB
  __nv_bfloat16 b[BN * BK]; // 32 KiB
};

/// A subtile of R, then of C: the epilogue adds in place and stores it.
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Residual {
  __nv_bfloat16 v[BM * kSubCols]; // 16 KiB
};

/// Tiles this CTA runs: blockIdx.x, + gridDim.x, ... (a static scheduler).
__device__ __forceinline__ int my_units(const Params &p) {
  const int first = int(blockIdx.x), step = int(gridDim.x);
  return p.units > first ? (p.units - first + step - 1) / step : 0;
}

/// Where tile u lies: groups of kGroupM M-blocks, column by column inside a
/// group, so CTAs running together share A rows and B columns in L2.
__device__ __forceinline__ void tile_coords(const Params &p, int u, int &mb, int &nb) {
  const int per_group = kGroupM * p.units_n;
  const int first = (u / per_group) * kGroupM;
  const int h = min(kGroupM, p.units_m - first);
  const int r = u % per_group;
  mb = first + r % h;
  nb = r / h;
}

/// Subtile j of this warpgroup's 64 x 256 slice plus R, in place in the
/// stage (128-byte swizzled: 16-byte chunk c of row r at c ^ (r % 8), the
/// accumulator layout of m64nNk16 in ts/wgmma.h), then stored to C by TMA
/// from thread 0 of the warpgroup. Each thread reads and writes only its
/// own elements.
__device__ __forceinline__ void add_and_store(const Params &p, const float (&acc)[BN / 2], int j,
                                              int mb, int nb, unsigned wg, __nv_bfloat16 *sub) {
  const unsigned warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const unsigned r = warp * 16 + lane / 4; // rows r and r + 8 of the half
  unsigned char *const half = reinterpret_cast<unsigned char *>(sub) + wg * 64 * 128;
#pragma unroll
  for (int gg = 0; gg < kSubCols / 8; ++gg) {
    const int g = j * (kSubCols / 8) + gg;
    const unsigned off = ((unsigned(gg) ^ (r & 7u)) << 4) + (lane % 4) * 4;
    auto *lo = reinterpret_cast<__nv_bfloat162 *>(half + r * 128 + off);
    auto *hi = reinterpret_cast<__nv_bfloat162 *>(half + (r + 8) * 128 + off);
    const float2 rl = __bfloat1622float2(*lo), rh = __bfloat1622float2(*hi);
    *lo = __floats2bfloat162_rn(acc[4 * g + 0] + rl.x, acc[4 * g + 1] + rl.y);
    *hi = __floats2bfloat162_rn(acc[4 * g + 2] + rh.x, acc[4 * g + 3] + rh.y);
  }
  ts::tma::store_fence(); // visible to the TMA unit
  ts::sync_warpgroup();
  if (threadIdx.x % 128 == 0)
    ts::tma::issue_store(&p.c, {nb * BN + j * kSubCols, mb * BM + int(wg) * 64}, half);
}

[[ts::task(ts::warps(8, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Operands> ops, ts::producer<Residual> res) {
  for (auto t : ts::domain(0, my_units(p))) {
    int mb, nb;
    tile_coords(p, int(blockIdx.x) + int(t) * int(gridDim.x), mb, nb);
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * BK, mb * BM}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * BK, nb * BN}, s.barrier());
      ops.commit(s);
    }
    for (auto j : ts::domain(0, kSubtiles)) {
      auto s = res.acquire();
      ts::tma::load(s->v, &p.r, {nb * BN + int(j) * kSubCols, mb * BM}, s.barrier());
      res.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 8), ts::regs(232))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::consumer<Residual> res) {
  const unsigned wg = ts::warpgroup_index();
  float acc[BN / 2];
  for (auto t : ts::domain(0, my_units(p))) {
    ts::stage<Operands> prev; // the stage the MMAs of the previous k-step read
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::wgmma::make_desc_sw128(s->a + wg * 64 * BK); // this WG's rows
      const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
      ts::wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32),
                            ts::wgmma::advance_k(db, kk * 32), int(k) > 0 || kk > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<1>(); // the previous step's MMAs are done reading
      if (!k.first())
        ops.release(prev);
      prev = s;
    }
    ts::wgmma::wait_group<0>(); // the tile's last MMAs, then their stage
    ts::wgmma::fence_operand(acc);
    ops.release(prev);
    int mb, nb;
    tile_coords(p, int(blockIdx.x) + int(t) * int(gridDim.x), mb, nb);
#pragma unroll // constant subtile indices: acc stays in registers
    for (auto j : ts::domain(0, kSubtiles)) {
      auto s = res.wait();
      add_and_store(p, acc, int(j), mb, nb, wg, s->v);
      res.release(s); // after the store has read the stage
    }
  }
}

[[ts::kernel(load, mma)]]
__global__ void gemm_residual_kernel(const __grid_constant__ Params p);

} // namespace gemm_residual

/// Launches C = A x B^T + R. M % 128, N % 256 and K % 64 must be 0;
/// anything else is refused with a message.
cudaError_t gemm_residual_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                     const __nv_bfloat16 *R, __nv_bfloat16 *C, int M, int N,
                                     int K, cudaStream_t s) {
  using namespace gemm_residual;
  if (M <= 0 || N <= 0 || K <= 0 || M % BM || N % BN || K % BK) {
    std::fprintf(stderr,
                 "gemm_residual_sm90_libts: unsupported shape M=%d N=%d K=%d: M must be a "
                 "positive multiple of %d, N of %d, K of %d\n",
                 M, N, K, BM, BN, BK);
    return cudaErrorInvalidValue;
  }
  Params p;
  cudaError_t e = ts::tensor_map::kmajor_bf16_sw128(&p.a, A, M, K);
  if (e == cudaSuccess)
    e = ts::tensor_map::kmajor_bf16_sw128(&p.b, B, N, K);
  if (e == cudaSuccess) // R and C as rows of N, swizzled like the stage
    e = ts::tensor_map::kmajor_bf16_sw128(&p.r, R, M, N);
  if (e == cudaSuccess)
    e = ts::tensor_map::kmajor_bf16_sw128(&p.c, C, M, N);
  if (e != cudaSuccess)
    return e;
  p.k_tiles = K / BK;
  p.units_m = M / BM;
  p.units_n = N / BN;
  p.units = p.units_m * p.units_n;
  int ctas = 0; // persistent: as many CTAs as run at once
  if ((e = ts::resident_ctas<gemm_residual_kernel>(ctas)) != cudaSuccess)
    return e;
  return ts::launch<gemm_residual_kernel>(dim3(std::min(ctas, p.units)), s, p);
}

#ifndef GEMM_NO_MAIN

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

/// fp32 reference of C[r][c] = A B^T + R on the device, one thread each.
__global__ void reference(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          const __nv_bfloat16 *R, float *C, int M, int N, int K) {
  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= N)
    return;
  float acc = __bfloat162float(R[size_t(r) * N + c]);
  for (int k = 0; k < K; ++k)
    acc += __bfloat162float(A[size_t(r) * K + k]) * __bfloat162float(B[size_t(c) * K + k]);
  C[size_t(r) * N + c] = acc;
}

int main(int argc, char **argv) {
  const int M = argc > 3 ? std::atoi(argv[1]) : 4096;
  const int N = argc > 3 ? std::atoi(argv[2]) : 4096;
  const int K = argc > 3 ? std::atoi(argv[3]) : 4096;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 20;
  if (reps < 1) {
    std::fprintf(stderr, "usage: %s [M N K] [reps >= 1]\n", argv[0]);
    return 2;
  }
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(N) * K), hr(size_t(M) * N);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&ha, &hb, &hr})
    for (auto &e : *v)
      e = __float2bfloat16(rnd());
  for (auto &e : hr) // a residual of the product's magnitude
    e = __float2bfloat16(__bfloat162float(e) * 16.f);
  __nv_bfloat16 *A, *B, *R, *C;
  float *Ref;
  CHECK(cudaMalloc(&A, ha.size() * 2));
  CHECK(cudaMalloc(&B, hb.size() * 2));
  CHECK(cudaMalloc(&R, hr.size() * 2));
  CHECK(cudaMalloc(&C, size_t(M) * N * 2));
  CHECK(cudaMalloc(&Ref, size_t(M) * N * 4));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(R, hr.data(), hr.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(C, 0, size_t(M) * N * 2));

  CHECK(gemm_residual_sm90_libts(A, B, R, C, M, N, K, 0));
  { // cudaLaunchKernel: clang 19 has no <<<>>> with the CUDA 13 SDK
    const __nv_bfloat16 *a = A, *b = B, *r = R;
    int m = M, n = N, k = K;
    void *args[] = {&a, &b, &r, &Ref, &m, &n, &k};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(reference), dim3((N + 255) / 256, M),
                           dim3(256), args, 0, 0));
  }
  std::vector<__nv_bfloat16> hc(size_t(M) * N);
  std::vector<float> href(size_t(M) * N);
  CHECK(cudaMemcpy(hc.data(), C, hc.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(href.data(), Ref, href.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, max_ref = 0;
  for (size_t e = 0; e < hc.size(); ++e) {
    max_err = std::max(max_err, double(std::fabs(__bfloat162float(hc[e]) - href[e])));
    max_ref = std::max(max_ref, double(std::fabs(href[e])));
  }
  const double rel = max_err / std::max(max_ref, 1e-30);
  const bool ok = rel <= 1e-2;
  std::printf("gemm_residual_sm90: %d x %d x %d, smem %u B, %u threads: max |C - ref| / max "
              "|ref| = %.2e: %s\n",
              M, N, K, ts::kernel_traits<gemm_residual::gemm_residual_kernel>::smem_bytes,
              ts::kernel_traits<gemm_residual::gemm_residual_kernel>::threads, rel,
              ok ? "ok" : "MISMATCH");
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(reps);
  for (int r = -3; r < reps; ++r) { // three warm-up launches
    CHECK(cudaEventRecord(e0));
    CHECK(gemm_residual_sm90_libts(A, B, R, C, M, N, K, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      CHECK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[reps / 2];
  std::printf("gemm_residual_sm90: median of %d: %.3f ms, %.1f TFLOP/s\n", reps, med,
              2.0 * M * N * K / (med * 1e-3) / 1e12);
  for (void *ptr : {(void *)A, (void *)B, (void *)R, (void *)C, (void *)Ref})
    CHECK(cudaFree(ptr));
  return 0;
}

#endif
