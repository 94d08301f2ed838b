//===- TileSequences.cpp - Every sequence of per-tile inner counts --------===//
//
// The search of TileSequences.h, over a counter machine with the semantics
// of Credit.cpp (an acquire needs a stage every consumer task released, a
// wait one every producer task committed; hand-backs credit what
// plan/HandBack.h says) whose tile loop takes each tile's ops from the
// variant chosen for that tile.
//
//===----------------------------------------------------------------------===//
#include "verify/TileSequences.h"
#include "plan/HandBack.h"
#include "plan/NestedViews.h"
#include "verify/Simulation.h"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>

namespace ts {
namespace detail {
namespace {

struct Step {
  OpKind Kind;
  unsigned Res;
  unsigned Credit;
  SourceHandle Loc;
};
using Steps = std::vector<Step>;

/// A tile is first and/or last of the loop: [first * 2 + last].
unsigned guardCase(bool First, bool Last) {
  return unsigned(First) * 2 + unsigned(Last);
}

bool runsIn(Guard G, unsigned Case) {
  uint64_t It = Case >= 2 ? 0 : 1;
  return guardRuns(G, It, (Case & 1) ? It + 1 : It + 2);
}

struct TaskCode {
  Steps Head, Tail;
  std::vector<std::array<Steps, 4>> Tile; ///< [variant][guard case]
  bool Loops = false;                     ///< Some tile runs a protocol op.
};

enum Phase : uint8_t { InHead, InTile, InTail, Finished };
enum Field { Acq, Com, Wai, Rel, Fields };

/// A tile's choice is Variant * 2 + (1 if it is the last tile); EndHere:
/// the tile loop runs no tile at all.
constexpr int EndHere = -1;
/// How far (in tiles) one task may run ahead of another before the search
/// gives up: stages bound that distance unless a task's tiles are empty.
constexpr size_t MaxLag = 64;

struct State {
  std::vector<uint8_t> Ph;
  std::vector<uint32_t> Tile, Idx;
  std::vector<uint64_t> Ctr; ///< [task][resource][field]
  uint32_t WindowBase = 0;   ///< The tile Window[0] chose for.
  std::vector<int> Window;
  int Node = -1; ///< The decision that led here (for the witness).
  uint32_t decided() const { return WindowBase + uint32_t(Window.size()); }
  int choice(uint32_t T) const { return Window[T - WindowBase]; }
};

class Machine {
public:
  Machine(const Program &P, const Kernel &K, const KernelPlan &Plan,
          const std::vector<const Program *> &Views);
  const std::string &unsupported() const { return Why; }
  State initial() const;
  /// Runs the slowest task that can move, until none can.
  void run(State &S) const;
  bool allDone(const State &S) const;
  bool needsChoice(const State &S) const;
  std::vector<int> choices(const State &S) const;
  void decide(State &S, int Choice) const;
  /// Drops the choices of tiles every task has left.
  void trim(State &S) const;
  std::vector<int64_t> key(const State &S) const;
  std::vector<TileSequenceResult::Blocked> stuck(const State &S) const;

private:
  void compile(const Program &View, const Kernel &K, size_t Variant);
  const Step *next(const State &S, unsigned T) const;
  void settle(State &S, unsigned T) const;
  bool runnable(const State &S, unsigned T) const;
  void execute(State &S, unsigned T) const;
  size_t at(unsigned T, unsigned R, Field F) const {
    return (size_t(T) * NR + R) * Fields + F;
  }
  /// The least of Field over one side of R (0 with no task on that side).
  uint64_t slowest(const State &S, const std::vector<unsigned> &Side,
                   unsigned R, Field F) const;

