//===- Tmem.h - Tensor-memory columns of one kernel -------------*- C++ -*-===//
//
// The ts::tmem resources of a kernel share one tcgen05 allocation: each gets
// a column range starting on an allocation granule, and the block asks for
// the power of two that covers them all. Part of the kernel plan.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_TMEM_H
#define LIBTS_PLAN_TMEM_H

#include "model/Model.h"
#include "plan/Layout.h"
#include "plan/Target.h"

#include <vector>

namespace ts {

/// One ts::tmem resource's columns in the allocation.
struct TmemRegion {
  unsigned Resource = 0;
  unsigned Column = 0;  ///< First column, a multiple of the granule.
  unsigned Columns = 0; ///< All of its columns: every stage's.
  /// A ts::umma_async resource's stages: ts::tmem(N) each, Stride apart
  /// (N rounded up to the granule); 1 stage for task-owned columns.
  unsigned Stages = 1, Stride = 0;
};

struct TmemPlan {
  std::vector<TmemRegion> Regions; ///< First-use order.
  unsigned Used = 0;               ///< End of the last region.
  /// Columns tcgen05.alloc asks for: Used rounded up to a power of two of
  /// at least the granule; 0 when the kernel has no tensor memory.
  unsigned Alloc = 0;
  unsigned Capacity = 0; ///< ts::tmem_capacity, else the target's.
  /// The warp that allocates before the block's first barrier and frees
  /// after its last: warp 0, which every block has, whole, at both points.
  unsigned Warp = 0;
  /// Shared-memory word tcgen05.alloc writes the base address to.
  uint64_t SlotOffset = 0;

  const TmemRegion *find(unsigned Resource) const;
};

/// Columns for the kernel's ts::tmem resources, in first-use order; the
/// address slot goes after the shared-memory layout, which grows by it.
TmemPlan planTmem(const Program &P, const Kernel &K, const Target &T,
                  BlockLayout &L);

} // namespace ts

#endif
