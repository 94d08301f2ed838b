// Thread-block cluster helpers (sm_90): TMA loads multicast to several CTAs
// of the cluster, arrivals on a barrier of another CTA, and the cluster-wide
// barrier. Next to ts/tma.h; the pipeline handles do not use them yet.
#ifndef LIBTS_CLUSTER_H
#define LIBTS_CLUSTER_H

#include <cstdint>

#include <cuda.h> // CUtensorMap (type only)
#include <cuda/ptx>

namespace ts {
namespace cluster {

/// This CTA's rank in its cluster (0 without clusters).
__device__ __forceinline__ unsigned rank() { return cuda::ptx::get_sreg_cluster_ctarank(); }

/// Every thread of every CTA of the cluster arrives, then waits for all of
/// them (release / acquire: shared-memory writes before, e.g. barrier
/// inits, are visible to the other CTAs after). Use it after barrier init
/// before any CTA touches another's barriers, and before exit so no CTA
/// leaves while others may still arrive on its barriers or write its
/// shared memory.
__device__ __forceinline__ void sync() {
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
  cuda::ptx::barrier_cluster_wait(cuda::ptx::sem_acquire);
}

/// The shared::cluster address of `local` (a variable of this CTA's shared
/// memory) in the CTA of rank `cta`.
__device__ __forceinline__ uint32_t map_rank(const void *local, unsigned cta) {
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(local));
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(a), "r"(cta));
  return r;
}

/// Arrival (release, cluster scope) on the barrier at the same offset as
/// `local_bar` in the CTA of rank `cta` (which may be this one): this
/// thread's prior writes are visible to whoever waits on that barrier. The
/// release costs a cluster-scope fence (a MEMBAR in SASS) on every call.
__device__ __forceinline__ void arrive_remote(uint64_t *local_bar, unsigned cta) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n"
               :
               : "r"(map_rank(local_bar, cta))
               : "memory");
#else
  (void)local_bar;
  (void)cta;
#endif
}

/// The same arrival without ordering (relaxed, cluster scope; no fence):
/// for handing back a buffer this thread only read through the async proxy
/// and whose reads are already complete (after wgmma.wait_group, or a bulk
/// wait_group.read), e.g. a pipeline stage the peer's TMA multicast refills.
/// Not for publishing data written with ordinary stores.
__device__ __forceinline__ void arrive_remote_relaxed(uint64_t *local_bar, unsigned cta) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];\n"
               :
               : "r"(map_rank(local_bar, cta))
               : "memory");
#else
  (void)local_bar;
  (void)cta;
#endif
}

/// TMA load of a 2D box multicast to the CTAs in `cta_mask` (bit i = rank
/// i): the data lands at the same shared-memory offset as `smem_dst` in
/// each, and each one's barrier at the offset of `bar` gets the bytes'
/// complete_tx. Issued by one thread. Coordinates innermost first.
__device__ __forceinline__ void load_2d_multicast(void *smem_dst, const CUtensorMap *map, int c0,
                                                  int c1, uint64_t *bar, uint16_t cta_mask) {
  const int32_t c[2] = {c0, c1};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst, map,
                                  c, bar, cta_mask);
}

} // namespace cluster
} // namespace ts

#endif
