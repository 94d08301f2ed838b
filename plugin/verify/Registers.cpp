//===- Registers.cpp - setmaxnreg budgets per warp group -------------------===//
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
    if (!T.Regs || T.Padding)
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

  // Sum per warp: warps without a budget keep the launch default.
  unsigned Default = Plan.BaselineRegs;
  unsigned Slots = roundUp(Plan.Warps, Tg.WarpGroupWarps);
  std::vector<unsigned> PerWarp(Slots, Default);
  std::vector<bool> HasBudget(Slots, false);
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned W = T.FirstWarp; T.Regs && W < std::min(T.endWarp(), Slots);
         ++W) {
      PerWarp[W] = *T.Regs;
      HasBudget[W] = true;
    }
  }
  uint64_t Sum = 0;
  bool AnyDefault = false;
  for (unsigned W = 0; W < Slots; ++W) {
    Sum += uint64_t(Tg.WarpThreads) * PerWarp[W];
    AnyDefault |= !HasBudget[W];
  }
  if (Sum <= Tg.RegisterFile)
    return;
  Diag &D = report(Out, Check::Registers, K.Loc,
                   "register budgets of kernel " + quote(K.Name) + " need " +
                       std::to_string(Sum) +
                       " registers; the register file holds " +
                       std::to_string(Tg.RegisterFile));
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.Regs && !T.Padding)
      note(D, T.Loc,
           "task " + quote(T.Name) + ": " + std::to_string(T.NumWarps) +
               " warps x 32 x " + std::to_string(*T.Regs) + " registers");
  }
  if (AnyDefault)
    note(D, K.Loc,
         "warps without ts::regs count at the default of " +
             std::to_string(Default) + " registers");
  note(D, K.Loc,
       "budgets that fit: 1 producer + 2 consumer warp groups = "
       "24/240, 2 producer + 2 consumer = 24/224, 1 producer + 3 "
       "consumer = 24/160");
}

void checkRegisterPressure(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Regs || T.Padding || *T.Regs >= PressureBudget)
      continue;
    // TMA producers only issue copies; threads that move or read stage
    // data need registers for it.
    auto Simt = std::find_if(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
      if (!O.onResource())
        return false;
      PipelineKind Kind = P.Resources[O.Resource].Kind;
      return O.Kind == OpKind::Work && isPipelined(Kind) &&
             (O.R == Role::Consumer || Kind == PipelineKind::AsyncAsync);
    });
    if (Simt == T.Ops.end())
      continue;
    const Resource &Res = P.Resources[Simt->Resource];
    Diag &D = report(Out, Check::Pressure, Simt->Loc,
                     "task " + quote(T.Name) + " " +
                         (Simt->R == Role::Consumer ? "reads" : "writes") +
                         " stages of " + quote(Res.Name) +
                         " with threads on a budget of " +
                         std::to_string(*T.Regs) + " registers");
    note(D, T.Loc,
         "a budget this small suits TMA producers; thread copies will spill: "
         "raise ts::regs to " +
             std::to_string(PressureBudget) +
             " or more, or produce the stage with TMA");
  }
}

} // namespace ts
