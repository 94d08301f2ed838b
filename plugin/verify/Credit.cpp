//===- Credit.cpp - The protocol transition system ------------------------===//
//
// Tasks step through their ops lazily (cursors, guards applied) against
// per-task stage counters (reference 10.5); TripCounts.cpp picks the trip
// counts, Explore.cpp searches interleavings with the same steps. Every
// producer task fills every stage and every consumer task drains every stage,
// matching the barrier arrival counts: a stage is full once all producer tasks
// committed it and free again once all consumer tasks released it.
//
//===----------------------------------------------------------------------===//
#include "plan/HandBack.h"
#include "verify/Simulation.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace ts {
namespace detail {

namespace {

std::string times(uint64_t N) {
  return N == 1 ? "once" : std::to_string(N) + " times";
}

} // namespace

Simulation::Simulation(const Program &P, const Kernel &K,
                       const KernelPlan &Plan,
                       const std::vector<uint64_t> &KTrips, std::string RunName)
    : P(P), RunName(std::move(RunName)), Producers(P.Resources.size()),
      Consumers(P.Resources.size()) {
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    const Task &T = P.Tasks[K.Tasks[I]];
    Tasks.push_back(K.Tasks[I]);
    Trips.push_back(T.Dom.Present ? KTrips[I] : 0);
    Credits.push_back(handBackCredits(P, T).value_or(std::vector<unsigned>{}));
    Head.emplace_back();
    Loop.emplace_back();
    Tail.emplace_back();
    for (unsigned O = 0; O < T.Ops.size(); ++O)
      (T.Ops[O].Sec == Section::Head   ? Head
       : T.Ops[O].Sec == Section::Loop ? Loop
                                       : Tail)
          .back()
          .push_back(O);
  }
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
  for (unsigned T = 0; T < Tasks.size(); ++T)
    PlainLoop.push_back(
        std::any_of(Loop[T].begin(), Loop[T].end(), [&](unsigned O) {
          return runsInMiddle(task(T).Ops[O].G);
        }));
  Rings = turnRings(Plan, Tasks);
  Cur.assign(Tasks.size(), Cursor());
  C.resize(Tasks.size() * P.Resources.size());
  for (unsigned T = 0; T < Tasks.size(); ++T)
    settle(T);
}

const std::vector<unsigned> &Simulation::section(unsigned T, Section S) const {
  return S == Section::Head ? Head[T] : S == Section::Loop ? Loop[T] : Tail[T];
}

