//===- Simulation.h - The protocol transition system ------------*- C++ -*-===//
//
// Internal to plugin/verify. Tasks step through head, iterations and tail
// against per-task stage counters: an acquire needs a stage every consumer
// task released, a wait a stage every producer task committed, as the
// plan's arrival counts make the barriers behave. Blocking only ever waits
// for other tasks to advance, and advancing never disables another task's
// next op, so every interleaving ends in the same state (the tasks form a
// Kahn network): one round-robin run decides deadlock and balance
// (docs/verifier.md, "One run decides").
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_SIMULATION_H
#define LIBTS_VERIFY_SIMULATION_H

#include "verify/Verify.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace ts {
namespace detail {

constexpr uint64_t InfiniteTrips = std::numeric_limits<uint64_t>::max();

/// The barriers' rules, as the plan's arrival counts make them behave: an
/// acquire needs a stage every consumer task released (the ring starts
/// with all Stages free), a wait one every producer task committed.
inline bool acquireReady(uint64_t Acquired, unsigned Stages,
                         uint64_t ReleasedByAll) {
  return Acquired < Stages + ReleasedByAll;
}
inline bool waitReady(uint64_t Waited, uint64_t CommittedByAll) {
  return Waited < CommittedByAll;
}
/// A ring's rule: the j-th take of a position needs j passes of the
/// position before it, and position 0 holds the first turn.
inline bool takeReady(uint64_t Taken, uint64_t PassedBefore, bool First) {
  return Taken < PassedBefore + (First ? 1 : 0);
}

/// A ring of a ts::turns resource over kernel-local task positions: the
/// position before each task's (-1: not in the ring), and whether it holds
/// position 0 (takeReady's First).
struct TurnRing {
  std::vector<int> Before;
  std::vector<char> First;
};
/// The rings the plan could build, by resource (verify/Turns.cpp reports
/// the others); Tasks are the program task indices in local order.
inline std::map<unsigned, TurnRing>
turnRings(const KernelPlan &Plan, const std::vector<unsigned> &Tasks) {
  auto Local = [&](unsigned TI) {
    return int(std::find(Tasks.begin(), Tasks.end(), TI) - Tasks.begin());
  };
  std::map<unsigned, TurnRing> Out;
  for (const TurnPlan &TP : Plan.Turns) {
    if (TP.Ring.empty())
      continue;
    TurnRing &R = Out[TP.Resource];
    R.Before.assign(Tasks.size(), -1);
    R.First.assign(Tasks.size(), 0);
    for (unsigned Pos = 0; Pos < TP.Ring.size(); ++Pos) {
      R.Before[size_t(Local(TP.Ring[Pos]))] = Local(TP.Ring[TP.before(Pos)]);
      R.First[size_t(Local(TP.Ring[Pos]))] = Pos == 0;
    }
  }
  return Out;
}

/// Per task and resource: how many stages it took and handed back.
struct Counters {
  uint64_t Acquired = 0, Committed = 0, Waited = 0, Released = 0;
  SourceHandle LastAcquire = 0, LastCommit = 0, LastWait = 0, LastRelease = 0;
};

/// Where a task is: the next op to run.
struct Cursor {
  Section Sec = Section::Head;
  uint64_t It = 0;  ///< Loop iteration.
  unsigned Idx = 0; ///< Position in the section's op list.
  bool Done = false;
};

/// What a run in infinite mode learned about the steady state.
struct SteadyState {
  bool Deadlocked = false; ///< Blocked before any task could finish.
  bool Finished = false;   ///< Every task ends: no loop repeats anything.
  bool Periodic = false;   ///< The relative state repeated.
  uint64_t Start =
      0; ///< Iteration of the slowest task at the first occurrence.
  uint64_t Period = 0; ///< Iterations between the occurrences.
  uint64_t MaxLag = 0; ///< Largest iteration distance between tasks.
  uint64_t MaxIt = 0;  ///< Furthest iteration any task reached.
};

class Simulation {
public:
  /// `Trips` per kernel task (Kernel::Tasks order, padding included);
  /// InfiniteTrips never reaches the last iteration or the tail.
  Simulation(const Program &P, const Kernel &K, const KernelPlan &Plan,
             const std::vector<uint64_t> &Trips, std::string RunName);

