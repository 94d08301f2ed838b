//===- Umma.cpp - Pipelines whose one side is tcgen05 MMAs ----------------===//
//
// A tcgen05 MMA reads its operands and writes its tensor-memory
// accumulator after the issuing call returns; only tcgen05.commit, from the
// thread that issued it, says when it is done. The hand-overs on the MMA
// side of the tcgen05 kinds (model/Model.h, mmaConsumes / mmaProduces) are
// such commits (include/ts/pipeline.h), issued by lane 0 of the task's one
// warp, as the MMAs are (include/ts/tcgen05.h). So: an MMA uses only stages
// on its task's MMA side, that task is one warp, and no thread of it reads
// or writes a stage that a commit hands over.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

/// Whether task TI's side of resource R is tcgen05 MMAs handing over by
/// commit: the plan's commit releasers, the producers of the kinds MMAs fill.
bool mmaRole(const Program &P, const KernelPlan &Plan, unsigned TI, unsigned R,
             Role Ro) {
  if (Ro == Role::Producer)
    return mmaProduces(P.Resources[R].Kind);
  const PipelinePlan *PP = Plan.pipeline(R);
  return PP && PP->releasesByCommit(TI);
}
bool mmaSide(const Program &P, const KernelPlan &Plan, unsigned TI,
             unsigned R) {
  const Task &T = P.Tasks[TI];
  return (T.consumes(R) && mmaRole(P, Plan, TI, R, Role::Consumer)) ||
         (T.produces(R) && mmaRole(P, Plan, TI, R, Role::Producer));
}

void mmaOnOtherKind(const Program &P, const Task &T, const Op &O,
                    DiagList &Out) {
  const Resource &Res = P.Resources[O.Resource];
  Diag &D = report(Out, Check::Ownership, O.Loc,
                   "a tcgen05 MMA uses a stage of " + quote(Res.Name) +
                       ", a ts::" + pipelineKindName(Res.Kind) +
                       " resource whose hand-back does not wait for it");
  note(D, Res.Loc,
       O.R == Role::Consumer
           ? "declare " + quote(Res.Name) +
                 " ts::tma_umma (TMA fills it), ts::async_umma (threads do) "
                 "or ts::umma_umma (MMAs do): its release commits "
                 "(tcgen05.commit), which completes once the MMAs have read "
                 "the stage"
           : "MMAs write tensor memory: make " + quote(Res.Name) +
                 " a ts::umma_async or ts::umma_umma resource of "
                 "ts::tmem(N) columns");
}

/// Whether the task's work on R is all thread work: it could read a
/// ts::fork stage beside the MMA task.
bool noMma(const Task &T, unsigned R) {
  return std::none_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.Kind == OpKind::Work && O.Resource == R && O.UmmaAccess;
  });
}

void threadsUseCommitted(const Program &P, const Task &T, const Op &O,
                         DiagList &Out) {
  const Resource &Res = P.Resources[O.Resource];
  bool Reads = O.R == Role::Consumer;
  Diag &D =
      report(Out, Check::Ownership, O.Loc,
             "task " + quote(T.Name) + (Reads ? " reads" : " accesses") +
                 " a stage of " + quote(Res.Name) + " with its threads; the " +
                 (Reads ? "release commits for the MMAs only and does "
                          "not wait for those reads"
                        : "commit covers the MMAs only and does not "
                          "wait for those accesses"));
  bool Forkable = Reads && noMma(T, O.Resource) && !Res.Fork &&
                  (Res.Kind == PipelineKind::TmaUmma ||
                   Res.Kind == PipelineKind::AsyncUmma);
  if (Forkable) // a thread task beside the MMA task
    note(D, Res.Loc,
         "declare " + quote(Res.Name) +
             " ts::fork so its thread consumers "
             "hand a stage back by arriving, as the MMA task does by commit");
  else
    note(D, Res.Loc,
         std::string("use a ts::") + pipelineKindName(Res.Kind) +
             " stage through ts::tcgen05 MMAs only, or make " +
             quote(Res.Name) +
             (Reads ? " a kind whose consumer is threads (ts::tma_async, "
                      "ts::async_async)"
                    : " a kind whose producer is threads (ts::async_umma)"));
}

void notOneWarp(const Program &P, const Task &T, unsigned R, DiagList &Out) {
  const Resource &Res = P.Resources[R];
  std::string Warps = " on " + std::to_string(T.NumWarps) + " warps";
  Diag &D = report(Out, Check::Roles, T.Loc,
                   "task " + quote(T.Name) +
                       (noMma(T, R) ? " hands stages of " + quote(Res.Name) +
                                          " over by tcgen05.commit" + Warps
                                    : " issues the tcgen05 MMAs of " +
                                          quote(Res.Name) + Warps));
  note(D, T.Loc,
       "lane 0 of each warp would issue MMAs and commit, but one thread's "
       "commit covers only its own MMAs and the barrier expects one: give "
       "the task one warp, ts::warps(first, 1)");
}

} // namespace

void checkUmma(const Program &P, const Kernel &K, const KernelPlan &Plan,
               DiagList &Out) {
  const std::vector<unsigned> Resources = kernelResources(P, K);
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned R : Resources)
      if (mmaSide(P, Plan, TI, R) && T.NumWarps != 1)
        notOneWarp(P, T, R, Out);
    for (const Op &O : T.Ops) {
      if (O.Kind != OpKind::Work || !O.onResource())
        continue;
      bool Mma = mmaRole(P, Plan, TI, O.Resource, O.R);
      if (O.UmmaAccess && !Mma)
        mmaOnOtherKind(P, T, O, Out);
      else if (Mma && !O.UmmaAccess && !O.AddressOnly)
        threadsUseCommitted(P, T, O, Out);
    }
  }
}

} // namespace ts