/// Moves the cursor onto the next op that runs (guards applied).
void Simulation::settle(unsigned T) {
  Cursor &Cu = Cur[T];
  const std::vector<unsigned> &Body = Loop[T];
  // With no op on a middle iteration an infinite loop does nothing more.
  bool Plain = PlainLoop[T];
  while (!Cu.Done) {
    if (Cu.Sec == Section::Head) {
      if (Cu.Idx < Head[T].size())
        return;
      Cu = {Section::Loop, 0, 0, false};
    } else if (Cu.Sec == Section::Loop) {
      if (Cu.It >= Trips[T] || Body.empty()) {
        Cu = {Section::Tail, 0, 0, false};
        continue;
      }
      if (Trips[T] == InfiniteTrips && Cu.It > 0 && !Plain) {
        Cu.Done = true;
        return;
      }
      if (Cu.Idx == Body.size()) {
        ++Cu.It;
        Cu.Idx = 0;
        continue;
      }
      if (guardRuns(task(T).Ops[Body[Cu.Idx]].G, Cu.It, Trips[T]))
        return;
      ++Cu.Idx;
    } else {
      if (Cu.Idx < Tail[T].size())
        return;
      Cu.Done = true;
    }
  }
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

bool Simulation::takeReady(unsigned T, const Op &O) const {
  const TurnRing &R = Rings.at(O.Resource);
  int B = R.Before[T];
  return B >= 0 &&
         detail::takeReady(ctr(T, O.Resource).Waited,
                           ctr(unsigned(B), O.Resource).Committed, R.First[T]);
}

bool Simulation::runnable(unsigned T) const {
  const Op &O = next(T);
  if (Frozen && Frozen(T, O))
    return false;
  if (turnOp(O))
    return O.Kind == OpKind::Pass || takeReady(T, O);
  if (!tracked(O.Resource))
    return true;
  const Counters &Ct = ctr(T, O.Resource);
  switch (O.Kind) {
  case OpKind::Acquire:
    return acquireReady(Ct.Acquired, P.Resources[O.Resource].Stages,
                        releasedStages(O.Resource));
  case OpKind::Wait:
    return waitReady(Ct.Waited, fullStages(O.Resource));
  default:
    return true;
  }
}

void Simulation::execute(unsigned T) {
  const Op &O = next(T);
  uint64_t It = Cur[T].It;
  unsigned Index = nextIndex(T);
  ++Cur[T].Idx;
  settle(T);
  if (OnExecute)
    OnExecute(T, Index, It);
  if (turnOp(O)) {
    if (Trips[T] != InfiniteTrips && RecordEvents)
      Events[O.Resource].push_back({T, Index, It});
    Counters &Ct = ctr(T, O.Resource);
    if (O.Kind == OpKind::Take) {
      ++Ct.Waited;
      Ct.LastWait = O.Loc;
    } else if (!(Withheld && Withheld(T))) {
      ++Ct.Committed;
      Ct.LastCommit = O.Loc;
    }
    return;
  }
  if (!tracked(O.Resource))
    return;
  // A thread held back: the task's other threads go on, but hand over
  // nothing the held one has not.
  if (Withheld && Withheld(T) &&
      (O.Kind == OpKind::Commit || O.Kind == OpKind::Release))
    return;
  if (O.Kind != OpKind::Work && Trips[T] != InfiniteTrips && RecordEvents)
    Events[O.Resource].push_back({T, Index, It});
  Counters &Ct = ctr(T, O.Resource);
  switch (O.Kind) {
  case OpKind::Acquire:
    ++Ct.Acquired;
    Ct.LastAcquire = O.Loc;
    break;
  case OpKind::Commit:
    Ct.Committed += credit(T, Index);
    Ct.LastCommit = O.Loc;
    break;
  case OpKind::Wait:
    ++Ct.Waited;
    Ct.LastWait = O.Loc;
    break;
  case OpKind::Release:
    Ct.Released += credit(T, Index);
    Ct.LastRelease = O.Loc;
    break;
  default:
    break;
  }
}

Cursor Simulation::stepTask(unsigned T) {
  Cursor Before = Cur[T];
  execute(T);
  return Before;
}

void Simulation::undoStep(unsigned T, const Cursor &Before) {
  Cur[T] = Before;
  const Op &O = next(T);
  if (turnOp(O)) {
    Counters &Ct = ctr(T, O.Resource);
    --(O.Kind == OpKind::Take ? Ct.Waited : Ct.Committed);
    return;
  }
  if (!tracked(O.Resource))
    return;
  Counters &Ct = ctr(T, O.Resource);
  switch (O.Kind) {
  case OpKind::Acquire:
    --Ct.Acquired;
    break;
  case OpKind::Commit:
    Ct.Committed -= credit(T, nextIndex(T));
    break;
  case OpKind::Wait:
    --Ct.Waited;
    break;
  case OpKind::Release:
    Ct.Released -= credit(T, nextIndex(T));
    break;
  default:
    break;
  }
}

/// One round: every runnable task runs its next op, decided before any
/// runs (executing only adds credits, so no ready op becomes blocked).
/// Returns false at the end of the run or at a deadlock.
bool Simulation::round(SimResult *S, unsigned Step) {
  std::vector<unsigned> Ready, Blocked;
  for (unsigned T = 0; T < Tasks.size(); ++T)
    if (!finished(T))
      (runnable(T) ? Ready : Blocked).push_back(T);
  if (Ready.empty() && Blocked.empty())
    return false;
  if (Ready.empty()) {
    if (S) {
      for (unsigned T : Blocked)
        S->Steps.push_back(
            {Step, Tasks[T], nextIndex(T), unsigned(Cur[T].It), true});
      S->Deadlocked = true;
      reportDeadlock(Blocked);
    }
    return false;
  }
  for (unsigned T : Ready) {
    if (S)
      S->Steps.push_back(
          {Step, Tasks[T], nextIndex(T), unsigned(Cur[T].It), false});
    execute(T);
  }
  return true;
}

std::vector<unsigned> Simulation::enabledTasks() const {
  std::vector<unsigned> Out;
  for (unsigned T = 0; T < Tasks.size(); ++T)
    if (!finished(T) && runnable(T))
      Out.push_back(T);
  return Out;
}

bool Simulation::allDone() const {
  return std::all_of(Cur.begin(), Cur.end(),
                     [](const Cursor &Cu) { return Cu.Done; });
}

std::vector<uint64_t> Simulation::stateKey() const {
  std::vector<uint64_t> Key(Cur.size());
  stateKey(Key.data());
  return Key;
}

void Simulation::stateKey(uint64_t *Out) const {
  for (const Cursor &Cu : Cur)
    *Out++ = Cu.Done ? ~uint64_t(0)
                     : (uint64_t(Cu.Sec) << 62) | (Cu.It << 20) | Cu.Idx;
}

bool Simulation::sameBehaviour(unsigned T, unsigned U) const {
  const Task &A = task(T), &B = task(U);
  auto SameOp = [](const Op &X, const Op &Y) {
    return X.Kind == Y.Kind && X.Resource == Y.Resource && X.R == Y.R &&
           X.Sec == Y.Sec && X.G == Y.G && X.Stage == Y.Stage &&
           X.Token == Y.Token;
  };
  return Trips[T] == Trips[U] && A.Produces == B.Produces &&
         A.Consumes == B.Consumes &&
         std::equal(A.Ops.begin(), A.Ops.end(), B.Ops.begin(), B.Ops.end(),
                    SameOp);
}

bool Simulation::narrowKeysFit() const {
  for (unsigned T = 0; T < Tasks.size(); ++T)
    if ((Trips[T] != InfiniteTrips && Trips[T] >= (1u << 20) - 1) ||
        std::max({Head[T].size(), Loop[T].size(), Tail[T].size()}) >=
            (1u << 10))
      return false;
  return true;
}

uint64_t Simulation::enabledMask() const {
  uint64_t Mask = 0;
  for (unsigned T = 0; T < Tasks.size(); ++T)
    if (!finished(T) && runnable(T))
      Mask |= uint64_t(1) << T;
  return Mask;
}

bool Simulation::unbalancedAtEnd() {
  size_t Before = Findings.size();
  for (unsigned R = 0; R < P.Resources.size(); ++R)
    if (tracked(R))
      reconcile(R);
  return Findings.size() != Before;
}

void Simulation::runToQuiescence() {
  for (unsigned Step = 0; round(nullptr, Step); ++Step) {
  }
}

SimResult Simulation::run() {
  SimResult S;
  S.Trips = Trips.empty() ? 0 : *std::max_element(Trips.begin(), Trips.end());
  for (unsigned Step = 0; round(&S, Step); ++Step) {
  }
  if (S.Deadlocked)
    return S;
  for (unsigned R = 0; R < P.Resources.size(); ++R)
    if (tracked(R))
      reconcile(R);
  return S;
}

/// Positions of the looping tasks past their first iteration, relative to
/// the slowest of them; every other task (head, first iteration, tail,
/// finished, finite) by its absolute position. Empty until some task is
/// past its first iteration.
std::vector<int64_t> Simulation::relativeState(uint64_t &MinIt,
                                               uint64_t &Lag) const {
  auto Steady = [&](unsigned T) {
    return Trips[T] == InfiniteTrips && !finished(T) &&
           Cur[T].Sec == Section::Loop && Cur[T].It > 0;
  };
  MinIt = InfiniteTrips;
  uint64_t MaxIt = 0;
  for (unsigned T = 0; T < Tasks.size(); ++T)
    if (Steady(T)) {
      MinIt = std::min(MinIt, Cur[T].It);
      MaxIt = std::max(MaxIt, Cur[T].It);
    }
  if (MinIt == InfiniteTrips)
    return {};
  Lag = MaxIt - MinIt;
  std::vector<int64_t> Key;
  for (unsigned T = 0; T < Tasks.size(); ++T) {
    Key.push_back(finished(T) ? -1 : int64_t(Cur[T].Sec) + (Steady(T) ? 8 : 0));
    Key.push_back(Steady(T) ? int64_t(Cur[T].It - MinIt) : int64_t(Cur[T].It));
    Key.push_back(Cur[T].Idx);
  }
  // Counters relative to the smallest of their pipeline: enabledness
  // depends on exactly these differences, so equal keys run alike.
  for (unsigned R = 0; R < P.Resources.size(); ++R) {
    if (!tracked(R) || (Producers[R].empty() && Consumers[R].empty()))
      continue;
    std::vector<uint64_t> Vals;
    for (unsigned T : Producers[R])
      Vals.insert(Vals.end(), {ctr(T, R).Acquired, ctr(T, R).Committed});
    for (unsigned T : Consumers[R])
      Vals.insert(Vals.end(), {ctr(T, R).Waited, ctr(T, R).Released});
    uint64_t Base = *std::min_element(Vals.begin(), Vals.end());
    for (uint64_t V : Vals)
      Key.push_back(int64_t(V - Base));
  }
  return Key;
}

/// Runs the enabled task that is furthest behind. Which task runs does not
/// change the outcome (Kahn), and this choice keeps tasks that nothing holds
/// back from running away, so the relative state stays bounded.
bool Simulation::stepSlowest() {
  auto Progress = [&](unsigned T) {
    const Cursor &Cu = Cur[T];
    return std::make_tuple(int(Cu.Sec), Cu.Sec == Section::Loop ? Cu.It : 0,
                           Cu.Idx);
  };
  std::optional<unsigned> Best;
  for (unsigned T : enabledTasks())
    if (!Best || Progress(T) < Progress(*Best))
      Best = T;
  if (!Best)
    return false;
  execute(*Best);
  return true;
}

SteadyState Simulation::findSteadyState(uint64_t MaxSteps,
                                        uint64_t MaxIterations) {
  SteadyState St;
  std::map<std::vector<int64_t>, uint64_t> Seen; ///< Key -> slowest iteration.
  for (uint64_t Step = 0; Step < MaxSteps; ++Step) {
    if (!stepSlowest()) {
      (allDone() ? St.Finished : St.Deadlocked) = true;
      return St;
    }
    for (unsigned T = 0; T < Tasks.size(); ++T)
      if (Trips[T] == InfiniteTrips && Cur[T].Sec == Section::Loop &&
          !finished(T))
        St.MaxIt = std::max(St.MaxIt, Cur[T].It);
    if (St.MaxIt > MaxIterations)
      return St;
    uint64_t MinIt = 0, Lag = 0;
    std::vector<int64_t> Key = relativeState(MinIt, Lag);
    if (Key.empty())
      continue;
    St.MaxLag = std::max(St.MaxLag, Lag);
    auto [It, New] = Seen.insert({Key, MinIt});
    if (New || It->second == MinIt)
      continue;
    St.Periodic = true;
    St.Start = It->second;
    St.Period = MinIt - It->second;
    return St;
  }
  return St;
}

std::string Simulation::blockedOn(unsigned T) const {
  const Op &O = next(T);
  return std::string(opKindName(O.Kind)) + " of " +
         quote(P.Resources[O.Resource].Name);
}

void Simulation::noteBlocked(Diag &D, const std::vector<unsigned> &Blocked) {
  unsigned First = Blocked.front();
  std::vector<unsigned> Involved;
  for (unsigned T : Blocked) {
    unsigned R = next(T).Resource;
    if (std::find(Involved.begin(), Involved.end(), R) == Involved.end())
      Involved.push_back(R);
    if (T == First)
      continue;
    note(D, next(T).Loc,
         "task " + quote(task(T).Name) + " is blocked here on " + blockedOn(T));
  }
  for (unsigned R : Involved) {
    if (!tracked(R))
      continue; // a turn: noteTurn
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
             std::to_string(Full) + " full " +
             (Full == 1 ? "stage" : "stages"));
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
}

bool Simulation::missingRelease(const std::vector<unsigned> &Blocked) {
  const Op &O = next(Blocked.front());
  // Who holds stages of the first blocked resource decides the cause: a
  // producer holding acquired stages never committed starves the consumers;
  // a consumer holding waited-for stages never released starves producers.
  bool HeldByProducers = false, HeldByConsumers = false;
  for (unsigned T : Producers[O.Resource])
    HeldByProducers |=
        ctr(T, O.Resource).Acquired > ctr(T, O.Resource).Committed;
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

  return MissingRelease;
}

void Simulation::noteHeld(Diag &D, const Op &O, bool MissingRelease) {
  const Resource &Res = P.Resources[O.Resource];
  OpKind Close = MissingRelease ? OpKind::Release : OpKind::Commit;
  for (unsigned T :
       MissingRelease ? Consumers[O.Resource] : Producers[O.Resource]) {
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
             std::string("this ") + opKindName(Close) + " runs " +
                 guardWords(C.G));
  }
}

