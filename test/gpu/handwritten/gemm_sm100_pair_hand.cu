// Hand-written Blackwell (sm_100a) bf16 GEMM with 2-CTA MMA (cta_group::2),
// the groundwork for libts' CTA pairs (issue 23): the PTX forms, counts and
// hand-offs a pair kernel needs, written directly, before the plan derives
// them. Compile-verified only (no Blackwell GPU here).
//
//   C[M][N] = A[M][K] * B[N][K]^T   bf16 in, fp32 accumulate in tensor memory, bf16 out
//
// Clusters of two CTAs (a pair: ranks 0 and 1); each pair computes 256 x 256
// tiles, statically: pair c takes tiles c, c + pairs, ...
// - warp 0 of each CTA loads its half of the k-step's operands into its own
//   4-stage ring: 128 rows of A (the pair's rows 128 r ..) and 128 rows of
//   B (the pair's columns 128 r ..), 32 KiB. Both CTAs' loads complete
//   their bytes on rank 0's full barrier (the peer's through the mapa'd
//   address, the TMA's .cta_group::2 form), which rank 0's lane 0 arms
//   with 64 KiB and one arrival; rank 1's full barriers stay unused.
// - warp 1 of rank 0 alone issues the MMAs: m256n256k16, A and B from the
//   same offsets in both CTAs' shared memory, D in both CTAs' tensor memory
//   (128 lanes each), and commits each stage to both CTAs' empty barriers
//   (tcgen05.commit.cta_group::2 ... multicast::cluster, mask 0b11: one
//   arrival each), each tile's accumulator to both CTAs' full barriers.
// - warps 4-7 of each CTA read their 128 rows of the accumulator and hand
//   it back to rank 0's empty barrier (256 arrivals: both epilogues).
// - Tensor memory: warp 0 of each CTA allocates 512 columns with
//   cta_group::2 (every tcgen05 instruction of a kernel must use one group:
//   docs/blackwell-facts.md, open question 3) and frees them after a
//   cluster barrier.
//
//   nvcc -std=c++17 -gencode=arch=compute_100a,code=sm_100a -O3 -I include -c gemm_sm100_pair_hand.cu
// gpu-run: skip (sm_100a: no Blackwell GPU here; compile-verified only)
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <ts/detail.h>
#include <ts/tcgen05.h>
#include <ts/tensor_map.h>

namespace gemm100_pair {

constexpr int BM = 128, BN = 128, BK = 64; // one CTA's half of a 256 x 256 tile
constexpr unsigned kStages = 4, kAccStages = 2, kChunk = 8;
constexpr unsigned kHalfBytes = (BM + BN) * BK * 2; // 32 KiB: what one CTA loads
constexpr unsigned kBOff = BM * BK * 2;
constexpr unsigned kBarOff = kStages * kHalfBytes;
constexpr unsigned kSlotOff = kBarOff + 2 * (kStages + kAccStages) * 8;
constexpr unsigned kSmemBytes = kSlotOff + 16 + 1024;
constexpr unsigned kThreads = 256, kTmemCols = kAccStages * 2 * BN; // N = 256 per stage
constexpr uint16_t kPairMask = 0x3;

struct Params {
  CUtensorMap a, b;
  __nv_bfloat16 *c;
  int n, k_tiles, tiles_m, tiles;
};

__device__ __forceinline__ void advance(unsigned &stage, unsigned &phase, unsigned n) {
  if (++stage == n) {
    stage = 0;
    phase ^= 1u;
  }
}

__device__ __forceinline__ unsigned rank() { return cuda::ptx::get_sreg_cluster_ctarank(); }

/// A k-major box into this CTA's shared memory whose bytes complete on
/// rank 0's barrier (`bar` is this CTA's barrier at the same offset).
__device__ __forceinline__ void load_to_leader(void *dst, const CUtensorMap *map, int x, int y,
                                               uint64_t *bar) {
#if LIBTS_HAS_TCGEN05
  const uint32_t leader_bar = ts::detail::map_rank(bar, 0);
  asm volatile("cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx"
               "::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(ts::tcgen05::detail::smem_address(dst)),
               "l"(map), "r"(x), "r"(y), "r"(leader_bar)
               : "memory");
#endif
}

/// m256 x n256 x k16 over the pair: lane 0 of rank 0's MMA warp.
__device__ __forceinline__ void mma_pair(uint32_t d, uint64_t da, uint64_t db, uint32_t idesc,
                                         bool accumulate) {
#if LIBTS_HAS_TCGEN05
  if (ts::tcgen05::detail::issuing_lane())
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %4, 0;\n"
                 "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;\n"
                 "}\n" ::"r"(d),
                 "l"(da), "l"(db), "r"(idesc), "r"(int(accumulate))
                 : "memory");
#endif
}

