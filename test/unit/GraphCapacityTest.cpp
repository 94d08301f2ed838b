//===- GraphCapacityTest.cpp - Declared edges and shared memory -----------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(Graph, BackedAndUnbackedEdges) {
  Builder B;
  unsigned A = B.tma("A");
  unsigned Bs = B.resource("B", PipelineKind::AsyncAsync);
  unsigned G = B.resource("Out", PipelineKind::Gmem, 1, 0);
  B.task("load", 0, 1).produces(A).loop(8).fill(A);
  B.task("mma", 1, 1).consumes(A).produces(Bs).loop(8).drain(A).fill(Bs);
  B.task("store", 2, 1).consumes(Bs).produces(G).loop(8).drain(Bs).pwork(G);
  B.edge(A, Bs);
  B.edge(Bs, G);
  B.edge(A, G);
  DiagList D;
  checkGraph(B.P, B.kernel(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Graph);
  EXPECT_EQ(D[0].Loc, 802u);
  EXPECT_EQ(D[0].Message,
            "declared edge 'A' -> 'Out' is not backed by any task");
  EXPECT_TRUE(contains(D[0].Notes[0].Message,
                       "a task must consume 'A' and produce 'Out'"));
}

Builder bigKernel(unsigned Stages, uint64_t Capacity) {
  Builder B;
  unsigned T =
      B.resource("Tiles", PipelineKind::TmaAsync, Stages, 32768, 128, true);
  B.task("store", 0, 4).consumes(T).loop(8).drain(T);
  B.task("load", 4, 1).produces(T).loop(8).fill(T);
  B.kernel().SmemCapacity = Capacity;
  return B;
}

TEST(Capacity, FitsAtSevenStages) {
  // 7 x 32768 + 112 barriers + 1008 slack = 230496 <= 232448.
  Builder B = bigKernel(7, 232448);
  KernelPlan L = planFor(B.P, B.kernel());
  DiagList D;
  checkCapacity(B.P, B.kernel(), L, D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Capacity, OverflowsAtEightStages) {
  Builder B = bigKernel(8, 232448);
  KernelPlan L = planFor(B.P, B.kernel());
  DiagList D;
  checkCapacity(B.P, B.kernel(), L, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Capacity);
  EXPECT_EQ(D[0].Loc, kernelLoc(0));
  EXPECT_EQ(D[0].Message, "kernel 'k' needs 263280 bytes of shared memory; "
                          "the capacity is 232448 bytes");
  ASSERT_EQ(D[0].Notes.size(), 3u);
  EXPECT_EQ(D[0].Notes[0].Message, "'Tiles': 8 stages x 32768 B = 262144 B");
  EXPECT_EQ(D[0].Notes[1].Message,
            "barriers: 128 B, base alignment slack: 1008 B");
  // 30832 bytes over: one 32768-byte stage less fits; the capacity is
  // already all the hardware has, so nothing suggests raising it.
  EXPECT_EQ(D[0].Notes[2].Message,
            "use fewer or smaller stages (ts::stages(7) on 'Tiles' fits): "
            "232448 bytes is all the shared memory a block can use");
}

TEST(Capacity, ALowerLimitMayBeRaisedUpToTheHardware) {
  Builder B = bigKernel(4, 100000);
  KernelPlan L = planFor(B.P, B.kernel());
  DiagList D;
  checkCapacity(B.P, B.kernel(), L, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_TRUE(contains(D[0].Notes.back().Message,
                       "or raise ts::smem_capacity up to 232448 bytes"))
      << dump(D);
}

TEST(Capacity, SlackCounts) {
  // Data + barriers fit exactly, the alignment slack does not.
  Builder B = bigKernel(7, 7 * 32768 + 112);
  KernelPlan L = planFor(B.P, B.kernel());
  DiagList D;
  checkCapacity(B.P, B.kernel(), L, D);
  EXPECT_EQ(D.size(), 1u) << dump(D);
}

TEST(Capacity, StageAlignmentFromTheTargetAndThePayload) {
  // No ts::align: the target's default; a payload's alignas raises it.
  Builder B;
  unsigned T = B.resource("Wide", PipelineKind::AsyncAsync, 2, 100);
  B.P.Resources[T].Align.reset();
  B.P.Resources[T].PayloadAlign = 256;
  unsigned U = B.resource("Plain", PipelineKind::AsyncAsync, 2, 100);
  B.P.Resources[U].Align.reset();
  B.task("p", 0, 1).produces(T).produces(U).loop(2).fill(T).fill(U);
  B.task("c", 1, 1).consumes(T).consumes(U).loop(2).drain(T).drain(U);
  KernelPlan L = planFor(B.P, B.kernel());
  EXPECT_EQ(L.Layout.find(T)->Align, 256u);
  EXPECT_EQ(L.Layout.find(U)->Align, targetSm90a().DefaultStageAlign);
  EXPECT_EQ(L.Layout.find(U)->StageStride, 128u);
  EXPECT_EQ(L.Layout.find(U)->RegionBytes, 256u);
}

} // namespace
