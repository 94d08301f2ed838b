// What each hand-back credits to the prefix of stages the other side may
// use (plan/HandBack.h), computed from one task's operations.
#include "plan/HandBack.h"
#include "Builders.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// A consumer that waits for three stages an iteration and hands them back
/// in the order given (stage variables 0, 1, 2 of its waits).
std::optional<std::vector<unsigned>> credits(std::vector<int> Order,
                                             bool Oldest = false) {
  Builder B;
  unsigned R = B.resource("R", PipelineKind::AsyncAsync, 3, 128);
  auto L = B.task("use", 1, 1).consumes(R).loop(std::nullopt).body();
  L.wait(R).wait(R).wait(R).release(R).release(R).release(R);
  Task &T = B.P.Tasks[0];
  for (unsigned I = 0; I < 3; ++I)
    T.Ops[3 + I].Stage = int(T.Ops[Order[I]].Stage);
  T.Ops[5].Oldest = Oldest;
  return handBackCredits(B.P, T);
}

TEST(HandBack, InOrderCreditsOneEach) {
  auto C = credits({0, 1, 2});
  ASSERT_TRUE(C.has_value());
  EXPECT_TRUE(C->empty());
}

TEST(HandBack, TheHandBackThatCompletesThePrefixCreditsItAll) {
  auto C = credits({2, 0, 1});
  ASSERT_TRUE(C.has_value());
  EXPECT_EQ(*C, (std::vector<unsigned>{1, 1, 1, 0, 1, 2}));
  C = credits({1, 2, 0});
  ASSERT_TRUE(C.has_value());
  EXPECT_EQ(*C, (std::vector<unsigned>{1, 1, 1, 0, 0, 3}));
}

TEST(HandBack, ReleaseOldestBesideReorderingIsNotCredited) {
  EXPECT_FALSE(credits({2, 0, 1}, /*Oldest=*/true).has_value());
}

TEST(HandBack, AnOlderStageHeldPastTheIterationIsNotCredited) {
  Builder B;
  unsigned R = B.resource("R", PipelineKind::AsyncAsync, 3, 128);
  auto L = B.task("use", 1, 1).consumes(R).loop(std::nullopt).body();
  // wait a; wait b; release b; (a is never released in the iteration)
  L.wait(R).wait(R).release(R);
  EXPECT_FALSE(handBackCredits(B.P, B.P.Tasks[0]).has_value());
}

} // namespace
