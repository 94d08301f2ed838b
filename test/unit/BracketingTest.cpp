//===- BracketingTest.cpp - Work inside brackets --------------------------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

DiagList bracket(Builder &B) {
  DiagList D;
  checkBracketing(B.P, B.kernel(), D);
  return D;
}

DiagList stages(Builder &B) {
  DiagList D;
  checkStages(B.P, B.kernel(), D);
  return D;
}

TEST(Bracketing, WellFormedPasses) {
  Builder B;
  unsigned T = B.tma("Tiles");
  unsigned G = B.resource("Out", PipelineKind::Gmem, 1, 0);
  // Gmem work needs no bracket.
  B.task("store", 0, 4).consumes(T).produces(G).loop(8).drain(T).pwork(G);
  B.task("load", 4, 1)
      .produces(T)
      .loop(8)
      .tryAcquire(T)
      .acquire(T)
      .pwork(T)
      .pwork(T)
      .commit(T);
  DiagList D = bracket(B);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Bracketing, WorkBeforeAcquire) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1).produces(T).loop(8).pwork(T).acquire(T).commit(T);
  DiagList D = bracket(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "work on a stage of 'Tiles' before it is acquired");
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(0, 1));
}

TEST(Bracketing, MissingCommit) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1).produces(T).head().acquire(T).pwork(T);
  DiagList D = bracket(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[0].Message, "stage of 'Tiles' acquired here is never committed");
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(Bracketing, LoopStageMustCloseInTheLoop) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).loop(8).wait(T).cwork(T).tail().release(T);
  DiagList D = bracket(B);
  ASSERT_GE(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[0].Message, "stage of 'Tiles' waited for in the loop is not "
                          "released in the same iteration");
}

TEST(Stages, WorkAfterRelease) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).loop(8).drain(T).cwork(T).cwork(T);
  EXPECT_TRUE(bracket(B).empty()) << dump(bracket(B));
  DiagList D = stages(B);
  ASSERT_EQ(D.size(), 2u) << dump(D); // One error per use.
  EXPECT_EQ(D[0].Group, Check::Ownership);
  EXPECT_EQ(D[0].Loc, opLoc(0, 3));
  EXPECT_EQ(D[0].Message, "stage of 'Tiles' is used after it was released");
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(0, 2));
  EXPECT_EQ(D[0].Notes[0].Message,
            "the stage was released here; another task may now overwrite it");
}

TEST(Stages, HeadToTailStageReadInTheLoop) {
  // The query tile of attention kernels: waited in the head, read in every
  // iteration, released in the tail.
  Builder C;
  unsigned U = C.tma("Tiles");
  C.task("a", 0, 4).consumes(U).head().wait(U).loop(4).cwork(U).tail().release(
      U);
  EXPECT_TRUE(bracket(C).empty()) << dump(bracket(C));
  EXPECT_TRUE(stages(C).empty()) << dump(stages(C));
}

TEST(Stages, HoldTwoStagesHandBackOldestFirst) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1)
      .produces(T)
      .loop(8)
      .acquire(T)
      .acquire(T)
      .commit(T)
      .commit(T);
  B.P.Tasks[0].Ops[2].Stage = B.P.Tasks[0].Ops[0].Stage; // commit s0, then s1
  EXPECT_TRUE(bracket(B).empty()) << dump(bracket(B));
  EXPECT_TRUE(stages(B).empty()) << dump(stages(B));
}

TEST(Stages, NewerStageFirstAndTwice) {
  Builder B;
  unsigned T = B.tma("Tiles");
  // Both commits name the newer stage: out of order, then twice.
  B.task("load", 0, 1)
      .produces(T)
      .loop(8)
      .acquire(T)
      .acquire(T)
      .commit(T)
      .commit(T);
  DiagList D = stages(B);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 2));
  EXPECT_EQ(D[0].Message, "commit of 'Tiles' hands back a newer stage while an "
                          "older one is held");
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[1].Loc, opLoc(0, 3));
  EXPECT_EQ(D[1].Message,
            "commit of 'Tiles' hands back a stage that was already committed");
}

TEST(Stages, TryWithoutBlockingOpInItsIteration) {
  Builder B;
  unsigned T = B.tma("Tiles");
  // A try at the end of an iteration tests the next stage, but the last
  // iteration has no wait after it, and its token cannot reach the next.
  B.task("store", 0, 4).consumes(T).loop(8).drain(T).tryWait(T);
  DiagList D = stages(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  // The try only tests the barrier: a warning, not an error.
  EXPECT_EQ(D[0].Group, Check::UnusedToken);
  EXPECT_FALSE(checkIsErrorByDefault(D[0].Group));
  EXPECT_EQ(D[0].Loc, opLoc(0, 3));
  EXPECT_EQ(
      D[0].Message,
      "try_wait of 'Tiles' is not followed by wait in the same iteration");
}

TEST(Stages, TokensReachTheirOwnBlockingOp) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4)
      .consumes(T)
      .loop(8)
      .tryWait(T)
      .wait(T)
      .cwork(T)
      .release(T);
  B.P.Tasks[0].Ops[1].Token = 0;
  EXPECT_TRUE(stages(B).empty()) << dump(stages(B));
  B.P.Tasks[0].Ops[1].Token = Op::ForgedToken;
  DiagList D = stages(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "wait of 'Tiles' is given a token that no try_wait of "
            "this handle returned");
  // A token taken in the head and reused every iteration.
  Builder C;
  unsigned U = C.tma("Tiles");
  C.task("store", 0, 4)
      .consumes(U)
      .head()
      .tryWait(U)
      .loop(8)
      .wait(U)
      .cwork(U)
      .release(U);
  C.P.Tasks[0].Ops[1].Token = 0;
  DiagList E = stages(C);
  ASSERT_EQ(E.size(), 2u) << dump(E);
  EXPECT_EQ(
      E[0].Message,
      "try_wait of 'Tiles' is not followed by wait in the same iteration");
  EXPECT_EQ(E[1].Message,
            "wait of 'Tiles' uses a token that does not test this stage");
}

TEST(Bracketing, GuardMismatchBetweenOpenAndClose) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1)
      .produces(T)
      .loop(std::nullopt)
      .acquire(T)
      .pwork(T)
      .commit(T, Guard::LastIter);
  DiagList D = bracket(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 2)); // the guarded commit
  EXPECT_EQ(D[0].Message, "commit of 'Tiles' runs only on the last iteration "
                          "but its acquire runs every iteration");
  ASSERT_EQ(D[0].Notes.size(), 2u);
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(0, 0));
}

TEST(Bracketing, EquallyGuardedPairPasses) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1)
      .produces(T)
      .loop(std::nullopt)
      .acquire(T, Guard::FirstIter)
      .pwork(T)
      .commit(T, Guard::FirstIter);
  DiagList D = bracket(B);
  EXPECT_TRUE(D.empty()) << dump(D);
}

} // namespace
