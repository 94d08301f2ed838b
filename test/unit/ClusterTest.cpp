//===- ClusterTest.cpp - Clusters, multicast and nonempty k-loops ---------===//
#include "Builders.h"

#include "lower/Lower.h"
#include "verify/Nested.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// A TMA producer and an 8-warp consumer of a multicast resource, in a
/// kernel of `Ctas` CTAs along x. `AsyncOnly`: the consumer reads the stage
/// only through MMAs (and descriptors), else with threads too.
struct Pair {
  Builder B;
  unsigned R;
  Pair(unsigned Ctas, bool AsyncOnly = false) {
    R = B.tma("Ops", 4, 4096);
    B.P.Resources[R].Multicast = true;
    B.task("load", 8, 1).produces(R).loop(std::nullopt).body().fill(R);
    TaskRef Use =
        B.task("mma", 0, 8).consumes(R).loop(std::nullopt).body().wait(R);
    if (AsyncOnly) {
      Use.cwork(R);
      B.P.Tasks.back().Ops.back().AddressOnly = true;
      Use.mma(R).mmaCommit().mmaWait(0).release(R);
      for (Op &O : B.P.Tasks.back().Ops)
        O.MayStoreAsync = false; // only libts's MMA calls: no TMA store
    } else {
      Use.cwork(R).release(R);
    }
    B.kernel().Cluster[0] = Ctas;
  }
  KernelPlan plan() { return planFor(B.P, B.kernel()); }
  std::string lower() {
    KernelSource KS;
    KS.Name = "k";
    KS.QualifiedName = "::k";
    KS.ParamsText = "const Params p";
    std::vector<TaskSource> Src;
    for (const Task &T : B.P.Tasks)
      Src.push_back({"::" + T.Name});
    return kernelTraits(plan(), KS) +
           lowerKernel(B.P, B.kernel(), plan(), KS, Src);
  }
  /// The producer's work op: a multicast load of this CTA's share (its
  /// destination and coordinates read the cluster rank).
  Op &load() {
    Op &O = B.P.Tasks[0].Ops[1];
    O.TmaMulticast = true;
    O.McastDst.Varies = O.McastCoords.Varies = {rank()};
    return O;
  }
  static Varying rank() {
    return {Varying::Source::ClusterRank, 0, 1, 0, "ts::cluster::rank()", 0};
  }
  static Varying ctaIndex(unsigned Dim, uint64_t Divisor) {
    return {Varying::Source::CtaIndex, Dim, Divisor, 0, "blockIdx", 0};
  }
};

