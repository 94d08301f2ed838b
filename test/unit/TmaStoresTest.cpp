// The store events of a task (model/Stores.h) run for every trip count up to
// the bound: fences, barriers and waits decide each verdict.
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

using K = StoreEvent::Kind;

/// Events of one 4-warp task; the buffer 'buf' has two elements.
struct Events {
  std::vector<StoreEvent> E;
  std::vector<int> Open; ///< Loops not closed yet.
  uint64_t Next = 1;
  Events &add(K Kind, bool Guarded = false, StoreIndex I = {}) {
    StoreEvent Ev;
    Ev.K = Kind;
    Ev.Guarded = Guarded;
    Ev.Loc = Next++;
    if (Kind == K::Write || Kind == K::Issue || Kind == K::WarpStore) {
      Ev.Buffer = 0;
      Ev.Path = {StoreStep{"", I}};
      Ev.Text = "buf";
    }
    E.push_back(Ev);
    return *this;
  }
  Events &wait(int N) {
    add(K::Wait, true);
    E.back().Pending = N;
    return *this;
  }
  Events &loop(std::optional<int64_t> Trips) {
    Open.push_back(int(E.size()));
    add(K::Loop);
    E.back().Trips = Trips;
    return *this;
  }
  Events &end() {
    E[Open.back()].End = int(E.size());
    Open.pop_back();
    return *this;
  }
  /// An `if` the analysis cannot evaluate; end() closes it.
  Events &maybe() {
    Open.push_back(int(E.size()));
    return add(K::If);
  }
  /// `if (counter <Op> Rhs)` of the innermost open loop; end() closes it.
  Events &when(StoreEvent::Cmp Op, int64_t Rhs) {
    StoreIndex I;
    I.Known = true;
    I.Loop = Open.back();
    Open.push_back(int(E.size()));
    add(K::If);
    E.back().CondKnown = true;
    E.back().Cond = I;
    E.back().Op = Op;
    E.back().Rhs = Rhs;
    return *this;
  }
  /// The element `counter of the innermost open loop % Mod`.
  StoreIndex rotate(int64_t Mod) const {
    StoreIndex I;
    I.Known = true;
    I.Loop = Open.back();
    I.Mod = Mod;
    return I;
  }
  /// A chunk: wait, barrier, write, fence, barrier, store (the GEMM's).
  Events &chunk(int Waits, StoreIndex I) {
    return wait(Waits)
        .add(K::Barrier)
        .add(K::Write, false, I)
        .add(K::Fence)
        .add(K::Barrier)
        .add(K::Issue, true, I);
  }
};

DiagList run(const Events &Ev, unsigned Warps = 4) {
  Builder B;
  B.task("epi", 0, Warps);
  B.P.Tasks[0].StoreEvents = Ev.E;
  B.P.Tasks[0].StoreBuffers = {"buf"};
  DiagList D;
  checkTmaStores(B.P, B.kernel(), D);
  return D;
}

TEST(TmaStores, TwoBuffersInTurnWithOneStoreInFlight) {
  Events Ev;
  Ev.loop(std::nullopt).loop(4);
  Ev.chunk(1, Ev.rotate(2)).end().end();
  EXPECT_TRUE(run(Ev).empty()) << dump(run(Ev));
}

TEST(TmaStores, AnOddOrUnknownChunkCountReusesTheBufferInFlight) {
  for (std::optional<int64_t> Chunks :
       {std::optional<int64_t>(3), std::optional<int64_t>()}) {
    Events Ev;
    Ev.loop(std::nullopt).loop(Chunks);
    Ev.chunk(1, Ev.rotate(2)).end().end();
    DiagList D = run(Ev);
    ASSERT_EQ(D.size(), 1u) << dump(D);
    EXPECT_EQ(D[0].Group, Check::TmaStore);
    EXPECT_EQ(D[0].Message,
              "'buf' is written while a TMA store may still be reading it");
    EXPECT_EQ(D[0].Loc, 5u); // the write; the note is at the store
    EXPECT_EQ(D[0].Notes[0].Loc, 8u);
  }
}

TEST(TmaStores, WaitingForAllButOneIsTooLittleForOneBuffer) {
  for (int Waits : {0, 1}) {
    Events Ev;
    Ev.loop(std::nullopt).chunk(Waits, StoreIndex{}).end();
    EXPECT_EQ(run(Ev).size(), Waits == 0 ? 0u : 1u) << dump(run(Ev));
  }
}

TEST(TmaStores, FenceAndBarrierComeBetweenWritesAndTheStore) {
  Events NoFence, NoBarrier, Fine;
  NoFence.add(K::Write).add(K::Barrier).add(K::Issue, true);
  NoBarrier.add(K::Write).add(K::Fence).add(K::Issue, true);
  Fine.add(K::Write).add(K::Fence).add(K::Barrier).add(K::Issue, true);
  DiagList A = run(NoFence), B = run(NoBarrier);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NE(A[0].Message.find("no ts::tma::store_fence()"), std::string::npos);
  ASSERT_EQ(B.size(), 1u);
  EXPECT_NE(B[0].Message.find("no barrier orders"), std::string::npos);
  EXPECT_TRUE(run(Fine).empty());
}

