//===- Layout.cpp - Shared-memory and barrier layout ----------------------===//
//
// Payload stages are bump-allocated largest alignment first so that padding
// only appears between alignment classes; barriers follow the payload, one
// mbarrier each, in resource order.
//
//===----------------------------------------------------------------------===//
#include "plan/Layout.h"

#include <algorithm>

namespace ts {
namespace {

uint64_t roundUp(uint64_t V, uint64_t A) { return A ? (V + A - 1) / A * A : V; }

/// Alignments must be powers of two for the bump allocator; the capacity
/// check reports others, here they round up to the next power.
unsigned powerOfTwoAtLeast(unsigned V) {
  unsigned P = 1;
  while (P < V)
    P <<= 1;
  return P;
}

/// A payload type's own alignment (alignas) is honoured too.
unsigned effectiveAlign(const Resource &R, const Target &T) {
  unsigned A = powerOfTwoAtLeast(std::max({1u, R.Align, R.PayloadAlign}));
  return R.Swizzled ? std::max(T.SwizzleAlign, A) : A;
}

} // namespace

const ResourceLayout *BlockLayout::find(unsigned Resource) const {
  for (const ResourceLayout &RL : Resources)
    if (RL.Resource == Resource)
      return &RL;
  return nullptr;
}

BlockLayout computeLayout(const Program &P, const std::vector<unsigned> &Pipelined,
                          const Target &T) {
  BlockLayout L;
  L.BaseAlign = T.DynamicSmemAlign;
  for (unsigned RI : Pipelined) {
    const Resource &R = P.Resources[RI];
    ResourceLayout RL;
    RL.Resource = RI;
    RL.Align = effectiveAlign(R, T);
    RL.StageStride = roundUp(R.PayloadBytes, RL.Align);
    L.Resources.push_back(RL);
  }

  // Allocate data blocks by decreasing alignment; stable keeps use order.
  std::vector<size_t> Order(L.Resources.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return L.Resources[A].Align > L.Resources[B].Align;
  });
  uint64_t End = 0;
  for (size_t I : Order) {
    ResourceLayout &RL = L.Resources[I];
    RL.DataOffset = roundUp(End, RL.Align);
    End = RL.DataOffset + RL.StageStride * P.Resources[RL.Resource].Stages;
    L.BaseAlign = std::max(L.BaseAlign, RL.Align);
  }
  L.DataBytes = End;

  L.BarrierOffset = roundUp(L.DataBytes, T.BarrierBytes);
  uint64_t Bar = L.BarrierOffset;
  for (ResourceLayout &RL : L.Resources) {
    uint64_t S = P.Resources[RL.Resource].Stages;
    RL.FullBarOffset = Bar;
    RL.EmptyBarOffset = Bar + T.BarrierBytes * S;
    Bar += 2 * T.BarrierBytes * S;
  }
  L.BarrierBytes = Bar - L.BarrierOffset;
  L.TotalBytes = L.BarrierOffset + L.BarrierBytes;
  L.DynamicBytes = L.TotalBytes + (L.BaseAlign > T.DynamicSmemAlign
                                       ? L.BaseAlign - T.DynamicSmemAlign
                                       : 0);
  return L;
}

} // namespace ts
