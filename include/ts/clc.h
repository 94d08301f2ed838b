// Blackwell (sm_100a) cluster launch control (CLC): the scheduler behind a
// ts::tiles loop over a ts::clc_async queue. The grid has one CTA per tile;
// a running CTA asks the hardware to cancel a CTA not launched yet
// (clusterlaunchcontrol.try_cancel) and runs its tile instead, until a
// request fails because every CTA has launched. Facts and sources:
// docs/blackwell-facts.md, section 6.
//
//   struct [[ts::resource(ts::clc_async, ts::stages(2))]] Next : ts::clc::response {};
//
// Only nvcc compiles these for sm_100a; elsewhere the device functions
// trap, as ts/tcgen05.h's do.
#ifndef LIBTS_CLC_H
#define LIBTS_CLC_H

#include <cstdint>

#include <cuda/ptx>

#include "ts/tcgen05.h"

namespace ts {
namespace clc {

/// The 16 bytes a try_cancel writes: the payload of a ts::clc_async stage.
struct alignas(16) response {
  uint32_t word[4];
};

/// This CTA's own tile: its linear index in the grid, the first tile of
/// every CTA (a launched CTA cannot be cancelled).
__device__ __forceinline__ int own_tile() {
  return int(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
}

namespace detail {

/// Asks to cancel a CTA that has not launched; the response lands in `r`
/// and completes its 16 bytes on `bar` (armed by the caller).
__device__ __forceinline__ void try_cancel(response *r, uint64_t *bar) {
#if LIBTS_HAS_TCGEN05
  cuda::ptx::clusterlaunchcontrol_try_cancel(r, bar);
#else
  (void)r;
  (void)bar;
  tcgen05::detail::unsupported();
#endif
}

/// try_cancel for a cluster: cancels a whole cluster not launched yet and
/// writes the response into every CTA of this one (same offsets), each
/// barrier armed by the caller.
__device__ __forceinline__ void try_cancel_cluster(response *r, uint64_t *bar) {
#if LIBTS_HAS_TCGEN05
  cuda::ptx::clusterlaunchcontrol_try_cancel_multicast(r, bar);
#else
  (void)r;
  (void)bar;
  tcgen05::detail::unsupported();
#endif
}

/// The tile a response names (the cancelled CTA's linear index), or -1
/// when the request failed: every CTA has launched. In a cluster the
/// response names the cancelled cluster's first CTA: each CTA takes the
/// one at its own place in that cluster.
__device__ __forceinline__ int decode(const response &r, bool cluster = false) {
#if LIBTS_HAS_TCGEN05
  const longlong2 v = *reinterpret_cast<const longlong2 *>(&r);
  if (!cuda::ptx::clusterlaunchcontrol_query_cancel_is_canceled(v))
    return -1;
  uint32_t id[4];
  cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid(id, v);
  if (cluster) {
    id[0] += cuda::ptx::get_sreg_cluster_ctaid_x();
    id[1] += cuda::ptx::get_sreg_cluster_ctaid_y();
    id[2] += cuda::ptx::get_sreg_cluster_ctaid_z();
  }
  return int(id[0] + gridDim.x * (id[1] + gridDim.y * id[2]));
#else
  (void)r;
  (void)cluster;
  tcgen05::detail::unsupported();
  return -1;
#endif
}

/// Orders this thread's reads of a response before the next try_cancel,
/// an async-proxy write, refills the stage.
__device__ __forceinline__ void reads_done() {
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

} // namespace detail
} // namespace clc
} // namespace ts

#endif
