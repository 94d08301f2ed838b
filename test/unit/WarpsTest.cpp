//===- WarpsTest.cpp - Warp ranges ----------------------------------------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(Warps, DisjointRangesPass) {
  Builder B;
  B.task("a", 0, 4);
  B.task("b", 4, 1);
  DiagList D;
  checkWarps(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Warps, OverlapIsReportedOnTheLaterTask) {
  Builder B;
  B.task("a", 0, 4);
  B.task("b", 3, 2);
  DiagList D;
  checkWarps(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Warps);
  EXPECT_EQ(D[0].Loc, taskLoc(1));
  EXPECT_EQ(D[0].Message, "warps [3, 5) of task 'b' overlap another task");
  ASSERT_EQ(D[0].Notes.size(), 2u);
  EXPECT_EQ(D[0].Notes[0].Loc, taskLoc(0));
  EXPECT_EQ(D[0].Notes[0].Message, "overlaps warps [0, 4) of task 'a'");
}

TEST(Warps, ZeroWarpsAndTooManyWarps) {
  Builder B;
  B.task("none", 0, 0);
  B.task("big", 0, 33);
  DiagList D;
  checkWarps(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Message, "task 'none' has no warps");
  EXPECT_EQ(D[1].Loc, kernelLoc(0));
  EXPECT_TRUE(contains(D[1].Message, "needs 33 warps (1056 threads)"));
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(Warps, ExactlyThirtyTwoWarpsFit) {
  Builder B;
  B.task("all", 0, 32);
  DiagList D;
  checkWarps(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Warps, EmptyKernel) {
  Builder B;
  B.kernel();
  DiagList D;
  checkWarps(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Message, "kernel 'k' has no tasks");
  EXPECT_TRUE(allHaveNotes(D));
}

} // namespace
