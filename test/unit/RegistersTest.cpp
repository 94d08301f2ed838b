//===- RegistersTest.cpp - setmaxnreg budgets and padding -----------------===//
#include "Builders.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(Registers, DefaultRegisters) {
  EXPECT_EQ(baselineRegisters(targetSm90a(), 4), 256u); // Capped.
  EXPECT_EQ(baselineRegisters(targetSm90a(), 5), 256u);
  EXPECT_EQ(baselineRegisters(targetSm90a(), 8), 256u);
  EXPECT_EQ(baselineRegisters(targetSm90a(), 12), 168u);
  EXPECT_EQ(baselineRegisters(targetSm90a(), 16), 128u);
  EXPECT_EQ(baselineRegisters(targetSm90a(), 32), 64u);
}

/// Consumers on warp groups 0..Consumers-1, a one-warp producer after.
Builder splitKernel(unsigned Consumers, unsigned ConsumerRegs,
                    unsigned ProducerRegs) {
  Builder B;
  unsigned T = B.tma("Tiles");
  for (unsigned C = 0; C < Consumers; ++C)
    B.task("mma" + std::to_string(C), 4 * C, 4)
        .consumes(T)
        .regs(ConsumerRegs)
        .loop(8)
        .drain(T);
  B.task("load", 4 * Consumers, 1)
      .produces(T)
      .regs(ProducerRegs)
      .loop(8)
      .fill(T);
  return B;
}

TEST(Registers, OneProducerTwoConsumersAt24And240Fits) {
  Builder B = splitKernel(2, 240, 24);
  DiagList D;
  std::vector<Task> Pads = pad(B.P, B.kernel(), D);
  ASSERT_EQ(Pads.size(), 1u);
  DiagList R;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), R);
  EXPECT_TRUE(R.empty()) << dump(R);
}

TEST(Registers, OneProducerTwoConsumersAt40And240Overflows) {
  Builder B = splitKernel(2, 240, 40);
  DiagList D;
  pad(B.P, B.kernel(), D);
  DiagList R;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), R);
  ASSERT_EQ(R.size(), 1u) << dump(R);
  EXPECT_EQ(R[0].Group, Check::Registers);
  EXPECT_EQ(R[0].Loc, kernelLoc(0));
  EXPECT_TRUE(contains(R[0].Message, "need 66560 registers")) << dump(R);
  // The terms of the notes add up to the total, the padding's included.
  uint64_t Sum = 0;
  for (const DiagNote &N : R[0].Notes)
    if (size_t Eq = N.Message.find(" = "); Eq != std::string::npos)
      Sum += std::stoull(N.Message.substr(Eq + 3));
  EXPECT_EQ(Sum, 66560u) << dump(R);
  EXPECT_EQ(R[0].Notes.back().Message,
            "budgets that fit: 24 registers for the producer warp group, up "
            "to 240 for each of the 2 consumer warp groups")
      << dump(R);
}

TEST(Registers, CanonicalSplitsFit) {
  for (auto [Consumers, Regs] : {std::pair{2u, 240u}, std::pair{3u, 160u}}) {
    Builder B = splitKernel(Consumers, Regs, 24);
    DiagList D;
    pad(B.P, B.kernel(), D);
    checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
    EXPECT_TRUE(only(D, Check::Registers).empty()) << dump(D);
  }
  // 2 producer + 2 consumer warp groups at 24/224.
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("c0", 0, 4).consumes(T).regs(224).loop(8).drain(T);
  B.task("c1", 4, 4).consumes(T).regs(224).loop(8).drain(T);
  B.task("p0", 8, 4).produces(T).regs(24).loop(8).fill(T);
  B.task("p1", 12, 4).produces(T).regs(24).loop(8).fill(T);
  DiagList D;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Registers, PaddingFillsTheRestOfTheGroup) {
  Builder B = splitKernel(1, 232, 40);
  DiagList D;
  std::vector<Task> Pads = pad(B.P, B.kernel(), D);
  ASSERT_EQ(Pads.size(), 1u);
  const Task &Pad = Pads[0];
  EXPECT_EQ(Pad.Name, "__ts_padding_1");
  EXPECT_EQ(Pad.FirstWarp, 5u);
  EXPECT_EQ(Pad.NumWarps, 3u);
  EXPECT_EQ(Pad.Regs, 40u);
  EXPECT_TRUE(Pad.Padding);
  EXPECT_EQ(Pad.Loc, kernelLoc(0));
  // The plan holds the padding: the model keeps what the user wrote.
  EXPECT_EQ(B.kernel().Tasks.size(), 2u);
  EXPECT_EQ(B.P.Tasks.size(), 2u);
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0].Group, Check::Padding);
  EXPECT_EQ(D[0].Message, "warps [5, 8) of warp group 1 have no task; padded "
                          "with an idle task at setmaxnreg 40");
  ASSERT_EQ(D[0].Notes.size(), 1u);
  EXPECT_EQ(D[0].Notes[0].Message,
            "add a task covering these warps to silence this");

  DiagList R;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), R);
  checkWarps(B.P, B.kernel(), planFor(B.P, B.kernel()), R);
  EXPECT_TRUE(R.empty()) << dump(R);
}