TEST(TmaStores, AWaitReachesOtherThreadsOnlyThroughABarrier) {
  Events Ev;
  Ev.loop(std::nullopt)
      .wait(0)
      .add(K::Write)
      .add(K::Fence)
      .add(K::Barrier)
      .add(K::Issue, true)
      .end();
  EXPECT_EQ(run(Ev).size(), 1u);
}

TEST(TmaStores, EveryWarpStoringIsAWarningAboveOneWarp) {
  Events Ev;
  Ev.add(K::Write).add(K::WarpStore);
  EXPECT_TRUE(run(Ev, 1).empty()) << dump(run(Ev, 1));
  DiagList D = run(Ev, 4);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::RepeatedStore);
  EXPECT_FALSE(checkIsErrorByDefault(Check::RepeatedStore));
}

TEST(TmaStores, AReleasedStageIsAnotherBuffer) {
  Events Ev;
  Ev.loop(std::nullopt).add(K::Write).add(K::WarpStore).add(K::Retire).end();
  Ev.E[3].Buffer = 0;
  EXPECT_TRUE(run(Ev, 1).empty()) << dump(run(Ev, 1));
  Ev.E[3].K = K::Fence; // without the release, the next write races
  EXPECT_EQ(run(Ev, 1).size(), 1u);
}

} // namespace

namespace {

TEST(TmaStores, AStoreEveryThreadIssuedIsNotCoveredByTheIssuersWait) {
  Events Ev;
  Ev.loop(std::nullopt)
      .wait(0)
      .add(K::Barrier)
      .add(K::Write)
      .add(K::Fence)
      .add(K::Barrier)
      .add(K::Issue, /*Guarded=*/false)
      .end();
  DiagList D = run(Ev);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_EQ(D[0].Group, Check::TmaStore); // the rewrite
  EXPECT_EQ(D[1].Group, Check::RepeatedStore);
  Ev.E[1].Guarded = false; // every thread waits for its own stores
  EXPECT_EQ(run(Ev).size(), 1u) << dump(run(Ev));
}

} // namespace

namespace {

TEST(TmaStores, AWriteThroughAnUnfollowedPointerMayBeAnyBuffer) {
  Events Ev;
  Ev.add(K::Write).add(K::Barrier).add(K::Issue, true);
  Ev.E[0].Buffer = AnyBuffer;
  Ev.E[2].Path = {StoreStep{"other", {}}}; // another member, even
  DiagList D = run(Ev);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_NE(D[0].Notes[0].Message.find("does not follow"), std::string::npos);
}

/// Element I of buf.
StoreIndex element(int64_t I) {
  StoreIndex X;
  X.Known = true;
  X.Add = I;
  return X;
}

/// A store issued in one branch only does not count among the newer ones a
/// wait leaves in flight: wait<1> after `A; if (?) B;` may leave A reading.
TEST(TmaStores, AStoreInOneBranchIsNotSureToBeNewer) {
  Events Sure;
  Sure.add(K::Write, false, element(0)).add(K::Fence).add(K::Barrier);
  Sure.add(K::Issue, true, element(0)).maybe();
  Sure.add(K::Write, false, element(1)).add(K::Fence).add(K::Barrier);
  Sure.add(K::Issue, true, element(1)).end().wait(1).add(K::Barrier);
  Sure.add(K::Write, false, element(0));
  ASSERT_EQ(run(Sure).size(), 1u);
  EXPECT_EQ(run(Sure)[0].Message,
            "'buf' is written while a TMA store may still be reading it");
  // The other way round, the store in the branch is the older one.
  Events Older;
  Older.maybe().add(K::Write, false, element(0)).add(K::Fence);
  Older.add(K::Barrier).add(K::Issue, true, element(0)).end();
  Older.add(K::Write, false, element(1)).add(K::Fence).add(K::Barrier);
  Older.add(K::Issue, true, element(1)).wait(1).add(K::Barrier);
  Older.add(K::Write, false, element(0));
  EXPECT_TRUE(run(Older).empty()) << dump(run(Older));
}

/// A branch that may not run leaves its writes unfenced in the other case,
/// and a condition on a counter runs exactly where it holds.
TEST(TmaStores, BranchesJoinAndCounterConditionsEvaluate) {
  Events Skipped;
  Skipped.add(K::Write, false, element(0)).maybe().add(K::Fence).end();
  Skipped.add(K::Barrier).add(K::Issue, true, element(0));
  ASSERT_EQ(run(Skipped).size(), 1u);
  Events Counted; // the first chunk waits for nothing: no store before it
  Counted.loop(4);
  Counted.when(StoreEvent::Cmp::Gt, 0).wait(0).end();
  Counted.add(K::Barrier).add(K::Write, false, element(0)).add(K::Fence);
  Counted.add(K::Barrier).add(K::Issue, true, element(0)).end();
  EXPECT_TRUE(run(Counted).empty()) << dump(run(Counted));
  Counted.E[1].Rhs = 1; // from the third chunk: the second rewrites too soon
  EXPECT_EQ(run(Counted).size(), 1u);
}

} // namespace
