//===- Layout.h - Shared-memory and barrier layout --------------*- C++ -*-===//
//
// One dynamic shared-memory block per kernel: payload stages and task-owned
// buffers first (sorted by alignment), then `[full x S][empty x S]`
// mbarriers per pipelined resource; alias groups share one base. Part of the
// kernel plan (plan/Plan.h).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_LAYOUT_H
#define LIBTS_PLAN_LAYOUT_H

#include "model/Model.h"
#include "plan/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

/// Arrivals that complete one phase of a resource's barriers.
struct ArrivalCounts {
  unsigned Full = 0;  ///< Producer arrivals per stage fill.
  unsigned Empty = 0; ///< Consumer arrivals per stage release.
};

struct ResourceLayout {
  unsigned Resource = 0;
  unsigned Align = 128;
  uint64_t StageStride = 0;    ///< PayloadBytes rounded up to Align.
  uint64_t RegionBytes = 0;    ///< StageStride x stages: the resource's bytes.
  uint64_t DataOffset = 0;     ///< First stage, from the aligned base.
  uint64_t FullBarOffset = 0;  ///< S mbarriers of 8 bytes.
  uint64_t EmptyBarOffset = 0; ///< S mbarriers of 8 bytes, right after full.
  bool Barriers = true;        ///< False for task-owned memory (no protocol).
};

struct BlockLayout {
  std::vector<ResourceLayout> Resources; ///< Resources in shared memory only.
  uint64_t DataBytes = 0;                ///< End of the payload area.
  uint64_t AliasSavedBytes = 0;          ///< Bytes alias groups share.
  uint64_t BarrierOffset = 0;
  uint64_t BarrierBytes = 0;
  uint64_t TotalBytes = 0; ///< Data + barriers, from the aligned base.
  unsigned BaseAlign = 16; ///< Largest stage alignment.
  /// Bytes to request at launch: TotalBytes plus slack to align the base at
  /// run time when BaseAlign exceeds the 16 bytes CUDA guarantees.
  uint64_t DynamicBytes = 0;

  const ResourceLayout *find(unsigned Resource) const;
};

/// Lays out the given shared-memory resources, in that order; the phases
/// of each alias group share one base.
BlockLayout computeLayout(const Program &P, const std::vector<unsigned> &Placed,
                          const std::vector<AliasGroup> &Aliases,
                          const Target &T);

} // namespace ts

#endif
