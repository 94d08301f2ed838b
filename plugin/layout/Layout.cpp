//===- Layout.cpp - Shared-memory and barrier layout ----------------------===//
//
// Payload stages are bump-allocated largest alignment first so that padding
// only appears between alignment classes; barriers follow the payload, eight
// bytes each, in resource order.
//
//===----------------------------------------------------------------------===//
#include "layout/Layout.h"

#include <algorithm>
#include <sstream>

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

unsigned effectiveAlign(const Resource &R) {
  unsigned A = powerOfTwoAtLeast(std::max(1u, R.Align));
  return R.Swizzled ? std::max(1024u, A) : A;
}

std::string pad(std::string S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  std::string Fill(W - S.size(), ' ');
  return Right ? Fill + S : S + Fill;
}

} // namespace

const ResourceLayout *BlockLayout::find(unsigned Resource) const {
  for (const ResourceLayout &RL : Resources)
    if (RL.Resource == Resource)
      return &RL;
  return nullptr;
}

ArrivalCounts deriveArrivalCounts(const Program &P, const Kernel &K,
                                  unsigned Resource) {
  ArrivalCounts C;
  unsigned ProducerTasks = 0, ProducerWarps = 0, ConsumerWarps = 0;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.produces(Resource)) {
      ++ProducerTasks;
      ProducerWarps += T.NumWarps;
    }
    if (T.consumes(Resource))
      ConsumerWarps += T.NumWarps;
  }
  // TMA completes the phase with bytes; only the leader's expect_tx arrives.
  if (P.Resources[Resource].Kind == PipelineKind::TmaAsync)
    C.Full = ProducerTasks;
  else
    C.Full = 32 * ProducerWarps;
  C.Empty = 32 * ConsumerWarps;
  return C;
}

BlockLayout computeLayout(const Program &P, const Kernel &K) {
  BlockLayout L;
  for (unsigned RI : kernelResources(P, K)) {
    const Resource &R = P.Resources[RI];
    if (!isPipelined(R.Kind))
      continue;
    ResourceLayout RL;
    RL.Resource = RI;
    RL.Align = effectiveAlign(R);
    RL.StageStride = roundUp(R.PayloadBytes, RL.Align);
    RL.Counts = deriveArrivalCounts(P, K, RI);
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

  L.BarrierOffset = roundUp(L.DataBytes, 8);
  uint64_t Bar = L.BarrierOffset;
  for (ResourceLayout &RL : L.Resources) {
    unsigned S = P.Resources[RL.Resource].Stages;
    RL.FullBarOffset = Bar;
    RL.EmptyBarOffset = Bar + 8ull * S;
    Bar += 16ull * S;
  }
  L.BarrierBytes = Bar - L.BarrierOffset;
  L.TotalBytes = L.BarrierOffset + L.BarrierBytes;
  L.DynamicBytes = L.TotalBytes + (L.BaseAlign > 16 ? L.BaseAlign - 16 : 0);
  return L;
}

std::string layoutReport(const Program &P, const Kernel &K,
                         const BlockLayout &L) {
  std::ostringstream OS;
  OS << "[smem-layout] kernel '" << K.Name << "'\n";
  OS << "  " << pad("resource", 16) << pad("kind", 12) << pad("stages", 7, true)
     << pad("stage B", 10, true) << pad("align", 7, true)
     << pad("offset", 10, true) << pad("end", 10, true) << "\n";
  for (const ResourceLayout &RL : L.Resources) {
    const Resource &R = P.Resources[RL.Resource];
    uint64_t End = RL.DataOffset + RL.StageStride * R.Stages;
    OS << "  " << pad(R.Name, 16) << pad(pipelineKindName(R.Kind), 12)
       << pad(std::to_string(R.Stages), 7, true)
       << pad(std::to_string(RL.StageStride), 10, true)
       << pad(std::to_string(RL.Align), 7, true)
       << pad(std::to_string(RL.DataOffset), 10, true)
       << pad(std::to_string(End), 10, true) << "\n";
  }
  OS << "  " << pad("barrier", 22) << pad("count", 10, true)
     << pad("arrivals", 10, true) << pad("offset", 10, true) << "\n";
  for (const ResourceLayout &RL : L.Resources) {
    const Resource &R = P.Resources[RL.Resource];
    std::string Count = std::to_string(R.Stages) + " x 8 B";
    OS << "  " << pad(R.Name + ".full", 22) << pad(Count, 10, true)
       << pad(std::to_string(RL.Counts.Full), 10, true)
       << pad(std::to_string(RL.FullBarOffset), 10, true) << "\n";
    OS << "  " << pad(R.Name + ".empty", 22) << pad(Count, 10, true)
       << pad(std::to_string(RL.Counts.Empty), 10, true)
       << pad(std::to_string(RL.EmptyBarOffset), 10, true) << "\n";
  }
  OS << "  data " << L.DataBytes << " B + barriers " << L.BarrierBytes
     << " B = " << L.TotalBytes << " B (launch size " << L.DynamicBytes
     << " B) / capacity " << K.SmemCapacity << " B\n";
  return OS.str();
}

} // namespace ts
