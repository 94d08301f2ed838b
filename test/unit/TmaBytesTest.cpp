// A tma_async stage must get a TMA load on every path between acquire and
// commit: the acquire armed bytes only a load delivers.
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// The findings of the check; ts-tma-box warnings only when asked for.
DiagList tmaBytes(Builder &B, bool Boxes = false) {
  DiagList D, Out;
  checkTmaBytes(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  for (Diag &X : D)
    if (Boxes || X.Group != Check::TmaBox)
      Out.push_back(std::move(X));
  return Out;
}

TEST(TmaBytes, LoadBetweenAcquireAndCommitPasses) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1).produces(T).loop(std::nullopt).body().fill(T);
  EXPECT_TRUE(tmaBytes(B).empty()) << dump(tmaBytes(B));
}

TEST(TmaBytes, CommitWithoutLoad) {
  Builder B;
  unsigned T = B.tma("Tiles", 4, 4096);
  auto L = B.task("load", 0, 1).produces(T).loop(std::nullopt).body();
  L.acquire(T).pwork(T).commit(T);
  B.P.Tasks[0].Ops[1].TmaLoad = false; // work that is not a TMA load
  DiagList D = tmaBytes(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::TmaBytes);
  EXPECT_EQ(D[0].Loc, opLoc(0, 0));
  EXPECT_EQ(D[0].Message, "stage of 'Tiles' is committed without a TMA load");
  EXPECT_NE(D[0].Notes[0].Message.find("acquire armed 4096 transaction bytes"),
            std::string::npos);
}

TEST(TmaBytes, LoadThatMayBeSkipped) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1).produces(T).loop(std::nullopt).body().fill(T);
  Op &Work = B.P.Tasks[0].Ops[1];
  Work.TmaLoad = false;
  Work.TmaLoadMaybeSkipped = true;
  DiagList D = tmaBytes(B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 1));
  EXPECT_EQ(D[0].Message, "TMA load into 'Tiles' may be skipped, but its stage "
                          "is committed anyway");
}

/// A stage of members a (1024 B) and b (3072 B), loaded by two statements.
struct TwoMembers {
  Builder B;
  unsigned T;
  TwoMembers() {
    T = B.tma("Tiles", 4, 4096);
    B.P.Resources[T].Fields = {{"a", 1024}, {"b", 3072}};
    B.task("load", 0, 1)
        .produces(T)
        .loop(std::nullopt)
        .inner(std::nullopt)
        .acquire(T)
        .pwork(T)
        .pwork(T)
        .commit(T);
    loadA().LoadFields = {"a"};
    loadB().LoadFields = {"b"};
  }
  Op &loadA() { return B.P.Tasks[0].Ops[1]; }
  Op &loadB() { return B.P.Tasks[0].Ops[2]; }
};

TEST(TmaBytes, EveryMemberOfTheArmedPayloadIsLoaded) {
  TwoMembers M;
  EXPECT_TRUE(tmaBytes(M.B).empty()) << dump(tmaBytes(M.B));
  M.loadB().LoadFields = {"a"}; // both loads into a, in a nested k-loop
  DiagList D = tmaBytes(M.B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 3));
  EXPECT_EQ(D[0].Message,
            "stage of 'Tiles' is committed without a TMA load into 'b'");
  EXPECT_NE(D[0].Notes[0].Message.find(
                "the whole payload; no load on every path to the commit "
                "writes the 3072 bytes of 'b'"),
            std::string::npos);
}

TEST(TmaBytes, MembersAreJudgedOnlyWhenEveryDestinationIsKnown) {
  TwoMembers M;
  M.loadB().LoadFields = {};
  M.loadB().LoadFieldsKnown = false; // a pointer from elsewhere
  EXPECT_TRUE(tmaBytes(M.B).empty());
  M.loadB().LoadFieldsKnown = true;
  M.loadB().LoadFields = {""}; // a load at the stage itself may fill both
  EXPECT_TRUE(tmaBytes(M.B).empty());
  M.loadB().LoadFields = {};
  M.B.P.Resources[M.T].TxBytes =
      1024; // ts::tx_bytes: the bytes a's load delivers
  EXPECT_TRUE(tmaBytes(M.B).empty());
}

