//===- TileQueuesTest.cpp - Dynamic tile loops (ts::tiles) ----------------===//
#include "Builders.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// What frontend/TileLoops.cpp makes of `for (int u : ts::tiles(q...))`:
/// the tile loop over the queue's one unknown, and one exchange of the
/// queue at the head of each iteration and once more at the end.
void tiles(TaskRef T, unsigned Q, bool Scheduler) {
  T.loop(std::nullopt, "tiles(q)");
  Domain &D = T.task().Dom;
  D.Dynamic = true;
  D.Queue = Q;
  D.EndSym = D.EndKey = "ts::tiles#" + std::to_string(Q);
  auto Exchange = [&] {
    size_t First = T.task().Ops.size();
    Scheduler ? T.fill(Q) : T.drain(Q);
    for (size_t I = First; I < T.task().Ops.size(); ++I)
      T.task().Ops[I].TileLoop = true;
  };
  Exchange();
  T.body();
}

/// A dynamic GEMM: the producer warp schedules and loads `Ops` per k-step;
/// the MMA warps (and an optional third task) read the queue.
struct Dynamic {
  Builder B;
  unsigned Q = B.resource("Next", PipelineKind::AsyncAsync, 2, 4);
  unsigned R = B.tma("Ops", 4, 4096);
  explicit Dynamic(unsigned SchedWarps = 1,
                   PipelineKind QueueKind = PipelineKind::AsyncAsync) {
    B.P.Resources[Q].Kind = QueueKind;
    TaskRef Load = B.task("load", 8, SchedWarps).produces(Q).produces(R);
    tiles(Load, Q, true);
    Load.inner(std::nullopt, "k").fill(R).tail();
    endExchange(Load, true);
    TaskRef Mma = B.task("mma", 0, 8).consumes(Q).consumes(R);
    tiles(Mma, Q, false);
    Mma.inner(std::nullopt, "k").drain(R).tail();
    endExchange(Mma, false);
  }
  void endExchange(TaskRef T, bool Scheduler) {
    size_t First = T.task().Ops.size();
    Scheduler ? T.fill(Q) : T.drain(Q);
    for (size_t I = First; I < T.task().Ops.size(); ++I)
      T.task().Ops[I].TileLoop = true;
  }
  DiagList queueChecks() {
    DiagList D;
    checkTileQueues(B.P, B.kernel(), D);
    return D;
  }
  VerifyResult verify() {
    return verifyKernel(B.P, B.kernel(), planFor(B.P, B.kernel()));
  }
};

TEST(TileQueues, DynamicGemmVerifiesForEveryTileCount) {
  Dynamic G;
  EXPECT_TRUE(G.queueChecks().empty()) << dump(G.queueChecks());
  VerifyResult V = G.verify();
  EXPECT_FALSE(hasError(V.Diags)) << dump(V.Diags);
  // Both tasks run the queue's one unknown: their domains match.
  EXPECT_EQ(G.B.P.Tasks[0].Dom.symbolicKey(), G.B.P.Tasks[1].Dom.symbolicKey());
}

TEST(TileQueues, PlanCountsEveryReaderOnTheQueuesEmptyBarrier) {
  Dynamic G;
  KernelPlan Plan = planFor(G.B.P, G.B.kernel());
  const PipelinePlan *Q = Plan.pipeline(G.Q);
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(Q->Counts.Empty, 8u * 32u); // every thread of the 8 MMA warps
  EXPECT_EQ(Q->Counts.Full, 32u);       // every thread of the scheduler warp
}

TEST(TileQueues, AStaticReaderDoesNotShareTheTileCount) {
  Dynamic G;
  Domain &D = G.B.P.Tasks[1].Dom;
  D.Dynamic = false;
  D.EndSym = D.EndKey = "p.units";
  DiagList Out;
  checkDomains(G.B.P, G.B.kernel(), planFor(G.B.P, G.B.kernel()), Out);
  ASSERT_FALSE(Out.empty());
  EXPECT_NE(Out[0].Message.find("may run different trip counts"),
            std::string::npos);
}

