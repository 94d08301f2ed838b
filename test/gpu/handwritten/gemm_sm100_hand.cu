// Hand-written Blackwell (sm_100a) bf16 GEMM, the twin of
// examples/gemm_sm100.cu: the same tiles, roles and schedule written
// directly with mbarriers and tcgen05, without libts' plan.
//
//   C[M][N] = A[M][K] * B[N][K]^T   bf16 in, fp32 accumulate in tensor memory, bf16 out
//
// - warp 0: lane 0 issues the TMA loads of 128-byte swizzled A (128 x 64)
//   and B (256 x 64) tiles into a 4-stage ring (48 KiB per stage): full
//   barrier 1 arrival + 48 KiB of transaction bytes, empty barrier 1
//   arrival (the MMA warp's commit).
// - warp 1: per tile, waits for an accumulator stage (256 columns) to be
//   empty, then per k-step waits for the operands, issues four m128n256k16
//   tcgen05 MMAs from lane 0 and commits them to the stage's empty
//   barrier; after the k-loop commits to the accumulator's full barrier.
// - warps 4-7: per tile, wait for the accumulator, load it (32x32b, warp w
//   reads lanes 32 (w % 4) ..), convert to bf16, store, and arrive on the
//   accumulator's empty barrier (128 arrivals) after tcgen05.wait::ld.
// - Tensor memory: warp 0 allocates 512 columns before the first
//   __syncthreads and gives up the permit; it frees them after the last.
// - Scheduled by cluster launch control: one CTA per tile; each CTA runs
//   its own tile, then after each tile warp 0's lane 0 issues try_cancel
//   into a 2-stage ring of 16-byte responses (full barrier 1 arrival + 16
//   transaction bytes, empty barrier 160 arrivals: the MMA warp's and the
//   epilogue's threads), waits for it and decodes it; the MMA warp and the
//   epilogue decode the same response. A failed request ends every role.
//   Tile u is M-block u % (M / 128), N-block u / (M / 128).
//
// Compile-verified only (no Blackwell GPU here):
//   nvcc -std=c++17 -gencode=arch=compute_100a,code=sm_100a -O3 -I include -c gemm_sm100_hand.cu
// test/lit/codegen/gemm-sm100.cu compares its main loops with the example's in SASS.
// gpu-run: skip (sm_100a: no Blackwell GPU here; compile-verified only)
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <ts/clc.h>
#include <ts/detail.h>
#include <ts/launch.h>
#include <ts/tcgen05.h>
#include <ts/tensor_map.h>
#include <ts/tma.h>

