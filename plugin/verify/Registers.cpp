//===- Registers.cpp - setmaxnreg budgets per warp group ------------------===//
//
// setmaxnreg acts on a whole warp group (4 warps), so every warp of a group
// with a budget must run a task with that same budget, and the budgets of
// the block must fit the 64K-register file.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

std::string groupName(unsigned G) { return "warp group " + std::to_string(G); }

} // namespace

void checkRegisters(const Program &P, const Kernel &K, const KernelPlan &Plan,
                    DiagList &Out) {
  const Target &Tg = *Plan.Tgt;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Regs)
      continue;
    unsigned R = *T.Regs;
    if (R % Tg.RegGranule == 0 && R >= Tg.MinRegs && R <= Tg.MaxRegs)
      continue;
    std::string Rule = "a multiple of " + std::to_string(Tg.RegGranule) +
                       " in [" + std::to_string(Tg.MinRegs) + ", " +
                       std::to_string(Tg.MaxRegs) + "]";
    Diag &D = report(Out, Check::Registers, T.Loc,
                     "register budget " + std::to_string(R) + " of task " +
                         quote(T.Name) + " is not " + Rule);
    note(D, T.Loc, "setmaxnreg takes " + Rule);
  }

  for (const WarpGroup &WG : Plan.Groups) {
    if (WG.Budget.empty())
      continue;
    const Task &First = P.Tasks[WG.Budget.front()];
    bool Consistent = true;
    for (unsigned TI : WG.Budget) {
      const Task &T = P.Tasks[TI];
      if (*T.Regs == *First.Regs)
        continue;
      Consistent = false;
      Diag &D =
          report(Out, Check::Registers, T.Loc,
                 "task " + quote(T.Name) + " sets setmaxnreg " +
                     std::to_string(*T.Regs) + " but " + groupName(WG.Index) +
                     " already uses " + std::to_string(*First.Regs));
      note(D, First.Loc,
           "task " + quote(First.Name) + " sets setmaxnreg " +
               std::to_string(*First.Regs) + " here");
      note(D, T.Loc,
           "setmaxnreg applies to a whole warp group; give every "
           "task of the group the same ts::regs value");
    }
    std::string Budget = std::to_string(*First.Regs);
    for (unsigned TI : WG.Tasks) {
      const Task &T = P.Tasks[TI];
      if (T.Regs)
        continue;
      Diag &D =
          report(Out, Check::Registers, T.Loc,
                 "task " + quote(T.Name) +
                     " has no register budget "
                     "but shares " +
                     groupName(WG.Index) + " with task " + quote(First.Name));
      note(D, First.Loc,
           "task " + quote(First.Name) + " sets setmaxnreg " + Budget +
               " here");
      note(D, T.Loc,
           "setmaxnreg applies to a whole warp group; add "
           "ts::regs(" +
               Budget + ") to task " + quote(T.Name));
    }
    for (auto [Begin, End] : WG.holes()) {
      Diag &D =
          report(Out, Check::Registers, First.Loc,
                 "warps " + range(Begin, End) + " of " + groupName(WG.Index) +
                     " are not covered by any task but the group sets "
                     "setmaxnreg " +
                     Budget);
      note(D, First.Loc,
           "add a padding task on warps " + range(Begin, End) +
               (Consistent ? " with ts::regs(" + Budget + ")" : std::string()));
    }
  }

  // The plan sums per warp: warps without a budget keep the launch default.
  uint64_t Sum = Plan.RegisterSum;
  bool AnyDefault =
      std::any_of(Plan.WarpBudget.begin(), Plan.WarpBudget.end(),
                  [](const std::optional<unsigned> &B) { return !B; });
  if (Sum <= Tg.RegisterFile)
    return;
  Diag &D =
      report(Out, Check::Registers, K.Loc,
             "register budgets of kernel " + quote(K.Name) + " need " +
                 std::to_string(Sum) + " registers; the register file holds " +
                 std::to_string(Tg.RegisterFile));
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.Regs)
      note(D, T.Loc,
           "task " + quote(T.Name) + ": " + std::to_string(T.NumWarps) +
               " warps x " + std::to_string(Tg.WarpThreads) + " x " +
               std::to_string(*T.Regs) + " registers");
  }
  if (AnyDefault)
    note(D, K.Loc,
         "warps without ts::regs count at the default of " +
             std::to_string(Plan.BaselineRegs) + " registers");
  note(D, K.Loc,
       "budgets that fit: 1 producer + 2 consumer warp groups = "
       "24/240, 2 producer + 2 consumer = 24/224, 1 producer + 3 "
       "consumer = 24/160");
}

} // namespace ts
