//===- Explore.cpp - Explicit-state search over interleavings -------------===//
//
// Depth-first search over every interleaving of single task steps, the way
// the reference checker explores (reference 10.6), with the visited set
// keyed on cursors alone (counters follow from them) and steps undone in
// place rather than states cloned. libts decides schedules with one run
// (Simulation.h); this search is the oracle the property tests and
// bench/verifier hold that run to. With `Reduce`, each state expands one
// enabled task only: steps of different tasks commute and never disable
// each other, so that persistent set keeps every deadlock and every final
// state (docs/verifier.md, "Reductions").
//
//===----------------------------------------------------------------------===//
#include "verify/Simulation.h"

#include <unordered_set>

namespace ts {
using namespace detail;

namespace {

std::string packed(const std::vector<uint64_t> &Key) {
  return std::string(reinterpret_cast<const char *>(Key.data()), Key.size() * sizeof(uint64_t));
}

struct Frame {
  std::vector<unsigned> Enabled;
  size_t Next = 0;
  unsigned Task = 0;  ///< The step that led here (none for the root).
  Cursor Before;
};

} // namespace

ExploreResult exploreInterleavings(const Program &P, const Kernel &K,
                                   const KernelPlan &Plan,
                                   const std::vector<uint64_t> &Trips,
                                   uint64_t MaxStates, bool Reduce) {
  ExploreResult R;
  Simulation S(P, K, Plan, Trips, "search");
  S.RecordEvents = false;
  std::unordered_set<std::string> Seen{packed(S.stateKey())};
  auto Visit = [&](Frame &F) {
    ++R.States;
    F.Enabled = S.enabledTasks();
    if (F.Enabled.empty()) {
      if (!S.allDone())
        ++R.Deadlocks;
      else if (S.unbalancedAtEnd())
        ++R.Unbalanced;
      else
        ++R.Clean;
      S.Findings.clear();
    }
    if (Reduce && F.Enabled.size() > 1)
      F.Enabled.resize(1);
  };
  std::vector<Frame> Stack(1);
  Visit(Stack.back());
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Next == F.Enabled.size()) {
      if (Stack.size() > 1)
        S.undoStep(F.Task, F.Before);
      Stack.pop_back();
      continue;
    }
    unsigned T = F.Enabled[F.Next++];
    Cursor Before = S.stepTask(T);
    if (!Seen.insert(packed(S.stateKey())).second) {
      S.undoStep(T, Before);
      continue;
    }
    if (R.States >= MaxStates) {
      R.Complete = false;
      return R;
    }
    Frame Child;
    Child.Task = T;
    Child.Before = Before;
    Stack.push_back(std::move(Child));
    Visit(Stack.back());
  }
  R.PeakBytes = Seen.size() * (Trips.size() * sizeof(uint64_t) + 48);
  return R;
}

} // namespace ts