namespace gemm100_hand {

constexpr int BM = 128, BN = 256, BK = 64;
constexpr unsigned kStages = 4, kAccStages = 2, kChunk = 8;
constexpr unsigned kStageBytes = (BM + BN) * BK * 2; // 48 KiB
constexpr unsigned kBOff = BM * BK * 2;              // B after A in a stage
constexpr unsigned kClcStages = 2, kClcStride = 128; // responses, 128-byte aligned
constexpr unsigned kClcOff = kStages * kStageBytes;   // responses after the ring
constexpr unsigned kBarOff = kClcOff + kClcStages * kClcStride; // then the barriers
constexpr unsigned kSlotOff = kBarOff + 2 * (kClcStages + kStages + kAccStages) * 8;
constexpr unsigned kSmemBytes = kSlotOff + 16 + 1024; // + base-alignment slack
constexpr unsigned kThreads = 256, kTmemCols = kAccStages * BN;

struct Params {
  CUtensorMap a, b;
  __nv_bfloat16 *c;
  int n, k_tiles, units_m, units;
};

__device__ __forceinline__ void advance(unsigned &stage, unsigned &phase, unsigned n) {
  if (++stage == n) {
    stage = 0;
    phase ^= 1u;
  }
}

/// The tile-scheduling ring: responses and their barriers.
struct Clc {
  unsigned char *resp;
  uint64_t *full, *empty;
  __device__ __forceinline__ ts::clc::response *at(unsigned i) const {
    return reinterpret_cast<ts::clc::response *>(resp + i * kClcStride);
  }
};

/// Warp 0 after each tile: lane 0 asks for a CTA to cancel into the next
/// response, waits for it and decodes it (-1: every CTA has launched).
__device__ __forceinline__ int cancel_next(const Clc &q, unsigned &st, unsigned &ph) {
  const unsigned cur = st;
  ts::detail::wait_parity(q.empty + cur, ph);
  advance(st, ph, kClcStages);
  int u = -1;
  if (ts::detail::lane_index() == 0) {
    const unsigned parity = ts::detail::test_parity(q.full + cur, 0) ? 1u : 0u;
    ts::detail::arrive_expect_tx(q.full + cur, 16);
    ts::clc::detail::try_cancel(q.at(cur), q.full + cur);
    ts::detail::wait_parity(q.full + cur, parity);
    u = ts::clc::detail::decode(*q.at(cur));
    ts::clc::detail::reads_done();
  }
  return __shfl_sync(0xffffffffu, u, 0);
}

/// The MMA warp and the epilogue after each tile: the response warp 0
/// asked for, then the stage back (160 arrivals).
__device__ __forceinline__ int read_next(const Clc &q, unsigned &st, unsigned &ph) {
  const unsigned cur = st;
  ts::detail::wait_parity(q.full + cur, ph);
  advance(st, ph, kClcStages);
  const int u = ts::clc::detail::decode(*q.at(cur));
  ts::clc::detail::reads_done();
  ts::detail::arrive(q.empty + cur);
  return u;
}

__device__ void load(const Params &p, unsigned char *smem, uint64_t *full, uint64_t *empty,
                     const Clc &q) {
  unsigned st = 0, ph = 1, cs = 0, cph = 1;
  for (int u = ts::clc::own_tile(); u >= 0; u = cancel_next(q, cs, cph)) {
    const int mb = u % p.units_m, nb = u / p.units_m;
    for (int k = 0; k != p.k_tiles; ++k) { // K > 0: the host checks
      const unsigned cur = st; // the cursor moves on at once, as libts' does
      ts::detail::wait_parity(empty + cur, ph);
      if (ts::detail::lane_index() == 0)
        ts::detail::arrive_expect_tx(full + cur, kStageBytes);
      advance(st, ph, kStages);
      unsigned char *const s = smem + cur * kStageBytes;
      ts::tma::load_with_barrier(s, &p.a, {int64_t(k) * BK, int64_t(mb) * BM}, full + cur);
      ts::tma::load_with_barrier(s + kBOff, &p.b, {int64_t(k) * BK, int64_t(nb) * BN}, full + cur);
    }
  }
  for (unsigned i = 0; i < kStages; ++i) { // every stage handed back before leaving
    ts::detail::wait_parity(empty + st, ph);
    advance(st, ph, kStages);
  }
  for (unsigned i = 0; i < kClcStages; ++i) { // every response read before leaving
    ts::detail::wait_parity(q.empty + cs, cph);
    advance(cs, cph, kClcStages);
  }
}

__device__ void mma(const Params &p, unsigned char *smem, uint64_t *full, uint64_t *empty,
                    uint64_t *acc_full, uint64_t *acc_empty, uint32_t tmem, const Clc &q) {
  constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(BM, BN);
  unsigned st = 0, ph = 0, as = 0, aph = 1, cs = 0, cph = 0;
  for (int u = ts::clc::own_tile(); u >= 0; u = read_next(q, cs, cph)) {
    ts::detail::wait_parity(acc_empty + as, aph);
    ts::tcgen05::fence_after_thread_sync();
    const uint32_t d = tmem + as * BN;
    for (int k = 0; k != p.k_tiles; ++k) {
      const unsigned cur = st;
      ts::detail::wait_parity(full + cur, ph);
      ts::tcgen05::fence_after_thread_sync();
      advance(st, ph, kStages);
      unsigned char *const s = smem + cur * kStageBytes;
      const uint64_t da = ts::tcgen05::make_desc_sw128(s);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s + kBOff);
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        ts::tcgen05::mma_bf16(d, ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32), kIdesc, k > 0 || kk > 0);
      ts::tcgen05::commit(empty + cur); // the stage is empty once these MMAs have read it
    }
    ts::tcgen05::commit(acc_full + as); // the accumulator is full once they are done
    advance(as, aph, kAccStages);
  }
  for (unsigned i = 0; i < kAccStages; ++i) { // every accumulator read before leaving
    ts::detail::wait_parity(acc_empty + as, aph);
    advance(as, aph, kAccStages);
  }
}

