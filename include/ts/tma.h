// TMA loads into a pipeline stage: global tile -> shared memory, completing
// transaction bytes on the stage's full barrier (stage::barrier()). Each
// call is issued by lane 0 of the calling warp only, so a one-warp producer
// task can call it from all lanes.
#ifndef LIBTS_TMA_H
#define LIBTS_TMA_H

#include <cstdint>

#include <cuda.h> // CUtensorMap (type only: no driver library is linked)
#include <cuda/ptx>

#include "ts/detail.h"

namespace ts {
namespace tma {

/// `map` must live in global, constant or __grid_constant__ parameter memory.
__device__ __forceinline__ void load_1d(void *smem_dst, const CUtensorMap *map, int c0,
                                        uint64_t *bar) {
  if (detail::lane_index() == 0) {
    const int32_t c[1] = {c0};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, c, bar);
  }
}

/// c0 is the innermost (contiguous) coordinate, as in cuTensorMapEncodeTiled.
__device__ __forceinline__ void load_2d(void *smem_dst, const CUtensorMap *map, int c0, int c1,
                                        uint64_t *bar) {
  if (detail::lane_index() == 0) {
    const int32_t c[2] = {c0, c1};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, c, bar);
  }
}

__device__ __forceinline__ void load_3d(void *smem_dst, const CUtensorMap *map, int c0, int c1,
                                        int c2, uint64_t *bar) {
  if (detail::lane_index() == 0) {
    const int32_t c[3] = {c0, c1, c2};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst,
                                    map, c, bar);
  }
}

/// Pulls the descriptor into the TMA unit's cache ahead of the first load
/// (no CCCL wrapper for prefetch.tensormap).
__device__ __forceinline__ void prefetch_descriptor(const CUtensorMap *map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (detail::lane_index() == 0)
    asm volatile("prefetch.tensormap [%0];\n" : : "l"(map) : "memory");
#else
  (void)map;
#endif
}

} // namespace tma
} // namespace ts

#endif
