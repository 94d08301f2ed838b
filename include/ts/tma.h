// TMA loads into a pipeline stage: global tile -> shared memory, completing
// transaction bytes on the stage's full barrier. Given `s.barrier()`, a load
// is issued by the one thread that armed the stage's bytes (lane 0 of the
// producer task's first warp), so every thread of a producer task of any
// width may call it. TMA stores read a stage asynchronously; releasing the
// stage waits for those reads. Coordinates are a braced list, innermost
// (contiguous) first as in cuTensorMapEncodeTiled; its length is the rank.
// They are taken as 64-bit so that int, unsigned and domain indices all fit
// without a cast; TMA reads them as 32-bit signed values.
#ifndef LIBTS_TMA_H
#define LIBTS_TMA_H

#include <cstdint>

#include <cuda.h> // CUtensorMap (type only: no driver library is linked)
#include <cuda/ptx>

#include "ts/detail.h"
#include "ts/pipeline.h"
#include "ts/tma_map.h"

namespace ts {
namespace tma {

namespace detail {
/// The template argument of load_multicast that means "the stage's own
/// mask"; no 16-bit CTA mask has this value.
inline constexpr unsigned stage_mask = ~0u;

/// The coordinates as the TMA instruction takes them.
template <int N> struct coords {
  int32_t v[N];
};
template <int N> __device__ __forceinline__ coords<N> narrow(const int64_t (&c)[N]) {
  coords<N> r;
  for (int i = 0; i < N; ++i)
    r.v[i] = int32_t(c[i]);
  return r;
}

/// A load into a CTA pair's stage (ts::cta_pair): the box lands in this
/// CTA's stage and its bytes complete on rank 0's full barrier, which
/// rank 0 armed for both halves (the .cta_group::2 form with the barrier's
/// cluster address).
template <int N>
__device__ __forceinline__ void load_to_pair_leader(void *dst, const CUtensorMap *map,
                                                    const int32_t (&c)[N], uint64_t *bar) {
  static_assert(N >= 1 && N <= 5, "TMA boxes have 1 to 5 dimensions");
#if LIBTS_HAS_TCGEN05
  const uint32_t d = tcgen05::detail::smem_address(dst);
  const uint32_t b = ::ts::detail::map_rank(bar, 0);
#define LIBTS_PAIR_LOAD(DIM, COORDS, ...)                                                      \
  asm volatile("cp.async.bulk.tensor." DIM ".cta_group::2.shared::cluster.global.mbarrier::"     \
               "complete_tx::bytes [%0], [%1, {" COORDS "}], [%2];\n" ::"r"(d),                   \
               "l"(map), "r"(b), __VA_ARGS__                                                     \
               : "memory")
  if constexpr (N == 1)
    LIBTS_PAIR_LOAD("1d", "%3", "r"(c[0]));
  else if constexpr (N == 2)
    LIBTS_PAIR_LOAD("2d", "%3, %4", "r"(c[0]), "r"(c[1]));
  else if constexpr (N == 3)
    LIBTS_PAIR_LOAD("3d", "%3, %4, %5", "r"(c[0]), "r"(c[1]), "r"(c[2]));
  else if constexpr (N == 4)
    LIBTS_PAIR_LOAD("4d", "%3, %4, %5, %6", "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  else
    LIBTS_PAIR_LOAD("5d", "%3, %4, %5, %6, %7", "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]),
                    "r"(c[4]));
#undef LIBTS_PAIR_LOAD
#else
  (void)dst, (void)map, (void)c, (void)bar;
  tcgen05::detail::unsupported();
#endif
}

/// cp.async.bulk.tensor in im2col mode (PTX ISA 8.0; CCCL's cuda::ptx has
/// no im2col form): N coordinates, N - 2 16-bit offsets.
template <int N>
__device__ __forceinline__ void im2col(void *dst, const CUtensorMap *map, const coords<N> &c,
                                       const uint16_t (&o)[N - 2], uint64_t *bar) {
  const uint32_t d = uint32_t(__cvta_generic_to_shared(dst));
  const uint32_t b = uint32_t(__cvta_generic_to_shared(bar));
  const uint64_t m = reinterpret_cast<uint64_t>(map);
  if constexpr (N == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx"
                 "::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                 :
                 : "r"(d), "l"(m), "r"(c.v[0]), "r"(c.v[1]), "r"(c.v[2]), "r"(b), "h"(o[0])
                 : "memory");
  else if constexpr (N == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx"
                 "::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                 :
                 : "r"(d), "l"(m), "r"(c.v[0]), "r"(c.v[1]), "r"(c.v[2]), "r"(c.v[3]), "r"(b),
                   "h"(o[0]), "h"(o[1])
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx"
                 "::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                 :
                 : "r"(d), "l"(m), "r"(c.v[0]), "r"(c.v[1]), "r"(c.v[2]), "r"(c.v[3]),
                   "r"(c.v[4]), "r"(b), "h"(o[0]), "h"(o[1]), "h"(o[2])
                 : "memory");
}
} // namespace detail

/// Loads the box at `c` into a stage: `ts::tma::load(s->a, &map, {k, m},
/// s.barrier())`. `map` must live in global, constant or __grid_constant__
/// parameter memory. With a ts::tma::map the verifier knows the box; with a
/// plain CUtensorMap it takes the box to be the destination (ts-tma-box).
template <int N>
__device__ __forceinline__ void load(void *smem_dst, const CUtensorMap *map, const int64_t (&c)[N],
                                     tma_barrier bar) {
  if (!bar.issuer())
    return;
  if (bar.pair())
    detail::load_to_pair_leader(smem_dst, map, detail::narrow(c).v, bar.get());
  else
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, detail::narrow(c).v, bar.get());
}

/// Multicast load into a stage of a ts::multicast resource: the box lands
/// at the same offset of the same stage in every CTA of the kernel's
/// cluster (ts::cluster_shape), and completes its bytes on each one's full
/// barrier. Each CTA's stage expects all of its bytes, so the CTAs split a
/// shared tile: each loads its share, multicast to all. `load_multicast<Mask>`
/// writes the CTAs of Mask only (bit i: rank i), e.g. one row of a 2D
/// cluster. The verifier checks the mask against the cluster shape and
/// rejects multicasts into other resources, whose consumers do not hand
/// stages back to the peers.
template <unsigned Mask = detail::stage_mask, int N>
__device__ __forceinline__ void load_multicast(void *smem_dst, const CUtensorMap *map,
                                               const int64_t (&c)[N], tma_barrier bar) {
  const unsigned mask = Mask == detail::stage_mask ? bar.mask() : Mask;
  if (!bar.issuer())
    return;
  if (Mask == detail::stage_mask && mask == 1u) // a cluster of one CTA
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, detail::narrow(c).v, bar.get());
  else
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, detail::narrow(c).v, bar.get(), uint16_t(mask));
}

