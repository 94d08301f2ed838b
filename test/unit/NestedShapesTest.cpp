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
InnerSweep sweep(uint64_t From, unsigned Cases, unsigned MaxPerStep = 1,
                 unsigned MaxPeel = 0) {
  auto Make = [MaxPerStep, MaxPeel](uint64_t Seed) {
    std::mt19937_64 Rng(Seed);
    Shape Sh = randomShape(Rng, MaxPerStep);
    if (MaxPeel)
      for (unsigned T = 0; T < Sh.Tasks; ++T)
        Sh.Peel.push_back(unsigned(Rng() % (MaxPeel + 1)));
    // A task that peels nothing does its per-tile stages after its k-loop
    // (as many per tile), so that nothing blocks before a nonempty() loop.
    for (Shape::Res &X : Sh.Resources)
      for (auto [Task, S] : {std::pair{X.Prod, &X.P}, {X.Cons, &X.C}})
        if (Task < Sh.Peel.size() && Sh.Peel[Task] == 0)
          *S = Side{0, S->PerStep, S->Before + S->Held + S->After, 0};
    Builder B = buildShape(Sh, Rng);
    // With peels, the k-loops that start first are nonempty(): a task that
    // reaches one with no blocking op before it traps at a count of 0, so
    // the peeled steps of its partners always have their stages.
    for (size_t T = 0; T < Sh.Peel.size(); ++T)
      B.P.Tasks[T].Inners[0].NonEmpty = Sh.Peel[T] == 0;
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

/// Peeled k-steps (issue 22): each task does 0 or 1 of its k-steps before
/// its k-loop, which starts that much later; partners' counts then differ
/// by a constant, and at small counts the shorter loops run none while the
/// peeled steps still run. The bound (moved up by the largest difference)
/// must give the enumeration's verdict.
TEST(NestedShapes, BoundDecidesPeeledSteps) {
  InnerSweep W = sweep(40000, propertyCases(150), 2, 1);
  EXPECT_EQ(W.Disagree, 0u) << W.First;
  EXPECT_EQ(W.Late, 0u) << W.First;
  EXPECT_GE(W.Checked, 100u * propertyCases(150) / 150);
  EXPECT_GT(W.Failing, 0u);
  EXPECT_LT(W.Failing, W.Checked);
  // Accepted schedules whose partners' k-loops start apart occur.
  EXPECT_GT(W.AcceptedApart, W.Checked / 20) << W.AcceptedApart;
}

/// Two k-loops per tile (issue 22: a main loop, then an epilogue loop over
/// subtiles), each resource's per-step ops in one of them, the loops'
/// counts independent: the verdict against every pair of counts up to Hi.
InnerSweep sweepTwoLoops(uint64_t From, unsigned Cases, uint64_t Hi) {
  InnerSweep W;
  for (uint64_t Seed = From; Seed < From + Cases; ++Seed) {
    std::mt19937_64 Rng(Seed);
    Shape Sh = randomShape(Rng, 2);
    Sh.Loops = 2;
    bool Shared = false;
    for (Shape::Res &X : Sh.Resources) {
      X.Loop = unsigned(Rng() % 3); // 2: per step of both loops
      Shared |= X.Loop == 2 && X.P.PerStep > 0;
    }
    Builder B = buildShape(Sh, Rng);
    handBackOldestFirst(B.P);
    uint64_t FK = 0, FJ = 0;
    InnerCheck C = checkInnerGrid(B.P, B.kernel(), Hi, &FK, &FJ);
    if (!C.Checked)
      continue;
    ++W.Checked;
    W.Failing += C.FirstFail.has_value();
    bool Bad = C.Verdict != C.FirstFail.has_value();
    W.Disagree += Bad;
    // Counted in AcceptedApart here: accepted with a resource moved per
    // step in both loops (the other loop's ops shift its ring).
    W.AcceptedApart += !C.Verdict && Shared;
    W.LatestFail = std::max(W.LatestFail, C.FirstFail.value_or(0));
    W.LargestBound = std::max(W.LargestBound, C.Bound);
    if (Bad && W.First.empty())
      W.First = "disagreement at seed " + std::to_string(Seed) + ": verdict " +
                (C.Verdict ? "refuses" : "accepts") + ", first failing " +
                (C.FirstFail ? "(" + std::to_string(FK) + ", " +
                                   std::to_string(FJ) + ")"
                             : std::string("none")) +
                ", bound " + std::to_string(C.Bound);
  }
  return W;
}

TEST(NestedShapes, BoundDecidesTwoLoopsPerTile) {
  InnerSweep W = sweepTwoLoops(60000, propertyCases(40), 12);
  EXPECT_EQ(W.Disagree, 0u) << W.First;
  EXPECT_GE(W.Checked, propertyCases(40) / 2);
  EXPECT_GT(W.Failing, 0u);
  EXPECT_LT(W.Failing, W.Checked);
  EXPECT_GT(W.AcceptedApart, 0u); // accepted, one resource in both loops
}

/// A larger sweep, by hand: LIBTS_NESTED_SWEEP=<first seed>:<count>
/// (LIBTS_NESTED_PER_STEP=<n>: up to n stages per k-step;
/// LIBTS_NESTED_PEEL=<n>: up to n k-steps peeled per task).
TEST(NestedShapes, ManualSweep) {
  const char *Env = std::getenv("LIBTS_NESTED_SWEEP");
  if (!Env)
    GTEST_SKIP() << "set LIBTS_NESTED_SWEEP=<first seed>:<count>";
  std::string S = Env;
  uint64_t From = std::stoull(S.substr(0, S.find(':')));
  unsigned Count = unsigned(std::stoul(S.substr(S.find(':') + 1)));
  if (const char *Two = std::getenv("LIBTS_NESTED_TWO_LOOPS")) {
    InnerSweep W = sweepTwoLoops(From, Count, std::stoull(Two));
    std::printf("two loops: checked %u, failing %u, disagreements %u, "
                "accepted with a resource in both loops %u, latest first "
                "failing count %llu, largest bound %llu %s\n",
                W.Checked, W.Failing, W.Disagree, W.AcceptedApart,
                (unsigned long long)W.LatestFail,
                (unsigned long long)W.LargestBound, W.First.c_str());
    EXPECT_EQ(W.Disagree, 0u) << W.First;
    return;
  }
  const char *PerStep = std::getenv("LIBTS_NESTED_PER_STEP");
  const char *Peel = std::getenv("LIBTS_NESTED_PEEL");
  InnerSweep W =
      sweep(From, Count, PerStep ? unsigned(std::stoul(PerStep)) : 1u,
            Peel ? unsigned(std::stoul(Peel)) : 0u);
  std::printf("checked %u, failing %u, disagreements %u, late %u, accepted "
              "with k-loops apart %u, latest first failing count %llu, "
              "largest bound %llu %s\n",
              W.Checked, W.Failing, W.Disagree, W.Late, W.AcceptedApart,
              (unsigned long long)W.LatestFail,
              (unsigned long long)W.LargestBound, W.First.c_str());
  EXPECT_EQ(W.Disagree, 0u) << W.First;
}

} // namespace
