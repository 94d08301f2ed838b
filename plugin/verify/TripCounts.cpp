//===- TripCounts.cpp - Which trip counts decide every trip count ---------===//
//
// Tasks that exchange stages run the same runtime trip count N, or N plus a
// known constant. One run per N decides that N (Simulation.h); the runs
// from 0 to a bound K derived from the schedule's steady state decide every
// N (docs/verifier.md, "Every trip count"). Constant trip counts are exact:
// past the steady state a run repeats with the period, so a large count is
// simulated as the smallest count of the same phase.
//
//===----------------------------------------------------------------------===//
#include "verify/Simulation.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

namespace ts {
using namespace detail;

namespace {

/// Rounds of the infinite run spent looking for the steady state.
constexpr uint64_t SteadyRounds = 400000;
/// Largest K (or constant) simulated trip by trip.
constexpr uint64_t MaxDirectTrips = 4096;
constexpr uint64_t MaxRangeRuns =
    1 << 14; ///< Trip counts one coverage may ask for.

/// Trip counts of the kernel's tasks as functions of one unknown N.
struct TripModel {
  const Program &P;
  const Kernel &K;
  std::map<std::string, int64_t> MinOffset; ///< Per symbolic key.
  int64_t Lo = 0;                           ///< Below it every loop is empty.
  bool Symbolic = false;

  TripModel(const Program &P, const Kernel &K) : P(P), K(K) {
    for (unsigned TI : K.Tasks) {
      const Domain &D = P.Tasks[TI].Dom;
      std::string Key = D.symbolicKey();
      if (!loops(P.Tasks[TI]) || Key.empty())
        continue;
      Symbolic = true;
      auto [It, New] = MinOffset.insert({Key, D.tripOffset()});
      if (!New)
        It->second = std::min(It->second, D.tripOffset());
    }
    for (unsigned TI : K.Tasks) {
      const Domain &D = P.Tasks[TI].Dom;
      if (loops(P.Tasks[TI]) && !D.symbolicKey().empty())
        Lo = std::min(Lo, -(D.tripOffset() - MinOffset[D.symbolicKey()]));
    }
  }

  /// Constant domains keep their count, reduced by `Shift` periods.
  std::vector<uint64_t> trips(int64_t N, uint64_t Shift = 0) const {
    std::vector<uint64_t> Out;
    for (unsigned TI : K.Tasks) {
      const Domain &D = P.Tasks[TI].Dom;
      if (std::optional<uint64_t> C = D.constantTrips()) {
        Out.push_back(*C > Shift ? *C - Shift : 0);
        continue;
      }
      auto Min = MinOffset.find(D.symbolicKey());
      if (Min == MinOffset.end()) { // No op in its loop: the count is moot.
        Out.push_back(0);
        continue;
      }
      int64_t T = N + D.tripOffset() - Min->second;
      Out.push_back(uint64_t(std::max<int64_t>(0, T)));
    }
    return Out;
  }

  /// For the steady state. A loop with no unguarded take or hand-back
  /// runs the same protocol ops (head, first, last, tail) for every N >= 2,
  /// and nothing waits inside it, so 2 stands for all N (Kahn: timing does
  /// not matter).
  std::vector<uint64_t> infinite() const {
    std::vector<uint64_t> Out;
    for (unsigned TI : K.Tasks) {
      const Task &T = P.Tasks[TI];
      bool Coupled = std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
        return O.Sec == Section::Loop && runsInMiddle(O.G) &&
               O.Kind != OpKind::Work && O.Kind != OpKind::TryAcquire &&
               O.Kind != OpKind::TryWait && O.onResource() &&
               isPipelined(P.Resources[O.Resource].Kind);
      });
      Out.push_back(!loops(T) ? 0 : Coupled ? InfiniteTrips : 2);
    }
    return Out;
  }

  std::string name(int64_t N, const std::vector<uint64_t> &Trips) const {
    std::set<uint64_t> Distinct;
    for (size_t I = 0; I < K.Tasks.size(); ++I)
      if (loops(P.Tasks[K.Tasks[I]]))
        Distinct.insert(Trips[I]);
    std::string Out;
    if (Distinct.size() <= 1) {
      Out = "trip count " +
            std::to_string(Distinct.empty() ? 0 : *Distinct.begin());
    } else {
      Out = "trip counts";
      for (size_t I = 0; I < K.Tasks.size(); ++I)
        if (loops(P.Tasks[K.Tasks[I]]))
          Out += (Out.size() > 11 ? ", " : " ") + P.Tasks[K.Tasks[I]].Name +
                 " " + std::to_string(Trips[I]);
    }
    return bound(N) + Out;
  }

