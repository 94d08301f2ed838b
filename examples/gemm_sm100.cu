// Blackwell bf16 GEMM written with libts (sm_100a; compile-verified only:
// no Blackwell GPU has run it): C = A x B^T, bf16 in, fp32 accumulate in
// tensor memory, bf16 out. A is M x K row-major, B is N x K row-major
// (both K-major), C is M x N row-major. The shape of the reference's dense
// GEMM tutorial:
//
// - `load` (warp 0): TMA loads of 128-byte swizzled A (128 x 64) and B
//   (256 x 64) tiles into a 4-stage ts::tma_umma pipeline.
// - `mma` (warp 1): per tile, takes an accumulator stage (256 columns of
//   tensor memory), issues four m128n256k16 tcgen05 MMAs per k-step (lane 0)
//   and hands each operand stage back with tcgen05.commit, which arrives
//   once the MMAs have read it; after the k-loop it commits the
//   accumulator stage to the epilogue.
// - `epilogue` (warps 4-7, one warpgroup: warp w reads tensor-memory lanes
//   32 (w % 4) ..): per tile, tcgen05.ld of its rows in 8-column chunks,
//   converted to bf16 and stored; the release waits for its loads, so the
//   MMAs of the tile after next may overwrite the stage.
// - Two accumulator stages (512 columns, all of tensor memory): the
//   epilogue of one tile overlaps the MMAs of the next. The plan allocates
//   the columns and frees them; nothing here calls tcgen05.alloc.
// - Scheduled by cluster launch control: the grid has one CTA per tile;
//   after each tile, lane 0 of `load` asks the hardware to cancel a CTA
//   that has not started (clusterlaunchcontrol.try_cancel) into a 2-stage
//   ts::clc_async queue, and every task runs the cancelled CTA's tile next,
//   until a request fails. A CTA that runs early or fast takes more tiles,
//   with no workspace and no host-side scheduling.
//
// - -DGEMM_SM100_PAIR: 2-CTA MMA. Clusters of two CTAs compute 256 x 256
//   tiles: each CTA loads 128 rows of A and 128 of B into its own stage,
//   rank 0's MMA warp issues m256n256 MMAs (tcgen05 cta_group::2) over both
//   CTAs' stages into both CTAs' tensor memory, and each CTA's epilogue
//   stores its 128 rows. The resources say ts::cta_pair; the plan routes
//   both halves' bytes to rank 0's barrier, runs `mma` on rank 0 only and
//   counts both epilogues on rank 0's accumulator barrier.
//
// Not yet: a TMA-store epilogue.
//
// Build (clang 19 does not know sm_100a; nvcc compiles the rewrite):
//   libts-nvcc -gencode=arch=compute_100a,code=sm_100a -O3 -I include examples/gemm_sm100.cu
//   ./gemm_sm100 [M N K = 4096 4096 4096]
// libts-target: sm_100a
// libts-variant: pair -DGEMM_SM100_PAIR
// gpu-run: skip (sm_100a: no Blackwell GPU here; compile-verified only)
#include <ts/ts.h>
#include <ts/tensor_map.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gemm100 {

#ifdef GEMM_SM100_PAIR
constexpr int kCtas = 2; // CTAs per tile
#define GEMM_SM100_PAIRED , ts::cta_pair
#define GEMM_SM100_CLUSTER , ts::cluster_shape(2)
#else
constexpr int kCtas = 1;
#define GEMM_SM100_PAIRED
#define GEMM_SM100_CLUSTER
#endif

// One CTA's share of a (kCtas * BM) x BN tile: BM rows of A and of the
// accumulator, BN / kCtas rows of B. BK: one 128-byte swizzle row of bf16.
constexpr int BM = 128, BN = 256, BK = 64, BNL = BN / kCtas;
constexpr int kChunk = 8; // epilogue: columns per tcgen05.ld

struct Params {
  ts::tma::map<__nv_bfloat16, BM, BK> a; // 128 rows x 64 of K
  ts::tma::map<__nv_bfloat16, BNL, BK> b; // 256 / kCtas rows x 64 of K
  __nv_bfloat16 *c;
  int n;       // columns of C
  int k_tiles; // K / 64
  int units_m; // M / (128 kCtas)
  int units;   // CTAs: kCtas * units_m * N / 256
};

/// One operand stage, filled by TMA, read by the MMAs.
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled GEMM_SM100_PAIRED)]] Operands {
  __nv_bfloat16 a[BM * BK];  // 16 KiB
  __nv_bfloat16 b[BNL * BK]; // 32 KiB (a pair: 16 KiB, each CTA half of B)
};

/// This CTA's 128 rows of a tile's accumulator: 256 fp32 columns of 128
/// lanes.
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(BN) GEMM_SM100_PAIRED)]] Accum {};

