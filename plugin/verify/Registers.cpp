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

constexpr unsigned RegisterFile = 65536;
constexpr unsigned MinRegs = 24, MaxRegs = 256;

/// The tasks that touch one warp group, and which of its warps they cover.
struct WarpGroup {
  unsigned Index = 0;
  std::vector<unsigned> Tasks;  ///< Program task indices, kernel order.
  std::vector<unsigned> Budget; ///< Tasks among Tasks with Regs set.
  bool Covered[4] = {false, false, false, false};

  unsigned first() const { return 4 * Index; }
  bool consistent(const Program &P) const {
    for (unsigned TI : Budget)
      if (*P.Tasks[TI].Regs != *P.Tasks[Budget.front()].Regs)
        return false;
    return true;
  }
  /// Maximal runs of uncovered warps as [begin, end).
  std::vector<std::pair<unsigned, unsigned>> holes() const {
    std::vector<std::pair<unsigned, unsigned>> Out;
    for (unsigned W = 0; W < 4; ++W) {
      if (Covered[W])
        continue;
      if (!Out.empty() && Out.back().second == first() + W)
        ++Out.back().second;
      else
        Out.push_back({first() + W, first() + W + 1});
    }
    return Out;
  }
};

std::vector<WarpGroup> warpGroups(const Program &P, const Kernel &K) {
  unsigned Groups = roundUp(blockWarps(P, K), 4) / 4;
  std::vector<WarpGroup> Out(Groups);
  for (unsigned G = 0; G < Groups; ++G) {
    WarpGroup &WG = Out[G];
    WG.Index = G;
    for (unsigned TI : K.Tasks) {
      const Task &T = P.Tasks[TI];
      if (T.endWarp() <= WG.first() || T.FirstWarp >= WG.first() + 4 ||
          T.NumWarps == 0)
        continue;
      WG.Tasks.push_back(TI);
      if (T.Regs)
        WG.Budget.push_back(TI);
      for (unsigned W = std::max(T.FirstWarp, WG.first());
           W < std::min(T.endWarp(), WG.first() + 4); ++W)
        WG.Covered[W - WG.first()] = true;
    }
  }
  return Out;
}

std::string groupName(unsigned G) { return "warp group " + std::to_string(G); }

} // namespace

std::vector<unsigned> padWarpGroups(Program &P, Kernel &K, DiagList &Out) {
  std::vector<unsigned> Added;
  for (const WarpGroup &WG : warpGroups(P, K)) {
    // Inconsistent budgets are checkRegisters' to report; guessing one
    // would hide that error.
    if (WG.Budget.empty() || !WG.consistent(P))
      continue;
    unsigned Regs = *P.Tasks[WG.Budget.front()].Regs;
    unsigned Hole = 0;
    for (auto [Begin, End] : WG.holes()) {
      Task T;
      T.Name = "__ts_padding_" + std::to_string(WG.Index);
      if (Hole++) // A second hole in the same group: a distinct name.
        T.Name += "_" + std::to_string(Hole - 1);
      T.FirstWarp = Begin;
      T.NumWarps = End - Begin;
      T.Regs = Regs;
      T.Padding = true;
      T.Loc = K.Loc;
      Added.push_back(P.Tasks.size());
      K.Tasks.push_back(P.Tasks.size());
      P.Tasks.push_back(std::move(T));

      Diag &D =
          report(Out, Check::Padding, K.Loc,
                 "warps " + range(Begin, End) + " of " + groupName(WG.Index) +
                     " have no task; padded with an idle task at "
                     "setmaxnreg " +
                     std::to_string(Regs));
      note(D, K.Loc, "add a task covering these warps to silence this");
    }
  }
  return Added;
}

void checkRegisters(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Regs || T.Padding)
      continue;
    unsigned R = *T.Regs;
    if (R % 8 == 0 && R >= MinRegs && R <= MaxRegs)
      continue;
    Diag &D =
        report(Out, Check::Registers, T.Loc,
               "register budget " + std::to_string(R) + " of task " +
                   quote(T.Name) + " is not a multiple of 8 in [24, 256]");
    note(D, T.Loc, "setmaxnreg takes a multiple of 8 between 24 and 256");
  }

  for (const WarpGroup &WG : warpGroups(P, K)) {
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
  unsigned Warps = blockWarps(P, K);
  unsigned Default = defaultRegisters(Warps);
  unsigned Slots = roundUp(Warps, 4);
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
    Sum += 32ull * PerWarp[W];
    AnyDefault |= !HasBudget[W];
  }
  if (Sum <= RegisterFile)
    return;
  Diag &D = report(Out, Check::Registers, K.Loc,
                   "register budgets of kernel " + quote(K.Name) + " need " +
                       std::to_string(Sum) +
                       " registers; the register file holds 65536");
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
