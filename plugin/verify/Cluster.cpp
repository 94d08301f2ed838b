//===- Cluster.cpp - TMA multicast stays inside its protocol --------------===//
//
// A multicast load writes the same stage in other CTAs of the cluster. That
// is safe only when their consumers hand the stage back to the issuing CTA
// too (ts::multicast: the plan counts one arrival per consumer warp of
// every CTA), when the mask names every CTA, when each CTA loads its own
// share, and when every CTA runs the same trip counts: the argument that
// one CTA's verification covers the cluster (docs/verifier.md, "Clusters
// and multicast") needs all of these.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
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
  return "(" + std::to_string(K.Cluster[0]) + ", " +
         std::to_string(K.Cluster[1]) + ", " + std::to_string(K.Cluster[2]) +
         ")";
}

void checkMulticastTarget(const Program &P, const Kernel &K, const Op &O,
                          DiagList &Out) {
  const Resource &Res = P.Resources[O.Resource];
  // In a one-CTA cluster the load writes this CTA only: no peer to race.
  if (Res.Multicast || K.clusterCtas() == 1)
    return;
  Diag &D = report(Out, Check::Cluster, O.McastLoc,
                   "TMA multicast into " + quote(Res.Name) +
                       ", which is not ts::multicast");
  note(
      D, Res.Loc,
      "its consumers hand a stage back to their own CTA only, so this load may "
      "overwrite a peer's stage while the peer still reads it; declare the "
      "resource "
      "[[ts::resource(..., ts::multicast)]] so every release reaches every "
      "CTA");
}