TEST(TmaBytes, ProducerTasksFillAStageTogether) {
  TwoMembers M;
  M.loadB().LoadFields = {"a"};
  M.B.task("load_b", 1, 1)
      .produces(M.T)
      .loop(std::nullopt)
      .inner(std::nullopt)
      .fill(M.T);
  M.B.P.Tasks[1].Ops[1].LoadFields = {"b"};
  EXPECT_TRUE(tmaBytes(M.B).empty()) << dump(tmaBytes(M.B));
}

/// ts::merge: TwoMembers' load task loads a only; a warpgroup writes b.
struct Merged : TwoMembers {
  Merged() {
    B.P.Resources[T].Merge = true;
    B.P.Resources[T].TxBytes.reset(); // derived from the loads
    B.P.Tasks[0].Ops.erase(B.P.Tasks[0].Ops.begin() + 2); // no load into b
    B.task("fill_b", 4, 4)
        .produces(T)
        .loop(std::nullopt)
        .inner(std::nullopt)
        .fill(T);
    B.P.Tasks[1].Ops[1].TmaLoad = false; // its threads store
  }
};

TEST(TmaBytes, MergedStageCountsTheLeaderAndEveryFillingThread) {
  Merged M;
  KernelPlan Plan = planFor(M.B.P, M.B.kernel());
  const PipelinePlan &PP = *Plan.pipeline(M.T);
  EXPECT_EQ(PP.TxBytes, 1024u);         // the member the loads name
  EXPECT_EQ(PP.Counts.Full, 1u + 128u); // the leader's expect_tx, each thread
  EXPECT_TRUE(PP.armsTxBytes(0));
  EXPECT_FALSE(PP.armsTxBytes(1));
  EXPECT_TRUE(PP.fillsWithThreads(1));
  EXPECT_FALSE(PP.fillsWithThreads(0));
  EXPECT_TRUE(tmaBytes(M.B).empty()) << dump(tmaBytes(M.B));
  // Without ts::merge the thread task arms nothing and loads nothing.
  M.B.P.Resources[M.T].Merge = false;
  Plan = planFor(M.B.P, M.B.kernel());
  EXPECT_EQ(Plan.pipeline(M.T)->Counts.Full, 2u);
  DiagList D = tmaBytes(M.B);
  ASSERT_FALSE(D.empty());
  EXPECT_EQ(D[0].Message, "stage of 'Tiles' is committed without a TMA load");
  EXPECT_NE(D[0].Notes.back().Message.find("declare 'Tiles' ts::merge"),
            std::string::npos);
}

TEST(TmaBytes, MergedStageLoadedWholeLeavesNothingForTheThreads) {
  Merged M;
  M.loadA().LoadFields = {""}; // a load at the stage itself
  DiagList D = tmaBytes(M.B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "'fill_b' fills stages of 'Tiles' with threads, but "
                          "its TMA loads fill the whole payload (4096 bytes)");
  M.loadA().LoadFields = {"a"};
  M.B.P.Resources[M.T].TxBytes = 1024; // declared: the same bytes
  EXPECT_TRUE(tmaBytes(M.B).empty()) << dump(tmaBytes(M.B));
}

TEST(TmaBytes, MergedStageThreadFillerMustWriteIt) {
  Merged M;
  M.B.P.Tasks[1].Ops.erase(M.B.P.Tasks[1].Ops.begin() + 1); // no work
  DiagList D = tmaBytes(M.B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "task 'fill_b' commits a stage of 'Tiles' with "
                          "neither a TMA load nor a write into it");
}

TEST(TmaBytes, LoaderThreadsMayNotTouchTheStage) {
  TwoMembers M;
  M.loadB().TmaLoad = false; // the second statement stores with threads
  M.B.P.Resources[M.T].TxBytes = 1024;
  DiagList D = tmaBytes(M.B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, opLoc(0, 2));
  EXPECT_EQ(D[0].Message, "task 'load' loads stages of 'Tiles' with TMA and "
                          "also accesses them with its threads");
  M.loadB().AddressOnly = true; // only an address for a load
  EXPECT_TRUE(tmaBytes(M.B).empty()) << dump(tmaBytes(M.B));
}

TEST(TmaBytes, MergedStageOfThreadsAloneArmsNothing) {
  Merged M;
  M.loadA().TmaLoad = false; // now both producers fill with threads
  KernelPlan Plan = planFor(M.B.P, M.B.kernel());
  EXPECT_EQ(Plan.pipeline(M.T)->TxBytes, 0u);
  EXPECT_EQ(Plan.pipeline(M.T)->Counts.Full, 32u + 128u);
  EXPECT_TRUE(tmaBytes(M.B).empty()) << dump(tmaBytes(M.B));
  M.B.P.Resources[M.T].TxBytes = 1024;
  DiagList D = tmaBytes(M.B);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "ts::tx_bytes(1024) on 'Tiles', but no producer "
                          "task loads it with TMA");
}