bool has(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

TEST(Cluster, MulticastEmptyBarrierCountsEveryWarpOfEveryCta) {
  Pair P(2);
  KernelPlan Plan = P.plan();
  const PipelinePlan &PP = *Plan.pipeline(P.R);
  EXPECT_EQ(PP.Peers, 2u);
  EXPECT_EQ(PP.McastMask, 3u);
  EXPECT_EQ(PP.Counts.Empty, 16u); // 8 consumer warps x 2 CTAs
  EXPECT_EQ(PP.Counts.Full, 1u);   // one producer task; bytes do the rest
  EXPECT_EQ(PP.TxBytes, 4096u);    // the whole stage lands in each CTA
  EXPECT_EQ(Plan.ClusterCtas, 2u);
}

TEST(Cluster, OneCtaClusterKeepsThePerThreadProtocol) {
  Pair P(1);
  KernelPlan Plan = P.plan();
  const PipelinePlan &PP = *Plan.pipeline(P.R);
  EXPECT_EQ(PP.Peers, 1u);
  EXPECT_EQ(PP.Counts.Empty, 256u);
  std::string S = P.lower();
  EXPECT_FALSE(has(S, "cluster")) << S;
  EXPECT_TRUE(has(S, "  __syncthreads();\n")) << S;
}

TEST(Cluster, AsyncOnlyReadersAreTheRelaxedOnes) {
  EXPECT_TRUE(Pair(2, true).plan().pipeline(0)->consumerReadsAsync(1));
  EXPECT_FALSE(Pair(2, false).plan().pipeline(0)->consumerReadsAsync(1));
  // An MMA statement that may also start a TMA store: each thread waits for
  // its own store reads, so the warp must meet before lane i arrives.
  Pair Stores(2, true);
  Stores.B.P.Tasks[1].Ops[2].MayStoreAsync = true;
  EXPECT_FALSE(Stores.plan().pipeline(0)->consumerReadsAsync(1));
}

TEST(Cluster, LoweringSyncsTheClusterAndPassesThePeers) {
  Pair P(2, true);
  std::string S = P.lower();
  EXPECT_TRUE(has(S, "static constexpr unsigned cluster_x = 2u, cluster_y = "
                     "1u, cluster_z = 1u;"))
      << S;
  EXPECT_TRUE(has(S, "4u, 16u); // Ops.empty")) << S;
  EXPECT_TRUE(has(S, "    ::ts::detail::fence_barrier_init();\n  }\n"
                     "  ::ts::detail::expect_cluster_ctas<2u>();\n"
                     "  ::ts::detail::cluster_sync();\n"))
      << S;
  EXPECT_FALSE(has(S, "__syncthreads")) << S;
  EXPECT_TRUE(has(S, "::ts::pipeline_kind::tma_async, 2u, 3u}; // Ops")) << S;
  // Consumer: no TMA stores (so no store wait), relaxed hand-backs.
  EXPECT_TRUE(has(S, "(ts_pipe_0, ts_cons_0, "
                     "::ts::detail::release_mode::at_once_unfenced)"))
      << S;
  // The exit sync is the body's last statement.
  EXPECT_TRUE(has(S, "  ::ts::detail::cluster_sync();\n}\n")) << S;
}

TEST(Cluster, ThreadReadersHandBackWithARelease) {
  Pair P(2, false);
  EXPECT_TRUE(has(P.lower(), "0>(ts_pipe_0, ts_cons_0));")) << P.lower();
}

std::vector<std::string> clusterErrors(Pair &P) {
  DiagList D;
  checkCluster(P.B.P, P.B.kernel(), D);
  std::vector<std::string> Out;
  for (const Diag &X : D) {
    EXPECT_EQ(X.Group, Check::Cluster);
    Out.push_back(X.Message);
  }
  return Out;
}

TEST(Cluster, MulticastNeedsAMulticastResource) {
  Pair P(2);
  P.load().TmaMulticast = true;
  EXPECT_TRUE(clusterErrors(P).empty());
  P.B.P.Resources[P.R].Multicast = false;
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "TMA multicast into 'Ops', which is not ts::multicast"});
}

TEST(Cluster, MasksStayInsideTheCluster) {
  Pair P(4);
  P.load().TmaMulticast = true;
  P.load().McastMask = 0xf;
  EXPECT_TRUE(clusterErrors(P).empty());
  P.load().McastMask = 0x11;
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{"TMA multicast mask 0x11 names CTA rank "
                                     "4, outside the cluster of 4 CTAs"});
  P.load().McastMask = 0;
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{"TMA multicast mask 0 writes no CTA"});
}

