//===- TmemTest.cpp - Tensor-memory columns and the kernel's target -------===//
#include "Builders.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// A task owning tensor-memory resources of the given columns, and a
/// 4 KiB table in shared memory.
struct Owner {
  Builder B;
  std::vector<unsigned> Tmem;
  unsigned Table = B.resource("Table", PipelineKind::TaskOwned, 1, 4096, 128);
  explicit Owner(std::vector<unsigned> Columns) {
    for (unsigned C : Columns) {
      unsigned R =
          B.resource("T" + std::to_string(C), PipelineKind::TaskOwned, 1, 0, 1);
      B.P.Resources[R].TmemColumns = C;
      B.P.Resources[R].TmemLoc = 700 + R;
      Tmem.push_back(R);
    }
    TaskRef T = B.task("t", 0, 4);
    T.owns(Table);
    for (unsigned R : Tmem)
      T.owns(R);
    T.loop(2);
    B.kernel().Arch = TargetArch::Sm100a;
  }
  KernelPlan plan() {
    return buildPlan(B.P, B.kernel(), targetOf(B.kernel().Arch));
  }
};

TEST(Tmem, ColumnsOnGranulesAndAPowerOfTwo) {
  Owner O({128, 40, 64});
  KernelPlan Plan = O.plan();
  const TmemPlan &TP = Plan.Tmem;
  ASSERT_EQ(TP.Regions.size(), 3u);
  EXPECT_EQ(TP.find(O.Tmem[0])->Column, 0u);
  EXPECT_EQ(TP.find(O.Tmem[1])->Column, 128u);
  EXPECT_EQ(TP.find(O.Tmem[2])->Column, 192u); // 168 rounded to 32
  EXPECT_EQ(TP.Used, 256u);
  EXPECT_EQ(TP.Alloc, 256u);
  EXPECT_EQ(TP.Capacity, 512u);
  EXPECT_EQ(TP.Warp, 0u);
  // Shared memory only grows by the address slot, after the table.
  EXPECT_EQ(Plan.Layout.find(O.Tmem[0]), nullptr);
  EXPECT_EQ(TP.SlotOffset, 4096u);
  EXPECT_EQ(Plan.Layout.TotalBytes, 4096u + 16u);
}

TEST(Tmem, SmallestAllocationIsTheGranule) {
  Owner O({8});
  EXPECT_EQ(O.plan().Tmem.Alloc, 32u);
}

TEST(Tmem, NoTensorMemoryNoAllocation) {
  Owner O({});
  KernelPlan Plan = O.plan();
  EXPECT_EQ(Plan.Tmem.Alloc, 0u);
  EXPECT_EQ(Plan.Layout.TotalBytes, 4096u);
}

TEST(Tmem, OverCapacityListsTheColumns) {
  Owner O({256, 256, 32});
  O.B.kernel().TmemCapacity = 512;
  KernelPlan Plan = O.plan();
  DiagList D;
  checkCapacity(O.B.P, O.B.kernel(), Plan, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Capacity);
  EXPECT_EQ(D[0].Message, "kernel 'k' needs 544 columns of tensor memory; "
                          "the capacity is 512 columns");
  ASSERT_EQ(D[0].Notes.size(), 4u);
  EXPECT_EQ(D[0].Notes[2].Message, "'T32': columns [512, 544)");
}

TEST(Tmem, LoweredCapacity) {
  Owner O({128, 64});
  O.B.kernel().TmemCapacity = 128;
  DiagList D;
  checkCapacity(O.B.P, O.B.kernel(), O.plan(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Notes.back().Message,
            "use fewer columns, or raise ts::tmem_capacity up to 512");
}

TEST(Tmem, HopperKernelHasNone) {
  Owner O({64});
  O.B.kernel().Arch = TargetArch::Sm90a;
  KernelPlan Plan = O.plan();
  DiagList D;
  checkTarget(O.B.P, O.B.kernel(), Plan, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Target);
  EXPECT_EQ(D[0].Loc, SourceHandle(700 + O.Tmem[0]));
  EXPECT_EQ(D[0].Message, "'T64' lives in tensor memory, which kernel 'k' "
                          "(target sm_90a) does not have");
  // No capacity finding on top: the target has no columns to count.
  DiagList C;
  checkCapacity(O.B.P, O.B.kernel(), Plan, C);
  EXPECT_TRUE(C.empty()) << dump(C);
}

TEST(Tmem, NotBetweenCtasThatWaitForEachOther) {
  Owner O({64});
  O.B.P.Tasks[0].Settles.push_back(SettleCall{});
  DiagList D;
  checkTarget(O.B.P, O.B.kernel(), O.plan(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "tensor memory in a kernel whose CTAs wait for "
                          "each other (a stream-K fix-up): 16 of its CTAs fit "
                          "on one SM, and 16 x 64 columns exceed the 512 "
                          "there");
}

TEST(Tmem, BetweenCtasWhenEveryCtaOnTheSmGetsItsColumns) {
  Owner O({32}); // 16 CTAs of 128 threads x 32 columns = 512
  O.B.P.Tasks[0].Settles.push_back(SettleCall{});
  DiagList D;
  checkTarget(O.B.P, O.B.kernel(), O.plan(), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Tmem, BlackwellKernelIsClean) {
  Owner O({64});
  DiagList D;
  checkTarget(O.B.P, O.B.kernel(), O.plan(), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

} // namespace
