//===- LayoutTest.cpp - Shared-memory layout and arrival counts -----------===//
#include "Builders.h"
#include "plan/Plan.h"
#include "report/Report.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(Layout, SwizzledCopyKernel) {
  Builder B;
  unsigned Tiles = B.resource("Tiles", PipelineKind::TmaAsync, 4, 16384, 128,
                              /*Swizzled=*/true);
  B.task("store", 0, 4).consumes(Tiles).loop(8).drain(Tiles);
  B.task("load", 4, 1).produces(Tiles).loop(8).fill(Tiles);
  KernelPlan Plan = planFor(B.P, B.kernel());
  const BlockLayout &L = Plan.Layout;

  ASSERT_EQ(L.Resources.size(), 1u);
  const ResourceLayout &R = L.Resources[0];
  EXPECT_EQ(R.Align, 1024u);
  EXPECT_EQ(R.StageStride, 16384u);
  EXPECT_EQ(R.DataOffset, 0u);
  EXPECT_EQ(L.DataBytes, 65536u);
  EXPECT_EQ(L.BarrierOffset, 65536u);
  EXPECT_EQ(R.FullBarOffset, 65536u);
  EXPECT_EQ(R.EmptyBarOffset, 65568u);
  EXPECT_EQ(L.BarrierBytes, 64u);
  EXPECT_EQ(L.TotalBytes, 65600u);
  EXPECT_EQ(L.BaseAlign, 1024u);
  EXPECT_EQ(L.DynamicBytes, 65600u + 1008u);
  EXPECT_EQ(Plan.pipeline(Tiles)->Counts.Full,
            1u); // One expect_tx per producer task.
  EXPECT_EQ(Plan.pipeline(Tiles)->Counts.Empty, 128u); // Four consumer warps.
  EXPECT_EQ(Plan.pipeline(Tiles)->ConsumerStartPhase, 0u);
  EXPECT_EQ(Plan.pipeline(Tiles)->ProducerStartPhase, 1u);
  EXPECT_EQ(L.find(Tiles), &L.Resources[0]);
  EXPECT_EQ(L.find(7), nullptr);
}

TEST(Layout, SortsByAlignmentAndPlacesBarriersInUseOrder) {
  Builder B;
  unsigned A = B.resource("A", PipelineKind::AsyncAsync, 2, 100, 128);
  unsigned Bs = B.resource("B", PipelineKind::TmaAsync, 3, 1500, 128, true);
  unsigned G = B.resource("G", PipelineKind::Gmem, 1, 0);
  B.task("t0", 0, 4).consumes(A).produces(G).loop(4).drain(A).pwork(G);
  B.task("t1", 4, 1).produces(A).produces(Bs).loop(4).fill(A).fill(Bs);
  B.task("t2", 5, 1).consumes(Bs).loop(4).drain(Bs);
  KernelPlan Plan = planFor(B.P, B.kernel());
  const BlockLayout &L = Plan.Layout;

  ASSERT_EQ(L.Resources.size(), 2u); // gmem has no layout.
  const ResourceLayout *LA = L.find(A), *LB = L.find(Bs);
  ASSERT_TRUE(LA && LB);
  EXPECT_EQ(L.find(G), nullptr);
  EXPECT_EQ(LA->StageStride, 128u);
  EXPECT_EQ(LB->StageStride, 2048u);
  EXPECT_EQ(LB->DataOffset, 0u); // 1024-aligned block first.
  EXPECT_EQ(LA->DataOffset, 6144u);
  EXPECT_EQ(L.DataBytes, 6400u);
  // Barriers follow first-use order: A, then B.
  EXPECT_EQ(LA->FullBarOffset, 6400u);
  EXPECT_EQ(LA->EmptyBarOffset, 6416u);
  EXPECT_EQ(LB->FullBarOffset, 6432u);
  EXPECT_EQ(LB->EmptyBarOffset, 6456u);
  EXPECT_EQ(L.BarrierBytes, 80u);
  EXPECT_EQ(L.TotalBytes, 6480u);
  EXPECT_EQ(L.DynamicBytes, 6480u + 1008u);
  // async_async: every producer thread arrives.
  EXPECT_EQ(Plan.pipeline(A)->Counts.Full, 32u);
  EXPECT_EQ(Plan.pipeline(A)->Counts.Empty, 128u);
  EXPECT_EQ(Plan.pipeline(Bs)->Counts.Full, 1u);
  EXPECT_EQ(Plan.pipeline(Bs)->Counts.Empty, 32u);
}

TEST(Layout, ArrivalCountsSumOverTasks) {
  Builder B;
  unsigned X = B.resource("X", PipelineKind::AsyncAsync, 2, 256);
  unsigned Y = B.tma("Y", 2, 256);
  B.task("p0", 0, 2).produces(X).produces(Y).loop(4).fill(X).fill(Y);
  B.task("p1", 2, 1).produces(X).produces(Y).loop(4).fill(X).fill(Y);
  B.task("c0", 4, 4).consumes(X).consumes(Y).loop(4).drain(X).drain(Y);
  B.task("c1", 8, 4).consumes(X).consumes(Y).loop(4).drain(X).drain(Y);
  KernelPlan Plan = planFor(B.P, B.kernel());
  ArrivalCounts CX = Plan.pipeline(X)->Counts;
  ArrivalCounts CY = Plan.pipeline(Y)->Counts;
  EXPECT_EQ(CX.Full, 96u);
  EXPECT_EQ(CX.Empty, 256u);
  EXPECT_EQ(CY.Full, 2u);
  EXPECT_EQ(CY.Empty, 256u);
  // The TMA stage expects its bytes once: p0 arms them, p1 only arrives.
  EXPECT_TRUE(Plan.pipeline(Y)->armsTxBytes(0));
  EXPECT_FALSE(Plan.pipeline(Y)->armsTxBytes(1));
  EXPECT_FALSE(Plan.pipeline(X)->armsTxBytes(0)); // No bytes to arm.
}

