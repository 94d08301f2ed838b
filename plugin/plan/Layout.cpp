//===- Layout.cpp - Shared-memory and barrier layout ----------------------===//
//
// Payload stages and task-owned buffers are bump-allocated largest
// alignment first so that padding only appears between alignment classes;
// barriers follow the payload, one mbarrier each, in resource order.
//
//===----------------------------------------------------------------------===//
#include "plan/Layout.h"

#include <algorithm>

namespace ts {
namespace {

uint64_t roundUp(uint64_t V, uint64_t A) { return A ? (V + A - 1) / A * A : V; }

/// ts::align or the target's default, raised to the payload type's own
/// alignment (alignas) and, for a swizzled TMA destination, the swizzle's.
/// All are powers of two (the front end checks ts::align), as the bump
/// allocator needs.
unsigned effectiveAlign(const Resource &R, const Target &T) {
  unsigned A = std::max(R.Align.value_or(T.DefaultStageAlign), R.PayloadAlign);
  return R.Swizzled ? std::max(T.SwizzleAlign, A) : A;
}

/// Indices into L.Resources grouped by the blocks that share a base.
std::vector<std::vector<size_t>>
aliasBlocks(const BlockLayout &L, const std::vector<AliasGroup> &Aliases) {
  std::vector<std::vector<size_t>> Blocks;
  std::vector<bool> Placed(L.Resources.size(), false);
  auto IndexOf = [&](unsigned R) {
    for (size_t I = 0; I < L.Resources.size(); ++I)
      if (L.Resources[I].Resource == R)
        return I;
    return L.Resources.size();
  };
  for (size_t I = 0; I < L.Resources.size(); ++I) {
    if (Placed[I])
      continue;
    std::vector<size_t> Block{I};
    Placed[I] = true;
    for (const AliasGroup &G : Aliases)
      if (std::find(G.Phases.begin(), G.Phases.end(),
                    L.Resources[I].Resource) != G.Phases.end())
        for (unsigned R : G.Phases)
          if (size_t J = IndexOf(R); J < Placed.size() && !Placed[J]) {
            Placed[J] = true;
            Block.push_back(J);
          }
    Blocks.push_back(std::move(Block));
  }
  return Blocks;
}

} // namespace

const ResourceLayout *BlockLayout::find(unsigned Resource) const {
  for (const ResourceLayout &RL : Resources)
    if (RL.Resource == Resource)
      return &RL;
  return nullptr;
}

BlockLayout computeLayout(const Program &P, const std::vector<unsigned> &Placed,
                          const std::vector<AliasGroup> &Aliases,
                          const Target &T) {
  BlockLayout L;
  L.BaseAlign = T.DynamicSmemAlign;
  for (unsigned RI : Placed) {
    const Resource &R = P.Resources[RI];
    ResourceLayout RL;
    RL.Resource = RI;
    RL.Barriers = isPipelined(R.Kind);
    RL.Align = effectiveAlign(R, T);
    RL.StageStride = roundUp(R.PayloadBytes, RL.Align);
    RL.RegionBytes = RL.StageStride * R.Stages;
    L.Resources.push_back(RL);
  }

  // One block per alias group (one base, the largest phase), one per other
  // resource; blocks by decreasing alignment, stable keeps use order.
  std::vector<std::vector<size_t>> Blocks = aliasBlocks(L, Aliases);
  auto BlockAlign = [&](const std::vector<size_t> &B) {
    unsigned A = 1;
    for (size_t I : B)
      A = std::max(A, L.Resources[I].Align);
    return A;
  };
  std::stable_sort(Blocks.begin(), Blocks.end(),
                   [&](const auto &A, const auto &B) {
                     return BlockAlign(A) > BlockAlign(B);
                   });
  uint64_t End = 0;
  for (const std::vector<size_t> &B : Blocks) {
    uint64_t Base = roundUp(End, BlockAlign(B)), Size = 0, Sum = 0;
    for (size_t I : B) {
      ResourceLayout &RL = L.Resources[I];
      RL.DataOffset = Base;
      Size = std::max(Size, RL.RegionBytes);
      Sum += RL.RegionBytes;
      L.BaseAlign = std::max(L.BaseAlign, RL.Align);
    }
    L.AliasSavedBytes += Sum - Size;
    End = Base + Size;
  }
  L.DataBytes = End;

  L.BarrierOffset = roundUp(L.DataBytes, T.BarrierBytes);
  uint64_t Bar = L.BarrierOffset;
  for (ResourceLayout &RL : L.Resources) {
    if (!RL.Barriers)
      continue;
    uint64_t S = P.Resources[RL.Resource].Stages;
    RL.FullBarOffset = Bar;
    RL.EmptyBarOffset = Bar + T.BarrierBytes * S;
    Bar += 2 * T.BarrierBytes * S;
  }
  L.BarrierBytes = Bar - L.BarrierOffset;
  L.TotalBytes = L.BarrierOffset + L.BarrierBytes;
  L.DynamicBytes =
      L.TotalBytes +
      (L.BaseAlign > T.DynamicSmemAlign ? L.BaseAlign - T.DynamicSmemAlign : 0);
  return L;
}

} // namespace ts
