//===- TurnsTest.cpp - Rings of ts::turns: plan, checks, simulation -------===//
#include "Builders.h"
#include "NestedSchedules.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// A producer warp and two consumer warp groups on one pipeline, the
/// consumers taking turns per iteration: Takes[i] and Passes[i] of
/// position i per loop body (guarded by G[i]).
struct Ring {
  Builder B;
  unsigned A = 0, Turn = 0;
  Ring(std::optional<int64_t> Trips, unsigned Pos1 = 1,
       Guard G1 = Guard::Always) {
    A = B.resource("A", PipelineKind::AsyncAsync, 2, 1024);
    Turn = B.resource("Mma", PipelineKind::Turns, 1, 0);
    B.task("load", 0, 1).produces(A).loop(Trips).body().fill(A);
    B.task("c0", 4, 4)
        .consumes(A)
        .turn(Turn, 0)
        .loop(Trips)
        .body()
        .wait(A)
        .take(Turn)
        .cwork(A)
        .pass(Turn)
        .release(A);
    B.task("c1", 8, 4)
        .consumes(A)
        .turn(Turn, Pos1)
        .loop(Trips)
        .body()
        .wait(A)
        .take(Turn, G1)
        .cwork(A)
        .pass(Turn, G1)
        .release(A);
  }
  VerifyResult verify() {
    return verifyKernel(B.P, B.kernel(), planFor(B.P, B.kernel()));
  }
};

TEST(Turns, ThePlanGivesEachPositionABarrierAfterTheWarpGroups) {
  Ring R(8);
  KernelPlan Plan = planFor(R.B.P, R.B.kernel());
  const TurnPlan *TP = Plan.turn(R.Turn);
  ASSERT_NE(TP, nullptr);
  // Three warp groups: ts::sync_warpgroup takes ids 1 to 3.
  EXPECT_EQ(TP->Ring, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(TP->BarrierId, (std::vector<unsigned>{4, 5}));
  EXPECT_EQ(TP->Threads, (std::vector<unsigned>{256, 256}));
  EXPECT_EQ(TP->before(0), 1u);
  EXPECT_EQ(*TP->position(2), 1u);
  EXPECT_EQ(Plan.TurnIdsShort, 0u);
}

TEST(Turns, ABrokenRingHasNoPlanAndAnError) {
  Ring R(8, /*Pos1=*/2);
  KernelPlan Plan = planFor(R.B.P, R.B.kernel());
  EXPECT_TRUE(Plan.turn(R.Turn)->Ring.empty());
  DiagList D = only(R.verify().Diags, Check::Turn);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "the ring of 'Mma' has no position 1: its 2 tasks "
                          "must take positions 0 to 1");
}

TEST(Turns, ABalancedRingVerifiesAtEveryTripCount) {
  Ring R(std::nullopt);
  VerifyResult V = R.verify();
  EXPECT_FALSE(hasError(V.Diags)) << dump(V.Diags);
  EXPECT_TRUE(contains(V.Coverage, "every trip count")) << V.Coverage;
}

TEST(Turns, APositionThatTakesOnceStopsTheRing) {
  Ring R(std::nullopt, 1, Guard::FirstIter);
  DiagList D = only(R.verify().Diags, Check::Credit);
  ASSERT_FALSE(D.empty());
  EXPECT_TRUE(contains(D[0].Message, "blocks forever on take of 'Mma'"))
      << dump(D);
  EXPECT_TRUE(contains(D[0].Notes[0].Message,
                       "needs a pass from task 'c1' (the position before), "
                       "which has finished after passing it 1 time"))
      << dump(D);
}

TEST(Turns, TooManyPositionsForTheNamedBarriers) {
  Builder B;
  unsigned Turn = B.resource("Mma", PipelineKind::Turns, 1, 0);
  // 13 one-warp positions in 4 warp groups: ids 5 .. 15 fit 11 of them.
  for (unsigned I = 0; I < 13; ++I)
    B.task("t" + std::to_string(I), I, 1)
        .turn(Turn, I)
        .loop(4)
        .body()
        .take(Turn)
        .pass(Turn);
  KernelPlan Plan = planFor(B.P, B.kernel());
  EXPECT_EQ(Plan.TurnIdsShort, 2u);
  DiagList D = only(verifyKernel(B.P, B.kernel(), Plan).Diags, Check::Turn);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_TRUE(contains(D[0].Message, "need 2 more named barriers than the 16"))
      << dump(D);
}

/// Per-tile k-loops with the turn taken per k-step: the search over
/// sequences of counts runs the ring (it would decline otherwise).
TEST(Turns, TheSequenceSearchRunsTheRing) {
  Builder B;
  unsigned A = B.resource("A", PipelineKind::AsyncAsync, 2, 1024);
  unsigned Turn = B.resource("Mma", PipelineKind::Turns, 1, 0);
  B.task("load", 0, 1)
      .produces(A)
      .loop(std::nullopt)
      .body()
      .inner(std::nullopt)
      .fill(A);
  for (unsigned Pos = 0; Pos < 2; ++Pos)
    B.task("c" + std::to_string(Pos), 4 + 4 * Pos, 4)
        .consumes(A)
        .turn(Turn, Pos)
        .loop(std::nullopt)
        .body()
        .inner(std::nullopt)
        .wait(A)
        .take(Turn)
        .cwork(A)
        .pass(Turn)
        .release(A);
  Kernel K = B.kernel();
  KernelPlan Plan = planFor(B.P, K);
  detail::TileSequenceResult R =
      searchSequences(B.P, K, Plan, {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}});
  EXPECT_EQ(R.V, detail::TileSequenceResult::Verdict::Proven) << R.Why;
  // c1 takes one turn fewer per tile than c0: the ring stops in tile 0.
  R = searchSequences(B.P, K, Plan, {{2, 2, 1}});
  EXPECT_EQ(R.V, detail::TileSequenceResult::Verdict::Deadlock) << R.Why;
}

} // namespace
