//===- Nested.cpp - Tasks that exchange stages nest alike -----------------===//
//
// The views of plan/NestedViews.h write a nested task's k-loop out for one
// inner trip count; they are sound only when tasks that exchange stages
// both nest a k-loop with one trip count, or neither, or the nested one
// exchanges them per tile, outside its k-loop (ts-domain).
//
//===----------------------------------------------------------------------===//
#include "verify/Nested.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <set>

namespace ts {
using namespace detail;

namespace {

bool innerTripsMatch(const Domain &A, const Domain &B) {
  if (A.constantTrips() || B.constantTrips())
    return A.constantTrips() == B.constantTrips();
  return A.symbolicKey() == B.symbolicKey() && A.tripOffset() == B.tripOffset();
}

/// Tasks that exchange stages must nest alike: both with one k-loop of the
/// same trip count, or neither.
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
  if (!NA || innerTripsMatch(A.Inner, B.Inner))
    return;
  Diag &D =
      report(Out, Check::Domain, B.Inner.Loc,
             "the inner ts::domain loops of tasks " + quote(A.Name) + " and " +
                 quote(B.Name) + " may run different trip counts");
  for (const Task *T : {&A, &B})
    note(D, T->Inner.Loc,
         "task " + quote(T->Name) + " loops over (" + T->Inner.StartText +
             ", " + T->Inner.EndText + ", " + T->Inner.StepText + ")");
  note(D, B.Inner.Loc,
       "give both inner loops the same bounds (bounds read through local "
       "variables are compared by what those variables are computed from)");
}

} // namespace

void checkNesting(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  DiagList &Out) {
  for (auto [A, B, R] : Plan.exchangingPairs())
    checkPair(P, P.Tasks[A], P.Tasks[B], R, Out);
}

} // namespace ts