// A consumer whose reads of a stage are all awaited MMAs arrives once per
// warp (lane 0, after the warp-aligned wait_group); one that reads with
// threads, once per thread. The count sums over the consumer tasks.
TEST(Layout, AsyncReadersArriveOncePerWarp) {
  Builder B;
  unsigned X = B.tma("X", 2, 256);
  B.task("p", 0, 1).produces(X).loop(4).fill(X);
  B.task("mma", 4, 8)
      .consumes(X)
      .loop(4)
      .wait(X)
      .mma(X)
      .mmaCommit()
      .mmaWait(0)
      .release(X);
  B.task("reader", 12, 1).consumes(X).loop(4).drain(X);
  for (Op &O : B.P.Tasks[1].Ops)
    O.MayStoreAsync = false; // only libts's MMA calls: no TMA store
  KernelPlan Plan = planFor(B.P, B.kernel());
  EXPECT_TRUE(Plan.pipeline(X)->consumerReadsAsync(1));
  EXPECT_FALSE(Plan.pipeline(X)->consumerReadsAsync(2));
  EXPECT_EQ(Plan.pipeline(X)->Counts.Empty, 8u + 32u);
}

TEST(Layout, SmallAlignmentNeedsNoSlack) {
  Builder B;
  unsigned S = B.resource("Small", PipelineKind::AsyncAsync, 1, 12, 4);
  B.task("p", 0, 1).produces(S).loop(2).fill(S);
  B.task("c", 1, 1).consumes(S).loop(2).drain(S);
  KernelPlan Plan = planFor(B.P, B.kernel());
  const BlockLayout &L = Plan.Layout;
  EXPECT_EQ(L.DataBytes, 12u);
  EXPECT_EQ(L.BarrierOffset, 16u); // Barriers are 8-byte aligned.
  EXPECT_EQ(L.TotalBytes, 32u);
  EXPECT_EQ(L.BaseAlign, 16u);
  EXPECT_EQ(L.DynamicBytes, 32u);
}

TEST(Layout, ReportListsResourcesBarriersAndTotals) {
  Builder B;
  unsigned Tiles =
      B.resource("Tiles", PipelineKind::TmaAsync, 4, 16384, 128, true);
  B.task("store", 0, 4).consumes(Tiles).loop(8).drain(Tiles);
  B.task("load", 4, 1).produces(Tiles).loop(8).fill(Tiles);
  KernelPlan Plan = planFor(B.P, B.kernel());
  const BlockLayout &L = Plan.Layout;
  std::string R = layoutReport(B.P, B.kernel(), Plan);
  EXPECT_TRUE(contains(R, "[smem-layout] kernel 'k'")) << R;
  EXPECT_TRUE(contains(R, "tma_async")) << R;
  EXPECT_TRUE(contains(R, "Tiles.full")) << R;
  EXPECT_TRUE(contains(R, "Tiles.empty")) << R;
  EXPECT_TRUE(contains(R, "4 x 8 B")) << R;
  EXPECT_TRUE(contains(R, "65568")) << R;
  EXPECT_TRUE(contains(R, "data 65536 B + barriers 64 B = 65600 B (launch "
                          "size 66608 B) / capacity 232448 B"))
      << R;
}

} // namespace

namespace {

TEST(Layout, AliasGroupSharesOneBase) {
  Builder B;
  unsigned Ab = B.resource("AB", PipelineKind::TmaAsync, 4, 8192, 128, true);
  unsigned St = B.resource("Staging", PipelineKind::AsyncAsync, 1, 20000, 256);
  unsigned X = B.resource("X", PipelineKind::AsyncAsync, 2, 100, 128);
  B.task("load", 0, 1).produces(Ab).produces(X).loop(4).fill(Ab).fill(X);
  B.task("mma", 1, 1)
      .consumes(Ab)
      .consumes(X)
      .produces(St)
      .loop(4)
      .drain(Ab)
      .drain(X)
      .tail()
      .acquire(St)
      .pwork(St)
      .commit(St);
  B.task("store", 2, 1).consumes(St).head().drain(St);
  B.kernel().Aliases.push_back({{Ab, St}, 700});
  const BlockLayout &L = planFor(B.P, B.kernel()).Layout;

  const ResourceLayout *LA = L.find(Ab), *LS = L.find(St), *LX = L.find(X);
  ASSERT_TRUE(LA && LS && LX);
  // One block: alignment 1024 (the swizzled phase), size max(32768, 20224).
  EXPECT_EQ(LA->DataOffset, 0u);
  EXPECT_EQ(LS->DataOffset, 0u);
  EXPECT_EQ(LS->StageStride, 20224u);
  EXPECT_EQ(LX->DataOffset, 32768u);
  EXPECT_EQ(L.DataBytes, 32768u + 256u);
  EXPECT_EQ(L.AliasSavedBytes, 20224u);
  // Barriers are never shared: each resource keeps its own.
  EXPECT_NE(LA->FullBarOffset, LS->FullBarOffset);
  EXPECT_EQ(L.BarrierBytes, 2u * 8u * (4u + 1u + 2u));
}

} // namespace
