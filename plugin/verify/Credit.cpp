//===- Credit.cpp - Linear credit simulation ------------------------------===//
//
// Each task's ops are unrolled for a trip count and run round-robin against
// per-task stage counters (reference 10.5). Every producer task fills every
// stage and every consumer task drains every stage, matching the barrier
// arrival counts: a stage is full once all producer tasks committed it and
// free again once all consumer tasks released it.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace ts {
using namespace detail;

namespace {

/// Constant trip counts above this are simulated at this count: the credit
/// pattern repeats every few iterations, the trace would only grow.
constexpr uint64_t MaxSimulatedTrips = 256;

struct Entry {
  unsigned Op = 0;
  unsigned Iteration = 0;
};

/// Head, N copies of the body (guards applied), tail.
std::vector<Entry> expand(const Task &T, uint64_t N) {
  uint64_t Trips = T.Dom.Present ? N : 1;
  std::vector<Entry> Out;
  for (unsigned I = 0; I < T.Ops.size(); ++I)
    if (T.Ops[I].Sec == Section::Head)
      Out.push_back({I, 0});
  for (uint64_t It = 0; It < Trips; ++It)
    for (unsigned I = 0; I < T.Ops.size(); ++I) {
      const Op &O = T.Ops[I];
      if (O.Sec != Section::Loop || (O.G == Guard::FirstIter && It != 0) ||
          (O.G == Guard::LastIter && It + 1 != Trips))
        continue;
      Out.push_back({I, unsigned(It)});
    }
  for (unsigned I = 0; I < T.Ops.size(); ++I)
    if (T.Ops[I].Sec == Section::Tail)
      Out.push_back({I, 0});
  return Out;
}

std::string plural(uint64_t N, const std::string &Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

std::string times(uint64_t N) {
  return N == 1 ? "once" : std::to_string(N) + " times";
}

/// Per task and resource: how many stages it took and handed back.
struct Counters {
  uint64_t Acquired = 0, Committed = 0, Waited = 0, Released = 0;
  SourceHandle LastAcquire = 0, LastCommit = 0, LastWait = 0, LastRelease = 0;
};

/// One simulation run at one trip count.
class Simulation {
public:
  Simulation(const Program &P, const Kernel &K, const KernelPlan &Plan,
             uint64_t Trips);

  SimResult run();
  /// Findings of the run, keyed for de-duplication across trip counts.
  std::vector<std::pair<std::string, Diag>> Findings;

private:
  bool tracked(unsigned R) const { return isPipelined(P.Resources[R].Kind); }
  bool runnable(unsigned T) const;
  void execute(unsigned T);
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
  const Op &next(unsigned T) const {
    return task(T).Ops[Entries[T][Pos[T]].Op];
  }
  bool finished(unsigned T) const { return Pos[T] == Entries[T].size(); }
  std::string suffix() const {
    return " (trip count " + std::to_string(Trips) + ")";
  }
  void reportDeadlock(const std::vector<unsigned> &Blocked);
  void reconcile(unsigned R);

  const Program &P;
  uint64_t Trips;
  std::vector<unsigned> Tasks; ///< Program task indices, kernel order.
  std::vector<std::vector<Entry>> Entries;
  std::vector<size_t> Pos;
  std::vector<Counters> C;
  /// Simulation-local task positions that fill / drain each resource.
  std::vector<std::vector<unsigned>> Producers, Consumers;
};

Simulation::Simulation(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, uint64_t Trips)
    : P(P), Trips(Trips), Producers(P.Resources.size()),
      Consumers(P.Resources.size()) {
  for (unsigned TI : K.Tasks)
    if (!P.Tasks[TI].Padding)
      Tasks.push_back(TI);
  for (unsigned T = 0; T < Tasks.size(); ++T)
    Entries.push_back(expand(task(T), Trips));
  // The barrier participants are the plan's, as the lowering arms them.
  auto Local = [&](unsigned TI) {
    return unsigned(std::find(Tasks.begin(), Tasks.end(), TI) - Tasks.begin());
  };
  for (const PipelinePlan &PP : Plan.Pipelines) {
    for (unsigned TI : PP.Producers)
      Producers[PP.Resource].push_back(Local(TI));
    for (unsigned TI : PP.Consumers)
      Consumers[PP.Resource].push_back(Local(TI));
  }
  Pos.assign(Tasks.size(), 0);
  C.resize(Tasks.size() * P.Resources.size());
}

/// A stage moves only once every task of that side has done its part.
uint64_t Simulation::slowest(const std::vector<unsigned> &Side, unsigned R,
                             uint64_t Counters::*Field) const {
  if (Side.empty())
    return 0;
  uint64_t Min = UINT64_MAX;
  for (unsigned T : Side)
    Min = std::min(Min, ctr(T, R).*Field);
  return Min;
}

uint64_t Simulation::fullStages(unsigned R) const {
  return slowest(Producers[R], R, &Counters::Committed);
}

uint64_t Simulation::releasedStages(unsigned R) const {
  return slowest(Consumers[R], R, &Counters::Released);
}

bool Simulation::runnable(unsigned T) const {
  const Op &O = next(T);
  if (!tracked(O.Resource))
    return true;
  const Counters &Ct = ctr(T, O.Resource);
  switch (O.Kind) {
  case OpKind::Acquire:
    return Ct.Acquired <
           P.Resources[O.Resource].Stages + releasedStages(O.Resource);
  case OpKind::Wait:
    return Ct.Waited < fullStages(O.Resource);
  default:
    return true;
  }
}

void Simulation::execute(unsigned T) {
  const Op &O = next(T);
  ++Pos[T];
  if (!tracked(O.Resource))
    return;
  Counters &Ct = ctr(T, O.Resource);
  switch (O.Kind) {
  case OpKind::Acquire:
    ++Ct.Acquired;
    Ct.LastAcquire = O.Loc;
    break;
  case OpKind::Commit:
    ++Ct.Committed;
    Ct.LastCommit = O.Loc;
    break;
  case OpKind::Wait:
    ++Ct.Waited;
    Ct.LastWait = O.Loc;
    break;
  case OpKind::Release:
    ++Ct.Released;
    Ct.LastRelease = O.Loc;
    break;
  default:
    break;
  }
}

SimResult Simulation::run() {
  SimResult S;
  S.Trips = Trips;
  for (unsigned Step = 0;; ++Step) {
    std::vector<unsigned> Ready, Blocked;
    for (unsigned T = 0; T < Tasks.size(); ++T) {
      if (finished(T))
        continue;
      (runnable(T) ? Ready : Blocked).push_back(T);
    }
    if (Ready.empty() && Blocked.empty())
      break;
    if (Ready.empty()) {
      for (unsigned T : Blocked)
        S.Steps.push_back({Step, Tasks[T], Entries[T][Pos[T]].Op,
                           Entries[T][Pos[T]].Iteration, true});
      S.Deadlocked = true;
      reportDeadlock(Blocked);
      return S;
    }
    // Decided before executing: a step's ops run side by side. Executing
    // only adds credits, so no ready op becomes blocked.
    for (unsigned T : Ready) {
      S.Steps.push_back({Step, Tasks[T], Entries[T][Pos[T]].Op,
                         Entries[T][Pos[T]].Iteration, false});
      execute(T);
    }
  }
  for (unsigned R = 0; R < P.Resources.size(); ++R)
    if (tracked(R))
      reconcile(R);
  return S;
}

void Simulation::reportDeadlock(const std::vector<unsigned> &Blocked) {
  auto What = [&](unsigned T) {
    const Op &O = next(T);
    return std::string(opKindName(O.Kind)) + " of " +
           quote(P.Resources[O.Resource].Name);
  };
  unsigned First = Blocked.front();
  const Op &O = next(First);
  Diag D{Check::Credit,
         O.Loc,
         "deadlock: task " + quote(task(First).Name) + " blocks forever on " +
             What(First) + suffix(),
         {}};
  // Keyed by the first blocked op alone: the same hang at a larger trip
  // count may leave other tasks blocked too.
  std::string Key = "deadlock:" + std::to_string(Tasks[First]) + ":" +
                    std::to_string(Entries[First][Pos[First]].Op);
  std::vector<unsigned> Involved;
  for (unsigned T : Blocked) {
    unsigned R = next(T).Resource;
    if (std::find(Involved.begin(), Involved.end(), R) == Involved.end())
      Involved.push_back(R);
    if (T == First)
      continue;
    note(D, next(T).Loc,
         "task " + quote(task(T).Name) + " is blocked here on " + What(T));
  }
  for (unsigned R : Involved) {
    const Resource &Res = P.Resources[R];
    uint64_t MaxAcquired = 0, MinWaited = UINT64_MAX;
    for (unsigned T : Producers[R])
      MaxAcquired = std::max(MaxAcquired, ctr(T, R).Acquired);
    for (unsigned T : Consumers[R])
      MinWaited = std::min(MinWaited, ctr(T, R).Waited);
    uint64_t Free = Res.Stages + releasedStages(R);
    uint64_t Empty = Free > MaxAcquired ? Free - MaxAcquired : 0;
    uint64_t Full = fullStages(R);
    Full = MinWaited < Full ? Full - MinWaited : 0;
    note(D, Res.Loc,
         quote(Res.Name) + ": " + std::to_string(Empty) + " empty, " +
             std::to_string(Full) + " full " + (Full == 1 ? "stage" : "stages"));
    // Finished tasks on the other side are why the stage never comes.
    const auto &Others =
        isProducerOp(next(First).Kind) ? Consumers[R] : Producers[R];
    for (unsigned T : Others)
      if (finished(T)) {
        const Counters &Ct = ctr(T, R);
        uint64_t N =
            isProducerOp(next(First).Kind) ? Ct.Released : Ct.Committed;
        note(D, task(T).Loc,
             "task " + quote(task(T).Name) + " has finished after " +
                 (isProducerOp(next(First).Kind) ? "releasing "
                                                 : "committing ") +
                 plural(N, "stage"));
      }
  }
  const Resource &Res = P.Resources[O.Resource];
  // Who holds stages of the first blocked resource decides the cause: a
  // producer holding acquired stages never committed starves the consumers;
  // a consumer holding waited-for stages never released starves producers.
  bool HeldByProducers = false, HeldByConsumers = false;
  for (unsigned T : Producers[O.Resource])
    HeldByProducers |= ctr(T, O.Resource).Acquired > ctr(T, O.Resource).Committed;
  for (unsigned T : Consumers[O.Resource])
    HeldByConsumers |= ctr(T, O.Resource).Waited > ctr(T, O.Resource).Released;
  // A wait stuck behind producers stuck on acquire is a missing release.
  bool ProducersStuck =
      std::any_of(Blocked.begin(), Blocked.end(), [&](unsigned T) {
        return next(T).Resource == O.Resource &&
               next(T).Kind == OpKind::Acquire;
      });
  bool MissingRelease = O.Kind == OpKind::Acquire || ProducersStuck;
  if (HeldByProducers != HeldByConsumers)
    MissingRelease = HeldByConsumers;

  // Name the stages held back, and the guarded op that hands back too few.
  OpKind Close = MissingRelease ? OpKind::Release : OpKind::Commit;
  for (unsigned T : MissingRelease ? Consumers[O.Resource] : Producers[O.Resource]) {
    const Counters &Ct = ctr(T, O.Resource);
    uint64_t Taken = MissingRelease ? Ct.Waited : Ct.Acquired;
    uint64_t Back = MissingRelease ? Ct.Released : Ct.Committed;
    if (Taken > Back)
      note(D, MissingRelease ? Ct.LastWait : Ct.LastAcquire,
           "task " + quote(task(T).Name) + " holds " +
               plural(Taken - Back, "stage") + " of " + quote(Res.Name) +
               (MissingRelease ? " it waited for but never released"
                               : " it acquired but never committed"));
    for (const Op &C : task(T).Ops)
      if (C.Resource == O.Resource && C.Kind == Close && C.G != Guard::Always)
        note(D, C.Loc,
             std::string("this ") + opKindName(Close) + " runs only on the " +
                 (C.G == Guard::FirstIter ? "first" : "last") + " iteration");
  }

  // A cycle of tasks, each waiting for a stage only the next one can hand
  // back, across more than one resource: say it in one line.
  auto Enablers = [&](unsigned T) -> const std::vector<unsigned> & {
    return isProducerOp(next(T).Kind) ? Consumers[next(T).Resource]
                                      : Producers[next(T).Resource];
  };
  std::vector<unsigned> Path{First};
  std::set<unsigned> OnPath{First};
  std::vector<unsigned> Cycle;
  std::function<bool(unsigned)> Search = [&](unsigned T) {
    for (unsigned U : Enablers(T)) {
      if (U == First) {
        Cycle = Path;
        return true;
      }
      if (finished(U) || OnPath.count(U))
        continue;
      Path.push_back(U);
      OnPath.insert(U);
      if (Search(U))
        return true;
      Path.pop_back();
      OnPath.erase(U);
    }
    return false;
  };
  Search(First);
  std::set<unsigned> CycleResources;
  for (unsigned T : Cycle)
    CycleResources.insert(next(T).Resource);
  if (Cycle.size() > 1 && CycleResources.size() > 1) {
    std::string Text = "circular wait: ";
    for (size_t I = 0; I < Cycle.size(); ++I) {
      unsigned T = Cycle[I], U = Cycle[(I + 1) % Cycle.size()];
      const Op &N = next(T);
      std::string Held;
      for (unsigned R = 0; R < P.Resources.size(); ++R) {
        const Counters &Ct = ctr(T, R);
        if (tracked(R) && (Ct.Acquired > Ct.Committed || Ct.Waited > Ct.Released))
          Held += (Held.empty() ? "" : ", ") + quote(P.Resources[R].Name);
      }
      Text += (I ? "; task " : "task ") + quote(task(T).Name) + " waits for " +
              quote(P.Resources[N.Resource].Name) +
              (Held.empty() ? "" : " holding " + Held) + ", which task " +
              quote(task(U).Name) +
              (isProducerOp(N.Kind) ? " releases" : " commits") + " only later";
    }
    note(D, O.Loc, Text);
  }

  if (MissingRelease)
    note(D, O.Loc,
         "every acquire beyond the " + plural(Res.Stages, "stage") + " of " +
             quote(Res.Name) + " needs a release from each consumer task");
  else
    note(D, O.Loc,
         "every wait on " + quote(Res.Name) +
             " needs a commit from each producer task");
  Findings.push_back({Key, std::move(D)});
}

void Simulation::reconcile(unsigned R) {
  const Resource &Res = P.Resources[R];
  const std::string Name = quote(Res.Name);
  size_t Before = Findings.size();
  auto Add = [&](std::string Key, SourceHandle Loc, std::string Msg) -> Diag & {
    Findings.push_back({Key + ":" + std::to_string(R),
                        Diag{Check::Credit, Loc, Msg + suffix(), {}}});
    return Findings.back().second;
  };

  for (unsigned T : Producers[R]) {
    const Counters &Ct = ctr(T, R);
    if (Ct.Acquired == Ct.Committed)
      continue;
    Diag &D =
        Add("acq-commit:" + std::to_string(Tasks[T]),
            Ct.Acquired > Ct.Committed ? Ct.LastAcquire : Ct.LastCommit,
            "task " + quote(task(T).Name) + " acquires " + Name + " " +
                times(Ct.Acquired) + " but commits it " + times(Ct.Committed));
    note(D, task(T).Loc, "every acquire needs exactly one commit");
  }
  for (unsigned T : Consumers[R]) {
    const Counters &Ct = ctr(T, R);
    if (Ct.Waited == Ct.Released)
      continue;
    Diag &D =
        Add("wait-release:" + std::to_string(Tasks[T]),
            Ct.Waited > Ct.Released ? Ct.LastWait : Ct.LastRelease,
            "task " + quote(task(T).Name) + " waits for " + Name + " " +
                times(Ct.Waited) + " but releases it " + times(Ct.Released));
    note(D, task(T).Loc, "every wait needs exactly one release");
  }

  uint64_t Full = fullStages(R);
  SourceHandle LastCommit = 0;
  uint64_t MinCommitted = UINT64_MAX, MaxCommitted = 0;
  for (unsigned T : Producers[R]) {
    const Counters &Ct = ctr(T, R);
    if (Ct.LastCommit)
      LastCommit = Ct.LastCommit;
    MinCommitted = std::min(MinCommitted, Ct.Committed);
    MaxCommitted = std::max(MaxCommitted, Ct.Committed);
  }
  for (unsigned T : Consumers[R]) {
    const Counters &Ct = ctr(T, R);
    if (Full <= Ct.Waited)
      continue;
    std::string By =
        Consumers[R].size() > 1 ? " by task " + quote(task(T).Name) : "";
    uint64_t N = Full - Ct.Waited;
    Diag &D = Add("unwaited:" + std::to_string(Tasks[T]), LastCommit,
                  plural(N, "commit") + " of " + Name +
                      (N == 1 ? " is" : " are") + " never waited for" + By);
    note(D, task(T).Loc,
         "task " + quote(task(T).Name) + " waits for " +
             plural(Ct.Waited, "stage"));
    note(D, LastCommit, "every commit needs one wait in each consumer task");
  }
  if (Producers[R].size() > 1 && MinCommitted != MaxCommitted) {
    Diag &D = Add("uneven-commits", LastCommit,
                  "producer tasks of " + Name +
                      " commit different numbers of stages (" +
                      std::to_string(MinCommitted) + " to " +
                      std::to_string(MaxCommitted) + ")");
    note(D, Res.Loc,
         "a stage is full only once every producer task has "
         "committed it");
  }
  if (Findings.size() != Before || Consumers[R].empty())
    return;

  // Fallback: stages still held by producers at exit stall their drain.
  uint64_t MaxAcquired = 0;
  SourceHandle LastAcquire = 0;
  for (unsigned T : Producers[R]) {
    MaxAcquired = std::max(MaxAcquired, ctr(T, R).Acquired);
    if (ctr(T, R).LastAcquire)
      LastAcquire = ctr(T, R).LastAcquire;
  }
  uint64_t Released = releasedStages(R);
  if (MaxAcquired > Released) {
    uint64_t N = MaxAcquired - Released;
    Diag &D =
        Add("unreleased", LastAcquire,
            plural(N, "acquire") + " of " + Name + (N == 1 ? " is" : " are") +
                " never matched by a release");
    note(D, LastAcquire,
         "each consumer task must release every stage; a "
         "producer drains all stages before it exits");
  }
}

} // namespace

std::vector<uint64_t> representativeTrips(const Program &P, const Kernel &K) {
  std::optional<uint64_t> Constant;
  bool AllConstant = true, AnyLoop = false;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.Ops.empty() || !T.Dom.Present)
      continue;
    AnyLoop = true;
    std::optional<uint64_t> N = T.Dom.constantTrips();
    if (!N || (Constant && *Constant != *N)) {
      AllConstant = false;
      break;
    }
    Constant = N;
  }
  if (!AnyLoop)
    return {1}; // Nothing repeats; any count gives the same run.
  if (AllConstant)
    return {std::min(*Constant, MaxSimulatedTrips)};

  uint64_t MaxStages = 1;
  for (unsigned R : kernelResources(P, K))
    if (isPipelined(P.Resources[R].Kind))
      MaxStages = std::max<uint64_t>(MaxStages, P.Resources[R].Stages);
  std::set<uint64_t> Trips{0, 1, 2, MaxStages, MaxStages + 1};
  return {Trips.begin(), Trips.end()};
}

