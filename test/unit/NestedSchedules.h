//===- NestedSchedules.h - Random nested schedules, inner counts -*- C++
//-*-===//
//
// Schedules whose tasks nest a k-loop in their tile loop, and the check of
// the inner-count bound (docs/verifier.md, "Nested domains") against
// explicit enumeration of inner counts. Shared by NestedPropertyTest.cpp
// (Generator.h schedules nested), NestedShapesTest.cpp (stage operations
// before, after and across the k-loop) and test/fuzz/FuzzCore.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_TEST_UNIT_NESTEDSCHEDULES_H
#define LIBTS_TEST_UNIT_NESTEDSCHEDULES_H

#include "Builders.h"
#include "Generator.h"
#include "plan/NestedViews.h"
#include "verify/Nested.h"
#include "verify/Simulation.h"
#include "verify/TileSequences.h"
#include "verify/Verify.h"

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace ts::test {

/// Head -> tile loop before the k-loop, loop -> k-loop, tail -> tile loop
/// after it. Every task's k-loop runs the same unknown count "k".
inline void nestLoops(Program &P) {
  for (Task &T : P.Tasks) {
    Domain D;
    D.Present = true;
    D.StartText = "0";
    D.Start = 0;
    D.StepText = "1";
    D.Step = 1;
    D.EndText = D.EndSym = "k";
    D.Loc = T.Dom.Loc + 50;
    T.Inners = {D};
    for (Op &O : T.Ops)
      O.Sec = O.Sec == Section::Loop ? Section::Inner : Section::Loop;
  }
}

/// One side's ops on one resource: per k-step, or per tile: whole stages
/// before or after the k-loop, or held across it (taken before, handed
/// back after: the attention kernel's Q tile).
struct Side {
  unsigned Before = 0, PerStep = 0, After = 0, Held = 0;
};

struct Shape {
  unsigned Tasks = 0;
  /// Per task: k-steps peeled, done before its k-loop, which then starts
  /// there (ts::domain(Peel, k)); empty: none.
  std::vector<unsigned> Peel;
  struct Res {
    unsigned Stages, Prod, Cons;
    Side P, C;
    /// The k-loop its per-step ops are in; Loops: in every one of them.
    unsigned Loop = 0;
  };
  /// k-loops per tile, one after the other: loop 0 runs "k" steps, loop 1
  /// "j" (each task has them all, some maybe without ops).
  unsigned Loops = 1;
  std::vector<Res> Resources;
};

/// A balanced nested shape: per tile, each resource's producer hands
/// over as many stages as its consumer takes; per k-step 0 to MaxPerStep
/// stages on both sides of a resource.
inline Shape randomShape(std::mt19937_64 &Rng, unsigned MaxPerStep = 1) {
  auto Pick = [&](unsigned Lo, unsigned Hi) {
    return std::uniform_int_distribution<unsigned>(Lo, Hi)(Rng);
  };
  Shape S;
  S.Tasks = Pick(2, 4);
  unsigned NR = Pick(1, 3), Total = 0;
  for (unsigned R = 0; R < NR; ++R) {
    Shape::Res X;
    X.Stages = Pick(1, 3);
    Total += X.Stages;
    X.Prod = Pick(0, S.Tasks - 1);
    X.Cons = (X.Prod + Pick(1, S.Tasks - 1)) % S.Tasks;
    S.Resources.push_back(X);
  }
  for (Shape::Res &X : S.Resources) {
    unsigned Step = Pick(0, MaxPerStep); // per k-step on both sides, or none
    unsigned Tile = Pick(Step ? 0 : 1, 2 * Total + 2);
    auto Split = [&]() {
      unsigned B = Pick(0, Tile), H = Pick(0, Tile - B);
      return Side{B, Step, Tile - B - H, H};
    };
    X.P = Split();
    X.C = Split();
  }
  return S;
}

namespace shape_detail {

struct Step {
  unsigned R;
  Role Ro;
  enum { Whole, Take, Give } What;
};

inline void emit(TaskRef &T, const Step &S) {
  bool P = S.Ro == Role::Producer;
  if (S.What == Step::Whole)
    P ? T.fill(S.R) : T.drain(S.R);
  else if (S.What == Step::Take)
    P ? T.acquire(S.R).pwork(S.R) : T.wait(S.R).cwork(S.R);
  else
    P ? T.commit(S.R) : T.release(S.R);
}

/// The resources' op lists merged at random, each list's order kept.
inline void emitMerged(TaskRef &T, const std::vector<std::vector<Step>> &Lists,
                       std::mt19937_64 &Rng) {
  for (const Step &S :
       mergeInOrder(Lists, [&](size_t L) { return size_t(Rng() % L); }))
    emit(T, S);
}

/// Before the k-loop: whole stages, then the takes of held ones; after:
/// the held ones handed back (oldest first), then whole stages.
inline std::vector<Step> part(unsigned R, Role Ro, const Side &S, bool Before) {
  std::vector<Step> Out;
  auto Add = [&](unsigned N, auto What) {
    for (unsigned I = 0; I < N; ++I)
      Out.push_back({R, Ro, What});
  };
  if (Before) {
    Add(S.Before, Step::Whole);
    Add(S.Held, Step::Take);
  } else {
    Add(S.Held, Step::Give);
    Add(S.After, Step::Whole);
  }
  return Out;
}

} // namespace shape_detail

/// The schedule of a shape: tile loop "n", k-loop "k"; Rng merges each
/// task's ops on its resources.
inline Builder buildShape(const Shape &S, std::mt19937_64 &Rng) {
  using shape_detail::Step;
  Builder B;
  for (size_t R = 0; R < S.Resources.size(); ++R)
    B.resource("R" + std::to_string(R), PipelineKind::AsyncAsync,
               S.Resources[R].Stages, 1024);
  for (unsigned TI = 0; TI < S.Tasks; ++TI) {
    TaskRef T = B.task("t" + std::to_string(TI), TI, 1);
    std::vector<std::pair<unsigned, Role>> Mine;
    for (size_t R = 0; R < S.Resources.size(); ++R) {
      if (S.Resources[R].Prod == TI) {
        T.produces(R);
        Mine.push_back({unsigned(R), Role::Producer});
      }
      if (S.Resources[R].Cons == TI) {
        T.consumes(R);
        Mine.push_back({unsigned(R), Role::Consumer});
      }
    }
    auto SideOf = [&](unsigned R, Role Ro) -> const Side & {
      return Ro == Role::Producer ? S.Resources[R].P : S.Resources[R].C;
    };
    T.loop(std::nullopt, "n").body();
    std::vector<std::vector<Step>> Before, Inner, After;
    std::vector<std::vector<std::vector<Step>>> Later(S.Loops);
    for (auto [R, Ro] : Mine) {
      Before.push_back(shape_detail::part(R, Ro, SideOf(R, Ro), true));
      std::vector<Step> Steps(SideOf(R, Ro).PerStep, Step{R, Ro, Step::Whole});
      for (unsigned M = 0; M < S.Loops; ++M)
        (M == 0 ? Inner : Later[M])
            .push_back(M == S.Resources[R].Loop ||
                               S.Resources[R].Loop == S.Loops
                           ? Steps
                           : std::vector<Step>{});
      After.push_back(shape_detail::part(R, Ro, SideOf(R, Ro), false));
    }
    // Peeled steps first: before the stages held across the k-loop are
    // taken, so that handBackOldestFirst pairs those as it should.
    unsigned Peel = TI < S.Peel.size() ? S.Peel[TI] : 0;
    for (unsigned I = 0; I < Peel; ++I)
      shape_detail::emitMerged(T, Inner, Rng);
    shape_detail::emitMerged(T, Before, Rng);
    T.inner(std::nullopt, "k");
    if (Peel) {
      Domain &D = B.P.Tasks.back().Inners[0];
      D.Start = D.StartOff = Peel;
      D.StartText = std::to_string(Peel);
    }
    shape_detail::emitMerged(T, Inner, Rng);
    for (unsigned L = 1; L < S.Loops; ++L) {
      T.body();
      T.inner(std::nullopt, L == 1 ? "j" : "j" + std::to_string(L));
      shape_detail::emitMerged(T, Later[L], Rng);
    }
    T.body();
    shape_detail::emitMerged(T, After, Rng);
  }
  return B;
}

/// buildShape names, in each hand-back, the latest stage its task took of
/// that resource (as Builders.h does), so with two or more stages held
/// across the k-loop the first hand-back returns the newest: ts-ownership
/// refuses those shapes before any count matters. This names the oldest
/// stage held in the tile loop instead, as a kernel would write it (k-loop
/// ops stay as built). Opt-in: NestedShapesTest's seeds keep their shapes.
inline void handBackOldestFirst(Program &P) {
  for (Task &T : P.Tasks) {
    std::map<std::pair<unsigned, Role>, std::vector<int>> Held;
    for (Op &O : T.Ops) {
      if (O.Sec != Section::Loop || !O.onResource())
        continue;
      std::vector<int> &Q = Held[{O.Resource, O.R}];
      if (O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait) {
        Q.push_back(O.Stage);
      } else if ((O.Kind == OpKind::Commit || O.Kind == OpKind::Release) &&
                 !Q.empty()) {
        O.Stage = Q.front();
        Q.erase(Q.begin());
      }
    }
  }
}

/// A nested schedule's verdict against every inner count up to a limit.
struct InnerCheck {
  /// False when roles or nesting refuse it before any count runs (both
  /// ways, so there is nothing to compare).
  bool Checked = false;
  bool Verdict = false;              ///< verifyKernel reports an error.
  std::optional<uint64_t> FirstFail; ///< First inner count with an error.
  uint64_t Bound = 0;                ///< Largest inner count verifyKernel runs.
};

/// Per k-loop of K (nestsOf order: one per nested task here), its count
/// when the one that starts first runs N steps: a loop from a constant
/// start runs that many fewer (at least 0).
inline std::vector<uint64_t> peeledCounts(const Program &P, const Kernel &K,
                                          uint64_t N) {
  int64_t First = INT64_MAX;
  for (unsigned TI : K.Tasks)
    for (const Domain &D : P.Tasks[TI].Inners)
      First = std::min(First, D.Start.value_or(0));
  std::vector<uint64_t> Counts;
  for (unsigned TI : K.Tasks)
    for (const Domain &D : P.Tasks[TI].Inners) {
      uint64_t Fewer = uint64_t(D.Start.value_or(0) - First);
      Counts.push_back(N > Fewer ? N - Fewer : 0);
    }
  return Counts;
}

/// Whether a run where the first-starting k-loop runs N steps traps before
/// anything can block: a nonempty() k-loop that its task reaches with no
/// blocking op before it (trapsWhenEmpty) runs none.
inline bool trapsFirst(const Program &P, const Kernel &K, uint64_t N) {
  std::vector<uint64_t> Counts = peeledCounts(P, K, N);
  std::vector<Nest> Nests = nestsOf(P, K);
  for (size_t I = 0; I < Nests.size(); ++I)
    if (trapsWhenEmpty(P.Tasks[K.Tasks[Nests[I].Task]], Nests[I].Loop) &&
        Counts[I] == 0)
      return true;
  return false;
}

/// Enumerates inner counts 0 to Last(bound) with verifyInnerCount (each
/// for every tile count), stopping at the first with an error.
template <class LastFn>
InnerCheck checkInnerCounts(const Program &P, const Kernel &K, LastFn Last) {
  InnerCheck C;
  KernelPlan Plan = planFor(P, K);
  DiagList Structure;
  checkRoles(P, K, Structure);
  checkNesting(P, K, Plan, Structure);
  if (hasError(Structure))
    return C;
  C.Checked = true;
  C.Bound = innerTripCounts(P, K).back();
  uint64_t Hi = Last(C.Bound);
  for (uint64_t N = 0; N <= Hi && !C.FirstFail; ++N)
    if (!trapsFirst(P, K, N) &&
        hasError(verifyInnerCount(P, K, Plan, peeledCounts(P, K, N)).Diags))
      C.FirstFail = N;
  C.Verdict = hasError(verifyKernel(P, K, Plan).Diags);
  return C;
}

/// Two k-loops per tile (Shape::Loops == 2, every task has both): the
/// verdict against every pair of counts (k, j) up to Hi, in order of the
/// larger; FirstFail is the first failing pair's larger count, Bound the
/// largest count verifyKernel runs.
inline InnerCheck checkInnerGrid(const Program &P, const Kernel &K, uint64_t Hi,
                                 uint64_t *FailK = nullptr,
                                 uint64_t *FailJ = nullptr) {
  InnerCheck C;
  KernelPlan Plan = planFor(P, K);
  DiagList Structure;
  checkRoles(P, K, Structure);
  checkNesting(P, K, Plan, Structure);
  if (hasError(Structure))
    return C;
  C.Checked = true;
  for (const std::vector<uint64_t> &Ns : innerCounts(P, K).Counts)
    C.Bound = std::max(C.Bound, Ns.back());
  std::vector<Nest> Nests = nestsOf(P, K);
  for (uint64_t M = 0; M <= Hi && !C.FirstFail; ++M)
    for (uint64_t A = 0; A <= M && !C.FirstFail; ++A)
      for (auto [NK, NJ] :
           A == M
               ? std::vector<std::pair<uint64_t, uint64_t>>{{M, M}}
               : std::vector<std::pair<uint64_t, uint64_t>>{{A, M}, {M, A}}) {
        std::vector<uint64_t> Counts;
        for (const Nest &N : Nests)
          Counts.push_back(N.Loop == 0 ? NK : NJ);
        if (hasError(verifyInnerCount(P, K, Plan, Counts).Diags)) {
          C.FirstFail = M;
          if (FailK)
            *FailK = NK;
          if (FailJ)
            *FailJ = NJ;
          break;
        }
      }
  C.Verdict = hasError(verifyKernel(P, K, Plan).Diags);
  return C;
}

/// checkInnerCounts over the schedules Make(Seed) of Cases seeds.
struct InnerSweep {
  unsigned Checked = 0, Failing = 0;
  unsigned Disagree = 0; ///< Verdict and enumeration differ.
  unsigned Late = 0;     ///< The first failing count lies past the bound.
  /// Accepted schedules whose k-loops start at different steps (peels).
  unsigned AcceptedApart = 0;
  uint64_t LatestFail = 0, LargestBound = 0; ///< Over the schedules.
  std::string First; ///< The first disagreement or late failure.
};

template <class MakeFn, class LastFn>
InnerSweep sweepInnerCounts(uint64_t From, unsigned Cases, MakeFn Make,
                            LastFn Last) {
  InnerSweep W;
  for (uint64_t Seed = From; Seed < From + Cases; ++Seed) {
    Builder B = Make(Seed);
    InnerCheck C = checkInnerCounts(B.P, B.kernel(), Last);
    if (!C.Checked)
      continue;
    ++W.Checked;
    W.Failing += C.FirstFail.has_value();
    bool Bad = C.Verdict != C.FirstFail.has_value();
    bool Late = C.FirstFail && *C.FirstFail > C.Bound;
    W.Disagree += Bad;
    std::set<int64_t> Starts;
    for (const Task &T : B.P.Tasks)
      for (const Domain &D : T.Inners)
        Starts.insert(D.Start.value_or(0));
    W.AcceptedApart += !C.Verdict && Starts.size() > 1;
    W.Late += Late;
    W.LatestFail = std::max(W.LatestFail, C.FirstFail.value_or(0));
    W.LargestBound = std::max(W.LargestBound, C.Bound);
    if ((Bad || Late) && W.First.empty())
      W.First = std::string(Bad ? "disagreement" : "late failure") +
                " at seed " + std::to_string(Seed) + ": verdict " +
                (C.Verdict ? "refuses" : "accepts") + ", first failing count " +
                (C.FirstFail ? std::to_string(*C.FirstFail) : "none") +
                ", bound " + std::to_string(C.Bound);
  }
  return W;
}

/// Tiles whose k-loops run different counts (verify/TileSequences.h),
/// checked the plain way: the tile loop written out. First the k-loops
/// written out once per variant (plan/NestedViews.h).
inline std::vector<Program>
viewsOf(const Program &P, const Kernel &K,
        const std::vector<std::vector<uint64_t>> &Variants) {
  std::vector<Program> Views;
  for (const std::vector<uint64_t> &V : Variants)
    Views.push_back(innerUnrolled(P, K, V));
  return Views;
}

/// The search over sequences of Variants, on their views.
inline detail::TileSequenceResult
searchSequences(const Program &P, const Kernel &K, const KernelPlan &Plan,
                const std::vector<std::vector<uint64_t>> &Variants,
                unsigned MaxStates = 100000) {
  std::vector<Program> Views = viewsOf(P, K, Variants);
  std::vector<const Program *> Ptrs;
  for (const Program &V : Views)
    Ptrs.push_back(&V);
  return detail::checkTileSequences(P, K, Plan, Ptrs, MaxStates);
}

/// Every view checkPerTileCounts may ask for: each choice of IC's counts.
inline NestedViews viewMap(const Program &P, const Kernel &K,
                           const InnerCounts &IC) {
  NestedViews Views;
  std::vector<size_t> Pos(IC.Counts.size(), 0);
  do {
    std::vector<uint64_t> PerNest = countsPerNest(IC, Pos);
    Views[PerNest] = std::make_shared<Program>(innerUnrolled(P, K, PerNest));
  } while (nextCountChoice(Pos, IC));
  return Views;
}

/// The tile loop written out: tile t runs its k-loops as Views[Seq[t]],
/// then the loop ends.
inline Program writtenOut(const Kernel &K, const std::vector<Program> &Views,
                          const std::vector<unsigned> &Seq) {
  Program Flat = Views[0];
  for (unsigned TI : K.Tasks) {
    std::vector<Op> Ops;
    for (const Op &O : Flat.Tasks[TI].Ops)
      if (O.Sec == Section::Head)
        Ops.push_back(O);
    for (size_t T = 0; T < Seq.size(); ++T)
      for (Op O : Views[Seq[T]].Tasks[TI].Ops)
        if (O.Sec == Section::Loop && guardRuns(O.G, T, Seq.size())) {
          O.Sec = Section::Head;
          O.G = Guard::Always;
          Ops.push_back(O);
        }
    for (const Op &O : Flat.Tasks[TI].Ops)
      if (O.Sec == Section::Tail)
        Ops.push_back(O);
    Flat.Tasks[TI].Ops = Ops;
  }
  return Flat;
}

inline bool sequenceDeadlocks(const Kernel &K, const KernelPlan &Plan,
                              const std::vector<Program> &Views,
                              const std::vector<unsigned> &Seq) {
  Program Flat = writtenOut(K, Views, Seq);
  detail::Simulation Sim(Flat, K, Plan,
                         std::vector<uint64_t>(K.Tasks.size(), 0), "sequence");
  Sim.RecordEvents = false;
  Sim.runToQuiescence();
  return !Sim.allDone();
}

} // namespace ts::test

#endif
