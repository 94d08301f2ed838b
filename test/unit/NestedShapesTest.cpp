//===- NestedShapesTest.cpp - Stage ops around k-loops vs enumeration -----===//
//
// Persistent kernels do stage operations per tile around their k-loops (a
// Q tile before, an output stage after). Each such op shifts where a task
// sits in a ring, so a deadlock can first appear at an inner count that
// grows with them. Here: random nested schedules whose tasks take or hand
// back 0 to 2S+2 stages of several resources before and after the k-loop
// (S: the kernel's stages), against explicit enumeration of inner counts
// 0..64 (each for every tile count, the outer argument). The bound of
// innerTripCounts must give the same verdict, and cover the first failing
// count (docs/verifier.md, "Nested domains").
//
//===----------------------------------------------------------------------===//
#include "NestedSchedules.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

using namespace ts;
using namespace ts::test;

namespace {

/// Inner counts 0..64 against the bound, for Cases balanced random shapes
/// of up to MaxPerStep stages per k-step on each side.
InnerSweep sweep(uint64_t From, unsigned Cases, unsigned MaxPerStep = 1) {
  auto Make = [MaxPerStep](uint64_t Seed) {
    std::mt19937_64 Rng(Seed);
    Shape Sh = randomShape(Rng, MaxPerStep);
    Builder B = buildShape(Sh, Rng);
    // Stages held across the k-loop go back oldest first, as a kernel
    // writes it (the first sweeps' seeds keep their shapes).
    if (MaxPerStep > 1)
      handBackOldestFirst(B.P);
    return B;
  };
  return sweepInnerCounts(From, Cases, Make, [](uint64_t) { return 64; });
}

TEST(NestedShapes, BoundDecidesStageOpsAroundTheInnerLoop) {
  InnerSweep W = sweep(1, propertyCases(150));
  EXPECT_EQ(W.Disagree, 0u) << W.First;
  EXPECT_EQ(W.Late, 0u) << W.First;
  EXPECT_GE(W.Checked, 100u * propertyCases(150) / 150);
  EXPECT_GT(W.Failing, 0u);
  EXPECT_LT(W.Failing, W.Checked);
}

/// Several stages per k-step on both sides of a resource (a K and a V tile
/// per step, two MMA operands): each step moves a task further along its
/// ring, so the bound is held to it too.
TEST(NestedShapes, BoundDecidesSeveralStagesPerStep) {
  InnerSweep W = sweep(20000, propertyCases(100), 3);
  EXPECT_EQ(W.Disagree, 0u) << W.First;
  EXPECT_EQ(W.Late, 0u) << W.First;
  EXPECT_GT(W.Failing, 0u);
  EXPECT_LT(W.Failing, W.Checked);
}

/// A larger sweep, by hand: LIBTS_NESTED_SWEEP=<first seed>:<count>
/// (LIBTS_NESTED_PER_STEP=<n>: up to n stages per k-step).
TEST(NestedShapes, ManualSweep) {
  const char *Env = std::getenv("LIBTS_NESTED_SWEEP");
  if (!Env)
    GTEST_SKIP() << "set LIBTS_NESTED_SWEEP=<first seed>:<count>";
  std::string S = Env;
  uint64_t From = std::stoull(S.substr(0, S.find(':')));
  unsigned Count = unsigned(std::stoul(S.substr(S.find(':') + 1)));
  const char *PerStep = std::getenv("LIBTS_NESTED_PER_STEP");
  InnerSweep W =
      sweep(From, Count, PerStep ? unsigned(std::stoul(PerStep)) : 1u);
  std::printf("checked %u, failing %u, disagreements %u, late %u, latest "
              "first failing count %llu, largest bound %llu %s\n",
              W.Checked, W.Failing, W.Disagree, W.Late,
              (unsigned long long)W.LatestFail,
              (unsigned long long)W.LargestBound, W.First.c_str());
  EXPECT_EQ(W.Disagree, 0u) << W.First;
}

} // namespace
