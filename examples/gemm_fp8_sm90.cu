// Hopper FP8 GEMM with per-block scaling (the DeepSeek-V3 / DeepGEMM
// recipe), written with libts:
//
//   C[m][n] = sum over k-blocks kb of SA[kb][m] * SB[n / 128][kb] *
//             sum_{k in kb} A[m][k] * B[n][k]
//
// A (M x K) and B (N x K) are e4m3, both K-major; a k-block is 128 wide.
// SA holds one fp32 scale per row of A and k-block, stored k-block major
// ([K / 128][M], what torch._scaled_mm calls 1x128 "outer-dim-major");
// SB one per 128 x 128 block of B ([N / 128][K / 128]); C is bf16, M x N
// row-major.
//
// - `load` (one warp): per k-block, TMA loads of the 192 x 128 A and
//   128 x 128 B tiles (128-byte swizzled) and of the 192 A-row scales into
//   one stage of a 4-stage tma_async pipeline; the verifier checks the
//   three boxes against the stage's transaction bytes.
// - `mma` (three warpgroups, 64 rows each): the k-block's four m64n128k32
//   FP8 MMAs into a fresh partial accumulator, waited for, then promoted:
//   acc += partial * SA * SB in fp32. The tensor cores' FP8 accumulation
//   keeps fewer bits than fp32, so promoting every 128 of K is what keeps
//   the result accurate; the stage goes back as soon as its MMAs retired
//   and its scales were read. While one warpgroup promotes, the others'
//   MMAs run: three warpgroups keep the tensor cores busier than two
//   (measured: docs/benchmarks.md), at 152 registers each, where ptxas
//   keeps a few epilogue addresses in local memory (once per tile, none in
//   the k-loop).
// - Persistent: one CTA per SM, tiles b, b + grid, ... in groups of 16
//   M-blocks; the epilogue is examples/gemm_sm90.cu's (64 x 64 bf16
//   chunks through two swizzled buffers per warpgroup, stored by TMA).
//
// bench/gemm/fp8.py times it against torch._scaled_mm on the same tensors.
//
//   ./gemm_fp8_sm90 [M N K = 4096 4096 4096] [reps = 20]
// gpu-run-args: 4096 4096 4096 20
// gpu-run-sanitize-args: 200 256 384 1
#include <ts/tensor_map.h>
#include <ts/ts.h>

#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gemm_fp8 {

constexpr int kWGs = 3; // consumer warpgroups, 64 rows each
constexpr int BM = 64 * kWGs, BN = 128,
              BK = 128;      // BK: one 128-byte swizzle row, one scale block
constexpr int kGroupM = 16;  // rasterization: M-blocks per group
constexpr int kEpiCols = 64; // epilogue chunk: 64 x 64 bf16

using fp8 = __nv_fp8_e4m3;

struct Params {
  ts::tma::map<fp8, BM, BK> a;
  ts::tma::map<fp8, BN, BK> b;
  ts::tma::map<float, 1, BM> sa;         // one k-block's scales of the tile's rows
  ts::tma::map<__nv_bfloat16, 64, 64> c; // the epilogue's TMA stores
  const float *sb;                       // [N / 128][K / 128]
  int k_tiles;                           // K / 128
  int units_m;                           // ceil(M / 192)
  int units_n;                           // N / 128
  int units;                             // tiles
};

/// One k-block: both operand tiles and the scales of A's rows.
struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] Operands {
  fp8 a[BM * BK]; // 24 KiB
  fp8 b[BN * BK]; // 16 KiB
  float sa[BM];   // 768 B
};

/// The mma task's own epilogue buffers: two 64 x 64 chunks per warpgroup (48
/// KiB).
struct [[ts::resource(ts::task_owned, ts::swizzled)]] Staging {
  __nv_bfloat16 chunk[kWGs][2][64 * kEpiCols]; // [warpgroup][buffer]
};

/// Tiles this CTA runs: blockIdx.x, + gridDim.x, ...
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

/// A warpgroup's 64 x 128 slice through its two buffers, as in
/// examples/gemm_sm90.cu: each 64 x 64 chunk converted to bf16, written
/// 128-byte swizzled and stored by TMA while the next one is filled.
__device__ __forceinline__ void store_slice(const Params &p, const float (&acc)[BN / 2], int mb,
                                            int nb, unsigned wg,
                                            __nv_bfloat16 (&bufs)[2][64 * kEpiCols]) {
  const unsigned warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const bool issuer = threadIdx.x % 128 == 0;
  const unsigned r = warp * 16 + lane / 4; // rows r and r + 8 of the chunk
#pragma unroll
  for (int j = 0; j < BN / kEpiCols; ++j) {
    unsigned char *const buf = reinterpret_cast<unsigned char *>(bufs[j & 1]);
    if (issuer) // the store from this buffer two chunks ago has read it
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
#pragma unroll
    for (int gg = 0; gg < kEpiCols / 8; ++gg) {
      const int g = j * (kEpiCols / 8) + gg;
      const unsigned off = ((unsigned(gg) ^ (r & 7u)) << 4) + (lane % 4) * 4;
      *reinterpret_cast<__nv_bfloat162 *>(buf + r * 128 + off) =
          __floats2bfloat162_rn(acc[4 * g + 0], acc[4 * g + 1]);
      *reinterpret_cast<__nv_bfloat162 *>(buf + (r + 8) * 128 + off) =
          __floats2bfloat162_rn(acc[4 * g + 2], acc[4 * g + 3]);
    }
    ts::tma::store_fence(); // visible to the TMA unit
    ts::sync_warpgroup();
    if (issuer)
      ts::tma::issue_store(&p.c, {nb * BN + j * kEpiCols, mb * BM + int(wg) * 64}, buf);
  }
}

