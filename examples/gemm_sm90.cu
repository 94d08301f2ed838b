// Hopper bf16 GEMM written with libts: C = A x B^T, bf16 in, fp32
// accumulate, bf16 out. A is M x K row-major, B is N x K row-major ("TN":
// both K-major), C is M x N row-major.
//
// - `load` (one warp, 40 registers): TMA loads of 128-byte swizzled A
//   (128 x 64) and B (256 x 64) tiles into a 4-stage tma_async pipeline.
// - `mma` (two warpgroups, 232 registers): each warpgroup computes a 64 x 256
//   slice of the 128 x 256 tile with wgmma m64n256k16, keeps one MMA group in
//   flight and hands back the stage the previous group read (kept in `prev`
//   across the iteration; verified: a stage is never released while an MMA
//   may read it), the tile's last stage after the k-loop (which nonempty()
//   makes run at least once, so that release is verified for K >= 64 only).
//   At the end of each tile it converts its slice to bf16 in four 64 x 64 chunks,
//   written 128-byte swizzled into two buffers of task-owned shared memory
//   in turn and stored by TMA, so the last stores overlap the next tile.
// - Persistent: one CTA per SM; CTA b runs tiles b, b + grid, ... in
//   grouped order (16 M-blocks per group): a tile loop with the k-loop
//   nested in it, both ts::domain loops, so the verifier follows the
//   pipeline as it carries over from tile to tile.
// - Built with -DGEMM_CLUSTER=2 (scripts/examples.sh emits both), pairs of
//   CTAs form a cluster and compute vertically adjacent tiles that share B:
//   each loads half of the B tile and multicasts it to both. The plan then
//   counts every consumer warp of both CTAs on each empty barrier and the
//   releases reach both CTAs; on the H200 this does not pay (docs/
//   benchmarks.md), so one CTA is the default.
//
// Its hand-written twin (same tiles, schedule and epilogue) is variant 3 of
// test/gpu/handwritten/gemm_sm90_hand.cu (variant 2 for the cluster);
// bench/gemm compares both with cuBLAS. Built with -DGEMM_NO_MAIN it is the benchmark's gemm_sm90_libts.
//
//   ./gemm_sm90 [M N K = 4096 4096 4096] [reps = 20]
// libts-variant: cluster2 -DGEMM_CLUSTER=2
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

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64; // BK: one 128-byte swizzle row of bf16
constexpr int kGroupM = 16;                // rasterization: M-blocks per group

constexpr int kEpiCols = 64;               // epilogue chunk: 64 x 64 bf16, one swizzle row wide

#ifndef GEMM_CLUSTER
#define GEMM_CLUSTER 1
#endif
constexpr int kCluster = GEMM_CLUSTER; // CTAs per cluster, along M
static_assert(kCluster == 1 || kCluster == 2, "the B tile splits between one or two CTAs");

struct Params {
  ts::tma::map<__nv_bfloat16, BM, BK> a;            // 128 rows x 64 of K
  ts::tma::map<__nv_bfloat16, BN / kCluster, BK> b; // this CTA's share of B
  ts::tma::map<__nv_bfloat16, 64, 64> c;            // the epilogue's TMA stores
  int k_tiles; // K / 64
  int units_m; // M / 128 / kCluster
  int units_n; // N / 256
  int units;   // units_m * units_n: tiles, or vertical pairs of tiles for a cluster
};

/// One stage: A for this CTA, B shared by the cluster (each CTA loads its
/// share and multicasts it to all; with one CTA a plain load).
struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled, ts::multicast)]] Operands {
  __nv_bfloat16 a[BM * BK]; // 16 KiB
  __nv_bfloat16 b[BN * BK]; // 32 KiB
};

/// The mma task's own epilogue buffers: two 64 x 64 chunks per warpgroup.
struct [[ts::resource(ts::task_owned, ts::swizzled)]] Staging {
  __nv_bfloat16 chunk[2][2][64 * kEpiCols]; // [warpgroup][buffer], 32 KiB
};

/// This CTA's cluster and their number: every CTA of a cluster runs the
/// same units, so both run the same trip counts (multicast needs that).
__device__ __forceinline__ int first_unit() { return int(blockIdx.x) / kCluster; }
__device__ __forceinline__ int unit_step() { return int(gridDim.x) / kCluster; }
__device__ __forceinline__ unsigned cta_rank() { return kCluster > 1 ? ts::cluster::rank() : 0u; }

/// Units this cluster runs: first_unit(), + unit_step(), ... (a static
/// scheduler; the tile loop is the seam for a dynamic one).
__device__ __forceinline__ int my_units(const Params &p) {
  return p.units > first_unit() ? (p.units - first_unit() + unit_step() - 1) / unit_step() : 0;
}

/// Where this CTA's tile of unit u lies: groups of kGroupM M-blocks, column
/// by column inside a group, so CTAs running together share A rows and B
/// columns in L2; the CTAs of a cluster take adjacent M-blocks.
__device__ __forceinline__ void tile_coords(const Params &p, int u, int &mb, int &nb) {
  constexpr int G = kGroupM / kCluster;
  const int per_group = G * p.units_n;
  const int first = (u / per_group) * G;
  const int h = min(G, p.units_m - first);
  const int r = u % per_group;
  mb = (first + r % h) * kCluster + int(cta_rank());
  nb = r / h;
}