SimResult checkCredits(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, DiagList &Out) {
  std::vector<uint64_t> Trips = representativeTrips(P, K);

  // One trip count for all tasks is an assumption once domains differ.
  if (Trips.size() > 1) {
    const Task *First = nullptr;
    for (unsigned TI : K.Tasks) {
      const Task &T = P.Tasks[TI];
      if (T.Ops.empty() || !T.Dom.Present)
        continue;
      if (!First) {
        First = &T;
        continue;
      }
      if (T.Dom.signature() == First->Dom.signature())
        continue;
      Diag &D = report(Out, Check::Domain, T.Dom.Loc,
                       "task " + quote(T.Name) +
                           " loops over a different domain than task " +
                           quote(First->Name) +
                           "; the credit simulation assumes equal trip counts");
      note(D, First->Dom.Loc, "task " + quote(First->Name) + " loops here");
      note(D, T.Dom.Loc,
           "use the same ts::domain bounds in tasks that "
           "exchange stages");
      break;
    }
  }

  // The smallest failing trip count tells the story and larger ones repeat
  // it; only a deadlock that a smaller trip count showed as mere imbalance
  // is still worth reporting. The first deadlock ends the simulation.
  std::set<std::string> Seen;
  SimResult Last;
  bool Failed = false;
  for (uint64_t N : Trips) {
    Simulation Sim(P, K, Plan, N);
    SimResult R = Sim.run();
    if (Failed && !R.Deadlocked)
      continue;
    Last = std::move(R);
    for (auto &[Key, D] : Sim.Findings)
      if (Seen.insert(Key + "@" + std::to_string(D.Loc)).second)
        Out.push_back(std::move(D));
    if (Last.Deadlocked)
      break;
    Failed = Failed || !Sim.Findings.empty();
  }
  return Last;
}

} // namespace ts