TEST(Cluster, EveryCtaRunsTheSameIterations) {
  Pair P(2);
  P.load();
  Domain &Load = P.B.P.Tasks[0].Dom, &Use = P.B.P.Tasks[1].Dom;
  Load.Bounds.Varies =
      Use.Bounds.Varies = {Pair::ctaIndex(0, 2)}; // blockIdx.x / 2
  EXPECT_TRUE(clusterErrors(P).empty());
  Use.Bounds.Varies = {Pair::ctaIndex(0, 4)}; // the index of a pair of pairs
  EXPECT_TRUE(clusterErrors(P).empty());
  Use.Bounds.Varies = {Pair::ctaIndex(0, 1)}; // blockIdx.x
  const std::string Msg = "the trip count of this ts::domain loop of task "
                          "'mma' may differ between the CTAs of a cluster";
  EXPECT_EQ(clusterErrors(P), std::vector<std::string>{Msg});
  Use.Bounds.Varies = {Pair::ctaIndex(0, 3)};
  EXPECT_EQ(clusterErrors(P), std::vector<std::string>{Msg});
  Use.Bounds.Varies = {Pair::ctaIndex(1, 1)}; // blockIdx.y: one row per cluster
  EXPECT_TRUE(clusterErrors(P).empty());
  P.B.kernel().Cluster[0] = 1, P.B.kernel().Cluster[1] = 2; // a cluster along y
  EXPECT_EQ(clusterErrors(P), std::vector<std::string>{Msg});
  Use.Bounds.Varies = {Pair::ctaIndex(0, 1)};
  EXPECT_TRUE(clusterErrors(P).empty());
  Use.Bounds.Varies = {Pair::rank()};
  EXPECT_EQ(clusterErrors(P), std::vector<std::string>{Msg});
  P.B.P.Resources[P.R].Multicast = false; // no coupling between the CTAs
  P.B.P.Tasks[0].Ops[1].TmaMulticast = false;
  EXPECT_TRUE(clusterErrors(P).empty());
}

TEST(Cluster, EachCtaLoadsItsOwnShare) {
  Pair P(4);
  Op &L = P.load();
  EXPECT_TRUE(clusterErrors(P).empty());
  L.McastDst.Varies = {Pair::ctaIndex(0, 4)}; // the same in every CTA
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "every CTA of the cluster multicasts this load to the same "
                "destination"});
  L.McastDst.Varies = {Pair::ctaIndex(0, 1)};
  L.McastDst.Varies.front().Modulus = 4; // blockIdx.x % 4
  L.McastCoords.Varies = {};
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "every CTA of the cluster multicasts this load from the same "
                "coordinates"});
  L.McastCoords.Complete = false; // read from memory: refused, not trusted
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "cannot verify that the CTAs of the cluster multicast this "
                "load from the same coordinates only once: its position reads "
                "a value the analysis does not follow"});
  L.McastCoords.Varies = {Pair::rank()}; // a position found decides
  EXPECT_TRUE(clusterErrors(P).empty());
  L.McastDst.Varies.front().Modulus =
      2; // blockIdx.x % 2 repeats in a cluster of 4
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "two CTAs of the cluster multicast this load to the same "
                "destination"});
  L.McastDst.Varies.front().Modulus = 4;
  EXPECT_TRUE(clusterErrors(P).empty());
  L.McastDst.Varies.push_back(Pair::ctaIndex(0, 2)); // two reads: not judged
  L.McastDst.Varies.front().Modulus = 2;
  EXPECT_TRUE(clusterErrors(P).empty());
  L.McastMask = 0x7;
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "TMA multicast mask 0x7 leaves out CTA rank 3 of the cluster"});
}

TEST(Cluster, TheSharesTileTheMember) {
  Pair P(4);
  Op &L = P.load();
  L.McastExtent = 2048;
  L.McastStride = 512; // 4 x 512: exactly the member
  EXPECT_TRUE(clusterErrors(P).empty());
  L.McastStride = 256;
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "the 4 shares of this multicast load cover 1024 of the "
                "member's 2048 elements, so part of the stage is never "
                "loaded"});
  L.McastDst.Varies = {Pair::ctaIndex(0, 1)}; // blockIdx.x: not 0..3
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "the destination of this multicast load reads blockIdx, "
                "which goes past the 4 CTAs of the cluster (4, 1, 1) along "
                "x: the CTAs of later clusters write their shares past the "
                "stage's"});
}

