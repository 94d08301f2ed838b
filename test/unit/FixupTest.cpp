//===- FixupTest.cpp - The stream-K fix-up (verify/Fixup.cpp) -------------===//
#include "Builders.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// A stream-K GEMM as frontend/Settles.cpp records it: both tasks loop over
/// the segments of partition "p.sk"; the MMA warpgroups settle after each
/// segment's k-loop, once its MMAs are waited for.
struct StreamK {
  Builder B;
  unsigned R = B.tma("Ops", 4, 4096);
  TaskRef Load = B.task("load", 8, 1).produces(R);
  TaskRef Mma = B.task("mma", 0, 8).consumes(R);
  StreamK() {
    for (TaskRef *T : {&Load, &Mma}) {
      T->loop(std::nullopt, "p.sk.segments()");
      T->task().Dom.Segments = "p.sk";
      T->body();
    }
    Load.inner(std::nullopt, "k").fill(R).body();
    Mma.inner(std::nullopt, "k").wait(R).mma(R).mmaCommit().release(R).body();
    Mma.mmaWait(0);
  }
  /// A settle where the front end found it, after the ops so far.
  SettleCall &settle(bool Once = true) {
    SettleCall S;
    S.Loc = 77;
    S.Partition = "p.sk";
    S.Warpgroups = 2;
    S.Once = Once;
    S.Where = Once ? "" : "an 'if' statement";
    S.SegmentOfLoop = true;
    S.OpIndex = Mma.task().Ops.size();
    Mma.task().Settles.push_back(S);
    return Mma.task().Settles.back();
  }
  DiagList check() {
    DiagList D;
    checkFixup(B.P, B.kernel(), D);
    return D;
  }
};

bool mentions(const DiagList &D, const std::string &Text) {
  for (const Diag &X : D)
    if (X.Group == Check::Fixup && X.Message.find(Text) != std::string::npos)
      return true;
  return false;
}

TEST(Fixup, OneSettlePerSegmentAfterItsMmasPasses) {
  StreamK K;
  K.settle();
  EXPECT_TRUE(K.check().empty());
}

TEST(Fixup, SegmentsNobodySettlesAreAnError) {
  StreamK K;
  DiagList D = K.check();
  ASSERT_EQ(D.size(), 1u); // once for the kernel, not once per task
  EXPECT_TRUE(mentions(D, "no task settles them"));
}

TEST(Fixup, ASettleThatMayNotRunOnceIsAnError) {
  StreamK K;
  K.settle(false);
  EXPECT_TRUE(mentions(K.check(), "is inside an 'if' statement"));
}

TEST(Fixup, ASecondSettleInTheSameTaskIsAnError) {
  StreamK K;
  K.settle();
  K.settle();
  EXPECT_TRUE(mentions(K.check(), "settles a segment a second time"));
}

TEST(Fixup, AnotherSegmentOrAnUnusedResultIsAnError) {
  StreamK K;
  K.settle().SegmentOfLoop = false;
  EXPECT_TRUE(mentions(K.check(), "not given this iteration's segment"));
  StreamK L;
  L.settle().Discarded = true;
  EXPECT_TRUE(mentions(L.check(), "result of settle() is not used"));
}

TEST(Fixup, TheLoopMustRunThePartitionsSegments) {
  StreamK K;
  K.settle();
  K.Mma.task().Dom.Segments = "";
  EXPECT_TRUE(mentions(K.check(), "does not run that partition's segments"));
}

TEST(Fixup, SettlersAreWholeWarpgroupsThePartitionCounts) {
  StreamK K;
  K.settle().Warpgroups = 1;
  EXPECT_TRUE(mentions(K.check(), "holds partial sums for 1 warpgroup"));
  StreamK L;
  L.Mma.task().NumWarps = 6;
  L.settle();
  EXPECT_TRUE(mentions(L.check(), "not whole warpgroups"));
}

TEST(Fixup, MmasStillPendingBeforeTheSettleAreAnError) {
  StreamK K;
  K.Mma.task().Ops.pop_back(); // the wait_group<0> after the k-loop
  K.settle();
  EXPECT_TRUE(mentions(K.check(), "MMAs committed before it may still"));
  StreamK L; // a wait that leaves one group pending is not enough
  L.Mma.task().Ops.back().Pending = 1;
  L.settle();
  EXPECT_TRUE(mentions(L.check(), "MMAs committed before it may still"));
}

} // namespace