/// One arrival on the barrier at `bar`'s offset in both CTAs of the pair
/// once the MMAs lane 0 issued are done.
__device__ __forceinline__ void commit_pair(uint64_t *bar) {
#if LIBTS_HAS_TCGEN05
  if (ts::tcgen05::detail::issuing_lane())
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::"
                 "cluster.b64 [%0], %1;\n" ::"r"(ts::tcgen05::detail::smem_address(bar)),
                 "h"(kPairMask)
                 : "memory");
#endif
}

__device__ void load(const Params &p, unsigned char *smem, uint64_t *full, uint64_t *empty) {
  const unsigned r = rank();
  unsigned st = 0, ph = 1;
  for (int t = int(blockIdx.x / 2); t < p.tiles; t += int(gridDim.x / 2)) {
    const int mb = t % p.tiles_m, nb = t / p.tiles_m;
    for (int k = 0; k != p.k_tiles; ++k) {
      const unsigned cur = st;
      ts::detail::wait_parity(empty + cur, ph); // both CTAs': the leader's commit arrives on each
      advance(st, ph, kStages);
      if (ts::detail::lane_index() != 0)
        continue;
      if (r == 0)
        ts::detail::arrive_expect_tx(full + cur, 2 * kHalfBytes);
      unsigned char *const s = smem + cur * kHalfBytes;
      load_to_leader(s, &p.a, k * BK, (2 * mb + int(r)) * BM, full + cur);
      load_to_leader(s + kBOff, &p.b, k * BK, (2 * nb + int(r)) * BN, full + cur);
    }
  }
  for (unsigned i = 0; i < kStages; ++i) { // the leader's last MMAs read every stage
    ts::detail::wait_parity(empty + st, ph);
    advance(st, ph, kStages);
  }
}

__device__ void mma(const Params &p, unsigned char *smem, uint64_t *full, uint64_t *empty,
                    uint64_t *acc_full, uint64_t *acc_empty, uint32_t tmem) {
  constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(2 * BM, 2 * BN);
  unsigned st = 0, ph = 0, as = 0, aph = 1;
  for (int t = int(blockIdx.x / 2); t < p.tiles; t += int(gridDim.x / 2)) {
    ts::detail::wait_parity(acc_empty + as, aph); // both epilogues handed it back
    ts::tcgen05::fence_after_thread_sync();
    const uint32_t d = tmem + as * 2 * BN;
    for (int k = 0; k != p.k_tiles; ++k) {
      const unsigned cur = st;
      ts::detail::wait_parity(full + cur, ph); // both halves landed
      ts::tcgen05::fence_after_thread_sync();
      advance(st, ph, kStages);
      unsigned char *const s = smem + cur * kHalfBytes;
      const uint64_t da = ts::tcgen05::make_desc_sw128(s);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s + kBOff);
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        mma_pair(d, ts::tcgen05::advance_k(da, kk * 32), ts::tcgen05::advance_k(db, kk * 32),
                 kIdesc, k > 0 || kk > 0);
      commit_pair(empty + cur);
    }
    commit_pair(acc_full + as);
    advance(as, aph, kAccStages);
  }
  for (unsigned i = 0; i < kAccStages; ++i) {
    ts::detail::wait_parity(acc_empty + as, aph);
    advance(as, aph, kAccStages);
  }
}

