//===- DriverTest.cpp - One plan and one verification per kernel ----------===//
#include "driver/Driver.h"
#include "Builders.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// Two kernels over one copy schedule; the producer leaves warps [5, 8) of
/// its warp group to padding.
Builder twoKernels() {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).regs(232).loop(8).drain(T);
  B.task("load", 4, 1).produces(T).regs(40).loop(8).fill(T);
  Kernel Second = B.kernel();
  Second.Name = "k2";
  Second.Loc = kernelLoc(1);
  B.P.Kernels.push_back(Second);
  return B;
}

Driver driver() {
  DriverOptions O;
  O.Policy.apply({"ts-padding"});
  return Driver(O);
}

} // namespace

TEST(Driver, EachKernelPlannedOnce) {
  Builder B = twoKernels();
  Driver D = driver();
  const KernelResult &First = D.kernel(B.P, 1);
  EXPECT_EQ(D.kernelsPlanned(), 1u);
  Outcome R = D.run(B.P, {});
  EXPECT_EQ(D.kernelsPlanned(), 2u);
  ASSERT_EQ(R.Kernels.size(), 2u);
  EXPECT_EQ(R.Kernels[1], &First); // Decided at the definition, reused.
  D.run(B.P, {});
  EXPECT_EQ(D.kernelsPlanned(), 2u);
}

TEST(Driver, PlanFindingsComeFirstAndCount) {
  Builder B = twoKernels();
  Driver D = driver();
  Outcome R = D.run(B.P, {});
  ASSERT_EQ(R.Diags.size(), 2u) << dump(R.Diags);
  EXPECT_EQ(R.Diags[0].Group, Check::Padding);
  EXPECT_EQ(R.Diags[0].Loc, kernelLoc(0));
  EXPECT_EQ(R.Diags[1].Loc, kernelLoc(1));
  EXPECT_EQ(R.Warnings, 2u);
  EXPECT_EQ(R.Errors, 0u);
  // The model keeps what the user wrote; the plan holds the padding.
  EXPECT_EQ(B.P.Tasks.size(), 2u);
  ASSERT_EQ(R.Kernels[0]->Plan.Padding.size(), 1u);
  EXPECT_EQ(R.Kernels[0]->Plan.Padding[0].FirstWarp, 5u);
  EXPECT_EQ(R.Kernels[0]->Plan.Warps, 8u);
}

TEST(Driver, SyntaxErrorsStopBeforePlanning) {
  Builder B = twoKernels();
  Driver D = driver();
  Outcome R = D.run(B.P, {Diag{Check::Syntax, 1, "bad", {}}});
  EXPECT_FALSE(R.SyntaxOk);
  EXPECT_EQ(R.Errors, 1u);
  EXPECT_TRUE(R.Kernels.empty());
  EXPECT_EQ(D.kernelsPlanned(), 0u);
}

TEST(Driver, TripBoundFromTheCompileUnlessTheKernelSetsOne) {
  Builder B = twoKernels();
  B.P.Kernels[1].TripBound = 5;
  B.P.Kernels[1].TripBoundOptOut = 77;
  DriverOptions O;
  O.TripBound = 9;
  Driver D(O);
  Outcome R = D.run(B.P, {});
  EXPECT_EQ(R.Kernels[0]->Plan.TripBound, 9u);
  EXPECT_EQ(R.Kernels[1]->Plan.TripBound, 5u);
}