  SimResult run();
  /// Runs with every trip count infinite, slowest task first, until the
  /// relative state of the tasks repeats, they deadlock, `MaxSteps` pass
  /// or a task passes iteration `MaxIterations`.
  SteadyState findSteadyState(uint64_t MaxSteps, uint64_t MaxIterations);

  /// Single steps, for the explicit-state search (Explore.cpp).
  std::vector<unsigned> enabledTasks() const;
  /// Runs T's next op and returns its cursor before, for undoStep.
  Cursor stepTask(unsigned T);
  void undoStep(unsigned T, const Cursor &Before);
  bool RecordEvents = true; ///< Keep the trace notes' events.
  /// Happens-before queries (Orders.cpp): a task whose next op Frozen
  /// accepts never runs it, and OnExecute sees every op that runs.
  std::function<bool(unsigned T, const Op &Next)> Frozen;
  std::function<void(unsigned T, unsigned OpIndex, uint64_t It)> OnExecute;
  /// Task T's commits and releases credit no one (one of its threads
  /// stopped; the others run on). Consulted after OnExecute.
  std::function<bool(unsigned T)> Withheld;
  /// Runs until no task can move, reporting nothing.
  void runToQuiescence();
  unsigned programTask(unsigned T) const { return Tasks[T]; }
  unsigned taskCount() const { return unsigned(Tasks.size()); }
  const Cursor &cursor(unsigned T) const { return Cur[T]; }
  const Op &nextOp(unsigned T) const { return next(T); }
  unsigned nextOpIndex(unsigned T) const { return nextIndex(T); }
  bool allDone() const;
  /// The cursors: counters follow from them, so they are the whole state.
  std::vector<uint64_t> stateKey() const;
  /// The same key written to Out[0 .. taskCount()), allocating nothing.
  void stateKey(uint64_t *Out) const;
  /// Every cursor fits 32 bits: iterations below 2^20, sections below 2^10 ops.
  bool narrowKeysFit() const;
  /// A cursor word of stateKey in 32 bits, when narrowKeysFit().
  static uint32_t narrow(uint64_t Word) {
    return Word == ~uint64_t(0)
               ? 0xffffffffu
               : uint32_t((Word >> 62) << 30 | ((Word >> 20) & 0xfffff) << 10 |
                          (Word & 0x3ff));
  }
  /// Local tasks T and U behave alike: same ops, trip count and handles.
  bool sameBehaviour(unsigned T, unsigned U) const;
  /// enabledTasks() as a bit set (at most 64 tasks: warps bound them to 32).
  uint64_t enabledMask() const;
  /// At the end of a run: findings of the end-of-run balance.
  bool unbalancedAtEnd();

