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

namespace ts {
using namespace detail;

namespace {

/// Whether the task's role on a stage of this kind is tcgen05 MMAs.
bool mmaRole(PipelineKind K, Role R) {
  return R == Role::Consumer ? mmaConsumes(K) : mmaProduces(K);
}
bool mmaSide(const Task &T, unsigned R, const Resource &Res) {
  return (T.consumes(R) && mmaConsumes(Res.Kind)) ||
         (T.produces(R) && mmaProduces(Res.Kind));
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
  note(D, Res.Loc,
       std::string("use a ts::") + pipelineKindName(Res.Kind) +
           " stage through ts::tcgen05 MMAs only, or make " + quote(Res.Name) +
           (Reads ? " a kind whose consumer is threads (ts::tma_async, "
                    "ts::async_async)"
                  : " a kind whose producer is threads (ts::async_umma)"));
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
      bool Mma = mmaRole(Res.Kind, O.R);
      if (O.UmmaAccess && !Mma)
        mmaOnOtherKind(P, T, O, Out);
      else if (Mma && !O.UmmaAccess && !O.AddressOnly)
        threadsUseCommitted(P, T, O, Out);
    }
  }
}

} // namespace ts
