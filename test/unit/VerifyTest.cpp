//===- VerifyTest.cpp - Orchestration and the schedule table --------------===//
#include "verify/Verify.h"
#include "Builders.h"
#include "report/Report.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

Builder copyKernel(int64_t Trips) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).regs(232).loop(Trips).drain(T);
  B.task("load", 4, 1).produces(T).regs(40).loop(Trips).fill(T);
  return B;
}

TEST(Verify, CleanKernelAfterPadding) {
  Builder B = copyKernel(8);
  DiagList Pad;
  pad(B.P, B.kernel(), Pad);
  VerifyResult R = verifyKernel(B.P, B.kernel(), planFor(B.P, B.kernel()));
  EXPECT_TRUE(R.Diags.empty()) << dump(R.Diags);
  EXPECT_EQ(R.Sim.Trips, 8u);
  EXPECT_EQ(R.Sim.Steps.size(), 48u);
}

TEST(Verify, BracketingErrorsSkipTheSimulation) {
  Builder B = copyKernel(8);
  B.P.Tasks[0].Ops.pop_back(); // The consumer no longer releases.
  DiagList Pad;
  pad(B.P, B.kernel(), Pad);
  VerifyResult R = verifyKernel(B.P, B.kernel(), planFor(B.P, B.kernel()));
  EXPECT_EQ(only(R.Diags, Check::Bracket).size(), 1u) << dump(R.Diags);
  EXPECT_TRUE(only(R.Diags, Check::Credit).empty()) << dump(R.Diags);
  EXPECT_TRUE(R.Sim.Steps.empty());
}

TEST(Verify, CollectsIndependentChecks) {
  Builder B = copyKernel(8);
  B.kernel().SmemCapacity = 1024;
  B.edge(0, 0);
  B.P.Tasks[1].Regs = 44; // Not a multiple of 8.
  VerifyResult R = verifyKernel(B.P, B.kernel(), planFor(B.P, B.kernel()));
  EXPECT_EQ(only(R.Diags, Check::Registers).size(), 1u) << dump(R.Diags);
  EXPECT_EQ(only(R.Diags, Check::Capacity).size(), 1u) << dump(R.Diags);
  EXPECT_EQ(only(R.Diags, Check::Graph).size(), 1u) << dump(R.Diags);
  EXPECT_FALSE(R.Sim.Steps.empty()); // Structure is sound: it simulated.
}

TEST(Table, HeadersRowsAndTripCount) {
  Builder B = copyKernel(2);
  DiagList Pad;
  pad(B.P, B.kernel(), Pad);
  DiagList D;
  SimResult S = checkCredits(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  std::string T = scheduleTable(B.P, B.kernel(), S);
  EXPECT_TRUE(contains(T, "store[0:4)")) << T;
  EXPECT_TRUE(contains(T, "load[4:5)")) << T;
  EXPECT_FALSE(contains(T, "__ts_padding")) << T;
  EXPECT_TRUE(contains(T, "Tiles      acquire     L    #0")) << T;
  EXPECT_TRUE(contains(T, "Tiles      release     L    #1")) << T;
  EXPECT_TRUE(contains(T, "trip count 2")) << T;
  // Header, three rules, 8 steps (the consumer trails by three), footer.
  size_t Rows = 0;
  for (size_t I = 0; (I = T.find("\n", I)) != std::string::npos; ++I)
    ++Rows;
  EXPECT_EQ(Rows, 1u + 3u + 1u + 9u + 2u) << T;
  EXPECT_EQ(T, scheduleTable(B.P, B.kernel(), S)); // Deterministic.
}

TEST(Table, ShowsBlockedTasks) {
  Builder B;
  unsigned X = B.resource("X", PipelineKind::AsyncAsync, 2, 1024);
  unsigned Y = B.resource("Y", PipelineKind::AsyncAsync, 2, 1024);
  B.task("a", 0, 4).consumes(Y).produces(X).loop(4).drain(Y).fill(X);
  B.task("b", 4, 4).consumes(X).produces(Y).loop(4).drain(X).fill(Y);
  DiagList D;
  SimResult S = checkCredits(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  std::string T = scheduleTable(B.P, B.kernel(), S);
  EXPECT_TRUE(contains(T, "Y          wait        blocked")) << T;
  EXPECT_TRUE(contains(T, "deadlock at step 0")) << T;
}

} // namespace