  /// "p.n = -1: " when bounds with offsets make the symbol's value matter.
  std::string bound(int64_t N) const {
    for (unsigned TI : K.Tasks) {
      const Domain &D = P.Tasks[TI].Dom;
      if (!loops(P.Tasks[TI]) || D.symbolicKey().empty() || !D.Step ||
          *D.Step != 1)
        continue;
      bool Offsets =
          std::any_of(K.Tasks.begin(), K.Tasks.end(), [&](unsigned U) {
            return loops(P.Tasks[U]) &&
                   P.Tasks[U].Dom.symbolicKey() == D.symbolicKey() &&
                   P.Tasks[U].Dom.tripOffset() != 0;
          });
      if (!Offsets)
        return "";
      std::string X =
          D.StartSym.empty() ? D.EndSym : D.EndSym + " - (" + D.StartSym + ")";
      return X + " = " + std::to_string(N - MinOffset.at(D.symbolicKey())) +
             ": ";
    }
    return "";
  }
};

/// Per-iteration takes and hand-backs are equal for every participant of
/// every pipeline: then the steady state is a function of relative
/// positions alone. Otherwise totals differ for all N >= 1 but at most one,
/// so the runs at N = 1 and 2 fail.
bool balancedRates(const Program &P, const KernelPlan &Plan) {
  for (const PipelinePlan &PP : Plan.Pipelines) {
    std::set<unsigned> Rates;
    auto Count = [&](unsigned TI, OpKind Kind) {
      const Task &T = P.Tasks[TI];
      return unsigned(
          std::count_if(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
            return O.Resource == PP.Resource && O.Kind == Kind &&
                   O.Sec == Section::Loop && runsInMiddle(O.G);
          }));
    };
    for (unsigned TI : PP.Producers) {
      Rates.insert(Count(TI, OpKind::Acquire));
      Rates.insert(Count(TI, OpKind::Commit));
    }
    for (unsigned TI : PP.Consumers) {
      Rates.insert(Count(TI, OpKind::Wait));
      Rates.insert(Count(TI, OpKind::Release));
    }
    if (Rates.size() > 1)
      return false;
  }
  // A ring turns in lockstep: each position takes and passes as often.
  for (const TurnPlan &TP : Plan.Turns) {
    std::set<unsigned> Rates;
    for (unsigned TI : TP.Ring)
      for (OpKind Kind : {OpKind::Take, OpKind::Pass})
        Rates.insert(unsigned(std::count_if(
            P.Tasks[TI].Ops.begin(), P.Tasks[TI].Ops.end(), [&](const Op &O) {
              return O.Resource == TP.Resource && O.Kind == Kind &&
                     O.Sec == Section::Loop && runsInMiddle(O.G);
            })));
    if (Rates.size() > 1)
      return false;
  }
  return true;
}

struct Coverage {
  std::vector<int64_t> Ns; ///< Values of N to run.
  uint64_t Shift = 0;      ///< Periods taken off constant counts.
  std::string Text;
  bool Covered = true;
};

void boundWarning(const Kernel &K, uint64_t Bound, const std::string &Why,
                  DiagList &Out) {
  Diag &D = report(Out, Check::Bound, K.Loc,
                   "trip counts of kernel " + quote(K.Name) +
                       " are verified only up to " + std::to_string(Bound) +
                       ": " + Why);
  note(
      D, K.Loc,
      "raise the bound with -Xclang -plugin-arg-ts -Xclang -trip-bound=N, or "
      "make the producer and consumer loops hand stages over at the same rate");
}

/// N past which no run tells anything new, or 0 when no steady state is
/// found (docs/verifier.md, "Every trip count").
struct Decision {
  uint64_t Decides = 0;
  uint64_t Period = 0;
  std::string Why;
};