[[ts::task(ts::warps(4 * kWGs, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Operands> ops) {
  for (auto t : ts::domain(0, my_units(p))) {
    int mb, nb;
    tile_coords(p, int(blockIdx.x) + int(t) * int(gridDim.x), mb, nb);
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * BK, mb * BM}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * BK, nb * BN}, s.barrier());
      ts::tma::load(s->sa, &p.sa, {mb * BM, int(k)}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 4 * kWGs), ts::regs(152))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::owned<Staging> out) {
  const unsigned wg = ts::warpgroup_index();
  // Rows r and r + 8 of the tile are this thread's (the m64nNk32 layout).
  const unsigned r = wg * 64 + (threadIdx.x / 32) % 4 * 16 + threadIdx.x % 32 / 4;
  float acc[BN / 2], part[BN / 2];
  for (auto t : ts::domain(0, my_units(p))) {
    const int u = int(blockIdx.x) + int(t) * int(gridDim.x);
    int mb, nb;
    tile_coords(p, u, mb, nb);
    const int sb = nb * p.k_tiles; // this tile's row of SB
#pragma unroll
    for (int i = 0; i < BN / 2; ++i)
      acc[i] = 0.f;
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      const float scale_b = __ldg(p.sb + sb + int(k));   // read while the MMAs run
      auto s = ops.wait();
      const uint64_t da = ts::wgmma::make_desc_sw128(s->a + wg * 64 * BK); // this WG's rows
      const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
      ts::wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 32; ++kk)
        ts::wgmma::mma_fp8<ts::wgmma::e4m3, ts::wgmma::e4m3>(
            part, ts::wgmma::advance_k(da, kk * 32), ts::wgmma::advance_k(db, kk * 32), kk > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<0>();
      ts::wgmma::fence_operand(part);
      const float s0 = s->sa[r] * scale_b, s1 = s->sa[r + 8] * scale_b;
      ops.release(s);
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) // elements 4g, 4g + 1: row r; 4g + 2, 4g + 3: row r + 8
        acc[i] += part[i] * (i & 2 ? s1 : s0);
    }
    tile_coords(p, u, mb, nb); // again: fewer registers live across the k-loop
    store_slice(p, acc, mb, nb, wg, out->chunk[wg]);
  }
}

[[ts::kernel(load, mma)]]
__global__ void gemm_fp8_kernel(const __grid_constant__ Params p);

} // namespace gemm_fp8

/// Launches the block-scaled C = A x B^T (the layouts are at the top of
/// this file). M must be a positive multiple of 4 (rows past the last
/// 192-row tile are left to TMA bounds), N and K positive multiples of 128;
/// anything else is refused with a message and cudaErrorInvalidValue.
extern "C" cudaError_t gemm_fp8_sm90_libts(const void *A, const void *B, const float *SA,
                                           const float *SB, void *C, int M, int N, int K,
                                           cudaStream_t s) {
  using namespace gemm_fp8;
  if (M <= 0 || N <= 0 || K <= 0 || M % 4 || N % BN || K % BK) {
    std::fprintf(stderr,
                 "gemm_fp8_sm90_libts: unsupported shape M=%d N=%d K=%d: M "
                 "must be a positive "
                 "multiple of 4, N and K of 128\n",
                 M, N, K);
    return cudaErrorInvalidValue;
  }
  Params p;
  cudaError_t e = ts::tensor_map::encode(&p.a, A, M, K, 0, CU_TENSOR_MAP_SWIZZLE_128B);
  if (e == cudaSuccess)
    e = ts::tensor_map::encode(&p.b, B, N, K, 0, CU_TENSOR_MAP_SWIZZLE_128B);
  if (e == cudaSuccess)
    e = ts::tensor_map::encode(&p.sa, SA, K / BK, M);
  if (e == cudaSuccess) // C as rows of N: 64 x 64 boxes, swizzled like the buffers
    e = ts::tensor_map::kmajor_bf16_sw128(&p.c, C, M, N);
  if (e != cudaSuccess)
    return e;
  p.sb = SB;
  p.k_tiles = K / BK;
  p.units_m = (M + BM - 1) / BM;
  p.units_n = N / BN;
  p.units = p.units_m * p.units_n;
  int ctas = 0; // persistent: as many CTAs as run at once
  if ((e = ts::resident_ctas<gemm_fp8_kernel>(ctas)) != cudaSuccess)
    return e;
  return ts::launch<gemm_fp8_kernel>(dim3(std::min(ctas, p.units)), s, p);
}

