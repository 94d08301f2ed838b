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

std::string warps(unsigned N) {
  return std::to_string(N) + (N == 1 ? " warp" : " warps");
}

/// "3 warps x 32 threads x 24 registers = 2304": one term of the sum.
std::string term(const Target &Tg, unsigned Warps, unsigned Regs) {
  return warps(Warps) + " x " + std::to_string(Tg.WarpThreads) + " threads x " +
         std::to_string(Regs) + " registers = " +
         std::to_string(uint64_t(Warps) * Tg.WarpThreads * Regs);
}

/// Budgets that fit this kernel's warp groups: the smallest budget's
/// groups (the producers) at the minimum, the others as high as the
/// register file allows.
std::string fittingBudgets(const KernelPlan &Plan) {
  const Target &Tg = *Plan.Tgt;
  unsigned GroupThreads = Tg.WarpGroupWarps * Tg.WarpThreads;
  std::vector<unsigned> Budgets;
  uint64_t Fixed = 0; // warps at the launch baseline
  for (unsigned W = 0; W < Plan.WarpBudget.size(); ++W)
    if (!Plan.WarpBudget[W])
      Fixed += uint64_t(Tg.WarpThreads) * Plan.BaselineRegs;
    else if (W % Tg.WarpGroupWarps == 0)
      Budgets.push_back(*Plan.WarpBudget[W]);
  if (Budgets.empty() || Fixed >= Tg.RegisterFile)
    return "";
  unsigned Low = *std::min_element(Budgets.begin(), Budgets.end());
  unsigned NLow = std::count(Budgets.begin(), Budgets.end(), Low);
  unsigned NHigh = Budgets.size() - NLow;
  auto Fit = [&](uint64_t Left, unsigned Groups) {
    uint64_t R = Left / (uint64_t(Groups) * GroupThreads);
    return unsigned(std::min<uint64_t>(R - R % Tg.RegGranule, Tg.MaxRegs));
  };
  uint64_t Left = Tg.RegisterFile - Fixed;
  if (NHigh == 0 || uint64_t(NLow) * GroupThreads * Tg.MinRegs >= Left) {
    unsigned Each = Fit(Left, Budgets.size());
    if (Each < Tg.MinRegs)
      return "";
    return "budgets that fit: at most " + std::to_string(Each) +
           " registers for each of the " + std::to_string(Budgets.size()) +
           " warp groups";
  }
  unsigned High = Fit(Left - uint64_t(NLow) * GroupThreads * Tg.MinRegs, NHigh);
  if (High < Tg.MinRegs)
    return "";
  std::string Producers = NLow == 1 ? "the producer warp group"
                                    : "each of the " + std::to_string(NLow) +
                                          " producer warp groups";
  std::string Consumers = NHigh == 1 ? "the consumer warp group"
                                     : "each of the " + std::to_string(NHigh) +
                                           " consumer warp groups";
  return "budgets that fit: " + std::to_string(Tg.MinRegs) + " registers for " +
         Producers + ", up to " + std::to_string(High) + " for " + Consumers;
}

/// The sum over the block, term by term: tasks, the padding that fills
/// their warp groups, and warps at the launch default.
void reportRegisterFile(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, DiagList &Out) {
  const Target &Tg = *Plan.Tgt;
  Diag &D = report(Out, Check::Registers, K.Loc,
                   "register budgets of kernel " + quote(K.Name) + " need " +
                       std::to_string(Plan.RegisterSum) +
                       " registers; the register file holds " +
                       std::to_string(Tg.RegisterFile));
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.Regs)
      note(D, T.regsLoc(),
           "task " + quote(T.Name) + ": " + term(Tg, T.NumWarps, *T.Regs));
  }
  for (const Task &Pad : Plan.Padding)
    note(D, Pad.Loc,
         "padding: " + term(Tg, Pad.NumWarps, *Pad.Regs) + " (warps " +
             range(Pad.FirstWarp, Pad.FirstWarp + Pad.NumWarps) +
             ": setmaxnreg sets the whole warp group)");
  unsigned Default =
      std::count_if(Plan.WarpBudget.begin(), Plan.WarpBudget.end(),
                    [](const std::optional<unsigned> &B) { return !B; });
  if (Default)
    note(D, K.Loc,
         "warps without ts::regs, at the launch default: " +
             term(Tg, Default, Plan.BaselineRegs));
  if (std::string Fit = fittingBudgets(Plan); !Fit.empty())
    note(D, K.Loc, Fit);
}

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
    Diag &D = report(Out, Check::Registers, T.regsLoc(),
                     "register budget " + std::to_string(R) + " of task " +
                         quote(T.Name) + " is not " + Rule);
    unsigned Below = std::clamp(R - R % Tg.RegGranule, Tg.MinRegs,
                                Tg.MaxRegs - Tg.RegGranule);
    note(D, T.regsLoc(),
         "write ts::regs(" + std::to_string(Below) + ") or ts::regs(" +
             std::to_string(Below + Tg.RegGranule) + "): setmaxnreg takes " +
             Rule);
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
          report(Out, Check::Registers, T.regsLoc(),
                 "task " + quote(T.Name) + " sets setmaxnreg " +
                     std::to_string(*T.Regs) + " but " + groupName(WG.Index) +
                     " already uses " + std::to_string(*First.Regs));
      note(D, First.regsLoc(),
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
      note(D, First.regsLoc(),
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

  if (Plan.RegisterSum > Tg.RegisterFile)
    reportRegisterFile(P, K, Plan, Out);
}

} // namespace ts