  const Program &P;
  unsigned NR;
  std::vector<TaskCode> Code;
  std::vector<std::vector<unsigned>> Producers, Consumers;
  std::optional<uint64_t> OuterTrips; ///< A constant tile loop.
  std::map<unsigned, TurnRing> Rings; ///< Per turns resource.
  std::vector<char> EmptyMiddle; ///< Per variant: a middle tile runs nothing.
  std::string Why;
};

Machine::Machine(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 const std::vector<const Program *> &Views)
    : P(P), NR(unsigned(P.Resources.size())), Code(K.Tasks.size()),
      Producers(NR), Consumers(NR) {
  auto Local = [&](unsigned TI) {
    return unsigned(std::find(K.Tasks.begin(), K.Tasks.end(), TI) -
                    K.Tasks.begin());
  };
  Rings = turnRings(Plan, K.Tasks);
  for (size_t V = 0; V < Views.size(); ++V)
    compile(*Views[V], K, V);
  for (const PipelinePlan &PP : Plan.Pipelines) {
    for (unsigned TI : PP.Producers)
      Producers[PP.Resource].push_back(Local(TI));
    for (unsigned TI : PP.Consumers)
      Consumers[PP.Resource].push_back(Local(TI));
  }
  // Every task with tiles must run the same tile count.
  const Task *First = nullptr;
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    const Task &T = P.Tasks[K.Tasks[I]];
    if (!Code[I].Loops)
      continue;
    if (!First)
      First = &T;
    else if (T.Dom.constantTrips() != First->Dom.constantTrips() ||
             T.Dom.symbolicKey() != First->Dom.symbolicKey() ||
             T.Dom.tripOffset() != First->Dom.tripOffset())
      Why = "the tile loops of '" + First->Name + "' and '" + T.Name +
            "' run different counts";
  }
  if (First)
    OuterTrips = First->Dom.constantTrips();
  for (size_t V = 0; V < Views.size(); ++V)
    EmptyMiddle.push_back(std::all_of(Code.begin(), Code.end(), [&](auto &C) {
      return C.Tile[V][guardCase(false, false)].empty();
    }));
}

void Machine::compile(const Program &View, const Kernel &K, size_t Variant) {
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    const Task &T = View.Tasks[K.Tasks[I]];
    TaskCode &C = Code[I];
    C.Tile.emplace_back();
    auto Credits = handBackCredits(View, T);
    if (!Credits) // The ownership check refuses the order.
      Why = "'" + T.Name +
            "' hands stages back in an order the barriers "
            "do not allow";
    for (unsigned O = 0; O < T.Ops.size(); ++O) {
      const Op &Op = T.Ops[O];
      bool Turn = (Op.Kind == OpKind::Take || Op.Kind == OpKind::Pass) &&
                  Rings.count(Op.Resource);
      bool Protocol = Turn || Op.Kind == OpKind::Acquire ||
                      Op.Kind == OpKind::Commit || Op.Kind == OpKind::Wait ||
                      Op.Kind == OpKind::Release;
      if (!Protocol || Op.Resource >= NR ||
          (!Turn && !isPipelined(P.Resources[Op.Resource].Kind)))
        continue;
      unsigned Credit = Credits && !Credits->empty() ? (*Credits)[O] : 1;
      Step S{Op.Kind, Op.Resource, Credit, Op.Loc};
      if (Op.Sec == Section::Loop) {
        for (unsigned Case = 0; Case < 4; ++Case)
          if (runsIn(Op.G, Case))
            C.Tile.back()[Case].push_back(S);
        C.Loops = C.Loops || T.Dom.Present;
      } else if (Variant == 0) {
        (Op.Sec == Section::Head ? C.Head : C.Tail).push_back(S);
      }
    }
  }
}

State Machine::initial() const {
  State S;
  S.Ph.assign(Code.size(), InHead);
  S.Tile.assign(Code.size(), 0);
  S.Idx.assign(Code.size(), 0);
  S.Ctr.assign(Code.size() * NR * Fields, 0);
  for (unsigned T = 0; T < Code.size(); ++T)
    settle(S, T);
  return S;
}

/// Moves T's cursor onto its next step, past sections that are done.
void Machine::settle(State &S, unsigned T) const {
  const TaskCode &C = Code[T];
  for (;;) {
    switch (S.Ph[T]) {
    case InHead:
      if (S.Idx[T] < C.Head.size())
        return;
      S.Ph[T] = C.Loops ? InTile : InTail;
      S.Idx[T] = 0;
      break;
    case InTile: {
      uint32_t Ti = S.Tile[T];
      if (Ti >= S.decided())
        return; // The next tile's count is not chosen yet.
      int Ch = S.choice(Ti);
      if (Ch == EndHere) {
        S.Ph[T] = InTail;
        break;
      }
      const Steps &Body = C.Tile[size_t(Ch / 2)][guardCase(Ti == 0, Ch & 1)];
      if (S.Idx[T] < Body.size())
        return;
      S.Idx[T] = 0;
      if (Ch & 1)
        S.Ph[T] = InTail;
      else
        ++S.Tile[T];
      break;
    }
    case InTail:
      if (S.Idx[T] < C.Tail.size())
        return;
      S.Ph[T] = Finished;
      return;
    default:
      return;
    }
  }
}

const Step *Machine::next(const State &S, unsigned T) const {
  const TaskCode &C = Code[T];
  switch (S.Ph[T]) {
  case InHead:
    return &C.Head[S.Idx[T]];
  case InTail:
    return &C.Tail[S.Idx[T]];
  case InTile: {
    if (S.Tile[T] >= S.decided())
      return nullptr;
    int Ch = S.choice(S.Tile[T]);
    return &C.Tile[size_t(Ch / 2)][guardCase(S.Tile[T] == 0, Ch & 1)][S.Idx[T]];
  }
  default:
    return nullptr;
  }
}

uint64_t Machine::slowest(const State &S, const std::vector<unsigned> &Side,
                          unsigned R, Field F) const {
  if (Side.empty())
    return 0;
  uint64_t Min = UINT64_MAX;
  for (unsigned T : Side)
    Min = std::min(Min, S.Ctr[at(T, R, F)]);
  return Min;
}

bool Machine::runnable(const State &S, unsigned T) const {
  const Step *St = next(S, T);
  if (!St)
    return false;
  if (St->Kind == OpKind::Acquire)
    return acquireReady(S.Ctr[at(T, St->Res, Acq)], P.Resources[St->Res].Stages,
                        slowest(S, Consumers[St->Res], St->Res, Rel));
  if (St->Kind == OpKind::Wait)
    return waitReady(S.Ctr[at(T, St->Res, Wai)],
                     slowest(S, Producers[St->Res], St->Res, Com));
  if (St->Kind == OpKind::Take) { // takes count as waits, passes as commits
    const TurnRing &R = Rings.at(St->Res);
    return R.Before[T] >= 0 &&
           takeReady(S.Ctr[at(T, St->Res, Wai)],
                     S.Ctr[at(unsigned(R.Before[T]), St->Res, Com)],
                     R.First[T]);
  }
  return true;
}

void Machine::execute(State &S, unsigned T) const {
  const Step &St = *next(S, T);
  switch (St.Kind) {
  case OpKind::Acquire:
    ++S.Ctr[at(T, St.Res, Acq)];
    break;
  case OpKind::Commit:
    S.Ctr[at(T, St.Res, Com)] += St.Credit;
    break;
  case OpKind::Wait:
  case OpKind::Take:
    ++S.Ctr[at(T, St.Res, Wai)];
    break;
  case OpKind::Pass:
    ++S.Ctr[at(T, St.Res, Com)];
    break;
  default:
    S.Ctr[at(T, St.Res, Rel)] += St.Credit;
    break;
  }
  ++S.Idx[T];
  settle(S, T);
}

void Machine::run(State &S) const {
  for (;;) {
    int Best = -1;
    for (unsigned T = 0; T < Code.size(); ++T) {
      if (!runnable(S, T))
        continue;
      if (Best < 0 ||
          std::make_pair(S.Ph[T], S.Tile[T]) <
              std::make_pair(S.Ph[unsigned(Best)], S.Tile[unsigned(Best)]))
        Best = int(T);
    }
    if (Best < 0)
      return;
    execute(S, unsigned(Best));
  }
}

bool Machine::allDone(const State &S) const {
  return std::all_of(S.Ph.begin(), S.Ph.end(),
                     [](uint8_t Ph) { return Ph == Finished; });
}

bool Machine::needsChoice(const State &S) const {
  for (unsigned T = 0; T < Code.size(); ++T)
    if (S.Ph[T] == InTile && S.Tile[T] >= S.decided())
      return true;
  return false;
}

std::vector<int> Machine::choices(const State &S) const {
  uint32_t Tile = S.decided();
  std::vector<int> Out;
  int Variants = int(EmptyMiddle.size());
  if (OuterTrips) {
    if (*OuterTrips == 0)
      return {EndHere};
    int Last = Tile + 1 == *OuterTrips;
    for (int V = 0; V < Variants; ++V)
      Out.push_back(V * 2 + Last);
    return Out;
  }
  if (Tile == 0)
    Out.push_back(EndHere);
  for (int V = 0; V < Variants; ++V) {
    Out.push_back(V * 2 + 1);
    // A middle tile that runs nothing in any task changes nothing: the
    // sequences without it cover it.
    if (Tile == 0 || !EmptyMiddle[size_t(V)])
      Out.push_back(V * 2);
  }
  return Out;
}

void Machine::decide(State &S, int Choice) const {
  S.Window.push_back(Choice);
  for (unsigned T = 0; T < Code.size(); ++T)
    settle(S, T);
}

void Machine::trim(State &S) const {
  uint32_t Base = S.decided();
  for (unsigned T = 0; T < Code.size(); ++T)
    if (S.Ph[T] == InTile || (S.Ph[T] == InHead && Code[T].Loops))
      Base = std::min(Base, S.Ph[T] == InTile ? S.Tile[T] : 0u);
  S.Window.erase(S.Window.begin(),
                 S.Window.begin() + std::ptrdiff_t(Base - S.WindowBase));
  S.WindowBase = Base;
}

/// What decides the rest of the run: where each task is relative to the
/// slowest, whether that is the first tile (the absolute tile for a
/// constant tile loop), the choices ahead, and the counters relative to
/// their least per resource.
std::vector<int64_t> Machine::key(const State &S) const {
  std::vector<int64_t> Key;
  uint32_t Base = S.WindowBase;
  for (unsigned T = 0; T < Code.size(); ++T) {
    Key.push_back(S.Ph[T]);
    Key.push_back(S.Ph[T] == InTile ? int64_t(S.Tile[T] - Base) : 0);
    Key.push_back(S.Idx[T]);
  }
  Key.push_back(OuterTrips ? Base : std::min<uint32_t>(Base, 1));
  Key.push_back(int64_t(S.Window.size()));
  Key.insert(Key.end(), S.Window.begin(), S.Window.end());
  for (unsigned R = 0; R < NR; ++R) {
    std::vector<size_t> Slots;
    for (unsigned T : Producers[R])
      Slots.insert(Slots.end(), {at(T, R, Acq), at(T, R, Com)});
    for (unsigned T : Consumers[R])
      Slots.insert(Slots.end(), {at(T, R, Wai), at(T, R, Rel)});
    if (auto It = Rings.find(R); It != Rings.end())
      for (unsigned T = 0; T < It->second.Before.size(); ++T)
        if (It->second.Before[T] >= 0) // a position's takes and passes
          Slots.insert(Slots.end(), {at(T, R, Wai), at(T, R, Com)});
    uint64_t Min = UINT64_MAX;
    for (size_t I : Slots)
      Min = std::min(Min, S.Ctr[I]);
    for (size_t I : Slots)
      Key.push_back(int64_t(S.Ctr[I] - Min));
  }
  return Key;
}

std::vector<TileSequenceResult::Blocked> Machine::stuck(const State &S) const {
  std::vector<TileSequenceResult::Blocked> Out;
  for (unsigned T = 0; T < Code.size(); ++T)
    if (const Step *St = next(S, T))
      Out.push_back(
          {T, St->Loc, St->Kind, St->Res, S.Ph[T] == InTile, S.Tile[T]});
  return Out;
}

} // namespace

