//===- Turns.cpp - Rings of ts::turns resources ---------------------------===//
//
// The plan's facts about a turn (plan/Plan.h, TurnPlan): who holds which
// position, which named barrier each position waits on and how many threads
// complete it. The lowering spells them; the verifier simulates them.
//
//===----------------------------------------------------------------------===//
#include "plan/Plan.h"

#include <algorithm>

namespace ts {

const TurnPlan *KernelPlan::turn(unsigned Resource) const {
  for (const TurnPlan &TP : Turns)
    if (TP.Resource == Resource)
      return &TP;
  return nullptr;
}

std::optional<unsigned> TurnPlan::position(unsigned TI) const {
  auto It = std::find(Ring.begin(), Ring.end(), TI);
  if (It == Ring.end())
    return std::nullopt;
  return unsigned(It - Ring.begin());
}

namespace {

/// Tasks by position when the positions are exactly 0 .. n-1, n >= 2.
std::vector<unsigned> ringOf(const Program &P, const Kernel &K, unsigned R) {
  std::vector<std::pair<unsigned, unsigned>> Held; // (position, task)
  for (unsigned TI : K.Tasks)
    for (const TaskParam &TP : P.Tasks[TI].Params)
      if (TP.K == TaskParam::Kind::Turn && TP.Resource == R)
        Held.push_back({TP.Position, TI});
  std::sort(Held.begin(), Held.end());
  std::vector<unsigned> Ring;
  for (size_t I = 0; I < Held.size(); ++I) {
    if (Held[I].first != I)
      return {};
    Ring.push_back(Held[I].second);
  }
  return Ring.size() >= 2 ? Ring : std::vector<unsigned>{};
}

} // namespace

void planTurns(const Program &P, const Kernel &K, KernelPlan &Plan) {
  const Target &T = *Plan.Tgt;
  unsigned Groups = (Plan.Warps + T.WarpGroupWarps - 1) / T.WarpGroupWarps;
  unsigned Next = 1 + Groups; // after __syncthreads and sync_warpgroup's
  for (unsigned R : kernelResources(P, K)) {
    if (P.Resources[R].Kind != PipelineKind::Turns)
      continue;
    TurnPlan TP;
    TP.Resource = R;
    TP.Ring = ringOf(P, K, R);
    for (unsigned Pos = 0; Pos < TP.Ring.size(); ++Pos) {
      const Task &Holder = P.Tasks[TP.Ring[Pos]];
      const Task &Before = P.Tasks[TP.Ring[TP.before(Pos)]];
      TP.BarrierId.push_back(Next < T.NamedBarriers ? Next : 0);
      Plan.TurnIdsShort += Next >= T.NamedBarriers;
      ++Next;
      TP.Threads.push_back((Holder.NumWarps + Before.NumWarps) * T.WarpThreads);
    }
    Plan.Turns.push_back(std::move(TP));
  }
}

} // namespace ts