TEST(TileQueues, SchedulerIsOneWarpAndTheQueueAsyncAsync) {
  Dynamic Wide(2);
  DiagList D = Wide.queueChecks();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "scheduling task 'load' of tile queue 'Next' has 2 warps");
  Dynamic Tma(1, PipelineKind::TmaAsync);
  D = Tma.queueChecks();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(
      D[0].Message,
      "tile queue 'Next' of a ts::tiles loop is tma_async, not async_async "
      "or clc_async");
  EXPECT_EQ(D[0].Loc, resLoc(0));
}

TEST(TileQueues, ExtraQueueOpsAndClustersAreRefused) {
  Dynamic G;
  G.B.P.Tasks[1].Ops[0].TileLoop = false; // a wait of the user's own
  DiagList D = G.queueChecks();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "task 'mma' uses tile queue 'Next' outside its ts::tiles loop");
  Dynamic C;
  C.B.kernel().Cluster[0] = 2;
  D = C.queueChecks();
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "kernel 'k' has a cluster and a ts::tiles loop "
                          "over software queue 'Next'");
  // Cluster launch control cancels whole clusters: every CTA takes its
  // place in one, and rank 0's empty barrier counts every CTA's readers
  // (the MMA warps' threads) and schedulers.
  Dynamic Clc(1, PipelineKind::ClcAsync);
  Clc.B.kernel().Cluster[0] = 2;
  Clc.B.kernel().Arch = TargetArch::Sm100a;
  D = Clc.queueChecks();
  EXPECT_TRUE(D.empty()) << dump(D);
  KernelPlan Plan = buildPlan(Clc.B.P, Clc.B.kernel(), targetSm100a());
  const PipelinePlan &PP = *Plan.pipeline(Clc.Q);
  EXPECT_EQ(PP.Peers, 2u);
  EXPECT_EQ(PP.Counts.Full, 1u);
  EXPECT_EQ(PP.Counts.Empty, 2u * (256u + 1u));
}

TEST(TileQueues, ASchedulerBlockedOnItsReadersIsADeadlock) {
  // The scheduler waits for the MMA warps' result of a tile before it
  // loads that tile's operands: it never comes.
  Dynamic G;
  unsigned Done = G.B.resource("Done", PipelineKind::AsyncAsync, 1, 512);
  Task &Load = G.B.P.Tasks[0];
  Load.Consumes.push_back(Done);
  TaskRef L(G.B, 0);
  std::vector<Op> Ops = Load.Ops;
  Load.Ops.assign(Ops.begin(), Ops.begin() + 3); // the head exchange
  L.body().drain(Done);
  for (size_t I = 3; I < Ops.size(); ++I)
    Load.Ops.push_back(Ops[I]);
  Task &Mma = G.B.P.Tasks[1];
  Mma.Produces.push_back(Done);
  std::vector<Op> MOps = Mma.Ops;
  Mma.Ops.assign(MOps.begin(), MOps.end() - 3);
  TaskRef(G.B, 1).body().fill(Done);
  for (size_t I = MOps.size() - 3; I < MOps.size(); ++I)
    Mma.Ops.push_back(MOps[I]);
  VerifyResult V = G.verify();
  ASSERT_TRUE(hasError(V.Diags));
  EXPECT_NE(dump(V.Diags).find(
                "deadlock: task 'load' blocks forever on wait of 'Done'"),
            std::string::npos)
      << dump(V.Diags);
}

