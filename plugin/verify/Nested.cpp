//===- Nested.cpp - Tasks that exchange stages nest alike -----------------===//
//
// The views of plan/NestedViews.h write a nested task's k-loop out for one
// inner trip count; they are sound only when tasks that exchange stages
// both nest a k-loop, with trip counts equal up to a constant, or neither,
// or the nested one exchanges them per tile, outside its k-loop (ts-domain).
//
//===----------------------------------------------------------------------===//
#include "verify/Nested.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <optional>
#include <set>

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

/// Stages of R a task moves per tile (commits as producer, waits as
/// consumer, takes of a turn): outside its k-loop and per k-step; nullopt
/// when one of those runs only on some iterations (a guard).
struct Moves {
  int64_t Outside = 0, PerStep = 0;
};
std::optional<Moves> movesOf(const Task &T, unsigned R) {
  Moves M;
  for (const Op &O : T.Ops) {
    if (!O.onResource() || O.Resource != R ||
        (O.Kind != OpKind::Commit && O.Kind != OpKind::Wait &&
         O.Kind != OpKind::Take) ||
        (O.Sec != Section::Loop && O.Sec != Section::Inner))
      continue;
    if (O.G != Guard::Always)
      return std::nullopt;
    ++(O.Sec == Section::Inner ? M.PerStep : M.Outside);
  }
  return M;
}

bool usesResource(const Task &T, unsigned R) {
  return std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.onResource() && O.Resource == R;
  });
}

/// k-loops of counts apart by a constant: for every count, both tasks move
/// as many stages of each resource they share per tile (the shorter loop's
/// missing steps done outside it: a peeled step). Why they may not, at the
/// first resource where they may not.
std::optional<std::string> unbalanced(const Program &P, const Task &A,
                                      const Task &B) {
  int64_t Apart = A.Inner.tripOffset() - B.Inner.tripOffset();
  for (unsigned R = 0; R < P.Resources.size(); ++R) {
    if (!usesResource(A, R) || !usesResource(B, R))
      continue;
    std::optional<Moves> MA = movesOf(A, R), MB = movesOf(B, R);
    std::string Of = " of " + quote(P.Resources[R].Name);
    if (!MA || !MB)
      return "a stage operation" + Of +
             " runs only on some iterations: with guards, k-loops must have "
             "equal bounds";
    if (MA->PerStep != MB->PerStep)
      return "per k-step task " + quote(A.Name) + " moves " +
             plural(uint64_t(MA->PerStep), "stage") + Of + " and task " +
             quote(B.Name) + " " + std::to_string(MB->PerStep);
    int64_t More = MA->Outside + Apart * MA->PerStep - MB->Outside;
    if (More != 0)
      return "per tile task " + quote(More > 0 ? A.Name : B.Name) + " moves " +
             plural(uint64_t(More > 0 ? More : -More), "stage") + Of +
             " more than task " + quote(More > 0 ? B.Name : A.Name) +
             ": a k-loop that runs fewer steps must do the missing steps' "
             "stage operations outside it (a peeled step)";
  }
  return std::nullopt;
}

/// Tasks that exchange stages must nest alike: both with one k-loop, of
/// counts equal or apart by a constant that their stage operations outside
/// it make up for, or neither.
void checkPair(const Program &P, const Task &A, const Task &B, unsigned R,
               DiagList &Out) {
  bool NA = A.Inner.Present, NB = B.Inner.Present;
  if (NA != NB) {
    const Task &Flat = NA ? B : A, &Nest = NA ? A : B;
    // Stages taken per tile, outside the k-loop (an epilogue's): the views
    // write the k-loop out and pair them tile by tile.
    if (Flat.Dom.Present &&
        std::none_of(Nest.Ops.begin(), Nest.Ops.end(), [&](const Op &O) {
          return O.Resource == R && O.Sec == Section::Inner;
        }))
      return;
    Diag &D = report(
        Out, Check::Domain, Flat.Dom.Present ? Flat.Dom.Loc : Flat.Loc,
        "task " + quote(Flat.Name) + " exchanges stages of " +
            quote(P.Resources[R].Name) + " with task " + quote(Nest.Name) +
            ", which nests a ts::domain loop in its loop, but has no such "
            "loop");
    note(D, Nest.Inner.Loc,
         "the inner ts::domain loop of " + quote(Nest.Name) + " is here");
    note(D, Flat.Loc,
         "write the same loops in both tasks: the tile loop with the k-loop "
         "inside it (a task without a k-loop may take stages that the other "
         "hands over per tile, outside its k-loop)");
    return;
  }
  if (!NA)
    return;
  bool Match = innerTripsMatch(A.Inner, B.Inner);
  std::optional<std::string> Off;
  if (Match && !A.Inner.constantTrips() &&
      A.Inner.tripOffset() != B.Inner.tripOffset())
    Off = unbalanced(P, A, B);
  if (Match && !Off)
    return;
  Diag &D =
      report(Out, Check::Domain, B.Inner.Loc,
             "the inner ts::domain loops of tasks " + quote(A.Name) + " and " +
                 quote(B.Name) + " may run different trip counts");
  for (const Task *T : {&A, &B})
    note(D, T->Inner.Loc,
         "task " + quote(T->Name) + " loops over (" + T->Inner.StartText +
             ", " + T->Inner.EndText + ", " + T->Inner.StepText + ")");
  if (Off)
    note(D, B.Inner.Loc, *Off);
  note(D, B.Inner.Loc,
       "give both inner loops the same bounds, or bounds apart by a constant "
       "(bounds read through local variables are compared by what those "
       "variables are computed from)");
}

} // namespace

void checkNesting(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  DiagList &Out) {
  for (auto [A, B, R] : Plan.exchangingPairs())
    checkPair(P, P.Tasks[A], P.Tasks[B], R, Out);
}

} // namespace ts
