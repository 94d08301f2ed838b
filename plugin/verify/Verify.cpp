//===- Verify.cpp - All checks of a kernel ---------------------------------===//
#include "verify/Verify.h"
#include "verify/Nested.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <set>

namespace ts {
using namespace detail;

namespace {

bool hasError(const DiagList &Ds) {
  return std::any_of(Ds.begin(), Ds.end(),
                     [](const Diag &D) { return checkIsErrorByDefault(D.Group); });
}

/// `View`: P is the view of a nested kernel for one inner trip count, whose
/// roles were checked on the kernel itself (a view with an empty k-loop
/// has no ops to show them).
VerifyResult verifyFlat(const Program &P, const Kernel &K, const KernelPlan &Plan,
                        bool View = false) {
  VerifyResult R;
  DiagList &Out = R.Diags;
  checkWarps(P, K, Out);
  checkRegisters(P, K, Plan, Out);
  checkRegisterPressure(P, K, Out);
  size_t StructuralBegin = Out.size();
  if (!View)
    checkRoles(P, K, Out);
  checkBracketing(P, K, Out);
  checkDomains(P, K, Plan, Out);
  checkDeclarations(P, K, Out);
  size_t StructuralEnd = Out.size();
  checkStages(P, K, Out);
  if (!View) { // structural: a nested kernel's are checked on the kernel itself
    checkTmaBytes(P, K, Out);
    checkThreadBounds(P, K, Out);
  }
  checkGraph(P, K, Out);
  checkPdlWaits(P, K, Out);
  checkCapacity(P, K, Plan, Out);

  // The simulation assumes well-formed brackets and roles; on a broken
  // schedule it would only repeat those errors as deadlocks.
  bool Sound = std::none_of(
      Out.begin() + StructuralBegin, Out.begin() + StructuralEnd,
      [](const Diag &D) { return checkIsErrorByDefault(D.Group); });
  if (Sound)
    R.Sim = checkCredits(P, K, Plan, Out, &R.Coverage);
  else
    R.Coverage = "not run: fix the errors above first";
  return R;
}

/// The inner loop of the task a finding is at (by its op), else the first.
SourceHandle innerLoc(const Program &P, const Kernel &K, SourceHandle At) {
  SourceHandle First = K.Loc;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Inner.Present)
      continue;
    if (First == K.Loc)
      First = T.Inner.Loc;
    if (At == T.Loc || std::any_of(T.Ops.begin(), T.Ops.end(),
                                   [&](const Op &O) { return O.Loc == At; }))
      return T.Inner.Loc;
  }
  return First;
}

/// Every check on the view of each inner trip count, smallest first; the
/// first count with an error is the counterexample shown.
VerifyResult verifyNested(const Program &P, const Kernel &K, const KernelPlan &Plan) {
  VerifyResult R;
  checkRoles(P, K, R.Diags);
  checkNesting(P, K, Plan, R.Diags);
  if (hasError(R.Diags)) {
    R.Coverage = "not run: fix the errors above first";
    return R;
  }
  checkTmaBytes(P, K, R.Diags);
  checkThreadBounds(P, K, R.Diags);
  std::vector<uint64_t> Ns = innerTripCounts(P, K);
  std::set<std::string> Seen;
  bool Shown = false;
  for (uint64_t N : Ns) {
    VerifyResult VR = verifyInnerCount(P, K, Plan, N);
    bool Fails = hasError(VR.Diags);
    for (Diag &D : VR.Diags) {
      if (!Seen.insert(std::to_string(int(D.Group)) + "@" + std::to_string(D.Loc) + D.Message)
               .second)
        continue;
      if (checkIsErrorByDefault(D.Group))
        note(D, innerLoc(P, K, D.Loc),
             "found with this inner ts::domain loop running " + plural(N, "time") +
                 " in each iteration of the loop around it");
      R.Diags.push_back(std::move(D));
    }
    // The table shows two inner iterations per tile unless a run fails.
    if (Fails || !Shown || N == std::min<uint64_t>(2, Ns.back())) {
      R.Sim = std::move(VR.Sim);
      R.View = VR.View;
      R.Coverage = VR.Coverage;
      Shown = true;
    }
    if (Fails)
      return R;
  }
  R.Coverage = Ns.size() == 1
                   ? "inner loop " + plural(Ns[0], "time") + " (constant); outer loop: " +
                         R.Coverage
                   : "inner loop " + std::to_string(Ns.front()) + " to " +
                         std::to_string(Ns.back()) +
                         " times (bounded: docs/verifier.md, \"Nested domains\"); outer "
                         "loop, at each: " +
                         R.Coverage;
  return R;
}

} // namespace

VerifyResult verifyInnerCount(const Program &P, const Kernel &K, const KernelPlan &Plan,
                              uint64_t N) {
  auto View = std::make_shared<Program>(innerUnrolled(P, K, N));
  VerifyResult R = verifyFlat(*View, K, Plan, /*View=*/true);
  R.View = View;
  return R;
}

VerifyResult verifyKernel(const Program &P, const Kernel &K,
                          const KernelPlan &Plan) {
  // On the kernel itself: a nested view without inner iterations has no loads.
  DiagList Cluster;
  checkCluster(P, K, Cluster);
  VerifyResult R = hasNestedTask(P, K) ? verifyNested(P, K, Plan) : verifyFlat(P, K, Plan);
  R.Diags.insert(R.Diags.begin(), Cluster.begin(), Cluster.end());
  return R;
}

} // namespace ts
