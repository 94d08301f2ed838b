//===- Tmem.cpp - Tensor-memory columns of one kernel ---------------------===//
#include "plan/Tmem.h"

namespace ts {

const TmemRegion *TmemPlan::find(unsigned Resource) const {
  for (const TmemRegion &R : Regions)
    if (R.Resource == Resource)
      return &R;
  return nullptr;
}

namespace {

constexpr unsigned FallbackGranule = 32; ///< Where the target has no TMEM.

unsigned roundUp(unsigned N, unsigned To) { return (N + To - 1) / To * To; }

/// The slot holds a 32-bit address; 16 keeps the layout's 16-byte steps.
void reserveSlot(BlockLayout &L, TmemPlan &TP) {
  uint64_t At = (L.TotalBytes + 15) / 16 * 16;
  uint64_t Grow = At + 16 - L.TotalBytes;
  TP.SlotOffset = At;
  L.TotalBytes += Grow;
  L.DynamicBytes += Grow;
}

} // namespace

TmemPlan planTmem(const Program &P, const Kernel &K, const Target &T,
                  BlockLayout &L) {
  TmemPlan TP;
  TP.Capacity = K.TmemCapacity.value_or(T.TmemColumns);
  unsigned Granule = T.TmemGranule ? T.TmemGranule : FallbackGranule;
  for (unsigned R : kernelResources(P, K)) {
    const Resource &Res = P.Resources[R];
    if (!Res.inTmem())
      continue;
    unsigned Column = roundUp(TP.Used, Granule);
    unsigned Stages = isPipelined(Res.Kind) ? Res.Stages : 1;
    unsigned Stride = roundUp(Res.TmemColumns, Granule);
    unsigned Columns = Stride * (Stages - 1) + Res.TmemColumns;
    TP.Regions.push_back({R, Column, Columns, Stages, Stride});
    TP.Used = Column + Columns;
  }
  if (TP.Regions.empty())
    return TP;
  TP.Alloc = Granule;
  while (TP.Alloc < TP.Used)
    TP.Alloc *= 2;
  reserveSlot(L, TP);
  return TP;
}

} // namespace ts
