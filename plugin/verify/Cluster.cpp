//===- Cluster.cpp - TMA multicast stays inside its protocol --------------===//
//
// A multicast load writes the same stage in other CTAs of the cluster. That
// is safe only when their consumers hand the stage back to the issuing CTA
// too (ts::multicast: the plan counts one arrival per consumer warp of
// every CTA) and when the mask names CTAs that exist.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <sstream>

namespace ts {
using namespace detail;

namespace {

std::string hex(uint64_t V) {
  std::ostringstream OS;
  OS << "0x" << std::hex << V;
  return OS.str();
}

std::string shape(const Kernel &K) {
  return "(" + std::to_string(K.Cluster[0]) + ", " + std::to_string(K.Cluster[1]) + ", " +
         std::to_string(K.Cluster[2]) + ")";
}

void checkMulticastTarget(const Program &P, const Kernel &K, const Op &O, DiagList &Out) {
  const Resource &Res = P.Resources[O.Resource];
  // In a one-CTA cluster the load writes this CTA only: no peer to race.
  if (Res.Multicast || K.clusterCtas() == 1)
    return;
  Diag &D = report(Out, Check::Cluster, O.McastLoc,
                   "TMA multicast into " + quote(Res.Name) + ", which is not ts::multicast");
  note(D, Res.Loc,
       "its consumers hand a stage back to their own CTA only, so this load may "
       "overwrite a peer's stage while the peer still reads it; declare the resource "
       "[[ts::resource(..., ts::multicast)]] so every release reaches every CTA");
}

void checkMask(const Kernel &K, const Op &O, DiagList &Out) {
  unsigned Ctas = K.clusterCtas();
  if (*O.McastMask == 0) {
    Diag &D = report(Out, Check::Cluster, O.McastLoc, "TMA multicast mask 0 writes no CTA");
    note(D, O.McastLoc,
         "set bit i for each CTA rank i that receives the tile, or leave the mask out "
         "to write every CTA of the cluster");
    return;
  }
  uint64_t Mask = *O.McastMask;
  if (Mask < (uint64_t(1) << Ctas))
    return;
  unsigned Rank = 0;
  while ((Mask >> Rank) >> 1)
    ++Rank;
  Diag &D = report(Out, Check::Cluster, O.McastLoc,
                   "TMA multicast mask " + hex(Mask) + " names CTA rank " +
                       std::to_string(Rank) + ", outside the cluster of " +
                       plural(Ctas, "CTA"));
  note(D, K.ClusterLoc ? K.ClusterLoc : K.Loc,
       "the kernel's cluster is " + (K.ClusterLoc ? shape(K) : std::string("one CTA")) +
           ": ranks 0 to " + std::to_string(Ctas - 1) + " exist; use a mask below " +
           hex(uint64_t(1) << Ctas) + " or a larger ts::cluster_shape");
}

} // namespace

void checkCluster(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks)
    for (const Op &O : P.Tasks[TI].Ops) {
      if (O.Kind != OpKind::Work || !O.TmaMulticast)
        continue;
      checkMulticastTarget(P, K, O, Out);
      if (O.McastMask)
        checkMask(K, O, Out);
    }
}

} // namespace ts
