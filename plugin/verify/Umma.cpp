//===- Umma.cpp - Pipelines whose one side is tcgen05 MMAs ----------------===//
//
// A tcgen05 MMA reads its shared-memory operands and writes its tensor-
// memory accumulator after the issuing call returns; only tcgen05.commit,
// from the thread that issued it, says when it is done. The ts::tma_umma
// release and the ts::umma_async commit are such commits (include/ts/
// pipeline.h), issued by lane 0 of the task's one warp, as the MMAs are
// (include/ts/tcgen05.h). So: the MMAs' stages must be of those kinds, the
// MMA task one warp, and no thread may read a stage that a commit hands back.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

namespace ts {
using namespace detail;

namespace {

/// The task's side of R that tcgen05 MMAs run on: the consumer of a
/// tma_umma stage, the producer of an umma_async one.
bool mmaSide(const Task &T, unsigned R, const Resource &Res) {
  return (Res.Kind == PipelineKind::TmaUmma && T.consumes(R)) ||
         (Res.Kind == PipelineKind::UmmaAsync && T.produces(R));
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
                 " ts::tma_umma: its release commits (tcgen05.commit), which "
                 "completes once the MMAs have read the stage"
           : "MMAs write tensor memory: make " + quote(Res.Name) +
                 " a ts::umma_async resource of ts::tmem(N) columns");
}

void threadsReadCommitted(const Program &P, const Task &T, const Op &O,
                          DiagList &Out) {
  const Resource &Res = P.Resources[O.Resource];
  Diag &D =
      report(Out, Check::Ownership, O.Loc,
             "task " + quote(T.Name) + " reads a stage of " + quote(Res.Name) +
                 " with its threads; the release commits for the "
                 "MMAs only and does not wait for those reads");
  note(D, Res.Loc,
       "read a ts::tma_umma stage through ts::tcgen05 MMAs only, or make " +
           quote(Res.Name) + " ts::tma_async");
}

void notOneWarp(const Program &P, const Task &T, unsigned R, DiagList &Out) {
  const Resource &Res = P.Resources[R];
  Diag &D = report(Out, Check::Roles, T.Loc,
                   "task " + quote(T.Name) + " issues the tcgen05 MMAs of " +
                       quote(Res.Name) + " on " + std::to_string(T.NumWarps) +
                       " warps");
  note(D, T.Loc,
       "lane 0 of each warp would issue them, but one thread's commit covers "
       "only its own MMAs: give the task one warp, ts::warps(first, 1)");
}

} // namespace

void checkUmma(const Program &P, const Kernel &K, DiagList &Out) {
  const std::vector<unsigned> Resources = kernelResources(P, K);
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned R : Resources)
      if (mmaSide(T, R, P.Resources[R]) && T.NumWarps != 1)
        notOneWarp(P, T, R, Out);
    for (const Op &O : T.Ops) {
      if (O.Kind != OpKind::Work)
        continue;
      const Resource &Res = P.Resources[O.Resource];
      if (O.UmmaAccess && !isUmma(Res.Kind))
        mmaOnOtherKind(P, T, O, Out);
      else if (Res.Kind == PipelineKind::TmaUmma && O.R == Role::Consumer &&
               !O.UmmaAccess && !O.AddressOnly)
        threadsReadCommitted(P, T, O, Out);
    }
  }
}

} // namespace ts
