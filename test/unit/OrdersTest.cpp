//===- OrdersTest.cpp - Happens-before verdicts: aliasing and PDL ---------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

unsigned count(const DiagList &D, Check C) {
  return unsigned(std::count_if(D.begin(), D.end(),
                                [&](const Diag &X) { return X.Group == C; }));
}

std::string dumpFirst(const DiagList &D) {
  return D.empty() ? "" : D[0].Message;
}

DiagList verify(Builder &B) {
  return verifyKernel(B.P, B.kernel(), planFor(B.P, B.kernel())).Diags;
}

/// AB tiles, then a staging phase filled by a task that waits for a stage
/// `mma` commits after its loop (ordered), by `mma` itself after its loop
/// (a race: its threads are not ordered with each other), or by an
/// independent task (a race).
enum class Filler { AfterHandover, SameTask, Independent };
struct AliasKernel {
  Builder B;
  unsigned Ab, St, Done;
  AliasKernel(Filler F, std::optional<int64_t> Trips) {
    Ab = B.tma("AB", 2, 4096);
    St = B.resource("Staging", PipelineKind::AsyncAsync, 1, 4096);
    Done = B.resource("Done", PipelineKind::AsyncAsync, 1, 64);
    B.task("load", 0, 1).produces(Ab).loop(Trips).fill(Ab);
    TaskRef Mma = B.task("mma", 1, 1);
    Mma.consumes(Ab).loop(Trips).drain(Ab);
    if (F == Filler::AfterHandover) {
      Mma.produces(Done).tail().fill(Done);
      B.task("epi", 3, 1)
          .consumes(Done)
          .produces(St)
          .head()
          .drain(Done)
          .fill(St);
    } else if (F == Filler::SameTask) {
      Mma.produces(St).tail().fill(St);
    } else {
      B.task("fill", 3, 1).produces(St).head().fill(St);
    }
    B.task("store", 2, 1).consumes(St).head().drain(St);
    B.kernel().Aliases.push_back({{Ab, St}, 700});
  }
};

TEST(Orders, PhasesInProgramOrderAreClean) {
  for (std::optional<int64_t> N :
       {std::optional<int64_t>(6), std::optional<int64_t>()}) {
    AliasKernel K(Filler::AfterHandover, N);
    EXPECT_TRUE(verify(K.B).empty()) << dumpFirst(verify(K.B));
  }
}

TEST(Orders, SameTaskAfterItsLoopIsARace) {
  // One thread may still read AB when another acquires and writes Staging.
  AliasKernel K(Filler::SameTask, 4);
  DiagList D = verify(K.B);
  ASSERT_EQ(count(D, Check::Race), 1u);
  EXPECT_NE(D[0].Message.find("task 'mma' may use 'Staging'"),
            std::string::npos)
      << D[0].Message;
}

TEST(Orders, UnorderedPhaseIsARaceAtTheEarlyUse) {
  AliasKernel K(Filler::Independent, std::nullopt);
  DiagList D = verify(K.B);
  ASSERT_EQ(count(D, Check::Race), 1u);
  const Diag &R = *std::find_if(
      D.begin(), D.end(), [](const Diag &X) { return X.Group == Check::Race; });
  EXPECT_EQ(R.Loc, opLoc(2, 0)); // fill's acquire of Staging
  EXPECT_NE(R.Message.find("trip count 1"), std::string::npos) << R.Message;
  ASSERT_GE(R.Notes.size(), 2u);
  EXPECT_EQ(R.Notes[0].Loc,
            opLoc(0, 2)); // load's last commit of AB, not yet run
  EXPECT_EQ(R.Notes[1].Loc, 700u);
}

TEST(Orders, PhasesDeclaredInTheWrongOrderRace) {
  AliasKernel K(Filler::AfterHandover, 3);
  std::swap(K.B.kernel().Aliases[0].Phases[0],
            K.B.kernel().Aliases[0].Phases[1]);
  EXPECT_EQ(count(verify(K.B), Check::Race), 1u);
}

/// `load` waits for the previous grid; `store` launches dependents at `At`.
Builder pdlKernel(Section At, bool StoreWaits) {
  Builder B;
  unsigned T = B.tma("T", 2, 4096);
  TaskRef Load = B.task("load", 0, 1);
  Load.produces(T).head().op(OpKind::PdlWait, Op::NoResource);
  Load.loop(4).fill(T);
  TaskRef Store = B.task("store", 1, 1);
  Store.consumes(T);
  if (StoreWaits)
    Store.head().op(OpKind::PdlWait, Op::NoResource);
  if (At == Section::Head)
    Store.head().op(OpKind::PdlLaunch, Op::NoResource);
  Store.loop(4).drain(T);
  if (At == Section::Tail)
    Store.tail().op(OpKind::PdlLaunch, Op::NoResource);
  B.kernel().GridDependent = {T};
  return B;
}

TEST(Orders, LaunchAfterAStageFromAWaitingTaskIsClean) {
  Builder B = pdlKernel(Section::Tail, false);
  EXPECT_TRUE(verify(B).empty());
  EXPECT_TRUE(planFor(B.P, B.kernel()).Pdl);
}

TEST(Orders, LaunchBeforeAnyWaitIsAnError) {
  Builder B = pdlKernel(Section::Head, false);
  DiagList D = verify(B);
  ASSERT_EQ(count(D, Check::Pdl), 1u);
  EXPECT_EQ(D[0].Loc, opLoc(1, 0));
  // Its own wait first makes the same launch safe; ts::pdl_waited too.
  Builder W = pdlKernel(Section::Head, true);
  EXPECT_TRUE(verify(W).empty());
  B.kernel().PdlWaited = true;
  EXPECT_TRUE(verify(B).empty());
}

TEST(Orders, ProducerOfGridDependentDataWaitsFirst) {
  Builder B = pdlKernel(Section::Tail, false);
  // Move load's wait behind its loop: the stages are filled before it.
  Task &Load = B.P.Tasks[0];
  std::rotate(Load.Ops.begin(), Load.Ops.begin() + 1, Load.Ops.end());
  Load.Ops.back().Sec = Section::Tail;
  DiagList D = verify(B);
  EXPECT_GE(count(D, Check::Pdl), 1u);
  EXPECT_EQ(D[0].Message.rfind("task 'load' touches 'T'", 0), 0u)
      << D[0].Message;
}

} // namespace