/// examples/gemm_sm100.cu's scheduling: a ts::clc_async queue. Each task
/// starts on its CTA's own tile and takes the queue's stage once per
/// iteration, at its end (the next tile, or the failed request).
struct ClcGemm {
  Builder B;
  unsigned Q = B.resource("Next", PipelineKind::ClcAsync, 2, 16);
  unsigned R = B.tma("Ops", 4, 4096);
  explicit ClcGemm(bool ReaderAhead = false) {
    B.kernel().Arch = TargetArch::Sm100a;
    TaskRef Load = B.task("load", 0, 1).produces(Q).produces(R);
    tileLoop(Load);
    Load.inner(std::nullopt, "k").fill(R).body();
    exchange(Load, true);
    TaskRef Mma = B.task("mma", 4, 4).consumes(Q).consumes(R);
    tileLoop(Mma);
    if (ReaderAhead)
      exchange(Mma, false);
    Mma.inner(std::nullopt, "k").drain(R).body();
    if (!ReaderAhead)
      exchange(Mma, false);
  }
  void tileLoop(TaskRef T) {
    T.loop(std::nullopt, "tiles(next)");
    Domain &D = T.task().Dom;
    D.Dynamic = true;
    D.Queue = Q;
    D.EndSym = D.EndKey = "ts::tiles#" + std::to_string(Q);
  }
  void exchange(TaskRef T, bool Scheduler) {
    size_t First = T.task().Ops.size();
    Scheduler ? T.fill(Q) : T.drain(Q);
    for (size_t I = First; I < T.task().Ops.size(); ++I)
      T.task().Ops[I].TileLoop = true;
  }
  KernelPlan plan() { return buildPlan(B.P, B.kernel(), targetSm100a()); }
};

TEST(TileQueues, ClcQueueCountsFromTheProtocolTable) {
  ClcGemm G;
  KernelPlan Plan = G.plan();
  const PipelinePlan *Q = Plan.pipeline(G.Q);
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(Q->Counts.Full, 1u);        // the scheduler lane's expect_tx
  EXPECT_EQ(Q->TxBytes, 16u);           // the response try_cancel writes
  EXPECT_EQ(Q->Counts.Empty, 4u * 32u); // every reader thread, after a fence
  EXPECT_FALSE(Q->consumerReadsAsync(1));
}

TEST(TileQueues, ClcGemmVerifiesForEveryTileCount) {
  ClcGemm G;
  DiagList D;
  checkTileQueues(G.B.P, G.B.kernel(), D);
  EXPECT_TRUE(D.empty()) << dump(D);
  VerifyResult V = verifyKernel(G.B.P, G.B.kernel(), G.plan());
  EXPECT_FALSE(hasError(V.Diags)) << dump(V.Diags);
}

TEST(TileQueues, ClcReaderTakingTheNextTileFirstDeadlocks) {
  // The readers take the queue's stage at the head of each iteration, as
  // for a software queue: they wait for a response the scheduler asks for
  // only after loading more stages than the ring holds.
  ClcGemm G(/*ReaderAhead=*/true);
  VerifyResult V = verifyKernel(G.B.P, G.B.kernel(), G.plan());
  ASSERT_TRUE(hasError(V.Diags));
  EXPECT_NE(dump(V.Diags).find("deadlock"), std::string::npos) << dump(V.Diags);
}

TEST(TileQueues, ClcQueueOutsideATileLoopIsRefused) {
  ClcGemm G;
  for (Task &T : G.B.P.Tasks) { // both tasks on a static loop instead
    T.Dom.Dynamic = false;
    T.Dom.EndSym = T.Dom.EndKey = "p.tiles";
  }
  DiagList D;
  checkTileQueues(G.B.P, G.B.kernel(), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message, "task 'load' uses ts::clc_async resource 'Next' "
                          "outside a ts::tiles loop");
}

TEST(TileQueues, ClcQueueNeedsBlackwell) {
  ClcGemm G;
  G.B.kernel().Arch = TargetArch::Sm90a;
  DiagList D;
  checkTarget(G.B.P, G.B.kernel(), planFor(G.B.P, G.B.kernel()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Message,
            "ts::clc_async resource 'Next' is filled by cluster launch "
            "control, which kernel 'k' (target sm_90a) does not have");
}

} // namespace