void Simulation::noteTurn(Diag &D, unsigned First) {
  const Op &O = next(First);
  const std::string Name = quote(P.Resources[O.Resource].Name);
  int B = Rings.at(O.Resource).Before[First];
  if (B < 0)
    return;
  unsigned Prev = unsigned(B);
  const Counters &Ct = ctr(Prev, O.Resource);
  std::string Why =
      finished(Prev)
          ? "has finished after passing it " + plural(Ct.Committed, "time")
      : Ct.Waited > Ct.Committed
          ? "holds it and is blocked on " + blockedOn(Prev)
          : "is blocked on " + blockedOn(Prev) + " before taking it";
  note(D, O.Loc,
       "this take of " + Name + " needs a pass from task " +
           quote(task(Prev).Name) + " (the position before), which " + Why);
}

void Simulation::noteCycle(Diag &D, unsigned First) {
  const Op &O = next(First);
  // A cycle of tasks, each waiting for a stage only the next one can hand
  // back, across more than one resource: say it in one line.
  auto Enablers = [&](unsigned T) -> std::vector<unsigned> {
    const Op &N = next(T);
    if (turnOp(N)) { // a take waits for the position before
      int B = Rings.at(N.Resource).Before[T];
      return B < 0 ? std::vector<unsigned>{}
                   : std::vector<unsigned>{unsigned(B)};
    }
    return isProducerOp(N.Kind) ? Consumers[N.Resource] : Producers[N.Resource];
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
        if (tracked(R) &&
            (Ct.Acquired > Ct.Committed || Ct.Waited > Ct.Released))
          Held += (Held.empty() ? "" : ", ") + quote(P.Resources[R].Name);
      }
      Text += (I ? "; task " : "task ") + quote(task(T).Name) + " waits for " +
              quote(P.Resources[N.Resource].Name) +
              (Held.empty() ? "" : " holding " + Held) + ", which task " +
              quote(task(U).Name) +
              (N.Kind == OpKind::Take ? " passes"
               : isProducerOp(N.Kind) ? " releases"
                                      : " commits") +
              " only later";
    }
    note(D, O.Loc, Text);
  }
}

