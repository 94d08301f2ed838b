//===- Targets.cpp - What the kernel's target has -------------------------===//
//
// Tensor memory exists on sm_100a only, and wgmma on sm_90a only: either in
// a kernel of the other target fails in ptxas, far from the cause, or (an
// allocation the lowering would emit) cannot be generated at all.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

/// tcgen05 and CLC pipelines in a kernel without them (tensor memory alone
/// is tmemWithoutTarget's).
void blackwellPipesWithoutTarget(const Program &P, const Kernel &K,
                                 const KernelPlan &Plan, DiagList &Out) {
  for (const PipelinePlan &PP : Plan.Pipelines) {
    const Resource &R = P.Resources[PP.Resource];
    bool Clc = R.Kind == PipelineKind::ClcAsync;
    if (!mmaConsumes(R.Kind) && !Clc)
      continue;
    Diag &D = report(Out, Check::Target, R.Loc,
                     std::string("ts::") + pipelineKindName(R.Kind) +
                         " resource " + quote(R.Name) + " is " +
                         (Clc ? "filled by cluster launch control"
                              : "read by tcgen05 MMAs") +
                         ", which kernel " + quote(K.Name) + " (target " +
                         Plan.Tgt->Name + ") does not have");
    note(D, K.Loc,
         std::string(Clc ? "clusterlaunchcontrol" : "tcgen05") +
             " is Blackwell's: add ts::target(ts::sm_100a) to the kernel's "
             "[[ts::kernel]], or " +
             (Clc ? "feed the tile queue from a fetch (ts::async_async)"
                  : "read the stages with threads or wgmma (ts::tma_async, "
                    "ts::async_async)"));
  }
}

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

/// tcgen05.alloc blocks while another CTA on the SM holds the columns: a
/// CTA that waits for other CTAs (cluster barriers, a stream-K fix-up) may
/// wait for one blocked behind it. Not when every CTA of the kernel that
/// fits on one SM gets its columns at once.
void tmemBetweenCtas(const Program &P, const Kernel &K, const KernelPlan &Plan,
                     DiagList &Out) {
  bool Settles = std::any_of(K.Tasks.begin(), K.Tasks.end(), [&](unsigned TI) {
    return !P.Tasks[TI].Settles.empty();
  });
  unsigned N = Plan.CtasPerSm, Cols = Plan.Tmem.Alloc;
  if (!Cols || (K.clusterCtas() == 1 && !Settles) ||
      uint64_t(N) * Cols <= Plan.Tgt->TmemColumns)
    return;
  const Resource &First = P.Resources[Plan.Tmem.Regions.front().Resource];
  Diag &D =
      report(Out, Check::Target, First.TmemLoc,
             std::string(
                 "tensor memory in a kernel whose CTAs wait for each other (") +
                 (Settles ? "a stream-K fix-up" : "a cluster") +
                 "): " + std::to_string(N) +
                 " of its CTAs fit on one SM, and " + std::to_string(N) +
                 " x " + std::to_string(Cols) + " columns exceed the " +
                 std::to_string(Plan.Tgt->TmemColumns) + " there");
  note(D, K.Loc,
       "tcgen05.alloc blocks while another CTA on the SM holds the columns, "
       "and that CTA may be waiting for this one; allocate at most " +
           std::to_string(Plan.Tgt->TmemColumns / N) +
           " columns (ts::tmem_capacity), or use more shared memory or "
           "threads per CTA so that fewer fit (one CTA of more than " +
           std::to_string(Plan.Tgt->SmSmem / 2 - Plan.Tgt->CtaReservedSmem) +
           " bytes of shared memory is alone on its SM)");
}

} // namespace

void checkTarget(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 DiagList &Out) {
  if (!Plan.Tgt->TmemColumns) {
    tmemWithoutTarget(P, K, Plan, Out);
    blackwellPipesWithoutTarget(P, K, Plan, Out);
  } else
    tmemBetweenCtas(P, K, Plan, Out);
  if (K.Arch == TargetArch::Sm100a)
    wgmmaOnBlackwell(P, K, Plan, Out);
}

} // namespace ts
