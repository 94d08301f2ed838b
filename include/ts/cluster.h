// Thread-block cluster helpers (sm_90): the cluster-wide barrier, arrivals
// on a barrier of another CTA and the cluster's index, for hand-written
// kernels. Kernels with ts::cluster_shape use the pipeline handles and
// ts::tma::load_multicast instead (docs/guide.md, "Clusters").
#ifndef LIBTS_CLUSTER_H
#define LIBTS_CLUSTER_H

#include <cstdint>

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

} // namespace cluster
} // namespace ts

#endif
