//===- TileSequencesTest.cpp - Per-tile inner counts vs enumeration -------===//
//
// A k-loop bound that reads the tile variable runs a different count in
// each tile. verify/TileSequences.cpp searches every sequence of counts;
// here its verdict is held to explicit enumeration: every sequence of up
// to four tiles over counts 0 to 4, each written out as a flat program and
// run by the protocol simulation (verify/Credit.cpp). A deadlock that
// enumeration finds must be found; a deadlock the search reports must
// happen when its sequence is written out.
//
//===----------------------------------------------------------------------===//
#include "verify/TileSequences.h"
#include "NestedSchedules.h"
#include "plan/HandBack.h"
#include "verify/Nested.h"
#include "verify/Simulation.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <set>

using namespace ts;
using namespace ts::detail;
using namespace ts::test;

namespace {

/// Every task's k-loop bound reads the tile variable.
void boundsReadTheTile(Program &P) {
  for (Task &T : P.Tasks)
    T.Inners[0].PerTile = true;
}

/// Some per-tile hand-backs move into the next tile (and the last tile's
/// into the tail), as a task holding a stage across tiles does: the tasks
/// then cross tile boundaries at different times, the search's window.
void deferHandBacks(Program &P, std::mt19937_64 &Rng) {
  for (Task &T : P.Tasks) {
    // The last hand-back of a resource the k-loop does not touch: the
    // stages still go back oldest first.
    std::map<unsigned, size_t> LastGive;
    std::set<unsigned> InK;
    for (size_t I = 0; I < T.Ops.size(); ++I) {
      const Op &O = T.Ops[I];
      if (O.Sec == Section::Inner)
        InK.insert(O.Resource);
      if (O.Sec == Section::Loop && O.G == Guard::Always &&
          (O.Kind == OpKind::Commit || O.Kind == OpKind::Release))
        LastGive[O.Resource] = I;
    }
    std::vector<size_t> Gives;
    for (auto [R, I] : LastGive)
      if (!InK.count(R))
        Gives.push_back(I);
    if (Gives.empty() || Rng() % 4 == 0)
      continue;
    size_t J = Gives[Rng() % Gives.size()];
    Op O = T.Ops[J];
    T.Ops.erase(T.Ops.begin() + std::ptrdiff_t(J));
    size_t First = 0;
    while (First < T.Ops.size() && T.Ops[First].Sec == Section::Head)
      ++First;
    Op Next = O, Last = O;
    Next.G = Guard::NotFirstIter;
    Last.Sec = Section::Tail;
    T.Ops.insert(T.Ops.begin() + std::ptrdiff_t(First), Next);
    T.Ops.push_back(Last);
  }
}

/// Every view credits its tasks' hand-backs (else the ownership check
/// refuses the order, and the search does not run).
bool credited(const Program &P, const Kernel &K,
              const std::vector<std::vector<uint64_t>> &Variants) {
  for (const std::vector<uint64_t> &V : Variants) {
    Program View = innerUnrolled(P, K, V);
    for (unsigned TI : K.Tasks) {
      auto C = handBackCredits(View, View.Tasks[TI]);
      if (!C)
        return false;
    }
  }
  return true;
}

/// The first sequence of up to MaxTiles tiles over the views that
/// deadlocks, shortest first.
std::optional<std::vector<unsigned>>
enumerate(const Kernel &K, const KernelPlan &Plan,
          const std::vector<Program> &Views, unsigned MaxTiles) {
  for (unsigned N = 0; N <= MaxTiles; ++N) {
    std::vector<unsigned> Seq(N, 0);
    for (;;) {
      if (sequenceDeadlocks(K, Plan, Views, Seq))
        return Seq;
      size_t I = 0;
      while (I < N && ++Seq[I] == Views.size())
        Seq[I++] = 0;
      if (I == N)
        break;
    }
  }
  return std::nullopt;
}

struct Sweep {
  unsigned Checked = 0, Failing = 0, OnlySequences = 0, Unknown = 0;
  unsigned Missed = 0, FalseWitness = 0, MostStates = 0;
  std::string First;
};

Sweep sweep(uint64_t From, unsigned Cases, bool Defer) {
  Sweep W;
  for (uint64_t Seed = From; Seed < From + Cases; ++Seed) {
    std::mt19937_64 Rng(Seed);
    Shape Sh = randomShape(Rng);
    Builder B = buildShape(Sh, Rng);
    boundsReadTheTile(B.P);
    handBackOldestFirst(B.P);
    if (Defer)
      deferHandBacks(B.P, Rng);
    Kernel K = B.kernel();
    KernelPlan Plan = planFor(B.P, K);
    DiagList Structure;
    checkRoles(B.P, K, Structure);
    checkNesting(B.P, K, Plan, Structure);
    std::vector<std::vector<uint64_t>> Variants;
    for (uint64_t N = 0; N <= 4; ++N)
      Variants.push_back(std::vector<uint64_t>(K.Tasks.size(), N));
    if (hasError(Structure) || !credited(B.P, K, Variants))
      continue;
    ++W.Checked;
    std::vector<Program> Views = viewsOf(B.P, K, Variants);
    auto Found = enumerate(K, Plan, Views, 4);
    // The search's counts include enumeration's.
    std::vector<std::vector<uint64_t>> Searched;
    InnerCounts IC = innerCounts(B.P, K);
    for (uint64_t N : IC.Counts[0])
      Searched.push_back(std::vector<uint64_t>(K.Tasks.size(), N));
    TileSequenceResult R = searchSequences(B.P, K, Plan, Searched);
    bool Constant = false; // Some count, the same in every tile, fails.
    for (unsigned V = 0; V < Variants.size() && Found && !Constant; ++V)
      for (unsigned N = 0; N <= 4 && !Constant; ++N)
        Constant =
            sequenceDeadlocks(K, Plan, Views, std::vector<unsigned>(N, V));
    W.Failing += Found.has_value();
    W.OnlySequences += Found && !Constant;
    W.Unknown += R.V == TileSequenceResult::Verdict::Unknown;
    W.MostStates = std::max(W.MostStates, R.States);
    std::string Why;
    if (Found && R.V == TileSequenceResult::Verdict::Proven) {
      ++W.Missed;
      Why = "missed";
    }
    if (R.V == TileSequenceResult::Verdict::Deadlock) {
      std::vector<unsigned> Seq = R.Tiles;
      if (!R.Ended)
        Seq.push_back(0); // Any later tile: the deadlock needs none.
      if (!sequenceDeadlocks(K, Plan, viewsOf(B.P, K, Searched), Seq)) {
        ++W.FalseWitness;
        Why = "false witness";
      }
    }
    if (!Why.empty() && W.First.empty())
      W.First = Why + " at seed " + std::to_string(Seed);
  }
  return W;
}

TEST(TileSequences, SearchAgreesWithEnumeration) {
  Sweep W = sweep(1, propertyCases(150), false);
  EXPECT_EQ(W.Missed, 0u) << W.First;
  EXPECT_EQ(W.FalseWitness, 0u) << W.First;
  EXPECT_EQ(W.Unknown, 0u);
  EXPECT_GE(W.Checked, 100u * propertyCases(150) / 150);
  EXPECT_GT(W.Failing, 0u);
  EXPECT_LT(W.Failing, W.Checked);
}

/// Stages held from one tile into the next: tasks cross tile boundaries
/// at different times, so the search keeps choices ahead of the slowest.
TEST(TileSequences, SearchAgreesWhenStagesCrossTiles) {
  Sweep W = sweep(1000, propertyCases(150), true);
  EXPECT_EQ(W.Missed, 0u) << W.First;
  EXPECT_EQ(W.FalseWitness, 0u) << W.First;
  EXPECT_EQ(W.Unknown, 0u);
  EXPECT_GE(W.Checked, 30u * propertyCases(150) / 150);
  EXPECT_GT(W.MostStates, 2u);
}

/// A producer and a consumer of 2 stages whose k-loops are put in two
/// classes: the producer's loop runs 1 or 2 times per tile, the consumer's
/// once. Each tile of 2 leaves one stage more in the ring.
struct Drift {
  Builder B;
  InnerCounts IC;
  Drift() {
    B.resource("A", PipelineKind::AsyncAsync, 2, 1024);
    TaskRef P = B.task("p", 0, 1);
    P.produces(0).loop(std::nullopt, "n").body().inner(std::nullopt).fill(0);
    TaskRef C = B.task("c", 1, 1);
    C.consumes(0).loop(std::nullopt, "n").body().inner(std::nullopt).drain(0);
    for (Task &T : B.P.Tasks)
      T.Inners[0].PerTile = true;
    IC.Nests = nestsOf(B.P, B.kernel());
    IC.ClassOf = {0, 1};
    IC.Fewer = {0, 0};
    IC.Counts = {{1, 2}, {1}};
  }
};

TEST(TileSequences, ReportsTheSequenceAndTheBlockedTasks) {
  Drift D;
  Kernel K = D.B.kernel();
  DiagList Out;
  std::string Coverage = checkPerTileCounts(D.B.P, K, planFor(D.B.P, K), D.IC,
                                            viewMap(D.B.P, K, D.IC), Out);
  EXPECT_EQ(Coverage, "");
  ASSERT_EQ(Out.size(), 1u) << dump(Out);
  EXPECT_EQ(Out[0].Group, Check::Credit);
  EXPECT_EQ(Out[0].Loc, D.B.P.Tasks[0].Inners[0].Loc);
  EXPECT_EQ(Out[0].Message,
            "deadlock when this inner ts::domain loop of 'p' runs 2, 2 and 2 "
            "times in a tile loop of 3 tiles: its count changes from tile to "
            "tile");
  ASSERT_EQ(Out[0].Notes.size(), 2u) << dump(Out);
  EXPECT_EQ(Out[0].Notes[0].Message,
            "task 'p' is blocked here on acquire of 'A' in tile 2");
}

TEST(TileSequences, GivesUpPastItsStateLimit) {
  Drift D;
  D.IC.Counts = {{1}, {1}};
  Kernel K = D.B.kernel();
  TileSequenceResult R =
      searchSequences(D.B.P, K, planFor(D.B.P, K), {{1, 1}, {2, 2}},
                      /*MaxStates=*/1);
  EXPECT_EQ(R.V, TileSequenceResult::Verdict::Unknown);
  EXPECT_EQ(R.Why, "the search passed 1 states");
}

/// A larger sweep, by hand: LIBTS_SEQUENCE_SWEEP=<first seed>:<count>.
TEST(TileSequences, ManualSweep) {
  const char *Env = std::getenv("LIBTS_SEQUENCE_SWEEP");
  if (!Env)
    GTEST_SKIP() << "set LIBTS_SEQUENCE_SWEEP=<first seed>:<count>";
  std::string S = Env;
  Sweep W = sweep(std::stoull(S.substr(0, S.find(':'))),
                  unsigned(std::stoul(S.substr(S.find(':') + 1))),
                  std::getenv("LIBTS_SEQUENCE_DEFER") != nullptr);
  std::printf("checked %u, failing %u (%u only with changing counts), "
              "unknown %u, missed %u, false witnesses %u, most states %u %s\n",
              W.Checked, W.Failing, W.OnlySequences, W.Unknown, W.Missed,
              W.FalseWitness, W.MostStates, W.First.c_str());
  EXPECT_EQ(W.Missed + W.FalseWitness, 0u) << W.First;
}

} // namespace
