// Thread-block cluster helpers (sm_90): the cluster-wide barrier, arrivals
// on a barrier of another CTA, the cluster's index, and a raw multicast load
// for hand-written kernels. Kernels with ts::cluster_shape use the pipeline
// handles and ts::tma::load_*_multicast instead (docs/guide.md, "Clusters").
#ifndef LIBTS_CLUSTER_H
#define LIBTS_CLUSTER_H

#include <cstdint>

#include <cuda.h> // CUtensorMap (type only)
#include <cuda/ptx>

#include "ts/detail.h"

namespace ts {
namespace cluster {

/// This CTA's rank in its cluster (0 without clusters).
__device__ __forceinline__ unsigned rank() { return cuda::ptx::get_sreg_cluster_ctarank(); }

/// Every thread of every CTA of the cluster arrives, then waits for all
/// of them (release / acquire: shared-memory writes before, e.g. barrier
/// inits, are visible to the other CTAs after). Kernels generated for a
/// ts::cluster_shape do this after barrier init and before exit.
__device__ __forceinline__ void sync() { ::ts::detail::cluster_sync(); }

/// The shared::cluster address of `local` (a variable of this CTA's shared
/// memory) in the CTA of rank `cta`.
__device__ __forceinline__ uint32_t map_rank(const void *local, unsigned cta) {
  return ::ts::detail::map_rank(local, cta);
}

/// Arrival (release, cluster scope) on the barrier at the same offset as
/// `local_bar` in the CTA of rank `cta` (which may be this one).
__device__ __forceinline__ void arrive_remote(uint64_t *local_bar, unsigned cta) {
  ::ts::detail::arrive_remote(local_bar, cta);
}

/// The same arrival without ordering (relaxed, cluster scope; no fence):
/// for handing back a buffer this thread only read through the async proxy
/// and whose reads are already complete (after wgmma.wait_group).
__device__ __forceinline__ void arrive_remote_relaxed(uint64_t *local_bar, unsigned cta) {
  ::ts::detail::arrive_remote_relaxed(local_bar, cta);
}

/// The cluster this CTA belongs to, and how many the grid has (along x):
/// the same in every CTA of a cluster, so a tile loop over clusters runs
/// the same trip count in each (multicast needs that).
__device__ __forceinline__ unsigned id() { return cuda::ptx::get_sreg_clusterid_x(); }
__device__ __forceinline__ unsigned count() { return cuda::ptx::get_sreg_nclusterid_x(); }

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
