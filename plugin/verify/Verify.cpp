//===- Verify.cpp - All checks of a kernel ---------------------------------===//
#include "verify/Verify.h"

#include <algorithm>

namespace ts {

VerifyResult verifyKernel(const Program &P, const Kernel &K,
                          const KernelPlan &Plan) {
  VerifyResult R;
  DiagList &Out = R.Diags;
  checkWarps(P, K, Out);
  checkRegisters(P, K, Plan, Out);
  checkRegisterPressure(P, K, Out);
  size_t StructuralBegin = Out.size();
  checkRoles(P, K, Out);
  checkBracketing(P, K, Out);
  checkDomains(P, K, Plan, Out);
  checkDeclarations(P, K, Out);
  size_t StructuralEnd = Out.size();
  checkStages(P, K, Out);
  checkTmaBytes(P, K, Out);
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

} // namespace ts
