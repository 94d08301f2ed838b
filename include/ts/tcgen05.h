// Blackwell (sm_100a) tensor cores and tensor memory: tcgen05.mma from
// shared-memory descriptors into TMEM accumulators, its commit to an
// mbarrier, accumulator loads, the tcgen05 fences, and the allocation the
// generated kernel body makes for the plan's ts::tmem resources. Facts and
// sources: docs/blackwell-facts.md. The CTA group is one per file:
// LIBTS_CTA_GROUP, 1 unless the rewrite of a file whose kernel uses CTA
// pairs (ts::cta_pair) defines it as 2 (ptxas takes one group per kernel,
// dead branches included, so it cannot be a runtime choice).
//
// Only nvcc compiles these for sm_100a (-gencode=arch=compute_100a,
// code=sm_100a); elsewhere the device functions trap, as ts/wgmma.h does
// off sm_90a.
#ifndef LIBTS_TCGEN05_H
#define LIBTS_TCGEN05_H

#include <cstdint>

#include <cuda/ptx>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define LIBTS_HAS_TCGEN05 1
#else
#define LIBTS_HAS_TCGEN05 0
#endif

#ifndef LIBTS_CTA_GROUP
#define LIBTS_CTA_GROUP 1
#endif
#if LIBTS_CTA_GROUP != 1 && LIBTS_CTA_GROUP != 2
#error "LIBTS_CTA_GROUP is 1 or 2"
#endif
#define LIBTS_TCGEN05_STR2(x) #x
#define LIBTS_TCGEN05_STR(x) LIBTS_TCGEN05_STR2(x)
/// ".cta_group::1" or ".cta_group::2", spliced into the asm strings.
#define LIBTS_CTA_GROUP_PTX ".cta_group::" LIBTS_TCGEN05_STR(LIBTS_CTA_GROUP)
/// The same as CCCL's tag, for its cuda::ptx wrappers.
#if LIBTS_CTA_GROUP == 2
#define LIBTS_CTA_GROUP_TAG ::cuda::ptx::cta_group_2
#else
#define LIBTS_CTA_GROUP_TAG ::cuda::ptx::cta_group_1
#endif