void Simulation::reportDeadlock(const std::vector<unsigned> &Blocked) {
  unsigned First = Blocked.front();
  const Op &O = next(First);
  const Resource &Res = P.Resources[O.Resource];
  DeadlockResource = O.Resource;
  Diag D{Check::Credit,
         O.Loc,
         "deadlock: task " + quote(task(First).Name) + " blocks forever on " +
             blockedOn(First) + suffix(),
         {}};
  // Keyed by the first blocked op alone: the same hang at a larger trip
  // count may leave other tasks blocked too.
  std::string Key = "deadlock:" + std::to_string(Tasks[First]) + ":" +
                    std::to_string(nextIndex(First));
  noteBlocked(D, Blocked);
  if (turnOp(O)) {
    noteTurn(D, First);
    noteCycle(D, First);
    traceNotes(D, O.Resource);
    Findings.push_back({Key, std::move(D)});
    return;
  }
  bool MissingRelease = missingRelease(Blocked);
  // Name the stages held back, and the guarded op that hands back too few.
  noteHeld(D, O, MissingRelease);
  noteCycle(D, First);
  traceNotes(D, O.Resource);
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

/// The last protocol events on the blocked resource, in the order the run
/// executed them: the end of the counterexample.
void Simulation::traceNotes(Diag &D, unsigned R) {
  const std::vector<Event> &Ev = Events[R];
  constexpr size_t Shown = 6;
  // Notes show the last few events; the JSON report keeps more of them.
  constexpr size_t Kept = 64;
  size_t From = Ev.size() > Shown ? Ev.size() - Shown : 0;
  D.TraceTotal = Ev.size();
  for (size_t I = Ev.size() > Kept ? Ev.size() - Kept : 0; I < Ev.size(); ++I) {
    const Task &T = task(Ev[I].Task);
    const Op &O = T.Ops[Ev[I].Op];
    std::string Where = O.Sec == Section::Loop
                            ? "iteration " + std::to_string(Ev[I].It)
                        : O.Sec == Section::Head ? "head"
                                                 : "tail";
    D.Trace.push_back(
        {T.Name, opKindName(O.Kind), P.Resources[R].Name, Where, O.Loc});
    if (I < From)
      continue;
    note(D, O.Loc,
         "trace " + std::to_string(I + 1) + "/" + std::to_string(Ev.size()) +
             ": task " + quote(T.Name) + " " + opKindName(O.Kind) + " of " +
             quote(P.Resources[R].Name) + " (" + Where + ")");
  }
}

Diag &Simulation::add(unsigned R, const std::string &Key, SourceHandle Loc,
                      const std::string &Msg) {
  Findings.push_back({Key + ":" + std::to_string(R),
                      Diag{Check::Credit, Loc, Msg + suffix(), {}}});
  return Findings.back().second;
}

void Simulation::reconcilePairs(unsigned R) {
  const std::string Name = quote(P.Resources[R].Name);
  for (unsigned T : Producers[R]) {
    const Counters &Ct = ctr(T, R);
    if (Ct.Acquired == Ct.Committed)
      continue;
    Diag &D =
        add(R, "acq-commit:" + std::to_string(Tasks[T]),
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
        add(R, "wait-release:" + std::to_string(Tasks[T]),
            Ct.Waited > Ct.Released ? Ct.LastWait : Ct.LastRelease,
            "task " + quote(task(T).Name) + " waits for " + Name + " " +
                times(Ct.Waited) + " but releases it " + times(Ct.Released));
    note(D, task(T).Loc, "every wait needs exactly one release");
  }
}

void Simulation::reconcileCommits(unsigned R) {
  const Resource &Res = P.Resources[R];
  const std::string Name = quote(Res.Name);
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
    Diag &D = add(R, "unwaited:" + std::to_string(Tasks[T]), LastCommit,
                  plural(N, "commit") + " of " + Name +
                      (N == 1 ? " is" : " are") + " never waited for" + By);
    note(D, task(T).Loc,
         "task " + quote(task(T).Name) + " waits for " +
             plural(Ct.Waited, "stage"));
    note(D, LastCommit, "every commit needs one wait in each consumer task");
  }
  if (Producers[R].size() > 1 && MinCommitted != MaxCommitted) {
    Diag &D = add(R, "uneven-commits", LastCommit,
                  "producer tasks of " + Name +
                      " commit different numbers of stages (" +
                      std::to_string(MinCommitted) + " to " +
                      std::to_string(MaxCommitted) + ")");
    note(D, Res.Loc,
         "a stage is full only once every producer task has "
         "committed it");
  }
}

void Simulation::reconcileDrain(unsigned R) {
  const std::string Name = quote(P.Resources[R].Name);
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
        add(R, "unreleased", LastAcquire,
            plural(N, "acquire") + " of " + Name + (N == 1 ? " is" : " are") +
                " never matched by a release");
    note(D, LastAcquire,
         "each consumer task must release every stage; a "
         "producer drains all stages before it exits");
  }
}

void Simulation::reconcile(unsigned R) {
  size_t Before = Findings.size();
  reconcilePairs(R);
  reconcileCommits(R);
  if (Findings.size() == Before && !Consumers[R].empty())
    reconcileDrain(R);
}

} // namespace detail
} // namespace ts