/// Kernel task positions grouped by the pipelines and turns that connect
/// them.
std::vector<std::vector<size_t>> components(const Program &P, const Kernel &K,
                                            const KernelPlan &Plan) {
  std::vector<size_t> Parent(K.Tasks.size());
  for (size_t I = 0; I < Parent.size(); ++I)
    Parent[I] = I;
  std::function<size_t(size_t)> Find = [&](size_t I) {
    return Parent[I] == I ? I : Parent[I] = Find(Parent[I]);
  };
  auto Pos = [&](unsigned TI) {
    return size_t(std::find(K.Tasks.begin(), K.Tasks.end(), TI) -
                  K.Tasks.begin());
  };
  for (const PipelinePlan &PP : Plan.Pipelines) {
    std::vector<unsigned> Side = PP.Producers;
    Side.insert(Side.end(), PP.Consumers.begin(), PP.Consumers.end());
    for (unsigned TI : Side)
      Parent[Find(Pos(TI))] = Find(Pos(Side.front()));
  }
  for (const TurnPlan &TP : Plan.Turns) // a take waits for another's pass
    for (unsigned TI : TP.Ring)
      Parent[Find(Pos(TI))] = Find(Pos(TP.Ring.front()));
  std::map<size_t, std::vector<size_t>> Groups;
  for (size_t I = 0; I < Parent.size(); ++I)
    Groups[Find(I)].push_back(I);
  std::vector<std::vector<size_t>> Out;
  for (auto &[Root, G] : Groups)
    Out.push_back(G);
  return Out;
}

Decision decide(const Program &P, const Kernel &K, const KernelPlan &Plan,
                const TripModel &M) {
  // Unbalanced rates fail by N = 2; running past the stages as well shows
  // the deadlock that accumulating stages cause, the clearer story.
  uint64_t MaxStages = 1;
  for (const PipelinePlan &PP : Plan.Pipelines)
    MaxStages = std::max<uint64_t>(MaxStages, P.Resources[PP.Resource].Stages);
  if (!balancedRates(P, Plan))
    return {MaxStages + 2, 0, "per-iteration rates differ"};
  // Tasks that share no pipeline never wait for each other: each group has
  // its own steady state, and the largest bound covers them all.
  Decision All{0, 1, ""};
  for (const std::vector<size_t> &Group : components(P, K, Plan)) {
    std::vector<uint64_t> Trips = M.infinite();
    for (size_t I = 0; I < Trips.size(); ++I)
      if (std::find(Group.begin(), Group.end(), I) == Group.end())
        Trips[I] = 0;
    Simulation Inf(P, K, Plan, Trips, "steady state");
    // Past stages-many iterations per pipeline a balanced schedule repeats
    // or stalls; a longer search finds nothing the bound would not.
    uint64_t Stages = 0;
    for (const PipelinePlan &PP : Plan.Pipelines)
      Stages += P.Resources[PP.Resource].Stages;
    SteadyState St = Inf.findSteadyState(SteadyRounds, 64 + 8 * Stages);
    Decision D;
    // A run of N coincides with the infinite one while every task is short
    // of iteration N - 1; past the furthest iteration reached before the
    // period closes (or the deadlock), runs N and N - P are translates.
    if (St.Periodic)
      D = {std::max(St.MaxIt, St.Start + St.MaxLag + St.Period) + 3, St.Period,
           "steady state from iteration " + std::to_string(St.Start) +
               " with period " + std::to_string(St.Period)};
    else if (St.Finished) // Only guarded ops in loops: the guards decide.
      D = {3, 1, "no loop repeats a protocol op"};
    else if (St.Deadlocked)
      D = {St.MaxIt + 3, 1,
           "every long run blocks by iteration " + std::to_string(St.MaxIt)};
    else
      return {0, 0,
              "no steady state within " + std::to_string(SteadyRounds) +
                  " steps or iteration " + std::to_string(64 + 8 * Stages) +
                  " (the search limit)"};
    All.Period = std::lcm(All.Period, D.Period);
    if (D.Decides > All.Decides) {
      All.Decides = D.Decides;
      All.Why = D.Why;
    }
  }
  if (All.Decides == 0)
    return {3, 1, "no loop repeats a protocol op"};
  return All;
}