namespace ts {
namespace tcgen05 {

/// CTAs one MMA spans: 2 for a pair (M up to 256 across both CTAs' tensor
/// memory, issued by rank 0), else 1.
constexpr unsigned cta_group = LIBTS_CTA_GROUP;

namespace detail {
__device__ __forceinline__ void unsupported() {
#if defined(__CUDA_ARCH__) && !LIBTS_HAS_TCGEN05
  __trap(); // tcgen05 needs sm_100a
#endif
}
__device__ __forceinline__ uint32_t smem_address(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
/// The thread that issues a warp's MMAs and commits them: a commit tracks
/// only its own thread's MMAs, so both must be the same one.
__device__ __forceinline__ bool issuing_lane() { return (threadIdx.x & 31u) == 0; }
} // namespace detail

/// Instruction descriptor of kind::f16 for bf16 x bf16 -> f32, A and B
/// K-major (PTX ISA, "Instruction descriptor"): D type f32 (bits 4-5 = 1),
/// A and B bf16 (bits 7-9, 10-12 = 1), N >> 3 at bit 17, M >> 4 at bit 24.
__host__ __device__ constexpr uint32_t idesc_bf16(unsigned m, unsigned n) {
  return (1u << 4) | (1u << 7) | (1u << 10) | ((n >> 3) << 17) | ((m >> 4) << 24);
}
static_assert(idesc_bf16(128, 256) == 0x08400490u, "docs/blackwell-facts.md, section 2");

// Shared-memory descriptor for a K-major tile with 128-byte swizzle:
//   bits  0-13  start address >> 4
//   bits 16-29  leading byte offset >> 4 (unused for swizzled K-major: 1)
//   bits 32-45  stride byte offset >> 4: 1024 B between 8-row groups
//   bits 46-48  0b001 (the descriptor version sm_100 requires)
//   bits 61-63  layout: 2 = 128-byte swizzle
constexpr uint64_t kDescSw128Bits =
    (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 46) | (uint64_t(2) << 61);

__device__ __forceinline__ uint64_t make_desc_sw128(const void *smem) {
  return kDescSw128Bits | uint64_t((detail::smem_address(smem) & 0x3FFFFu) >> 4);
}

/// The descriptor moved `bytes` along K inside the swizzled 128-byte row
/// (k16 step i: 32 * i bytes), as on Hopper.
__device__ __forceinline__ uint64_t advance_k(uint64_t desc, unsigned bytes) {
  return desc + uint64_t(bytes >> 4);
}

/// D[tmem] (+)= A * B with one M x N x 16 step. A single thread issues it
/// (PTX): lane 0 of each calling warp, which is also the lane that
/// commit() and the tma_umma / umma_async hand-backs commit from.
/// `accumulate` false overwrites D.
__device__ __forceinline__ void mma_bf16(uint32_t d_tmem, uint64_t desc_a, uint64_t desc_b,
                                         uint32_t idesc, bool accumulate) {
#if LIBTS_HAS_TCGEN05
  if (detail::issuing_lane())
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %4, 0;\n"
                 "tcgen05.mma" LIBTS_CTA_GROUP_PTX ".kind::f16 [%0], %1, %2, %3, p;\n"
                 "}\n" ::"r"(d_tmem),
                 "l"(desc_a), "l"(desc_b), "r"(idesc), "r"(int(accumulate))
                 : "memory");
#else
  detail::unsupported();
#endif
}

/// Instruction descriptor of kind::mxf8f6f4 with block scaling for e4m3 x
/// e4m3 -> f32, A and B K-major, one UE8M0 scale per 32 K (PTX ISA,
/// "Instruction descriptor" for block-scaled kinds): B's scale byte
/// `sf_id` at bits 4-5, A and B e4m3 (bits 7-9, 10-12 = 0), N >> 3 at bit
/// 17, UE8M0 scales (bit 23), M >> 4 at bit 24, A's scale byte at 29-30.
__host__ __device__ constexpr uint32_t idesc_mxf8_e4m3(unsigned m, unsigned n, unsigned sf_id) {
  return ((sf_id & 3u) << 4) | ((n >> 3) << 17) | (1u << 23) | ((m >> 4) << 24) |
         ((sf_id & 3u) << 29);
}
static_assert(idesc_mxf8_e4m3(128, 128, 3) == 0x68a00030u, "docs/blackwell-facts.md, section 11");

/// Shared-memory descriptor of one 32-row x 16-byte scale-factor block, the
/// source of cp_32x128b_warpx4: no swizzle, K-major core matrices of 8 rows
/// x 16 bytes, 128 bytes between 8-row groups (stride byte offset).
__device__ __forceinline__ uint64_t make_desc_sf(const void *smem) {
  return (uint64_t(128 >> 4) << 32) | (uint64_t(1) << 46) |
         uint64_t((detail::smem_address(smem) & 0x3FFFFu) >> 4);
}

/// Copies 32 rows x 128 bits of scale factors from shared memory into four
/// columns of tensor memory at `taddr`, the same in each of the four lane
/// quarters (.32x128b.warpx4): the layout a block-scaled MMA reads its
/// scales in when row r's 4 scale bytes sit at byte 16 (r % 32) + 4 (r /
/// 32) of a 512-byte block. Lane 0 issues it, in order with its MMAs.
__device__ __forceinline__ void cp_32x128b_warpx4(uint32_t taddr, uint64_t sdesc) {
#if LIBTS_HAS_TCGEN05
  if (detail::issuing_lane())
    ::cuda::ptx::tcgen05_cp_32x128b_warpx4(LIBTS_CTA_GROUP_TAG, taddr, sdesc);
#else
  detail::unsupported();
#endif
}

/// D[tmem] (+)= (A scaled) * (B scaled), one M x N x 32 e4m3 step with UE8M0
/// scale factors in tensor memory: `sfa` / `sfb` are the columns the
/// scales were copied to (cp_32x128b_warpx4), `sf_id` the byte of each
/// 32-bit column (the K block) this step uses; `idesc` must carry the same
/// sf_id (idesc_mxf8_e4m3).
__device__ __forceinline__ void mma_mxf8(uint32_t d_tmem, uint64_t desc_a, uint64_t desc_b,
                                         uint32_t idesc, uint32_t sfa, uint32_t sfb,
                                         unsigned sf_id, bool accumulate) {
#if LIBTS_HAS_TCGEN05
  const uint32_t byte = uint32_t(sf_id & 3u) << 30;
  if (detail::issuing_lane())
    ::cuda::ptx::tcgen05_mma_block_scale_vec_1x(::cuda::ptx::kind_mxf8f6f4, LIBTS_CTA_GROUP_TAG,
                                                d_tmem, desc_a, desc_b, idesc, sfa | byte,
                                                sfb | byte, accumulate);
#else
  detail::unsupported();
#endif
}

/// The same with A from tensor memory (`a_tmem`: M lanes x 16 bf16, two
/// per 32-bit column), the form a ts::umma_umma consumer reads its stage
/// with (`s.tmem()`).
__device__ __forceinline__ void mma_bf16_ts(uint32_t d_tmem, uint32_t a_tmem, uint64_t desc_b,
                                            uint32_t idesc, bool accumulate) {
#if LIBTS_HAS_TCGEN05
  if (detail::issuing_lane())
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %4, 0;\n"
                 "tcgen05.mma" LIBTS_CTA_GROUP_PTX ".kind::f16 [%0], [%1], %2, %3, p;\n"
                 "}\n" ::"r"(d_tmem),
                 "r"(a_tmem), "l"(desc_b), "r"(idesc), "r"(int(accumulate))
                 : "memory");
#else
  detail::unsupported();
#endif
}

/// One arrival on `bar` once every tcgen05 operation lane 0 issued before
/// has completed (the MMAs' reads of shared memory and writes of tensor
/// memory); lane 0 of the calling warp commits, as it issued them. In a
/// CTA pair one arrival lands on `bar`'s offset in each CTA of the pair:
/// the MMAs read both CTAs' stages and write both CTAs' tensor memory.
__device__ __forceinline__ void commit(uint64_t *bar) {
#if LIBTS_HAS_TCGEN05 && LIBTS_CTA_GROUP == 2
  if (detail::issuing_lane())
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::"
                 "cluster.b64 [%0], %1;\n" ::"r"(detail::smem_address(bar)),
                 "h"(uint16_t(0x3))
                 : "memory");
#elif LIBTS_HAS_TCGEN05
  if (detail::issuing_lane())
    asm volatile(
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n" ::"r"(
            detail::smem_address(bar))
        : "memory");
