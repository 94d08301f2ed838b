//===- UmmaTest.cpp - tcgen05 pipelines: counts, columns, rules -----------===//
#include "Builders.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// examples/gemm_sm100.cu's shape: TMA warp -> tma_umma -> MMA warp ->
/// umma_async (2 x 256 columns) -> epilogue warpgroup.
struct Gemm {
  Builder B;
  unsigned Ops =
      B.resource("Operands", PipelineKind::TmaUmma, 4, 49152, 128, true);
  unsigned Acc = B.resource("Accum", PipelineKind::UmmaAsync, 2, 0, 1);
  Gemm(unsigned MmaWarps = 1) {
    B.P.Resources[Acc].TmemColumns = 256;
    B.task("load", 0, 1).produces(Ops).loop(8).fill(Ops);
    B.task("mma", 1, MmaWarps)
        .consumes(Ops)
        .produces(Acc)
        .loop(8)
        .fill(Acc)
        .drain(Ops);
    B.task("epilogue", 4, 4).consumes(Acc).loop(8).drain(Acc);
    B.kernel().Arch = TargetArch::Sm100a;
  }
  KernelPlan plan() { return buildPlan(B.P, B.kernel(), targetSm100a()); }
  /// Marks the MMA task's work on both stages as tcgen05 MMAs.
  void mmaWork() {
    for (Op &O : B.P.Tasks[1].Ops)
      if (O.Kind == OpKind::Work)
        O.UmmaAccess = true;
  }
};

TEST(Umma, CountsFromTheProtocolTable) {
  Gemm G;
  KernelPlan Plan = G.plan();
  const PipelinePlan *O = Plan.pipeline(G.Ops), *A = Plan.pipeline(G.Acc);
  ASSERT_TRUE(O && A);
  EXPECT_EQ(O->Counts.Full, 1u);  // the loader's arrive.expect_tx
  EXPECT_EQ(O->Counts.Empty, 1u); // the MMA warp's one commit
  EXPECT_EQ(O->TxBytes, 49152u);
  EXPECT_EQ(A->Counts.Full, 1u);    // the MMA warp's one commit
  EXPECT_EQ(A->Counts.Empty, 128u); // every epilogue thread, after its loads
  EXPECT_EQ(A->TxBytes, 0u);
  EXPECT_FALSE(A->consumerReadsAsync(2)); // never one lane per warp
}

TEST(Umma, ThreadAndMmaKindsCountFromTheSameTable) {
  // threads (a warpgroup) -> async_umma -> MMA warp -> umma_umma -> MMA warp
  Builder B;
  unsigned Made = B.resource("Made", PipelineKind::AsyncUmma, 2, 4096);
  unsigned Mid = B.resource("Mid", PipelineKind::UmmaUmma, 2, 0, 1);
  B.P.Resources[Mid].TmemColumns = 128;
  B.task("make", 4, 4).produces(Made).loop(8).fill(Made);
  B.task("first", 0, 1)
      .consumes(Made)
      .produces(Mid)
      .loop(8)
      .drain(Made)
      .fill(Mid);
  B.task("second", 1, 1).consumes(Mid).loop(8).drain(Mid);
  B.kernel().Arch = TargetArch::Sm100a;
  for (unsigned T : {1u, 2u})
    for (Op &O : B.P.Tasks[T].Ops)
      if (O.Kind == OpKind::Work)
        O.UmmaAccess = true;
  KernelPlan Plan = buildPlan(B.P, B.kernel(), targetSm100a());
  const PipelinePlan *A = Plan.pipeline(Made), *M = Plan.pipeline(Mid);
  ASSERT_TRUE(A && M);
  EXPECT_EQ(A->Counts.Full, 128u); // every producer thread, after its fence
  EXPECT_EQ(A->Counts.Empty, 1u);  // the MMA warp's one commit
  EXPECT_EQ(M->Counts.Full, 1u);   // a commit each way
  EXPECT_EQ(M->Counts.Empty, 1u);
  EXPECT_EQ(A->TxBytes + M->TxBytes, 0u);
  ASSERT_NE(Plan.Tmem.find(Mid), nullptr);
  EXPECT_EQ(Plan.Tmem.find(Mid)->Stride, 128u);
  DiagList D;
  checkUmma(B.P, B.kernel(), Plan, D);
  EXPECT_TRUE(D.empty()) << dump(D);
  B.P.Tasks[2].Ops[1].UmmaAccess = false; // `second` reads Mid with threads
  checkUmma(B.P, B.kernel(), Plan, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "task 'second' reads a stage of 'Mid' with its threads; the "
            "release commits for the MMAs only and does not wait for those "
            "reads");
}