/// im2col load into a stage (a convolution's implicit-GEMM operand): from
/// the channels-last tensor of `map` (a ts::tma::im2col_map), the window
/// pixels starting at `c` (innermost first: channel, then w, h, d, n; rank
/// 3 to 5) offset by `offsets` (one per spatial dimension, innermost
/// first: the filter tap), `Pixels` x `Channels` elements as the map says.
template <int N, int M>
__device__ __forceinline__ void load_im2col(void *smem_dst, const CUtensorMap *map,
                                            const int64_t (&c)[N], const uint16_t (&offsets)[M],
                                            tma_barrier bar) {
  static_assert(N >= 3 && N <= 5, "im2col loads have rank 3 to 5");
  static_assert(M == N - 2, "an im2col load takes one offset per spatial dimension (rank - 2)");
  if constexpr (M == N - 2)
    if (bar.issuer())
      detail::im2col(smem_dst, map, detail::narrow(c), offsets, bar.get());
}

/// A load that completes on a barrier of your own, outside any pipeline:
/// lane 0 of each calling warp issues it.
template <int N>
__device__ __forceinline__ void load_with_barrier(void *smem_dst, const CUtensorMap *map,
                                                  const int64_t (&c)[N], uint64_t *bar) {
  if (::ts::detail::lane_index() == 0)
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, detail::narrow(c).v, bar);
}

/// The same multicast to the CTAs of `cta_mask` (bit i: rank i): the data
/// lands at `smem_dst`'s offset in each and completes on each one's barrier
/// at `bar`'s offset. Lane 0 of each calling warp issues it.
template <int N>
__device__ __forceinline__ void load_multicast_with_barrier(void *smem_dst, const CUtensorMap *map,
                                                            const int64_t (&c)[N], uint64_t *bar,
                                                            uint16_t cta_mask) {
  if (::ts::detail::lane_index() == 0)
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, detail::narrow(c).v, bar, cta_mask);
}

/// TMA store of a shared-memory tile to global memory, issued by lane 0 of
/// the calling warp as one bulk group. The stage stays readable by TMA
/// until the group's reads finish: consumer::release waits for them, so a
/// stage is never handed back to its producer while a store still reads it.
/// Data written by other warps needs a barrier with them first.
template <int N>
__device__ __forceinline__ void store(const CUtensorMap *map, const int64_t (&c)[N],
                                      const void *smem_src) {
  // Threads of this warp may have written the stage: make their writes
  // visible to the async proxy before lane 0 hands the data to TMA.
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncwarp();
  if (::ts::detail::lane_index() == 0) {
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map,
                                    detail::narrow(c).v, smem_src);
    cuda::ptx::cp_async_bulk_commit_group();
  }
}

/// For stores that one thread issues for many writers (a warpgroup filling
/// a task-owned buffer): every writer fences its shared-memory writes for
/// the TMA unit, then a barrier (ts::sync_warpgroup), then one thread issues.
__device__ __forceinline__ void store_fence() {
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

/// TMA store issued by the calling thread alone, as one bulk group; the
/// source stays in use until wait_store_reads lets this thread see it read.
template <int N>
__device__ __forceinline__ void issue_store(const CUtensorMap *map, const int64_t (&c)[N],
                                            const void *smem_src) {
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map,
                                  detail::narrow(c).v, smem_src);
  cuda::ptx::cp_async_bulk_commit_group();
}

/// Waits (in the issuing thread) until at most N of its newest store groups
/// may still read shared memory: their sources may then be overwritten.
template <int N>
__device__ __forceinline__ void wait_store_reads() {
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<N>{});
}

/// Pulls the descriptor into the TMA unit's cache ahead of the first load
/// (no CCCL wrapper for prefetch.tensormap).
__device__ __forceinline__ void prefetch_descriptor(const CUtensorMap *map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (::ts::detail::lane_index() == 0)
    asm volatile("prefetch.tensormap [%0];\n" : : "l"(map) : "memory");
#else
  (void)map;
#endif
}

} // namespace tma
} // namespace ts

#endif
