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

TEST(Bracketing, WorkAfterRelease) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).loop(8).drain(T).cwork(T).cwork(T);
  DiagList D = bracket(B);
  ASSERT_EQ(D.size(), 1u) << dump(D); // One error per run of stray work.
  EXPECT_EQ(D[0].Group, Check::Bracket);
  EXPECT_EQ(D[0].Loc, opLoc(0, 3));
  EXPECT_EQ(D[0].Message, "work on a stage of 'Tiles' after it was released");
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(0, 2));
  EXPECT_EQ(D[0].Notes[0].Message, "stage released here");
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

TEST(Bracketing, HeadToTailBracketAroundTheLoop) {
  Builder B;
  unsigned T = B.tma("Tiles");
  // Fine: the loop does not touch the held stage.
  B.task("a", 0, 4).consumes(T).head().wait(T).cwork(T).tail().release(T);
  EXPECT_TRUE(bracket(B).empty()) << dump(bracket(B));
  // Not fine: the loop works on it.
  Builder C;
  unsigned U = C.tma("Tiles");
  C.task("a", 0, 4).consumes(U).head().wait(U).loop(4).cwork(U).tail().release(
      U);
  DiagList D = bracket(C);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "stage of 'Tiles' waited for before the loop is still held in the "
            "loop");
}

TEST(Bracketing, CommitWithoutAcquireAndDoubleAcquire) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1)
      .produces(T)
      .loop(8)
      .acquire(T)
      .acquire(T)
      .commit(T)
      .commit(T);
  DiagList D = bracket(B);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 1));
  EXPECT_EQ(D[0].Message, "acquire of 'Tiles' while a stage is still held");
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[1].Loc, opLoc(0, 3));
  EXPECT_EQ(D[1].Message, "commit of 'Tiles' without an open acquire");
}

TEST(Bracketing, TryWithoutBlockingOp) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).loop(8).drain(T).tryWait(T);
  DiagList D0 = bracket(B);
  // In a loop the wait of the next iteration follows the try.
  EXPECT_TRUE(D0.empty()) << dump(D0);

  Builder C;
  unsigned U = C.tma("Tiles");
  C.task("store", 0, 4).consumes(U).loop(8).drain(U).tail().tryWait(U);
  C.task("load", 4, 1).produces(U).head().tryAcquire(U).loop(8).fill(U);
  DiagList D = bracket(C);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 3));
  EXPECT_EQ(D[0].Message, "try_wait of 'Tiles' is never followed by wait");
  EXPECT_EQ(D[0].Notes[0].Message,
            "pass its token to wait(token) on the same handle");
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