/// A warpgroup's 64 x 256 slice through its two buffers: each 64 x 64
/// chunk is converted to bf16, written 128-byte swizzled (conflict-free;
/// the accumulator layout of m64nNk16 is in ts/wgmma.h) and stored by TMA
/// while the next chunk is filled. Thread 0 of the warpgroup issues the
/// stores, so it alone waits for their reads; the barriers pass that on.
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
      // 128-byte swizzle: 16-byte chunk gg of row r sits at chunk gg ^ (r % 8).
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

[[ts::task(ts::warps(8, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Operands> ops) {
  constexpr int kRowsB = BN / kCluster; // this CTA's share of the B tile
  const unsigned rank = cta_rank();
  for (auto t : ts::domain(0, my_units(p))) {
    int mb, nb;
    tile_coords(p, first_unit() + int(t) * unit_step(), mb, nb);
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * BK, mb * BM}, s.barrier());
      ts::tma::load_multicast(s->b + rank * kRowsB * BK, &p.b, {int(k) * BK,
                                 nb * BN + int(rank) * kRowsB}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 8), ts::regs(232))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::owned<Staging> out) {
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
    tile_coords(p, first_unit() + int(t) * unit_step(), mb, nb);
    store_slice(p, acc, mb, nb, wg, out->chunk[wg]);
  }
}

[[ts::kernel(load, mma, ts::cluster_shape(kCluster))]]
__global__ void gemm_kernel(const __grid_constant__ Params p);

#ifdef __LIBTS_GENERATED__ // an emitted file compiled with the GEMM_CLUSTER it was emitted for
static_assert(ts::cluster_dims<ts::kernel_traits<&gemm_kernel>>::x == unsigned(kCluster),
              "this file was emitted for another GEMM_CLUSTER");
#endif

} // namespace gemm

/// Launches C = A x B^T (bench/gemm/gemm.h). M % (128 * kCluster), N % 256
/// and K % 64 must be 0; anything else is refused with a message.
cudaError_t gemm_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                            int M, int N, int K, cudaStream_t s) {
  using namespace gemm;
  if (M <= 0 || N <= 0 || K <= 0 || M % (BM * kCluster) || N % BN || K % BK) {
    std::fprintf(stderr,
                 "gemm_sm90_libts: unsupported shape M=%d N=%d K=%d: M must be a positive "
                 "multiple of %d, N of %d, K of %d\n",
                 M, N, K, BM * kCluster, BN, BK);
    return cudaErrorInvalidValue;
  }
  Params p;
  cudaError_t e = ts::tensor_map::kmajor_bf16_sw128(&p.a, A, M, K);
  if (e == cudaSuccess)
    e = ts::tensor_map::kmajor_bf16_sw128(&p.b, B, N, K);
  if (e == cudaSuccess) // C as rows of N: 64 x 64 boxes, swizzled like the buffers
    e = ts::tensor_map::kmajor_bf16_sw128(&p.c, C, M, N);
  if (e != cudaSuccess)
    return e;
  p.k_tiles = K / BK;
  p.units_m = M / BM / kCluster;
  p.units_n = N / BN;
  p.units = p.units_m * p.units_n;
  int ctas = 0; // persistent: as many CTAs as run at once (whole clusters)
  if ((e = ts::resident_ctas<gemm_kernel>(ctas)) != cudaSuccess)
    return e;
  return ts::launch<gemm_kernel>(dim3(std::min(ctas, p.units * kCluster)), s, p);
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

/// fp32 reference of C[r][c] on the device, one thread per element.
__global__ void reference(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                          int K) {
  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= N)
    return;
  float acc = 0.f;
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
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(N) * K);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto &v : ha)
    v = __float2bfloat16(rnd());
  for (auto &v : hb)
    v = __float2bfloat16(rnd());
  __nv_bfloat16 *A, *B, *C;
  float *R;
  CHECK(cudaMalloc(&A, ha.size() * 2));
  CHECK(cudaMalloc(&B, hb.size() * 2));
  CHECK(cudaMalloc(&C, size_t(M) * N * 2));
  CHECK(cudaMalloc(&R, size_t(M) * N * 4));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(C, 0, size_t(M) * N * 2));

  CHECK(gemm_sm90_libts(A, B, C, M, N, K, 0));
  { // cudaLaunchKernel: clang 19 has no <<<>>> with the CUDA 13 SDK
    const __nv_bfloat16 *a = A, *b = B;
    int m = M, n = N, k = K;
    void *args[] = {&a, &b, &R, &m, &n, &k};
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
  std::printf("gemm_sm90: %d x %d x %d, smem %u B, %u threads: max |C - ref| / max |ref| = %.2e: "
              "%s\n",
              M, N, K, ts::kernel_traits<gemm::gemm_kernel>::smem_bytes,
              ts::kernel_traits<gemm::gemm_kernel>::threads, rel, ok ? "ok" : "MISMATCH");
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(reps);
  for (int r = -3; r < reps; ++r) { // three warm-up launches
    CHECK(cudaEventRecord(e0));
    CHECK(gemm_sm90_libts(A, B, C, M, N, K, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      CHECK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[reps / 2];
  std::printf("gemm_sm90: median of %d: %.3f ms, %.1f TFLOP/s\n", reps, med,
              2.0 * M * N * K / (med * 1e-3) / 1e12);
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  CHECK(cudaFree(R));
  return 0;
}

#endif