TEST(Umma, ForkedStageHasAThreadReaderBesideTheMmaTask) {
  Gemm G;
  G.mmaWork();
  G.B.task("rowsum", 8, 4).consumes(G.Ops).loop(8).drain(G.Ops);
  const unsigned Sum = 3; // load, mma, epilogue, rowsum
  KernelPlan Plan = G.plan();
  DiagList D;
  checkUmma(G.B.P, G.B.kernel(), Plan, D); // without ts::fork: refused
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Message, "task 'rowsum' hands stages of 'Operands' over by "
                          "tcgen05.commit on 4 warps");
  G.B.P.Resources[G.Ops].Fork = true;
  Plan = G.plan();
  const PipelinePlan *O = Plan.pipeline(G.Ops);
  ASSERT_NE(O, nullptr);
  EXPECT_TRUE(O->releasesByCommit(1));    // the MMA task
  EXPECT_FALSE(O->releasesByCommit(Sum)); // the thread reader
  EXPECT_EQ(O->Counts.Empty, 1u + 128u);  // a commit and 128 arrivals
  D.clear();
  checkUmma(G.B.P, G.B.kernel(), Plan, D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Umma, AccumulatorStagesInTensorMemory) {
  Gemm G;
  KernelPlan Plan = G.plan();
  const TmemRegion *R = Plan.Tmem.find(G.Acc);
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Stages, 2u);
  EXPECT_EQ(R->Stride, 256u);
  EXPECT_EQ(R->Columns, 512u);
  EXPECT_EQ(Plan.Tmem.Alloc, 512u);
  // Barriers in shared memory, no data there.
  const ResourceLayout *L = Plan.Layout.find(G.Acc);
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->RegionBytes, 0u);
  EXPECT_TRUE(L->Barriers);
}

TEST(Umma, CleanScheduleHasNoFindings) {
  Gemm G;
  G.mmaWork();
  DiagList D;
  checkUmma(G.B.P, G.B.kernel(), G.plan(), D);
  checkTarget(G.B.P, G.B.kernel(), G.plan(), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Umma, MmaTaskIsOneWarp) {
  Gemm G(4);
  G.mmaWork();
  DiagList D;
  checkUmma(G.B.P, G.B.kernel(), G.plan(), D);
  ASSERT_EQ(D.size(), 2u) << dump(D); // both of its tcgen05 sides
  EXPECT_EQ(D[0].Group, Check::Roles);
  EXPECT_EQ(D[0].Message,
            "task 'mma' issues the tcgen05 MMAs of 'Operands' on 4 warps");
}

TEST(Umma, MmaOnAThreadReleasedStage) {
  Gemm G;
  G.B.P.Resources[G.Ops].Kind = PipelineKind::TmaAsync;
  G.mmaWork();
  DiagList D;
  checkUmma(G.B.P, G.B.kernel(), G.plan(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Ownership);
  EXPECT_EQ(D[0].Message, "a tcgen05 MMA uses a stage of 'Operands', a "
                          "ts::tma_async resource whose hand-back does not "
                          "wait for it");
}

TEST(Umma, ThreadsReadACommittedStage) {
  Gemm G; // the MMA task's work is plain thread reads and writes
  DiagList D;
  checkUmma(G.B.P, G.B.kernel(), G.plan(), D);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "task 'mma' accesses a stage of 'Accum' with its threads; the "
            "commit covers the MMAs only and does not wait for those "
            "accesses");
  EXPECT_EQ(D[1].Message,
            "task 'mma' reads a stage of 'Operands' with its threads; the "
            "release commits for the MMAs only and does not wait for those "
            "reads");
}

TEST(Umma, HopperKernelHasNoTcgen05) {
  Gemm G;
  G.B.kernel().Arch = TargetArch::Sm90a;
  DiagList D;
  checkTarget(G.B.P, G.B.kernel(),
              buildPlan(G.B.P, G.B.kernel(), targetSm90a()), D);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Message, "'Accum' lives in tensor memory, which kernel 'k' "
                          "(target sm_90a) does not have");
  EXPECT_EQ(D[1].Message,
            "ts::tma_umma resource 'Operands' is read by tcgen05 MMAs, which "
            "kernel 'k' (target sm_90a) does not have");
}

TEST(Umma, TensorMemoryInAClusterWhenTheSmsCtasAllFit) {
  Gemm G; // 49152-byte stages x 4: one CTA per SM
  G.B.kernel().Cluster[0] = 2;
  KernelPlan Plan = G.plan();
  EXPECT_EQ(Plan.CtasPerSm, 1u);
  DiagList D;
  checkTarget(G.B.P, G.B.kernel(), Plan, D);
  EXPECT_TRUE(D.empty()) << dump(D);
  // One 4096-byte stage: 2048 threads / 256 allow 8 CTAs, x 512 columns.
  G.B.P.Resources[G.Ops].PayloadBytes = 4096;
  G.B.P.Resources[G.Ops].Stages = 1;
  Plan = G.plan();
  EXPECT_EQ(Plan.CtasPerSm, 8u);
  checkTarget(G.B.P, G.B.kernel(), Plan, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "tensor memory in a kernel whose CTAs wait for each "
                          "other (a cluster): 8 of its CTAs fit on one SM, "
                          "and 8 x 512 columns exceed the 512 there");
}