TEST(TmaBytes, ThreadPipelinesAreNotConcerned) {
  Builder B;
  unsigned A = B.resource("Buf", PipelineKind::AsyncAsync, 2, 1024);
  B.task("fill", 0, 1).produces(A).loop(std::nullopt).body().fill(A);
  EXPECT_TRUE(tmaBytes(B).empty());
}

} // namespace

namespace {

// ts-domain, per task: the threads of a task agree on its trip counts.
TEST(ThreadBounds, ABoundReadPerThreadIsAnError) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("load", 0, 1).produces(T).loop(std::nullopt).body().fill(T);
  B.task("use", 1, 4).consumes(T).loop(std::nullopt).body().drain(T);
  DiagList D;
  checkThreadBounds(B.P, B.kernel(), D);
  EXPECT_TRUE(D.empty());
  B.P.Tasks[1].Dom.Bounds.Varies = {
      {Varying::Source::CtaIndex, 0, 1, 0, "blockIdx.x", 0}};
  checkThreadBounds(B.P, B.kernel(), D);
  EXPECT_TRUE(D.empty()); // the same in every thread of a CTA
  B.P.Tasks[1].Dom.Bounds.Varies.push_back(
      {Varying::Source::ThreadIndex, 0, 1, 0, "threadIdx.x", 7});
  checkThreadBounds(B.P, B.kernel(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::Domain);
  EXPECT_EQ(D[0].Message, "the trip count of this ts::domain loop of task "
                          "'use' may differ between its threads");
  EXPECT_EQ(D[0].Notes[0].Loc, 7u);
  // threadIdx.x / 256 is 0 in all of the task's threads (32 to 159), but
  // another value in a task on warps 8 and up: still an error, its own.
  B.P.Tasks[1].Dom.Bounds.Varies.back().Divisor = 256;
  DiagList PerTask;
  checkThreadBounds(B.P, B.kernel(), PerTask);
  ASSERT_EQ(PerTask.size(), 1u) << dump(PerTask);
  EXPECT_EQ(PerTask[0].Message, "the trip count of this ts::domain loop of "
                                "task 'use' depends on which warps run the "
                                "task");
  B.P.Tasks[1].Dom.Bounds.Varies.back().Divisor = 128; // 0 or 1
  DiagList Split;
  checkThreadBounds(B.P, B.kernel(), Split);
  ASSERT_EQ(Split.size(), 1u);
  EXPECT_EQ(Split[0].Message, "the trip count of this ts::domain loop of "
                              "task 'use' may differ between its threads");
  // A value broadcast by __shfl_sync in a one-warp task is accepted.
  B.P.Tasks[0].Dom.Bounds.Varies = {
      {Varying::Source::Warp, 0, 1, 0, "__shfl_sync", 3}};
  B.P.Tasks[1].Dom.Bounds.Varies.clear();
  DiagList Shfl;
  checkThreadBounds(B.P, B.kernel(), Shfl);
  EXPECT_TRUE(Shfl.empty()) << dump(Shfl);
}

} // namespace

