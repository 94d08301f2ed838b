//===- NestedPropertyTest.cpp - The inner-count bound against brute force -===//
//
// Random schedules (Generator.h) nested the way persistent kernels are: each
// task's loop body becomes a k-loop inside its loop, its head and tail run
// before and after each k-loop. verifyKernel checks inner counts 0 to
// innerTripBound (all stages + 3, docs/verifier.md "Nested domains"); brute
// force checks every inner count up to four times that. The verdicts must
// agree and the first failing count must lie within the bound.
//
//===----------------------------------------------------------------------===//
#include "Generator.h"
#include "NestedSchedules.h"
#include "verify/Nested.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(NestedProperty, InnerBoundDecidesEveryInnerCount) {
  unsigned Cases = propertyCases(300);
  auto Make = [](uint64_t Seed) {
    Generator G(Seed);
    GenOptions O;
    O.MaxTasks = 3 + Seed % 2;
    O.MaxStages = 2 + Seed % 3;
    Builder B = G.make(O);
    nestLoops(B.P);
    return B;
  };
  // Brute force up to four times the bound.
  InnerSweep W = sweepInnerCounts(5000, Cases, Make,
                                  [](uint64_t Bound) { return 4 * Bound; });
  EXPECT_EQ(W.Disagree, 0u) << W.First;
  EXPECT_EQ(W.Late, 0u) << W.First;
  // Most schedules reach the counts, and both verdicts occur.
  EXPECT_GE(W.Checked, Cases * 3 / 4);
  EXPECT_GT(W.Failing, W.Checked / 10);
  EXPECT_LT(W.Failing, W.Checked);
}

TEST(NestedProperty, LateDeadlockNeedsTheSumOfStages) {
  // Found by the sweep (docs/verifier.md): t1 commits a per-tile resource
  // after its k-loop; its consumer holds back its releases of R2 until then,
  // so t1 runs ahead through R0 (3 stages) and R2 (3) and blocks from k = 7.
  uint64_t Seed = 5742;
  Generator G(Seed);
  GenOptions O;
  O.MaxTasks = 3 + Seed % 4;
  O.MaxResources = 2 + Seed % 4;
  O.MaxStages = 1 + Seed % 4;
  Builder B = G.make(O);
  nestLoops(B.P);
  KernelPlan Plan = planFor(B.P, B.kernel());
  EXPECT_FALSE(hasError(verifyInnerCount(B.P, B.kernel(), Plan, 6).Diags));
  EXPECT_TRUE(hasError(verifyInnerCount(B.P, B.kernel(), Plan, 7).Diags));
  EXPECT_GE(innerTripCounts(B.P, B.kernel()).back(), 7u);
  EXPECT_TRUE(hasError(verifyKernel(B.P, B.kernel(), Plan).Diags));
}

} // namespace