/// The tile queue: each stage holds one try_cancel response.
struct [[ts::resource(ts::clc_async, ts::stages(2))]] Next : ts::clc::response {};
/// Tile t's M-block (kCtas * BM rows) and N-block: M-blocks down a column,
/// then the next column.
__device__ __forceinline__ void tile_coords(const Params &p, int t, int &mb, int &nb) {
  mb = t % p.units_m;
  nb = t / p.units_m;
}

/// This CTA's half of a pair's tile: its BM rows of A and C, its BNL rows
/// of B (0 without pairs).
__device__ __forceinline__ int pair_rank() { return kCtas > 1 ? int(ts::cluster::rank()) : 0; }

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Next> next, ts::producer<Operands> ops) {
  const int rank = pair_rank();
  for (int u : ts::tiles(next)) { // this CTA's tile, then those it cancels
    int mb, nb;
    tile_coords(p, u / kCtas, mb, nb); // a pair's CTAs u share tile u / 2
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * BK, (mb * kCtas + rank) * BM}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * BK, nb * BN + rank * BNL}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void mma(const Params &p, ts::consumer<Next> next, ts::consumer<Operands> ops,
                    ts::producer<Accum> accum) {
  constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(kCtas * BM, BN);
  for (int u : ts::tiles(next)) {
    (void)u; // the MMAs read whatever tile the loads brought
    auto acc = accum.acquire(); // the epilogue has read this stage's last tile
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        ts::tcgen05::mma_bf16(acc.tmem(), ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32), kIdesc, int(k) > 0 || kk > 0);
      ops.release(s); // tcgen05.commit: empty once these MMAs have read it
    }
    accum.commit(acc); // tcgen05.commit: full once the tile's MMAs are done
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, ts::consumer<Next> next, ts::consumer<Accum> accum) {
  const unsigned lane_base = (threadIdx.x / 32 % 4) * 32; // this warp's TMEM lanes
  const int rank = pair_rank();
  for (int u : ts::tiles(next)) {
    int mb, nb;
    tile_coords(p, u / kCtas, mb, nb);
    auto acc = accum.wait();
    const int row = (mb * kCtas + rank) * BM + int(lane_base + threadIdx.x % 32);
    __nv_bfloat16 *const out = p.c + size_t(row) * p.n + size_t(nb) * BN;
    // Four loads in flight, then one wait: 32 columns per round.
    for (int j = 0; j < BN / kChunk; j += 4) {
      uint32_t r[4][kChunk];
#pragma unroll
      for (int q = 0; q < 4; ++q)
        ts::tcgen05::ld_32x32b_x8(r[q],
                                  ts::tcgen05::address(acc.tmem(), lane_base, (j + q) * kChunk));
      ts::tcgen05::wait_ld();
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        __nv_bfloat162 v[kChunk / 2];
#pragma unroll
        for (int e = 0; e < kChunk / 2; ++e)
          v[e] = __floats2bfloat162_rn(__uint_as_float(r[q][2 * e]),
                                       __uint_as_float(r[q][2 * e + 1]));
        *reinterpret_cast<uint4 *>(out + (j + q) * kChunk) = *reinterpret_cast<const uint4 *>(v);
      }
    }
    accum.release(acc); // after its loads: the MMAs may refill the stage
  }
}

[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a) GEMM_SM100_CLUSTER)]]
__global__ void gemm_kernel(const __grid_constant__ Params p);

} // namespace gemm100

/// Launches C = A x B^T. M % (128 kCtas), N % 256 and K % 64 must be 0;
/// anything else is refused with a message.
cudaError_t gemm_sm100_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                             int M, int N, int K, cudaStream_t s) {
  using namespace gemm100;
  if (M <= 0 || N <= 0 || K <= 0 || M % (kCtas * BM) || N % BN || K % BK) {
    std::fprintf(stderr,
                 "gemm_sm100_libts: unsupported shape M=%d N=%d K=%d: M must be a positive "
                 "multiple of %d, N of %d, K of %d\n",
                 M, N, K, kCtas * BM, BN, BK);
    return cudaErrorInvalidValue;
  }
  Params p;
  cudaError_t e = ts::tensor_map::kmajor_bf16_sw128(&p.a, A, M, K);
  if (e == cudaSuccess)
    e = ts::tensor_map::kmajor_bf16_sw128(&p.b, B, N, K);
  if (e != cudaSuccess)
    return e;
  p.c = C;
  p.n = N;
  p.k_tiles = K / BK;
  p.units_m = M / (kCtas * BM);
  p.units = kCtas * p.units_m * (N / BN);
  // One CTA (a pair: one cluster) per tile: those that start first cancel
  // the rest (ts/clc.h).
  return ts::launch<gemm_kernel>(dim3(p.units), s, p);
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
  CHECK(gemm_sm100_libts(A, B, C, M, N, K, 0));
  {
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
  std::printf("gemm_sm100: %d x %d x %d: max |C - ref| / max |ref| = %.2e: %s\n", M, N, K, rel,
              ok ? "ok" : "MISMATCH");
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  CHECK(cudaFree(R));
  return ok ? 0 : 1;
}

#endif