__device__ void epilogue(const Params &p, uint64_t *acc_full, uint64_t *acc_empty, uint32_t tmem) {
  const unsigned r = rank(), lane_base = (threadIdx.x / 32 % 4) * 32;
  unsigned as = 0, aph = 0;
  for (int t = int(blockIdx.x / 2); t < p.tiles; t += int(gridDim.x / 2)) {
    const int mb = t % p.tiles_m, nb = t / p.tiles_m;
    ts::detail::wait_parity(acc_full + as, aph);
    ts::tcgen05::fence_after_thread_sync();
    const uint32_t acc = tmem + as * 2 * BN;
    const int row = (2 * mb + int(r)) * BM + int(lane_base + threadIdx.x % 32);
    __nv_bfloat16 *const out = p.c + size_t(row) * p.n + size_t(nb) * 2 * BN;
    for (unsigned j = 0; j < 2 * BN / kChunk; ++j) {
      uint32_t v[kChunk];
      ts::tcgen05::ld_32x32b_x8(v, ts::tcgen05::address(acc, lane_base, j * kChunk));
      ts::tcgen05::wait_ld();
      __nv_bfloat162 h[kChunk / 2];
#pragma unroll
      for (unsigned e = 0; e < kChunk / 2; ++e)
        h[e] = __floats2bfloat162_rn(__uint_as_float(v[2 * e]), __uint_as_float(v[2 * e + 1]));
      *reinterpret_cast<uint4 *>(out + j * kChunk) = *reinterpret_cast<const uint4 *>(h);
    }
    ts::tcgen05::fence_before_thread_sync();
    ts::detail::arrive_remote(acc_empty + as, 0); // rank 0's MMA warp refills it
    advance(as, aph, kAccStages);
  }
}

__device__ __forceinline__ void tmem_alloc_pair(uint32_t *slot) {
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;\n"
               "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;\n" ::"r"(
                   ts::tcgen05::detail::smem_address(slot)),
               "n"(kTmemCols)
               : "memory");
  ts::tcgen05::fence_before_thread_sync();
#endif
}

__device__ __forceinline__ void tmem_free_pair(uint32_t base) {
  ts::tcgen05::fence_after_thread_sync();
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;\n" ::"r"(base),
               "n"(kTmemCols)
               : "memory");
#endif
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(kThreads, 1)
    gemm_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char *const smem = ts::detail::align_base<1024>(smem_raw);
  uint64_t *const full = reinterpret_cast<uint64_t *>(smem + kBarOff);
  uint64_t *const empty = full + kStages;
  uint64_t *const acc_full = empty + kStages;
  uint64_t *const acc_empty = acc_full + kAccStages;
  uint32_t *const slot = reinterpret_cast<uint32_t *>(smem + kSlotOff);
  const unsigned warp = ts::detail::warp_index();
  if (threadIdx.x == 0) {
    ts::detail::init_barriers(full, kStages, 1u);  // rank 0's: its arm + both halves' bytes
    ts::detail::init_barriers(empty, kStages, 1u); // each: the leader's multicast commit
    ts::detail::init_barriers(acc_full, kAccStages, 1u);
    ts::detail::init_barriers(acc_empty, kAccStages, 256u); // rank 0's: both epilogues
    ts::detail::fence_barrier_init();
  }
  if (warp == 0)
    tmem_alloc_pair(slot);
  ts::detail::cluster_sync(); // the peer's barriers exist before anyone signals them
  const uint32_t tmem = ts::detail::tmem_base(slot);
  if (warp == 0)
    load(p, smem, full, empty);
  else if (warp == 1 && rank() == 0)
    mma(p, smem, full, empty, acc_full, acc_empty, tmem);
  else if (warp >= 4)
    epilogue(p, acc_full, acc_empty, tmem);
  ts::detail::cluster_sync(); // both CTAs done with the columns and each other's barriers
  if (warp == 0)
    tmem_free_pair(tmem);
}

} // namespace gemm100_pair

/// C = A x B^T on sm_100a; M % 256, N % 256, K % 64 must be 0.
extern "C" int gemm_sm100_pair_hand(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                    __nv_bfloat16 *C, int M, int N, int K, int sms,
                                    cudaStream_t stream) {
  using namespace gemm100_pair;
  if (M <= 0 || N <= 0 || K <= 0 || M % (2 * BM) || N % (2 * BN) || K % BK || sms < 2)
    return 1;
  Params p;
  if (ts::tensor_map::kmajor_bf16_sw128(&p.a, A, M, K, BM) != cudaSuccess ||
      ts::tensor_map::kmajor_bf16_sw128(&p.b, B, N, K, BN) != cudaSuccess)
    return 2;
  p.c = C;
  p.n = N;
  p.k_tiles = K / BK;
  p.tiles_m = M / (2 * BM);
  p.tiles = p.tiles_m * (N / (2 * BN));
  if (cudaFuncSetAttribute(gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(kSmemBytes)) != cudaSuccess)
    return 2;
  const int pairs = p.tiles < sms / 2 ? p.tiles : sms / 2;
  void *args[] = {&p};
  return cudaLaunchKernel(reinterpret_cast<const void *>(gemm_kernel), dim3(2 * pairs),
                          dim3(kThreads), args, kSmemBytes, stream) == cudaSuccess
             ? 0
             : 2;
}
