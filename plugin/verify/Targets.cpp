//===- Targets.cpp - What the kernel's target has -------------------------===//
//
// Tensor memory exists on sm_100a only, and wgmma on sm_90a only: either in
// a kernel of the other target fails in ptxas, far from the cause, or (an
// allocation the lowering would emit) cannot be generated at all.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

namespace ts {
using namespace detail;

namespace {

void tmemWithoutTarget(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, DiagList &Out) {
  for (const TmemRegion &TR : Plan.Tmem.Regions) {
    const Resource &R = P.Resources[TR.Resource];
    Diag &D = report(Out, Check::Target, R.TmemLoc ? R.TmemLoc : R.Loc,
                     quote(R.Name) + " lives in tensor memory, which kernel " +
                         quote(K.Name) + " (target " + Plan.Tgt->Name +
                         ") does not have");
    note(D, K.Loc,
         "tensor memory is a Blackwell resource: add ts::target(ts::sm_100a) "
         "to the kernel's [[ts::kernel]]");
  }
}

void wgmmaOnBlackwell(const Program &P, const Kernel &K, const KernelPlan &Plan,
                      DiagList &Out) {
  for (unsigned TI : K.Tasks)
    for (const Op &O : P.Tasks[TI].Ops) {
      if (!isMmaGroupOp(O.Kind))
        continue;
      Diag &D = report(
          Out, Check::Target, O.Loc,
          std::string(O.Kind == OpKind::MmaCommit ? "ts::wgmma::commit_group"
                                                  : "ts::wgmma::wait_group") +
              " is a Hopper instruction; kernel " + quote(K.Name) +
              " targets " + Plan.Tgt->Name + ", which has no wgmma");
      note(D, K.Loc,
           "Blackwell MMAs are tcgen05 (ts/tcgen05.h); or target sm_90a");
      break; // One per task: the others say the same.
    }
}

} // namespace

void checkTarget(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 DiagList &Out) {
  if (!Plan.Tgt->TmemColumns)
    tmemWithoutTarget(P, K, Plan, Out);
  if (K.Arch == TargetArch::Sm100a)
    wgmmaOnBlackwell(P, K, Plan, Out);
}

} // namespace ts
