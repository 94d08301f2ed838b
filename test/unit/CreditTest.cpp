//===- CreditTest.cpp - Linear credit simulation --------------------------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

using Trips = std::vector<uint64_t>;

/// The TMA copy: a 4-warp consumer and a 1-warp producer over `Tiles`.
/// A runtime domain (nullopt) makes the simulation probe several counts.
struct Copy {
  Builder B;
  unsigned Tiles;
  explicit Copy(std::optional<int64_t> N = std::nullopt, unsigned Stages = 4) {
    Tiles = B.tma("Tiles", Stages);
  }
  Kernel &k() { return B.kernel(); }
};

TEST(Credit, CopyKernelPassesForAllTrips) {
  Copy C;
  C.B.task("store", 0, 4).consumes(C.Tiles).loop(std::nullopt).drain(C.Tiles);
  C.B.task("load", 4, 1).produces(C.Tiles).loop(std::nullopt).fill(C.Tiles);
  DiagList D;
  SimResult S = checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
  EXPECT_EQ(S.Trips, 5u);
  EXPECT_FALSE(S.Deadlocked);
  EXPECT_EQ(S.Steps.size(), 30u); // 5 iterations x 3 ops x 2 tasks.
  // The consumer's first wait needs the producer's first commit (step 2).
  for (const SimStep &St : S.Steps)
    if (St.Task == 0 && St.OpIndex == 0 && St.Iteration == 0)
      EXPECT_EQ(St.Step, 3u);
}