TEST(Registers, NoPaddingWithoutBudgets) {
  Builder B = splitKernel(1, 232, 40);
  B.P.Tasks[0].Regs.reset();
  B.P.Tasks[1].Regs.reset();
  DiagList D;
  EXPECT_TRUE(pad(B.P, B.kernel(), D).empty());
  EXPECT_TRUE(D.empty());
}

TEST(Registers, UncoveredWarpsWithoutPaddingAreAnError) {
  Builder B = splitKernel(1, 232, 40);
  DiagList D;
  // A plan whose groups were not padded (the plan pads every group whose
  // budgets agree; the check still covers a group left with holes).
  KernelPlan Plan = planFor(B.P, B.kernel());
  Plan.Groups = warpGroups(B.P, B.kernel(), targetSm90a());
  checkRegisters(B.P, B.kernel(), Plan, D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, taskLoc(1));
  EXPECT_TRUE(contains(D[0].Message, "warps [5, 8) of warp group 1 are not "
                                     "covered by any task"))
      << dump(D);
  EXPECT_TRUE(contains(D[0].Notes[0].Message, "padding task")) << dump(D);
}

TEST(Registers, InconsistentBudgetsInOneGroup) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("a", 0, 2).consumes(T).regs(232).loop(8).drain(T);
  B.task("b", 2, 2).consumes(T).regs(240).loop(8).drain(T);
  B.task("load", 4, 4).produces(T).regs(40).loop(8).fill(T);
  DiagList Pad;
  EXPECT_TRUE(pad(B.P, B.kernel(), Pad).empty());
  DiagList D;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, taskLoc(1));
  EXPECT_EQ(D[0].Message, "task 'b' sets setmaxnreg 240 but warp group 0 "
                          "already uses 232");
  EXPECT_EQ(D[0].Notes[0].Loc, taskLoc(0));
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(Registers, BudgetOutOfRange) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("a", 0, 4).consumes(T).regs(100).loop(8).drain(T);
  B.task("b", 4, 4).produces(T).regs(16).loop(8).fill(T);
  DiagList D;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 2u) << dump(D);
  EXPECT_TRUE(contains(D[0].Message, "register budget 100 of task 'a'"));
  EXPECT_TRUE(contains(D[1].Message, "register budget 16 of task 'b'"));
  EXPECT_TRUE(allHaveNotes(D));
}

TEST(Registers, TaskWithoutBudgetInBudgetGroup) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("a", 0, 4).consumes(T).regs(232).loop(8).drain(T);
  B.task("load", 4, 1).produces(T).regs(40).loop(8).fill(T);
  B.task("aux", 5, 3);
  DiagList D;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_EQ(D[0].Loc, taskLoc(2));
  EXPECT_TRUE(contains(D[0].Message, "task 'aux' has no register budget"));
  EXPECT_TRUE(contains(D[0].Notes.back().Message, "ts::regs(40)"));
}

TEST(Registers, TaskSpanningGroupsIsFine) {
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("a", 0, 2).consumes(T).regs(40).loop(8).drain(T);
  B.task("b", 2, 4).produces(T).regs(40).loop(8).fill(T);
  B.task("c", 6, 2).consumes(T).regs(40).loop(8).drain(T);
  DiagList D;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  EXPECT_TRUE(D.empty()) << dump(D);
}

TEST(Registers, DefaultWarpsCountInTheSum) {
  // 12 warps: default 168. Two groups at 256 plus one default group:
  // 32 * (8 * 256 + 4 * 168) = 87040.
  Builder B;
  unsigned T = B.tma("Tiles");
  B.task("a", 0, 8).consumes(T).regs(256).loop(8).drain(T);
  B.task("b", 8, 4).produces(T).loop(8).fill(T);
  DiagList D;
  checkRegisters(B.P, B.kernel(), planFor(B.P, B.kernel()), D);
  ASSERT_EQ(D.size(), 1u) << dump(D);
  EXPECT_TRUE(contains(D[0].Message, "need 87040 registers")) << dump(D);
  bool DefaultNote = false;
  for (const DiagNote &N : D[0].Notes)
    DefaultNote |=
        contains(N.Message, "at the launch default: 4 warps x 32 threads x 168 "
                            "registers = 21504");
  EXPECT_TRUE(DefaultNote) << dump(D);
}

} // namespace