#ifndef GEMM_NO_MAIN

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t err_ = (x);                                                                        \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_));   \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

/// fp32 reference of C[r][c] on the device, one thread per element: each
/// k-block's exact sum, scaled.
__global__ void reference(const __nv_fp8_e4m3 *A, const __nv_fp8_e4m3 *B, const float *SA,
                          const float *SB, float *C, int M, int N, int K) {
  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= N)
    return;
  float acc = 0.f;
  for (int kb = 0; kb < K / 128; ++kb) {
    float part = 0.f;
    for (int k = kb * 128; k < kb * 128 + 128; ++k)
      part += float(A[size_t(r) * K + k]) * float(B[size_t(c) * K + k]);
    acc += part * SA[size_t(kb) * M + r] * SB[size_t(c / 128) * (K / 128) + kb];
  }
  C[size_t(r) * N + c] = acc;
}

int main(int argc, char **argv) {
  const int M = argc > 3 ? std::atoi(argv[1]) : 4096;
  const int N = argc > 3 ? std::atoi(argv[2]) : 4096;
  const int K = argc > 3 ? std::atoi(argv[3]) : 4096;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 20;
  if (reps < 1 || M <= 0 || N % 128 || K % 128) {
    std::fprintf(stderr, "usage: %s [M N K: N, K multiples of 128] [reps >= 1]\n", argv[0]);
    return 2;
  }
  const int KB = K / 128;
  std::vector<__nv_fp8_e4m3> ha(size_t(M) * K), hb(size_t(N) * K);
  std::vector<float> hsa(size_t(KB) * M), hsb(size_t(N / 128) * KB);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&ha, &hb})
    for (auto &e : *v)
      e = __nv_fp8_e4m3(rnd() * 8.f);
  for (auto *v : {&hsa, &hsb})
    for (auto &e : *v)
      e = std::ldexp(1.f + 0.5f * rnd(),
                     int(rnd() * 4.f)); // 1/8 to 12: blocks differ
  __nv_fp8_e4m3 *A, *B;
  float *SA, *SB, *R;
  __nv_bfloat16 *C;
  CHECK(cudaMalloc(&A, ha.size()));
  CHECK(cudaMalloc(&B, hb.size()));
  CHECK(cudaMalloc(&SA, hsa.size() * 4));
  CHECK(cudaMalloc(&SB, hsb.size() * 4));
  CHECK(cudaMalloc(&C, size_t(M) * N * 2));
  CHECK(cudaMalloc(&R, size_t(M) * N * 4));
  CHECK(cudaMemcpy(A, ha.data(), ha.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(SA, hsa.data(), hsa.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(SB, hsb.data(), hsb.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(C, 0, size_t(M) * N * 2));

  CHECK(gemm_fp8_sm90_libts(A, B, SA, SB, C, M, N, K, 0));
  { // cudaLaunchKernel: clang 19 has no <<<>>> with the CUDA 13 SDK
    const __nv_fp8_e4m3 *a = A, *b = B;
    const float *sa = SA, *sb = SB;
    int m = M, n = N, k = K;
    void *args[] = {&a, &b, &sa, &sb, &R, &m, &n, &k};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(reference), dim3((N + 255) / 256, M),
                           dim3(256), args, 0, 0));
  }
  std::vector<__nv_bfloat16> hc(size_t(M) * N);
  std::vector<float> hr(size_t(M) * N);
  CHECK(cudaMemcpy(hc.data(), C, hc.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hr.data(), R, hr.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, max_ref = 0;
  for (size_t e = 0; e < hc.size(); ++e) {
    max_err = std::max(max_err, double(std::fabs(__bfloat162float(hc[e]) - hr[e])));
    max_ref = std::max(max_ref, double(std::fabs(hr[e])));
  }
  const double rel = max_err / std::max(max_ref, 1e-30);
  const bool ok = rel <= 1e-2;
  std::printf("gemm_fp8_sm90: %d x %d x %d, smem %u B, %u threads: max |C - "
              "ref| / max |ref| = "
              "%.2e: %s\n",
              M, N, K, ts::kernel_traits<gemm_fp8::gemm_fp8_kernel>::smem_bytes,
              ts::kernel_traits<gemm_fp8::gemm_fp8_kernel>::threads, rel, ok ? "ok" : "MISMATCH");
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(reps);
  for (int r = -3; r < reps; ++r) { // three warm-up launches
    CHECK(cudaEventRecord(e0));
    CHECK(gemm_fp8_sm90_libts(A, B, SA, SB, C, M, N, K, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      CHECK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[reps / 2];
  std::printf("gemm_fp8_sm90: median of %d: %.3f ms, %.1f TFLOP/s\n", reps, med,
              2.0 * M * N * K / (med * 1e-3) / 1e12);
  for (void *ptr : {(void *)A, (void *)B, (void *)SA, (void *)SB, (void *)C, (void *)R})
    CHECK(cudaFree(ptr));
  return 0;
}

#endif
