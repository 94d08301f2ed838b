//===- Explore.cpp - Explicit-state search over interleavings -------------===//
//
// Breadth-first search over every interleaving of single task steps, the
// way the reference checker explores (reference 10.6). libts decides
// schedules with one run (Simulation.h); this search is the oracle the
// property tests and bench/verifier hold that run to. With `Reduce`, each
// state expands one enabled task only: steps of different tasks commute and
// never disable each other, so that persistent set keeps every deadlock
// and every final state (docs/verifier.md, "Reductions").
//
//===----------------------------------------------------------------------===//
#include "verify/Simulation.h"

#include <deque>
#include <set>

namespace ts {
using namespace detail;

ExploreResult exploreInterleavings(const Program &P, const Kernel &K,
                                   const KernelPlan &Plan,
                                   const std::vector<uint64_t> &Trips,
                                   uint64_t MaxStates, bool Reduce) {
  ExploreResult R;
  std::set<std::vector<uint64_t>> Seen;
  std::deque<Simulation> Queue;
  Queue.emplace_back(P, K, Plan, Trips, "search");
  Seen.insert(Queue.back().stateKey());
  while (!Queue.empty()) {
    Simulation S = std::move(Queue.front());
    Queue.pop_front();
    ++R.States;
    if (R.States >= MaxStates) {
      R.Complete = false;
      return R;
    }
    std::vector<unsigned> Enabled = S.enabledTasks();
    if (Enabled.empty()) {
      if (!S.allDone())
        ++R.Deadlocks;
      else if (S.unbalancedAtEnd())
        ++R.Unbalanced;
      else
        ++R.Clean;
      continue;
    }
    if (Reduce)
      Enabled.resize(1);
    for (unsigned T : Enabled) {
      Simulation Next = S;
      Next.stepTask(T);
      if (Seen.insert(Next.stateKey()).second)
        Queue.push_back(std::move(Next));
    }
  }
  return R;
}

} // namespace ts
