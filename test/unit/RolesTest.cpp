//===- RolesTest.cpp - Producer/consumer roles ----------------------------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(Roles, CopyKernelPasses) {
  Builder B;
  unsigned T = B.tma("Tiles");
  unsigned Out = B.resource("Out", PipelineKind::Gmem, 1, 0);
  B.task("store", 0, 4).consumes(T).produces(Out).loop(8).drain(T).pwork(Out);
  B.task("load", 4, 1).produces(T).loop(8).fill(T);
  DiagList D;
  checkRoles(B.P, B.kernel(), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Roles, ProducerOpOnConsumerHandle) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4)
      .consumes(T)
      .loop(8)
      .drain(T)
      .opAs(OpKind::Commit, T, Role::Consumer);
  B.task("load", 4, 1).produces(T).loop(8).fill(T);
  DiagList D;
  checkRoles(B.P, B.kernel(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 3));
  EXPECT_EQ(D[0].Message, "commit on a consumer handle of 'Tiles'");
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(Roles, OpWithoutHandle) {
  Builder B;
  unsigned T = B.tma("Tiles");
  unsigned U = B.tma("Other");
  B.task("store", 0, 4).consumes(T).loop(8).drain(T).cwork(U);
  B.task("load", 4, 1).produces(T).produces(U).loop(8).fill(T).fill(U);
  DiagList D;
  checkRoles(B.P, B.kernel(), D);
  auto R = only(D, Check::Roles);
  ASSERT_GE(R.size(), 1u) << dump(D);
  EXPECT_EQ(R[0].Loc, opLoc(0, 3));
  EXPECT_EQ(R[0].Message, "task 'store' uses 'Other' as consumer without a "
                          "consumer handle");
  EXPECT_EQ(R[0].Notes[0].Message,
            "add a ts::consumer<Other> parameter to task 'store'");
}

TEST(Roles, MissingConsumerTask) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1).produces(T).loop(8).fill(T);
  DiagList D;
  checkRoles(B.P, B.kernel(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, kernelLoc(0));
  EXPECT_EQ(D[0].Message,
            "pipelined resource 'Tiles' has no consumer task in kernel 'k'");
  EXPECT_EQ(D[0].Notes[0].Loc, resLoc(T));
  EXPECT_EQ(D[0].Notes[0].Message,
            "add a task with a ts::consumer<Tiles> parameter");
}

TEST(Roles, PipelineOpOnGmem) {
  Builder B;
  unsigned G = B.resource("Out", PipelineKind::Gmem, 1, 0);
  B.task("store", 0, 4).produces(G).loop(8).acquire(G).pwork(G).commit(G);
  DiagList D;
  checkRoles(B.P, B.kernel(), D);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "acquire on gmem resource 'Out', which has no pipeline");
  EXPECT_EQ(D[1].Message,
            "commit on gmem resource 'Out', which has no pipeline");
  EXPECT_EQ(D[0].Notes[0].Loc, resLoc(G));
}

TEST(Roles, HandleThatNeverTakesAStage) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("store", 0, 4).consumes(T).loop(8).drain(T);
  B.task("load", 4, 1).produces(T).loop(8).pwork(T);
  B.task("idle", 5, 1).consumes(T);
  DiagList D;
  checkRoles(B.P, B.kernel(), D);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Loc, taskLoc(1));
  EXPECT_EQ(D[0].Message,
            "task 'load' produces 'Tiles' but never acquires a stage");
  EXPECT_EQ(D[1].Message,
            "task 'idle' consumes 'Tiles' but never waits for a stage");
  EXPECT_TRUE(allHaveNotes(D));
}

} // namespace