TEST(Cluster, APositionStaysInsideTheCluster) {
  Pair P(4);
  Op &L = P.load();
  L.McastDst.Varies = {Pair::ctaIndex(0, 1)};
  for (uint64_t Mod : {4, 8, 0}) {
    L.McastDst.Varies.front().Modulus = Mod;
    EXPECT_EQ(clusterErrors(P).size(), Mod == 4 ? 0u : 1u) << Mod;
  }
  L.McastDst.Varies = {Pair::rank()};
  EXPECT_TRUE(clusterErrors(P).empty());
  L.McastCoords.Varies = {Pair::ctaIndex(0, 1)}; // whole in coordinates: fine
  EXPECT_TRUE(clusterErrors(P).empty());
}

TEST(Cluster, APositionAlongOneDimensionRepeatsAlongAnother) {
  Pair P(4);
  Op &L = P.load();
  L.McastDst.Varies = {Pair::ctaIndex(0, 1)};
  L.McastDst.Varies.front().Modulus = 4; // blockIdx.x % 4, all of a 4 x 1
  EXPECT_TRUE(clusterErrors(P).empty());
  P.B.kernel().Cluster[0] = 2; // 2 x 2: the CTAs along y share blockIdx.x % 2
  P.B.kernel().Cluster[1] = 2;
  L.McastDst.Varies.front().Modulus = 2;
  EXPECT_EQ(clusterErrors(P),
            std::vector<std::string>{
                "two CTAs of the cluster multicast this load to the same "
                "destination"});
}

TEST(Cluster, MulticastPairVerifiesLikeOneCta) {
  Pair P(2, true);
  P.load().TmaMulticast = true;
  KernelPlan Plan = P.plan();
  VerifyResult V = verifyKernel(P.B.P, P.B.kernel(), Plan);
  EXPECT_TRUE(V.Diags.empty());
  EXPECT_FALSE(V.Sim.Deadlocked);
}

TEST(NonEmpty, InnerCountsStartAtOneWhenALoopTraps) {
  Builder B;
  unsigned R = B.tma("Ops", 2, 4096);
  B.task("load", 0, 1)
      .produces(R)
      .loop(std::nullopt)
      .inner(std::nullopt)
      .fill(R);
  B.task("use", 1, 1)
      .consumes(R)
      .loop(std::nullopt)
      .inner(std::nullopt)
      .drain(R);
  EXPECT_EQ(innerTripCounts(B.P, B.kernel()).front(), 0u);
  B.P.Tasks[1].Inners[0].NonEmpty = true;
  std::vector<uint64_t> Ns = innerTripCounts(B.P, B.kernel());
  EXPECT_EQ(Ns.front(), 1u);
  EXPECT_EQ(Ns.back(), innerTripBound(2));
}

TEST(NonEmpty, OnlyASurelyReachedLoopTraps) {
  Builder B;
  unsigned R = B.tma("Ops", 2, 4096);
  unsigned Once = B.resource("Once", PipelineKind::AsyncAsync, 1, 128);
  B.task("load", 0, 1)
      .produces(R)
      .produces(Once)
      .loop(std::nullopt)
      .fill(Once)
      .inner(std::nullopt)
      .fill(R);
  // Waits for a stage before its k-loop: with no k-step it may block first.
  B.task("use", 1, 1)
      .consumes(R)
      .consumes(Once)
      .loop(std::nullopt)
      .drain(Once)
      .inner(std::nullopt)
      .drain(R);
  B.P.Tasks[1].Inners[0].NonEmpty = true;
  EXPECT_FALSE(trapsWhenEmpty(B.P.Tasks[1]));
  EXPECT_EQ(innerTripCounts(B.P, B.kernel()).front(), 0u);
  // An acquire may block too (the consumer never hands the stage back)...
  B.P.Tasks[0].Inners[0].NonEmpty = true;
  EXPECT_FALSE(trapsWhenEmpty(B.P.Tasks[0]));
  // ...but with every k-loop of the pair nonempty(), an empty run traps
  // where a task reaches its loop, or blocks before any loop as count 1
  // does: count 0 is not a run of its own.
  EXPECT_EQ(innerTripCounts(B.P, B.kernel()).front(), 1u);
}

} // namespace
