//===- TileQueues.cpp - Dynamic tile loops and their queue ----------------===//
//
// A ts::tiles loop runs as many iterations as the scheduler publishes tiles
// (frontend/TileLoops.cpp writes its queue exchanges out as ops). That
// count is one unknown all tasks share only while the queue carries nothing
// else and one task fills it: the rules below, each with its way out.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

/// Resources some task's ts::tiles loop reads or fills.
std::vector<unsigned> queuesOf(const Program &P, const Kernel &K) {
  std::vector<unsigned> Qs;
  for (unsigned I : K.Tasks)
    if (const Domain &D = P.Tasks[I].Dom;
        D.Dynamic && std::find(Qs.begin(), Qs.end(), D.Queue) == Qs.end())
      Qs.push_back(D.Queue);
  return Qs;
}

void checkQueue(const Program &P, const Kernel &K, unsigned Q, DiagList &Out) {
  const Resource &R = P.Resources[Q];
  if (R.Kind != PipelineKind::AsyncAsync && R.Kind != PipelineKind::ClcAsync) {
    Diag &D =
        report(Out, Check::Domain, R.Loc,
               "tile queue " + quote(R.Name) + " of a ts::tiles loop is " +
                   pipelineKindName(R.Kind) + ", not async_async or clc_async");
    note(D, R.Loc,
         "declare it ts::async_async (the scheduling task's threads write the "
         "tile) or, on sm_100a, ts::clc_async (cluster launch control does)");
  }
  std::vector<const Task *> Fillers;
  for (unsigned I : K.Tasks) {
    const Task &T = P.Tasks[I];
    for (const Op &O : T.Ops)
      if (O.Resource == Q && !O.TileLoop) {
        Diag &D = report(Out, Check::Domain, O.Loc,
                         "task " + quote(T.Name) + " uses tile queue " +
                             quote(R.Name) + " outside its ts::tiles loop");
        note(D, O.Loc,
             "only ts::tiles takes the queue's stages: an extra one would take "
             "a tile "
             "from the other tasks");
        break;
      }
    bool Uses = std::any_of(T.Ops.begin(), T.Ops.end(),
                            [&](const Op &O) { return O.Resource == Q; });
    if (Uses && !(T.Dom.Dynamic && T.Dom.Queue == Q)) {
      Diag &D = report(Out, Check::Domain, T.Dom.Present ? T.Dom.Loc : T.Loc,
                       "task " + quote(T.Name) + " holds tile queue " +
                           quote(R.Name) + " but does not loop over it");
      note(D, T.Dom.Present ? T.Dom.Loc : T.Loc,
           "loop 'for (int u : ts::tiles(handle))' so the task runs the tiles "
           "the others run");
    }
    if (T.Dom.Dynamic && T.Dom.Queue == Q &&
        std::count(T.Produces.begin(), T.Produces.end(), Q))
      Fillers.push_back(&T);
  }
  for (size_t I = 1; I < Fillers.size(); ++I) {
    Diag &D =
        report(Out, Check::Domain, Fillers[I]->Dom.Loc,
               "tile queue " + quote(R.Name) +
                   " has a second scheduling task " + quote(Fillers[I]->Name));
    note(D, Fillers[0]->Dom.Loc,
         "the first is " + quote(Fillers[0]->Name) +
             "; one task fetches the tiles");
  }
  for (const Task *T : Fillers)
    if (T->NumWarps != 1) {
      Diag &D =
          report(Out, Check::Domain, T->Dom.Loc,
                 "scheduling task " + quote(T->Name) + " of tile queue " +
                     quote(R.Name) + " has " + plural(T->NumWarps, "warp"));
      note(D, T->Loc,
           "give it ts::warps(w, 1): its lane 0 fetches each tile and the warp "
           "shares it by __shfl_sync");
    }
  if (K.clusterCtas() > 1 && R.Kind != PipelineKind::ClcAsync) {
    Diag &D = report(Out, Check::Domain, K.Loc,
                     "kernel " + quote(K.Name) +
                         " has a cluster and a ts::tiles loop over software "
                         "queue " +
                         quote(R.Name));
    note(D, K.ClusterLoc,
         "the CTAs of a cluster would fetch different tiles; a software "
         "queue needs a cluster of one CTA (a ts::clc_async queue on sm_100a "
         "takes one tile per CTA of a cancelled cluster)");
  }
}

/// A CLC queue's stages are try_cancel responses: only the ts::tiles
/// loops, which issue and decode them, may touch it.
void clcOutsideTiles(const Program &P, const Kernel &K,
                     const std::vector<unsigned> &Queues, DiagList &Out) {
  for (unsigned R : kernelResources(P, K)) {
    const Resource &Res = P.Resources[R];
    if (Res.Kind != PipelineKind::ClcAsync ||
        std::count(Queues.begin(), Queues.end(), R))
      continue;
    for (unsigned I : K.Tasks)
      for (const Op &O : P.Tasks[I].Ops)
        if (O.Resource == R) {
          Diag &D = report(Out, Check::Domain, O.Loc,
                           "task " + quote(P.Tasks[I].Name) +
                               " uses ts::clc_async resource " +
                               quote(Res.Name) + " outside a ts::tiles loop");
          note(D, Res.Loc,
               "its stages are cluster-launch-control responses: loop 'for "
               "(int u : ts::tiles(handle))' in every task that holds it");
          return;
        }
  }
}

} // namespace

void checkTileQueues(const Program &P, const Kernel &K, DiagList &Out) {
  std::vector<unsigned> Queues = queuesOf(P, K);
  for (unsigned Q : Queues)
    checkQueue(P, K, Q, Out);
  clcOutsideTiles(P, K, Queues, Out);
}

} // namespace ts
