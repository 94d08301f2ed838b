//===- CarriedStageTest.cpp - Stages kept in `ts::stage<R> prev;` ---------===//
#include "Builders.h"
#include "verify/Nested.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// The lag with a carried variable: wait, mma, commit_group, wait_group<1>,
/// release(prev) after the first step, prev = s, and the last step's own
/// stage handed back on the last iteration.
TaskRef &lagged(TaskRef &T, unsigned R) {
  return T.wait(R)
      .mma(R)
      .mmaCommit()
      .mmaWait(1)
      .releaseCarried(R, 0, Guard::NotFirstIter)
      .carry(0)
      .mmaWait(0, Guard::LastIter)
      .release(R, Guard::LastIter);
}

TEST(CarriedStage, TheLagIsVerified) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  TaskRef M = B.task("mma", 0, 4);
  lagged(M.consumes(T).carryDecl(0).loop(std::nullopt), T);
  DiagList D = stageChecks(B);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(CarriedStage, ReleaseBeforeTheFirstCopy) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .carryDecl(0)
      .loop(std::nullopt)
      .wait(T)
      .releaseCarried(T, 0)
      .carry(0)
      .release(T, Guard::LastIter);
  DiagList D = only(stageChecks(B), Check::Ownership);
  ASSERT_FALSE(D.empty());
  EXPECT_EQ(D[0].Loc, opLoc(1, 2));
  EXPECT_EQ(D[0].Message, "release of 'Tiles' hands back a carried stage "
                          "variable that holds no stage here");
}

TEST(CarriedStage, DeclarationInTheLoopForgetsTheLastStage) {
  // Declared in the loop body, the variable is new in every iteration: the
  // lagged release finds it empty on the second.
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  TaskRef M = B.task("mma", 0, 4);
  lagged(M.consumes(T).loop(std::nullopt).carryDecl(0), T);
  DiagList D = only(stageChecks(B), Check::Ownership);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(1, 5));
  EXPECT_TRUE(contains(D[0].Message, "holds no stage here"));
  // The stage it lost stays held, so the last iteration's release is out of
  // order.
  EXPECT_TRUE(
      contains(D[1].Message, "a newer stage while an older one is held"));
}

TEST(CarriedStage, CopiedBeforeTheReleaseHandsBackTheNewest) {
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1).produces(T).loop(std::nullopt).fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .carryDecl(0)
      .loop(std::nullopt)
      .wait(T)
      .mma(T)
      .mmaCommit()
      .mmaWait(0)
      .carry(0)
      .releaseCarried(T, 0, Guard::NotFirstIter)
      .release(T, Guard::LastIter);
  std::vector<std::string> Messages;
  for (const Diag &D : only(stageChecks(B), Check::Ownership))
    Messages.push_back(D.Message);
  EXPECT_NE(std::find(Messages.begin(), Messages.end(),
                      "release of 'Tiles' hands back a newer stage while an "
                      "older one is held"),
            Messages.end());
}

TEST(CarriedStage, UnrollingRenumbersTheCopiedStage) {
  // Each inner iteration's copy names that iteration's stage; the carried
  // variable itself keeps one number across the iterations.
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1)
      .produces(T)
      .loop(std::nullopt)
      .inner(std::nullopt)
      .fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .carryDecl(0)
      .inner(std::nullopt)
      .wait(T)
      .carry(0);
  Program V = innerUnrolled(B.P, B.kernel(), 3);
  std::vector<int> Waits, Froms, Vars;
  for (const Op &O : V.Tasks[1].Ops) {
    if (O.Kind == OpKind::Wait)
      Waits.push_back(O.Stage);
    if (O.Kind == OpKind::Carry && O.From != Op::NoStage) {
      Froms.push_back(O.From);
      Vars.push_back(O.Stage);
    }
  }
  ASSERT_EQ(Waits.size(), 3u);
  EXPECT_EQ(Froms, Waits);
  EXPECT_NE(Waits[0], Waits[1]);
  EXPECT_EQ(Vars, std::vector<int>(3, TaskRef::CarriedBase));
}

TEST(CarriedStage, GemmShapeVerifiedForEveryCount) {
  // The GEMM's consumer: prev declared per tile, released after the k-loop.
  Builder B;
  unsigned T = B.tma("Tiles", 2);
  B.task("load", 4, 1)
      .produces(T)
      .loop(std::nullopt)
      .inner(std::nullopt)
      .fill(T);
  B.task("mma", 0, 4)
      .consumes(T)
      .loop(std::nullopt)
      .carryDecl(0)
      .inner(std::nullopt)
      .wait(T)
      .mma(T)
      .mmaCommit()
      .mmaWait(1)
      .releaseCarried(T, 0, Guard::NotFirstIter)
      .carry(0)
      .body()
      .mmaWait(0)
      .releaseCarried(T, 0);
  B.P.Tasks[0].Inners[0].NonEmpty = B.P.Tasks[1].Inners[0].NonEmpty = true;
  KernelPlan Plan = planFor(B.P, B.kernel());
  EXPECT_FALSE(hasError(verifyKernel(B.P, B.kernel(), Plan).Diags));
  // Without nonempty() the release after an empty k-loop holds nothing.
  B.P.Tasks[0].Inners[0].NonEmpty = B.P.Tasks[1].Inners[0].NonEmpty = false;
  DiagList D = verifyInnerCount(B.P, B.kernel(), Plan, 0).Diags;
  EXPECT_TRUE(std::any_of(D.begin(), D.end(), [](const Diag &X) {
    return contains(X.Message, "holds no stage here");
  })) << dump(D);
}

} // namespace