TEST(Credit, ConsumerThatNeverReleasesDeadlocksPastTheStages) {
  Copy C;
  C.B.task("store", 0, 4)
      .consumes(C.Tiles)
      .loop(std::nullopt)
      .wait(C.Tiles)
      .cwork(C.Tiles);
  C.B.task("load", 4, 1).produces(C.Tiles).loop(std::nullopt).fill(C.Tiles);
  DiagList D;
  SimResult S = checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  EXPECT_TRUE(S.Deadlocked);
  EXPECT_EQ(S.Trips, 5u);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  // Below the stage count the schedule only leaks stages.
  EXPECT_EQ(D[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[0].Message, "task 'store' waits for 'Tiles' once but releases "
                          "it 0 times (trip count 1)");
  // Past it, the producer runs out of stages.
  EXPECT_EQ(D[1].Group, Check::Credit);
  EXPECT_EQ(D[1].Loc, opLoc(0, 0));
  EXPECT_EQ(D[1].Message, "deadlock: task 'store' blocks forever on wait of "
                          "'Tiles' (trip count 5)");
  ASSERT_GE(D[1].Notes.size(), 3u) << dump(D);
  EXPECT_EQ(D[1].Notes[0].Loc, opLoc(1, 0));
  EXPECT_EQ(D[1].Notes[0].Message,
            "task 'load' is blocked here on acquire of 'Tiles'");
  EXPECT_EQ(D[1].Notes[1].Loc, resLoc(C.Tiles));
  EXPECT_EQ(D[1].Notes[1].Message, "'Tiles': 0 empty, 0 full stages");
  // The consumer waits, but the missing release is the cause.
  EXPECT_EQ(D[1].Notes.back().Message,
            "every acquire beyond the 4 stages of 'Tiles' needs a release "
            "from each consumer task");
  EXPECT_TRUE(allHaveNotes(D));
  // The trace ends with both tasks blocked.
  ASSERT_GE(S.Steps.size(), 2u);
  EXPECT_TRUE(S.Steps.back().Blocked);
  EXPECT_EQ(S.Steps.back().Iteration, 4u);
}

TEST(Credit, ProducerMissingCommitStarvesTheConsumer) {
  Copy C;
  C.B.task("store", 0, 4).consumes(C.Tiles).loop(std::nullopt).drain(C.Tiles);
  C.B.task("load", 4, 1)
      .produces(C.Tiles)
      .loop(std::nullopt)
      .acquire(C.Tiles)
      .pwork(C.Tiles);
  DiagList D;
  checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  DiagList Dead;
  for (const Diag &X : D)
    if (contains(X.Message, "deadlock"))
      Dead.push_back(X);
  ASSERT_EQ(Dead.size(), 1u) << dump(D);
  EXPECT_EQ(Dead[0].Message, "deadlock: task 'store' blocks forever on wait "
                             "of 'Tiles' (trip count 1)");
  bool Finished = false;
  for (const DiagNote &N : Dead[0].Notes)
    Finished |= N.Message == "task 'load' has finished after committing 0 "
                             "stages" &&
                N.Loc == taskLoc(1);
  EXPECT_TRUE(Finished) << dump(D);
  EXPECT_TRUE(contains(Dead[0].Notes.back().Message,
                       "every wait on 'Tiles' needs a commit"));
}

TEST(Credit, CircularWaitReportsBothTasks) {
  Builder B;
  unsigned X = B.resource("X", PipelineKind::AsyncAsync, 2, 1024);
  unsigned Y = B.resource("Y", PipelineKind::AsyncAsync, 2, 1024);
  // Each task waits for what the other only produces after its own wait.
  B.task("a", 0, 4).consumes(Y).produces(X).loop(4).drain(Y).fill(X);
  B.task("b", 4, 4).consumes(X).produces(Y).loop(4).drain(X).fill(Y);
  DiagList D;
  SimResult S = checkCredits(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  EXPECT_TRUE(S.Deadlocked);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[0].Message,
            "deadlock: task 'a' blocks forever on wait of 'Y' (trip count 4)");
  EXPECT_EQ(D[0].Notes[0].Loc, opLoc(1, 0));
  EXPECT_EQ(D[0].Notes[0].Message, "task 'b' is blocked here on wait of 'X'");
  EXPECT_EQ(D[0].Notes[1].Message, "'Y': 2 empty, 0 full stages");
  EXPECT_EQ(D[0].Notes[2].Message, "'X': 2 empty, 0 full stages");
  // Nobody ran: both tasks are blocked at step 0.
  ASSERT_EQ(S.Steps.size(), 2u);
  EXPECT_TRUE(S.Steps[0].Blocked && S.Steps[1].Blocked);
}

TEST(Credit, ExtraCommitInTailIsUnbalanced) {
  Copy C;
  C.B.task("store", 0, 4).consumes(C.Tiles).loop(std::nullopt).drain(C.Tiles);
  C.B.task("load", 4, 1)
      .produces(C.Tiles)
      .loop(std::nullopt)
      .fill(C.Tiles)
      .tail()
      .commit(C.Tiles);
  DiagList D;
  SimResult S = checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  EXPECT_FALSE(S.Deadlocked);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(1, 3));
  EXPECT_EQ(D[0].Message, "task 'load' acquires 'Tiles' 0 times but commits "
                          "it once (trip count 0)");
  EXPECT_EQ(D[1].Loc, opLoc(1, 3));
  EXPECT_EQ(D[1].Message,
            "1 commit of 'Tiles' is never waited for (trip count 0)");
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(Credit, GuardsExpandOnFirstAndLastIteration) {
  Builder B;
  unsigned T = B.tma("Tiles");
  unsigned G = B.resource("Out", PipelineKind::Gmem, 1, 0);
  B.task("store", 0, 4)
      .consumes(T)
      .produces(G)
      .loop(3)
      .opAs(OpKind::Work, G, Role::Producer, Guard::FirstIter)
      .drain(T)
      .opAs(OpKind::Work, G, Role::Producer, Guard::LastIter);
  B.task("load", 4, 1).produces(T).loop(3).fill(T);
  DiagList D;
  SimResult S = checkCredits(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
  EXPECT_EQ(S.Trips, 3u);
  std::vector<unsigned> FirstIters, LastIters;
  unsigned StoreSteps = 0;
  for (const SimStep &St : S.Steps) {
    if (St.Task != 0)
      continue;
    ++StoreSteps;
    if (St.OpIndex == 0)
      FirstIters.push_back(St.Iteration);
    if (St.OpIndex == 4)
      LastIters.push_back(St.Iteration);
  }
  EXPECT_EQ(StoreSteps, 3u * 3u + 2u);
  EXPECT_EQ(FirstIters, std::vector<unsigned>{0});
  EXPECT_EQ(LastIters, std::vector<unsigned>{2});
}

TEST(Credit, ReleaseOnlyOnTheLastIteration) {
  Copy C;
  C.B.task("store", 0, 4)
      .consumes(C.Tiles)
      .loop(std::nullopt)
      .wait(C.Tiles)
      .cwork(C.Tiles)
      .release(C.Tiles, Guard::LastIter);
  C.B.task("load", 4, 1).produces(C.Tiles).loop(std::nullopt).fill(C.Tiles);
  DiagList D;
  SimResult S = checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  EXPECT_TRUE(S.Deadlocked);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  // Trip 1 is balanced; trip 2 leaks one stage.
  EXPECT_EQ(D[0].Message, "task 'store' waits for 'Tiles' 2 times but "
                          "releases it once (trip count 2)");
  EXPECT_TRUE(contains(D[1].Message, "deadlock: task 'store'")) << dump(D);
  EXPECT_TRUE(contains(D[1].Message, "(trip count 5)")) << dump(D);
}

TEST(Credit, BroadcastToTwoConsumers) {
  Copy C;
  C.B.task("c0", 0, 4).consumes(C.Tiles).loop(std::nullopt).drain(C.Tiles);
  C.B.task("c1", 4, 4).consumes(C.Tiles).loop(std::nullopt).drain(C.Tiles);
  C.B.task("load", 8, 1).produces(C.Tiles).loop(std::nullopt).fill(C.Tiles);
  DiagList D;
  SimResult S = checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
  EXPECT_FALSE(S.Deadlocked);

  // One consumer that never releases holds every stage for both.
  Copy E;
  E.B.task("c0", 0, 4).consumes(E.Tiles).loop(std::nullopt).drain(E.Tiles);
  E.B.task("c1", 4, 4)
      .consumes(E.Tiles)
      .loop(std::nullopt)
      .wait(E.Tiles)
      .cwork(E.Tiles);
  E.B.task("load", 8, 1).produces(E.Tiles).loop(std::nullopt).fill(E.Tiles);
  DiagList D2;
  SimResult S2 = checkCredits(E.B.P, E.k(), planFor(E.B.P, E.k()), D2);
  EXPECT_TRUE(S2.Deadlocked);
  bool Found = false;
  for (const Diag &X : D2)
    Found |= X.Message == "deadlock: task 'c0' blocks forever on wait of "
                          "'Tiles' (trip count 5)";
  EXPECT_TRUE(Found) << dump(D2);
}

TEST(Credit, TwoProducersFillEveryStage) {
  Copy C;
  C.B.task("store", 0, 4).consumes(C.Tiles).loop(6).drain(C.Tiles);
  C.B.task("p0", 4, 1).produces(C.Tiles).loop(6).fill(C.Tiles);
  C.B.task("p1", 5, 1).produces(C.Tiles).loop(6).fill(C.Tiles);
  DiagList D;
  SimResult S = checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
  EXPECT_EQ(S.Trips, 6u);

  // One producer commits one stage fewer: that stage never becomes full.
  Copy E;
  E.B.task("store", 0, 4).consumes(E.Tiles).loop(6).drain(E.Tiles);
  E.B.task("p0", 4, 1).produces(E.Tiles).loop(6).fill(E.Tiles);
  E.B.task("p1", 5, 1)
      .produces(E.Tiles)
      .loop(6)
      .acquire(E.Tiles)
      .pwork(E.Tiles)
      .commit(E.Tiles, Guard::FirstIter);
  DiagList D2;
  SimResult S2 = checkCredits(E.B.P, E.k(), planFor(E.B.P, E.k()), D2);
  EXPECT_TRUE(S2.Deadlocked) << dump(D2);
}

TEST(Credit, DifferentRuntimeDomainsAreAnError) {
  Copy C;
  C.B.task("store", 0, 4)
      .consumes(C.Tiles)
      .loop(std::nullopt, "m")
      .drain(C.Tiles);
  C.B.task("load", 4, 1)
      .produces(C.Tiles)
      .loop(std::nullopt, "n")
      .fill(C.Tiles);
  C.B.task("load2", 5, 1)
      .produces(C.Tiles)
      .loop(std::nullopt, "k")
      .fill(C.Tiles);
  DiagList D;
  checkDomains(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  // Once per pair of tasks that exchange stages: store/load, store/load2,
  // load/load2 (two producers of one pipeline).
  ASSERT_EQ(D.size(), 3u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Domain);
  EXPECT_TRUE(checkIsErrorByDefault(Check::Domain));
  EXPECT_EQ(D[0].Loc, domLoc(2));
  EXPECT_EQ(D[0].Message, "tasks 'load' and 'load2' exchange stages of 'Tiles' "
                          "but may run different trip counts");
  EXPECT_EQ(D[0].Notes[0].Loc, domLoc(1));
  EXPECT_EQ(D[0].Notes[0].Message,
            "task 'load' loops over ts::domain(0, n, 1)");
  EXPECT_EQ(D[1].Message, "tasks 'store' and 'load' exchange stages of 'Tiles' "
                          "but may run different trip counts");
}

} // namespace

TEST(Credit, CircularWaitWhileHoldingNamesTheCycle) {
  Builder B;
  unsigned X = B.resource("X", PipelineKind::AsyncAsync, 1, 1024);
  unsigned Y = B.resource("Y", PipelineKind::AsyncAsync, 1, 1024);
  // Each task takes its output stage, then waits for the other's output.
  B.task("a", 0, 1)
      .produces(X)
      .consumes(Y)
      .loop(std::nullopt)
      .acquire(X)
      .wait(Y)
      .release(Y)
      .commit(X);
  B.task("b", 1, 1)
      .produces(Y)
      .consumes(X)
      .loop(std::nullopt)
      .acquire(Y)
      .wait(X)
      .release(X)
      .commit(Y);
  DiagList D;
  checkCredits(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "deadlock: task 'a' blocks forever on wait of 'Y' (trip count 1)");
  bool Cycle = false;
  for (const DiagNote &N : D[0].Notes)
    Cycle |= N.Message ==
             "circular wait: task 'a' waits for 'Y' holding 'X', which task "
             "'b' commits only later; task 'b' waits for 'X' holding 'Y', "
             "which task 'a' commits only later";
  EXPECT_TRUE(Cycle) << dump(D);
}

TEST(Credit, ProducerHoldingUncommittedStagesGetsTheCommitHint) {
  // The producer acquires every iteration but commits only on the last:
  // past the stage count it blocks on acquire, yet the commit is missing.
  Copy C;
  C.B.task("store", 0, 4).consumes(C.Tiles).loop(8).drain(C.Tiles);
  C.B.task("load", 4, 1)
      .produces(C.Tiles)
      .loop(8)
      .acquire(C.Tiles)
      .pwork(C.Tiles)
      .commit(C.Tiles, Guard::LastIter);
  DiagList D;
  checkCredits(C.B.P, C.k(), planFor(C.B.P, C.k()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_TRUE(contains(D[0].Message, "deadlock: task 'store' blocks forever"))
      << dump(D);
  bool Holds = false, Guarded = false;
  for (const DiagNote &N : D[0].Notes) {
    Holds |= N.Message ==
             "task 'load' holds 4 stages of 'Tiles' it acquired but never "
             "committed";
    Guarded |= N.Message == "this commit runs only on the last iteration";
  }
  EXPECT_TRUE(Holds && Guarded) << dump(D);
  EXPECT_TRUE(contains(D[0].Notes.back().Message,
                       "every wait on 'Tiles' needs a commit"));
}