  /// Findings of the run, keyed for de-duplication across trip counts.
  std::vector<std::pair<std::string, Diag>> Findings;
  /// The resource the first blocked task of a deadlock waits on.
  std::optional<unsigned> DeadlockResource;

private:
  bool tracked(unsigned R) const {
    return R < P.Resources.size() && isPipelined(P.Resources[R].Kind);
  }
  /// A take or pass of a ring the plan could build (plan/Plan.h, TurnPlan):
  /// a take waits for the pass of the position before (position 0's first
  /// take for none); Waited counts takes, Committed passes.
  bool turnOp(const Op &O) const {
    return (O.Kind == OpKind::Take || O.Kind == OpKind::Pass) &&
           Rings.count(O.Resource);
  }
  bool takeReady(unsigned T, const Op &O) const;
  /// The other blocked tasks of a deadlock on a turn, and who holds it.
  void noteTurn(Diag &D, unsigned First);
  const std::vector<unsigned> &section(unsigned T, Section S) const;
  void settle(unsigned T);
  bool runnable(unsigned T) const;
  void execute(unsigned T);
  bool round(SimResult *S, unsigned Step);
  bool stepSlowest();
  std::vector<int64_t> relativeState(uint64_t &MinIt, uint64_t &Lag) const;
  uint64_t fullStages(unsigned R) const;     ///< Committed by every producer.
  uint64_t releasedStages(unsigned R) const; ///< Released by every consumer.
  uint64_t slowest(const std::vector<unsigned> &Side, unsigned R,
                   uint64_t Counters::*Field) const;
  Counters &ctr(unsigned T, unsigned R) {
    return C[T * P.Resources.size() + R];
  }
  const Counters &ctr(unsigned T, unsigned R) const {
    return C[T * P.Resources.size() + R];
  }
  const Task &task(unsigned T) const { return P.Tasks[Tasks[T]]; }
  unsigned nextIndex(unsigned T) const {
    return section(T, Cur[T].Sec)[Cur[T].Idx];
  }
  const Op &next(unsigned T) const { return task(T).Ops[nextIndex(T)]; }
  bool finished(unsigned T) const { return Cur[T].Done; }
  std::string suffix() const { return " (" + RunName + ")"; }
  void reportDeadlock(const std::vector<unsigned> &Blocked);
  /// "acquire of 'R'": the op task T is blocked on.
  std::string blockedOn(unsigned T) const;
  /// The other blocked tasks, and each involved resource's stages.
  void noteBlocked(Diag &D, const std::vector<unsigned> &Blocked);
  /// Whether the first blocked op waits for a release (else a commit).
  bool missingRelease(const std::vector<unsigned> &Blocked);
  /// The stages held back, and the guarded ops that hand back too few.
  void noteHeld(Diag &D, const Op &O, bool MissingRelease);
  /// A cycle of tasks across resources, in one line.
  void noteCycle(Diag &D, unsigned First);
  void traceNotes(Diag &D, unsigned R);
  void reconcile(unsigned R);
  /// A ts-credit finding of resource R, keyed for deduplication.
  Diag &add(unsigned R, const std::string &Key, SourceHandle Loc,
            const std::string &Msg);
  /// Acquires without commits, waits without releases, per task.
  void reconcilePairs(unsigned R);
  /// Commits never waited for; producers committing unevenly.
  void reconcileCommits(unsigned R);
  /// Stages still held by producers at exit stall their drain.
  void reconcileDrain(unsigned R);

  const Program &P;
  std::string RunName;
  std::vector<unsigned> Tasks; ///< Program task indices, kernel order.
  std::vector<uint64_t> Trips;
  std::vector<std::vector<unsigned>> Head, Loop, Tail;
  /// Some loop op runs on middle iterations (not only first/last).
  std::vector<char> PlainLoop;
  std::vector<Cursor> Cur;
  std::vector<Counters> C;
  /// Per task, what each hand-back credits (plan/HandBack.h); empty when
  /// the task hands back in order and each credits 1.
  std::vector<std::vector<unsigned>> Credits;
  unsigned credit(unsigned T, unsigned Index) const {
    return Credits[T].empty() ? 1 : Credits[T][Index];
  }
  /// Simulation-local task positions that fill / drain each resource.
  std::vector<std::vector<unsigned>> Producers, Consumers;
  /// Protocol events of the run on each resource, for counterexample notes.
  struct Event {
    unsigned Task, Op;
    uint64_t It;
  };
  std::map<unsigned, std::vector<Event>> Events;
  std::map<unsigned, TurnRing> Rings; ///< Per turns resource.
};

/// Happens-before at one trip-count vector of a run without findings:
/// aliased phases in turn (ts-race) and launches after a wait (ts-pdl).
void checkOrders(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 const std::vector<uint64_t> &Trips, const std::string &RunName,
                 std::vector<std::pair<std::string, Diag>> &Out);

} // namespace detail
} // namespace ts

#endif
