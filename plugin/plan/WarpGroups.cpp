//===- WarpGroups.cpp - Warp groups and their padding ---------------------===//
//
// setmaxnreg acts on a whole warp group, so the plan knows which tasks touch
// each group; a group with a budget but idle warps gets padding tasks.
//
//===----------------------------------------------------------------------===//
#include "plan/Plan.h"

#include <algorithm>

namespace ts {

bool WarpGroup::consistent(const Program &P) const {
  for (unsigned TI : Budget)
    if (*P.Tasks[TI].Regs != *P.Tasks[Budget.front()].Regs)
      return false;
  return true;
}

std::vector<std::pair<unsigned, unsigned>> WarpGroup::holes() const {
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

std::vector<WarpGroup> warpGroups(const Program &P, const Kernel &K,
                                  const Target &Tg) {
  unsigned G4 = Tg.WarpGroupWarps;
  unsigned Groups = (blockWarps(P, K) + G4 - 1) / G4;
  std::vector<WarpGroup> Out(Groups);
  for (unsigned G = 0; G < Groups; ++G) {
    WarpGroup &WG = Out[G];
    WG.Index = G;
    for (unsigned TI : K.Tasks) {
      const Task &T = P.Tasks[TI];
      if (T.endWarp() <= WG.first() || T.FirstWarp >= WG.first() + G4 ||
          T.NumWarps == 0)
        continue;
      WG.Tasks.push_back(TI);
      if (T.Regs)
        WG.Budget.push_back(TI);
      for (unsigned W = std::max(T.FirstWarp, WG.first());
           W < std::min(T.endWarp(), WG.first() + G4); ++W)
        WG.Covered[W - WG.first()] = true;
    }
  }
  return Out;
}

void padWarpGroups(const Program &P, const Kernel &K, KernelPlan &Plan) {
  for (WarpGroup &WG : Plan.Groups) {
    // Inconsistent budgets are the register check's to report; guessing
    // one would hide that error.
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
      for (unsigned W = Begin; W < End; ++W)
        WG.Covered[W - WG.first()] = true;
      WG.Padding.push_back(Plan.Padding.size());
      Plan.Padding.push_back(std::move(T));

      std::string Warps =
          "[" + std::to_string(Begin) + ", " + std::to_string(End) + ")";
      Plan.Findings.push_back(
          Diag{Check::Padding,
               K.Loc,
               "warps " + Warps + " of warp group " + std::to_string(WG.Index) +
                   " have no task; padded with an idle task at "
                   "setmaxnreg " +
                   std::to_string(Regs),
               {{K.Loc, "add a task covering these warps to silence this"}}});
    }
  }
}

} // namespace ts