/// The pair form of the GEMM (examples/gemm_sm100.cu -DGEMM_SM100_PAIR):
/// both tcgen05 resources ts::cta_pair, a cluster of two.
struct PairGemm : Gemm {
  PairGemm() {
    B.P.Resources[Ops].Pair = B.P.Resources[Acc].Pair = true;
    B.kernel().Cluster[0] = 2;
  }
  DiagList check() {
    DiagList D;
    checkPairs(B.P, B.kernel(), plan(), D);
    return D;
  }
};

TEST(Umma, PairCountsRouteToRankZero) {
  PairGemm G;
  KernelPlan Plan = G.plan();
  EXPECT_EQ(Plan.CtaGroup, 2u);
  EXPECT_EQ(Plan.PairLeaders, std::vector<unsigned>{1u}); // mma only
  const PipelinePlan *O = Plan.pipeline(G.Ops), *A = Plan.pipeline(G.Acc);
  ASSERT_TRUE(O && A);
  EXPECT_TRUE(O->Pair && A->Pair);
  EXPECT_EQ(O->Counts.Full, 1u);      // rank 0's leader arms for both
  EXPECT_EQ(O->TxBytes, 49152u);      // what each CTA's loads deliver
  EXPECT_EQ(O->armedBytes(), 98304u); // both halves on rank 0's barrier
  EXPECT_EQ(O->Counts.Empty, 1u);     // the multicast commit, per CTA
  EXPECT_EQ(A->Counts.Full, 1u);      // the multicast commit, per CTA
  EXPECT_EQ(A->Counts.Empty, 256u);   // both CTAs' epilogue threads
  EXPECT_EQ(O->Peers, 2u);
  EXPECT_TRUE(G.check().empty()) << dump(G.check());
  // The one-CTA form keeps its counts.
  Gemm One;
  EXPECT_EQ(One.plan().CtaGroup, 1u);
  EXPECT_TRUE(One.plan().PairLeaders.empty());
}

TEST(Umma, PairClcQueueCountsTheMmaTaskOnce) {
  PairGemm G;
  unsigned Next = G.B.resource("Next", PipelineKind::ClcAsync, 2, 16);
  G.B.task("sched", 2, 1).produces(Next).loop(8).fill(Next);
  TaskRef(G.B, 1).consumes(Next); // mma: rank 0 only
  TaskRef(G.B, 2).consumes(Next); // epilogue: both ranks
  KernelPlan Plan = G.plan();
  const PipelinePlan *Q = Plan.pipeline(Next);
  ASSERT_TRUE(Q);
  // Rank 0's empty barrier: mma's 32 threads once, the epilogue's 128 and
  // each scheduler's lane on both CTAs.
  EXPECT_EQ(Q->Counts.Empty, 32u + 2u * 128u + 2u);
}

TEST(Umma, PairNeedsAClusterOfTwoAndEveryTcgen05ResourcePaired) {
  PairGemm G;
  G.B.kernel().Cluster[0] = 4;
  DiagList D = G.check();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "kernel 'k' uses CTA-pair resource 'Operands' but "
                          "its cluster is 4 CTAs");
  G.B.kernel().Cluster[0] = 2;
  G.B.P.Resources[G.Acc].Pair = false;
  D = G.check();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "tcgen05 resource 'Accum' of kernel 'k' is not "
                          "ts::cta_pair, but 'Operands' is");
}

TEST(Umma, PairMmaTaskTouchesOnlyPairedStages) {
  PairGemm G;
  unsigned Bias = G.B.resource("Bias", PipelineKind::TmaAsync, 2, 1024);
  G.B.task("bias", 2, 1).produces(Bias).loop(8).fill(Bias);
  TaskRef(G.B, 1).consumes(Bias);
  DiagList D = G.check();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "task 'mma' issues the CTA pair's MMAs, so it runs "
                          "on rank 0 only, yet it takes part in 'Bias'");
}

TEST(Umma, MulticastOperandsCountEachCtasCommit) {
  Gemm G;
  G.B.P.Resources[G.Ops].Multicast = true;
  G.B.kernel().Cluster[0] = 2;
  const PipelinePlan *O = nullptr;
  KernelPlan Plan = G.plan();
  O = Plan.pipeline(G.Ops);
  ASSERT_TRUE(O);
  EXPECT_FALSE(O->Pair);
  EXPECT_EQ(O->Peers, 2u);
  EXPECT_EQ(O->McastMask, 0x3u);
  EXPECT_EQ(O->Counts.Empty, 2u);     // the MMA task's commit, from each CTA
  EXPECT_EQ(O->armedBytes(), 49152u); // every byte lands in each CTA
}

} // namespace
