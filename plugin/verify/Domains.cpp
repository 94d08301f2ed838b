//===- Domains.cpp - Tasks exchanging stages run matching trip counts -----===//
//
// The credit simulation runs every task for one unknown N plus a known
// offset: tasks that exchange stages must have domains whose trip counts
// provably agree that way (TripCounts.cpp decides from them).
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <set>

namespace ts {
using namespace detail;

void checkDomains(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  DiagList &Out) {
  for (auto [A, B, R] : Plan.exchangingPairs()) {
    const Task &TA = P.Tasks[A], &TB = P.Tasks[B];
    if (!loops(TA) || !loops(TB) ||
        TA.Dom.symbolicKey() == TB.Dom.symbolicKey())
      continue;
    bool Turns = P.Resources[R].Kind == PipelineKind::Turns;
    Diag &D = report(Out, Check::Domain, TB.Dom.Loc,
                     "tasks " + quote(TA.Name) + " and " + quote(TB.Name) +
                         (Turns ? " take turns of " : " exchange stages of ") +
                         quote(P.Resources[R].Name) +
                         " but may run different trip counts");
    note(D, TA.Dom.Loc,
         "task " + quote(TA.Name) + " loops over " + domainText(TA.Dom));
    note(D, TB.Dom.Loc,
         "task " + quote(TB.Name) + " loops over " + domainText(TB.Dom));
    for (const Domain *Dom : {&TA.Dom, &TB.Dom})
      if (Dom->OpaqueLoc)
        note(D, Dom->OpaqueLoc, Dom->OpaqueNote);
    note(D, TB.Dom.Loc,
         "loop over the same ts::domain bounds (with step 1, bounds may "
         "differ "
         "by a constant: the verifier follows that exactly)");
  }
}

} // namespace ts