namespace {

/// A stage of 4096 payload bytes filled by one load of Bytes (known or not)
/// from a task of Warps warps, with Tx armed (none: the payload).
DiagList delivered(uint64_t Bytes, bool Known, std::optional<uint64_t> Tx,
                   unsigned Warps = 1, bool PerWarp = false) {
  Builder B;
  unsigned T = B.tma("Tiles", 4, 4096);
  B.P.Resources[T].TxBytes = Tx;
  B.task("load", 0, Warps).produces(T).loop(std::nullopt).body().fill(T);
  Op &Work = B.P.Tasks[0].Ops[1];
  TmaLoadBox Box;
  Box.Times = 1;
  Box.Box = Bytes; // a ts::tma::map's box, or a plain map's destination
  Work.Boxes = {Box};
  if (!Known) { // with a second load of unknown size
    Box.Box.reset();
    Work.Boxes.push_back(Box);
  }
  Work.LoadPerWarp = PerWarp;
  return tmaBytes(B);
}

TEST(TmaBytes, DeliveredBytesMatchTheArmedOnes) {
  EXPECT_TRUE(delivered(4096, true, std::nullopt).empty());
  EXPECT_TRUE(delivered(1024, true, 1024).empty());
  // Unknown extents: only what is known to exceed the armed bytes counts.
  EXPECT_TRUE(delivered(1024, false, std::nullopt).empty());
  DiagList Few = delivered(2048, true, std::nullopt);
  ASSERT_EQ(Few.size(), 1u) << dump(Few);
  EXPECT_EQ(Few[0].Message, "TMA loads into 'Tiles' deliver 2048 bytes per "
                            "stage, but its acquire arms 4096");
  EXPECT_NE(Few[0].Notes[0].Message.find("wait forever"), std::string::npos);
  DiagList Many = delivered(8192, false, 4096);
  ASSERT_EQ(Many.size(), 1u) << dump(Many);
  EXPECT_EQ(Many[0].Message, "TMA loads into 'Tiles' deliver at least 8192 "
                             "bytes per stage, but its acquire arms 4096");
}

/// A stage of 4096 bytes filled by one multicast load of a 2048-byte
/// ts::tma::map box (none: a plain map into a share), in a cluster of Ctas.
DiagList multicast(unsigned Ctas, std::optional<uint64_t> Box) {
  Builder B;
  unsigned T = B.tma("Tiles", 4, 4096);
  B.task("load", 0, 1).produces(T).loop(std::nullopt).body().fill(T);
  B.kernel().Cluster[0] = Ctas;
  TmaLoadBox L;
  L.Times = 1;
  L.Box = Box;
  L.Multicast = true;
  B.P.Tasks[0].Ops[1].Boxes = {L};
  return tmaBytes(B);
}

TEST(TmaBytes, MulticastDeliversABoxFromEveryCta) {
  EXPECT_TRUE(multicast(2, 2048).empty()) << dump(multicast(2, 2048));
  DiagList One = multicast(1, 2048);
  ASSERT_EQ(One.size(), 1u) << dump(One);
  EXPECT_EQ(One[0].Message, "TMA loads into 'Tiles' deliver 2048 bytes per "
                            "stage, but its acquire arms 4096");
  DiagList Four = multicast(4, 2048);
  ASSERT_EQ(Four.size(), 1u) << dump(Four);
  EXPECT_EQ(Four[0].Message, "TMA loads into 'Tiles' deliver 8192 bytes per "
                             "stage, but its acquire arms 4096");
  // A plain map's share has no known size: nothing to compare.
  EXPECT_TRUE(multicast(1, std::nullopt).empty());
}

TEST(TmaBytes, APlainMapIsNamedOnce) {
  Builder B;
  unsigned T = B.tma("Tiles", 4, 4096);
  B.task("load", 0, 1).produces(T).loop(std::nullopt).body().fill(T).fill(T);
  TmaLoadBox L;
  L.Times = 1;
  L.Map = "&p.src";
  L.Dst = 4096;
  L.Suggest = "ts::tma::map<float, 32, 32>";
  B.P.Tasks[0].Ops[1].Boxes = B.P.Tasks[0].Ops[4].Boxes = {L};
  DiagList D = tmaBytes(B, /*Boxes=*/true);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::TmaBox);
  EXPECT_EQ(D[0].Message, "TMA load through '&p.src', a plain CUtensorMap: its "
                          "box is set on the host, so libts takes it to be "
                          "the 4096 bytes of the destination");
  EXPECT_NE(D[0].Notes[0].Message.find("ts::tma::map<float, 32, 32>"),
            std::string::npos);
  // A ts::tma::map larger than the object it lands in writes past it.
  L.Box = 8192;
  B.P.Tasks[0].Ops[1].Boxes = B.P.Tasks[0].Ops[4].Boxes = {L};
  D = tmaBytes(B, true);
  ASSERT_GE(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "the box of '&p.src' is 8192 bytes, larger than the "
                          "4096 bytes of the destination: the load writes past "
                          "it");
}

TEST(TmaBytes, RawBarrierLoadFromSeveralWarps) {
  EXPECT_TRUE(delivered(4096, true, std::nullopt, 1, true).empty());
  DiagList D = delivered(4096, true, std::nullopt, 2, true);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "ts::tma::load_with_barrier into 'Tiles' is issued "
                          "by each of the 2 warps of 'load', so the stage "
                          "receives its box 2 times");
}

} // namespace