#else
  detail::unsupported();
#endif
}

/// The same, one arrival on `bar`'s offset in each CTA of `cta_mask` (bit
/// i: rank i): the release of a ts::multicast stage that every CTA of the
/// mask fills.
__device__ __forceinline__ void commit_multicast(uint64_t *bar, uint16_t cta_mask) {
#if LIBTS_HAS_TCGEN05
  if (detail::issuing_lane())
    asm volatile("tcgen05.commit" LIBTS_CTA_GROUP_PTX ".mbarrier::arrive::one.shared::cluster."
                 "multicast::cluster.b64 [%0], %1;\n" ::"r"(detail::smem_address(bar)),
                 "h"(cta_mask)
                 : "memory");
#else
  detail::unsupported();
#endif
}

/// Orders this thread's earlier tcgen05 operations before a following
/// barrier or mbarrier arrive.
__device__ __forceinline__ void fence_before_thread_sync() {
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
#else
  detail::unsupported();
#endif
}

/// Orders this thread's later tcgen05 operations after a preceding barrier
/// or mbarrier wait.
__device__ __forceinline__ void fence_after_thread_sync() {
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
#else
  detail::unsupported();
#endif
}

/// Eight consecutive 32-bit columns of one TMEM lane per thread (shape
/// 32x32b: warp w % 4 reaches lanes 32 (w % 4) .. 32 (w % 4) + 31); whole
/// warp. The registers are valid after wait_ld().
__device__ __forceinline__ void ld_32x32b_x8(uint32_t (&r)[8], uint32_t taddr) {
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
                 "=r"(r[7])
               : "r"(taddr)
               : "memory");
#else
  detail::unsupported();
  for (int i = 0; i < 8; ++i)
    r[i] = 0;
#endif
}

/// Waits for this thread's earlier tcgen05.ld.
__device__ __forceinline__ void wait_ld() {
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory");
#else
  detail::unsupported();
#endif
}

/// The TMEM address of lane `lane`, column `column` past `base`.
__device__ __forceinline__ uint32_t address(uint32_t base, unsigned lane, unsigned column) {
  return base + (uint32_t(lane) << 16) + column;
}

} // namespace tcgen05

namespace detail {

/// The generated body's allocation (one whole warp, before the block's
/// first barrier): `Cols` columns, their base written to `slot`; the
/// permit is given up at once so that the next CTA on the SM can allocate.
template <unsigned Cols> __device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  static_assert(Cols >= 32 && Cols <= 512 && (Cols & (Cols - 1)) == 0,
                "tcgen05.alloc takes a power of two from 32 to 512 columns");
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.alloc" LIBTS_CTA_GROUP_PTX ".sync.aligned.shared::cta.b32 [%0], %1;\n"
               "tcgen05.relinquish_alloc_permit" LIBTS_CTA_GROUP_PTX ".sync.aligned;\n" ::"r"(
                   tcgen05::detail::smem_address(slot)),
               "n"(Cols)
               : "memory");
  tcgen05::fence_before_thread_sync();
#else
  tcgen05::detail::unsupported();
#endif
}

/// After the barrier that follows tmem_alloc: the allocation's base.
__device__ __forceinline__ uint32_t tmem_base(const uint32_t *slot) {
  tcgen05::fence_after_thread_sync();
  return *slot;
}

/// After the block's last barrier (every task done with its columns): the
/// allocating warp frees them, as every block must before it exits.
template <unsigned Cols> __device__ __forceinline__ void tmem_free(uint32_t base) {
  tcgen05::fence_after_thread_sync();
#if LIBTS_HAS_TCGEN05
  asm volatile("tcgen05.dealloc" LIBTS_CTA_GROUP_PTX ".sync.aligned.b32 %0, %1;\n" ::"r"(base),
               "n"(Cols)
               : "memory");
#endif
}

} // namespace detail
} // namespace ts

#endif