TileSequenceResult checkTileSequences(const Program &P, const Kernel &K,
                                      const KernelPlan &Plan,
                                      const std::vector<const Program *> &Views,
                                      unsigned MaxStates) {
  TileSequenceResult R;
  Machine M(P, K, Plan, Views);
  if (!M.unsupported().empty()) {
    R.Why = M.unsupported();
    return R;
  }
  struct Decision {
    int Parent, Choice;
  };
  std::vector<Decision> Decisions;
  std::deque<State> Queue;
  std::set<std::vector<int64_t>> Seen;
  // Breadth first: the first deadlock found has the fewest tiles.
  auto Visit = [&](State S) {
    M.run(S);
    if (M.allDone(S))
      return false;
    if (!M.needsChoice(S)) {
      R.V = TileSequenceResult::Verdict::Deadlock;
      R.Stuck = M.stuck(S);
      for (int N = S.Node; N >= 0; N = Decisions[size_t(N)].Parent) {
        int C = Decisions[size_t(N)].Choice;
        R.Ended = R.Ended || C == EndHere || (C & 1);
        if (C != EndHere)
          R.Tiles.insert(R.Tiles.begin(), unsigned(C / 2));
      }
      return true;
    }
    M.trim(S);
    if (S.Window.size() > MaxLag) {
      R.Why = "a task ran more than " + std::to_string(MaxLag) +
              " tiles ahead of another";
      return true;
    }
    if (!Seen.insert(M.key(S)).second)
      return false;
    if (Seen.size() > MaxStates) {
      R.Why = "the search passed " + std::to_string(MaxStates) + " states";
      return true;
    }
    Queue.push_back(std::move(S));
    return false;
  };
  bool Stop = Visit(M.initial());
  while (!Stop && !Queue.empty()) {
    State S = std::move(Queue.front());
    Queue.pop_front();
    for (int C : M.choices(S)) {
      State N = S;
      N.Node = int(Decisions.size());
      Decisions.push_back({S.Node, C});
      M.decide(N, C);
      if ((Stop = Visit(std::move(N))))
        break;
    }
  }
  R.States = unsigned(Seen.size());
  if (!Stop)
    R.V = TileSequenceResult::Verdict::Proven;
  return R;
}

} // namespace detail
} // namespace ts
