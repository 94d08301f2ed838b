//===- PropertyTest.cpp - The verifier against brute force ----------------===//
//
// Random schedules (Generator.h): the decision from the runs up to the
// derived bound K must equal brute force over every trip count up to
// max(64, 4K); one run must agree with the search over every interleaving;
// constant trip counts past the steady state must agree with running them
// out.
//
//===----------------------------------------------------------------------===//
#include "Explore.h"
#include "Generator.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

bool creditFails(Builder &B) {
  DiagList D;
  checkCredits(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  return std::any_of(D.begin(), D.end(),
                     [](const Diag &X) { return X.Group == Check::Credit; });
}

/// Small schedules, and larger ones (up to 6 tasks, 5 resources, 4 stages).
GenOptions sized(uint64_t Seed) {
  GenOptions O;
  if (Seed % 2) {
    O.MaxTasks = 6;
    O.MaxResources = 5;
    O.MaxStages = 4;
  }
  return O;
}

TEST(Property, BoundDecidesEveryTripCount) {
  unsigned Covered = 0, Failing = 0, Cases = propertyCases(600);
  for (uint64_t Seed = 0; Seed < Cases; ++Seed) {
    Generator G(Seed);
    Builder B = G.make(sized(Seed));
    KernelPlan Plan = planFor(B.P, B.kernel());
    std::optional<uint64_t> K = decidingTripCount(B.P, B.kernel(), Plan);
    if (!K)
      continue;
    ++Covered;
    int64_t Hi = int64_t(std::max<uint64_t>(64, 4 * *K));
    std::optional<int64_t> FirstFail;
    for (int64_t N = smallestTripCount(B.P, B.kernel()); N <= Hi && !FirstFail;
         ++N)
      if (runFails(B.P, B.kernel(), Plan, tripCountsAt(B.P, B.kernel(), N)))
        FirstFail = N;
    Failing += FirstFail.has_value();
    EXPECT_EQ(creditFails(B), FirstFail.has_value())
        << "seed " << Seed << ", K " << *K << ", first failing N "
        << (FirstFail ? std::to_string(*FirstFail) : "none");
    if (FirstFail)
      EXPECT_LE(*FirstFail, int64_t(*K)) << "seed " << Seed;
  }
  // The argument must cover nearly all schedules, and both verdicts occur.
  EXPECT_GE(Covered, Cases * 99 / 100);
  EXPECT_GT(Failing, Cases / 10);
  EXPECT_LT(Failing, Covered);
}

TEST(Property, OneRunEqualsEveryInterleaving) {
  for (uint64_t Seed = 1000; Seed < 1150; ++Seed) {
    Generator G(Seed);
    GenOptions O;
    O.MaxTasks = 3;
    Builder B = G.make(O);
    KernelPlan Plan = planFor(B.P, B.kernel());
    for (int64_t N = 0; N <= 3; ++N) {
      std::vector<uint64_t> Trips = tripCountsAt(B.P, B.kernel(), N);
      ExploreResult All = exploreInterleavings(B.P, B.kernel(), Plan, Trips,
                                               2000000, Reduction::None);
      ASSERT_TRUE(All.Complete) << "seed " << Seed;
      bool AnyBad = All.Deadlocks + All.Unbalanced > 0;
      EXPECT_EQ(runFails(B.P, B.kernel(), Plan, Trips), AnyBad)
          << "seed " << Seed << " N " << N;
      // Kahn: every interleaving ends in the same state.
      EXPECT_EQ(All.Deadlocks + All.Unbalanced + All.Clean, 1u)
          << "seed " << Seed << " N " << N;
      // Sleep sets visit every state; symmetry and persistent sets fewer,
      // with the same verdict.
      ExploreResult Sleep = exploreInterleavings(B.P, B.kernel(), Plan, Trips,
                                                 2000000, Reduction::Sleep);
      EXPECT_EQ(Sleep.States, All.States) << "seed " << Seed << " N " << N;
      EXPECT_EQ(Sleep.Deadlocks, All.Deadlocks);
      for (Reduction Red : {Reduction::Symmetry, Reduction::Persistent}) {
        ExploreResult One =
            exploreInterleavings(B.P, B.kernel(), Plan, Trips, 2000000, Red);
        EXPECT_EQ(One.Deadlocks > 0, All.Deadlocks > 0)
            << "seed " << Seed << " N " << N;
        EXPECT_EQ(One.Unbalanced > 0, All.Unbalanced > 0)
            << "seed " << Seed << " N " << N;
        EXPECT_LE(One.States, All.States);
      }
    }
  }
}

TEST(Property, LargeConstantTripCountsAreExact) {
  for (uint64_t Seed = 2000; Seed < 2060; ++Seed) {
    Generator G(Seed);
    GenOptions O;
    O.Symbolic = false;
    O.Trips = 5003;
    Builder B = G.make(O);
    KernelPlan Plan = planFor(B.P, B.kernel());
    bool Direct =
        runFails(B.P, B.kernel(), Plan, tripCountsAt(B.P, B.kernel(), 0));
    EXPECT_EQ(creditFails(B), Direct) << "seed " << Seed;
  }
}

} // namespace

namespace {

TEST(Property, UncoveredSchedulesWarnAndUseTheBound) {
  // Found by the sweep in docs/verifier.md: a task stalls mid-loop behind a
  // task that waits for another's tail while a third group keeps cycling.
  Generator G(10043);
  GenOptions O;
  O.MaxTasks = 8;
  O.MaxResources = 6;
  O.MaxStages = 4;
  O.FaultRate = 0.4;
  Builder B = G.make(O);
  KernelPlan Plan = planFor(B.P, B.kernel());
  Plan.TripBound = 9;
  EXPECT_FALSE(decidingTripCount(B.P, B.kernel(), Plan).has_value());
  DiagList D;
  std::string Coverage;
  checkCredits(B.P, B.kernel(), Plan, D, &Coverage);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Bound);
  // The warning names the search limit that was hit.
  EXPECT_EQ(D[0].Message,
            "trip counts of kernel 'k' are verified only up to 9: no "
            "steady state within 400000 steps or iteration 168 (the "
            "search limit)");
  EXPECT_EQ(Coverage, "trip counts 0 to 9 only (see ts-bound)");
}

} // namespace
