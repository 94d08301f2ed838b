//===- Layout.h - Shared-memory and barrier layout --------------*- C++ -*-===//
//
// One dynamic shared-memory block per kernel: payload stages first (sorted
// by alignment), then `[full x S][empty x S]` mbarriers per pipelined
// resource. Arrival counts and start phases are derived here, never typed.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_LAYOUT_LAYOUT_H
#define LIBTS_LAYOUT_LAYOUT_H

#include "model/Model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

/// Arrivals that complete one phase of a resource's barriers.
struct ArrivalCounts {
  unsigned Full = 0;  ///< Producer arrivals per stage fill.
  unsigned Empty = 0; ///< Consumer arrivals per stage release.
};

/// TMA: one arrive.expect_tx per producer task (its leader thread).
/// Threads: every thread of every producer/consumer task arrives.
ArrivalCounts deriveArrivalCounts(const Program &P, const Kernel &K,
                                  unsigned Resource);

struct ResourceLayout {
  unsigned Resource = 0;
  unsigned Align = 128;
  uint64_t StageStride = 0; ///< PayloadBytes rounded up to Align.
  uint64_t DataOffset = 0;  ///< First stage, from the aligned base.
  uint64_t FullBarOffset = 0;  ///< S mbarriers of 8 bytes.
  uint64_t EmptyBarOffset = 0; ///< S mbarriers of 8 bytes, right after full.
  ArrivalCounts Counts;
  /// Start parities: consumers wait full with 0, producers wait empty with 1
  /// (the phase "before" the first is complete).
  unsigned ConsumerStartPhase = 0;
  unsigned ProducerStartPhase = 1;
};

struct BlockLayout {
  std::vector<ResourceLayout> Resources; ///< Pipelined resources only.
  uint64_t DataBytes = 0;    ///< End of the payload area.
  uint64_t BarrierOffset = 0;
  uint64_t BarrierBytes = 0;
  uint64_t TotalBytes = 0;   ///< Data + barriers, from the aligned base.
  unsigned BaseAlign = 16;   ///< Largest stage alignment.
  /// Bytes to request at launch: TotalBytes plus slack to align the base at
  /// run time when BaseAlign exceeds the 16 bytes CUDA guarantees.
  uint64_t DynamicBytes = 0;

  const ResourceLayout *find(unsigned Resource) const;
};

BlockLayout computeLayout(const Program &P, const Kernel &K);

/// Human-readable `[smem-layout]` report (names, sizes, offsets, counts).
std::string layoutReport(const Program &P, const Kernel &K,
                         const BlockLayout &L);

} // namespace ts

#endif
