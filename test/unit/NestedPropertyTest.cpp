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
#include "verify/Nested.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

/// Head -> tile loop before the k-loop, loop -> k-loop, tail -> tile loop
/// after it. Every task's k-loop runs the same unknown count "k".
void nest(Program &P) {
  for (Task &T : P.Tasks) {
    T.Inner = Domain();
    T.Inner.Present = true;
    T.Inner.StartText = "0";
    T.Inner.Start = 0;
    T.Inner.StepText = "1";
    T.Inner.Step = 1;
    T.Inner.EndText = T.Inner.EndSym = "k";
    T.Inner.Loc = T.Dom.Loc + 50;
    for (Op &O : T.Ops)
      O.Sec = O.Sec == Section::Loop ? Section::Inner : Section::Loop;
  }
}

TEST(NestedProperty, InnerBoundDecidesEveryInnerCount) {
  unsigned Cases = propertyCases(300), Checked = 0, Failing = 0;
  for (uint64_t Seed = 5000; Seed < 5000 + Cases; ++Seed) {
    Generator G(Seed);
    GenOptions O;
    O.MaxTasks = 3 + Seed % 2;
    O.MaxStages = 2 + Seed % 3;
    Builder B = G.make(O);
    nest(B.P);
    const Kernel &K = B.kernel();
    KernelPlan Plan = planFor(B.P, K);
    DiagList Structure;
    checkRoles(B.P, K, Structure);
    checkNesting(B.P, K, Plan, Structure);
    if (hasError(Structure))
      continue; // refused before any count is run, both ways
    ++Checked;
    std::vector<uint64_t> Ns = innerTripCounts(B.P, K);
    uint64_t Hi = 4 * Ns.back();
    std::optional<uint64_t> FirstFail;
    for (uint64_t N = 0; N <= Hi && !FirstFail; ++N)
      if (hasError(verifyInnerCount(B.P, K, Plan, N).Diags))
        FirstFail = N;
    Failing += FirstFail.has_value();
    EXPECT_EQ(hasError(verifyKernel(B.P, K, Plan).Diags), FirstFail.has_value())
        << "seed " << Seed << ", first failing inner count "
        << (FirstFail ? std::to_string(*FirstFail) : "none");
    if (FirstFail)
      EXPECT_LE(*FirstFail, Ns.back()) << "seed " << Seed;
  }
  // Most schedules reach the counts, and both verdicts occur.
  EXPECT_GE(Checked, Cases * 3 / 4);
  EXPECT_GT(Failing, Checked / 10);
  EXPECT_LT(Failing, Checked);
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
  nest(B.P);
  KernelPlan Plan = planFor(B.P, B.kernel());
  EXPECT_FALSE(hasError(verifyInnerCount(B.P, B.kernel(), Plan, 6).Diags));
  EXPECT_TRUE(hasError(verifyInnerCount(B.P, B.kernel(), Plan, 7).Diags));
  EXPECT_GE(innerTripCounts(B.P, B.kernel()).back(), 7u);
  EXPECT_TRUE(hasError(verifyKernel(B.P, B.kernel(), Plan).Diags));
}

} // namespace
