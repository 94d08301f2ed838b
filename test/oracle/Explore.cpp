//===- Explore.cpp - Explicit-state search over interleavings -------------===//
//
// Depth-first search over every interleaving of single task steps, the way
// the reference checker explores (reference 10.6), with the visited set
// keyed on cursors alone (counters follow from them) and steps undone in
// place rather than states cloned. libts decides schedules with one run
// (Simulation.h); this search is the oracle the property tests and
// bench/verifier hold that run to. The reductions and why each keeps every
// deadlock and final state are in docs/verifier.md, "Reductions".
//
//===----------------------------------------------------------------------===//
#include "Explore.h"
#include "StateSet.h"
#include "verify/Simulation.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

struct Frame {
  uint64_t ToDo = 0; ///< Tasks still to expand, as bits.
  uint64_t Sleep =
      0; ///< Tasks whose step here leads only to states seen elsewhere.
  unsigned Task = 0; ///< The step that led here (none for the root).
  Cursor Before;
};

/// The visited-set key of the simulation's state: cursors, two a word where
/// they fit, and with symmetry the cursors of alike tasks sorted, so that
/// states differing only by a swap of alike tasks are one.
class KeyMaker {
public:
  KeyMaker(const Simulation &S, bool Symmetry)
      : S(S), Narrow(S.narrowKeysFit()) {
    Words.resize(S.taskCount());
    Key.resize(words() + 1);
    std::vector<bool> Placed(S.taskCount(), false);
    for (unsigned T = 0; Symmetry && T < S.taskCount(); ++T) {
      if (Placed[T])
        continue;
      std::vector<unsigned> Class{T};
      for (unsigned U = T + 1; U < S.taskCount(); ++U)
        if (!Placed[U] && S.sameBehaviour(T, U)) {
          Placed[U] = true;
          Class.push_back(U);
        }
      if (Class.size() > 1)
        Classes.push_back(std::move(Class));
    }
  }
  unsigned words() const {
    return Narrow ? (S.taskCount() + 1) / 2 : S.taskCount();
  }
  bool symmetric() const { return !Classes.empty(); }
  const uint64_t *make() {
    S.stateKey(Words.data());
    for (const std::vector<unsigned> &C : Classes) {
      Sorted.clear();
      for (unsigned T : C)
        Sorted.push_back(Words[T]);
      std::sort(Sorted.begin(), Sorted.end());
      for (size_t I = 0; I < C.size(); ++I)
        Words[C[I]] = Sorted[I];
    }
    if (!Narrow)
      return Words.data();
    std::fill(Key.begin(), Key.end(), 0);
    for (unsigned T = 0; T < Words.size(); ++T)
      Key[T / 2] |= uint64_t(Simulation::narrow(Words[T])) << (32 * (T % 2));
    return Key.data();
  }

private:
  const Simulation &S;
  bool Narrow;
  std::vector<std::vector<unsigned>> Classes;
  std::vector<uint64_t> Words, Key, Sorted;
};

} // namespace

ExploreResult exploreInterleavings(const Program &P, const Kernel &K,
                                   const KernelPlan &Plan,
                                   const std::vector<uint64_t> &Trips,
                                   uint64_t MaxStates, Reduction Red) {
  ExploreResult R;
  Simulation S(P, K, Plan, Trips, "search");
  S.RecordEvents = false;
  KeyMaker Keys(S, Red == Reduction::Symmetry);
  // Sleep sets name tasks, which a symmetric key no longer does: plain DFS
  // there (docs/verifier.md, "Reductions").
  bool Sleeps = Red == Reduction::Sleep ||
                (Red == Reduction::Symmetry && !Keys.symmetric());
  StateSet Seen(Keys.words());
  *Seen.insert(Keys.make()).first = 0;
  // A new state: count it, classify it if terminal, expand what is awake.
  auto Visit = [&](Frame &F) {
    ++R.States;
    uint64_t Enabled = S.enabledMask();
    if (!Enabled) {
      if (!S.allDone())
        ++R.Deadlocks;
      else if (S.unbalancedAtEnd())
        ++R.Unbalanced;
      else
        ++R.Clean;
      S.Findings.clear();
    }
    F.ToDo = Enabled & ~F.Sleep;
    if (Red == Reduction::Persistent)
      F.ToDo &= -F.ToDo; // The lowest enabled task alone.
  };
  std::vector<Frame> Stack(1);
  Visit(Stack.back());
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (!F.ToDo) {
      if (Stack.size() > 1)
        S.undoStep(F.Task, F.Before);
      Stack.pop_back();
      continue;
    }
    unsigned T = unsigned(__builtin_ctzll(F.ToDo));
    F.ToDo &= F.ToDo - 1;
    // Steps of different tasks are independent (Kahn), so the child sleeps
    // on every sibling already expanded here.
    uint64_t Sleep = Sleeps ? F.Sleep : 0;
    if (Sleeps)
      F.Sleep |= uint64_t(1) << T;
    Cursor Before = S.stepTask(T);
    auto [Stored, New] = Seen.insert(Keys.make());
    if (!New) {
      // Seen before with sleep set *Stored: expand what slept then but is
      // awake now, and keep only what sleeps on both paths.
      uint64_t Wake = *Stored & ~Sleep;
      *Stored &= Sleep;
      if (!Wake) {
        S.undoStep(T, Before);
        continue;
      }
      Stack.push_back({Wake & S.enabledMask(), Sleep, T, Before});
      continue;
    }
    *Stored = Sleep;
    if (R.States >= MaxStates) {
      R.Complete = false;
      break;
    }
    Stack.push_back({0, Sleep, T, Before});
    Visit(Stack.back());
  }
  R.PeakBytes = Seen.bytes() + Stack.capacity() * sizeof(Frame);
  return R;
}

} // namespace ts
