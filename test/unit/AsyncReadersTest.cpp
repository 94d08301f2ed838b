//===- AsyncReadersTest.cpp - Stages read by ts::wgmma MMAs ---------------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// wait, mma, commit_group, wait_group<1>, then the lag's hand-backs.
TaskRef &lagged(TaskRef &T, unsigned R) {
  return T.loop(std::nullopt)
      .wait(R)
      .mma(R)
      .mmaCommit()
      .mmaWait(1)
      .releaseOldest(R, Guard::NotFirstIter)
      .mmaWait(0, Guard::LastIter)
      .release(R, Guard::LastIter);
}

TEST(Guards, RunsOnTheIterationsTheyName) {
  // Trip count 3: iterations 0, 1, 2; trip count 1: the first is the last.
  const bool Want[5][4] = {
      {1, 1, 1, 1}, {1, 0, 0, 1}, {0, 0, 1, 1}, {0, 1, 1, 0}, {1, 1, 0, 0}};
  const Guard Gs[5] = {Guard::Always, Guard::FirstIter, Guard::LastIter,
                       Guard::NotFirstIter, Guard::NotLastIter};
  for (int G = 0; G < 5; ++G) {
    for (uint64_t It = 0; It < 3; ++It)
      EXPECT_EQ(guardRuns(Gs[G], It, 3), Want[G][It])
          << guardName(Gs[G]) << " " << It;
    EXPECT_EQ(guardRuns(Gs[G], 0, 1), Want[G][3]) << guardName(Gs[G]);
  }
  EXPECT_TRUE(runsInMiddle(Guard::NotFirstIter));
  EXPECT_FALSE(runsInMiddle(Guard::LastIter));
}

TEST(AsyncReaders, TheLagIsVerified) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  TaskRef M = B.task("mma", 0, 4);
  lagged(M.consumes(T), T);
  DiagList D = stageChecks(B);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(AsyncReaders, ReleaseBeforeTheWaitCoversTheGroup) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .wait(T)
      .mma(T)
      .mmaCommit()
      .mmaWait(1)
      .release(T);
  DiagList D = only(stageChecks(B), Check::Ownership);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(1, 4));
  EXPECT_EQ(D[0].Message, "release of 'Tiles' hands back a stage that a wgmma "
                          "may still be reading");
  ASSERT_EQ(D[0].Notes.size(), 2u);
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(1, 1)); // the MMA
  EXPECT_EQ(D[0].Notes[1].Loc, opLoc(1, 3)); // the wait that falls short
  EXPECT_TRUE(contains(D[0].Notes[1].Message, "wait_group<0>()"));
}

TEST(AsyncReaders, UncommittedGroup) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .wait(T)
      .mma(T)
      .mmaWait(0)
      .release(T)
      .mmaCommit();
  DiagList D = only(stageChecks(B), Check::Ownership);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_TRUE(contains(D[0].Notes.back().Message, "commit_group()"));
}

TEST(AsyncReaders, WaitedStagesMayBeReleased) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .wait(T)
      .mma(T)
      .mmaCommit()
      .mmaWait(0)
      .release(T);
  DiagList D = stageChecks(B);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(AsyncReaders, LagWithoutTheLastHandBackIsUnbalanced) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .wait(T)
      .mma(T)
      .mmaCommit()
      .mmaWait(1)
      .releaseOldest(T, Guard::NotFirstIter);
  DiagList D = only(stageChecks(B), Check::Bracket);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "stage of 'Tiles' waited for in the loop is not "
                          "released in the same iteration");
  EXPECT_TRUE(contains(D[0].Notes.back().Message, "release_oldest()"));
}

TEST(AsyncReaders, ReleaseOldestWithNothingHeld) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .drain(T)
      .tail()
      .releaseOldest(T);
  DiagList D = only(stageChecks(B), Check::Ownership);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(
      D[0].Message,
      "release_oldest of 'Tiles' runs while the task holds no stage of it");
}

} // namespace
