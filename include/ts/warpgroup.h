// Warpgroups (four consecutive warps, the unit of wgmma and setmaxnreg) as
// a task sees them: which one a thread is in, and a barrier among its 128
// threads, for work a warpgroup shares through task-owned memory.
#ifndef LIBTS_WARPGROUP_H
#define LIBTS_WARPGROUP_H

#include "ts/detail.h"

namespace ts {

/// threadIdx.x / 128, known warp-uniform to the compiler (so descriptors and
/// addresses built from it stay in uniform registers).
__device__ __forceinline__ unsigned warpgroup_index() { return detail::warp_index() / 4u; }

/// Barrier among the 128 threads of the calling thread's warpgroup: named
/// barrier 1 + warpgroup index (barrier 0 is __syncthreads'). Every thread of
/// the warpgroup must call it.
__device__ __forceinline__ void sync_warpgroup() {
#if defined(__CUDA_ARCH__)
  asm volatile("bar.sync %0, 128;\n" : : "r"(1u + warpgroup_index()) : "memory");
#endif
}

} // namespace ts

#endif