/// ts::trip_bound(N): runtime counts 0..N, said at the attribute; constant
/// counts stay exact, and the attribute then changes nothing, also said.
Coverage optedOut(const Kernel &K, const TripModel &M, DiagList &Out) {
  Coverage Cv;
  std::string N = std::to_string(K.TripBound);
  if (!M.Symbolic) {
    Diag &D = report(Out, Check::Bound, K.TripBoundOptOut,
                     "ts::trip_bound(" + N + ") has no effect on kernel " +
                         quote(K.Name) +
                         ": its trip counts are constants, verified exactly");
    note(D, K.TripBoundOptOut, "remove ts::trip_bound");
    Cv.Ns.push_back(0);
    Cv.Text = "exact trip counts";
    return Cv;
  }
  Cv.Covered = false;
  Diag &D =
      report(Out, Check::Bound, K.TripBoundOptOut,
             "kernel " + quote(K.Name) +
                 " opts out of the every-trip-count proof: trip counts above " +
                 N + " are not verified");
  note(D, K.TripBoundOptOut,
       "remove ts::trip_bound(" + N + ") to verify every trip count");
  for (int64_t I = M.Lo; I <= int64_t(K.TripBound); ++I)
    Cv.Ns.push_back(I);
  Cv.Text = "trip counts " + std::to_string(M.Lo) + " to " + N +
            " only (ts::trip_bound, see ts-bound)";
  return Cv;
}

Coverage coverage(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  const TripModel &M, DiagList &Out) {
  Coverage Cv;
  // Offsets far apart (domains differing by millions of iterations) would
  // ask for millions of runs: the last MaxRangeRuns of them are checked and
  // the report says the rest were not.
  auto Range = [&](int64_t Hi) {
    int64_t From = M.Lo;
    if (Hi - M.Lo > int64_t(MaxRangeRuns)) {
      From = Hi - int64_t(MaxRangeRuns);
      Cv.Covered = false;
      boundWarning(K, uint64_t(Hi),
                   "the domains' bounds differ by more than " +
                       std::to_string(MaxRangeRuns) +
                       " iterations; runs below N = " + std::to_string(From) +
                       " are not checked",
                   Out);
    }
    for (int64_t N = From; N <= Hi; ++N)
      Cv.Ns.push_back(N);
  };
  if (K.TripBoundOptOut)
    return optedOut(K, M, Out);
  Decision Dc = decide(P, K, Plan, M);
  uint64_t Decides = Dc.Decides;
  const std::string &Steady = Dc.Why;
  if (M.Symbolic) {
    if (Decides == 0 || Decides > MaxDirectTrips) {
      Cv.Covered = false;
      boundWarning(K, Plan.TripBound,
                   Decides ? "the steady state starts past iteration " +
                                 std::to_string(MaxDirectTrips)
                           : Dc.Why,
                   Out);
      Range(int64_t(Plan.TripBound));
      Cv.Text = "trip counts " + std::to_string(M.Lo) + " to " +
                std::to_string(Plan.TripBound) + " only (see ts-bound)";
      return Cv;
    }
    Range(int64_t(Decides));
    Cv.Text = "every trip count (runs " + std::to_string(M.Lo) + " to " +
              std::to_string(Decides) + " decide all: " + Steady + ")";
    return Cv;
  }
  // Constant counts: exact, shortened by whole periods past the steady state.
  uint64_t Min = InfiniteTrips;
  for (unsigned TI : K.Tasks)
    if (loops(P.Tasks[TI]))
      Min = std::min(Min, *P.Tasks[TI].Dom.constantTrips());
  Cv.Ns.push_back(0);
  if (Min != InfiniteTrips && Decides && Min > MaxDirectTrips &&
      Min > Decides) {
    uint64_t Step = Dc.Period ? Dc.Period : 1;
    Cv.Shift = (Min - Decides) / Step * Step;
    Cv.Text = "exact trip counts (" + Steady + "; simulated " +
              std::to_string(Cv.Shift) + " iterations shorter, same phase)";
    return Cv;
  }
  uint64_t Max = 0;
  for (unsigned TI : K.Tasks)
    if (loops(P.Tasks[TI]))
      Max = std::max(Max, *P.Tasks[TI].Dom.constantTrips());
  if (Max > MaxDirectTrips) {
    Cv.Covered = false;
    Cv.Shift = Max - MaxDirectTrips;
    boundWarning(K, MaxDirectTrips,
                 Dc.Why.empty() ? "no steady state was found" : Dc.Why, Out);
    Cv.Text = "constant trip counts shortened to " +
              std::to_string(MaxDirectTrips) + " (see ts-bound)";
    return Cv;
  }
  Cv.Text = "exact trip counts";
  return Cv;
}

} // namespace