void checkMask(const Kernel &K, const Op &O, DiagList &Out) {
  unsigned Ctas = K.clusterCtas();
  if (*O.McastMask == 0) {
    Diag &D = report(Out, Check::Cluster, O.McastLoc,
                     "TMA multicast mask 0 writes no CTA");
    note(D, O.McastLoc,
         "set bit i for each CTA rank i that receives the tile, or leave the "
         "mask out "
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
       "the kernel's cluster is " +
           (K.ClusterLoc ? shape(K) : std::string("one CTA")) +
           ": ranks 0 to " + std::to_string(Ctas - 1) +
           " exist; use a mask below " + hex(uint64_t(1) << Ctas) +
           " or a larger ts::cluster_shape");
}

std::string readWords(const Varying &V) {
  std::string W = V.What;
  if (V.Src == Varying::Source::CtaIndex && V.Divisor > 1)
    W += " / " + std::to_string(V.Divisor);
  if (V.Src == Varying::Source::CtaIndex && V.Modulus)
    W = (V.Divisor > 1 ? "(" + W + ")" : W) + " % " + std::to_string(V.Modulus);
  return W;
}

std::string clusterWords(const Kernel &K) {
  return "the CTAs of a cluster " + shape(K);
}

/// `blockIdx.y / 2 and gridDim.y / 2`: the cluster's index along the first
/// dimension the cluster spans.
std::string clusterIndexWords(const Kernel &K) {
  unsigned D = 0;
  while (D < 2 && K.Cluster[D] == 1)
    ++D;
  std::string Dim(1, char('x' + D)), E = std::to_string(K.Cluster[D]);
  return "blockIdx." + Dim + " / " + E + " and gridDim." + Dim + " / " + E;
}

/// Whether a block-index read differs in every CTA of one cluster: not
/// after a division (neighbours meet) or a modulus below the extent.
bool distinctInCluster(const Kernel &K, const Varying &V) {
  return V.Divisor == 1 && (V.Modulus == 0 || V.Modulus >= K.Cluster[V.Dim]);
}

/// A block index along one dimension is the same on the CTAs of a 2-D
/// cluster that differ only along another.
void checkOtherDims(const Kernel &K, const Op &O, const Varying &V,
                    const char *What, const char *Fix, DiagList &Out) {
  for (unsigned D = 0; D < 3; ++D) {
    if (D == V.Dim || K.Cluster[D] == 1)
      continue;
    Diag &Dg = report(
        Out, Check::Cluster, O.McastLoc,
        std::string("two CTAs of the cluster multicast this load ") + What);
    note(Dg, V.Loc,
         readWords(V) + " is the same on the " + std::to_string(K.Cluster[D]) +
             " CTAs of the cluster " + shape(K) + " along " +
             std::string(1, char('x' + D)) +
             ", so two of them load one share and a share is never loaded; " +
             Fix);
    return;
  }
}

/// Shares of a multicast tile: every CTA issues the load, so unless its
/// destination and coordinates depend on the CTA, all write one place; a
/// position read that repeats within the cluster makes two CTAs share one.
void checkShare(const Kernel &K, const Op &O, const Reads &R, const char *What,
                const char *Fix, DiagList &Out) {
  std::vector<const Varying *> Position;
  for (const Varying &V : R.Varies)
    if (!perThread(V) && variesInCluster(K, V))
      Position.push_back(&V);
  if (Position.empty() && !R.Complete) {
    Diag &D = report(Out, Check::Cluster, O.McastLoc,
                     std::string("cannot verify that the CTAs of the cluster "
                                 "multicast this load ") +
                         What +
                         " only once: its position reads a value the "
                         "analysis does not follow");
    note(D, O.McastLoc,
         "memory, a pointer out-parameter, a local whose address is taken or "
         "an opaque call; compute the share from ts::cluster::rank() in "
         "locals initialised once or through reference out-parameters");
    return;
  }
  if (Position.empty()) {
    Diag &D = report(
        Out, Check::Cluster, O.McastLoc,
        std::string("every CTA of the cluster multicasts this load ") + What);
    note(D, O.McastLoc,
         "each CTA's stage receives this load from every CTA of the cluster " +
             shape(K) + "; " + Fix);
    return;
  }
  // One read decides the position: it must take a value per CTA.
  const Varying &V = *Position.front();
  if (Position.size() > 1 || V.Src != Varying::Source::CtaIndex)
    return;
  if (distinctInCluster(K, V)) {
    checkOtherDims(K, O, V, What, Fix, Out);
    return;
  }
  Diag &D = report(Out, Check::Cluster, O.McastLoc,
                   std::string("two CTAs of the cluster multicast this load ") +
                       What);
  note(D, V.Loc,
       readWords(V) + " repeats on the " + std::to_string(K.Cluster[V.Dim]) +
           " CTAs of the cluster " + shape(K) + " along " +
           std::string(1, char('x' + V.Dim)) +
           ", so two of them load one share and a share is never loaded; " +
           Fix);
}

/// A destination's position must stay within the cluster: a block index
/// read whole, or modulo more than the cluster's extent, goes on past it
/// in later clusters, whose shares then land past the stage's.
void checkRange(const Kernel &K, const Op &O, DiagList &Out) {
  if (!O.McastDst.Complete)
    return;
  const Varying *Pos = nullptr;
  for (const Varying &V : O.McastDst.Varies)
    if (!perThread(V) && variesInCluster(K, V)) {
      if (Pos)
        return; // Several reads combine: not one position.
      Pos = &V;
    }
  if (!Pos || Pos->Src != Varying::Source::CtaIndex || Pos->Divisor != 1 ||
      (Pos->Modulus && Pos->Modulus <= K.Cluster[Pos->Dim]))
    return;
  std::string Extent = std::to_string(K.Cluster[Pos->Dim]);
  std::string Dim(1, char('x' + Pos->Dim));
  Diag &D = report(Out, Check::Cluster, O.McastLoc,
                   "the destination of this multicast load reads " +
                       readWords(*Pos) + ", which goes past the " + Extent +
                       " CTAs of the cluster " + shape(K) + " along " + Dim +
                       ": the CTAs of later clusters write their shares past "
                       "the stage's");
  note(D, Pos->Loc,
       "a CTA's share is its place in its own cluster: use "
       "ts::cluster::rank(), or blockIdx." +
           Dim + " % " + Extent);
}

/// `s->m + pos * Stride` with the cluster's N CTAs: the N shares cover the
/// member exactly when N * Stride is its extent; short of it, part of the
/// stage is never loaded, past it a share lands outside the member.
void checkStride(const Kernel &K, const Op &O, DiagList &Out) {
  if (!O.McastStride || !O.McastExtent || !O.McastDst.Complete)
    return;
  // The position must count CTAs: the rank, or a block index modulo.
  unsigned Positions = 0;
  bool Counts = false;
  for (const Varying &V : O.McastDst.Varies)
    if (!perThread(V) && variesInCluster(K, V)) {
      ++Positions;
      Counts = V.Src == Varying::Source::ClusterRank ||
               (V.Src == Varying::Source::CtaIndex && V.Modulus != 0);
    }
  if (Positions != 1 || !Counts)
    return;
  uint64_t N = K.clusterCtas(), Covered = N * *O.McastStride;
  if (Covered == *O.McastExtent)
    return;
  Diag &D = report(
      Out, Check::Cluster, O.McastLoc,
      "the " + std::to_string(N) + " shares of this multicast load cover " +
          std::to_string(Covered) + " of the member's " +
          std::to_string(*O.McastExtent) + " elements, " +
          (Covered < *O.McastExtent ? "so part of the stage is never loaded"
                                    : "so a share lands past the member"));
  note(D, O.McastLoc,
       "each CTA of the cluster " + shape(K) + " loads its share " +
           std::to_string(*O.McastStride) +
           " elements after the previous one's; a stride of " +
           (*O.McastExtent % N ? "the member's extent / " + std::to_string(N)
                               : std::to_string(*O.McastExtent / N)) +
           " (and a box of that size) tiles the member");
}

void checkPartialMask(const Kernel &K, const Op &O, DiagList &Out) {
  uint64_t All = (uint64_t(1) << K.clusterCtas()) - 1, Mask = *O.McastMask;
  if (Mask == All)
    return;
  unsigned Left = 0;
  while ((Mask >> Left) & 1)
    ++Left;
  Diag &D = report(Out, Check::Cluster, O.McastLoc,
                   "TMA multicast mask " + hex(Mask) + " leaves out CTA rank " +
                       std::to_string(Left) + " of the cluster");
  note(D, O.McastLoc,
       "every CTA issues this load, so the stage of rank " +
           std::to_string(Left) +
           " receives none of its bytes while the CTAs in the mask receive "
           "them from all " +
           std::to_string(K.clusterCtas()) +
           ": their phases complete early or never; leave the mask out to "
           "write every CTA");
}

/// A resource whose stages couple the CTAs' pipelines: multicast, or a
/// CTA pair's (rank 0's MMAs read both CTAs' halves).
const Resource *coupledResource(const Program &P, const Task &T) {
  for (const std::vector<unsigned> *Rs : {&T.Produces, &T.Consumes})
    for (unsigned R : *Rs)
      if (P.Resources[R].Multicast || P.Resources[R].Pair)
        return &P.Resources[R];
  return nullptr;
}

std::string coupledWhy(const Kernel &K, const Resource &Res) {
  return "each phase of " + quote(Res.Name) +
         (Res.Pair ? " (ts::cta_pair) needs both CTAs' halves and "
                     "releases, and rank 0's MMAs combine them"
                   : " (ts::multicast) needs the releases and loads of every "
                     "CTA of the cluster") +
         ": loop over clusters (ts::cluster::id() and ts::cluster::count(), "
         "or " +
         clusterIndexWords(K) + ") so every CTA runs the same iterations";
}

/// A coupled stage needs every CTA's releases and loads in each phase, so
/// every CTA must run the same iterations.
void checkTrips(const Program &P, const Kernel &K, const Task &T,
                DiagList &Out) {
  const Resource *Res = coupledResource(P, T);
  if (!Res)
    return;
  for (const Domain *Dom : T.domains()) {
    for (const Varying &V : Dom->Bounds.Varies) {
      if (perThread(V) || !variesInCluster(K, V))
        continue; // per thread: ts-domain says so in any kernel
      Diag &D = report(Out, Check::Cluster, Dom->Loc,
                       "the trip count of this ts::domain loop of task " +
                           quote(T.Name) +
                           " may differ between the CTAs of a cluster");
      note(D, V.Loc,
           "it depends on " + readWords(V) + ", which differs between " +
               clusterWords(K));
      SourceHandle At = Res->Pair ? Res->PairLoc : Res->MulticastLoc;
      note(D, At ? At : Res->Loc, coupledWhy(K, *Res));
      break;
    }
  }
}

} // namespace

void checkCluster(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    if (K.clusterCtas() > 1)
      checkTrips(P, K, P.Tasks[TI], Out);
    for (const Op &O : P.Tasks[TI].Ops) {
      if (O.Kind != OpKind::Work || !O.TmaMulticast)
        continue;
      checkMulticastTarget(P, K, O, Out);
      bool Outside =
          O.McastMask && (*O.McastMask == 0 || *O.McastMask >> K.clusterCtas());
      if (O.McastMask)
        checkMask(K, O, Out);
      if (Outside || K.clusterCtas() == 1 || !P.Resources[O.Resource].Multicast)
        continue;
      if (O.McastMask)
        checkPartialMask(K, O, Out);
      checkStride(K, O, Out);
      checkRange(K, O, Out);
      checkShare(
          K, O, O.McastDst, "to the same destination",
          "offset the destination by this CTA's share (ts::cluster::rank()) so "
          "the shares tile the stage",
          Out);
      checkShare(
          K, O, O.McastCoords, "from the same coordinates",
          "select this CTA's share of the tile with ts::cluster::rank() in the "
          "coordinates",
          Out);
    }
  }
}

} // namespace ts
