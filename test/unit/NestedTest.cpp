//===- NestedTest.cpp - k-loops inside tile loops -------------------------===//
#include "verify/Nested.h"
#include "Builders.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// The GEMM's consumer: per k-step wait, MMA, commit, wait_group<1>, the
/// lagged release, and on the last k-step wait_group<0> and its own release.
struct Gemm {
  Builder B;
  unsigned R = B.resource("Ops", PipelineKind::TmaAsync, 4, 4096);
  Gemm() {
    B.task("mma", 0, 8)
        .consumes(R)
        .loop(std::nullopt, "tiles")
        .inner(std::nullopt, "k")
        .wait(R)
        .mma(R)
        .mmaCommit()
        .mmaWait(1)
        .releaseOldest(R, Guard::NotFirstIter)
        .mmaWait(0, Guard::LastIter)
        .release(R, Guard::LastIter);
    B.task("load", 8, 1)
        .produces(R)
        .loop(std::nullopt, "tiles")
        .inner(std::nullopt, "k")
        .fill(R);
  }
};

TEST(Nested, UnrollsTheInnerLoopWithItsGuards) {
  Gemm G;
  Program V = innerUnrolled(G.B.P, G.B.kernel(), 3);
  const Task &T = V.Tasks[0];
  EXPECT_TRUE(T.Inners.empty());
  // Iteration 0: 4 ops (no lagged release); 1: 5; 2 (last): 5 + 2.
  ASSERT_EQ(T.Ops.size(), 4u + 5u + 7u);
  for (const Op &O : T.Ops) {
    EXPECT_EQ(O.Sec, Section::Loop);
    EXPECT_EQ(O.G, Guard::Always);
  }
  EXPECT_EQ(T.Ops[0].InnerIt, 0);
  EXPECT_EQ(T.Ops[4].InnerIt, 1);
  EXPECT_TRUE(T.Ops[8].Oldest);
  EXPECT_EQ(T.Ops[15].Kind, OpKind::Release);
  EXPECT_FALSE(T.Ops[15].Oldest);
  // Each inner iteration binds its own stage variable; the last release
  // hands back the one its own wait bound.
  EXPECT_NE(T.Ops[0].Stage, T.Ops[4].Stage);
  EXPECT_NE(T.Ops[4].Stage, T.Ops[9].Stage);
  EXPECT_EQ(T.Ops[15].Stage, T.Ops[9].Stage);
  EXPECT_EQ(V.Tasks[1].Ops.size(), 9u); // the producer: 3 x fill
}

TEST(Nested, ZeroInnerIterationsLeaveOnlyTheTileLoop) {
  Gemm G;
  Program V = innerUnrolled(G.B.P, G.B.kernel(), 0);
  EXPECT_TRUE(V.Tasks[0].Ops.empty());
  EXPECT_TRUE(V.Tasks[0].Dom.Present);
}

TEST(Nested, InnerTripCountsUpToStagesPlusThree) {
  Gemm G;
  std::vector<uint64_t> Ns = innerTripCounts(G.B.P, G.B.kernel());
  ASSERT_EQ(Ns.size(), 8u);
  EXPECT_EQ(Ns.front(), 0u);
  EXPECT_EQ(Ns.back(), innerTripBound(4));
  EXPECT_EQ(innerTripBound(4), 7u);
}

TEST(Nested, VerifiesForEveryTileCount) {
  Gemm G;
  KernelPlan Plan = planFor(G.B.P, G.B.kernel());
  VerifyResult R = verifyKernel(G.B.P, G.B.kernel(), Plan);
  EXPECT_TRUE(R.Diags.empty()) << dump(R.Diags);
  ASSERT_TRUE(R.View);
  EXPECT_NE(R.Coverage.find("inner loop 0 to 7 times"), std::string::npos)
      << R.Coverage;
  EXPECT_NE(R.Coverage.find("every trip count"), std::string::npos)
      << R.Coverage;
}

TEST(Nested, ReleaseAfterTheInnerLoopFailsWithNoIterations) {
  Builder B;
  unsigned R = B.resource("Ops", PipelineKind::TmaAsync, 2, 4096);
  B.task("c", 0, 4)
      .consumes(R)
      .loop(std::nullopt, "tiles")
      .inner(std::nullopt, "k")
      .wait(R)
      .mma(R)
      .mmaCommit()
      .mmaWait(1)
      .releaseOldest(R, Guard::NotFirstIter)
      .body()
      .mmaWait(0)
      .releaseOldest(R);
  B.task("p", 4, 1)
      .produces(R)
      .loop(std::nullopt, "tiles")
      .inner(std::nullopt, "k")
      .fill(R);
  KernelPlan Plan = planFor(B.P, B.kernel());
  VerifyResult V = verifyKernel(B.P, B.kernel(), Plan);
  ASSERT_FALSE(V.Diags.empty());
  bool Zero = false;
  for (const Diag &D : V.Diags)
    for (const DiagNote &N : D.Notes)
      Zero |= contains(N.Message, "running 0 times");
  EXPECT_TRUE(Zero) << dump(V.Diags);
}

TEST(Nested, FlatPartnerIsAnError) {
  Builder B;
  unsigned R = B.resource("Ops", PipelineKind::AsyncAsync, 2, 64);
  B.task("c", 0, 1)
      .consumes(R)
      .loop(std::nullopt, "tiles")
      .inner(std::nullopt, "k")
      .drain(R);
  B.task("p", 1, 1).produces(R).loop(std::nullopt, "tiles").fill(R);
  KernelPlan Plan = planFor(B.P, B.kernel());
  DiagList D;
  checkNesting(B.P, B.kernel(), Plan, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Domain);
  EXPECT_EQ(D[0].Message,
            "task 'p' exchanges stages of 'Ops' with task 'c', which nests a "
            "ts::domain loop in its loop, but has no such loop");
}

} // namespace
