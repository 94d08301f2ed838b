//===- NestedShapesTest.cpp - Stage ops around k-loops vs enumeration -----===//
//
// Persistent kernels do stage operations per tile around their k-loops (a
// Q tile before, an output stage after). Each such op shifts where a task
// sits in a ring, so a deadlock can first appear at an inner count that
// grows with them. Here: random nested schedules whose tasks take or hand
// back 0 to 2S+2 stages of several resources before and after the k-loop
// (S: the kernel's stages), against explicit enumeration of inner counts
// 0..64 (each for every tile count, the outer argument). The bound of
// innerTripCounts must give the same verdict, and cover the first failing
// count (docs/verifier.md, "Nested domains").
//
//===----------------------------------------------------------------------===//
#include "Builders.h"
#include "Generator.h"
#include "verify/Nested.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

#include <random>

using namespace ts;
using namespace ts::test;

namespace {

/// One side's ops on one resource: per k-step, or per tile: whole stages
/// before or after the k-loop, or held across it (taken before, handed
/// back after: the attention kernel's Q tile).
struct Side {
  unsigned Before = 0, PerStep = 0, After = 0, Held = 0;
};

struct Shape {
  unsigned Tasks = 0;
  struct Res {
    unsigned Stages, Prod, Cons;
    Side P, C;
  };
  std::vector<Res> Resources;
};

/// A balanced nested schedule: per tile, each resource's producer hands
/// over as many stages as its consumer takes.
Shape randomShape(std::mt19937_64 &Rng) {
  auto Pick = [&](unsigned Lo, unsigned Hi) {
    return std::uniform_int_distribution<unsigned>(Lo, Hi)(Rng);
  };
  Shape S;
  S.Tasks = Pick(2, 4);
  unsigned NR = Pick(1, 3), Total = 0;
  for (unsigned R = 0; R < NR; ++R) {
    Shape::Res X;
    X.Stages = Pick(1, 3);
    Total += X.Stages;
    X.Prod = Pick(0, S.Tasks - 1);
    X.Cons = (X.Prod + Pick(1, S.Tasks - 1)) % S.Tasks;
    S.Resources.push_back(X);
  }
  for (Shape::Res &X : S.Resources) {
    unsigned Step = Pick(0, 1); // per k-step on both sides, or per tile only
    unsigned Tile = Pick(Step ? 0 : 1, 2 * Total + 2);
    auto Split = [&]() {
      unsigned B = Pick(0, Tile), H = Pick(0, Tile - B);
      return Side{B, Step, Tile - B - H, H};
    };
    X.P = Split();
    X.C = Split();
  }
  return S;
}

struct Step {
  unsigned R;
  Role Ro;
  enum { Whole, Take, Give } What;
};

void emit(TaskRef &T, const Step &S) {
  bool P = S.Ro == Role::Producer;
  if (S.What == Step::Whole)
    P ? T.fill(S.R) : T.drain(S.R);
  else if (S.What == Step::Take)
    P ? T.acquire(S.R).pwork(S.R) : T.wait(S.R).cwork(S.R);
  else
    P ? T.commit(S.R) : T.release(S.R);
}

/// The resources' op lists merged at random, each list's order kept.
void emitMerged(TaskRef &T, std::vector<std::vector<Step>> Lists,
                std::mt19937_64 &Rng) {
  std::vector<size_t> Pos(Lists.size(), 0);
  for (;;) {
    std::vector<size_t> Live;
    for (size_t I = 0; I < Lists.size(); ++I)
      if (Pos[I] < Lists[I].size())
        Live.push_back(I);
    if (Live.empty())
      return;
    size_t I = Live[Rng() % Live.size()];
    emit(T, Lists[I][Pos[I]++]);
  }
}

/// Before the k-loop: whole stages, then the takes of held ones; after:
/// the held ones handed back (oldest first), then whole stages.
std::vector<Step> part(unsigned R, Role Ro, const Side &S, bool Before) {
  std::vector<Step> Out;
  auto Add = [&](unsigned N, auto What) {
    for (unsigned I = 0; I < N; ++I)
      Out.push_back({R, Ro, What});
  };
  if (Before) {
    Add(S.Before, Step::Whole);
    Add(S.Held, Step::Take);
  } else {
    Add(S.Held, Step::Give);
    Add(S.After, Step::Whole);
  }
  return Out;
}

Builder build(const Shape &S, std::mt19937_64 &Rng) {
  Builder B;
  for (size_t R = 0; R < S.Resources.size(); ++R)
    B.resource("R" + std::to_string(R), PipelineKind::AsyncAsync,
               S.Resources[R].Stages, 1024);
  for (unsigned TI = 0; TI < S.Tasks; ++TI) {
    TaskRef T = B.task("t" + std::to_string(TI), TI, 1);
    std::vector<std::pair<unsigned, Role>> Mine;
    for (size_t R = 0; R < S.Resources.size(); ++R) {
      if (S.Resources[R].Prod == TI) {
        T.produces(R);
        Mine.push_back({unsigned(R), Role::Producer});
      }
      if (S.Resources[R].Cons == TI) {
        T.consumes(R);
        Mine.push_back({unsigned(R), Role::Consumer});
      }
    }
    auto SideOf = [&](unsigned R, Role Ro) -> const Side & {
      return Ro == Role::Producer ? S.Resources[R].P : S.Resources[R].C;
    };
    T.loop(std::nullopt, "n").body();
    std::vector<std::vector<Step>> Before, Inner, After;
    for (auto [R, Ro] : Mine) {
      Before.push_back(part(R, Ro, SideOf(R, Ro), true));
      Inner.push_back(
          std::vector<Step>(SideOf(R, Ro).PerStep, Step{R, Ro, Step::Whole}));
      After.push_back(part(R, Ro, SideOf(R, Ro), false));
    }
    emitMerged(T, Before, Rng);
    T.inner(std::nullopt, "k");
    emitMerged(T, Inner, Rng);
    T.body();
    emitMerged(T, After, Rng);
  }
  return B;
}

struct Sweep {
  unsigned Checked = 0, Failing = 0, Disagree = 0, Late = 0;
  uint64_t LatestFail = 0, LargestBound = 0; ///< Over the schedules.
  std::string First;
};

Sweep sweep(uint64_t From, unsigned Cases, uint64_t MaxInner) {
  Sweep W;
  for (uint64_t Seed = From; Seed < From + Cases; ++Seed) {
    std::mt19937_64 Rng(Seed);
    Shape Sh = randomShape(Rng);
    Builder B = build(Sh, Rng);
    const Kernel &K = B.kernel();
    KernelPlan Plan = planFor(B.P, K);
    DiagList Structure;
    checkRoles(B.P, K, Structure);
    checkNesting(B.P, K, Plan, Structure);
    if (hasError(Structure))
      continue;
    ++W.Checked;
    std::optional<uint64_t> FirstFail;
    for (uint64_t N = 0; N <= MaxInner && !FirstFail; ++N)
      if (hasError(verifyInnerCount(B.P, K, Plan, N).Diags))
        FirstFail = N;
    W.Failing += FirstFail.has_value();
    bool Verdict = hasError(verifyKernel(B.P, K, Plan).Diags);
    uint64_t Bound = innerTripCounts(B.P, K).back();
    bool Bad = Verdict != FirstFail.has_value();
    W.Late += FirstFail && *FirstFail > Bound;
    W.LatestFail = std::max(W.LatestFail, FirstFail.value_or(0));
    W.LargestBound = std::max(W.LargestBound, Bound);
    if (Bad && !W.Disagree++)
      W.First = "seed " + std::to_string(Seed) + ": first failing count " +
                (FirstFail ? std::to_string(*FirstFail) : "none") + ", bound " +
                std::to_string(Bound);
  }
  return W;
}

TEST(NestedShapes, BoundDecidesStageOpsAroundTheInnerLoop) {
  Sweep W = sweep(1, propertyCases(150), 64);
  EXPECT_EQ(W.Disagree, 0u) << W.First;
  EXPECT_EQ(W.Late, 0u);
  EXPECT_GE(W.Checked, 100u * propertyCases(150) / 150);
  EXPECT_GT(W.Failing, 0u);
  EXPECT_LT(W.Failing, W.Checked);
}

/// A larger sweep, by hand: LIBTS_NESTED_SWEEP=<first seed>:<count>.
TEST(NestedShapes, ManualSweep) {
  const char *Env = std::getenv("LIBTS_NESTED_SWEEP");
  if (!Env)
    GTEST_SKIP() << "set LIBTS_NESTED_SWEEP=<first seed>:<count>";
  std::string S = Env;
  uint64_t From = std::stoull(S.substr(0, S.find(':')));
  unsigned Count = unsigned(std::stoul(S.substr(S.find(':') + 1)));
  Sweep W = sweep(From, Count, 64);
  std::printf("checked %u, failing %u, disagreements %u, late %u, latest "
              "first failing count %llu, largest bound %llu %s\n",
              W.Checked, W.Failing, W.Disagree, W.Late,
              (unsigned long long)W.LatestFail,
              (unsigned long long)W.LargestBound, W.First.c_str());
  EXPECT_EQ(W.Disagree, 0u) << W.First;
}

} // namespace
