//===- Nested.cpp - Tasks that exchange stages nest alike -----------------===//
//
// The views of plan/NestedViews.h write a nested task's k-loops out for one
// inner trip count each; they are sound only when tasks that exchange a
// resource's stages in k-loops do so in as many k-loops, paired in source
// order, with trip counts equal up to a constant, or exchange them per tile,
// outside their k-loops (ts-domain).
//
//===----------------------------------------------------------------------===//
#include "verify/Nested.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <map>
#include <optional>

namespace ts {
using namespace detail;

namespace {

bool innerTripsMatch(const Domain &A, const Domain &B) {
  if (A.constantTrips() || B.constantTrips())
    return A.constantTrips() == B.constantTrips();
  // Bounds of the same values: the counts differ by a constant (a peeled
  // first step), which the views write out exactly (innerCounts).
  return A.symbolicKey() == B.symbolicKey();
}

bool usesResource(const Task &T, unsigned R) {
  return std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.onResource() && O.Resource == R;
  });
}

/// T's k-loops (indices into Task::Inners) that take or hand back stages
/// (or turns) of R per step, in order. Work on a stage taken outside is no
/// exchange; an op on the first or last step only runs once per tile, as
/// one outside the loop does (the views write out which).
std::vector<unsigned> loopsUsing(const Task &T, unsigned R) {
  std::vector<unsigned> Out;
  for (const Op &O : T.Ops)
    if (O.Sec == Section::Inner && O.onResource() && O.Resource == R &&
        O.Kind != OpKind::Work && runsInMiddle(O.G) &&
        std::find(Out.begin(), Out.end(), O.Loop) == Out.end())
      Out.push_back(O.Loop);
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// Stages of R a task moves per tile (commits as producer, waits as
/// consumer, takes of a turn) when each class of k-loops runs a large
/// count: a constant plus so many per step of each class (a loop that runs
/// Fewer steps than its class subtracts those); nullopt when one of them
/// runs only on some iterations (a guard).
struct Moves {
  int64_t Const = 0;
  std::map<int, int64_t> PerClass;
};
std::optional<Moves> movesOf(const Program &P, const Kernel &K,
                             const InnerCounts &IC, unsigned TI, unsigned R) {
  const Task &T = P.Tasks[TI];
  size_t Pos =
      size_t(std::find(K.Tasks.begin(), K.Tasks.end(), TI) - K.Tasks.begin());
  Moves M;
  for (const Op &O : T.Ops) {
    if (!O.onResource() || O.Resource != R ||
        (O.Kind != OpKind::Commit && O.Kind != OpKind::Wait &&
         O.Kind != OpKind::Take) ||
        (O.Sec != Section::Loop && O.Sec != Section::Inner))
      continue;
    if (O.G != Guard::Always)
      return std::nullopt;
    if (O.Sec == Section::Loop) {
      ++M.Const;
      continue;
    }
    for (size_t N = 0; N < IC.Nests.size(); ++N)
      if (IC.Nests[N].Task == Pos && IC.Nests[N].Loop == O.Loop) {
        ++M.PerClass[IC.ClassOf[N]];
        M.Const -= int64_t(IC.Fewer[N]);
      }
  }
  return M;
}

/// k-loops of counts apart by a constant: for every count, both tasks move
/// as many stages of each resource they share per tile (the shorter loop's
/// missing steps done outside it: a peeled step). Why they may not, at the
/// first resource where they may not.
std::optional<std::string> unbalanced(const Program &P, const Kernel &K,
                                      unsigned A, unsigned B) {
  InnerCounts IC = innerCounts(P, K);
  const Task &TA = P.Tasks[A], &TB = P.Tasks[B];
  for (unsigned R = 0; R < P.Resources.size(); ++R) {
    if (!usesResource(TA, R) || !usesResource(TB, R))
      continue;
    std::optional<Moves> MA = movesOf(P, K, IC, A, R),
                         MB = movesOf(P, K, IC, B, R);
    std::string Of = " of " + quote(P.Resources[R].Name);
    if (!MA || !MB)
      return "a stage operation" + Of +
             " runs only on some iterations: with guards, k-loops must have "
             "equal bounds";
    if (MA->PerClass != MB->PerClass) {
      int64_t SA = 0, SB = 0;
      for (auto [C, N] : MA->PerClass)
        SA += N;
      for (auto [C, N] : MB->PerClass)
        SB += N;
      return "per k-step task " + quote(TA.Name) + " moves " +
             plural(uint64_t(SA), "stage") + Of + " and task " +
             quote(TB.Name) + " " + std::to_string(SB);
    }
    int64_t More = MA->Const - MB->Const;
    if (More != 0)
      return "per tile task " + quote(More > 0 ? TA.Name : TB.Name) +
             " moves " + plural(uint64_t(More > 0 ? More : -More), "stage") +
             Of + " more than task " + quote(More > 0 ? TB.Name : TA.Name) +
             ": a k-loop that runs fewer steps must do the missing steps' "
             "stage operations outside it (a peeled step)";
  }
  return std::nullopt;
}

/// One task exchanges R's stages in k-loops, its partner outside them.
void reportUnnested(const Program &P, const Task &Flat, const Task &Nest,
                    unsigned Loop, unsigned R, DiagList &Out) {
  std::string Of = quote(P.Resources[R].Name);
  Diag &D = report(
      Out, Check::Domain, Flat.Dom.Present ? Flat.Dom.Loc : Flat.Loc,
      Flat.nested()
          ? "task " + quote(Flat.Name) + " exchanges stages of " + Of +
                " outside its nested ts::domain loops, task " +
                quote(Nest.Name) + " inside one"
          : "task " + quote(Flat.Name) + " exchanges stages of " + Of +
                " with task " + quote(Nest.Name) +
                ", which nests a ts::domain loop in its loop, but has no "
                "such loop");
  note(D, Nest.Inners[Loop].Loc,
       "the inner ts::domain loop of " + quote(Nest.Name) + " is here");
  note(D, Flat.Loc,
       "write the same loops in both tasks: the tile loop with the k-loop "
       "inside it (stages handed over once per tile are taken outside the "
       "k-loops, on both sides)");
}

/// Both exchange R's stages in k-loops, but in different numbers of them.
void reportLoopCount(const Program &P, const Task &A, const Task &B,
                     const std::vector<unsigned> &LA,
                     const std::vector<unsigned> &LB, unsigned R,
                     DiagList &Out) {
  Diag &D = report(Out, Check::Domain, B.Inners[LB.front()].Loc,
                   "tasks " + quote(A.Name) + " and " + quote(B.Name) +
                       " exchange stages of " + quote(P.Resources[R].Name) +
                       " in " + std::to_string(LA.size()) + " and " +
                       std::to_string(LB.size()) +
                       " inner ts::domain loops: the loops pair in order");
  for (const Task *T : {&A, &B})
    for (unsigned L : T == &A ? LA : LB)
      note(D, T->Inners[L].Loc,
           "an inner ts::domain loop of " + quote(T->Name) + " on " +
               quote(P.Resources[R].Name));
  note(D, B.Loc,
       "exchange a resource's stages in as many k-loops in both tasks, in "
       "the same order");
}

void reportMismatch(const Task &A, unsigned LA, const Task &B, unsigned LB,
                    const std::optional<std::string> &Off, DiagList &Out) {
  const Domain &DA = A.Inners[LA], &DB = B.Inners[LB];
  Diag &D =
      report(Out, Check::Domain, DB.Loc,
             "the inner ts::domain loops of tasks " + quote(A.Name) + " and " +
                 quote(B.Name) + " may run different trip counts");
  for (auto [T, Dom] : {std::pair{&A, &DA}, {&B, &DB}})
    note(D, Dom->Loc,
         "task " + quote(T->Name) + " loops over (" + Dom->StartText + ", " +
             Dom->EndText + ", " + Dom->StepText + ")");
  if (Off)
    note(D, DB.Loc, *Off);
  for (const Domain *Dom : {&DA, &DB})
    if (Dom->OpaqueLoc)
      note(D, Dom->OpaqueLoc, Dom->OpaqueNote);
  note(D, DB.Loc,
       "give both inner loops the same bounds, or bounds apart by a constant "
       "(bounds read through local variables are compared by what those "
       "variables are computed from)");
}

/// Tasks that exchange R's stages in k-loops must do so in as many, paired
/// in order, of counts equal or apart by a constant that their stage
/// operations outside them make up for; false once one is reported.
bool checkResource(const Program &P, const Kernel &K, unsigned A, unsigned B,
                   unsigned R, DiagList &Out) {
  const Task &TA = P.Tasks[A], &TB = P.Tasks[B];
  std::vector<unsigned> LA = loopsUsing(TA, R), LB = loopsUsing(TB, R);
  if (LA.empty() != LB.empty()) {
    bool ANests = !LA.empty();
    reportUnnested(P, ANests ? TB : TA, ANests ? TA : TB,
                   ANests ? LA.front() : LB.front(), R, Out);
    return false;
  }
  if (LA.size() != LB.size()) {
    reportLoopCount(P, TA, TB, LA, LB, R, Out);
    return false;
  }
  for (size_t I = 0; I < LA.size(); ++I) {
    const Domain &DA = TA.Inners[LA[I]], &DB = TB.Inners[LB[I]];
    bool Match = innerTripsMatch(DA, DB);
    std::optional<std::string> Off;
    if (Match && !DA.constantTrips() && DA.tripOffset() != DB.tripOffset())
      Off = unbalanced(P, K, A, B);
    if (Match && !Off)
      continue;
    reportMismatch(TA, LA[I], TB, LB[I], Off, Out);
    return false;
  }
  return true;
}

} // namespace

void checkNesting(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  DiagList &Out) {
  for (auto [A, B, First] : Plan.exchangingPairs()) {
    (void)First; // every resource both use is paired, not only the first
    if (!P.Tasks[A].nested() && !P.Tasks[B].nested())
      continue;
    for (unsigned R = 0; R < P.Resources.size(); ++R)
      if (usesResource(P.Tasks[A], R) && usesResource(P.Tasks[B], R) &&
          !checkResource(P, K, A, B, R, Out))
        break;
  }
}

} // namespace ts