std::vector<uint64_t> tripCountsAt(const Program &P, const Kernel &K,
                                   int64_t N) {
  return TripModel(P, K).trips(N);
}

int64_t smallestTripCount(const Program &P, const Kernel &K) {
  return TripModel(P, K).Lo;
}

bool runFails(const Program &P, const Kernel &K, const KernelPlan &Plan,
              const std::vector<uint64_t> &Trips) {
  Simulation S(P, K, Plan, Trips, "run");
  S.run();
  return !S.Findings.empty();
}

std::optional<uint64_t> decidingTripCount(const Program &P, const Kernel &K,
                                          const KernelPlan &Plan) {
  uint64_t N = decide(P, K, Plan, TripModel(P, K)).Decides;
  return N ? std::optional<uint64_t>(N) : std::nullopt;
}

namespace {

SimResult creditRuns(const Program &P, const Kernel &K, const KernelPlan &Plan,
                     DiagList &Out, std::string *CoverageText,
                     bool SuggestStages);

/// One or two stages more of `R` with which every trip count passes the
/// credit checks: a deadlock the user fixes by deepening the pipeline.
std::optional<unsigned> stagesThatFix(const Program &P, const Kernel &K,
                                      const KernelPlan &Plan, unsigned R) {
  for (unsigned Extra = 1; Extra <= 2; ++Extra) {
    Program More = P;
    More.Resources[R].Stages += Extra;
    DiagList Found;
    creditRuns(More, K, Plan, Found, nullptr, /*SuggestStages=*/false);
    if (std::none_of(Found.begin(), Found.end(),
                     [](const Diag &D) { return D.Group == Check::Credit; }))
      return More.Resources[R].Stages;
  }
  return std::nullopt;
}

SimResult creditRuns(const Program &P, const Kernel &K, const KernelPlan &Plan,
                     DiagList &Out, std::string *CoverageText,
                     bool SuggestStages) {
  TripModel M(P, K);
  Coverage Cv = coverage(P, K, Plan, M, Out);
  if (CoverageText)
    *CoverageText = Cv.Text;

  // The smallest failing trip count tells the story and larger ones repeat
  // it; only a deadlock that a smaller trip count showed as mere imbalance
  // is still worth reporting. The first deadlock ends the checks.
  std::set<std::string> Seen;
  SimResult Shown;
  bool Failed = false, HaveShown = false;
  uint64_t Readable = 2;
  for (const PipelinePlan &PP : Plan.Pipelines)
    Readable =
        std::max<uint64_t>(Readable, P.Resources[PP.Resource].Stages + 1);
  for (int64_t N : Cv.Ns) {
    std::vector<uint64_t> Trips = M.trips(N, Cv.Shift);
    std::string Name = M.name(N, Trips);
    Simulation Sim(P, K, Plan, Trips, Name);
    SimResult R = Sim.run();
    if (Failed && !R.Deadlocked)
      continue;
    if (Sim.Findings.empty())
      checkOrders(P, K, Plan, Trips, Name, Sim.Findings);
    bool Finds = !Sim.Findings.empty();
    // Tables: the failing run, or a short passing one.
    if (Finds || !HaveShown || (!Failed && N <= int64_t(Readable))) {
      Shown = std::move(R);
      HaveShown = true;
    }
    for (auto &[Key, D] : Sim.Findings) {
      if (!Seen.insert(Key + "@" + std::to_string(D.Loc)).second)
        continue;
      if (SuggestStages && Sim.DeadlockResource &&
          Key.rfind("deadlock:", 0) == 0)
        if (auto Fix = stagesThatFix(P, K, Plan, *Sim.DeadlockResource))
          note(D, P.Resources[*Sim.DeadlockResource].Loc,
               "ts::stages(" + std::to_string(*Fix) + ") on " +
                   quote(P.Resources[*Sim.DeadlockResource].Name) +
                   " removes it: every trip count then passes");
      Out.push_back(std::move(D));
    }
    if (Shown.Deadlocked && Finds)
      break;
    Failed = Failed || Finds;
  }
  return Shown;
}

} // namespace

SimResult checkCredits(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, DiagList &Out,
                       std::string *CoverageText) {
  return creditRuns(P, K, Plan, Out, CoverageText, /*SuggestStages=*/true);
}

} // namespace ts