__device__ void epilogue(const Params &p, uint64_t *acc_full, uint64_t *acc_empty, uint32_t tmem,
                         const Clc &q) {
  const unsigned lane_base = (threadIdx.x / 32 % 4) * 32;
  unsigned as = 0, aph = 0, cs = 0, cph = 0;
  for (int u = ts::clc::own_tile(); u >= 0; u = read_next(q, cs, cph)) {
    const int mb = u % p.units_m, nb = u / p.units_m;
    ts::detail::wait_parity(acc_full + as, aph);
    ts::tcgen05::fence_after_thread_sync();
    const uint32_t acc = tmem + as * BN;
    const int row = mb * BM + int(lane_base + threadIdx.x % 32);
    __nv_bfloat16 *const out = p.c + size_t(row) * p.n + size_t(nb) * BN;
    for (unsigned j = 0; j < BN / kChunk; j += 4) {
      uint32_t r[4][kChunk];
#pragma unroll
      for (unsigned q = 0; q < 4; ++q)
        ts::tcgen05::ld_32x32b_x8(r[q], ts::tcgen05::address(acc, lane_base, (j + q) * kChunk));
      ts::tcgen05::wait_ld();
#pragma unroll
      for (unsigned q = 0; q < 4; ++q) {
        __nv_bfloat162 v[kChunk / 2];
#pragma unroll
        for (unsigned e = 0; e < kChunk / 2; ++e)
          v[e] = __floats2bfloat162_rn(__uint_as_float(r[q][2 * e]),
                                       __uint_as_float(r[q][2 * e + 1]));
        *reinterpret_cast<uint4 *>(out + (j + q) * kChunk) = *reinterpret_cast<const uint4 *>(v);
      }
    }
    ts::tcgen05::wait_ld();
    ts::tcgen05::fence_before_thread_sync();
    ts::detail::arrive(acc_empty + as);
    advance(as, aph, kAccStages);
  }
}

__global__ void __launch_bounds__(kThreads, 1) gemm_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char *const smem = ts::detail::align_base<1024>(smem_raw);
  // The barriers in libts' order: the tile queue's, the operands', the
  // accumulators'.
  uint64_t *const clc_full = reinterpret_cast<uint64_t *>(smem + kBarOff);
  uint64_t *const full = clc_full + 2 * kClcStages;
  uint64_t *const empty = full + kStages;
  uint64_t *const acc_full = empty + kStages;
  uint64_t *const acc_empty = acc_full + kAccStages;
  const Clc q{smem + kClcOff, clc_full, clc_full + kClcStages};
  uint32_t *const slot = reinterpret_cast<uint32_t *>(smem + kSlotOff);
  const unsigned warp = ts::detail::warp_index();
  if (threadIdx.x == 0) {
    ts::detail::init_barriers(full, kStages, 1u);
    ts::detail::init_barriers(empty, kStages, 1u);
    ts::detail::init_barriers(acc_full, kAccStages, 1u);
    ts::detail::init_barriers(acc_empty, kAccStages, 128u);
    ts::detail::init_barriers(q.full, kClcStages, 1u);
    ts::detail::init_barriers(q.empty, kClcStages, 160u);
    ts::detail::fence_barrier_init();
  }
  if (warp == 0)
    ts::detail::tmem_alloc<kTmemCols>(slot);
  __syncthreads();
  const uint32_t tmem = ts::detail::tmem_base(slot);
  if (warp == 0)
    load(p, smem, full, empty, q);
  else if (warp == 1)
    mma(p, smem, full, empty, acc_full, acc_empty, tmem, q);
  else if (warp >= 4)
    epilogue(p, acc_full, acc_empty, tmem, q);
  __syncthreads();
  if (warp == 0)
    ts::detail::tmem_free<kTmemCols>(tmem);
}

} // namespace gemm100_hand

/// C = A x B^T on sm_100a; M % 128, N % 256, K % 64 must be 0.
extern "C" int gemm_sm100_hand(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                               int M, int N, int K, cudaStream_t stream) {
  using namespace gemm100_hand;
  if (M <= 0 || N <= 0 || K <= 0 || M % BM || N % BN || K % BK)
    return 1;
  Params p;
  if (ts::tensor_map::kmajor_bf16_sw128(&p.a, A, M, K, BM) != cudaSuccess ||
      ts::tensor_map::kmajor_bf16_sw128(&p.b, B, N, K, BN) != cudaSuccess)
    return 2;
  p.c = C;
  p.n = N;
  p.k_tiles = K / BK;
  p.units_m = M / BM;
  p.units = p.units_m * (N / BN);
  if (cudaFuncSetAttribute(gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(kSmemBytes)) != cudaSuccess)
    return 2;
  const int grid = p.units; // one CTA per tile: the first ones cancel the rest
  void *args[] = {&p};
  return cudaLaunchKernel(reinterpret_cast<const void *>(gemm_kernel), dim3(grid), dim3(kThreads),
                          args, kSmemBytes, stream) == cudaSuccess
             ? 0
             : 2;
}
