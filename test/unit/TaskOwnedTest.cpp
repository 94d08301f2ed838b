//===- TaskOwnedTest.cpp - Shared memory a task owns ----------------------===//
#include "Builders.h"
#include "lower/Lower.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// The GEMM's shape: a 4-stage swizzled pipeline and 32 KiB the consumer owns.
struct GemmLike {
  Builder B;
  unsigned Ops =
      B.resource("Operands", PipelineKind::TmaAsync, 4, 49152, 128, true);
  unsigned Staging =
      B.resource("Staging", PipelineKind::TaskOwned, 1, 32768, 128, true);
  GemmLike() {
    B.task("mma", 0, 8).consumes(Ops).owns(Staging).loop(8).drain(Ops);
    B.task("load", 8, 1).produces(Ops).loop(8).fill(Ops);
  }
};

TEST(TaskOwned, PlacedInTheLayoutWithoutBarriers) {
  GemmLike G;
  KernelPlan Plan = planFor(G.B.P, G.B.kernel());
  const BlockLayout &L = Plan.Layout;
  ASSERT_EQ(L.Resources.size(), 2u);
  const ResourceLayout *O = L.find(G.Ops), *S = L.find(G.Staging);
  ASSERT_TRUE(O && S);
  EXPECT_EQ(O->DataOffset, 0u);
  EXPECT_EQ(S->DataOffset, 196608u); // after 4 x 48 KiB, 1024-aligned
  EXPECT_FALSE(S->Barriers);
  EXPECT_TRUE(O->Barriers);
  EXPECT_EQ(L.DataBytes, 229376u);
  EXPECT_EQ(L.BarrierOffset, 229376u);
  EXPECT_EQ(L.BarrierBytes, 64u); // the pipeline's 2 x 4 barriers only
  EXPECT_EQ(L.DynamicBytes, 229440u + 1008u);
  ASSERT_EQ(Plan.Pipelines.size(), 1u); // no protocol for owned memory
  EXPECT_EQ(Plan.pipeline(G.Staging), nullptr);
}

TEST(TaskOwned, OneOwnerPasses) {
  GemmLike G;
  DiagList D;
  checkRoles(G.B.P, G.B.kernel(), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(TaskOwned, SecondOwnerIsAnError) {
  GemmLike G;
  G.B.task("epilogue", 9, 1).owns(G.Staging);
  DiagList D;
  checkRoles(G.B.P, G.B.kernel(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Roles);
  EXPECT_EQ(D[0].Loc, SourceHandle(900 + G.Staging));
  EXPECT_EQ(D[0].Message, "task-owned resource 'Staging' is taken by task "
                          "'epilogue' and by task 'mma'");
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(TaskOwned, OwnedAloneNeedsNoBarrierInit) {
  Builder B;
  unsigned S = B.resource("Table", PipelineKind::TaskOwned, 1, 4096, 128);
  B.task("t", 0, 4).owns(S).loop(4);
  KernelPlan Plan = planFor(B.P, B.kernel());
  EXPECT_EQ(Plan.Layout.BarrierBytes, 0u);
  EXPECT_EQ(Plan.Layout.DataBytes, 4096u);
  EXPECT_TRUE(Plan.Pipelines.empty());
}

} // namespace
