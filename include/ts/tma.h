// TMA loads into a pipeline stage: global tile -> shared memory, completing
// transaction bytes on the stage's full barrier. Given `s.barrier()`, a load
// is issued by the one thread that armed the stage's bytes (lane 0 of the
// producer task's first warp), so every thread of a producer task of any
// width may call it. Given a raw barrier address, lane 0 of each calling
// warp issues it. TMA stores read a stage asynchronously; releasing the
// stage waits for those reads.
#ifndef LIBTS_TMA_H
#define LIBTS_TMA_H

#include <cstdint>

#include <cuda.h> // CUtensorMap (type only: no driver library is linked)
#include <cuda/ptx>

#include "ts/detail.h"
#include "ts/pipeline.h"

namespace ts {
namespace tma {

namespace detail {
template <int N>
__device__ __forceinline__ void load(bool issue, void *smem_dst, const CUtensorMap *map,
                                     const int32_t (&c)[N], uint64_t *bar) {
  if (issue)
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, c, bar);
}
template <int N>
__device__ __forceinline__ void load_multicast(bool issue, void *smem_dst, const CUtensorMap *map,
                                               const int32_t (&c)[N], uint64_t *bar,
                                               uint16_t mask) {
  if (issue)
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, c, bar, mask);
}

/// The stage's own mask: every CTA of the cluster; a plain load where the
/// cluster is this one CTA.
template <int N>
__device__ __forceinline__ void load_to_stage_mask(void *smem_dst, const CUtensorMap *map,
                                                   const int32_t (&c)[N], tma_barrier bar) {
  if (bar.mask() == 1u)
    load<N>(bar.issuer(), smem_dst, map, c, bar.get());
  else
    load_multicast<N>(bar.issuer(), smem_dst, map, c, bar.get(), uint16_t(bar.mask()));
}
} // namespace detail

/// `map` must live in global, constant or __grid_constant__ parameter memory.
/// c0 is the innermost (contiguous) coordinate, as in cuTensorMapEncodeTiled.
__device__ __forceinline__ void load_1d(void *smem_dst, const CUtensorMap *map, int c0,
                                        tma_barrier bar) {
  detail::load<1>(bar.issuer(), smem_dst, map, {c0}, bar.get());
}
__device__ __forceinline__ void load_2d(void *smem_dst, const CUtensorMap *map, int c0, int c1,
                                        tma_barrier bar) {
  detail::load<2>(bar.issuer(), smem_dst, map, {c0, c1}, bar.get());
}
__device__ __forceinline__ void load_3d(void *smem_dst, const CUtensorMap *map, int c0, int c1,
                                        int c2, tma_barrier bar) {
  detail::load<3>(bar.issuer(), smem_dst, map, {c0, c1, c2}, bar.get());
}

/// Multicast loads into a stage of a ts::multicast resource: the box lands
/// at the same offset of the same stage in every CTA of the kernel's
/// cluster (ts::cluster_shape), and completes its bytes on each one's full
/// barrier. Each CTA's stage expects all of its bytes, so the CTAs split a
/// shared tile: each loads its share, multicast to all. The verifier
/// rejects them into other resources, whose consumers do not hand stages
/// back to the peers.
__device__ __forceinline__ void load_1d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  tma_barrier bar) {
  detail::load_to_stage_mask<1>(smem_dst, map, {c0}, bar);
}
__device__ __forceinline__ void load_2d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  int c1, tma_barrier bar) {
  detail::load_to_stage_mask<2>(smem_dst, map, {c0, c1}, bar);
}
__device__ __forceinline__ void load_3d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  int c1, int c2, tma_barrier bar) {
  detail::load_to_stage_mask<3>(smem_dst, map, {c0, c1, c2}, bar);
}

/// The same to the CTAs of Mask only (bit i: rank i), e.g. one row of a 2D
/// cluster. The verifier checks the mask against the cluster shape.
template <unsigned Mask>
__device__ __forceinline__ void load_1d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  tma_barrier bar) {
  detail::load_multicast<1>(bar.issuer(), smem_dst, map, {c0}, bar.get(), uint16_t(Mask));
}
template <unsigned Mask>
__device__ __forceinline__ void load_2d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  int c1, tma_barrier bar) {
  detail::load_multicast<2>(bar.issuer(), smem_dst, map, {c0, c1}, bar.get(), uint16_t(Mask));
}
template <unsigned Mask>
__device__ __forceinline__ void load_3d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  int c1, int c2, tma_barrier bar) {
  detail::load_multicast<3>(bar.issuer(), smem_dst, map, {c0, c1, c2}, bar.get(),
                            uint16_t(Mask));
}

/// The same with a barrier of your own: lane 0 of each calling warp issues.
__device__ __forceinline__ void load_1d(void *smem_dst, const CUtensorMap *map, int c0,
                                        uint64_t *bar) {
  detail::load<1>(::ts::detail::lane_index() == 0, smem_dst, map, {c0}, bar);
}
__device__ __forceinline__ void load_2d(void *smem_dst, const CUtensorMap *map, int c0, int c1,
                                        uint64_t *bar) {
  detail::load<2>(::ts::detail::lane_index() == 0, smem_dst, map, {c0, c1}, bar);
}
__device__ __forceinline__ void load_3d(void *smem_dst, const CUtensorMap *map, int c0, int c1,
                                        int c2, uint64_t *bar) {
  detail::load<3>(::ts::detail::lane_index() == 0, smem_dst, map, {c0, c1, c2}, bar);
}

namespace detail {
template <int N>
__device__ __forceinline__ void store(const CUtensorMap *map, const int32_t (&c)[N],
                                      const void *smem_src) {
  // Threads of this warp may have written the stage: make their writes
  // visible to the async proxy before lane 0 hands the data to TMA.
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncwarp();
  if (::ts::detail::lane_index() == 0) {
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map, c,
                                    smem_src);
    cuda::ptx::cp_async_bulk_commit_group();
  }
}
} // namespace detail

/// TMA store of a shared-memory tile to global memory, issued by lane 0 of
/// the calling warp as one bulk group. The stage stays readable by TMA
/// until the group's reads finish: consumer::release waits for them, so a
/// stage is never handed back to its producer while a store still reads it.
/// Data written by other warps needs a barrier with them first.
__device__ __forceinline__ void store_1d(const CUtensorMap *map, int c0, const void *smem_src) {
  detail::store<1>(map, {c0}, smem_src);
}
__device__ __forceinline__ void store_2d(const CUtensorMap *map, int c0, int c1,
                                         const void *smem_src) {
  detail::store<2>(map, {c0, c1}, smem_src);
}
__device__ __forceinline__ void store_3d(const CUtensorMap *map, int c0, int c1, int c2,
                                         const void *smem_src) {
  detail::store<3>(map, {c0, c1, c2}, smem_src);
}

/// For stores that one thread issues for many writers (a warpgroup filling
/// a task-owned buffer): every writer fences its shared-memory writes for
/// the TMA unit, then a barrier (ts::sync_warpgroup), then one thread issues.
__device__ __forceinline__ void store_fence() {
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

/// TMA store issued by the calling thread alone, as one bulk group; the
/// source stays in use until wait_store_reads lets this thread see it read.
__device__ __forceinline__ void issue_store_2d(const CUtensorMap *map, int c0, int c1,
                                               const void *smem_src) {
  const int32_t c[2] = {c0, c1};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map, c,
                                  smem_src);
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
