//===- Pairs.cpp - CTA pairs: one group, two CTAs, MMAs on rank 0 ---------===//
//
// A ts::cta_pair kernel issues cta_group::2 MMAs from rank 0 over both
// CTAs' stages and tensor memory (docs/blackwell-facts.md, "CTA pairs in
// libts"). The plan's counts hold only when the cluster is exactly the
// pair, every tcgen05 resource is paired (ptxas takes one group per
// kernel), the MMA task touches nothing the other CTA's tasks wait on,
// and each CTA loads its own half of a paired stage in tile mode.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

const Resource *firstPaired(const Program &P, const Kernel &K) {
  for (unsigned R : kernelResources(P, K))
    if (P.Resources[R].Pair)
      return &P.Resources[R];
  return nullptr;
}

bool pairShape(const Kernel &K) {
  return K.Cluster[0] == 2 && K.clusterCtas() == 2;
}

void checkShape(const Kernel &K, const Resource &Pair, DiagList &Out) {
  if (pairShape(K))
    return;
  Diag &D = report(Out, Check::Cluster, K.ClusterLoc ? K.ClusterLoc : K.Loc,
                   "kernel " + quote(K.Name) + " uses CTA-pair resource " +
                       quote(Pair.Name) + " but its cluster is " +
                       plural(K.clusterCtas(), "CTA") +
                       (K.clusterCtas() == 2 ? " along y or z" : ""));
  note(D, Pair.PairLoc,
       "a pair is the two CTAs of a ts::cluster_shape(2) cluster: rank 0 "
       "issues the MMAs for both; declare the kernel with "
       "ts::cluster_shape(2)");
}

void checkAllPaired(const Program &P, const Kernel &K, const Resource &Pair,
                    DiagList &Out) {
  for (unsigned R : kernelResources(P, K)) {
    const Resource &Res = P.Resources[R];
    if (!isUmma(Res.Kind) || Res.Pair)
      continue;
    Diag &D = report(Out, Check::Cluster, Res.Loc,
                     "tcgen05 resource " + quote(Res.Name) + " of kernel " +
                         quote(K.Name) + " is not ts::cta_pair, but " +
                         quote(Pair.Name) + " is");
    note(D, Pair.PairLoc,
         "ptxas takes one CTA group for all of a kernel's tcgen05 "
         "instructions: mark every tcgen05 resource ts::cta_pair, or none");
  }
}

/// What rank 0's MMA task may hold: its paired stages and a CLC queue,
/// whose plan counts its reads on rank 0 only.
bool leaderMayUse(const Resource &Res, Role R) {
  if (Res.Kind == PipelineKind::ClcAsync)
    return R == Role::Consumer;
  if (!Res.Pair)
    return false;
  return Res.Kind == PipelineKind::TmaUmma ? R == Role::Consumer
                                           : R == Role::Producer;
}

void checkLeaders(const Program &P, const KernelPlan &Plan, DiagList &Out) {
  for (unsigned TI : Plan.PairLeaders) {
    const Task &T = P.Tasks[TI];
    if (T.Cta) {
      Diag &D = report(Out, Check::Cluster, T.Loc,
                       "task " + quote(T.Name) +
                           " issues the CTA pair's MMAs; ts::cta(" +
                           std::to_string(*T.Cta) + ") does not apply to it");
      note(D, T.Loc,
           "the plan runs the pair's MMA task on rank 0 by itself; remove "
           "ts::cta");
    }
    for (const TaskParam &Param : T.Params) {
      if (Param.K == TaskParam::Kind::Value)
        continue;
      const Resource &Res = P.Resources[Param.Resource];
      // An unpaired tcgen05 resource is checkAllPaired's finding.
      if (Res.Kind == PipelineKind::Gmem || (isUmma(Res.Kind) && !Res.Pair) ||
          (Param.K == TaskParam::Kind::Handle && leaderMayUse(Res, Param.R)))
        continue;
      Diag &D = report(Out, Check::Cluster, Param.Loc,
                       "task " + quote(T.Name) +
                           " issues the CTA pair's MMAs, so it runs on rank "
                           "0 only, yet it takes part in " +
                           quote(Res.Name));
      note(D, T.Loc,
           "the other CTA's tasks would wait for it forever; give that work "
           "to a task that runs on both CTAs (rank 0's MMA task may consume "
           "the paired tma_umma stages and a CLC queue and produce the "
           "paired umma_async stages)");
    }
  }
}

/// Rank 0's MMAs read both CTAs' stages as one: each CTA must load its
/// own half, so a load's coordinates must depend on the CTA's rank.
void checkHalf(const Kernel &K, const Resource &Res, const TmaLoadBox &B,
               DiagList &Out) {
  bool Differs = std::any_of(
      B.Coords.Varies.begin(), B.Coords.Varies.end(),
      [&](const Varying &V) { return !perThread(V) && variesInCluster(K, V); });
  if (Differs)
    return;
  Diag &D = report(
      Out, Check::Cluster, B.Loc,
      B.Coords.Complete
          ? "both CTAs of the pair load this box of " + quote(Res.Name) +
                " from the same coordinates"
          : "cannot verify that each CTA of the pair loads its own half of " +
                quote(Res.Name) +
                ": the coordinates read a value the analysis does not follow");
  note(D, Res.PairLoc,
       "rank 0's MMAs read the two CTAs' stages as one tile, so each CTA "
       "loads its half: offset the coordinates by ts::cluster::rank() (or "
       "blockIdx.x % 2), in locals initialised once");
}

void checkLoads(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks)
    for (const Op &O : P.Tasks[TI].Ops) {
      const Resource &Res = P.Resources[O.Resource];
      if (O.Kind != OpKind::Work || !O.onResource() || !Res.Pair)
        continue;
      for (const TmaLoadBox &B : O.Boxes) {
        if (!B.Im2col) {
          checkHalf(K, Res, B, Out);
          continue;
        }
        Diag &D = report(Out, Check::Cluster, B.Loc,
                         "im2col load into CTA-pair stage " + quote(Res.Name));
        note(D, B.Loc,
             "a pair's halves complete on rank 0's barrier through the "
             "tile-mode load: use ts::tma::load");
      }
    }
}

} // namespace

void checkPairs(const Program &P, const Kernel &K, const KernelPlan &Plan,
                DiagList &Out) {
  const Resource *Pair = firstPaired(P, K);
  if (!Pair)
    return;
  checkShape(K, *Pair, Out);
  checkAllPaired(P, K, *Pair, Out);
  checkLeaders(P, Plan, Out);
  if (pairShape(K)) // the halves are positions in the pair
    checkLoads(P, K, Out);
}

} // namespace ts
